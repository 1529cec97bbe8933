"""Card notation: lenient parsing, canonical formatting (rulebook §1).

``parse_card`` accepts every alias of rulebook §1 in any case: ``kh``, ``K♥``, ``♥K``, ``re di
coppe``, ``king of hearts``, ``10 spade``, ``cc`` (the cavalier of clubs), ``T21``, ``Mondo``,
``★``. ``format_card`` gives the canonical code, and ``parse_card(format_card(c)) == c`` for
every card of every pack.

A text that names no card at all is ``not_a_card``; a real card that the game's pack lacks (a
``2H`` in Ottocento) is ``card_not_in_pack``. Errors name the input and its position.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .cards import PACKS, Card, Pack, Suit
from .errors import Problem
from .text import Text

_SUIT_WORDS: dict[str, Suit] = {}
for _suit, _words in {
    Suit.HEARTS: ("H", "♥", "♡", "HEART", "HEARTS", "CUP", "CUPS", "COPPE", "COPPA", "CUPA"),
    Suit.DIAMONDS: ("D", "♦", "♢", "DIAMOND", "DIAMONDS", "COIN", "COINS", "DENARI", "DENARO",
                    "ORI"),
    Suit.CLUBS: ("C", "♣", "♧", "CLUB", "CLUBS", "BATON", "BATONS", "BASTONI", "BASTONE",
                 "BASTON"),
    Suit.SPADES: ("S", "♠", "♤", "SPADE", "SPADES", "SWORD", "SWORDS", "SPADA"),
}.items():
    for _word in _words:
        _SUIT_WORDS[_word] = _suit

_RANK_WORDS: dict[str, str] = {str(n): str(n) for n in range(1, 11)}
for _rank, _words in {
    "1": ("A", "ACE", "ASSO"),
    "J": ("J", "JACK", "KNAVE", "FANTE", "FANTIN", "FANTE"),
    "C": ("C", "N", "CAVALIER", "KNIGHT", "CAVALLO", "CAVAU", "CAVALIERE"),
    "Q": ("Q", "QUEEN", "REGINA", "DONNA", "DAMA"),
    "K": ("K", "KING", "RE", "REI"),
}.items():
    for _word in _words:
        _RANK_WORDS[_word] = _rank

_FILLER = {"OF", "DI", "DE", "THE"}
_TRUMP_NUMBER = re.compile(r"^T(\d{1,2})$")
_WORD_SPLIT = re.compile(r"[\s_\-]+")


class CardSyntaxError(ValueError):
    """A text that is not a card, or a card the pack lacks. ``code`` says which."""

    def __init__(self, text: str, code: str, message: Text) -> None:
        self.text = text
        self.code = code
        self.message = message
        super().__init__(message)


def _normalise(text: str) -> str:
    return text.strip().upper()


def _plain_from_tokens(rank_word: str, suit_word: str) -> tuple[str, Suit] | None:
    rank = _RANK_WORDS.get(rank_word)
    suit = _SUIT_WORDS.get(suit_word)
    if rank is None or suit is None:
        return None
    return rank, suit


def _plain_from_compact(text: str) -> tuple[str, Suit] | None:
    """``KH``, ``10S``, ``K♥``, ``♥K``, ``CC``: rank first, then suit first."""
    for i in range(1, len(text)):
        found = _plain_from_tokens(text[:i], text[i:])
        if found:
            return found
    for i in range(1, len(text)):
        found = _plain_from_tokens(text[i:], text[:i])
        if found:
            return found
    return None


def _identify(text: str) -> tuple[str, str] | None:
    """What card a text names, independent of pack: ``("plain", "KH")``, ``("name", "ANGEL")``
    or ``("trump", "21")``."""
    upper = _normalise(text)
    if not upper:
        return None
    compact = _WORD_SPLIT.sub("", upper)
    words = [w for w in _WORD_SPLIT.split(upper) if w and w not in _FILLER]
    if len(words) == 2:
        found = _plain_from_tokens(words[0], words[1]) or _plain_from_tokens(words[1], words[0])
        if found:
            return "plain", f"{found[0]}{found[1].value}"
    match = _TRUMP_NUMBER.match(compact)
    if match and int(match.group(1)) <= 21:
        return "trump", str(int(match.group(1)))
    if any(compact in pack.alias_map for pack in PACKS.values()):
        return "name", compact
    found = _plain_from_compact(compact)
    if found:
        return "plain", f"{found[0]}{found[1].value}"
    return None


def parse_card(text: str, pack: Pack) -> Card:
    """The card of ``pack`` that ``text`` names; raises ``CardSyntaxError``."""
    if not isinstance(text, str):
        raise CardSyntaxError(str(text), "not_a_card", Text("{text} is not a card code",
                                                                text=repr(text)))
    exact = pack.by_code.get(text)
    if exact is not None:  # canonical codes, by far the most common input
        return exact
    identified = _identify(text)
    if identified is None:
        raise CardSyntaxError(text, "not_a_card", Text("{text} is not a card", text=repr(text)))
    form, value = identified
    code: str | None
    if form == "plain":
        code = value
    elif form == "trump":
        code = pack.alias_map.get(f"T{value}", f"T{value}")
    else:
        code = pack.alias_map.get(value)
    if code is None or code not in pack.by_code:
        raise CardSyntaxError(
            text, "card_not_in_pack",
            Text("{text} is not a card of the 78-card tarot pack", text=repr(text))
            if pack.id == "tarot78" else
            Text("{text} is not a card of the 62-card Bolognese pack (Tarocchino)",
                 text=repr(text)))
    return pack.by_code[code]


def format_card(card: Card) -> str:
    """The canonical code of a card."""
    return card.code


def parse_cards(
    texts: Sequence[object], pack: Pack, field: str
) -> tuple[tuple[Card, ...], list[Problem]]:
    """Parse a list of codes. Returns the cards that parsed and one problem per bad entry,
    each naming its position (``field[2]``); a card listed twice is also a problem."""
    cards: list[Card] = []
    problems: list[Problem] = []
    seen: dict[Card, int] = {}
    for i, text in enumerate(texts):
        try:
            card = parse_card(text if isinstance(text, str) else repr(text), pack)
        except CardSyntaxError as exc:
            problems.append(Problem(f"{field}[{i}]", exc.code, exc.message, "§1"))
            continue
        if card in seen:
            problems.append(Problem(
                f"{field}[{i}]", "duplicate_card",
                Text("{card} is listed twice (also at position {seen})", card=card,
                     seen=seen[card]), "§6",
            ))
            continue
        seen[card] = i
        cards.append(card)
    return tuple(cards), problems


def parse_suit(text: object) -> Suit | None:
    """A suit from any of its names (``H``, ``♥``, ``cups``, ``coppe``…), or None."""
    return _SUIT_WORDS.get(text.strip().upper()) if isinstance(text, str) else None


def parse_rank(text: object) -> str | None:
    """A plain rank from any of its names (``K``, ``re``, ``Cavallo``, ``A``, ``7``…), or
    None."""
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text)
    return _RANK_WORDS.get(text.strip().upper()) if isinstance(text, str) else None


