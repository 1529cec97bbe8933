"""An event's door poster (``service.pdf.poster_pdf``): one A4 page with the event's name and
day, the door link's QR code large enough to be read from a metre, one line saying what to do
in the language asked, and the link in text. The QR code is measured where the PDF draws
it: its modules are the rectangles of the page's one filled path."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

import pytest
from pypdf.generic import ContentStream
from reportlab.pdfbase import pdfmetrics
from sheet_support import pdf_fonts, pdf_reader, pdf_text

from service.pdf import poster_pdf

DOOR = ("https://segnapunti.example.org/#/events/Xk3vQp9LmN2a/door"
        "?token=0123456789abcdef0123456789abcdef")
#: A long door link: the service behind a long address and a path of its own.
LONG_DOOR = ("https://tarocchi.circolo-del-giovedi-di-pinerolo.example.org/segnapunti/servizio/"
             "#/events/Xk3vQp9LmN2aXk3vQp9LmN2a/door?token=0123456789abcdef0123456789abcdef")
#: The longest name an event may have (60 characters), in words.
LONG_NAME = "Campionato provinciale di tarocchi piemontesi Memorial Rossi"
DAY = date(2026, 12, 18)
MM = 72 / 25.4
A4_WIDTH, A4_HEIGHT = 210 * MM, 297 * MM
MARGIN = 14 * MM
#: The smallest module a phone's camera reads from a metre away.
READABLE_MODULE_MM = 1.5


def _poster(lang: str = "en", link: str = DOOR, name: str = "Torneo di Natale",
            club: str | None = "Circolo del Giovedì", when: date | datetime = DAY) -> bytes:
    return poster_pdf(name=name, date=when, link=link, lang=lang, club=club)


def _operations(data: bytes) -> list[tuple[list[Any], bytes]]:
    reader = pdf_reader(data)
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert [round(float(v)) for v in page.mediabox] == [0, 0, 595, 842]  # A4, portrait
    return list(ContentStream(page.get_contents(), reader).operations)


@dataclass(frozen=True)
class DrawnCode:
    """The QR code as the page draws it, in points: its dark modules' extent and the side of
    one module."""

    module: float
    left: float
    right: float
    bottom: float
    top: float

    @property
    def modules(self) -> int:
        return round((self.right - self.left) / self.module)

    @property
    def version(self) -> int:
        return (self.modules - 17) // 4

    @property
    def module_mm(self) -> float:
        return self.module / MM


def _drawn_code(data: bytes) -> DrawnCode:
    operations = _operations(data)
    # Drawn at the page's own scale: a rectangle's size is its size on paper.
    for args, op in operations:
        if op == b"cm":
            assert [float(a) for a in args[:4]] == [1, 0, 0, 1]
    rects = [[float(a) for a in args] for args, op in operations if op == b"re"]
    module = Counter(round(h, 4) for _x, _y, _w, h in rects).most_common(1)[0][0]
    code = DrawnCode(module, min(x for x, _y, _w, _h in rects),
                     max(x + w for x, _y, w, _h in rects), min(y for _x, y, _w, _h in rects),
                     max(y + h for _x, y, _w, h in rects))
    # Square, a whole number of modules across, as a QR code of its version is.
    assert code.right - code.left == pytest.approx(code.top - code.bottom)
    assert code.modules * module == pytest.approx(code.right - code.left, rel=1e-4)
    assert code.modules == 17 + 4 * code.version
    return code


def _texts(data: bytes) -> list[tuple[str, float, float, float]]:
    """Each line of text the page sets: its text, where it starts (x, baseline y) and its
    type size."""
    found: list[tuple[str, float, float, float]] = []

    def visit(text: str, _cm: Any, tm: Any, _font: Any, size: float) -> None:
        if text.strip():
            found.append((text.strip(), float(tm[4]), float(tm[5]), float(size)))

    pdf_reader(data).pages[0].extract_text(visitor_text=visit)
    return found


def _within_the_margins(text: str, x: float, size: float, font: str) -> bool:
    width = pdfmetrics.stringWidth(text, font, size)
    return x >= MARGIN - 0.01 and x + width <= A4_WIDTH - MARGIN + 0.01


@pytest.mark.parametrize(("link", "name", "club"), [
    (DOOR, "Torneo di Natale", None),
    (LONG_DOOR, LONG_NAME, "Associazione Tarocchi Piemonte Memorial"),
], ids=["door-link", "long-link-long-name-and-club"])
def test_the_qr_code_s_modules_are_at_least_1_5_mm_on_a4_readable_from_a_metre(
        link: str, name: str, club: str | None) -> None:
    code = _drawn_code(_poster(link=link, name=name, club=club))
    assert code.module_mm >= READABLE_MODULE_MM, (
        f"a module is {code.module_mm:.2f} mm (version {code.version}, {code.modules} modules "
        f"on {(code.right - code.left) / MM:.0f} mm): a phone reads 1.5 mm from a metre")


def test_the_door_link_s_module_is_over_3_mm_with_a_short_name() -> None:
    """The measure of a usual poster: version 8 (a 95-character link, error correction Q) on
    the page's whole width, 182 mm with its quiet zone: 3.19 mm a module."""
    code = _drawn_code(_poster(club=None))
    assert code.version == 8
    assert code.module_mm == pytest.approx(3.19, abs=0.01), f"{code.module_mm:.3f} mm"


