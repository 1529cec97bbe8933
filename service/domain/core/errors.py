"""Typed errors of the rules core (docs/architecture.md, principle 6).

The domain never speaks HTTP: it raises these exceptions carrying structured data, and the
HTTP layer maps them to RFC 9457 problems in one place. Validators collect every problem they
find before raising, so a table sees all its mistakes at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .text import Text


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with what the table entered.

    ``field`` is a path into the request (``hand.declarations[1].cards[2]``), ``code`` a stable
    machine-readable name, ``rule`` the rulebook's section that the input breaks.
    """

    field: str
    code: str
    message: str
    rule: str | None = None

    def at(self, prefix: str) -> Problem:
        """The same problem, with its field placed under ``prefix``."""
        if not prefix:
            return self
        joined = prefix if not self.field else (
            f"{prefix}{self.field}" if self.field.startswith("[") else f"{prefix}.{self.field}"
        )
        return Problem(joined, self.code, self.message, self.rule)

    def to_json(self) -> dict[str, str]:
        out = {"field": self.field, "code": self.code, "message": self.message}
        if self.rule:
            out["rule"] = self.rule
        return out


class DomainError(Exception):
    """Base of every error the rules core raises."""


class RecordInvalid(DomainError):
    """The input breaks the rules; ``problems`` lists every breach found."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...],
                 family: str | None = None, seats: tuple[str, ...] | None = None) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        #: The variant family the problems are about, where known: how their cards are named.
        self.family = family
        #: The players of the table the problems are about, by seat, where known: how the
        #: seats their sentences name (``Seats``) are said.
        self.seats = seats
        super().__init__("; ".join(f"{p.field}: {p.message}" for p in self.problems))

    def at(self, prefix: str) -> RecordInvalid:
        return RecordInvalid([p.at(prefix) for p in self.problems], self.family, self.seats)

    def at_table(self, family: str, seats: tuple[str, ...]) -> RecordInvalid:
        """The same problems, about a game of ``family`` whose players are ``seats``."""
        return RecordInvalid(self.problems, family, seats)


class UnknownVariant(DomainError):
    """No variant has this id or alias."""

    def __init__(self, variant_id: str) -> None:
        self.variant_id = variant_id
        super().__init__(f"unknown variant {variant_id!r}")

    def invalid(self, field_: str = "variant") -> RecordInvalid:
        """The refusal of a request that names this variant at ``field_``."""
        return RecordInvalid([Problem(field_, "unknown_variant", Text(
            "there is no variant {variant}", variant=repr(self.variant_id)))])


@dataclass
class ProblemList:
    """Collects problems while a validator runs; ``raise_if_any`` ends the validation."""

    items: list[Problem] = field(default_factory=list)

    def add(self, field_: str, code: str, message: str, rule: str | None = None) -> None:
        self.items.append(Problem(field_, code, message, rule))

    def extend(self, problems: tuple[Problem, ...] | list[Problem]) -> None:
        self.items.extend(problems)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise RecordInvalid(self.items)
