"""An event's setup and its tables (docs/events.md#words, #formats, #bad-input): the roster
checked whole, who sits at which seat of a table's game, and which entrants each score column
of that game credits.

Entrants are numbered in roster order from 0. In the ``individual`` and ``free`` formats an
entrant is a player; in ``pairs`` a fixed pair, whose first player sits at seat 0 or 1 and the
second opposite.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import Problem, ProblemList, RecordInvalid
from ..core.text import Text, name_key
from ..options import resolve_options
from ..variant import Variant
from .seating import (
    FORMATS,
    Format,
    Pairing,
    Seating,
    TableShape,
    check_free_seating,
    format_problems,
    pairing_problems,
    roster_problems,
)
from .standings import Scoring

SCORINGS: tuple[Scoring, ...] = ("match_points", "difference")
#: The longest name an event or an entrant takes: a line on a phone and on a printed sheet.
NAME_MAX = 60
#: The largest roster: forty tables of four, and a few on the bench.
ENTRANTS_MAX = 200
#: The most rounds an event can plan (an evening has 3 to 6; a long tournament 12).
ROUNDS_MAX = 30
SEED_MAX = 2**31 - 1
#: How an event's tables are dealt (docs/events.md#duplicate): each its own free deals, or the
#: same boards at every table.
DEALS = ("free", "duplicate")
#: The most boards a round of a game without a fixed length holds (Ottocento's rubbers,
#: Mitigatti's evenings): eight boards are about an hour and a half at a table.
BOARDS_PER_ROUND_MAX = 8
#: Boards a round of Ottocento plays by default: its games are rubbers, of no fixed length.
OTTOCENTO_BOARDS = 4


#: What the rounds a late arrival missed are worth (docs/events.md#the-door): nothing, or each
#: a bye.
LATE_ROUNDS = ("zero", "bye")


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player, or a fixed pair (``players`` their two names) in the ``pairs`` format.

    Where the roster changes during the event (docs/events.md#the-door): the first round the
    entrant plays (``from_round``: a late arrival's is after round 1), the round from which
    they withdrew (``withdrawn_from``), whether the organiser removed them (a mistaken
    check-in: their number is never used again) and whether they came through the door."""

    name: str
    players: tuple[str, ...] = ()
    from_round: int = 1
    withdrawn_from: int | None = None
    removed: bool = False
    checked_in: bool = False

    def active_in(self, number: int) -> bool:
        """Whether round ``number`` seats the entrant."""
        return (not self.removed and self.from_round <= number
                and (self.withdrawn_from is None or self.withdrawn_from > number))

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name}
        if self.players:
            out["players"] = list(self.players)
        return out


