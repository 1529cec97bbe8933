"""The printable score sheet as data (rulebook §2.7 and §3's sheet; ``GET /games/{id}/sheet.pdf``).

Players keep these scores on paper: a column per player or pair, each hand's meld lines with
their marks (``20 F``, ``10 ♦``, ``5 K``), the deck points, a rule across the columns, and the
running totals. ``build_sheet`` turns a game view into that sheet — rows of cells, each cell
its points and its mark, every label already in the reader's language — and
``service.pdf.render`` only lays it out. Nothing here computes a score: every number comes from
the hands' results and the game's summary, the same ones the API returns.

This builder writes what every sheet has: the header, the notes of a hand (its events, rule
violations, the rules it was recorded under where a later ruling would refuse it, the players'
verdicts), the explanations and the legend's common marks. The rest
is the game's family's (``FAMILIES``): Gatti's melds (``gatti.py``), Ottocento's race to 800
(``ottocento.py``), both points games (``points.py``), Mitigatti's marca (``mitigatti.py``).
A variant of a family the sheet does not know yet still prints: as a points game, its lines
in an ``other`` row under their own item name, or in marca where it settles in marca.

Glossary (Italian words used as domain terms): *mano* hand, *mazziere* dealer, *buone* melds,
*punti di mazzo* deck points, *marca* the counter Mitigatti is settled in, *piatto* the pot.
"""

from __future__ import annotations

from datetime import datetime

from service.domain import RULES_VERSION

from ..games import GameView, HandView
from .chart import build_chart
from .context import SheetContext, option_texts, variant_name
from .family import Family, Result
from .gatti import Gatti
from .mitigatti import Mitigatti
from .model import HandBlock, Sheet
from .ottocento import Ottocento
from .points import PointsFamily
from .readable import readable

#: Who writes the part of the sheet that is a family's own, by ``Variant.family``.
FAMILIES: dict[str, type[Family]] = {
    "gatti": Gatti,
    "gatti-classic": Gatti,
    "ottocento": Ottocento,
    "mitigatti": Mitigatti,
}


def family_of(c: SheetContext) -> Family:
    unknown = Mitigatti if c.variant.settles_in_marca else PointsFamily
    return FAMILIES.get(c.variant.family, unknown)(c)


