"""The referee knows the cards (docs/events.md#duplicate, #the-referee-knows-the-cards): one test
per clause, named after it. Every part of a record the deal fixes agrees with the board or is
a problem naming the field, the board, the seat and the card; what the deal cannot fix is the
scorer's, as for any hand."""

from __future__ import annotations

from typing import Any

import pytest

from service.domain import (
    Board,
    RecordInvalid,
    board_checks,
    disagreements,
    find_variant,
    parse_hand_record,
    read_hand_record,
    resolve_options,
    score_record,
)
from service.domain.core.cards import Card
from service.domain.duplicate import deal_board
from service.domain.variant import Variant

Json = dict[str, Any]
SEED = 2026


def board_of(variant_id: str, number: int = 1) -> tuple[Variant, Board]:
    variant = find_variant(variant_id)
    return variant, deal_board(variant, SEED, number)


def problems(variant: Variant, board: Board, record: Json) -> list[tuple[str, str, str]]:
    found = disagreements(parse_hand_record(variant, record), board, variant)
    return [(p.field, p.code, p.message) for p in found]


def other_seat(variant: Variant, seat: int) -> int:
    return (seat + 1) % variant.seats


def held(board: Board, seat: int) -> tuple[Card, ...]:
    return board.hands[seat] + (board.extra if seat == board.dealer else ())


def first(board: Board, seat: int, wanted: Any) -> Card:
    return next(c for c in held(board, seat) if wanted(c))


def test_the_dealer_is_the_boards() -> None:
    variant, board = board_of("gatti-3", 2)
    assert problems(variant, board, {"dealer": board.dealer}) == []
    wrong = other_seat(variant, board.dealer)
    assert problems(variant, board, {"dealer": wrong}) == [
        ("dealer", "not_the_boards_dealer", f"board 2 is not dealt by seat {wrong}")]


def test_the_dealers_discard_comes_from_the_dealers_cards_and_extra_cards() -> None:
    variant, board = board_of("gatti-4", 3)
    own = [board.extra[0].code, board.hands[board.dealer][0].code]
    assert problems(variant, board, {"dealer": board.dealer, "discard": own}) == []
    seat = other_seat(variant, board.dealer)
    stranger = board.hands[seat][-1]
    assert problems(variant, board, {"dealer": board.dealer,
                                     "discard": [own[0], stranger.code]}) == [
        ("discard[1]", "not_dealt",
         f"board 3: the dealer, seat {board.dealer}, was not dealt {stranger.code}")]


def test_exposed_cards_are_the_boards() -> None:
    variant, board = board_of("gatti-4", 1)
    record = {"dealer": board.dealer, "exposed": [c.code for c in board.exposed[:2]]}
    assert problems(variant, board, record) == []
    hidden = next(c for c in board.hands[2] if c not in board.exposed)
    record["exposed"] = [board.exposed[0].code, hidden.code]
    assert problems(variant, board, record) == [
        ("exposed[1]", "not_exposed", f"board 1: {hidden.code} was not exposed")]


def test_a_declared_meld_is_made_of_cards_its_declarer_held() -> None:
    variant, board = board_of("gatti-3", 1)
    seat = other_seat(variant, board.dealer)
    mine = [c for c in board.hands[seat] if c.is_trump][:2]
    theirs = next(c for c in board.hands[board.dealer] if c.is_trump)
    cards = [c.code for c in (*mine, theirs)]
    record = {"dealer": board.dealer,
              "declarations": [{"seat": seat, "kind": "trumps", "cards": cards}]}
    assert problems(variant, board, record) == [
        ("declarations[0].cards[2]", "not_dealt",
         f"board 1: seat {seat} was not dealt {theirs.code}")]


