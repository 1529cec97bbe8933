"""Seatings for the rounds of an event (EVENTS.md "Formats"): the individual movement, fixed
pairs by standings (Danish or Swiss), and the check of an organiser's own (free) seating.

Entrants are numbered ``0 .. n-1`` in roster order; a ``Seating`` lists each table's entrants
and the round's byes. Everything here is deterministic: the only randomness is a
``random.Random`` seeded from the event's seed, the format and the round number, so the same
event, seed and results always give the same seating.

How the service seats (the choices EVENTS.md leaves open):

- **Individual.** Byes first, spread evenly: the entrants with the fewest byes so far sit out
  (nobody has a second bye before everyone had one); which of the equally placed ones sit out
  is left to the search below. In a game of fixed pairs, partners come from a maximum matching
  (Edmonds' blossom algorithm) in the graph of players who have not partnered yet, so a round
  repeats a partnership only when no seating of it can avoid that; when it cannot, the
  repeated partners are those who partnered least. The partnerships (units) are then grouped
  into tables greedily by fewest earlier meetings as opponents and improved by swaps, first of
  whole units, then of single players, accepting a swap only when it lowers, in this order,
  the repeated partnerships, the times those partners partnered before, the repeated
  opponents and the times they met before. Games without pairs skip the matching.
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

import random
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from .errors import Problem, RecordInvalid
from .text import Text
from .variants.base import Variant

Format = Literal["individual", "pairs", "free"]
Pairing = Literal["danish", "swiss"]
FORMATS: tuple[str, ...] = ("individual", "pairs", "free")
PAIRINGS: tuple[str, ...] = ("danish", "swiss")

# Weights that make one integer cost compare like the tuple (repeated partnerships, times
# those partners partnered before, repeated opponents, times those opponents met before).
_W_OPP_REPEAT = 10**6
_W_PARTNER_TIMES = 10**12
_W_PARTNER_REPEAT = 10**18
_MAX_PASSES = 30

#: The cost of one table's row of entrants.
_Cost = Callable[[list[int]], int]


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
    if format == "pairs" and not _fits_pairs(shape):
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


def _fits_pairs(shape: TableShape) -> bool:
    return len(shape.partners) == 2 and all(len(group) == 2 for group in shape.partners)


def _raise_if(problems: list[Problem]) -> None:
    if problems:
        raise RecordInvalid(problems)


# -- the organiser's own seating ------------------------------------------------------------------


def check_free_seating(entrants: int, shape: TableShape,
                       tables: Sequence[Sequence[int | None]],
                       names: Sequence[str] | None = None) -> list[Problem]:
    """Every problem of an organiser's seating: a table with the wrong number of entrants, an
    empty seat, an entrant not on the roster, an entrant seated twice. ``names`` (the roster,
    optional) names entrants in the messages; otherwise they are called by number. Entrants
    not seated are the round's byes: ``byes_of`` lists them."""
    problems: list[Problem] = []
    seen: dict[int, tuple[int, int]] = {}
    per = shape.per_table

    def called(entrant: int) -> str:
        return names[entrant] if names is not None and entrant < len(names) else str(entrant)

    for t, table in enumerate(tables):
        if len(table) != per:
            problems.append(Problem(
                f"tables[{t}]", "table_size",
                Text.counted("table {table} has {n} entrant; it seats {seats}",
                             "table {table} has {n} entrants; it seats {seats}",
                             len(table), table=t + 1, seats=per)))
        for i, entrant in enumerate(table):
            where = f"tables[{t}].seats[{i}]"
            seat = shape.players[i] if i < per else i
            if entrant is None:
                problems.append(Problem(where, "seat_empty",
                                        Text("seat {seat} of table {table} is empty",
                                             seat=seat, table=t + 1)))
            elif (isinstance(entrant, bool) or not isinstance(entrant, int)
                  or not 0 <= entrant < entrants):
                problems.append(Problem(
                    where, "out_of_range",
                    Text("entrant {entrant} is not on the roster: entrants are numbered 0 "
                         "to {last}", entrant=entrant, last=entrants - 1)))
            elif entrant in seen:
                other_t, other_seat = seen[entrant]
                problems.append(Problem(where, "seated_twice",
                                        Text("{entrant} also sits at table {table}, seat {seat}",
                                             entrant=called(entrant), table=other_t + 1,
                                             seat=other_seat)))
            else:
                seen[entrant] = (t, seat)
    return problems


