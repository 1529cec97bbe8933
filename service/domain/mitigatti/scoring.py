"""Validation and settlement of a Mitigatti hand (Nice, 1930; rulebook §5, R14–R17, R19).

A hand is settled in marca, as payments between players, each explained:
- **partida**: with four, the declarer's side wins with 37 of the 72 points and each opponent
  pays 1 (to the solo player, or 1 to each of declarer and partner), or loses with 36 and
  the payments reverse; doubled when either side has fewer than 18, doubled again in a solo
  sans prendre (R17). With three, a player with 13 to 25 points pays 1 to the player with
  most, one with fewer than 13 pays 2; players tied for most split what is paid, and an
  indivisible marca goes to the pot (R15);
- **declarations** (ten tarocchi, mitigatti, quatre rei): 1 from each other player;
- **Bagatte ultimu**: 2 from or to each other player when the attempt was valid, doubled in a
  solo sans prendre;
- **surrender**: a declarer who called a card of their own and gives up pays 1 to each other
  player and the value of every declaration to its holder.
T20 is never beaten (R19): where the record shows who held it (a trick record, a declaration
showing it, a call of it) or the service dealt the hand (a duplicate board), it ends in the
pile of its holder's side, and that side's points are at least what it brings.
A thrown-in deal ("to the mountain") is recorded, settles nothing and does not move the deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import NamedTuple

from ..core.cards import SUITS as ALL_SUITS
from ..core.cards import Card, plain
from ..core.errors import ProblemList, RecordInvalid
from ..core.results import HandResult, Line, Payment, SideResult
from ..core.text import Text
from ..hand.piles import PileView, check_discard_holder, deck_points_line, pile_of, resolve_piles
from ..hand.points_piles import PointsView, points_line, resolve_points_piles, uses_points
from ..hand.records import Contract, Declaration, HandRecord
from ..hand.replay import replay_if_played
from ..hand.shown import check_forbidden_discards, check_held, check_shown_cards
from ..hand.sides import Sides, hand_sides, seat_name, side_name
from ..variant import Variant
from .settlement import THE_POT

HONOURS = ("FOOL", "T1", "T20")


def _tarots(cards: Sequence[Card]) -> list[Card]:
    return [c for c in cards if c.is_trump or c.is_fool]


def _implied(variant: Variant, d: Declaration) -> tuple[Card, ...]:
    if d.kind == "mitigatti":
        return tuple(variant.pack.card(c) for c in HONOURS)
    if d.kind == "quatre_rei":
        return tuple(plain("K", s) for s in ALL_SUITS)
    return d.cards or ()


def _check_declarations(variant: Variant, record: HandRecord, problems: ProblemList,
                        hands: Mapping[int, frozenset[Card]] | None
                        ) -> list[tuple[int, Declaration]]:
    checked = []
    seen: dict[tuple[int, str], int] = {}
    for i, d in enumerate(record.declarations):
        field = f"declarations[{i}]"
        bad = False
        for name in ("suit", "rank", "count"):
            if getattr(d, name) is not None:
                problems.add(f"{field}.{name}", "field_not_for_kind",
                             Text('a Mitigatti declaration takes its cards, or nothing'), "§5.4")
                bad = True
        if d.cards is not None:
            if d.kind == "ten_tarocchi" and (len(d.cards) != 10 or len(
                    _tarots(d.cards)) != 10):
                problems.add(f"{field}.cards", "not_a_declaration",
                             Text('ten tarocchi shows exactly 10 tarots (the Fuole counts as one)'),
                             "§5.4")
                bad = True
            elif d.kind != "ten_tarocchi" and set(d.cards) != set(_implied(variant, d)):
                problems.add(f"{field}.cards", "not_a_declaration",
                             Text("mitigatti is the three honours (Fuole, T1, T20); quatre rei "
                                  "the four Kings"), "§5.4")
                bad = True
        if (d.seat, d.kind) in seen:
            problems.add(field, "declared_twice",
                         Text("{seat} already declared {kind}", seat=seat_name(d.seat),
                              kind=d.kind), "§5.4")
            bad = True
        seen.setdefault((d.seat, d.kind), i)
        if not bad:
            checked.append((i, d))
    shown = [(i, d, _implied(variant, d)) for i, d in checked]
    check_shown_cards(record, shown, problems, "§5.4")
    if hands is not None:
        check_held(shown, hands, problems, "§5.4")
        for i, d in checked:
            if d.kind == "ten_tarocchi" and d.cards is None and len(
                    _tarots(sorted(hands.get(d.seat, frozenset())))) < 10:
                problems.add(f"declarations[{i}]", "not_held",
                             Text('{seat} played fewer than 10 tarots', seat=seat_name(d.seat)), "§5.4")
    return checked


def _holds(variant: Variant, seat: int, card: Card, record: HandRecord,
           declarations: Sequence[tuple[int, Declaration]],
           hands: Mapping[int, frozenset[Card]] | None) -> bool | None:
    """Whether the record shows ``seat`` holding ``card`` (True/False), or cannot tell."""
    if hands is not None:
        return card in hands.get(seat, frozenset()) or (
            seat == record.dealer and card in (record.discard or ()))
    for _, d in declarations:
        if card in _implied(variant, d):
            return d.seat == seat
    return None


def _check_contract(variant: Variant, record: HandRecord,
                    declarations: Sequence[tuple[int, Declaration]],
                    hands: Mapping[int, frozenset[Card]] | None, problems: ProblemList) -> None:
    contract = record.contract
    if contract is None:
        return
    card = contract.called_card
    fool = variant.pack.fool
    if contract.type == "call":
        if contract.declarer != record.dealer:
            problems.add("contract.declarer", "not_the_dealer",
                         Text('when no one goes solo, the dealer calls'), "§5.3")
        if card is None:
            problems.add("contract.called_card", "missing_field", Text('the called card'), "§5.3")
        elif not (card.is_plain and card.rank == "K") and card.code != "T20":
            problems.add("contract.called_card", "invalid_call",
                         Text('the dealer calls a King, or the Angel (T20) holding all four Kings'),
                         "§5.3")
        elif card.code == "T20":
            kings = [_holds(variant, record.dealer, plain("K", s), record, declarations, hands)
                     for s in ALL_SUITS]
            if False in kings:
                problems.add("contract.called_card", "invalid_call",
                             Text("the Angel may be called only by a dealer holding all four "
                                  "Kings"),
                             "§5.3")
        if card is not None and _holds(variant, record.dealer, card, record, declarations,
                                       hands) is True:
            problems.add("contract.called_card", "called_own_card",
                         Text("the dealer holds {card}: a declarer who calls a card of their own "
                              "plays solo sans prendre or surrenders", card=card), "§5.3")
        if contract.partner is not None and contract.partner == contract.declarer:
            problems.add("contract.partner", "called_own_card",
                         Text("a declarer who calls a card of their own plays solo sans prendre "
                              "or surrenders"), "§5.3")
        if record.tricks is None and contract.partner is None:
            problems.add("contract.partner", "missing_field",
                         Text('the seat that held the called card'), "§5.3")
        shown_by = next((d.seat for _, d in declarations
                         if card is not None and card in _implied(variant, d)), None)
        if shown_by is not None and contract.partner is not None \
                and shown_by != contract.partner:
            problems.add("contract.partner", "call_partner_mismatch",
                         Text("{shown_by} declared {value}, so {shown_by} is the "
                              "partner", shown_by=seat_name(shown_by), value=card.code if card else ''),
                         "§5.3")
    elif contract.type == "solo":
        if card is not None and card == fool:
            problems.add("contract.called_card", "invalid_call", Text('the Fuole is never called'),
                         "§5.3")
        if contract.sans_prendre and card is not None:
            problems.add("contract.called_card", "sans_prendre_calls_nothing",
                         Text('a solo sans prendre calls no card'), "§5.3")
        if contract.partner is not None and contract.partner == contract.declarer:
            problems.add("contract.partner", "called_own_card",
                         Text("a declarer who calls a card of their own plays solo sans prendre "
                              "or surrenders"), "§5.3")
        if card is not None and hands is not None and card not in hands.get(
                contract.declarer, frozenset()):
            problems.add("contract.called_card", "disagrees_with_tricks",
                         Text("the solo declarer takes {card} from its holder, so plays it; the "
                              "tricks show another seat playing it", card=card), "§5.3")
    if contract.type == "surrender" and contract.partner is not None:
        problems.add("contract.partner", "field_not_for_kind",
                     Text('a surrender has no partner'), "§5.3")
    if contract.type == "surrender" and (record.piles or record.tricks is not None):
        problems.add("contract", "surrendered_hand_played",
                     Text('a surrendered hand is not played: give no piles or tricks'), "§5.3")


def _r16(variant: Variant, record: HandRecord,
         declarations: Sequence[tuple[int, Declaration]],
         hands: Mapping[int, frozenset[Card]] | None, problems: ProblemList) -> None:
    """A dealer with all four Kings and the Angel cannot call and must play solo (R16)."""
    contract = record.contract
    if contract is None or contract.type != "call":
        return
    needed = [plain("K", s) for s in ALL_SUITS] + [variant.pack.card("T20")]
    if all(_holds(variant, record.dealer, c, record, declarations, hands) for c in needed):
        problems.add("contract.type", "must_play_solo",
                     Text("the dealer holds all four Kings and the Angel, so cannot call: they "
                          "play solo"), "R16")


def _payments_each(item: str, seat: int, seats: Sequence[int], marca: int, text: Text,
                   rule: str) -> list[Payment]:
    """``seat`` receives ``marca`` from each other seat (pays each, when negative)."""
    out = []
    for other in seats:
        if other == seat:
            continue
        if marca > 0:
            out.append(Payment(item, other, seat, marca, text, rule))
        elif marca < 0:
            out.append(Payment(item, seat, other, -marca, text, rule))
    return out


DECLARATION_NAMES = {"ten_tarocchi": Text("ten tarocchi"),
                     "mitigatti": Text("mitigatti (the three honours)"),
                     "quatre_rei": Text("quatre rei (the four Kings)")}


def is_sans_prendre(contract: Contract) -> bool:
    """A solo that calls no card is played sans prendre (§5.3), flagged or not."""
    return contract.type == "solo" and (contract.sans_prendre or contract.called_card is None)


def say_contract(contract: Contract) -> Text:
    """Who played with whom (§5.3): the card called and its holder, the partner; a solo, with
    the card it took and from whom where the record says; a solo sans prendre; a surrender."""
    declarer = seat_name(contract.declarer).capitalize()
    if contract.type == "surrender":
        return Text("{declarer} called a card of their own and surrendered", declarer=declarer)
    if is_sans_prendre(contract):
        return Text("{declarer} played solo sans prendre", declarer=declarer)
    values = {"declarer": declarer, "card": contract.called_card}
    partner = None if contract.partner is None else seat_name(contract.partner)
    if contract.type == "solo":
        if partner is None:
            return Text("{declarer} played solo, calling {card}", **values)
        return Text("{declarer} played solo, calling {card} from {partner}", partner=partner,
                    **values)
    # A scored call knows its partner: given, or found by the tricks.
    assert partner is not None
    return Text("{declarer} called {card}: partner {partner}", partner=partner, **values)


def said_flow(payment: Payment) -> Payment:
    """``payment`` saying who pays whom how much: "seat 0 → seat 1 2", "seat 2 → the pot 1"."""
    payee = THE_POT if payment.payee is None else seat_name(payment.payee)
    return replace(payment, flow=Text("{payer} → {payee} {n}", payer=seat_name(payment.payer),
                                      payee=payee, n=payment.marca))


def _partida_four(variant: Variant, contract: Contract, sides: Sides,
                  points: Mapping[int, int]) -> list[Payment]:
    total = variant.deck_total
    mine = points[0]
    half = total // 2 + 1  # 37 of 72
    won = mine >= half
    each = 2 if min(mine, total - mine) < total // 4 else 1  # fewer than 18
    reasons = []
    if each == 2:
        reasons.append(Text("a side under 18 doubles"))
    if is_sans_prendre(contract):
        each *= 2
        reasons.append(Text("sans prendre doubles (R17)"))
    declarers, opponents = sides.seats[0], sides.seats[1]
    values = {"side": side_name(sides, 0), "points": mine, "total": total, "each": each,
              "reasons": Text(" ({reasons})", reasons=Text.joined(reasons)) if reasons else ""}
    # Counted: English's "marca" is the same for any number, Italian's is "marche" for two.
    text = (Text.counted("Partida: the declarer's side ({side}) took {points} of {total} "
                         "points, winning: {each} marca a player{reasons}",
                         "Partida: the declarer's side ({side}) took {points} of {total} "
                         "points, winning: {each} marca a player{reasons}", each, **values)
            if won else
            Text.counted("Partida: the declarer's side ({side}) took {points} of {total} "
                         "points, losing: {each} marca a player{reasons}",
                         "Partida: the declarer's side ({side}) took {points} of {total} "
                         "points, losing: {each} marca a player{reasons}", each, **values))
    payments = []
    for k, opponent in enumerate(opponents):
        winner_side = declarers[k % len(declarers)]
        payer, payee = (opponent, winner_side) if won else (winner_side, opponent)
        payments.append(Payment("partida", payer, payee, each, text, "§5.6"))
    return payments


def _partida_three(variant: Variant, points: Mapping[int, int]) -> tuple[list[Payment],
                                                                         int | None]:
    """With three: 13–25 points pay 1 to the player with most, under 13 pay 2; ties for most
    share, an indivisible marca going to the pot (R15). Returns the payments and the sole
    top scorer, if any."""
    best = max(points.values())
    tops = [s for s, p in points.items() if p == best]
    quarter, third = variant.deck_total // 6, variant.deck_total // 3  # 13, 26 of 78
    owed = {s: (2 if p < quarter else 1 if p < third else 0)
            for s, p in points.items() if s not in tops}
    payments = []
    for payer, amount in owed.items():
        if not amount:
            continue
        values = {"payer": seat_name(payer), "points": points[payer],
                  "to": seat_name(tops[0]) if len(tops) == 1 else Text("the top scorers")}
        text = (Text.counted("Partida: {payer} took {n} point, under 13: 2 marca to {to}",
                             "Partida: {payer} took {n} points, under 13: 2 marca to {to}",
                             points[payer], payer=values["payer"], to=values["to"])
                if amount == 2 else
                Text("Partida: {payer} took {points} points, 13 to 25: 1 marca to {to}",
                     **values))
        if len(tops) == 1:
            payments.append(Payment("partida", payer, tops[0], amount, text, "§5.6"))
            continue
        share, rest = divmod(amount, len(tops))
        for top in tops:
            if share:
                payments.append(Payment("partida", payer, top, share,
                                        Text("{text}, shared", text=text), "R15"))
        if rest:
            payments.append(Payment("partida", payer, None, rest,
                                    Text("{text}: {rest} cannot be shared and goes to the pot",
                                         text=text, rest=rest),
                                    "R15"))
    return payments, (tops[0] if len(tops) == 1 else None)


def score_mitigatti_hand(variant: Variant, options: Mapping[str, object], record: HandRecord,
                         incomplete: frozenset[str] = frozenset(), *,
                         dealt: Sequence[frozenset[Card]] | None = None,
                         waived: frozenset[str] = frozenset()) -> HandResult:
    """Check and settle a Mitigatti hand. ``dealt``: what each seat held before the discard
    where the service dealt the hand (a duplicate board), which says where T20 ends (R19).
    ``waived``: the refusing rulings the record is not held to (R19, for a hand recorded
    before it: it only refuses, so the hand settles as it did)."""
    problems = ProblemList()
    seats = list(range(variant.seats))
    if record.thrown_in:
        played = [name for name in ("discard", "declarations", "piles", "tricks", "contract",
                                    "bagatto", "fool") if getattr(record, name)]
        for name in played:
            problems.add(name, "thrown_in_with_play",
                         Text('a deal thrown in (to the mountain) is not played'), "§5.2")
        problems.raise_if_any()
        return HandResult((), tuple((str(s), 0) for s in seats), (), ("thrown_in",),
                          payments=())

    record, replay = replay_if_played(variant, options, record, incomplete, problems)
    hands = replay.hands if replay is not None else None
    check_forbidden_discards(variant, record, problems)
    declarations = _check_declarations(variant, record, problems, hands)
    _check_contract(variant, record, declarations, hands, problems)
    _r16(variant, record, declarations, hands, problems)
    contract = record.contract
    surrendered = contract is not None and contract.type == "surrender"
    sides = hand_sides(variant, record)

    views: dict[int, PileView] | None = None
    counted: dict[int, PointsView] | None = None
    if not surrendered and not incomplete & {"piles", "tricks", "contract"} and (
            record.tricks is None or replay is not None):
        angel = None if "R19" in waived else _angel_side(variant, record, sides,
                                                         declarations, hands, dealt)
        if uses_points(record):
            known = _known(variant, record, sides, declarations)
            if angel is not None:
                # R19's least counts what else the record puts in that side's pile.
                known.pop(angel, None)
            counted = resolve_points_piles(variant, record, sides, problems, None, known)
            if counted is not None and angel is not None:
                _check_angel_points(variant, record, sides, declarations, dealt, angel,
                                    counted, problems)
            dealer_side = sides.of(record.dealer)
            if counted is not None and counted[dealer_side].points == 0:
                problems.add("piles", "discard_outside_dealer_side",
                             Text("{side} (the dealer's side) has no points, but the discard "
                                  "always counts for it, one trick at least",
                                  side=side_name(sides, dealer_side)), "§5.1")
        else:
            views = resolve_piles(variant, record, sides, problems)
        if views is not None:
            check_discard_holder(variant, record, sides, views, problems)
            _check_kept(variant, record, sides, declarations, views, problems)
            if angel is not None:
                _check_angel_pile(variant, record, sides, angel, views, problems)
    _check_bagatte(variant, record, sides, declarations, views, problems)
    problems.raise_if_any()
    if views is None and counted is None and not surrendered:
        raise RecordInvalid([])

    sans = contract is not None and is_sans_prendre(contract)
    payments: list[Payment] = []
    lines: dict[int, list[Line]] = {side: [] for side in range(len(sides))}
    points: dict[int, int] = {}
    top = None
    if views is not None or counted is not None:
        for side, view in sorted((views or {}).items()):
            line = deck_points_line(variant, sides, side, view)
            lines[side].append(line)
            points[side] = line.points
        for side, count in sorted((counted or {}).items()):
            lines[side].append(points_line(variant, sides, count))
            points[side] = count.points
        if contract is not None:
            payments += _partida_four(variant, contract, sides, points)
        else:
            by_seat, top = _partida_three(variant, {sides.seats[s][0]: p
                                                    for s, p in points.items()})
            payments += by_seat
    if surrendered and contract is not None:
        payments += _payments_each(
            "surrender", contract.declarer, seats, -1,
            Text("{seat} called a card of their own and surrendered: 1 marca to each "
                 "other player", seat=seat_name(contract.declarer).capitalize()), "§5.3")
    for _, d in declarations:
        name = DECLARATION_NAMES[d.kind]
        if surrendered and contract is not None:
            if d.seat != contract.declarer:
                payments.append(Payment(
                    "declaration", contract.declarer, d.seat, variant.seats - 1,
                    Text("{seat} declared {name}; the surrendering declarer pays its value",
                         seat=seat_name(d.seat).capitalize(), name=name),
                    "§5.3"))
            continue
        payments += _payments_each("declaration", d.seat, seats, 1,
                                   Text("{seat} declared {name}: 1 marca from each "
                                        "other player", seat=seat_name(d.seat).capitalize(),
                                        name=name), "§5.4")
    bagatto = record.bagatto
    if bagatto is not None and bagatto.valid and variant.bagatto is not None:
        each = variant.bagatto.win * (2 if sans else 1)
        values = {"seat": seat_name(bagatto.seat).capitalize(), "each": each,
                  "doubled": Text(" (doubled sans prendre)") if sans else ""}
        text = (Text.counted("{seat} won the last trick with the Bagatte: {each} marca from "
                             "each other player{doubled}",
                             "{seat} won the last trick with the Bagatte: {each} marca from "
                             "each other player{doubled}", each, **values) if bagatto.won else
                Text.counted("{seat} lost the Bagatte in the last trick (petar bagatte): "
                             "{each} marca to each other player{doubled}",
                             "{seat} lost the Bagatte in the last trick (petar bagatte): "
                             "{each} marca to each other player{doubled}", each, **values))
        payments += _payments_each(
            "bagatte_ultimu", bagatto.seat, seats, each if bagatto.won else -each, text, "§5.5")

    side_results = tuple(SideResult(i, sides.seats[i], tuple(lines[i]))
                         for i in range(len(sides)))
    columns = tuple((str(seat), points.get(sides.of(seat), 0)) for seat in seats)
    events = []
    if surrendered:
        events.append("surrendered")
    if bagatto is not None and not bagatto.valid:
        events.append("bagatte_attempt_invalid")
    if counted is not None:
        events.append("entered_by_points")
    facts: list[tuple[str, object]] = list(replay.facts()) if replay is not None else []
    if top is not None:
        facts.append(("top_scorer", top))
    violations = replay.violations if replay is not None else ()
    return HandResult(side_results, columns, violations, tuple(events), tuple(facts),
                      payments=tuple(said_flow(p) for p in payments),
                      contract=say_contract(contract) if contract is not None else None)


def _fuole_owner(variant: Variant, record: HandRecord,
                 declarations: Sequence[tuple[int, Declaration]]) -> int | None:
    owner = record.fool.played_by if record.fool is not None else None
    for _, d in declarations:
        if variant.pack.fool in _implied(variant, d):
            owner = d.seat if owner is None else owner
    return owner


def _known(variant: Variant, record: HandRecord, sides: Sides,
           declarations: Sequence[tuple[int, Declaration]]) -> dict[int, set[Card]]:
    """Cards the other records put in a pile: the Fuole with its player's side (never
    captured), T1 that won the last trick."""
    known: dict[int, set[Card]] = {}
    owner = _fuole_owner(variant, record, declarations)
    if owner is not None:
        known.setdefault(sides.of(owner), set()).add(variant.pack.fool)
    t1 = variant.pack.card("T1")
    if record.bagatto is not None and record.bagatto.won and t1 not in (record.discard or ()):
        known.setdefault(sides.of(record.bagatto.seat), set()).add(t1)
    return known


def _check_kept(variant: Variant, record: HandRecord, sides: Sides,
                declarations: Sequence[tuple[int, Declaration]],
                views: Mapping[int, PileView], problems: ProblemList) -> None:
    """The Fuole is never captured: it ends with its player's side (§5.1)."""
    fool = variant.pack.fool
    owner = record.fool.played_by if record.fool is not None else None
    for _, d in declarations:
        if fool in _implied(variant, d):
            if owner is not None and owner != d.seat:
                problems.add("fool.played_by", "fool_held_by_other",
                             Text('{seat} showed the Fuole', seat=seat_name(d.seat)), "§5.1")
            owner = d.seat
    if owner is None:
        return
    where = pile_of(fool, views)
    if where is not None and where != sides.of(owner):
        problems.add("piles", "kept_card_misplaced",
                     Text("the Fuole is never captured: it ends with {owner}'s side, not in "
                          "{side}'s pile", owner=seat_name(owner), side=side_name(sides, where)), "§5.1")


