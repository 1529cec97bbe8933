"""The SQL implementation of the application's ``GameRepository`` port.

Each operation is one transaction, unless it runs inside a unit of work (``connections``):
then every write joins that unit's transaction. Writes are guarded by the game's ``version``:
the row is updated only if it still holds the version the use case read (compare-and-set),
and that update is the first statement of every write, so it takes the game's row lock
(PostgreSQL) or the database's write lock (SQLite) before anything else: two concurrent
writers cannot both append hand 5; the second waits for the first to commit, then finds the
version moved on and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    Integer,
    String,
    bindparam,
    case,
    cast,
    delete,
    func,
    insert,
    literal,
    null,
    select,
    union_all,
    update,
)
from sqlalchemy.exc import IntegrityError

from service.application.ports import (
    AddedHands,
    GameCredentials,
    GameIdTaken,
    GivenVerdict,
    HandVersion,
    RecordedVerdict,
    StaleGame,
    StoredGame,
    StoredHand,
    TokenKind,
)
from service.domain import (
    RULES_VERSION,
    Confirmation,
    current_verdicts,
)

from .base import tables, token_opens_a_row, version_bump
from .connections import SqlConnections, aware
from .models import ConfirmationRow, EventRow, GameRow, HandRow, PlayerTokenRow

_GAME = select(
    GameRow.id, GameRow.variant, GameRow.options, GameRow.players, GameRow.first_dealer,
    GameRow.edit_token_hash, GameRow.read_token_hash, GameRow.created_at, GameRow.version,
    GameRow.event_id, GameRow.event_round, GameRow.event_table, GameRow.closed_at,
    GameRow.club_id, GameRow.seat_members, GameRow.ended_at,
    GameRow.boards,
).where(GameRow.id == bindparam("game_id"))
_HANDS = (
    select(HandRow.number, HandRow.version, HandRow.record, HandRow.rules_version,
           HandRow.created_at, HandRow.updated_at)
    .where(HandRow.game_id == bindparam("game_id"))
    .order_by(HandRow.number)
)
# The verdicts on the game's current hands (a hand's current version), oldest first.
_CONFIRMATIONS = (
    select(ConfirmationRow.number, ConfirmationRow.hand_version, ConfirmationRow.seat,
           ConfirmationRow.verdict, ConfirmationRow.reason, ConfirmationRow.created_at)
    .join(HandRow, (HandRow.game_id == ConfirmationRow.game_id)
          & (HandRow.number == ConfirmationRow.number)
          & (HandRow.version == ConfirmationRow.hand_version))
    .where(ConfirmationRow.game_id == bindparam("game_id"))
    .order_by(ConfirmationRow.id)
)
# The same three for many games at once (an event's tables): one statement each, each row
# saying its game.
_GAMES = select(*_GAME.selected_columns).where(
    GameRow.id.in_(bindparam("game_ids", expanding=True)))
_HANDS_OF = (
    select(HandRow.game_id, *_HANDS.selected_columns)
    .where(HandRow.game_id.in_(bindparam("game_ids", expanding=True)))
    .order_by(HandRow.game_id, HandRow.number)
)
_CONFIRMATIONS_OF = (
    select(ConfirmationRow.game_id, *_CONFIRMATIONS.selected_columns)
    .join(HandRow, (HandRow.game_id == ConfirmationRow.game_id)
          & (HandRow.number == ConfirmationRow.number)
          & (HandRow.version == ConfirmationRow.hand_version))
    .where(ConfirmationRow.game_id.in_(bindparam("game_ids", expanding=True)))
    .order_by(ConfirmationRow.id)
)
#: Games read together in one statement at most (an event of many rounds reads in several).
GAMES_A_READ = 500
_CREDENTIALS = (
    select(GameRow.edit_token_hash, GameRow.read_token_hash, GameRow.version,
           PlayerTokenRow.seat, PlayerTokenRow.token_hash,
           case((GameRow.closed_at.is_(None), GameRow.event_id), else_=None),
           EventRow.version)
    .outerjoin(PlayerTokenRow, PlayerTokenRow.game_id == GameRow.id)
    .outerjoin(EventRow, EventRow.id == GameRow.event_id)
    .where(GameRow.id == bindparam("game_id"))
)

# Statements run through Core on the unit of work's connection: the typed models declare the
# schema, and rows go straight into the ports' value objects, without an ORM session (whose
# bookkeeping cost more than the statements). The frequent ones are made once, here.
_games, _hands, _versions, _players, _confirmations = tables(
    "games", "hands", "hand_versions", "player_tokens", "confirmations")
_BUMP_GAME = version_bump(_games, "game_id")
# A new hand: its version follows the last of its number in the history (a hand deleted
# and entered again goes on from there), and its history entry is copied from its row.
_INSERT_HAND = (
    insert(_hands)
    .values(version=select(func.coalesce(func.max(_versions.c.version), 0) + 1)
            .where(_versions.c.game_id == bindparam("g"), _versions.c.number == bindparam("n"))
            .scalar_subquery())
    .returning(_hands.c.version)
)
_LOG_NEW_HAND = insert(_versions).from_select(
    ["game_id", "number", "version", "action", "record", "rules_version", "token_kind",
     "created_at", "game_version"],
    select(_hands.c.game_id, _hands.c.number, _hands.c.version,
           bindparam("action", type_=String()), _hands.c.record, _hands.c.rules_version,
           bindparam("token_kind", type_=String()), _hands.c.created_at,
           bindparam("game_version", type_=Integer()))
    .where(_hands.c.game_id == bindparam("g"), _hands.c.number == bindparam("n")),
)
_INSERT_VERSION = insert(_versions)
# A verdict moves the game on from whatever version it is at, and says which it made.
_NEXT_GAME_VERSION = (
    update(_games)
    .where(_games.c.id == bindparam("game_id"))
    .values(version=_games.c.version + 1, verdicts=_games.c.verdicts + 1)
    .returning(_games.c.version)
)
# A verdict given on the version the request read: counted as one (the version moved already).
_COUNT_VERDICT = (
    update(_games).where(_games.c.id == bindparam("game_id"))
    .values(verdicts=_games.c.verdicts + 1)
)
_HAND_VERSION = select(_hands.c.version).where(
    _hands.c.game_id == bindparam("game_id"), _hands.c.number == bindparam("number"))
_HAND_VERDICTS = (
    select(_confirmations.c.number, _confirmations.c.hand_version, _confirmations.c.seat,
           _confirmations.c.verdict, _confirmations.c.reason, _confirmations.c.created_at)
    .where(_confirmations.c.game_id == bindparam("game_id"),
           _confirmations.c.number == bindparam("number"),
           _confirmations.c.hand_version == bindparam("version"))
    .order_by(_confirmations.c.id)
)
# The game's changes after a version, in one statement: its hands' (an action on a hand) and
# its players' verdicts (``verdict``), each with the game's version it made.
_SINCE = {"game_id": bindparam("game_id"), "since": bindparam("since")}
_CHANGES_SINCE = union_all(
    select(_versions.c.game_version, _versions.c.action, _versions.c.number,
           _versions.c.version, _versions.c.record, _versions.c.rules_version,
           _versions.c.created_at, cast(null(), Integer).label("seat"),
           cast(null(), String).label("verdict"), cast(null(), String).label("reason"))
    .where(_versions.c.game_id == _SINCE["game_id"],
           _versions.c.game_version > _SINCE["since"]),
    select(_confirmations.c.game_version, literal("verdict", String), _confirmations.c.number,
           _confirmations.c.hand_version, cast(null(), _versions.c.record.type),
           cast(null(), String), _confirmations.c.created_at, _confirmations.c.seat,
           _confirmations.c.verdict, _confirmations.c.reason)
    .where(_confirmations.c.game_id == _SINCE["game_id"],
           _confirmations.c.game_version > _SINCE["since"]),
)


def _confirmation(row: Any) -> Confirmation:
    return Confirmation(seat=row.seat, verdict=row.verdict, version=row.hand_version,
                        at=aware(row.created_at), reason=row.reason)


def _with_verdicts(hand: StoredHand, verdicts: Any) -> StoredHand:
    """The hand with each seat's latest verdict on its version."""
    if not verdicts:
        return hand
    return replace(hand, confirmations=current_verdicts(verdicts, hand.version))


