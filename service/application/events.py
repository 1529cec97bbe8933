"""Use cases of events (docs/events.md): create an event, seat its rounds (each table an
ordinary stored game), swap before a round starts, close a round, read the event, its
standings and the organiser's history.

An event's tokens work as a game's: the edit token is the organiser's, the read token the
room's. Each table's game has tokens of its own, worked out from the event's edit token (as
a game's player links are from the game's), so the organiser can show a table's links again
at any time and nothing but their hashes is kept.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any, Protocol

from service.domain import (
    Board,
    BoardPlay,
    BoardTop,
    Entrant,
    EventSetup,
    GameSummary,
    Problem,
    RecordInvalid,
    RoundClock,
    Row,
    Seating,
    Standings,
    Subset,
    TableProgress,
    TableResult,
    Text,
    Traveller,
    board_columns,
    board_standings,
    board_tops,
    complete_boards,
    counted_hands,
    deal_boards,
    find_variant,
    game_summary,
    percent,
    plan_round,
    read_seating,
    repeats,
    round_entries,
    seat_individual,
    seat_pairs,
    seated_round,
    seating_json,
    standings,
    traveller,
    validate_clock,
    validate_event_setup,
    validate_prizes,
)
from service.domain.duplicate import Section, field_standings, rounds_to_come, section_owes
from service.domain.events.prizes import ROUND_MINUTES_MIN

from .caches import LruCache
from .club_results import project_game
from .entrant_links import door_token, entrant_token, sealed_seats
from .errors import (
    ConcurrentChange,
    Conflict,
    NotFound,
    OpenDisputes,
)
from .event_clock import PrizeReading, clock_of, prizes_of, read_prizes, settings_json
from .field import FieldReading, FieldTraveller, field_key, read_field_choice
from .games import (
    TOKEN_BYTES,
    Created,
    GameView,
    HandView,
    TokenWords,
    derived_token,
    hash_token,
    new_game_id,
    own_token_access,
    variant_of,
)
from .lookalikes import looks
from .ports import (
    BoardRefusals,
    EventAction,
    EventCredentials,
    EventRepository,
    GameIdTaken,
    OpenRoundClock,
    RefusalRepository,
    SharedValues,
    StaleGame,
    StoredEvent,
    StoredGame,
    StoredRound,
    StoredTable,
)
from .refusals import REFUSALS_PER_BOARD
from .unit_of_work import UnitOfWork

log = logging.getLogger(__name__)

#: Standings kept in this process: one per event, for the state it was computed at.
CACHED_STANDINGS = 256
#: Events whose open round's clock a process keeps (``EventService.close_by_clock``).
CACHED_CLOCKS = 4096
#: Sections of fields whose summary a process keeps, one per state (``SectionSummary``).
CACHED_SECTIONS = 4096
#: Sections of fields whose view a process keeps, one per state: a field's ten sections at
#: a few states each.
CACHED_SECTION_VIEWS = 64


@dataclass(frozen=True, slots=True)
class SectionSummary:
    """What the rest of its field reads of a section at one state: the boards it still owes
    (``EventView.owed``), those all its own tables have played, whether a round of it is being
    played, and a fingerprint of its results on each board. A section's room and the field's
    readings move only when these do, not at every hand of every section."""

    version: int
    owed: frozenset[int]
    complete: frozenset[int]
    playing: bool
    plays: Mapping[int, str]

    @staticmethod
    def of(view: EventView) -> SectionSummary:
        by_board: dict[int, list[BoardPlay]] = defaultdict(list)
        for play in board_plays(view):
            by_board[play.board].append(play)
        current = view.current
        return SectionSummary(
            view.event.version, view.owed(), complete_boards(view.progress()),
            current is not None and current.stored.state == "open" and not current.finished,
            {board: hashlib.sha256(repr(plays).encode()).hexdigest()[:16]
             for board, plays in by_board.items()})

    def to_bytes(self) -> bytes:
        """The summary as the processes of a topology share it (``from_bytes`` reads it)."""
        return json.dumps({
            "version": self.version, "owed": sorted(self.owed),
            "complete": sorted(self.complete), "playing": self.playing,
            "plays": [[board, said] for board, said in sorted(self.plays.items())],
        }, separators=(",", ":")).encode()

    @staticmethod
    def from_bytes(raw: bytes) -> SectionSummary:
        said = json.loads(raw)
        return SectionSummary(int(said["version"]), frozenset(said["owed"]),
                              frozenset(said["complete"]), bool(said["playing"]),
                              {int(board): str(fp) for board, fp in said["plays"]})


#: A section deleted while it was read: in no summary of its field.
_GONE = SectionSummary(-1, frozenset(), frozenset(), False, {})


class _MovedOn(Exception):
    """A section read for a state it had already left."""


def _shared_key(key: tuple[str, int, int]) -> str:
    """A section's summary at a state (its id, version and games' played versions), as the
    topology's processes share it."""
    return "section:{}:{}:{}".format(*key)


def _owed_by_others(owed: Mapping[str, frozenset[int]], section: str) -> frozenset[int]:
    """The boards the sections of a field other than ``section`` still owe (``owed``: each
    section's, by id)."""
    return frozenset().union(*(o for i, o in owed.items() if i != section))


class EventNotFound(NotFound):
    """No such event for this token (another event's token, or no event with this id)."""

    failed_authentication = True


EVENT_TOKEN_WORDS = TokenWords(
    needed=Text("this request needs the event's token (Authorization: Bearer …)"),
    opens_nothing=Text("this token opens no event; check the link it came from"),
    read_only=Text("the room's read-only token cannot change the event; use the "
                   "organiser's"))


def room_token(edit_token: str, event_id: str) -> str:
    """The room's read token, worked out from the organiser's: any phone holding the edit
    token can show the board's link again."""
    return derived_token(edit_token, f"event {event_id} read")


def table_tokens(edit_token: str, event_id: str, round_: int, table: int) -> tuple[str, str]:
    """A table's game tokens (edit, read), worked out from the event's edit token."""
    out = [derived_token(edit_token, f"table {event_id} {round_} {table} {kind}")
           for kind in ("edit", "read")]
    return out[0], out[1]


# -- views ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableView:
    round: int
    stored: StoredTable
    game: GameView

    @property
    def state(self) -> str:
        """``playing``; ``finished`` (the game ended); ``closed`` (its round was closed
        before the game ended: it counts as it stands)."""
        if self.game.summary.finished:
            return "finished"
        return "closed" if self.stored.closed else "playing"


@dataclass(frozen=True, slots=True)
class RoundView:
    stored: StoredRound
    tables: tuple[TableView, ...]

    @property
    def number(self) -> int:
        return self.stored.number

    @property
    def finished(self) -> bool:
        """Every table's game has ended (the round may start the next without closing)."""
        return all(t.game.summary.finished for t in self.tables)

    def seating(self) -> Seating:
        return Seating(tuple(t.stored.entrants for t in self.tables), self.stored.byes)


