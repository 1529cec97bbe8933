"""The hand record: what a table entered about one hand, as immutable values (``HandRecord``).

``parse_hand_record`` turns the JSON form into a ``HandRecord`` in canonical notation and
reports every problem of form it finds (bad card codes, seats out of range, a declaration that
names both cards and a count…). Whether the record is possible under the rules is the scorer's
question (``scoring.py``); this module only makes sure it is well-formed.

``HandRecord.to_json`` gives the canonical form that is stored: parsing it again yields an equal
record.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from ..core.cards import COURT_RANKS, Card, Suit
from ..core.errors import Problem, ProblemList, RecordInvalid
from ..core.notation import (
    CardSyntaxError,
    parse_card,
    parse_cards,
    parse_rank,
    parse_suit,
)
from ..core.text import Text
from ..variant import Variant

Json = dict[str, Any]
T = TypeVar("T")


def _json_value(value: object) -> object:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Suit):
        return value.value
    if isinstance(value, tuple):
        return [_json_value(v) for v in value]
    if isinstance(value, _Recorded):
        return value.to_json()
    return value


class _Recorded:
    """The JSON form of a record value: every field, in canonical notation, except those that
    hold their default (what the table did not say is not written)."""

    __slots__ = ()

    def to_json(self) -> Json:
        return {
            f.name: _json_value(value)
            for f in fields(self)  # type: ignore[arg-type]
            if (value := getattr(self, f.name)) != f.default
        }


@dataclass(frozen=True, slots=True)
class Declaration(_Recorded):
    """A meld (or combination, or declaration) one seat announced. Either the shown ``cards``
    or just what it is: a ``suit`` (family), a ``rank`` (of a kind) or a ``count``; for
    Ottocento's cricche and sequences a ``type`` and a ``count`` (a cricca of four Kings:
    ``type`` ``K``, ``count`` 4), as a pile's combinations are said."""

    seat: int
    kind: str
    cards: tuple[Card, ...] | None = None
    suit: Suit | None = None
    rank: str | None = None
    count: int | None = None
    type: str | None = None



@dataclass(frozen=True, slots=True)
class Combination(_Recorded):
    """A combination a pile holds, said by kind rather than by its cards (a pile given by
    points): Gatti's gatti, a family (``suit``), three or four of a kind (``rank``); Ottocento's
    cricca (``type``, ``count`` 3 or 4) or sequence (``type``, ``count`` = its length)."""

    kind: str
    suit: Suit | None = None
    rank: str | None = None
    type: str | None = None
    count: int | None = None


@dataclass(frozen=True, slots=True)
class Pile(_Recorded):
    """A side's captures at the end of the hand: every card, or a summary (tricks won, the
    discard counted as one where held, and the counting cards), or just the points the table
    counted (deck points; card points without the last trick in Ottocento) with the
    combinations the pile holds where they score."""

    side: int
    cards: tuple[Card, ...] | None = None
    tricks: int | None = None
    counting: tuple[Card, ...] | None = None
    points: int | None = None
    combinations: tuple[Combination, ...] | None = None

    @property
    def by_points(self) -> bool:
        return self.points is not None



@dataclass(frozen=True, slots=True)
class Call(_Recorded):
    """``gatti-4-call``: the card the dealer called and the seat that held it (which a trick
    record reveals, so there it may be left out)."""

    card: Card
    partner: int | None = None


@dataclass(frozen=True, slots=True)
class FoolRecord(_Recorded):
    """Who played the Fool, in which trick (1-based), and whether it was covered."""

    played_by: int
    trick: int | None = None
    covered: bool | None = None
    exchange_card: Card | None = None



@dataclass(frozen=True, slots=True)
class BagattoRecord(_Recorded):
    """Bagatto ultimo: the seat that played T1 to the last trick and whether it won."""

    seat: int
    won: bool
    valid: bool = True