@dataclass(frozen=True, slots=True)
class EventSetup:
    name: str
    variant: Variant
    options: Mapping[str, object]
    format: Format
    pairing: Pairing | None
    scoring: Scoring
    rounds: int | None
    seed: int
    entrants: tuple[Entrant, ...]
    #: ``free`` or ``duplicate`` (docs/events.md#duplicate), and a duplicate round's boards.
    deals: str = "free"
    boards_per_round: int | None = None
    #: The door (docs/events.md#the-door): entrants check in as they arrive, and what the
    #: rounds a late arrival missed are worth.
    checkin: bool = False
    late_rounds: str = "zero"

    @property
    def duplicate(self) -> bool:
        return self.deals == "duplicate"

    @property
    def shape(self) -> TableShape:
        return TableShape.of(self.variant)

    @property
    def table_shape(self) -> TableShape:
        """What a table holds as the seating sees it: its players, or in ``pairs`` its two
        pairs (one a side)."""
        if self.format == "pairs":
            return TableShape(2, (0, 1), ((0,), (1,)))
        return self.shape

    @property
    def columns(self) -> int:
        """How many score columns each table's game has: its sides (two in a game of fixed
        pairs, in ``pairs`` and in ``gatti-2``), or its players when each is on their own.
        What a bye is worth depends on it (``standings``)."""
        return len(self.table_shape.partners)

    def names(self) -> list[str]:
        return [e.name for e in self.entrants]

    def listed(self) -> tuple[int, ...]:
        """The entrants on the roster: all but those the organiser removed."""
        return tuple(i for i, e in enumerate(self.entrants) if not e.removed)

    def active(self, number: int) -> tuple[int, ...]:
        """The entrants round ``number`` seats (``Entrant.active_in``)."""
        return tuple(i for i, e in enumerate(self.entrants) if e.active_in(number))

    def missed(self, rounds: int) -> dict[int, tuple[int, ...]]:
        """The rounds among the first ``rounds`` that late arrivals missed: round -> those
        who arrived after it started (removed entrants never count)."""
        out: dict[int, tuple[int, ...]] = {}
        for number in range(1, rounds + 1):
            late = tuple(i for i, e in enumerate(self.entrants)
                         if not e.removed and e.from_round > number)
            if late:
                out[number] = late
        return out

    def late_byes(self, rounds: int) -> dict[int, tuple[int, ...]]:
        """What the standings count as byes for missed rounds: each missed round (of those
        a late arrival could have played, among the first ``rounds``) with
        ``late_rounds`` ``bye``; nothing with ``zero``."""
        if self.late_rounds != "bye":
            return {}
        return self.missed(rounds)

    def seat_names(self, table: Sequence[int]) -> list[str]:
        """The names a table's game is started with, by seat (a gatti-2 game takes its two
        players' names; its dummies sit opposite them)."""
        if self.format == "pairs":
            a, b = (self.entrants[e] for e in table)
            return [a.players[0], b.players[0], a.players[1], b.players[1]]
        return [self.entrants[e].name for e in table]

    def seat_entrants(self, table: Sequence[int]) -> dict[int, int]:
        """Which entrant sits at each seat of a table's game (a dummy's seat: none)."""
        if self.format == "pairs":
            a, b = table
            return {0: a, 2: a, 1: b, 3: b}
        return {seat: table[i] for i, seat in enumerate(self.shape.players)}

    def column_entrants(self, table: Sequence[int],
                        columns: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
        """The entrants each score column of a table's game credits (a column's seats), each
        once: both partners of a side in the individual format, the pair in ``pairs``."""
        at = self.seat_entrants(table)
        out = []
        for seats in columns:
            credited: list[int] = []
            for seat in seats:
                entrant = at.get(seat)
                if entrant is not None and entrant not in credited:
                    credited.append(entrant)
            out.append(tuple(credited))
        return tuple(out)


def _text(raw: object, field: str, problems: ProblemList, missing: Text) -> str | None:
    """A name as given (spaces made one), or None with the problem: missing, or nothing a
    reader can see (only spaces and invisible characters, ``name_key``), too long, or
    holding control characters."""
    if not isinstance(raw, str) or not name_key(raw):
        problems.add(field, "missing_name", missing)
        return None
    name = " ".join(raw.split())
    if len(name) > NAME_MAX:
        problems.add(field, "name_too_long", Text(
            "a name is at most {n} characters, not {length}", n=NAME_MAX, length=len(name)))
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in raw):
        problems.add(field, "control_character", Text("a name cannot hold control characters"))
    return name


