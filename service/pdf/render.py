"""The score sheet laid out as a PDF, with reportlab (``GET /games/{id}/sheet.pdf``).

``render_sheet`` takes the view model of ``service.application.printouts`` — every number and
word already there — and prints it as a card club would: a header naming the game, then one
table with a column per player or pair, each split into points (right-aligned, so the
figures line up) and marks (``F``, ``♦``, ``B``, the red suits in red); per hand its number
and dealer down the left, its lines, the hand's points, a rule across, the running total in
bold; the final totals under a double rule; then the outcome, any ledger and the marks'
legend. The column header repeats on every page, a hand is never split across pages, and
each page's foot carries the game and the page number.

The text is set in DejaVu Sans (``fonts/``, embedded as a subset), which has the suits, the
Fool's ``★``, the minus sign and every Italian accent. A4, portrait; landscape when the
columns do not fit across a portrait page.
"""

from __future__ import annotations

import io
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as pdfcanvas
from reportlab.platypus import (
    KeepTogether,
    LongTable,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from service.application.printouts import Entry, HandBlock, Printout, Row, Sheet

from .chart import chart_drawing

FONTS = Path(__file__).resolve().parent / "fonts"
REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"

MARGIN = 14 * mm
BODY = 8.6
SMALL = 7.0
INK = colors.HexColor("#1b1b1b")
GREY = colors.HexColor("#6b6b6b")
LIGHT = colors.HexColor("#9a9a9a")
RULE = colors.HexColor("#2b2b2b")
HAIR = colors.HexColor("#c8c8c8")
BAND = colors.HexColor("#f1efe8")
RED = colors.HexColor("#b3261e")
WINNER = colors.HexColor("#fbf1c7")

HAND_WIDTH = 17 * mm
GROUP_MIN = 24 * mm
GROUP_MAX = 62 * mm
PAD = 2.2

_lock = threading.Lock()
_registered = False


def register_fonts() -> None:
    """Register DejaVu Sans with reportlab, once per process."""
    global _registered
    with _lock:
        if _registered:
            return
        pdfmetrics.registerFont(TTFont(REGULAR, str(FONTS / "DejaVuSans.ttf")))
        pdfmetrics.registerFont(TTFont(BOLD, str(FONTS / "DejaVuSans-Bold.ttf")))
        pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=REGULAR,
                                      boldItalic=BOLD)
        _registered = True


def _style(name: str, size: float = BODY, font: str = REGULAR, color: Any = INK,
           leading: float | None = None, **kwargs: Any) -> ParagraphStyle:
    return ParagraphStyle(name, fontName=font, fontSize=size, leading=leading or size * 1.25,
                          textColor=color, alignment=TA_LEFT, **kwargs)


@dataclass(frozen=True)
class _Styles:
    title: ParagraphStyle
    subtitle: ParagraphStyle
    meta_label: ParagraphStyle
    meta: ParagraphStyle
    head: ParagraphStyle
    head_right: ParagraphStyle
    hand: ParagraphStyle
    note: ParagraphStyle
    detail: ParagraphStyle
    text: ParagraphStyle
    outcome: ParagraphStyle
    section: ParagraphStyle
    legend: ParagraphStyle


def _styles() -> _Styles:
    return _Styles(
        title=_style("title", 17, BOLD, leading=20),
        subtitle=_style("subtitle", 11, REGULAR, GREY, leading=14),
        meta_label=_style("meta_label", SMALL, REGULAR, GREY),
        meta=_style("meta", SMALL + 0.6, REGULAR),
        head=_style("head", BODY, BOLD, leading=BODY * 1.2),
        head_right=ParagraphStyle("head_right", fontName=BOLD, fontSize=BODY,
                                  leading=BODY * 1.2, textColor=INK, alignment=TA_RIGHT),
        hand=_style("hand", SMALL, REGULAR, GREY, leading=SMALL * 1.2, autoLeading="max"),
        note=_style("note", SMALL, REGULAR, GREY, leading=SMALL * 1.25),
        detail=_style("detail", SMALL - 0.4, REGULAR, GREY, leading=(SMALL - 0.4) * 1.3,
                      leftIndent=6, firstLineIndent=-6),
        text=_style("text", BODY),
        outcome=_style("outcome", BODY + 1, BOLD, leading=(BODY + 1) * 1.35),
        section=_style("section", BODY + 1.5, BOLD, spaceBefore=6, spaceAfter=3),
        legend=_style("legend", SMALL, REGULAR, GREY, leading=SMALL * 1.45),
    )


