"""Board scores (docs/events.md#duplicate, #scoring-a-board, #standings): every table's result
on a board compared with those of the entrants who held the same cards, the travellers that
list them, and the standings by average percentage.

- **What is compared.** A board's result at a table is the column each seat received for that
  hand (``board_columns``: the game's score-sheet columns; Mitigatti's marca). Column ``c`` is
  compared with column ``c`` at the other tables: a seat with a seat in the games with a
  column per player, a side with a side in pair games (column ``c`` is the side of seat
  ``c``).
- **Matchpoints**: 2 for every other result a result beats and 1 for every one it ties (the
  standings' match points of one table, across the room), out of a top of ``2·(n − 1)`` for
  ``n`` results, shown as a percentage of the top; a board played at one table only scores
  50 %.
- **Difference**: the result minus the average of the other results of its column, to one
  decimal (half up); 0 for a board played at one table.
- **Standings** rank by the average percentage over the boards played (``difference``: by the
  sum of differences), then by the sum of the column points; those level on both share the
  place (1, 1, 3). Each row explains every board and its place in words, as the free-deal
  standings do (``events.standings``' neighbour and shared-place lines).
"""

from __future__ import annotations

import functools
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any, Literal, Self

from ..core.results import HandResult
from ..core.text import Figure, Text
from ..events.standings import (
    Ranking,
    decimal_json,
    match_points,
    neighbour_lines,
    place_numbers,
    shared_line,
    signed,
)
from ..variant import Variant
from .movement import TablePlan

BoardScoring = Literal["matchpoints", "difference"]
Json = dict[str, Any]

_TENTH = Decimal("0.1")
_HUNDREDTH = Decimal("0.01")


def board_columns(variant: Variant, result: HandResult) -> tuple[int, ...]:
    """What a hand gave each column, in the columns' order: the score sheet's (a player, or a
    pair), or each seat's marca where the game settles in marca (Mitigatti)."""
    if variant.settles_in_marca:
        marca = result.marca(variant.seats)
        return tuple(marca[str(seat)] for seat in range(variant.seats))
    return tuple(points for _, points in sorted(result.columns, key=lambda c: int(c[0])))


@dataclass(frozen=True)
class BoardPlay:
    """One table's result on one board: where and when (the round, the table, its game and
    the hand that was the board), who sat where (``seats``: names by seat), the entrants
    credited each column (``entrants``) and each column's points (``columns``)."""

    board: int
    round: int
    table: int
    game: str
    hand: int
    seats: tuple[str, ...]
    entrants: tuple[tuple[int, ...], ...]
    columns: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.entrants) != len(self.columns) or not self.columns:
            raise ValueError(f"board {self.board}, round {self.round}, table {self.table}: "
                             f"{len(self.entrants)} columns of entrants and "
                             f"{len(self.columns)} of points")


def table_play(table: TablePlan, round_: int, board: int, game: str, hand: int,
               seat_names: Sequence[str], columns: Sequence[int]) -> BoardPlay:
    """A table's result on a board as its round's plan seated it: column ``c`` is credited
    to the entrant at seat ``c`` (a player, or in pair games the pair whose side seat ``c``
    is on: the lowest seat of side ``c`` is ``c``). ``seat_names``: who sat where, as the
    traveller says it; ``columns``: ``board_columns`` of the hand."""
    entrants = []
    for c in range(len(columns)):
        entrant = table.seats[c]
        if entrant is None:
            raise ValueError(f"round {round_}, table {table.table}: no entrant at seat {c}")
        entrants.append((entrant,))
    return BoardPlay(board, round_, table.table, game, hand, tuple(seat_names),
                     tuple(entrants), tuple(columns))


