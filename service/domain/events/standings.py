"""Event scoring and standings (docs/events.md#scoring-an-event): match points, difference and
points per table, and the standings across rounds with a line that explains every row.

**A bye.** An entrant on a bye is scored as an
average table of the event: a draw's match points (the mean of the match points a table
gives out per column: 1 with two columns, 2 with three, 3 with four), a difference of 0 and
no points; the row's explanation says so. An average rather than a win, because the bye is
nobody's merit; not a loss, because it is nobody's fault either. The number of columns is the
event's (its variant and format fix it), not read from the round's tables, so a bye is worth
the same at every moment: before its round's first hand as after it.

**Ties.** Rows are ordered by match points (``scoring="difference"``: by the sum of
differences), then difference, then points, then the result of their meetings: among the
entrants still tied, for each pair of them who sat at the same table on opposite columns, the
better column total takes 2 and a draw 1 each. The meetings separate the tied only as far as
the meetings that never happened could not change the order (FIDE's direct-encounter rule):
a group is cut where everyone above has more meeting points than anyone below could reach by
winning every meeting they never had. So entrants who never met stay tied, a group that all
met is ranked by its meeting points, and what is still equal shares a place; the next place
skips (1, 1, 3). ``scoring="difference"`` does not use match points to break ties.

Words: a *column* is one score column of a table's game (a side of a fixed-pair game, or one
player); a table of a game still ``playing`` counts at its current totals and makes the
standings ``provisional``; a ``closed`` game was stopped by the organiser and counts as it
stood.
"""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from itertools import islice
from typing import Generic, Literal, Protocol, TypeVar

from ..core.text import Figure, Text

Scoring = Literal["match_points", "difference"]
TableState = Literal["playing", "finished", "closed"]
EntryState = Literal["playing", "finished", "closed", "bye"]
Json = dict[str, object]

_TENTH = Decimal("0.1")

CRITERIA: dict[str, Text] = {
    "match_points": Text("match points"),
    "difference": Text("difference"),
    "points": Text("points"),
    "meetings": Text("their meetings"),
    "percentage": Text("percentage"),
}


@dataclass(frozen=True)
class TableResult:
    """One table of one round: who is credited each score column, and each column's total
    (Mitigatti: the marca won or lost at the table)."""

    round: int
    table: int
    columns: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    state: TableState

    def __post_init__(self) -> None:
        if len(self.columns) != len(self.totals) or len(self.columns) < 2:
            raise ValueError(f"round {self.round}, table {self.table}: {len(self.columns)} "
                             f"columns and {len(self.totals)} totals; two or more of each")


@dataclass(frozen=True)
class RoundEntry:
    """What one round gave one entrant. ``table`` and ``column`` are None on a bye."""

    round: int
    table: int | None
    column: int | None
    partners: tuple[int, ...]
    opponents: tuple[int, ...]
    totals: tuple[int, ...]
    match_points: int
    difference: Decimal
    points: int
    state: EntryState

    def to_json(self) -> Json:
        return {"round": self.round, "table": self.table, "column": self.column,
                "partners": list(self.partners), "opponents": list(self.opponents),
                "totals": list(self.totals), "match_points": self.match_points,
                "difference": decimal_json(self.difference), "points": self.points,
                "state": self.state}


@dataclass(frozen=True)
class Row:
    """One entrant's place, sums, rounds and the sentences that explain them."""

    place: int
    entrant: int
    #: Sums; averages (``Decimal``, one decimal) in a club's season that counts them so.
    match_points: int | Decimal
    difference: Decimal
    points: int | Decimal
    rounds: tuple[RoundEntry, ...]
    explanation: tuple[Text, ...]
    name: str = ""
    #: A duplicate event's: the boards played and their average percentage.
    boards: int | None = None
    percentage: Decimal | None = None

    def to_json(self) -> Json:
        out: Json = {"place": self.place, "entrant": self.entrant, "name": self.name,
                     "match_points": decimal_json(Decimal(self.match_points)),
                     "difference": decimal_json(self.difference),
                     "points": decimal_json(Decimal(self.points)),
                     "rounds": [r.to_json() for r in self.rounds],
                     "explanation": list(self.explanation)}
        if self.boards is not None and self.percentage is not None:
            out |= {"boards": self.boards, "percentage": decimal_json(self.percentage)}
        return out


class _Row(Protocol):
    def to_json(self) -> Json: ...


#: A row of standings: a free-deal event's ``Row``, a duplicate one's ``BoardRow``.
R = TypeVar("R", bound=_Row)


