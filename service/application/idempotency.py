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
stored: entries are found by a hash of it, and each stored body is sealed with a key derived
from it (HMAC-SHA256 in counter mode, encrypt-then-MAC, a random salt per entry). Without the
key a stored body reads as noise; a client that uses a random key is the only one who can
replay it.
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

from service.domain import (
    Text,
)

from .errors import ConcurrentChange, IdempotencyKeyInvalid, IdempotencyKeyReused
from .ports import IdempotencyEntry, IdempotencyKeyTaken, IdempotencyRepository

KEY_MAX_LENGTH = 200
RETENTION = timedelta(hours=24)
PURGE_EVERY = timedelta(minutes=10)

_SEAL_VERSION = b"\x01"
_SALT_BYTES = 16
_TAG_BYTES = 32


@dataclass(frozen=True, slots=True)
class SavedResponse:
    status: int
    headers: dict[str, str]
    body: bytes


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


def _derive(key: str, salt: bytes) -> tuple[bytes, bytes]:
    master = hmac.new(key.encode(), b"segnapunti idempotency seal\x1f" + salt,
                      hashlib.sha256).digest()
    return (hmac.new(master, b"encrypt", hashlib.sha256).digest(),
            hmac.new(master, b"authenticate", hashlib.sha256).digest())


def _keystream(key: bytes, salt: bytes, length: int) -> bytes:
    blocks = (
        hmac.new(key, salt + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for counter in range((length + 31) // 32)
    )
    return b"".join(blocks)[:length]


def _xor(data: bytes, stream: bytes) -> bytes:
    return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(
        len(data), "big"
    )


def seal(key: str, plaintext: bytes) -> str:
    salt = secrets.token_bytes(_SALT_BYTES)
    encrypt_key, mac_key = _derive(key, salt)
    cipher = _xor(plaintext, _keystream(encrypt_key, salt, len(plaintext)))
    tag = hmac.new(mac_key, salt + cipher, hashlib.sha256).digest()
    return base64.b64encode(_SEAL_VERSION + salt + tag + cipher).decode("ascii")


def unseal(key: str, sealed: str) -> bytes:
    """The plaintext; ``ValueError`` if ``sealed`` was not sealed with ``key`` or was
    altered."""
    raw = base64.b64decode(sealed.encode("ascii"), validate=True)
    if raw[:1] != _SEAL_VERSION or len(raw) < 1 + _SALT_BYTES + _TAG_BYTES:
        raise ValueError("not a sealed response")
    salt = raw[1:1 + _SALT_BYTES]
    tag = raw[1 + _SALT_BYTES:1 + _SALT_BYTES + _TAG_BYTES]
    cipher = raw[1 + _SALT_BYTES + _TAG_BYTES:]
    encrypt_key, mac_key = _derive(key, salt)
    if not hmac.compare_digest(tag, hmac.new(mac_key, salt + cipher, hashlib.sha256).digest()):
        raise ValueError("the sealed response does not open with this key")
    return _xor(cipher, _keystream(encrypt_key, salt, len(cipher)))


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
        return SavedResponse(entry.status, dict(entry.headers), unseal(key, entry.body))

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
            body=seal(key, response.body),
            created_at=self.clock(),
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
