"""Validation and scoring of a Gatti hand from its record (rulebook §2, §3, §6; R1, R2, R5–R8).

``score_gatti_hand`` checks everything a record without a trick list can reveal — the discard,
the call, every declaration on its own and against the others, the piles against the pack and
the hand's total, the Fool and the Bagatto against where their cards ended — and reports every
breach at once. Only then does it score, line by line: hand melds (with R1's upgrades),
captured melds, Bagatto ultimo, deck points.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

from ..core.cards import Card
from ..core.errors import ProblemList, RecordInvalid
from ..core.results import HandResult, Line, SideResult
from ..core.text import Cards, Text
from ..hand.piles import PileView, check_discard_holder, deck_points_line, pile_of, resolve_piles
from ..hand.points_piles import Counted, PointsView, points_line, resolve_points_piles, uses_points
from ..hand.records import Combination, Declaration, HandRecord
from ..hand.replay import replay_if_played
from ..hand.shown import check_forbidden_discards, check_shown_cards
from ..hand.sides import Sides, hand_sides, say_call, seat_name, side_name
from ..variant import Variant
from .melds import (
    COURTS,
    CheckedMeld,
    captured_melds,
    card_class,
    check_declaration,
    class_sizes,
)

# -- the discard and the call ----------------------------------------------------------------


def _check_discard(variant: Variant, record: HandRecord, melds: Sequence[tuple[int, CheckedMeld]],
                   problems: ProblemList) -> None:
    discard = record.discard or ()
    check_forbidden_discards(variant, record, problems)
    t1 = variant.pack.card("T1")
    if not variant.discard_t1_only_sole_trump or t1 not in discard:
        return
    others = Cards(c for c in discard if c.is_trump and c != t1)
    if others:
        problems.add("discard", "bagatto_not_sole_trump",
                     Text("T1 may be discarded only as the dealer's sole trump, but the discard "
                          "also holds {cards}", cards=others), "§2.3")
    for i, meld in melds:
        if meld.declaration.seat == record.dealer and (
            meld.rule.kind == "trumps" or any(c.is_trump and c != t1 for c in meld.cards)
        ):
            problems.add("discard", "bagatto_not_sole_trump",
                         Text("T1 may be discarded only as the dealer's sole trump, but the "
                              "dealer declared {label}, showing other trumps", label=meld.label),
                         "§2.3")
            break


def _check_call(variant: Variant, record: HandRecord, melds: Sequence[tuple[int, CheckedMeld]],
                problems: ProblemList) -> None:
    call = record.call
    if call is None:
        return
    card = call.card
    if not card.is_plain or card.rank not in ("K", "Q"):
        problems.add("call.card", "invalid_call",
                     Text("the dealer calls a King (a Queen when holding all four), not {card}",
                          card=card),
                     "§2.2")
        return
    shown_by = {c: m.declaration.seat for _, m in melds for c in m.cards}
    if card.rank == "Q":
        kings_elsewhere = sorted({m.declaration.seat for _, m in melds
                                  if m.declaration.seat != record.dealer
                                  and dict(m.needs).get("rank:K", 0) > 0})
        if kings_elsewhere:
            problems.add("call.card", "queen_called_without_four_kings",
                         Text("a Queen may be called only by a dealer holding all four Kings, but "
                              "{seat} declared a King", seat=seat_name(kings_elsewhere[0])), "§2.2")
    holder = shown_by.get(card)
    if holder is not None and holder != call.partner:
        problems.add("call.partner", "call_partner_mismatch",
                     Text("{card} was shown by {holder}, so {holder} is the partner",
                          card=card, holder=seat_name(holder)),
                     "§2.2")
    if record.discard and card in record.discard and call.partner != record.dealer:
        problems.add("call.partner", "call_partner_mismatch",
                     Text("{card} is in the dealer's discard, so the dealer plays alone",
                          card=card),
                     "§2.2")


# -- declarations ----------------------------------------------------------------------------


def _check_declarations(variant: Variant, record: HandRecord, melds_option: str,
                        problems: ProblemList,
                        hands: Mapping[int, frozenset[Card]] | None = None,
                        ) -> list[tuple[int, CheckedMeld]]:
    if record.declarations and melds_option in ("none", "captured"):
        problems.add("declarations", "hand_melds_not_played",
                     Text("this game does not score melds declared from the hand (option melds = "
                          "{melds_option})", melds_option=repr(melds_option)), "§2.4")
        return []
    checked: list[tuple[int, CheckedMeld]] = []
    for i, d in enumerate(record.declarations):
        meld, found = check_declaration(variant, d, f"declarations[{i}]")
        problems.extend(found)
        if meld is not None:
            checked.append((i, meld))

    check_shown_cards(record, [(i, m.declaration, m.cards) for i, m in checked], problems)

    if hands is not None:
        _check_held(checked, hands, problems)

    # What each seat must hold, class by class, against what the pack has in play.
    explicit: dict[int, set[Card]] = defaultdict(set)
    counted: dict[int, Counter[str]] = defaultdict(Counter)
    for _, meld in checked:
        seat = meld.declaration.seat
        explicit[seat].update(meld.cards)
        for cls, n in meld.needs:
            counted[seat][cls] = max(counted[seat][cls], n)
    in_play = class_sizes(variant) - Counter(card_class(c) for c in record.discard or ())
    need_by_class: Counter[str] = Counter()
    for seat in set(explicit) | set(counted):
        need = Counter(card_class(c) for c in explicit[seat])
        need |= counted[seat]
        need_by_class.update(need)
        if sum(need.values()) > variant.dealt_each:
            problems.add("declarations", "more_than_a_hand",
                         Text("{seat}'s declarations need {sum} cards; a hand holds "
                              "{dealt_each}", seat=seat_name(seat), sum=sum(need.values()),
                              dealt_each=variant.dealt_each), "R2")
    for cls, n in sorted(need_by_class.items()):
        if n > in_play[cls]:
            what = _class_name(cls)
            problems.add("declarations", "more_than_the_pack",
                         Text("the declarations need {n} {what} between them, but only {in_play} "
                              "are in play", n=n, what=what, in_play=in_play[cls]), "R2")
    return checked


#: The classes of cards declarations compete for, in the plural (courts by their rank).
_CLASS_NAMES = {"trump": Text("trumps"), "pip": Text("pip cards"), "fool": Text("Fools")}


def _class_name(cls: str) -> Text:
    return _CLASS_NAMES.get(cls) or COURTS[cls.removeprefix("rank:")]


def _check_held(melds: Sequence[tuple[int, CheckedMeld]], hands: Mapping[int, frozenset[Card]],
                problems: ProblemList) -> None:
    """A trick record shows each hand: every declaration must be made of cards its player
    played (R2)."""
    for i, meld in melds:
        seat = meld.declaration.seat
        hand = hands.get(seat, frozenset())
        missing = Cards(c for c in meld.cards if c not in hand)
        held = Counter(card_class(c) for c in hand)
        short = [(cls, n) for cls, n in meld.needs if held[cls] < n]
        if missing or short:
            what = (missing if missing else
                    Text.joined((Text("{n} {what}", n=n, what=_class_name(cls))
                                 for cls, n in short), ", "))
            problems.add(f"declarations[{i}]", "not_held",
                         Text("{seat} declared {label}, but the tricks show that hand did not "
                              "hold {what}", seat=seat_name(seat), label=meld.label, what=what), "R2")


def _shown_by_another(melds: Sequence[tuple[int, CheckedMeld]], card: Card,
                      seat: int) -> list[tuple[int, int]]:
    """Each declaration (its index, its seat) in which a player other than ``seat`` showed
    ``card``."""
    return [(i, meld.declaration.seat) for i, meld in melds
            if card in meld.cards and meld.declaration.seat != seat]


def _check_fool(variant: Variant, record: HandRecord, sides: Sides,
                melds: Sequence[tuple[int, CheckedMeld]], views: Mapping[int, PileView] | None,
                problems: ProblemList) -> None:
    fool_rec = record.fool
    if fool_rec is None:
        return
    fool = variant.pack.fool
    if record.discard and fool in record.discard:
        problems.add("fool.played_by", "fool_discarded",
                     Text("the Fool is in the dealer's discard and was not played"), "§2.5")
        return
    for i, seat in _shown_by_another(melds, fool, fool_rec.played_by):
        problems.add("fool.played_by", "fool_held_by_other",
                     Text("{seat} showed the Fool in a declaration", seat=seat_name(seat)),
                     "§2.5")
    # A Fool in the last trick stays with its side only when a partner won that trick; a
    # player alone cannot win it with the Fool, and no later trick can cover it.
    if fool_rec.covered and fool_rec.trick == variant.dealt_each \
            and len(sides.seats[sides.of(fool_rec.played_by)]) == 1:
        problems.add("fool.covered", "fool_cannot_be_covered",
                     Text('a Fool played to the last trick cannot be covered: no trick follows'),
                     "§2.5")
    if views is None or fool_rec.covered is None:
        return
    where = pile_of(fool, views)
    own = sides.of(fool_rec.played_by)
    if fool_rec.covered and where is not None and where != own:
        problems.add("fool.covered", "fool_misplaced",
                     Text("a covered Fool stays with its player's side, but it is in {side}'s "
                          "pile", side=side_name(sides, where)), "§2.5")
    if not fool_rec.covered and where == own and not variant.has_pairs \
            and variant.partnership != "call":
        problems.add("fool.covered", "fool_misplaced",
                     Text("an uncovered Fool goes to the winner of its trick, but it is in its "
                          "player's own pile"), "§2.5")


def _check_bagatto(variant: Variant, options: Mapping[str, object], record: HandRecord,
                   sides: Sides, melds: Sequence[tuple[int, CheckedMeld]],
                   views: Mapping[int, PileView] | None, problems: ProblemList) -> None:
    rec = record.bagatto
    if rec is None:
        return
    rule = variant.bagatto
    if rule is None or (rule.optional and not options.get("bagatto_ultimo", True)):
        problems.add("bagatto", "bagatto_ultimo_off",
                     Text('this game does not play Bagatto ultimo'), rule.rule if rule else None)
        return
    if not rec.valid:
        problems.add("bagatto.valid", "not_in_variant",
                     Text("{id} sets no condition on Bagatto ultimo: omit valid", id=variant.id),
                     rule.rule)
    t1 = variant.pack.card("T1")
    if record.discard and t1 in record.discard:
        problems.add("bagatto.seat", "bagatto_discarded",
                     Text("T1 is in the dealer's discard, so nobody played it to the last trick"),
                     rule.rule)
        return
    for i, seat in _shown_by_another(melds, t1, rec.seat):
        problems.add("bagatto.seat", "bagatto_held_by_other",
                     Text("{seat} showed T1 in a declaration", seat=seat_name(seat)),
                     rule.rule)
    if views is None:
        return
    where = pile_of(t1, views)
    own = sides.of(rec.seat)
    if where is None:
        return
    if rec.won and where != own:
        problems.add("bagatto.won", "bagatto_misplaced",
                     Text("T1 won the last trick, so it is in its own side's pile, not {side}'s",
                          side=side_name(sides, where)), rule.rule)
    if not rec.won and where == own and len(sides.seats[own]) == 1:
        problems.add("bagatto.won", "bagatto_misplaced",
                     Text("T1 lost the last trick, so it is in the winner's pile, not its "
                          "player's"), rule.rule)


# -- piles given by points -------------------------------------------------------------------


def count_gatti_combination(variant: Variant, combo: Combination, field: str,
                            problems: ProblemList) -> Counted | None:
    """A captured meld said by kind (R8): gatti, a family by its suit, three or four of a kind
    by its rank; read as the declaration of it would be."""
    section = "§2.4" if variant.rules_section == "§2" else "§3"
    before = len(problems.items)
    for name in ("type", "count"):
        if getattr(combo, name) is not None:
            problems.add(f"{field}.{name}", "field_not_for_kind",
                         Text("a {kind} combination takes no {name}", kind=combo.kind, name=name),
                         section)
    meld, found = check_declaration(
        variant, Declaration(0, combo.kind, None, combo.suit, combo.rank), field)
    problems.extend(found)
    if meld is None or len(problems.items) > before:
        return None
    needs = tuple((frozenset(c for c in variant.pack.cards if card_class(c) == cls), n)
                  for cls, n in meld.needs)
    return Counted(meld, "R8", frozenset(meld.cards), needs)


def _known_gatti(variant: Variant, record: HandRecord, sides: Sides) -> dict[int, set[Card]]:
    """Cards the other records put in a pile: T1 that won the last trick, a covered Fool."""
    known: dict[int, set[Card]] = defaultdict(set)
    out_of_play = set(record.discard or ())
    t1, fool = variant.pack.card("T1"), variant.pack.fool
    if record.bagatto is not None and record.bagatto.won and t1 not in out_of_play:
        known[sides.of(record.bagatto.seat)].add(t1)
    if record.fool is not None and record.fool.covered and fool not in out_of_play:
        known[sides.of(record.fool.played_by)].add(fool)
    return known


# -- scoring ---------------------------------------------------------------------------------


def _meld_lines(variant: Variant, melds: Sequence[tuple[int, CheckedMeld]]) -> list[
        tuple[int, Line]]:
    """One line per declaration; R1: a player scores each meld family once, so a later,
    bigger declaration of the same family adds only the difference."""
    best: dict[tuple[int, str], int] = {}
    lines = []
    for _, meld in melds:
        d = meld.declaration
        key = (d.seat, meld.family)
        before = best.get(key, 0)
        points = max(0, meld.points - before)
        best[key] = max(before, meld.points)
        details: list[tuple[str, object]] = [("kind", d.kind), ("seat", d.seat),
                                             ("mark", meld.mark)]
        if meld.cards:
            details.append(("cards", [c.code for c in meld.cards]))
        text: Text
        if before:
            text = Text("{seat} declared {meld}, worth {worth}: {points} more than the "
                        "{before} already scored for it", seat=seat_name(d.seat),
                        meld=meld.label, worth=meld.points, points=points,
                        before=before).capitalize()
            rule = "R1"
        else:
            text = Text("{seat} declared {meld}: {points}", seat=seat_name(d.seat),
                        meld=meld.label, points=points).capitalize()
            rule = "§2.4" if variant.rules_section == "§2" else "§3"
        lines.append((d.seat, Line("meld", points, text, rule, tuple(details))))
    return lines


def _captured(variant: Variant, views: Mapping[int, PileView] | None,
              counted: Mapping[int, PointsView] | None) -> list[tuple[int, list[CheckedMeld]]]:
    """Each side's captured melds (R8): found in its cards, or as the table said them."""
    if counted is not None:
        return [(side, [c.value for c in view.combinations if isinstance(c.value, CheckedMeld)])
                for side, view in sorted(counted.items())]
    return [(side, captured_melds(variant, view.every_card or view.counting))
            for side, view in sorted((views or {}).items())]