@dataclass(frozen=True)
class Ranking(Generic[R]):
    """Rows best first; ``provisional`` while a table still plays."""

    provisional: bool
    rows: tuple[R, ...]

    def to_json(self) -> Json:
        return {"provisional": self.provisional, "rows": [r.to_json() for r in self.rows]}


#: A free-deal event's standings.
Standings = Ranking[Row]


def decimal_json(value: Decimal) -> int | float:
    """A difference in JSON: a whole number as an integer, else a number with one decimal."""
    return int(value) if value == value.to_integral_value() else float(value)


def signed(value: Decimal | int) -> Figure:
    """A difference as people write it: ``+12``, ``-3.5``, ``0``."""
    number = Decimal(value)
    text = str(int(number)) if number == number.to_integral_value() else str(number)
    return Figure(f"+{text}" if number > 0 else text, number, sign=True)


# -- one table -----------------------------------------------------------------------------------


def match_points(totals: Sequence[int]) -> list[int]:
    """Match points by column: with ``c`` columns the ranks score ``2(c-1), 2(c-2) ... 0``
    (two: 2/0, three: 4/2/0, four: 6/4/2/0); tied columns share the points of the ranks they
    cover, which always comes out whole (a two-column draw: 1 each). That is 2 for every
    other column beaten and 1 for every tie, which a duplicate board counts across a room."""
    level = Counter(totals)
    below: dict[int, int] = {}
    running = 0
    for total in sorted(level):
        below[total] = running
        running += level[total]
    return [2 * below[t] + level[t] - 1 for t in totals]


def differences(totals: Sequence[int]) -> list[Decimal]:
    """Own total minus the opponents' (two columns), or minus the table's average to one
    decimal, half up (more columns)."""
    if len(totals) == 2:
        return [Decimal(totals[0] - totals[1]), Decimal(totals[1] - totals[0])]
    mean = Decimal(sum(totals)) / Decimal(len(totals))
    return [(Decimal(t) - mean).quantize(_TENTH, rounding=ROUND_HALF_UP) for t in totals]


# -- the standings --------------------------------------------------------------------------------


@dataclass
class _Sums:
    match_points: int | Decimal = 0
    difference: Decimal = Decimal(0)
    points: int | Decimal = 0
    #: Averaged sums' exact values (match points, difference, points), which rank; the
    #: fields above then show them to one decimal.
    exact: tuple[Fraction, Fraction, Fraction] | None = None

    def averaged(self, count: int) -> _Sums:
        """The sums divided by ``count``: shown to one decimal, half up, and kept exact to
        rank by (3.25 and 3.33 both show 3.3, and 3.33 is ahead)."""
        values = (self.match_points, self.difference, self.points)
        match_points, difference, points = (
            (Decimal(value) / count).quantize(_TENTH, rounding=ROUND_HALF_UP)
            for value in values)
        exact = tuple(Fraction(value) / count for value in values)
        return _Sums(match_points, difference, points, (exact[0], exact[1], exact[2]))

    def ranked(self) -> tuple[Fraction | Decimal, Fraction | Decimal, Fraction | Decimal]:
        """The values that rank: the exact averages, or the sums as they are."""
        if self.exact is not None:
            return self.exact
        return (Decimal(self.match_points), self.difference, Decimal(self.points))


def round_entries(n: int, results: Sequence[TableResult], byes: Mapping[int, Sequence[int]],
                  columns: int = 2) -> dict[int, tuple[RoundEntry, ...]]:
    """What every round gave each of ``n`` entrants, round by round (see ``standings``), without
    ranking them: a duplicate event's rows keep their rounds but take their order from the
    boards."""
    entries, _meetings = _entries(n, results, byes, columns)
    return {e: tuple(sorted(items, key=lambda entry: entry.round))
            for e, items in entries.items()}