def test_a_meld_said_by_kind_needs_the_cards_its_kind_fixes() -> None:
    """A family, four of a kind and gatti fix their cards: each one missing is named."""
    variant, board = board_of("gatti-4", 5)
    seat = 0
    for kind, fields in (("family", {"suit": "H"}), ("four_of_a_kind", {"rank": "K"}),
                         ("gatti", {})):
        record = {"dealer": board.dealer,
                  "declarations": [{"seat": seat, "kind": kind, **fields}]}
        found = problems(variant, board, record)
        meld = {"family": ["JH", "CH", "QH", "KH"], "four_of_a_kind": ["KH", "KD", "KC", "KS"],
                "gatti": ["FOOL", "T1", "T21"]}[kind]
        missing = [code for code in meld if variant.pack.card(code) not in held(board, seat)]
        assert [(f, code) for f, code, _ in found] == [("declarations[0]", "not_dealt")] * len(
            missing)
        for code, (_, _, message) in zip(missing, found, strict=True):
            assert message == f"board 5: seat 0 was not dealt {code}"


def test_a_meld_said_by_its_count_needs_as_many_cards_of_its_class() -> None:
    variant, board = board_of("gatti-3", 4)
    seat = other_seat(variant, board.dealer)
    trumps = sum(1 for c in board.hands[seat] if c.is_trump)
    record: Json = {"dealer": board.dealer,
                    "declarations": [{"seat": seat, "kind": "trumps", "count": trumps}]}
    assert problems(variant, board, record) == []
    record["declarations"][0]["count"] = trumps + 1
    assert problems(variant, board, record) == [
        ("declarations[0]", "not_dealt",
         (f"board 4: seat {seat} declared trumps with {trumps + 1} trumps (the Fool is not one), "
         "but was not dealt so many"))]


def test_three_of_a_kind_said_by_rank_needs_three_of_them() -> None:
    variant, board = board_of("gatti-3", 6)
    for seat in range(variant.seats):
        queens = sum(1 for c in held(board, seat) if c.is_court and c.rank == "Q")
        record = {"dealer": board.dealer,
                  "declarations": [{"seat": seat, "kind": "three_of_a_kind", "rank": "Q"}]}
        expected = [] if queens >= 3 else [
            ("declarations[0]", "not_dealt",
             (f"board 6: seat {seat} declared three_of_a_kind with 3 Queens, but was not "
             "dealt so many"))]
        assert problems(variant, board, record) == expected


def test_a_declared_cricca_or_sequence_is_made_of_cards_its_declarer_held() -> None:
    variant, board = board_of("ottocento", 2)
    seat = other_seat(variant, board.dealer)
    kings = [c for c in variant.pack.cards if c.is_plain and c.rank == "K"][:3]
    record = {"dealer": board.dealer, "declarations": [
        {"seat": seat, "kind": "cricca", "cards": [c.code for c in kings]},
        {"seat": seat, "kind": "sequence", "cards": ["ANGEL", "WORLD", "SUN"]}]}
    expected = [(f"declarations[0].cards[{k}]", "not_dealt",
                 f"board 2: seat {seat} was not dealt {c.code}")
                for k, c in enumerate(kings) if board.holder(c) != seat]
    expected += [(f"declarations[1].cards[{k}]", "not_dealt",
                  f"board 2: seat {seat} was not dealt {code}")
                 for k, code in enumerate(["ANGEL", "WORLD", "SUN"])
                 if board.holder(variant.pack.card(code)) != seat]
    assert expected  # the seed deals them apart
    assert problems(variant, board, record) == expected


def test_a_cricca_said_by_its_type_needs_as_many_cards_of_its_type() -> None:
    """Ottocento's cricca said by its type: of three, the declarer was dealt three
    of the type; of all four, the four cards themselves."""
    variant, board = board_of("ottocento", 3)
    for seat in range(variant.seats):
        kings = [c for c in held(board, seat) if c.is_plain and c.rank == "K"]
        three = {"dealer": board.dealer,
                 "declarations": [{"seat": seat, "kind": "cricca", "type": "K", "count": 3}]}
        assert problems(variant, board, three) == ([] if len(kings) >= 3 else [
            ("declarations[0]", "not_dealt",
             f"board 3: seat {seat} declared cricca with 3 Kings, but was not dealt so many")])
        four = {"dealer": board.dealer,
                "declarations": [{"seat": seat, "kind": "cricca", "type": "K", "count": 4}]}
        assert len(problems(variant, board, four)) == 4 - len(kings)


