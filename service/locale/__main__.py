"""Gather the sentences the code says (every ``Text(...)``, ``Seats(...)`` and
``Text.counted(...)``, and every title and text of the rulebook's ``rules.txt`` files) into
each language's catalogue: new ones are added untranslated, gone ones dropped, translations
kept. The keyed catalogues — the phone page's words (``page.po``, by the page's keys), the
printable sheet's (``sheet.po``) and the cards' names (``cards.po``) — follow their English
one: a key added there is added to every other language untranslated, with the English beside
it for the translator; one gone is dropped (but for the page's words the service says itself
in English: ``code.*``, ``variant.*``); a translation whose ``{placeholders}`` are not the
English one's is a gap.

    python -m service.locale          # update the catalogues
    python -m service.locale --check  # exit 1 when a catalogue lacks a sentence or a translation
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path
from string import Formatter
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from service.domain import written_sections
from service.locale import KEYED

HERE = Path(__file__).resolve().parent
SOURCES = HERE.parent
KEYWORDS = {"Text": None, "Seats": None, "counted": (1, 2)}
LANGUAGES = ("it", "fr")


def rulebook_sentences(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                       options: Any) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extractor for a rulebook file: each section's title (on its heading's line)
    and text (on the next), read as the rulebook reads them."""
    for line, _ref, title, text in written_sections(fileobj.read().decode("utf-8")):
        yield line, "Text", title, []
        yield line + 1, "Text", text, []


def code_sentences(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                   options: Any) -> Iterator[tuple[int, str, str | tuple[str, str], list[str]]]:
    """A Babel extractor for Python by its syntax tree: the sentence of every call of
    ``Text(...)`` or ``Seats(...)`` and the two of every ``….counted(...)`` (its singular and
    plural), where they are written as strings (adjacent strings are one). Read by the
    tree, a name is only a call where it is called: a variable that shares the keyword's name
    (``counted = …``) or an f-string beside the sentence takes nothing away from the file, as
    they do from Babel's token reader."""
    tree = ast.parse(fileobj.read())
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else (
            func.attr if isinstance(func, ast.Attribute) else None)
        wanted = 2 if name == "counted" and isinstance(func, ast.Attribute) else (
            1 if name in ("Text", "Seats") else 0)
        said = [a.value for a in node.args[:wanted]
                if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if wanted and len(said) == wanted:
            message = said[0] if wanted == 1 else (said[0], said[1])
            found.append((node.args[0].lineno, node.args[0].col_offset, str(name), message))
    for line, _column, name, message in sorted(found, key=lambda f: (f[0], f[1])):
        yield line, name, message, []


#: Which files say sentences, and how to find them.
METHODS: list[tuple[str, Any]] = [("**.py", code_sentences),
                                  ("**/rules.txt", rulebook_sentences)]


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
    """The sentences the code says that the language's catalogue does not translate (every
    one where it has no catalogue yet). A fuzzy translation — one ``update`` kept for a
    sentence that changed, such as a sentence given a plural — is not one: gettext skips it."""
    path = catalogue_path(lang)
    catalog = _read(path, lang) if path.is_file() else Catalog(locale=lang)
    out = []
    for message in extracted():
        if not message.id:
            continue
        found = catalog.get(message.id)
        strings = [] if found is None else (
            list(found.string) if isinstance(found.string, tuple) else [found.string])
        if not strings or not all(strings) or (found is not None and found.fuzzy):
            out.append(str(message.id))
    return out


def keyed_languages(domain: str) -> tuple[str, ...]:
    """The languages with a ``<domain>.po`` here."""
    return tuple(sorted(path.parents[1].name for path in HERE.glob(f"*/LC_MESSAGES/{domain}.po")))


def keyed_path(domain: str, lang: str) -> Path:
    return HERE / lang / "LC_MESSAGES" / f"{domain}.po"


def page_path(lang: str) -> Path:
    return keyed_path("page", lang)


#: A keyed catalogue's keys only other languages have: the page's ``code.*`` and ``variant.*``,
#: which the service's own English says in English.
ENGLISH_FROM_THE_SERVICE: dict[str, tuple[str, ...]] = {"page": ("code.", "variant."),
                                                        "sheet": (), "cards": (),
                                                        "public": ()}


def _read(path: Path, lang: str) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def _english_of(message: Any) -> str:
    if isinstance(message.string, tuple):
        return " | ".join(message.string)
    return str(message.string)


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}