@dataclass(frozen=True, slots=True)
class Contract(_Recorded):
    """Mitigatti with four: who plays against whom (rulebook §5.3). ``type`` is ``call`` (the
    dealer calls a card; its holder, ``partner``, plays with the dealer), ``solo`` (alone,
    ``called_card`` taken from its holder unless ``sans_prendre``) or ``surrender`` (a
    declarer who called a card of their own gives up)."""

    type: str
    declarer: int
    called_card: Card | None = None
    partner: int | None = None
    sans_prendre: bool = False


@dataclass(frozen=True, slots=True)
class Signal(_Recorded):
    """Signals given with the lead of a trick (Ottocento: busso, volo, striscio)."""

    trick: int
    signals: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HandRecord(_Recorded):
    dealer: int
    discard: tuple[Card, ...] | None = None
    exposed: tuple[Card, ...] | None = None
    call: Call | None = None
    declarations: tuple[Declaration, ...] = ()
    piles: tuple[Pile, ...] = ()
    fool: FoolRecord | None = None
    bagatto: BagattoRecord | None = None
    tricks: tuple[tuple[Card, ...], ...] | None = None
    last_trick: int | None = None
    signals: tuple[Signal, ...] = ()
    contract: Contract | None = None
    thrown_in: bool = False



# -- parsing ---------------------------------------------------------------------------------


class _Reader:
    """Reads fields of a JSON object, recording a problem for each that is missing or of the
    wrong type. Keeps ``parse_hand_record`` free of repeated isinstance checks."""

    def __init__(self, variant: Variant, problems: ProblemList) -> None:
        self.variant = variant
        self.problems = problems

    def _typed(self, value: object, field: str, kind: type[T], says: Text) -> T | None:
        """The value when it is of the kind; None when absent, or (a problem saying what it
        must be) when of another."""
        if value is None:
            return None
        if not isinstance(value, kind):
            self.problems.add(field, "invalid_type", says)
            return None
        return value

    def obj(self, value: object, field: str) -> Mapping[str, Any] | None:
        mapping: type[Mapping[str, Any]] = Mapping  # type: ignore[type-abstract]
        return self._typed(value, field, mapping, Text('must be an object'))

    def int_(self, value: object, field: str, low: int, high: int, what: Text) -> int | None:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.problems.add(field, "invalid_type", Text("{what} must be a whole number",
                                                          what=what))
            return None
        if not low <= value <= high:
            self.problems.add(field, "out_of_range",
                              Text("{what} must be from {low} to {high}, not {value}", what=what,
                                   low=low, high=high, value=value), "§0")
            return None
        return value

    def seat(self, value: object, field: str, required: bool = True) -> int | None:
        if value is None:
            if required:
                self.problems.add(field, "missing_field", Text('a seat is required'))
            return None
        return self.int_(value, field, 0, self.variant.seats - 1, Text("a seat"))

    def bool_(self, value: object, field: str) -> bool | None:
        return self._typed(value, field, bool, Text('must be true or false'))

    def cards(self, value: object, field: str) -> tuple[Card, ...] | None:
        if value is None:
            return None
        if not isinstance(value, list):
            self.problems.add(field, "invalid_type", Text('must be a list of card codes'))
            return None
        cards, problems = parse_cards(value, self.variant.pack, field)
        self.problems.extend(problems)
        return cards

    def card(self, value: object, field: str) -> Card | None:
        if value is None:
            return None
        if not isinstance(value, str):
            self.problems.add(field, "invalid_type", Text('must be a card code'))
            return None
        try:
            return parse_card(value, self.variant.pack)
        except CardSyntaxError as exc:
            self.problems.add(field, exc.code, exc.message, "§1")
            return None

    def suit(self, value: object, field: str) -> Suit | None:
        if value is None:
            return None
        suit = parse_suit(value)
        if suit is None:
            self.problems.add(field, "invalid_suit", Text("{value} is not a suit (H, D, C, S)",
                                                          value=repr(value)),
                              "§1")
        return suit

    def court_rank(self, value: object, field: str) -> str | None:
        if value is None:
            return None
        rank = parse_rank(value)
        if rank is None or rank not in COURT_RANKS:
            self.problems.add(field, "invalid_rank",
                              Text("{value} is not a court rank (J, C, Q, K)", value=repr(value)),
                              "§2.4" if self.variant.rules_section == "§2" else
                              self.variant.rules_section)
            return None
        return rank

    def list_(self, value: object, field: str) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.problems.add(field, "invalid_type", Text('must be a list'))
            return []
        return value


