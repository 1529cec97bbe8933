"""What the use cases need from storage, stated without naming a database.

``service.persistence.SqlStore`` implements ``Store`` (its ``games``, ``events`` and
``idempotency`` repositories); tests may use any other object of this shape.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol

from service.domain import (
    ClubResult,
    Confirmation,
    MemberRow,
    Season,
)

#: What a game's history records: a hand created, corrected or deleted, and the
#: scorekeeper saying the evening is over (``end``, hand number 0) or taking it back; the
#: service's administrator issuing the game new tokens (``new_tokens``, hand 0 too) or
#: revoking some (``revoke_tokens``).
HandAction = Literal["create", "correct", "delete", "end", "reopen", "new_tokens",
                     "revoke_tokens"]
TokenKind = Literal["edit", "read"]
#: What a token opens: the edit and read tokens, or one player's link (reads, as that seat).
AccessKind = Literal["edit", "read", "player"]


@dataclass(frozen=True, slots=True)
class StoredHand:
    number: int
    version: int
    record: dict[str, Any]
    rules_version: str
    created_at: datetime
    updated_at: datetime
    #: Each seat's latest verdict on this version of the hand, by seat.
    confirmations: tuple[Confirmation, ...] = ()


@dataclass(frozen=True, slots=True)
class StoredGame:
    id: str
    variant: str
    options: dict[str, Any]
    players: tuple[str, ...]
    first_dealer: int
    edit_token_hash: str
    read_token_hash: str
    created_at: datetime
    version: int
    hands: tuple[StoredHand, ...] = ()
    #: The hash of each player's token, by seat: stored with the game.
    player_token_hashes: tuple[tuple[int, str], ...] = ()
    #: The event, round and table it is a table of, if any.
    event: tuple[str, int, int] | None = None
    #: When the organiser closed its round: it takes no more changes.
    closed_at: datetime | None = None
    #: The club it was played for, and the member at each seat (None: nobody's,
    #: a dummy's seat).
    club: str | None = None
    seat_members: tuple[str | None, ...] | None = None
    #: When its scorekeeper said the evening is over (a game with no natural end).
    ended_at: datetime | None = None
    #: A duplicate table's boards, in the order it plays them, and the event's seed that
    #: deals them: the table's game knows its cards, never shows the seed.
    boards: tuple[int, ...] = ()
    board_seed: int | None = None


@dataclass(frozen=True, slots=True)
class GivenVerdict:
    """A player's verdict on hand ``number``, as one change of its game."""

    number: int
    confirmation: Confirmation


@dataclass(frozen=True, slots=True)
class AddedHands:
    """What a game gained after a version it had, when all its changes since were new hands
    and players' verdicts: each in the order made (``changes``), the game now at
    ``version``."""

    version: int
    changes: tuple[StoredHand | GivenVerdict, ...]


@dataclass(frozen=True, slots=True)
class RecordedVerdict:
    """A verdict as stored: the game's version it made, and each seat's latest verdict on
    the hand's version once it was added (other seats' included, however they raced)."""

    game_version: int
    verdicts: tuple[Confirmation, ...]


@dataclass(frozen=True, slots=True)
class Credentials:
    """The two token hashes of a game, an event or a club, all that checking a token needs,
    and its version (for a conditional read that needs nothing more)."""

    edit_token_hash: str
    read_token_hash: str
    version: int


#: An event's open round as its clock needs it: the event's settings, the round's number and
#: when it started.
OpenRoundClock = tuple[dict[str, Any] | None, int, datetime]


@dataclass(frozen=True, slots=True)
class GameCredentials(Credentials):
    #: Each player's token hash, by seat; none for a game from before player links.
    player_token_hashes: tuple[tuple[int, str], ...] = ()
    #: A table of an event still open (its round not closed): the event's id, read with the
    #: credentials at no cost, so that a table's request can apply the round's clock first.
    open_table_of: str | None = None
    #: That event's version, read with it: the round's clock is then read once a version.
    open_table_version: int | None = None


