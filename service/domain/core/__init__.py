"""The ground floor: cards and packs (rulebook §1, §4.1), their notation, the words the core says,
typed errors, and results as explained lines. Nothing here knows a variant."""