def validate_event_setup(variant: Variant, raw: Mapping[str, Any], seed: int,
                         looks: Callable[[str], str] | None = None) -> EventSetup:
    """An event's setup from a request, every problem found at once (``RecordInvalid``): a
    name; options the variant takes; a format that fits its tables; a pairing only for pairs;
    a roster that fills a table, without a name twice nor a player in two pairs. ``seed``
    stands in when the request gives none. With ``looks`` (what a name looks like: its
    confusable skeleton), two entrants whose names look alike are refused too (a new
    event's: a stored event is read as it was made)."""
    problems = ProblemList()
    name = _text(raw.get("name"), "name", problems, Text("the event needs a name"))
    options: Mapping[str, object] = {}
    try:
        # A game's own checks of its options (players are the roster's business).
        options = resolve_options(variant, raw.get("options"))
    except RecordInvalid as error:
        problems.extend(error.problems)
    shape = TableShape.of(variant)
    format_ = raw.get("format")
    problems.extend(format_problems(str(format_), shape))
    pairing = raw.get("pairing")
    if format_ == "pairs":
        pairing = pairing if pairing is not None else "danish"
        problems.extend(pairing_problems(str(pairing)))
    elif pairing is not None:
        problems.add("pairing", "pairing_unexpected", Text(
            "pairing is for the pairs format; the {format} format seats by its own rule",
            format=str(format_)))
    scoring = raw.get("scoring", "match_points")
    if scoring not in SCORINGS:
        problems.add("scoring", "unknown_scoring", Text(
            "{scoring} is not a scoring: match_points or difference", scoring=str(scoring)))
    rounds = raw.get("rounds")
    if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int)
                               or not 1 <= rounds <= ROUNDS_MAX):
        problems.add("rounds", "invalid_rounds", Text(
            "rounds is a number of rounds from 1 to {n}", n=ROUNDS_MAX))
    given_seed = raw.get("seed")
    if given_seed is not None and (isinstance(given_seed, bool) or not isinstance(given_seed, int)
                                   or not 0 <= given_seed <= SEED_MAX):
        problems.add("seed", "invalid_seed", Text("seed is a whole number from 0 to {n}",
                                                  n=SEED_MAX))
    deals, boards_per_round = _deals(variant, raw, problems)
    checkin = raw.get("checkin", False)
    if checkin is None:
        checkin = False
    if not isinstance(checkin, bool):
        problems.add("checkin", "invalid_checkin", Text(
            "checkin is true (entrants check in at the door) or false"))
        checkin = False
    late_rounds = raw.get("late_rounds", "zero")
    if late_rounds is None:
        late_rounds = "zero"
    if late_rounds not in LATE_ROUNDS:
        problems.add("late_rounds", "unknown_late_rounds", Text(
            "late_rounds says what a late arrival's missed rounds are worth: zero or bye"))
        late_rounds = "zero"
    if checkin and not raw.get("entrants"):
        # The roster fills at the door.
        entrants: list[Entrant] = []
    else:
        entrants = _entrants(raw.get("entrants"), format_, problems, looks)
        if format_ in FORMATS and not any(p.field == "entrants" for p in problems.items):
            problems.extend(roster_problems(len(entrants), str(format_), shape))
    problems.raise_if_any()
    assert name is not None
    return EventSetup(
        name=name, variant=variant, options=options, format=format_,  # type: ignore[arg-type]
        pairing=pairing if format_ == "pairs" else None,
        scoring=scoring,
        rounds=rounds, seed=given_seed if given_seed is not None else seed,
        entrants=tuple(entrants), deals=deals, boards_per_round=boards_per_round,
        checkin=checkin, late_rounds=str(late_rounds))


def boards_per_round_max(variant: Variant) -> int:
    """The most boards a round can give a table's game: the hands a game of the variant
    holds, or ``BOARDS_PER_ROUND_MAX`` for a game without a fixed length."""
    return variant.hands_per_game or BOARDS_PER_ROUND_MAX


def default_boards_per_round(variant: Variant) -> int:
    """A duplicate round's boards when the organiser says nothing: the hands of the
    variant's game; Ottocento (rubbers) 4; Mitigatti (an open evening) one deal a seat."""
    if variant.hands_per_game:
        return variant.hands_per_game
    return OTTOCENTO_BOARDS if variant.target is not None else variant.seats


