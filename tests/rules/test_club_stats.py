"""docs/clubs.md's "Statistics", in the rules core: what a counted game's hands give
each member (dealt, declared by kind, called or were called, played solo, won the Bagatto
ultimo, had a hand disputed), and a member's figures summed from their rows (wins with a
shared first place counted as its share, the average place, points per hand and per game,
Mitigatti's marca, partners and opponents met most, points per hand by month), every figure
saying what it counts and one from fewer than 5 games saying so."""

from __future__ import annotations

import datetime as dt
from typing import Any

from service.domain import (
    FEW_GAMES,
    GameSetup,
    MemberRow,
    PlayedHand,
    Season,
    counted_in,
    find_variant,
    fold,
    folded_stats,
    game_facts,
    game_summary,
    member_stats,
    refold,
    score_record,
    seat_results,
)
from service.domain.clubs.stats import MOST_MET, evenings_by_day, seat_facts

UTC = dt.UTC
# Gatti's counting cards (rulebook §2.1), all in one pile.
COUNTING = ["T1", "T21", "FOOL", *(f"{rank}{suit}" for rank in "KQCJ" for suit in "HDCS")]


def played(variant: str, *records: dict[str, Any], disputed: tuple[int, ...] = ()) -> list[
        PlayedHand]:
    """The records scored by the rules, as the projection hands them over (the canonical
    record, its result, whether it stands disputed: ``disputed`` by index)."""
    rules = find_variant(variant)
    out = []
    for i, raw in enumerate(records):
        record, result = score_record(rules, {}, raw, expected_dealer=raw["dealer"])
        out.append(PlayedHand(record.to_json(), result, i in disputed))
    return out


def points(dealer: int, side0: int = 40, **extra: Any) -> dict[str, Any]:
    return {"dealer": dealer, "piles": [{"side": 0, "points": side0}], **extra}


def test_statistics_a_seat_dealt_its_hands_thrown_in_deals_too() -> None:
    hands = played("mitigatti-3", {"dealer": 0, "thrown_in": True},
                   {"dealer": 0, "piles": [{"side": 0, "points": 40},
                                           {"side": 1, "points": 20}]},
                   {"dealer": 1, "piles": [{"side": 0, "points": 30},
                                           {"side": 1, "points": 30}]})
    rules = find_variant("mitigatti-3")
    assert [seat_facts(rules, hands, seat).get("dealt", 0) for seat in range(3)] == [2, 1, 0]


def test_statistics_declarations_are_counted_by_kind_as_the_records_carry_them() -> None:
    hands = played("gatti-3", {
        "dealer": 0, "discard": ["2H", "3H", "4S"],
        "declarations": [{"seat": 1, "kind": "family", "suit": "D"},
                         {"seat": 1, "kind": "family", "suit": "H"},
                         {"seat": 2, "kind": "family", "suit": "S"}],
        "piles": [{"side": 0, "tricks": 10, "counting": COUNTING},
                  {"side": 1, "tricks": 8, "counting": []},
                  {"side": 2, "tricks": 8, "counting": []}]})
    rules = find_variant("gatti-3")
    assert seat_facts(rules, hands, 1)["declared"] == {"family": 2}
    assert seat_facts(rules, hands, 2)["declared"] == {"family": 1}
    assert "declared" not in seat_facts(rules, hands, 0)


def test_statistics_a_called_card_the_caller_the_called_and_the_dealer_alone() -> None:
    hands = played("gatti-4-call",
                   points(0, call={"card": "KH", "partner": 3}),
                   points(1, call={"card": "KH", "partner": 0}),
                   points(2, call={"card": "KH", "partner": 2}))
    rules = find_variant("gatti-4-call")
    facts = [seat_facts(rules, hands, seat) for seat in range(4)]
    assert [(f.get("called", 0), f.get("partnered", 0), f.get("solo", 0)) for f in facts] == [
        (1, 1, 0), (1, 0, 0), (0, 0, 1), (0, 1, 0)]


def test_statistics_mitigatti_contracts_call_solo_and_accusations() -> None:
    hands = played("mitigatti-4",
                   points(0, contract={"type": "call", "declarer": 0, "called_card": "KC",
                                       "partner": 2}),
                   points(1, 30, contract={"type": "solo", "declarer": 3}),
                   points(2, contract={"type": "call", "declarer": 2, "called_card": "KC",
                                       "partner": 0},
                          declarations=[{"seat": 1, "kind": "mitigatti"}]),
                   disputed=(1,))
    rules = find_variant("mitigatti-4")
    facts = [seat_facts(rules, hands, seat) for seat in range(4)]
    assert [(f.get("called", 0), f.get("partnered", 0), f.get("solo", 0)) for f in facts] == [
        (1, 1, 0), (0, 0, 0), (1, 1, 0), (0, 0, 1)]
    assert facts[1]["declared"] == {"mitigatti": 1}
    assert [f["disputed"] for f in facts] == [1, 1, 1, 1]


