"""Scoring a hand: the one function behind ``POST /score`` and every stored hand
(ARCHITECTURE §4). The variant's scorer validates the record against its rules, collecting every
problem, and returns each point as an explained line."""

from __future__ import annotations

from collections.abc import Mapping

from .records import HandRecord
from .results import HandResult
from .variants.base import Variant


def score_hand(variant: Variant, options: Mapping[str, object], record: HandRecord) -> HandResult:
    """The result of ``record`` under ``variant`` with resolved ``options``; raises
    ``RecordInvalid`` listing every rule the record breaks."""
    return variant.scorer(variant, options, record)