@dataclass(frozen=True)
class ScoredPlay:
    """A board's result at one table, scored against the other tables: by column, its
    matchpoints out of ``tops``, the results it beat and tied, its percentage, its difference
    and the sum of the other results (``others``)."""

    play: BoardPlay
    matchpoints: tuple[int, ...]
    beaten: tuple[int, ...]
    tied: tuple[int, ...]
    tops: tuple[int, ...]
    percentages: tuple[Fraction, ...]
    differences: tuple[Decimal, ...]
    others: tuple[int, ...]

    def to_json(self, scoring: BoardScoring = "matchpoints") -> Json:
        """A traveller's row (docs/events.md#shapes): the columns by the seat that names them."""
        play = self.play

        def by_column(values: Sequence[object]) -> dict[str, object]:
            return {str(c): v for c, v in enumerate(values)}

        out: Json = {"round": play.round, "table": play.table, "game": play.game,
                     "hand": play.hand, "seats": list(play.seats),
                     "columns": by_column(play.columns),
                     "matchpoints": by_column(self.matchpoints),
                     "percentage": by_column([decimal_json(percent(p))
                                              for p in self.percentages])}
        if scoring == "difference":
            out["difference"] = by_column([decimal_json(d) for d in self.differences])
        return out


def _rounded(value: Fraction, step: Decimal) -> Decimal:
    """``value`` to the ``step`` (0.1, 0.01), half up."""
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        step, rounding=ROUND_HALF_UP)


def percent(value: Fraction) -> Decimal:
    """A percentage to two decimals, half up."""
    return _rounded(value, _HUNDREDTH)


def _written(value: Fraction, step: Decimal) -> str:
    """A number as people write it: whole, or to its ``step`` without trailing zeros."""
    number = _rounded(value, step).normalize()
    return Figure(f"{number:f}", number)


def _percent_figure(written: str) -> Figure:
    """A percentage the way a sentence writes it: ``83.33 %``."""
    return Figure(f"{written} %", Decimal(written), percent=True)


def _percent_text(value: Fraction) -> str:
    return _written(value, _HUNDREDTH)


def _tenths(numerator: int, denominator: int) -> Decimal:
    """``numerator / denominator`` (``denominator`` > 0) to one decimal, half away from zero
    (``ROUND_HALF_UP``), in whole numbers only."""
    tenths = (20 * abs(numerator) + denominator) // (2 * denominator)
    return Decimal(tenths if numerator >= 0 else -tenths).scaleb(-1)


@functools.lru_cache(maxsize=4096)
def _percentage(matchpoints: int, top: int) -> Fraction:
    """Matchpoints as a percentage of the top (50 % with no other result to compare)."""
    return Fraction(100 * matchpoints, top) if top else Fraction(50)