def _parse_declaration(r: _Reader, raw: object, field: str) -> Declaration | None:
    data = r.obj(raw, field)
    if data is None:
        if raw is None:
            r.problems.add(field, "invalid_type", Text('must be an object'))
        return None
    before = len(r.problems.items)
    seat = r.seat(data.get("seat"), f"{field}.seat")
    kind = data.get("kind")
    kinds = [m.kind for m in r.variant.melds]
    if not isinstance(kind, str) or kind not in kinds:
        r.problems.add(f"{field}.kind", "unknown_meld",
                       Text("{kind} is not a declaration of {id} (one of: {cards})",
                            kind=repr(kind), id=r.variant.id, cards=', '.join(kinds)),
                       r.variant.rules_section)
        kind = None
    cards = r.cards(data.get("cards"), f"{field}.cards")
    suit = r.suit(data.get("suit"), f"{field}.suit")
    rank = r.court_rank(data.get("rank"), f"{field}.rank")
    count = r.int_(data.get("count"), f"{field}.count", 1, len(r.variant.pack), Text("count"))
    kind_type = None
    if data.get("type") is not None:
        meld = r.variant.meld(kind) if kind is not None else None
        if not isinstance(data["type"], str):
            r.problems.add(f"{field}.type", "invalid_type", Text('must be a string'))
        elif meld is not None and not meld.types:
            # Only a declaration said by its type and size takes one (Ottocento's).
            r.problems.add(f"{field}.type", "field_not_for_kind",
                           Text("a {kind} declaration takes no type", kind=kind),
                           r.variant.rules_section)
        else:
            kind_type = data["type"]
    if len(r.problems.items) > before or seat is None or kind is None:
        return None
    return Declaration(seat, kind, cards, suit, rank, count, kind_type)


PILE_FIELDS = frozenset({"side", "cards", "tricks", "counting", "points", "combinations"})
COMBINATION_FIELDS = ("kind", "suit", "rank", "type", "count")


def _object_of(r: _Reader, raw: object, field: str, known: Iterable[str],
               unknown: Callable[[str], Text]) -> Mapping[str, Any] | None:
    """An object of the record, each name it has that is not ``known`` a problem that
    ``unknown`` words."""
    data = r.obj(raw, field)
    if data is None:
        if raw is None:
            r.problems.add(field, "invalid_type", Text("must be an object"))
        return None
    for name in data:
        if name not in known:
            r.problems.add(f"{field}.{name}", "unknown_field", unknown(repr(name)))
    return data