def _p(text: str, style: ParagraphStyle) -> Paragraph:
    """A paragraph of plain text: everything the sheet prints is escaped, names included."""
    return Paragraph(escape(text), style)


class _NumberedCanvas(pdfcanvas.Canvas):  # type: ignore[misc]
    """Draws each page's foot once the number of pages is known."""

    footer = ""
    page_label = "{page}/{pages}"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Every page starts in DejaVu Sans: no base-14 font is ever named in the PDF.
        kwargs["initialFontName"] = kwargs.get("initialFontName") or REGULAR
        kwargs["initialFontSize"] = kwargs.get("initialFontSize") or BODY
        super().__init__(*args, **kwargs)
        self._pages: list[dict[str, Any]] = []

    def showPage(self) -> None:
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._pages)
        for state in self._pages:
            self.__dict__.update(state)
            self._draw_foot(total)
            super().showPage()
        super().save()

    def _draw_foot(self, total: int) -> None:
        width, _height = self._pagesize
        self.saveState()
        self.setStrokeColor(HAIR)
        self.setLineWidth(0.4)
        self.line(MARGIN, MARGIN - 4 * mm, width - MARGIN, MARGIN - 4 * mm)
        self.setFont(REGULAR, SMALL - 0.5)
        self.setFillColor(GREY)
        self.drawString(MARGIN, MARGIN - 7.5 * mm, self.footer)
        self.drawRightString(width - MARGIN, MARGIN - 7.5 * mm,
                             self.page_label.format(page=self._pageNumber, pages=total))
        self.restoreState()


def house_table(rows: list[list[Any]], widths: list[float], commands: list[tuple[Any, ...]],
                **kwargs: Any) -> Table:
    """A table of ``rows`` in columns of ``widths``, set from the left margin and styled by
    ``commands``; ``kwargs`` as reportlab's ``Table`` takes them (``repeatRows``)."""
    table = Table(rows, colWidths=widths, hAlign="LEFT", **kwargs)
    table.setStyle(TableStyle(commands))
    return table


def grid(left: float, right: float, top: float, bottom: float, *,
         header: bool) -> list[tuple[Any, ...]]:
    """A table's style as the printouts draw their tables: its cells set from their top with
    this padding on each side, a hairline under each row, and a header row (``header``)
    between two rules, on the band."""
    padding = [("VALIGN", (0, 0), (-1, -1), "TOP"),
               ("LEFTPADDING", (0, 0), (-1, -1), left),
               ("RIGHTPADDING", (0, 0), (-1, -1), right),
               ("TOPPADDING", (0, 0), (-1, -1), top),
               ("BOTTOMPADDING", (0, 0), (-1, -1), bottom)]
    hairlines = ("LINEBELOW", (0, 1 if header else 0), (-1, -1), 0.3, HAIR)
    if not header:
        return [*padding, hairlines]
    return [*padding, ("LINEABOVE", (0, 0), (-1, 0), 0.8, RULE),
            ("LINEBELOW", (0, 0), (-1, 0), 0.8, RULE), ("BACKGROUND", (0, 0), (-1, 0), BAND),
            hairlines]


