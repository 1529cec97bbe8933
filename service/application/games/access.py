"""Access to a stored game: its id and tokens (made, hashed, worked out from the edit token),
and what a token opens (``authorize``), decided before a use case runs and handed to it as an
``Access``."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Generic, Literal, TypeVar

from service.domain import Text

from ..errors import (
    EventTokenAtTable,
    Forbidden,
    GameNotFound,
    InvalidToken,
    NotAPlayer,
    Unauthenticated,
)
from ..ports import (
    AccessKind,
    Credentials,
    EventTokens,
    GameCredentials,
    GameRepository,
    TableEventToken,
    TokenKind,
)
from ..unit_of_work import UnitOfWork

ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"

ID_LENGTH = 10  # 31**10 ≈ 2**49.5

TOKEN_BYTES = 24


# Compared with when there is no game: no token hashes to it (it is not hexadecimal).
_NO_HASH = "-" * 64



def new_game_id() -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))



def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()



C = TypeVar("C", bound=Credentials)
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Created(Generic[V]):
    """What making a game or an event gives back: its view, and its edit and read tokens,
    shown this once."""

    view: V
    edit_token: str
    read_token: str


@dataclass(frozen=True, slots=True)
class TokenWords:
    """What a resource opened by tokens of its own (an event, a club) says of a token that
    does not open it: none sent, one that opens nothing here, the read token on a change."""

    needed: Text
    opens_nothing: Text
    read_only: Text


def own_token_access(token: str | None, credentials_of: Callable[[], C | None],
                        known_elsewhere: Callable[[str], bool], *, write: bool,
                        words: TokenWords, not_found: Callable[[], Exception],
                        ) -> tuple[Literal["edit", "read"], C]:
    """Which of a resource's two tokens ``token`` is (``edit`` or ``read``) and the
    resource's credentials: 401 without a token, or with one that opens nothing anywhere;
    ``not_found()`` (404) for one that opens something else (``known_elsewhere`` of its
    hash); 403 for the read token on a change."""
    if not token:
        raise Unauthenticated(words.needed)
    credentials = credentials_of()
    digest = hash_token(token)
    kind = token_kind_of(digest, credentials)
    if credentials is None or kind is None:
        if not known_elsewhere(digest):
            raise InvalidToken(words.opens_nothing)
        raise not_found()
    if write and kind != "edit":
        raise Forbidden(words.read_only)
    return kind, credentials


def derived_token(edit_token: str, what: str) -> str:
    """A token worked out from an edit token (HMAC-SHA256 of ``what``, 32 hex digits): the
    one holding the edit token can show it again, and only its hash is stored."""
    return hmac.new(edit_token.encode(), f"segnapunti {what}".encode(),
                    hashlib.sha256).digest().hex()[:32]


def token_kind_of(digest: str,
                  credentials: Credentials | None) -> Literal["edit", "read"] | None:
    """Which of a resource's two tokens (its ``edit_token_hash``, its ``read_token_hash``)
    ``digest`` is, if either. Both comparisons always run, against placeholders when there
    is no such resource: the time taken tells neither which token matched nor whether the
    resource exists."""
    is_edit = hmac.compare_digest(digest, credentials.edit_token_hash if credentials else _NO_HASH)
    is_read = hmac.compare_digest(digest, credentials.read_token_hash if credentials else _NO_HASH)
    if credentials is None:
        return None
    return "edit" if is_edit else "read" if is_read else None


def player_tokens(edit_token: str, game_id: str, setup: Any) -> tuple[str | None, ...]:
    """Each seat's player token, worked out from the game's edit token (so it need not be
    kept, and the edit token can always show the links again); None for a seat at which no
    player sits (a gatti-2 dummy's)."""
    seats = setup.variant.seats
    players = range(len(setup.players)) if setup.variant.partnership == "dummies" \
        else range(seats)
    return tuple(player_token(edit_token, game_id, seat) if seat in players else None
                 for seat in range(seats))


def player_token(edit_token: str, game_id: str, seat: int) -> str:
    """The player token of ``seat``, worked out from the game's edit token."""
    digest = hmac.new(edit_token.encode(), f"segnapunti player {game_id} {seat}".encode(),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()



@dataclass(frozen=True, slots=True)
class Access:
    """What a token opened, decided before the use case runs (``GameService.authorize``):
    the game, the token's kind, the game's credentials as they were read (their version is
    where the use case starts reading from), and for a player's link, the seat it speaks
    for."""

    game_id: str
    kind: AccessKind
    credentials: GameCredentials
    seat: int | None = None



def game_not_found(game_id: str) -> GameNotFound:
    return GameNotFound(Text("there is no game {game} for this token", game=repr(game_id)))


def authorize(repository: GameRepository, game_id: str, token: str | None, *,
              write: bool, player: bool = False, events: EventTokens | None = None) -> Access:
    """What ``token`` opens of the game: ``Unauthenticated`` without one,
    ``InvalidToken`` for a token that opens no game at all, ``NotFound`` for the token of
    another game (or no such game: the two look the same, so ids cannot be probed with a
    token one holds), ``Forbidden`` for a read token on a write. With ``player``, only a
    player's link will do (a verdict is a player's own: the scorekeeper's and the
    read-only links cannot give one). ``events``: where to recognise the tokens of the
    event whose table the game is, refused with ``EventTokenAtTable`` (403) rather than as
    tokens that open nothing."""
    if not token:
        raise Unauthenticated(
            Text("this request needs the game's token (Authorization: Bearer …)"))
    credentials = repository.get_credentials(game_id)
    digest = hash_token(token)
    pair = token_kind_of(digest, credentials)
    # Every player's hash is compared too, whatever matched before.
    is_player = False
    seat: int | None = None
    for player_seat, player_hash in (credentials.player_token_hashes if credentials else ()):
        if hmac.compare_digest(digest, player_hash):
            is_player, seat = True, player_seat
    kind: AccessKind | None = pair or ("player" if is_player else None)
    if kind is None or credentials is None:
        if credentials is not None and events is not None:
            found = events.table_event_token(game_id, digest)
            if found is not None:
                raise event_token_at_table(found)
        # Whether the game exists is only told to no one: a token that opens nothing gets
        # 401 for every id, the token of another game 404 for every other id.
        if not repository.token_exists(digest):
            raise InvalidToken(Text("this token opens no game; check the link it came from"))
        raise game_not_found(game_id)
    if write and kind != "edit":
        raise Forbidden(
            Text("a player's link cannot change the game; use the edit token")
            if kind == "player" else
            Text("the read-only token cannot change the game; use the edit token"))
    if player and kind != "player":
        raise NotAPlayer(Text(
            "only a player's own link confirms or disputes a hand: the scorekeeper's "
            "and the read-only links cannot speak for a player"))
    return Access(game_id, kind, credentials, seat if kind == "player" else None)


def event_token_at_table(found: TableEventToken) -> EventTokenAtTable:
    """403: a known token of the wrong kind, saying which it is and which the table needs."""
    if found.kind == "edit":
        detail = Text(
            "this is the organiser's token of event {event}, not a table's: table {table} "
            "of round {round} is a game with tokens of its own. Its scorekeeper's link is "
            "listed with the round's tables (GET /api/v1/events/{event}/rounds/{round}); "
            "the organiser corrects a hand of it through the event "
            "(PUT /api/v1/events/{event}/rounds/{round}/tables/{table}/hands/{{n}})",
            event=found.event_id, round=found.round, table=found.table)
    else:
        detail = Text(
            "this is the room's read-only token of event {event}, not a table's: table "
            "{table} of round {round} is read with its own game's read link, which the "
            "organiser finds with the round's tables", event=found.event_id,
            round=found.round, table=found.table)
    return EventTokenAtTable(detail, found.kind)


def fresh(repository: GameRepository, unit: UnitOfWork, access: Access) -> Access:
    """``access`` as decided before the write; on a try after a concurrent change, with
    the game's credentials read again (their version is where the try reads from)."""
    if not unit.retried:
        return access
    credentials = repository.get_credentials(access.game_id)
    if credentials is None:  # pragma: no cover - games are never removed
        raise game_not_found(access.game_id)
    return replace(access, credentials=credentials)


def token_kind(access: Access) -> TokenKind:
    """The kind of token a write was made with, as the history records it (only the edit
    token writes hands)."""
    return "read" if access.kind == "read" else "edit"

