"""The explanation lines of a hand (a sheet printed with ``?detail=1``). In English they are
the rules core's own texts, word for word, as the API returns them (ARCHITECTURE §5); in
Italian they are written from the same lines' facts, and a line whose facts the catalogue
cannot word is printed in English rather than guessed.

The lines every family may have (points as entered, deck points counted from the piles) are
worded here; the rest by the family of the game (its ``explain``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..games import HandView
from .context import SheetContext

#: Words one family's line: (the line, its side) -> the text; ``KeyError`` where the family
#: does not know the line.
Wording = Callable[[Mapping[str, Any], Mapping[str, Any]], str]

_MISSING_WORDS = (KeyError, TypeError, ValueError, IndexError)


class Explainer:
    """The explanation lines of one hand, and how many the catalogue could not word."""

    def __init__(self, c: SheetContext, hand: HandView, result: Mapping[str, Any],
                 family_words: Wording) -> None:
        self.c = c
        self.t = c.t
        self.hand = hand
        self.result = result
        self.family_words = family_words
        self.fallbacks = 0

    def worded(self, compose: Callable[[], str], english: str) -> str:
        """What ``compose`` says; ``english`` (the service's own text, which says seats) where
        the catalogue cannot say it."""
        try:
            return compose()
        except _MISSING_WORDS:
            self.fallbacks += 1
            return english

    def line(self, line: Mapping[str, Any], side: Mapping[str, Any]) -> str:
        """The line in the sheet's language, the players named."""
        return self.worded(lambda: self._composed(line, side), str(line["text"]))

    def cards(self, codes: Sequence[str]) -> str:
        return " ".join(self.c.card(code) for code in codes)

    def _composed(self, line: Mapping[str, Any], side: Mapping[str, Any]) -> str:
        t = self.t
        item = line["item"]
        points = t.number(int(line["points"]))
        side_who = t.seats(side["seats"], capital=True)
        if line.get("entered") == "points":
            how = t("detail.points.rest" if line.get("derived") else "detail.points.counted")
            if item == "card_points":
                last = int(line.get("last_trick") or 0)
                return t("detail.points.card", who=side_who, counted=line["counted"], how=how,
                         last=t("detail.points.last", n=last, points=points) if last else "")
            return t("detail.points.deck", who=side_who, counted=line["counted"], how=how)
        if item == "deck_points":
            cards = line.get("counting_cards") or []
            return t("detail.deck_points", who=side_who, tricks=line["tricks"],
                     trick_points=line["trick_points"], counting=line["counting"],
                     cards=f" ({self.cards(cards)})" if cards else "",
                     rest=t("detail.rest") if line.get("derived") else "")
        return self.family_words(line, side)

    def violation(self, violation: Mapping[str, Any]) -> str:
        t = self.t
        proof = violation.get("proof")
        return t("detail.violation", trick=violation["trick"],
                 who=t.seat(violation["seat"]), card=self.c.card(violation["card"]),
                 rule=t.get(f"violation.{violation['rule']}",
                            t("violation.other", rule=violation["rule"])),
                 proof=t("detail.proof", card=self.c.card(proof["card"]),
                         trick=proof["trick"]) if proof else "")

