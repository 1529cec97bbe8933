"""The printable standings of an event, in the style of the score sheet: A4, DejaVu
Sans, rules rather than boxes, the places first (a club's season: then the chart of its
leaders evening by evening), then each round's tables, then how each place was
reached."""

from __future__ import annotations

import io
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
)

from service.application.printouts import Block, StandingsSheet

from .chart import chart_drawing
from .render import (
    BODY,
    BOLD,
    GREY,
    MARGIN,
    REGULAR,
    SMALL,
    _style,
    fitted,
    grid,
    house_table,
    numbered_pdf,
    register_fonts,
)


def _p(text: str, style: Any) -> Paragraph:
    """A paragraph of plain text; a line break in it breaks the line."""
    return Paragraph("<br/>".join(escape(line) for line in text.split("\n")), style)


def _table(block: Block, widths: list[float], styles: dict[str, Any],
           numeric: range) -> Table:
    rows: list[list[Any]] = []
    if block.header:
        rows.append([fitted(h, styles["head_num"] if i in numeric else styles["head"],
                            widths[i] - 2 * 2.2)
                     for i, h in enumerate(block.header)])
    for row in block.rows:
        rows.append([_p(cell, styles["num"] if i in numeric else styles["cell"])
                     for i, cell in enumerate(row)])
    return house_table(rows, widths, grid(2.2, 2.2, 1.4, 1.6, header=bool(block.header)),
                       repeatRows=1 if block.header else 0)


def render_standings(sheet: StandingsSheet) -> bytes:
    register_fonts()
    styles = {
        "title": _style("st-title", 17, BOLD),
        "subtitle": _style("st-subtitle", 10.5, REGULAR, GREY),
        "h2": _style("st-h2", 11, BOLD),
        "head": _style("st-head", SMALL + 0.4, BOLD),
        "head_num": ParagraphStyle("st-head-num", fontName=BOLD, fontSize=SMALL + 0.4,
                                   leading=(SMALL + 0.4) * 1.25, alignment=TA_RIGHT),
        "cell": _style("st-cell", BODY),
        "num": ParagraphStyle("st-num", fontName=REGULAR, fontSize=BODY, leading=BODY * 1.25,
                              alignment=TA_RIGHT),
        "small": _style("st-small", SMALL, REGULAR, GREY),
        "meta_label": _style("st-meta-label", BODY, BOLD),
    }
    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
        bottomMargin=MARGIN + 4 * mm, title=f"{sheet.title} · {sheet.meta[0][1]}",
        author="Segnapunti", creator="Segnapunti", lang=sheet.lang)
    width = document.width
    story: list[Any] = [_p(sheet.title, styles["title"]),
                        _p(sheet.subtitle, styles["subtitle"]), Spacer(1, 3 * mm)]
    meta = house_table([[_p(k, styles["meta_label"]), _p(v, styles["cell"])]
                        for k, v in sheet.meta], [30 * mm, width - 30 * mm],
                       [("LEFTPADDING", (0, 0), (-1, -1), 0),
                        ("TOPPADDING", (0, 0), (-1, -1), 0.6),
                        ("BOTTOMPADDING", (0, 0), (-1, -1), 0.6)])
    story += [meta, Spacer(1, 5 * mm)]
    if sheet.duplicate:  # place, name, %, boards, MP, difference, points
        fixed = [12 * mm, 0.0, 17 * mm, 18 * mm, 12 * mm, 16 * mm, 17 * mm]
    else:  # place, name, MP, difference, points, each round's MP
        rounds = len(sheet.standings.header) - 5
        fixed = [12 * mm, 0.0, 13 * mm, 16 * mm, 17 * mm] + [10 * mm] * rounds
    fixed[1] = width - sum(fixed)
    story.append(_table(sheet.standings, fixed, styles, range(2, len(fixed))))
    story += [Spacer(1, 2 * mm), _p(sheet.legend, styles["small"]), Spacer(1, 5 * mm)]
    if sheet.prizes is not None:
        # Place, name, money, prizes in kind, who shares the place.
        widths = [12 * mm, 0.0, 26 * mm, 42 * mm, 42 * mm]
        widths[1] = width - sum(widths)
        story += [KeepTogether([
            _p(sheet.prizes.title, styles["h2"]), Spacer(1, 1.5 * mm),
            _table(sheet.prizes, widths, styles, range(2, 3)),
            *(_p(line, styles["small"]) for line in sheet.prizes.lines)]), Spacer(1, 5 * mm)]
    if sheet.chart is not None:
        # A season's leaders evening by evening: the places' table told as a picture.
        story += [KeepTogether([
            _p(sheet.chart.title, styles["h2"]), Spacer(1, 1.5 * mm),
            chart_drawing(sheet.chart, width, REGULAR, BOLD, SMALL, sheet.lang), Spacer(1, 1.5 * mm),
            *(_p(line, styles["small"]) for line in sheet.chart.words)]), Spacer(1, 5 * mm)]
    for block in sheet.rounds:
        widths = [14 * mm, 0.0, 30 * mm, 36 * mm]
        widths[1] = width - sum(widths)
        parts: list[Any] = [_p(block.title, styles["h2"]), Spacer(1, 1.5 * mm),
                            _table(block, widths, styles, range(2, 3))]
        parts += [_p(line, styles["small"]) for line in block.lines]
        story += [KeepTogether(parts), Spacer(1, 4 * mm)]
    story += [_p(sheet.how.title, styles["h2"]), Spacer(1, 1.5 * mm)]
    for name, text in sheet.how.rows:
        story.append(Paragraph(f"<font name='{BOLD}'>{escape(name)}</font> {escape(text)}",
                               styles["small"]))
    if sheet.travellers:
        story += [PageBreak(), _p(sheet.travellers_title, styles["title"]), Spacer(1, 3 * mm)]
    for block in sheet.travellers:
        # Round, table, then the columns in equal shares of what is left.
        columns = len(block.header) - 2
        widths = [13 * mm, 13 * mm] + [(width - 26 * mm) / columns] * columns
        parts = [_p(block.title, styles["h2"]), Spacer(1, 1.5 * mm),
                 _table(block, widths, styles, range(2))]
        parts += [_p(line, styles["small"]) for line in block.lines]
        story += [KeepTogether(parts), Spacer(1, 4 * mm)]
    return numbered_pdf(buffer, document, story, sheet)
