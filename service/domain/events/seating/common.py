"""What every format of seating shares (docs/events.md#formats, #bad-input): a table's shape, a
round's seating, the checks of a setup, and what earlier rounds did."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ...core.errors import Problem, RecordInvalid
from ...core.text import Text
from ...variant import Variant

Format = Literal["individual", "pairs", "free"]
Pairing = Literal["danish", "swiss"]
FORMATS: tuple[str, ...] = ("individual", "pairs", "free")
PAIRINGS: tuple[str, ...] = ("danish", "swiss")


@dataclass(frozen=True)
class TableShape:
    """Who sits where at one table: ``seats`` (dummies included), the seats entrants take
    (``players``), and the seats that play the whole game as one side (``partners``)."""

    seats: int
    players: tuple[int, ...]
    partners: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, variant: Variant) -> TableShape:
        fixed = variant.fixed_sides()
        if variant.partnership == "fixed_pairs" and fixed is not None:
            return cls(variant.seats, tuple(range(variant.seats)), fixed)
        if variant.partnership == "dummies" and fixed is not None:
            players = tuple(side[0] for side in fixed)
        else:
            players = tuple(range(variant.seats))
        return cls(variant.seats, players, tuple((seat,) for seat in players))

    @property
    def has_pairs(self) -> bool:
        """Whether partners play a whole game together (fixed pairs)."""
        return any(len(group) > 1 for group in self.partners)

    @property
    def per_table(self) -> int:
        """How many entrants of the individual or free format a table seats."""
        return len(self.players)

    def positions(self) -> tuple[tuple[int, ...], ...]:
        """Each partners group as indices into a table's tuple of entrants."""
        return tuple(tuple(self.players.index(seat) for seat in group)
                     for group in self.partners)


@dataclass(frozen=True)
class Seating:
    """One round: each table's entrants and the entrants on a bye.

    Individual and free formats: ``tables[t][i]`` sits at ``shape.players[i]``. Pairs format:
    ``tables[t]`` is ``(pair on side 0, pair on side 1)``; a pair's first player sits at seat
    0 or 1, the second opposite (2 or 3).
    """

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"tables": [list(t) for t in self.tables], "byes": list(self.byes)}


@dataclass(frozen=True)
class Repeats:
    """Who met more than once: ``(a, b, times)`` with ``a < b`` and ``times >= 2``."""

    partners: tuple[tuple[int, int, int], ...]
    opponents: tuple[tuple[int, int, int], ...]

    def to_json(self) -> dict[str, object]:
        return {"partners": [{"entrants": [a, b], "times": n} for a, b, n in self.partners],
                "opponents": [{"entrants": [a, b], "times": n} for a, b, n in self.opponents]}


# -- setup checks -------------------------------------------------------------------------------


def format_problems(format: str, shape: TableShape) -> list[Problem]:
    """What is wrong with running an event of ``format`` at tables of ``shape``."""
    if format not in FORMATS:
        return [Problem("format", "unknown_format",
                        Text("{format} is not a format: individual, pairs or free",
                             format=format))]
    if format == "pairs" and not fits_pairs(shape):
        return [Problem("format", "format_unfit",
                        Text("the pairs format needs a game of two fixed pairs, and this game "
                             "has none"))]
    return []


def roster_problems(entrants: int, format: str, shape: TableShape) -> list[Problem]:
    """Whether a roster of ``entrants`` fills at least one table."""
    if format == "pairs":
        if entrants < 2:
            return [Problem("entrants", "roster_too_small",
                            Text.counted("the roster has {n} pair; a table needs two",
                                         "the roster has {n} pairs; a table needs two",
                                         entrants))]
        return []
    if entrants < shape.per_table:
        return [Problem("entrants", "roster_too_small",
                        Text.counted("a table seats {n} player; the roster has {entrants}",
                                     "a table seats {n} players; the roster has {entrants}",
                                     shape.per_table, entrants=entrants))]
    return []


def pairing_problems(pairing: str) -> list[Problem]:
    if pairing not in PAIRINGS:
        return [Problem("pairing", "unknown_pairing",
                        Text("{pairing} is not a pairing: danish or swiss", pairing=pairing))]
    return []


def fits_pairs(shape: TableShape) -> bool:
    return len(shape.partners) == 2 and all(len(group) == 2 for group in shape.partners)


def raise_if(problems: list[Problem]) -> None:
    if problems:
        raise RecordInvalid(problems)


def byes_of(entrants: int, tables: Sequence[Sequence[int | None]]) -> tuple[int, ...]:
    """The entrants no table seats: the round's byes."""
    seated = {e for table in tables for e in table if e is not None}
    return tuple(e for e in range(entrants) if e not in seated)


# -- what earlier rounds did ----------------------------------------------------------------------


@dataclass
class Tally:
    """Earlier rounds counted: partnerships and meetings as opponents (keyed ``lo * n + hi``)
    and byes."""

    n: int
    partners: Counter[int]
    opponents: Counter[int]
    byes: Counter[int]

    def key(self, a: int, b: int) -> int:
        return a * self.n + b if a < b else b * self.n + a

    @classmethod
    def of(cls, history: Sequence[Seating], shape: TableShape | None, n: int) -> Tally:
        """``shape`` None: the pairs format, where a table is two entrants who meet."""
        stride = max(n, 1 + max((e for s in history for t in s.tables for e in t), default=0),
                     1 + max((e for s in history for e in s.byes), default=0))
        tally = cls(stride, Counter(), Counter(), Counter())
        group = [0, 1] if shape is None else [0] * len(shape.players)
        if shape is not None:
            for g, members in enumerate(shape.positions()):
                for position in members:
                    group[position] = g
        for seating in history:
            for table in seating.tables:
                size = min(len(table), len(group))
                for i in range(size):
                    for j in range(i + 1, size):
                        a, b = table[i], table[j]
                        if a == b:
                            continue
                        counter = tally.partners if group[i] == group[j] else tally.opponents
                        counter[tally.key(a, b)] += 1
            tally.byes.update(seating.byes)
        return tally

    def pairs(self, counter: Counter[int]) -> list[tuple[int, int, int]]:
        return sorted((k // self.n, k % self.n, times) for k, times in counter.items())


def repeats(history: Sequence[Seating], shape: TableShape, format: str) -> Repeats:
    """Partners and opponents who met more than once in ``history`` (the organiser's page:
    "no repeated partner"). In the pairs format entrants are pairs and only meet."""
    tally = Tally.of(history, None if format == "pairs" else shape, 0)
    return Repeats(
        partners=tuple(p for p in tally.pairs(tally.partners) if p[2] > 1),
        opponents=tuple(p for p in tally.pairs(tally.opponents) if p[2] > 1))
