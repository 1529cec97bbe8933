"""Validation and scoring of a Gatti hand from its record (RULES §2, §3, §6; R1, R2, R5–R8).

``score_gatti_hand`` checks everything a record without a trick list can reveal — the discard,
the call, every declaration on its own and against the others, the piles against the pack and
the hand's total, the Fool and the Bagatto against where their cards ended — and reports every
breach at once. Only then does it score, line by line: hand melds (with R1's upgrades),
captured melds, Bagatto ultimo, deck points.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import Card
from .errors import ProblemList, RecordInvalid
from .gatti_replay import replay_gatti_tricks
from .melds import CheckedMeld, captured_melds, card_class, check_declaration, class_sizes
from .results import HandResult, Line, SideResult

if TYPE_CHECKING:
    from .records import HandRecord, Pile
    from .variants.base import Variant


@dataclass(frozen=True)
class Sides:
    """Who plays with whom in this hand: ``seats[i]`` are the seats of side ``i``."""

    seats: tuple[tuple[int, ...], ...]

    def of(self, seat: int) -> int:
        return next(i for i, seats in enumerate(self.seats) if seat in seats)

    def __len__(self) -> int:
        return len(self.seats)


def hand_sides(variant: Variant, record: HandRecord) -> Sides:
    """The sides of the hand: fixed by the variant, or formed by the dealer's call (§2.2)."""
    fixed = variant.fixed_sides()
    if fixed is not None:
        return Sides(fixed)
    team = {record.dealer}
    if record.call is not None and record.call.partner is not None:
        team.add(record.call.partner)
    rest = tuple(s for s in range(variant.seats) if s not in team)
    return Sides((tuple(sorted(team)), rest))


def seat_name(seat: int) -> str:
    return f"seat {seat}"


def side_name(sides: Sides, side: int) -> str:
    seats = sides.seats[side]
    return seat_name(seats[0]) if len(seats) == 1 else "seats " + " and ".join(map(str, seats))


# -- the discard and the call ----------------------------------------------------------------


def _check_discard(variant: Variant, record: HandRecord, melds: Sequence[tuple[int, CheckedMeld]],
                   problems: ProblemList) -> None:
    discard = record.discard or ()
    for i, card in enumerate(discard):
        if card.rank in variant.discard_forbidden_ranks and card.is_plain:
            problems.add(f"discard[{i}]", "king_discarded",
                         f"{card.code}: Kings may not be discarded", "§2.3")
    t1 = variant.pack.card("T1")
    if not variant.discard_t1_only_sole_trump or t1 not in discard:
        return
    others = [c.code for c in discard if c.is_trump and c != t1]
    if others:
        problems.add("discard", "bagatto_not_sole_trump",
                     f"T1 may be discarded only as the dealer's sole trump, but the discard "
                     f"also holds {', '.join(others)}", "§2.3")
    for i, meld in melds:
        if meld.declaration.seat == record.dealer and (
            meld.rule.kind == "trumps" or any(c.is_trump and c != t1 for c in meld.cards)
        ):
            problems.add("discard", "bagatto_not_sole_trump",
                         f"T1 may be discarded only as the dealer's sole trump, but the dealer "
                         f"declared {meld.label} (declarations[{i}]), showing other trumps",
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
                     f"the dealer calls a King (a Queen when holding all four), not {card.code}",
                     "§2.2")
        return
    shown_by = {c: m.declaration.seat for _, m in melds for c in m.cards}
    if card.rank == "Q":
        kings_elsewhere = sorted({m.declaration.seat for _, m in melds
                                  if m.declaration.seat != record.dealer
                                  and dict(m.needs).get("rank:K", 0) > 0})
        if kings_elsewhere:
            problems.add("call.card", "queen_called_without_four_kings",
                         f"a Queen may be called only by a dealer holding all four Kings, but "
                         f"seat {kings_elsewhere[0]} declared a King", "§2.2")
    holder = shown_by.get(card)
    if holder is not None and holder != call.partner:
        problems.add("call.partner", "call_partner_mismatch",
                     f"{card.code} was shown by seat {holder}, so seat {holder} is the partner",
                     "§2.2")
    if record.discard and card in record.discard and call.partner != record.dealer:
        problems.add("call.partner", "call_partner_mismatch",
                     f"{card.code} is in the dealer's discard, so the dealer plays alone",
                     "§2.2")


# -- declarations ----------------------------------------------------------------------------


