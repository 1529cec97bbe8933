"""The result of a hand: every point as an explained line (docs/architecture.md, principle 5; ``HandResult``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .text import Text

Json = dict[str, Any]


def with_given(out: Json, **optional: Any) -> Json:
    """``out`` and each of ``optional`` that is given (not None): a field a value may lack."""
    return {**out, **{key: value for key, value in optional.items() if value is not None}}


@dataclass(frozen=True, slots=True)
class Line:
    """One reason for points: ``item`` says what (``meld``, ``deck_points``…), ``text`` says it
    in words, ``rule`` names the rulebook's section, ``details`` the facts behind it."""

    item: str
    points: int
    text: str
    rule: str | None = None
    details: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> Json:
        out: Json = {"item": self.item, **dict(self.details), "points": self.points,
                     "text": self.text}
        if self.rule:
            out["rule"] = self.rule
        return out


@dataclass(frozen=True, slots=True)
class SideResult:
    side: int
    seats: tuple[int, ...]
    lines: tuple[Line, ...]

    @property
    def total(self) -> int:
        return sum(line.points for line in self.lines)

    def to_json(self) -> Json:
        return {"side": self.side, "seats": list(self.seats),
                "lines": [line.to_json() for line in self.lines], "total": self.total}


@dataclass(frozen=True, slots=True)
class Violation:
    """An illegal play found in a trick record; reported, never blocking."""

    trick: int
    seat: int
    card: str
    rule: str
    message: str
    proof: Json | None = None

    def to_json(self) -> Json:
        return with_given({"trick": self.trick, "seat": self.seat, "card": self.card,
                           "rule": self.rule, "message": self.message}, proof=self.proof)


@dataclass(frozen=True, slots=True)
class Act:
    """Points scored at once, before the hand is played out: one player's declarations in
    Ottocento, in order of play. A rubber can be won by an act (R13)."""

    seat: int
    column: str
    points: int

    def to_json(self) -> Json:
        return {"seat": self.seat, "column": self.column, "points": self.points}


@dataclass(frozen=True, slots=True)
class Payment:
    """A payment in marca (Mitigatti): ``payer`` gives ``payee`` (a seat, or None for the pot
    of R15) ``marca`` counters, for the reason ``item`` explains; ``flow`` says who pays whom
    how much ("seat 0 → seat 1 2")."""

    item: str
    payer: int
    payee: int | None
    marca: int
    text: str
    rule: str
    flow: Text | None = None

    def to_json(self) -> Json:
        return with_given({"item": self.item, "from": self.payer,
                           "to": "pot" if self.payee is None else self.payee,
                           "marca": self.marca, "text": self.text, "rule": self.rule},
                          flow=self.flow)


@dataclass(frozen=True, slots=True)
class HandResult:
    """What a hand scores: per side its lines, per score-sheet column its points;
    ``contract`` says who played with whom by the hand's contract (Mitigatti) or call
    (gatti-4-call)."""

    sides: tuple[SideResult, ...]
    columns: tuple[tuple[str, int], ...]
    violations: tuple[Violation, ...] = ()
    events: tuple[str, ...] = ()
    facts: tuple[tuple[str, Any], ...] = field(default=())
    acts: tuple[Act, ...] = ()
    payments: tuple[Payment, ...] | None = None
    contract: Text | None = None
    #: A stored hand recorded before a ruling that would refuse it now (``domain/rulings.py``):
    #: its rules version, that ruling and why; it keeps the result it was accepted with.
    earlier_rules: Text | None = None

    def marca(self, seats: int) -> dict[str, int]:
        """Each seat's balance of the hand's payments."""
        out = {str(s): 0 for s in range(seats)}
        for p in self.payments or ():
            out[str(p.payer)] -= p.marca
            if p.payee is not None:
                out[str(p.payee)] += p.marca
        return out

    @property
    def pot(self) -> int:
        """Marca the hand sets aside for a later hand (R15)."""
        return sum(p.marca for p in self.payments or () if p.payee is None)

    def to_json(self) -> Json:
        return {
            "sides": [s.to_json() for s in self.sides],
            "columns": dict(self.columns),
            "violations": [v.to_json() for v in self.violations],
            "events": list(self.events),
            **({"contract_text": self.contract} if self.contract is not None else {}),
            **({"earlier_rules": self.earlier_rules} if self.earlier_rules is not None else {}),
            **({"acts": [a.to_json() for a in self.acts]} if self.acts else {}),
            **({"payments": [p.to_json() for p in self.payments],
                "marca": self.marca(len(self.columns)), "pot": self.pot}
               if self.payments is not None else {}),
            **dict(self.facts),
        }
