"""Units into tables with the fewest repeated opponents (docs/events.md#formats, ``individual``):
the search that groups a round's units (a partnership of a pair game, or one player of a game
where each plays on their own) into tables of ``size`` units, and, where the round has byes
still to choose, picks who sits out among those who may.

The cost of two units at one table is given as a matrix (the repeated opponents they would
meet again, weighted so that one repeat outweighs any number of times met). The search is
deterministic for a given ``random.Random``:

1. an iterated local search: a greedy start, then the best swap of two units between tables
   (or a table and the bench) while one lowers the cost, then a few random swaps to leave a
   local optimum, for a fixed number of evaluations; each swap is scored in constant time
   from each unit's cost against every table;
2. for small rounds whose best so far still repeats someone, an exact branch and bound
   (tables filled in index order, a branch cut as soon as it costs as much as the best),
   within a fixed number of nodes: for a dozen or so units it usually proves the optimum.

Neither step uses the clock, so the same round always gets the same seating.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

#: Swap evaluations of the local search (about 0.2 s of Python for the largest rounds).
EVALUATIONS = 120_000
#: Kicks in a row that find nothing better end the local search.
STALL = 40
#: Nodes (tables tried and units added) of the exact search: about 0.1 s of Python. It proves
#: the optimum of most rounds of a dozen units; beyond, it improves on the local search
#: where it can within the budget.
NODES = 150_000
#: Rounds of at most this many units get the exact search when the local one left a cost.
EXACT_UNITS = 24

Matrix = Sequence[Sequence[int]]


class _OutOfNodes(Exception):
    pass


def group_units(cost: Matrix, size: int, bench: int, may_sit_out: Sequence[int],
                rng: random.Random, start: Sequence[Sequence[int]] | None = None
                ) -> tuple[list[list[int]], list[int]]:
    """Tables of ``size`` unit indices (``0 .. len(cost) - 1``) and ``bench`` units on a bye,
    chosen among ``may_sit_out``, with the lowest total of ``cost[a][b]`` over the pairs of
    units at one table. ``start``: a grouping to begin from (its tables, then its bench)."""
    m = len(cost)
    tables = (m - bench) // size
    assert tables * size + bench == m and len(may_sit_out) >= bench
    search = _Search(cost, size, tables, bench, set(may_sit_out), rng)
    search.start(start)
    search.local()
    if search.best_cost and m <= EXACT_UNITS:
        search.exact()
    return search.best_groups()


class _Search:
    def __init__(self, cost: Matrix, size: int, tables: int, bench: int, eligible: set[int],
                 rng: random.Random) -> None:
        self.cost = [list(row) for row in cost]
        self.m = len(cost)
        self.size = size
        self.tables = tables
        self.bench_slots = bench
        self.bench = tables  # the bench's group number
        self.eligible = eligible
        self.rng = rng
        self.where = [0] * self.m
        self.groups: list[list[int]] = []
        #: against[u][g]: the cost of unit u against the units of table g (0 for the bench).
        self.against: list[list[int]] = []
        self.total = 0
        self.best_cost = -1
        self.best: list[int] = []

    # -- a grouping -------------------------------------------------------------------------

    def start(self, start: Sequence[Sequence[int]] | None) -> None:
        if start is not None:
            given = [list(g) for g in start]
            if len(given) == self.tables:
                given.append([])
            self._set(given)
            return
        order = list(range(self.m))
        self.rng.shuffle(order)
        sitting = [u for u in order if u in self.eligible][:self.bench_slots]
        rest = [u for u in order if u not in sitting]
        groups: list[list[int]] = []
        while rest:
            table = [rest.pop(0)]
            while len(table) < self.size:
                best = min(range(len(rest)),
                           key=lambda i: sum(self.cost[rest[i]][x] for x in table))
                table.append(rest.pop(best))
            groups.append(table)
        groups.append(sitting)
        self._set(groups)

    def _set(self, groups: list[list[int]]) -> None:
        self.groups = groups
        for g, members in enumerate(groups):
            for u in members:
                self.where[u] = g
        self.against = [[0] * (self.tables + 1) for _ in range(self.m)]
        for u in range(self.m):
            row, cost_u = self.against[u], self.cost[u]
            for g in range(self.tables):
                row[g] = sum(cost_u[x] for x in groups[g])
        self.total = sum(self.against[u][self.where[u]] for u in range(self.m)) // 2
        self._keep()

    def _keep(self) -> None:
        if self.best_cost < 0 or self.total < self.best_cost:
            self.best_cost = self.total
            self.best = list(self.where)

    def best_groups(self) -> tuple[list[list[int]], list[int]]:
        groups: list[list[int]] = [[] for _ in range(self.tables + 1)]
        for u in range(self.m):
            groups[self.best[u]].append(u)
        return groups[:self.tables], groups[self.tables]

    # -- the local search -------------------------------------------------------------------

    def _delta(self, u: int, v: int) -> int:
        """What swapping units ``u`` and ``v`` (in different groups) changes."""
        a, b = self.where[u], self.where[v]
        change = 0
        if a != self.bench:
            change += self.against[v][a] - self.cost[v][u] - self.against[u][a]
        if b != self.bench:
            change += self.against[u][b] - self.cost[u][v] - self.against[v][b]
        return change

    def _allowed(self, u: int, v: int) -> bool:
        a, b = self.where[u], self.where[v]
        if a == b:
            return False
        if a == self.bench and v not in self.eligible:
            return False
        return not (b == self.bench and u not in self.eligible)

    def _swap(self, u: int, v: int, delta: int) -> None:
        a, b = self.where[u], self.where[v]
        cost_u, cost_v = self.cost[u], self.cost[v]
        for x in range(self.m):
            row = self.against[x]
            if a != self.bench:
                row[a] += cost_v[x] - cost_u[x]
            if b != self.bench:
                row[b] += cost_u[x] - cost_v[x]
        group_a, group_b = self.groups[a], self.groups[b]
        group_a[group_a.index(u)] = v
        group_b[group_b.index(v)] = u
        self.where[u], self.where[v] = b, a
        self.total += delta

    def _descend(self, budget: int) -> int:
        """Best-improvement swaps until none lowers the cost; the evaluations left."""
        while budget > 0 and self.total:
            best, best_delta = None, 0
            for u in range(self.m):
                if self.where[u] == self.bench or not self.against[u][self.where[u]]:
                    continue  # only a unit that costs something needs to move
                for v in range(self.m):
                    if not self._allowed(u, v):
                        continue
                    delta = self._delta(u, v)
                    if delta < best_delta:
                        best, best_delta = (u, v), delta
                budget -= self.m
            if best is None:
                break
            self._swap(*best, best_delta)
        self._keep()
        return budget

    def local(self) -> None:
        """Descents from random kicks of the best grouping so far, within the budget."""
        budget = self._descend(EVALUATIONS)
        kicks = max(2, self.m // 12)
        stalled = 0
        while budget > 0 and self.best_cost and stalled < STALL:
            before = self.best_cost
            if self.total > self.best_cost:
                self._restore()
            for _ in range(kicks):
                u, v = self.rng.randrange(self.m), self.rng.randrange(self.m)
                if self._allowed(u, v):
                    self._swap(u, v, self._delta(u, v))
                budget -= 1
            budget = self._descend(budget)
            stalled = 0 if self.best_cost < before else stalled + 1

    def _restore(self) -> None:
        groups: list[list[int]] = [[] for _ in range(self.tables + 1)]
        for u in range(self.m):
            groups[self.best[u]].append(u)
        self._set(groups)

    # -- the exact search -------------------------------------------------------------------

    def exact(self) -> None:
        """Branch and bound from the best so far: proves the optimum when it finishes."""
        m, size, cost = self.m, self.size, self.cost
        assigned = [-1] * m
        nodes = [NODES]

        def first_free() -> int:
            for u in range(m):
                if assigned[u] < 0:
                    return u
            return -1

        def place(spent: int, table: int, benched: int) -> None:
            nodes[0] -= 1
            if nodes[0] < 0:
                raise _OutOfNodes
            u = first_free()
            if u < 0:
                if spent < self.best_cost:
                    self.best_cost, self.best = spent, list(assigned)
                return
            if benched < self.bench_slots and u in self.eligible:
                assigned[u] = self.bench
                place(spent, table, benched + 1)
                assigned[u] = -1
            if table < self.tables:
                assigned[u] = table
                fill([u], u + 1, spent, table, benched)
                assigned[u] = -1

        def fill(members: list[int], after: int, spent: int, table: int, benched: int) -> None:
            if len(members) == size:
                place(spent, table + 1, benched)
                return
            for v in range(after, m):
                if assigned[v] >= 0:
                    continue
                nodes[0] -= 1
                if nodes[0] < 0:
                    raise _OutOfNodes
                more = spent + sum(cost[v][x] for x in members)
                if more >= self.best_cost:
                    continue
                assigned[v] = table
                members.append(v)
                fill(members, v + 1, more, table, benched)
                members.pop()
                assigned[v] = -1
                if not self.best_cost:
                    return

        try:
            place(0, 0, 0)
        except _OutOfNodes:
            pass
