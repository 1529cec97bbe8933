"""rulebook §0 and §2.5: the follow rules, the Fool, trick winners, and the referee's rulings on a
disputed trick (``POST /adjudicate/trick``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain.core.cards import Card
from service.domain.core.errors import RecordInvalid
from service.domain.hand.adjudication import adjudicate_trick
from service.domain.hand.tricks import breach_of, effective_lead, legal_plays, trick_winner
from service.domain.registry import find_variant

G3 = find_variant("gatti-3")
G4 = find_variant("gatti-4")


def cards(*codes: str) -> list[Card]:
    return [G3.pack.card(c) for c in codes]


# -- §0 follow rules ------------------------------------------------------------------------


def test_s0_leader_may_play_anything() -> None:
    hand = cards("KH", "T5", "FOOL", "2S")
    assert legal_plays(hand, []) == frozenset(hand)


def test_s0_must_follow_suit_if_able() -> None:
    hand = cards("3H", "T5", "2S")
    assert legal_plays(hand, cards("KH")) == frozenset(cards("3H"))


def test_s0_void_in_suit_must_trump_if_able() -> None:
    hand = cards("T5", "T9", "2S")
    assert legal_plays(hand, cards("KH")) == frozenset(cards("T5", "T9"))


def test_s0_void_in_suit_and_trumps_plays_anything() -> None:
    hand = cards("2S", "QC")
    assert legal_plays(hand, cards("KH")) == frozenset(hand)


def test_s0_trumps_led_must_play_a_trump_if_able() -> None:
    hand = cards("T2", "KH")
    assert legal_plays(hand, cards("T10")) == frozenset(cards("T2"))


def test_s0_no_obligation_to_overtrump() -> None:
    hand = cards("T2", "T21")
    assert legal_plays(hand, cards("KH", "T10")) == frozenset(hand)


def test_s0_the_fool_may_always_be_played() -> None:
    hand = cards("3H", "FOOL")
    assert cards("FOOL")[0] in legal_plays(hand, cards("KH"))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["gatti-3", "ottocento", "mitigatti-4"]), st.data())
def test_s0_legal_plays_are_the_plays_no_follow_rule_forbids(vid: str, data: st.DataObject
                                                              ) -> None:
    """legal_plays works in one pass what breach_of says card by card, in every pack."""
    pack = list(find_variant(vid).pack.cards)
    hand = data.draw(st.lists(st.sampled_from(pack), min_size=1, max_size=12, unique=True))
    rest = [c for c in pack if c not in hand]
    trick = data.draw(st.lists(st.sampled_from(rest), max_size=3, unique=True))
    expected = frozenset(c for c in hand if breach_of(trick, c, hand) is None)
    assert legal_plays(hand, trick) == expected


def test_s0_a_led_fool_lets_the_next_card_set_the_suit() -> None:
    assert effective_lead(cards("FOOL", "3S")) == cards("3S")[0]
    assert legal_plays(cards("KH", "T5"), cards("FOOL")) == frozenset(cards("KH", "T5"))
    assert legal_plays(cards("KS", "KH"), cards("FOOL", "3S")) == frozenset(cards("KS"))


# -- §2.5 trick winner ----------------------------------------------------------------------


def test_s2_5_highest_trump_wins() -> None:
    assert trick_winner(G3, cards("KH", "T2", "T9")) == 2


def test_s2_5_without_trumps_the_highest_of_the_suit_led_wins() -> None:
    assert trick_winner(G3, cards("10H", "KS", "JH")) == 2


def test_s2_5_the_judgment_beats_the_world() -> None:
    assert trick_winner(G3, cards("T20", "T21", "T19")) == 0


def test_s2_5_the_fool_never_wins() -> None:
    assert trick_winner(G3, cards("FOOL", "2H", "3H")) == 2
    assert trick_winner(G3, cards("2H", "FOOL", "1H")) == 0


def test_s0_equal_trumps_the_last_played_wins() -> None:
    # Gatti has no equal trumps; a variant that has them (Moors, Papote) ranks them as one
    # group, and of several topping a trick the last played wins.
    from dataclasses import replace

    with_equals = replace(G4, ranks=replace(G4.ranks, trumps=(("T1",), ("T2", "T3", "T4", "T5"))
                                            + tuple((f"T{n}",) for n in range(6, 22))))
    assert trick_winner(with_equals, cards("T3", "T2", "T5", "T4")) == 3
    assert trick_winner(with_equals, cards("T3", "T2", "T1", "KH")) == 1


# -- revokes --------------------------------------------------------------------------------


def test_s6_a_revoke_needs_proof() -> None:
    # A player who did not follow breaks no rule that can be shown without a held card.
    assert breach_of(cards("KH"), cards("2S")[0], []) is None
    breach = breach_of(cards("KH"), cards("2S")[0], cards("4H"))
    assert breach is not None and breach.rule == "must_follow_suit"
    breach = breach_of(cards("KH"), cards("2S")[0], cards("T4"))
    assert breach is not None and breach.rule == "must_trump"
    breach = breach_of(cards("T8"), cards("2S")[0], cards("T4"))
    assert breach is not None and breach.rule == "must_follow_trump"


# -- adjudication ---------------------------------------------------------------------------


def test_adjudicate_names_the_winner() -> None:
    ruling = adjudicate_trick(G3, 1, ["10H", "KS", "JH"])
    assert ruling.winner == 0  # seat 1 led, seat 2 played KS, seat 0 the jack
    assert [p["legal"] for p in ruling.plays] == [True, True, True]


def test_adjudicate_a_known_hand_proves_a_revoke() -> None:
    ruling = adjudicate_trick(G3, 0, ["KH", "3S", "T5"], hands={"1": ["3S", "4H"]})
    bad = ruling.to_json()["violations"]
    assert [(v["seat"], v["card"], v["rule"]) for v in bad] == [(1, "3S", "must_follow_suit")]
    assert bad[0]["proof"] == {"hand": True, "card": "4H"}
    assert ruling.plays[1]["legal"] is False


def test_adjudicate_the_disputed_trick_proves_a_revoke_in_the_history() -> None:
    # Trick 1: seat 2 showed out of hearts; in trick 2 it plays a heart.
    history = [{"leader": 0, "cards": ["2H", "5H", "9S"]}]
    ruling = adjudicate_trick(G3, 1, ["7C", "4H", "8C"], history=history)
    assert [(v.trick, v.seat, v.card, v.rule) for v in ruling.violations] == [
        (1, 2, "9S", "must_follow_suit")]
    assert ruling.violations[0].proof == {"trick": 2, "card": "4H"}


def test_adjudicate_rejects_a_wrong_leader_and_cards_played_twice() -> None:
    history = [{"leader": 0, "cards": ["2H", "5H", "9S"]}]
    with pytest.raises(RecordInvalid) as caught:
        adjudicate_trick(G3, 2, ["7C", "5H", "8C"], history=history)
    codes = {(p.field, p.code) for p in caught.value.problems}
    assert ("cards[1]", "card_played_twice") in codes


def test_adjudicate_wrong_leader() -> None:
    history = [{"leader": 0, "cards": ["2H", "5H", "9S"]}]
    with pytest.raises(RecordInvalid) as caught:
        adjudicate_trick(G3, 2, ["7C", "4H", "8C"], history=history)
    assert {(p.field, p.code) for p in caught.value.problems} == {("leader", "wrong_leader")}


def test_adjudicate_an_unfinished_trick_names_who_is_winning() -> None:
    assert adjudicate_trick(G4, 3, ["3C", "T1"]).winner == 0
    assert adjudicate_trick(G4, 3, ["FOOL"]).winner is None


def test_s0_round_suits_may_rank_their_pips_in_reverse() -> None:
    # Ottocento and Mitigatti rank the pips of cups and coins the other way round; a variant
    # says so with its ranks' round_suits, and only hearts (cups) and diamonds (coins) follow it.
    from dataclasses import replace

    reversed_pips = ("10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "J", "C", "Q", "K")
    round_suits = replace(G3, ranks=replace(G3.ranks, round_suits=reversed_pips))
    assert trick_winner(round_suits, cards("10H", "1H", "5H")) == 1
    assert trick_winner(round_suits, cards("10S", "1S", "5S")) == 0
    assert trick_winner(round_suits, cards("1D", "JD", "2D")) == 1