def _entries(n: int, results: Sequence[TableResult], byes: Mapping[int, Sequence[int]],
             columns: int) -> tuple[dict[int, list[RoundEntry]], dict[tuple[int, int], int]]:
    """Each entrant's rounds (tables by round and table, then byes), and the meeting points
    ``(a, b) -> points a took from b`` of those who sat on opposite columns."""
    if columns < 2:
        raise ValueError(f"a table has two or more columns, not {columns}")
    entries: dict[int, list[RoundEntry]] = defaultdict(list)
    meetings: dict[tuple[int, int], int] = defaultdict(int)
    credited: set[tuple[int, int]] = set()

    def credit(entrant: int, round_: int) -> None:
        if not 0 <= entrant < n:
            raise ValueError(f"round {round_}: entrant {entrant} is not on the roster")
        if (entrant, round_) in credited:
            raise ValueError(f"round {round_}: entrant {entrant} is credited twice")
        credited.add((entrant, round_))

    for result in sorted(results, key=lambda r: (r.round, r.table)):
        mps, diffs = match_points(result.totals), differences(result.totals)
        for c, members in enumerate(result.columns):
            others = tuple(e for d, m in enumerate(result.columns) if d != c for e in m)
            for entrant in members:
                credit(entrant, result.round)
                partners = tuple(e for e in members if e != entrant)
                entries[entrant].append(RoundEntry(
                    result.round, result.table, c, partners, others, result.totals, mps[c],
                    diffs[c], result.totals[c], result.state))
                for d, opponents in enumerate(result.columns):
                    if d == c:
                        continue
                    gained = _meeting_points(result.totals[c], result.totals[d])
                    for opponent in opponents:
                        meetings[(entrant, opponent)] += gained
    average = columns - 1  # a bye: an average table of the event, at every moment
    for round_, on_bye in sorted(byes.items()):
        for entrant in on_bye:
            credit(entrant, round_)
            entries[entrant].append(
                RoundEntry(round_, None, None, (), (), (), average, Decimal(0), 0, "bye"))
    return entries, meetings


def standings(entrants: Sequence[str], results: Sequence[TableResult],
              byes: Mapping[int, Sequence[int]],
              scoring: Scoring = "match_points", columns: int = 2,
              averaged: Mapping[int, int] | None = None, explained: bool = True,
              among: Sequence[int] | None = None) -> Standings:
    """The standings of an event from its tables' results and its byes (round -> entrants).
    ``columns``: how many score columns each table of the event has, which is what a bye is
    worth (``columns - 1`` match points, an average table). ``averaged`` (a club's season
    counting ``average``): each entrant's sums are divided by their number there (their
    evenings) before anyone is placed, and a line says so. ``explained=False`` leaves every
    row's sentences out (the same places and sums, for a reader who shows no explanation:
    they are half the work). ``among``: the entrants ranked (by default all; an entrant the
    organiser removed has no row)."""
    n = len(entrants)
    entries, meetings = _entries(n, results, byes, columns)

    ranked = range(n) if among is None else among
    sums = {e: _Sums() for e in ranked}
    for entrant, items in entries.items():
        if entrant not in sums:
            continue  # not ranked (removed from the roster)
        for entry in items:
            sums[entrant].match_points += entry.match_points
            sums[entrant].difference += entry.difference
            sums[entrant].points += entry.points
    for entrant, count in (averaged or {}).items():
        if count and entrant in sums:
            sums[entrant] = sums[entrant].averaged(count)

    order, shared = _order(ranked, sums, meetings, scoring)
    places = place_numbers(order)
    flat = [e for level in order for e in level]
    keys = {e: _key(sums[e], scoring) for e in flat}
    tied: dict[tuple[Fraction | Decimal, ...], list[int]] = defaultdict(list)
    sharing: dict[int, list[int]] = defaultdict(list)
    for entrant in flat:
        tied[keys[entrant]].append(entrant)
        sharing[places[entrant]].append(entrant)
    rows = []
    for entrant in flat:
        items = sorted(entries.get(entrant, []), key=lambda entry: entry.round)
        total = sums[entrant]
        if not explained:
            rows.append(Row(places[entrant], entrant, total.match_points, total.difference,
                            total.points, tuple(items), (), entrants[entrant]))
            continue
        lines = [_entry_line(entry, entrants) for entry in items]
        if averaged and averaged.get(entrant):
            total = sums[entrant]
            lines.append(Text(
                "averaged over {n} evenings: match points {match_points}, difference "
                "{difference}, points {points}", n=averaged[entrant],
                match_points=str(total.match_points), difference=signed(total.difference),
                points=str(total.points)))
        lines += _place_lines(entrant, flat, places, sums, meetings, shared,
                              entrants, scoring, tied[keys[entrant]],
                              sharing[places[entrant]])
        total = sums[entrant]
        rows.append(Row(places[entrant], entrant, total.match_points, total.difference,
                        total.points, tuple(items), tuple(lines),
                        entrants[entrant]))
    provisional = any(r.state == "playing" for r in results)
    return Standings(provisional, tuple(rows))


def place_numbers(levels: Sequence[Sequence[int]]) -> dict[int, int]:
    """Each entrant's place from the levels best first: those of a level share it, and the
    next level's place skips them (1, 1, 3)."""
    places: dict[int, int] = {}
    ahead = 0
    for level in levels:
        for entrant in level:
            places[entrant] = ahead + 1
        ahead += len(level)
    return places