def _hand(row: Any) -> StoredHand:
    return StoredHand(
        number=row.number,
        version=row.version,
        record=row.record,
        rules_version=row.rules_version,
        created_at=aware(row.created_at),
        updated_at=aware(row.updated_at),
    )


def _stored_game(row: Any, hands: Sequence[Any],
                 verdicts: Mapping[int, Sequence[Confirmation]]) -> StoredGame:
    """A game as stored: its row, its hands' rows in order, and the verdicts on them by
    hand."""
    return StoredGame(
        id=row.id,
        variant=row.variant,
        options=dict(row.options),
        players=tuple(row.players),
        first_dealer=row.first_dealer,
        edit_token_hash=row.edit_token_hash,
        read_token_hash=row.read_token_hash,
        created_at=aware(row.created_at),
        version=row.version,
        hands=tuple(_with_verdicts(_hand(hand), verdicts.get(hand.number, ()))
                    for hand in hands),
        event=((row.event_id, row.event_round, row.event_table)
               if row.event_id is not None else None),
        closed_at=aware(row.closed_at) if row.closed_at is not None else None,
        club=row.club_id,
        seat_members=(tuple(row.seat_members) if row.seat_members is not None else None),
        ended_at=aware(row.ended_at) if row.ended_at is not None else None,
        boards=tuple(row.boards["numbers"]) if row.boards else (),
        board_seed=row.boards["seed"] if row.boards else None,
    )


