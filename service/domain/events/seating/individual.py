"""The individual movement (docs/events.md#formats, ``individual``): each round seats players
anew, with the fewest repeated partnerships, then the fewest repeated opponents, and the
byes spread evenly (the package's docstring says how)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TypeVar

from .common import Seating, TableShape, Tally, fits_pairs, raise_if, roster_problems
from .grouping import group_units
from .matching import greedy_matching, maximum_matching

# Weights that make one integer cost compare like the tuple (repeated partnerships, times
# those partners partnered before, repeated opponents, times those opponents met before).
_W_OPP_REPEAT = 10**6
_W_PARTNER_TIMES = 10**12
_W_PARTNER_REPEAT = 10**18
_MAX_PASSES = 30
_T = TypeVar("_T")

#: The cost of one table's row of entrants.
_Cost = Callable[[list[int]], int]


def seat_individual(entrants: int, shape: TableShape, history: Sequence[Seating],
                    seed: int) -> Seating:
    """The next round of the individual movement (docs/events.md#formats, ``individual``):
    fewest repeated partnerships, then fewest repeated opponents, byes spread evenly."""
    raise_if(roster_problems(entrants, "individual", shape))
    per = shape.per_table
    tables = entrants // per
    rng = random.Random(f"individual:{seed}:{len(history)}")
    tally = Tally.of(history, shape, entrants)
    forced, eligible, free = _bye_choice(entrants, tally.byes, entrants - tables * per)
    level = {e: tally.byes[e] for e in range(entrants)}
    weights = _Weights(tally)
    bench: list[int] = []
    if shape.has_pairs:
        scheduled = (_scheduled_round(entrants, shape, history, seed)
                     if entrants == tables * per else None)
        if scheduled is not None:
            units = scheduled
        else:
            units, bench = _partner_units(entrants, forced, eligible, free, tally, rng)
        grouped = _group(units, len(shape.partners), weights, rng)
        flat = _lay_out(grouped, shape, rng)
        if scheduled is None:
            _improve_players(flat, bench, shape, weights, level)
            # Single swaps may have made other partnerships: group those as well as can be.
            groups = shape.positions()
            units = [tuple(row[p] for p in group) for row in flat for group in groups]
            start = [[len(groups) * t + g for g in range(len(groups))]
                     for t in range(len(flat))]
            regrouped = _group(units, len(groups), weights, rng, start)
            if regrouped != [[units[u] for u in table] for table in start]:
                flat = _lay_out(regrouped, shape, rng)
    else:
        singles: list[tuple[int, ...]] = [(e,) for e in range(entrants)
                                          if e not in set(forced)]
        may = [i for i, unit in enumerate(singles) if unit[0] in set(eligible)]
        grouped, benched = _group_with_bench(singles, len(shape.partners), free, may,
                                             weights, rng)
        bench = sorted(list(forced) + benched)
        flat = _lay_out(grouped, shape, rng)
    return Seating(tuple(tuple(t) for t in flat), tuple(sorted(bench)))


def _bye_choice(entrants: int, byes: Counter[int],
                count: int) -> tuple[list[int], list[int], int]:
    """Who must sit out (fewer byes than the rest), who may (the next level), and how many of
    those: nobody takes a second bye before everyone had one."""
    if count == 0:
        return [], [], 0
    by_level = sorted(range(entrants), key=lambda e: (byes[e], e))
    boundary = byes[by_level[count - 1]]
    forced = [e for e in by_level if byes[e] < boundary]
    eligible = [e for e in by_level if byes[e] == boundary]
    return forced, eligible, count - len(forced)


def schedule_round(entrants: int, round_index: int, seed: int) -> list[tuple[int, int]]:
    """Round ``round_index`` (from 0) of the seed's round-robin of partnerships for an even
    roster: the circle method on players relabelled by the seed; over ``entrants - 1`` rounds
    everyone partners everyone else exactly once."""
    order = list(range(entrants))
    random.Random(f"schedule:{seed}:{entrants}").shuffle(order)
    m = entrants - 1
    r = round_index % m
    pairs = [(order[m], order[r])]
    for i in range(1, entrants // 2):
        pairs.append((order[(r + i) % m], order[(r - i) % m]))
    return pairs


def _partnerships(seating: Seating, shape: TableShape) -> set[frozenset[int]]:
    out: set[frozenset[int]] = set()
    for table in seating.tables:
        for group in shape.positions():
            if len(group) > 1 and max(group) < len(table):
                out.add(frozenset(table[p] for p in group))
    return out


def _scheduled_round(entrants: int, shape: TableShape, history: Sequence[Seating],
                     seed: int) -> list[tuple[int, ...]] | None:
    """The schedule's partnerships for this round, while the history kept to the schedule."""
    if not fits_pairs(shape) or entrants % 2 or len(history) >= entrants - 1:
        return None
    for index, seating in enumerate(history):
        expected = {frozenset(p) for p in schedule_round(entrants, index, seed)}
        if seating.byes or _partnerships(seating, shape) != expected:
            return None
    return [tuple(p) for p in schedule_round(entrants, len(history), seed)]


def _partner_units(entrants: int, forced: list[int], eligible: list[int], free: int,
                   tally: Tally, rng: random.Random) -> tuple[list[tuple[int, ...]], list[int]]:
    """Partnerships for the round and its byes: a maximum matching in the graph of players who
    never partnered, with one extra vertex per free bye joined to every player who may sit out,
    so the byes are chosen to leave the fewest repeats."""
    left_out = set(forced)
    pool = [e for e in range(entrants) if e not in left_out]
    rng.shuffle(pool)
    size = len(pool)
    index = {e: i for i, e in enumerate(pool)}
    adj: list[list[int]] = [[] for _ in range(size + free)]
    for i in range(size):
        a = pool[i]
        for j in range(i + 1, size):
            if not tally.partners[tally.key(a, pool[j])]:
                adj[i].append(j)
                adj[j].append(i)
    may_sit_out = sorted(index[e] for e in eligible)
    match = [-1] * (size + free)
    for k in range(free):
        vertex = size + k
        adj[vertex] = list(may_sit_out)
        for i in may_sit_out:
            adj[i].append(vertex)
        match[vertex], match[may_sit_out[k]] = may_sit_out[k], vertex
    maximum_matching(adj, greedy_matching(adj, match))
    bench = list(forced) + [pool[match[size + k]] for k in range(free)]
    units: list[tuple[int, ...]] = [(pool[i], pool[match[i]]) for i in range(size)
                                    if i < match[i] < size]
    alone = [pool[i] for i in range(size) if match[i] == -1]
    while alone:
        a = alone.pop(0)
        j = min(range(len(alone)), key=lambda j: tally.partners[tally.key(a, alone[j])])
        units.append((a, alone.pop(j)))
    return units, bench


class _Weights:
    """The cost of two entrants sitting together, as partners or as opponents."""

    def __init__(self, tally: Tally) -> None:
        self.key = tally.key
        self.partner = {k: _W_PARTNER_REPEAT + _W_PARTNER_TIMES * n
                        for k, n in tally.partners.items() if n}
        self.opponent = {k: _W_OPP_REPEAT + n for k, n in tally.opponents.items() if n}

    def units(self, u: tuple[int, ...], v: tuple[int, ...]) -> int:
        get, key = self.opponent.get, self.key
        return sum(get(key(a, b), 0) for a in u for b in v)


def _unit_costs(units: Sequence[tuple[int, ...]], weights: _Weights) -> list[list[int]]:
    return [[weights.units(u, v) if u is not v else 0 for v in units] for u in units]


def _group(units: list[tuple[int, ...]], per_table: int, weights: _Weights,
           rng: random.Random, start: list[list[int]] | None = None
           ) -> list[list[tuple[int, ...]]]:
    """Tables of ``per_table`` units with the fewest repeated opponents (``grouping``)."""
    tables, _ = group_units(_unit_costs(units, weights), per_table, 0, (), rng, start)
    return [[units[u] for u in table] for table in tables]


def _group_with_bench(units: list[tuple[int, ...]], per_table: int, bench: int,
                      may_sit_out: list[int], weights: _Weights, rng: random.Random
                      ) -> tuple[list[list[tuple[int, ...]]], list[int]]:
    """As ``_group``, choosing also the ``bench`` units that sit out among ``may_sit_out``
    (single players): the entrants on those byes."""
    tables, benched = group_units(_unit_costs(units, weights), per_table, bench, may_sit_out,
                                  rng)
    return ([[units[u] for u in table] for table in tables],
            [e for u in benched for e in units[u]])


def _lay_out(grouped: list[list[tuple[int, ...]]], shape: TableShape,
             rng: random.Random) -> list[list[int]]:
    """Each table's units placed on the sides' seats (which side and which seat by lot)."""
    groups = shape.positions()
    flat: list[list[int]] = []
    for table in grouped:
        units = list(table)
        rng.shuffle(units)
        row = [-1] * shape.per_table
        for group, unit in zip(groups, units, strict=True):
            members = list(unit)
            rng.shuffle(members)
            for position, entrant in zip(group, members, strict=True):
                row[position] = entrant
        flat.append(row)
    return flat


def _improve_players(flat: list[list[int]], bench: list[int], shape: TableShape,
                     weights: _Weights, level: dict[int, int]) -> None:
    """Swaps single players (between tables, within a table, with an entrant on a bye who has
    had as many byes) while a swap lowers the table costs; a swap never adds a repeated
    partnership, since that weighs more than any number of opponents."""
    groups = shape.positions()
    group = [0] * shape.per_table
    for g, members in enumerate(groups):
        for position in members:
            group[position] = g
    pairs = [(i, j, group[i] == group[j]) for i in range(shape.per_table)
             for j in range(i + 1, shape.per_table)]
    key, partner, opponent = weights.key, weights.partner.get, weights.opponent.get

    def cost(row: list[int]) -> int:
        total = 0
        for i, j, same in pairs:
            total += (partner if same else opponent)(key(row[i], row[j]), 0)
        return total

    def involved(row: list[int], i: int) -> bool:
        for j in range(len(row)):
            if j != i and (partner if group[i] == group[j] else opponent)(
                    key(row[i], row[j]), 0):
                return True
        return False

    costs = [cost(row) for row in flat]
    for _ in range(_MAX_PASSES):
        improved = False
        for a, row_a in enumerate(flat):
            for ia in range(len(row_a)):
                if not costs[a]:
                    break
                if not involved(row_a, ia):
                    continue
                if _try_swaps(flat, costs, cost, a, ia, shape.has_pairs):
                    improved = True
                    continue
                x = row_a[ia]
                for ib, y in enumerate(bench):
                    if level[y] != level[x]:
                        continue
                    row_a[ia] = y
                    new = cost(row_a)
                    if new < costs[a]:
                        bench[ib], costs[a] = x, new
                        improved = True
                        break
                    row_a[ia] = x
        if not improved:
            return


def _try_swaps(flat: list[list[int]], costs: list[int], cost: _Cost, a: int, ia: int,
               within: bool) -> bool:
    row_a = flat[a]
    if within:
        for ja in range(len(row_a)):
            if ja == ia:
                continue
            row_a[ia], row_a[ja] = row_a[ja], row_a[ia]
            new = cost(row_a)
            if new < costs[a]:
                costs[a] = new
                return True
            row_a[ia], row_a[ja] = row_a[ja], row_a[ia]
    for b, row_b in enumerate(flat):
        if b == a:
            continue
        for ib in range(len(row_b)):
            if _swap_if_lower(flat, costs, cost, (a, ia), (b, ib)):
                return True
    return False


def _swap_if_lower(rows: list[list[_T]], costs: list[int], cost: Callable[[list[_T]], int],
                   at: tuple[int, int], to: tuple[int, int]) -> bool:
    """Swaps the entrants (or units) at ``at`` and ``to``, two places ``(row, index)`` in
    different rows, and keeps the swap only when it lowers the two rows' cost."""
    (a, ia), (b, ib) = at, to
    row_a, row_b = rows[a], rows[b]
    row_a[ia], row_b[ib] = row_b[ib], row_a[ia]
    new_a, new_b = cost(row_a), cost(row_b)
    if new_a + new_b < costs[a] + costs[b]:
        costs[a], costs[b] = new_a, new_b
        return True
    row_a[ia], row_b[ib] = row_b[ib], row_a[ia]
    return False
