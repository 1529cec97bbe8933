"""Settling a dispute over one trick: who won it, and was every card legal (rulebook §0, §6;
``POST /adjudicate/trick``).

Legality is judged from what is given: a player's known hand (``hands``: what each seat held
before the disputed trick), or what the tricks prove they held — a card played later of a suit
they had shown out of, or a trump after failing to trump. A play is never called illegal
without such proof.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.cards import Card
from ..core.errors import ProblemList
from ..core.notation import parse_cards
from ..core.results import Violation
from ..core.text import Text
from ..variant import Variant
from .sides import seat_name
from .tricks import breach_of, effective_lead, trick_winner


@dataclass(frozen=True)
class Ruling:
    winner: int | None
    plays: tuple[dict[str, Any], ...]
    violations: tuple[Violation, ...]

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "plays": list(self.plays),
                "violations": [v.to_json() for v in self.violations]}


def _winning_position(variant: Variant, cards: Sequence[Card]) -> int | None:
    """The position winning the trick so far; None while only the Fool is down."""
    if effective_lead(cards) is None and not any(c.is_trump for c in cards):
        return None
    return trick_winner(variant, cards)


def adjudicate_trick(variant: Variant, leader: int, cards: Sequence[object],
                     hands: Mapping[str, Sequence[object]] | None = None,
                     history: Sequence[Mapping[str, Any]] | None = None) -> Ruling:
    """The ruling on the disputed trick ``cards`` (played in order from ``leader``) after the
    earlier tricks ``history``. Raises ``RecordInvalid`` for input that cannot be judged."""
    problems = ProblemList()
    seats = variant.seats
    if not 0 <= leader < seats:
        problems.add("leader", "out_of_range", Text('a seat is from 0 to {n}', n=seats - 1), "§0")
    seen: dict[Card, str] = {}

    def read(texts: Sequence[object], field: str) -> tuple[Card, ...]:
        parsed, found = parse_cards(texts, variant.pack, field)
        problems.extend(found)
        for i, card in enumerate(parsed):
            if card in seen:
                problems.add(f"{field}[{i}]", "card_played_twice",
                             Text('{card} is also at {seen}', card=card, seen=seen[card]), "§6")
            seen.setdefault(card, f"{field}[{i}]")
        return parsed

    tricks: list[tuple[int, tuple[Card, ...]]] = []
    for i, entry in enumerate(history or ()):
        played = read(entry.get("cards") or [], f"history[{i}].cards")
        lead_seat = entry.get("leader")
        if not isinstance(lead_seat, int) or not 0 <= lead_seat < seats:
            problems.add(f"history[{i}].leader", "out_of_range",
                         Text('a seat is from 0 to {n}', n=seats - 1), "§0")
            lead_seat = 0
        if len(played) != variant.trick_size:
            problems.add(f"history[{i}].cards", "trick_size",
                         Text("an earlier trick has {trick_size} cards",
                              trick_size=variant.trick_size), "§0")
        tricks.append((lead_seat, played))
    current = read(cards, "cards")
    if not 1 <= len(current) <= variant.trick_size:
        problems.add("cards", "trick_size",
                     Text("the disputed trick has 1 to {trick_size} cards",
                          trick_size=variant.trick_size), "§0")
    tricks.append((leader, current))

    known_hands: dict[int, frozenset[Card]] = {}
    for key, texts in (hands or {}).items():
        seat = int(key) if str(key).isdecimal() else -1
        if not 0 <= seat < seats:
            problems.add(f"hands.{key}", "out_of_range", Text("a seat is from 0 to {n}",
                                                              n=seats - 1))
            continue
        parsed, found = parse_cards(texts, variant.pack, f"hands.{key}")
        problems.extend(found)
        for i, card in enumerate(parsed):
            if card in seen and not seen[card].startswith("cards"):
                problems.add(f"hands.{key}[{i}]", "already_played",
                             Text("{card} was played earlier, at {seen}", card=card,
                                  seen=seen[card]), "§6")
        known_hands[seat] = frozenset(parsed)
    if problems:
        problems.raise_if_any()

    for i in range(1, len(tricks)):
        before_leader, before = tricks[i - 1]
        expected = (before_leader + trick_winner(variant, before)) % seats
        if tricks[i][0] != expected:
            field = f"history[{i}].leader" if i < len(tricks) - 1 else "leader"
            problems.add(field, "wrong_leader",
                         Text("{seat} won the trick before and leads this one",
                              seat=seat_name(expected)), "§0")
    for k, card in enumerate(current):
        seat = (leader + k) % seats
        if seat in known_hands and card not in known_hands[seat]:
            problems.add(f"cards[{k}]", "not_in_hand",
                         Text("{card} is not in {seat}'s hand as given", card=card,
                              seat=seat_name(seat)), "§6")
    problems.raise_if_any()

    # Tricks are numbered from the first one given: the disputed trick is the last.
    numbered = [(n, lead, played) for n, (lead, played) in enumerate(tricks, start=1)]
    violations: list[Violation] = []
    plays: list[dict[str, Any]] = []
    for number, lead, played in numbered:
        for k, card in enumerate(played):
            seat = (lead + k) % seats
            later = [(n, c) for n, lead2, p in numbered if n > number
                     for j, c in enumerate(p) if (lead2 + j) % seats == seat]
            held = [c for _, c in later] + sorted(known_hands.get(seat, frozenset()),
                                                  key=variant.pack.position.__getitem__)
            breach = breach_of(played[:k], card, held)
            play: dict[str, Any] = {"seat": seat, "card": card.code,
                                    "legal": breach is None}
            if breach is not None:
                proof_at = next(((n, c) for n, c in later if breach.needed(c)), None)
                if proof_at is not None:
                    proof: dict[str, Any] = {"trick": proof_at[0], "card": proof_at[1].code}
                    reason = Text("{breach}: it played {card} in trick {trick}",
                                  breach=breach.message, card=proof_at[1], trick=proof_at[0])
                else:
                    held_card = next(c for c in held if breach.needed(c))
                    proof = {"hand": True, "card": held_card.code}
                    reason = Text("{breach}: its hand holds {card}", breach=breach.message,
                                  card=held_card)
                play["reason"] = reason
                violations.append(Violation(number, seat, card.code, breach.rule, Text(
                    "{seat} played {card} to trick {trick}, but {reason}",
                    seat=seat_name(seat), card=card, trick=number, reason=reason), proof))
            if number == len(numbered):
                plays.append(play)
    position = _winning_position(variant, current)
    winner = None if position is None else (leader + position) % seats
    return Ruling(winner, tuple(plays), tuple(violations))