def numbered_pdf(buffer: io.BytesIO, document: Any, story: list[Any],
                 printout: Printout) -> bytes:
    """``story`` built into ``document`` (writing to ``buffer``), each page's foot saying
    the printout's footer and the page's number (its page label); the PDF's bytes."""
    canvas_class = type("NumberedCanvas", (_NumberedCanvas,),
                        {"footer": printout.footer, "page_label": printout.page_label})
    document.build(story, canvasmaker=canvas_class)
    return buffer.getvalue()


# -- the score table --------------------------------------------------------------------------


def _text_width(text: str, font: str, size: float) -> float:
    return float(pdfmetrics.stringWidth(text, font, size))


def fitted_size(text: str, font: str, size: float, width: float) -> float:
    """The type size a heading is set at in ``width``: ``size``, or smaller so that its
    longest word fits whole (a heading wraps between words, never inside one)."""
    widest = max((_text_width(word, font, size) for word in text.split()), default=0.0)
    return size if widest <= width else size * width / widest


def fitted(text: str, style: ParagraphStyle, width: float) -> Paragraph:
    """A heading's paragraph in ``width``, every word of it whole (``fitted_size``)."""
    size = fitted_size(text, style.fontName, style.fontSize, width)
    if size == style.fontSize:
        return _p(text, style)
    return Paragraph(escape(text), ParagraphStyle(
        f"{style.name}-{size:.2f}", parent=style, fontSize=size,
        leading=style.leading * size / style.fontSize))


def _measure(sheet: Sheet) -> tuple[float, float, float]:
    """Natural widths of the label column, a points column and a marks column."""
    label = max([_text_width(r.label, REGULAR, BODY) for h in sheet.hands for r in h.rows]
                + [_text_width(r.label, BOLD, BODY) for r in sheet.final] + [12 * mm])
    points = [18.0]
    marks = [10.0]
    for row in [r for h in sheet.hands for r in h.rows] + list(sheet.final):
        for cell in row.cells:
            if cell is None:
                continue
            font = BOLD if cell.style in ("strong", "winner") else REGULAR
            points.append(_text_width(cell.text, font, BODY))
            marks.append(_text_width(cell.mark, BOLD, BODY))
    return label + 2 * PAD + 2, max(points) + 2 * PAD + 1, max(marks) + 2 * PAD + 1


def _layout(sheet: Sheet) -> tuple[tuple[float, float], list[float]]:
    label, points, mark = _measure(sheet)
    groups = len(sheet.columns)
    natural = max(GROUP_MIN, points + mark)
    portrait = A4[0] - 2 * MARGIN
    pagesize = A4 if HAND_WIDTH + label + groups * natural <= portrait else landscape(A4)
    room = pagesize[0] - 2 * MARGIN - HAND_WIDTH - label
    group = min(GROUP_MAX, max(natural, room / max(groups, 1)))
    if HAND_WIDTH + label + groups * group > pagesize[0] - 2 * MARGIN:
        # Even landscape is short of room: the groups shrink to share the width.
        group = room / max(groups, 1)
    mark_width = max(mark, group * 0.42)
    widths = [HAND_WIDTH, label]
    for _ in sheet.columns:
        widths += [group - mark_width, mark_width]
    return pagesize, widths