@dataclass(frozen=True, slots=True)
class EventView:
    """An event as one reader may see it. ``counted``: the boards a duplicate event's reading
    counts (``for_reader``: the complete ones, for anyone but the organiser); None: every
    board, as the organiser sees the room live (and an event of free deals, which has
    none)."""

    event: StoredEvent
    setup: EventSetup
    rounds: tuple[RoundView, ...]
    counted: frozenset[int] | None = None
    #: A section of a field's: the boards the field's other sections still owe (a table of
    #: theirs is due to play them), which no reader of this one may count yet either.
    field_owed: frozenset[int] = frozenset()

    @property
    def id(self) -> str:
        return self.event.id

    # -- what a reader may count (a duplicate event's secret boards) -------------------------

    def complete_boards(self) -> frozenset[int]:
        """The boards every table due to play them has played (or whose round was closed):
        what the room may count. Empty at an event of free deals, which has no boards. At a
        section of a field, every table of every section (``field_owed``)."""
        return complete_boards(self.progress()) - self.field_owed

    def progress(self) -> tuple[TableProgress, ...]:
        """How far each table seated so far has got with its boards."""
        return tuple(TableProgress(tuple(b.number for b in t.game.setup.boards),
                                   t.game.summary.hands_played, t.state == "playing")
                     for r in self.rounds for t in r.tables)

    def owed(self) -> frozenset[int]:
        """The boards this event still owes its field: those its tables have still to play,
        and, once it has started, those of the planned rounds it has still to seat."""
        if not self.setup.duplicate or self.setup.boards_per_round is None:
            return frozenset()
        return section_owes(self.progress(), rounds_to_come(
            self.setup.rounds, len(self.rounds), self.setup.boards_per_round))

    def secret_boards(self) -> tuple[int, ...]:
        """The boards of the rounds seated so far that some table due to play them has not
        played yet: the organiser's alone until then."""
        seated = {b.number for r in self.rounds for t in r.tables for b in t.game.setup.boards}
        return tuple(sorted(seated - self.complete_boards()))

    def for_reader(self, kind: str) -> EventView:
        """The event as the reader holding a ``kind`` of token may see it: the organiser
        (``edit``) everything, live; anyone else a duplicate event's complete boards only,
        every standing, total, traveller and export counting nothing else."""
        if kind == "edit" or not self.setup.duplicate:
            return self
        return replace(self, counted=self.complete_boards())

    def counts(self, board: int) -> bool:
        return self.counted is None or board in self.counted

    def table_summary(self, table: TableView) -> GameSummary:
        """A table's game as this reader may count it: the game's own summary, or at a
        duplicate event read by the room, a summary of only its hands on complete boards
        (its totals, and Mitigatti's balances, leave the secret boards out)."""
        summary = table.game.summary
        if self.counted is None:
            return summary
        boards = tuple(b.number for b in table.game.setup.boards)
        counted = counted_hands(boards, summary.hands_played, self.counted)
        if len(counted) == summary.hands_played:
            return summary
        results = [table.game.hands[n - 1].result for n in counted]
        return game_summary(table.game.setup, results)

    @property
    def current(self) -> RoundView | None:
        return self.rounds[-1] if self.rounds else None

    def history_seatings(self) -> list[Seating]:
        return [r.seating() for r in self.rounds]

    def results(self) -> list[TableResult]:
        """Each table's result as the standings take it: who each column credits, and its
        total (Mitigatti: the marca won or lost, from the game's balances). A table still
        waiting for its first hand is left out until it has one."""
        out = []
        for played in self.rounds:
            for table in played.tables:
                summary = self.table_summary(table)
                if table.state == "playing" and not summary.hands_played:
                    continue  # nothing counted yet: it says nothing, not a draw at 0-0
                columns = [c.seats for c in summary.columns]
                out.append(TableResult(
                    played.number, table.stored.number,
                    self.setup.column_entrants(table.stored.entrants, columns),
                    summary.column_points(), table.state))  # type: ignore[arg-type]
        return out

    def standings(self, results: list[TableResult] | None = None,
                  explained: bool = True) -> Standings:
        """The standings: by match points round by round; a duplicate event's by its boards
        (docs/events.md#standings: the average percentage, or the sum of differences, then the
        points), each row keeping its rounds and adding its boards and percentage.
        ``results``: ``self.results()`` when the caller has them already; ``explained=False``:
        a free-deal event's rows without their sentences (a public page shows none)."""
        setup = self.setup
        results = self.results() if results is None else results
        byes = {r.number: r.stored.byes for r in self.rounds}
        # The rounds late arrivals missed, each a bye when the event says so
        # (docs/events.md#late-arrivals-and-withdrawals).
        for number, late in setup.late_byes(len(self.rounds)).items():
            byes[number] = tuple(sorted({*byes.get(number, ()), *late}))
        listed = setup.listed()
        if not setup.duplicate:
            return standings(setup.names(), results, byes, setup.scoring, setup.columns,
                             explained=explained, among=listed)
        # The rounds only (what each gave, for the rows' ``rounds``): the boards rank.
        rounds = round_entries(len(setup.entrants), results, byes, setup.columns)
        by_boards = board_standings(
            setup.names(), board_plays(self),
            "difference" if setup.scoring == "difference" else "matchpoints")
        return Standings(any(r.state == "playing" for r in results), tuple(
            Row(row.place, row.entrant, row.match_points, row.difference, row.points,
                rounds.get(row.entrant, ()), row.explanation, row.name, boards=row.boards,
                percentage=percent(row.percentage))
            for row in by_boards.rows if row.entrant in listed))


@dataclass(frozen=True, slots=True)
class CreatedEvent(Created[EventView]):
    """A new event: its view and the organiser's and the room's tokens."""


@dataclass(frozen=True, slots=True)
class TableLinks:
    table: int
    game_id: str
    edit_token: str
    read_token: str


#: Each event's setup as last validated, by id with the version it was validated at: what
#: sets it up changes only with the event's version, which a hand at a table leaves as it is.
_SETUPS: LruCache[str, tuple[int, EventSetup]] = LruCache(1024)


def _setup_of(event: StoredEvent) -> EventSetup:
    """A stored event's setup, kept by its version (``_validated_setup``)."""
    kept = _SETUPS.get(event.id)
    if kept is not None and kept[0] == event.version:
        return kept[1]
    setup = _validated_setup(event)
    _SETUPS.put(event.id, (event.version, setup))
    return setup


def _validated_setup(event: StoredEvent) -> EventSetup:
    """A stored event's setup; its roster read as stored (checked when each entrant came)."""
    variant = find_variant(event.variant)
    raw: dict[str, Any] = {
        "name": event.name, "options": event.options, "format": event.format,
        "pairing": event.pairing, "scoring": event.scoring, "rounds": event.rounds,
        "seed": event.seed, "entrants": [], "checkin": True, "deals": event.deals,
        "boards_per_round": event.boards_per_round, "late_rounds": event.late_rounds}
    setup = validate_event_setup(variant, raw, event.seed)
    return replace(setup, checkin=event.checkin,
                   entrants=tuple(entrant_of(e) for e in event.entrants))


def event_setup(event: StoredEvent) -> EventSetup:
    """A stored event's setup (``_setup_of``)."""
    return _setup_of(event)


def entrant_of(stored: Mapping[str, Any]) -> Entrant:
    """An entrant as the event keeps it (its token's hash and members aside)."""
    withdrawn = stored.get("withdrawn_from")
    return Entrant(str(stored["name"]), tuple(stored.get("players") or ()),
                   from_round=int(stored.get("from_round", 1)),
                   withdrawn_from=int(withdrawn) if withdrawn is not None else None,
                   removed=bool(stored.get("removed", False)),
                   checked_in=bool(stored.get("checked_in", False)))


class TableGames(Protocol):
    """What events need of games: a table's new game, the view of a table's game (as a write
    has just left it, or as read at a version), whether a token opens some game, and the
    clock. ``GameService`` is one (the tables share its views and caches)."""

    clock: Callable[[], datetime]

    def new_game(self, variant_id: str, options: Mapping[str, Any] | None,
                 players: Sequence[str], first_dealer: int | None, *, edit_token: str,
                 read_token: str, event: tuple[str, int, int] | None = None,
                 boards: tuple[Sequence[int], int] | None = None) -> StoredGame:
        """A new game, checked, as it is to be stored (the event's write stores it);
        ``boards``: a duplicate table's boards in order, and the event's seed."""

    def view_of(self, game: StoredGame) -> GameView:
        """A game's view from the game as a write has just left it."""

    def view_at(self, game_id: str, version: int) -> GameView:
        """A game's view at ``version`` (read with the event) or later."""

    def views_at(self, wanted: Sequence[tuple[str, int]]) -> dict[str, GameView]:
        """Each game's view at its ``(game_id, version)`` or later, by id, read together."""

    def opens_a_game(self, token_hash: str) -> bool:
        """Whether any game has this edit, read or player token hash."""

    def correct_table_hand(self, unit: UnitOfWork, game_id: str, number: int,
                           data: Mapping[str, Any], if_match: Collection[str] | None
                           ) -> HandView:
        """The organiser's correction of a table's hand, closed round or not."""