def _parse_pile(r: _Reader, raw: object, field: str, sides: int) -> Pile | None:
    before = len(r.problems.items)
    data = _object_of(r, raw, field, PILE_FIELDS,
                      lambda name: Text("a pile has no field {name}", name=name))
    if data is None:
        return None
    side = data.get("side")
    if side is None:
        r.problems.add(f"{field}.side", "missing_field", Text('a side is required'))
    else:
        side = r.int_(side, f"{field}.side", 0, sides - 1, Text("a side"))
    cards = r.cards(data.get("cards"), f"{field}.cards")
    tricks = r.int_(data.get("tricks"), f"{field}.tricks", 0, r.variant.tricks_per_hand,
                    Text("tricks"))
    counting = r.cards(data.get("counting"), f"{field}.counting")
    most = r.variant.deck_total - r.variant.last_trick_points
    points = r.int_(data.get("points"), f"{field}.points", 0, most, Text("points"))
    combinations = None
    if data.get("combinations") is not None:
        combinations = tuple(
            c for k, item in enumerate(r.list_(data["combinations"], f"{field}.combinations"))
            if (c := _parse_combination(r, item, f"{field}.combinations[{k}]")) is not None)
    forms = [name for name, value in (("cards", cards), ("tricks", tricks),
                                      ("counting", counting), ("points", points))
             if value is not None]
    if "points" in forms and len(forms) > 1:
        r.problems.add(field, "mixed_pile_forms",
                       Text("give a pile by its points alone, not with {fields}",
                            fields=" or ".join(f for f in forms if f != "points")))
    elif cards is not None and (tricks is not None or counting is not None):
        r.problems.add(field, "mixed_pile_forms",
                       Text("give either every card of the pile (cards) or a summary (tricks and "
                            "counting), not both"))
    elif cards is None and tricks is None and data.get("points") is None:
        r.problems.add(field, "missing_field",
                       Text('a pile needs its cards, the number of tricks it holds, or its points'))
    if combinations is not None and points is None and "points" not in data:
        r.problems.add(f"{field}.combinations", "combinations_need_points",
                       Text("combinations are said by kind only in a pile given by points; a pile "
                            "of cards shows its combinations itself"))
    if len(r.problems.items) > before or side is None:
        return None
    if points is not None:
        return Pile(side, points=points, combinations=combinations or None)
    if cards is None and counting is None:
        counting = ()
    return Pile(side, cards, tricks, counting)


def _parse_combination(r: _Reader, raw: object, field: str) -> Combination | None:
    before = len(r.problems.items)
    data = _object_of(r, raw, field, COMBINATION_FIELDS,
                      lambda name: Text("a combination has no field {name}", name=name))
    if data is None:
        return None
    kinds = [m.kind for m in r.variant.melds if m.captured]
    kind = data.get("kind")
    if kind is None:
        r.problems.add(f"{field}.kind", "missing_field", Text('a combination needs its kind'))
    elif kind not in kinds:
        r.problems.add(f"{field}.kind", "unknown_kind",
                       Text("{kind} is no combination a pile scores in {variant} (one of: "
                            "{kinds})", kind=repr(kind), variant=r.variant.id,
                            kinds=", ".join(kinds)) if kinds else
                       Text("{kind} is no combination a pile scores in {variant}",
                            kind=repr(kind), variant=r.variant.id),
                       r.variant.rules_section)
    suit = r.suit(data.get("suit"), f"{field}.suit")
    rank = r.court_rank(data.get("rank"), f"{field}.rank")
    kind_type = None
    if data.get("type") is not None:
        if not isinstance(data["type"], str):
            r.problems.add(f"{field}.type", "invalid_type", Text('must be a string'))
        else:
            kind_type = data["type"]
    count = r.int_(data.get("count"), f"{field}.count", 3, len(r.variant.pack), Text("count"))
    if len(r.problems.items) > before or kind is None:
        return None
    return Combination(kind, suit, rank, kind_type, count)


def side_count(variant: Variant) -> int:
    fixed = variant.fixed_sides()
    return len(fixed) if fixed is not None else 2


