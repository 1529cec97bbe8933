"""The words of the printable score sheet, in English and Italian (API.md ``sheet.pdf``
``?lang=it|en``).

One catalogue (``i18n.json``, data beside this module): every label the sheet prints has a
key, and every key has both languages with the same ``{placeholders}`` (a test checks it). The
Italian uses the table's own words, as the Italian rule texts do: *mano* (hand), *mazziere*
(dealer), *scarto* (discard), *prese* (tricks), *punti di mazzo* (deck points), *buone* (melds)
— *frilli*, *trionfi*, *gatti*, *famiglia*, *quaterno* (four of a kind), *terno* (three of a
kind) —, *Bagatto ultimo*; Ottocento's *cricche*, *sequenze* and *raddoppio*; Mitigatti's
*marca*, *partida*, *accuse* (accusassions), *a monte* (a deal thrown in) and the *piatto* (the
pot of R15).

Numbers, money and dates are written the way each language writes them (``0,50 €`` is not
attempted: the sheet names no currency, only ``0,50``).
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from importlib.resources import files
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

LANGUAGES = ("en", "it")
DEFAULT_LANGUAGE = "en"

#: key -> (English, Italian): the catalogue is data, ``i18n.json`` beside this module, its
#: entries in groups by where the sheet prints them (the header, the table, the legend…).
CATALOGUE: dict[str, tuple[str, str]] = {
    key: (english, italian)
    for group in json.loads(files(__package__).joinpath("i18n.json").read_text("utf-8")).values()
    for key, (english, italian) in group.items()
}

_MONTHS = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"),
    "it": ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto",
           "settembre", "ottobre", "novembre", "dicembre"),
}


def normalise_language(lang: str | None) -> str | None:
    """``en`` or ``it`` (any case, or a tag such as ``it-IT``); ``None`` when not one of
    them; the default for no language at all."""
    if lang is None or not lang.strip():
        return DEFAULT_LANGUAGE
    primary = lang.strip().lower().replace("_", "-").split("-")[0]
    return primary if primary in LANGUAGES else None


#: Currencies written with a sign rather than their code.
_CURRENCY_SIGNS = {"EUR": "€", "GBP": "£", "USD": "$"}


class Translator:
    """The catalogue in one language."""

    def __init__(self, lang: str, seat_names: Sequence[str] | None = None) -> None:
        """``seat_names``, when given, name the seats: a table says "Anna declared", not
        "seat 0 declared"."""
        if lang not in LANGUAGES:
            raise ValueError(f"no language {lang!r}; the sheet speaks {', '.join(LANGUAGES)}")
        self.lang = lang
        self._index = LANGUAGES.index(lang)
        self.seat_names = list(seat_names) if seat_names is not None else None

    def __call__(self, key: str, **values: object) -> str:
        return CATALOGUE[key][self._index].format(**values)

    def has(self, key: str) -> bool:
        return key in CATALOGUE

    def get(self, key: str, default: str, **values: object) -> str:
        """The entry for ``key`` if the catalogue has one, else ``default`` (for words of a
        variant the catalogue does not know yet)."""
        return self(key, **values) if key in CATALOGUE else default

    def number(self, value: int | Decimal) -> str:
        """A whole number, negative with a true minus sign."""
        return f"−{-value}" if value < 0 else str(value)

    def signed(self, value: int) -> str:
        """A change: ``+2``, ``−1``, ``0``."""
        return f"+{value}" if value > 0 else self.number(value)

    def money(self, value: Decimal, currency: str | None = None) -> str:
        """Money as the language writes it, with its currency where one is given:
        ``3,50 €`` in Italian, ``€3.50`` in English, ``CHF 3.50`` for a code with no sign."""
        text = f"{abs(value):.2f}"
        if self.lang == "it":
            text = text.replace(".", ",")
        if currency:
            sign = _CURRENCY_SIGNS.get(currency)
            if self.lang == "it":
                text = f"{text} {sign or currency}"
            else:
                text = f"{sign}{text}" if sign else f"{currency} {text}"
        return f"−{text}" if value < 0 else text

    def date(self, when: datetime, zone: str = "UTC") -> str:
        """A time as the table's clocks showed it: in the game's time zone, named by its
        abbreviation (``CET``, ``CEST``), or by its offset where it has none."""
        try:
            local = when.astimezone(ZoneInfo(zone)) if when.tzinfo else when
        except (ZoneInfoNotFoundError, ValueError):
            local = when
        month = _MONTHS[self.lang][local.month - 1]
        clock = local.strftime("%H:%M")
        name = local.strftime("%Z") or "UTC"
        if name[:1] in "+-":
            name = f"UTC{name}"
        return f"{local.day} {month} {local.year}, {clock} {name}"

    def seat(self, seat: int, *, capital: bool = False) -> str:
        if self.seat_names is not None:
            return self.seat_names[seat]
        return self("seat.cap" if capital else "seat", n=seat)

    def seats(self, seats: tuple[int, ...] | list[int], *, capital: bool = False) -> str:
        """``seat 1``, ``seats 0 and 2``, ``seats 0, 2 and 3`` (``Anna and Carla`` where
        the seats have names)."""
        seats = list(seats)
        if self.seat_names is not None:
            return self.names([self.seat_names[s] for s in seats])
        if len(seats) == 1:
            return self.seat(seats[0], capital=capital)
        prefix = "seats.cap" if capital else "seats"
        if len(seats) == 2:
            return self(f"{prefix}.two", a=seats[0], b=seats[1])
        return self(f"{prefix}.many", list=", ".join(map(str, seats[:-1])), last=seats[-1])

    def names(self, names: list[str]) -> str:
        """``Anna``, ``Anna and Bruno``, ``Anna, Bruno and Carla``."""
        if len(names) <= 1:
            return "".join(names)
        return f"{', '.join(names[:-1])} {self('and')} {names[-1]}"


def catalogue_placeholders(text: str) -> set[str]:
    """The ``{names}`` a catalogue entry takes."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def missing_translations(catalogue: Mapping[str, tuple[str, ...]] = CATALOGUE) -> list[str]:
    """Keys whose entries are empty, or whose languages take different placeholders."""
    bad = []
    for key, texts in catalogue.items():
        if len(texts) != len(LANGUAGES) or not all(t.strip() for t in texts) or len({frozenset(catalogue_placeholders(t)) for t in texts}) != 1:
            bad.append(key)
    return bad
