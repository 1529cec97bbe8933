"""The printable score sheet as PDF: the only package that imports reportlab
(docs/architecture.md, principle 7).

``render_sheet`` imports ``.render``, and with it reportlab, Pillow (which reportlab loads)
and the fonts, on its first call: a worker that never prints a sheet never holds them
(≈ 15 MB resident: ≈ 5 MB of modules, ≈ 6 MB for the two parsed fonts, the rest what the
first layout leaves behind).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from datetime import date, datetime

    from service.application.printouts import KeyCard, Sheet, SlipsSheet, StandingsSheet

__all__ = ["poster_pdf", "render_keycard", "render_sheet", "render_slips", "render_standings"]


def render_sheet(sheet: Sheet) -> bytes:
    """The sheet as the bytes of a PDF (``service.pdf.render.render_sheet``)."""
    from .render import render_sheet as render

    return render(sheet)


def render_standings(sheet: StandingsSheet) -> bytes:
    """An event's printable standings as the bytes of a PDF (loaded as ``render_sheet``)."""
    from .standings import render_standings as render

    return render(sheet)


def render_slips(sheet: SlipsSheet) -> bytes:
    """A duplicate event's deal slips as the bytes of a PDF (loaded as ``render_sheet``)."""
    from .slips import render_slips as render

    return render(sheet)


def render_keycard(card: KeyCard) -> bytes:
    """A club's or an event's key card as the bytes of a PDF (loaded as ``render_sheet``)."""
    from .keycard import render_keycard as render

    return render(card)


def poster_pdf(*, name: str, date: datetime | date, link: str, lang: str,
               club: str | None = None) -> bytes:
    """An event's door poster as the bytes of a PDF (``service.pdf.poster.poster_pdf``,
    loaded as ``render_sheet``)."""
    from .poster import poster_pdf as render

    return render(name=name, date=date, link=link, lang=lang, club=club)
