"""What the use cases of stored games return (``GameView``, ``HandView``, their entity tags),
how a stored game becomes its view (every result recomputed from the records:
docs/architecture.md, principle 4), and the views and results this process keeps (``GameViews``)."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from service.domain import (
    RULES_VERSION,
    Board,
    Confirmation,
    GameSetup,
    GameSummary,
    HandRecord,
    HandResult,
    HandStanding,
    RecordInvalid,
    Variant,
    deal_board,
    find_variant,
    game_summary,
    hand_standing,
    is_final,
    parse_hand_record,
    resolve_options,
    score_hand,
    validate_game_setup,
)

from ..caches import LruCache
from ..ports import AddedHands, GameRepository, GivenVerdict, StoredGame, StoredHand
from .access import Created, game_not_found

#: Hands each process keeps, by default (``CACHE_HANDS``): in its game views (each game it
#: serves, at its newest version: the games being played and watched right now), and as many
#: hand results apart from the views, to rebuild a view after a correction without scoring
#: every hand again. About 7 kB a hand when both are full (28 MB for 4,000 hands).
CACHE_HANDS = 4_000


#: ``If-Match: *``: any current version.
ANY_VERSION = "*"


log = logging.getLogger(__name__)


def hand_etag(game_id: str, number: int, version: int, players: Sequence[str]) -> str:
    """The opaque strong entity tag of one version of one hand (without quotes), as its
    players are named now: the hand's lines name them, so a member of the club renamed or
    forgotten is a new body, and a new tag (a reader's old one no longer answers 304)."""
    names = "\x1e".join(players)
    digest = hashlib.sha256(f"{game_id}\x1f{number}\x1f{version}\x1f{names}".encode()
                            ).hexdigest()
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
    #: The players' names by seat, for saying the hand's lines with them.
    seats: tuple[str, ...] = ()
    #: The players' names as the game keeps them (its entity tag names them).
    players: tuple[str, ...] = ()
    #: Each seat's latest verdict on this version, and what they add up to.
    confirmations: tuple[Confirmation, ...] = ()
    standing: HandStanding = NOT_ASKED
    #: Whether the hand counts as final (under ``confirmation: required``: once confirmed).
    final: bool = True
    #: The board it played, at a duplicate table.
    board: Board | None = None

    @property
    def etag(self) -> str:
        return hand_etag(self.game_id, self.number, self.version, self.players)



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
class CreatedGame(Created[GameView]):
    #: Each seat's player token; None for a seat no player sits at (a gatti-2 dummy's).
    player_tokens: tuple[str | None, ...] = ()



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
        seats=tuple(setup.seat_names()),
        players=tuple(setup.players),
        confirmations=stored.confirmations,
        standing=standing,
        final=is_final(mode, standing),
        board=setup.board_of(stored.number),
    )



def setup_of(game: StoredGame) -> GameSetup:
    """A stored game's setup. A game stored before a check was tightened (a money value in
    exponent form, a control character in a name) stays readable: a refused option falls
    back to its default and the names are kept as stored, and the fallback is logged."""
    variant = find_variant(game.variant)
    boards = table_boards(variant, game)
    try:
        return validate_game_setup(variant, game.options, list(game.players), game.first_dealer,
                                   boards)
    except RecordInvalid as error:
        log.warning("game %s no longer passes today's setup checks; read with defaults for "
                    "what fails: %s", game.id, error)
        refused = {p.field for p in error.problems}
        options = {name: value for name, value in game.options.items()
                   if f"options.{name}" not in refused}
        return GameSetup(variant, resolve_options(variant, options), tuple(game.players),
                         game.first_dealer, boards)


def table_boards(variant: Variant, game: StoredGame) -> tuple[Board, ...]:
    """A duplicate table's boards in the order it plays them, dealt from the event's seed
    (none for a game of free deals)."""
    if not game.boards or game.board_seed is None:
        return ()
    return tuple(deal_board(variant, game.board_seed, n) for n in game.boards)



def score_stored(setup: GameSetup, hand: StoredHand) -> tuple[HandRecord, HandResult]:
    """A stored hand scored again by the rules it was recorded under: a ruling that only
    refuses records binds the hands recorded since it came, so an earlier hand reads as it
    was accepted (its result saying the rules now would refuse it)."""
    record = parse_hand_record(setup.variant, hand.record)
    return record, score_hand(setup.variant, setup.options, record,
                              rules_version=hand.rules_version)



def appended(view: GameView, version: int, stored: Sequence[StoredHand],
              hands: Sequence[HandView]) -> GameView:
    """``view`` with the ``stored`` hands, made into ``hands``, added after its own, the game
    then at ``version``."""
    game = replace(view.game, version=version, hands=(*view.game.hands, *stored))
    summary = game_summary(view.setup, [hand.result for hand in hands], view.summary)
    return GameView(game, view.setup, (*view.hands, *hands), summary)



def with_verdict(view: GameView, number: int, confirmation: Confirmation) -> GameView:
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



def with_verdicts(view: GameView, hand: HandView,
                  verdicts: tuple[Confirmation, ...]) -> HandView:
    """``hand`` of ``view`` with ``verdicts`` (each seat's latest on its version) as its
    own, and the standing they make."""
    mode = view.setup.options.get("confirmation", "optional")
    standing = hand_standing(mode, view.setup.variant.players, verdicts)
    return replace(hand, confirmations=verdicts, standing=standing,
                   final=is_final(mode, standing))


