"""Mitigatti, Nice 1930 (rulebook §5): the variants, the scoring of a hand in marca, and the
settlement of an evening."""