def _deals(variant: Variant, raw: Mapping[str, Any], problems: ProblemList
           ) -> tuple[str, int | None]:
    """``deals`` and ``boards_per_round``, checked: a duplicate event's boards a round (its
    default, or 1 to what a game holds); none for free deals."""
    deals = raw.get("deals", "free")
    given = raw.get("boards_per_round")
    if deals is None:
        deals = "free"
    if deals not in DEALS:
        problems.add("deals", "unknown_deals", Text(
            "{deals} is not a way to deal: free or duplicate", deals=str(deals)))
        return "free", None
    if deals == "free":
        if given is not None:
            problems.add("boards_per_round", "boards_unexpected", Text(
                "boards_per_round is for duplicate deals; free deals have no boards"))
        return "free", None
    most = boards_per_round_max(variant)
    if given is None:
        return "duplicate", default_boards_per_round(variant)
    if isinstance(given, bool) or not isinstance(given, int) or not 1 <= given <= most:
        problems.add("boards_per_round", "invalid_boards_per_round", Text(
            "boards_per_round is a number of boards from 1 to {n}: what a game of {variant} "
            "holds", n=most, variant=variant.id))
        return "duplicate", None
    return "duplicate", given


def _entrants(raw: object, format_: object, problems: ProblemList,
              looks: Callable[[str], str] | None = None,
              numbers: Sequence[int] | None = None) -> list[Entrant]:
    """The roster checked whole; ``numbers``: each item's entrant number (by default its
    place in the list), what a problem names."""
    if not isinstance(raw, list) or not raw:
        problems.add("entrants", "missing_entrants", Text(
            "entrants lists the players (or the pairs) of the event"))
        return []
    if len(raw) > ENTRANTS_MAX:
        problems.add("entrants", "too_many_entrants", Text(
            "an event takes at most {n} entrants, not {count}", n=ENTRANTS_MAX,
            count=len(raw)))
        return []
    def number(i: int) -> int:
        return numbers[i] if numbers is not None else i

    out: list[Entrant] = []
    # Names are compared by ``name_key``: the same person whatever Unicode form, width, case
    # or invisible characters the name was typed with.
    names: dict[str, int] = {}  # name key -> its entrant
    seen: dict[str, tuple[int, str]] = {}  # what a name looks like -> its entrant, name
    players: dict[str, int] = {}  # name key -> the pair they play in
    for i, item in enumerate(raw):
        field = f"entrants[{i}]"
        if not isinstance(item, Mapping):
            problems.add(field, "invalid_entrant", Text("an entrant is an object with a name"))
            continue
        name = _text(item.get("name"), f"{field}.name", problems,
                     Text("each entrant needs a name"))
        pair: tuple[str, ...] = ()
        given = item.get("players")
        if format_ == "pairs":
            if not isinstance(given, list) or len(given) != 2:
                problems.add(f"{field}.players", "pair_needs_two", Text(
                    "a pair names its two players"))
            else:
                found = [_text(p, f"{field}.players[{k}]", problems,
                               Text("each player of a pair needs a name"))
                         for k, p in enumerate(given)]
                pair = tuple(p for p in found if p is not None)
                for k, player in enumerate(pair):
                    key = name_key(player)
                    if key in players:
                        problems.add(f"{field}.players[{k}]", "player_in_two_pairs", Text(
                            "{player} already plays in pair {pair}", player=player,
                            pair=number(players[key]) + 1))
                    else:
                        players[key] = i
                if len(pair) == 2 and name_key(pair[0]) == name_key(pair[1]):
                    problems.add(f"{field}.players[1]", "player_twice", Text(
                        "a pair is two different players"))
        elif given is not None:
            problems.add(f"{field}.players", "players_unexpected", Text(
                "only the pairs format names two players per entrant"))
        if name is None:
            continue
        key = name_key(name)
        look = looks(name) if looks is not None else None
        if key in names:
            problems.add(f"{field}.name", "duplicate_name", Text(
                "{name} is already entrant {n}", name=name, n=number(names[key]) + 1))
        elif look is not None and look in seen:
            problems.add(f"{field}.name", "looks_like_entrant", Text(
                "{name} looks like {other}, entrant {n}: the same letters, some of them from "
                "another alphabet or symbols that look like them; choose a name that reads "
                "differently", name=repr(name), other=repr(seen[look][1]),
                n=seen[look][0] + 1))
        else:
            names[key] = i
            if look is not None:
                seen[look] = (i, name)
        out.append(Entrant(name, pair))
    return out