def same_hands(one: StoredGame, other: StoredGame) -> bool:
    return [(h.number, h.version) for h in one.hands] == [
        (h.number, h.version) for h in other.hands
    ]



class StoredHandInvalid(RuntimeError):
    def __init__(self, game_id: str, number: int, error: RecordInvalid) -> None:
        super().__init__(
            f"stored hand {number} of game {game_id} no longer passes the rules "
            f"({RULES_VERSION}): {error}"
        )



class GameViews:
    """The views of stored games, and the results and views this process keeps (each gunicorn
    worker has its own)."""

    def __init__(self, repository: GameRepository, cache_hands: int = CACHE_HANDS) -> None:
        self.repository = repository
        # Derived results, in this process (each gunicorn worker has its own). Keys name an
        # immutable state (a hand's version, a game's version), so an entry is never stale;
        # a new version is a new key, and the least recently used entries go first.
        self.results: LruCache[tuple[str, int, int, str], tuple[HandRecord, HandResult]] = (
            LruCache(cache_hands)
        )
        # One view a game, the newest this process has seen, weighed by its hands.
        self.kept: LruCache[str, GameView] = LruCache(
            cache_hands, weight=lambda view: len(view.hands) + 1)

    def view(self, game: StoredGame, *, keep: bool = True) -> GameView:
        """The game with every result, from the caches when this version was seen before: a
        stored hand's result depends only on its record, so it is kept by (game, number,
        hand version, rules version) and never recomputed; the whole view by the game's
        version."""
        cached = self.cached(game.id, game.version)
        if cached is not None and same_hands(cached.game, game):
            return cached
        setup = setup_of(game)
        hands = [hand_view(game.id, stored, *self.scored(setup, game.id, stored), setup)
                 for stored in game.hands]
        summary = game_summary(setup, [hand.result for hand in hands],
                               ended=game.ended_at is not None)
        view = GameView(game, setup, tuple(hands), summary)
        if keep:
            self.keep(view)
        return view

    def cached(self, game_id: str, version: int) -> GameView | None:
        view = self.kept.get(game_id)
        return view if view is not None and view.game.version == version else None

    def current(self, game_id: str, version: int) -> GameView:
        """The game at ``version`` (just read with its credentials) or later. A kept view of
        an earlier version, when all that happened since is new hands and players' verdicts
        (another worker took them), is brought up to date with those alone: the cost of
        catching up is what changed, not the game's length. Anything else reads the game
        whole."""
        view = self.kept.get(game_id)
        if view is not None and view.game.version == version:
            return view
        if view is not None and view.game.version < version:
            added = self.repository.changes_since(game_id, view.game.version)
            # The changes reaching the version read say they are all that happened; falling
            # short means something else moved the game on, and the game is read whole.
            caught_up = (self._caught_up(view, added)
                         if added is not None and added.version >= version else None)
            if caught_up is not None:
                self.keep(caught_up)
                return caught_up
        return self.view(self.load(game_id))

    def current_many(self, wanted: Sequence[tuple[str, int]]) -> dict[str, GameView]:
        """Each game at its ``(game_id, version)`` or later, by id: the views kept at that
        version, and every other game read together (an event's tables, not one read a
        table)."""
        found: dict[str, GameView] = {}
        missing: list[str] = []
        for game_id, version in wanted:
            view = self.kept.get(game_id)
            if view is not None and view.game.version >= version:
                found[game_id] = view
            else:
                missing.append(game_id)
        if missing:
            stored = self.repository.get_games(missing)
            for game_id in missing:
                if game_id not in stored:
                    raise game_not_found(game_id)
                found[game_id] = self.view(stored[game_id])
        return found

    def _caught_up(self, view: GameView, added: AddedHands) -> GameView | None:
        """``view`` with ``added``'s changes made in turn, or None when one does not follow
        from the view (a hand out of its order, a verdict on another version of its hand)."""
        for change in added.changes:
            if isinstance(change, GivenVerdict):
                number = change.number
                if not (1 <= number <= len(view.hands) and change.confirmation.version
                        == view.game.hands[number - 1].version):
                    return None
                view = with_verdict(view, number, change.confirmation)
                continue
            if change.number != len(view.hands) + 1:
                return None
            hand = hand_view(view.game.id, change,
                             *self.scored(view.setup, view.game.id, change), view.setup)
            view = appended(view, view.game.version + 1, (change,), (hand,))
        return view if view.game.version == added.version else None

    def scored(self, setup: GameSetup, game_id: str,
                stored: StoredHand) -> tuple[HandRecord, HandResult]:
        """A stored hand's record and result, scored once per (game, number, hand version,
        rules version)."""
        hand_key = (game_id, stored.number, stored.version, stored.rules_version)
        scored = self.results.get(hand_key)
        if scored is None:
            try:
                scored = score_stored(setup, stored)
            except RecordInvalid as error:
                # Stored records were valid when entered; failing now means the rules
                # changed under them, a defect of the service, not of this request.
                raise StoredHandInvalid(game_id, stored.number, error) from error
            self.results.put(hand_key, scored)
        return scored

    def keep(self, view: GameView) -> None:
        """Keep ``view`` as its game's, unless a newer version of the game is kept."""
        kept = self.kept.get(view.id)
        if kept is None or kept.game.version <= view.game.version:
            self.kept.put(view.id, view)

    def load(self, game_id: str) -> StoredGame:
        game = self.repository.get_game(game_id)
        if game is None:
            raise game_not_found(game_id)
        return game