class EventService:
    """The use cases of events, over an ``EventRepository`` and the games of their tables
    (``TableGames``)."""

    def __init__(self, repository: EventRepository, games: TableGames,
                 refusals: RefusalRepository) -> None:
        self.repository = repository
        self.games = games
        #: The duplicate tables' refused records, board by board (``refusals``).
        self.refusals = refusals
        self._standings: LruCache[tuple[str, bool], tuple[tuple[object, ...], Standings]] = (
            LruCache(CACHED_STANDINGS))
        #: Each event's open round and clock as read at a version of the event (every change
        #: to its settings or rounds moves the version): a reading that names the version it
        #: holds asks the database for them only once per version.
        self._clocks: LruCache[str, tuple[int, OpenRoundClock | None]] = LruCache(
            CACHED_CLOCKS)
        #: Each section of a field summed up at a state of it (its id, version and games'
        #: played versions): read once per state in this process, whichever section asks.
        self._sections: LruCache[tuple[str, int, int], SectionSummary] = LruCache(
            CACHED_SECTIONS)
        #: Each section of a field read whole at a state: a field's body, made again when any
        #: section moves, loads only the sections that moved.
        self._section_views: LruCache[tuple[str, int, int], EventView] = LruCache(
            CACHED_SECTION_VIEWS)
        #: Where the processes of a topology share each section's summary at each state: one
        #: of them sums a section up when it moves, the others read the summary (a field's
        #: tag, read after every hand of every section, never loads the sections whole in
        #: a process that has not read them since). None: each process sums up its own.
        self.shared: SharedValues | None = None
        #: Units of work for the clock's closes a reading applies (``close_by_clock``); none:
        #: a round closes by its clock only at a write.
        self.units: Callable[[], UnitOfWork] | None = None
        #: Told of each round the clock closed, once its write stands, by what closed it
        #: (``reading``, ``sweep``): the metrics' count.
        self.clock_closed: Callable[[str], None] | None = None
        #: Told of each event the clock changed, once its write stands, for the screens that
        #: follow it (``service.application.notices``).
        self.changed: Callable[[str], None] | None = None

    def clock(self) -> datetime:
        return self.games.clock()

    # -- access -----------------------------------------------------------------------------

    def authorize(self, event_id: str, token: str | None, *, write: bool) -> str:
        """``edit`` or ``read``, as for a game: 401 without a token or with one that opens
        nothing, 404 for another event's (or no such event), 403 for the read token on a
        change."""
        return self._authorize(event_id, token, write=write)[0]

    def _authorize(self, event_id: str, token: str | None, *,
                   write: bool) -> tuple[str, EventCredentials]:
        found = self._token_access(event_id, token, write=write)
        if self.close_by_clock(event_id, version=found[1].version):
            # The clock closed a round: the event moved on a version since its credentials.
            found = self._token_access(event_id, token, write=write)
        return found

    def _token_access(self, event_id: str, token: str | None, *,
                      write: bool) -> tuple[str, EventCredentials]:
        return own_token_access(
            token, lambda: self.repository.get_event_credentials(event_id),
            lambda digest: (self.repository.event_token_exists(digest)
                            or self.games.opens_a_game(digest)),
            write=write, words=EVENT_TOKEN_WORDS,
            not_found=lambda: EventNotFound(Text("there is no event {event} for this token",
                                                 event=repr(event_id))))

    # -- reads ------------------------------------------------------------------------------

    def get_event(self, event_id: str, token: str | None) -> EventView:
        """The event as the token's holder may see it (``EventView.for_reader``)."""
        kind, _credentials = self._authorize(event_id, token, write=False)
        return self._view(self._load(event_id)).for_reader(kind)

    def state_tag(self, event_id: str, token: str | None) -> tuple[str, str, int]:
        """The event's current state as an entity tag (its version and every table's game's),
        read in one cheap query: what a poll of the board or the standings compares; the
        kind of token that asked (``edit`` or ``read``); and the state's order (it grows
        with every change to the event or its tables' games, versions only growing)."""
        kind, _credentials = self._authorize(event_id, token, write=False)
        state = self.repository.event_state(event_id)
        if state is None:
            raise EventNotFound(Text("there is no event {event} for this token",
                                     event=repr(event_id)))
        # The organiser's answers say the tables' refusals too: their state is part of it.
        seen = (*state, self.refusals.refusals_state(event_id)) if kind == "edit" else state
        # A section's room counts a board once the whole field has played it: the boards
        # the other sections still owe are part of what it reads.
        seen = (*seen, self._owed_elsewhere_said(event_id))
        digest = hashlib.sha256(f"{event_id}|{seen}".encode()).hexdigest()[:16]
        return f"e{state[0]}.{state[1]}-{digest}", kind, state[0] + state[1]

    def history(self, event_id: str, token: str | None) -> list[EventAction]:
        self._authorize(event_id, token, write=False)
        return self.repository.event_history(event_id)

    def closed_by_clock(self, event_id: str) -> frozenset[int]:
        """The numbers of the event's rounds its clock closed (their ``close_round`` in the
        history says ``clock``), for what prints how each round closed; ask once the token
        was checked (a reading of the event)."""
        closes = {a.data.get("round"): bool(a.data.get("clock"))
                  for a in self.repository.event_history(event_id)
                  if a.action == "close_round"}
        return frozenset(n for n, clock in closes.items() if clock and isinstance(n, int))

    def get_standings(self, event_id: str, token: str | None) -> tuple[EventView, Standings]:
        view = self.get_event(event_id, token)
        return view, self.standings_of(view)

    def standings_of(self, view: EventView) -> Standings:
        """The standings, computed once per state of the event: its version and the
        versions of its tables' games (a hand anywhere is a new state)."""
        key = (view.event.version, view.counted,
               *(t.stored.game_id + f"@{t.game.game.version}"
                 for r in view.rounds for t in r.tables))
        kept = self._standings.get((view.id, view.counted is None))
        if kept is not None and kept[0] == key:
            return kept[1]
        found = view.standings()
        current = view.current
        if current is not None and current.stored.state == "open" and not current.finished:
            # A round being played makes the standings provisional, even before its tables'
            # first hands (they are left out until they have one).
            found = replace(found, provisional=True)
        self._standings.put((view.id, view.counted is None), (key, found))
        return found

    def get_boards(self, event_id: str, token: str | None
                   ) -> tuple[EventView, tuple[Board, ...]]:
        """A duplicate event's boards (docs/events.md#duplicate): to the organiser every board
        of the event (``event_boards``); to the room's read token only the boards every
        table due to play them has played (``EventView.for_reader``). 404 for an event of
        free deals, which has no boards."""
        kind, _credentials = self._authorize(event_id, token, write=False)
        view = self._view(self._load(event_id)).for_reader(kind)
        return view, tuple(b for b in event_boards(view) if view.counts(b.number))

    def get_traveller(self, event_id: str, token: str | None, number: int
                      ) -> tuple[EventView, Traveller]:
        """Board ``number``'s traveller: every table's result on it so far, scored across the
        room (docs/events.md#scoring-a-board). To the room's read token only once the board's
        deal may be shown (every table due to play it has); 404 for a board the event does
        not deal, or an event of free deals."""
        kind, _credentials = self._authorize(event_id, token, write=False)
        view = self._view(self._load(event_id)).for_reader(kind)
        if number not in {b.number for b in event_boards(view)} or not view.counts(number):
            raise NotFound(Text("event {event} has no board {board} to show",
                                event=view.id, board=number))
        return view, traveller(number, board_plays(view, number))

    def get_slips(self, event_id: str, token: str | None
                  ) -> tuple[EventView, tuple[Board, ...]]:
        """Every board of a duplicate event, for its deal slips (the organiser's only)."""
        self._authorize(event_id, token, write=True)
        view = self._view(self._load(event_id))
        return view, event_boards(view)

    def refusals_of(self, event_id: str, token: str | None) -> list[TableRefusals] | None:
        """The duplicate tables' refused records, board by board, for the organiser (None
        to the room's read token: who was refused is the organiser's to know)."""
        kind, _credentials = self._authorize(event_id, token, write=False)
        if kind != "edit":
            return None
        return [TableRefusals(round_, table, found)
                for round_, table, found in self.refusals.event_refusals(event_id)]

    def room_link(self, event_id: str, token: str | None) -> str:
        """The room's read token again, for the organiser (edit token only)."""
        self._authorize(event_id, token, write=True)
        assert token is not None
        return room_token(token, event_id)

    def round_links(self, event_id: str, token: str | None, number: int) -> list[TableLinks]:
        """A round's tables with their games' tokens, for the organiser (edit token)."""
        self._authorize(event_id, token, write=True)
        assert token is not None
        event = self._load(event_id)
        played = self._round(event, number)
        return [TableLinks(t.number, t.game_id, *table_tokens(token, event_id, number, t.number))
                for t in played.tables]

    # -- writes -----------------------------------------------------------------------------

    def create_event(self, unit: UnitOfWork, body: Mapping[str, Any], *,
                     club: tuple[str, Mapping[int, tuple[str | None, ...]]] | None = None,
                     problems: Sequence[Problem] = ()) -> CreatedEvent:
        """A new event; ``club``: the club it is held for and each entrant's member (a
        pair's two), its entrants' ``problems`` reported with the setup's, all at once."""
        body, field, wrong = read_field_choice(body, self.repository)
        variant = variant_of(str(body.get("variant")))
        settings: dict[str, Any] | None = None
        night = {k: body[k] for k in ("round_minutes", "auto_close", "grace_minutes",
                                      "prizes", "currency") if k in body}
        problems = [*problems, *wrong]
        try:
            settings = settings_json(validate_clock(night), *validate_prizes(night))
        except RecordInvalid as error:
            problems += error.problems
        try:
            setup = validate_event_setup(variant, {k: v for k, v in body.items()
                                                   if k not in night},
                                         secrets.randbelow(2**31 - 1), looks=looks)
        except RecordInvalid as error:
            raise RecordInvalid([*problems, *error.problems]) from error
        if problems:
            raise RecordInvalid(list(problems))
        entrants = tuple(e.to_json() for e in setup.entrants)
        if club is not None:
            members = club[1]
            entrants = tuple(
                {**e, "members": list(members.get(i, ()))} if setup.format == "pairs"
                else {**e, "member": members.get(i, (None,))[0]}
                for i, e in enumerate(entrants))
        edit_token = secrets.token_urlsafe(TOKEN_BYTES)
        event_id = new_game_id()
        read_token = room_token(edit_token, event_id)
        door = door_token(edit_token, event_id)
        field_host = event_id if field.hosts else field.host.id if field.host else None
        # Each entrant's own link (docs/events.md#the-door): only its token's hash is kept.
        entrants = tuple({**e, "token_hash": hash_token(entrant_token(door, event_id, i))}
                         for i, e in enumerate(entrants))
        now = self.clock()
        event = StoredEvent(
            id=event_id, name=setup.name, variant=variant.id,
            options=dict(setup.options), format=setup.format, pairing=setup.pairing,
            scoring=setup.scoring, rounds=setup.rounds, seed=setup.seed,
            entrants=entrants,
            edit_token_hash=hash_token(edit_token), read_token_hash=hash_token(read_token),
            created_at=now, version=1, club=club[0] if club else None, deals=setup.deals,
            boards_per_round=setup.boards_per_round, settings=settings if night else None,
            checkin=setup.checkin, late_rounds=setup.late_rounds,
            door_token_hash=hash_token(door) if setup.checkin else None,
            field_host=field_host,
            field_key_hash=hash_token(field_key(edit_token, event_id)) if field.hosts else None)
        try:
            unit.events.add_event(event, now)
        except GameIdTaken as error:  # pragma: no cover - a collision in a 2**49 space
            raise Conflict(Text("a new event's id was already taken; try again"),
                           code="concurrent_change") from error
        return CreatedEvent(EventView(event, setup, ()), edit_token, read_token)

    def start_round(self, unit: UnitOfWork, event_id: str, token: str | None,
                    tables: object | None, despite_disputes: bool = False,
                    ) -> tuple[EventView, list[TableLinks]]:
        """Seat the next round and create its games. The current round must be over: closed,
        or every game of it ended (then it is closed now, asking first, as ``close_round``
        does, while players dispute hands of it). ``tables``: the organiser's own seating,
        for the ``free`` format only."""
        self._authorize(event_id, token, write=True)
        assert token is not None
        view = self._view(self._load(event_id))
        setup = view.setup
        current = view.current
        version = view.event.version
        now = self.clock()
        if current is not None and current.stored.state == "open" and not current.finished:
            raise Conflict(Text(
                "round {n} is still being played: close it, or let every table finish",
                n=current.number), code="round_open")
        if setup.rounds is not None and len(view.rounds) >= setup.rounds:
            raise Conflict(Text("all {n} rounds of the event have been played",
                                n=setup.rounds), code="event_over")
        closing: dict[str, Any] | None = None
        if current is not None and current.stored.state == "open":
            closing = {"round": current.number, "finished": True,
                       **self._disputes_allowed(current, despite_disputes)}
        seating = self._seat(view, tables)
        boards = self._boards_of(view, seating)
        if closing is not None:
            assert current is not None
            unit.events.close_round(event_id, expected_version=version,
                                        number=current.number, data=closing, now=now)
            version += 1
        number = len(view.rounds) + 1
        games, stored_tables, links = [], [], []
        for t, entrants in enumerate(seating.tables, start=1):
            names = setup.seat_names(entrants)
            edit, read = table_tokens(token, event_id, number, t)
            game = self.games.new_game(setup.variant.id, setup.options, names, 0,
                                       edit_token=edit, read_token=read,
                                       event=(event_id, number, t),
                                       boards=None if boards is None else (
                                           boards[t - 1], setup.seed))
            if view.event.club is not None:
                game = replace(game, club=view.event.club,
                               seat_members=view.event.seat_members(tuple(entrants)))
            games.append(game)
            stored_tables.append(StoredTable(t, game.id, tuple(entrants), sealed=sealed_seats(
                token, event_id, number, t, game.id, edit, setup.seat_entrants(entrants))))
            links.append(TableLinks(t, game.id, edit, read))
        played = StoredRound(number, "open", seating.byes, now, None, tuple(stored_tables))
        try:
            unit.events.add_round(
                event_id, expected_version=version, played=played, games=tuple(games),
                data={"round": number, **seating.to_json()}, now=now)
        except StaleGame as error:
            raise _concurrent() from error
        # The event as the write leaves it (read again, it would not show before the commit).
        rounds = list(view.rounds)
        if current is not None and current.stored.state == "open":
            rounds[-1] = self._closed(current, now)
            self._count(unit, rounds[-1])
        rounds.append(RoundView(played, tuple(
            TableView(number, table, self.games.view_of(game))
            for table, game in zip(stored_tables, games, strict=True))))
        event = replace(view.event, version=version + 1,
                        played=tuple(r.stored for r in rounds))
        return EventView(event, setup, tuple(rounds)), links

    @staticmethod
    def _disputes_allowed(played: RoundView, despite_disputes: bool) -> dict[str, Any]:
        """What the history keeps of a round's open disputes as it closes; ``OpenDisputes``
        (each disputed hand listed) while players dispute hands of it, unless the organiser
        said ``despite_disputes``."""
        disputes = open_disputes(played)
        if disputes and not despite_disputes:
            raise OpenDisputes(Text.counted(
                "{n} hand of round {round} is disputed: settle it, or close the round anyway "
                "(despite_disputes: true); the organiser can still correct it afterwards",
                "{n} hands of round {round} are disputed: settle them, or close the round "
                "anyway (despite_disputes: true); the organiser can still correct them "
                "afterwards", len(disputes), round=played.number),
                tuple(d.problem() for d in disputes))
        return {"despite_disputes": [d.to_json() for d in disputes]} if disputes else {}

    def close_round(self, unit: UnitOfWork, event_id: str, token: str | None,
                    number: int, despite_disputes: bool = False) -> EventView:
        """End round ``number`` now: its unfinished games count as they stand and take no
        more hands. While players dispute hands of it, the organiser is asked first
        (``OpenDisputes``, each disputed hand listed) unless ``despite_disputes``; the
        history keeps which disputes were open when it closed."""
        self._authorize(event_id, token, write=True)
        view = self._view(self._load(event_id))
        self._round(view.event, number)
        played = view.rounds[number - 1]
        if played.stored.state == "closed":
            raise Conflict(Text("round {n} is already closed", n=number), code="round_closed")
        data: dict[str, Any] = {"round": number,
                                **self._disputes_allowed(played, despite_disputes)}
        now = self.clock()
        try:
            unit.events.close_round(event_id, expected_version=view.event.version,
                                        number=number, data=data, now=now)
        except StaleGame as error:
            raise _concurrent() from error
        rounds = list(view.rounds)
        rounds[number - 1] = self._closed(played, now)
        self._count(unit, rounds[number - 1])
        event = replace(view.event, version=view.event.version + 1,
                        played=tuple(r.stored for r in rounds))
        return EventView(event, view.setup, tuple(rounds))

    def correct_hand(self, unit: UnitOfWork, event_id: str, token: str | None, number: int,
                     table: int, hand: int, record: Mapping[str, Any],
                     if_match: Collection[str] | None) -> HandView:
        """The organiser corrects hand ``hand`` of table ``table`` of round ``number``, with
        the event's edit token, closed round or not (a dispute settled after the round was
        closed): a new version of the hand in the game's history, an action in the event's,
        and the standings follow."""
        self._authorize(event_id, token, write=True)
        event = self._load(event_id)
        played = self._round(event, number)
        found = _table_of(played, event_id, table)
        corrected = self.games.correct_table_hand(unit, found.game_id, hand, record, if_match)
        version = event.version
        if played.state == "open" and self._round(self._load(event_id), number).state \
                == "closed":
            version += 1  # the correction finished the round's last game: it ended with it
        try:
            unit.events.record_action(
                event_id, expected_version=version, action="correct_hand",
                data={"round": number, "table": table, "game": found.game_id, "hand": hand,
                      "version": corrected.version,
                      "round_closed": played.state == "closed"},
                now=self.clock())
        except StaleGame as error:
            raise _concurrent() from error
        return corrected

    def publish(self, unit: UnitOfWork, event_id: str, token: str | None,
                public: bool) -> EventView:
        """The organiser publishes the event (its results readable without a token) or takes
        it down, at once; kept in its history. The read token may not (403)."""
        self._authorize(event_id, token, write=True)
        event = self._load(event_id)
        if event.public != public:
            try:
                unit.events.publish_event(event_id, expected_version=event.version,
                                          public=public, now=self.clock())
            except StaleGame as error:
                raise _concurrent() from error
            event = replace(event, public=public, version=event.version + 1)
        return self._view(event)

    def public_state(self, event_id: str) -> tuple[object, ...]:
        """A published event's state (``event_state``, and its field's: what a section's
        room counts moves with the other sections); 404 for one not published, as for one
        that does not exist."""
        state = self.repository.public_event_state(event_id)
        if state is None:
            raise _unpublished(event_id)
        return (*state, self._owed_elsewhere_said(event_id))

    # -- one field across many clubs ---------------------------------------------------------

    def _field_summaries(self, event_id: str, *, but: str | None = None
                         ) -> tuple[str, dict[str, SectionSummary], int] | None:
        """The field of the event (None for an event in no field): its host, each section's
        summary at its state now (read from the database only for a section whose state
        this process has not summed up yet), and the order of the field's state (it grows
        with every change to any section); ``but``: a section left out (the one a write in
        progress changes, whose state may yet be rolled back: never kept)."""
        state = self.repository.field_state(event_id)
        if state is None:
            return None
        host, sections = state
        keys = [(section_id, version, played) for section_id, version, played in sections
                if section_id != but]
        self._summaries_shared(keys)
        found: dict[str, SectionSummary] = {}
        for key in keys:
            summary = self._sections.get(key)
            if summary is None:
                summary = self._sections.made(key, partial(self._summed_up, *key))
            if summary is not _GONE:
                found[key[0]] = summary
        return host, found, sum(version + played for _id, version, played in sections)

    def _summaries_shared(self, keys: Sequence[tuple[str, int, int]]) -> None:
        """The summaries of ``keys`` this process has not kept, read in one request from
        those the topology shares, and kept."""
        missing = [key for key in keys if self._sections.get(key) is None]
        if not missing or self.shared is None:
            return
        for key, raw in zip(missing, self.shared.get_many([_shared_key(k) for k in missing]),
                            strict=True):
            if raw is not None:
                self._sections.put(key, SectionSummary.from_bytes(raw))

    def _summed_up(self, section_id: str, version: int, played: int) -> SectionSummary:
        """A section's summary at a state, made from the section read whole (``_GONE`` for
        one deleted meanwhile: it owes nothing); shared with the topology's other
        processes, made by one of them, when the section was read at that state."""
        def make() -> tuple[SectionSummary, bool]:
            view, at_key = self._section_view((section_id, version, played))
            return (_GONE if view is None else SectionSummary.of(view)), at_key

        if self.shared is None:
            return make()[0]
        made: list[SectionSummary] = []

        def shared() -> bytes:
            summary, at_key = make()
            made.append(summary)
            if not at_key:
                raise _MovedOn  # read at a newer state than the key's: shared by no one
            return summary.to_bytes()

        try:
            return SectionSummary.from_bytes(self.shared.made(
                _shared_key((section_id, version, played)), shared))
        except _MovedOn:
            return made[0]

    def _section_view(self, key: tuple[str, int, int]) -> tuple[EventView | None, bool]:
        """A section's own view at ``key``'s state (its id, version and games' played
        versions), read whole once per state in this process (None for a section deleted
        meanwhile), and whether it was read at that state: a section that moved on since is
        read as it is now, and kept under no key."""
        kept = self._section_views.get(key)
        if kept is not None:
            return kept, True
        section_id = key[0]
        event = self.repository.get_event(section_id)
        if event is None:
            return None, False
        view = self._own_view(event)
        # States only move on: still at the key's once read, it was read at it.
        at_key = (self.repository.event_state(section_id) or ())[:2] == key[1:]
        if at_key:
            self._section_views.put(key, view)
        return view, at_key

    def _owed_in_field(self, event_id: str) -> tuple[str, frozenset[int]] | None:
        """The event's field (None for an event in no field): its host, and the boards its
        other sections still owe (a section deleted owes nothing, nor one that has not
        started), each section summed up once per state."""
        found = self._field_summaries(event_id, but=event_id)
        if found is None:
            return None
        host, sections, _order = found
        return host, frozenset().union(*(summary.owed for summary in sections.values()))

    def _owed_elsewhere_said(self, event_id: str) -> str | None:
        """The boards the other sections of the event's field still owe, as a tag says them
        (None for an event in no field)."""
        found = self._owed_in_field(event_id)
        return None if found is None else f"{found[0]}:{sorted(found[1])}"

    def field_links(self, event_id: str, token: str | None) -> str | None:
        """The join key of the field the event hosts, again, for its organiser (edit token);
        None for an event that hosts none."""
        self._authorize(event_id, token, write=True)
        assert token is not None
        event = self._load(event_id)
        return field_key(token, event_id) if event.field_key_hash is not None else None

    def field_tag(self, event_id: str, token: str | None) -> tuple[str, str, int]:
        """The field's state as an entity tag, for a reader allowed it (``_field_access``):
        what its readings say of every section (``SectionSummary``), and nothing more; with
        the field's host and the order of its state."""
        self._field_reader(event_id, token)
        found = self._field_summaries(event_id)
        if found is None:
            raise _no_field(event_id)
        host, sections, order = found
        # What the field's readings say of each section: its version (its name, rounds and
        # tables), whether it is playing, the boards it counts (its own complete ones that
        # no other section owes) and its results on them; nothing of its other hands.
        owed = {i: summary.owed for i, summary in sections.items()}
        said = []
        for section_id, summary in sorted(sections.items()):
            counted = sorted(summary.complete - _owed_by_others(owed, section_id))
            said.append((section_id, summary.version, summary.playing, counted,
                         [summary.plays.get(board) for board in counted]))
        digest = hashlib.sha256(f"{host}|{said}".encode()).hexdigest()[:16]
        return f"f{digest}", host, order

    def field_host(self, event_id: str, token: str | None) -> str:
        """The host of the event's field, for a reader allowed to read it (as ``field_tag``),
        read with the field's state and no section loaded where a token says who reads."""
        host = self._field_reader(event_id, token)
        if host is not None:
            return host
        state = self.repository.field_state(event_id)
        if state is None:
            raise _no_field(event_id)
        return state[0]

    def _field_reader(self, event_id: str, token: str | None) -> str | None:
        """Refuse a reader who may not read the event's field. With a token, the token alone
        is checked: the host is then read with the field's state, not from the section
        loaded whole (a stream's reading asks after every hand of every section). Without
        one, whether the host published the field (``_field_access``), which finds the host:
        returned."""
        if token:
            self._authorize(event_id, token, write=False)
            return None
        return self._field_access(event_id, token)

    def _field_access(self, event_id: str, token: str | None) -> str:
        """The host of the event's field, for a reader who may read it: any token of the
        event (a section's, the host's), or no token once the host has published its event
        (and with it the field). 401 without a token otherwise, 404 for an event in no
        field."""
        if token:
            self._authorize(event_id, token, write=False)
            event = self._load(event_id)
        else:
            event = self.repository.get_event(event_id)
            host = (self.repository.get_event(event.field_host)
                    if event is not None and event.field_host is not None else None)
            if event is None or host is None or not host.public:
                self._authorize(event_id, token, write=False)  # 401: it needs a token
                raise _unpublished(event_id)  # pragma: no cover - the line above raises
        if event.field_host is None:
            raise _no_field(event_id)
        return event.field_host

    def _field_sections(self, host: str) -> tuple[EventView, ...]:
        """Every section of the field as its room reads it, in the order they joined it:
        only the boards no table of any section is due to play counted. Each section is read
        whole only at a state this process has not read it at (``_section_view``)."""
        state = self.repository.field_state(host)
        found = (self._section_view(key)[0] for key in (state[1] if state else ()))
        own = [v for v in found if v is not None]
        owed = {v.id: v.owed() for v in own}
        return tuple(replace(v, field_owed=_owed_by_others(owed, v.id)).for_reader("read")
                     for v in own)

    def get_field(self, event_id: str, token: str | None, *, explained: bool = True
                  ) -> FieldReading:
        """The field of the event: its sections and its standings (every section's results
        on the boards complete for the field, scored together); without ``explained``, no
        row's explanation (a wall shows places alone)."""
        host = self._field_access(event_id, token)
        sections = self._field_sections(host)
        found, rows = field_standings([
            Section(v.id, tuple(v.setup.names()), frozenset(v.setup.listed()),
                    tuple(board_plays(v))) for v in sections], explained=explained)
        provisional = any(v.current is not None and v.current.stored.state == "open"
                          and not v.current.finished for v in sections)
        return FieldReading(host, sections, replace(found, provisional=provisional), rows)

    def get_field_traveller(self, event_id: str, token: str | None, number: int
                            ) -> FieldTraveller:
        """Board ``number``'s traveller across the field: every section's results on it,
        scored together, once no table of any section is due to play it; 404 before."""
        host = self._field_access(event_id, token)
        sections = self._field_sections(host)
        plays: list[BoardPlay] = []
        by_game: dict[str, EventView] = {}
        for view in sections:
            for play in board_plays(view, number):
                plays.append(play)
                by_game[play.game] = view
        if not plays:
            raise NotFound(Text("the field of event {event} has no board {board} to show",
                                event=event_id, board=number))
        return FieldTraveller(traveller(number, plays), by_game)

    def public_event(self, event_id: str) -> EventView:
        """A published event as anyone may read it: as its room does, every board not yet
        complete left out (``EventView.for_reader``); 404 when not published."""
        event = self.repository.get_event(event_id)
        if event is None or not event.public:
            raise _unpublished(event_id)
        return self._view(event).for_reader("read")

    def release_board(self, unit: UnitOfWork, event_id: str, token: str | None, number: int,
                      table: int, board: int) -> list[TableRefusals]:
        """The organiser lets table ``table`` of round ``number`` record board ``board``
        again: its refusals of the board count no more toward the limit (they stay in its
        total), and the event's history keeps how many were released. 404 for a table or a
        board it does not play; nothing to release changes nothing."""
        self._authorize(event_id, token, write=True)
        event = self._load(event_id)
        played = self._round(event, number)
        found = _table_of(played, event_id, table)
        if board not in {b.number for b in
                         self.games.view_at(found.game_id, found.game_version).setup.boards}:
            raise NotFound(Text("table {table} of round {n} plays no board {board}",
                                table=table, n=number, board=board))
        counted = unit.refusals.counted_refusals(found.game_id, board)
        if unit.refusals.release_refusals(found.game_id, board):
            try:
                unit.events.record_action(
                    event_id, expected_version=event.version, action="release_board",
                    data={"round": number, "table": table, "game": found.game_id,
                          "board": board, "released": counted},
                    now=self.clock())
            except StaleGame as error:
                raise _concurrent() from error
        return [TableRefusals(round_, t, refused)
                for round_, t, refused in unit.refusals.event_refusals(event_id)]

    def swap(self, unit: UnitOfWork, event_id: str, token: str | None, number: int,
             tables: object) -> EventView:
        """The organiser's swap: round ``number`` seated anew, before any hand is recorded at
        any of its tables (the same tables, the same games, other people at them)."""
        self._authorize(event_id, token, write=True)
        view = self._view(self._load(event_id))
        setup = view.setup
        played = next((r for r in view.rounds if r.number == number), None)
        if played is None:
            raise NotFound(Text("event {event} has no round {n}", event=event_id, n=number))
        problems: list[Problem] = []
        if played.stored.state == "closed":
            problems.append(Problem("round", "round_closed", Text(
                "round {n} is closed: its seating stays as it was played", n=number)))
        started = [t.stored.number for t in played.tables if t.game.hands]
        if started:
            problems.append(Problem("round", "hands_recorded", Text.counted(
                "table {tables} has recorded a hand: a round is swapped before it starts",
                "tables {tables} have recorded hands: a round is swapped before it starts",
                len(started), tables=", ".join(str(t) for t in started))))
        seating, wrong = read_seating(setup, tables)
        problems += wrong
        if seating and len(seating) != len(played.tables):
            problems.append(Problem("tables", "table_count", Text(
                "round {n} has {count} tables; a swap seats the same tables", n=number,
                count=len(played.tables))))
        if problems:
            raise RecordInvalid(problems)
        seated = tuple(tuple(int(e) for e in table if e is not None) for table in seating)
        active = setup.active(number)
        away = [Problem(f"tables[{t}]", "entrant_not_playing", Text(
            "{name} does not play round {n}", name=setup.entrants[e].name, n=number))
            for t, table in enumerate(seated) for e in table if e not in active]
        if away:
            raise RecordInvalid(away)
        on = {e for table in seated for e in table}
        byes = tuple(e for e in active if e not in on)
        assert token is not None
        sealed = tuple(sealed_seats(token, event_id, number, t, table.stored.game_id,
                                    table_tokens(token, event_id, number, t)[0],
                                    setup.seat_entrants(entrants))
                       for t, (table, entrants) in enumerate(zip(played.tables, seated,
                                                                 strict=True), start=1))
        before = played.seating()
        try:
            unit.events.reseat_round(
                event_id, expected_version=view.event.version, number=number,
                tables=tuple((t, entrants, tuple(setup.seat_names(entrants)),
                              view.event.seat_members(entrants))
                             for t, entrants in enumerate(seated, start=1)),
                byes=byes, data={"round": number, "before": before.to_json(),
                                 "after": Seating(seated, byes).to_json()},
                now=self.clock(), sealed=sealed)
        except StaleGame as error:
            raise Conflict(Text("the event changed, or a table recorded a hand, while the "
                                "swap was made; read it and try again"),
                           code="concurrent_change") from error
        tables_after = []
        for table, entrants in zip(played.tables, seated, strict=True):
            game = replace(table.game.game, players=tuple(setup.seat_names(entrants)),
                           version=table.game.game.version + 1,
                           seat_members=view.event.seat_members(entrants))
            tables_after.append(TableView(
                number, replace(table.stored, entrants=entrants, game_version=game.version,
                                sealed=sealed[table.stored.number - 1]),
                self.games.view_of(game)))
        after = RoundView(replace(played.stored, byes=byes,
                                  tables=tuple(t.stored for t in tables_after)),
                          tuple(tables_after))
        rounds = [after if r.number == number else r for r in view.rounds]
        event = replace(view.event, version=view.event.version + 1,
                        played=tuple(r.stored for r in rounds))
        return EventView(event, setup, tuple(rounds))

    # -- the round's clock and the prize list -------------------------------------------------

    def close_by_clock(self, event_id: str, by: str = "reading", *,
                       version: int | None = None) -> bool:
        """Close the event's open round if its clock says it closed already (``auto_close``,
        ``grace_minutes`` after its end), whether or not anyone asked at that moment: what
        every reading and change of the event, and every request of one of its tables, does
        first, so whoever comes after that moment finds it closed; and what the clock's sweep
        does for every round due (``by``: ``reading`` or ``sweep``). One small query when
        there is nothing to close, none when the event's version was read before here. The round closes as the organiser's close would close it,
        at the moment the clock said (its unfinished tables count as they stand), in a unit
        of work of its own (joining the write in progress, if any); whether it closed one.
        Two closers at once (two processes' sweeps, a sweep and a reading) close it once: the
        second holds the event after the first and finds the round closed. ``version``: the
        event's version the caller read, whose open round and clock this process may have
        kept (no query then)."""
        if self.units is None:
            return False
        found = self._open_round_clock(event_id, version)
        if found is None:
            return False
        settings, number, started = found
        closes = clock_of(settings).closes_at(started)
        if closes is None or self.clock() < closes:
            return False
        unit = self.units()
        return unit.run(lambda: self._close_by_clock(unit, event_id, number, by))

    def _open_round_clock(self, event_id: str, version: int | None
                          ) -> OpenRoundClock | None:
        """The event's open round's settings, number and start (None: no round open), kept
        by the event's version when the caller names it. Read after the version was, the
        kept state is never older than that version's."""
        if version is None:
            return self.repository.open_round_clock(event_id)
        kept = self._clocks.get(event_id)
        if kept is not None and kept[0] == version:
            return kept[1]
        found = self.repository.open_round_clock(event_id)
        self._clocks.put(event_id, (version, found))
        return found

    def _close_by_clock(self, unit: UnitOfWork, event_id: str, number: int, by: str) -> bool:
        self.hold(unit, event_id)
        event = self._load(event_id)
        stored = self._round(event, number)
        closes = clock_of(event.settings).closes_at(stored.started_at)
        if stored.state != "open" or closes is None or self.clock() < closes:
            return False  # closed meanwhile, or the clock was changed
        played = self._round_view(stored)
        data: dict[str, Any] = {"round": number, "automatic": True, "clock": True}
        disputes = open_disputes(played)
        if disputes:
            data["despite_disputes"] = [d.to_json() for d in disputes]
        now = self.clock()
        try:
            unit.events.close_round(event_id, expected_version=event.version, number=number,
                                    data=data, now=now, closed_at=closes)
        except StaleGame as error:
            raise ConcurrentChange(Text("the event was changed by another request at the "
                                        "same time; read it and try again")) from error
        self._count(unit, self._closed(played, closes))
        unfinished = sum(1 for table in played.tables if table.state == "playing")
        unit.after_commit(lambda: self._told_closed_by_clock(
            event_id, number, closes, now, by, unfinished))
        return True

    def _told_closed_by_clock(self, event_id: str, number: int, closes: datetime,
                              now: datetime, by: str, unfinished: int) -> None:
        """A round the clock closed, once its write stands: one log line, and the count of
        the metrics (``clock_closed``)."""
        late = max(0.0, (now - closes).total_seconds())
        log.info("round %d of event %s closed by its clock (%s, %.0f s after its moment)",
                 number, event_id, by, late, extra={"fields": {
                     "event": event_id, "round": number, "closed_at": closes.isoformat(),
                     "by": by, "late_seconds": round(late, 3),
                     "unfinished_tables": unfinished}})
        if self.clock_closed is not None:
            self.clock_closed(by)
        if self.changed is not None:
            self.changed(event_id)

    def close_due_rounds(self) -> int:
        """The clock's sweep: close every round stored open whose clock's moment has come
        (``close_by_clock``, ``by="sweep"``), one event a unit of work; how many it closed.
        One query over the open rounds finds them (none: nothing more is asked). A round
        another process closed meanwhile is found closed and not counted; an event that
        could not be closed is logged and left for the next sweep (or the next reading)."""
        now = self.clock()
        closed = 0
        for event_id, settings, _number, started in (
                self.repository.open_rounds_closing_by_clock(
                    now - timedelta(minutes=ROUND_MINUTES_MIN))):
            closes = clock_of(settings).closes_at(started)
            if closes is None or now < closes:
                continue
            try:
                closed += self.close_by_clock(event_id, by="sweep")
            except Exception:  # one event's trouble keeps no other round open
                log.exception("the clock could not close the round of event %s; the next "
                              "sweep tries again", event_id)
        return closed

    def set_clock(self, unit: UnitOfWork, event_id: str, token: str | None,
                  body: Mapping[str, Any]) -> EventView:
        """The organiser sets the round's clock (``round_minutes``, ``auto_close``,
        ``grace_minutes``; a field left out keeps its value). It holds for the round being
        played too: its end moves with ``round_minutes``."""
        return self._set_settings(unit, event_id, token, "clock", lambda event: settings_json(
            validate_clock(body, clock_of(event.settings)), *prizes_of(event.settings)))

    def set_prizes(self, unit: UnitOfWork, event_id: str, token: str | None,
                   body: Mapping[str, Any]) -> EventView:
        """The organiser sets the prize list and its currency (a field left out keeps its
        value)."""
        return self._set_settings(unit, event_id, token, "prizes", lambda event: settings_json(
            clock_of(event.settings), *validate_prizes(body, prizes_of(event.settings))))

    def _set_settings(self, unit: UnitOfWork, event_id: str, token: str | None, what: str,
                      make: Callable[[StoredEvent], dict[str, Any]]) -> EventView:
        self._authorize(event_id, token, write=True)
        view = self._view(self._load(event_id))
        settings = make(view.event)
        current = view.current
        open_round = current.number if current and current.stored.state == "open" else None
        try:
            unit.events.set_settings(
                event_id, expected_version=view.event.version, settings=settings,
                data={"set": what, **{k: v for k, v in settings.items()
                                      if (k == "prizes" or k == "currency") == (what == "prizes")}},
                now=self.clock(), open_round=open_round)
        except StaleGame as error:
            raise _concurrent() from error
        event = replace(view.event, version=view.event.version + 1, settings=settings)
        return replace(view, event=event)

    def round_clock(self, event_id: str, number: int) -> tuple[RoundClock, datetime] | None:
        """The event's clock and round ``number``'s start, for its tables' sheets (the
        table's token opened the game: nothing of the event's is asked)."""
        found = self.repository.round_clock(event_id, number)
        return None if found is None else (clock_of(found[0]), found[1])

    def get_prizes(self, event_id: str, token: str | None) -> PrizeReading:
        """The prize list as the standings share it now, to either token: ``final`` once
        the event's last planned round has closed (an event of no planned number of rounds:
        whenever no round is being played), provisional before."""
        return self.prize_reading(*self.get_standings(event_id, token))

    @staticmethod
    def prize_reading(view: EventView, found: Standings) -> PrizeReading:
        """The prize list as ``found`` (the view's standings) shares it."""
        current = view.current
        settled = current is not None and current.stored.state == "closed"
        planned = view.setup.rounds
        final = settled and (planned is None or len(view.rounds) >= planned)
        return read_prizes(view.event, tuple(view.setup.names()), found, final=final)

    # -- a round's end, when its last table finishes -----------------------------------------

    def hold(self, unit: UnitOfWork, event_id: str) -> None:
        unit.events.hold_event(event_id)

    def table_finished(self, unit: UnitOfWork, game: GameView) -> GameView | None:
        """A table's game has just finished in ``unit`` (``game``: as that write leaves it,
        the event held since before it): when every table of its round has finished, the
        round ends now, in the same write, exactly as the organiser's close would end it
        (both ends of a round count the same) — its close time, its games closed, an
        action in the history (``automatic``, with the disputes open then), and its tables
        counted for the event's club. Returns ``game`` as the close leaves it, or None while
        another table is still being played."""
        assert game.game.event is not None
        event_id, number, _table = game.game.event
        event = self._load(event_id)
        played = self._round_view(self._round(event, number), {game.id: game})
        if played.stored.state != "open" or not played.finished:
            return None
        disputes = open_disputes(played)
        data: dict[str, Any] = {"round": number, "automatic": True}
        if disputes:
            data["despite_disputes"] = [d.to_json() for d in disputes]
        now = self.clock()
        try:
            unit.events.close_round(event_id, expected_version=event.version, number=number,
                                    data=data, now=now)
        except StaleGame as error:  # pragma: no cover - the event is held
            raise _concurrent() from error
        closed = self._closed(played, now)
        self._count(unit, closed)
        return next(t.game for t in closed.tables if t.game.id == game.id)

    # -- rounds left open by earlier releases ------------------------------------------------

    def leaves_a_round_open(self, event_id: str) -> bool:
        """Whether the event has a round stored open with every table finished (read without
        holding the event: most events with an open round are simply being played)."""
        return any(stored.state == "open" and self._round_view(stored).finished
                   for stored in self._load(event_id).played)

    def end_rounds_left_open(self, unit: UnitOfWork, event_id: str) -> tuple[int, ...]:
        """Every round of the event stored open with all its tables finished (earlier
        releases never ended a round by itself) ends now, in ``unit``, as the write that
        finished its last table would have ended it: closed at the moment that table
        finished (so the club counts it on the evening it was played, in its own season),
        its games closed, a ``close_round`` action with ``automatic`` and ``upgrade`` (the
        action itself is written now) and the disputes open now, its tables counted for the
        club. The event is held first, as a table's finishing write holds it. The numbers
        of the rounds ended; none when there is nothing to end (a second run)."""
        self.hold(unit, event_id)
        event = self._load(event_id)
        version = event.version
        ended: list[int] = []
        for stored in event.played:
            if stored.state != "open":
                continue
            played = self._round_view(stored)
            if not played.finished:
                continue
            data: dict[str, Any] = {"round": played.number, "automatic": True,
                                    "upgrade": True}
            disputes = open_disputes(played)
            if disputes:
                data["despite_disputes"] = [d.to_json() for d in disputes]
            at = _last_finish(played)
            try:
                unit.events.close_round(event_id, expected_version=version,
                                        number=played.number, data=data, now=self.clock(),
                                        closed_at=at)
            except StaleGame as error:  # pragma: no cover - the event is held
                raise _concurrent() from error
            version += 1
            self._count(unit, self._closed(played, at))
            ended.append(played.number)
        return tuple(ended)

    # -- internals --------------------------------------------------------------------------

    @staticmethod
    def _count(unit: UnitOfWork, closed: RoundView) -> None:
        """A closed round's tables count for the event's club, as they stood."""
        for table in closed.tables:
            project_game(unit, table.game.game, table.game.summary,
                         table.game.setup.variant.family, table.game.hands)

    def _seat(self, view: EventView, tables: object | None) -> Seating:
        """The next round's seating, in roster numbers: the entrants active in it
        (docs/events.md#late-arrivals-and-withdrawals) seated by the format, the others
        left out (nobody's bye)."""
        setup = view.setup
        number = len(view.rounds) + 1
        subset = Subset.of(setup.active(number), len(setup.entrants))
        n = subset.size
        if setup.format == "free":
            if tables is None:
                raise RecordInvalid([Problem("tables", "missing_tables", Text(
                    "the free format seats each table as the organiser says: give the "
                    "tables"))])
            seating, problems = read_seating(setup, tables)
            if problems:
                raise RecordInvalid(problems)
            seated = tuple(tuple(int(e) for e in t if e is not None) for t in seating)
            away = [Problem(f"tables[{t}]", "entrant_not_playing", Text(
                "{name} does not play round {n}", name=setup.entrants[e].name, n=number))
                for t, table in enumerate(seated) for e in table if e not in subset.active]
            if away:
                raise RecordInvalid(away)
            on = {e for table in seated for e in table}
            return Seating(seated, tuple(e for e in subset.active if e not in on))
        if tables is not None:
            raise RecordInvalid([Problem("tables", "tables_unexpected", Text(
                "the {format} format seats the round itself; change it with a swap before "
                "the round starts", format=setup.format))])
        self._roster_fills(setup, number, n)
        history = subset.history(view.history_seatings(), setup.missed(len(view.rounds)))
        if setup.duplicate:
            # The movement (docs/events.md#duplicate): individual by the seating search, pairs
            # by a Mitchell.
            assert setup.boards_per_round is not None
            return subset.back(plan_round(setup.variant, setup.format, n, len(view.rounds),
                                          setup.boards_per_round, history, setup.seed).seating)
        if setup.format == "individual":
            return subset.back(seat_individual(n, setup.shape, history, setup.seed))
        ranking = (subset.ranking([row.entrant for row in self.standings_of(view).rows])
                   if view.rounds else list(range(n)))
        assert setup.pairing is not None
        return subset.back(seat_pairs(n, ranking, history, setup.pairing, setup.seed))

    @staticmethod
    def _roster_fills(setup: EventSetup, number: int, active: int) -> None:
        """409 ``roster_too_small`` when the entrants active in round ``number`` fill no
        table."""
        wanted = 2 if setup.format == "pairs" else setup.shape.per_table
        if active < wanted:
            raise Conflict(Text.counted(
                "round {round} would seat {n} entrant; a table needs {wanted}",
                "round {round} would seat {n} entrants; a table needs {wanted}",
                active, round=number, wanted=wanted), code="roster_too_small")

    @staticmethod
    def _boards_of(view: EventView, seating: Seating) -> list[tuple[int, ...]] | None:
        """Each table's boards in the order it plays them, for the round about to be seated
        (a duplicate event's; None for free deals): the round's own boards at every table,
        each table from its own start."""
        setup = view.setup
        if not setup.duplicate:
            return None
        assert setup.boards_per_round is not None
        plan = seated_round(setup.variant, setup.format, len(view.rounds),
                            setup.boards_per_round, seating)
        return [t.boards for t in plan.tables]

    def _closed(self, played: RoundView, now: datetime) -> RoundView:
        """A round as closing it leaves it: every game closed, one version on."""
        tables = tuple(TableView(played.number, replace(t.stored, closed=True,
                                                        game_version=t.stored.game_version + 1),
                                 self.games.view_of(replace(t.game.game, closed_at=now,
                                                            version=t.game.game.version + 1)))
                       for t in played.tables)
        stored = replace(played.stored, state="closed", closed_at=now,
                         tables=tuple(t.stored for t in tables))
        return RoundView(stored, tables)

    def _load(self, event_id: str) -> StoredEvent:
        event = self.repository.get_event(event_id)
        if event is None:
            raise EventNotFound(Text("there is no event {event} for this token",
                                     event=repr(event_id)))
        return event

    @staticmethod
    def _round(event: StoredEvent, number: int) -> StoredRound:
        found = next((r for r in event.played if r.number == number), None)
        if found is None:
            raise NotFound(Text("event {event} has no round {n}", event=event.id, n=number))
        return found

    def _view(self, event: StoredEvent) -> EventView:
        """The event's view; a section of a field's with the boards the field's other
        sections still owe (``EventView.field_owed``)."""
        view = self._own_view(event)
        if event.field_host is None:
            return view
        return replace(view, field_owed=self._owed_elsewhere(event))

    def _own_view(self, event: StoredEvent) -> EventView:
        setup = _setup_of(event)
        # Every table's game of every round, read together where this process keeps none.
        games = self.games.views_at([(t.game_id, t.game_version)
                                     for r in event.played for t in r.tables])
        rounds = tuple(self._round_view(r, games) for r in event.played)
        return EventView(event, setup, rounds)

    def _owed_elsewhere(self, event: StoredEvent) -> frozenset[int]:
        """The boards the other sections of the event's field still owe, as its tag reads
        them (``_owed_in_field``)."""
        found = self._owed_in_field(event.id)
        return found[1] if found is not None else frozenset()

    def _view_of(self, event: StoredEvent, rounds: tuple[RoundView, ...]) -> EventView:
        """The view of ``event`` as a write changed it (its rounds as they were)."""
        view = EventView(event, _setup_of(event), rounds)
        if event.field_host is None:
            return view
        return replace(view, field_owed=self._owed_elsewhere(event))

    def _round_view(self, played: StoredRound, fresh: Mapping[str, GameView] | None = None
                    ) -> RoundView:
        """A round's view; ``fresh``: games already in hand (as the write in progress leaves
        them: read again, they would be kept in this process's views before the write
        commits; or read together for the event's every round)."""
        fresh = fresh or {}
        return RoundView(played, tuple(
            TableView(played.number, t, fresh[t.game_id] if t.game_id in fresh
                      else self.games.view_at(t.game_id, t.game_version))
            for t in played.tables))


