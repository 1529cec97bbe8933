"""The words of the printable score sheet (``GET /games/{id}/sheet.pdf?lang=en|it|fr``).

Its labels are a gettext catalogue keyed by the sheet's own keys, one a language
(``service/locale/<lang>/LC_MESSAGES/sheet.po``, read through ``service.locale.sheet_words``):
every label the sheet prints has a key, and every language has every key with the English's
``{placeholders}`` (``python -m service.locale --check`` says so). The Italian uses the table's
own words, as the Italian rule texts do: *mano* (hand), *mazziere* (dealer), *scarto*
(discard), *prese* (tricks), *punti di mazzo* (deck points), *buone* (melds) — *frilli*,
*trionfi*, *gatti*, *famiglia*, *quaterno* (four of a kind), *terno* (three of a kind) —,
*Bagatto ultimo*; Ottocento's *cricche*, *sequenze* and *raddoppio*; Mitigatti's *marca*,
*partida*, *accuse* (accusassions), *a monte* (a deal thrown in) and the *piatto* (the pot of
R15). The French is a table's in Nice: *donne*, *donneur*, *plis*, *écart*, *annonces*,
*brelan*, *carré*, and Mitigatti's Niçois as Cason's article writes it (*partida*,
*accusassions*, *Bagatte ultimu*, *petar bagatte*, *solete*, *sans prendre*).

Numbers, money and dates are written the way each language writes them (the months by their
CLDR names, which ``service.locale`` reads from Babel).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from service.domain import Money
from service.locale import (
    figure,
    month_names,
    percentage,
    plural_category,
    sheet_words,
    translations,
    typeset,
)

from .language import DECIMAL_COMMA, LANGUAGES, Speaker

DEFAULT_LANGUAGE = "en"


def normalise_language(lang: str | None) -> str | None:
    """``en``, ``it`` or ``fr`` (any case, or a tag such as ``it-IT``); ``None`` when not one
    of them; the default for no language at all."""
    if lang is None or not lang.strip():
        return DEFAULT_LANGUAGE
    primary = lang.strip().lower().replace("_", "-").split("-")[0]
    return primary if primary in LANGUAGES else None


class Translator:
    """The catalogue in one language."""

    def __init__(self, lang: str) -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"no language {lang!r}; the sheet speaks {', '.join(LANGUAGES)}")
        self.lang = lang
        self._words = sheet_words(lang)
        self._speaker = Speaker(lang, catalogue=translations(lang))

    def __call__(self, key: str, **values: object) -> str:
        entry = self._words[key]
        if isinstance(entry, dict):  # counted: the form of ``n`` in this language
            entry = entry.get(plural_category(self.lang, values.get("n")), entry["other"])
        return typeset(self.lang, entry).format(**values)

    def has(self, key: str) -> bool:
        return key in self._words

    def get(self, key: str, default: str, **values: object) -> str:
        """The entry for ``key`` if the catalogue has one, else ``default`` (for words of a
        variant the catalogue does not know yet)."""
        return self(key, **values) if key in self._words else default

    def number(self, value: int | Decimal) -> str:
        """A whole number as the language writes it, negative with a true minus sign, its
        thousands grouped (``1,250``, ``1.250``, ``1 250`` with a narrow no-break space)."""
        return figure(value, self.lang)

    def figure(self, value: int | Decimal, *, sign: bool = False) -> str:
        """A figure with up to two decimals as the language writes it: ``+13,5`` in Italian
        and French (``sign``), ``−2.25`` in English."""
        return figure(value, self.lang, sign=sign)

    def percentage(self, value: int | Decimal) -> str:
        """A percentage with its sign as the language writes it: ``58.33%``, ``58,33%``,
        ``58,33 %``."""
        return percentage(value, self.lang)

    def signed(self, value: int) -> str:
        """A change: ``+2``, ``−1``, ``0``."""
        return f"+{value}" if value > 0 else self.number(value)

    def money(self, value: Decimal, currency: str | None = None) -> str:
        """Money as the language writes it, with its currency where one is given:
        ``3,50 €`` in Italian and French, ``€3.50`` in English, ``CHF 3.50`` for a code with no
        sign."""
        return Money(value, currency).written(self.lang in DECIMAL_COMMA)

    def date(self, when: datetime, zone: str = "UTC") -> str:
        """A time as the table's clocks showed it: in the game's time zone, named by its
        abbreviation (``CET``, ``CEST``), or by its offset where it has none."""
        try:
            local = when.astimezone(ZoneInfo(zone)) if when.tzinfo else when
        except (ZoneInfoNotFoundError, ValueError):
            local = when
        month = month_names(self.lang)[local.month - 1]
        clock = local.strftime("%H:%M")
        name = local.strftime("%Z") or "UTC"
        if name[:1] in "+-":
            name = f"UTC{name}"
        return f"{local.day} {month} {local.year}, {clock} {name}"

    def names(self, names: Sequence[str]) -> str:
        """``Anna``, ``Anna and Bruno``, ``Anna, Bruno and Carla``: joined as the service's
        sentences join a list."""
        return self._speaker.listed(names)