def _check_declarations(variant: Variant, record: HandRecord, melds_option: str,
                        problems: ProblemList,
                        hands: Mapping[int, frozenset[Card]] | None = None,
                        ) -> list[tuple[int, CheckedMeld]]:
    if record.declarations and melds_option in ("none", "captured"):
        problems.add("declarations", "hand_melds_not_played",
                     "this game does not score melds declared from the hand (option melds = "
                     f"{melds_option!r})", "§2.4")
        return []
    checked: list[tuple[int, CheckedMeld]] = []
    for i, d in enumerate(record.declarations):
        meld, found = check_declaration(variant, d, f"declarations[{i}]")
        problems.extend(found)
        if meld is not None:
            checked.append((i, meld))

    discard = set(record.discard or ())
    first_shown: dict[Card, tuple[int, int]] = {}
    for i, meld in checked:
        d = meld.declaration
        for k, card in enumerate(meld.cards):
            at = f"declarations[{i}].cards[{k}]" if d.cards is not None else f"declarations[{i}]"
            if card in discard:
                problems.add(at, "discarded_card_declared",
                             f"{card.code} is in the dealer's discard and cannot be shown",
                             "R2")
                continue
            seen = first_shown.setdefault(card, (d.seat, i))
            if seen[0] != d.seat:
                problems.add(at, "shown_by_two_players",
                             f"{card.code} was already shown by seat {seen[0]} "
                             f"(declarations[{seen[1]}])", "R2")

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
    in_play = class_sizes(variant) - Counter(card_class(c) for c in discard)
    need_by_class: Counter[str] = Counter()
    for seat in set(explicit) | set(counted):
        need = Counter(card_class(c) for c in explicit[seat])
        need |= counted[seat]
        need_by_class.update(need)
        if sum(need.values()) > variant.dealt_each:
            problems.add("declarations", "more_than_a_hand",
                         f"seat {seat}'s declarations need {sum(need.values())} cards; a hand "
                         f"holds {variant.dealt_each}", "R2")
    names = {"trump": "trumps", "pip": "pip cards", "fool": "Fools"}
    for cls, n in sorted(need_by_class.items()):
        if n > in_play[cls]:
            what = names.get(cls, f"{cls.removeprefix('rank:')}s")
            problems.add("declarations", "more_than_the_pack",
                         f"the declarations need {n} {what} between them, but only "
                         f"{in_play[cls]} are in play", "R2")
    return checked


def _check_held(melds: Sequence[tuple[int, CheckedMeld]], hands: Mapping[int, frozenset[Card]],
                problems: ProblemList) -> None:
    """A trick record shows each hand: every declaration must be made of cards its player
    played (R2)."""
    for i, meld in melds:
        seat = meld.declaration.seat
        hand = hands.get(seat, frozenset())
        missing = [c.code for c in meld.cards if c not in hand]
        held = Counter(card_class(c) for c in hand)
        short = [(cls, n) for cls, n in meld.needs if held[cls] < n]
        if missing or short:
            what = (", ".join(missing) if missing else
                    ", ".join(f"{n} {cls.removeprefix('rank:')}" for cls, n in short))
            problems.add(f"declarations[{i}]", "not_held",
                         f"seat {seat} declared {meld.label}, but the tricks show it did not "
                         f"hold {what}", "R2")


# -- piles -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PileView:
    """A side's pile as the scorer sees it, whichever form the table gave (or derived)."""

    side: int
    tricks: int
    cards: int
    counting: frozenset[Card]
    every_card: frozenset[Card] | None
    derived: bool
    holds_discard: bool | None = None


def _pile_size(variant: Variant, tricks: int, holds_discard: bool) -> int:
    if tricks == 0:
        return 0
    return variant.trick_size * tricks - (variant.trick_size - variant.extra) * holds_discard