class _TableBuilder:
    def __init__(self, sheet: Sheet, styles: _Styles, widths: list[float]) -> None:
        self.sheet = sheet
        self.s = styles
        self.widths = widths
        self.ncols = len(widths)
        self.data: list[list[Any]] = []
        self.commands: list[tuple[Any, ...]] = []
        self.heights: list[float] = []  # estimated, to decide which hands stay whole
        #: (first row, last row, kept whole) of each hand, explanation and total, in order.
        self.blocks: list[tuple[int, int, bool]] = []
        self._by_row: dict[int, list[tuple[Any, ...]]] | None = None

    def cmd(self, *command: Any) -> None:
        self.commands.append(command)

    def _append(self, row: list[Any], height: float) -> int:
        self.data.append(row)
        self.heights.append(height)
        return len(self.data) - 1

    def _plain_height(self) -> float:
        return BODY * 1.2 + 2 * PAD

    def header(self) -> None:
        row: list[Any] = [fitted(self.sheet.hand_label, self.s.head, self.widths[0] - 2 * PAD), ""]
        for k, column in enumerate(self.sheet.columns):
            room = self.widths[2 + 2 * k] + self.widths[3 + 2 * k] - 2 * PAD
            size = fitted_size(column.label, BOLD, self.s.head.fontSize, room)
            text = f"<font size='{size:.2f}'><b>{escape(column.label)}</b></font>"
            if column.seats:
                text += f"<br/><font size='{SMALL - 0.6}' color='#6b6b6b'>" \
                        f"{escape(column.seats)}</font>"
            row += [Paragraph(text, self.s.head), ""]
        index = self._append(row, 2.4 * BODY + 2 * PAD)
        for k in range(len(self.sheet.columns)):
            c = 2 + 2 * k
            self.cmd("SPAN", (c, index), (c + 1, index))
        self.cmd("LINEBELOW", (0, index), (-1, index), 1.1, RULE)
        self.cmd("VALIGN", (0, index), (-1, index), "BOTTOM")

    def _cells(self, cells: tuple[Entry | None, ...], index: int) -> list[Any]:
        out: list[Any] = []
        for k, cell in enumerate(cells):
            c = 2 + 2 * k
            if cell is None:
                out += ["", ""]
                continue
            out += [cell.text, cell.mark]
            if cell.style in ("strong", "winner"):
                self.cmd("FONTNAME", (c, index), (c + 1, index), BOLD)
            if cell.style == "winner":
                self.cmd("BACKGROUND", (c, index), (c + 1, index), WINNER)
            if cell.style in ("shared", "void"):
                self.cmd("TEXTCOLOR", (c, index), (c + 1, index), LIGHT)
            elif any(red in cell.mark for red in "♥♦"):
                self.cmd("TEXTCOLOR", (c + 1, index), (c + 1, index), RED)
        return out

    def hand(self, hand: HandBlock) -> None:
        first = len(self.data)
        body_width = sum(self.widths[1:]) - 2 * PAD
        if hand.notes:
            note = Paragraph(" · ".join(escape(n) for n in hand.notes), self.s.note)
            height = note.wrap(body_width, 1000)[1] + 2 * PAD
            index = self._append(["", note] + [""] * (self.ncols - 2), height)
            self.cmd("SPAN", (1, index), (-1, index))
            self.cmd("TOPPADDING", (0, index), (-1, index), PAD + 1)
        for row in hand.rows:
            self._row(row)
        last = len(self.data) - 1
        self._hand_label(hand, first, last)
        self.cmd("LINEBELOW", (0, last), (-1, last), 0.5, HAIR)
        whole = sum(self.heights[first:]) < self.frame_height * 0.8
        if whole:
            self.cmd("NOSPLIT", (0, first), (-1, last))
        self.blocks.append((first, last, whole))
        if hand.details:
            # The explanations follow the hand; they may go on to the next page, each line a
            # paragraph of its own (a hanging bullet).
            lines = [Paragraph(f"<font name='{BOLD}'>{escape(hand.heading)}</font>",
                               self.s.detail)]
            lines += [Paragraph("• " + escape(d), self.s.detail) for d in hand.details]
            height = sum(p.wrap(body_width, 10_000)[1] for p in lines) + 2 * PAD
            index = self._append(["", lines] + [""] * (self.ncols - 2), height)
            self.cmd("SPAN", (1, index), (-1, index))
            self.cmd("TOPPADDING", (0, index), (-1, index), PAD + 1)
            self.cmd("BOTTOMPADDING", (0, index), (-1, index), PAD + 2)
            self.cmd("LINEBELOW", (0, index), (-1, index), 0.5, HAIR)
            self.blocks.append((index, index, False))

    frame_height = A4[1]

    def _hand_label(self, hand: HandBlock, first: int, last: int) -> None:
        """The hand's number, and its dealer under it, down the left. Plain strings where they
        fit (a table draws them far faster than paragraphs); a name too long to fit wraps."""
        width = self.widths[0] - PAD
        dealer: Any = hand.dealer
        if _text_width(hand.dealer, REGULAR, SMALL) > width:
            dealer = _p(hand.dealer, self.s.hand)
        if last == first:
            self.data[first][0] = Paragraph(
                f"<font name='{BOLD}' size='{BODY + 3}' color='#1b1b1b'>"
                f"{hand.label or hand.number}</font>"
                f"<br/>{escape(hand.dealer)}", self.s.hand)
            self.cmd("VALIGN", (0, first), (0, first), "TOP")
            return
        self.data[first][0] = hand.label or str(hand.number)
        self.data[first + 1][0] = dealer
        self.cmd("FONTNAME", (0, first), (0, first), BOLD)
        self.cmd("FONTSIZE", (0, first), (0, first), BODY + 3)
        self.cmd("VALIGN", (0, first), (0, first), "BOTTOM")
        self.cmd("SPAN", (0, first + 1), (0, last))
        self.cmd("VALIGN", (0, first + 1), (0, last), "TOP")
        self.cmd("FONTSIZE", (0, first + 1), (0, last), SMALL)
        self.cmd("TEXTCOLOR", (0, first + 1), (0, last), GREY)

    def _row(self, row: Row) -> None:
        if row.kind == "note":
            index = self._append(["", _p(row.note, self.s.note)] + [""] * (self.ncols - 2),
                                 self._plain_height() + 2)
            self.cmd("SPAN", (1, index), (-1, index))
            return
        index = len(self.data)
        cells = self._cells(row.cells, index)
        cells += [""] * (self.ncols - 2 - len(cells))
        self._append(["", row.label, *cells], self._plain_height())
        if row.kind == "hand":
            self.cmd("LINEBELOW", (1, index), (-1, index), 0.9, RULE)
            self.cmd("TEXTCOLOR", (1, index), (1, index), GREY)
        elif row.kind == "total":
            self.cmd("FONTNAME", (1, index), (-1, index), BOLD)
        elif row.kind == "progress":
            self.cmd("TEXTCOLOR", (1, index), (-1, index), GREY)
            self.cmd("FONTSIZE", (1, index), (-1, index), SMALL)
        elif row.kind == "deck":
            self.cmd("TEXTCOLOR", (1, index), (1, index), GREY)
        else:
            self.cmd("TEXTCOLOR", (1, index), (1, index), GREY)

    def final(self) -> None:
        for row in self.sheet.final:
            index = len(self.data)
            cells = self._cells(row.cells, index)
            self._append([row.label, "", *cells], self._plain_height() + 3)
            self.cmd("FONTNAME", (0, index), (-1, index), BOLD)
            self.cmd("FONTSIZE", (0, index), (-1, index), BODY + 1)
            self.cmd("LINEABOVE", (0, index), (-1, index), 2.2, RULE)
            self.cmd("LINEABOVE", (0, index), (-1, index), 0.6, colors.white)
            self.cmd("SPAN", (0, index), (1, index))
            self.cmd("TOPPADDING", (0, index), (-1, index), PAD + 2)
            self.blocks.append((index, index, False))

    def _base_style(self) -> list[tuple[Any, ...]]:
        style: list[tuple[Any, ...]] = [
            ("FONTNAME", (0, 0), (-1, -1), REGULAR),
            ("FONTSIZE", (0, 0), (-1, -1), BODY),
            ("LEADING", (0, 0), (-1, -1), BODY * 1.2),
            ("TEXTCOLOR", (0, 0), (-1, -1), INK),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), PAD),
            ("BOTTOMPADDING", (0, 0), (-1, -1), PAD),
            ("LEFTPADDING", (0, 0), (-1, -1), PAD),
            ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
            ("LEFTPADDING", (0, 0), (0, -1), 0),
            ("BACKGROUND", (0, 1), (0, -1), BAND),
        ]
        for k in range(len(self.sheet.columns)):
            points, mark = 2 + 2 * k, 3 + 2 * k
            style += [
                ("ALIGN", (points, 1), (points, -1), "RIGHT"),
                ("RIGHTPADDING", (points, 0), (points, -1), 1.2),
                ("ALIGN", (mark, 1), (mark, -1), "LEFT"),
                ("LEFTPADDING", (mark, 0), (mark, -1), 1.6),
                ("FONTNAME", (mark, 1), (mark, -1), BOLD),
                ("LINEBEFORE", (points, 0), (points, -1), 0.4, HAIR),
            ]
        style.append(("LINEBEFORE", (1, 0), (1, -1), 0.4, HAIR))
        return style

    def _table(self, rows: range) -> Table:
        """The header and ``rows`` as one table, the rows' commands moved with them."""
        start, end = rows.start, rows.stop - 1
        data = [self.data[0]] + self.data[start:end + 1]
        if self._by_row is None:
            self._by_row = {}
            for command in self.commands:
                self._by_row.setdefault(command[1][1], []).append(command)
        spanning = [c for c in self.commands if c[1][1] < start <= c[2][1]]
        commands = self._base_style() + self._by_row.get(0, []) + [
            (command[0], (command[1][0], max(command[1][1], start) - start + 1),
             (command[2][0], min(command[2][1], end) - start + 1), *command[3:])
            for command in spanning + [c for row in rows for c in self._by_row.get(row, [])]]
        table = LongTable(data, colWidths=self.widths, repeatRows=1, hAlign="LEFT")
        table.setStyle(TableStyle(commands))
        return table

    def pages(self, first_page: float, page: float) -> list[range]:
        """The rows of each page: hands kept whole (when one fits on a page), split between
        rows otherwise. Heights are the table's own, measured once."""
        measure = self._table(range(1, len(self.data)))
        measure.wrap(sum(self.widths), 1e9)
        heights = list(measure._rowHeights)
        header = heights[0]
        out: list[range] = []
        start, room = 1, first_page - header
        for first, last, whole in self.blocks:
            height = sum(heights[first:last + 1])
            if height <= room or (out == [] and start == first and room == first_page - header
                                  and height > room and not whole):
                room -= height
                continue
            if whole and start < first:
                out.append(range(start, first))
                start, room = first, page - header
                if height <= room:
                    room -= height
                    continue
            for row in range(first, last + 1):
                if heights[row] > room and start < row:
                    out.append(range(start, row))
                    start, room = row, page - header
                room -= heights[row]
        out.append(range(start, len(self.data)))
        return out

    def tables(self, first_page: float, page: float) -> list[Any]:
        """The table page by page, each page's part with the column header: the story's
        flowables. Cut here rather than by reportlab, which re-splits what is left of one
        long table at every page (quadratic in the hands of a long evening)."""
        story: list[Any] = []
        for number, rows in enumerate(self.pages(first_page, page)):
            if number:
                story.append(PageBreak())
            story.append(self._table(rows))
        return story


