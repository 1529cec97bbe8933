"""Words the rules core says, kept so that another language can say them again.

A ``Text`` is the English sentence every existing caller reads (it is a ``str``), and also the
template it was made from with its values. The HTTP layer renders it in the language a
request asks for from the project's catalogues; the core itself only knows English, and
needs nothing beyond the standard library.

Values keep their kind: a ``Card`` is written as its code in English (the notation the API
takes) and by its name where a language names cards; a ``Text`` inside a ``Text`` (a side's
name, a meld's label) is rendered in the same language; a ``Cards`` is a list of cards;
``Plural`` picks the form a count asks for, in English here and by the language's own rules
elsewhere.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Self

from .cards import Card

#: Renders one value in a language: the renderer, given a value, returns its text.
Render = Callable[[object], str]


class Text(str):
    """An English sentence made from ``template`` and ``values``."""

    template: str
    values: Mapping[str, object]
    plural: str | None
    count: int | None  # type: ignore[assignment]  # the count a plural was chosen by
    capital: bool

    def __new__(cls, template: str, /, **values: object) -> Self:
        return cls._make(template, values, None, None, False)

    @classmethod
    def _make(cls, template: str, values: Mapping[str, object], plural: str | None,
              count: int | None, capital: bool) -> Self:
        english = (plural if plural is not None and count != 1 else template)
        rendered = english.format_map({k: english_value(v) for k, v in values.items()})
        if capital:
            rendered = rendered[:1].upper() + rendered[1:]
        self = super().__new__(cls, rendered)
        self.template, self.values = template, dict(values)
        self.plural, self.count, self.capital = plural, count, capital
        return self

    @classmethod
    def counted(cls, singular: str, plural: str, n: int, /, **values: object) -> Self:
        """A sentence with a count ``n`` (also a value): the singular for one, the plural
        otherwise (in English; every language by its own rules)."""
        return cls._make(singular, {"n": n, **values}, plural, n, False)

    @classmethod
    def joined(cls, parts: Iterable[Text | str], sep: str = "; ") -> Self:
        """Sentences one after the other, each said in the language of the whole."""
        items = list(parts)
        return cls._make(sep.join(f"{{p{i}}}" for i in range(len(items))),
                         {f"p{i}": part for i, part in enumerate(items)}, None, None, False)

    def capitalize(self) -> Text:
        return Text._make(self.template, self.values, self.plural, self.count, True)

    def render(self, translate: Callable[[Text], str], value: Render) -> str:
        """This sentence in another language: ``translate`` gives the template in it (by
        count where there is one), ``value`` renders each value."""
        out = translate(self).format_map({k: value(v) for k, v in self.values.items()})
        return out[:1].upper() + out[1:] if self.capital else out

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.template, self.values, self.plural, self.count, self.capital))


def _rebuild(template: str, values: Mapping[str, object], plural: str | None,
             count: int | None, capital: bool) -> Text:
    return Text._make(template, values, plural, count, capital)


class Seats(Text):
    """Who sits at ``seats``, as a sentence names them: "seat 0", "seats 0 and 2" in the
    core's English; a renderer that knows the table's players says their names instead."""

    seats: tuple[int, ...]

    def __new__(cls, template: str, /, *, at: Iterable[int] = (), **values: object) -> Self:
        made = cls._make(template, values, None, None, False)
        made.seats = tuple(at)
        return made

    def capitalize(self) -> Seats:
        made = Seats._make(self.template, self.values, self.plural, self.count, True)
        made.seats = self.seats
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_seats, (self.seats, self.template, self.values, self.capital))


def _rebuild_seats(seats: tuple[int, ...], template: str, values: Mapping[str, object],
                   capital: bool) -> Seats:
    made = Seats(template, at=seats, **values)
    return made.capitalize() if capital else made


class Figure(str):
    """A figure in a sentence (a difference, a percentage, an average), written as English
    writes it (``+3.5``, ``58.33``, ``58.33 %``); another language writes ``number`` its own
    way, with a ``+`` where ``sign``, as a percentage where ``percent``."""

    number: Decimal
    sign: bool
    percent: bool

    def __new__(cls, text: str, number: Decimal, sign: bool = False,
                percent: bool = False) -> Self:
        self = super().__new__(cls, text)
        self.number, self.sign, self.percent = number, sign, percent
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Figure, (str(self), self.number, self.sign, self.percent))


class Cards(tuple):  # type: ignore[type-arg]
    """Cards named in a sentence, written with ``sep`` between them."""

    sep: str

    def __new__(cls, cards: Iterable[Card], sep: str = ", ") -> Self:
        self = super().__new__(cls, tuple(cards))
        self.sep = sep
        return self


#: Currencies written with a sign rather than their code.
_CURRENCY_SIGNS = {"EUR": "€", "GBP": "£", "USD": "$"}


@dataclass(frozen=True, slots=True)
class Money:
    """An amount of money in a sentence, in its ``currency`` (ISO 4217) where one is known:
    ``€3.50`` in the core's English, ``CHF 3.50`` for a currency without a sign; a language
    that writes a decimal comma says ``3,50 €``."""

    amount: Decimal
    currency: str | None = None

    def written(self, comma: bool = False) -> str:
        """As English writes it, or with the decimal comma and the sign after (``comma``)."""
        text = f"{abs(self.amount):.2f}"
        if comma:
            text = text.replace(".", ",")
        if self.currency:
            sign = _CURRENCY_SIGNS.get(self.currency)
            if comma:
                text = f"{text} {sign or self.currency}"
            else:
                text = f"{sign}{text}" if sign else f"{self.currency} {text}"
        return f"−{text}" if self.amount < 0 else text

    def __str__(self) -> str:
        return self.written()


def english_value(value: object) -> str:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Cards):
        return value.sep.join(c.code for c in value)
    return str(value)


#: Characters that show nothing, beyond the format characters (category Cf: zero-width space
#: and joiners, U+FEFF, direction marks, soft hyphen, tags): the combining grapheme joiner,
#: the Hangul and Khmer fillers, the variation selectors and the blank Braille pattern.
_INVISIBLE = frozenset({
    0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0,
    *range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)})


def _shows_nothing(ch: str) -> bool:
    return unicodedata.category(ch) == "Cf" or ord(ch) in _INVISIBLE


def visible(text: str) -> str:
    """``text`` without the characters that show nothing (see ``_INVISIBLE``), its spaces of
    every kind made one and trimmed: what a reader actually sees."""
    return " ".join("".join(ch for ch in text if not _shows_nothing(ch)).split())


def name_key(name: str, *, accents: bool = True) -> str:
    """What two names must share to be the same person's: compatibility-normalised (NFKC:
    "José" typed precomposed or decomposed, full-width ``Ａnna`` and ``Anna``), without the
    characters that show nothing (``An\u200bna`` is ``Anna``), spaces made one, case-folded.
    An empty key is a name nobody can read: only spaces and invisible characters. Used for
    an event's entrants and pairs' players, a game's players, and finding an entrant by
    name. With ``accents=False`` the accents go too ("Nicolò" is "Nicolo"): how
    a club's members are told apart (docs/clubs.md); events keep their accents."""
    folded = unicodedata.normalize("NFKC", visible(unicodedata.normalize("NFKC", name))
                                   .casefold())
    if accents:
        return folded
    bare = "".join(ch for ch in unicodedata.normalize("NFD", folded)
                   if not unicodedata.combining(ch))
    return unicodedata.normalize("NFKC", bare)


