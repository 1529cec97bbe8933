"""The unit of work: everything one request's write needs beyond its use case, in one place
(cosmicpython's pattern, kept small).

A ``UnitOfWork`` is made for one request (``UnitOfWorkFactory``) and owns:

- **the transaction**: each try opens the store's (``Store.atomic``); the writes the use case
  makes through ``unit.games`` and ``unit.events`` join it, and commit when the try ends;
- **the retry on a concurrent change**: when another request changed the game first (the
  write's compare-and-set failed, nothing was written), the use case runs again from a fresh
  read, after a short random pause, up to ``WRITE_ATTEMPTS`` times; a connection lost before
  the commit was asked for is tried once more on a new one;
- **the work after the commit** (``after_commit``): keeping the views the write made in the
  caches. It runs only once the write stands, and its failures are logged, never answered;
- **the writes that stand despite a refusal** (``despite_rollback``): a refused request
  changes nothing, yet its refusal is counted (a duplicate table's refused records of a
  board). They run in a transaction of their own once the request's has rolled back, and
  only when the request ends refused (not when a try is run again);
- **the idempotency replay** (``run_once``): a request with an ``Idempotency-Key`` gets the
  first response again; the first 2xx response is stored in the transaction of its effect.

The edge (``service.http.resources.common.write``) only reads the headers and hands them
over. The access a use case runs with is decided before it runs and passed to it (``Access``
in ``games.access``); a use case that read the game's version with it asks ``retried`` to
know when that read is stale.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .errors import ConcurrentChange
from .idempotency import IdempotencyService, SavedResponse, fingerprint
from .ports import (
    ClubRepository,
    EventRepository,
    GameRepository,
    RefusalRepository,
    Store,
    StoreUnavailable,
)

#: How often one request's write is tried when other requests keep changing the game.
WRITE_ATTEMPTS = 5
RETRY_BACKOFF_S = 0.002

log = logging.getLogger(__name__)

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class KeyedRequest:
    """A request sent with an ``Idempotency-Key``: the key's scope (the game or event of the
    path, "" outside one), the key, and what makes two requests the same one."""

    scope: str
    key: str
    method: str
    path: str
    body: Any

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.method, self.path, self.body)


class UnitOfWork:
    """One request's write: see the module's docstring."""

    def __init__(self, store: Store, keys: IdempotencyService | None = None, *,
                 sleep: Callable[[float], None] = time.sleep,
                 attempts: int = WRITE_ATTEMPTS) -> None:
        self.store = store
        self.keys = keys
        self.sleep = sleep
        self.attempts = attempts
        #: The try running now, from 1.
        self.attempt = 0
        self._after_commit: list[Callable[[], None]] = []
        self._despite_rollback: list[Callable[[], None]] = []
        #: Whether ``run`` leaves the writes kept despite a refusal to its caller
        #: (``run_once``, whose request may yet be answered by its twin's), in ``_refused``.
        self._caller_keeps = False
        self._refused: list[Callable[[], None]] = []

    # -- what a use case sees ----------------------------------------------------------------

    @property
    def games(self) -> GameRepository:
        """The games' repository: its writes join this unit's transaction."""
        return self.store.games

    @property
    def events(self) -> EventRepository:
        """The events' repository: its writes join this unit's transaction."""
        return self.store.events

    @property
    def clubs(self) -> ClubRepository:
        """The clubs' repository: its writes join this unit's transaction."""
        return self.store.clubs

    @property
    def refusals(self) -> RefusalRepository:
        """Duplicate tables' refused records: written through ``despite_rollback``."""
        return self.store.refusals

    @property
    def retried(self) -> bool:
        """Whether this try follows one that lost to a concurrent change: what was read
        before the write began (a game's version with its credentials) is stale."""
        return self.attempt > 1

    def after_commit(self, action: Callable[[], None]) -> None:
        """Run ``action`` once this try has committed (never if it rolls back)."""
        self._after_commit.append(action)

    def despite_rollback(self, action: Callable[[], None]) -> None:
        """Run ``action`` (a write) in a transaction of its own if this try ends in an error
        that refuses the request: its own writes roll back, ``action``'s stand."""
        self._despite_rollback.append(action)

    # -- running it --------------------------------------------------------------------------

    def run(self, work: Callable[[], T]) -> T:
        """Run ``work`` (it reads what it needs, checks it and writes) in one transaction.
        When another request changed the game in between, it runs again from a fresh read,
        which then either applies or answers for the new state (a stale If-Match is 412, the
        same next hand is the wrong dealer's). Only if the game keeps changing under it does
        the client get the 409."""
        reconnected = False
        self._refused = []
        for number in range(1, self.attempts + 1):
            self.attempt = number
            self._after_commit = []
            self._despite_rollback = []
            ran = False
            try:
                with self.store.atomic():
                    result = work()
                    ran = True
            except ConcurrentChange:
                if number == self.attempts:
                    raise
                self.sleep(random.uniform(0, RETRY_BACKOFF_S * 2**number))
                continue
            except StoreUnavailable as error:
                # A connection lost before the commit was asked for took the transaction with
                # it: nothing was written, and the write runs once more on a new connection.
                # Lost during the commit, the outcome is unknown: the client is told (503)
                # and its retry, with its Idempotency-Key, finds out.
                if ran or not error.lost_connection or reconnected or number == self.attempts:
                    raise
                reconnected = True
                log.warning("the database connection was lost during a write; trying again")
                continue
            except Exception:
                refused, self._despite_rollback = self._despite_rollback, []
                if self._caller_keeps:
                    self._refused = refused
                else:
                    self._keep_despite_rollback(refused)
                raise
            self._run_after_commit()
            return result
        raise AssertionError("unreachable")  # pragma: no cover

    def run_once(self, request: KeyedRequest, work: Callable[[], R], *,
                 kept: Callable[[R], SavedResponse | None],
                 replayed: Callable[[SavedResponse], R]) -> R:
        """``run`` a keyed request: a key seen before replays its first response
        (``replayed``); else ``work`` runs and what ``kept`` makes of its response (a 2xx
        one; ``None`` for any other) is stored in the same transaction as its effect."""
        keys = self.keys
        if keys is None:
            raise RuntimeError("this unit of work was made without idempotency keys")
        request_fingerprint = request.fingerprint
        keys.purge_if_due()

        def attempt() -> R:
            saved = keys.replay(request.scope, request.key, request_fingerprint)
            if saved is not None:
                return replayed(saved)
            response = work()
            first = kept(response)
            if first is not None:
                keys.remember(request.scope, request.key, request_fingerprint, first)
            return response

        self._caller_keeps = True
        try:
            return self.run(attempt)
        except Exception:
            # A twin with the same key may have committed while this request ran: then
            # whatever this one ran into (the dealer moved on, the game is finished) is only
            # that it came second, and its answer is the twin's (and it was refused nothing).
            # The twin's effect and key commit together, so a read that saw the effect sees
            # the key too.
            saved = keys.replay(request.scope, request.key, request_fingerprint)
            if saved is None:
                self._keep_despite_rollback(self._refused)
                raise
            return replayed(saved)
        finally:
            self._caller_keeps = False
            self._refused = []

    def _keep_despite_rollback(self, actions: list[Callable[[], None]]) -> None:
        """The writes that stand although the request was refused, in a transaction of their
        own. A failure is logged: the request is answered with its refusal all the same."""
        if not actions:
            return
        try:
            with self.store.atomic():
                for action in actions:
                    action()
        except Exception:
            log.exception("a write kept despite a refusal failed; the refusal is answered "
                          "without it")

    def _run_after_commit(self) -> None:
        """The write stands whatever happens here: a failure is logged, never answered as an
        error, and the caches simply miss, so the next read derives the game again from its
        records."""
        for action in self._after_commit:
            try:
                action()
            except Exception:
                log.exception("work after a committed write failed; the next read derives it "
                              "anew")
        self._after_commit = []


class UnitOfWorkFactory:
    """A new ``UnitOfWork`` for each request, over one store and its idempotency keys."""

    def __init__(self, store: Store, keys: IdempotencyService | None = None, *,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.store = store
        self.keys = keys
        self.sleep = sleep

    def __call__(self) -> UnitOfWork:
        return UnitOfWork(self.store, self.keys, sleep=self.sleep)