# -- the page -------------------------------------------------------------------------------


def _header(sheet: Sheet, styles: _Styles, width: float) -> list[Any]:
    story: list[Any] = [
        _p(sheet.title, styles.title),
        _p(sheet.variant, styles.subtitle),
        Spacer(1, 3 * mm),
    ]
    rows = [[_p(label, styles.meta_label), _p(value, styles.meta)] for label, value in sheet.meta]
    meta = house_table(rows, [30 * mm, width - 30 * mm], [
        ("FONTNAME", (0, 0), (-1, -1), REGULAR),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (-1, -1), 0.6),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 0.6),
        ("LINEABOVE", (0, 0), (-1, 0), 0.6, RULE),
        ("LINEBELOW", (0, -1), (-1, -1), 0.6, RULE),
        ("TOPPADDING", (0, 0), (-1, 0), 3),
        ("BOTTOMPADDING", (0, -1), (-1, -1), 3),
    ])
    story += [meta, Spacer(1, 5 * mm)]
    return story


def _after(sheet: Sheet, styles: _Styles, width: float) -> list[Any]:
    story: list[Any] = [Spacer(1, 4 * mm)]
    story.append(KeepTogether([_p(line, styles.outcome) for line in sheet.outcome]))
    for section in sheet.sections:
        block: list[Any] = [_p(section.title, styles.section)]
        if section.rows:
            data = [[_p(h, styles.head_right) if h else "" for h in section.header]]
            data += [list(row) for row in section.rows]
            first = 34 * mm
            rest = min(30 * mm, (width - first) / max(len(section.header) - 1, 1))
            table = house_table(data, [first] + [rest] * (len(section.header) - 1), [
                ("FONTNAME", (0, 0), (-1, -1), REGULAR),
                ("FONTSIZE", (0, 0), (-1, -1), BODY),
                ("TEXTCOLOR", (0, 1), (0, -1), GREY),
                ("ALIGN", (1, 1), (-1, -1), "RIGHT"),
                ("LINEBELOW", (0, 0), (-1, 0), 0.9, RULE),
                ("LINEABOVE", (0, 3), (-1, 3), 0.9, RULE),
                ("FONTNAME", (1, 3), (-1, 3), BOLD),
                ("LEFTPADDING", (0, 0), (0, -1), 0),
                ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
            ], repeatRows=1)
            block.append(table)
            block.append(Spacer(1, 2 * mm))
        block += [_p(line, styles.text) for line in section.lines]
        story.append(KeepTogether(block))
    if sheet.legend:
        items = "&nbsp;&nbsp;·&nbsp;&nbsp;".join(
            (f"<font name='{BOLD}' color='#1b1b1b'>{_marks_markup(mark)}</font>&nbsp;"
             if mark else "") + escape(text) for mark, text in sheet.legend)
        story += [Spacer(1, 4 * mm),
                  KeepTogether([_p(sheet.legend_title, styles.section),
                                Paragraph(items, styles.legend)])]
    if sheet.chart is not None:
        # Last, as a summary: the table's marks keep their legend next to them.
        story += [Spacer(1, 4 * mm), KeepTogether([
            _p(sheet.chart.title, styles.section),
            chart_drawing(sheet.chart, width, REGULAR, BOLD, SMALL, sheet.lang),
            Spacer(1, 1.5 * mm),
            *(_p(line, styles.legend) for line in sheet.chart.words)])]
    return story


def _marks_markup(marks: str) -> str:
    """Marks as paragraph markup, the red suits in red."""
    return "".join(f"<font color='#b3261e'>{c}</font>" if c in "♥♦" else escape(c)
                   for c in marks)


def render_sheet(sheet: Sheet) -> bytes:
    """The sheet as the bytes of a PDF."""
    register_fonts()
    styles = _styles()
    pagesize, widths = _layout(sheet)
    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer, pagesize=pagesize, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
        bottomMargin=MARGIN + 4 * mm, title=f"{sheet.title} · {sheet.subject}",
        author="Segnapunti", subject=sheet.subject, creator="Segnapunti",
        lang=sheet.lang,
    )
    builder = _TableBuilder(sheet, styles, widths)
    builder.frame_height = document.height
    builder.header()
    for hand in sheet.hands:
        builder.hand(hand)
    builder.final()
    story: list[Any] = _header(sheet, styles, document.width)
    # A frame keeps 6 points of padding on each side.
    frame = document.height - 12
    used = sum(f.wrap(document.width - 12, frame)[1] for f in story)
    story += builder.tables(frame - used - 1, frame - 1)
    story += _after(sheet, styles, document.width)
    return numbered_pdf(buffer, document, story, sheet)
