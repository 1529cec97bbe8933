"""Scoring a hand: the one function behind ``POST /score`` and every stored hand
(ARCHITECTURE §4). The variant's scorer validates the record against its rules, collecting every
problem, and returns each point as an explained line."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core.cards import Card
from ..core.errors import Problem, RecordInvalid
from ..core.notation import parse_cards
from ..core.results import HandResult
from ..core.text import Text
from ..variant import Variant
from .records import HandRecord, read_hand_record
from .sides import seat_name


def score_hand(variant: Variant, options: Mapping[str, object], record: HandRecord) -> HandResult:
    """The result of a well-formed ``record`` under ``variant`` with resolved ``options``;
    raises ``RecordInvalid`` listing every rule the record breaks."""
    return variant.scorer(variant, options, record, frozenset())


def score_record(
    variant: Variant,
    options: Mapping[str, object],
    data: Mapping[str, Any],
    *,
    expected_dealer: int | None = None,
    checks: Callable[[HandRecord, frozenset[str]], Sequence[Problem]] | None = None,
    dealt: Sequence[frozenset[Card]] | None = None,
) -> tuple[HandRecord, HandResult]:
    """Read, check and score a record in its JSON form. Every problem is reported at once:
    those of form, the dealer whose turn it is (in a game), what ``checks`` finds in the
    well-formed sections (a duplicate board's referee: ``duplicate.referee.board_checks``),
    and every rule the well-formed sections break. ``dealt``: what each seat held before the
    discard where the service dealt the hand (a duplicate board's ``holdings``), for the
    rules that follow a card's holder where the record does not show it."""
    record, problems, incomplete = read_hand_record(variant, data)
    if record is not None and expected_dealer is not None and record.dealer != expected_dealer:
        problems.append(Problem("dealer", "wrong_dealer",
                                Text("{who} deals this hand, not {dealer}",
                                     who=seat_name(expected_dealer),
                                     dealer=seat_name(record.dealer)), "§0"))
    if record is not None and checks is not None:
        problems.extend(checks(record, incomplete))
    result = None
    if record is not None:
        try:
            result = variant.scorer(variant, options, record, incomplete, dealt=dealt)
        except RecordInvalid as exc:
            problems.extend(exc.problems)
    if problems or record is None or result is None:
        raise RecordInvalid(problems, variant.family)
    return record, result


def suggest_melds(variant: Variant, cards: list[str]) -> list[dict[str, object]]:
    """What these cards can declare, with points (``POST /melds/suggest``)."""
    parsed, problems = parse_cards(cards, variant.pack, "cards")
    if problems:
        raise RecordInvalid(problems)
    if len(parsed) > variant.dealt_each + variant.extra:
        raise RecordInvalid([Problem(
            "cards", "too_many_cards",
            Text("a hand of {id} holds at most {n} cards (the dealer before the discard), not "
                 "{n2}", id=variant.id, n=variant.dealt_each + variant.extra, n2=len(parsed)),
            variant.rules_section)])
    return variant.suggester(variant, parsed)