def test_a_declared_accusation_is_made_of_cards_its_declarer_held() -> None:
    variant, board = board_of("mitigatti-4", 1)
    t20 = variant.pack.card("T20")
    seat = board.holder(t20)
    assert seat is not None
    record = {"dealer": board.dealer, "contract": {"type": "solo", "declarer": board.dealer,
                                                   "sans_prendre": True},
              "declarations": [{"seat": seat, "kind": "mitigatti"},
                               {"seat": seat, "kind": "ten_tarocchi"}]}
    missing = [code for code in ("FOOL", "T1")
               if board.holder(variant.pack.card(code)) != seat]
    tarots = sum(1 for c in held(board, seat) if c.is_trump or c.is_fool)
    expected = [("declarations[0]", "not_dealt", f"board 1: seat {seat} was not dealt {code}")
                for code in missing]
    if tarots < 10:
        expected.append(("declarations[1]", "not_dealt",
                         (f"board 1: seat {seat} declared ten_tarocchi with 10 tarots (the "
                         "Fuole counts as one), but was not dealt so many")))
    assert expected
    assert problems(variant, board, record) == expected


def test_a_called_cards_holder_is_the_partner_named() -> None:
    variant, board = board_of("gatti-4-call", 3)
    king = next(c for c in variant.pack.cards if c.is_plain and c.rank == "K"
                and board.holder(c) != board.dealer)
    holder = board.holder(king)
    assert holder is not None
    record: Json = {"dealer": board.dealer,
                    "call": {"card": king.code, "partner": holder}}
    assert problems(variant, board, record) == []
    named = next(s for s in range(4) if s not in (holder, board.dealer))
    record["call"]["partner"] = named
    assert problems(variant, board, record) == [
        ("call.partner", "not_dealt", f"board 3: seat {named} was not dealt {king.code}")]


def test_a_contracts_called_card_is_its_holders() -> None:
    """Mitigatti: the call's partner and the solo's seat that gives the card are its holder;
    a surrendering declarer called a card of their own."""
    variant, board = board_of("mitigatti-4", 2)
    dealer = board.dealer
    king = next(c for c in variant.pack.cards if c.is_plain and c.rank == "K"
                and board.holder(c) != dealer)
    holder = board.holder(king)
    named = next(s for s in range(4) if s not in (holder, dealer))
    call = {"type": "call", "declarer": dealer, "called_card": king.code, "partner": named}
    solo = {"type": "solo", "declarer": named, "called_card": king.code, "partner": dealer}
    surrender = {"type": "surrender", "declarer": dealer, "called_card": king.code}
    for contract, field, seat in ((call, "contract.partner", named),
                                  (solo, "contract.partner", dealer),
                                  (surrender, "contract.called_card", dealer)):
        assert problems(variant, board, {"dealer": dealer, "contract": contract}) == [
            (field, "not_dealt", f"board 2: seat {seat} was not dealt {king.code}")]


def test_the_fools_and_the_bagattos_players_are_their_holders() -> None:
    variant, board = board_of("gatti-3", 1)
    fool, t1 = variant.pack.fool, variant.pack.card("T1")
    record = {"dealer": board.dealer, "fool": {"played_by": board.holder(fool)},
              "bagatto": {"seat": board.holder(t1), "won": True}}
    assert problems(variant, board, record) == []
    wrong_fool = other_seat(variant, board.holder(fool) or 0)
    wrong_t1 = other_seat(variant, board.holder(t1) or 0)
    record = {"dealer": board.dealer, "fool": {"played_by": wrong_fool},
              "bagatto": {"seat": wrong_t1, "won": True}}
    assert problems(variant, board, record) == [
        ("fool.played_by", "not_dealt", f"board 1: seat {wrong_fool} was not dealt FOOL"),
        ("bagatto.seat", "not_dealt", f"board 1: seat {wrong_t1} was not dealt T1")]


