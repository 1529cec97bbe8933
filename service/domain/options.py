"""Game options: the options every variant has (the time zone a game is played in, how its
players vouch for hands, the language of its sheets), defaults and validation (the
API's ``options``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .core.errors import ProblemList
from .core.text import Text
from .hand.confirmations import MODES
from .variant import OptionSpec, Variant

#: How much of a refused name or value a problem repeats: enough to recognise it, never the
#: whole of a hostile megabyte.
SHOWN = 40


def shown(value: object) -> str:
    """``repr(value)``, cut to ``SHOWN`` characters."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def resolve_options(variant: Variant, raw: Mapping[str, object] | None) -> dict[str, object]:
    """The variant's options with ``raw`` applied over the defaults. An unknown name or a value
    outside an option's choices is a problem at ``options.<name>``; all are reported."""
    problems = ProblemList()
    resolved = variant.option_defaults()
    specs = {o.name: o for o in variant.options}
    for name, value in (raw or {}).items():
        spec = specs.get(name)
        if spec is None:
            known = ", ".join(sorted(specs)) or "none"
            problems.add(f"options.{name}", "unknown_option",
                         Text("{id} has no option {shown} (its options: {known})", id=variant.id,
                              shown=shown(name), known=known))
            continue
        if spec.parse is not None:
            if value is not None and spec.parse(value) is None:
                problems.add(f"options.{name}", "invalid_option",
                             Text("option {name}: {description}, not {shown}", name=repr(name),
                                  description=spec.description, shown=shown(value)))
                continue
            resolved[name] = spec.default if value is None else value  # null: the default
            continue
        # bool is an int in Python: compare types too, so 1 is not taken for true.
        if not any(value == c and type(value) is type(c) for c in spec.choices):
            choices = ", ".join(repr(c).lower() if isinstance(c, bool) else repr(c)
                                for c in spec.choices)
            problems.add(f"options.{name}", "invalid_option",
                         Text("option {name} takes one of {choices}, not {shown}",
                              name=repr(name), choices=choices, shown=shown(value)))
            continue
        resolved[name] = value
    problems.raise_if_any()
    return resolved


# -- the options every variant has ------------------------------------------------------------

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


#: The languages the service speaks, and so those a game's sheets may be printed in.
LANGUAGES = ("en", "it", "fr")

LANGUAGE_OPTION = OptionSpec(
    "language", None, (None, *LANGUAGES),
    "the language the game's printed sheet speaks when its reader asks for none (en, it, "
    "fr): a table's own, as the phone that started it spoke the variant's home language; "
    "null: each reader's",
)

CONFIRMATION_OPTION = OptionSpec(
    "confirmation", "optional", MODES,
    "none: players do not confirm hands; optional: each player may confirm or dispute each "
    "hand from their own link; required: a hand is final only once every player has "
    "confirmed it",
)
