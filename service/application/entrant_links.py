"""The door's and the entrants' tokens (docs/events.md#the-door), and the player links the
event keeps for each entrant.

Everything is worked out from the organiser's edit token, as a table's tokens are: the door's
token from the edit token, each entrant's own token from the door's. Only their hashes are
kept (the door's on the event, an entrant's on the entrant), so whoever holds the edit token
(or the door's) can show an entrant's link again.

When a round is seated the event knows each table's player links (worked out from the table's
edit token): it keeps, for each seated entrant, their seats' player tokens sealed with AES-GCM
(the ``cryptography`` package) under a key worked out from the entrant's own token (HMAC-
SHA256), bound to where they are kept. The entrant's link opens them; the database alone does
not.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from .games import derived_token
from .games.access import player_token

_NONCE_BYTES = 12


def door_token(edit_token: str, event_id: str) -> str:
    """The door's token, worked out from the organiser's."""
    return derived_token(edit_token, f"event {event_id} door")


def entrant_token(door: str, event_id: str, entrant: int) -> str:
    """Entrant ``entrant``'s own token, worked out from the door's."""
    return derived_token(door, f"entrant {event_id} {entrant}")


def _key(token: str) -> AESGCM:
    return AESGCM(hmac.new(token.encode(), b"segnapunti seat links", hashlib.sha256).digest())


def _bound(event_id: str, round_: int, table: int, entrant: int, seat: int) -> bytes:
    return f"{event_id} {round_} {table} {entrant} {seat}".encode()


def seal_seat(token: str, plaintext: str, where: tuple[str, int, int, int, int]) -> str:
    """A seat's player token sealed for the entrant holding ``token``; ``where``: the event,
    round, table, entrant and seat it is kept for (it opens nowhere else)."""
    nonce = secrets.token_bytes(_NONCE_BYTES)
    sealed = _key(token).encrypt(nonce, plaintext.encode(), _bound(*where))
    return base64.urlsafe_b64encode(nonce + sealed).decode("ascii")


def open_seat(token: str, sealed: str, where: tuple[str, int, int, int, int]) -> str | None:
    """The player token ``seal_seat`` sealed, or None when it does not open with ``token``
    there (another entrant's token, tokens renewed since)."""
    try:
        raw = base64.urlsafe_b64decode(sealed.encode("ascii"))
        return _key(token).decrypt(raw[:_NONCE_BYTES], raw[_NONCE_BYTES:],
                                   _bound(*where)).decode()
    except (ValueError, InvalidTag, UnicodeError):
        return None


def sealed_seats(edit_token: str, event_id: str, round_: int, table: int, game_id: str,
                 table_edit: str, at: dict[int, int]) -> dict[str, dict[str, str]]:
    """A table's player links sealed for the entrants it seats: entrant -> seat -> sealed
    player token; ``at``: the entrant at each seat (a dummy's seat: none)."""
    door = door_token(edit_token, event_id)
    out: dict[str, dict[str, str]] = {}
    for seat, entrant in sorted(at.items()):
        token = entrant_token(door, event_id, entrant)
        out.setdefault(str(entrant), {})[str(seat)] = seal_seat(
            token, player_token(table_edit, game_id, seat),
            (event_id, round_, table, entrant, seat))
    return out
