"""The service's words in the languages it speaks besides English: one gettext catalogue a
language, ``<lang>/LC_MESSAGES/messages.po``, read with Babel and compiled in memory the first
time a process needs it. ``python -m service.locale`` gathers every sentence the code says
into the catalogues, keeping the translations they have.

Beside them, catalogues keyed by their reader's own keys, English one of them: the phone
page's words (``page.po``), the printable sheet's (``sheet.po``) and the cards' names
(``cards.po``: a card's parts, read by the service's lines and sent with the page's words, so
that both say a card alike)."""

from __future__ import annotations

import functools
import gettext
import re
from datetime import date
from decimal import Decimal
from importlib.resources import files
from io import BytesIO


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The language's catalogue; an empty one (English, the code's own) where there is none."""
    source = files(__name__).joinpath(lang, "LC_MESSAGES", "messages.po")
    if not source.is_file():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with source.open("rb") as f:
        catalog = read_po(f, locale=lang)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


#: The catalogues keyed by their reader's own keys, beside the service's sentences: the phone
#: page's words (``page.po``), the printable sheet's (``sheet.po``) and the cards' names
#: (``cards.po``).
KEYED = ("page", "sheet", "cards", "public")


def keyed_languages(domain: str) -> tuple[str, ...]:
    """The languages a keyed catalogue speaks: those with a ``<domain>.po``."""
    root = files(__name__)
    return tuple(sorted(entry.name for entry in root.iterdir()
                        if entry.joinpath("LC_MESSAGES", f"{domain}.po").is_file()))


@functools.cache
def keyed_words(domain: str, lang: str) -> dict[str, str | dict[str, str]]:
    """A keyed catalogue's words in ``lang``, by key: a text, or for a text that depends on a
    count its forms by the plural categories the browser's ``Intl.PluralRules`` names
    (``one``, ``few``, ``many``, ``other``…), each taken from the catalogue's own plural forms
    at a number of that category."""
    from babel import Locale
    from babel.messages.pofile import read_po

    with files(__name__).joinpath(lang, "LC_MESSAGES", f"{domain}.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    rule = Locale.parse(lang).plural_form
    samples: dict[str, int] = {}
    for n in [*range(200), 1000, 1000000]:
        samples.setdefault(rule(n), n)
    pick = gettext.c2py(catalog.plural_expr)
    words: dict[str, str | dict[str, str]] = {}
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, (tuple, list)):
            forms = tuple(str(form) for form in message.string or ())
            words[str(message.id[0])] = {tag: forms[min(pick(n), len(forms) - 1)]
                                         for tag, n in samples.items()}
        else:
            words[str(message.id)] = str(message.string)
    return words


def page_languages() -> tuple[str, ...]:
    """The languages the phone page speaks: those with a ``page.po``."""
    return keyed_languages("page")


def page_words(lang: str) -> dict[str, str | dict[str, str]]:
    """The phone page's words in ``lang``, by the page's key: its own and the cards' names
    (the page builds a card's name from the same entries as the service, ``card_words``)."""
    return {**keyed_words("page", lang), **card_words(lang)}


def card_languages() -> tuple[str, ...]:
    """The languages that name cards: those with a ``cards.po``."""
    return keyed_languages("cards")


@functools.cache
def card_words(lang: str) -> dict[str, str]:
    """The words that name a card in ``lang``, by key: its rank (``rank.K``), its suit in the
    pack's style (``suit.french.D``, ``suit.round.S``), how they join (``card.plain``: "{rank}
    di {suit}"; ``card.plainVowel`` before a vowel: "{rank} d'{suit}"), a trump
    (``card.trump``, ``card.trumpNamed``) and the names of some (``card.t21``, Mitigatti's
    ``card.bagatte``…). Empty for a language without a ``cards.po``. Read once a process (a
    sheet names many cards): the table is shared, not to be changed."""
    if lang not in card_languages():
        return {}
    return {key: text for key, text in keyed_words("cards", lang).items()
            if isinstance(text, str)}


def sheet_words(lang: str) -> dict[str, str | dict[str, str]]:
    """The printable sheet's labels in ``lang``, by key: ``str.format`` templates whose
    ``{placeholders}`` are the same in every language (``--check`` says so); a label that
    depends on a count, its forms by plural category (``plural_category``)."""
    return keyed_words("sheet", lang)


#: French sets a narrow no-break space before : ; ! ? and inside « » (a catalogue's plain
#: space there would let a line break before the sign).
_FRENCH_SPACE = re.compile(r" ([:;!?»])|(«) ")


def typeset(lang: str, text: str) -> str:
    """``text`` (a catalogue's sentence) with the spaces its language sets around
    punctuation: French's narrow no-break space before ``: ; ! ?`` and inside « »."""
    if lang != "fr":
        return text
    return _FRENCH_SPACE.sub(lambda m: f"\u202f{m[1]}" if m[1] else f"{m[2]}\u202f", text)


def colon(lang: str) -> str:
    """A colon after a label, as ``lang`` sets it ("Pour régler :", "Per saldare:")."""
    return "\u202f:" if lang == "fr" else ":"


def plural_category(lang: str, n: object) -> str:
    """The plural category (``one``, ``other``…) of the count ``n`` in ``lang``, as Babel's
    CLDR rules say it (French's ``one`` is 0 and 1); ``other`` for what is not a number."""
    from babel import Locale

    try:
        return str(Locale.parse(lang).plural_form(abs(float(str(n)))))
    except (TypeError, ValueError):
        return "other"


def public_words(lang: str) -> dict[str, str]:
    """The public results pages' words in ``lang``, by key (``public.po``): ``str.format``
    templates whose ``{placeholders}`` are the same in every language."""
    return {key: text for key, text in keyed_words("public", lang).items()
            if isinstance(text, str)}


def decimal(value: float, lang: str, digits: int) -> str:
    """``value`` as ``lang`` writes a number with ``digits`` decimals (Italian and French with
    a decimal comma), negative with a true minus sign: the Unicode CLDR's rules, which Babel
    carries."""
    from babel.numbers import format_decimal

    pattern = f"#,##0.{'0' * digits}" if digits else "#,##0"
    written = str(format_decimal(abs(value), format=pattern, locale=lang))
    return f"−{written}" if round(value, digits) < 0 else written


def figure(value: float | Decimal, lang: str, *, sign: bool = False) -> str:
    """A figure as ``lang`` writes it: two decimals at most, whole without them, thousands
    grouped (Italian and French with a decimal comma, French grouping with a narrow no-break
    space), negative with a true minus sign, positive with ``+`` when ``sign``: the Unicode
    CLDR's rules, which Babel carries."""
    from babel.numbers import format_decimal

    written = str(format_decimal(abs(Decimal(str(value))), format="#,##0.##", locale=lang))
    if round(float(value), 2) < 0:
        return f"−{written}"
    return f"+{written}" if sign and round(float(value), 2) > 0 else written


def percentage(value: float | Decimal, lang: str) -> str:
    """A percentage (``58.333`` for 58.333 %) as ``lang`` writes it: two decimals at most,
    the sign where the language puts it ("58.33%", "58,33%", "58,33 %")."""
    from babel import Locale
    from babel.numbers import format_percent

    pattern = Locale.parse(lang).percent_formats[None].pattern
    pattern = pattern.replace("#,##0", "#,##0.##", 1)
    fraction = Decimal(str(value)) / 100
    return str(format_percent(abs(fraction), format=pattern, locale=lang)).join(
        ("−" if round(float(value), 2) < 0 else "", ""))


def money(value: Decimal, currency: str, lang: str) -> str:
    """An amount of money as ``lang`` writes it, with its currency (``€45.00`` in English,
    ``45,00 €`` in Italian and French): the Unicode CLDR's rules, which Babel carries."""
    from babel.numbers import format_currency

    return str(format_currency(value, currency, locale=_MONEY_LOCALES.get(lang, lang)))


#: The country whose way of writing money (and a day, ``long_date``) each language takes.
_MONEY_LOCALES = {"en": "en_GB", "it": "it_IT", "fr": "fr_FR"}


def long_date(day: date, lang: str) -> str:
    """A day written in full as ``lang`` writes it, its weekday first ("Thursday, 26 November
    2026", "giovedì 26 novembre 2026", "jeudi 26 novembre 2026"): the Unicode CLDR's full
    date, which Babel carries."""
    from babel.dates import format_date

    return str(format_date(day, format="full", locale=_MONEY_LOCALES.get(lang, lang)))


@functools.cache
def month_names(lang: str) -> tuple[str, ...]:
    """The twelve months as ``lang`` writes them inside a date ("26 novembre 2026"): the
    Unicode CLDR's names, which Babel carries."""
    from babel.dates import get_month_names

    names = get_month_names("wide", context="format", locale=lang)
    return tuple(str(names[month]) for month in range(1, 13))
