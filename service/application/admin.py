"""The instance's administrator: what the holder of the service's admin token
(``ADMIN_TOKEN``) may do that no club's, event's or game's own token can: issue a club,
an event or a game new tokens when its own were lost (a secretary's phone gone with no key
card) or leaked (a key card photographed). The new edit token is answered once; the old
tokens open nothing from then on; the club's, event's or game's history records it (a game's
as its own line, hand 0, as "the evening is over" is; its token kind ``admin``).

A service without an admin token has no administration at all: every admin request is a 404,
as for a path that does not exist. The token sent is compared with the configured one in
constant time (both hashed first, so not even their lengths show), and a wrong one is a 401
counted with the other tokens that open nothing (the address's failures, ``ratelimit``).

What each resource's tokens are made of decides what a rotation renews:

- a club: its edit token, and the members' read token worked out from it;
- an event: the organiser's edit token, the room's read token worked out from it, and every
  table's game's tokens (edit, read and the players'), all worked out from the event's edit
  token: the tables' links shown to the organiser stay right, and the old ones stop;
- a game: its edit and read tokens (random), and its players' tokens worked out from the edit
  token. A table of an event is renewed with its event, not alone (409).

Besides renewing, the administrator lists what the instance holds (by last activity, with
what each holds), deletes a club, an event or a game with all it keeps, and revokes tokens:
a revoked token's hash is replaced by a value no token hashes to (``revoked:…``), so it opens
nothing, and nothing replaces it until the tokens are renewed.

What a deletion takes with it:

- a game: its hands, their history, the players' verdicts and links; a game of a club leaves
  the club's results (the ratings replayed without it). A table of an event is deleted with
  its event, not alone (409);
- an event: its rounds, its tables and their games, its history (and an event of a club
  leaves the club's results, as a game does);
- a club: its members, seasons, results, ratings, history, and every event and game played
  for it (their tables too): everything made with its tokens. An instance's operator deletes
  a club that should not be there; a club that moves elsewhere exports first."""

from __future__ import annotations

import hmac
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, Literal, Protocol

from service.domain import Text

from .clubs import club_read_token
from .entrant_links import door_token, entrant_token, sealed_seats
from .errors import (
    ConcurrentChange,
    Conflict,
    InvalidToken,
    NotFound,
    PreconditionFailed,
    PreconditionRequired,
    Unauthenticated,
)
from .events import event_setup, room_token, table_tokens
from .field import field_key
from .games.access import TOKEN_BYTES, hash_token, player_token
from .ports import ClubRepository, EventRepository, GameRepository, StaleGame
from .ratings import keep_ratings, rating_points

log = logging.getLogger(__name__)


class NoAdministration(NotFound):
    """The service has no admin token: there is no administration to answer."""


@dataclass(frozen=True, slots=True)
class GameKeys:
    """A game's new token hashes: its edit and read tokens', and each player's by seat."""

    game_id: str
    #: The game's version they were worked out at (the write moves it on, or is stale).
    version: int
    edit_token_hash: str
    read_token_hash: str
    player_token_hashes: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class NewTokens:
    """The tokens just issued to a club, an event or a game: shown this once."""

    id: str
    edit_token: str
    read_token: str


Kind = Literal["clubs", "events", "games"]
KINDS: tuple[Kind, ...] = ("clubs", "events", "games")
#: The tokens each kind's revocation may name.
REVOCABLE: Mapping[str, tuple[str, ...]] = {
    "clubs": ("edit", "read"),
    "events": ("edit", "read", "tables"),
    "games": ("edit", "read", "players"),
}
#: What a club's, an event's or a game's history says of tokens the administrator revoked.
REVOKE_ACTION = "revoke_tokens"
#: How a revoked token's hash starts: no token hashes to it (a hash is 64 hex digits).
REVOKED_PREFIX = "revoked:"


def revoked_hash() -> str:
    """A revoked token's place: unique (the hashes' indexes), and never a token's hash."""
    return REVOKED_PREFIX + secrets.token_hex(28)


@dataclass(frozen=True, slots=True)
class AdminQuery:
    """One page of a listing: how many from where, newest activity first (or oldest), and
    the filters (``inactive_before``: last activity before it; ``anonymous``: a game of no
    event and no club, an event of no club)."""

    limit: int = 50
    offset: int = 0
    oldest_first: bool = False
    inactive_before: datetime | None = None
    anonymous: bool | None = None


