"""The languages the service speaks to a table (issue 18, French issue 27): English, the rules
core's own, and Italian and French from the gettext catalogues
``service/locale/<lang>/LC_MESSAGES/messages.po`` (read by
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
from dataclasses import dataclass, field
from typing import Any

from service.domain import (
    Card,
    Cards,
    Text,
    english_value,
)

LANGUAGES = ("en", "it", "fr")
DEFAULT = "en"


@dataclass(frozen=True)
class CardWords:
    """How a language names cards: ranks, the two kinds of suits, the tarot's trumps and the
    Bolognese pack's named ones, the Fool, and the word that ends a list (*e*, *et*)."""

    ranks: Mapping[str, str]
    french_suits: Mapping[str, str]
    round_suits: Mapping[str, str]
    of: str
    trump: str
    named: Mapping[str, str]
    moro: str
    trumps: Mapping[int, str]
    fool: str
    and_: str
    #: A family's own words for the tarot's cards, where they differ from the language's.
    family_trumps: Mapping[str, Mapping[int, str]] = field(default_factory=dict)
    family_fool: Mapping[str, str] = field(default_factory=dict)

    def suit(self, suit: str, family: str | None) -> str:
        suits = self.round_suits if family in ("ottocento", "mitigatti") else self.french_suits
        name = suits[suit]
        if self.of.endswith("e") and name[:1] in "aeiouéèêhâ":
            return f"{self.of[:-1]}'{name}"  # French elides: "valet d'épées"
        return f"{self.of} {name}"


CARD_WORDS: dict[str, CardWords] = {
    "it": CardWords(
        ranks={"1": "asso", "2": "due", "3": "tre", "4": "quattro", "5": "cinque", "6": "sei",
               "7": "sette", "8": "otto", "9": "nove", "10": "dieci", "J": "fante",
               "C": "cavallo", "Q": "regina", "K": "re"},
        french_suits={"H": "cuori", "D": "quadri", "C": "fiori", "S": "picche"},
        round_suits={"H": "coppe", "D": "denari", "C": "bastoni", "S": "spade"},
        of="di", trump="trionfo",
        named={"ANGEL": "Angelo", "WORLD": "Mondo", "SUN": "Sole", "MOON": "Luna",
               "BEGATO": "Bégato", "MATTO": "Matto"},
        moro="Moro", trumps={1: "Bagatto", 20: "Giudizio", 21: "Mondo"}, fool="Matto",
        and_="e", family_fool={"mitigatti": "Fuole (Matto)"}),
    # French as a table in Nice says it: the French suits' names for Gatti, the round suits
    # (coupes, deniers, bâtons, épées) for Ottocento and Mitigatti, trumps "atout", the Fool
    # "l'Excuse"; Mitigatti's honours by the seed's Niçois words (Cason, 1930): the Bagatte,
    # l'Ange, the Papote (5 to 2), lu Fuole.
    "fr": CardWords(
        ranks={"1": "as", "2": "deux", "3": "trois", "4": "quatre", "5": "cinq", "6": "six",
               "7": "sept", "8": "huit", "9": "neuf", "10": "dix", "J": "valet",
               "C": "cavalier", "Q": "dame", "K": "roi"},
        french_suits={"H": "cœur", "D": "carreau", "C": "trèfle", "S": "pique"},
        round_suits={"H": "coupes", "D": "deniers", "C": "bâtons", "S": "épées"},
        of="de", trump="atout",
        named={"ANGEL": "l'Ange", "WORLD": "le Monde", "SUN": "le Soleil", "MOON": "la Lune",
               "BEGATO": "Bégato", "MATTO": "l'Excuse"},
        moro="Maure", trumps={1: "Bagatto", 20: "le Jugement", 21: "le Monde"},
        fool="l'Excuse", and_="et",
        family_trumps={"mitigatti": {1: "Bagatte", 2: "Papote", 3: "Papote", 4: "Papote",
                                     5: "Papote", 20: "l'Ange"}},
        family_fool={"mitigatti": "Fuole"}),
}


def card_name(card: Card, lang: str, family: str | None = None) -> str:
    """A card as a player says it: "re di quadri", "trionfo 21 (Mondo)", "Matto"; "roi de
    carreau", "atout 20 (l'Ange)", "Fuole"."""
    words = CARD_WORDS.get(lang)
    if words is None:
        return card.code
    code = card.code
    if card.is_plain and card.rank and card.suit:
        return f"{words.ranks[card.rank]} {words.suit(card.suit.value, family)}"
    if card.is_fool:
        return words.family_fool.get(family or "", words.fool)
    if code in words.named:
        return words.named[code]
    if code.startswith("MORO"):
        return f"{words.moro} {code[4:]}"
    number = int(code[1:]) if code[1:].isdigit() else None
    if number is None:
        return code
    trumps = words.family_trumps.get(family or "", words.trumps)
    named = trumps.get(number) if family != "ottocento" else None
    return f"{words.trump} {number} ({named})" if named else f"{words.trump} {number}"


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
            last = f" {CARD_WORDS[self.lang].and_} "
            return (", ".join(names[:-1]) + last + names[-1]) if len(names) > 1 else \
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
