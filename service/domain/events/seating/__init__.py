"""Seatings for the rounds of an event (docs/events.md#formats): the individual movement, fixed
pairs by standings (Danish or Swiss), and the check of an organiser's own (free) seating.

Entrants are numbered ``0 .. n-1`` in roster order; a ``Seating`` lists each table's entrants
and the round's byes. Everything here is deterministic: the only randomness is a
``random.Random`` seeded from the event's seed, the format and the round number, so the same
event, seed and results always give the same seating.

How the service seats (the choices the formats leave open):

- **Individual.** Byes first, spread evenly: the entrants with the fewest byes so far sit out
  (nobody has a second bye before everyone had one); which of the equally placed ones sit out
  is left to the search below. In a game of fixed pairs, partners come from a maximum matching
  (Edmonds' blossom algorithm) in the graph of players who have not partnered yet, so a round
  repeats a partnership only when no seating of it can avoid that; when it cannot, the
  repeated partners are those who partnered least. The partnerships (units) are then grouped
  into tables by ``grouping``: an iterated local search (swaps of units between tables, random
  kicks out of local optima, all drawn from the seeded generator), and for rounds of up to 24
  units an exact branch and bound, that minimise the repeated opponents, then the times those
  opponents met before. Where the round has byes, single players are then swapped where that
  lowers the cost without repeating a partnership, and the partnerships that makes are grouped
  again. Games without pairs skip the matching: their players are the units, and the same
  search also picks who sits out among those whose turn it is.
  When the roster of a pair game fills whole tables, the rounds follow a round-robin schedule
  (the circle method, players relabelled by the seed): nobody partners anyone twice for n-1
  rounds, which a round-by-round matching cannot promise (it can paint itself into a corner).
  The schedule is followed while every earlier round kept its partnerships; after an
  organiser's swap the matching takes over.
- **Pairs.** Round 1 in the order a seeded shuffle gives; later rounds in the order of the
  ranking (best first). Danish: 1 v 2, 3 v 4, ... Swiss: each pair in turn, from the top,
  meets the best-ranked pair it has not met yet such that the pairs still to be seated can
  still meet with as few repeats as possible (checked by a maximum matching: the greedy pass
  never needs to backtrack). The higher-ranked pair of a table sits on side 0, and tables are
  numbered in ranking order. A bye (odd number of pairs) goes to the lowest-ranked pair among
  those with the fewest byes; in Swiss, to the lowest-ranked of them that leaves the others a
  pairing with no repeat, where one does.
- **Free.** ``check_free_seating`` checks the organiser's tables; ``byes_of`` gives the
  entrants left out, who are the round's byes.
"""

from __future__ import annotations

from .common import (
    FORMATS,
    PAIRINGS,
    Format,
    Pairing,
    Repeats,
    Seating,
    TableShape,
    byes_of,
    format_problems,
    pairing_problems,
    repeats,
    roster_problems,
)
from .free import check_free_seating
from .individual import schedule_round, seat_individual
from .pairs import seat_pairs
from .subset import Subset

__all__ = [
    "FORMATS",
    "PAIRINGS",
    "Format",
    "Pairing",
    "Repeats",
    "Seating",
    "Subset",
    "TableShape",
    "byes_of",
    "check_free_seating",
    "format_problems",
    "pairing_problems",
    "repeats",
    "roster_problems",
    "schedule_round",
    "seat_individual",
    "seat_pairs",
]
