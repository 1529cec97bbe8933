"""Replaying a hand from its trick record: the service as referee (rulebook §2.3, §2.5, §4.2,
§5.1, §6), for every game.

From the tricks alone the replay derives every trick's leader and winner, each player's hand,
the discard (the cards never played, where the record omits it), the called partner, the piles
after the Fool's fate and the discard's covering, the last trick's winner, and Bagatto ultimo.
Illegal plays become violations, each proven by a card the player played later; they are
reported and never block the score. What the table typed beside the tricks (piles, the Fool,
the Bagatto, the partner, the last trick) must agree with what the tricks imply.

The Fool's fate is the variant's ``fool_rule``:
- ``exchange_next_trick`` (Gatti): its side hands the trick's winner one card from the first
  trick it wins afterwards — ``fool.exchange_card`` when the table says which, otherwise the
  cheapest card of that trick (lowest counting value; of equals, the one played first); with no
  later trick won, the Fool itself goes to the winner.
- ``exchange_any_capture`` (Ottocento's Matto): one card from anything its side captured,
  by the end of the hand — the named card, or by default the most worthless (lowest value,
  then one no combination can use, then the first in pack order); with no trick won at all,
  the Matto goes to the opponents.
- ``kept`` (Mitigatti's Fuole): never captured, never exchanged; it stays with its player.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any

from ..core.cards import Card
from ..core.errors import ProblemList
from ..core.results import Violation
from ..core.text import Cards, Text
from ..variant import Variant
from .records import BagattoRecord, Call, FoolRecord, HandRecord, Pile
from .sides import Sides, hand_sides, seat_name
from .tricks import breach_of, trick_winner


@dataclass(frozen=True, slots=True)
class PlayedTrick:
    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int

    def seat_of(self, position: int, seats: int) -> int:
        return (self.leader + position) % seats

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "leader": self.leader,
                "cards": [c.code for c in self.cards], "winner": self.winner}


@dataclass(frozen=True)
class Replay:
    """What the tricks imply. ``record`` is the hand record with the derived discard, partner,
    piles (every card), Fool and Bagatto in place of what was typed."""

    record: HandRecord
    tricks: tuple[PlayedTrick, ...]
    hands: Mapping[int, frozenset[Card]]
    violations: tuple[Violation, ...]
    fool_exchange: Card | None

    def facts(self) -> tuple[tuple[str, Any], ...]:
        out: list[tuple[str, Any]] = [("tricks", [t.to_json() for t in self.tricks])]
        fool = self.record.fool
        if fool is not None:
            detail = fool.to_json()
            if self.fool_exchange is not None:
                detail["exchange_card"] = self.fool_exchange.code
            out.append(("fool", detail))
        if self.record.bagatto is not None:
            out.append(("bagatto", self.record.bagatto.to_json()))
        if self.record.call is not None:
            out.append(("partner", self.record.call.partner))
        contract = self.record.contract
        if contract is not None and contract.type == "call":
            out.append(("partner", contract.partner))
        return tuple(out)


def _signal_violations(variant: Variant, record: HandRecord,
                       tricks: tuple[PlayedTrick, ...]) -> tuple[Violation, ...]:
    """Signals are given by the leader with the lead: only the variant's own, two at most
    (rulebook §4.2). Any other is illegal, reported like an illegal play."""
    found = []
    for signal in record.signals:
        trick = tricks[signal.trick - 1]
        lead = trick.cards[0].code
        unknown = [s for s in signal.signals if s not in variant.signals]
        twice = len(set(signal.signals)) != len(signal.signals)
        if unknown or twice or len(signal.signals) > 2:
            why = (Text("{signals} is no signal of this game", signals=", ".join(unknown))
                   if unknown else Text("a signal given twice") if twice
                   else Text("more than two signals"))
            allowed = ", ".join(variant.signals) or Text("none")
            found.append(Violation(trick.number, trick.leader, lead, "illegal_signal", Text(
                "{seat} led {card} to trick {trick} with {why} (allowed: {allowed}, two at "
                "most)", seat=seat_name(trick.leader), card=trick.cards[0], trick=trick.number,
                why=why, allowed=allowed)))
    return tuple(found)


def _check_shape(variant: Variant, record: HandRecord, problems: ProblemList) -> bool:
    tricks = record.tricks or ()
    ok = True
    if len(tricks) != variant.dealt_each:
        code = "incomplete_tricks" if len(tricks) < variant.dealt_each else "too_many_tricks"
        problems.add("tricks", code,
                     Text("a hand of {id} has {dealt_each} tricks; {n} were given", id=variant.id,
                          dealt_each=variant.dealt_each, n=len(tricks)), variant.deal_section)
        ok = False
    seen: dict[Card, str] = {}
    for i, trick in enumerate(tricks):
        if len(trick) != variant.trick_size:
            problems.add(f"tricks[{i}]", "trick_size",
                         Text("a trick of {id} has {trick_size} cards, not {n}", id=variant.id,
                              trick_size=variant.trick_size, n=len(trick)), "§0")
            ok = False
        if trick and all(c.is_fool for c in trick):
            ok = False
        for k, card in enumerate(trick):
            where = f"tricks[{i}][{k}]"
            if card in seen:
                problems.add(where, "card_played_twice",
                             Text("{card} was already played at {seen}", card=card,
                                  seen=seen[card]), "§6")
                ok = False
            seen.setdefault(card, where)
    for i, card in enumerate(record.discard or ()):
        if card in seen:
            problems.add(f"discard[{i}]", "discarded_card_played",
                         Text("{card} is in the discard but was played at {seen}", card=card,
                              seen=seen[card]),
                         variant.discard_rule)
            ok = False
    if ok and record.discard is not None:
        missing = set(variant.pack.cards) - set(seen) - set(record.discard)
        if missing:
            problems.add("tricks", "cards_missing",
                         Text("the tricks and the discard must hold the whole pack; missing: "
                              "{cards}", cards=Cards(variant.pack.sort(missing))), "§6")
            ok = False
    return ok


def _play(variant: Variant, record: HandRecord) -> tuple[PlayedTrick, ...]:
    seats = variant.seats
    leader = (record.dealer + 1) % seats
    played = []
    for number, cards in enumerate(record.tricks or (), start=1):
        winner = (leader + trick_winner(variant, cards)) % seats
        played.append(PlayedTrick(number, leader, cards, winner))
        leader = winner
    return tuple(played)


def _violations(variant: Variant, tricks: tuple[PlayedTrick, ...]) -> tuple[Violation, ...]:
    """Every play that broke the follow rules, each proven by the earliest later play of a card
    the rule required (a player's hand at a trick is what they play from then on)."""
    seats = variant.seats
    plays: dict[int, list[tuple[int, Card]]] = defaultdict(list)
    for t in tricks:
        for k, card in enumerate(t.cards):
            plays[t.seat_of(k, seats)].append((t.number, card))
    found = []
    for t in tricks:
        for k, card in enumerate(t.cards):
            seat = t.seat_of(k, seats)
            # Each seat plays once a trick, so its plays after trick t start at index t.
            after = plays[seat][t.number:]
            breach = breach_of(t.cards[:k], card, (c for _, c in after))
            if breach is None:
                continue
            proof_trick, proof_card = next((n, c) for n, c in after if breach.needed(c))
            found.append(Violation(
                t.number, seat, card.code, breach.rule,
                Text("{seat} played {card} to trick {trick}, but {reason}: it played {proof} "
                     "in trick {proof_trick}", seat=seat_name(seat), card=card, trick=t.number,
                     reason=breach.message, proof=proof_card, proof_trick=proof_trick),
                {"trick": proof_trick, "card": proof_card.code}))
    return tuple(found)


def replay_tricks(variant: Variant, options: Mapping[str, object], record: HandRecord,
                  sides_of: Any, problems: ProblemList) -> Replay | None:
    """Replay the record's tricks; None (with problems added) when they cannot be replayed or
    contradict what else the record says. ``sides_of(record)`` gives the hand's sides."""
    if not _check_shape(variant, record, problems):
        return None
    tricks = _play(variant, record)
    seats = variant.seats
    hands: dict[int, set[Card]] = defaultdict(set)
    played_by: dict[Card, tuple[int, int]] = {}
    for t in tricks:
        for k, card in enumerate(t.cards):
            seat = t.seat_of(k, seats)
            hands[seat].add(card)
            played_by[card] = (seat, t.number)
    discard = record.discard if record.discard is not None else variant.pack.sort(
        set(variant.pack.cards) - set(played_by))
    before = len(problems.items)

    call = record.call
    if call is not None:
        holder = played_by.get(call.card, (record.dealer, 0))[0]
        if call.partner is not None and call.partner != holder:
            problems.add("call.partner", "disagrees_with_tricks",
                         Text("{card} was played by {holder}, so {holder} is the "
                              "partner", card=call.card, holder=seat_name(holder)), "§2.2")
        call = Call(call.card, holder)
    contract = record.contract
    if contract is not None and contract.type == "call" and contract.called_card is not None:
        holder = played_by.get(contract.called_card, (record.dealer, 0))[0]
        if contract.partner is not None and contract.partner != holder:
            problems.add("contract.partner", "disagrees_with_tricks",
                         Text("{called_card} was played by {holder}, so {holder} is the "
                              "partner", called_card=contract.called_card,
                              holder=seat_name(holder)), "§5.3")
        contract = replace(contract, partner=holder)
    derived = replace(record, discard=discard, call=call, contract=contract)
    sides: Sides = sides_of(derived)

    piles: dict[int, list[Card]] = defaultdict(list)
    won: dict[int, list[PlayedTrick]] = defaultdict(list)
    for t in tricks:
        side = sides.of(t.winner)
        piles[side].extend(t.cards)
        won[side].append(t)

    fool_record, exchange = _fool_fate(variant, record, tricks, sides, piles, won,
                                       played_by, problems)

    dealer_side = sides.of(record.dealer)
    holder_side = dealer_side
    if variant.discard_covering and not won[dealer_side]:
        last_side = sides.of(tricks[-1].winner)
        holder_side = last_side if len(sides) > 2 else next(
            s for s in range(len(sides)) if s != dealer_side)
    piles[holder_side].extend(discard)

    bagatto_record = _bagatto(variant, options, record, tricks, problems)
    last_side = sides.of(tricks[-1].winner)
    if record.last_trick is not None and sides.of(record.last_trick) != last_side:
        problems.add("last_trick", "disagrees_with_tricks",
                     Text('{seat} won the last trick', seat=seat_name(tricks[-1].winner)), "§6")

    if variant.discard_t1_only_sole_trump and variant.pack.card("T1") in discard:
        trump = next(((c, n) for c, (s, n) in played_by.items()
                      if s == record.dealer and c.is_trump), None)
        if trump is not None:
            problems.add("discard", "bagatto_not_sole_trump",
                         Text("T1 may be discarded only as the dealer's sole trump, but the "
                              "dealer played {trump} in trick {trump2}", trump=trump[0],
                              trump2=trump[1]), "§2.3")

    for i, pile in enumerate(record.piles):
        if pile.side >= len(sides):
            continue
        mine = piles[pile.side]
        tricks_held = len(won[pile.side]) + (pile.side == holder_side)
        if pile.combinations:
            problems.add(f"piles[{i}].combinations", "combinations_with_tricks",
                         Text('the tricks show what each pile holds: leave the combinations out'),
                         "§6")
        if pile.points is not None:
            agrees = pile.points == variant.deck_points(
                tricks_held, len(mine), sum(variant.card_points(c) for c in mine))
        elif pile.cards is not None:
            agrees = set(pile.cards) == set(mine)
        else:
            agrees = pile.tricks == tricks_held and set(pile.counting or ()) == {
                c for c in mine if variant.card_points(c)}
        if not agrees:
            problems.add(f"piles[{i}]", "disagrees_with_tricks",
                         Text("side {side}'s pile is not what the tricks give it", side=pile.side),
                         "§6")

    if len(problems.items) > before:
        return None
    derived = replace(
        derived,
        piles=tuple(Pile(side, tuple(piles[side])) for side in range(len(sides))),
        fool=fool_record,
        bagatto=bagatto_record,
        last_trick=tricks[-1].winner,
    )
    return Replay(derived, tricks, {s: frozenset(c) for s, c in hands.items()},
                  _violations(variant, tricks) + _signal_violations(variant, record, tricks),
                  exchange)


def _bagatto(variant: Variant, options: Mapping[str, object], record: HandRecord,
             tricks: tuple[PlayedTrick, ...], problems: ProblemList) -> BagattoRecord | None:
    """Bagatto ultimo, derived: T1 played to the last trick wins or loses by its winner."""
    rule = variant.bagatto
    if rule is None or (rule.optional and not options.get("bagatto_ultimo", True)):
        return record.bagatto  # the scorer reports a record of it as not played
    last = tricks[-1]
    t1 = variant.pack.card("T1")
    derived = None
    if t1 in last.cards:
        seat = last.seat_of(last.cards.index(t1), variant.seats)
        valid = not rule.lead_condition or _kept_leading(seat, tricks, variant.seats)
        derived = BagattoRecord(seat, last.winner == seat, valid)
    given = record.bagatto
    if given is not None and (derived is None or (given.seat, given.won, given.valid) != (
            derived.seat, derived.won, derived.valid)):
        if derived is None:
            said = Text("T1 was not played to the last trick")
        else:
            said = (Text("{seat} played T1 to the last trick and won it{why}",
                         seat=seat_name(derived.seat), why="") if derived.won else
                    Text("{seat} played T1 to the last trick and lost it{why}",
                         seat=seat_name(derived.seat), why=""))
            if not derived.valid:
                said = Text("{said}, having stopped leading a suit it still held", said=said)
        problems.add("bagatto", "disagrees_with_tricks", Text("the tricks say {said}", said=said),
                                                         rule.rule)
    return derived


def replay_if_played(variant: Variant, options: Mapping[str, object], record: HandRecord,
                     incomplete: frozenset[str],
                     problems: ProblemList) -> tuple[HandRecord, Replay | None]:
    """The record as its tricks imply it, when it has well-formed tricks (with the replay),
    else the record as it is (and None)."""
    if record.tricks is None or "tricks" in incomplete:
        return record, None
    replay = replay_tricks(variant, options, record, lambda r: hand_sides(variant, r),
                           problems)
    return (replay.record if replay is not None else record), replay


def _fool_fate(variant: Variant, record: HandRecord, tricks: tuple[PlayedTrick, ...],
               sides: Sides, piles: dict[int, list[Card]], won: Mapping[int, list[PlayedTrick]],
               played_by: Mapping[Card, tuple[int, int]],
               problems: ProblemList) -> tuple[FoolRecord | None, Card | None]:
    """Move the Fool (and the card owed for it) between the piles, by the variant's rule, and
    check what the table typed about it."""
    fool = variant.pack.fool
    if fool not in played_by:
        if record.fool is not None:
            problems.add("fool", "disagrees_with_tricks", Text("the Fool was not played in the "
                                                               "tricks"),
                         "§6")
        return None, None
    fool_seat, fool_trick = played_by[fool]
    fool_side = sides.of(fool_seat)
    taker = sides.of(tricks[fool_trick - 1].winner)
    asked = record.fool.exchange_card if record.fool is not None else None
    rule = variant.fool_rule
    exchange: Card | None = None
    if rule == "kept":
        covered = True
        piles[taker].remove(fool)
        piles[fool_side].append(fool)
        if asked is not None:
            problems.add("fool.exchange_card", "nothing_owed",
                         Text('nothing is handed over for the Fool in this game'), "§5.1")
    else:
        if rule == "exchange_next_trick":
            sources = [t for t in won[fool_side] if t.number > fool_trick]
        else:
            sources = list(won[fool_side])
        covered = fool_side == taker or bool(sources)
        if asked is not None and (fool_side == taker or not sources):
            problems.add("fool.exchange_card", "nothing_owed",
                         Text("no card was handed over for the Fool: its own side won its "
                              "trick") if fool_side == taker else
                         Text("no card was handed over for the Fool: its side won no trick to "
                              "give one from, so the Fool itself went"), "§6")
        elif fool_side != taker and sources:
            # The Fool goes back to its side, which owes the trick's winner one card.
            piles[taker].remove(fool)
            piles[fool_side].append(fool)
            if rule == "exchange_any_capture":
                allowed = candidates = [c for c in piles[fool_side] if c != fool]
            else:
                candidates = list(sources[0].cards)
                allowed = [c for t in sources for c in t.cards]
            if asked is not None and asked not in allowed:
                where = ("a trick it won after trick " + str(fool_trick)
                         if rule == "exchange_next_trick" else "its captures")
                problems.add("fool.exchange_card", "not_in_later_trick",
                             Text("the Fool's side hands over a card from {where}; {asked} is not "
                                  "there", where=where, asked=asked), "§6")
                return FoolRecord(fool_seat, fool_trick, covered), None
            exchange = asked or min(candidates, key=_worthless_first(variant, candidates))
            piles[fool_side].remove(exchange)
            piles[taker].append(exchange)
    fool_record = FoolRecord(fool_seat, fool_trick, covered)
    given = record.fool
    if given is not None:
        for name in ("played_by", "trick", "covered"):
            if getattr(given, name) is not None and getattr(given, name) != getattr(
                    fool_record, name):
                problems.add(f"fool.{name}", "disagrees_with_tricks",
                             Text("the tricks say {name} = {getattr}, not {getattr2}", name=name,
                                  getattr=getattr(fool_record, name),
                                  getattr2=getattr(given, name)), "§6")
    return fool_record, exchange


def _worthless_first(variant: Variant, candidates: list[Card]) -> Any:
    """The order in which a side picks the card to hand over for the Fool: the lowest value,
    then a card that can join no combination, then the earliest the table saw it."""
    significant = variant.summary_cards
    order = {c: i for i, c in enumerate(candidates)}
    if variant.fool_rule == "exchange_any_capture":
        return lambda c: (variant.card_points(c), c in significant, variant.pack.position[c])
    return lambda c: (variant.card_points(c), order[c])


def _kept_leading(seat: int, tricks: tuple[PlayedTrick, ...], seats: int) -> bool:
    """Mitigatti's condition on Bagatte ultimu (§5.5): having led a plain suit, the player
    leads it again at every later lead while still holding a card of it."""
    plays = [(t.number, t.cards[(seat - t.leader) % seats]) for t in tricks]
    leads = [t for t in tricks if t.leader == seat]
    for earlier, later in pairwise(leads):
        led = earlier.cards[0]
        if not led.is_plain:
            continue
        still_held = any(c.is_plain and c.suit == led.suit for n, c in plays
                         if n >= later.number)
        now = later.cards[0]
        if still_held and not (now.is_plain and now.suit == led.suit):
            return False
    return True
