"""An event's round clock and prize list as the application keeps them: read from the
event's stored settings, written back whole, and the prize list as the standings share it
(``PrizeReading``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from service.domain import (
    CURRENCY_DEFAULT,
    GRACE_MINUTES_DEFAULT,
    Prize,
    PrizeList,
    RoundClock,
    Standings,
    share_prizes,
    validate_prizes,
)

from .ports import StoredEvent


def clock_of(settings: Mapping[str, Any] | None) -> RoundClock:
    """The clock stored settings say (none: no clock)."""
    found = settings or {}
    return RoundClock(found.get("round_minutes"), bool(found.get("auto_close", False)),
                      int(found.get("grace_minutes", GRACE_MINUTES_DEFAULT)))


def prizes_of(settings: Mapping[str, Any] | None) -> tuple[tuple[Prize, ...], str]:
    """The prize list and currency stored settings say (none: no prizes, euros)."""
    found = settings or {}
    return validate_prizes({"prizes": found.get("prizes") or [],
                            "currency": found.get("currency", CURRENCY_DEFAULT)})


def settings_json(clock: RoundClock, prizes: tuple[Prize, ...], currency: str
                  ) -> dict[str, Any]:
    """The settings as stored (and as the event's reading shows them)."""
    return {**clock.to_json(), "currency": currency, "prizes": [p.to_json() for p in prizes]}


def round_clock_json(clock: RoundClock, started_at: datetime) -> dict[str, Any]:
    """A round's clock as the readings say it: when it is up (``ends_at``) and, if it closes
    by itself, when it closes (``closes_at``); nothing at an event without a clock."""
    ends, closes = clock.ends_at(started_at), clock.closes_at(started_at)
    return {**({"ends_at": ends.isoformat()} if ends else {}),
            **({"closes_at": closes.isoformat()} if closes else {})}


@dataclass(frozen=True, slots=True)
class PrizeReading:
    """The prize list of an event as the standings share it now: ``final`` once its last
    round has closed (until then every award is provisional)."""

    final: bool
    currency: str
    prizes: tuple[Prize, ...]
    shared: PrizeList
    names: tuple[str, ...]


def read_prizes(event: StoredEvent, names: tuple[str, ...], found: Standings, *,
                final: bool) -> PrizeReading:
    prizes, currency = prizes_of(event.settings)
    places = [(row.entrant, row.place) for row in found.rows]
    return PrizeReading(final, currency, prizes, share_prizes(prizes, places), names)
