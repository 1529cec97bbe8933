"""Use cases that store nothing: the variant catalogue, scoring one hand (``POST /score``) and
meld suggestions. ``score`` is the same computation a stored game makes of each hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from service.domain import (
    VARIANTS,
    HandResult,
    Problem,
    RecordInvalid,
    Text,
    UnknownVariant,
    Variant,
    boards_per_round_max,
    default_boards_per_round,
    find_variant,
    read_hand_record,
    resolve_options,
    rulebook,
    score_record,
)
from service.domain import (
    adjudicate_trick as domain_adjudicate,
)
from service.domain import (
    suggest_melds as domain_suggest_melds,
)

from .errors import NotFound


def _boards_per_round(variant: Variant) -> dict[str, int]:
    """What a duplicate event of the variant takes as ``boards_per_round`` (docs/events.md
    "Duplicate"): its default and its most, so that a form offers what the service accepts."""
    return {"default": default_boards_per_round(variant), "max": boards_per_round_max(variant)}


def list_variants() -> list[dict[str, Any]]:
    return [{**variant.summary(), "boards_per_round": _boards_per_round(variant)}
            for variant in VARIANTS.values()]


def describe_variant(variant_id: str) -> dict[str, Any]:
    try:
        variant = find_variant(variant_id)
    except UnknownVariant as error:
        raise NotFound(Text("there is no variant {variant}", variant=repr(variant_id))) from error
    return {**variant.describe(), "boards_per_round": _boards_per_round(variant)}


def variant_rules(variant_id: str) -> dict[str, Any]:
    """The variant's rulebook: its sections in the project's words (``rules.txt``)."""
    try:
        variant = find_variant(variant_id)
    except UnknownVariant as error:
        raise NotFound(Text("there is no variant {variant}", variant=repr(variant_id))) from error
    return {"variant": variant.id, "sections": [s.to_json() for s in rulebook(variant)]}


def _find(variant_id: str) -> Any:
    try:
        return find_variant(variant_id)
    except UnknownVariant as error:
        raise error.invalid() from error


def score(
    variant_id: str, options: Mapping[str, Any] | None, hand: Mapping[str, Any],
    seats: Sequence[str] | None = None,
) -> HandResult:
    """Score one hand. Problems with the options and with the record are all reported;
    the record's are placed under ``hand``. ``seats``, where given, are who sits where: one
    name for each of the variant's seats."""
    variant = _find(variant_id)
    table = tuple(seats) if seats else None  # how the problems say a seat
    problems: list[Problem] = []
    if seats is not None and len(seats) != variant.seats:
        problems.append(Problem("seats", "wrong_seat_count", Text.counted(
            "{variant} has {n} seat: name one player for it",
            "{variant} has {n} seats: name one player for each", variant.seats,
            variant=variant.id)))
    resolved: dict[str, Any] | None = None
    try:
        resolved = resolve_options(variant, options)
    except RecordInvalid as error:
        problems.extend(error.problems)
    if resolved is None:
        # Without valid options the rules to check against are unknown; the record's form
        # can still be reported.
        _, found, _ = read_hand_record(variant, hand)
        raise RecordInvalid(problems + [p.at("hand") for p in found], variant.family, table)
    try:
        result = score_record(variant, resolved, hand)[1]
    except RecordInvalid as error:
        raise RecordInvalid([*problems, *error.at("hand").problems], variant.family,
                            table) from error
    if problems:
        raise RecordInvalid(problems, variant.family, table)
    return result


def suggest_melds(variant_id: str, cards: Sequence[str]) -> list[dict[str, Any]]:
    variant = _find(variant_id)
    try:
        return domain_suggest_melds(variant, list(cards))
    except RecordInvalid as error:
        raise RecordInvalid(error.problems, variant.family) from error


def adjudicate_trick(
    variant_id: str,
    leader: int,
    cards: Sequence[str],
    hands: Mapping[str, Sequence[str]] | None,
    history: Sequence[Mapping[str, Any]] | None,
) -> dict[str, Any]:
    """Who won a disputed trick, and whether each card was legal (``POST /adjudicate/trick``)."""
    variant = _find(variant_id)
    try:
        return domain_adjudicate(variant, leader, cards, hands, history).to_json()
    except RecordInvalid as error:
        raise RecordInvalid(error.problems, variant.family) from error
