"""Scoring a hand: the one function behind ``POST /score`` and every stored hand
(docs/architecture.md, principle 4). The variant's scorer validates the record against its rules, collecting every
problem, and returns each point as an explained line."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..core.cards import Card
from ..core.errors import Problem, RecordInvalid
from ..core.notation import parse_cards
from ..core.results import HandResult
from ..core.text import Text
from ..rulings import RULES_VERSION, waived_rulings
from ..variant import Variant
from .records import HandRecord, read_hand_record
from .sides import seat_name


def score_hand(variant: Variant, options: Mapping[str, object], record: HandRecord, *,
               rules_version: str = RULES_VERSION) -> HandResult:
    """The result of a well-formed ``record`` under ``variant`` with resolved ``options``, by
    the rules of ``rules_version`` (the one it was recorded under; a new record's is the
    current one); raises ``RecordInvalid`` listing every rule the record breaks."""
    return by_its_rules(rules_version, lambda waived: variant.scorer(
        variant, options, record, frozenset(), waived=waived))


def by_its_rules(rules_version: str,
                 score: Callable[[frozenset[str]], HandResult]) -> HandResult:
    """``score`` (a scorer given the rulings it leaves out) held to the rules of
    ``rules_version``. Scored by the rules in force first: a record they refuse only by
    rulings brought after its version is scored without those, keeps its result, and says
    what the rules now would say of it (``HandResult.earlier_rules``)."""
    try:
        return score(frozenset())
    except RecordInvalid as refused:
        waived = waived_rulings(rules_version)
        if not waived or any(p.rule not in waived for p in refused.problems):
            raise
        now = refused
    rulings = sorted({p.rule for p in now.problems if p.rule is not None})
    return replace(score(waived), earlier_rules=Text(
        "recorded under the rules of {version}, before {rulings}; the rules now would refuse "
        "it: {reasons}", version=rules_version, rulings=", ".join(rulings),
        reasons=Text.joined(p.message for p in now.problems)))


def score_record(
    variant: Variant,
    options: Mapping[str, object],
    data: Mapping[str, Any],
    *,
    expected_dealer: int | None = None,
    checks: Callable[[HandRecord, frozenset[str]], Sequence[Problem]] | None = None,
    dealt: Sequence[frozenset[Card]] | None = None,
    rules_version: str = RULES_VERSION,
) -> tuple[HandRecord, HandResult]:
    """Read, check and score a record in its JSON form. Every problem is reported at once:
    those of form, the dealer whose turn it is (in a game), what ``checks`` finds in the
    well-formed sections (a duplicate board's referee: ``duplicate.referee.board_checks``),
    and every rule the well-formed sections break. ``dealt``: what each seat held before the
    discard where the service dealt the hand (a duplicate board's ``holdings``), for the
    rules that follow a card's holder where the record does not show it. ``rules_version``:
    the rules the record was made under (a new record's are the current ones, ``by_its_rules``
    for one made earlier)."""
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
            read = record
            result = by_its_rules(rules_version, lambda waived: variant.scorer(
                variant, options, read, incomplete, dealt=dealt, waived=waived))
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
