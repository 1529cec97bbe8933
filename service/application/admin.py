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
  token. A table of an event is renewed with its event, not alone (409)."""

from __future__ import annotations

import hmac
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from service.domain import Text

from .clubs import club_read_token
from .errors import ConcurrentChange, Conflict, InvalidToken, NotFound, Unauthenticated
from .events import room_token, table_tokens
from .games.access import TOKEN_BYTES, hash_token, player_token
from .ports import ClubRepository, EventRepository, GameRepository, StaleGame

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


class AdminRepository(Protocol):
    """What the administration writes: a resource's token hashes replaced, in the unit of
    work's transaction; a club's or an event's version moved (``StaleGame`` when another
    write moved it first) and the change added to its history."""

    def rekey_club(self, club_id: str, *, expected_version: int, edit_token_hash: str,
                   read_token_hash: str, data: dict[str, object], now: datetime) -> None: ...

    def rekey_event(self, event_id: str, *, expected_version: int, edit_token_hash: str,
                    read_token_hash: str, tables: Sequence[GameKeys], data: dict[str, object],
                    now: datetime) -> None: ...

    def rekey_game(self, keys: GameKeys, now: datetime) -> None: ...

    def event_of_game(self, game_id: str) -> str | None:
        """The event whose table the game is, if it is one."""


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
        for played in event.played:
            for table in played.tables:
                table_edit, table_read = table_tokens(edit, event_id, played.number,
                                                      table.number)
                tables.append(self._game_keys(table.game_id, table_edit, table_read))
        try:
            self.store.admin.rekey_event(
                event_id, expected_version=event.version, edit_token_hash=hash_token(edit),
                read_token_hash=hash_token(read), tables=tables,
                data={"by": "admin", "tables": len(tables)}, now=self.clock())
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


def _concurrent() -> ConcurrentChange:
    return ConcurrentChange(Text("another request changed it at the same time; try again"))