@dataclass(frozen=True, slots=True)
class TableRefusals:
    """A table's refused records of one board (``refusals``): its round and table."""

    round: int
    table: int
    refused: BoardRefusals

    @property
    def stopped(self) -> bool:
        """The table reached the limit: it records the board no more until released."""
        return self.refused.counted >= REFUSALS_PER_BOARD


@dataclass(frozen=True, slots=True)
class Dispute:
    """A hand of a round that a player disputes, as it stands: its table, its number, and
    who disputes it and why."""

    table: int
    game_id: str
    hand: int
    by: tuple[tuple[str, str], ...]  # (player, reason)

    def problem(self) -> Problem:
        who = ", ".join(f"{name} ({reason})" if reason else name for name, reason in self.by)
        return Problem(f"tables[{self.table}].hands[{self.hand}]", "hand_disputed", Text(
            "table {table}, hand {hand}: disputed by {who}", table=self.table,
            hand=self.hand, who=who))

    def to_json(self) -> dict[str, object]:
        return {"table": self.table, "game": self.game_id, "hand": self.hand,
                "by": [{"player": name, "reason": reason} for name, reason in self.by]}


def open_disputes(played: RoundView) -> list[Dispute]:
    """The hands of a round that some player disputes as they stand, table by table."""
    out = []
    for table in played.tables:
        names = table.game.setup.seat_names()
        for hand in table.game.hands:
            if hand.standing.status != "disputed":
                continue
            reasons = {c.seat: c.reason or "" for c in hand.confirmations
                       if c.verdict == "dispute"}
            out.append(Dispute(table.stored.number, table.stored.game_id, hand.number,
                               tuple((names[seat] if seat < len(names) else str(seat),
                                      reasons.get(seat, ""))
                                     for seat in hand.standing.disputed)))
    return out


