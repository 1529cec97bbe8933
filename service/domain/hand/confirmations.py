"""Players vouching for a recorded hand: the game's ``confirmation`` option, a
seat's verdict on one version of a hand, and what a hand's verdicts add up to.

Each player, from their own link, confirms the hand as recorded or disputes it with a reason.
A verdict is about one version of the hand: a correction is another version, which nobody has
vouched for yet. ``none`` takes no verdicts; ``optional`` (the default) takes them and shows
them; ``required`` makes a hand final only once every player has confirmed it and nobody
disputes it, and a game only final once every hand is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from ..core.errors import Problem
from ..core.text import Text, visible

Verdict = Literal["confirm", "dispute"]
Mode = Literal["none", "optional", "required"]
#: How a hand stands: every player confirmed; someone disputes; some have not said yet; or
#: the game takes no verdicts.
Status = Literal["confirmed", "disputed", "waiting", "not_asked"]

VERDICTS: tuple[Verdict, ...] = ("confirm", "dispute")
MODES: tuple[Mode, ...] = ("none", "optional", "required")
#: A dispute's reason is said at the table in a few words; a page holds this many characters.
REASON_MAX = 280


@dataclass(frozen=True, slots=True)
class Confirmation:
    """One seat's verdict on version ``version`` of a hand, given at ``at``."""

    seat: int
    verdict: Verdict
    version: int
    at: datetime
    reason: str | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"seat": self.seat, "verdict": self.verdict,
                                  "version": self.version, "at": self.at.isoformat()}
        if self.reason is not None:
            out["reason"] = self.reason
        return out

    def says_the_same(self, verdict: str, reason: str | None) -> bool:
        return self.verdict == verdict and self.reason == reason


@dataclass(frozen=True, slots=True)
class HandStanding:
    """What a hand's verdicts add up to: who confirmed, who disputes, who has not said."""

    status: Status
    confirmed: tuple[int, ...] = ()
    disputed: tuple[int, ...] = ()
    waiting: tuple[int, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"status": self.status, "confirmed": list(self.confirmed),
                "disputed": list(self.disputed), "waiting": list(self.waiting)}


def current_verdicts(confirmations: Iterable[Confirmation],
                     version: int) -> tuple[Confirmation, ...]:
    """Each seat's latest verdict on ``version`` (given oldest first), by seat: a seat that
    changed its mind is counted by what it said last."""
    latest: dict[int, Confirmation] = {}
    for confirmation in confirmations:
        if confirmation.version == version:
            latest[confirmation.seat] = confirmation
    return tuple(latest[seat] for seat in sorted(latest))


def hand_standing(mode: object, players: int,
                  confirmations: Iterable[Confirmation]) -> HandStanding:
    """How a hand stands under the game's ``confirmation`` option, ``players`` seats (0 to
    players-1, a gatti-2 dummy's seat never) having a say; ``confirmations`` are the hand's
    current version's, one per seat."""
    verdicts = {c.seat: c.verdict for c in confirmations if c.seat < players}
    confirmed = tuple(s for s in range(players) if verdicts.get(s) == "confirm")
    disputed = tuple(s for s in range(players) if verdicts.get(s) == "dispute")
    waiting = tuple(s for s in range(players) if s not in verdicts)
    if mode == "none":
        return HandStanding("not_asked")
    status: Status = ("disputed" if disputed else "waiting" if waiting else "confirmed")
    return HandStanding(status, confirmed, disputed, waiting)


def is_final(mode: object, standing: HandStanding) -> bool:
    """Whether a hand counts as final: under ``required``, only once every player confirmed
    it; otherwise as soon as it is recorded (optional verdicts never hold a hand back, the
    sheet only shows who has vouched for it)."""
    return mode != "required" or standing.status == "confirmed"


def verdict_problems(verdict: object, reason: object) -> list[Problem]:
    """What is wrong with a verdict as sent, every problem at once."""
    problems: list[Problem] = []
    if verdict not in VERDICTS:
        problems.append(Problem("verdict", "unknown_verdict", Text(
            "verdict is confirm or dispute, not {shown}", shown=repr(verdict))))
    if reason is not None and not isinstance(reason, str):
        problems.append(Problem("reason", "not_text", Text("reason is text")))
        return problems
    text = reason.strip() if isinstance(reason, str) else ""
    if verdict == "dispute" and not visible(text):  # spaces and zero-width: no reason
        problems.append(Problem("reason", "reason_missing", Text(
            "a dispute says why: give a reason the table can read")))
    if verdict == "confirm" and text:
        problems.append(Problem("reason", "reason_unexpected", Text(
            "a confirmation takes no reason; to object to the hand, dispute it")))
    if len(text) > REASON_MAX:
        problems.append(Problem("reason", "reason_too_long", Text(
            "a reason is at most {n} characters, not {length}", n=REASON_MAX,
            length=len(text))))
    elif any(ord(ch) < 32 and ch not in "\n\t" for ch in text):
        problems.append(Problem("reason", "control_character", Text(
            "a reason cannot hold control characters")))
    return problems


def reason_of(verdict: str, reason: object) -> str | None:
    """The reason as kept: trimmed, and only for a dispute."""
    if verdict != "dispute" or not isinstance(reason, str):
        return None
    return reason.strip()
