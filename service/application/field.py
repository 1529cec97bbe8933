"""One field across many clubs (docs/events.md#one-field-across-many-clubs): a duplicate event
may host a **field** (``"field": true`` at creation gives it a join key, worked out from its
edit token as the door's token is, only its hash kept); another club's organiser makes a
duplicate event with ``"field": {"join": host, "key": key}``, and it becomes a **section**
of the field: it plays the host's boards (its variant, options, boards per round and seed,
which deals them), with its own roster, format, rounds, tables, organiser and tokens.

Every section's room counts a board only once no table of any section is due to play it
(``service.domain.duplicate.field``); the field's standings and travellers score every
section's results together."""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service.domain import Problem, RecordInvalid, Text, find_variant, resolve_options
from service.domain.duplicate import BoardStandings, FieldRow, Traveller

from .games import derived_token, hash_token
from .ports import EventRepository, StoredEvent


def field_key(edit_token: str, event_id: str) -> str:
    """A field's join key, worked out from its host's edit token."""
    return derived_token(edit_token, f"event {event_id} field")


@dataclass(frozen=True, slots=True)
class FieldChoice:
    """What a new event's ``field`` asks: to host a field (``hosts``), or to join the one
    ``host`` hosts (its stored event, the key checked); neither for an event in no field."""

    hosts: bool = False
    host: StoredEvent | None = None


#: The options that are each room's own, not the field's: its clock, the sheets' language,
#: how hands are confirmed, what a marca is worth and in which currency. Every other option
#: is a rule of play, the host's.
ROOM_OPTIONS = frozenset({"time_zone", "language", "confirmation", "marca_value", "currency"})


def _play(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options that are rules of play (``ROOM_OPTIONS`` aside)."""
    return {k: v for k, v in options.items() if k not in ROOM_OPTIONS}


def _not_joinable(join: str) -> Problem:
    """The one refusal of a join that fails on its host: the same whether the host does not
    exist, was deleted, hosts no field, is a section, or the key is not its own — a wrong
    key learns nothing of the host."""
    return Problem("field.key", "field_key_wrong", Text(
        "no field of event {event} opens with this key: ask its organiser for the join key",
        event=repr(join)))


def read_field_choice(body: Mapping[str, Any], events: EventRepository
                      ) -> tuple[dict[str, Any], FieldChoice, list[Problem]]:
    """A new event's ``field`` read against the rest of its body: the body as the event is
    made from (a section's with its host's variant, options, boards per round and seed, and
    duplicate deals), what it chose, and every problem found (all at once)."""
    raw = body.get("field")
    out = {k: v for k, v in body.items() if k != "field"}
    if raw is None or raw is False:
        return out, FieldChoice(), []
    if raw is True:
        if out.get("deals", "free") != "duplicate":
            return out, FieldChoice(), [Problem("field", "field_not_duplicate", Text(
                "only a duplicate event (deals: duplicate) plays a field: its boards are "
                "what the clubs share"))]
        return out, FieldChoice(hosts=True), []
    if not isinstance(raw, Mapping):
        return out, FieldChoice(), [Problem("field", "invalid_field", Text(
            "field is true (host a field), or join (the host event's id) and key (its join "
            "key) to join one"))]
    problems: list[Problem] = []
    join, key = raw.get("join"), raw.get("key")
    unknown = sorted(str(k) for k in raw if k not in ("join", "key"))
    for name in unknown:
        problems.append(Problem(f"field.{name}", "unknown_field", Text(
            "a field is joined with join and key only")))
    if not isinstance(join, str) or not join or len(join) > 64:
        problems.append(Problem("field.join", "invalid_field_join", Text(
            "join is the id of the event that hosts the field")))
    if not isinstance(key, str) or not key or len(key) > 128:
        problems.append(Problem("field.key", "invalid_field_key", Text(
            "key is the field's join key, from its organiser")))
    if problems:
        return out, FieldChoice(), problems
    assert isinstance(join, str) and isinstance(key, str)
    host = events.get_event(join)
    digest = hash_token(key)
    stored = host.field_key_hash if host is not None else None
    matches = hmac.compare_digest(digest, stored or "0" * len(digest))
    if host is None or stored is None or not matches or host.field_host != host.id \
            or host.deals != "duplicate" or host.boards_per_round is None:
        return out, FieldChoice(), [_not_joinable(join)]
    if out.get("deals", "duplicate") != "duplicate":
        problems.append(Problem("deals", "field_deals", Text(
            "a section of a field deals duplicate, the host's boards")))
    own = out.get("options") if isinstance(out.get("options"), Mapping) else {}
    assert isinstance(own, Mapping)
    # The host's rules of play; the room's own clock, language, confirmations and stakes.
    options = {**{k: v for k, v in host.options.items() if k not in ROOM_OPTIONS},
               **{k: v for k, v in own.items() if k in ROOM_OPTIONS}}
    theirs: dict[str, Any] = {"variant": host.variant, "options": options,
                              "boards_per_round": host.boards_per_round, "seed": host.seed}
    if "variant" in out and out["variant"] != host.variant:
        problems.append(Problem("variant", "field_contradicts_host", Text(
            "the field plays {variant}: a section plays the host's variant",
            variant=host.variant)))
    elif out.get("options") is not None:
        try:
            given = dict(resolve_options(find_variant(host.variant), out["options"]))
        except RecordInvalid as error:  # named here: the host's options replace them
            given = None
            problems += error.problems
        if given is not None and _play(given) != _play(host.options):
            problems.append(Problem("options", "field_contradicts_host", Text(
                "a section plays by the host's rules of play; leave them out")))
    if out.get("boards_per_round") is not None \
            and out["boards_per_round"] != host.boards_per_round:
        problems.append(Problem("boards_per_round", "field_contradicts_host", Text(
            "the field plays {n} boards a round: a section plays the host's",
            n=host.boards_per_round)))
    if out.get("seed") is not None and out["seed"] != host.seed:
        problems.append(Problem("seed", "field_contradicts_host", Text(
            "a section plays the host's boards, dealt from the host's seed; leave it out")))
    return {**out, **theirs, "deals": "duplicate"}, FieldChoice(host=host), problems


# -- the field as read ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FieldReading:
    """A field as anyone may read it: its host's id, its sections (each section's view as
    its room reads it: only the boards complete for the field counted), its standings and
    the section of each row."""

    host: str
    sections: tuple[Any, ...]  # EventView, each as the room reads it
    standings: BoardStandings
    rows: tuple[FieldRow, ...]


@dataclass(frozen=True, slots=True)
class FieldTraveller:
    """A board's traveller across the field, and each result's section (by its game)."""

    traveller: Traveller
    sections: Mapping[str, Any]  # game id -> EventView


__all__ = ["FieldChoice", "FieldReading", "FieldTraveller", "field_key",
           "read_field_choice"]
