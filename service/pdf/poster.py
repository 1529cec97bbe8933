"""An event's poster for the door (``GET /events/{id}/poster.pdf``): one A4 page, portrait,
to pin where the players come in. At the top the club, the event's name and its day; then
the door link as a QR code, as large as the page leaves room for, which a phone reads from a
metre away; under it one line saying what to do with it, in the language asked, and the link
in text for a phone that cannot scan.

Set in the score sheet's DejaVu Sans. The name is set as large as it fits on three lines at
most, wrapped between words and never inside one (a long name is shrunk, not cut). The QR
code keeps the quiet zone its readers need (four modules of white all round) and error
correction Q (a quarter of it may be lost to a crease, a pin or a smudge and it still
reads)."""

from __future__ import annotations

import io
import itertools
from datetime import date, datetime
from typing import Any

from reportlab.graphics.barcode import qrencoder
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from service.application.i18n import Translator
from service.locale import long_date

from .render import BOLD, GREY, INK, MARGIN, REGULAR, register_fonts

#: The QR code's error correction: Q, a quarter of the code may be lost and it still reads.
QR_LEVEL = "Q"
#: The white round the QR code, in modules: the four its standard asks for.
QUIET_ZONE = 4

CLUB_SIZE = 13.0
NAME_LARGEST = 40.0
NAME_SMALLEST = 16.0
NAME_LINES = 3
DATE_SIZE = 18.0
SCAN_LARGEST = 24.0
LINK_SIZE = 12.0
LEADING = 1.18

#: The space between the top block, the QR code and the words under it.
GAP = 5 * mm


def _width(text: str, font: str, size: float) -> float:
    return float(pdfmetrics.stringWidth(text, font, size))


def _wrapped(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` on as many lines as it takes in ``width``, broken only between words."""
    lines: list[str] = []
    for word in text.split():
        if lines and _width(f"{lines[-1]} {word}", font, size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def name_lines(name: str, width: float) -> tuple[list[str], float]:
    """The event's name as the poster sets it in ``width``: its lines and their type size,
    the largest at which every word fits whole and the name takes ``NAME_LINES`` lines at
    most (smaller than ``NAME_SMALLEST`` only for a word too long for the line at that
    size; a name that still takes more lines at ``NAME_SMALLEST`` is set on them all)."""
    widest = max((_width(word, BOLD, 1) for word in name.split()), default=1.0)
    size = min(NAME_LARGEST, width / widest)
    while size > NAME_SMALLEST:
        lines = _wrapped(name, BOLD, size, width)
        if len(lines) <= NAME_LINES:
            return lines, size
        size = max(NAME_SMALLEST, size - 0.5)
    return _wrapped(name, BOLD, size, width), size


#: Where a link is best broken, the best first: before its query (``…/door`` |
#: ``?token=…``), before another of its parameters, after a ``/``, after an ``=``.
_BREAKS = ((lambda before, after: after == "?"), (lambda before, after: after in "&#"),
           (lambda before, after: before == "/"), (lambda before, after: before == "="))


def link_lines(link: str, width: float) -> list[str]:
    """The link as printed in ``width``: whole on one line, else broken where an address
    parts (before ``?``, after ``/``…), or inside a part too long for the line anywhere: no
    hyphen is added, so that it is typed as printed."""
    lines: list[str] = []
    rest = link
    while rest:
        cut = len(rest)
        while cut > 1 and _width(rest[:cut], REGULAR, LINK_SIZE) > width:
            cut -= 1
        if cut < len(rest):
            for good in _BREAKS:
                places = [i for i in range(max(1, cut // 3), cut + 1) if good(rest[i - 1], rest[i])]
                if places:
                    cut = places[-1]
                    break
        lines.append(rest[:cut])
        rest = rest[cut:]
    return lines


def qr_modules(link: str) -> list[list[bool]]:
    """The link's QR code, row by row from the top, ``True`` for a dark module (its quiet
    zone not included)."""
    code = qrencoder.QRCode(None, getattr(qrencoder.QRErrorCorrectLevel, QR_LEVEL))
    code.addData(link)
    code.make()
    return [[bool(dark) for dark in row] for row in code.modules]


def _draw_qr(canvas: Any, modules: list[list[bool]], x: float, y: float, side: float) -> None:
    """The QR code ``side`` points square, its quiet zone included, from (``x``, ``y``): each
    row's runs of dark modules as rectangles, filled as one path (no seam between rows)."""
    module = side / (len(modules) + 2 * QUIET_ZONE)
    path = canvas.beginPath()
    for r, row in enumerate(modules):
        bottom = y + side - (r + QUIET_ZONE + 1) * module
        c = 0
        for dark, run in itertools.groupby(row):
            count = len(list(run))
            if dark:
                path.rect(x + (c + QUIET_ZONE) * module, bottom, count * module, module)
            c += count
    canvas.saveState()
    canvas.setFillColor(colors.black)
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()


def _day(when: datetime | date) -> date:
    return when.date() if isinstance(when, datetime) else when


def poster_pdf(*, name: str, date: datetime | date, link: str, lang: str,
               club: str | None = None) -> bytes:
    """The door poster of the event ``name`` held on ``date`` (a time is read on its own
    clock: give it in the event's time zone), whose door link is ``link``, in ``lang``
    (``en``, ``it`` or ``fr``; ``ValueError`` for another), naming its ``club`` if any."""
    t = Translator(lang)
    register_fonts()
    day = long_date(_day(date), lang)
    day = day[:1].upper() + day[1:]  # a line of its own: "Giovedì 26 novembre 2026"
    scan = t("poster.scan")

    page_width, page_height = A4
    width = page_width - 2 * MARGIN
    names, name_size = name_lines(name, width)
    scan_size = min(SCAN_LARGEST, width / _width(scan, BOLD, 1))
    links = link_lines(link, width)

    club_height = CLUB_SIZE * LEADING + 2 * mm if club else 0.0
    top = club_height + len(names) * name_size * LEADING + 2 * mm + DATE_SIZE * LEADING
    bottom = scan_size * LEADING + 2 * mm + len(links) * LINK_SIZE * LEADING
    side = min(width, page_height - 2 * MARGIN - top - bottom - 2 * GAP)
    # What the QR code leaves of the page, shared above and below the whole.
    slack = (page_height - 2 * MARGIN - top - bottom - 2 * GAP - side) / 2

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, initialFontName=REGULAR, lang=lang)
    canvas.setTitle(f"{name} · {day}")
    canvas.setAuthor("Segnapunti")
    canvas.setSubject(scan)
    middle = page_width / 2
    y = page_height - MARGIN - slack

    def line(text: str, font: str, size: float, color: Any) -> None:
        nonlocal y
        y -= size * LEADING
        canvas.setFont(font, size)
        canvas.setFillColor(color)
        # the baseline a fifth of the line above its foot: room for descenders
        canvas.drawCentredString(middle, y + size * LEADING * 0.22, text)

    if club:
        line(club.upper(), BOLD, CLUB_SIZE, GREY)
        y -= 2 * mm
    for text in names:
        line(text, BOLD, name_size, INK)
    y -= 2 * mm
    line(day, REGULAR, DATE_SIZE, GREY)

    y -= GAP + side
    _draw_qr(canvas, qr_modules(link), middle - side / 2, y, side)
    y -= GAP

    line(scan, BOLD, scan_size, INK)
    y -= 2 * mm
    for text in links:
        line(text, REGULAR, LINK_SIZE, INK)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()