@dataclass(frozen=True, slots=True)
class HandVersion:
    """One entry of a game's append-only history."""

    number: int
    version: int
    action: HandAction
    record: dict[str, Any] | None
    rules_version: str
    #: ``admin`` for the administrator's entries (``new_tokens``).
    token_kind: TokenKind | Literal["admin"]
    created_at: datetime
    #: Every verdict given on this version, oldest first (a seat may have changed its mind).
    confirmations: tuple[Confirmation, ...] = ()


#: The body of an entry withdrawn because its first response named a member of a club since
#: forgotten (``ClubRepository.withdraw_replays``): a retry with its key is refused.
WITHDRAWN = ""


@dataclass(frozen=True, slots=True)
class IdempotencyEntry:
    """The first response to a request made with an ``Idempotency-Key``, stored with the
    effect. The key itself is not stored: ``key_hash`` finds the entry, and ``body`` is sealed
    with the key (``service.application.idempotency``)."""

    scope: str  # the game's id, or "" for requests outside any game
    key_hash: str
    fingerprint: str  # method, path and canonical body of the first request
    status: int
    headers: dict[str, str]
    body: str
    created_at: datetime
    #: What the first response is about: the game, event or member the request made or
    #: changed (None: nothing of a club's).
    subject: str | None = None


@dataclass(frozen=True, slots=True)
class StoredTable:
    """One table of a round: its number, its game, the entrants it seats by place, and its
    game's version and whether its round closed it (as read with the event)."""

    number: int
    game_id: str
    entrants: tuple[int, ...]
    game_version: int = 1
    closed: bool = False
    #: Each seated entrant's player links, sealed for the entrant's own link (entrant number
    #: -> seat -> the sealed token; docs/events.md#the-door), or None.
    sealed: dict[str, dict[str, str]] | None = None


@dataclass(frozen=True, slots=True)
class StoredRound:
    number: int
    state: Literal["open", "closed"]
    byes: tuple[int, ...]
    started_at: datetime
    closed_at: datetime | None = None
    tables: tuple[StoredTable, ...] = ()


@dataclass(frozen=True, slots=True)
class StoredEvent:
    id: str
    name: str
    variant: str
    options: dict[str, Any]
    format: str
    pairing: str | None
    scoring: str
    rounds: int | None
    seed: int
    entrants: tuple[dict[str, Any], ...]
    edit_token_hash: str
    read_token_hash: str
    created_at: datetime
    version: int
    played: tuple[StoredRound, ...] = ()
    #: The club it is held for: its entrants then carry their members' ids
    #: (``member``; a pair's ``members``).
    club: str | None = None

    def seat_members(self, table: tuple[int, ...]) -> tuple[str | None, ...] | None:
        """The member at each seat of a table seating ``table`` (its entrants by place), in
        the order its game's players are named; None for an event of no club."""
        if self.club is None:
            return None
        if self.format == "pairs":
            a, b = (tuple(self.entrants[e].get("members") or (None, None)) for e in table)
            return (a[0], b[0], a[1], b[1])
        return tuple(self.entrants[e].get("member") for e in table)
    #: ``free`` or ``duplicate`` deals, and a duplicate round's boards.
    deals: str = "free"
    boards_per_round: int | None = None
    #: Published by the organiser: its results readable without a token.
    public: bool = False
    #: The round clock and the prize list with its currency (``events.settings``), as stored:
    #: ``round_minutes``, ``auto_close``, ``grace_minutes``, ``prizes``, ``currency``.
    settings: dict[str, Any] | None = None
    #: The door (docs/events.md#the-door): entrants check in as they arrive; what a late
    #: arrival's missed rounds are worth; the hash of the door's token (worked out from the
    #: edit token). Each entrant's own token's hash is on the entrant (``token_hash``).
    checkin: bool = False
    late_rounds: str = "zero"
    door_token_hash: str | None = None
    #: One field across many clubs (docs/events.md#one-field-across-many-clubs): the
    #: field's host (the event's own id when it hosts, the host's when it is a section; None:
    #: in no field) and, for the host, the hash of its join key.
    field_host: str | None = None
    field_key_hash: str | None = None