def read_hand_record(
    variant: Variant, data: Mapping[str, Any]
) -> tuple[HandRecord | None, list[Problem], frozenset[str]]:
    """Read a record as far as it is well-formed: the record with every well-formed section
    (None when even the dealer is unknown), the problems of form, and the names of the
    sections that had problems and were left out. The scorer can then still check what was
    entered well, so a table sees every mistake at once."""
    problems = ProblemList()
    r = _Reader(variant, problems)
    if not isinstance(data, Mapping):
        problems.add("", "invalid_type", Text('a hand record must be an object'))
        return None, problems.items, frozenset()
    known = {"dealer", "discard", "exposed", "call", "declarations", "piles", "fool", "bagatto",
             "tricks", "last_trick", "signals", "contract", "thrown_in"}
    for name in data:
        if name not in known:
            problems.add(str(name), "unknown_field", Text("a hand record has no field {name}",
                                                          name=repr(name)))
    incomplete: set[str] = set()
    counted = len(problems.items)

    def section(name: str) -> None:
        nonlocal counted
        if len(problems.items) > counted:
            incomplete.add(name)
        counted = len(problems.items)

    dealer = r.seat(data.get("dealer"), "dealer")
    section("dealer")
    discard = r.cards(data.get("discard"), "discard")
    if discard is not None and len(discard) != variant.extra and len(discard) == len(
        data["discard"]
    ):
        problems.add("discard", "discard_size",
                     Text("the dealer discards exactly {extra} cards in {id}, not {n}",
                          extra=variant.extra, id=variant.id, n=len(discard)),
                     variant.discard_rule)
    section("discard")
    exposed = r.cards(data.get("exposed"), "exposed")
    if exposed is not None and len(exposed) > variant.exposed_cards:
        problems.add("exposed", "too_many_exposed",
                     Text("{id} exposes {exposed_cards} cards in the deal, not {n}",
                          id=variant.id, exposed_cards=variant.exposed_cards, n=len(exposed)),
                     variant.deal_section)
    section("exposed")

    call = None
    call_data = r.obj(data.get("call"), "call")
    if variant.partnership == "call":
        if call_data is None and "call" not in data:
            problems.add("call", "missing_field",
                         Text("the dealer's call (card and partner) is required in {id}",
                              id=variant.id), variant.deal_section)
        elif call_data is not None:
            card = r.card(call_data.get("card"), "call.card")
            if "card" not in call_data:
                problems.add("call.card", "missing_field", Text('the called card is required'))
            partner = r.seat(call_data.get("partner"), "call.partner",
                             required="tricks" not in data)
            if card is not None and (partner is not None or "tricks" in data):
                call = Call(card, partner)
    elif "call" in data:
        problems.add("call", "not_in_variant", Text('{id} has no call', id=variant.id), variant.deal_section)
    section("call")

    declarations = tuple(
        d for i, raw in enumerate(r.list_(data.get("declarations"), "declarations"))
        if (d := _parse_declaration(r, raw, f"declarations[{i}]")) is not None
    )
    section("declarations")
    sides = side_count(variant)
    piles = tuple(
        p for i, raw in enumerate(r.list_(data.get("piles"), "piles"))
        if (p := _parse_pile(r, raw, f"piles[{i}]", sides)) is not None
    )
    section("piles")

    fool = None
    fool_data = r.obj(data.get("fool"), "fool")
    if fool_data is not None:
        played_by = r.seat(fool_data.get("played_by"), "fool.played_by")
        trick = r.int_(fool_data.get("trick"), "fool.trick", 1, variant.dealt_each,
                       Text("the trick number (of the tricks played)"))
        covered = r.bool_(fool_data.get("covered"), "fool.covered")
        exchange = r.card(fool_data.get("exchange_card"), "fool.exchange_card")
        if played_by is not None:
            fool = FoolRecord(played_by, trick, covered, exchange)
    section("fool")

    bagatto = None
    bagatto_data = r.obj(data.get("bagatto"), "bagatto")
    if bagatto_data is not None:
        seat = r.seat(bagatto_data.get("seat"), "bagatto.seat")
        won = r.bool_(bagatto_data.get("won"), "bagatto.won")
        if "won" not in bagatto_data:
            problems.add("bagatto.won", "missing_field",
                         Text('say whether the Bagatto won the last trick'))
        valid = r.bool_(bagatto_data.get("valid"), "bagatto.valid")
        if seat is not None and won is not None:
            bagatto = BagattoRecord(seat, won, True if valid is None else valid)
    section("bagatto")

    tricks = None
    if data.get("tricks") is not None:
        tricks = tuple(
            cards for i, raw in enumerate(r.list_(data["tricks"], "tricks"))
            if (cards := r.cards(raw if raw is not None else [], f"tricks[{i}]")) is not None
        )
    section("tricks")

    last_trick = r.seat(data.get("last_trick"), "last_trick", required=False)
    section("last_trick")
    signals = []
    if data.get("signals") and not variant.signals:
        problems.add("signals", "not_in_variant", Text('{id} has no signals', id=variant.id))
    elif data.get("signals") and data.get("tricks") is None:
        problems.add("signals", "signals_need_tricks",
                     Text('signals are given with a lead: record them with the tricks'), "§4.2")
    for i, raw in enumerate(r.list_(data.get("signals"), "signals")):
        entry = r.obj(raw, f"signals[{i}]")
        if entry is None:
            continue
        trick = r.int_(entry.get("trick"), f"signals[{i}].trick", 1, variant.dealt_each,
                       Text("the trick number"))
        names = r.list_(entry.get("signals"), f"signals[{i}].signals")
        if entry.get("trick") is None:
            problems.add(f"signals[{i}].trick", "missing_field", Text("say which trick's lead"))
        for k, name in enumerate(names):
            if not isinstance(name, str):
                problems.add(f"signals[{i}].signals[{k}]", "invalid_type", Text("a signal's name"))
        if trick is not None and all(isinstance(n, str) for n in names):
            signals.append(Signal(trick, tuple(n.strip().lower() for n in names)))
    section("signals")

    contract = None
    contract_data = r.obj(data.get("contract"), "contract")
    if contract_data is not None and not variant.contracts:
        problems.add("contract", "not_in_variant", Text('{id} has no contract', id=variant.id))
    elif contract_data is not None:
        kind = contract_data.get("type")
        if kind not in variant.contracts:
            problems.add("contract.type", "invalid_contract",
                         Text("a contract is one of {cards}", cards=', '.join(variant.contracts)),
                         "§5.3")
        declarer = r.seat(contract_data.get("declarer"), "contract.declarer")
        called = r.card(contract_data.get("called_card"), "contract.called_card")
        partner = r.seat(contract_data.get("partner"), "contract.partner", required=False)
        sans = r.bool_(contract_data.get("sans_prendre"), "contract.sans_prendre")
        if isinstance(kind, str) and kind in variant.contracts and declarer is not None:
            contract = Contract(kind, declarer, called, partner, bool(sans))
    elif variant.contracts and not data.get("thrown_in"):
        problems.add("contract", "missing_field",
                     Text('say who plays against whom: a call, a solo or a surrender'), "§5.3")
    section("contract")
    thrown_in = r.bool_(data.get("thrown_in"), "thrown_in") or False
    if thrown_in and not variant.throw_in:
        problems.add("thrown_in", "not_in_variant", Text("{id} has no thrown-in deals",
                                                         id=variant.id))
    section("thrown_in")

    if dealer is None:
        return None, problems.items, frozenset(incomplete)
    record = HandRecord(dealer, discard, exposed, call, declarations, piles, fool, bagatto,
                        tricks, last_trick, tuple(signals), contract, thrown_in)
    return record, problems.items, frozenset(incomplete)


def parse_hand_record(variant: Variant, data: Mapping[str, Any]) -> HandRecord:
    """A well-formed ``HandRecord`` from its JSON form, or ``RecordInvalid`` listing every
    problem of form. Field paths are relative to the record."""
    record, problems, _ = read_hand_record(variant, data)
    if problems or record is None:
        raise RecordInvalid(problems)
    return record


__all__ = [
    "BagattoRecord",
    "Call",
    "Combination",
    "Declaration",
    "FoolRecord",
    "HandRecord",
    "Pile",
    "Problem",
    "Signal",
    "parse_hand_record",
    "read_hand_record",
]