def _table_of(played: StoredRound, event_id: str, table: int) -> StoredTable:
    """Table ``table`` of the round ``played``; 404 naming the round when it has none."""
    found = next((t for t in played.tables if t.number == table), None)
    if found is None:
        raise NotFound(Text("round {n} of event {event} has no table {table}",
                            n=played.number, event=event_id, table=table))
    return found


def _last_finish(played: RoundView) -> datetime:
    """When the last table of a finished round finished: the latest of its games' last
    writes (a hand's newest version, the scorekeeper's "the evening is over"); the round's
    start for a round of no hands."""
    moments = [played.stored.started_at]
    for table in played.tables:
        moments += [hand.updated_at for hand in table.game.hands]
        if table.game.game.ended_at is not None:
            moments.append(table.game.game.ended_at)
    return max(moments)


def end_rounds_left_open(events: EventService, units: Callable[[], UnitOfWork]) -> int:
    """``EventService.end_rounds_left_open`` for every event with an open round, one event
    a unit of work (one short transaction each, so a large database is never held long);
    how many rounds it ended. Cheap when there is nothing to end: one query finds no event,
    and an event being played is read, never held. An event that cannot be ended is logged
    (its transaction rolled back) and the others are ended still: the next run tries it
    again."""
    ended = 0
    for event_id in events.repository.events_with_an_open_round():
        unit = units()

        def end(unit: UnitOfWork = unit, event_id: str = event_id) -> tuple[int, ...]:
            return events.end_rounds_left_open(unit, event_id)

        try:
            if events.leaves_a_round_open(event_id):
                ended += len(unit.run(end))
        except Exception:  # one event's trouble keeps no other event's rounds open
            log.exception("could not end the rounds left open of event %s; the next run "
                          "tries again", event_id)
    return ended


