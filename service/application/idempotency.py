"""``Idempotency-Key``: a retried request gets the first response and has no second effect.

A POST that creates something may carry a key (a fresh random UUID per request, made by the
client). The first successful response is stored in the same transaction as the effect, under
the key's scope (the game for its hands; "" for ``POST /games``), with a fingerprint of the
request (method, path, SHA-256 of the canonical body). A later request with the same key and
fingerprint gets that response again, marked as a replay; with another fingerprint it is a 422.
Two requests with the same key at the same time produce one effect: the second's write rolls
back on the key's unique constraint and it replays the first's response.

Entries are kept for ``RETENTION`` (24 hours), then removed by a purge that runs in the write
path at most every ``PURGE_EVERY``. Responses that failed are not stored: they changed
nothing, so a retry simply runs again.

The key is a secret of the client, and some first responses hold secrets too (the tokens of a
new game, which the database otherwise keeps only as hashes). So the key itself is not
stored: entries are found by a hash of it, and each stored body is sealed with AES-256-GCM
(``cryptography``) under a key derived from it by HKDF-SHA256 with a random salt per entry,
the entry's scope and key hash bound in as associated data. Without the key a stored body
reads as noise; a client that uses a random key is the only one who can replay it. An entry
that does not open (sealed another way by an earlier release, or altered) is treated as
absent, as an expired one is: removed, and the request runs as new.

A first response may name a club's members (a club game's players, an event's entrants, the
member a request added). When a member is forgotten, the entries whose first responses name
them are withdrawn (``ClubRepository.withdraw_replays``): their sealed bodies are
dropped, which no one but the client could rewrite, and a retry with such a key is refused
(``IdempotencyReplayWithdrawn``) rather than run again, which would make the game, the event
or the member a second time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from service.domain import (
    Text,
)

from .errors import (
    ConcurrentChange,
    IdempotencyKeyInvalid,
    IdempotencyKeyReused,
    IdempotencyReplayWithdrawn,
)
from .ports import WITHDRAWN, IdempotencyEntry, IdempotencyKeyTaken, IdempotencyRepository

KEY_MAX_LENGTH = 200
RETENTION = timedelta(hours=24)
PURGE_EVERY = timedelta(minutes=10)

#: The first byte of a sealed body: how it was sealed (``\x01``, an earlier release's own
#: construction, no longer opens).
_SEAL_VERSION = b"\x02"
_SALT_BYTES = 16
_NONCE_BYTES = 12
_HKDF_INFO = b"segnapunti idempotency seal, AES-256-GCM"


@dataclass(frozen=True, slots=True)
class SavedResponse:
    status: int
    headers: dict[str, str]
    body: bytes
    #: What it is about: the game, event or member its request made or changed.
    subject: str | None = None


def fingerprint(method: str, path: str, body: Any) -> str:
    """What makes two requests the same one: method, path and the body's JSON value (key
    order and spacing do not matter)."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    return hashlib.sha256(f"{method.upper()}\x1f{path}\x1f{digest}".encode()).hexdigest()


def check_key(key: str) -> None:
    if not 1 <= len(key) <= KEY_MAX_LENGTH or not all(" " <= c <= "~" for c in key):
        raise IdempotencyKeyInvalid(
            Text("an Idempotency-Key is 1 to {n} printable ASCII characters (a random UUID is "
                 "best)", n=KEY_MAX_LENGTH)
        )


def key_hash(scope: str, key: str) -> str:
    return hashlib.sha256(f"segnapunti idempotency key\x1f{scope}\x1f{key}".encode()).hexdigest()


# -- sealing --------------------------------------------------------------------------------


def _cipher(key: str, salt: bytes) -> AESGCM:
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=salt,
                   info=_HKDF_INFO).derive(key.encode())
    return AESGCM(derived)


