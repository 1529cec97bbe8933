"""Use cases of stored games: create, read, add / correct / delete hands, players'
verdicts, history, links.

A stored hand is its record; every result is recomputed from the records, in order, by the
same ``score_hand`` that answers ``POST /score`` (docs/architecture.md, principle 4). A write is scored first
and stored only if valid, guarded by the game's version, so a rejected or conflicting request
changes nothing. A write runs in a ``UnitOfWork`` (its transaction, its retries, its work
after commit), with the ``Access`` decided before it began.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

from service.domain import (
    RULES_VERSION,
    Confirmation,
    GameSetup,
    GameSummary,
    HandRecord,
    HandResult,
    Problem,
    RecordInvalid,
    Text,
    UnknownVariant,
    board_checks,
    check_next_hand,
    ends_by_evening,
    find_variant,
    game_summary,
    later_hands_problems,
    reason_of,
    score_record,
    validate_game_setup,
    verdict_problems,
)

from ..club_results import counts, project_game, refill_facts
from ..errors import (
    ConcurrentChange,
    Conflict,
    NotFound,
    PreconditionFailed,
    PreconditionRequired,
)
from ..ports import (
    EventTokens,
    GameIdTaken,
    GameRepository,
    HandVersion,
    StaleGame,
    StoredGame,
    StoredHand,
    TokenKind,
)
from ..refusals import counting_refusals
from ..unit_of_work import UnitOfWork
from .access import (
    TOKEN_BYTES,
    Access,
    authorize,
    fresh,
    game_not_found,
    hash_token,
    new_game_id,
    player_tokens,
    token_kind,
)
from .views import (
    ANY_VERSION,
    CACHE_HANDS,
    CreatedGame,
    GameView,
    GameViews,
    HandView,
    appended,
    game_etag,
    hand_etag,
    hand_view,
    setup_of,
    with_verdict,
    with_verdicts,
)

#: Hands one game can hold; hand numbers beyond it are never valid (404).
MAX_HANDS = 1000
T = TypeVar("T")


Clock = Callable[[], datetime]



def utc_now() -> datetime:
    return datetime.now(UTC)


class RoundEnds(Protocol):
    """What games need of events: a round ends once every game of it has finished, in the
    write that finishes the last one (``EventService`` is one)."""

    def hold(self, unit: UnitOfWork, event_id: str) -> None:
        """Hold the event for the rest of ``unit`` (before the write that may finish a
        table), so that the tables finishing at once are seen one after the other."""

    def table_finished(self, unit: UnitOfWork, game: GameView) -> GameView | None:
        """``game``, a table of an event, has just finished in ``unit``: when every table of
        its round has, the round ends now, in ``unit``, and counts (the game as that leaves
        it is returned); otherwise nothing happens (None)."""

    def close_by_clock(self, event_id: str, by: str = "reading", *,
                       version: int | None = None) -> bool:
        """Close the event's open round if its clock's moment has come (one small query
        when there is nothing to close, none when ``version``, the event's version the
        caller read, was read before); whether it closed one."""



def variant_of(variant_id: str, field: str = "variant") -> Any:
    try:
        return find_variant(variant_id)
    except UnknownVariant as error:
        raise error.invalid(field) from error



def _project(unit: UnitOfWork, game: StoredGame, setup: GameSetup,
             hands: Sequence[HandView]) -> None:
    """A game of a club: its rows of the club's results as ``hands`` leave the game (none
    while it is not finished)."""
    if game.club is not None:
        project_game(unit, game, game_summary(setup, [h.result for h in hands],
                                              ended=game.ended_at is not None),
                     setup.variant.family, hands)


def parse_and_score(
    setup: GameSetup, data: Mapping[str, Any], earlier: Sequence[HandResult],
    summary: GameSummary | None = None, *, rules_version: str = RULES_VERSION,
) -> tuple[HandRecord, HandResult]:
    """Validate a hand record as the next hand after ``earlier``, collecting every problem:
    its form, the dealer whose turn it is, the rules of the variant, and what the game adds
    (a record stopping after the declarations must win the rubber, R13). The problems are
    the game's table's: its seats are said by its players' names. ``rules_version``: the
    rules the record was made under (an imported game's hand's; every new record and
    correction is the current rules')."""
    if summary is None:  # ``summary``, when given, is the game's after ``earlier``
        summary = game_summary(setup, earlier)
    expected_dealer = summary.next_dealer
    # A duplicate table's hand is a board: the referee checks it against the board's cards
    # (its dealer too, so the rotation's check is not made twice), and the scorer knows who
    # held each card where a rule follows its holder (T20 ends with its holder's side, R19).
    board = setup.board_of(summary.hands_played + 1)
    checks = None if board is None else board_checks(board, setup.variant)
    try:
        record, result = score_record(setup.variant, setup.options, data,
                                      expected_dealer=None if board else expected_dealer,
                                      checks=checks,
                                      dealt=None if board is None else board.holdings(),
                                      rules_version=rules_version)
        problems = check_next_hand(setup, earlier, result, summary)
    except RecordInvalid as error:
        raise error.at_table(*table_of(setup)) from error
    if problems:
        raise RecordInvalid(problems, *table_of(setup))
    return record, result


def table_of(setup: GameSetup) -> tuple[str, tuple[str, ...]]:
    """What a game's problems are said with: its family (how cards are named) and its
    players by seat (how seats are)."""
    return setup.variant.family, tuple(setup.seat_names())



def _check_if_match(game_id: str, hand: StoredHand | HandView, players: Sequence[str],
                    if_match: Collection[str] | None, *, required: bool = True) -> None:
    if if_match is None:
        if not required:
            return
        raise PreconditionRequired(
            Text("send If-Match with the ETag of hand {n} to change it", n=hand.number)
        )
    if ANY_VERSION in if_match:
        return
    if hand_etag(game_id, hand.number, hand.version, players) not in if_match:
        raise PreconditionFailed(
            Text("hand {n} has changed since that ETag; read it again", n=hand.number)
        )



class GameService:
    """The use cases of stored games over a ``GameRepository``; its ``views`` are the views
    and results this process keeps."""

    def __init__(
        self,
        repository: GameRepository,
        clock: Clock = utc_now,
        cache_hands: int = CACHE_HANDS,
        event_tokens: EventTokens | None = None,
    ) -> None:
        self.repository = repository
        #: Where the tokens of the event a table's game belongs to are recognised (a 403
        #: that names them, rather than a 401 for a token that opens nothing).
        self.event_tokens = event_tokens
        self.clock = clock
        self.views = GameViews(repository, cache_hands)
        #: Where a table's round is ended once every table of it has finished (the events'
        #: use cases, set once they exist).
        self.rounds: RoundEnds | None = None
        #: Told the family of each hand recorded, once its write has committed (the
        #: service's metrics count them).
        self.hand_recorded: Callable[[str], None] | None = None

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
        read-only links cannot give one). A table of an event whose round is still open
        applies the round's clock first (``RoundEnds.close_by_clock``): a table that comes
        after the moment its round closes by itself finds its game closed, whether it reads
        it or records a hand, as the event's readers do."""
        access = authorize(self.repository, game_id, token, write=write, player=player,
                           events=self.event_tokens)
        event_id = access.credentials.open_table_of
        if event_id is not None and self.rounds is not None \
                and self.rounds.close_by_clock(
                    event_id, by="table", version=access.credentials.open_table_version):
            # The round's clock closed it just now: the game moved on a version (closed).
            access = authorize(self.repository, game_id, token, write=write, player=player,
                               events=self.event_tokens)
        return access

    def create_game(
        self,
        unit: UnitOfWork,
        variant_id: str,
        options: Mapping[str, Any] | None,
        players: Sequence[str],
        first_dealer: int | None,
        *,
        club: tuple[str, tuple[str | None, ...]] | None = None,
        problems: Sequence[Problem] = (),
    ) -> CreatedGame:
        """A new game; ``club``: the club it is played for and the member at each seat (its
        seats' ``problems`` reported with the game's own, all at once)."""
        if club is None:
            problems = [*problems, *(
                Problem(f"players[{i}]", "member_without_club", Text(
                    "a seat is a member only in a game of a club: name the club (club) "
                    "and send its edit token in Club-Authorization"))
                for i, seat in enumerate(players) if isinstance(seat, Mapping))]
            players = [f"?{i}" if isinstance(seat, Mapping) else seat
                       for i, seat in enumerate(players)]
        edit_token = secrets.token_urlsafe(TOKEN_BYTES)
        read_token = secrets.token_urlsafe(TOKEN_BYTES)
        game = self.new_game(variant_id, options, players, first_dealer,
                             edit_token=edit_token, read_token=read_token, problems=problems)
        if club is not None:
            game = replace(game, club=club[0], seat_members=club[1])
        try:
            unit.games.add_game(game)
        except GameIdTaken as error:  # pragma: no cover - a collision in a 2**49 space
            # The failed insert spoiled its transaction: the unit of work starts again, with
            # a new id.
            raise ConcurrentChange("a new game's id was already taken") from error
        view = self.views.view(game, keep=False)
        unit.after_commit(lambda: self.views.keep(view))
        return CreatedGame(view, edit_token, read_token,
                           player_tokens(edit_token, game.id, view.setup))

    def new_game(self, variant_id: str, options: Mapping[str, Any] | None,
                 players: Sequence[str], first_dealer: int | None, *, edit_token: str,
                 read_token: str, event: tuple[str, int, int] | None = None,
                 problems: Sequence[Problem] = (),
                 boards: tuple[Sequence[int], int] | None = None) -> StoredGame:
        """A new game as it is stored (checked, not stored yet): its tokens' hashes, and
        each player's (worked out from the edit token); ``event`` for a table of an event;
        ``problems`` found by the caller (a club's seats) are reported with the setup's;
        ``boards`` for a duplicate table: its boards in order, and the event's seed."""
        variant = variant_of(variant_id)
        try:
            setup = validate_game_setup(variant, options, list(players), first_dealer)
        except RecordInvalid as error:
            raise RecordInvalid([*problems, *error.problems]) from error
        if problems:
            raise RecordInvalid(list(problems))
        numbers, seed = boards if boards is not None else ((), None)
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
            boards=tuple(numbers),
            board_seed=seed,
        )

    def view_of(self, game: StoredGame) -> GameView:
        """A game's view from the game as stored (one an event's write has just made or
        changed: read again, it would not show before the commit). Not kept: the write may
        yet roll back."""
        return self.views.view(game, keep=False)

    def opens_a_game(self, token_hash: str) -> bool:
        """Whether any game has this edit, read or player token hash."""
        return self.repository.token_exists(token_hash)

    def view_at(self, game_id: str, version: int) -> GameView:
        """The game at ``version`` (just read elsewhere, as an event reads its tables') or
        later, from this process's views where it can."""
        return self.views.current(game_id, version)

    def views_at(self, wanted: Sequence[tuple[str, int]]) -> dict[str, GameView]:
        """Each game at its ``(game_id, version)`` or later, by id: those this process keeps,
        and the others read together (an event's tables)."""
        return self.views.current_many(wanted)

    def player_links(self, game_id: str, token: str | None) -> tuple[str | None, ...]:
        """Each seat's player token, with the edit token only: they are worked out from it
        (so they need not be kept), and a game from before player links gets them stored
        now."""
        credentials = self.authorize(game_id, token, write=True).credentials
        assert token is not None
        view = self.views.current(game_id, credentials.version)
        players = player_tokens(token, game_id, view.setup)
        self.repository.add_player_tokens(game_id, tuple(
            (seat, hash_token(found)) for seat, found in enumerate(players) if found))
        return players

    def get_game(self, game_id: str, token: str | None) -> GameView:
        return self.view_for(self.authorize(game_id, token, write=False))

    def view_for(self, access: Access) -> GameView:
        """The game ``access`` opens, at the version read with its credentials or later."""
        return self.views.current(access.game_id, access.credentials.version)

    def history(self, game_id: str, token: str | None) -> list[HandVersion]:
        self.authorize(game_id, token, write=False)
        return self.repository.history(game_id)

    def get_hand(self, game_id: str, token: str | None, number: int) -> HandView:
        view = self.get_game(game_id, token)
        return self._hand_of(view, number)

    def add_hand(self, unit: UnitOfWork, access: Access, data: Mapping[str, Any]) -> HandView:
        """Record the next hand (``access``: the edit token's)."""
        access = fresh(self.repository, unit, access)
        game_id = access.game_id
        kind, credentials = token_kind(access), access.credentials
        view = self.views.current(game_id, credentials.version)
        game = view.game
        if view.summary.finished:  # said first: a finished table's round may have ended too
            raise Conflict(
                Text("game {game} is finished; it takes no more hands", game=game_id),
                code="game_finished"
            )
        _check_open(game)
        if len(game.hands) >= MAX_HANDS:
            raise Conflict(
                Text("game {game} holds {n} hands, the most one game can hold", game=game_id,
                     n=MAX_HANDS),
                code="too_many_hands",
            )
        # The summary of the hands so far stands for them: nothing here walks the game.
        board = view.setup.board_of(view.summary.hands_played + 1)
        with counting_refusals(unit, game_id, board, self.clock):
            record, result = parse_and_score(view.setup, data, (), view.summary)
        canonical = record.to_json()
        after = game_summary(view.setup, [result], view.summary)
        ends_round = self._hold_round(unit, game, after.finished)
        stored = self._write_hand(unit.games.add_hand, game, kind, len(game.hands) + 1,
                                  record=canonical)
        hand = hand_view(game_id, stored, record, result, view.setup)
        if game.club is not None and after.finished:
            project_game(unit, replace(game, version=game.version + 1), after,
                         view.setup.variant.family, (*view.hands, hand), stored.created_at)
        unit.after_commit(lambda: self._remember_added(view, stored, record, hand))
        if self.hand_recorded is not None:
            told, family = self.hand_recorded, view.setup.variant.family
            unit.after_commit(lambda: told(family))
        if ends_round:
            self._end_round(unit, appended(view, game.version + 1, [stored], [hand]))
        return hand

    def _hold_round(self, unit: UnitOfWork, game: StoredGame, finishes: bool) -> bool:
        """Whether this write, which leaves ``game`` finished (``finishes``), may end its
        round: a table of an event's open round. Then the event is held before the write
        (see ``RoundEnds.hold``)."""
        if not finishes or game.event is None or game.closed_at is not None \
                or self.rounds is None:
            return False
        self.rounds.hold(unit, game.event[0])
        return True

    def _end_round(self, unit: UnitOfWork, after: GameView) -> None:
        """A table has just finished (``after``: its game as this write leaves it): its round
        ends now if every other table of it has finished too (both ends of a round count
        the same), and the game's view kept is then the closed one."""
        assert self.rounds is not None
        closed = self.rounds.table_finished(unit, after)
        if closed is not None:
            unit.after_commit(lambda: self.views.keep(closed))

    def _write_hand(self, write: Callable[..., T], game: StoredGame, kind: TokenKind,
                    number: int, **change: Any) -> T:
        """One of the store's writes of a hand (``add_hand``, ``replace_hand``,
        ``delete_hand``): hand ``number`` of ``game`` at the version it was read at, under
        these rules, by this kind of token, now. Another request's change in between is a
        ``ConcurrentChange``."""
        try:
            return write(game.id, expected_game_version=game.version, number=number,
                         rules_version=RULES_VERSION, token_kind=kind, now=self.clock(),
                         **change)
        except StaleGame as error:
            raise _concurrent(game.id) from error

    def _remember_added(self, view: GameView, stored: StoredHand, record: HandRecord,
                        hand: HandView) -> None:
        """Once a new hand is committed, the game's next version is the last one plus that
        hand: its view is made now, so the next read or write scores nothing again."""
        self.views.results.put((view.id, stored.number, stored.version, stored.rules_version),
                                (record, hand.result))
        self.views.keep(appended(view, view.game.version + 1, [stored], [hand]))

    def correct_hand(
        self,
        unit: UnitOfWork,
        access: Access,
        number: int,
        data: Mapping[str, Any],
        if_match: Collection[str] | None,
        *,
        organiser: bool = False,
    ) -> HandView:
        """Replace hand ``number``'s record (a new version; earlier ones stay in the history).
        The dealer must be the one whose turn that hand was; later results are derived, so
        they follow. The game is read whole, afresh on every try. ``organiser``: the event's
        organiser corrects a table's hand, which a closed round allows."""
        game_id, kind = access.game_id, token_kind(access)
        game = self.views.load(game_id)
        if not organiser:
            _check_open(game)
        current = self._stored_hand(game, number)
        view = self.views.view(game)
        _check_if_match(game_id, current, view.setup.players, if_match)
        # The organiser corrects a table's hand knowing the boards: not counted.
        board = None if organiser else view.setup.board_of(number)
        with counting_refusals(unit, game_id, board, self.clock):
            record, result = parse_and_score(
                view.setup, data, [hand.result for hand in view.hands[: number - 1]])
        chain = [(h.dealer, h.result) for h in view.hands]
        chain[number - 1] = (record.dealer, result)
        broken = later_hands_problems(view.setup, chain, number)
        if broken:
            raise Conflict(
                Text("correcting hand {n} this way would leave later hands wrong: {problems}. "
                     "Correct or delete the later hands first.", n=number,
                     problems=Text.joined(p.message for p in broken)),
                code="later_hands_conflict",
            ).at_table(*table_of(view.setup))
        results = [h.result for h in view.hands]
        results[number - 1] = result
        summary = game_summary(view.setup, results, ended=game.ended_at is not None)
        ends_round = self._hold_round(unit, game, summary.finished)
        stored = self._write_hand(unit.games.replace_hand, game, kind, number,
                                  expected_hand_version=current.version,
                                  record=record.to_json())
        corrected = hand_view(game_id, stored, record, result, view.setup)
        hands = (*view.hands[: number - 1], corrected, *view.hands[number:])
        _project(unit, game, view.setup, hands)
        if ends_round:
            changed = replace(game, version=game.version + 1, hands=(
                *game.hands[: number - 1], stored, *game.hands[number:]))
            self._end_round(unit, GameView(changed, view.setup, hands, summary))
        return corrected

    def correct_table_hand(self, unit: UnitOfWork, game_id: str, number: int,
                           data: Mapping[str, Any], if_match: Collection[str] | None
                           ) -> HandView:
        """An event's organiser corrects hand ``number`` of a table's game (the event has
        checked the organiser's token), even once the round is closed: recorded in the
        game's history as a correction with an edit token."""
        credentials = self.repository.get_credentials(game_id)
        if credentials is None:  # pragma: no cover - an event's games are never removed
            raise game_not_found(game_id)
        return self.correct_hand(unit, Access(game_id, "edit", credentials), number, data,
                                 if_match, organiser=True)

    def delete_hand(
        self, unit: UnitOfWork, access: Access, number: int, if_match: Collection[str] | None
    ) -> None:
        """Remove the last hand (a ``delete`` version records it)."""
        game_id, kind = access.game_id, token_kind(access)
        game = self.views.load(game_id)
        _check_open(game)
        current = self._stored_hand(game, number)
        _check_if_match(game_id, current, setup_of(game).players, if_match)
        if number != len(game.hands):
            raise Conflict(
                Text("only the last hand ({last}) can be deleted; correct hand {n} instead",
                     last=len(game.hands), n=number),
                code="not_last_hand",
            )
        if game.ended_at is not None:
            raise Conflict(Text("the evening of game {game} is over: take that back (POST "
                                "…/reopen) to delete its last hand", game=game_id),
                           code="evening_over")
        self._write_hand(unit.games.delete_hand, game, kind, number,
                         expected_hand_version=current.version)
        if game.club is not None:
            view = self.views.view(game)
            _project(unit, replace(game, hands=game.hands[:-1]), view.setup,
                     view.hands[:-1])

    def fill_club_facts(self, unit: UnitOfWork, game_ids: Iterable[str]) -> None:
        """Counted games of a club whose rows were written before the statistics' facts
        were kept: their facts, from their hands as they stand (a row that has facts keeps
        them). Asked by a member's statistics, in a unit of work of its own."""
        for game_id in sorted(set(game_ids)):
            view = self.views.view(self.views.load(game_id), keep=False)
            refill_facts(unit, view.game, view.summary, view.setup.variant.family, view.hands)

    def end_evening(self, unit: UnitOfWork, access: Access, ended: bool) -> GameView:
        """"The evening is over" (``ended``) for a game with no natural end (a Mitigatti
        evening), or taken back: kept in the game's history, the game one version on. Once
        over, the game takes no hand, so taking it back is always "while no hand follows";
        a game of a club counts for it only while over."""
        access = fresh(self.repository, unit, access)
        game_id = access.game_id
        view = self.views.current(game_id, access.credentials.version)
        game = view.game
        _check_open(game)
        if not ends_by_evening(view.setup.variant):
            raise Conflict(Text("game {game} ends by its own rules (its hands or its target); "
                                "only a game with no natural end is ended by its scorekeeper",
                                game=game_id), code="ends_by_rules")
        if ended and game.ended_at is not None:
            raise Conflict(Text("the evening of game {game} is already over", game=game_id),
                           code="evening_over")
        if not ended and game.ended_at is None:
            raise Conflict(Text("the evening of game {game} is not over", game=game_id),
                           code="evening_not_over")
        if ended and not game.hands:
            raise Conflict(Text("game {game} has no hand yet: there is no evening to end",
                                game=game_id), code="no_hands")
        now = self.clock()
        ends_round = self._hold_round(unit, game, ended)
        try:
            unit.games.end_game(game_id, expected_game_version=game.version, ended=ended,
                                token_kind=token_kind(access), now=now)
        except StaleGame as error:
            raise _concurrent(game_id) from error
        changed = replace(game, version=game.version + 1, ended_at=now if ended else None)
        summary = game_summary(view.setup, [h.result for h in view.hands], ended=ended)
        project_game(unit, changed, summary, view.setup.variant.family, view.hands)
        after = GameView(changed, view.setup, view.hands, summary)
        if ends_round:
            closed = self.rounds.table_finished(unit, after) if self.rounds else None
            if closed is not None:
                after = closed
        unit.after_commit(lambda: self.views.keep(after))
        return after

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
        access = fresh(self.repository, unit, access)
        game_id = access.game_id
        assert access.seat is not None
        problems = verdict_problems(verdict, reason)
        if problems:
            raise RecordInvalid(problems)
        view = self.views.current(game_id, access.credentials.version)
        if view.setup.options.get("confirmation", "optional") == "none":
            raise Conflict(
                Text("game {game} takes no confirmations: its confirmation option is none",
                     game=game_id),
                code="confirmation_off",
            )
        hand = self._hand_of(view, number)
        _check_if_match(game_id, hand, hand.players, if_match, required=False)
        kept = reason_of(verdict, reason)
        given = next((c for c in hand.confirmations if c.seat == access.seat), None)
        if given is not None and given.says_the_same(verdict, kept):
            return hand, given, False
        confirmation = Confirmation(access.seat, "confirm" if verdict == "confirm" else "dispute",
                                    hand.version, self.clock(), kept)
        try:
            # Only a change to this hand (corrected, deleted) is a conflict: other seats'
            # verdicts given at the same moment are not, and are counted in the answer.
            recorded = unit.games.add_confirmation(
                game_id, confirmation=confirmation, number=number)
        except StaleGame as error:
            raise _concurrent(game_id) from error
        if view.game.club is not None and counts(view.game, view.summary):
            # A counted game of a club: its disputes are part of its members' statistics.
            # Read as it stands after this write (other verdicts given meanwhile with it).
            stood = self.views.view(self.views.load(game_id), keep=False)
            _project(unit, stood.game, stood.setup, stood.hands)
        if recorded.game_version == view.game.version + 1:
            # Nothing else happened to the game since it was read: its next view is known.
            updated = with_verdict(view, number, confirmation)
            unit.after_commit(lambda: self.views.keep(updated))
            return updated.hands[number - 1], confirmation, True
        # Other changes came between: the hand is answered with every verdict on it as the
        # write left them, and the game is read afresh by whoever reads it next.
        return with_verdicts(view, hand, recorded.verdicts), confirmation, True

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


def _check_open(game: StoredGame) -> None:
    """A table whose round has ended (every table of it finished, or the organiser closed
    it) takes no more changes from its table: it counts as it stood; the
    organiser can still correct its hands."""
    if game.closed_at is not None:
        raise Conflict(
            Text("game {game} is a table of a round that has ended: it counts as it stands "
                 "and takes no more changes; the event's organiser can still correct its "
                 "hands", game=game.id),
            code="game_closed",
        )



def _concurrent(game_id: str) -> ConcurrentChange:
    return ConcurrentChange(
        f"game {game_id} was changed by another request at the same time; read it and retry"
    )
