"""A club's seasons (issue 29, CLUBS.md "Words", "Bad input"): what a season is, which of the
club's results it counts, and its standings, explained row by row as an event's are
(``events.standings``, whose rules and ties it takes as they are). Standard library only.

**What a season counts.** The club's counted games (finished stand-alone games, tables of
closed rounds of its events) of the season's families, whose *evening* ended within the
season's dates (both days included, UTC): a stand-alone game is an evening of its own, an
event is one evening, dated by its last closed round, so an event is never split between
two seasons. Each stand-alone game and each round of an event is a round of the season's
standings (numbered in the order they finished), each of its tables one table: a member's
match points, difference and points come from them exactly as in an event.

**Counting.** ``sum``: everything counted adds up (the event's match points). ``best_n``:
each member's ``n`` best evenings only (by match points, then difference, then points; the
earlier evening first when equal). ``average``: the sums divided by the member's evenings,
to one decimal (half up), before anyone is placed, so a member who played fewer evenings
is not behind for it; the places then follow the events' rules on the averages.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, Literal

from ..core.errors import ProblemList
from ..core.text import Text
from ..events.standings import Standings, TableResult, differences, match_points, standings
from .results import ClubResult
from .roster import _name

Counting = Literal["sum", "best_n", "average"]
COUNTINGS: tuple[Counting, ...] = ("sum", "best_n", "average")
#: The most evenings a ``best_n`` season keeps.
BEST_N_MAX = 366


@dataclass(frozen=True, slots=True)
class Season:
    """A season as the club set it: ``families`` empty means every family."""

    name: str
    date_from: dt.date
    date_to: dt.date
    families: tuple[str, ...]
    counting: Counting
    best_n: int | None = None

    def counts(self, family: str, day: dt.date) -> bool:
        return ((not self.families or family in self.families)
                and self.date_from <= day <= self.date_to)


def _date(raw: object, field: str, problems: ProblemList) -> dt.date | None:
    if isinstance(raw, str):
        try:
            return dt.date.fromisoformat(raw)
        except ValueError:
            pass
    problems.add(field, "invalid_date", Text("a date as YYYY-MM-DD"))
    return None


def validate_season(raw: Mapping[str, Any], known_families: Sequence[str]) -> Season:
    """A new season's fields, every problem at once (``RecordInvalid``): a name, two dates
    in order, known families (none: all of them), a counting, and ``n`` for ``best_n``."""
    problems = ProblemList()
    name = _name(raw.get("name"), "name", problems)
    start = _date(raw.get("from"), "from", problems)
    end = _date(raw.get("to"), "to", problems)
    if start is not None and end is not None and end < start:
        problems.add("to", "dates_reversed", Text(
            "a season ends on or after the day it starts ({start}), not on {end}",
            start=start.isoformat(), end=end.isoformat()))
    families: list[str] = []
    given = raw.get("families")
    if given is not None:
        if not isinstance(given, list):
            problems.add("families", "invalid_type", Text("families is a list of families"))
        else:
            for i, family in enumerate(given):
                if not isinstance(family, str) or family not in known_families:
                    problems.add(f"families[{i}]", "unknown_family", Text(
                        "there is no family {family} (the families: {known})",
                        family=repr(family), known=", ".join(known_families)))
                elif family not in families:
                    families.append(family)
    counting = raw.get("counting", "sum")
    if counting not in COUNTINGS:
        problems.add("counting", "unknown_counting", Text(
            "counting is one of {choices}", choices=", ".join(COUNTINGS)))
    n = raw.get("n")
    if counting == "best_n":
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= BEST_N_MAX:
            problems.add("n", "invalid_best_n", Text(
                "best_n counts a member's n best evenings: n from 1 to {most}",
                most=BEST_N_MAX))
    elif n is not None:
        problems.add("n", "n_without_best_n", Text("n goes with counting best_n only"))
    problems.raise_if_any()
    assert name is not None and start is not None and end is not None
    return Season(name, start, end, tuple(families), counting,
                  n if counting == "best_n" else None)


@dataclass(frozen=True, slots=True)
class Evening:
    """One evening of a season: a stand-alone game or an event, with the day it ended."""

    key: tuple[str, str]
    day: dt.date
    finished_at: dt.datetime
    #: The season's round numbers it holds (one per game, one per round of an event).
    rounds: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        kind, ident = self.key
        return {kind: ident, "date": self.day.isoformat(), "rounds": list(self.rounds)}


@dataclass(frozen=True, slots=True)
class SeasonStandings:
    standings: Standings
    members: tuple[str, ...]
    evenings: tuple[Evening, ...]


def _evening_of(row: ClubResult) -> tuple[str, str]:
    return ("event", row.event) if row.event is not None else ("game", row.game)


def _ends(rows: Sequence[ClubResult]) -> dict[tuple[str, str], dt.datetime]:
    """When each evening ended: its last row's end."""
    ends: dict[tuple[str, str], dt.datetime] = {}
    for row in rows:
        key = _evening_of(row)
        ends[key] = max(ends.get(key, row.finished_at), row.finished_at)
    return ends