def byes_of(entrants: int, tables: Sequence[Sequence[int | None]]) -> tuple[int, ...]:
    """The entrants no table seats: the round's byes."""
    seated = {e for table in tables for e in table if e is not None}
    return tuple(e for e in range(entrants) if e not in seated)


# -- what earlier rounds did ----------------------------------------------------------------------


@dataclass
class _Tally:
    """Earlier rounds counted: partnerships and meetings as opponents (keyed ``lo * n + hi``)
    and byes."""

    n: int
    partners: Counter[int]
    opponents: Counter[int]
    byes: Counter[int]

    def key(self, a: int, b: int) -> int:
        return a * self.n + b if a < b else b * self.n + a

    @classmethod
    def of(cls, history: Sequence[Seating], shape: TableShape | None, n: int) -> _Tally:
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
    tally = _Tally.of(history, None if format == "pairs" else shape, 0)
    return Repeats(
        partners=tuple(p for p in tally.pairs(tally.partners) if p[2] > 1),
        opponents=tuple(p for p in tally.pairs(tally.opponents) if p[2] > 1))


# -- maximum matching (Edmonds' blossom algorithm) --------------------------------------------------


def _augment(adj: list[list[int]], match: list[int], root: int) -> bool:
    """Grows ``match`` by one augmenting path from the unmatched vertex ``root``, if one exists
    (the BFS form of Edmonds' algorithm, blossoms contracted through ``base``)."""
    n = len(adj)
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))
    used[root] = True
    queue = deque([root])

    def lowest_common_base(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark_path(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    while queue:
        v = queue.popleft()
        for to in adj[v]:
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                current = lowest_common_base(v, to)
                blossom = [False] * n
                mark_path(v, current, to, blossom)
                mark_path(to, current, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = current
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    while to != -1:
                        via = parent[to]
                        after = match[via]
                        match[to], match[via] = via, to
                        to = after
                    return True
                used[match[to]] = True
                queue.append(match[to])
    return False


def _maximum_matching(adj: list[list[int]], match: list[int]) -> list[int]:
    """A maximum matching grown from ``match`` (vertices matched there stay matched)."""
    for vertex in range(len(adj)):
        if match[vertex] == -1 and adj[vertex]:
            _augment(adj, match, vertex)
    return match


def _greedy(adj: list[list[int]], match: list[int]) -> list[int]:
    for v in range(len(adj)):
        if match[v] == -1:
            for to in adj[v]:
                if match[to] == -1:
                    match[v], match[to] = to, v
                    break
    return match


# -- individual movement ------------------------------------------------------------------------------


def seat_individual(entrants: int, shape: TableShape, history: Sequence[Seating],
                    seed: int) -> Seating:
    """The next round of the individual movement (EVENTS.md "Formats", ``individual``):
    fewest repeated partnerships, then fewest repeated opponents, byes spread evenly."""
    _raise_if(roster_problems(entrants, "individual", shape))
    per = shape.per_table
    tables = entrants // per
    rng = random.Random(f"individual:{seed}:{len(history)}")
    tally = _Tally.of(history, shape, entrants)
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
        grouped = _group_units(units, len(shape.partners), weights, rng)
        _improve_units(grouped, weights)
        flat = _lay_out(grouped, shape, rng)
        if scheduled is None:
            _improve_players(flat, bench, shape, weights, level)
    else:
        benched = set(forced) | set(rng.sample(eligible, free))
        bench = sorted(benched)
        units = [(e,) for e in range(entrants) if e not in benched]
        grouped = _group_units(units, len(shape.partners), weights, rng)
        flat = _lay_out(grouped, shape, rng)
        _improve_players(flat, bench, shape, weights, level)
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
    if not _fits_pairs(shape) or entrants % 2 or len(history) >= entrants - 1:
        return None
    for index, seating in enumerate(history):
        expected = {frozenset(p) for p in schedule_round(entrants, index, seed)}
        if seating.byes or _partnerships(seating, shape) != expected:
            return None
    return [tuple(p) for p in schedule_round(entrants, len(history), seed)]


def _partner_units(entrants: int, forced: list[int], eligible: list[int], free: int,
                   tally: _Tally, rng: random.Random) -> tuple[list[tuple[int, ...]], list[int]]:
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
    _maximum_matching(adj, _greedy(adj, match))
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

    def __init__(self, tally: _Tally) -> None:
        self.key = tally.key
        self.partner = {k: _W_PARTNER_REPEAT + _W_PARTNER_TIMES * n
                        for k, n in tally.partners.items() if n}
        self.opponent = {k: _W_OPP_REPEAT + n for k, n in tally.opponents.items() if n}

    def units(self, u: tuple[int, ...], v: tuple[int, ...]) -> int:
        get, key = self.opponent.get, self.key
        return sum(get(key(a, b), 0) for a in u for b in v)


def _group_units(units: list[tuple[int, ...]], per_table: int, weights: _Weights,
                 rng: random.Random) -> list[list[tuple[int, ...]]]:
    """Tables of ``per_table`` units, each unit joining the table it has met least."""
    remaining = list(units)
    rng.shuffle(remaining)
    grouped: list[list[tuple[int, ...]]] = []
    while remaining:
        table = [remaining.pop(0)]
        while len(table) < per_table:
            best, best_cost = 0, -1
            for i, unit in enumerate(remaining):
                cost = sum(weights.units(unit, other) for other in table)
                if best_cost < 0 or cost < best_cost:
                    best, best_cost = i, cost
                    if cost == 0:
                        break
            table.append(remaining.pop(best))
        grouped.append(table)
    return grouped


def _improve_units(grouped: list[list[tuple[int, ...]]], weights: _Weights) -> None:
    """Swaps whole units between tables while a swap lowers the opponents' cost."""

    def cost(table: list[tuple[int, ...]]) -> int:
        return sum(weights.units(table[i], table[j])
                   for i in range(len(table)) for j in range(i + 1, len(table)))

    costs = [cost(t) for t in grouped]
    for _ in range(_MAX_PASSES):
        improved = False
        for a, table_a in enumerate(grouped):
            for ia in range(len(table_a)):
                if not costs[a]:
                    break
                for b, table_b in enumerate(grouped):
                    if b == a:
                        continue
                    for ib in range(len(table_b)):
                        table_a[ia], table_b[ib] = table_b[ib], table_a[ia]
                        new_a, new_b = cost(table_a), cost(table_b)
                        if new_a + new_b < costs[a] + costs[b]:
                            costs[a], costs[b] = new_a, new_b
                            improved = True
                            break
                        table_a[ia], table_b[ib] = table_b[ib], table_a[ia]
                    if not costs[a]:
                        break
        if not improved:
            return


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
            row_a[ia], row_b[ib] = row_b[ib], row_a[ia]
            new_a, new_b = cost(row_a), cost(row_b)
            if new_a + new_b < costs[a] + costs[b]:
                costs[a], costs[b] = new_a, new_b
                return True
            row_a[ia], row_b[ib] = row_b[ib], row_a[ia]
    return False


# -- pairs by standings ----------------------------------------------------------------------------


def seat_pairs(entrants: int, ranking: Sequence[int], history: Sequence[Seating],
               pairing: Pairing, seed: int) -> Seating:
    """The next round of a pairs event (EVENTS.md "Formats", ``pairs``): round 1 by lot, later
    rounds by ``ranking`` (entrant indices, best first; any left out follow in roster order),
    Danish or Swiss."""
    _raise_if(pairing_problems(pairing) + roster_problems(entrants, "pairs",
                                                          TableShape(4, (0, 1, 2, 3),
                                                                     ((0, 2), (1, 3)))))
    tally = _Tally.of(history, None, entrants)
    if not history:
        order = list(range(entrants))
        random.Random(f"pairs:{seed}:0").shuffle(order)
        first_bye = (order.pop(),) if entrants % 2 else ()
        return Seating(tuple((order[i], order[i + 1]) for i in range(0, len(order), 2)),
                       first_bye)
    order = _ranked(entrants, ranking)
    rank = {e: i for i, e in enumerate(order)}
    candidates = sorted(order, key=lambda e: (tally.byes[e], -rank[e]))
    if entrants % 2 == 0:
        bye: list[int] = []
    elif pairing == "danish":
        bye = [candidates[0]]
    else:
        fewest = tally.byes[candidates[0]]
        bye = [_swiss_bye([e for e in candidates if tally.byes[e] == fewest], order, tally)]
    rest = [e for e in order if e not in bye]
    if pairing == "danish":
        tables = [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
    else:
        tables = _swiss(rest, tally)
    return Seating(tuple(tables), tuple(bye))


def _ranked(entrants: int, ranking: Sequence[int]) -> list[int]:
    order: list[int] = []
    seen: set[int] = set()
    for e in ranking:
        if 0 <= e < entrants and e not in seen:
            order.append(e)
            seen.add(e)
    return order + [e for e in range(entrants) if e not in seen]


def _fresh_graph(order: list[int], tally: _Tally) -> list[list[int]]:
    """Who has not met whom, on positions in ``order`` (neighbours best-ranked first)."""
    size = len(order)
    adj: list[list[int]] = [[] for _ in range(size)]
    for i in range(size):
        for j in range(i + 1, size):
            if not tally.opponents[tally.key(order[i], order[j])]:
                adj[i].append(j)
                adj[j].append(i)
    return adj


def _matched(match: list[int]) -> int:
    return sum(1 for v, w in enumerate(match) if v < w)


def _swiss_bye(candidates: list[int], order: list[int], tally: _Tally) -> int:
    """The first candidate (lowest-ranked first) whose absence leaves the most meetings
    without a repeat."""
    best, best_size = candidates[0], -1
    for candidate in candidates:
        rest = [e for e in order if e != candidate]
        adj = _fresh_graph(rest, tally)
        size = _matched(_maximum_matching(adj, _greedy(adj, [-1] * len(rest))))
        if size == len(rest) // 2:
            return candidate
        if size > best_size:
            best, best_size = candidate, size
    return best


def _swiss(order: list[int], tally: _Tally) -> list[tuple[int, int]]:
    """Swiss pairing of ``order`` (best first): the top pair left meets the best-ranked pair it
    has not met (else met least) that keeps a maximum of repeat-free meetings possible among
    those still to be seated."""
    size = len(order)
    adj = _fresh_graph(order, tally)
    match = _maximum_matching(adj, _greedy(adj, [-1] * size))
    target = _matched(match)
    alive = [True] * size
    tables: list[tuple[int, int]] = []
    for top in range(size):
        if not alive[top]:
            continue
        others = [j for j in range(top + 1, size) if alive[j]]
        fresh = set(adj[top])
        others.sort(key=lambda j: (j not in fresh,
                                   tally.opponents[tally.key(order[top], order[j])], j))
        for opp in others:
            new_fresh = 1 if opp in fresh else 0
            if match[top] == opp:
                trial = match
            else:
                trial = _without(adj, match, alive, top, opp)
                if _matched(trial) + new_fresh != target:
                    continue
            alive[top] = alive[opp] = False
            match = [w if alive[v] and w != -1 and alive[w] else -1
                     for v, w in enumerate(trial)]
            target -= new_fresh
            tables.append((order[top], order[opp]))
            break
    return tables


def _without(adj: list[list[int]], match: list[int], alive: list[bool], a: int,
             b: int) -> list[int]:
    """A maximum matching of the fresh graph on the living vertices other than ``a`` and
    ``b``, grown from ``match``."""
    gone = {a, b}
    keep = [alive[v] and v not in gone for v in range(len(adj))]
    sub = [[w for w in adj[v] if keep[w]] if keep[v] else [] for v in range(len(adj))]
    trial = [w if keep[v] and w != -1 and keep[w] else -1 for v, w in enumerate(match)]
    return _maximum_matching(sub, trial)
