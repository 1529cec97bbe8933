"""The printouts as data: what ``service.pdf`` lays out and the HTTP layer reads, every number
and word already there, in the reader's language.

A game's score sheet (``Sheet``): a column per player or pair (``SheetColumn``), a block per
hand (``HandBlock``) of rows (``Row``) whose cells (``Entry``) hold a number and its mark, the
final rows, and titled tables after the hands (``Block``: Mitigatti's marca ledger). An
event's standings (``StandingsSheet``): titled tables too, and a season's the chart of its
leaders evening by evening (``Chart``, as a game's sheet has its running totals).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

#: How a row's kind is printed: ``line`` a meld or payment, ``deck`` the hand's counted
#: points, ``hand`` the hand's total, ``total`` the running total (after the rule across),
#: ``progress`` what is left to the target, ``note`` a text across every column.
ROW_KINDS = ("line", "deck", "hand", "total", "progress", "marca", "balance", "note")

#: The key of the pot's column (Mitigatti), beside the players' columns.
POT = "pot"


@dataclass(frozen=True, slots=True)
class Entry:
    """One cell: its number as printed (``"20"``, ``"−20"``, ``"+2"``, ``"✓"``) and its mark
    (``"F"``, ``"♦"``, ``"B"``, ``"4K"``…). ``style``: ``plain``; ``shared`` for points a
    partner scored that the column is credited (R6); ``void`` for points printed but not
    counted (R13); ``strong`` for totals."""

    text: str
    mark: str = ""
    style: str = "plain"
    points: int | None = None


@dataclass(frozen=True, slots=True)
class Row:
    label: str
    kind: str
    cells: tuple[Entry | None, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class SheetColumn:
    key: str
    label: str
    seats: str


@dataclass(frozen=True, slots=True)
class HandBlock:
    number: int
    dealer: str
    notes: tuple[str, ...]
    rows: tuple[Row, ...]
    details: tuple[str, ...] = ()
    heading: str = ""  # "Hand 2, dealer Bruno": heads the explanations
    label: str = ""  # what the hand column prints: its number, or a duplicate table's board


@dataclass(frozen=True, slots=True)
class Block:
    """A titled table: its header, its rows, and lines of text under it (a sheet's marca
    ledger after the hands; an event's standings, rounds and explanations)."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    lines: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ChartLine:
    """One column's line on the chart: where it stood before the first hand, then after
    each hand (a season's leader: before the first evening, then after each). ``None``:
    no figure yet (a season's average before the member's first evening)."""

    label: str
    values: tuple[int | Decimal | None, ...]


@dataclass(frozen=True, slots=True)
class Chart:
    """The chart of a game's running totals: a line per column over the hands,
    and the line every column is measured against (Ottocento's target, Mitigatti's zero),
    if any; ``words`` say the same figures, a sentence per column. A season's standings
    chart their leaders the same way, evening by evening."""

    title: str
    hand_label: str
    unit: str
    lines: tuple[ChartLine, ...]
    reference: int | None
    reference_label: str
    words: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Printout:
    """What every printout has: the reader's language, its title, each page's foot and
    page label (with {page} and {pages}), and its file's name."""

    lang: str
    title: str
    footer: str
    page_label: str
    filename: str


@dataclass(frozen=True, slots=True)
class Sheet(Printout):
    variant: str
    meta: tuple[tuple[str, str], ...]
    columns: tuple[SheetColumn, ...]
    hand_label: str
    hands: tuple[HandBlock, ...]
    final: tuple[Row, ...]
    outcome: tuple[str, ...]
    sections: tuple[Block, ...]
    legend_title: str
    legend: tuple[tuple[str, str], ...]
    detail_title: str = ""
    subject: str = ""
    players: tuple[str, ...] = field(default=())
    chart: Chart | None = None

    def text(self) -> str:
        """Every word of the sheet, in reading order (for tests and search)."""
        out = [self.title, self.variant, *(f"{k} {v}" for k, v in self.meta)]
        out += [f"{c.label} {c.seats}" for c in self.columns]
        for hand in self.hands:
            out += [str(hand.number), hand.dealer, *hand.notes]
            for row in hand.rows:
                out.append(" ".join([row.label, row.note, *(f"{e.text} {e.mark}" for e in
                                                            row.cells if e)]))
            out += hand.details
        for row in self.final:
            out.append(" ".join([row.label, *(e.text for e in row.cells if e)]))
        out += self.outcome
        if self.chart is not None:
            out += [self.chart.title, *self.chart.words]
        for section in self.sections:
            out += [section.title, *section.header, *(" ".join(r) for r in section.rows),
                    *section.lines]
        out += [f"{m} {w}" for m, w in self.legend]
        return "\n".join(out)


@dataclass(frozen=True, slots=True)
class StandingsSheet(Printout):
    subtitle: str
    meta: tuple[tuple[str, str], ...]
    standings: Block
    rounds: tuple[Block, ...]
    how: Block
    legend: str
    #: A season's leaders evening by evening, drawn after the places (an event has none).
    chart: Chart | None = None
    #: A duplicate event's: its places say the boards and their percentage, and a page of
    #: travellers follows, a block per board every table due to play has played (each row a
    #: table; a cell per column: who, then the figures, on two lines).
    duplicate: bool = False
    travellers_title: str = ""
    travellers: tuple[Block, ...] = ()
    #: An event's prize list, after the places (none without prizes).
    prizes: Block | None = None

    def text(self) -> str:
        """Every word, in reading order (for tests and search)."""
        out = [self.title, self.subtitle, *(f"{k} {v}" for k, v in self.meta)]
        prizes = (self.prizes,) if self.prizes is not None else ()
        for block in (self.standings, *prizes, *self.rounds, self.how):
            out += [block.title, " ".join(block.header),
                    *(" ".join(r) for r in block.rows), *block.lines]
        if self.chart is not None:
            out += [self.chart.title, *self.chart.words]
        out.append(self.legend)
        if self.travellers:
            out.append(self.travellers_title)
        for block in self.travellers:
            out += [block.title, " ".join(block.header),
                    *(" ".join(r) for r in block.rows), *block.lines]
        return "\n".join(out)


@dataclass(frozen=True, slots=True)
class Slip:
    """One board's deal slip: its number, who deals it, a row per seat (the seat, then its
    cards by group: trumps, then each suit, in the game's own names), the dealer's extra
    cards in the same groups, and the exposed cards."""

    title: str
    dealer: str
    rows: tuple[tuple[str, ...], ...]
    extra: tuple[str, ...]
    exposed: str


@dataclass(frozen=True, slots=True)
class SlipsSheet(Printout):
    """A duplicate event's deal slips: two boards a page, cut lines between."""

    subtitle: str
    header: tuple[str, ...]
    slips: tuple[Slip, ...]

    def text(self) -> str:
        """Every word, in reading order (for tests and search)."""
        out = [self.title, self.subtitle]
        for slip in self.slips:
            out += [slip.title, slip.dealer, " ".join(self.header),
                    *(" ".join(row) for row in slip.rows), " ".join(slip.extra), slip.exposed]
        return "\n".join(out)
