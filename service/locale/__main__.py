"""Gather the sentences the code says (every ``Text(...)`` and ``Text.counted(...)``, and every
title and text of the rulebook's ``rules.txt`` files) into each language's catalogue: new ones
are added untranslated, gone ones dropped, translations kept.

    python -m service.locale          # update the catalogues
    python -m service.locale --check  # exit 1 when a catalogue lacks a sentence or a translation
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from service.domain import written_sections

HERE = Path(__file__).resolve().parent
SOURCES = HERE.parent
KEYWORDS = {"Text": None, "counted": (1, 2)}
LANGUAGES = ("it",)


def rulebook_sentences(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                       options: Any) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extractor for a rulebook file: each section's title (on its heading's line)
    and text (on the next), read as the rulebook reads them."""
    for line, _ref, title, text in written_sections(fileobj.read().decode("utf-8")):
        yield line, "Text", title, []
        yield line + 1, "Text", text, []


#: Which files say sentences, and how to find them.
METHODS: list[tuple[str, Any]] = [("**.py", "python"), ("**/rules.txt", rulebook_sentences)]


def extracted() -> Catalog:
    """Every sentence of the code, with where it is said."""
    catalog = Catalog()
    for filename, lineno, message, _comments, _context in extract_from_dir(
            str(SOURCES), method_map=METHODS, keywords=KEYWORDS):
        if isinstance(message, str) and not any(ch.isalpha() for ch in message):
            continue  # only placeholders and punctuation: every language says it so
        catalog.add(message, locations=[(filename, lineno)])
    return catalog


def catalogue_path(lang: str) -> Path:
    return HERE / lang / "LC_MESSAGES" / "messages.po"


def missing(lang: str) -> list[str]:
    """The sentences the code says that the language's catalogue does not translate."""
    with catalogue_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    out = []
    for message in extracted():
        if not message.id:
            continue
        found = catalog.get(message.id)
        strings = [] if found is None else (
            list(found.string) if isinstance(found.string, tuple) else [found.string])
        if not strings or not all(strings):
            out.append(str(message.id))
    return out


def update(lang: str) -> None:
    path = catalogue_path(lang)
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    catalog.update(extracted(), no_fuzzy_matching=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, omit_header=False, sort_output=False,
                 ignore_obsolete=True)


def main(argv: list[str]) -> int:
    if "--check" in argv:
        gaps = {lang: missing(lang) for lang in LANGUAGES}
        for lang, ids in gaps.items():
            for message_id in ids:
                print(f"{lang}: no translation of {message_id!r}")
        return 1 if any(gaps.values()) else 0
    for lang in LANGUAGES:
        update(lang)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
