"""Gatti, Liguria (rulebook §2, §3): the current rules and the older ones, their melds and their
scoring. The older rules differ from the current by data and the deck-points hook."""
