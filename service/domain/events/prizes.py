"""An event's prize list and its round clock: the settings checked whole, and the prizes
shared among the entrants as the standings place them.

Prizes are one per place, from the first: an amount of money in the event's currency, a label
for a prize in kind, or both. Entrants who share a place share the prizes of every place they
cover (three tied for second cover the second, third and fourth): the money equally to the
cent, and when the cents do not divide, the odd cents go one each to the sharers in the
standings' order (the order the standings list them in); a prize in kind is listed with each
sharer, as shared. A place no entrant reaches (more prizes than entrants) goes unawarded.

The clock: a round lasts ``round_minutes`` from its start; with ``auto_close`` it closes by
itself ``grace_minutes`` after that (the last hand's time).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from typing import Any

from ..core.errors import Problem, RecordInvalid
from ..core.text import Text

#: A round's length, in minutes: five minutes at least (a quick hand), four hours at most.
ROUND_MINUTES_MIN = 5
ROUND_MINUTES_MAX = 240
#: The time given after a round's end for the hand being played, before it closes itself.
GRACE_MINUTES_DEFAULT = 2
GRACE_MINUTES_MAX = 60
CURRENCY_DEFAULT = "EUR"
#: The most prizes a list takes, and the longest label and the largest amount of one.
PRIZES_MAX = 200
LABEL_MAX = 60
AMOUNT_MAX = Decimal(1000000)
CENT = Decimal("0.01")
_CURRENCY = re.compile(r"[A-Z]{3}")
#: What a label may not hold, as a name may not (control characters, NUL among them, line and
#: paragraph separators), nor a lone surrogate: no sheet prints them, and no database stores
#: NUL.
_NOT_IN_LABELS = frozenset({"Cc", "Zl", "Zp", "Cs"})


# -- the clock ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundClock:
    """An event's clock: how long a round lasts, and whether it closes by itself (and how
    long after its end). ``minutes`` None: the event has no clock."""

    minutes: int | None = None
    auto_close: bool = False
    grace_minutes: int = GRACE_MINUTES_DEFAULT

    def ends_at(self, started_at: datetime) -> datetime | None:
        """When a round started at ``started_at`` is up (None without a clock)."""
        if self.minutes is None:
            return None
        return started_at + timedelta(minutes=self.minutes)

    def closes_at(self, started_at: datetime) -> datetime | None:
        """When such a round closes by itself: ``grace_minutes`` after its end (None
        without ``auto_close``)."""
        ends = self.ends_at(started_at)
        if ends is None or not self.auto_close:
            return None
        return ends + timedelta(minutes=self.grace_minutes)

    def to_json(self) -> dict[str, object]:
        return {"round_minutes": self.minutes, "auto_close": self.auto_close,
                "grace_minutes": self.grace_minutes}


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_clock(body: Mapping[str, Any], before: RoundClock | None = None) -> RoundClock:
    """The clock ``body`` sets (``round_minutes``, ``auto_close``, ``grace_minutes``), each
    field absent keeping ``before``'s (the defaults at creation). ``RecordInvalid`` naming
    every bad field."""
    kept = before or RoundClock()
    problems: list[Problem] = []
    minutes = body.get("round_minutes", kept.minutes)
    if minutes is not None and (not _whole(minutes)
                                or not ROUND_MINUTES_MIN <= minutes <= ROUND_MINUTES_MAX):
        problems.append(Problem("round_minutes", "round_minutes_range", Text(
            "a round lasts from {low} to {high} minutes (or none: no clock)",
            low=ROUND_MINUTES_MIN, high=ROUND_MINUTES_MAX)))
    auto_close = body.get("auto_close", kept.auto_close)
    if not isinstance(auto_close, bool):
        problems.append(Problem("auto_close", "not_boolean", Text(
            "auto_close is true or false")))
    grace = body.get("grace_minutes", kept.grace_minutes)
    if not _whole(grace) or not 0 <= grace <= GRACE_MINUTES_MAX:
        problems.append(Problem("grace_minutes", "grace_minutes_range", Text(
            "the time after a round's end is from 0 to {high} minutes",
            high=GRACE_MINUTES_MAX)))
    if auto_close is True and minutes is None and not problems:
        problems.append(Problem("auto_close", "auto_close_without_clock", Text(
            "a round closes by itself only at an event with a clock: give round_minutes")))
    if problems:
        raise RecordInvalid(problems)
    return RoundClock(minutes, auto_close, grace)


# -- the prize list -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Prize:
    """One place's prize: an amount of money, a label (a prize in kind), or both."""

    amount: Decimal | None = None
    label: str | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {}
        if self.label is not None:
            out["label"] = self.label
        if self.amount is not None:
            out["amount"] = money_json(self.amount)
        return out


def money_json(amount: Decimal) -> str:
    """An amount as the API writes it: a decimal string with its cents, ``"45.00"``."""
    return str(amount.quantize(CENT))


