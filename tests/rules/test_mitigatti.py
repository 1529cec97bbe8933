"""Mitigatti (rulebook §5, with §0, §1 and §6): one test per clause, named after it.

Written as an independent check of the engine: the expectations come from rulebook §5, the
choices the lead wrote down for the cases the rules leave open (the first lead is the seat after
the dealer in every contract; a solo's called card comes from its holder, named by the optional
``partner``; a surrender pays 1 to each other player and each declaration's full value, no
partida; Bagatte ultimu and partida are doubled in a solo sans prendre, declarations never; ties
for most with three split ``divmod``-style, the remainder to the pot, which the next sole top
scorer collects), and the independent reference in ``tests/scenarios/mitigatti/reference.py``
(which builds the trick records: deals, discards, contracts and random legal play). Nothing here
reads the variant's tables except ``card_strength``, which is what is being checked.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from decimal import Decimal
from itertools import pairwise, permutations
from pathlib import Path
from typing import Any

import pytest

from service.domain import RULES_VERSION, waived_rulings
from service.domain.core.errors import RecordInvalid
from service.domain.games import game_summary, validate_game_setup
from service.domain.hand.scoring import score_record
from service.domain.hand.tricks import legal_plays, trick_winner
from service.domain.mitigatti.settlement import fewest_transfers
from service.domain.options import resolve_options
from service.domain.registry import find_variant

Json = dict[str, Any]
REF_PATH = Path(__file__).parents[1] / "scenarios" / "mitigatti" / "reference.py"


def _load_reference() -> Any:
    name = "mitigatti_reference"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, REF_PATH)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


R = _load_reference()
V4 = find_variant("mitigatti-4")
V3 = find_variant("mitigatti-3")
V = {4: V4, 3: V3}
SIZE = {4: R.FOUR, 3: R.THREE}


# -- helpers --------------------------------------------------------------------------------------

def score(n: int, record: Json, options: Json | None = None) -> Json:
    variant = V[n]
    _, result = score_record(variant, resolve_options(variant, options or {}), record)
    return result.to_json()


def result_of(n: int, record: Json) -> Any:
    variant = V[n]
    return score_record(variant, resolve_options(variant, {}), record)[1]


def problems(n: int, record: Json) -> list[tuple[str, str]]:
    with pytest.raises(RecordInvalid) as caught:
        score(n, record)
    return [(p.field, p.code) for p in caught.value.problems]


def codes(n: int, record: Json) -> set[str]:
    return {c for _, c in problems(n, record)}


def marca(*values: int) -> dict[str, int]:
    return {str(i): v for i, v in enumerate(values)}


def paid(result: Json, item: str) -> dict[str, int]:
    """Each seat's net of the payments of one kind."""
    out = {str(s): 0 for s in range(len(result["marca"]))}
    for p in result["payments"]:
        if p["item"] != item:
            continue
        out[str(p["from"])] -= p["marca"]
        if p["to"] != "pot":
            out[str(p["to"])] += p["marca"]
    return out


def expected_of(h: Any) -> Json:
    return R.expected(h)


def cards(*codes_: str) -> list[Any]:
    return [V4.pack.card(c) for c in codes_]


def winner(*codes_: str) -> int:
    """The engine's winner of a complete trick (position from the leader)."""
    return trick_winner(V4, cards(*codes_))


def summary4(points0: int, contract: Json, dealer: int = 0, seed: int = 0,
             keep: dict[str, int] | None = None, **extra: Any) -> Json:
    """A four-player summary record whose declarer's side took ``points0`` of 72 (``keep``
    puts counting cards in a side's pile)."""
    side = R.sides_of(R.FOUR, contract, contract.get("partner"))
    piles = R.piles_for(R.FOUR, {0: points0, 1: 72 - points0}, side[dealer],
                        random.Random(seed), keep)
    return {"dealer": dealer, "contract": contract, "piles": piles, **extra}


def summary3(points: tuple[int, int, int], dealer: int = 0, seed: int = 0,
             **extra: Any) -> Json:
    piles = R.piles_for(R.THREE, dict(enumerate(points)), dealer, random.Random(seed))
    return {"dealer": dealer, "piles": piles, **extra}


CALL = {"type": "call", "declarer": 0, "called_card": "KH", "partner": 2}
SOLO = {"type": "solo", "declarer": 1, "called_card": "T21", "partner": 3}
SANS = {"type": "solo", "declarer": 1, "sans_prendre": True}
LOW_HEARTS = ["10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H", "1H"]
LOW_SPADES = ["2S", "3S", "4S", "5S", "6S", "7S", "8S"]


# ================================================================================================
# §5.1 Pack and ranks
# ================================================================================================

def test_s5_1_angel_is_the_highest_trump() -> None:
    s = V4.card_strength
    angel = V4.pack.card("T20")
    assert all(s[angel] > s[c] for c in V4.pack.cards if c.is_trump and c != angel)
    assert winner("T21", "T20", "T19", "T18") == 1
    assert winner("T20", "T21", "3S", "KS") == 0


def test_s5_1_t21_ranks_second() -> None:
    s = V4.card_strength
    t21 = V4.pack.card("T21")
    below = [c for c in V4.pack.cards if c.is_trump and c.code not in ("T20", "T21")]
    assert all(s[t21] > s[c] for c in below)
    assert winner("T19", "T21", "T18", "T6") == 1


def test_s5_1_trumps_descend_from_t19_to_t6_then_papote_then_bagatte() -> None:
    s = V4.card_strength
    order = ["T20", "T21"] + [f"T{n}" for n in range(19, 5, -1)]
    for high, low in pairwise(order):
        assert s[V4.pack.card(high)] > s[V4.pack.card(low)], (high, low)
    for papa in R.PAPOTE:
        assert s[V4.pack.card("T6")] > s[V4.pack.card(papa)] > s[V4.pack.card("T1")]
    # the reference's order is the rules' order
    ref = sorted(R.TRUMPS, key=R.trump_strength, reverse=True)
    eng = sorted(R.TRUMPS, key=lambda c: s[V4.pack.card(c)], reverse=True)
    assert [R.trump_strength(c) for c in ref] == sorted(
        (R.trump_strength(c) for c in eng), reverse=True)


def test_s5_1_papote_equal_last_played_wins() -> None:
    s = V4.card_strength
    assert len({s[V4.pack.card(p)] for p in R.PAPOTE}) == 1
    assert winner("T5", "T2", "3H", "T3") == 3          # three Papote: the last played
    assert winner("T2", "T5", "KH", "2H") == 1
    assert winner("T4", "T3", "T2", "T5") == 3
    assert winner("T2", "T3", "T6", "T4") == 2          # T6 above every Papote
    assert winner("T1", "T2", "1S", "2S") == 1          # any Papote above the Bagatte
    for perm in permutations(("T2", "T3", "T4", "T5")):
        assert winner(*perm) == 3
    # and the engine's replay of a whole hand names that winner too
    for seed in range(400):
        h = R.generate(R.FOUR, seed)
        hit = [i for i, t in enumerate(h.tricks)
               if sum(c in R.PAPOTE for c in t) >= 2 and not any(
                   R.is_trump(c) and R.trump_strength(c) > R.trump_strength("T2") for c in t)]
        if hit:
            got = score(4, h.trick_record())
            for i in hit:
                t = h.tricks[i]
                last_papa = max(j for j, c in enumerate(t) if c in R.PAPOTE)
                assert got["tricks"][i]["winner"] == (h.replay.leaders[i] + last_papa) % 4
            return
    pytest.fail("no generated hand has two Papote topping a trick")


def test_s5_1_bagatte_is_the_lowest_trump() -> None:
    s = V4.card_strength
    t1 = V4.pack.card("T1")
    assert all(s[t1] < s[c] for c in V4.pack.cards if c.is_trump and c != t1)
    assert winner("KS", "QS", "T1", "CS") == 2          # still a trump over every plain card


