"""Who may create here (``CREATION``) and how much one address may create (its quotas).

- ``open`` (the default): anyone creates games, events and clubs;
- ``clubs``: a club is founded only by the service's administrator (its admin token); a game
  or an event only for a club (``club`` in the body, the club's edit token in
  ``Club-Authorization``) or by the administrator;
- ``admin``: every creation needs the admin token.

A refusal is a 403 problem (``creation_restricted``) that says who may create here. The
quotas (``service/http/creation.py``) bound what one address creates in an hour, far above a
club's evening: the administrator is never counted."""

from __future__ import annotations

from typing import Literal

from service.domain import Text

from .errors import ApplicationError, Forbidden

CreationMode = Literal["open", "clubs", "admin"]
MODES: tuple[CreationMode, ...] = ("open", "clubs", "admin")
Creation = Literal["game", "event", "club"]


class CreationRestricted(Forbidden):
    """This service lets this client create no such thing (``CREATION``)."""

    code = "creation_restricted"


class CreationQuotaSpent(ApplicationError):
    """The address created as many of these as its quota allows in the hour (429)."""

    code = "creation_quota"

    def __init__(self, detail: Text, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


def creation_mode(raw: str | None) -> CreationMode:
    """``CREATION``'s value (empty: ``open``); anything else is a mistake of the operator."""
    value = (raw or "").strip().lower() or "open"
    for mode in MODES:
        if value == mode:
            return mode
    raise ValueError(f"CREATION is one of {', '.join(MODES)}, not {raw!r}")


def check_creation(mode: CreationMode, what: Creation, *, admin: bool,
                   for_a_club: bool) -> None:
    """Whether this client may create ``what`` here: ``CreationRestricted`` if not.
    ``admin``: it sends the admin token; ``for_a_club``: a game or an event made for a club
    with the club's edit token (which the creation itself then checks)."""
    if mode == "open" or admin:
        return
    if mode == "admin":
        raise CreationRestricted(Text(
            "on this service only its administrator creates games, events and clubs"))
    if what == "club":
        raise CreationRestricted(Text("on this service only its administrator founds clubs"))
    if not for_a_club:
        raise CreationRestricted(Text(
            "on this service games and events are created for a club, with the club's edit "
            "token (Club-Authorization), or by its administrator"))


def quota_spent(what: Creation, per_hour: int, seconds: int) -> CreationQuotaSpent:
    text = {
        "game": Text("this address has started {n} games in the last hour, as many as this "
                     "service allows; retry in {s} s", n=per_hour, s=seconds),
        "event": Text("this address has started {n} events in the last hour, as many as this "
                      "service allows; retry in {s} s", n=per_hour, s=seconds),
        "club": Text("this address has founded {n} clubs in the last hour, as many as this "
                     "service allows; retry in {s} s", n=per_hour, s=seconds),
    }[what]
    return CreationQuotaSpent(text, seconds)