#: An event's: its two tokens and its version.
EventCredentials = Credentials


@dataclass(frozen=True, slots=True)
class TableEventToken:
    """A token of the event a table's game belongs to, shown at that table: which of the
    event's tokens it is (``edit``: the organiser's, ``read``: the room's) and where the
    table sits."""

    kind: Literal["edit", "read"]
    event_id: str
    round: int
    table: int


class EventTokens(Protocol):
    """What a game needs of events to tell an event's token from an unknown one."""

    def table_event_token(self, game_id: str, token_hash: str) -> TableEventToken | None:
        """The event's token, if ``token_hash`` is the edit or read token of the event whose
        table ``game_id`` is; None otherwise (a game of no event included)."""


@dataclass(frozen=True, slots=True)
class EventAction:
    """One action of an event's organiser, as its history keeps it."""

    version: int
    action: str
    data: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class StoredMember:
    """A member of a club as stored: ``number`` their place in the order they
    joined (from 1, the forgotten's label), ``merged_into`` the member they were merged
    into, ``changed_version`` the club's version that last changed them (their ETag)."""

    id: str
    number: int
    name: str
    name_key: str
    initials: str | None
    active: bool
    joined_at: datetime
    merged_into: str | None
    forgotten: bool
    changed_version: int
    #: False: the public pages and their JSON give the member's initials, not their name.
    public: bool = True


@dataclass(frozen=True, slots=True)
class StoredClub:
    id: str
    name: str
    edit_token_hash: str
    read_token_hash: str
    created_at: datetime
    version: int
    members: tuple[StoredMember, ...] = ()
    #: Published by the secretary (its ratings too with ``public_ratings``).
    public: bool = False
    public_ratings: bool = False


@dataclass(frozen=True, slots=True)
class ClubCredentials(Credentials):
    #: Moved by every change to the results the club's games count.
    results_version: int = 0


@dataclass(frozen=True, slots=True)
class RatingStep:
    """A member's rating in a family just after one of their rated games (``game``,
    finished at ``finished_at``, the family's ``number``-th rated game): their ``games``
    so far, openskill's ``mu`` and ``sigma``, and what the game moved the shown rating
    (``change``). Their last step is their rating as it stands."""

    game: str
    member: str
    finished_at: datetime
    number: int
    games: int
    mu: float
    sigma: float
    change: float


#: Where a game comes among a family's rated games: when it finished, then its id.
RatingOrder = tuple[datetime, str]


@dataclass(frozen=True, slots=True)
class MemberRows:
    """A member's rows of the club's results written after a results version, read in one
    statement with what says whether anything else moved: the club's ``version`` (a merge,
    an unmerge or a forget moves it and recounts rows without writing them again), how many
    rows count for the member now (``count``: a game that no longer counts for them takes its
    row away), and the ``rows`` written after it, each with its game's seat and the results
    version that wrote it (``written``)."""

    version: int
    count: int
    rows: tuple[tuple[int, int, MemberRow], ...]


@dataclass(frozen=True, slots=True)
class StoredSeason:
    """A season of a club as stored: its id, what it is, and when it was made."""

    id: str
    season: Season
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ClubGame:
    """A game played for a club, as the club's export lists it."""

    id: str
    variant: str
    players: tuple[str, ...]
    seat_members: tuple[str | None, ...]
    created_at: datetime
    event: tuple[str, int, int] | None
    ended_at: datetime | None


class GameIdTaken(Exception):
    """A new game's id is already in use (a random-id collision: draw another)."""


class StaleGame(Exception):
    """The game or hand changed between reading it and writing to it."""


