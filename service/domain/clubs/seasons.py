"""A club's seasons (docs/clubs.md#words, #bad-input): what a season is, which of the
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
earlier evening first when equal). ``average``: the sums divided by the member's evenings
before anyone is placed, so a member who played fewer evenings is not behind for it; the
places follow the events' rules on the exact averages (3.33 is ahead of 3.25), which the
table shows to one decimal (half up; both 3.3) and the sentence that separates two rows
to as many decimals as tells them apart.

**The leaders evening by evening** (docs/clubs.md#pictures: "a chart of the top places evening
by evening"): for the season's first ``LEADERS`` rows, the match points the standings rank by
as they stood at the season's start and after each evening — the sum so far (``sum``), the
sum of the member's best ``n`` evenings so far (``best_n``), the average over their evenings
so far (``average``; none before their first) — so the last figure is the row's own.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
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
_TENTH = Decimal("0.1")


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


#: How many of the season's leading members its chart follows evening by evening.
LEADERS = 5

#: A member's running match points: whole when summed, one decimal when averaged, none
#: before an average has an evening.
Running = int | Decimal | None


@dataclass(frozen=True, slots=True)
class RunningLine:
    """One leading member's standing evening by evening: ``values[0]`` at the season's
    start, ``values[k]`` after its ``k``-th evening (``Evening`` order)."""

    entrant: int
    values: tuple[Running, ...]


@dataclass(frozen=True, slots=True)
class SeasonStandings:
    standings: Standings
    members: tuple[str, ...]
    evenings: tuple[Evening, ...]
    #: The first ``LEADERS`` rows' match points evening by evening, in the rows' order.
    leaders: tuple[RunningLine, ...] = ()


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
    nights: dict[tuple[str, str], list[int]] = defaultdict(list)
    for number, night in evening_of_round.items():
        nights[night].append(number)
    evenings = tuple(Evening(night, ends[night].astimezone(dt.UTC).date(), ends[night],
                             tuple(sorted(rounds)))
                     for night, rounds in sorted(nights.items(), key=lambda i: min(i[1])))
    played = _evening_sums(results, evening_of_round)
    if season.counting == "best_n":
        assert season.best_n is not None
        results = _best_n(results, played, evening_of_round, season.best_n)
    averaged = (_evenings_played(results, evening_of_round) if season.counting == "average"
                else None)
    ranked = standings([names[m] for m in members], results, {}, "match_points",
                       averaged=averaged)
    leaders = tuple(
        RunningLine(row.entrant, _running(season, played.get(row.entrant, {}),
                                          [e.key for e in evenings]))
        for row in ranked.rows[:LEADERS])
    return SeasonStandings(ranked, members, evenings, leaders)


def _entries(results: Sequence[TableResult]) -> dict[int, list[tuple[TableResult, int]]]:
    """Each entrant's tables, with the column it was credited at each."""
    out: dict[int, list[tuple[TableResult, int]]] = defaultdict(list)
    for result in results:
        for column, credited in enumerate(result.columns):
            for entrant in credited:
                out[entrant].append((result, column))
    return out


@dataclass(frozen=True, slots=True)
class _EveningSums:
    """What one evening gave one member: match points, difference, points, and the
    season's round it began with (the earlier evening first when the rest is equal)."""

    match_points: int
    difference: Decimal
    points: int
    first_round: int

    def order(self) -> tuple[int, Decimal, int, int]:
        """``best_n``'s order of a member's evenings, best first."""
        return (-self.match_points, -self.difference, -self.points, self.first_round)


def _evening_sums(results: Sequence[TableResult],
                  evening_of_round: Mapping[int, tuple[str, str]],
                  ) -> dict[int, dict[tuple[str, str], _EveningSums]]:
    """Each member's evenings and what each gave them, from the tables that credit them."""
    out: dict[int, dict[tuple[str, str], _EveningSums]] = {}
    for entrant, seats in _entries(results).items():
        evenings: dict[tuple[str, str], _EveningSums] = {}
        for result, column in seats:
            key = evening_of_round[result.round]
            was = evenings.get(key, _EveningSums(0, Decimal(0), 0, result.round))
            evenings[key] = _EveningSums(
                was.match_points + match_points(result.totals)[column],
                was.difference + differences(result.totals)[column],
                was.points + result.totals[column], min(was.first_round, result.round))
        out[entrant] = evenings
    return out


def _best_n(results: list[TableResult],
            played: Mapping[int, Mapping[tuple[str, str], _EveningSums]],
            evening_of_round: Mapping[int, tuple[str, str]], n: int) -> list[TableResult]:
    """The tables with each member left off those of their evenings beyond their ``n``
    best (match points, difference, points; the earlier evening first when equal)."""
    dropped: set[tuple[int, int]] = set()  # (entrant, round)
    for entrant, evenings in played.items():
        ranked = sorted(evenings, key=lambda k: evenings[k].order())
        for key in ranked[n:]:
            dropped.update((entrant, r) for r, k in evening_of_round.items() if k == key)
    return [replace(result, columns=tuple(
        tuple(e for e in credited if (e, result.round) not in dropped)
        for credited in result.columns)) for result in results]


def _running(season: Season, evenings: Mapping[tuple[str, str], _EveningSums],
             order: Sequence[tuple[str, str]]) -> tuple[Running, ...]:
    """A member's match points as the season's standings counted them at its start and
    after each evening of ``order``: summed, their best n so far, or averaged (one
    decimal, half up; none before their first evening)."""
    so_far: list[_EveningSums] = []
    values: list[Running] = [None if season.counting == "average" else 0]
    for key in order:
        if key in evenings:
            so_far.append(evenings[key])
        if season.counting == "average":
            values.append(None if not so_far else (
                Decimal(sum(e.match_points for e in so_far)) / len(so_far)).quantize(
                    _TENTH, rounding=ROUND_HALF_UP))
            continue
        kept = (sorted(so_far, key=_EveningSums.order)[:season.best_n]
                if season.counting == "best_n" else so_far)
        values.append(sum(e.match_points for e in kept))
    return tuple(values)


def _evenings_played(results: Sequence[TableResult],
                     evening_of_round: Mapping[int, tuple[str, str]]) -> dict[int, int]:
    """How many evenings each member was counted in."""
    return {entrant: len({evening_of_round[r.round] for r, _ in seats})
            for entrant, seats in _entries(results).items()}


__all__ = ["BEST_N_MAX", "COUNTINGS", "LEADERS", "Counting", "Evening", "Running", "RunningLine",
           "Season", "SeasonStandings", "counted_rows", "season_standings", "validate_season"]