def seal(key: str, plaintext: bytes, bound: bytes = b"") -> str:
    """``plaintext`` sealed under ``key`` (``bound``: associated data that must be the same
    to open it, such as where the entry is stored)."""
    salt = secrets.token_bytes(_SALT_BYTES)
    nonce = secrets.token_bytes(_NONCE_BYTES)
    sealed = _cipher(key, salt).encrypt(nonce, plaintext, bound)
    return base64.b64encode(_SEAL_VERSION + salt + nonce + sealed).decode("ascii")


def unseal(key: str, sealed: str, bound: bytes = b"") -> bytes:
    """The plaintext; ``ValueError`` if ``sealed`` was not sealed this way with ``key`` and
    ``bound``, or was altered."""
    try:
        raw = base64.b64decode(sealed.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError) as error:
        raise ValueError("not a sealed response") from error
    head = 1 + _SALT_BYTES + _NONCE_BYTES
    if raw[:1] != _SEAL_VERSION or len(raw) < head + 16:
        raise ValueError("not a sealed response")
    salt, nonce = raw[1:1 + _SALT_BYTES], raw[1 + _SALT_BYTES:head]
    try:
        return _cipher(key, salt).decrypt(nonce, raw[head:], bound)
    except InvalidTag as error:
        raise ValueError("the sealed response does not open with this key") from error


def _bound(scope: str, digest: str) -> bytes:
    """What a sealed body is bound to: the entry it was stored as."""
    return f"{scope}\x1f{digest}".encode()


# -- the use cases --------------------------------------------------------------------------


class IdempotencyService:
    def __init__(
        self,
        repository: IdempotencyRepository,
        clock: Callable[[], datetime],
        retention: timedelta = RETENTION,
    ) -> None:
        self.repository = repository
        self.clock = clock
        self.retention = retention
        self._last_purge: datetime | None = None

    def replay(self, scope: str, key: str, request_fingerprint: str) -> SavedResponse | None:
        """The stored first response for this key, or ``None`` if there is none (or it has
        expired). ``IdempotencyKeyReused`` if the key was used for another request."""
        check_key(key)
        digest = key_hash(scope, key)
        entry = self.repository.find_idempotency(scope, digest)
        if entry is None:
            return None
        if entry.created_at < self.clock() - self.retention:
            self.repository.forget_idempotency(scope, digest)
            return None
        if not hmac.compare_digest(entry.fingerprint, request_fingerprint):
            raise IdempotencyKeyReused(
                Text("this Idempotency-Key was used for a different request; use a new key for "
                     "each new request")
            )
        if entry.body == WITHDRAWN:
            raise IdempotencyReplayWithdrawn(Text(
                "the first response to this request named a member the club has since "
                "forgotten, so it is no longer kept; the request was done once and is not "
                "done again: read what it made instead"))
        try:
            body = unseal(key, entry.body, _bound(scope, digest))
        except ValueError:
            # Sealed by an earlier release: it expires now, as it would have at its time.
            self.repository.forget_idempotency(scope, digest)
            return None
        return SavedResponse(entry.status, dict(entry.headers), body)

    def remember(
        self, scope: str, key: str, request_fingerprint: str, response: SavedResponse
    ) -> None:
        """Store the response; call inside the transaction of the effect (``atomic``)."""
        entry = IdempotencyEntry(
            scope=scope,
            key_hash=key_hash(scope, key),
            fingerprint=request_fingerprint,
            status=response.status,
            headers=dict(response.headers),
            body=seal(key, response.body, _bound(scope, key_hash(scope, key))),
            created_at=self.clock(),
            subject=response.subject,
        )
        try:
            self.repository.save_idempotency(entry)
        except IdempotencyKeyTaken as error:
            # A request with the same key got in first: this one's effect is rolled back with
            # it, and the retry replays the first one's response.
            raise ConcurrentChange("a request with the same Idempotency-Key ran at the same "
                                   "time") from error

    def purge_if_due(self) -> int:
        """Remove expired entries, at most once per ``PURGE_EVERY`` in this process."""
        now = self.clock()
        if self._last_purge is not None and now - self._last_purge < PURGE_EVERY:
            return 0
        self._last_purge = now
        return self.repository.purge_idempotency(now - self.retention)
