"""Use cases of stored games: create, read, add / correct / delete hands, history, access.

A stored hand is its record; every result is recomputed from the records, in order, by the
same ``score_hand`` that answers ``POST /score`` (ARCHITECTURE §4). A write is scored first
and stored only if valid, guarded by the game's version, so a rejected or conflicting request
changes nothing.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from service.domain import (
    RULES_VERSION,
    Confirmation,
    GameSetup,
    GameSummary,
    HandRecord,
    HandResult,
    HandStanding,
    Problem,
    RecordInvalid,
    Text,
    UnknownVariant,
    check_next_hand,
    find_variant,
    game_summary,
    hand_standing,
    is_final,
    later_hands_problems,
    parse_hand_record,
    reason_of,
    resolve_options,
    score_hand,
    score_record,
    validate_game_setup,
    verdict_problems,
)

from .caches import LruCache
from .errors import (
    ConcurrentChange,
    Conflict,
    Forbidden,
    GameNotFound,
    InvalidToken,
    NotAPlayer,
    NotFound,
    PreconditionFailed,
    PreconditionRequired,
    Unauthenticated,
)
from .ports import (
    AccessKind,
    GameCredentials,
    GameIdTaken,
    GameRepository,
    HandVersion,
    StaleGame,
    StoredGame,
    StoredHand,
    TokenKind,
)
from .unit_of_work import UnitOfWork

# Unambiguous lower-case letters and digits: ids are read aloud and typed from share links.
ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
ID_LENGTH = 10  # 31**10 ≈ 2**49.5
TOKEN_BYTES = 24
#: Hands one game can hold; hand numbers beyond it are never valid (404).
MAX_HANDS = 1000
#: Hands each process keeps, by default (``CACHE_HANDS``): in its game views (each game it
#: serves, at its newest version: the games being played and watched right now), and as many
#: hand results apart from the views, to rebuild a view after a correction without scoring
#: every hand again. About 7 kB a hand when both are full (28 MB for 4,000 hands).
CACHE_HANDS = 4_000

# Compared with when there is no game: no token hashes to it (it is not hexadecimal).
_NO_HASH = "-" * 64

#: ``If-Match: *``: any current version.
ANY_VERSION = "*"

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def new_game_id() -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def hand_etag(game_id: str, number: int, version: int) -> str:
    """The opaque strong entity tag of one version of one hand (without quotes)."""
    digest = hashlib.sha256(f"{game_id}\x1f{number}\x1f{version}".encode()).hexdigest()
    return f"h{number}v{version}-{digest[:16]}"


def game_etag(game_id: str, version: int) -> str:
    """The opaque entity tag of a game at ``version`` (without quotes). Every change to the
    game's hands bumps the version; the rules version is part of it because the results shown
    are recomputed by the rules in force. A weak tag: it names the game's state, not the
    bytes of one serialisation, and serves ``If-None-Match`` (304)."""
    digest = hashlib.sha256(
        f"{game_id}\x1f{version}\x1f{RULES_VERSION}".encode()
    ).hexdigest()
    return f"g{version}-{digest[:16]}"


#: A hand's standing where no verdict is asked for.
NOT_ASKED = HandStanding("not_asked")


# -- views returned to the edge -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandView:
    game_id: str
    number: int
    version: int
    dealer: int
    record: dict[str, Any]
    rules_version: str
    result: HandResult
    created_at: datetime
    updated_at: datetime
    #: The variant's family, for saying the hand's cards in a table's language.
    family: str = ""
    #: Each seat's latest verdict on this version, and what they add up to (issue 15).
    confirmations: tuple[Confirmation, ...] = ()
    standing: HandStanding = NOT_ASKED
    #: Whether the hand counts as final (under ``confirmation: required``: once confirmed).
    final: bool = True

    @property
    def etag(self) -> str:
        return hand_etag(self.game_id, self.number, self.version)


@dataclass(frozen=True, slots=True)
class GameView:
    game: StoredGame
    setup: GameSetup
    hands: tuple[HandView, ...]
    summary: GameSummary

    @property
    def id(self) -> str:
        return self.game.id

    @property
    def etag(self) -> str:
        return game_etag(self.game.id, self.game.version)

    def verdicts_shown(self) -> bool:
        """Whether sheets mark each hand with the players' verdicts: always when the game
        requires them; when they are optional, once a player has given one (a table that
        does not use player links sees no marks)."""
        mode = self.setup.options.get("confirmation", "optional")
        return mode == "required" or (
            mode == "optional" and any(h.confirmations for h in self.hands))

    def confirmation(self) -> dict[str, Any]:
        """Where the players' verdicts stand: the game's mode, the hands some player
        disputes, the hands still waiting for a player's word, and whether every hand counts
        as final."""
        mode = str(self.setup.options.get("confirmation", "optional"))
        return {
            "mode": mode,
            "disputed": [h.number for h in self.hands if h.standing.status == "disputed"],
            "waiting": [h.number for h in self.hands if h.standing.status == "waiting"],
            "final": all(h.final for h in self.hands),
        }


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


@dataclass(frozen=True, slots=True)
class CreatedGame:
    view: GameView
    edit_token: str
    read_token: str
    #: Each seat's player token; None for a seat no player sits at (a gatti-2 dummy's).
    player_tokens: tuple[str | None, ...] = ()


# -- helpers --------------------------------------------------------------------------------


def player_tokens(edit_token: str, game_id: str, setup: Any) -> tuple[str | None, ...]:
    """Each seat's player token, worked out from the game's edit token (so it need not be
    kept, and the edit token can always show the links again); None for a seat at which no
    player sits (a gatti-2 dummy's)."""
    seats = setup.variant.seats
    players = range(len(setup.players)) if setup.variant.partnership == "dummies" \
        else range(seats)
    out: list[str | None] = []
    for seat in range(seats):
        if seat not in players:
            out.append(None)
            continue
        digest = hmac.new(edit_token.encode(), f"segnapunti player {game_id} {seat}".encode(),
                          hashlib.sha256).digest()
        out.append(base64.urlsafe_b64encode(digest).rstrip(b"=").decode())
    return tuple(out)


def _variant(variant_id: str, field: str = "variant") -> Any:
    try:
        return find_variant(variant_id)
    except UnknownVariant as error:
        raise RecordInvalid(
            [Problem(field, "unknown_variant", f"there is no variant {error.variant_id!r}")]
        ) from error


def _setup_of(game: StoredGame) -> GameSetup:
    """A stored game's setup. A game stored before a check was tightened (a money value in
    exponent form, a control character in a name) stays readable: a refused option falls
    back to its default and the names are kept as stored, and the fallback is logged."""
    variant = find_variant(game.variant)
    try:
        return validate_game_setup(variant, game.options, list(game.players), game.first_dealer)
    except RecordInvalid as error:
        log.warning("game %s no longer passes today's setup checks; read with defaults for "
                    "what fails: %s", game.id, error)
        refused = {p.field for p in error.problems}
        options = {name: value for name, value in game.options.items()
                   if f"options.{name}" not in refused}
        return GameSetup(variant, resolve_options(variant, options), tuple(game.players),
                         game.first_dealer)


def _score_stored(setup: GameSetup, hand: StoredHand) -> tuple[HandRecord, HandResult]:
    record = parse_hand_record(setup.variant, hand.record)
    return record, score_hand(setup.variant, setup.options, record)


def _parse_and_score(
    setup: GameSetup, data: Mapping[str, Any], earlier: Sequence[HandResult],
    summary: GameSummary | None = None,
) -> tuple[HandRecord, HandResult]:
    """Validate a hand record as the next hand after ``earlier``, collecting every problem:
    its form, the dealer whose turn it is, the rules of the variant, and what the game adds
    (a record stopping after the declarations must win the rubber, R13)."""
    if summary is None:  # ``summary``, when given, is the game's after ``earlier``
        summary = game_summary(setup, earlier)
    expected_dealer = summary.next_dealer
    name = setup.seat_names()[expected_dealer] if expected_dealer is not None else None
    record, result = score_record(setup.variant, setup.options, data,
                                  expected_dealer=expected_dealer, dealer_name=name)
    problems = check_next_hand(setup, earlier, result, summary)
    if problems:
        raise RecordInvalid(problems)
    return record, result


def _check_if_match(game_id: str, hand: StoredHand | HandView,
                    if_match: Collection[str] | None, *, required: bool = True) -> None:
    if if_match is None:
        if not required:
            return
        raise PreconditionRequired(
            Text("send If-Match with the ETag of hand {n} to change it", n=hand.number)
        )
    if ANY_VERSION in if_match:
        return
    if hand_etag(game_id, hand.number, hand.version) not in if_match:
        raise PreconditionFailed(
            Text("hand {n} has changed since that ETag; read it again", n=hand.number)
        )


class GameService:
    """The use cases of stored games over a ``GameRepository``."""

    def __init__(
        self,
        repository: GameRepository,
        clock: Clock = utc_now,
        cache_hands: int = CACHE_HANDS,
    ) -> None:
        self.repository = repository
        self.clock = clock
        # Derived results, in this process (each gunicorn worker has its own). Keys name an
        # immutable state (a hand's version, a game's version), so an entry is never stale;
        # a new version is a new key, and the least recently used entries go first.
        self._results: LruCache[tuple[str, int, int, str], tuple[HandRecord, HandResult]] = (
            LruCache(cache_hands)
        )
        # One view a game, the newest this process has seen, weighed by its hands.
        self._views: LruCache[str, GameView] = LruCache(
            cache_hands, weight=lambda view: len(view.hands) + 1)

    # -- access -----------------------------------------------------------------------------

    def tag_of(self, access: Access) -> str:
        """The game's entity tag as its credentials were read, for a conditional read: no
        further query, no scoring."""
        return game_etag(access.game_id, access.credentials.version)

    def game_tag(self, game_id: str, token: str | None) -> str:
        """The game's current entity tag, for a conditional read: one small query."""
        return self.tag_of(self.authorize(game_id, token, write=False))

    def authorize(self, game_id: str, token: str | None, *, write: bool,
                  player: bool = False) -> Access:
        """What ``token`` opens of the game: ``Unauthenticated`` without one,
        ``InvalidToken`` for a token that opens no game at all, ``NotFound`` for the token of
        another game (or no such game: the two look the same, so ids cannot be probed with a
        token one holds), ``Forbidden`` for a read token on a write. With ``player``, only a
        player's link will do (a verdict is a player's own: the scorekeeper's and the
        read-only links cannot give one)."""
        if not token:
            raise Unauthenticated(
                Text("this request needs the game's token (Authorization: Bearer …)"))
        credentials = self.repository.get_credentials(game_id)
        digest = hash_token(token)
        # Both comparisons always run, against placeholders when there is no such game: the
        # time taken tells neither which token matched nor whether the game exists.
        edit_hash = credentials.edit_token_hash if credentials else _NO_HASH
        read_hash = credentials.read_token_hash if credentials else _NO_HASH
        is_edit = hmac.compare_digest(digest, edit_hash)
        is_read = hmac.compare_digest(digest, read_hash)
        # Every player's hash is compared too, whatever matched before.
        is_player = False
        seat: int | None = None
        for player_seat, player_hash in (credentials.player_token_hashes if credentials else ()):
            if hmac.compare_digest(digest, player_hash):
                is_player, seat = True, player_seat
        kind: AccessKind | None = ("edit" if is_edit else "read" if is_read
                                   else "player" if is_player else None)
        if kind is None or credentials is None:
            # Whether the game exists is only told to no one: a token that opens nothing gets
            # 401 for every id, the token of another game 404 for every other id.
            if not self.repository.token_exists(digest):
                raise InvalidToken(Text("this token opens no game; check the link it came from"))
            raise GameNotFound(Text("there is no game {game} for this token", game=repr(game_id)))
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

    def _fresh(self, unit: UnitOfWork, access: Access) -> Access:
        """``access`` as decided before the write; on a try after a concurrent change, with
        the game's credentials read again (their version is where the try reads from)."""
        if not unit.retried:
            return access
        credentials = self.repository.get_credentials(access.game_id)
        if credentials is None:  # pragma: no cover - games are never removed
            raise GameNotFound(Text("there is no game {game} for this token",
                                    game=repr(access.game_id)))
        return replace(access, credentials=credentials)

    # -- games ------------------------------------------------------------------------------

    def create_game(
        self,
        unit: UnitOfWork,
        variant_id: str,
        options: Mapping[str, Any] | None,
        players: Sequence[str],
        first_dealer: int | None,
    ) -> CreatedGame:
        edit_token = secrets.token_urlsafe(TOKEN_BYTES)
        read_token = secrets.token_urlsafe(TOKEN_BYTES)
        game = self.new_game(variant_id, options, players, first_dealer,
                             edit_token=edit_token, read_token=read_token)
        try:
            unit.games.add_game(game)
        except GameIdTaken as error:  # pragma: no cover - a collision in a 2**49 space
            # The failed insert spoiled its transaction: the unit of work starts again, with
            # a new id.
            raise ConcurrentChange("a new game's id was already taken") from error
        view = self._view(game, keep=False)
        unit.after_commit(lambda: self._keep_view(view))
        return CreatedGame(view, edit_token, read_token,
                           player_tokens(edit_token, game.id, view.setup))

    def new_game(self, variant_id: str, options: Mapping[str, Any] | None,
                 players: Sequence[str], first_dealer: int | None, *, edit_token: str,
                 read_token: str, event: tuple[str, int, int] | None = None) -> StoredGame:
        """A new game as it is stored (checked, not stored yet): its tokens' hashes, and
        each player's (worked out from the edit token); ``event`` for a table of an event."""
        variant = _variant(variant_id)
        setup = validate_game_setup(variant, options, list(players), first_dealer)
        game_id = new_game_id()
        return StoredGame(
            id=game_id,
            variant=variant.id,
            options=dict(setup.options),
            players=tuple(setup.players),
            first_dealer=setup.first_dealer,
            edit_token_hash=hash_token(edit_token),
            read_token_hash=hash_token(read_token),
            created_at=self.clock(),
            version=1,
            player_token_hashes=tuple(
                (seat, hash_token(token))
                for seat, token in enumerate(player_tokens(edit_token, game_id, setup))
                if token),
            event=event,
        )

    def view_of(self, game: StoredGame) -> GameView:
        """A game's view from the game as stored (one an event's write has just made or
        changed: read again, it would not show before the commit). Not kept: the write may
        yet roll back."""
        return self._view(game, keep=False)

    def opens_a_game(self, token_hash: str) -> bool:
        """Whether any game has this edit, read or player token hash."""
        return self.repository.token_exists(token_hash)

    def view_at(self, game_id: str, version: int) -> GameView:
        """The game at ``version`` (just read elsewhere, as an event reads its tables') or
        later, from this process's views where it can."""
        return self._current_view(game_id, version)

    def player_links(self, game_id: str, token: str | None) -> tuple[str | None, ...]:
        """Each seat's player token, with the edit token only: they are worked out from it
        (so they need not be kept), and a game from before player links gets them stored
        now."""
        credentials = self.authorize(game_id, token, write=True).credentials
        assert token is not None
        view = self._current_view(game_id, credentials.version)
        players = player_tokens(token, game_id, view.setup)
        self.repository.add_player_tokens(game_id, tuple(
            (seat, hash_token(found)) for seat, found in enumerate(players) if found))
        return players

    def get_game(self, game_id: str, token: str | None) -> GameView:
        return self.view_for(self.authorize(game_id, token, write=False))

    def view_for(self, access: Access) -> GameView:
        """The game ``access`` opens, at the version read with its credentials or later."""
        return self._current_view(access.game_id, access.credentials.version)

    def history(self, game_id: str, token: str | None) -> list[HandVersion]:
        self.authorize(game_id, token, write=False)
        return self.repository.history(game_id)

    # -- hands ------------------------------------------------------------------------------

    def get_hand(self, game_id: str, token: str | None, number: int) -> HandView:
        view = self.get_game(game_id, token)
        return self._hand_of(view, number)

    def add_hand(self, unit: UnitOfWork, access: Access, data: Mapping[str, Any]) -> HandView:
        """Record the next hand (``access``: the edit token's)."""
        access = self._fresh(unit, access)
        game_id = access.game_id
        kind, credentials = _token_kind(access), access.credentials
        view = self._current_view(game_id, credentials.version)
        game = view.game
        _check_open(game)
        if view.summary.finished:
            raise Conflict(
                Text("game {game} is finished; it takes no more hands", game=game_id),
                code="game_finished"
            )
        if len(game.hands) >= MAX_HANDS:
            raise Conflict(
                Text("game {game} holds {n} hands, the most one game can hold", game=game_id,
                     n=MAX_HANDS),
                code="too_many_hands",
            )
        # The summary of the hands so far stands for them: nothing here walks the game.
        record, result = _parse_and_score(view.setup, data, (), view.summary)
        canonical = record.to_json()
        try:
            stored = unit.games.add_hand(
                game_id,
                expected_game_version=game.version,
                number=len(game.hands) + 1,
                record=canonical,
                rules_version=RULES_VERSION,
                token_kind=kind,
                now=self.clock(),
            )
        except StaleGame as error:
            raise _concurrent(game_id) from error
        hand = hand_view(game_id, stored, record, result, view.setup)
        unit.after_commit(lambda: self._remember_added(view, stored, record, hand))
        return hand

    def _remember_added(self, view: GameView, stored: StoredHand, record: HandRecord,
                        hand: HandView) -> None:
        """Once a new hand is committed, the game's next version is the last one plus that
        hand: its view is made now, so the next read or write scores nothing again."""
        self._results.put((view.id, stored.number, stored.version, stored.rules_version),
                          (record, hand.result))
        self._keep_view(_appended(view, view.game.version + 1, [stored], [hand]))

    def correct_hand(
        self,
        unit: UnitOfWork,
        access: Access,
        number: int,
        data: Mapping[str, Any],
        if_match: Collection[str] | None,
    ) -> HandView:
        """Replace hand ``number``'s record (a new version; earlier ones stay in the history).
        The dealer must be the one whose turn that hand was; later results are derived, so
        they follow. The game is read whole, afresh on every try."""
        game_id, kind = access.game_id, _token_kind(access)
        game = self._load(game_id)
        _check_open(game)
        current = self._stored_hand(game, number)
        _check_if_match(game_id, current, if_match)
        view = self._view(game)
        record, result = _parse_and_score(view.setup, data,
                                          [hand.result for hand in view.hands[: number - 1]])
        chain = [(h.dealer, h.result) for h in view.hands]
        chain[number - 1] = (record.dealer, result)
        broken = later_hands_problems(view.setup, chain, number)
        if broken:
            raise Conflict(
                Text("correcting hand {n} this way would leave later hands wrong: {problems}. "
                     "Correct or delete the later hands first.", n=number,
                     problems=Text.joined(p.message for p in broken)),
                code="later_hands_conflict",
            )
        try:
            stored = unit.games.replace_hand(
                game_id,
                expected_game_version=game.version,
                number=number,
                expected_hand_version=current.version,
                record=record.to_json(),
                rules_version=RULES_VERSION,
                token_kind=kind,
                now=self.clock(),
            )
        except StaleGame as error:
            raise _concurrent(game_id) from error
        return hand_view(game_id, stored, record, result, view.setup)

    def delete_hand(
        self, unit: UnitOfWork, access: Access, number: int, if_match: Collection[str] | None
    ) -> None:
        """Remove the last hand (a ``delete`` version records it)."""
        game_id, kind = access.game_id, _token_kind(access)
        game = self._load(game_id)
        _check_open(game)
        current = self._stored_hand(game, number)
        _check_if_match(game_id, current, if_match)
        if number != len(game.hands):
            raise Conflict(
                Text("only the last hand ({last}) can be deleted; correct hand {n} instead",
                     last=len(game.hands), n=number),
                code="not_last_hand",
            )
        try:
            unit.games.delete_hand(
                game_id,
                expected_game_version=game.version,
                number=number,
                expected_hand_version=current.version,
                rules_version=RULES_VERSION,
                token_kind=kind,
                now=self.clock(),
            )
        except StaleGame as error:
            raise _concurrent(game_id) from error

    # -- players' verdicts -------------------------------------------------------------------

    def confirm_hand(
        self,
        unit: UnitOfWork,
        access: Access,
        number: int,
        verdict: str,
        reason: object,
        if_match: Collection[str] | None,
    ) -> tuple[HandView, Confirmation, bool]:
        """A player's verdict on hand ``number`` as it stands (with ``If-Match``, only if it
        is still the version the player read): the hand, the verdict, and whether it is new.
        The same verdict again is the one already given; a different one replaces it."""
        access = self._fresh(unit, access)
        game_id = access.game_id
        assert access.seat is not None
        problems = verdict_problems(verdict, reason)
        if problems:
            raise RecordInvalid(problems)
        view = self._current_view(game_id, access.credentials.version)
        if view.setup.options.get("confirmation", "optional") == "none":
            raise Conflict(
                Text("game {game} takes no confirmations: its confirmation option is none",
                     game=game_id),
                code="confirmation_off",
            )
        hand = self._hand_of(view, number)
        _check_if_match(game_id, hand, if_match, required=False)
        kept = reason_of(verdict, reason)
        given = next((c for c in hand.confirmations if c.seat == access.seat), None)
        if given is not None and given.says_the_same(verdict, kept):
            return hand, given, False
        confirmation = Confirmation(access.seat, "confirm" if verdict == "confirm" else "dispute",
                                    hand.version, self.clock(), kept)
        try:
            unit.games.add_confirmation(
                game_id, expected_game_version=view.game.version, confirmation=confirmation,
                number=number)
        except StaleGame as error:
            raise _concurrent(game_id) from error
        updated = _with_verdict(view, number, confirmation)
        unit.after_commit(lambda: self._keep_view(updated))
        return updated.hands[number - 1], confirmation, True

    # -- internals --------------------------------------------------------------------------

    def _load(self, game_id: str) -> StoredGame:
        game = self.repository.get_game(game_id)
        if game is None:
            raise GameNotFound(Text("there is no game {game} for this token", game=repr(game_id)))
        return game

    @staticmethod
    def _stored_hand(game: StoredGame, number: int) -> StoredHand:
        if not 1 <= number <= len(game.hands):
            raise NotFound(Text("game {game} has no hand {n}", game=game.id, n=number))
        return game.hands[number - 1]

    @staticmethod
    def _hand_of(view: GameView, number: int) -> HandView:
        if not 1 <= number <= len(view.hands):
            raise NotFound(Text("game {game} has no hand {n}", game=view.id, n=number))
        return view.hands[number - 1]

    def _view(self, game: StoredGame, *, keep: bool = True) -> GameView:
        """The game with every result, from the caches when this version was seen before: a
        stored hand's result depends only on its record, so it is kept by (game, number,
        hand version, rules version) and never recomputed; the whole view by the game's
        version."""
        cached = self._cached_view(game.id, game.version)
        if cached is not None and _same_hands(cached.game, game):
            return cached
        setup = _setup_of(game)
        hands = [hand_view(game.id, stored, *self._scored(setup, game.id, stored), setup)
                 for stored in game.hands]
        summary = game_summary(setup, [hand.result for hand in hands])
        view = GameView(game, setup, tuple(hands), summary)
        if keep:
            self._keep_view(view)
        return view

    def _cached_view(self, game_id: str, version: int) -> GameView | None:
        view = self._views.get(game_id)
        return view if view is not None and view.game.version == version else None

    def _current_view(self, game_id: str, version: int) -> GameView:
        """The game at ``version`` (just read with its credentials) or later. A kept view of
        an earlier version, when all that happened since is new hands (another worker took
        them), is brought up to date with those hands alone: the cost of catching up is what
        changed, not the game's length. Anything else reads the game whole."""
        view = self._views.get(game_id)
        if view is not None and view.game.version == version:
            return view
        if view is not None and view.game.version < version and not view.summary.finished:
            added = self.repository.hands_added_since(game_id, view.game.version)
            # The hands' history reaching the version read says new hands are all that
            # happened; one falling short means something else moved the game on (a
            # player's verdict), and the game is read whole.
            if added is not None and added.version >= version and all(
                    stored.number == len(view.hands) + i
                    for i, stored in enumerate(added.hands, start=1)):
                hands = [hand_view(game_id, stored, *self._scored(view.setup, game_id, stored),
                                     view.setup)
                         for stored in added.hands]
                caught_up = _appended(view, added.version, added.hands, hands)
                self._keep_view(caught_up)
                return caught_up
        return self._view(self._load(game_id))

    def _scored(self, setup: GameSetup, game_id: str,
                stored: StoredHand) -> tuple[HandRecord, HandResult]:
        """A stored hand's record and result, scored once per (game, number, hand version,
        rules version)."""
        hand_key = (game_id, stored.number, stored.version, stored.rules_version)
        scored = self._results.get(hand_key)
        if scored is None:
            try:
                scored = _score_stored(setup, stored)
            except RecordInvalid as error:
                # Stored records were valid when entered; failing now means the rules
                # changed under them, a defect of the service, not of this request.
                raise StoredHandInvalid(game_id, stored.number, error) from error
            self._results.put(hand_key, scored)
        return scored

    def _keep_view(self, view: GameView) -> None:
        """Keep ``view`` as its game's, unless a newer version of the game is kept."""
        kept = self._views.get(view.id)
        if kept is None or kept.game.version <= view.game.version:
            self._views.put(view.id, view)


def _check_open(game: StoredGame) -> None:
    """A table whose round the organiser closed takes no more changes: it counts as it
    stood (EVENTS.md)."""
    if game.closed_at is not None:
        raise Conflict(
            Text("game {game} is a table of a round the organiser closed: it counts as it "
                 "stands and takes no more changes", game=game.id),
            code="game_closed",
        )


def _appended(view: GameView, version: int, stored: Sequence[StoredHand],
              hands: Sequence[HandView]) -> GameView:
    """``view`` with the ``stored`` hands, made into ``hands``, added after its own, the game
    then at ``version``."""
    game = replace(view.game, version=version, hands=(*view.game.hands, *stored))
    summary = game_summary(view.setup, [hand.result for hand in hands], view.summary)
    return GameView(game, view.setup, (*view.hands, *hands), summary)


def _with_verdict(view: GameView, number: int, confirmation: Confirmation) -> GameView:
    """``view`` once ``confirmation`` is given on hand ``number``: the seat's earlier verdict
    on that version replaced, the game one version on."""
    stored = view.game.hands[number - 1]
    verdicts = tuple(sorted(
        (*(c for c in stored.confirmations if c.seat != confirmation.seat), confirmation),
        key=lambda c: c.seat))
    stored = replace(stored, confirmations=verdicts)
    game = replace(view.game, version=view.game.version + 1, hands=(
        *view.game.hands[: number - 1], stored, *view.game.hands[number:]))
    mode = view.setup.options.get("confirmation", "optional")
    standing = hand_standing(mode, view.setup.variant.players, verdicts)
    hand = replace(view.hands[number - 1], confirmations=verdicts, standing=standing,
                   final=is_final(mode, standing))
    hands = (*view.hands[: number - 1], hand, *view.hands[number:])
    return GameView(game, view.setup, hands, view.summary)


def _same_hands(one: StoredGame, other: StoredGame) -> bool:
    return [(h.number, h.version) for h in one.hands] == [
        (h.number, h.version) for h in other.hands
    ]


def _token_kind(access: Access) -> TokenKind:
    """The kind of token a write was made with, as the history records it (only the edit
    token writes hands)."""
    return "read" if access.kind == "read" else "edit"


def hand_view(
    game_id: str, stored: StoredHand, record: HandRecord, result: HandResult, setup: GameSetup
) -> HandView:
    mode = setup.options.get("confirmation", "optional")
    standing = hand_standing(mode, setup.variant.players, stored.confirmations)
    return HandView(
        game_id=game_id,
        number=stored.number,
        version=stored.version,
        dealer=record.dealer,
        record=stored.record,
        rules_version=stored.rules_version,
        result=result,
        created_at=stored.created_at,
        updated_at=stored.updated_at,
        family=setup.variant.family,
        confirmations=stored.confirmations,
        standing=standing,
        final=is_final(mode, standing),
    )


class StoredHandInvalid(RuntimeError):
    def __init__(self, game_id: str, number: int, error: RecordInvalid) -> None:
        super().__init__(
            f"stored hand {number} of game {game_id} no longer passes the rules "
            f"({RULES_VERSION}): {error}"
        )


def _concurrent(game_id: str) -> ConcurrentChange:
    return ConcurrentChange(
        f"game {game_id} was changed by another request at the same time; read it and retry"
    )