def _no_field(event_id: str) -> NotFound:
    return NotFound(Text("event {event} plays in no field", event=event_id))


def _unpublished(event_id: str) -> EventNotFound:
    """The answer for an event not published, the same whether it exists or not."""
    return EventNotFound(Text("there is no published event {event}", event=repr(event_id)))


def _concurrent() -> Conflict:
    return Conflict(Text("the event was changed by another request at the same time; read it "
                         "and try again"), code="concurrent_change")


def event_boards(view: EventView) -> tuple[Board, ...]:
    """Every board of a duplicate event, dealt from its seed: the planned rounds' boards,
    or, when the organiser plans none, those of the rounds started and of the next one (what
    a club makes before a round). ``NotFound`` for an event of free deals."""
    setup = view.setup
    if not setup.duplicate or setup.boards_per_round is None:
        raise NotFound(Text("event {event} deals freely: it has no boards", event=view.id))
    rounds = setup.rounds if setup.rounds is not None else len(view.rounds) + 1
    return deal_boards(setup.variant, setup.seed, rounds * setup.boards_per_round)


def board_shown(view: EventView, number: int) -> bool:
    """Whether board ``number``'s deal may be shown to the room: once every table due to
    play it has played it (a table whose game ended, or whose round was closed, is no
    longer due). A board of a round not started yet is not shown."""
    return number in view.complete_boards()