class IdempotencyKeyTaken(Exception):
    """Another request stored the same key first (it was running at the same time)."""


class StoreUnavailable(Exception):
    """The store cannot answer now: the database is down, unreachable, restarting, out of
    connections, or locked past waiting. ``lost_connection`` when a connection it held went
    away mid-request (a restart, a cut network): what ran on it did not commit, so running
    it again from the start is safe."""

    def __init__(self, detail: str, *, lost_connection: bool = False) -> None:
        super().__init__(detail)
        self.detail = detail
        self.lost_connection = lost_connection


class SchemaNotCurrent(StoreUnavailable):
    """The database answers, but its schema is not the one this code reads (``expected``,
    the code's newest migration): it was not migrated yet (``database`` an older revision,
    or None for none at all), or a newer release migrated it past this one."""

    def __init__(self, database: str | None, expected: str) -> None:
        super().__init__(f"the database's schema is at {database or 'no revision'}, "
                         f"the service reads {expected}")
        self.database = database
        self.expected = expected


class IdempotencyRepository(Protocol):
    def find_idempotency(self, scope: str, key_hash: str) -> IdempotencyEntry | None: ...

    def save_idempotency(self, entry: IdempotencyEntry) -> None:
        """Store the entry (in the unit of work, with the effect). Raises
        ``IdempotencyKeyTaken`` if the key is already stored."""

    def forget_idempotency(self, scope: str, key_hash: str) -> None: ...

    def purge_idempotency(self, before: datetime) -> int:
        """Remove the entries created before ``before``; how many were removed."""


class GameRepository(Protocol):
    def add_game(self, game: StoredGame) -> None:
        """Store a new game with no hands. Raises ``GameIdTaken``."""

    def get_game(self, game_id: str) -> StoredGame | None:
        """The game with its current hands in order, or ``None``."""

    def get_games(self, game_ids: Sequence[str]) -> dict[str, StoredGame]:
        """Each of the games found, by id, as ``get_game`` reads one, read together."""

    def get_credentials(self, game_id: str) -> GameCredentials | None:
        """The game's token hashes and version, or ``None`` when there is no such game."""

    def changes_since(self, game_id: str, version: int) -> AddedHands | None:
        """The hands appended to the game and the verdicts given on its hands after its
        ``version``, when those are all that happened to it since, each version in turn
        (``None`` when a hand was corrected or deleted: read it whole). Other changes bump
        the game's version without an entry of either (the evening ended): the caller
        compares the version reached with the game's."""

    def token_exists(self, token_hash: str) -> bool:
        """Whether any game has this edit, read or player token hash."""

    def add_player_tokens(self, game_id: str, hashes: tuple[tuple[int, str], ...]) -> None:
        """Store the players' token hashes the game does not have yet (by seat)."""

    def add_hand(
        self,
        game_id: str,
        *,
        expected_game_version: int,
        number: int,
        record: dict[str, Any],
        rules_version: str,
        token_kind: TokenKind,
        now: datetime,
    ) -> StoredHand:
        """Append hand ``number`` and its ``create`` version, if the game is still at
        ``expected_game_version``; else raise ``StaleGame`` and change nothing. The hand's
        version continues after any earlier, deleted hand of the same number."""

    def replace_hand(
        self,
        game_id: str,
        *,
        expected_game_version: int,
        number: int,
        expected_hand_version: int,
        record: dict[str, Any],
        rules_version: str,
        token_kind: TokenKind,
        now: datetime,
    ) -> StoredHand:
        """Replace hand ``number`` and append a ``correct`` version; ``StaleGame`` when the
        game or the hand moved on."""

    def delete_hand(
        self,
        game_id: str,
        *,
        expected_game_version: int,
        number: int,
        expected_hand_version: int,
        rules_version: str,
        token_kind: TokenKind,
        now: datetime,
    ) -> None:
        """Remove hand ``number`` and append a ``delete`` version; ``StaleGame`` as above."""

    def end_game(self, game_id: str, *, expected_game_version: int, ended: bool,
                 token_kind: TokenKind, now: datetime) -> None:
        """Say the evening is over (``ended``) or take it back, if the game is still at
        ``expected_game_version`` (else ``StaleGame``): the game one version on, an ``end``
        or ``reopen`` entry (hand 0) in its history."""

    def add_confirmation(
        self,
        game_id: str,
        *,
        confirmation: Confirmation,
        number: int,
        expected_game_version: int | None = None,
    ) -> RecordedVerdict:
        """Append a seat's verdict on hand ``number`` while that hand is still at
        ``confirmation.version`` (else ``StaleGame``), moving the game one version on. A
        verdict is its seat's own row: another seat's verdict, given at the same moment,
        never makes it fail. With ``expected_game_version`` (an import replaying a
        history), only if the game is still at that version."""

    def history(self, game_id: str) -> list[HandVersion]:
        """Every version of every hand of the game, oldest first, each with the verdicts
        given on it."""