class SqlGameRepository:
    """Games, their hands, verdicts and history. Its writes join the unit of work open on
    its ``connections`` (shared with the store's other repositories)."""

    def __init__(self, engine: Engine, connections: SqlConnections | None = None) -> None:
        self.engine = engine
        self.connections = connections if connections is not None else SqlConnections(engine)
        self._connect = self.connections.connect
        self._write = self.connections.write

    # -- reads -------------------------------------------------------------------------------

    def get_game(self, game_id: str) -> StoredGame | None:
        # Three statements whatever the game's length (the game, its hands, their verdicts),
        # through Core: rows straight into the port's value objects, no ORM identity map.
        with self._connect() as connection:
            row = connection.execute(_GAME, {"game_id": game_id}).first()
            if row is None:
                return None
            hands = connection.execute(_HANDS, {"game_id": game_id}).all()
            verdicts: dict[int, list[Confirmation]] = {}
            for found in connection.execute(_CONFIRMATIONS, {"game_id": game_id}):
                verdicts.setdefault(found.number, []).append(_confirmation(found))
        return _stored_game(row, hands, verdicts)

    def get_games(self, game_ids: Sequence[str]) -> dict[str, StoredGame]:
        # The same three statements for every game together, however many (in reads of
        # ``GAMES_A_READ``), not three a game.
        found: dict[str, StoredGame] = {}
        wanted = list(dict.fromkeys(game_ids))
        with self._connect() as connection:
            for start in range(0, len(wanted), GAMES_A_READ):
                ids = {"game_ids": wanted[start:start + GAMES_A_READ]}
                rows = connection.execute(_GAMES, ids).all()
                hands: dict[str, list[Any]] = {}
                for hand in connection.execute(_HANDS_OF, ids):
                    hands.setdefault(hand.game_id, []).append(hand)
                verdicts: dict[str, dict[int, list[Confirmation]]] = {}
                for given in connection.execute(_CONFIRMATIONS_OF, ids):
                    verdicts.setdefault(given.game_id, {}).setdefault(
                        given.number, []).append(_confirmation(given))
                for row in rows:
                    found[row.id] = _stored_game(row, hands.get(row.id, []),
                                                 verdicts.get(row.id, {}))
        return found

    def get_credentials(self, game_id: str) -> GameCredentials | None:
        # Every request to a game runs this first: Core, not the ORM (no session, no
        # identity map), one statement.
        with self._connect() as connection:
            rows = connection.execute(_CREDENTIALS, {"game_id": game_id}).all()
            if not rows:
                return None
            found = rows[0]
            return GameCredentials(
                edit_token_hash=found[0], read_token_hash=found[1], version=found[2],
                player_token_hashes=tuple(sorted((row[3], row[4]) for row in rows
                                                 if row[3] is not None)),
                open_table_of=found[5],
                open_table_version=found[6] if found[5] is not None else None,
            )

    def changes_since(self, game_id: str, version: int) -> AddedHands | None:
        # One statement, reading only what changed: a worker's copy of a long game that
        # another worker has since added a hand to, or its players their verdicts, costs
        # those rows, not the game.
        with self._connect() as connection:
            rows = connection.execute(_CHANGES_SINCE, {"game_id": game_id, "since": version})
            changes: dict[int, StoredHand | GivenVerdict] = {}
            for row in rows:
                created = aware(row.created_at)
                if row.action == "verdict":
                    changes[row.game_version] = GivenVerdict(row.number, Confirmation(
                        seat=row.seat, verdict=row.verdict, version=row.version, at=created,
                        reason=row.reason))
                elif row.action == "create":
                    changes[row.game_version] = StoredHand(
                        number=row.number, version=row.version, record=row.record,
                        rules_version=row.rules_version, created_at=created,
                        updated_at=created)
                else:
                    return None
        # Each version in turn, from the one after ``version``: a gap is a change of another
        # kind, which the caller reads whole.
        reached = version
        while reached + 1 in changes:
            reached += 1
        if reached - version != len(changes):
            return None
        return AddedHands(version=reached,
                          changes=tuple(changes[v] for v in range(version + 1, reached + 1)))

    def token_exists(self, token_hash: str) -> bool:
        with self._connect() as connection:
            if token_opens_a_row(connection, _games, token_hash):
                return True
            player = connection.execute(
                select(PlayerTokenRow.game_id).where(PlayerTokenRow.token_hash == token_hash)
                .limit(1)
            ).first()
            return player is not None

    def add_player_tokens(self, game_id: str, hashes: tuple[tuple[int, str], ...]) -> None:
        with self._write() as connection:
            have = {row[0] for row in connection.execute(
                select(PlayerTokenRow.seat).where(PlayerTokenRow.game_id == game_id))}
            missing = [{"game_id": game_id, "seat": seat, "token_hash": digest}
                       for seat, digest in hashes if seat not in have]
            if missing:
                connection.execute(insert(_players), missing)

    def history(self, game_id: str) -> list[HandVersion]:
        with self._connect() as connection:
            rows = connection.execute(
                select(_versions)
                .where(_versions.c.game_id == game_id)
                .order_by(_versions.c.id)
            ).all()
            verdicts: dict[tuple[int, int], list[Confirmation]] = {}
            for found in connection.execute(
                    select(_confirmations).where(_confirmations.c.game_id == game_id)
                    .order_by(_confirmations.c.id)):
                verdicts.setdefault((found.number, found.hand_version), []).append(
                    _confirmation(found))
            return [
                HandVersion(
                    number=row.number,
                    version=row.version,
                    action=row.action,
                    record=row.record,
                    rules_version=row.rules_version,
                    token_kind=row.token_kind,
                    created_at=aware(row.created_at),
                    confirmations=tuple(verdicts.get((row.number, row.version), ())),
                )
                for row in rows
            ]

    # -- writes ------------------------------------------------------------------------------

    def add_game(self, game: StoredGame) -> None:
        try:
            with self._write() as connection:
                event_id, event_round, event_table = game.event or (None, None, None)
                connection.execute(insert(_games), {
                    "id": game.id, "variant": game.variant, "options": game.options,
                    "players": list(game.players), "first_dealer": game.first_dealer,
                    "edit_token_hash": game.edit_token_hash,
                    "read_token_hash": game.read_token_hash, "created_at": game.created_at,
                    "version": game.version, "event_id": event_id, "event_round": event_round,
                    "event_table": event_table, "closed_at": game.closed_at,
                    "club_id": game.club,
                    "seat_members": (list(game.seat_members)
                                     if game.seat_members is not None else None),
                    "boards": ({"numbers": list(game.boards), "seed": game.board_seed}
                               if game.boards else None),
                })
                if game.player_token_hashes:
                    connection.execute(insert(_players), [
                        {"game_id": game.id, "seat": seat, "token_hash": digest}
                        for seat, digest in game.player_token_hashes])
        except IntegrityError as error:
            raise GameIdTaken(game.id) from error

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
        try:
            with self._write() as connection:
                self._bump_game(connection, game_id, expected_game_version)
                version: int = connection.execute(_INSERT_HAND, {
                    "game_id": game_id, "number": number, "g": game_id, "n": number,
                    "record": record, "rules_version": rules_version, "created_at": now,
                    "updated_at": now,
                }).scalar_one()
                connection.execute(_LOG_NEW_HAND, {
                    "g": game_id, "n": number, "action": "create", "token_kind": token_kind,
                    "game_version": expected_game_version + 1,
                })
                return StoredHand(number=number, version=version, record=record,
                                  rules_version=rules_version, created_at=now, updated_at=now)
        except IntegrityError as error:
            # Another writer took this hand number first.
            raise StaleGame(game_id) from error

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
        version = expected_hand_version + 1
        with self._write() as connection:
            self._bump_game(connection, game_id, expected_game_version)
            updated = connection.execute(
                update(HandRow)
                .where(
                    HandRow.game_id == game_id,
                    HandRow.number == number,
                    HandRow.version == expected_hand_version,
                )
                .values(version=version, record=record, rules_version=rules_version,
                        updated_at=now)
            )
            if updated.rowcount != 1:
                raise StaleGame(game_id)
            self._log(connection, game_id, expected_game_version + 1, number, version,
                      "correct", record, rules_version, token_kind, now)
            hand = connection.execute(
                select(_hands).where(_hands.c.game_id == game_id, _hands.c.number == number)
            ).one()
            return _hand(hand)

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
        with self._write() as connection:
            self._bump_game(connection, game_id, expected_game_version)
            deleted = connection.execute(
                delete(HandRow).where(
                    HandRow.game_id == game_id,
                    HandRow.number == number,
                    HandRow.version == expected_hand_version,
                )
            )
            if deleted.rowcount != 1:
                raise StaleGame(game_id)
            self._log(connection, game_id, expected_game_version + 1, number,
                      expected_hand_version + 1, "delete", None, rules_version, token_kind, now)

    def end_game(self, game_id: str, *, expected_game_version: int, ended: bool,
                 token_kind: TokenKind, now: datetime) -> None:
        with self._write() as connection:
            self._bump_game(connection, game_id, expected_game_version)
            connection.execute(update(_games).where(_games.c.id == game_id)
                               .values(ended_at=now if ended else None))
            # Hand 0 is the game's own line in its history; the game's version numbers it.
            self._log(connection, game_id, expected_game_version + 1, 0,
                      expected_game_version + 1, "end" if ended else "reopen", None, RULES_VERSION,
                      token_kind, now)

    def add_confirmation(
        self,
        game_id: str,
        *,
        confirmation: Confirmation,
        number: int,
        expected_game_version: int | None = None,
    ) -> RecordedVerdict:
        # A verdict is one row of its seat's: it is not compared with the game's version the
        # request read (32 players' verdicts at once made 16-28 % of them lose that race and
        # fail), only with its hand's. The bump comes first, so the game's row lock (the
        # writer's lock on SQLite) is held before the hand is read: a correction or a delete
        # of the hand cannot slip in between.
        with self._write() as connection:
            if expected_game_version is None:
                game_version = connection.execute(_NEXT_GAME_VERSION,
                                                  {"game_id": game_id}).scalar_one_or_none()
                if game_version is None:
                    raise StaleGame(game_id)
            else:
                self._bump_game(connection, game_id, expected_game_version)
                connection.execute(_COUNT_VERDICT, {"game_id": game_id})
                game_version = expected_game_version + 1
            hand_version = connection.execute(_HAND_VERSION, {
                "game_id": game_id, "number": number}).scalar_one_or_none()
            if hand_version != confirmation.version:
                raise StaleGame(game_id)
            connection.execute(insert(_confirmations), {
                "game_id": game_id, "number": number, "hand_version": confirmation.version,
                "seat": confirmation.seat, "verdict": confirmation.verdict,
                "reason": confirmation.reason, "game_version": game_version,
                "created_at": confirmation.at,
            })
            verdicts = current_verdicts(
                (_confirmation(row) for row in connection.execute(_HAND_VERDICTS, {
                    "game_id": game_id, "number": number, "version": confirmation.version})),
                confirmation.version)
        return RecordedVerdict(game_version=game_version, verdicts=verdicts)

    # -- helpers -----------------------------------------------------------------------------

    @staticmethod
    def _bump_game(connection: Connection, game_id: str, expected_version: int) -> None:
        """Compare-and-set the game's version; the first statement of every write, so the
        write lock is taken before anything is read."""
        bumped = connection.execute(_BUMP_GAME, {
            "game_id": game_id, "expected": expected_version, "next_version": expected_version + 1,
        })
        if bumped.rowcount != 1:
            raise StaleGame(game_id)

    @staticmethod
    def _log(
        connection: Connection,
        game_id: str,
        game_version: int,
        number: int,
        version: int,
        action: str,
        record: dict[str, Any] | None,
        rules_version: str,
        token_kind: str,
        now: datetime,
    ) -> None:
        connection.execute(_INSERT_VERSION, {
            "game_id": game_id, "game_version": game_version, "number": number,
            "version": version, "action": action, "record": record, "rules_version": rules_version, "token_kind": token_kind,
            "created_at": now,
        })