#: Each table's plays as its game's version left them (``board_plays``): after a hand the
#: standings make again only that table's.
_TABLE_PLAYS: LruCache[tuple[object, ...], tuple[BoardPlay, ...]] = LruCache(4096)


def board_plays(view: EventView, number: int | None = None) -> list[BoardPlay]:
    """Every table's result on board ``number`` so far (every board's, without one): at each
    table whose game has played it, the hand that was the board, who sat where, and each
    column's result credited to the entrants the column seats (as the standings credit a
    table's columns: both partners of a side, a pair, a player with their dummy). Only the
    boards the view's reader may count (``EventView.counted``)."""
    plays: list[BoardPlay] = []
    for played in view.rounds:
        for table in played.tables:
            plays += [p for p in _table_plays(view, played.number, table)
                      if (number is None or p.board == number) and view.counts(p.board)]
    return plays


def _table_plays(view: EventView, round_: int, table: TableView) -> tuple[BoardPlay, ...]:
    """A table's result on each board its game has played, kept for the game's version (a
    swap, a hand, a correction: a new version) and the entrants seated."""
    game = table.game
    key = (game.game.id, game.game.version, round_, table.stored.number, table.stored.entrants)
    kept = _TABLE_PLAYS.get(key)
    if kept is not None:
        return kept
    credited = view.setup.column_entrants(table.stored.entrants,
                                          [c.seats for c in game.summary.columns])
    seats = tuple(game.setup.seat_names())
    found = tuple(BoardPlay(board.number, round_, table.stored.number, game.game.id,
                            hand.number, seats, credited,
                            board_columns(view.setup.variant, hand.result))
                  for hand, board in zip(game.hands, game.setup.boards, strict=False))
    _TABLE_PLAYS.put(key, found)
    return found