def test_a_trick_record_plays_each_seats_own_cards() -> None:
    """The first trick, led by the seat after the dealer: each seat plays a card of its own,
    but one plays its neighbour's."""
    variant, board = board_of("ottocento", 1)
    leader = (board.dealer + 1) % 4
    trick = [board.hands[(leader + k) % 4][0] for k in range(4)]
    assert problems(variant, board, {"dealer": board.dealer,
                                     "tricks": [[c.code for c in trick]]}) == []
    stranger = board.hands[(leader + 2) % 4][1]
    trick[1] = stranger
    assert problems(variant, board, {"dealer": board.dealer,
                                     "tricks": [[c.code for c in trick]]}) == [
        ("tricks[0][1]", "not_dealt",
         (f"board 1: seat {(leader + 1) % 4} played {stranger.code} to trick 1, but was not "
         "dealt it"))]


def test_a_trick_of_the_wrong_size_ends_the_check_of_seats() -> None:
    """Its seats and those of every later trick are unknown: the scorer says what is wrong."""
    variant, board = board_of("gatti-3", 1)
    dealers = [c.code for c in board.hands[board.dealer][:4]]
    record = {"dealer": board.dealer, "tricks": [dealers[:1], dealers[1:]]}
    assert problems(variant, board, record) == []
    record["tricks"] = [dealers[1:]]
    assert [field for field, _, _ in problems(variant, board, record)] == [
        "tricks[0][0]", "tricks[0][1]"]


def test_what_the_deal_cannot_fix_is_left_to_the_scorer() -> None:
    """The piles are not the referee's: a pile of another side's cards is no disagreement."""
    variant, board = board_of("gatti-4", 1)
    record = {"dealer": board.dealer,
              "piles": [{"side": 0, "cards": [c.code for c in board.hands[1]]}]}
    assert problems(variant, board, record) == []


def test_sections_left_out_as_malformed_are_not_refereed() -> None:
    variant, board = board_of("gatti-3", 1)
    seat = other_seat(variant, board.dealer)
    record, _, left_out = read_hand_record(variant, {
        "dealer": seat, "discard": [board.hands[seat][0].code, "XX", "YY"]})
    assert record is not None and "discard" in left_out
    found = disagreements(record, board, variant, left_out)
    assert [p.field for p in found] == ["dealer"]


def test_the_referee_and_the_scorer_report_together() -> None:
    """``score_record`` with the board's checks: the deal's disagreements and the rules'
    breaches in one refusal, nothing scored."""
    variant, board = board_of("gatti-3", 1)
    seat = other_seat(variant, board.dealer)
    stranger = board.hands[seat][0]
    record = {"dealer": board.dealer,
              "discard": [stranger.code, *(c.code for c in board.extra[:2])],
              "piles": [{"side": 0, "points": 1}]}
    with pytest.raises(RecordInvalid) as caught:
        score_record(variant, resolve_options(variant, None), record,
                     checks=board_checks(board, variant))
    codes = {(p.field, p.code) for p in caught.value.problems}
    assert ("discard[0]", "not_dealt") in codes
    assert len(codes) > 1
    assert caught.value.family == variant.family


def test_a_board_of_another_game_is_refused() -> None:
    """A board is refereed by its own game's rules: one dealt for another pack or table is a
    caller's mistake, not a table's."""
    gatti, board = board_of("gatti-4", 1)
    record = parse_hand_record(find_variant("ottocento"), {"dealer": board.dealer})
    with pytest.raises(ValueError, match="deals 78 cards to 4 seats; ottocento deals 62"):
        disagreements(record, board, find_variant("ottocento"))
    with pytest.raises(ValueError, match="to 4 seats; gatti-3 deals 78 to 3"):
        disagreements(record, board, find_variant("gatti-3"))
    assert disagreements(parse_hand_record(gatti, {"dealer": board.dealer}), board, gatti) == ()