def _dealt_holder(dealt: Sequence[frozenset[Card]] | None, card: Card,
                  contract: Contract | None) -> int | None:
    """The seat a duplicate board dealt ``card`` to, and so the seat that played it; None
    where the deal cannot tell: no board, or ``card`` dealt to a solo declarer who called a
    card (the face-down card given in return may be this one, and no record names it)."""
    if dealt is None:
        return None
    seat = next((s for s, held in enumerate(dealt) if card in held), None)
    if contract is not None and contract.type == "solo" and contract.called_card is not None \
            and seat == contract.declarer:
        return None
    return seat


def _angel_side(variant: Variant, record: HandRecord, sides: Sides,
                declarations: Sequence[tuple[int, Declaration]],
                hands: Mapping[int, frozenset[Card]] | None,
                dealt: Sequence[frozenset[Card]] | None) -> int | None:
    """The side whose player held T20, where the record or the deal shows it, else None
    (R19). In order: the seat that played it in a trick record; the solo declarer who called
    it (taking it from its holder); the seat a duplicate board dealt it to (``_dealt_holder``);
    a call of it (its holder is the declarer's partner); the seat whose declaration showed
    it."""
    angel = variant.pack.card("T20")
    if hands is not None:
        seat = next((s for s, held in sorted(hands.items()) if angel in held), None)
        return None if seat is None else sides.of(seat)
    contract = record.contract
    called = contract is not None and contract.called_card == angel
    if called and contract is not None and contract.type == "solo":
        return sides.of(contract.declarer)
    seat = _dealt_holder(dealt, angel, contract)
    if seat is not None:
        return sides.of(seat)
    if called and contract is not None and contract.type == "call":
        return sides.of(contract.declarer)
    for _, d in declarations:
        if angel in _implied(variant, d):
            return sides.of(d.seat)
    return None