def score_board(plays: Sequence[BoardPlay]) -> tuple[ScoredPlay, ...]:
    """Every table's result on one board, scored against the others (see the module)."""
    if not plays:
        return ()
    numbers = {p.board for p in plays}
    widths = {len(p.columns) for p in plays}
    if len(numbers) != 1 or len(widths) != 1:
        raise ValueError(f"one board's plays, each with as many columns: boards {numbers}, "
                         f"columns {widths}")
    n = len(plays)
    width = widths.pop()
    top = 2 * (n - 1)
    by_column = [[p.columns[c] for p in plays] for c in range(width)]
    mps = [match_points(results) for results in by_column]
    counts = [Counter(results) for results in by_column]
    sums = [sum(results) for results in by_column]
    out = []
    for i, play in enumerate(plays):
        ties = tuple(counts[c][play.columns[c]] - 1 for c in range(width))
        matchpoints = tuple(mps[c][i] for c in range(width))
        others = tuple(sums[c] - play.columns[c] for c in range(width))
        out.append(ScoredPlay(
            play, matchpoints,
            tuple((mp - t) // 2 for mp, t in zip(matchpoints, ties, strict=True)), ties,
            (top,) * width, tuple(_percentage(mp, top) for mp in matchpoints),
            tuple(_tenths(own * (n - 1) - rest, n - 1) if n > 1 else Decimal(0)
                  for own, rest in zip(play.columns, others, strict=True)),
            others))
    return tuple(out)


@dataclass(frozen=True)
class Traveller:
    """Every table's result on one board (``GET /events/{id}/boards/{b}``), in round and
    table order, and the board's top: the most matchpoints a result could earn."""

    board: int
    top: int
    results: tuple[ScoredPlay, ...]

    def to_json(self, scoring: BoardScoring = "matchpoints") -> Json:
        return {"board": self.board, "top": self.top,
                "results": [r.to_json(scoring) for r in self.results]}


def traveller(board: int, plays: Sequence[BoardPlay]) -> Traveller:
    """The traveller of ``board`` from its plays (others' plays are left out)."""
    mine = sorted((p for p in plays if p.board == board), key=lambda p: (p.round, p.table))
    return Traveller(board, 2 * (len(mine) - 1) if mine else 0, score_board(mine))


def travellers(plays: Sequence[BoardPlay]) -> tuple[Traveller, ...]:
    """Every board's traveller, by board number."""
    return tuple(traveller(b, plays) for b in sorted({p.board for p in plays}))


@dataclass(frozen=True)
class ColumnScore:
    """One column's result on a board, scored against the room: its points, its matchpoints
    out of the board's top, its percentage and its difference."""

    board: int
    column: int
    points: int
    matchpoints: int
    top: int
    percentage: Fraction
    difference: Decimal

    @classmethod
    def of(cls, scored: ScoredPlay, column: int, **more: Any) -> Self:
        """Column ``column`` of a scored play, with what the subclass adds (``more``)."""
        return cls(scored.play.board, column, scored.play.columns[column],
                   scored.matchpoints[column], scored.tops[column],
                   scored.percentages[column], scored.differences[column], **more)


@dataclass(frozen=True)
class BoardTop(ColumnScore):
    """The best result of one column on a board across the room (the wall's "top"), and the
    plays that made it (several when they tie)."""

    plays: tuple[BoardPlay, ...]


def board_tops(plays: Sequence[BoardPlay]) -> tuple[BoardTop, ...]:
    """Each column's best result on one board, from the board's plays, in column order (none
    without a play). The board's scores are kept for its plays as they stand, so the wall's
    poll after a hand elsewhere scores nothing again."""
    if not plays:
        return ()
    scored = _scored(tuple(sorted(plays, key=lambda p: (p.round, p.table))))
    out = []
    for c in range(len(scored[0].play.columns)):
        best = max(s.play.columns[c] for s in scored)
        tied = [s for s in scored if s.play.columns[c] == best]
        out.append(BoardTop.of(tied[0], c, plays=tuple(s.play for s in tied)))
    return tuple(out)


@functools.lru_cache(maxsize=512)
def _scored(plays: tuple[BoardPlay, ...]) -> tuple[ScoredPlay, ...]:
    return score_board(plays)


# -- the standings ------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardEntry(ColumnScore):
    """What one board gave one entrant: its column's score, at the round and table it was
    played."""

    round: int
    table: int

    def to_json(self) -> Json:
        return {"board": self.board, "round": self.round, "table": self.table,
                "column": self.column, "points": self.points,
                "matchpoints": self.matchpoints, "top": self.top,
                "percentage": decimal_json(percent(self.percentage)),
                "difference": decimal_json(self.difference)}


@dataclass(frozen=True)
class BoardRow:
    """One entrant's place: boards played, average percentage, matchpoints, sum of
    differences and of column points, each board, and the sentences that explain them."""

    place: int
    entrant: int
    name: str
    boards: int
    percentage: Fraction
    match_points: int
    difference: Decimal
    points: int
    results: tuple[BoardEntry, ...]
    explanation: tuple[Text, ...]

    def to_json(self, *, detail: bool = True) -> Json:
        """The row; without ``detail``, its totals alone (no result of each board, no
        explanation)."""
        out: Json = {"place": self.place, "entrant": self.entrant, "name": self.name,
                     "boards": self.boards, "percentage": decimal_json(percent(self.percentage)),
                     "match_points": self.match_points,
                     "difference": decimal_json(self.difference), "points": self.points}
        if detail:
            out |= {"results": [r.to_json() for r in self.results],
                    "explanation": list(self.explanation)}
        return out


#: A duplicate event's standings: the free-deal standings' shape, with board rows.
BoardStandings = Ranking[BoardRow]


def board_standings(entrants: Sequence[str], plays: Sequence[BoardPlay],
                    scoring: BoardScoring = "matchpoints",
                    provisional: bool = False, *, explained: bool = True) -> BoardStandings:
    """The standings of a duplicate event from every board's plays (see the module). An
    entrant who has played no board yet has 0 boards and 0 %, and says so. Without
    ``explained`` the rows say nothing (a reader that shows places alone: a field's wall)."""
    n = len(entrants)
    entries: dict[int, list[tuple[BoardEntry, Text]]] = defaultdict(list)
    by_board: dict[int, list[BoardPlay]] = defaultdict(list)
    for play in plays:
        by_board[play.board].append(play)
    for board in sorted(by_board):
        ordered = tuple(sorted(by_board[board], key=lambda p: (p.round, p.table)))
        for entrant, entry, line in _board_entries(ordered, scoring, n):
            entries[entrant].append((entry, line))
    totals = {e: _Totals.of([entry for entry, _ in entries.get(e, [])]) for e in range(n)}
    by_key: dict[tuple[Decimal | int, ...], list[int]] = defaultdict(list)
    for entrant in range(n):
        by_key[totals[entrant].key(scoring)].append(entrant)
    levels = [by_key[key] for key in sorted(by_key, reverse=True)]
    places = place_numbers(levels)
    flat = [e for level in levels for e in level]
    level_of = {e: level for level in levels for e in level}

    def decide(a: int, b: int) -> tuple[str, str, str]:
        return totals[a].decider(totals[b], scoring)

    rows = []
    for entrant in flat:
        items = entries.get(entrant, [])  # in board order, as the boards were taken
        total = totals[entrant]
        lines = _row_lines(entrant, items, total, flat, places, level_of[entrant], entrants,
                           decide, scoring) if explained else []
        rows.append(BoardRow(places[entrant], entrant, entrants[entrant], len(items),
                             total.percentage, total.match_points, total.difference,
                             total.points, tuple(e for e, _ in items), tuple(lines)))
    return BoardStandings(provisional, tuple(rows))


def _row_lines(entrant: int, items: Sequence[tuple[BoardEntry, Text]], total: _Totals,
               flat: Sequence[int], places: Mapping[int, int], level: Sequence[int],
               entrants: Sequence[str], decide: Callable[[int, int], tuple[str, str, str]],
               scoring: BoardScoring) -> list[Text]:
    """A row's explanation: each board's sentence, its totals, how it stands against its
    neighbours, and with whom it shares its place."""
    lines = [line for _, line in items] + [total.summary(scoring)]
    lines += neighbour_lines(entrant, flat, places, len(level), entrants, decide)
    if len(level) > 1:
        criteria = (Text("percentage and points") if scoring == "matchpoints"
                    else Text("difference and points"))
        lines.append(shared_line(entrant, places[entrant], level, entrants, criteria,
                                 Text("nothing else separates them")))
    return lines


@functools.lru_cache(maxsize=512)
def _board_entries(plays: tuple[BoardPlay, ...], scoring: BoardScoring, entrants: int
                   ) -> tuple[tuple[int, BoardEntry, Text], ...]:
    """What one board gives each entrant who played it, with its sentence: kept for the
    board's plays as they stand, so that a hand at one table makes only its board's entries
    again when the standings are made after it (``bench/bench_duplicate.py``)."""
    out = []
    seen: set[int] = set()
    for scored in score_board(plays):
        play = scored.play
        for c, members in enumerate(play.entrants):
            entry = BoardEntry.of(scored, c, round=play.round, table=play.table)
            line = _board_line(entry, scored, c, scoring)
            for entrant in members:
                if not 0 <= entrant < entrants:
                    raise ValueError(f"board {play.board}: entrant {entrant} is not on "
                                     f"the roster")
                if entrant in seen:
                    raise ValueError(f"board {play.board}: entrant {entrant} plays it twice")
                seen.add(entrant)
                out.append((entrant, entry, line))
    return tuple(out)


@dataclass(frozen=True)
class _Totals:
    boards: int
    percentage: Fraction
    match_points: int
    difference: Decimal
    points: int
    #: The percentage as the row shows it (two decimals), and as people write it.
    shown: Decimal
    written: str

    @classmethod
    def of(cls, entries: Sequence[BoardEntry]) -> _Totals:
        boards = len(entries)
        if boards:
            # The mean of the boards' percentages, exactly: ``100·mp / top`` a board (50 for
            # a board at one table), over one common denominator.
            common = math.lcm(*(e.top for e in entries if e.top)) or 1
            numerator = sum(100 * e.matchpoints * (common // e.top) if e.top else 50 * common
                            for e in entries)
            average = Fraction(numerator, common * boards)
        else:
            average = Fraction(0)
        shown = percent(average)
        return cls(boards, average, sum(e.matchpoints for e in entries),
                   sum((e.difference for e in entries), Decimal(0)),
                   sum(e.points for e in entries), shown,
                   Figure(f"{shown.normalize():f}", shown.normalize()))

    def key(self, scoring: BoardScoring) -> tuple[Decimal | int, ...]:
        """What ranks the row: the percentage as the row shows it (two decimals: two rows
        that read the same are level on it, and the points decide), or the sum of the
        differences; then the points."""
        first = self.difference if scoring == "difference" else self.shown
        return (first, self.points)

    def decider(self, other: _Totals, scoring: BoardScoring) -> tuple[str, str, str]:
        """The first criterion on which the two differ, and their values on it."""
        if scoring == "matchpoints" and self.shown != other.shown:
            return "percentage", _percent_figure(self.written), _percent_figure(other.written)
        if scoring == "difference" and self.difference != other.difference:
            return "difference", signed(self.difference), signed(other.difference)
        return "points", str(self.points), str(other.points)

    def summary(self, scoring: BoardScoring) -> Text:
        if not self.boards:
            return Text("no board played yet: 0 %, no points")
        if scoring == "difference":
            return Text.counted("{n} board played: difference {difference} in all, points "
                                "{points}", "{n} boards played: difference {difference} in "
                                "all, points {points}", self.boards,
                                difference=signed(self.difference), points=self.points)
        return Text.counted("{n} board played: {percentage} % on average, points {points}",
                            "{n} boards played: {percentage} % on average, points {points}",
                            self.boards, percentage=self.written, points=self.points)


def _board_line(entry: BoardEntry, scored: ScoredPlay, column: int,
                scoring: BoardScoring) -> Text:
    """One board's sentence: what the entrant's column made, and how it compares."""
    count = scored.tops[column] // 2
    worse = count - scored.beaten[column] - scored.tied[column]
    average = (_written(Fraction(scored.others[column], count), _TENTH)
               if count and scoring == "difference" else None)
    return _board_text(entry, scoring, scored.beaten[column], scored.tied[column], worse,
                       count, average)


@functools.lru_cache(maxsize=16384)
def _board_text(entry: BoardEntry, scoring: BoardScoring, beaten: int, tied: int, worse: int,
                compared: int, average: str | None) -> Text:
    """The same board's figures say the same each time the standings are made again (a
    result at one table changes only its board's lines)."""
    where: Mapping[str, object] = {"board": entry.board, "round": entry.round,
                                   "table": entry.table, "own": entry.points}
    if not compared:
        return Text("board {board} (round {round}, table {table}): {own}, the only result "
                    "on the board: 50 %, difference 0", **where)
    if average is not None:
        return Text("board {board} (round {round}, table {table}): {own} against an average "
                    "of {average} at the other tables: difference {difference}",
                    average=average, difference=signed(entry.difference), **where)
    return Text("board {board} (round {round}, table {table}): {own}, better than {beaten}, "
                "level with {tied} and worse than {worse} of the other results: matchpoints "
                "{matchpoints} of {top}, {percentage} %", beaten=beaten, tied=tied,
                worse=worse, matchpoints=entry.matchpoints, top=entry.top,
                percentage=_percent_text(entry.percentage), **where)
