"""Fixed pairs seated by the standings (docs/events.md#formats, ``pairs``): round 1 by lot, later
rounds Danish (1 v 2, 3 v 4…) or Swiss (the best-ranked pair not met yet)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .common import (
    Pairing,
    Seating,
    TableShape,
    Tally,
    pairing_problems,
    raise_if,
    roster_problems,
)
from .matching import greedy_matching, maximum_matching


def seat_pairs(entrants: int, ranking: Sequence[int], history: Sequence[Seating],
               pairing: Pairing, seed: int) -> Seating:
    """The next round of a pairs event (docs/events.md#formats, ``pairs``): round 1 by lot, later
    rounds by ``ranking`` (entrant indices, best first; any left out follow in roster order),
    Danish or Swiss."""
    raise_if(pairing_problems(pairing) + roster_problems(entrants, "pairs",
                                                          TableShape(4, (0, 1, 2, 3),
                                                                     ((0, 2), (1, 3)))))
    tally = Tally.of(history, None, entrants)
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


def _fresh_graph(order: list[int], tally: Tally) -> list[list[int]]:
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


def _swiss_bye(candidates: list[int], order: list[int], tally: Tally) -> int:
    """The first candidate (lowest-ranked first) whose absence leaves the most meetings
    without a repeat."""
    best, best_size = candidates[0], -1
    for candidate in candidates:
        rest = [e for e in order if e != candidate]
        adj = _fresh_graph(rest, tally)
        size = _matched(maximum_matching(adj, greedy_matching(adj, [-1] * len(rest))))
        if size == len(rest) // 2:
            return candidate
        if size > best_size:
            best, best_size = candidate, size
    return best


def _swiss(order: list[int], tally: Tally) -> list[tuple[int, int]]:
    """Swiss pairing of ``order`` (best first): the top pair left meets the best-ranked pair it
    has not met (else met least) that keeps a maximum of repeat-free meetings possible among
    those still to be seated."""
    size = len(order)
    adj = _fresh_graph(order, tally)
    match = maximum_matching(adj, greedy_matching(adj, [-1] * size))
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
    return maximum_matching(sub, trial)