def _pile_field(record: HandRecord, side: int) -> str:
    """The record's pile of ``side`` as a field, or the piles where it is the rest."""
    return next((f"piles[{i}]" for i, p in enumerate(record.piles) if p.side == side), "piles")


def _check_angel_pile(variant: Variant, record: HandRecord, sides: Sides, angel_side: int,
                      views: Mapping[int, PileView], problems: ProblemList) -> None:
    """T20 wins every trick it is played to, so it is in its holder's side's pile (R19)."""
    angel = variant.pack.card("T20")
    where = pile_of(angel, views)
    if where is None or where == angel_side:
        return
    problems.add(_pile_field(record, where), "kept_card_misplaced",
                 Text("{card} cannot be in {side}'s pile: {card} is never beaten, so it ends "
                      "with the side that held it", card=angel, side=side_name(sides, where)),
                 "R19")


class _Brought(NamedTuple):
    points: int
    text: Text


def _check_angel_points(variant: Variant, record: HandRecord, sides: Sides,
                        declarations: Sequence[tuple[int, Declaration]],
                        dealt: Sequence[frozenset[Card]] | None, angel_side: int,
                        counted: Mapping[int, PointsView], problems: ProblemList) -> None:
    """The points of the side that held T20 are at least what its pile surely holds (R19):
    T20 (4) and the trick it won (1); the Fuole (4) where its player is of that side (§5.1);
    T1 (4) and the last trick it won (1), a different trick, where the Bagatte won it there
    (§5.5); the discard (1 and its counting cards) where it is the dealer's side."""
    angel, fool = variant.pack.card("T20"), variant.pack.fool
    t1 = variant.pack.card("T1")
    brought = [_Brought(variant.card_points(angel),
                        Text("{points} for {card}", points=variant.card_points(angel),
                             card=angel)),
               _Brought(1, Text("1 for the trick it won"))]
    owner = _fuole_owner(variant, record, declarations)
    if owner is None:
        owner = _dealt_holder(dealt, fool, record.contract)
    if owner is not None and sides.of(owner) == angel_side:
        brought.append(_Brought(variant.card_points(fool),
                                Text("{points} for {card}", points=variant.card_points(fool),
                                     card=fool)))
    bagatto = record.bagatto
    if bagatto is not None and bagatto.won and sides.of(bagatto.seat) == angel_side and (
            t1 not in (record.discard or ())):
        brought.append(_Brought(variant.card_points(t1) + 1,
                                Text("{points} for {card} and the last trick it won",
                                     points=variant.card_points(t1) + 1, card=t1)))
    if sides.of(record.dealer) == angel_side:
        discard = 1 + sum(variant.card_points(c) for c in record.discard or ())
        brought.append(_Brought(discard, Text("{points} for the discard", points=discard)))
    least = sum(b.points for b in brought)
    points = counted[angel_side].points
    if points < least:
        field = _pile_field(record, angel_side)
        parts = Text.joined((b.text for b in brought), ", ")
        problems.add(field if field == "piles" else f"{field}.points", "points_below_cards",
                     Text("{card} is never beaten and ends in {side}'s pile, which brings at "
                          "least {parts}: {least} in all; {points} is too few", card=angel,
                          side=side_name(sides, angel_side), parts=parts, least=least,
                          points=points), "R19")