class EventRepository(Protocol):
    """Events, in the same store as their tables' games: an event's action and the games
    it makes or changes commit together."""

    def add_event(self, event: StoredEvent, now: datetime) -> None:
        """Store a new event with no rounds (``GameIdTaken`` if its id is in use)."""

    def get_event(self, event_id: str) -> StoredEvent | None:
        """The event with its rounds and tables (each table's game version), or None."""

    def get_event_credentials(self, event_id: str) -> EventCredentials | None: ...

    def event_token_exists(self, token_hash: str) -> bool: ...

    def event_state(self, event_id: str) -> tuple[int, int, int] | None:
        """A fingerprint of the event's state: its version, the sum of its tables' games'
        versions, and how many tables it has (one cheap read at any size)."""

    def add_round(self, event_id: str, *, expected_version: int, played: StoredRound,
                  games: tuple[StoredGame, ...], data: dict[str, Any], now: datetime) -> None:
        """Seat a round: store its games and tables, if the event is still at
        ``expected_version`` (else ``StaleGame``)."""

    def close_round(self, event_id: str, *, expected_version: int, number: int,
                    data: dict[str, Any], now: datetime,
                    closed_at: datetime | None = None) -> None:
        """Close round ``number`` and every game of it (each game's version moves on), the
        action logged at ``now``; the round and its games closed at ``closed_at`` (default
        ``now``: a round ended on upgrade is closed when its last table finished)."""

    def open_round_clock(self, event_id: str) -> OpenRoundClock | None:
        """The event's settings, and the number and start of its round stored open (None
        when no round is open): one small query, what a reading checks the clock with."""

    def round_clock(self, event_id: str, number: int
                    ) -> tuple[dict[str, Any] | None, datetime] | None:
        """The event's settings and the start of its round ``number`` (None for no such
        round): what a table's game says of its round's clock."""

    def set_settings(self, event_id: str, *, expected_version: int, settings: dict[str, Any],
                     data: dict[str, Any], now: datetime, open_round: int | None) -> None:
        """Store the event's new settings, an action ``settings`` in its history; the
        games of round ``open_round`` (being played) move on a version, so their readers
        see the round's new clock."""

    def events_with_an_open_round(self) -> list[str]:
        """The ids of the events with a round open, in order of id (one query)."""

    def open_rounds_closing_by_clock(self, started_before: datetime
                                     ) -> list[tuple[str, dict[str, Any], int, datetime]]:
        """Every round stored open, started before ``started_before``, of an event whose
        clock closes rounds by itself (``auto_close``): its event's id and settings, its
        number and start, in order of event id (one query over the open rounds only). Whether
        each one's moment has come is the application's to say."""

    def hold_event(self, event_id: str) -> None:
        """Hold the event until this unit of work ends: another write that holds it waits
        for this one to commit (a row lock; on SQLite the writer's gate). A write that may
        finish a round's last game holds the event first, so it sees every other table of
        the round as it stands, and two tables finishing at once cannot both miss it."""

    def reseat_round(self, event_id: str, *, expected_version: int, number: int,
                     tables: tuple[tuple[int, tuple[int, ...], tuple[str, ...],
                                         tuple[str | None, ...] | None], ...],
                     byes: tuple[int, ...], data: dict[str, Any], now: datetime,
                     sealed: tuple[dict[str, dict[str, str]], ...] | None = None) -> None:
        """The organiser's swap: each table (number, entrants, names by seat, members by
        seat in an event of a club) seated anew, its game renamed, while no game of the
        round has a hand (else ``StaleGame``)."""

    def event_history(self, event_id: str) -> list[EventAction]: ...

    def table_event_token(self, game_id: str, token_hash: str) -> TableEventToken | None:
        """See ``EventTokens``."""

    def record_action(self, event_id: str, *, expected_version: int, action: str,
                      data: dict[str, Any], now: datetime) -> None:
        """An organiser's action that changes no round (a hand corrected at a table): kept in
        the event's history, the event one version on (else ``StaleGame``)."""

    def change_event(self, event_id: str, *, expected_version: int, values: dict[str, Any],
                     action: str, data: dict[str, Any], now: datetime) -> None:
        """The event's ``values`` stored (among ``entrants``, ``checkin``, ``late_rounds``,
        ``door_token_hash``), the event one version on (else ``StaleGame``), ``action`` in
        its history."""

    def publish_event(self, event_id: str, *, expected_version: int, public: bool,
                      now: datetime) -> None:
        """The event published or taken down, the event one version on (else
        ``StaleGame``), ``publish`` or ``unpublish`` in its history."""

    def public_event_state(self, event_id: str) -> tuple[int, int, int, int] | None:
        """``event_state`` of a published event and its club's version (0 for an event of
        no club: a member's public name moves it); None for one not published (or none)."""

    def field_state(self, event_id: str
                    ) -> tuple[str, tuple[tuple[str, int, int], ...]] | None:
        """The field of the event (None for an event in no field): its host's id, and each
        section's id, version and its tables' games' versions summed (less their verdicts),
        in the order the sections were made (the host first, if it is still there): what
        moves when anything a section counts moves."""