#: A newcomer's problems that say they are on the roster already (a 409, not a 400).
ALREADY_ENTERED = ("duplicate_name", "player_in_two_pairs")


def validate_newcomer(setup: EventSetup, raw: object,
                      looks: Callable[[str], str] | None = None
                      ) -> tuple[Entrant | None, list[Problem], list[Problem]]:
    """An entrant arriving at the door (or added by the organiser), checked against the
    roster as the roster is checked whole (``_entrants``): the entrant, the problems of the
    request (fields ``name``, ``players[k]``) and, apart, the problems that say they are
    on the roster already (``ALREADY_ENTERED``: the same name, a player already in a pair),
    each naming the entrant they are."""
    listed = setup.listed()
    items: list[object] = [setup.entrants[i].to_json() for i in listed]
    items.append(raw)
    problems = ProblemList()
    field = f"entrants[{len(listed)}]"
    if len(listed) >= ENTRANTS_MAX:
        problems.add("name", "too_many_entrants", Text(
            "an event takes at most {n} entrants, not {count}", n=ENTRANTS_MAX,
            count=len(listed) + 1))
        return None, list(problems.items), []
    found = _entrants(items, setup.format, problems, looks,
                      numbers=[*listed, len(setup.entrants)])
    own = [Problem(p.field[len(field) + 1:] if p.field.startswith(field + ".") else
                   ("name" if p.field == field else p.field), p.code, p.message, p.rule)
           for p in problems.items if p.field == field or p.field.startswith(field + ".")]
    already = [p for p in own if p.code in ALREADY_ENTERED]
    wrong = [p for p in own if p.code not in ALREADY_ENTERED]
    newcomer = found[-1] if len(found) == len(items) else None
    return newcomer, wrong, already


def seating_json(setup: EventSetup, seating: Seating) -> dict[str, object]:
    """A round's seating by name: each table's names by seat, and the byes."""
    return {"tables": [setup.seat_names(t) for t in seating.tables],
            "byes": [setup.entrants[e].name for e in seating.byes]}


def read_seating(setup: EventSetup, raw: object
                 ) -> tuple[tuple[tuple[int | None, ...], ...], list[Problem]]:
    """An organiser's seating (``free``, or a swap) as entrant numbers, and every problem with
    it at once: each table a list of entrants by place (names, or numbers from 0 in roster
    order; for ``pairs`` the two pairs); a name not on the roster, a table of the wrong size,
    an empty seat, someone seated twice."""
    problems: list[Problem] = []
    if not isinstance(raw, list) or not raw:
        return (), [Problem("tables", "missing_tables", Text(
            "tables lists each table's entrants, by seat"))]
    by_name = {name_key(e.name): i for i, e in enumerate(setup.entrants)}
    tables: list[tuple[int | None, ...]] = []
    for t, table in enumerate(raw):
        seats = table.get("seats") if isinstance(table, Mapping) else table
        if not isinstance(seats, list):
            problems.append(Problem(f"tables[{t}]", "invalid_table", Text(
                "a table lists its entrants, by seat")))
            continue
        row: list[int | None] = []
        for i, who in enumerate(seats):
            where = f"tables[{t}].seats[{i}]"
            if isinstance(who, str):
                found = by_name.get(name_key(who))
                if found is None:
                    problems.append(Problem(where, "unknown_entrant", Text(
                        "{name} is not on the roster", name=who)))
                row.append(found)
            elif isinstance(who, int) and not isinstance(who, bool):
                row.append(who)  # the entrant's number, from 0 in roster order
            else:
                problems.append(Problem(where, "invalid_entrant", Text(
                    "a seat takes an entrant's name or number")))
                row.append(None)
        tables.append(tuple(row))
    named = {p.field for p in problems}
    problems += [p for p in check_free_seating(len(setup.entrants), setup.table_shape, tables,
                                               setup.names())
                 if p.field not in named]  # a seat already refused is not empty as well
    return tuple(tables), problems