@dataclass(frozen=True, slots=True)
class AdminRow:
    """A club, an event or a game as the operator's listing shows it."""

    id: str
    name: str
    variant: str | None
    created_at: datetime
    last_activity: datetime
    size: Mapping[str, int]
    anonymous: bool
    club: str | None
    event: str | None
    #: Each kind of token it has: ``active`` or ``revoked``.
    tokens: Mapping[str, str]
    renewed_at: datetime | None
    revoked_at: datetime | None


@dataclass(frozen=True, slots=True)
class AdminPage:
    total: int
    rows: tuple[AdminRow, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Holdings:
    """What a deletion takes: the games and events, and the club or event the deleted
    belongs to (a game's club; a table's event)."""

    games: tuple[str, ...]
    events: tuple[str, ...]
    club: str | None
    event: str | None


@dataclass(frozen=True, slots=True)
class Deleted:
    """What a deletion removed: the rows of each table."""

    kind: str
    id: str
    rows: Mapping[str, int]


class AdminRepository(Protocol):
    """What the administration writes: a resource's token hashes replaced, in the unit of
    work's transaction; a club's or an event's version moved (``StaleGame`` when another
    write moved it first) and the change added to its history."""

    def rekey_club(self, club_id: str, *, expected_version: int, edit_token_hash: str,
                   read_token_hash: str, data: dict[str, object], now: datetime) -> None: ...

    def rekey_event(self, event_id: str, *, expected_version: int, edit_token_hash: str,
                    read_token_hash: str, tables: Sequence[GameKeys], data: dict[str, object],
                    now: datetime, door_token_hash: str | None = None,
                    field_key_hash: str | None = None,
                    entrants: Sequence[dict[str, Any]] | None = None,
                    sealed: Sequence[tuple[int, int, dict[str, Any]]] = ()) -> None:
        """``door_token_hash``, ``entrants`` (each with its new token's hash) and each
        table's ``sealed`` links (round, table, sealed) are replaced too."""

    def rekey_game(self, keys: GameKeys, now: datetime) -> None: ...

    def event_of_game(self, game_id: str) -> str | None:
        """The event whose table the game is, if it is one."""

    def listing(self, kind: str, query: AdminQuery) -> AdminPage: ...

    def holdings(self, kind: str, resource_id: str) -> Holdings | None: ...

    def delete(self, holdings: Holdings, club_id: str | None) -> dict[str, int]: ...

    def revoke_game(self, game_id: str, expected_version: int, which: Sequence[str],
                    now: datetime) -> None: ...

    def revoke_owner(self, kind: str, owner_id: str, expected_version: int,
                     which: Sequence[str], tables: Sequence[tuple[str, int]],
                     now: datetime) -> None: ...

    def anonymous_untouched(self, before: datetime) -> tuple[list[str], datetime | None]: ...

    def record_purge(self, *, by: str, day: date | None, now: datetime) -> int | None: ...

    def purged(self, purge_id: int, games: int, oldest: datetime | None) -> None: ...


class AdminStore(Protocol):
    @property
    def games(self) -> GameRepository: ...

    @property
    def events(self) -> EventRepository: ...

    @property
    def clubs(self) -> ClubRepository: ...

    @property
    def admin(self) -> AdminRepository: ...


#: What a club's or an event's history says of tokens the administrator issued.
ACTION = "new_tokens"


class AdminService:
    """The administrator's use cases over the store. ``admin_token``: the service's admin
    token, or None (or empty) for a service with no administration."""

    def __init__(self, store: AdminStore, clock: Callable[[], datetime],
                 admin_token: str | None) -> None:
        self.store = store
        self.clock = clock
        self._admin_hash = hash_token(admin_token) if admin_token else None

    # -- access -----------------------------------------------------------------------------

    @property
    def enabled(self) -> bool:
        return self._admin_hash is not None

    def is_admin_token(self, token: str) -> bool:
        """Whether this is the service's admin token (compared in constant time)."""
        return self._admin_hash is not None and hmac.compare_digest(hash_token(token),
                                                                    self._admin_hash)

    def authorize(self, token: str | None) -> None:
        """404 for a service with no administration, 401 without a token or with another."""
        if self._admin_hash is None:
            raise NoAdministration(Text("this service has no administration"))
        if not token:
            raise Unauthenticated(Text(
                "this request needs the service's admin token (Authorization: Bearer …)"))
        if not hmac.compare_digest(hash_token(token), self._admin_hash):
            raise InvalidToken(Text("this token is not the service's admin token"))

    # -- new tokens -------------------------------------------------------------------------

    def new_club_tokens(self, club_id: str) -> NewTokens:
        """A new edit token for the club, and the members' read token worked out from it."""
        credentials = self.store.clubs.get_club_credentials(club_id)
        if credentials is None:
            raise NotFound(Text("there is no club {club}", club=repr(club_id)))
        edit = secrets.token_urlsafe(TOKEN_BYTES)
        read = club_read_token(edit, club_id)
        try:
            self.store.admin.rekey_club(
                club_id, expected_version=credentials.version,
                edit_token_hash=hash_token(edit), read_token_hash=hash_token(read),
                data={"by": "admin"}, now=self.clock())
        except StaleGame:
            raise _concurrent() from None
        log.warning("admin: new tokens for club %s", club_id)
        return NewTokens(club_id, edit, read)

    def new_event_tokens(self, event_id: str) -> NewTokens:
        """A new edit token for the event, the room's read token worked out from it, and
        every table's game's tokens worked out from it in turn."""
        event = self.store.events.get_event(event_id)
        if event is None:
            raise NotFound(Text("there is no event {event}", event=repr(event_id)))
        edit = secrets.token_urlsafe(TOKEN_BYTES)
        read = room_token(edit, event_id)
        tables = []
        # The door's and each entrant's tokens are worked out from the edit token too
        # (docs/events.md#the-door): new ones, and each seat's link sealed for them anew.
        door = door_token(edit, event_id)
        entrants = [{**e, "token_hash": hash_token(entrant_token(door, event_id, i))}
                    for i, e in enumerate(event.entrants)]
        setup = event_setup(event)
        sealed = []
        for played in event.played:
            for table in played.tables:
                table_edit, table_read = table_tokens(edit, event_id, played.number,
                                                      table.number)
                tables.append(self._game_keys(table.game_id, table_edit, table_read))
                sealed.append((played.number, table.number, sealed_seats(
                    edit, event_id, played.number, table.number, table.game_id, table_edit,
                    setup.seat_entrants(table.entrants))))
        try:
            self.store.admin.rekey_event(
                event_id, expected_version=event.version, edit_token_hash=hash_token(edit),
                read_token_hash=hash_token(read), tables=tables,
                data={"by": "admin", "tables": len(tables)}, now=self.clock(),
                door_token_hash=hash_token(door) if event.door_token_hash else None,
                entrants=entrants, sealed=sealed,
                # A field's join key is worked out from the edit token too: a new one.
                field_key_hash=(hash_token(field_key(edit, event_id))
                                if event.field_key_hash else None))
        except StaleGame:
            raise _concurrent() from None
        log.warning("admin: new tokens for event %s and its %d tables", event_id, len(tables))
        return NewTokens(event_id, edit, read)

    def new_game_tokens(self, game_id: str) -> NewTokens:
        """New edit and read tokens for the game, and its players' worked out from the edit
        token; a table of an event is refused (its tokens are the event's to renew)."""
        event_id = self.store.admin.event_of_game(game_id)
        if event_id is not None:
            raise Conflict(Text(
                "game {game} is a table of event {event}: its tokens are worked out from the "
                "event's, so issue the event new tokens instead", game=game_id,
                event=event_id), code="table_of_an_event")
        edit = secrets.token_urlsafe(TOKEN_BYTES)
        read = secrets.token_urlsafe(TOKEN_BYTES)
        try:
            self.store.admin.rekey_game(self._game_keys(game_id, edit, read), self.clock())
        except StaleGame:
            raise _concurrent() from None
        log.warning("admin: new tokens for game %s", game_id)
        return NewTokens(game_id, edit, read)

    def _game_keys(self, game_id: str, edit: str, read: str) -> GameKeys:
        """The hashes of a game's new tokens: its players' for the seats that have one."""
        credentials = self.store.games.get_credentials(game_id)
        if credentials is None:
            raise NotFound(Text("there is no game {game}", game=repr(game_id)))
        return GameKeys(game_id, credentials.version, hash_token(edit), hash_token(read), tuple(
            (seat, hash_token(player_token(edit, game_id, seat)))
            for seat, _ in credentials.player_token_hashes))


    # -- the operator's lists, deletions and revocations ---------------------------------

    def listing(self, kind: str, query: AdminQuery) -> AdminPage:
        return self.store.admin.listing(kind, query)

    def inactive_since(self, days: int) -> datetime:
        return self.clock() - timedelta(days=days)

    def delete(self, kind: str, resource_id: str, confirm: str | None) -> Deleted:
        """Delete a club, an event or a game with all it keeps (the module says what); the
        request repeats the id (``confirm``) so that no slip deletes the wrong one."""
        if not confirm:
            raise PreconditionRequired(Text(
                "deleting needs confirm={id}: the id of what is deleted, repeated",
                id=resource_id))
        if confirm != resource_id:
            raise PreconditionFailed(Text(
                "confirm names {confirm}, not {id}: nothing was deleted",
                confirm=repr(confirm), id=resource_id))
        holdings = self.store.admin.holdings(kind, resource_id)
        if holdings is None:
            raise NotFound(_missing(kind, resource_id))
        if kind == "games" and holdings.event is not None:
            raise Conflict(Text(
                "game {game} is a table of event {event}: delete the event instead",
                game=resource_id, event=holdings.event), code="table_of_an_event")
        if kind != "clubs" and holdings.club is not None:
            self._leave_club(holdings.club, holdings.games)
        rows = self.store.admin.delete(holdings, resource_id if kind == "clubs" else None)
        return Deleted(kind, resource_id, rows)

    def _leave_club(self, club_id: str, games: Sequence[str]) -> None:
        """The games' results taken out of the club's, its ratings replayed without them."""
        since: dict[str, tuple[datetime, str]] = {}
        for game_id in games:
            for family, point in rating_points(self.store.clubs, club_id, game_id, ()):
                since[family] = min(since.get(family, point), point)
            self.store.clubs.replace_results(club_id, game_id, ())
        for family, point in sorted(since.items()):
            keep_ratings(self.store.clubs, club_id, family, point)

    def revoke(self, kind: str, resource_id: str, which: Sequence[str]) -> tuple[str, ...]:
        """Revoke the named tokens (``REVOCABLE``): they open nothing from now on, and
        nothing replaces them until the tokens are renewed. Kept in the history."""
        named = tuple(dict.fromkeys(which))
        now = self.clock()
        try:
            if kind == "games":
                credentials = self.store.games.get_credentials(resource_id)
                if credentials is None:
                    raise NotFound(_missing(kind, resource_id))
                self.store.admin.revoke_game(resource_id, credentials.version, named, now)
            elif kind == "events":
                event = self.store.events.get_event(resource_id)
                if event is None:
                    raise NotFound(_missing(kind, resource_id))
                tables = []
                if "tables" in named:
                    for played in event.played:
                        for table in played.tables:
                            found = self.store.games.get_credentials(table.game_id)
                            if found is not None:
                                tables.append((table.game_id, found.version))
                self.store.admin.revoke_owner(kind, resource_id, event.version, named, tables,
                                              now)
            else:
                club = self.store.clubs.get_club_credentials(resource_id)
                if club is None:
                    raise NotFound(_missing(kind, resource_id))
                self.store.admin.revoke_owner(kind, resource_id, club.version, named, (), now)
        except StaleGame:
            raise _concurrent() from None
        log.warning("admin: revoked the %s tokens of %s %s", "/".join(named), kind[:-1],
                    resource_id)
        return named


def _missing(kind: str, resource_id: str) -> Text:
    if kind == "clubs":
        return Text("there is no club {club}", club=repr(resource_id))
    if kind == "events":
        return Text("there is no event {event}", event=repr(resource_id))
    return Text("there is no game {game}", game=repr(resource_id))


def _concurrent() -> ConcurrentChange:
    return ConcurrentChange(Text("another request changed it at the same time; try again"))
