"""Properties of the duplicate referee (docs/events.md#duplicate, #the-referee-knows-the-cards):

- a random board of every variant, played out by a legal discard and random legal plays, is
  accepted in every form a table can record it: trick by trick (with or without the discard),
  or by its piles of cards, of tricks and counting cards, or of points; with the
  declarations each seat's cards make, shown or said by kind; with the call or contract,
  the Fool's and the Bagatto's players, and the exposed cards. The scorer accepts it too, so
  these are real records;
- one card moved to the wrong seat (a trick, the discard, a declaration) is always named:
  the field, the board, the seat and the card.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from legal_play import play_out

from service.domain import VARIANTS, suggest_melds
from service.domain.core.cards import Card
from service.domain.core.errors import ProblemList, RecordInvalid
from service.domain.duplicate import Board, deal_board
from service.domain.duplicate.referee import board_checks, disagreements
from service.domain.hand.records import HandRecord, parse_hand_record
from service.domain.hand.replay import replay_if_played
from service.domain.hand.scoring import score_record
from service.domain.hand.sides import hand_sides
from service.domain.hand.tricks import trick_winner
from service.domain.options import resolve_options
from service.domain.variant import Variant

Json = dict[str, Any]
SETTINGS = settings(max_examples=40, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
variants = st.sampled_from(sorted(VARIANTS))
seeds = st.integers(min_value=0, max_value=2**31 - 1)
numbers = st.integers(min_value=1, max_value=200)


def _bid(variant: Variant, board: Board, held: dict[int, list[Card]]) -> Json:
    """The call or contract a table could make on this board: Gatti's dealer calls a King
    (its holder the partner; the dealer's own: alone); Mitigatti's dealer calls a King not
    held, or plays solo sans prendre holding them all."""
    dealer = board.dealer
    kings = [c for c in variant.pack.cards if c.is_plain and c.rank == "K"]
    if variant.partnership == "call":
        king = kings[board.number % 4]
        return {"call": {"card": king.code, "partner": board.holder(king)}}
    if variant.contracts:
        elsewhere = [k for k in kings if k not in held[dealer]]
        if elsewhere:
            king = elsewhere[0]
            return {"contract": {"type": "call", "declarer": dealer, "called_card": king.code,
                                 "partner": board.holder(king)}}
        return {"contract": {"type": "solo", "declarer": dealer, "sans_prendre": True}}
    return {}


def _declarations(variant: Variant, held: dict[int, list[Card]], by_kind: bool) -> list[Json]:
    """Every declaration each seat's cards make (after the discard), shown card by card or,
    where the kind says it, by kind."""
    out = []
    for seat, cards in held.items():
        for found in suggest_melds(variant, [c.code for c in cards]):
            if "declaration" not in found:  # Ottocento's doubling: no declaration of its own
                continue
            declaration = dict(found["declaration"])  # type: ignore[call-overload]
            kind = declaration["kind"]
            if by_kind and kind == "family":
                declaration = {"kind": kind, "suit": declaration["cards"][0][-1]}
            elif by_kind and kind in ("three_of_a_kind", "four_of_a_kind"):
                declaration = {"kind": kind, "rank": declaration["cards"][0][:-1]}
            elif by_kind and kind in ("frilli", "trumps"):
                declaration = {"kind": kind, "count": len(declaration["cards"])}
            elif by_kind and kind in ("gatti", "mitigatti", "quatre_rei"):
                declaration = {"kind": kind}
            out.append({"seat": seat, **declaration})
    return out


def played_board(variant: Variant, seed: int, number: int, rng: random.Random,
                 by_kind: bool) -> tuple[Board, Json, list[Card]]:
    """A board played out legally, as a trick record with its discard, bid, declarations
    and exposed cards; and the discard."""
    board = deal_board(variant, seed, number)
    keep = variant.pack.card("T1") if variant.bagatto is not None and rng.random() < 0.5 \
        else None
    record, discard = play_out(variant, board.hands, board.extra, board.dealer, rng, keep)
    held = {s: [c for c in (*board.hands[s], *(board.extra if s == board.dealer else ()))
                if c not in discard] for s in range(variant.seats)}
    record["discard"] = [c.code for c in discard]
    record.update(_bid(variant, board, held))
    record["declarations"] = _declarations(variant, held, by_kind)
    if board.exposed:
        record["exposed"] = [c.code for c in board.exposed[:rng.randint(1, len(board.exposed))]]
    return board, record, discard


def forms(variant: Variant, record: Json) -> dict[str, Json]:
    """The same hand in every form a table can record it."""
    options = resolve_options(variant, None)
    parsed = parse_hand_record(variant, record)
    derived, replay = replay_if_played(variant, options, parsed, frozenset(), ProblemList())
    assert replay is not None
    by_cards = derived.to_json()
    del by_cards["tricks"]
    out = {"tricks": record,
           "tricks_without_discard": {k: v for k, v in record.items() if k != "discard"},
           "tricks_without_partner": _without_partner(record),
           "piles_of_cards": by_cards}
    if variant.family == "ottocento":  # a pile of points also lists its combinations
        return out
    sides = hand_sides(variant, derived)
    won = Counter(sides.of(t.winner) for t in replay.tricks)
    discard = set(derived.discard or ())
    summary, points = [], []
    for pile in derived.piles:
        cards = pile.cards or ()
        tricks = won[pile.side] + bool(discard & set(cards))
        summary.append({"side": pile.side, "tricks": tricks,
                        "counting": [c.code for c in cards if c in variant.summary_cards]})
        points.append({"side": pile.side, "points": variant.deck_points(
            tricks, len(cards), sum(variant.card_points(c) for c in cards))})
    out["piles_summary"] = {**by_cards, "piles": summary}
    out["piles_of_points"] = {**by_cards, "piles": points}
    return out


def _without_partner(record: Json) -> Json:
    """A trick record need not say who held the called card: the tricks show it."""
    out = dict(record)
    for name in ("call", "contract"):
        if name in out:
            out[name] = {k: v for k, v in out[name].items() if k != "partner"}
    return out


def _referee(variant: Variant, board: Board, record: Json) -> HandRecord:
    parsed = parse_hand_record(variant, record)
    assert disagreements(parsed, board, variant) == ()
    return parsed


@SETTINGS
@given(variants, seeds, numbers, st.randoms(use_true_random=False), st.booleans())
def test_a_board_played_legally_is_accepted_in_every_record_form(
        variant_id: str, seed: int, number: int, rng: random.Random, by_kind: bool) -> None:
    variant = VARIANTS[variant_id]
    board, record, _ = played_board(variant, seed, number, rng, by_kind)
    options = resolve_options(variant, None)
    for name, form in forms(variant, record).items():
        _referee(variant, board, form)
        try:
            score_record(variant, options, form, checks=board_checks(board, variant))
        except RecordInvalid as exc:  # pragma: no cover - the message says which form
            raise AssertionError(f"{name}: {exc}") from exc


def _problems(variant: Variant, board: Board, record: Json) -> tuple[Any, ...]:
    return disagreements(parse_hand_record(variant, record), board, variant)


@SETTINGS
@given(variants, seeds, numbers, st.randoms(use_true_random=False))
def test_a_card_played_by_the_wrong_seat_is_named(variant_id: str, seed: int, number: int,
                                                  rng: random.Random) -> None:
    """Two cards of one trick change places: the first of them is now played by a seat that
    was not dealt it (the trick's seats follow from the tricks before it)."""
    variant = VARIANTS[variant_id]
    board, record, _ = played_board(variant, seed, number, rng, False)
    i = rng.randrange(len(record["tricks"]))
    trick = record["tricks"][i]
    a, b = rng.sample(range(len(trick)), 2)
    trick[a], trick[b] = trick[b], trick[a]
    card = variant.pack.card(trick[a])
    leader = _leader(variant, board, record, i)
    seat = (leader + a) % variant.seats
    problems = _problems(variant, board, record)
    assert any(p.field == f"tricks[{i}][{a}]" and p.code == "not_dealt"
               and p.message == (f"board {board.number}: seat {seat} played {card.code} to "
                                 f"trick {i + 1}, but was not dealt it") for p in problems), \
        problems


def _leader(variant: Variant, board: Board, record: Json, index: int) -> int:
    """Who leads trick ``index``, replayed from the board's dealer."""
    leader = (board.dealer + 1) % variant.seats
    for trick in record["tricks"][:index]:
        cards = [variant.pack.card(c) for c in trick]
        leader = (leader + trick_winner(variant, cards)) % variant.seats
    return leader


@SETTINGS
@given(variants, seeds, numbers, st.randoms(use_true_random=False))
def test_a_discarded_card_of_another_seat_is_named(variant_id: str, seed: int, number: int,
                                                   rng: random.Random) -> None:
    """The record's discard holds a card another seat was dealt, in place of one of the
    dealer's."""
    variant = VARIANTS[variant_id]
    board, record, _ = played_board(variant, seed, number, rng, False)
    seat = rng.choice([s for s in range(variant.seats) if s != board.dealer])
    card = rng.choice(board.hands[seat])
    k = rng.randrange(len(record["discard"]))
    record["discard"][k] = card.code
    problems = _problems(variant, board, {k: v for k, v in record.items() if k != "tricks"})
    assert any(p.field == f"discard[{k}]" and p.code == "not_dealt"
               and p.message == (f"board {board.number}: the dealer, seat {board.dealer}, "
                                 f"was not dealt {card.code}")
               for p in problems), problems


@SETTINGS
@given(variants, seeds, numbers, st.randoms(use_true_random=False))
def test_a_declared_card_of_another_seat_is_named(variant_id: str, seed: int, number: int,
                                                  rng: random.Random) -> None:
    """A declaration shows, in place of one of its cards, a card another seat was dealt."""
    variant = VARIANTS[variant_id]
    board, record, _ = played_board(variant, seed, number, rng, False)
    shown = [d for d in record["declarations"] if d.get("cards")]
    declarer = rng.randrange(variant.seats)
    if not shown:
        shown = [{"seat": declarer, "kind": variant.melds[0].kind, "cards": []}]
    declaration = rng.choice(shown)
    seat = declaration["seat"]
    other = rng.choice([s for s in range(variant.seats) if s != seat])
    card = rng.choice([c for c in board.hands[other] if c not in board.extra])
    declaration["cards"] = [*declaration["cards"], card.code]
    k = len(declaration["cards"]) - 1
    record["declarations"] = [declaration]
    problems = _problems(variant, board, {k: v for k, v in record.items() if k != "tricks"})
    assert any(p.field == f"declarations[0].cards[{k}]" and p.code == "not_dealt"
               and p.message == f"board {board.number}: seat {seat} was not dealt {card.code}"
               for p in problems), problems
