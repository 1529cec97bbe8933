"""Validation and scoring of an Ottocento hand (rulebook §4, §6; R11–R13, R18).

A hand scores in two moments. During the first trick each player declares cricche and
sequences from the hand, one act per player in order of play from the leader, each act with its
own doubling (partners never pool). At the end each pair scores its cards counted in pairs,
6 for the last trick, and the cricche and sequences in its captures with their doubling. A
record may stop after the declarations when they win the rubber (R13); whether they do is the
game's question (``games.py``), so here such a record simply scores its declarations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..core.cards import Card
from ..core.errors import ProblemList, RecordInvalid
from ..core.results import Act, HandResult, Line, SideResult
from ..core.text import Text
from ..hand.piles import PileView, check_discard_holder, pile_of, resolve_piles
from ..hand.points_piles import Counted, PointsView, points_line, resolve_points_piles, uses_points
from ..hand.records import Combination, Declaration, HandRecord
from ..hand.replay import replay_if_played
from ..hand.shown import check_forbidden_discards, check_held, check_shown_cards
from ..hand.sides import Sides, hand_sides, seat_name, side_name
from ..variant import Variant
from .combos import (
    CRICCA_NAMES,
    CRICCA_POINTS,
    LAST_TRICK,
    PACK,
    SEQUENCE_NAMES,
    ComboByKind,
    CriccaFound,
    SequenceFound,
    belongs_to,
    best_sequences,
    card_points,
    card_value,
    cricca_cards,
    cricca_type,
    cricche,
    longest_sequence,
    sequence_cards,
    sequence_type,
)

Combo = CriccaFound | SequenceFound | ComboByKind


@dataclass(frozen=True)
class Declared:
    index: int
    declaration: Declaration
    combo: Combo


def _check_one(variant: Variant, d: Declaration, i: int,
               problems: ProblemList) -> Combo | None:
    """A declaration by the cards it shows, or by its type and count as a pile's combination is
    said (``{"kind": "cricca", "type": "K", "count": 4}``)."""
    field = f"declarations[{i}]"
    for name in ("suit", "rank"):
        if getattr(d, name) is not None:
            problems.add(f"{field}.{name}", "field_not_for_kind",
                         Text("an Ottocento declaration shows its cards, or says its type and "
                              "count"), "§4.3")
            return None
    if d.type is not None or (d.count is not None and not d.cards):
        if d.cards:
            problems.add(f"{field}.cards", "field_not_for_kind",
                         Text("a declaration said by its type and count shows no cards: give "
                              "one or the other"), "§4.3")
            return None
        counted = count_ottocento_combination(
            variant, Combination(d.kind, type=d.type, count=d.count), field, problems)
        return None if counted is None else ComboByKind(d.kind, str(d.type), int(d.count or 0),
                                                       shown_by_kind(d))
    if d.count is not None:
        problems.add(f"{field}.count", "field_not_for_kind",
                     Text("an Ottocento declaration shows its cards, or says its type and "
                          "count"), "§4.3")
        return None
    cards = d.cards or ()
    if not cards:
        problems.add(f"{field}.cards", "missing_field",
                     Text("show the declaration's cards, or say its type and count"), "§4.3")
        return None
    if d.kind == "cricca":
        kinds = {cricca_type(c) for c in cards}
        if None in kinds or len(kinds) != 1 or len(cards) not in (3, 4):
            problems.add(f"{field}.cards", "not_a_cricca",
                         Text("a cricca is three or four tarocchi (Angel, World, Bégato, Matto), "
                              "Kings, Queens, Knights or Jacks"), "§4.3")
            return None
        return cricche(cards)[0]
    kind = sequence_type(cards)
    if kind is None:
        problems.add(f"{field}.cards", "not_a_sequence",
                     Text("a sequence shows the Angel (trumps), one King (its suit), Moors or "
                          "aces"),
                     "§4.3")
        return None
    strays = [k for k, c in enumerate(cards) if not belongs_to(kind, c)]
    for k in strays:
        problems.add(f"{field}.cards[{k}]", "card_not_in_sequence",
                     Text('{cards} cannot take part in this sequence', cards=cards[k]), "§4.3")
    found = next((s for s in best_sequences(cards) if s.type == kind), None)
    if found is None and not strays:
        problems.add(f"{field}.cards", "not_a_sequence",
                     Text("these cards do not establish the sequence: {needs}", needs={
                         "trumps": Text("the Angel and two of World, Sun, Moon, one at least "
                                        "real"),
                         "moors": Text("three Moors, two at least real"),
                         "aces": Text("three aces, two at least real"),
                     }.get(kind, Text("the King and two of Queen, Knight, Jack, one at least "
                                      "real"))),
                     "R18")
    return None if strays else found


def shown_by_kind(d: Declaration) -> tuple[Card, ...]:
    """The cards a declaration said by its type shows all the same: a cricca of all four
    (four Kings are the four Kings); none where the type leaves them open (three of the
    four, a sequence)."""
    if d.kind == "cricca" and d.type in CRICCA_POINTS and d.count == 4:
        return PACK.sort(cricca_cards(d.type))
    return ()


def shown(x: Declared) -> tuple[Card, ...]:
    """The cards a declaration shows, or that its type fixes."""
    return x.declaration.cards or x.combo.cards


def _check_by_kind_held(declared: Sequence[Declared], hands: Mapping[int, frozenset[Card]],
                        problems: ProblemList) -> None:
    """A trick record shows each hand: a declaration said by its type needs a hand that
    holds it, as long as it was said."""
    for x in declared:
        d = x.declaration
        if d.cards or not isinstance(x.combo, ComboByKind):
            continue
        hand = hands.get(d.seat, frozenset())
        if d.kind == "cricca":
            held = len(hand & cricca_cards(x.combo.type))
        else:
            held = max((s.length for s in best_sequences(hand) if s.type == x.combo.type),
                       default=0)
        if held < x.combo.size:
            problems.add(f"declarations[{x.index}]", "not_held",
                         Text("{seat} declared {label}, but the tricks show that hand did "
                              "not hold it", seat=seat_name(d.seat), label=x.combo.label), "§4.3")


def _check_declarations(variant: Variant, record: HandRecord,
                        problems: ProblemList) -> list[Declared]:
    declared: list[Declared] = []
    seen: dict[tuple[int, str, str], int] = {}
    for i, d in enumerate(record.declarations):
        combo = _check_one(variant, d, i, problems)
        if combo is None:
            continue
        key = (d.seat, d.kind, combo.type)
        if key in seen:
            problems.add(f"declarations[{i}]", "declared_twice",
                         Text("{seat} already declared this {kind}", seat=seat_name(d.seat),
                              kind=d.kind), "§4.3")
            continue
        seen[key] = i
        declared.append(Declared(i, d, combo))
    check_shown_cards(record, [(x.index, x.declaration, shown(x)) for x in declared],
                      problems, "§4.3")
    _check_cricche_fit_the_pack(declared, problems)
    return declared


def _check_cricche_fit_the_pack(declared: Sequence[Declared], problems: ProblemList) -> None:
    """The pack has four cards of each cricca's type: the cricche of one type that different
    players declare hold four at most between them. (Where every one shows or fixes its cards,
    a card shown twice says so already.)"""
    by_type: dict[str, list[Declared]] = {}
    for x in declared:
        if x.declaration.kind == "cricca":
            by_type.setdefault(x.combo.type, []).append(x)
    for kind, group in by_type.items():
        held = sum(x.combo.size for x in group)
        if held > 4 and any(not shown(x) for x in group):
            problems.add(f"declarations[{group[-1].index}]", "more_than_the_pack",
                         Text("the cricche of {what} declared hold {n} cards between them; "
                              "the pack has four", what=CRICCA_NAMES[kind], n=held), "§4.3")


def _check_kept_cards(variant: Variant, record: HandRecord, sides: Sides,
                      declared: Sequence[Declared], views: Mapping[int, PileView],
                      problems: ProblemList) -> None:
    """§6: the Angel always wins its trick, so it ends with the pair of the player who showed
    it; the Matto stays with its pair unless that pair took no trick."""
    angel, matto = variant.pack.card("ANGEL"), variant.pack.fool
    owners: dict[Card, int] = {}
    for x in declared:
        for card in shown(x):
            if card in (angel, matto):
                owners[card] = x.declaration.seat
    if record.fool is not None:
        if matto in owners and owners[matto] != record.fool.played_by:
            problems.add("fool.played_by", "fool_held_by_other",
                         Text('{seat} showed the Matto', seat=seat_name(owners[matto])), "§4.2")
        owners.setdefault(matto, record.fool.played_by)
    for card, seat in owners.items():
        own = sides.of(seat)
        where = pile_of(card, views)
        if where is None or where == own:
            continue
        if card == matto and views[own].tricks == 0:
            continue
        problems.add("piles", "kept_card_misplaced",
                     Text("{card} ends with the pair of {seat}, who showed it, not in "
                          "{side}'s pile", card=card, seat=seat_name(seat), side=side_name(sides, where))
                     if card == angel else
                     Text("{card} ends with the pair of {seat}, who played it, not in "
                          "{side}'s pile", card=card, seat=seat_name(seat), side=side_name(sides, where)),
                     "§6")


def _combo_line(item: str, combo: Combo, seat: int | None, who: Text) -> Line:
    kind = combo.kind
    size = ("count" if kind == "cricca" else "length", combo.size)
    details: list[tuple[str, object]] = [("kind", kind), ("type", combo.type)]
    if seat is not None:
        details.insert(0, ("seat", seat))
    details += [("cards", [c.code for c in combo.cards]), size]
    values = {"who": who, "label": combo.label, "points": combo.points}
    text = (Text("{who} declared a {label}: {points}", **values) if item == "declaration"
            else Text("{who} captured a {label}: {points}", **values))
    return Line(item, combo.points, text,
                "R18" if kind == "sequence" else "§4.3", tuple(details))


def _combo_lines(item: str, combos: Sequence[Combo], seat: int | None, who: Text,
                 phase: str) -> list[Line]:
    """The lines of one act (a player's declarations, or a pair's captures), with the
    doubling of three or more cricche, or of three or more sequences."""
    lines = [_combo_line(item, c, seat, who) for c in combos]
    for kind in ("cricca", "sequence"):
        group = [c for c in combos if c.kind == kind]
        if len(group) >= 3:
            extra = sum(c.points for c in group)
            details: list[tuple[str, object]] = [("kind", kind), ("phase", phase)]
            if seat is not None:
                details.insert(0, ("seat", seat))
            lines.append(Line("doubling", extra,
                              Text("{who}: {n} cricche, so their {extra} points count double: "
                                   "{extra} more", who=who, n=len(group), extra=extra)
                              if kind == "cricca" else
                              Text("{who}: {n} sequences, so their {extra} points count double: "
                                   "{extra} more", who=who, n=len(group), extra=extra),
                              "§4.3", tuple(details)))
    return lines


def count_ottocento_combination(variant: Variant, combo: Combination, field: str,
                                problems: ProblemList) -> Counted | None:
    """A cricca or sequence a pile holds, said by kind: ``{"kind": "cricca", "type": "K",
    "count": 4}``, ``{"kind": "sequence", "type": "trumps", "count": 7}``."""
    before = len(problems.items)
    cricca = combo.kind == "cricca"
    rule = "§4.3" if cricca else "R18"
    for name in ("suit", "rank"):
        if getattr(combo, name) is not None:
            problems.add(f"{field}.{name}", "field_not_for_kind",
                         Text("a {kind} takes no {name}: its type says which it is",
                              kind=combo.kind, name=name), rule)
    types = tuple(CRICCA_POINTS) if cricca else tuple(SEQUENCE_NAMES)
    if combo.type is None or combo.type not in types:
        problems.add(f"{field}.type", "missing_field" if combo.type is None else "invalid_type",
                     Text("give the {kind}'s type, one of: {cards}", kind=combo.kind,
                          cards=', '.join(types)), rule)
    if combo.count is None:
        problems.add(f"{field}.count", "missing_field",
                     Text('give how many cards the {kind} holds', kind=combo.kind), rule)
    elif combo.type in types:
        most = 4 if cricca else longest_sequence(combo.type)
        if not 3 <= combo.count <= most:
            problems.add(f"{field}.count", "out_of_range",
                         Text("a {kind} of {type} holds 3 to {most} cards, not {count}",
                              kind=combo.kind, type=combo.type, most=most, count=combo.count), rule)
    if len(problems.items) > before or combo.type is None or combo.count is None:
        return None
    value = ComboByKind(combo.kind, combo.type, combo.count)
    if cricca:
        group = cricca_cards(combo.type)
        return Counted(value, rule, group if combo.count == 4 else frozenset(),
                       ((group, combo.count),))
    real = sequence_cards(combo.type)
    sure = {"trumps": ("ANGEL",), **{k: (f"K{k}",) for k in SEQUENCE_NAMES if len(k) == 1}}
    return Counted(value, rule,
                   frozenset(variant.pack.card(c) for c in sure.get(combo.type, ())),
                   ((real, max(2, combo.count - 2)),))


def _known_ottocento(variant: Variant, declared: Sequence[Declared],
                     sides: Sides) -> dict[int, set[Card]]:
    """The Angel ends with the pair of the player who showed it (§6)."""
    angel = variant.pack.card("ANGEL")
    return {sides.of(x.declaration.seat): {angel} for x in declared if angel in shown(x)}


def _pile_points(view: PileView, last: bool) -> tuple[int, int, int]:
    """(points, cards, values) of a pile, counted in pairs, with the last trick."""
    if view.every_card is not None:
        held = view.every_card
        return card_points(held, last), len(held), sum(card_value(c) for c in held)
    values = sum(card_value(c) for c in view.counting) + (view.cards - len(view.counting))
    return values - view.cards // 2 + (LAST_TRICK if last else 0), view.cards, values


def score_ottocento_hand(variant: Variant, options: Mapping[str, object], record: HandRecord,
                         incomplete: frozenset[str] = frozenset(), *,
                         dealt: Sequence[frozenset[Card]] | None = None,
                         waived: frozenset[str] = frozenset()) -> HandResult:
    """Check and score an Ottocento hand. The Angel and the Matto end with the pair of the
    player who showed or played them as the record says; ``dealt`` (a duplicate board's
    cards) is not read; no ruling of Ottocento only refuses records, so ``waived`` leaves
    nothing out."""
    problems = ProblemList()
    record, replay = replay_if_played(variant, options, record, incomplete, problems)
    sides = hand_sides(variant, record)
    check_forbidden_discards(variant, record, problems)
    if record.bagatto is not None:
        problems.add("bagatto", "not_in_variant", Text('Ottocento has no Bagatto ultimo'), "§4")
    declared = _check_declarations(variant, record, problems)
    if replay is not None:
        check_held([(x.index, x.declaration, shown(x)) for x in declared], replay.hands,
                   problems, "§4.3")
        _check_by_kind_held(declared, replay.hands, problems)

    stops_after_declarations = not record.piles and record.tricks is None
    views: dict[int, PileView] | None = None
    counted: dict[int, PointsView] | None = None
    if not stops_after_declarations and not incomplete & {"piles", "tricks"} and (
            record.tricks is None or replay is not None):
        if uses_points(record):
            counted = resolve_points_piles(variant, record, sides, problems,
                                           count_ottocento_combination,
                                           _known_ottocento(variant, declared, sides))
        else:
            views = resolve_piles(variant, record, sides, problems)
        if views is not None:
            check_discard_holder(variant, record, sides, views, problems)
            _check_kept_cards(variant, record, sides, declared, views, problems)
        if record.last_trick is None:
            problems.add("last_trick", "missing_field",
                         Text('say which seat won the last trick (6 points)'), "§4.1")
        elif (views is not None and views[sides.of(record.last_trick)].tricks == 0) or (
                counted is not None and counted[sides.of(record.last_trick)].points == 0):
            problems.add("last_trick", "disagrees_with_piles",
                         Text("{seat} won the last trick, but that pair's pile holds no "
                              "trick", seat=seat_name(record.last_trick)), "§4.1")
    problems.raise_if_any()
    if views is None and counted is None and not stops_after_declarations:
        raise RecordInvalid([])

    lines: dict[int, list[Line]] = {side: [] for side in range(len(sides))}
    acts: list[Act] = []
    leader = (record.dealer + 1) % variant.seats
    for seat in ((leader + k) % variant.seats for k in range(variant.seats)):
        mine = [x.combo for x in declared if x.declaration.seat == seat]
        if not mine:
            continue
        act = _combo_lines("declaration", mine, seat, seat_name(seat).capitalize(), "declared")
        lines[sides.of(seat)].extend(act)
        acts.append(Act(seat, str(sides.of(seat)), sum(line.points for line in act)))

    events: list[str] = []
    if counted is not None:
        assert record.last_trick is not None
        last_side = sides.of(record.last_trick)
        for side, count in sorted(counted.items()):
            who = side_name(sides, side).capitalize()
            held = [c.value for c in count.combinations if isinstance(c.value, ComboByKind)]
            lines[side].extend(_combo_lines("captured", held, None, who, "captured"))
            lines[side].append(points_line(variant, sides, count, "card_points",
                                           LAST_TRICK if side == last_side else 0, "§4.1"))
        if variant.discard_covering and counted[sides.of(record.dealer)].points == 0:
            events.append("discard_uncovered")
        events.append("entered_by_points")
    elif views is None:
        events.append("declarations_only")
    else:
        assert record.last_trick is not None
        last_side = sides.of(record.last_trick)
        for side, view in sorted(views.items()):
            who = side_name(sides, side).capitalize()
            captured: list[Combo] = []
            pile = view.every_card if view.every_card is not None else view.counting
            captured += cricche(pile)
            captured += best_sequences(pile)
            lines[side].extend(_combo_lines("captured", captured, None, who, "captured"))
            points, cards, values = _pile_points(view, side == last_side)
            last = LAST_TRICK if side == last_side else 0
            lines[side].append(Line(
                "card_points", points,
                Text("{who}: {cards} cards worth {values}, less {pairs} for the pairs{last}: "
                     "{points}{rest}", who=who, cards=cards, values=values, pairs=cards // 2,
                     last=Text(", and {n} for the last trick", n=last) if last else "",
                     points=points,
                     rest=Text(" (the rest of the pack)") if view.derived else ""),
                "§4.1",
                (("cards", cards), ("values", values), ("pairs", cards // 2),
                 ("last_trick", last), ("derived", view.derived))))
        if variant.discard_covering and views[sides.of(record.dealer)].tricks == 0:
            events.append("discard_uncovered")

    results = tuple(SideResult(i, sides.seats[i], tuple(lines[i])) for i in range(len(sides)))
    columns = tuple((str(s.side), s.total) for s in results)
    violations = replay.violations if replay is not None else ()
    facts = replay.facts() if replay is not None else ()
    return HandResult(results, columns, violations, tuple(events), facts, tuple(acts))


def suggest_ottocento_declarations(variant: Variant,
                                   cards: tuple[Card, ...]) -> list[dict[str, object]]:
    """Every cricca and every sequence the cards can declare, each at its longest, with the
    doubling a player earns by declaring them all (``POST /melds/suggest``)."""
    combos: list[Combo] = [*cricche(cards), *best_sequences(cards)]
    out: list[dict[str, object]] = []
    for combo in combos:
        kind = "cricca" if isinstance(combo, CriccaFound) else "sequence"
        codes = [c.code for c in combo.cards]
        out.append({"kind": kind, "type": combo.type, "cards": codes, "points": combo.points,
                    "label": combo.label, "declaration": {"kind": kind, "cards": codes}})
    for kind, cls in (("cricca", CriccaFound), ("sequence", SequenceFound)):
        group = [c for c in combos if isinstance(c, cls)]
        if len(group) >= 3:
            extra = sum(c.points for c in group)
            out.append({"kind": "doubling", "type": kind, "cards": [], "points": extra,
                        "label": f"{len(group)} {'cricche' if kind == 'cricca' else 'sequences'}"
                                 f" declared together count double"})
    return out
