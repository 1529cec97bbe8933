"""Settling an evening of Mitigatti: balances from 10 marca each, the pot of R15, money per
marca, and the transfers that settle it with the fewest payments (rulebook §5.6).

Every hand's payments sum to zero once the pot is counted as a party, so balances plus the
pot always come to 10 marca a player. The pot holds marca that could not be split between
players tied for most points; the sole top scorer of a later hand collects it all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from ..core.text import Money, Text
from ..hand.sides import seat_name

STARTING_MARCA = 10
POT = "pot"


#: The pot (R15) in a sentence.
THE_POT = Text("the pot")


def _party(key: str) -> Text:
    """Who pays or is paid: a seat (by its player, where the table is known), or the pot."""
    return THE_POT if key == POT else seat_name(int(key))


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment that settles the evening: ``payer`` pays ``payee`` (a seat, or the pot)
    ``marca``, and ``money`` in ``currency`` where a marca has a value."""

    payer: str
    payee: str
    marca: int
    money: Decimal | None = None
    currency: str | None = None

    @property
    def text(self) -> Text:
        """The payment as a sentence: "Seat 0 pays seat 1 2 marca (€1.00)"; into the pot,
        "Seat 2 pays 1 marca into the pot"."""
        payer = _party(self.payer).capitalize()
        values: dict[str, object] = {"payer": payer}
        if self.money is not None:
            values["money"] = Money(self.money, self.currency)
        if self.payee == POT:
            if self.money is None:
                return Text.counted("{payer} pays {n} marca into the pot",
                                    "{payer} pays {n} marca into the pot", self.marca, **values)
            return Text.counted("{payer} pays {n} marca into the pot ({money})",
                                "{payer} pays {n} marca into the pot ({money})", self.marca,
                                **values)
        values["payee"] = _party(self.payee)
        if self.money is None:
            return Text.counted("{payer} pays {payee} {n} marca",
                                "{payer} pays {payee} {n} marca", self.marca, **values)
        return Text.counted("{payer} pays {payee} {n} marca ({money})",
                            "{payer} pays {payee} {n} marca ({money})", self.marca, **values)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"from": self.payer, "to": self.payee, "marca": self.marca}
        if self.money is not None:
            out["money"] = f"{self.money:.2f}"
        out["text"] = self.text
        return out


#: A money value as people write one: up to seven whole digits and at most two decimals, no
#: exponent, sign or spaces. Anything larger is no stake at a card table, and an exponent
#: (``"1e999"``) would make every balance a thousand digits long or overflow the arithmetic.
_MONEY = re.compile(r"[0-9]{1,7}(?:\.[0-9]{1,2})?")


def parse_money(text: object) -> Decimal | None:
    """A money value per marca such as ``"0.50"``: a plain positive decimal of at most seven
    whole digits and two decimals; ``None`` for anything else."""
    if not isinstance(text, str) or _MONEY.fullmatch(text) is None:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:  # pragma: no cover - the pattern admits only decimals
        return None
    return value if value > 0 else None


_CURRENCY = re.compile(r"[A-Z]{3}")


def parse_currency(text: object) -> str | None:
    """A currency as ISO 4217 writes it (``EUR``, ``CHF``): three capital letters; ``None``
    for anything else."""
    if isinstance(text, str) and _CURRENCY.fullmatch(text):
        return text
    return None


