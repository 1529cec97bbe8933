"""A duplicate event's deal slips, in the style of the score sheet: A4 portrait, two
boards a page, each in its half with a dashed cut line between; the board's number large, who
deals it, a row per seat with its cards under the game's own suits, the dealer's extra cards,
the exposed cards."""

from __future__ import annotations

import io
from typing import Any

from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (
    BaseDocTemplate,
    Frame,
    FrameBreak,
    KeepInFrame,
    PageTemplate,
    Spacer,
)

from service.application.printouts import Slip, SlipsSheet

from .render import (
    BODY,
    BOLD,
    GREY,
    MARGIN,
    REGULAR,
    RULE,
    SMALL,
    _p,
    _style,
    grid,
    house_table,
    numbered_pdf,
    register_fonts,
)

#: The gap either side of the cut line, inside each half.
GAP = 7 * mm


def _cut_line(canvas: Any, document: Any) -> None:
    """The dashed line across the middle of the page, where the two slips are cut apart."""
    width, height = A4
    canvas.saveState()
    canvas.setStrokeColor(GREY)
    canvas.setLineWidth(0.5)
    canvas.setDash(4, 3)
    canvas.line(MARGIN / 2, height / 2, width - MARGIN / 2, height / 2)
    canvas.setFont(REGULAR, SMALL)
    canvas.setFillColor(GREY)
    canvas.drawString(MARGIN / 2, height / 2 + 1.2 * mm, "✂")
    canvas.restoreState()


def _slip(slip: Slip, sheet: SlipsSheet, width: float, styles: dict[str, Any]) -> list[Any]:
    seat = 25 * mm
    part = (width - seat) / (len(sheet.header) - 0.5)  # the trumps take a part and a half
    widths = [seat, width - seat - part * (len(sheet.header) - 2)] + \
        [part] * (len(sheet.header) - 2)
    rows: list[list[Any]] = [[_p(h, styles["head"]) for h in sheet.header]]
    rows += [[_p(row[0], styles["seat"]), *(_p(c, styles["cards"]) for c in row[1:])]
             for row in slip.rows]
    commands = grid(3, 3, 3, 4, header=True)
    if slip.extra:
        rows.append([_p(slip.extra[0], styles["extra"]),
                     *(_p(c, styles["cards"]) for c in slip.extra[1:])])
        commands.append(("LINEABOVE", (0, -1), (-1, -1), 0.8, RULE))
    table = house_table(rows, widths, commands)
    heading = house_table([[_p(slip.title, styles["board"]), _p(sheet.subtitle, styles["event"])]],
                          [width * 0.55, width * 0.45],
                          [("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                           ("LEFTPADDING", (0, 0), (-1, -1), 0),
                           ("RIGHTPADDING", (0, 0), (-1, -1), 0)])
    return [heading, Spacer(1, 2 * mm), _p(slip.dealer, styles["dealer"]), Spacer(1, 3 * mm),
            table, Spacer(1, 3 * mm), _p(slip.exposed, styles["exposed"])]


def render_slips(sheet: SlipsSheet) -> bytes:
    register_fonts()
    styles = {
        "board": _style("sl-board", 30, BOLD, leading=34),
        "event": ParagraphStyle("sl-event", fontName=REGULAR, fontSize=BODY,
                                leading=BODY * 1.25, textColor=GREY, alignment=TA_RIGHT),
        "dealer": _style("sl-dealer", 13, BOLD, leading=16),
        "head": _style("sl-head", BODY + 1, BOLD),
        "seat": _style("sl-seat", BODY + 2, BOLD),
        "extra": _style("sl-extra", BODY + 0.5, BOLD),
        "cards": _style("sl-cards", BODY + 3.4, REGULAR, leading=(BODY + 3.4) * 1.3),
        "exposed": _style("sl-exposed", BODY + 2, BOLD),
    }
    buffer = io.BytesIO()
    width, height = A4
    half = height / 2
    frames = [Frame(MARGIN, half + GAP, width - 2 * MARGIN, half - MARGIN - GAP, id="top",
                    leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0),
              Frame(MARGIN, MARGIN, width - 2 * MARGIN, half - MARGIN - GAP, id="bottom",
                    leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)]
    document = BaseDocTemplate(
        buffer, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
        bottomMargin=MARGIN, title=f"{sheet.title} · {sheet.subtitle}", author="Segnapunti",
        creator="Segnapunti", lang=sheet.lang,
        pageTemplates=[PageTemplate("slips", frames=frames, onPage=_cut_line)])
    inner = width - 2 * MARGIN
    story: list[Any] = []
    for index, slip in enumerate(sheet.slips):
        if index:
            story.append(FrameBreak())
        story.append(KeepInFrame(inner, half - MARGIN - GAP, _slip(slip, sheet, inner, styles),
                                 mode="shrink"))
    return numbered_pdf(buffer, document, story, sheet)