@dataclass(frozen=True, slots=True)
class BoardRefusals:
    """A duplicate table's refused records of one board: ``refused`` every one ever,
    ``released`` those the organiser has let go; the rest count toward the limit."""

    game_id: str
    board: int
    refused: int
    released: int
    last_refused_at: datetime

    @property
    def counted(self) -> int:
        return self.refused - self.released


class RefusalRepository(Protocol):
    """The refused records of duplicate tables, board by board: written even though the
    refused request's own transaction rolled back (``UnitOfWork.despite_rollback``)."""

    def counted_refusals(self, game_id: str, board: int) -> int:
        """The refusals of ``board`` at the table of ``game_id`` not released (0: none)."""

    def add_refusal(self, game_id: str, board: int, now: datetime) -> None:
        """One more refused record of ``board`` at the table of ``game_id``: an increment
        in the database (concurrent refusals each count)."""

    def event_refusals(self, event_id: str
                       ) -> list[tuple[int, int, BoardRefusals]]:
        """Every table of the event with refused records: (round, table, its refusals of a
        board), by round, table and board."""

    def refusals_state(self, event_id: str) -> int:
        """A number that grows with every refusal and release at the event's tables."""

    def release_refusals(self, game_id: str, board: int) -> bool:
        """The organiser releases the table's refusals of ``board`` (they count no more);
        whether there were any."""


