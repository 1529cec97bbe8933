"""Names that look alike: "Аnna" with a Cyrillic А beside "Anna", "ℓuca" beside "luca".

Two names are one to the eye when their confusable skeletons are equal (Unicode's security
mechanisms, UTS #39 §4): each character replaced by the prototype of its class of
confusables, between canonical decompositions. The classes are Unicode's ``confusables.txt``
as ``confusable_homoglyphs`` ships it, a table of pairs (a character and its prototype, both
ways): a class is a prototype with every character that maps to it, so the connected
pieces of that table are the classes, and one member of each stands for it (the prototype
when it is several characters, as "rn" for "m"). Names are first made their ``member_key``
(NFKC, invisible characters out, case folded, accents off): what a club already tells apart
that way is a duplicate, not a look-alike.

The table is read once, on the first name compared (some 40 ms), not when the service
starts.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib import resources

from service.domain import member_key

#: The package whose data file is Unicode's confusables, and that file.
_PACKAGE, _TABLE = "confusable_homoglyphs", "confusables.json"
#: Direction marks the table's pairs carry around right-to-left characters (from the
#: comments of confusables.txt it was read from); no part of a character.
_MARKS = str.maketrans("", "", "\u200e\u200f")


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character of the table to the text standing for its class of confusables."""
    pairs = json.loads(resources.files(_PACKAGE).joinpath(_TABLE).read_text("utf-8"))
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for char, twins in pairs.items():
        for twin in twins:
            a, b = root(char.translate(_MARKS)), root(twin["c"].translate(_MARKS))
            if a != b:
                parent[a] = b
    classes: dict[str, list[str]] = {}
    for x in list(parent):
        classes.setdefault(root(x), []).append(x)
    out: dict[str, str] = {}
    for members in classes.values():
        # The prototype where it is several characters (the only member that can be), else
        # any one member, the same each time: the lowest.
        stand = max(members, key=lambda m: (len(m) > 1, -ord(m[0])))
        for m in members:
            if len(m) == 1:
                out[m] = stand
    # A prototype of several characters is made of prototypes: said by their stand-ins.
    for char, stand in out.items():
        if len(stand) > 1:
            out[char] = "".join(out.get(c, c) for c in stand)
    return out


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: equal for two texts that look the same."""
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in decomposed))


@functools.lru_cache(maxsize=8192)
def looks(name: str) -> str:
    """What a person's name looks like: the skeleton of its ``member_key``. Two names with
    the same one are refused as one person's in a club, or as two entrants of an event."""
    return skeleton(member_key(name))


__all__ = ["looks", "skeleton"]