def fewest_transfers(nets: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """Payments that bring every party's net to zero, as few as can be: the parties are split
    into as many groups summing to zero as possible, and each group of k settles in k - 1
    payments (largest debtor to largest creditor). Exact, by dynamic programming over the
    subsets of the handful of parties at a table."""
    parties = [p for p, n in nets.items() if n]
    full = (1 << len(parties)) - 1
    sums = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + nets[parties[low.bit_length() - 1]]
    # groups[mask]: the most disjoint zero-sum groups covering mask; first[mask]: one of them.
    groups: dict[int, int] = {0: 0}
    first: dict[int, int] = {}
    for mask in range(1, full + 1):
        if sums[mask]:
            continue
        lowest = mask & -mask
        sub = mask
        while sub:
            if sub & lowest and sums[sub] == 0 and (rest := mask ^ sub) in groups \
                    and groups[rest] + 1 > groups.get(mask, -1):
                groups[mask], first[mask] = groups[rest] + 1, sub
            sub = (sub - 1) & mask
    transfers: list[tuple[str, str, int]] = []
    mask = full
    while mask:
        group = [parties[i] for i in range(len(parties)) if first[mask] >> i & 1]
        transfers += _settle_group({p: nets[p] for p in group})
        mask ^= first[mask]
    return transfers


def _settle_group(nets: dict[str, int]) -> list[tuple[str, str, int]]:
    """Settle a zero-sum group: the largest debt against the largest credit, until none is
    left."""
    debts = sorted(((p, -n) for p, n in nets.items() if n < 0), key=lambda x: -x[1])
    credits = sorted(((p, n) for p, n in nets.items() if n > 0), key=lambda x: -x[1])
    owed = [n for _, n in debts]
    due = [n for _, n in credits]
    out = []
    i = j = 0
    while i < len(debts) and j < len(credits):
        amount = min(owed[i], due[j])
        out.append((debts[i][0], credits[j][0], amount))
        owed[i] -= amount
        due[j] -= amount
        i += owed[i] == 0
        j += due[j] == 0
    return out


def pot_collected_text(seat: str, marca: int) -> Text:
    """What a hand's sole top scorer collecting the pot is told (R15)."""
    return Text.counted("{seat} is the sole top scorer and collects the pot: {n} marca",
                        "{seat} is the sole top scorer and collects the pot: {n} marca", marca,
                        seat=seat_name(int(seat)).capitalize())


def collected_text(hand: int, seat: str, marca: int) -> Text:
    """A collection of the pot as the evening's settlement recalls it (R15)."""
    return Text.counted("{seat} collected {n} marca from the pot in hand {hand}",
                        "{seat} collected {n} marca from the pot in hand {hand}", marca,
                        seat=seat_name(int(seat)).capitalize(), hand=hand)


@dataclass(frozen=True)
class Ledger:
    """An evening's standing: each seat's marca, the pot, and how to settle."""

    balances: tuple[tuple[str, int], ...]
    pot: int
    transfers: tuple[Transfer, ...]
    money: tuple[tuple[str, Decimal], ...] | None
    collections: tuple[tuple[int, str, int], ...]
    #: Hands settled so far (to go on from this ledger).
    hands: int = 0

    @property
    def collected(self) -> tuple[Text, ...]:
        """Each collection of the pot, as the settlement recalls it."""
        return tuple(collected_text(h, s, m) for h, s, m in self.collections)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "balances": dict(self.balances), "pot": self.pot,
            "transfers": [t.to_json() for t in self.transfers],
            "pot_collected": [{"hand": h, "seat": s, "marca": m,
                               "text": pot_collected_text(s, m)}
                              for h, s, m in self.collections],
        }
        if self.money is not None:
            out["money"] = {k: f"{v:.2f}" for k, v in self.money}
        return out


def ledger(seats: int, hands: Sequence[tuple[dict[str, int], int, str | None]],
           marca_value: Decimal | None, since: Ledger | None = None,
           currency: str | None = None) -> Ledger:
    """The ledger after ``hands``, each (its marca per seat, marca it sets aside, its sole top
    scorer when it has one). A sole top scorer collects whatever the pot held before the
    hand (R15). ``since``, when given, is the ledger of the hands before these (``hands``
    then go on from it, numbered after them), so an evening's next hand costs one hand's
    work. ``currency``: the money's, where a marca has a value."""
    if since is None:
        balances = {str(s): STARTING_MARCA for s in range(seats)}
        pot, collections, first = 0, [], 1
    else:
        balances, pot = dict(since.balances), since.pot
        collections, first = list(since.collections), since.hands + 1
    for number, (marca, aside, top) in enumerate(hands, start=first):
        for seat, amount in marca.items():
            balances[seat] += amount
        if top is not None and pot:
            balances[top] += pot
            collections.append((number, top, pot))
            pot = 0
        pot += aside
    nets = {seat: amount - STARTING_MARCA for seat, amount in balances.items()}
    if pot:
        nets[POT] = pot
    transfers = tuple(
        Transfer(payer, payee, amount, amount * marca_value if marca_value else None,
                 currency if marca_value else None)
        for payer, payee, amount in fewest_transfers(nets))
    money = None
    if marca_value is not None:
        money = tuple((seat, (amount - STARTING_MARCA) * marca_value)
                      for seat, amount in balances.items())
    return Ledger(tuple(balances.items()), pot, transfers, money, tuple(collections),
                  first - 1 + len(hands))


__all__ = ["THE_POT", "Ledger", "Transfer", "collected_text", "fewest_transfers", "ledger",
           "parse_money", "pot_collected_text"]