def test_statistics_bagatto_ultimo_won_counts_for_its_seat_only() -> None:
    base = {"discard": ["2H", "3H", "4S"], "piles": [
        {"side": 0, "tricks": 10, "counting": COUNTING}, {"side": 1, "tricks": 8, "counting": []},
        {"side": 2, "tricks": 8, "counting": []}]}
    hands = played("gatti-3", {"dealer": 0, **base, "bagatto": {"seat": 0, "won": True}},
                   {"dealer": 1, **base, "bagatto": {"seat": 1, "won": False}})
    rules = find_variant("gatti-3")
    assert seat_facts(rules, hands, 0).get("bagatto") == 1
    assert "bagatto" not in seat_facts(rules, hands, 1)


def test_statistics_a_dummys_seat_counts_with_its_player() -> None:
    hands = played("gatti-2", points(0), points(1), points(2), points(3))
    rules = find_variant("gatti-2")
    assert seat_facts(rules, hands, 0)["dealt"] == 2  # seat 0 and its dummy's, seat 2
    assert seat_facts(rules, hands, 1)["dealt"] == 2


def test_statistics_a_games_rows_say_their_partners_and_each_others_place() -> None:
    rules = find_variant("gatti-4")
    setup = GameSetup(rules, {}, ("A", "B", "C", "D"), 0)
    hands = played("gatti-4", *(
        {"dealer": d, "piles": [{"side": 0, "points": 50}, {"side": 1, "points": 22}]}
        for d in range(4)))
    summary = game_summary(setup, [h.result for h in hands])
    rows = seat_results(summary, ("a", "b", "c", None), {"a": "a", "b": "b", "c": "z"})
    facts = game_facts(rules, hands, rows)
    assert [(r.counted_for, r.column) for r in rows] == [("a", 0), ("z", 0), ("b", 1)]
    assert facts[0]["partners"] == ["z"] and facts[0]["against"] == {"b": 2}
    assert facts[2]["partners"] == [] and facts[2]["against"] == {"a": 1, "z": 1}


def row(game: str, place: int, *, shared: int = 1, points: int = 60, hands: int = 3,
        variant: str = "gatti-3", family: str = "gatti", month: int = 3, day: int = 5,
        marca: int | None = None, event: str | None = None,
        facts: dict[str, Any] | None = None) -> MemberRow:
    return MemberRow(game, event, family, variant,
                     dt.datetime(2026, month, day, 22, 0, tzinfo=UTC), place, shared, points,
                     hands, marca, facts if facts is not None else {"partners": [],
                                                                   "against": {}})


def figures(found: Any) -> dict[str, Any]:
    return {f["key"]: f["value"] for f in found["figures"]}


def test_statistics_a_shared_first_place_counts_its_share() -> None:
    rows = [row("g1", 1), row("g2", 1, shared=2), row("g3", 1, shared=3), row("g4", 2)]
    stats = member_stats(rows, {}.get)
    found = figures(stats.families[0].to_json(str))
    assert found["wins"] == round(1 + 1 / 2 + 1 / 3, 2) == 1.83
    assert found["average_place"] == 1.25
    assert (found["games"], found["hands"]) == (4, 12)


def test_statistics_points_per_hand_and_game_round_half_up_to_two_decimals() -> None:
    rows = [row("g1", 1, points=10, hands=3), row("g2", 2, points=-1, hands=5)]
    found = figures(member_stats(rows, {}.get).families[0].to_json(str))
    assert found["points_per_hand"] == 1.13  # 9 / 8 = 1.125
    assert found["points_per_game"] == 4.5
    marca = [row("e1", 2, points=-3, hands=4, family="mitigatti", variant="mitigatti-4",
                 marca=-3),
             row("e2", 1, points=5, hands=4, family="mitigatti", variant="mitigatti-4",
                 marca=5, day=6)]
    found_marca = member_stats(marca, {}.get).families[0].to_json(str)
    assert figures(found_marca)["points_per_hand"] == 0.25
    assert [figures(found_marca)[k] for k in ("marca_won", "marca_lost", "marca_balance")] == [
        5, 3, 2]
    assert [(e["marca"], e["balance"]) for e in found_marca["balance"]["evenings"]] == [
        (-3, -3), (5, 2)]


