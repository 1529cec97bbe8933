"""The time zone a game is played in (an option of every variant): the score sheet prints its
times there, as the table's clocks showed them (issue 18)."""

from __future__ import annotations

import re
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .variants.base import OptionSpec

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(?:/[A-Za-z0-9_+\-]+){0,2}")


def parse_time_zone(value: object) -> str | None:
    """An IANA time zone name (``Europe/Rome``, ``UTC``) the zone database knows; None for
    anything else."""
    if not isinstance(value, str) or len(value) > 64 or not _NAME.fullmatch(value):
        return None
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None
    return value


def time_zone_option(default: str) -> OptionSpec:
    return OptionSpec(
        "time_zone", default, (),
        "the time zone the game is played in, as the zone database names it (Europe/Rome, "
        "Europe/Paris, UTC…): the score sheet prints its times there",
        parse=parse_time_zone,
    )
