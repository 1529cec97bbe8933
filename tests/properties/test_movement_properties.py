"""Properties of duplicate movements (docs/events.md#duplicate, #movement), for every roster size
from the smallest table to 60 entrants and 1 to 8 boards a round:

- every entrant sits once a round or is on a bye, and the round seats as many tables as the
  roster fills; every one of them plays every board of the round, once each (the most tables
  a board can have in a round);
- no entrant plays a board twice; every board is played in each seat by different entrants;
- a board is at no more than ceil(tables / boards) tables at once (the copies a club makes);
- dummies' seats are empty, a pair sits at both seats of its side;
- pairs: a Mitchell: one line stays at its table, the other moves up a table each round, and
  nobody meets anyone twice while it lasts; after it, a repeat only where the round cannot
  avoid one (exhaustive for up to 8 pairs);
- individual: a round repeats no more partnerships than the least any seating with byes for
  those with fewest can, and in games without pairs no more opponents either (exhaustive for
  small rosters);
- the same seed gives the same movement.

The sizes sweep cycles the boards a round (1 + n mod 8) so that each count meets many
rosters without multiplying the test's time.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

import pytest

from service.domain import RecordInvalid, plan_movement
from service.domain.duplicate import RoundPlan, mitchell_rounds, seated_round
from service.domain.events.seating import Seating, TableShape
from service.domain.registry import find_variant

INDIVIDUAL = ("gatti-3", "gatti-4", "gatti-4-call", "gatti-2", "mitigatti-3")
ROUNDS = 3


def per_table(variant_id: str, format: str) -> int:
    return 2 if format == "pairs" else TableShape.of(find_variant(variant_id)).per_table


def check_movement(variant_id: str, format: str, entrants: int, boards: int,
                   plans: Sequence[RoundPlan]) -> None:
    variant = find_variant(variant_id)
    shape = TableShape.of(variant)
    per = per_table(variant_id, format)
    played: Counter[tuple[int, int]] = Counter()  # (entrant, board)
    held: dict[tuple[int, int], list[int]] = {}   # (board, seat) -> entrants
    last = 0
    for r, plan in enumerate(plans):
        assert plan.round == r
        assert plan.boards == tuple(range(last + 1, last + 1 + boards))
        last += boards
        seated = [e for t in plan.tables for e in set(t.seats) if e is not None]
        assert sorted(seated + list(plan.byes)) == list(range(entrants))
        assert len(plan.tables) == entrants // per
        for t in plan.tables:
            assert sorted(t.boards) == list(plan.boards)
            if format == "pairs":
                a, b = t.seats[0], t.seats[1]
                assert t.seats == (a, b, a, b) and a != b
            else:
                assert [s for s, e in enumerate(t.seats) if e is not None] == list(shape.players)
            for board in t.boards:
                for seat, entrant in enumerate(t.seats):
                    if entrant is not None:
                        held.setdefault((board, seat), []).append(entrant)
                for entrant in set(t.seats) - {None}:
                    played[(entrant, board)] += 1  # type: ignore[index]
        copies = math.ceil(len(plan.tables) / boards)
        for k in range(boards):
            at_once = Counter(t.boards[k] for t in plan.tables)
            assert max(at_once.values(), default=0) <= copies
    assert max(played.values(), default=1) == 1, "an entrant played a board twice"
    for entrants_at_seat in held.values():
        assert len(entrants_at_seat) == len(set(entrants_at_seat))
    if format == "individual" or entrants <= 2 * mitchell_rounds(entrants):
        byes = Counter(e for p in plans for e in p.byes)
        counts = [byes[e] for e in range(entrants)]
        assert max(counts) - min(counts) <= 1


CASES = ([(v, "individual", n) for v in INDIVIDUAL
          for n in range(per_table(v, "individual"), 61)]
         + [(v, "pairs", n) for v in ("ottocento", "gatti-4") for n in range(2, 61)])


@pytest.mark.parametrize(("variant_id", "format"),
                         sorted({(v, f) for v, f, _ in CASES}))
def test_every_roster_to_60_keeps_the_movement_rules(variant_id: str, format: str) -> None:
    for v, f, n in CASES:
        if (v, f) != (variant_id, format):
            continue
        boards = 1 + n % 8
        plans = plan_movement(find_variant(v), f, n, ROUNDS, boards, seed=n)
        check_movement(v, f, n, boards, plans)


@pytest.mark.parametrize("pairs", [2, 3, 4, 5, 6, 7, 8, 9, 12, 21])
def test_pairs_mitchell_one_line_stays_the_other_moves_up(pairs: int) -> None:
    tables = mitchell_rounds(pairs)
    plans = plan_movement(find_variant("ottocento"), "pairs", pairs, tables, 2, seed=3)
    met: Counter[frozenset[int]] = Counter()
    stays: dict[int, int] = {}
    moves: dict[int, int] = {}
    for r, plan in enumerate(plans):
        for t in plan.tables:
            ns, ew = t.seats[0], t.seats[1]
            assert ns is not None and ew is not None
            met[frozenset((ns, ew))] += 1
            assert stays.setdefault(ns, t.table) == t.table
            if r:
                assert t.table == (moves[ew] + 1) % tables
            moves[ew] = t.table
    assert max(met.values()) == 1, "the Mitchell repeats a meeting"
    # An odd number of pairs: the moving line's phantom sends each stayer out once.
    byes = Counter(e for plan in plans for e in plan.byes)
    assert sorted(byes) == (sorted(stays) if pairs % 2 else [])
    assert set(byes.values()) <= {1}
    check_movement("ottocento", "pairs", pairs, 2, plans)


def _fewest_repeated_meetings(entrants: int, history: Sequence[Seating]) -> int:
    """The fewest pairs who met before that any pairing of the round can seat, the bye (odd
    roster) among those with fewest byes: by brute force."""
    met = {frozenset(t) for s in history for t in s.tables}
    byes = Counter(e for s in history for e in s.byes)
    fewest = min(byes[e] for e in range(entrants))
    candidates = [e for e in range(entrants) if byes[e] == fewest] if entrants % 2 else [None]

    def best(rest: list[int]) -> int:
        if not rest:
            return 0
        a, others = rest[0], rest[1:]
        return min((frozenset((a, b)) in met) + best([x for x in others if x != b])
                   for b in others)

    return min(best([e for e in range(entrants) if e != bye]) for bye in candidates)


@pytest.mark.parametrize("pairs", [3, 4, 5, 6, 7, 8])
def test_pairs_after_the_mitchell_repeat_only_what_no_pairing_avoids(pairs: int) -> None:
    rounds = mitchell_rounds(pairs) + 3
    plans = plan_movement(find_variant("gatti-4"), "pairs", pairs, rounds, 1, seed=pairs)
    for r in range(mitchell_rounds(pairs), rounds):
        history = [p.seating for p in plans[:r]]
        met = {frozenset(t) for s in history for t in s.tables}
        repeated = sum(frozenset(t) in met for t in plans[r].seating.tables)
        assert repeated == _fewest_repeated_meetings(pairs, history)


def _fair_byes(entrants: int, tables: int, per: int,
               history: Sequence[Seating]) -> Iterator[tuple[int, ...]]:
    """Every choice of byes among those with fewest: none sits out while another who played
    more often (had fewer byes) plays."""
    byes = Counter(e for s in history for e in s.byes)
    for choice in combinations(range(entrants), entrants - tables * per):
        if all(byes[c] <= byes[e] for c in choice for e in range(entrants) if e not in choice):
            yield choice


def _tables(players: list[int], per: int) -> Iterator[list[tuple[int, ...]]]:
    """Every split of ``players`` into tables of ``per``, each table's players in every
    order that differs for partnerships (seats 0+2 v 1+3 where a game has pairs)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in combinations(rest, per - 1):
        left = [p for p in rest if p not in others]
        for tail in _tables(left, per):
            yield [(first, *others), *tail]


