"""Errors of the use cases that are not rule breaches (those are the domain's
``RecordInvalid``). They carry no HTTP status; ``service/http/problems.py`` maps them."""

from __future__ import annotations

from typing import Self

from service.domain import (
    Problem,
    Text,
)


class ApplicationError(Exception):
    """Base of the use cases' own errors. ``code`` is a stable machine-readable name."""

    code = "application_error"
    #: The part of the request at fault, where it is one (a header's name).
    field: str | None = None
    #: Each thing the error is about, where it lists several (a problem's ``errors``).
    items: tuple[Problem, ...] = ()
    #: Whether this says the request's token opens nothing here (guessing tokens or game ids
    #: is limited by address on top of the usual limits).
    failed_authentication = False
    #: The game the error is about, where its words name its cards or seats: its family
    #: and its players by seat (``at_table``).
    family: str | None = None
    seats: tuple[str, ...] | None = None

    def __init__(self, detail: str | Text) -> None:
        self.detail = detail
        super().__init__(detail)

    def at_table(self, family: str, seats: tuple[str, ...]) -> Self:
        """This error, about a game of ``family`` whose players are ``seats``."""
        self.family, self.seats = family, seats
        return self


class NotFound(ApplicationError):
    """No such game, hand or variant, or a token that does not open this game."""

    code = "not_found"


class GameNotFound(NotFound):
    """No such game for this token: the token of another game, or no game with this id."""

    failed_authentication = True


class Unauthenticated(ApplicationError):
    """The request carries no token."""

    code = "token_missing"


class InvalidToken(Unauthenticated):
    """The token opens no game at all (mistyped, or never issued)."""

    code = "invalid_token"
    failed_authentication = True


class Forbidden(ApplicationError):
    """The token opens the game but does not allow this (a read token on a write)."""

    code = "read_only_token"


class NotAPlayer(Forbidden):
    """The token opens the game but speaks for no player: only a player's link gives a
    verdict on a hand."""

    code = "not_a_player_token"


class EventTokenAtTable(Forbidden):
    """An event's own token sent to one of its tables' games: a known token of the wrong
    kind (``event_edit_token`` or ``event_read_token``), not one that opens nothing. The
    table's game has tokens of its own, listed with the event's tables."""

    code = "event_token"
    field = "Authorization"

    def __init__(self, detail: str | Text, kind: str) -> None:
        super().__init__(detail)
        self.code = f"event_{kind}_token"


class Conflict(ApplicationError):
    """The request cannot apply to the game's current state (finished game, not the last
    hand, a concurrent change)."""

    code = "conflict"

    def __init__(self, detail: str | Text, code: str | None = None) -> None:
        super().__init__(detail)
        if code is not None:
            self.code = code


class OpenDisputes(Conflict):
    """A round closed while players dispute some of its hands: the organiser is asked first
    (409, each disputed hand an item); closing it anyway says so (``despite_disputes``)."""

    def __init__(self, detail: str | Text, items: tuple[Problem, ...]) -> None:
        super().__init__(detail, code="open_disputes")
        self.items = items


class ConcurrentChange(Conflict):
    """Another request changed the game between this one's read and its write. The unit of
    work (``UnitOfWork.run``) retries from a fresh read; only if that keeps happening does
    the client see it (409)."""

    code = "concurrent_change"

    def __init__(self, detail: str | Text) -> None:
        super().__init__(detail)


class IdempotencyKeyInvalid(ApplicationError):
    """An ``Idempotency-Key`` that is empty, too long or not printable ASCII."""

    code = "idempotency_key_invalid"
    field = "Idempotency-Key"


class IdempotencyKeyReused(ApplicationError):
    """An ``Idempotency-Key`` already used for a different request."""

    code = "idempotency_key_reused"
    field = "Idempotency-Key"


class IdempotencyReplayWithdrawn(ApplicationError):
    """An ``Idempotency-Key`` whose first response named a member since forgotten: that
    response is no longer kept, and the request, done once, is not done again."""

    code = "idempotency_replay_withdrawn"
    field = "Idempotency-Key"


class PreconditionRequired(ApplicationError):
    """A change to a recorded hand must name the version it replaces (``If-Match``)."""

    code = "precondition_required"


class PreconditionFailed(ApplicationError):
    """The version named is not the hand's current one."""

    code = "precondition_failed"


class BoardRefused(ApplicationError):
    """A duplicate table whose records of a board were refused too often: it records that
    board no more until the event's organiser releases it (429, with no time to wait: only
    the organiser lifts it)."""

    code = "board_refusals_exceeded"
    field = "board"
