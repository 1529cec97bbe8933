"""A round seats the entrants active in it (docs/events.md#the-door): late arrivals from
their first round, withdrawn entrants no more, removed ones never. The seating functions
number a roster ``0 .. n-1``; ``Subset`` numbers the active entrants so, in roster order,
and brings the seating back to roster numbers.

Earlier rounds keep everyone who played them: an entrant not active now keeps a number
past the active ones (``n``, ``n + 1``, …), which the seating never seats but still counts
as a partner or opponent met. The rounds a late arrival missed count as byes they had, so
the byes stay spread evenly: nobody sits out again before the late arrival had their turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .common import Seating


@dataclass(frozen=True, slots=True)
class Subset:
    """``active``: the roster numbers of the entrants seated now, ascending; ``others``:
    every other roster number that earlier rounds may name."""

    active: tuple[int, ...]
    others: tuple[int, ...] = ()

    @classmethod
    def of(cls, active: Sequence[int], roster: int) -> Subset:
        chosen = tuple(sorted(set(active)))
        inside = set(chosen)
        return cls(chosen, tuple(e for e in range(roster) if e not in inside))

    @property
    def size(self) -> int:
        return len(self.active)

    def local(self, entrant: int) -> int:
        """An entrant's number as the seating sees it: its place among the active ones, or
        past them for an entrant not active."""
        if entrant in self.active:
            return self.active.index(entrant)
        if entrant in self.others:
            return len(self.active) + self.others.index(entrant)
        return len(self.active) + len(self.others) + entrant

    def history(self, seatings: Sequence[Seating],
                missed: Mapping[int, Sequence[int]] | None = None) -> list[Seating]:
        """Earlier rounds in the seating's numbers; ``missed`` (round number from 1 ->
        roster numbers): the rounds late arrivals missed, each counted as a bye they had."""
        out = []
        for number, seating in enumerate(seatings, start=1):
            extra = tuple(self.local(e) for e in (missed or {}).get(number, ())
                          if e in self.active)
            out.append(Seating(
                tuple(tuple(self.local(e) for e in table) for table in seating.tables),
                tuple(sorted({*(self.local(e) for e in seating.byes), *extra}))))
        return out

    def ranking(self, order: Sequence[int]) -> list[int]:
        """A ranking in roster numbers (best first) as the seating's, active entrants only."""
        return [self.local(e) for e in order if e in self.active]

    def back(self, seating: Seating) -> Seating:
        """A seating in the seating's numbers, in roster numbers."""
        return Seating(tuple(tuple(self.active[e] for e in table) for table in seating.tables),
                       tuple(self.active[e] for e in seating.byes))
