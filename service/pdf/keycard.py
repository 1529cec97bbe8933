"""A club's or an event's key card, one A6 page (a quarter of an A4 sheet, the size of a
postcard): the card's title, the name it opens and whose link it is, the link as a QR code
and as text, what it opens, how a new phone uses it, and that it must be kept safe. Drawn to
fit its one page whatever the name's length."""

from __future__ import annotations

import io
from typing import Any

from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A6
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import BaseDocTemplate, Frame, KeepInFrame, PageTemplate, Spacer

from service.application.printouts import KeyCard

from .render import BOLD, GREY, INK, REGULAR, RULE, _p, _style, register_fonts

MARGIN = 8 * mm
#: The QR code's side: large enough for any phone's camera from a hand's length.
QR_SIDE = 46 * mm
#: The link's type size, at most and at least (below it, the link is set on two lines).
LINK_LARGEST = 8.0
LINK_SMALLEST = 5.6


def _qr(link: str) -> Drawing:
    """The link as a QR code (error correction M: a creased or smudged card still scans)."""
    widget = QrCodeWidget(link, barLevel="M", barBorder=2)
    left, bottom, right, top = widget.getBounds()
    drawing = Drawing(QR_SIDE, QR_SIDE, transform=[QR_SIDE / (right - left), 0, 0,
                                                   QR_SIDE / (top - bottom), 0, 0])
    drawing.add(widget)
    drawing.hAlign = "CENTER"
    return drawing


def _link_lines(link: str, width: float) -> tuple[list[str], float]:
    """The link as printed: one line in the largest size that fits, else the address and
    its token on a line each."""
    # A line set exactly as wide as the frame may be judged a hair too wide and its last
    # character pushed onto a line of its own: leave a little room.
    room = width * 0.97
    size = min(LINK_LARGEST, room / pdfmetrics.stringWidth(link, REGULAR, 1))
    if size >= LINK_SMALLEST:
        return [link], size
    head, mark, tail = link.partition("?")
    lines = [head, mark + tail] if mark else [link]
    widest = max(pdfmetrics.stringWidth(line, REGULAR, 1) for line in lines)
    return lines, max(LINK_SMALLEST, min(LINK_LARGEST, room / widest))


def _centred(name: str, size: float, font: str = REGULAR, color: Any = INK,
              leading: float | None = None) -> ParagraphStyle:
    return ParagraphStyle(name, fontName=font, fontSize=size, leading=leading or size * 1.25,
                          textColor=color, alignment=TA_CENTER)


def render_keycard(card: KeyCard) -> bytes:
    register_fonts()
    buffer = io.BytesIO()
    page_width, page_height = A6
    width = page_width - 2 * MARGIN
    document = BaseDocTemplate(
        buffer, pagesize=A6, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
        bottomMargin=MARGIN, title=f"{card.title} · {card.name}", author="Segnapunti",
        lang=card.lang)
    frame = Frame(MARGIN, MARGIN, width, page_height - 2 * MARGIN, id="card",
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)

    def border(canvas: Any, _document: Any) -> None:
        canvas.saveState()
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.8)
        canvas.roundRect(MARGIN / 2, MARGIN / 2, page_width - MARGIN, page_height - MARGIN,
                         3 * mm)
        canvas.restoreState()

    document.addPageTemplates([PageTemplate(id="card", frames=[frame], onPage=border)])
    lines, size = _link_lines(card.link, width)
    link_style = _centred("link", size, leading=size * 1.3)
    link_style.splitLongWords = False  # a token is never cut in two
    story: list[Any] = [
        _p(card.title.upper(), _centred("kicker", 7, BOLD, GREY)),
        Spacer(1, 1.5 * mm),
        _p(card.name, _centred("name", 14, BOLD, leading=17)),
        _p(card.role, _centred("role", 8.5, REGULAR, GREY, leading=11)),
        Spacer(1, 2 * mm),
        _qr(card.link),
        Spacer(1, 1 * mm),
        *(_p(line, link_style) for line in lines),
        Spacer(1, 3 * mm),
        _p(card.opens, _style("opens", 7.4, REGULAR, leading=9.4)),
        Spacer(1, 1.5 * mm),
        _p(card.use, _style("use", 7.4, REGULAR, leading=9.4)),
        Spacer(1, 1.5 * mm),
        _p(card.safe, _style("safe", 7.4, BOLD, leading=9.4)),
        Spacer(1, 1.5 * mm),
        _p(card.lost, _style("lost", 6.8, REGULAR, GREY, leading=8.6)),
        Spacer(1, 2.5 * mm),
        _p(card.footer, _centred("footer", 6, REGULAR, GREY)),
    ]
    document.build([KeepInFrame(width, page_height - 2 * MARGIN, story, mode="shrink")])
    return buffer.getvalue()