def counted_rows(season: Season, rows: Sequence[ClubResult]) -> list[ClubResult]:
    """The rows a season counts: of its families, their evening ended within its dates."""
    ends = _ends(rows)
    return [r for r in rows
            if season.counts(r.family, ends[_evening_of(r)].astimezone(dt.UTC).date())]


def season_standings(season: Season, rows: Sequence[ClubResult],
                     roster: Sequence[tuple[str, str]]) -> SeasonStandings:
    """The season's standings from the club's result rows (any order) and its roster (each
    member's id and name as shown, in roster order)."""
    counted = counted_rows(season, rows)
    tables: dict[tuple[str, str, int | None], dict[int, list[ClubResult]]] = defaultdict(
        lambda: defaultdict(list))
    for row in counted:
        tables[(*_evening_of(row), row.round)][row.table or 1].append(row)
    ends = _ends(counted)
    order = sorted(tables, key=lambda k: (ends[(k[0], k[1])], k[1], k[2] or 0))
    numbers = {key: number for number, key in enumerate(order, start=1)}
    seen = {r.counted_for for r in counted}
    members = tuple(m for m, _ in roster if m in seen)
    index = {m: i for i, m in enumerate(members)}
    names = dict(roster)
    results: list[TableResult] = []
    evening_of_round: dict[int, tuple[str, str]] = {}
    for key in order:
        evening = (key[0], key[1])
        for table, seated in sorted(tables[key].items()):
            first = seated[0]
            columns: list[list[int]] = [[] for _ in first.totals]
            credited: set[int] = set()  # a member once a table, whatever merges say
            for row in sorted(seated, key=lambda r: r.seat):
                entrant = index.get(row.counted_for)
                if entrant is not None and entrant not in credited:
                    credited.add(entrant)
                    columns[row.column].append(entrant)
            state = "closed" if any(r.state == "closed" for r in seated) else "finished"
            results.append(TableResult(numbers[key], table, tuple(tuple(c) for c in columns),
                                       first.totals, state))  # type: ignore[arg-type]
        evening_of_round[numbers[key]] = evening
    if season.counting == "best_n":
        assert season.best_n is not None
        results = _best_n(results, evening_of_round, season.best_n)
    nights: dict[tuple[str, str], list[int]] = defaultdict(list)
    for number, night in evening_of_round.items():
        nights[night].append(number)
    evenings = tuple(Evening(night, ends[night].astimezone(dt.UTC).date(), ends[night],
                             tuple(sorted(rounds)))
                     for night, rounds in sorted(nights.items(), key=lambda i: min(i[1])))
    averaged = (_evenings_played(results, evening_of_round) if season.counting == "average"
                else None)
    ranked = standings([names[m] for m in members], results, {}, "match_points",
                       averaged=averaged)
    return SeasonStandings(ranked, members, evenings)


def _entries(results: Sequence[TableResult]) -> dict[int, list[tuple[TableResult, int]]]:
    """Each entrant's tables, with the column it was credited at each."""
    out: dict[int, list[tuple[TableResult, int]]] = defaultdict(list)
    for result in results:
        for column, credited in enumerate(result.columns):
            for entrant in credited:
                out[entrant].append((result, column))
    return out


def _best_n(results: list[TableResult], evening_of_round: Mapping[int, tuple[str, str]],
            n: int) -> list[TableResult]:
    """The tables with each member left off those of their evenings beyond their ``n``
    best (match points, difference, points; the earlier evening first when equal)."""
    dropped: set[tuple[int, int]] = set()  # (entrant, round)
    for entrant, seats in _entries(results).items():
        evenings: dict[tuple[str, str], list[Decimal]] = {}
        first: dict[tuple[str, str], int] = {}
        for result, column in seats:
            key = evening_of_round[result.round]
            sums = evenings.setdefault(key, [Decimal(0)] * 3)
            sums[0] += match_points(result.totals)[column]
            sums[1] += differences(result.totals)[column]
            sums[2] += result.totals[column]
            first[key] = min(first.get(key, result.round), result.round)
        ranked = sorted(evenings, key=lambda k: (-evenings[k][0], -evenings[k][1],
                                                 -evenings[k][2], first[k]))
        for key in ranked[n:]:
            dropped.update((entrant, r) for r, k in evening_of_round.items() if k == key)
    return [replace(result, columns=tuple(
        tuple(e for e in credited if (e, result.round) not in dropped)
        for credited in result.columns)) for result in results]


def _evenings_played(results: Sequence[TableResult],
                     evening_of_round: Mapping[int, tuple[str, str]]) -> dict[int, int]:
    """How many evenings each member was counted in."""
    return {entrant: len({evening_of_round[r.round] for r, _ in seats})
            for entrant, seats in _entries(results).items()}


__all__ = ["BEST_N_MAX", "COUNTINGS", "Counting", "Evening", "Season", "SeasonStandings",
           "counted_rows", "season_standings", "validate_season"]