def _check_bagatte(variant: Variant, record: HandRecord, sides: Sides,
                   declarations: Sequence[tuple[int, Declaration]],
                   views: Mapping[int, PileView] | None, problems: ProblemList) -> None:
    rec = record.bagatto
    if rec is None:
        return
    t1 = variant.pack.card("T1")
    if record.contract is not None and record.contract.type == "surrender":
        problems.add("bagatto", "surrendered_hand_played", Text('a surrendered hand is not played'),
                     "§5.3")
        return
    if t1 in (record.discard or ()):
        problems.add("bagatto.seat", "bagatto_discarded",
                     Text("T1 is in the dealer's discard, so nobody played it to the last trick"),
                     "§5.5")
        return
    for i, d in declarations:
        if t1 in _implied(variant, d) and d.seat != rec.seat:
            problems.add("bagatto.seat", "bagatto_held_by_other",
                         Text("{seat} showed T1 in a declaration", seat=seat_name(d.seat)),
                         "§5.5")
    if views is not None and rec.won:
        where = pile_of(t1, views)
        if where is not None and where != sides.of(rec.seat):
            problems.add("bagatto.won", "bagatto_misplaced",
                         Text("T1 won the last trick, so it is in its own side's pile"), "§5.5")


def suggest_mitigatti_declarations(variant: Variant,
                                   cards: tuple[Card, ...]) -> list[dict[str, object]]:
    """The accusassions these cards can make, each worth 1 marca from every other player:
    ten tarocchi (the ten highest shown, hiding the rest), mitigatti and quatre rei."""
    held = set(cards)
    out: list[dict[str, object]] = []
    tarots = sorted(_tarots(cards), key=lambda c: -variant.card_strength.get(c, 10_000))
    if len(tarots) >= 10:
        shown = [c.code for c in variant.pack.sort(tarots[:10])]
        out.append({"kind": "ten_tarocchi", "cards": shown, "marca": variant.seats - 1,
                    "label": f"ten tarocchi (of {len(tarots)} held)",
                    "declaration": {"kind": "ten_tarocchi", "cards": shown}})
    for kind in ("mitigatti", "quatre_rei"):
        needed = _implied(variant, Declaration(0, kind))
        if set(needed) <= held:
            codes = [c.code for c in needed]
            out.append({"kind": kind, "cards": codes, "marca": variant.seats - 1,
                        "label": DECLARATION_NAMES[kind],
                        "declaration": {"kind": kind, "cards": codes}})
    return out
