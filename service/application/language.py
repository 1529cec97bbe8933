"""The languages the service speaks to a table (issue 18, French issue 27): English, the rules
core's own, and Italian and French from the gettext catalogues
``service/locale/<lang>/LC_MESSAGES/messages.po`` (read by
``service.locale`` and handed to the ``Speaker``).

A ``Speaker`` renders what the core said (``Text``: problems, explanation lines, payments,
labels) in its language: the template translated (by its count where it has one, with the
language's plural rules), each value rendered in turn — a card by its name in the words of
the game's family (Gatti's French suits, the round suits of Ottocento and Mitigatti), a
nested sentence in the same language, and where it knows the table's players a seat
(``Seats``: "seat 0", "seats 0 and 2") by their names, in every language, English too.
English is otherwise the core's text as it is: cards keep their codes, the notation the API
takes. A template the catalogue lacks is said in English rather than guessed.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping, Sequence
from typing import Any

from service.domain import (
    LANGUAGES,
    Card,
    Cards,
    Seats,
    Text,
    english_value,
    family_suit_style,
)

DEFAULT = "en"


#: The languages that name cards, and each one's word for a card's part: a column a language.
#: French as a table in Nice says it: the French suits' names for Gatti, the round suits
#: (coupes, deniers, bâtons, épées) for Ottocento and Mitigatti, trumps "atout", the Fool
#: "l'Excuse"; Mitigatti's honours by the seed's Niçois words (Cason, 1930): the Bagatte,
#: l'Ange, the Papote (5 to 2), lu Fuole.
NAMING = ("it", "fr")
_RANKS = {"1": ("asso", "as"), "2": ("due", "deux"), "3": ("tre", "trois"),
          "4": ("quattro", "quatre"), "5": ("cinque", "cinq"), "6": ("sei", "six"),
          "7": ("sette", "sept"), "8": ("otto", "huit"), "9": ("nove", "neuf"),
          "10": ("dieci", "dix"), "J": ("fante", "valet"), "C": ("cavallo", "cavalier"),
          "Q": ("regina", "dame"), "K": ("re", "roi")}
_FRENCH_SUITS = {"H": ("cuori", "cœur"), "D": ("quadri", "carreau"), "C": ("fiori", "trèfle"),
                 "S": ("picche", "pique")}
_ROUND_SUITS = {"H": ("coppe", "coupes"), "D": ("denari", "deniers"), "C": ("bastoni", "bâtons"),
                "S": ("spade", "épées")}
#: The Bolognese pack's named trumps, and its Fool.
_NAMED = {"ANGEL": ("Angelo", "l'Ange"), "WORLD": ("Mondo", "le Monde"),
          "SUN": ("Sole", "le Soleil"), "MOON": ("Luna", "la Lune"),
          "BEGATO": ("Bégato", "Bégato"), "MATTO": ("Matto", "l'Excuse")}
#: The tarot's named trumps, and a family's own names for some (None: the language's).
_TRUMPS = {1: ("Bagatto", "Bagatto"), 20: ("Giudizio", "le Jugement"), 21: ("Mondo", "le Monde")}
_FAMILY_TRUMPS: dict[str, dict[int, tuple[str | None, str | None]]] = {
    "mitigatti": {1: (None, "Bagatte"), 20: (None, "l'Ange"),
                  **{n: (None, "Papote") for n in range(2, 6)}}}
_FOOL = {None: ("Matto", "l'Excuse"), "mitigatti": ("Fuole (Matto)", "Fuole")}
#: "re di quadri", "roi de carreau"; "trionfo 21", "atout 21"; "Moro 2", "Maure 2"; the word
#: that ends a list.
_WORDS = {"of": ("di", "de"), "trump": ("trionfo", "atout"), "moro": ("Moro", "Maure"),
          "and": ("e", "et")}


def _word(table: Mapping[Any, tuple[str | None, ...]], key: Any, lang: str) -> str | None:
    row = table.get(key)
    return None if row is None else row[NAMING.index(lang)]


def _of(suit: str, lang: str) -> str:
    """"di coppe", "de coupes", "d'épées" (French elides before a vowel)."""
    of = str(_word(_WORDS, "of", lang))
    if of.endswith("e") and suit[:1] in "aeiouéèêhâ":
        return f"{of[:-1]}'{suit}"
    return f"{of} {suit}"


def list_and(lang: str) -> str:
    return str(_word(_WORDS, "and", lang)) if lang in NAMING else "and"


def card_name(card: Card, lang: str, family: str | None = None) -> str:
    """A card as a player says it: "re di quadri", "trionfo 21 (Mondo)", "Matto"; "roi de
    carreau", "atout 20 (l'Ange)", "Fuole"."""
    if lang not in NAMING:
        return card.code
    code = card.code
    if card.is_plain and card.rank and card.suit:
        suits = _ROUND_SUITS if family_suit_style(family) == "round" else _FRENCH_SUITS
        return f"{_word(_RANKS, card.rank, lang)} {_of(str(_word(suits, card.suit.value, lang)), lang)}"
    if card.is_fool:
        return str(_word(_FOOL, family if family in _FOOL else None, lang))
    if code in _NAMED:
        return str(_word(_NAMED, code, lang))
    if code.startswith("MORO"):
        return f"{_word(_WORDS, 'moro', lang)} {code[4:]}"
    number = int(code[1:]) if code[1:].isdigit() else None
    if number is None:
        return code
    named = None if family == "ottocento" else (
        _word(_FAMILY_TRUMPS.get(family or "", {}), number, lang) or _word(_TRUMPS, number, lang))
    trump = _word(_WORDS, "trump", lang)
    return f"{trump} {number} ({named})" if named else f"{trump} {number}"


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
            names = [card_name(c, self.lang, self.family) for c in value]
            last = f" {list_and(self.lang)} "
            return (", ".join(names[:-1]) + last + names[-1]) if len(names) > 1 else \
                "".join(names)
        return str(value)

    def _named(self, seats: Sequence[int]) -> str:
        """The players at ``seats``: "Anna", "Anna e Carla", "Anna, Bruno and Carla"."""
        names = [self.names[s] if self.names and 0 <= s < len(self.names) else str(s)
                 for s in seats]
        if len(names) == 1:
            return names[0]
        return f"{', '.join(names[:-1])} {list_and(self.lang)} {names[-1]}"

    def _template(self, text: Text) -> str:
        if text.plural is not None and text.count is not None:
            return self._catalogue.ngettext(text.template, text.plural, text.count)
        return self._catalogue.gettext(text.template)

    def localize(self, data: Any) -> Any:
        """``data`` (a JSON-ready value) with every sentence in it said in this language."""
        if self.english and self.names is None:
            return data
        if isinstance(data, Text):
            return self(data)
        if isinstance(data, Mapping):
            return {key: self.localize(value) for key, value in data.items()}
        if isinstance(data, list | tuple):
            return [self.localize(value) for value in data]
        return data