def finished_boards(view: EventView) -> list[tuple[int, int, tuple[BoardTop, ...]]]:
    """The boards finished across the room, in order (what the wall shows): each board every
    table due to play it has played (``board_shown``), with how many tables played it and
    each column's top result. None for an event of free deals."""
    if not view.setup.duplicate:
        return []
    by_board: dict[int, list[BoardPlay]] = defaultdict(list)
    for play in board_plays(view):
        by_board[play.board].append(play)
    complete = view.complete_boards()
    return [(number, len(plays), board_tops(plays)) for number, plays in sorted(by_board.items())
            if number in complete]


def boards_owed(table: TableView) -> tuple[int, ...]:
    """The boards a duplicate table has still to play, in its order: those after the hands
    it has played while its game is being played; none once it ended or its round was
    closed (and none at a table of free deals)."""
    if table.state != "playing":
        return ()
    return tuple(b.number for b in table.game.setup.boards[table.game.summary.hands_played:])


def hand_board(table: TableView, number: int) -> Board | None:
    """The board hand ``number`` of a table's game plays (None at a table of free deals, or
    past its boards): what the referee checks a record's cards against."""
    return table.game.setup.board_of(number)


def repeated(view: EventView) -> dict[str, object]:
    """Who partnered or met whom more than once so far, by name (the organiser's check)."""
    found = repeats(view.history_seatings(), view.setup.shape, view.setup.format)
    names = view.setup.names()
    return {
        "partners": [{"entrants": [names[a], names[b]], "times": n}
                     for a, b, n in found.partners],
        "opponents": [{"entrants": [names[a], names[b]], "times": n}
                      for a, b, n in found.opponents],
    }


def seating_of(view: EventView, played: RoundView) -> dict[str, object]:
    return seating_json(view.setup, played.seating())


__all__ = ["CreatedEvent", "Dispute", "EventNotFound", "EventService", "EventView", "RoundView",
           "TableLinks", "TableRefusals", "TableView", "board_plays", "board_shown",
           "boards_owed", "end_rounds_left_open", "event_boards", "finished_boards",
           "hand_board", "open_disputes", "repeated", "seating_of", "table_tokens"]

