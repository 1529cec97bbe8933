"""Gatti on the sheet (RULES §2.7, §3): each hand's melds, one row of marks a meld (``20 F``,
``10 ♦``, ``5 K``), the captured melds, Bagatto ultimo (``B``), then the deck points; a called
partner named at the hand's head; the legend of the meld marks."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..games import HandView
from .family import Result
from .points import PointsFamily


class Gatti(PointsFamily):
    own_items = frozenset({"bagatto_ultimo"})

    def mark(self, line: Mapping[str, Any]) -> tuple[str, str]:
        item = line["item"]
        if item == "bagatto_ultimo":
            self.c.used_marks.add("B")
            return "bagatto", "B"
        if item not in ("meld", "captured_meld"):
            return super().mark(line)
        mark = str(line.get("mark", ""))
        if mark:
            self.c.used_marks.add(mark)
        if item == "captured_meld":
            self.c.used_marks.add("captured")
        return item, mark

    def lead_notes(self, hand: HandView, result: Result) -> tuple[list[str], set[str]]:
        """The card the dealer called, and who turned out to hold it."""
        call = hand.record.get("call")
        if not call:
            return [], set()
        t = self.t
        names = self.c.names
        card = self.c.card(call["card"])
        partner = result.get("partner", call.get("partner"))
        dealer = names[hand.dealer]
        if partner is None:
            return [t("call.hidden", dealer=dealer, card=card)], set()
        if partner == hand.dealer:
            return [t("call.alone", dealer=dealer, card=card)], {"dealer_alone"}
        return [t("call.partner", dealer=dealer, card=card, partner=names[partner])], set()

    def words(self, line: Mapping[str, Any], side: Mapping[str, Any]) -> str:
        t = self.t
        item = line["item"]
        points = t.number(int(line["points"]))
        if item == "meld":
            who = t.seat(line["seat"], capital=True)
            if line.get("rule") == "R1":
                worth = int(_number_after("worth", line["text"]))
                before = int(_number_after("than the", line["text"]))
                return t("detail.meld.more", who=who, label=self._meld_label(line, worth),
                         worth=worth, points=points, before=before)
            return t("detail.meld", who=who, label=self._meld_label(line, int(line["points"])),
                     points=points)
        if item == "captured_meld":
            return t("detail.captured_meld", who=t.seats(side["seats"], capital=True),
                     label=self._meld_label(line, 0), points=points)
        if item == "bagatto_ultimo":
            who = t.seat(line["seat"], capital=True)
            if line["won"]:
                return t("detail.bagatto.won", who=who, points=points)
            if line["seat"] in side["seats"]:
                return t("detail.bagatto.lost_own", who=who, points=points)
            return t("detail.bagatto.lost", who=who, points=points, to=t.seats(side["seats"]))
        return super().words(line, side)

    def _meld_label(self, line: Mapping[str, Any], count: int) -> str:
        t = self.t
        kind = line["kind"]
        mark = line.get("mark", "")
        if kind in ("frilli", "trumps"):
            return t(f"meld.{kind}", n=count)
        if kind == "gatti":
            return t("meld.gatti")
        if kind == "family":
            return t("meld.family", suit=mark)
        return t(f"meld.{kind}", rank=t(f"rank.{mark}"))

    def mark_legend(self) -> list[tuple[str, str]]:
        t = self.t
        used = self.c.used_marks
        out: list[tuple[str, str]] = []
        for mark in "FT":
            if mark in used:
                out.append((mark, t(f"legend.{mark}")))
        if "G" in used:
            gatti_cards = self.c.variant.gatti_cards
            out.append(("G", t("legend.G", third=gatti_cards[-1] if gatti_cards else "T21")))
        suits = [s for s in "♥♦♣♠" if s in used]
        if suits:
            out.append((" ".join(suits), t("legend.suits")))
        ranks = [r for r in "JCQK" if r in used]
        if ranks:
            out.append((" ".join(ranks), t("legend.ranks")))
        if "B" in used:
            out.append(("B", t("legend.B")))
        if "captured" in used:
            out.append(("", t("legend.captured")))
        return out


def _number_after(words: str, text: str) -> str:
    found = re.search(rf"{re.escape(words)} (-?\d+)", text)
    if found is None:
        raise ValueError(f"no number after {words!r}")
    return found.group(1)
