"""The languages the service speaks to a table: English, the rules
core's own, and Italian and French from the gettext catalogues
``service/locale/<lang>/LC_MESSAGES/messages.po`` (read by
``service.locale`` and handed to the ``Speaker``).

A ``Speaker`` renders what the core said (``Text``: problems, explanation lines, payments,
labels) in its language: the template translated (by its count where it has one, with the
language's plural rules), each value rendered in turn — a card by its name in the words of
the game's family (Gatti's French suits, the round suits of Ottocento and Mitigatti) from the
cards' catalogue ``cards.po``, the one the phone page names cards from; a list of them joined
as the language joins one; a nested sentence in the same language; and where it knows the
table's players a seat (``Seats``: "seat 0", "seats 0 and 2") by their names, in every
language, English too.
English is otherwise the core's text as it is: cards keep their codes, the notation the API
takes. A template the catalogue lacks is said in English rather than guessed.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Mapping, Sequence
from typing import Any

from service.domain import (
    LANGUAGES,
    Card,
    Cards,
    Figure,
    Money,
    Seats,
    Text,
    english_value,
    family_suit_style,
)
from service.locale import card_words, figure, percentage, typeset

DEFAULT = "en"
#: The neutral name a forgotten member is kept under (``forgotten_label``).
_FORGOTTEN = re.compile(r"Player (\d+)")
#: The languages that write money as ``3,50 €`` (the decimal comma, the sign after).
DECIMAL_COMMA = ("it", "fr")


#: The suits' first letters before which a language's "of" may elide ("as d'épées"): the
#: cards' words say it in ``card.plainVowel`` (Italian and English as ``card.plain``).
_VOWELS = "aeiouéèêâh"
#: The Bolognese pack's named trumps, each by its own word (``card.angel``…).
_BOLOGNESE = ("ANGEL", "WORLD", "SUN", "MOON", "BEGATO")
#: The trumps a family names after their number, by the word's key: Mitigatti's own (RULES
#: §5.1, the seed's Niçois: the Bagatte, the Papote 2 to 5, the Angel on top), the others the
#: tarot's (Ottocento's pack has none of these numbers). The page's ``cards.js`` says the same.
_NAMED_TRUMPS: dict[str | None, dict[int, str]] = {
    "mitigatti": {1: "card.bagatte", **dict.fromkeys(range(2, 6), "card.papote"),
                  20: "card.angel", 21: "card.t21"},
    None: {1: "card.t1", 20: "card.t20", 21: "card.t21"}}
#: The Fool by a family's own word where it has one (Mitigatti's lu Fuole), else the tarot's.
_FOOL: dict[str | None, str] = {"mitigatti": "card.fuole", None: "card.fool"}


def card_name(card: Card, lang: str, family: str | None = None) -> str:
    """A card as a player says it, built from the cards' words (``cards.po``, the same the
    phone page builds its names from): "re di quadri", "trionfo 21 (Mondo)", "Matto"; "roi
    de carreau", "as d'épées", "atout 20 (l'Ange)", "Fuole"; "King of diamonds". Its code in a
    language that has no words for cards."""
    words = card_words(lang)
    code = card.code
    if not words:
        return code
    if card.is_plain and card.rank and card.suit:
        suit = words[f"suit.{family_suit_style(family)}.{card.suit.value}"]
        form = "card.plainVowel" if suit[:1].lower() in _VOWELS else "card.plain"
        return words[form].format(rank=words[f"rank.{card.rank}"], suit=suit)
    if card.is_fool:
        return words[_FOOL.get(family, _FOOL[None])]
    if code.startswith("MORO"):
        return words["card.moor"].format(n=code[4:])
    if code in _BOLOGNESE:
        return words[f"card.{code.lower()}"]
    if not code[1:].isdecimal():
        return code
    number = int(code[1:])
    named = _NAMED_TRUMPS.get(family, _NAMED_TRUMPS[None]).get(number)
    if named:
        return words["card.trumpNamed"].format(n=number, name=words[named])
    return words["card.trump"].format(n=number)


#: The JSON values that hold no sentence.
_PLAIN = frozenset({str, int, float, bool, type(None)})


class Speaker:
    """Says the core's sentences in ``lang`` from its ``catalogue`` (gettext's), naming cards
    as ``family`` does and seats by ``names`` (the table's players by seat) where given.
    Without a catalogue every sentence is said in English."""

    def __init__(self, lang: str = DEFAULT, family: str | None = None,
                 catalogue: gettext.NullTranslations | None = None,
                 names: Sequence[str] | None = None) -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT
        self.family = family
        self._catalogue = catalogue or gettext.NullTranslations()
        self.names = tuple(names) if names else None

    @property
    def english(self) -> bool:
        return self.lang == DEFAULT

    def __call__(self, value: object) -> str:
        if isinstance(value, Seats) and self.names is not None:
            return self._named(value.seats)
        if isinstance(value, Text):
            return value.render(self._template, self)
        if self.english:
            return english_value(value)
        if isinstance(value, Card):
            return card_name(value, self.lang, self.family)
        if isinstance(value, Cards):
            return self.listed([card_name(c, self.lang, self.family) for c in value])
        if isinstance(value, Money):
            return value.written(self.lang in DECIMAL_COMMA)
        if isinstance(value, Figure):
            return (percentage(value.number, self.lang) if value.percent
                    else figure(value.number, self.lang, sign=value.sign))
        return str(value)

    def _named(self, seats: Sequence[int]) -> str:
        """The players at ``seats``: "Anna", "Anna e Carla", "Anna, Bruno and Carla"; a
        name the core made (a dummy's, "Anna's dummy") said in this language."""
        return self.listed([self.name(s) if self.names and 0 <= s < len(self.names)
                            else str(s) for s in seats])

    def name(self, seat: int) -> str:
        """The player at ``seat`` (one of ``names``), said in this language: a forgotten
        member's "Player N" too ("Giocatore N")."""
        assert self.names is not None
        name = self.names[seat]
        if isinstance(name, Text):
            return self(name)
        forgotten = None if self.english else _FORGOTTEN.fullmatch(name)
        return self(Text("Player {n}", n=forgotten[1])) if forgotten else name

    def listed(self, items: Sequence[str]) -> str:
        """Names one after the other, the last joined as the language joins a list: "Anna,
        Bruno and Carla", "re di quadri e asso di coppe", "Anna et Carla"."""
        if len(items) < 2:
            return "".join(items)
        return self(Text("{items} and {last}", items=", ".join(items[:-1]), last=items[-1]))

    def _template(self, text: Text) -> str:
        if text.plural is not None and text.count is not None:
            return typeset(self.lang, self._catalogue.ngettext(text.template, text.plural,
                                                               text.count))
        return typeset(self.lang, self._catalogue.gettext(text.template))

    def localize(self, data: Any) -> Any:
        """``data`` (a JSON-ready value) with every sentence in it said in this language."""
        if self.english and self.names is None:
            return data
        return self._localized(data)

    def _localized(self, data: Any) -> Any:
        # A game's JSON is mostly plain numbers and strings (a thousand-hand game's, some
        # 800,000 values): those are known by their exact type first, before the slower
        # checks against Text (a str of its own kind) and the abstract Mapping.
        kind = type(data)
        if kind is dict:
            return {key: self._localized(value) for key, value in data.items()}
        if kind is list or kind is tuple:
            return [self._localized(value) for value in data]
        if kind in _PLAIN:
            return data
        if isinstance(data, Text):
            return self(data)
        if isinstance(data, Mapping):
            return {key: self._localized(value) for key, value in data.items()}
        if isinstance(data, list | tuple):
            return [self._localized(value) for value in data]
        return data