def _tricks_in(variant: Variant, size: int, holds: bool | None) -> tuple[int, bool | None] | None:
    """Tricks in a full pile of ``size`` cards, the discard counting as one, and whether the
    pile holds the discard. ``holds`` is what the recorded discard says, or None where the
    record has no discard and only the size can tell. None when the size is no whole number of
    tricks for such a pile."""
    ts, extra = variant.trick_size, variant.extra
    plain_ok = size % ts == 0
    discard_ok = size >= extra and (size - extra) % ts == 0
    if holds is None:
        if plain_ok and discard_ok:
            return size // ts, None
        holds = discard_ok
    if holds:
        return ((size - extra) // ts + 1, True) if discard_ok else None
    return (size // ts, False) if plain_ok else None


def _resolve_piles(variant: Variant, record: HandRecord, sides: Sides,
                   problems: ProblemList) -> dict[int, PileView] | None:
    piles: dict[int, tuple[int, Pile]] = {}
    for i, pile in enumerate(record.piles):
        if pile.side >= len(sides):
            problems.add(f"piles[{i}].side", "out_of_range",
                         f"this hand has sides 0 to {len(sides) - 1}", "§0")
        elif pile.side in piles:
            problems.add(f"piles[{i}].side", "duplicate_pile",
                         f"side {pile.side} already has a pile (piles[{piles[pile.side][0]}])")
        else:
            piles[pile.side] = (i, pile)
    if not record.piles:
        problems.add("piles", "missing_field",
                     "give each side's pile at the end of the hand (all but one side's is "
                     "enough: the last is the rest of the pack)", "§2.6")
        return None
    missing = [s for s in range(len(sides)) if s not in piles]
    if len(missing) > 1:
        problems.add("piles", "piles_missing",
                     f"give the piles of all sides but one; sides {missing} are missing",
                     "§2.6")
        return None

    counting_cards = variant.counting_cards
    owner: dict[Card, int] = {}
    views: dict[int, PileView] = {}
    ok = True
    for side, (i, pile) in sorted(piles.items()):
        listed = pile.cards if pile.cards is not None else pile.counting or ()
        part = "cards" if pile.cards is not None else "counting"
        for k, card in enumerate(listed):
            if card in owner:
                problems.add(f"piles[{i}].{part}[{k}]", "card_in_two_piles",
                             f"{card.code} is also in side {owner[card]}'s pile", "§6")
                ok = False
            owner.setdefault(card, side)
            if pile.cards is None and card not in counting_cards:
                problems.add(f"piles[{i}].counting[{k}]", "not_a_counting_card",
                             f"{card.code} is not a counting card; list only counting cards "
                             "in a summary", "§2.1")
                ok = False
        if pile.cards is not None:
            holds = None if not record.discard else bool(set(record.discard) & set(pile.cards))
            found = _tricks_in(variant, len(pile.cards), holds)
            if found is None:
                shape = {None: f"a whole number of tricks of {variant.trick_size}, plus the "
                               f"discard's {variant.extra} where it holds the discard",
                         True: f"the discard's {variant.extra} plus whole tricks of "
                               f"{variant.trick_size}, as it holds the discard",
                         False: f"whole tricks of {variant.trick_size}, as it does not hold "
                                "the discard"}[holds]
                problems.add(f"piles[{i}].cards", "pile_not_whole_tricks",
                             f"{len(pile.cards)} cards: a pile holds {shape}", "§2.6")
                ok = False
                continue
            views[side] = PileView(side, found[0], len(pile.cards),
                                   frozenset(pile.cards) & counting_cards,
                                   frozenset(pile.cards), False, found[1])
        else:
            assert pile.tricks is not None
            if pile.tricks == 0 and pile.counting:
                problems.add(f"piles[{i}].counting", "cards_without_tricks",
                             "a side that took no trick has no cards in its pile", "§2.6")
                ok = False
            views[side] = PileView(side, pile.tricks, -1, frozenset(pile.counting or ()),
                                   None, False)
    if not ok:
        return None

    dealer_side = sides.of(record.dealer)
    if missing:
        side = missing[0]
        tricks = variant.tricks_per_hand - sum(v.tricks for v in views.values())
        if tricks < 0:
            problems.add("piles", "tricks_total",
                         f"the piles given hold {variant.tricks_per_hand - tricks} tricks; a "
                         f"hand has {variant.tricks_per_hand} (the discard counted as one)",
                         "R5")
            return None
        full = None
        if all(v.every_card is not None for v in views.values()):
            full = frozenset(variant.pack.cards).difference(*(v.every_card or () for v in
                                                              views.values()))
        views[side] = PileView(side, tricks, -1,
                               counting_cards.difference(*(v.counting for v in views.values())),
                               full, True)

    # Sizes of summary piles follow from who holds the discard (§2.3 covering).
    dealer_tricks = views[dealer_side].tricks
    for side, view in list(views.items()):
        if view.cards >= 0:
            continue
        if view.every_card is not None:
            size = len(view.every_card)
        else:
            holds = (side == dealer_side and dealer_tricks > 0) or (
                side != dealer_side and dealer_tricks == 0 and view.tricks > 0
                and len(sides) == 2)
            size = _pile_size(variant, view.tricks, holds)
        views[side] = PileView(side, view.tricks, size, view.counting, view.every_card,
                               view.derived)

    total_tricks = sum(v.tricks for v in views.values())
    gone = counting_cards.difference(*(v.counting for v in views.values()))
    if total_tricks != variant.tricks_per_hand or gone:
        deck = [variant.deck_points(v.tricks, v.cards, sum(variant.card_points(c)
                                                             for c in v.counting))
                for _, v in sorted(views.items())]
        reasons = []
        if total_tricks != variant.tricks_per_hand:
            reasons.append(f"the piles hold {total_tricks} tricks, not "
                           f"{variant.tricks_per_hand} (the discard counted as one)")
        if gone:
            reasons.append("no pile holds " + ", ".join(c.code for c in variant.pack.sort(gone)))
        problems.add("piles", "deck_points_total",
                     f"deck points must total {variant.deck_total}; these piles give "
                     f"{' + '.join(map(str, deck))} = {sum(deck)}: {'; '.join(reasons)}", "R5")
        return None
    if all(v.every_card is not None for v in views.values()):
        absent = frozenset(variant.pack.cards).difference(*(v.every_card or ()
                                                            for v in views.values()))
        if absent:
            problems.add("piles", "cards_missing",
                         "the piles must hold the whole pack; missing: "
                         + ", ".join(c.code for c in variant.pack.sort(absent)), "§6")
            return None
    crowded = False
    for side, view in sorted(views.items()):
        if len(view.counting) > view.cards:
            at = f"piles[{piles[side][0]}].counting" if side in piles else "piles"
            whose = (f"side {side}'s pile" if side in piles
                     else f"side {side}'s pile (the rest of the pack)")
            problems.add(at, "more_counting_cards_than_pile",
                         f"{whose} holds {view.tricks} tricks, {view.cards} cards, but "
                         f"{len(view.counting)} counting cards", "§2.6")
            crowded = True
    return None if crowded else views


def _check_discard_holder(variant: Variant, record: HandRecord, sides: Sides,
                          views: Mapping[int, PileView], problems: ProblemList) -> None:
    """The discard counts for the dealer's side; uncovered, it goes to the last trick's winner
    (3-handed) or to the opponents (4-handed) (§2.3)."""
    dealer_side = sides.of(record.dealer)
    dealer_tricks = views[dealer_side].tricks
    if variant.discard_covering and dealer_tricks == 1:
        problems.add("piles", "discard_not_covered",
                     f"{side_name(sides, dealer_side)} (the dealer's side) holds only the "
                     "discard: a discard the dealer's side does not cover with a trick goes to "
                     + ("the winner of the last trick" if len(sides) > 2 else "the opponents"),
                     "§2.3")
    if not variant.discard_covering and dealer_tricks == 0:
        problems.add("piles", "discard_outside_dealer_side",
                     "the discard always belongs to the dealer's side, which must hold it",
                     "§3")
    if record.discard:
        holders = {side for side, v in views.items()
                   for card in record.discard
                   if card in (v.every_card if v.every_card is not None else v.counting)}
    else:
        holders = {side for side, v in views.items() if v.holds_discard}
    if len(holders) > 1:
        problems.add("piles", "discard_split",
                     "the discard's cards are in different piles; it stays together", "§2.3")
        return
    if not holders:
        return
    holder = next(iter(holders))
    if holder != dealer_side and dealer_tricks > 0:
        problems.add("piles", "discard_outside_dealer_side",
                     f"the discard is in {side_name(sides, holder)}'s pile, but the dealer's "
                     "side took tricks and so covered it", "§2.3")
    bagatto = record.bagatto
    if holder != dealer_side and len(sides) > 2 and bagatto is not None:
        # The uncovered discard goes to the last trick's winner, whom the Bagatto names.
        bagatto_side = sides.of(bagatto.seat)
        if bagatto.won and holder != bagatto_side:
            problems.add("piles", "discard_outside_dealer_side",
                         f"the uncovered discard goes to the last trick's winner, seat "
                         f"{bagatto.seat} (who won it with T1), not to "
                         f"{side_name(sides, holder)}", "§2.3")
        elif not bagatto.won and holder == bagatto_side:
            problems.add("piles", "discard_outside_dealer_side",
                         f"the uncovered discard goes to the last trick's winner, but seat "
                         f"{bagatto.seat} lost the last trick with T1", "§2.3")


def _pile_of(card: Card, views: Mapping[int, PileView]) -> int | None:
    for side, v in views.items():
        if card in (v.every_card if v.every_card is not None else v.counting):
            return side
    return None


def _check_fool(variant: Variant, record: HandRecord, sides: Sides,
                melds: Sequence[tuple[int, CheckedMeld]], views: Mapping[int, PileView] | None,
                problems: ProblemList) -> None:
    fool_rec = record.fool
    if fool_rec is None:
        return
    fool = variant.pack.fool
    if record.discard and fool in record.discard:
        problems.add("fool.played_by", "fool_discarded",
                     "the Fool is in the dealer's discard and was not played", "§2.5")
        return
    for i, meld in melds:
        if fool in meld.cards and meld.declaration.seat != fool_rec.played_by:
            problems.add("fool.played_by", "fool_held_by_other",
                         f"seat {meld.declaration.seat} showed the Fool (declarations[{i}])",
                         "§2.5")
    # A Fool in the last trick stays with its side only when a partner won that trick; a
    # player alone cannot win it with the Fool, and no later trick can cover it.
    if fool_rec.covered and fool_rec.trick == variant.dealt_each \
            and len(sides.seats[sides.of(fool_rec.played_by)]) == 1:
        problems.add("fool.covered", "fool_cannot_be_covered",
                     "a Fool played to the last trick cannot be covered: no trick follows",
                     "§2.5")
    if views is None or fool_rec.covered is None:
        return
    where = _pile_of(fool, views)
    own = sides.of(fool_rec.played_by)
    if fool_rec.covered and where is not None and where != own:
        problems.add("fool.covered", "fool_misplaced",
                     f"a covered Fool stays with its player's side, but it is in "
                     f"{side_name(sides, where)}'s pile", "§2.5")
    if not fool_rec.covered and where == own and not variant.has_pairs \
            and variant.partnership != "call":
        problems.add("fool.covered", "fool_misplaced",
                     "an uncovered Fool goes to the winner of its trick, but it is in its "
                     "player's own pile", "§2.5")


def _check_bagatto(variant: Variant, options: Mapping[str, object], record: HandRecord,
                   sides: Sides, melds: Sequence[tuple[int, CheckedMeld]],
                   views: Mapping[int, PileView] | None, problems: ProblemList) -> None:
    rec = record.bagatto
    if rec is None:
        return
    rule = variant.bagatto
    if rule is None or (rule.optional and not options.get("bagatto_ultimo", True)):
        problems.add("bagatto", "bagatto_ultimo_off",
                     "this game does not play Bagatto ultimo", rule.rule if rule else None)
        return
    if not rec.valid:
        problems.add("bagatto.valid", "not_in_variant",
                     f"{variant.id} sets no condition on Bagatto ultimo: omit valid", rule.rule)
    t1 = variant.pack.card("T1")
    if record.discard and t1 in record.discard:
        problems.add("bagatto.seat", "bagatto_discarded",
                     "T1 is in the dealer's discard, so nobody played it to the last trick",
                     rule.rule)
        return
    for i, meld in melds:
        if t1 in meld.cards and meld.declaration.seat != rec.seat:
            problems.add("bagatto.seat", "bagatto_held_by_other",
                         f"seat {meld.declaration.seat} showed T1 (declarations[{i}])",
                         rule.rule)
    if views is None:
        return
    where = _pile_of(t1, views)
    own = sides.of(rec.seat)
    if where is None:
        return
    if rec.won and where != own:
        problems.add("bagatto.won", "bagatto_misplaced",
                     f"T1 won the last trick, so it is in its own side's pile, not "
                     f"{side_name(sides, where)}'s", rule.rule)
    if not rec.won and where == own and len(sides.seats[own]) == 1:
        problems.add("bagatto.won", "bagatto_misplaced",
                     "T1 lost the last trick, so it is in the winner's pile, not its "
                     "player's", rule.rule)


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
        if before:
            text = (f"{seat_name(d.seat).capitalize()} declared {meld.label}, worth "
                    f"{meld.points}: {points} more than the {before} already scored for it")
            rule = "R1"
        else:
            text = f"{seat_name(d.seat).capitalize()} declared {meld.label}: {points}"
            rule = "§2.4" if variant.rules_section == "§2" else "§3"
        lines.append((d.seat, Line("meld", points, text, rule, tuple(details))))
    return lines


def score_gatti_hand(variant: Variant, options: Mapping[str, object], record: HandRecord,
                     incomplete: frozenset[str] = frozenset()) -> HandResult:
    """Check and score a Gatti hand. ``incomplete`` names record sections that were
    malformed and left out: checks that need them are skipped (their problems are already
    reported), every other check still runs."""
    problems = ProblemList()
    replay = None
    if record.tricks is not None and "tricks" not in incomplete:
        replay = replay_gatti_tricks(variant, options, record,
                                     lambda r: hand_sides(variant, r), problems)
        if replay is not None:
            record = replay.record
    sides = hand_sides(variant, record)
    melds_option = str(options.get("melds", "hand"))
    melds = _check_declarations(variant, record, melds_option, problems,
                                replay.hands if replay is not None else None)
    _check_discard(variant, record, melds, problems)
    _check_call(variant, record, melds, problems)
    views = None
    if not incomplete & {"piles", "call", "tricks"} and (record.tricks is None or replay):
        views = _resolve_piles(variant, record, sides, problems)
    if views is not None:
        _check_discard_holder(variant, record, sides, views, problems)
    _check_fool(variant, record, sides, melds, views, problems)
    _check_bagatto(variant, options, record, sides, melds, views, problems)
    problems.raise_if_any()
    if views is None:
        raise RecordInvalid([])

    lines: dict[int, list[Line]] = defaultdict(list)
    for seat, line in _meld_lines(variant, melds):
        lines[sides.of(seat)].append(line)
    if melds_option in ("captured", "both"):
        for side, view in sorted(views.items()):
            for meld in captured_melds(variant, view.every_card or view.counting):
                lines[side].append(Line(
                    "captured_meld", meld.points,
                    f"{side_name(sides, side).capitalize()} captured {meld.label}: "
                    f"{meld.points}", "R8",
                    (("kind", meld.rule.kind), ("mark", meld.mark),
                     ("cards", [c.code for c in meld.cards]))))
    if record.bagatto is not None and variant.bagatto is not None:
        rule, rec = variant.bagatto, record.bagatto
        own = sides.of(rec.seat)
        facts = (("seat", rec.seat), ("won", rec.won), ("mark", "B"))
        if rec.won:
            lines[own].append(Line("bagatto_ultimo", rule.win,
                                   f"Seat {rec.seat} won the last trick with T1: {rule.win}",
                                   rule.rule, facts))
        else:
            for side in range(len(sides)):
                if side != own and rule.lose_each_opponent:
                    lines[side].append(Line(
                        "bagatto_ultimo", rule.lose_each_opponent,
                        f"Seat {rec.seat} lost the last trick with T1: "
                        f"{rule.lose_each_opponent} to {side_name(sides, side)}",
                        rule.rule, facts))
            if rule.lose_own:
                lines[own].append(Line(
                    "bagatto_ultimo", rule.lose_own,
                    f"Seat {rec.seat} lost the last trick with T1: {rule.lose_own} to its "
                    "own side", rule.rule, facts))
    for side, view in sorted(views.items()):
        counting = sum(variant.card_points(c) for c in view.counting)
        points = variant.deck_points(view.tricks, view.cards, counting)
        trick_points = points - counting
        held = [c.code for c in variant.pack.sort(view.counting)]
        lines[side].append(Line(
            "deck_points", points,
            f"{side_name(sides, side).capitalize()}: {view.tricks} tricks, "
            f"{trick_points} trick points, + {counting} in counting cards"
            f"{' (' + ' '.join(held) + ')' if held else ''}"
            + (" (the rest of the pack)" if view.derived else ""),
            "§2.6" if variant.rules_section == "§2" else "§3",
            (("tricks", view.tricks), ("trick_points", trick_points), ("counting", counting),
             ("counting_cards", held), ("derived", view.derived))))

    side_results = tuple(SideResult(i, sides.seats[i], tuple(lines[i]))
                         for i in range(len(sides)))
    if variant.columns_per_seat:
        columns = tuple((str(seat), side_results[sides.of(seat)].total)
                        for seat in range(variant.seats))
    else:
        columns = tuple((str(s.side), s.total) for s in side_results)
    events = []
    dealer_side = sides.of(record.dealer)
    if variant.discard_covering and views[dealer_side].tricks == 0:
        events.append("discard_uncovered")
    if record.call is not None and record.call.partner == record.dealer:
        events.append("dealer_alone")
    if record.fool is not None and record.fool.covered is False:
        events.append("fool_handed_over")
    if replay is not None:
        return HandResult(side_results, columns, replay.violations, tuple(events),
                          replay.facts())
    return HandResult(side_results, columns, (), tuple(events))