class ClubRepository(Protocol):
    """Clubs and their members: every change guarded by the club's version
    (else ``StaleGame``) and kept in its history."""

    def add_club(self, club: StoredClub, now: datetime) -> None:
        """Store a new club with no members (``GameIdTaken`` if its id is in use)."""

    def get_club(self, club_id: str) -> StoredClub | None:
        """The club with every member (merged and forgotten ones too), or None."""

    def get_club_credentials(self, club_id: str) -> ClubCredentials | None: ...

    def club_token_exists(self, token_hash: str) -> bool: ...

    def club_history(self, club_id: str) -> list[EventAction]: ...

    def publish_club(self, club_id: str, *, expected_version: int, public: bool,
                     public_ratings: bool, data: dict[str, Any], now: datetime) -> None:
        """The club's ``public`` and ``public_ratings`` set, the club one version on (else
        ``StaleGame``), ``publish`` in its history with ``data``."""

    def public_club_state(self, club_id: str) -> tuple[int, int, bool, str] | None:
        """A published club's version, results' version, whether its ratings are public and
        a fingerprint of its published events (their ids and versions); None for a club not
        published (or none)."""

    def public_events_of(self, club_id: str) -> list[tuple[str, str, datetime]]:
        """The club's published events (id, name, created), newest first."""

    def change_members(self, club_id: str, *, expected_version: int,
                       members: tuple[StoredMember, ...], action: str,
                       data: dict[str, Any], now: datetime,
                       forget: str | None = None) -> None:
        """Add or replace ``members`` (by id), the club one version on, the action in its
        history; ``forget``: a member whose name the history's earlier actions lose."""

    def replace_results(self, club_id: str, game_id: str,
                        rows: tuple[ClubResult, ...]) -> None:
        """The game's rows of the club's results projection are now ``rows`` (none: it
        counts nowhere); the club's results version moves on (in the caller's unit of
        work)."""

    def recount_member(self, club_id: str, member_id: str, counted_for: str) -> None:
        """The rows of the member's seats count for ``counted_for``: the survivor of a
        merge, the member themselves (a merge undone, or a forget: a forgotten member's
        rows stay, counted for them and shown for nobody, so every game stays whole)."""

    def club_entrants(self, club_id: str) -> list[tuple[str, tuple[dict[str, Any], ...]]]:
        """Each event of the club: its id and its entrants as stored."""

    def store_names(self, players: Mapping[str, tuple[str, ...]],
                    entrants: Mapping[str, tuple[dict[str, Any], ...]]) -> None:
        """Each game's players (``players``: by game id) and each event's entrants
        (``entrants``: by event id) as given; each game and event one version on."""

    def lock_club(self, club_id: str) -> None:
        """Hold the club for this unit of work: any other unit that locks it waits until
        this one ends (a club's member changes are serialised)."""

    def withdraw_replays(self, club_id: str, member_id: str) -> int:
        """Withdraw the kept first responses (``IdempotencyEntry``) that name the member: of
        the requests that added, merged or unmerged them, made or changed a game of the club
        they sit in or an event of the club they entered; how many."""

    def club_results(self, club_id: str) -> list[ClubResult]:
        """Every row of the club's results, in finishing order (the order ratings take)."""

    # The ratings as kept (``application.ratings.keep_ratings``), in the caller's unit of work.

    def rated_at(self, game_id: str) -> tuple[str, datetime] | None:
        """The family and finishing time the game was last rated at, if it was."""

    def first_seats(self, club_id: str, member_id: str) -> dict[str, RatingOrder]:
        """Per family, the first counted game (in finishing order) with the member at a
        seat: where a merge, its undo or a forget moves the ratings from."""

    def family_results(self, club_id: str, family: str,
                       since: RatingOrder | None) -> list[ClubResult]:
        """The family's rows of the club's results from ``since`` on (None: all of them),
        in finishing order."""

    def drop_rating_steps(self, club_id: str, family: str, since: RatingOrder) -> set[str]:
        """Take out the family's steps from ``since`` on; the members who had one."""

    def rated_games(self, club_id: str, family: str) -> int:
        """How many games of the family are rated."""

    def last_rating_steps(self, club_id: str, family: str, members: Collection[str],
                          stale: Collection[str] = ()) -> dict[str, RatingStep]:
        """Each of ``members``' last step (none for a member with no rated game): their
        rating as it stands, or for those ``stale`` (steps of theirs just taken out) their
        last step left."""

    def keep_rating_steps(self, club_id: str, family: str, steps: list[RatingStep],
                          current: Collection[RatingStep], gone: Collection[str]) -> None:
        """Store ``steps``; ``current`` the ratings as they now stand of the members they
        moved, ``gone`` members who have no rated game of the family left."""

    def kept_ratings(self, club_id: str, family: str) -> tuple[int, list[RatingStep]]:
        """How many games of the family are rated, and each member's rating as it stands
        (their last step)."""

    def member_rating_steps(self, club_id: str, family: str,
                            member_id: str) -> list[RatingStep]:
        """The member's steps in the family, in finishing order."""

    def member_results(self, club_id: str, member_id: str, since: int = -1) -> MemberRows:
        """The rows of the club's results that count for the member (any order) written
        after the results version ``since`` (-1: all of them): what their statistics read,
        in one statement on the index of (club, member counted for), with the club's version
        and how many rows count for the member (``MemberRows``)."""

    def member_rows_state(self, club_id: str, member_id: str) -> tuple[int, int]:
        """How many rows count for the member, and the newest results version that wrote
        one of them: both move with every write that changes what their rows say."""

    def evening_ends(self, club_id: str, events: Collection[str]) -> dict[str, datetime]:
        """When each of ``events`` (of the club) ended as its rows say: its last row's end."""

    def fill_facts(self, game_id: str, facts: Mapping[int, Mapping[str, Any]]) -> None:
        """The facts of the game's rows (by seat) where a row has none yet (one written
        before they were kept); a row that has them keeps its own."""

    def club_games(self, club_id: str) -> list[ClubGame]:
        """The club's games, oldest first."""

    def shared_game(self, club_id: str, member: str, other: str) -> str | None:
        """A game of the club where both members sit, if any."""

    def member_states(self, club_id: str) -> dict[str, str | None]:
        """Each member's id to the member their results count for: themselves, or the
        member they were merged into, forgotten or not (a forgotten member's rows are shown
        for nobody)."""

    def add_season(self, club_id: str, *, expected_version: int, season: StoredSeason,
                   data: dict[str, Any], now: datetime) -> None:
        """Store a season, the club one version on, ``add_season`` in its history."""

    def seasons(self, club_id: str) -> list[StoredSeason]: ...


