"""The languages the service speaks to a table (issue 18): English, the rules core's own, and
Italian from the gettext catalogue ``service/locale/it/LC_MESSAGES/messages.po`` (read by
``service.locale`` and handed to the ``Speaker``).

A ``Speaker`` renders what the core said (``Text``: problems, explanation lines, payments,
labels) in its language: the template translated (by its count where it has one, with the
language's plural rules), each value rendered in turn — a card by its name in the words of
the game's family (Gatti's French suits, the round suits of Ottocento and Mitigatti), a
nested sentence in the same language. English is the core's text as it is: cards keep their
codes, the notation the API takes. A template the catalogue lacks is said in English rather
than guessed.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from typing import Any

from service.domain import (
    Card,
    Cards,
    Text,
    english_value,
)

LANGUAGES = ("en", "it")
DEFAULT = "en"

_RANKS_IT = {"1": "asso", "2": "due", "3": "tre", "4": "quattro", "5": "cinque", "6": "sei",
             "7": "sette", "8": "otto", "9": "nove", "10": "dieci", "J": "fante",
             "C": "cavallo", "Q": "regina", "K": "re"}
_FRENCH_IT = {"H": "cuori", "D": "quadri", "C": "fiori", "S": "picche"}
_ROUND_IT = {"H": "coppe", "D": "denari", "C": "bastoni", "S": "spade"}
_NAMED_IT = {"ANGEL": "Angelo", "WORLD": "Mondo", "SUN": "Sole", "MOON": "Luna",
             "BEGATO": "Bégato", "MATTO": "Matto"}
_TRUMPS_IT = {1: "Bagatto", 20: "Giudizio", 21: "Mondo"}


def card_name(card: Card, lang: str, family: str | None = None) -> str:
    """A card as a player says it: "re di quadri", "trionfo 21 (Mondo)", "Matto"."""
    if lang != "it":
        return card.code
    code = card.code
    if card.is_plain and card.rank and card.suit:
        suits = _ROUND_IT if family in ("ottocento", "mitigatti") else _FRENCH_IT
        return f"{_RANKS_IT[card.rank]} di {suits[card.suit.value]}"
    if card.is_fool:
        return "Fuole (Matto)" if family == "mitigatti" else "Matto"
    if code in _NAMED_IT:
        return _NAMED_IT[code]
    if code.startswith("MORO"):
        return f"Moro {code[4:]}"
    number = int(code[1:]) if code[1:].isdigit() else None
    if number is None:
        return code
    named = _TRUMPS_IT.get(number) if family != "ottocento" else None
    return f"trionfo {number} ({named})" if named else f"trionfo {number}"


class Speaker:
    """Says the core's sentences in ``lang`` from its ``catalogue`` (gettext's), naming cards
    as ``family`` does. Without a catalogue every sentence is said in English."""

    def __init__(self, lang: str = DEFAULT, family: str | None = None,
                 catalogue: gettext.NullTranslations | None = None) -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT
        self.family = family
        self._catalogue = catalogue or gettext.NullTranslations()

    @property
    def english(self) -> bool:
        return self.lang == DEFAULT

    def __call__(self, value: object) -> str:
        if isinstance(value, Text):
            return value.render(self._template, self)
        if self.english:
            return english_value(value)
        if isinstance(value, Card):
            return card_name(value, self.lang, self.family)
        if isinstance(value, Cards):
            names = [card_name(c, self.lang, self.family) for c in value]
            return (", ".join(names[:-1]) + " e " + names[-1]) if len(names) > 1 else \
                "".join(names)
        return str(value)

    def _template(self, text: Text) -> str:
        if text.plural is not None and text.count is not None:
            return self._catalogue.ngettext(text.template, text.plural, text.count)
        return self._catalogue.gettext(text.template)

    def localize(self, data: Any) -> Any:
        """``data`` (a JSON-ready value) with every sentence in it said in this language."""
        if self.english:
            return data
        if isinstance(data, Text):
            return self(data)
        if isinstance(data, Mapping):
            return {key: self.localize(value) for key, value in data.items()}
        if isinstance(data, list | tuple):
            return [self.localize(value) for value in data]
        return data