def keyed_missing(domain: str, lang: str) -> list[str]:
    """The keys of a keyed catalogue that ``lang`` does not translate: every key of the
    English one, and in another language every key any language has; and the keys whose
    translation takes other ``{placeholders}`` than the English."""
    languages = keyed_languages(domain)
    catalogs = {other: _read(keyed_path(domain, other), other) for other in languages}
    english = catalogs["en"]
    wanted: set[str] = {_key(m) for m in english if m.id}
    if lang != "en":
        for other, catalog in catalogs.items():
            wanted |= {_key(m) for m in catalog if m.id and other != "en"
                       and _key(m).startswith(ENGLISH_FROM_THE_SERVICE[domain])}
    catalog = catalogs[lang]
    out = []
    for key in sorted(wanted):
        found = catalog.get(key)
        strings = [] if found is None else (
            list(found.string) if isinstance(found.string, tuple) else [found.string])
        source = english.get(key)
        said = set() if source is None else _placeholders(_english_of(source))
        if not strings or not all(strings) or (source is not None and any(
                _placeholders(str(text)) - said for text in strings)):
            out.append(key)
    return out


def page_missing(lang: str) -> list[str]:
    """The page's keys that ``lang`` does not translate."""
    return keyed_missing("page", lang)


def _key(message: Any) -> str:
    return str(message.id[0] if isinstance(message.id, tuple) else message.id)


def update_keyed(domain: str, lang: str) -> None:
    """``lang``'s keyed catalogue brought in line with the English one."""
    english = _read(keyed_path(domain, "en"), "en")
    path = keyed_path(domain, lang)
    catalog = _read(path, lang)
    keys = {_key(m) for m in english if m.id}
    for message in list(catalog):
        if message.id and _key(message) not in keys and not _key(message).startswith(
                ENGLISH_FROM_THE_SERVICE[domain]):
            catalog.delete(message.id)
    for source in english:
        if not source.id:
            continue
        found = catalog.get(source.id)
        comment = [f"en: {_english_of(source)}"]
        if found is None:
            empty: Any = ("",) * catalog.num_plurals if isinstance(source.id, tuple) else ""
            catalog.add(source.id, empty, auto_comments=comment,
                        user_comments=source.user_comments)
        else:
            found.auto_comments = comment
    with path.open("wb") as f:
        write_po(f, catalog, width=100, omit_header=False, sort_output=False)


def update(lang: str) -> None:
    """``lang``'s catalogue of sentences brought in line with the code (a language whose
    translator has not started one yet is left without)."""
    path = catalogue_path(lang)
    if not path.is_file():
        return
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    catalog.update(extracted(), no_fuzzy_matching=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, omit_header=False, sort_output=False,
                 ignore_obsolete=True)


def main(argv: list[str]) -> int:
    if "--check" in argv:
        gaps = {lang: missing(lang) for lang in LANGUAGES}
        keyed_gaps = {(domain, lang): keyed_missing(domain, lang)
                      for domain in KEYED for lang in keyed_languages(domain)}
        for lang, ids in gaps.items():
            for message_id in ids:
                print(f"{lang}: no translation of {message_id!r}")
        for (domain, lang), keys in keyed_gaps.items():
            for key in keys:
                print(f"{lang}: the {domain}'s {key!r} is not translated ({domain}.po)")
        return 1 if any(gaps.values()) or any(keyed_gaps.values()) else 0
    for lang in LANGUAGES:
        update(lang)
    for domain in KEYED:
        for lang in keyed_languages(domain):
            if lang != "en":
                update_keyed(domain, lang)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