def _amount(value: object) -> Decimal | None:
    """An amount given as a number or a decimal string, or None when it is not one."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        found = Decimal(str(value).strip())
    except InvalidOperation:
        return None
    return found if found.is_finite() else None


def validate_prizes(body: Mapping[str, Any], before: tuple[tuple[Prize, ...], str] | None = None
                    ) -> tuple[tuple[Prize, ...], str]:
    """The prize list and currency ``body`` sets (``prizes``, ``currency``; each absent
    keeping ``before``'s, no prizes and euros at creation). ``RecordInvalid`` naming every
    bad field: a list of objects each with an amount (at least zero, in cents at most) or a
    label or both, a currency of three capital letters (ISO 4217)."""
    prizes_before, currency_before = before or ((), CURRENCY_DEFAULT)
    problems: list[Problem] = []
    currency = body.get("currency", currency_before)
    if not isinstance(currency, str) or not _CURRENCY.fullmatch(currency):
        problems.append(Problem("currency", "currency_code", Text(
            "a currency is its three-letter code in capitals (EUR, CHF, GBP)")))
    raw = body.get("prizes", None if "prizes" in body else [p.to_json() for p in prizes_before])
    if raw is None:
        raw = []
    prizes: list[Prize] = []
    if not isinstance(raw, list):
        problems.append(Problem("prizes", "not_a_list", Text(
            "prizes is a list, one prize per place from the first")))
    elif len(raw) > PRIZES_MAX:
        problems.append(Problem("prizes", "too_many_prizes", Text(
            "at most {n} prizes", n=PRIZES_MAX)))
    else:
        for i, item in enumerate(raw):
            found, wrong = _prize(item)
            problems += [p.at(f"prizes[{i}]") for p in wrong]
            prizes.append(found)
    if problems:
        raise RecordInvalid(problems)
    return tuple(prizes), str(currency)


def _prize(item: object) -> tuple[Prize, list[Problem]]:
    if not isinstance(item, Mapping):
        return Prize(), [Problem("", "not_an_object", Text(
            "a prize is an object with an amount, a label, or both"))]
    problems: list[Problem] = []
    unknown = sorted(set(item) - {"amount", "label"})
    if unknown:
        problems.append(Problem(unknown[0], "unknown_field", Text(
            "a prize has an amount and a label, nothing else")))
    amount: Decimal | None = None
    if item.get("amount") is not None:
        amount = _amount(item["amount"])
        if amount is None:
            problems.append(Problem("amount", "not_an_amount", Text(
                "an amount is a number, such as 45 or \"45.50\"")))
        elif amount < 0:
            problems.append(Problem("amount", "negative_amount", Text(
                "a prize's amount cannot be negative")))
        elif amount > AMOUNT_MAX or amount != amount.quantize(CENT):
            problems.append(Problem("amount", "amount_range", Text(
                "an amount is at most {high}, in whole cents", high=money_json(AMOUNT_MAX))))
    label = item.get("label")
    if label is not None:
        if not isinstance(label, str) or not label.strip():
            problems.append(Problem("label", "blank_label", Text(
                "a label is a few words: what the prize is")))
            label = None
        elif any(unicodedata.category(ch) in _NOT_IN_LABELS for ch in label):
            problems.append(Problem("label", "label_unprintable", Text(
                "a label holds no control characters and no line breaks")))
        elif len(label.strip()) > LABEL_MAX:
            problems.append(Problem("label", "label_too_long", Text(
                "a label is at most {n} characters", n=LABEL_MAX)))
        else:
            label = " ".join(label.split())
    if item.get("amount") is None and item.get("label") is None:
        problems.append(Problem("", "empty_prize", Text(
            "a prize has an amount, a label, or both")))
    return Prize(None if problems else amount, label if not problems else None), problems


@dataclass(frozen=True, slots=True)
class Award:
    """What one entrant receives: at ``place`` (shared with ``shared_with``, the other
    entrants of that place), an amount (its share of the covered places' money, with
    ``odd_cents`` of the remainder) and the labels of the covered places' prizes in kind."""

    entrant: int
    place: int
    amount: Decimal | None
    labels: tuple[str, ...]
    shared_with: tuple[int, ...]
    odd_cents: int = 0


@dataclass(frozen=True, slots=True)
class PrizeList:
    awards: tuple[Award, ...]
    #: The places with a prize that no entrant reaches (more prizes than entrants).
    unawarded: tuple[int, ...]


def share_prizes(prizes: Sequence[Prize], places: Sequence[tuple[int, int]]) -> PrizeList:
    """The prizes shared among entrants placed as ``places`` says (each entrant and its
    place, best first, as the standings list them; those sharing a place next to one
    another). One award per entrant who receives something."""
    by_place: dict[int, list[int]] = {}
    for entrant, place in places:
        by_place.setdefault(place, []).append(entrant)
    awards: list[Award] = []
    for place, sharers in sorted(by_place.items()):
        covered = [prizes[p - 1] for p in range(place, place + len(sharers))
                   if p - 1 < len(prizes)]
        if not covered:
            continue
        money = [p.amount for p in covered if p.amount is not None]
        labels = tuple(p.label for p in covered if p.label is not None)
        shares: list[Decimal | None] = [None] * len(sharers)
        odd = [0] * len(sharers)
        if money:
            total = sum(money, Decimal(0))
            cents = int((total / CENT).to_integral_value(ROUND_DOWN))
            each, rest = divmod(cents, len(sharers))
            shares = [(each + (1 if i < rest else 0)) * CENT for i in range(len(sharers))]
            odd = [1 if i < rest else 0 for i in range(len(sharers))]
        for i, entrant in enumerate(sharers):
            if shares[i] is None and not labels:
                continue
            awards.append(Award(entrant, place, shares[i], labels,
                                tuple(e for e in sharers if e != entrant), odd[i]))
    unawarded = tuple(range(len(places) + 1, len(prizes) + 1))
    return PrizeList(tuple(awards), unawarded)


__all__ = [
    "AMOUNT_MAX",
    "CURRENCY_DEFAULT",
    "GRACE_MINUTES_DEFAULT",
    "ROUND_MINUTES_MAX",
    "ROUND_MINUTES_MIN",
    "Award",
    "Prize",
    "PrizeList",
    "RoundClock",
    "money_json",
    "share_prizes",
    "validate_clock",
    "validate_prizes",
]