def test_statistics_sum_the_facts_and_list_each_kind_of_the_family() -> None:
    rows = [row("g1", 1, facts={"dealt": 1, "bagatto": 1, "declared": {"gatti": 1}}),
            row("g2", 2, facts={"dealt": 2, "disputed": 1, "declared": {"gatti": 1,
                                                                        "family": 2}})]
    found = member_stats(rows, {}.get).families[0].to_json(str)
    assert {k: figures(found)[k] for k in ("dealt", "bagatto", "disputed")} == {
        "dealt": 3, "bagatto": 1, "disputed": 1}
    kinds = {d["kind"]: d["value"] for d in found["declared"]["kinds"]}
    assert kinds == {"frilli": 0, "trumps": 0, "gatti": 2, "family": 2, "four_of_a_kind": 0,
                     "three_of_a_kind": 0}
    assert "called" not in figures(found)  # gatti-3 calls no card


def test_statistics_partners_and_opponents_count_for_whom_they_count_now() -> None:
    rows = [row("g1", 1, facts={"partners": ["p"], "against": {"x": 2, "y": 2}}),
            row("g2", 2, facts={"partners": ["q"], "against": {"x": 1, "gone": 1}}),
            row("g3", 1, shared=2, facts={"partners": [], "against": {"x": 1}})]
    # q was merged into p; "gone" was forgotten.
    who = {"p": "p", "q": "p", "x": "x", "y": "y", "gone": None}.get
    found = member_stats(rows, who).families[0].to_json(lambda m: m.upper())
    partners = found["partners"]["members"]
    assert [(m["member"], m["games"], m["wins"]) for m in partners] == [
        ({"id": "p", "name": "P"}, 2, 1)]
    opponents = {m["member"]["id"]: (m["games"], m["ahead"], m["level"], m["behind"])
                 for m in found["opponents"]["members"]}
    assert opponents == {"x": (3, 1, 1, 1), "y": (1, 1, 0, 0)}


def test_statistics_list_the_members_met_most() -> None:
    rows = [row(f"g{i}", 1, facts={"partners": [], "against": {f"m{k:02}": 2
                                                                for k in range(i + 1)}})
            for i in range(MOST_MET + 3)]
    found = member_stats(rows, {}.get)
    opponents = member_stats(rows, lambda m: m).families[0].to_json(str)["opponents"]["members"]
    assert len(opponents) == MOST_MET
    assert [m["games"] for m in opponents] == sorted((m["games"] for m in opponents),
                                                     reverse=True)
    assert opponents[0] == {**opponents[0], "member": {"id": "m00", "name": "m00"},
                            "games": MOST_MET + 3}
    assert found.families[0].to_json(str)["opponents"]["members"] == []  # nobody counts


def test_statistics_points_per_hand_month_by_month() -> None:
    rows = [row("g1", 1, points=30, month=3), row("g2", 2, points=12, month=3, day=20),
            row("g3", 1, points=9, month=5)]
    months = member_stats(rows, {}.get).families[0].to_json(str)["months"]
    assert months["says"]
    assert [(m["month"], m["games"], m["hands"], m["points_per_hand"]) for m in
            months["months"]] == [("2026-03", 2, 6, 7), ("2026-05", 1, 3, 3)]


def test_statistics_per_family_and_variant_or_one_variant() -> None:
    rows = [row("g1", 1), row("g2", 2, variant="gatti-4"),
            row("e1", 1, family="mitigatti", variant="mitigatti-4", marca=2, points=2)]
    stats = member_stats(rows, {}.get)
    assert [(b.family, [v.variant for v in b.variants]) for b in stats.families] == [
        ("gatti", ["gatti-3", "gatti-4"]), ("mitigatti", ["mitigatti-4"])]
    only = member_stats(rows, {}.get, variant="gatti-4")
    assert only.games == 1 and [b.family for b in only.families] == ["gatti"]


def test_statistics_a_figure_from_fewer_than_five_games_says_so() -> None:
    few = member_stats([row(f"g{i}", 1) for i in range(FEW_GAMES - 1)], {}.get)
    enough = member_stats([row(f"g{i}", 1) for i in range(FEW_GAMES)], {}.get)
    shown = few.families[0].to_json(str)
    assert shown["few"] is True and all(f["few"] for f in shown["figures"])
    assert shown["figures"][0]["caution"] == "from 4 games only: too few to go by"
    assert all(f["says"] for f in shown["figures"])
    plenty = enough.families[0].to_json(str)
    assert plenty["few"] is False
    assert not any(f["few"] or "caution" in f for f in plenty["figures"])


def test_statistics_a_season_counts_an_event_by_its_last_rounds_day() -> None:
    season = Season("March", dt.date(2026, 3, 1), dt.date(2026, 3, 31), ("gatti",), "sum")
    rows = [row("g1", 1, day=30, event="e1"), row("g2", 1, day=31),
            row("g3", 1, month=4, day=1), row("e2", 1, day=2, family="mitigatti",
                                                variant="mitigatti-4")]
    ends = {"e1": dt.datetime(2026, 4, 1, 1, 0, tzinfo=UTC)}
    assert [r.game for r in counted_in(season, rows, ends)] == ["g2"]