class Store(Protocol):
    """The repositories of one database, sharing its transactions: ``atomic`` opens the unit
    of work's, and every repository's writes inside join it."""

    def atomic(self) -> AbstractContextManager[None]:
        """A unit of work: every write made inside joins one transaction, committed when the
        block ends and rolled back if it raises. Reads are not part of it."""

    def reading(self) -> AbstractContextManager[None]:
        """Reads outside a unit of work, until the block ends, through one connection to the
        database (each sees what is committed when it runs): a request's many reads pay for
        one. A unit of work begun inside still has its own."""

    @property
    def games(self) -> GameRepository: ...

    @property
    def events(self) -> EventRepository: ...

    @property
    def idempotency(self) -> IdempotencyRepository: ...

    @property
    def clubs(self) -> ClubRepository: ...

    @property
    def refusals(self) -> RefusalRepository: ...


class SharedValues(Protocol):
    """Values every process of a topology reads (bytes by key), where one process makes each
    and the others wait for it rather than make it too; a key names an immutable state, so a
    value is never stale. Unreachable, it answers nothing and each process makes its own."""

    def get_many(self, keys: Sequence[str]) -> list[bytes | None]:
        """Each key's value, None where none is kept (or the store does not answer)."""

    def made(self, key: str, make: Callable[[], bytes]) -> bytes:
        """The value of ``key``: kept, else made once by one of the processes asking now."""
