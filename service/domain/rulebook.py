"""The rulebook in the app: each variant's rules in sections, in the project's own
words (``GET /variants/{id}/rules``). Every ``rule`` a problem or a result line
can name (``§2.3``, ``R8``) is the ``ref`` of a section of its variant's book, so a player can
open the clause a line cites. The text is English ``Text``, said in another language from the
catalogues like everything the core says.

The prose is data: each family's chapters are written in its folder's ``rules.txt`` (the
chapters every book shares in this folder's), read by ``core.text.read_sections``.
"""

from __future__ import annotations

from importlib.resources import files

from .core.text import Section, read_sections
from .variant import Variant


def _chapters(package: str) -> dict[str, Section]:
    """The sections written in a package's ``rules.txt``, by ``ref``, in their order."""
    source = files(package).joinpath("rules.txt").read_text(encoding="utf-8")
    return {section.ref: section for section in read_sections(source)}


#: The chapters every game's book opens with (§0, §1) and closes with (§6).
_COMMON = _chapters(__package__)
_OPENING, _CLOSING = (_COMMON["§0"], _COMMON["§1"]), _COMMON["§6"]
#: Gatti's chapters: those both rule sets share, then the current rules' R6 (columns with a
#: called partner) and the older rules' §3 (what differs), which opens their book.
_GATTI = _chapters(f"{__package__}.gatti")
_GATTI_SHARED = tuple(s for ref, s in _GATTI.items() if ref not in ("R6", "§3"))

_BOOKS: dict[str, tuple[Section, ...]] = {
    "gatti": (*_OPENING, *_GATTI_SHARED, _GATTI["R6"], _CLOSING),
    "gatti-classic": (*_OPENING, _GATTI["§3"], *_GATTI_SHARED, _CLOSING),
    "ottocento": (*_OPENING, *_chapters(f"{__package__}.ottocento").values(), _CLOSING),
    "mitigatti": (*_OPENING, *_chapters(f"{__package__}.mitigatti").values(), _CLOSING),
}
#: Every section of every book, by its ``ref``.
SECTIONS = {section.ref: section for book in _BOOKS.values() for section in book}


def rulebook(variant: Variant) -> tuple[Section, ...]:
    """The sections of the variant's rules, in reading order."""
    return _BOOKS[variant.family]
