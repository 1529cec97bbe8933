"""The names a club's members are shown by at the seats of the club's games and among the
entrants of its events. Each member is shown by the name of the member they count for now
(their own; the kept member's after a merge, until it is undone; "Player N" once
forgotten): worked out here, and written where it changed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .unit_of_work import UnitOfWork


def seated_names(players: Sequence[str], seat_members: Sequence[str | None],
                 names: Mapping[str, str]) -> tuple[str, ...]:
    """A game's players with each seat held by a member (``seat_members``) named as
    ``names`` says (by member id). The dummies' seats (gatti-2) take no name of their own."""
    shown = list(players)
    for seat, member in enumerate(list(seat_members)[:len(players)]):
        if member is not None and member in names:
            shown[seat] = names[member]
    return tuple(shown)


def named_entrant(entrant: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """An event's entrant (as stored) with its members named as ``names`` says: an entrant
    who is a member, or the players of a pair who are."""
    shown = dict(entrant)
    if shown.get("member") in names:
        shown["name"] = names[shown["member"]]
    members = shown.get("members") or []
    if any(m in names for m in members):
        shown["players"] = [names.get(m, p) if m is not None else p
                            for p, m in zip(shown["players"], members, strict=True)]
    return shown


def show_names(unit: UnitOfWork, club_id: str, names: Mapping[str, str]) -> None:
    """Every seat and entrant of the club's games and events named as ``names`` (by member
    id) says; each game or event whose names change moves one version on."""
    players = {}
    for game in unit.clubs.club_games(club_id):
        seated = seated_names(game.players, game.seat_members, names)
        if seated != tuple(game.players):
            players[game.id] = seated
    entrants = {}
    for event_id, stored in unit.clubs.club_entrants(club_id):
        shown = tuple(named_entrant(entrant, names) for entrant in stored)
        if shown != stored:
            entrants[event_id] = shown
    if players or entrants:
        unit.clubs.store_names(players, entrants)