def _round_cost(rows: Sequence[Sequence[int]], groups: Sequence[Sequence[int]],
                history_partners: set[frozenset[int]],
                history_opponents: set[frozenset[int]]) -> tuple[int, int]:
    partners = opponents = 0
    for row in rows:
        for i, j in combinations(range(len(row)), 2):
            same = any(i in g and j in g for g in groups)
            key = frozenset((row[i], row[j]))
            if same:
                partners += key in history_partners
            else:
                opponents += key in history_opponents
    return partners, opponents


def _history_sets(history: Sequence[Seating], groups: Sequence[Sequence[int]]
                  ) -> tuple[set[frozenset[int]], set[frozenset[int]]]:
    partners: set[frozenset[int]] = set()
    opponents: set[frozenset[int]] = set()
    for s in history:
        for row in s.tables:
            for i, j in combinations(range(len(row)), 2):
                same = any(i in g and j in g for g in groups)
                (partners if same else opponents).add(frozenset((row[i], row[j])))
    return partners, opponents


def _exhaustive_best(entrants: int, per: int, groups: Sequence[Sequence[int]],
                     history: Sequence[Seating]) -> tuple[int, int]:
    """The least (repeated partnerships, repeated opponents) of any fair round, by brute
    force: every fair choice of byes, every split into tables, every arrangement at a table
    that makes different partnerships."""
    partners, opponents = _history_sets(history, groups)
    tables = entrants // per
    best = (10**9, 10**9)
    arrangements = ([(0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2)] if any(len(g) > 1 for g in groups)
                    else [tuple(range(per))])
    for byes in _fair_byes(entrants, tables, per, history):
        players = [e for e in range(entrants) if e not in byes]
        for split in _tables(players, per):
            options: list[list[tuple[int, ...]]] = [[]]
            for table in split:
                options = [rows + [tuple(table[i] for i in a)] for rows in options
                           for a in arrangements]
            for rows in options:
                best = min(best, _round_cost(rows, groups, partners, opponents))
    return best