def plain(message: str | Text) -> str:
    """The English text alone (for logs and the few places that need a bare ``str``)."""
    return str.__str__(message)


@dataclass(frozen=True, slots=True)
class Section:
    """A section of a rulebook: the clause it is (``§2.3``, ``R8``), its title and its text."""

    ref: str
    title: Text
    text: Text

    def to_json(self) -> dict[str, object]:
        return {"ref": self.ref, "title": self.title, "text": self.text}


def written_sections(source: str) -> Iterator[tuple[int, str, str, str]]:
    """The sections a rulebook file writes, as ``(line, ref, title, text)``: the line its
    heading is on, then the heading's first word (the ref) and the rest (the title), then its
    text, the lines under the heading joined by a space. A blank line ends a section; a line
    starting with ``#`` is a comment. The rulebook reads the files, and the catalogues' tool
    gathers their sentences, through this one reading."""
    heading: tuple[int, str, str] | None = None
    lines: list[str] = []
    for number, line in enumerate([*source.splitlines(), ""], start=1):
        line = line.strip()
        if line.startswith("#"):
            continue
        if line and heading is None:
            ref, _, title = line.partition(" ")
            heading = (number, ref, title.strip())
        elif line:
            lines.append(line)
        elif heading is not None:
            yield (*heading, " ".join(lines))
            heading, lines = None, []


def read_sections(source: str) -> tuple[Section, ...]:
    """The sections of a rulebook file (see ``written_sections``), their words as ``Text``."""
    return tuple(Section(ref, Text(title), Text(text))
                 for _line, ref, title, text in written_sections(source))