def _meeting_points(own: int, other: int) -> int:
    return 2 if own > other else 1 if own == other else 0


def _key(sums: _Sums, scoring: Scoring) -> tuple[Fraction | Decimal, ...]:
    match_points, difference, points = sums.ranked()
    if scoring == "difference":
        return (difference, points)
    return (match_points, difference, points)


def _order(ranked: Sequence[int], sums: Mapping[int, _Sums],
           meetings: Mapping[tuple[int, int], int],
           scoring: Scoring) -> tuple[list[list[int]], dict[int, str]]:
    """The entrants best first, in levels that share a place (in roster order within); and
    for every entrant in a shared level, why: ``never_met`` or ``not_separated``."""
    by_key: dict[tuple[Fraction | Decimal, ...], list[int]] = defaultdict(list)
    for entrant in ranked:
        by_key[_key(sums[entrant], scoring)].append(entrant)
    levels: list[list[int]] = []
    shared: dict[int, str] = {}
    for key in sorted(by_key, reverse=True):
        group = by_key[key]
        if len(group) == 1:
            levels.append(group)
            continue
        for level in _by_meetings(group, meetings):
            levels.append(level)
            if len(level) > 1:
                met = any((a, b) in meetings for a in level for b in level if a != b)
                for entrant in level:
                    shared[entrant] = "not_separated" if met else "never_met"
    return levels, shared


def _meeting_score(entrant: int, group: Sequence[int],
                   meetings: Mapping[tuple[int, int], int]) -> int:
    return sum(meetings.get((entrant, other), 0) for other in group if other != entrant)


def _by_meetings(group: list[int], meetings: Mapping[tuple[int, int], int]) -> list[list[int]]:
    """A tied group in levels by the meetings among them (see the module's docstring)."""
    score = {e: _meeting_score(e, group, meetings) for e in group}
    reach = {e: score[e] + 2 * sum(1 for o in group if o != e and (e, o) not in meetings)
             for e in group}
    ordered = sorted(group, key=lambda e: (-score[e], e))
    best_below = [0] * (len(ordered) + 1)
    for i in range(len(ordered) - 1, -1, -1):
        best_below[i] = max(best_below[i + 1], reach[ordered[i]])
    levels: list[list[int]] = [[ordered[0]]]
    for i in range(1, len(ordered)):
        if score[ordered[i - 1]] > best_below[i]:
            levels.append([])
        levels[-1].append(ordered[i])
    return [sorted(level) for level in levels]


# -- the sentences --------------------------------------------------------------------------------


#: The most others a shared place's sentence names (the standings list them all).
NAMED_MATES = 5


def _names(entrants: Sequence[str], who: Sequence[int]) -> str:
    return ", ".join(entrants[e] for e in who)


def _entry_line(entry: RoundEntry, entrants: Sequence[str]) -> Text:
    """A round's sentence: the table's (``_round_text``), or the bye's."""
    if entry.table is None:
        return Text("round {round}: a bye, scored as an average table: match points "
                    "{match_points}, difference 0, points 0", round=entry.round,
                    match_points=entry.match_points)
    return _round_text(entry, _names(entrants, entry.partners))


@functools.lru_cache(maxsize=16384)
def _round_text(entry: RoundEntry, partners: str) -> Text:
    """One round's sentence: the same entry says the same each time the standings are made
    again (a hand at one table leaves every other table's lines as they were)."""
    assert entry.column is not None
    own = entry.totals[entry.column]
    others = ", ".join(str(t) for c, t in enumerate(entry.totals) if c != entry.column)
    values: dict[str, object] = {
        "round": entry.round, "table": entry.table, "own": own, "others": others,
        "match_points": entry.match_points, "difference": signed(entry.difference),
        "points": entry.points}
    if entry.partners:
        line = Text("round {round}, table {table}, with {partners}: {own} against {others}; "
                    "match points {match_points}, difference {difference}, points {points}",
                    partners=partners, **values)
    else:
        line = Text("round {round}, table {table}: {own} against {others}; match points "
                    "{match_points}, difference {difference}, points {points}", **values)
    if entry.state == "playing":
        return Text.joined([line, Text("still playing: counted as it stands")])
    if entry.state == "closed":
        return Text.joined([line, Text("closed before the end: counted as it stood")])
    return line