def test_the_quiet_zone_of_four_modules_has_nothing_in_it() -> None:
    data = _poster(name=LONG_NAME, link=LONG_DOOR)
    code = _drawn_code(data)
    zone = 4 * code.module
    assert code.left - zone >= MARGIN - 0.01
    assert code.right + zone <= A4_WIDTH - MARGIN + 0.01
    for text, _x, baseline, size in _texts(data):
        below = baseline + size <= code.bottom - zone  # an ascender's height over its line
        above = baseline - 0.25 * size >= code.top + zone  # a descender's depth under it
        assert below or above, f"{text!r} is set within the QR code's quiet zone"


@pytest.mark.parametrize(("lang", "scan", "day"), [
    ("en", "Scan the code with your phone to check in", "Friday, 18 December 2026"),
    ("it", "Inquadra il codice con il telefono per registrarti", "Venerdì 18 dicembre 2026"),
    ("fr", "Scannez le code avec votre téléphone pour vous inscrire",
     "Vendredi 18 décembre 2026"),
], ids=["en", "it", "fr"])
def test_the_instruction_and_the_day_are_in_the_language_asked(lang: str, scan: str,
                                                               day: str) -> None:
    data = _poster(lang)
    text = pdf_text(data)
    assert "Torneo di Natale" in text
    assert "CIRCOLO DEL GIOVEDÌ" in text
    assert day in text
    assert scan in text
    # One line: the sentence is set whole, within the page's margins.
    lines = [(x, size) for text, x, _y, size in _texts(data) if text == scan]
    assert len(lines) == 1
    assert _within_the_margins(scan, *lines[0], "DejaVuSans-Bold")


def test_a_time_is_printed_as_its_day() -> None:
    text = pdf_text(_poster("it", when=datetime(2026, 12, 18, 20, 30, tzinfo=UTC)))
    assert "Venerdì 18 dicembre 2026" in text
    assert "20:30" not in text


@pytest.mark.parametrize("link", [DOOR, LONG_DOOR], ids=["door-link", "long-link"])
def test_the_link_is_printed_in_text(link: str) -> None:
    data = _poster(link=link)
    assert link in "".join(pdf_text(data).split())
    lines = [(text, x, size) for text, x, _y, size in _texts(data) if text in link]
    assert "".join(text for text, _x, _size in lines) == link
    assert all(_within_the_margins(text, x, size, "DejaVuSans") for text, x, size in lines)


@pytest.mark.parametrize("name", [LONG_NAME, "W" * 60, "Torneo " + "W" * 30 + " di Natale"],
                         ids=["sixty-characters-in-words", "one-word", "a-long-word"])
def test_a_long_name_is_shrunk_to_fit_whole_words(name: str) -> None:
    data = _poster(name=name, link=LONG_DOOR)
    lines = [(text, x, size) for text, x, _y, size in _texts(data)
             if text and text in name]
    assert " ".join(text for text, _x, _size in lines) == name  # every word whole, in order
    assert len(lines) <= 3
    for text, x, size in lines:
        assert _within_the_margins(text, x, size, "DejaVuSans-Bold"), (text, size)
    # The code stays readable whatever the name.
    assert _drawn_code(data).module_mm >= READABLE_MODULE_MM


def test_the_poster_embeds_only_dejavu_sans() -> None:
    fonts = pdf_fonts(_poster("fr"))
    assert fonts and all(name.endswith(("+DejaVuSans", "+DejaVuSans-Bold")) for name in fonts)
    assert all(descriptor is not None and "/FontFile2" in descriptor
               for descriptor in fonts.values())


def test_a_language_the_poster_does_not_speak_is_refused() -> None:
    with pytest.raises(ValueError):
        _poster("de")