@pytest.mark.parametrize(("variant_id", "entrants"),
                         [("gatti-3", n) for n in (3, 4, 5, 6, 7, 8)]
                         + [("gatti-4-call", n) for n in (4, 5, 6, 8)]
                         + [("gatti-4", n) for n in (4, 5, 6, 8)])
def test_individual_rounds_repeat_no_more_than_exhaustive_search(variant_id: str,
                                                                 entrants: int) -> None:
    variant = find_variant(variant_id)
    shape = TableShape.of(variant)
    groups = shape.positions()
    plans = plan_movement(variant, "individual", entrants, 3, 2, seed=entrants)
    for r in range(1, len(plans)):
        history = [p.seating for p in plans[:r]]
        partners, opponents = _history_sets(history, groups)
        got = _round_cost(plans[r].seating.tables, groups, partners, opponents)
        best = _exhaustive_best(entrants, shape.per_table, groups, history)
        assert got[0] == best[0], "a partnership repeated that a fair round avoids"
        if not shape.has_pairs:
            assert got[1] == best[1], "an opponent repeated that a fair round avoids"


def test_the_same_seed_gives_the_same_movement() -> None:
    for variant_id, format, n in (("gatti-3", "individual", 13), ("ottocento", "pairs", 9)):
        variant = find_variant(variant_id)
        one = plan_movement(variant, format, n, 3, 4, seed=5)
        assert one == plan_movement(variant, format, n, 3, 4, seed=5)
        assert [p.to_json() for p in one] == [p.to_json() for p in
                                              plan_movement(variant, format, n, 3, 4, seed=5)]


def test_a_format_the_game_does_not_fit_is_refused() -> None:
    with pytest.raises(RecordInvalid) as raised:
        plan_movement(find_variant("gatti-3"), "pairs", 6, 1, 2, seed=1)
    assert [p.field for p in raised.value.problems] == ["format"]
    with pytest.raises(RecordInvalid):
        plan_movement(find_variant("gatti-4"), "individual", 3, 1, 2, seed=1)


def test_a_free_or_swapped_seating_gets_the_rounds_boards_at_every_table() -> None:
    """``free`` and the organiser's swap: the round's boards at every table the organiser
    seats, each from its own start; the same properties as the service's own seating."""
    variant = find_variant("gatti-3")
    plans = [seated_round(variant, "individual", r, 3,
                          Seating(((0, 1, 2), (3, 4, 5), (6, 7, 8)) if r % 2 == 0
                                  else ((0, 3, 6), (1, 4, 7), (2, 5, 8)), ()))
             for r in range(3)]
    check_movement("gatti-3", "individual", 9, 3, plans)
    assert [t.boards for t in plans[1].tables] == [(4, 5, 6), (5, 6, 4), (6, 4, 5)]
    assert plans[1].tables[1].seats == (1, 4, 7)