def _shown(stats: Any) -> list[dict[str, Any]]:
    return [b.to_json(str) for b in stats.families]


def test_statistics_a_rewritten_row_folds_out_and_its_new_one_in() -> None:
    """The sums kept of a member's rows, a rewritten game's old row taken out and its new
    one added (and a game that no longer counts taken out), are the sums of the rows as they
    are now, to the last partner, month, kind and evening."""
    who = {"p": "p", "q": "p", "x": "x", "y": "y"}.get
    first = [row("g1", 1, facts={"dealt": 2, "declared": {"gatti": 1}, "partners": ["p"],
                                 "against": {"x": 2}}),
             row("g2", 2, month=4, facts={"bagatto": 1, "declared": {"sequence": 1},
                                          "partners": [], "against": {"y": 1}}),
             row("g3", 1, shared=2, variant="gatti-4", facts={"partners": ["q"],
                                                              "against": {"x": 1}}),
             row("e1", 2, points=-3, family="mitigatti", variant="mitigatti-4", marca=-3,
                 day=9, facts={"called": 1, "partners": [], "against": {"x": 1}}),
             row("e2", 1, points=5, family="mitigatti", variant="mitigatti-4", marca=5,
                 day=12, facts={"partners": [], "against": {"y": 2}})]
    # g2 corrected (it no longer has the kind nobody else declared, nor its month), g3 no
    # longer counts (its variant goes), e3 an evening that ended between e1 and e2.
    g2 = row("g2", 1, facts={"dealt": 1, "partners": ["p"], "against": {"y": 2}})
    e3 = row("e3", 3, points=-1, family="mitigatti", variant="mitigatti-4", marca=-1,
             day=10, facts={"solo": 1, "partners": [], "against": {"x": 1}})
    now = [first[0], g2, first[3], first[4], e3]
    before = fold(first, who)
    kept = refold(before, [first[1], first[2]], [g2, e3], who)
    assert _shown(folded_stats(kept)) == _shown(member_stats(now, who))
    assert _shown(folded_stats(kept, variant="gatti-3")) == _shown(
        member_stats(now, who, variant="gatti-3"))
    assert folded_stats(kept).games == 5
    evenings = _shown(folded_stats(kept))[1]["balance"]["evenings"]
    assert [e["game"] for e in evenings] == ["e1", "e3", "e2"]
    # What was kept before is as it was, for a read still making its answer from it.
    assert _shown(folded_stats(before)) == _shown(member_stats(first, who))


def test_statistics_an_evening_is_a_day_however_many_games_or_events_it_held() -> None:
    """Five stand-alone games and an event's two tables on one day are one evening; the next
    day's game is another: a member's evenings are the days they played."""
    rows = [*(row(f"g{i}", 1 + i % 2, points=10 * i, day=5) for i in range(5)),
            row("t1", 1, points=7, day=5, event="e1"), row("t2", 2, points=5, day=5, event="e1"),
            row("g9", 3, points=12, hands=4, day=6)]
    evenings = member_stats(rows, {}.get).families[0].to_json(str)["evenings"]
    assert evenings["says"]
    assert evenings["days"] == [
        {"date": "2026-03-05", "games": 7, "events": 1, "hands": 21, "points": 112,
         "points_per_hand": 5.33},
        {"date": "2026-03-06", "games": 1, "events": 0, "hands": 4, "points": 12,
         "points_per_hand": 3}]


def test_statistics_marca_evenings_are_days_with_the_balance_after_each() -> None:
    rows = [row("m1", 1, family="mitigatti", variant="mitigatti-4", marca=3, points=3, day=5),
            row("m2", 2, family="mitigatti", variant="mitigatti-4", marca=-1, points=-1, day=5),
            row("m3", 3, family="mitigatti", variant="mitigatti-4", marca=-4, points=-4, day=9)]
    days = member_stats(rows, {}.get).families[0].to_json(str)["evenings"]["days"]
    assert [(d["date"], d["games"], d["marca"], d["balance"]) for d in days] == [
        ("2026-03-05", 2, 2, 2), ("2026-03-09", 1, -4, -2)]


def test_statistics_an_evening_is_its_utc_day() -> None:
    late = dt.datetime(2026, 3, 5, 23, 30, tzinfo=dt.timezone(dt.timedelta(hours=-2)))
    rows = [row("g1", 1, day=6), row("g2", 1)._replace(finished_at=late)]
    days = evenings_by_day(rows)
    assert [(d["date"], d["games"]) for d in days] == [("2026-03-06", 2)]