def _decider(a: int, b: int, sums: Mapping[int, _Sums], meetings: Mapping[tuple[int, int], int],
             group: Sequence[int], scoring: Scoring) -> tuple[str, str, str]:
    """The first criterion on which ``a`` and ``b`` differ, and their values on it."""
    x, y = sums[a].ranked(), sums[b].ranked()
    if scoring == "match_points" and x[0] != y[0]:
        return ("match_points", *_apart(x[0], y[0], str))
    if x[1] != y[1]:
        return ("difference", *_apart(x[1], y[1], signed))
    if x[2] != y[2]:
        return ("points", *_apart(x[2], y[2], str))
    return ("meetings", str(_meeting_score(a, group, meetings)),
            str(_meeting_score(b, group, meetings)))


#: The most decimals a sentence gives two averages that one decimal shows alike.
_MOST_DECIMALS = 6


def _apart(x: Fraction | Decimal, y: Fraction | Decimal,
           say: Callable[[Decimal], str]) -> tuple[str, str]:
    """Two different values as a sentence says them: a sum as it is; an average to one
    decimal, or to as many more as it takes to tell it from the other (3.25 to 3.33, not
    3.3 to 3.3), half up."""
    if isinstance(x, Decimal) and isinstance(y, Decimal):
        return say(x), say(y)
    def rounded(value: Fraction | Decimal, decimals: int) -> str:
        exact = Fraction(value)
        return say((Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
            Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP))

    decimals = 1
    while decimals < _MOST_DECIMALS and rounded(x, decimals) == rounded(y, decimals):
        decimals += 1
    return rounded(x, decimals), rounded(y, decimals)


def _place_lines(entrant: int, flat: Sequence[int], places: Mapping[int, int],
                 sums: Mapping[int, _Sums], meetings: Mapping[tuple[int, int], int],
                 shared: Mapping[int, str], entrants: Sequence[str], scoring: Scoring,
                 tied: Sequence[int], sharing: Sequence[int]) -> list[Text]:
    """How the place was reached: against the neighbour above and below (``tied``: those
    level with the entrant before their meetings), and who shares it (``sharing``)."""
    lines = neighbour_lines(entrant, flat, places, len(sharing), entrants,
                            lambda a, b: _decider(a, b, sums, meetings, tied, scoring))
    if entrant in shared:
        criteria = (Text("match points, difference and points") if scoring == "match_points"
                    else Text("difference and points"))
        reason = (Text("they never met") if shared[entrant] == "never_met"
                  else Text("their meetings do not separate them"))
        lines.append(shared_line(entrant, places[entrant], sharing, entrants, criteria, reason))
    return lines


def neighbour_lines(entrant: int, flat: Sequence[int], places: Mapping[int, int],
                    sharing: int, entrants: Sequence[str],
                    decide: Callable[[int, int], tuple[str, str, str]]) -> list[Text]:
    """How ``entrant`` stands against the row above its place and the row below it
    (``sharing``: how many share the place): ``decide(a, b)`` names the first criterion on
    which ``a`` and ``b`` differ (a key of ``CRITERIA``) and their values on it."""
    first = places[entrant] - 1  # the place counts the rows ahead
    above = flat[first - 1] if first > 0 else None
    after = first + sharing
    below = flat[after] if after < len(flat) else None
    lines: list[Text] = []
    if above is not None:
        criterion, theirs, mine = decide(above, entrant)
        lines.append(Text("behind {name} on {criterion}: {mine} to {theirs}",
                          name=entrants[above], criterion=CRITERIA[criterion], mine=mine,
                          theirs=theirs))
    if below is not None:
        criterion, mine, theirs = decide(entrant, below)
        lines.append(Text("ahead of {name} on {criterion}: {mine} to {theirs}",
                          name=entrants[below], criterion=CRITERIA[criterion], mine=mine,
                          theirs=theirs))
    return lines


def shared_line(entrant: int, place: int, sharing: Sequence[int], entrants: Sequence[str],
                criteria: Text, reason: Text) -> Text:
    """Who shares ``entrant``'s place, on which ``criteria`` they are level, and why the
    rest does not separate them."""
    # The first few others (the sentence names at most ``NAMED_MATES``) and how many there
    # are: a place shared by many (a field's hundreds level before a board is complete) costs
    # its rows a few names each, so the standings grow with their rows, not with the square
    # of a tie.
    others = len(sharing) - 1
    mates = list(islice((e for e in sharing if e != entrant), NAMED_MATES))
    names: str = _names(entrants, mates)
    if others > NAMED_MATES:
        names = Text.counted("{names} and {n} other", "{names} and {n} others",
                             others - NAMED_MATES, names=names)
    return Text("place {place} shared with {names}: level on {criteria}, and {reason}",
                place=place, names=names, criteria=criteria, reason=reason)