@pytest.mark.parametrize("suit", ["S", "C"])
def test_s5_1_long_suits_rank_k_q_c_j_ace_then_ten_down_to_two(suit: str) -> None:
    s = V4.card_strength
    order = ["K", "Q", "C", "J", "1", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    for high, low in pairwise(order):
        assert s[V4.pack.card(high + suit)] > s[V4.pack.card(low + suit)], (high, low)
    assert winner("2" + suit, "10" + suit, "1" + suit, "9" + suit) == 2
    assert winner("10" + suit, "2" + suit, "9" + suit, "3" + suit) == 0


@pytest.mark.parametrize("suit", ["H", "D"])
def test_s5_1_round_suits_rank_k_q_c_j_ace_then_two_up_to_ten(suit: str) -> None:
    s = V4.card_strength
    order = ["K", "Q", "C", "J", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    for high, low in pairwise(order):
        assert s[V4.pack.card(high + suit)] > s[V4.pack.card(low + suit)], (high, low)
    assert winner("10" + suit, "2" + suit, "9" + suit, "3" + suit) == 1
    assert winner("2" + suit, "1" + suit, "3" + suit, "J" + suit) == 3


@pytest.mark.parametrize("suit", ["H", "D", "C", "S"])
def test_s5_1_ace_is_fifth_in_every_suit(suit: str) -> None:
    s = V4.card_strength
    ranks = sorted((c for c in V4.pack.cards if c.is_plain and c.suit == suit),
                   key=lambda c: -s[c])
    assert ranks[4].code == "1" + suit
    assert [c.rank for c in ranks[:4]] == ["K", "Q", "C", "J"]


def test_s5_1_a_trick_without_trumps_goes_to_the_suit_led() -> None:
    assert winner("3C", "KS", "2C", "KH") == 0          # off-suit Kings never win
    assert winner("FOOL", "5D", "KD", "T1") == 3


def test_s5_1_counting_cards_total_52() -> None:
    counting = V4.describe()["counting"]
    assert counting == {c: R.card_points(c) for c in R.PACK if R.card_points(c)}
    assert sum(counting.values()) == 52
    assert {c: p for c, p in counting.items() if c in R.HONOURS} == {
        "FOOL": 4, "T1": 4, "T20": 4}
    assert V3.describe()["counting"] == counting


@pytest.mark.parametrize("n", [4, 3])
def test_r14_total_is_52_plus_tricks_plus_the_discard(n: int) -> None:
    """R14: 52 + 19 + 1 = 72 with four, 52 + 25 + 1 = 78 with three (not 62 + …)."""
    total = {4: 72, 3: 78}[n]
    assert V[n].deck_total == total
    for seed in range(30):
        h = R.generate(SIZE[n], seed)
        got = score(n, h.trick_record())
        lines = [line for side in got["sides"] for line in side["lines"]
                 if line["item"] == "deck_points"]
        assert sum(line["points"] for line in lines) == total
        assert sum(line["counting"] for line in lines) == 52
        assert sum(line["tricks"] for line in lines) == R.SIZES[n].tricks + 1
        assert got["columns"] == expected_of(h)["columns"]


def test_s5_1_fool_never_wins_and_the_next_card_sets_the_suit() -> None:
    assert winner("FOOL", "3H", "2H", "KS") == 2        # hearts were set by the 3H
    assert winner("KH", "FOOL", "2H", "QH") == 0
    # after the Fuole is led, the next player may play anything; the third must follow it
    hand = cards("2H", "5S", "T3")
    assert {c.code for c in legal_plays(hand, cards("FOOL"))} == {"2H", "5S", "T3"}
    assert {c.code for c in legal_plays(hand, cards("FOOL", "KS"))} == {"5S"}


def test_s5_1_fool_is_never_captured_and_counts_for_its_holder() -> None:
    for n in (4, 3):
        checked = 0
        for seed in range(60):
            h = R.generate(SIZE[n], seed)
            holder = h.replay.fool_holder
            fool_trick = next(i for i, t in enumerate(h.tricks) if R.FOOL in t)
            if h.side[h.replay.winners[fool_trick]] == h.side[holder]:
                continue                           # only where another side won its trick
            got = score(n, h.trick_record())
            side = next(s for s in got["sides"] if holder in s["seats"])
            assert "FOOL" in side["lines"][0]["counting_cards"]
            for other in got["sides"]:
                if other is not side:
                    assert "FOOL" not in other["lines"][0]["counting_cards"]
            assert got["columns"] == expected_of(h)["columns"]
            checked += 1
        assert checked >= 5


def _fool_holder_wins_nothing() -> Any:
    """Seat 1 plays solo sans prendre holding the Fuole and wins no trick (dealer 0)."""
    return R.search(R.FOUR, 0, {1: ["FOOL"] + LOW_HEARTS[:9] + ["10D", "9D", "8D", "7D", "6D",
                                                                 "5D", "4D", "3D", "2D"]},
                    ["2C", "3C"], SANS, lambda h: 1 not in h.replay.winners)


def test_s5_1_fool_counts_for_a_holder_who_took_no_trick_trick_record() -> None:
    h = _fool_holder_wins_nothing()
    assert h.side_points == {0: 4, 1: 68}
    got = score(4, h.trick_record())
    assert got["columns"] == {"0": 68, "1": 4, "2": 68, "3": 68}
    assert got["marca"] == expected_of(h)["marca"] == marca(4, -12, 4, 4)


@pytest.mark.parametrize("form", ["cards", "counting"])
@pytest.mark.parametrize("leave_out", [None, 1, 0])
def test_s5_1_fool_counts_for_a_holder_who_took_no_trick_summary(
        leave_out: int | None, form: str) -> None:
    """The same hand as a summary: side 0's pile is the Fuole alone (0 tricks, 4 points).
    §5.1: the Fuole is never captured and always counts for its holder — so a trickless
    side's pile may hold it, in either summary form, given or derived as the rest."""
    h = _fool_holder_wins_nothing()
    rec = h.summary_record(form, leave_out=leave_out)
    got = score(4, rec)
    assert got["columns"] == {"0": 68, "1": 4, "2": 68, "3": 68}, rec["piles"]
    assert got["marca"] == marca(4, -12, 4, 4)


def test_s5_1_fool_is_a_card_beyond_the_tricks_of_its_holders_pile() -> None:
    """The holder's side keeps the Fuole on top of the cards of its tricks: a side with one
    trick of four counting cards and the Fuole holds five counting cards (proved by a trick
    record), and its summary must score alike."""
    h = R.search(R.FOUR, 0,
                 {1: ["FOOL", "KH"] + LOW_HEARTS + LOW_SPADES, 2: ["JH"], 3: ["CH"], 0: ["QH"]},
                 ["2C", "3C"], SANS,
                 lambda h: h.replay.winners.count(1) == 1, opening=["KH", "JH", "CH", "QH"])
    assert h.side_points == {0: 15, 1: 57}
    assert score(4, h.trick_record())["columns"]["1"] == 15
    for form in ("cards", "counting"):
        for leave_out in (None, 1):
            got = score(4, h.summary_record(form, leave_out=leave_out))
            assert got["columns"] == {"0": 57, "1": 15, "2": 57, "3": 57}, (form, leave_out)
            assert got["marca"] == marca(4, -12, 4, 4)


# ================================================================================================
# §5.2 Deal and discard
# ================================================================================================

@pytest.mark.parametrize("king", R.KINGS)
def test_s5_2_discard_may_not_hold_a_king(king: str) -> None:
    rec = summary4(40, CALL, dealer=0, discard=[king, "2C"])
    assert ("discard[0]", "king_discarded") in problems(4, rec)
    rec3 = summary3((40, 25, 13), discard=[king, "2C", "3C"])
    assert any(f.startswith("discard") for f, _ in problems(3, rec3))


@pytest.mark.parametrize("honour", R.HONOURS)
def test_s5_2_discard_may_not_hold_an_honour(honour: str) -> None:
    rec = summary4(40, CALL, dealer=0, discard=[honour, "2C"])
    assert any(f.startswith("discard") for f, _ in problems(4, rec))
    rec3 = summary3((40, 25, 13), discard=[honour, "2C", "3C"])
    assert any(f.startswith("discard") for f, _ in problems(3, rec3))


def test_s5_2_discard_size_is_two_with_four_and_three_with_three() -> None:
    assert ("discard", "discard_size") in problems(4, summary4(40, CALL, discard=["2C"]))
    assert ("discard", "discard_size") in problems(
        4, summary4(40, CALL, discard=["2C", "3C", "4C"]))
    assert ("discard", "discard_size") in problems(3, summary3((40, 25, 13),
                                                               discard=["2C", "3C"]))


def test_s5_2_discard_may_hold_trumps_and_counts_for_the_dealer_side() -> None:
    """Trumps may be discarded (announced); the discard's counting cards and its one point
    are the dealer's side's, also when another player goes solo."""
    for contract, dealer in ((CALL, 0), (SANS | {"declarer": 2}, 0), (SANS, 1)):
        contract = {k: v for k, v in contract.items() if k != "partner"}
        h = R.search(R.FOUR, dealer, {}, ["T5", "QH"], contract, lambda h: True)
        got = score(4, h.trick_record())
        assert got["columns"] == expected_of(h)["columns"]
        assert got["marca"] == expected_of(h)["marca"]
    h = R.search(R.FOUR, 0, {}, ["T5", "QH"], SANS | {"declarer": 2}, lambda h: True)
    dealer_side = next(s for s in score(4, h.trick_record())["sides"] if 0 in s["seats"])
    assert dealer_side["side"] == 1
    assert "QH" in dealer_side["lines"][0]["counting_cards"]
    # three players: the discard is the dealer's
    h3 = R.search(R.THREE, 2, {}, ["T5", "QD", "CS"], None, lambda h: True)
    got3 = score(3, h3.trick_record())
    dealer3 = next(s for s in got3["sides"] if s["seats"] == [2])
    assert {"QD", "CS"} <= set(dealer3["lines"][0]["counting_cards"])
    assert got3["columns"] == expected_of(h3)["columns"]


def test_s5_2_discard_counts_for_the_dealer_side_that_took_no_trick() -> None:
    c = {"type": "solo", "declarer": 0, "sans_prendre": True}
    h = R.search(R.FOUR, 0, {0: LOW_HEARTS[:9] + ["10D", "9D", "8D", "7D", "6D", "5D", "4D",
                                                  "3D", "2D", "1H"]},
                 ["QS", "JS"], c, lambda h: 0 not in h.replay.winners)
    assert h.side_points[0] == 1 + 3 + 1
    for rec in (h.trick_record(), h.summary_record("counting"), h.summary_record("cards")):
        assert score(4, rec)["columns"]["0"] == 5


@pytest.mark.parametrize("n", [4, 3])
def test_s5_2_thrown_in_deal_settles_nothing(n: int) -> None:
    got = score(n, {"dealer": 1, "thrown_in": True})
    assert got["marca"] == {str(s): 0 for s in range(n)}
    assert got["pot"] == 0
    assert got["payments"] == []
    assert "thrown_in" in got["events"]
    # nothing was played: piles, a contract or declarations contradict it
    assert problems(n, {"dealer": 1, "thrown_in": True,
                        "declarations": [{"seat": 0, "kind": "mitigatti"}]})


@pytest.mark.parametrize("n", [4, 3])
def test_s5_2_thrown_in_deal_does_not_move_the_deal(n: int) -> None:
    names = ["A", "B", "C", "D"][:n]
    setup = validate_game_setup(V[n], {}, names, 0)
    thrown = result_of(n, {"dealer": 0, "thrown_in": True})
    summary = game_summary(setup, [thrown]).to_json()
    assert summary["next_dealer"] == 0
    assert summary["balances"] == {str(s): 10 for s in range(n)}
    played = result_of(n, R.generate(SIZE[n], 3, dealer=0).trick_record())
    assert game_summary(setup, [thrown, played]).to_json()["next_dealer"] == 1
    assert game_summary(setup, [thrown, played, result_of(n, {"dealer": 1, "thrown_in": True})]
                        ).to_json()["next_dealer"] == 1


# ================================================================================================
# §5.3 Contract (four players)
# ================================================================================================

def test_s5_3_call_a_king_not_held_makes_its_holder_the_partner() -> None:
    for seed in range(40):
        h = R.generate(R.FOUR, seed, contract_kind="call")
        if h.contract["called_card"] == "T20":
            continue
        assert h.contract["called_card"] not in h.hands[h.dealer]
        got = score(4, h.trick_record())
        side0 = next(s for s in got["sides"] if s["side"] == 0)
        assert sorted(side0["seats"]) == sorted({h.dealer, h.partner})
        assert got["marca"] == expected_of(h)["marca"]


def test_s5_3_call_result_names_the_partner() -> None:
    """A trick record shows who played the called card: the result names the partner."""
    h = R.generate(R.FOUR, 7, contract_kind="call")
    got = score(4, h.trick_record())
    assert got.get("partner") == h.partner


def test_s5_3_call_of_a_king_the_dealer_holds_is_rejected() -> None:
    h = R.search(R.FOUR, 0, {0: ["KH"]}, ["2C", "3C"],
                 {"type": "call", "declarer": 0, "called_card": "KS"}, lambda h: True)
    rec = h.trick_record()
    rec["contract"]["called_card"] = "KH"
    assert "called_own_card" in codes(4, rec)
    # a summary: the partner named is the declarer
    assert "called_own_card" in codes(4, summary4(40, CALL | {"partner": 0}))
    # a solo that calls the declarer's own card
    assert "called_own_card" in codes(4, summary4(40, SOLO | {"partner": 1}))


def test_s5_3_the_dealer_calls_a_king_or_with_four_kings_the_angel() -> None:
    assert "invalid_call" in codes(4, summary4(40, CALL | {"called_card": "QH"}))
    assert "invalid_call" in codes(4, summary4(40, CALL | {"called_card": "T21"}))
    assert ("contract.declarer", "not_the_dealer") in problems(
        4, summary4(40, CALL | {"declarer": 1, "partner": 3}))
    # with all four Kings: the Angel
    h = R.search(R.FOUR, 0, {0: list(R.KINGS)}, ["2C", "3C"],
                 {"type": "call", "declarer": 0, "called_card": "T20"},
                 lambda h: "T20" not in h.hands[0])
    got = score(4, h.trick_record())
    side0 = next(s for s in got["sides"] if s["side"] == 0)
    assert sorted(side0["seats"]) == sorted({0, h.partner})
    assert got["marca"] == expected_of(h)["marca"]


def test_s5_3_the_angel_may_not_be_called_without_all_four_kings() -> None:
    h = R.search(R.FOUR, 0, {0: ["KH", "KD", "KC"], 2: ["KS", "T20"]}, ["2C", "3C"],
                 {"type": "call", "declarer": 0, "called_card": "KS"}, lambda h: True)
    rec = h.trick_record()
    rec["contract"]["called_card"] = "T20"
    assert problems(4, rec)
    # in a summary, another player's quatre rei proves the dealer lacks a King
    rec = summary4(40, CALL | {"called_card": "T20"},
                   declarations=[{"seat": 2, "kind": "quatre_rei"}])
    assert "invalid_call" in codes(4, rec)


def test_r16_four_kings_and_the_angel_must_play_solo() -> None:
    force = {0: list(R.KINGS) + ["T20"]}
    h = R.search(R.FOUR, 0, force, ["2C", "3C"],
                 {"type": "solo", "declarer": 0, "sans_prendre": True}, lambda h: True)
    got = score(4, h.trick_record())
    assert got["marca"] == expected_of(h)["marca"]
    for called in ("T20", "KH"):
        rec = h.trick_record()
        rec["contract"] = {"type": "call", "declarer": 0, "called_card": called}
        assert "must_play_solo" in codes(4, rec)
    # shown by declarations in a summary
    rec = summary4(40, CALL | {"called_card": "T20", "partner": 3},
                   declarations=[{"seat": 0, "kind": "quatre_rei"},
                                 {"seat": 0, "kind": "mitigatti"}])
    assert "must_play_solo" in codes(4, rec)


def test_s5_3_call_partner_contradicted_by_a_declaration_is_rejected() -> None:
    """Seat 3 showed all four Kings, so the called KH is seat 3's: naming seat 2 as the
    partner cannot be true (§6: declarations that the record contradicts)."""
    rec = summary4(40, CALL | {"partner": 2}, declarations=[{"seat": 3, "kind": "quatre_rei"}])
    assert problems(4, rec)


def test_s5_3_solo_with_a_called_card_plays_alone_against_three() -> None:
    seen = 0
    for seed in range(80):
        h = R.generate(R.FOUR, seed, contract_kind="solo")
        got = score(4, h.trick_record())
        side0 = next(s for s in got["sides"] if s["side"] == 0)
        assert side0["seats"] == [h.contract["declarer"]]
        assert got["marca"] == expected_of(h)["marca"]
        part = paid(got, "partida")
        d = str(h.contract["declarer"])
        assert abs(part[d]) == 3 * max(abs(v) for k, v in part.items() if k != d)
        seen += 1
    assert seen
    # the holder of the called card may be named, and stays an opponent
    got = score(4, summary4(40, SOLO))
    assert got["marca"] == marca(-1, 3, -1, -1)
    got = score(4, summary4(36, SOLO))
    assert got["marca"] == marca(1, -3, 1, 1)


def test_s5_3_a_solo_called_card_is_played_by_the_declarer() -> None:
    """The solo player takes the called card from its holder: a trick record in which
    another player plays it cannot be true."""
    h = R.generate(R.FOUR, 5, dealer=1, contract_kind="solo")
    d = h.contract["declarer"]
    assert h.contract["called_card"] in h.hands[d]
    score(4, h.trick_record())
    other = next(c for c in h.hands[(d + 1) % 4] if c != R.FOOL)
    rec = h.trick_record()
    rec["contract"] = {"type": "solo", "declarer": d, "called_card": other}
    assert problems(4, rec)


def test_s5_3_solo_never_calls_the_fool() -> None:
    assert ("contract.called_card", "invalid_call") in problems(
        4, summary4(40, SOLO | {"called_card": "FOOL"}))


def test_s5_3_sans_prendre_calls_nothing() -> None:
    assert problems(4, summary4(40, SANS | {"called_card": "T21"}))


def test_s5_3_solo_without_a_call_is_sans_prendre() -> None:
    """§5.3: "Playing sans prendre (no call) doubles": a solo that calls no card is sans
    prendre, whether or not the record says so — it scores doubled (or, if the service wants
    the flag, it is rejected), never at the single rate."""
    rec = summary4(40, {"type": "solo", "declarer": 1})
    try:
        got = score(4, rec)
    except RecordInvalid:
        return
    assert got["marca"] == score(4, summary4(40, SANS))["marca"] == marca(-2, 6, -2, -2)


@pytest.mark.parametrize("points0,unit", [(40, 2), (36, -2), (18, -2), (17, -4), (54, 2),
                                          (55, 4), (0 + 5, -4)])
def test_s5_3_sans_prendre_doubles_the_partida(points0: int, unit: int) -> None:
    got = score(4, summary4(points0, SANS, dealer=0))
    assert got["marca"] == marca(-unit, 3 * unit, -unit, -unit)
    assert all(p["item"] == "partida" for p in got["payments"])


@pytest.mark.parametrize("points0,unit", [(17, -4), (10, -4), (55, 4), (60, 4)])
def test_r17_sans_prendre_below_18_quadruples(points0: int, unit: int) -> None:
    got = score(4, summary4(points0, SANS | {"declarer": 2}, dealer=3))
    assert got["marca"] == marca(-unit, -unit, 3 * unit, -unit)


def test_s5_3_surrender_pays_one_to_each_and_each_declaration_in_full() -> None:
    got = score(4, {"dealer": 1, "contract": {"type": "surrender", "declarer": 1,
                                               "called_card": "KH"}})
    assert got["marca"] == marca(1, -3, 1, 1)
    assert "surrendered" in got["events"]
    assert {p["item"] for p in got["payments"]} == {"surrender"}
    got = score(4, {"dealer": 1,
                    "contract": {"type": "surrender", "declarer": 1, "called_card": "KH"},
                    "declarations": [{"seat": 2, "kind": "quatre_rei"},
                                     {"seat": 3, "kind": "mitigatti"}]})
    # 1 to each; each declaration's value (1 from each of three) paid by the declarer alone
    assert got["marca"] == marca(1, -3 - 6, 1 + 3, 1 + 3)
    assert paid(got, "declaration") == marca(0, -6, 3, 3)
    assert paid(got, "partida") == marca(0, 0, 0, 0)
    assert paid(got, "bagatte_ultimu") == marca(0, 0, 0, 0)
    # a solo player who called their own card may surrender too
    got = score(4, {"dealer": 1, "contract": {"type": "surrender", "declarer": 3}})
    assert got["marca"] == marca(1, 1, 1, -3)


def test_s5_3_a_surrendered_hand_is_not_played() -> None:
    rec = summary4(40, CALL)
    rec["contract"] = {"type": "surrender", "declarer": 0, "called_card": "KH"}
    assert problems(4, rec)


@pytest.mark.parametrize("kind", ["call", "solo", "sans"])
def test_s5_3_first_lead_is_the_seat_after_the_dealer(kind: str) -> None:
    for dealer in range(4):
        h = R.generate(R.FOUR, 100 + dealer, dealer=dealer, contract_kind=kind)
        got = score(4, h.trick_record())
        assert got["tricks"][0]["leader"] == (dealer + 1) % 4
        assert [t["winner"] for t in got["tricks"]] == h.replay.winners
    for dealer in range(3):
        h = R.generate(R.THREE, 200 + dealer, dealer=dealer)
        assert score(3, h.trick_record())["tricks"][0]["leader"] == (dealer + 1) % 3


def test_s5_3_three_players_have_no_contract() -> None:
    rec = summary3((40, 25, 13))
    rec["contract"] = SANS
    assert problems(3, rec)


# ================================================================================================
# §5.4 Declarations
# ================================================================================================

TAROTS = [f"T{i}" for i in range(1, 22)] + ["FOOL"]


def _ten_tarocchi_hand() -> Any:
    """Seat 2 holds exactly nine trumps and the Fuole (a call by dealer 0)."""
    nine = ["T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10"]
    plain = ["KD", "QD", "1S", "2S", "3S", "4S", "5S", "6S", "7S"]
    return R.search(R.FOUR, 0, {2: nine + ["FOOL"] + plain}, ["2C", "3C"],
                    {"type": "call", "declarer": 0, "called_card": "KH"}, lambda h: True)


def _with(h: Any, declarations: list[Json]) -> Json:
    rec = h.trick_record()
    rec["declarations"] = declarations
    return rec


def test_s5_4_ten_tarocchi_counts_the_fool_and_is_paid_one_by_each() -> None:
    h = _ten_tarocchi_hand()
    shown = ["T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "FOOL"]
    got = score(4, _with(h, [{"seat": 2, "kind": "ten_tarocchi", "cards": shown}]))
    assert paid(got, "declaration") == marca(-1, -1, 3, -1)
    h.declarations = [{"seat": 2, "kind": "ten_tarocchi", "cards": shown}]
    assert got["marca"] == expected_of(h)["marca"]


def test_s5_4_ten_tarocchi_shows_exactly_ten() -> None:
    h = _ten_tarocchi_hand()
    nine = ["T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10"]
    assert problems(4, _with(h, [{"seat": 2, "kind": "ten_tarocchi", "cards": nine}]))
    h11 = R.search(R.FOUR, 0, {2: TAROTS[1:11] + ["FOOL"]}, ["2C", "3C"],
                   {"type": "call", "declarer": 0, "called_card": "KH"}, lambda h: True)
    assert problems(4, _with(h11, [{"seat": 2, "kind": "ten_tarocchi",
                                    "cards": TAROTS[1:11] + ["FOOL"]}]))
    got = score(4, _with(h11, [{"seat": 2, "kind": "ten_tarocchi", "cards": TAROTS[1:11]}]))
    assert paid(got, "declaration") == marca(-1, -1, 3, -1)


def test_s5_4_ten_tarocchi_shows_only_tarots() -> None:
    h = _ten_tarocchi_hand()
    shown = ["T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "KD"]
    assert problems(4, _with(h, [{"seat": 2, "kind": "ten_tarocchi", "cards": shown}]))


def test_s5_4_declarations_are_checked_against_a_trick_record() -> None:
    h = _ten_tarocchi_hand()
    elsewhere = next(c for c in h.hands[1] if R.is_trump(c))
    shown = ["T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "FOOL", elsewhere]
    assert problems(4, _with(h, [{"seat": 2, "kind": "ten_tarocchi", "cards": shown}]))
    if not all(c in h.hands[1] for c in R.HONOURS):
        assert problems(4, _with(h, [{"seat": 1, "kind": "mitigatti"}]))
    if not all(c in h.hands[3] for c in R.KINGS):
        assert problems(4, _with(h, [{"seat": 3, "kind": "quatre_rei"}]))
    if sum(R.is_tarot(c) for c in h.hands[1]) < 10:
        assert problems(4, _with(h, [{"seat": 1, "kind": "ten_tarocchi"}]))   # played fewer


@pytest.mark.parametrize("n", [4, 3])
def test_s5_4_mitigatti_three_honours_paid_one_by_each_other_player(n: int) -> None:
    h = R.search(SIZE[n], 0, {1: list(R.HONOURS)}, ["2C", "3C", "4C"][:SIZE[n].discard],
                 {"type": "call", "declarer": 0, "called_card": "KH"} if n == 4 else None,
                 lambda h: h.partner != 1 if n == 4 else True)
    got = score(n, _with(h, [{"seat": 1, "kind": "mitigatti"}]))
    want = {str(s): -1 for s in range(n)} | {"1": n - 1}
    assert paid(got, "declaration") == want
    h.declarations = [{"seat": 1, "kind": "mitigatti"}]
    assert got["marca"] == expected_of(h)["marca"]


@pytest.mark.parametrize("n", [4, 3])
def test_s5_4_quatre_rei_four_kings_paid_one_by_each_other_player(n: int) -> None:
    contract = {"type": "solo", "declarer": 0, "sans_prendre": True} if n == 4 else None
    h = R.search(SIZE[n], 0, {2: list(R.KINGS)}, ["2C", "3C", "4C"][:SIZE[n].discard],
                 contract, lambda h: True)
    got = score(n, _with(h, [{"seat": 2, "kind": "quatre_rei"}]))
    assert paid(got, "declaration") == {str(s): -1 for s in range(n)} | {"2": n - 1}
    h.declarations = [{"seat": 2, "kind": "quatre_rei"}]
    assert got["marca"] == expected_of(h)["marca"]


def test_s5_4_the_partner_pays_too() -> None:
    """The dealer's partner pays for the dealer's declaration like anyone else."""
    h = R.search(R.FOUR, 0, {0: list(R.HONOURS)}, ["2C", "3C"],
                 {"type": "call", "declarer": 0, "called_card": "KS"}, lambda h: True)
    got = score(4, _with(h, [{"seat": 0, "kind": "mitigatti"}]))
    assert any(p["item"] == "declaration" and p["from"] == h.partner and p["to"] == 0
               and p["marca"] == 1 for p in got["payments"])
    assert paid(got, "declaration")[str(h.partner)] == -1


def test_s5_4_declarations_are_never_doubled() -> None:
    h = R.search(R.FOUR, 0, {3: list(R.HONOURS)}, ["2C", "3C"],
                 {"type": "solo", "declarer": 3, "sans_prendre": True}, lambda h: True)
    got = score(4, _with(h, [{"seat": 3, "kind": "mitigatti"}]))
    assert paid(got, "declaration") == marca(-1, -1, -1, 3)
    got = score(4, summary4(40, SANS, declarations=[{"seat": 1, "kind": "quatre_rei"}]))
    assert paid(got, "declaration") == marca(-1, 3, -1, -1)
    assert paid(got, "partida") == marca(-2, 6, -2, -2)


def test_s5_4_a_combination_not_declared_is_not_paid() -> None:
    h = R.search(R.FOUR, 0, {1: list(R.HONOURS)}, ["2C", "3C"],
                 {"type": "solo", "declarer": 1, "sans_prendre": True}, lambda h: True)
    got = score(4, h.trick_record())
    assert paid(got, "declaration") == marca(0, 0, 0, 0)


# ================================================================================================
# §5.5 Bagatte ultimu
# ================================================================================================

def _bagatte(n: int, want: Any, contract_kind: str | None = None,
             keep: bool | None = None) -> Any:
    for seed in range(3000):
        h = R.generate(SIZE[n], seed, bagatte=True, keep_condition=keep,
                       contract_kind=contract_kind, declare_chance=0.0)
        if h.replay.bagatto and want(h.replay.bagatto, h):
            return h
    raise AssertionError("no such hand")


@pytest.mark.parametrize("n", [4, 3])
def test_s5_5_bagatte_won_is_paid_two_by_each_other_player(n: int) -> None:
    h = _bagatte(n, lambda b, h: b["valid"] and b["won"], "call", keep=True)
    got = score(n, h.trick_record())
    seat = h.replay.bagatto["seat"]
    assert got["bagatto"]["seat"] == seat and got["bagatto"]["won"] is True
    assert paid(got, "bagatte_ultimu") == {str(s): -2 for s in range(n)} | {
        str(seat): 2 * (n - 1)}
    assert got["marca"] == expected_of(h)["marca"]


@pytest.mark.parametrize("n", [4, 3])
def test_s5_5_petar_bagatte_pays_two_to_each_other_player(n: int) -> None:
    h = _bagatte(n, lambda b, h: b["valid"] and not b["won"], "call", keep=True)
    got = score(n, h.trick_record())
    seat = h.replay.bagatto["seat"]
    assert got["bagatto"]["won"] is False
    assert paid(got, "bagatte_ultimu") == {str(s): 2 for s in range(n)} | {
        str(seat): -2 * (n - 1)}
    assert got["marca"] == expected_of(h)["marca"]


def _breach(h: Any) -> tuple[int, str] | None:
    """Where the Bagatte's player broke the lead condition: (trick, the suit owed)."""
    seat, n = h.replay.bagatto["seat"], h.size.players
    owed = None
    for i, t in enumerate(h.tricks):
        if h.replay.leaders[i] != seat:
            continue
        rest = [tt[(seat - h.replay.leaders[j]) % n] for j, tt in enumerate(h.tricks) if j >= i]
        if owed and not any(R.suit_of(c) == owed for c in rest):
            owed = None
        if owed and R.suit_of(t[0]) != owed:
            return i, owed
        if R.is_plain(t[0]):
            owed = R.suit_of(t[0])
    return None


@pytest.mark.parametrize("n", [4, 3])
@pytest.mark.parametrize("won", [True, False])
def test_s5_5_attempt_breaking_the_lead_condition_scores_nothing(n: int, won: bool) -> None:
    h = _bagatte(n, lambda b, h: not b["valid"] and b["won"] == won, "call", keep=False)
    trick, owed = _breach(h)                       # derived here from the trick record
    seat = h.replay.bagatto["seat"]
    later = [t[(seat - h.replay.leaders[j]) % n] for j, t in enumerate(h.tricks) if j >= trick]
    assert any(R.suit_of(c) == owed for c in later)
    got = score(n, h.trick_record())
    assert got["bagatto"]["valid"] is False
    assert "bagatte_attempt_invalid" in got["events"]
    assert paid(got, "bagatte_ultimu") == {str(s): 0 for s in range(n)}
    assert got["marca"] == expected_of(h)["marca"]


def test_s5_5_the_lead_condition_ends_when_the_suit_is_gone() -> None:
    """A player who led a suit, ran out of it and then led another is still valid."""
    def released(b: Json, h: Any) -> bool:
        seat = b["seat"]
        led = [R.suit_of(t[0]) for i, t in enumerate(h.tricks)
               if h.replay.leaders[i] == seat and R.is_plain(t[0])]
        return b["valid"] and len(set(led)) >= 2
    h = _bagatte(4, released, keep=True)
    got = score(4, h.trick_record())
    assert got["bagatto"].get("valid", True) is True
    assert "bagatte_attempt_invalid" not in got["events"]
    assert paid(got, "bagatte_ultimu")[str(h.replay.bagatto["seat"])] != 0


def test_s5_5_bagatte_is_doubled_sans_prendre() -> None:
    h = _bagatte(4, lambda b, h: b["valid"], contract_kind="sans", keep=True)
    got = score(4, h.trick_record())
    seat = str(h.replay.bagatto["seat"])
    sign = 1 if h.replay.bagatto["won"] else -1
    assert paid(got, "bagatte_ultimu") == {str(s): -4 * sign for s in range(4)} | {
        seat: 12 * sign}
    assert got["marca"] == expected_of(h)["marca"]


def test_s5_5_bagatte_is_not_doubled_in_a_solo_with_a_call() -> None:
    h = _bagatte(4, lambda b, h: b["valid"], contract_kind="solo", keep=True)
    got = score(4, h.trick_record())
    assert max(abs(v) for v in paid(got, "bagatte_ultimu").values()) == 6


def test_s5_5_no_attempt_when_the_bagatte_is_not_in_the_last_trick() -> None:
    for seed in range(50):
        h = R.generate(R.FOUR, seed, bagatte=False)
        if h.replay.bagatto is None and "T1" not in h.discard:
            got = score(4, h.trick_record())
            assert got.get("bagatto") is None
            assert paid(got, "bagatte_ultimu") == marca(0, 0, 0, 0)
            return
    pytest.fail("no hand without Bagatte in the last trick")


def test_s5_5_a_typed_bagatto_must_agree_with_the_tricks() -> None:
    h = _bagatte(4, lambda b, h: b["valid"] and b["won"], keep=True)
    rec = h.trick_record()
    rec["bagatto"] = {"seat": h.replay.bagatto["seat"], "won": False}
    assert problems(4, rec)
    rec["bagatto"] = {"seat": h.replay.bagatto["seat"], "won": True, "valid": False}
    assert problems(4, rec)


def test_s5_5_summary_bagatto_typed_valid_or_not() -> None:
    rec = summary4(40, CALL | {"partner": 2}, dealer=0, keep={"T1": 0})
    won = score(4, rec | {"bagatto": {"seat": 2, "won": True}})
    assert paid(won, "bagatte_ultimu") == marca(-2, -2, 6, -2)
    invalid = score(4, rec | {"bagatto": {"seat": 2, "won": True, "valid": False}})
    assert paid(invalid, "bagatte_ultimu") == marca(0, 0, 0, 0)
    assert "bagatte_attempt_invalid" in invalid["events"]
    rec = summary4(40, SANS, dealer=0, keep={"T1": 1})
    lost = score(4, rec | {"bagatto": {"seat": 1, "won": False}})
    assert paid(lost, "bagatte_ultimu") == marca(4, -12, 4, 4)


# ================================================================================================
# §5.6 Settlement
# ================================================================================================

@pytest.mark.parametrize("points0,unit", [
    (37, 1), (36, -1), (54, 1), (55, 2), (18, -1), (17, -2), (72 - 20, 1), (5, -2)])
def test_s5_6_partida_four_call(points0: int, unit: int) -> None:
    """≥ 37 wins, ≤ 36 loses; each of declarer and partner collects (pays) 1 from (to) one
    opponent; doubled when either side has fewer than 18."""
    got = score(4, summary4(points0, CALL, dealer=0))
    assert got["marca"] == marca(unit, -unit, unit, -unit)
    for p in got["payments"]:
        assert p["marca"] == abs(unit)


@pytest.mark.parametrize("points0,unit", [
    (37, 1), (36, -1), (54, 1), (55, 2), (18, -1), (17, -2)])
def test_s5_6_partida_four_solo_collects_three(points0: int, unit: int) -> None:
    got = score(4, summary4(points0, SOLO, dealer=0))
    assert got["marca"] == marca(-unit, 3 * unit, -unit, -unit)


@pytest.mark.parametrize("points,want", [
    ((40, 25, 13), (2, -1, -1)),
    ((40, 26, 12), (2, 0, -2)),
    ((50, 16, 12), (3, -1, -2)),
    ((27, 26, 25), (1, 0, -1)),
    ((28, 38, 12), (0, 2, -2)),
    ((10, 11, 57), (-2, -2, 4)),
])
def test_s5_6_partida_three(points: tuple[int, int, int], want: tuple[int, ...]) -> None:
    """13 to 25 points pay 1 to the top scorer, fewer than 13 pay 2, 26 or more nothing."""
    got = score(3, summary3(points, dealer=1))
    assert got["columns"] == {str(s): p for s, p in enumerate(points)}
    assert got["marca"] == marca(*want)
    assert got["pot"] == 0
    assert got["top_scorer"] == points.index(max(points))


@pytest.mark.parametrize("points,want,pot", [
    ((30, 30, 18), (0, 0, -1), 1),
    ((27, 27, 24), (0, 0, -1), 1),
    ((33, 33, 12), (1, 1, -2), 0),
    ((20, 29, 29), (-1, 0, 0), 1),
    ((35, 8, 35), (1, -2, 1), 0),
    ((26, 26, 26), (0, 0, 0), 0),
])
def test_r15_tied_top_scorers_split_and_the_remainder_goes_to_the_pot(
        points: tuple[int, int, int], want: tuple[int, ...], pot: int) -> None:
    got = score(3, summary3(points, dealer=0))
    assert got["marca"] == marca(*want)
    assert got["pot"] == pot
    assert sum(got["marca"].values()) + got["pot"] == 0
    assert got.get("top_scorer") is None
    if pot:
        assert any(p["to"] == "pot" for p in got["payments"])


def test_r15_pot_is_collected_by_the_next_sole_top_scorer() -> None:
    setup = validate_game_setup(V3, {}, ["A", "B", "C"], 0)
    hands = [
        result_of(3, summary3((30, 30, 18), dealer=0)),          # pot 1
        result_of(3, summary3((20, 29, 29), dealer=1, seed=1)),  # pot 2
        result_of(3, {"dealer": 2, "thrown_in": True}),          # no change
        result_of(3, summary3((40, 25, 13), dealer=2, seed=2)),  # seat 0 collects 2
    ]
    s = game_summary(setup, hands[:2]).to_json()
    assert s["pot"] == 2 and s["balances"] == {"0": 9, "1": 10, "2": 9}
    s = game_summary(setup, hands[:3]).to_json()
    assert s["pot"] == 2
    s = game_summary(setup, hands).to_json()
    assert s["pot"] == 0
    assert s["balances"] == {"0": 9 + 2 + 2, "1": 10 - 1, "2": 9 - 1}
    assert [(c["seat"], c["marca"]) for c in s["pot_collected"]] == [("0", 2)]
    assert sum(s["balances"].values()) + s["pot"] == 30
    ref = R.game(3, [{"marca": {int(k): v for k, v in h.marca(3).items()}, "pot": h.pot,
                      "top_scorer": dict(h.facts).get("top_scorer")} for h in hands])
    assert {str(k): v for k, v in ref["balances"].items()} == s["balances"]


def test_r15_pot_waits_while_no_one_tops_alone() -> None:
    setup = validate_game_setup(V3, {}, ["A", "B", "C"], 0)
    hands = [result_of(3, summary3((30, 30, 18), dealer=0)),
             result_of(3, summary3((33, 33, 12), dealer=1, seed=5))]
    s = game_summary(setup, hands).to_json()
    assert s["pot"] == 1
    assert s["balances"] == {"0": 11, "1": 11, "2": 7}
    assert s["pot_collected"] == []


def test_s5_6_balances_start_at_ten_and_may_go_below_zero() -> None:
    setup = validate_game_setup(V4, {}, ["A", "B", "C", "D"], 0)
    losing = [result_of(4, summary4(5, SANS | {"declarer": d % 4}, dealer=d % 4, seed=d))
              for d in range(4)]
    s = game_summary(setup, [losing[0]]).to_json()
    assert s["balances"] == {"0": -2, "1": 14, "2": 14, "3": 14}
    s = game_summary(setup, losing).to_json()
    assert s["balances"] == {"0": 10, "1": 10, "2": 10, "3": 10}
    assert s["pot"] == 0
    assert s["next_dealer"] == 0


def test_s5_6_money_converts_the_balances_at_the_agreed_value() -> None:
    setup = validate_game_setup(V4, {"marca_value": "0.50"}, ["A", "B", "C", "D"], 0)
    hands = [result_of(4, summary4(40, SANS, dealer=0)),
             result_of(4, summary4(30, CALL | {"declarer": 1, "partner": 3}, dealer=1))]
    s = game_summary(setup, hands).to_json()
    assert s["balances"] == {"0": 9, "1": 15, "2": 9, "3": 7}
    assert {k: Decimal(v) for k, v in s["money"].items()} == {
        k: (Decimal(v) - 10) * Decimal("0.50") for k, v in s["balances"].items()}
    assert s["money"] == {"0": "-0.50", "1": "2.50", "2": "-0.50", "3": "-1.50"}
    for t in s["transfers"]:
        assert Decimal(t["money"]) == Decimal(t["marca"]) * Decimal("0.50")
    # without a value, no money
    plain = game_summary(validate_game_setup(V4, {}, ["A", "B", "C", "D"], 0), hands).to_json()
    assert not plain.get("money")


def _settles(transfers: list[Json], nets: dict[str, int]) -> bool:
    got = {k: 0 for k in nets}
    for t in transfers:
        got[t["from"]] = got.get(t["from"], 0) - t["marca"]
        got[t["to"]] = got.get(t["to"], 0) + t["marca"]
    return got == nets


def test_s5_6_game_transfers_settle_the_balances_in_fewest_moves() -> None:
    setup = validate_game_setup(V3, {"marca_value": "1"}, ["A", "B", "C"], 0)
    rng = random.Random(9)
    results = []
    for i in range(6):
        h = R.generate(R.THREE, 1000 + i, dealer=i % 3)
        results.append(result_of(3, h.trick_record()))
    results.append(result_of(3, summary3((30, 30, 18), dealer=0, seed=rng.randrange(99))))
    s = game_summary(setup, results).to_json()
    nets = {k: v - 10 for k, v in s["balances"].items()}
    if s["pot"]:
        nets["pot"] = s["pot"]
    assert _settles(s["transfers"], nets)
    assert len(s["transfers"]) == R.min_transfers_count(nets)
    assert all(t["marca"] > 0 for t in s["transfers"])


def test_s5_6_fewest_transfers_matches_a_brute_force() -> None:
    rng = random.Random(2024)
    for _ in range(300):
        k = rng.randint(1, 6)
        vals = [rng.randint(-6, 6) for _ in range(k - 1)]
        vals.append(-sum(vals))
        nets = {f"p{i}": v for i, v in enumerate(vals)}
        if rng.random() < 0.3:
            nets["pot"] = 0
        moves = fewest_transfers(dict(nets))
        got = {p: 0 for p in nets}
        for payer, payee, m in moves:
            assert m > 0 and payer != payee
            got[payer] -= m
            got[payee] += m
        assert got == nets, (nets, moves)
        brute = R.brute_force_transfers(nets, limit=len(nets))
        assert brute == R.min_transfers_count(nets)
        assert len(moves) == brute, (nets, moves)


# ================================================================================================
# R19 T20 is never beaten: it ends with the side whose player held it
# ================================================================================================

TAROTS_2_TO_10 = [f"T{i}" for i in range(2, 11)]


def r19(n: int, record: Json, dealt: tuple[frozenset[Any], ...] | None = None
        ) -> list[tuple[str, str, str | None]]:
    """Every problem of ``record`` (field, code, rule), the hand dealt as ``dealt`` where a
    board was."""
    variant = V[n]
    with pytest.raises(RecordInvalid) as caught:
        score_record(variant, resolve_options(variant, {}), record, dealt=dealt)
    return [(p.field, p.code, p.rule) for p in caught.value.problems]


def accepted(n: int, record: Json, dealt: tuple[frozenset[Any], ...] | None = None) -> Json:
    variant = V[n]
    return score_record(variant, resolve_options(variant, {}), record,
                        dealt=dealt)[1].to_json()


def _pile_index(record: Json, side: int) -> int:
    return next(i for i, p in enumerate(record["piles"]) if p["side"] == side)


def _angel_hands() -> list[tuple[int, Any, Json, list[Json]]]:
    """Hands whose record shows who held T20, each way a record can: (players, hand, its
    contract for the summary, its declarations)."""
    out: list[tuple[int, Any, Json, list[Json]]] = []
    h = R.search(R.THREE, 0, {1: list(R.HONOURS)}, ["2S", "3S", "4S"], None, lambda h: True)
    out.append((3, h, {}, [{"seat": 1, "kind": "mitigatti"}]))
    shown = ["T20", *TAROTS_2_TO_10]
    h = R.search(R.THREE, 2, {0: shown}, ["2D", "3D", "4D"], None, lambda h: True)
    out.append((3, h, {}, [{"seat": 0, "kind": "ten_tarocchi", "cards": shown}]))
    call = {"type": "call", "declarer": 1, "called_card": "T20"}
    h = R.search(R.FOUR, 1, {1: list(R.KINGS)}, ["2C", "3C"], call,
                 lambda h: "T20" not in h.hands[1])
    out.append((4, h, call, []))
    solo = {"type": "solo", "declarer": 2, "called_card": "T20"}
    h = R.search(R.FOUR, 0, {2: ["T20"]}, ["2C", "3C"], solo, lambda h: True)
    out.append((4, h, solo, []))
    return out


ANGEL_HANDS = _angel_hands()
ANGEL_IDS = ["3-mitigatti", "3-ten-tarocchi", "4-call-of-t20", "4-solo-calling-t20"]


def _angel_record(h: Any, contract: Json, declarations: list[Json], form: str) -> Json:
    rec = h.summary_record(form)
    if contract:
        rec["contract"] = {**contract, **({"partner": h.partner} if h.partner is not None
                                          else {})}
    if declarations:
        rec["declarations"] = declarations
    return rec


def _angel_side(h: Any) -> int:
    return next(s for s, p in h.pile_cards().items() if "T20" in p)


@pytest.mark.parametrize("form", ["cards", "counting"])
@pytest.mark.parametrize(("n", "h", "contract", "declarations"), ANGEL_HANDS, ids=ANGEL_IDS)
def test_r19_t20_always_ends_with_the_side_that_held_it(
        n: int, h: Any, contract: Json, declarations: list[Json], form: str) -> None:
    """Each record that shows who held T20 (a mitigatti or ten tarocchi declaration, a call
    of it, a solo that called it) fixes its pile: the record as played is scored; T20 moved
    to any other side's pile is refused there, and for nothing else."""
    rec = _angel_record(h, contract, declarations, form)
    accepted(n, rec)
    own = _angel_side(h)
    others = [p["side"] for p in rec["piles"] if p["side"] != own]
    assert others
    for other in others:
        moved = R.move_card(rec, "T20", other)
        assert r19(n, moved) == [(f"piles[{_pile_index(moved, other)}]",
                                  "kept_card_misplaced", "R19")]


def test_r19_refusal_names_the_card_and_the_side_whose_pile_it_was_put_in() -> None:
    n, h, contract, declarations = ANGEL_HANDS[0]
    rec = R.move_card(_angel_record(h, contract, declarations, "cards"), "T20", 2)
    variant = V[n]
    with pytest.raises(RecordInvalid) as caught:
        score_record(variant, resolve_options(variant, {}), rec)
    (problem,) = caught.value.problems
    assert problem.message.template == ("{card} cannot be in {side}'s pile: {card} is never "
                                        "beaten, so it ends with the side that held it")
    assert problem.message.values["card"].code == "T20"
    assert problem.message.values["side"].seats == (2,)
    assert set(problem.message.values) == {"card", "side"}


def test_r19_t20_wins_every_trick_it_is_played_to() -> None:
    """In a trick record T20 is never beaten by construction: whatever is played with it,
    the engine gives it the trick, the replayed piles put it with its player's side, and
    piles typed beside the tricks may not move it."""
    assert winner("T21", "T20", "T19", "T18") == 1
    assert winner("T20", "T21", "FOOL", "T1") == 0
    assert winner("2H", "3H", "KH", "T20") == 3
    for n in (4, 3):
        for seed in range(30):
            h = R.generate(SIZE[n], seed)
            got = score(n, h.trick_record())
            for trick in got["tricks"]:
                if "T20" in trick["cards"]:
                    played_by = (trick["leader"] + trick["cards"].index("T20")) % n
                    assert trick["winner"] == played_by
                    held = next(s for s in got["sides"] if played_by in s["seats"])
                    assert "T20" in held["lines"][0]["counting_cards"]
    h = R.generate(R.FOUR, 3)
    rec = h.trick_record()
    rec["piles"] = R.move_card(h.summary_record("cards"), "T20", 1 - _angel_side(h))["piles"]
    assert any(field.startswith("piles") for field, _, _ in r19(4, rec))


def _points(n: int, dealer: int, mine: int, side: int = 0, **extra: Any) -> Json:
    """A summary by points: ``side`` took ``mine``, the others the rest of the hand."""
    total = {4: 72, 3: 78}[n]
    sides = 2 if n == 4 else 3
    rest = [s for s in range(sides) if s != side]
    piles = [{"side": side, "points": mine}]
    left = total - mine
    for k, s in enumerate(rest):
        share = left if k == len(rest) - 1 else left // len(rest)
        piles.append({"side": s, "points": share})
        left -= share
    return {"dealer": dealer, "piles": piles, **extra}


TEN_WITH_FOOL = ["FOOL", "T20", "T21", "T19", "T18", "T17", "T16", "T15", "T14", "T13"]


def test_r19_side_holding_t20_and_fool_by_points_has_at_least_9() -> None:
    """T20 (4) and the trick it won (1), the Fuole (4): 9, whichever record shows them."""
    for declared in ([{"seat": 0, "kind": "ten_tarocchi", "cards": TEN_WITH_FOOL}],
                     [{"seat": 0, "kind": "mitigatti"}]):
        for points in (5, 8):
            rec = {"dealer": 1, "discard": ["2H", "3H", "4H"], "declarations": declared,
                   "piles": [{"side": 0, "points": points}, {"side": 1, "points": 40},
                             {"side": 2, "points": 38 - points}]}
            assert r19(3, rec) == [("piles[0].points", "points_below_cards", "R19")]
        rec["piles"] = [{"side": 0, "points": 9}, {"side": 1, "points": 40},
                        {"side": 2, "points": 29}]
        assert accepted(3, rec)["columns"]["0"] == 9
    # the Fuole's player shown by the fool record, T20's by a call of it
    solo = {"type": "solo", "declarer": 2, "called_card": "T20"}
    rec = _points(4, 0, 8, contract=solo, fool={"played_by": 2})
    assert r19(4, rec) == [("piles[0].points", "points_below_cards", "R19")]
    assert accepted(4, _points(4, 0, 9, contract=solo, fool={"played_by": 2}))


def test_r19_side_holding_t20_alone_by_points_has_at_least_5() -> None:
    """Without the Fuole the side has T20 (4) and the trick T20 won (1)."""
    shown = ["T20", *TAROTS_2_TO_10]
    rec = _points(3, 1, 4, declarations=[{"seat": 0, "kind": "ten_tarocchi", "cards": shown}])
    assert r19(3, rec) == [("piles[0].points", "points_below_cards", "R19")]
    rec = _points(3, 1, 5, declarations=[{"seat": 0, "kind": "ten_tarocchi", "cards": shown}])
    assert accepted(3, rec)["columns"]["0"] == 5
    solo = {"type": "solo", "declarer": 2, "called_card": "T20"}
    assert r19(4, _points(4, 0, 4, contract=solo)) == [
        ("piles[0].points", "points_below_cards", "R19")]
    assert accepted(4, _points(4, 0, 5, contract=solo))
    # the Fuole held by the other side adds nothing to T20's
    rec = _points(4, 0, 4, contract=solo, fool={"played_by": 1})
    assert r19(4, rec) == [("piles[0].points", "points_below_cards", "R19")]


def test_r19_refusal_by_points_explains_the_least() -> None:
    rec = {"dealer": 1, "discard": ["2H", "3H", "4H"],
           "declarations": [{"seat": 0, "kind": "ten_tarocchi", "cards": TEN_WITH_FOOL}],
           "piles": [{"side": 0, "points": 5}, {"side": 1, "points": 40},
                     {"side": 2, "points": 33}]}
    with pytest.raises(RecordInvalid) as caught:
        score(3, rec)
    (problem,) = caught.value.problems
    values = problem.message.values
    assert values["card"].code == "T20" and values["side"].seats == (0,)
    assert (values["least"], values["points"]) == (9, 5)
    parts = values["parts"]
    said = [(p.template, p.values.get("points"), getattr(p.values.get("card"), "code", None))
            for p in parts.values.values()]
    assert said == [("{points} for {card}", 4, "T20"), ("1 for the trick it won", None, None),
                    ("{points} for {card}", 4, "FOOL")]


def test_r19_the_dealers_side_holding_t20_brings_the_discard_too() -> None:
    """The discard is the dealer's side's: 1 and its counting cards (here a Queen and a
    Cavalier, 5) on top of T20's 5."""
    shown = ["T20", *TAROTS_2_TO_10]
    decl = [{"seat": 0, "kind": "ten_tarocchi", "cards": shown}]
    rec = _points(3, 0, 10, discard=["QH", "CH", "2S"], declarations=decl)
    assert r19(3, rec) == [("piles[0].points", "points_below_cards", "R19")]
    assert accepted(3, _points(3, 0, 11, discard=["QH", "CH", "2S"], declarations=decl))


def test_r19_the_bagatte_that_won_the_last_trick_brings_its_own_trick() -> None:
    """T1 won the last trick, a trick other than T20's (every other tarot was played
    before it): 4 + 1 more, so 14 with T20 and the Fuole."""
    rec = _points(3, 1, 13, declarations=[{"seat": 0, "kind": "mitigatti"}],
                  bagatto={"seat": 0, "won": True, "valid": True})
    assert r19(3, rec) == [("piles[0].points", "points_below_cards", "R19")]
    assert accepted(3, _points(3, 1, 14, declarations=[{"seat": 0, "kind": "mitigatti"}],
                               bagatto={"seat": 0, "won": True, "valid": True}))


def _dealt(h: Any) -> tuple[frozenset[Any], ...]:
    """What each seat of a generated hand held before the discard, as a board deals."""
    return tuple(frozenset(V[h.size.players].pack.card(c) for c in
                           [*h.hands[s], *(h.discard if s == h.dealer else [])])
                 for s in range(h.size.players))


def test_r19_a_board_dealt_by_the_service_shows_who_held_t20() -> None:
    """At a duplicate table the board's deal says who held T20, the record need not."""
    h = R.search(R.THREE, 0, {1: ["T20", "FOOL"]}, ["2S", "3S", "4S"], None, lambda h: True)
    rec = h.summary_record("cards")
    dealt = _dealt(h)
    accepted(3, rec, dealt)
    for other in (0, 2):
        moved = R.move_card(rec, "T20", other)
        accepted(3, moved)                                  # a table's own deal: unknown
        assert r19(3, moved, dealt) == [(f"piles[{_pile_index(moved, other)}]",
                                         "kept_card_misplaced", "R19")]
    points = {"dealer": 0, "piles": [{"side": 1, "points": 8}, {"side": 0, "points": 40},
                                     {"side": 2, "points": 30}]}
    accepted(3, points)
    assert r19(3, points, dealt) == [("piles[0].points", "points_below_cards", "R19")]
    points["piles"] = [{"side": 1, "points": 9}, {"side": 0, "points": 40},
                       {"side": 2, "points": 29}]
    accepted(3, points, dealt)


def test_r19_a_solo_declarer_may_give_t20_back_for_the_called_card() -> None:
    """A board dealt T20 to a solo declarer who called another card: the face-down card
    given in return may be T20, so the board alone does not say where it ended."""
    solo = {"type": "solo", "declarer": 2, "called_card": "T21", "partner": 1}
    h = R.search(R.FOUR, 0, {2: ["T20", "T21"]}, ["2C", "3C"], solo, lambda h: True)
    dealt = _dealt(h)
    assert accepted(4, _points(4, 0, 4, contract=solo), dealt)
    sans = {"type": "solo", "declarer": 2, "sans_prendre": True}
    assert r19(4, _points(4, 0, 4, contract=sans), dealt) == [
        ("piles[0].points", "points_below_cards", "R19")]


#: A hand whose ten tarocchi show T20 and the Fuole with seat 0, its pile given 5 points: R19
#: refuses it (9 at least), the rules before R19 took it.
SHORT_OF_T20 = {"dealer": 1, "discard": ["2H", "3H", "4H"],
                "declarations": [{"seat": 0, "kind": "ten_tarocchi", "cards": TEN_WITH_FOOL}],
                "piles": [{"side": 0, "points": 5}, {"side": 1, "points": 40},
                          {"side": 2, "points": 33}]}


def test_r19_binds_the_hands_recorded_from_the_rules_version_that_brought_it() -> None:
    """R19 only refuses records: a hand recorded and accepted under an earlier rules version
    is scored without it, keeps its result and says the rules now would refuse it; a record
    under the current rules, or a version not written as numbers, is held to it."""
    assert waived_rulings("2026.11.2") == waived_rulings("2026.9") == {"R19"}
    assert waived_rulings(RULES_VERSION) == waived_rulings("2026.11.10") == frozenset()
    assert waived_rulings("test") == frozenset()
    options = resolve_options(V3, {})
    _, before = score_record(V3, options, SHORT_OF_T20, rules_version="2026.11.2")
    assert before.to_json()["columns"] == {"0": 5, "1": 40, "2": 33}
    note = before.earlier_rules
    assert note is not None
    assert (note.values["version"], note.values["rulings"]) == ("2026.11.2", "R19")
    (reason,) = note.values["reasons"].values.values()
    assert (reason.values["least"], reason.values["points"]) == (9, 5)
    for rules in (RULES_VERSION, "test"):
        with pytest.raises(RecordInvalid) as caught:
            score_record(V3, options, SHORT_OF_T20, rules_version=rules)
        assert [p.rule for p in caught.value.problems] == ["R19"]
    assert "earlier_rules" not in score(3, {**SHORT_OF_T20, "piles": [
        {"side": 0, "points": 9}, {"side": 1, "points": 40}, {"side": 2, "points": 29}]})


def test_r19_waives_nothing_else_for_a_hand_recorded_before_it() -> None:
    """A record the rules before R19 refused too stays refused, every problem said."""
    broken = {**SHORT_OF_T20, "piles": [{"side": 0, "points": 5}, {"side": 1, "points": 0},
                                        {"side": 2, "points": 73}]}
    with pytest.raises(RecordInvalid) as caught:
        score_record(V3, resolve_options(V3, {}), broken, rules_version="2026.11.2")
    assert sorted((p.code, p.rule) for p in caught.value.problems) == [
        ("discard_outside_dealer_side", "§5.1"), ("points_below_cards", "R19")]


# ================================================================================================
# §6 What the service must detect
# ================================================================================================

def test_s6_foreign_duplicate_and_missing_cards() -> None:
    h = R.generate(R.FOUR, 31)
    rec = h.trick_record()
    rec["tricks"][0][0] = "ZZ"
    assert problems(4, rec)
    rec = h.trick_record()
    rec["tricks"][1][1] = rec["tricks"][0][1]
    assert problems(4, rec)
    rec = h.trick_record()
    rec["tricks"] = rec["tricks"][:-1]
    assert problems(4, rec)
    rec = summary4(40, CALL)
    rec["piles"][0]["counting"] = list(rec["piles"][0]["counting"]) + ["11H"]
    assert problems(4, rec)


def test_s6_a_revoke_is_reported_not_blocking() -> None:
    for seed in range(200):
        h = R.generate(R.FOUR, seed)
        rp = h.replay
        for i, t in enumerate(h.tricks):
            lead = R.effective_lead(t)
            if lead is None or not R.is_plain(lead):
                continue
            for pos in range(1, 4):
                seat = (rp.leaders[i] + pos) % 4
                if R.suit_of(t[pos]) != R.suit_of(lead):
                    continue
                # a later card of this seat of another suit, not the Fuole, not a trump
                for j in range(i + 1, len(h.tricks)):
                    pj = (seat - rp.leaders[j]) % 4
                    c = h.tricks[j][pj]
                    if R.is_plain(c) and R.suit_of(c) != R.suit_of(lead) and pj != 0:
                        lead_j = R.effective_lead(h.tricks[j])
                        if lead_j and R.is_plain(lead_j) and R.suit_of(lead_j) == R.suit_of(c):
                            continue
                        rec = h.trick_record()
                        rec["tricks"][i][pos], rec["tricks"][j][pj] = c, t[pos]
                        if (R.trick_winner(rec["tricks"][i]) != R.trick_winner(t)
                                or R.trick_winner(rec["tricks"][j])
                                != R.trick_winner(h.tricks[j])):
                            continue
                        got = score(4, rec)
                        assert any(v["seat"] == seat and v["trick"] in (i, i + 1)
                                   for v in got["violations"]), got["violations"]
                        return
    pytest.fail("no revoke constructed")
