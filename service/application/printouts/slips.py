"""A duplicate event's deal slips (docs/events.md#duplicate): what a club prints to
make the boards before the evening. A slip a board: its number large, who deals it, each
seat's cards sorted by suit and rank (``sort_cards``: the boards are dealt sorted) under the
game's own suits and names, the cards the dealer takes besides, and the exposed cards; the
PDF puts two on a page with a cut line between."""

from __future__ import annotations

from collections.abc import Sequence

from service.domain import SUITS, Board, Card, Variant
from service.locale import card_words

from ..events import EventView
from ..i18n import Translator
from .model import Slip, SlipsSheet

#: Trumps with names of their own (Ottocento's), named by the cards' catalogue.
_NAMED = ("BEGATO", "MOON", "SUN", "WORLD", "ANGEL")


def _suit_words(variant: Variant, t: Translator) -> tuple[str, ...]:
    return (t("slip.trumps"), *(f"{s.symbol} {t(f'slip.suit.{variant.suit_style}.{s.value}')}"
                                for s in SUITS))


def card_word(card: Card, t: Translator) -> str:
    """A card in its group's cell: a trump by its number or name, a plain card by its rank."""
    words = card_words(t.lang)
    if card.is_plain:
        # A court card by its letter in the slip's language (R, D, C, F in Italian), as the
        # phone's card faces show it.
        rank = str(card.rank)
        return words.get(f"face.{rank}", rank)
    if card.is_fool:
        return t("slip.fool")
    code = card.code
    if code in _NAMED:
        return words[f"card.{code.lower()}"]
    if code.startswith("MORO"):
        return t("slip.moor", n=code[4:])
    return code[1:] if code[1:].isdecimal() else code


def exposed_word(card: Card, t: Translator) -> str:
    """A card by itself: a plain card's rank and suit, a trump said as a trump."""
    if card.suit is not None:
        return f"{card_word(card, t)}{card.suit.symbol}"
    word = card_word(card, t)
    return t("slip.trump", n=word) if word.isdecimal() else word


def grouped(cards: Sequence[Card], t: Translator) -> tuple[str, ...]:
    """Cards in the slip's columns: trumps (and the Fool), then ♥ ♦ ♣ ♠, each in the order
    given (a board's cards are sorted high to low); an empty group is a dash."""
    groups: list[list[str]] = [[] for _ in range(1 + len(SUITS))]
    for card in cards:
        index = 0 if card.suit is None else 1 + SUITS.index(card.suit)
        groups[index].append(card_word(card, t))
    return tuple(" ".join(g) if g else "–" for g in groups)


def build_slips(view: EventView, boards: Sequence[Board], lang: str) -> SlipsSheet:
    t = Translator(lang)
    setup = view.setup
    variant = setup.variant
    name = t.get(f"variant.{variant.id}", variant.name)
    slips = []
    for board in boards:
        # Seats as a person counts them, from 1 (the API's index is from 0).
        rows = tuple((t("slip.seat", n=seat + 1) + (" ◆" if seat == board.dealer else ""),
                      *grouped(hand, t)) for seat, hand in enumerate(board.hands))
        extra = (t("slip.extra", n=len(board.extra)), *grouped(board.extra, t)) \
            if board.extra else ()
        exposed = (t("slip.exposed", cards=", ".join(exposed_word(c, t) for c in board.exposed))
                   if board.exposed else t("slip.none_exposed"))
        slips.append(Slip(t("slip.board", n=board.number),
                          t("slip.dealer", n=board.dealer + 1), rows, extra, exposed))
    return SlipsSheet(
        lang=lang, title=t("slip.title"), subtitle=f"{setup.name} · {name}",
        header=(t("slip.col.seat"), *_suit_words(variant, t)), slips=tuple(slips),
        footer=t("slip.footer", event=view.id),
        page_label=t("footer.page", page="{page}", pages="{pages}"),
        filename=f"segnapunti-boards-{view.id}.pdf")