class SheetBuilder:
    def __init__(self, view: GameView, lang: str, detail: bool) -> None:
        self.c = SheetContext(view, lang, detail)
        self.t = self.c.t
        self.view = view
        self.family = family_of(self.c)

    # -- the whole sheet --------------------------------------------------------------------

    def build(self, as_of: datetime | None) -> Sheet:
        t = self.t
        view = self.view
        hands = [self._hand(i, hand) for i, hand in enumerate(view.hands)]
        rules = sorted({h.rules_version for h in view.hands})
        rules_text = t("rules.version", version=", ".join(rules) if rules else RULES_VERSION)
        return Sheet(
            lang=t.lang,
            title=t("title"),
            variant=variant_name(view, t),
            meta=tuple(self._meta(as_of)),
            columns=(*self.c.columns, *self.family.extra_columns()),
            hand_label=t("col.board") if view.setup.boards else t("col.hand"),
            hands=tuple(hands),
            final=tuple(self.family.final()),
            outcome=tuple(self.family.outcome()),
            sections=tuple(self.family.sections()),
            legend_title=t("legend.title"),
            legend=tuple(self._legend()),
            footer=t("footer", game=view.id, rules=rules_text),
            page_label=t("footer.page", page="{page}", pages="{pages}"),
            filename=f"segnapunti-{self.c.variant.id}-{view.id}.pdf",
            detail_title=t("detail.title") if self.c.detail else "",
            subject=f"{variant_name(view, t)} · {view.id}",
            players=tuple(view.setup.players),
            chart=build_chart(self.c),
        )

    def _meta(self, as_of: datetime | None) -> list[tuple[str, str]]:
        t = self.t
        view = self.view
        summary = view.summary
        names = self.c.names
        options = option_texts(view, t)
        meta = [
            (t("meta.variant"), variant_name(view, t)),
            (t("meta.options"), "; ".join(options) if options else t("meta.no_options")),
            (t("meta.players"), ", ".join(names)),
            (t("meta.sides"), self._sides_text()),
            (t("meta.first_dealer"), names[view.setup.first_dealer]),
        ]
        if summary.target is not None:
            meta.append((t("meta.target"), t("target.points", n=summary.target)))
        if summary.finished:
            status = t("status.finished")
        elif summary.next_dealer is not None:
            status = t("status.in_progress_next", name=names[summary.next_dealer])
        else:
            status = t("status.in_progress")
        meta.append((t("meta.status"), status))
        zone = str(view.setup.options.get("time_zone") or "UTC")
        meta.append((t("meta.started"), t.date(view.game.created_at, zone)))
        if as_of is not None:  # the game's last change: the sheet of a version never varies
            meta.append((t("meta.as_of"), t.date(as_of, zone)))
        return meta

    def _sides_text(self) -> str:
        t = self.t
        variant = self.c.variant
        if variant.partnership == "call":
            return t("side.by_hand", how=t("side.by_call"))
        if variant.partnership == "contract":
            return t("side.by_hand", how=t("side.by_contract"))
        fixed = variant.fixed_sides()
        if not fixed or all(len(seats) == 1 for seats in fixed):
            return t("side.none")
        labels = [" & ".join(self.c.names[s] for s in seats) for seats in fixed]
        text = labels[0]
        for other in labels[1:]:
            text = t("side.against", a=text, b=other)
        return text

    # -- one hand ---------------------------------------------------------------------------

    def _hand(self, index: int, hand: HandView) -> HandBlock:
        result = hand.result.to_json()
        notes = self._notes(hand, result)
        rows, more_notes = self.family.rows(index, hand, result)
        notes += more_notes
        details = tuple(self._details(index, hand, result)) if self.c.detail else ()
        dealer = self.t("hand.dealer", name=self.c.names[hand.dealer])
        # A duplicate table's hand is known by its board: "Board 7", not "Hand 3".
        label = str(hand.board.number if hand.board is not None else hand.number)
        word = self.t("col.board") if hand.board is not None else self.t("col.hand")
        return HandBlock(hand.number, dealer, tuple(notes), tuple(rows), details,
                         f"{word} {label}, {dealer}", label)

    def _notes(self, hand: HandView, result: Result) -> list[str]:
        t = self.t
        notes, said = self.family.lead_notes(hand, result)
        for event in result.get("events", []):
            if event == "thrown_in" or event in said:
                continue
            notes.append(t.get(f"event.{event}", t("event.other", event=event)))
        violations = result.get("violations") or []
        if violations:
            key = "note.violations.one" if len(violations) == 1 else "note.violations.other"
            notes.append(t(key, n=len(violations)))
        if hand.record.get("tricks"):
            notes.append(t("note.trick_record"))
        if result.get("earlier_rules"):  # a ruling since would refuse it: the referee reads why
            notes.append(self.c.say(result["earlier_rules"]))
        notes += self._verdict_notes(hand)
        return notes

    def _verdict_notes(self, hand: HandView) -> list[str]:
        """What the players said of the hand: each dispute with its reason, and
        whether every player has confirmed it; nothing where the game takes no verdicts."""
        t = self.t
        names = self.c.names
        used = self.c.used_marks
        standing = hand.standing
        if standing.status == "not_asked" or not self.view.verdicts_shown():
            return []
        notes = []
        for verdict in hand.confirmations:
            if verdict.verdict == "dispute":
                used.add("!")
                notes.append(t("note.disputed", name=names[verdict.seat],
                               reason=verdict.reason or ""))
        if standing.status == "confirmed":
            used.add("✓")
            notes.append(t("note.confirmed"))
        elif standing.waiting:
            used.add("○")
            notes.append(t("note.waiting", names=", ".join(names[s] for s in standing.waiting)))
        return notes

    # -- explanations (?detail=1) -----------------------------------------------------------

    def _details(self, index: int, hand: HandView, result: Result) -> list[str]:
        """A hand's explanation lines: what the service said of it (each side's lines, the
        family's own such as Mitigatti's payments, the violations), in the sheet's language
        with the players' names — the sentences the page shows."""
        say = self.c.say
        uncounted = self.family.uncounted(index, hand, result)
        out = []
        for s, side in enumerate(result.get("sides") or []):
            for k, line in enumerate(side["lines"]):
                rule = line.get("rule")
                prefix = "† " if (s, k) in uncounted else ""
                out.append(f"{prefix}{say(line['text'])}" + (f" ({rule})" if rule else ""))
        out += self.family.details(index, hand, result)
        for violation in result.get("violations") or []:
            out.append(say(violation["message"]))
        return out

    # -- the legend -------------------------------------------------------------------------

    def _legend(self) -> list[tuple[str, str]]:
        t = self.t
        used = self.c.used_marks
        out = self.family.mark_legend()
        if "#" in used:
            out.append(("#", t("legend.by_points")))
        required = self.view.setup.options.get("confirmation") == "required"
        if "○" in used:
            out.append(("○", t("legend.waiting.required" if required else "legend.waiting")))
        if "!" in used:
            out.append(("!", t("legend.disputed")))
        if "✓" in used:
            out.append(("✓", t("legend.confirmed")))
        return out + self.family.note_legend()


def build_sheet(view: GameView, lang: str = "en", *, detail: bool = False,
                as_of: datetime | None = None) -> Sheet:
    """The score sheet of a game, in ``lang`` (``en``, ``it`` or ``fr``); with ``detail``,
    each hand's explanation lines too."""
    return readable(SheetBuilder(view, lang, detail).build(as_of), lang)

