"""A printout as its reader reads it: a forgotten member, whom the service keeps as "Player N"
(N their number on the club's roster) in every game and event they played, is printed in the
printout's language ("Giocatore 3", "Joueur 3"), as the phone page shows them."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import fields, is_dataclass, replace
from typing import Any, TypeVar

from service.locale import sheet_words

T = TypeVar("T")

#: The neutral name a forgotten member is kept under (``forgotten_label``), by its number.
FORGOTTEN = re.compile(r"\bPlayer (\d+)\b")


def readable(printout: T, lang: str) -> T:
    """``printout`` (a sheet, a standings sheet: frozen dataclasses of text) with every
    forgotten member's name in ``lang``."""
    if lang == "en":
        return printout
    word = str(sheet_words(lang)["player.forgotten"])

    def fix(text: str) -> str:
        return FORGOTTEN.sub(lambda m: word.format(n=m[1]), text) if "Player " in text else text

    return _walk(printout, fix)


def _walk(value: Any, fix: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return fix(value)
    if isinstance(value, tuple):
        return tuple(_walk(item, fix) for item in value)
    if isinstance(value, list):
        return [_walk(item, fix) for item in value]
    if is_dataclass(value) and not isinstance(value, type):
        return replace(value, **{f.name: _walk(getattr(value, f.name), fix)
                                 for f in fields(value) if f.init})
    return value
