"""A game: its players and seats, the dealer's rotation, running totals, the end and the
winners (rulebook §0, §2.6 R10, R9).

A game is set up once (variant, options, players, first dealer); everything else is derived
from the results of its hands in order.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .core.errors import Problem, ProblemList, RecordInvalid
from .core.results import HandResult
from .core.text import Text, name_key
from .duplicate.boards import Board
from .hand.sides import seat_name
from .mitigatti.settlement import STARTING_MARCA, Ledger, ledger, parse_money
from .options import resolve_options
from .variant import Variant

MAX_NAME = 60


@dataclass(frozen=True)
class Column:
    """A score-sheet column: a player, or a pair."""

    key: str
    label: str
    seats: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "seats": list(self.seats)}


@dataclass(frozen=True)
class GameSetup:
    variant: Variant
    options: Mapping[str, object]
    players: tuple[str, ...]
    first_dealer: int
    #: A duplicate table's boards, in the order it plays them (docs/events.md#duplicate): hand
    #: ``n`` is ``boards[n - 1]``, dealt by that board's dealer, and the game lasts exactly
    #: these boards. Empty for a game of free deals.
    boards: tuple[Board, ...] = ()

    def seat_names(self) -> list[str]:
        """Names by seat. With dummies (``gatti-2``) the two players sit at seats 0 and 1 and
        their dummies opposite them, at seats 2 and 3, each named after its player by a
        ``Text`` ("Anna's dummy"), which a renderer says in its language ("morto di Anna")."""
        if self.variant.partnership == "dummies":
            a, b = self.players
            return [a, b, Text("{player}'s dummy", player=a), Text("{player}'s dummy", player=b)]
        return list(self.players)

    def columns(self) -> list[Column]:
        names = self.seat_names()
        if self.variant.columns_per_seat:
            return [Column(str(s), names[s], (s,)) for s in range(self.variant.seats)]
        fixed = self.variant.fixed_sides() or ()
        if self.variant.partnership == "dummies":
            return [Column(str(i), self.players[i], seats) for i, seats in enumerate(fixed)]
        return [Column(str(i), " & ".join(names[s] for s in seats), seats)
                for i, seats in enumerate(fixed)]

    def dealer_of(self, hand_number: int) -> int:
        """The dealer of hand ``hand_number`` (from 1): the deal passes to the next seat, through
        every seat, dummies included (R9); at a duplicate table, the dealer of the hand's
        board."""
        board = self.board_of(hand_number)
        if board is not None:
            return board.dealer
        return (self.first_dealer + hand_number - 1) % self.variant.seats

    def board_of(self, hand_number: int) -> Board | None:
        """The board hand ``hand_number`` (from 1) plays at a duplicate table, if any."""
        if 1 <= hand_number <= len(self.boards):
            return self.boards[hand_number - 1]
        return None


#: Unicode categories a name may not hold: control characters (C0, DEL, C1, NUL among them),
#: which no sheet can print and PostgreSQL cannot even store (NUL), and the line and paragraph
#: separators. Format characters stay: right-to-left marks and joiners are parts of real
#: names.
_NOT_IN_NAMES = frozenset({"Cc", "Zl", "Zp"})


def _control_character(name: str) -> str | None:
    """The first character of ``name`` that a name may not hold, if any."""
    return next((ch for ch in name if unicodedata.category(ch) in _NOT_IN_NAMES), None)


def validate_game_setup(variant: Variant, raw_options: Mapping[str, object] | None,
                        players: Sequence[object], first_dealer: object,
                        boards: Sequence[Board] = ()) -> GameSetup:
    """A new game's setup, or ``RecordInvalid`` listing every problem. ``boards``: a
    duplicate table's boards in order (the event's movement fixes them)."""
    problems = ProblemList()
    options: Mapping[str, object] = {}
    try:
        options = resolve_options(variant, raw_options)
    except RecordInvalid as exc:
        problems.extend(exc.problems)
    names: list[str] = []
    if not isinstance(players, Sequence) or isinstance(players, str):
        problems.add("players", "invalid_type", Text('players must be a list of names'))
    else:
        if len(players) != variant.players:
            problems.add("players", "wrong_player_count",
                         Text("{id} is played by {players} players, not {n}", id=variant.id,
                              players=variant.players, n=len(players)), variant.rules_section)
        named: list[int] = []  # the index of each name kept
        for i, name in enumerate(players):
            if not isinstance(name, str) or not name_key(name):
                problems.add(f"players[{i}]", "invalid_name", Text('a player needs a name'))
            elif len(name.strip()) > MAX_NAME:
                problems.add(f"players[{i}]", "name_too_long",
                             Text('a name has at most {MAX_NAME} characters', MAX_NAME=MAX_NAME))
            elif (bad := _control_character(name)) is not None:
                problems.add(f"players[{i}]", "control_character",
                             Text("a name is printable text: it holds the control "
                                  "character {code}", code=f"U+{ord(bad):04X}"))
            else:
                names.append(name.strip())
                named.append(i)
        # The same person whatever Unicode form, width, case or invisible characters the
        # name was typed with.
        folded = [name_key(n) for n in names]
        for k, n in enumerate(folded):
            if n in folded[:k]:
                problems.add(f"players[{named[k]}]", "duplicate_name",
                             Text("two players are called {names}; the sheet could not tell them "
                                  "apart", names=repr(names[k])))
    dealer = 0
    if first_dealer is not None:
        if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not (
                0 <= first_dealer < variant.seats):
            problems.add("first_dealer", "out_of_range",
                         Text('first_dealer is a seat from 0 to {n}', n=variant.seats - 1), "§0")
        else:
            dealer = first_dealer
    problems.raise_if_any()
    return GameSetup(variant, dict(options), tuple(names), dealer, tuple(boards))


@dataclass(frozen=True)
class GameSummary:
    columns: tuple[Column, ...]
    totals: tuple[tuple[str, int], ...]
    running: tuple[tuple[tuple[str, int], ...], ...]
    finished: bool
    winners: tuple[str, ...]
    next_dealer: int | None
    hands_played: int
    ended_by: str | None = None
    target: int | None = None
    ledger: Ledger | None = None
    #: Hands dealt (thrown-in deals do not count), to go on from this summary.
    dealt: int = 0

    def column_points(self) -> tuple[int, ...]:
        """Each column's result, in column order: its total, or in a game settled in marca
        the marca won (or lost) over the evening, from the balances."""
        if self.ledger is not None:
            balances = dict(self.ledger.balances)
            return tuple(balances.get(c.key, STARTING_MARCA) - STARTING_MARCA
                         for c in self.columns)
        totals = dict(self.totals)
        return tuple(totals.get(c.key, 0) for c in self.columns)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "columns": [c.to_json() for c in self.columns],
            "totals": dict(self.totals),
            "status": "finished" if self.finished else "in_progress",
            "winners": list(self.winners),
            "next_dealer": self.next_dealer,
            "hands_played": self.hands_played,
        }
        if self.target is not None:
            out["target"] = self.target
        if self.ended_by is not None:
            out["ended_by"] = self.ended_by
        if self.ledger is not None:
            out.update(self.ledger.to_json())
        return out


def _rubber_won(totals: dict[str, int], target: int) -> tuple[str, ...]:
    """R12: a column at or past the target wins; when more than one is, the highest wins, and
    equal totals play on."""
    over = {k: v for k, v in totals.items() if v >= target}
    if not over:
        return ()
    best = max(over.values())
    leaders = tuple(k for k, v in over.items() if v == best)
    return leaders if len(leaders) == 1 else ()


def _play_hand_to_target(result: HandResult, totals: dict[str, int],
                         target: int) -> tuple[tuple[str, ...], str | None]:
    """Add one hand to a game played to a target. Its acts (declarations during the first
    trick) count first, one at a time: the first column to reach the target wins at once and
    nothing more of the hand is scored (R13). Otherwise the rest of the hand counts and R12
    decides."""
    counted: dict[str, int] = dict.fromkeys(totals, 0)
    for act in result.acts:
        totals[act.column] += act.points
        counted[act.column] += act.points
        if totals[act.column] >= target:
            return (act.column,), "R13"
    for key, points in result.columns:
        totals[key] += points - counted[key]
    winners = _rubber_won(totals, target)
    return winners, ("R12" if winners else None)


#: How a game with no natural end ends: its scorekeeper says the evening is over.
EVENING_OVER = "evening_over"


def ends_by_evening(variant: Variant) -> bool:
    """Whether a game of ``variant`` has no natural end (no number of hands, no target: a
    Mitigatti evening), so that its scorekeeper ends it ("the evening is over")."""
    return variant.hands_per_game is None and variant.target is None


def game_summary(setup: GameSetup, results: Sequence[HandResult],
                 since: GameSummary | None = None, *, ended: bool = False) -> GameSummary:
    """Totals after each hand, whether the game is over and who won: after its hands, the
    highest total, equal totals sharing (R10); in a game to a target, the first to reach it
    (R12, R13).

    ``since``, when given, is the summary of the hands before ``results``, of a game not yet
    finished: the summary goes on from it, so a game's next hand costs one hand's work
    however long the game. ``game_summary(s, a + b) == game_summary(s, b, game_summary(s,
    a))``. ``ended``: the scorekeeper said the evening is over after these hands (a game
    with no natural end): it is finished, the highest total winning, equal ones sharing."""
    variant = setup.variant
    if since is None:
        columns = tuple(setup.columns())
        totals = {c.key: 0 for c in columns}
        running: list[tuple[tuple[str, int], ...]] = []
        played = dealt = 0
    else:
        if since.finished:
            raise ValueError("a finished game takes no more hands")
        columns, totals = since.columns, dict(since.totals)
        running, played, dealt = list(since.running), since.hands_played, since.dealt
    winners: tuple[str, ...] = ()
    ended_by = None
    target = None if setup.boards else variant.target  # a duplicate table plays its boards
    for result in results:
        if target is not None:
            winners, ended_by = _play_hand_to_target(result, totals, target)
        else:
            for key, points in result.columns:
                totals[key] += points
        running.append(tuple(totals.items()))
        if winners:
            break
    dealt += sum(1 for r in results if "thrown_in" not in r.events)
    played += len(results)
    if setup.boards:
        # Exactly its boards: a board thrown in anyway is played all the same.
        finished = played >= len(setup.boards)
        upcoming = played + 1
    else:
        hands = variant.hands_per_game
        finished = bool(winners) or (hands is not None and dealt >= hands)
        upcoming = dealt + 1
    evening_over = ended and not finished and played > 0
    book = None
    if variant.settles_in_marca:
        value = parse_money(setup.options.get("marca_value"))
        book = ledger(variant.seats, [
            (r.marca(variant.seats), r.pot, _top_scorer(r)) for r in results], value,
            None if since is None else since.ledger, _currency(setup))
    if evening_over:
        finished = True
        scores = (dict(book.balances) if book is not None else totals)
        best = max(scores.values())
        winners = tuple(k for k, v in scores.items() if v == best)
        ended_by = EVENING_OVER
    if finished and not winners:
        best = max(totals.values())
        winners = tuple(k for k, v in totals.items() if v == best)
        ended_by = "boards" if setup.boards else "R10"
    # A deal thrown in ("to the mountain") does not move the deal (§5.2); a board does.
    next_dealer = None if finished else setup.dealer_of(upcoming)
    return GameSummary(columns, tuple(totals.items()), tuple(running), finished, winners,
                       next_dealer, played, ended_by, target, book, dealt)


def _currency(setup: GameSetup) -> str | None:
    currency = setup.options.get("currency")
    return None if currency is None else str(currency)


def _top_scorer(result: HandResult) -> str | None:
    top = dict(result.facts).get("top_scorer")
    return None if top is None else str(top)


def check_next_hand(setup: GameSetup, results: Sequence[HandResult],
                    result: HandResult, summary: GameSummary | None = None) -> list[Problem]:
    """What a game adds to the checks of a hand: a record that stops after the declarations
    stands only when they win the rubber (R13). ``summary``, when given, is the game's after
    ``results``."""
    if "declarations_only" not in result.events:
        return []
    if summary is None:
        summary = game_summary(setup, results)
    after = game_summary(setup, [result], summary)
    if after.finished and after.ended_by == "R13":
        return []
    return [Problem("piles", "hand_not_finished",
                    Text("the record stops after the declarations, but they do not win the "
                         "rubber: give the piles (or the tricks) of the hand"), "R13")]


def later_hands_problems(setup: GameSetup, hands: Sequence[tuple[int, HandResult]],
                         changed: int) -> list[Problem]:
    """After hand ``changed`` (from 1) is corrected, whether every later hand still stands:
    dealt by the seat whose turn it is, not after the game's end, and a record stopping after
    the declarations still winning the rubber. ``hands`` are (dealer, result) in order."""
    problems = []
    summary = game_summary(setup, [r for _, r in hands[:changed]])
    for index in range(changed, len(hands)):
        dealer, result = hands[index]
        field = f"hands[{index + 1}]"
        if summary.finished:
            problems.append(Problem(field, "after_game_end",
                                    Text('the game would end before hand {n}', n=index + 1), "R10"))
            break
        if summary.next_dealer is not None and dealer != summary.next_dealer:  # not finished
            problems.append(Problem(field, "wrong_dealer",
                                    Text("hand {n} would be dealt by {next_dealer}, not {dealer}",
                                         n=index + 1,
                                         next_dealer=seat_name(summary.next_dealer),
                                         dealer=seat_name(dealer)), "§0"))
        problems.extend(p.at(field) for p in check_next_hand(setup, (), result, summary))
        summary = game_summary(setup, [result], summary)
    return problems