def score_gatti_hand(variant: Variant, options: Mapping[str, object], record: HandRecord,
                     incomplete: frozenset[str] = frozenset(), *,
                     dealt: Sequence[frozenset[Card]] | None = None,
                     waived: frozenset[str] = frozenset()) -> HandResult:
    """Check and score a Gatti hand. ``incomplete`` names record sections that were
    malformed and left out: checks that need them are skipped (their problems are already
    reported), every other check still runs. No rule of Gatti follows a card's holder beyond
    what the record shows, so ``dealt`` (a duplicate board's cards) is not read; no ruling of
    Gatti only refuses records, so ``waived`` leaves nothing out."""
    problems = ProblemList()
    record, replay = replay_if_played(variant, options, record, incomplete, problems)
    sides = hand_sides(variant, record)
    melds_option = str(options.get("melds", "hand"))
    melds = _check_declarations(variant, record, melds_option, problems,
                                replay.hands if replay is not None else None)
    _check_discard(variant, record, melds, problems)
    _check_call(variant, record, melds, problems)
    views: dict[int, PileView] | None = None
    counted: dict[int, PointsView] | None = None
    can_resolve = not incomplete & {"piles", "call", "tricks"} and (
        record.tricks is None or replay is not None)
    if can_resolve and uses_points(record):
        scored = count_gatti_combination if melds_option in ("captured", "both") else None
        counted = resolve_points_piles(variant, record, sides, problems, scored,
                                       _known_gatti(variant, record, sides))
    elif can_resolve:
        views = resolve_piles(variant, record, sides, problems)
    if views is not None:
        check_discard_holder(variant, record, sides, views, problems)
    _check_fool(variant, record, sides, melds, views, problems)
    _check_bagatto(variant, options, record, sides, melds, views, problems)
    problems.raise_if_any()
    if views is None and counted is None:
        raise RecordInvalid([])

    lines: dict[int, list[Line]] = defaultdict(list)
    for seat, line in _meld_lines(variant, melds):
        lines[sides.of(seat)].append(line)
    if melds_option in ("captured", "both"):
        for side, melds_held in _captured(variant, views, counted):
            for meld in melds_held:
                lines[side].append(Line(
                    "captured_meld", meld.points,
                    Text("{side} captured {label}: {points}",
                         side=side_name(sides, side).capitalize(), label=meld.label,
                         points=meld.points), "R8",
                    (("kind", meld.rule.kind), ("mark", meld.mark),
                     ("cards", [c.code for c in meld.cards]))))
    if record.bagatto is not None and variant.bagatto is not None:
        rule, rec = variant.bagatto, record.bagatto
        own = sides.of(rec.seat)
        facts = (("seat", rec.seat), ("won", rec.won), ("mark", "B"))
        if rec.won:
            lines[own].append(Line("bagatto_ultimo", rule.win,
                                   Text("{seat} won the last trick with T1: {win}",
                                        seat=seat_name(rec.seat).capitalize(), win=rule.win),
                                   rule.rule, facts))
        else:
            for side in range(len(sides)):
                if side != own and rule.lose_each_opponent:
                    lines[side].append(Line(
                        "bagatto_ultimo", rule.lose_each_opponent,
                        Text("{seat} lost the last trick with T1: {lose_each_opponent} to "
                             "{side}", seat=seat_name(rec.seat).capitalize(),
                             lose_each_opponent=rule.lose_each_opponent,
                             side=side_name(sides, side)),
                        rule.rule, facts))
            if rule.lose_own:
                lines[own].append(Line(
                    "bagatto_ultimo", rule.lose_own,
                    Text("{seat} lost the last trick with T1: {lose_own} to its own side",
                         seat=seat_name(rec.seat).capitalize(), lose_own=rule.lose_own),
                    rule.rule, facts))
    if views is not None:
        for side, view in sorted(views.items()):
            lines[side].append(deck_points_line(variant, sides, side, view))
    for side, count in sorted((counted or {}).items()):
        lines[side].append(points_line(variant, sides, count))

    side_results = tuple(SideResult(i, sides.seats[i], tuple(lines[i]))
                         for i in range(len(sides)))
    if variant.columns_per_seat:
        columns = tuple((str(seat), side_results[sides.of(seat)].total)
                        for seat in range(variant.seats))
    else:
        columns = tuple((str(s.side), s.total) for s in side_results)
    events = []
    dealer_side = sides.of(record.dealer)
    if variant.discard_covering and (
            counted[dealer_side].points == 0 if counted is not None
            else views is not None and views[dealer_side].tricks == 0):
        events.append("discard_uncovered")
    if counted is not None:
        events.append("entered_by_points")
    if record.call is not None and record.call.partner == record.dealer:
        events.append("dealer_alone")
    if record.fool is not None and record.fool.covered is False:
        events.append("fool_handed_over")
    call = say_call(record.dealer, record.call) if record.call is not None else None
    if replay is not None:
        return HandResult(side_results, columns, replay.violations, tuple(events),
                          replay.facts(), contract=call)
    return HandResult(side_results, columns, (), tuple(events), contract=call)
