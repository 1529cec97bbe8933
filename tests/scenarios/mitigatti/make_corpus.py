"""Writes tests/scenarios/mitigatti/corpus.json: Mitigatti hands (both sizes) and games, with
every expectation (each seat's marca, the pot, the score-sheet columns; for trick records each
trick's winner and the Bagatte; for games the balances, pot and next dealer) computed by the
independent reference (reference.py).

Run once (``python tests/scenarios/mitigatti/make_corpus.py``); the output is committed as data.
Everything comes from seeded generators, so the script is deterministic: it searches seeds for
hands with a wanted feature (an invalid Bagatte attempt, a tie for most…) and checks the
feature before writing the case.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import reference as R

Json = dict[str, Any]
OUT = Path(__file__).parent / "corpus.json"


def _s(d: dict[int, int]) -> dict[str, int]:
    return {str(k): v for k, v in sorted(d.items())}


def trick_case(name: str, h: R.Hand, note: str) -> Json:
    e = R.expected(h)
    return {"name": name, "variant": h.size.variant, "form": "tricks", "note": note,
            "record": h.trick_record(),
            "expect": {"marca": e["marca"], "pot": e["pot"], "columns": e["columns"],
                       "winners": e["winners"], "bagatto": e["bagatto"],
                       "top_scorer": e["top_scorer"]}}


def summary_case(name: str, h: R.Hand, form: str, note: str,
                 leave_out: int | None = None) -> Json:
    e = R.expected(h)
    return {"name": name, "variant": h.size.variant, "form": form, "note": note,
            "record": h.summary_record(form, leave_out),
            "expect": {"marca": e["marca"], "pot": e["pot"], "columns": e["columns"],
                       "top_scorer": e["top_scorer"]}}


def facts_case(name: str, size: R.Size, record: Json, facts: R.Facts, note: str) -> Json:
    s = R.settle(facts)
    cols = ({str(k): 0 for k in range(size.players)} if facts.thrown_in or (
        facts.contract or {}).get("type") == "surrender" else _s(R.columns(facts)))
    return {"name": name, "variant": size.variant, "form": "summary", "note": note,
            "record": record,
            "expect": {"marca": _s(s["marca"]), "pot": s["pot"], "columns": cols,
                       "top_scorer": s["top_scorer"]}}


def find(size: R.Size, want: Callable[[R.Hand], bool], **kw: Any) -> R.Hand:
    for seed in range(5000):
        h = R.generate(size, seed, **kw)
        if want(h):
            return h
    raise ValueError("no seed")


def summary_points(size: R.Size, points: dict[int, int], dealer: int, contract: Json | None,
                   seed: int, **extra: Any) -> tuple[Json, R.Facts]:
    """A summary record (tricks + counting) whose sides took ``points``."""
    side = R.sides_of(size, contract, (contract or {}).get("partner")
                      if (contract or {}).get("type") == "call" else None)
    piles = R.piles_for(size, points, side[dealer], random.Random(seed))
    record: Json = {"dealer": dealer, "piles": piles, **extra}
    if contract is not None:
        record["contract"] = contract
    partner = contract.get("partner") if contract and contract["type"] == "call" else None
    f = R.Facts(size, dealer, contract=contract, partner=partner, side_points=dict(points),
                declarations=[(d["seat"], d["kind"]) for d in extra.get("declarations", [])],
                bagatto=extra.get("bagatto"))
    if size.players == 3:
        f.seat_points = dict(points)
    return record, f


def build() -> Json:
    cases: list[Json] = []
    four, three = R.FOUR, R.THREE

    # -- trick records ----------------------------------------------------------------------------
    h = find(four, lambda h: h.replay.bagatto is not None and h.replay.bagatto["valid"]
             and h.replay.bagatto["won"], contract_kind="call", bagatte=True, keep_condition=True)
    cases.append(trick_case("4-call-bagatte-won", h, "a call; Bagatte ultimu won, valid"))

    h = R.search(four, 1, {1: list(R.KINGS)}, ["2C", "3C"],
                 {"type": "call", "declarer": 1, "called_card": "T20"},
                 lambda h: "T20" not in h.hands[1])
    cases.append(trick_case("4-call-the-angel", h, "the dealer holds four Kings: calls T20"))

    h = find(four, lambda h: "partner" in h.contract and h.replay.bagatto is None,
             contract_kind="solo", bagatte=False)
    cases.append(trick_case("4-solo-called-card", h, "solo calling a card, holder named"))

    h = find(four, lambda h: h.replay.bagatto is not None and h.replay.bagatto["valid"],
             contract_kind="sans", bagatte=True, keep_condition=True)
    cases.append(trick_case("4-sans-prendre-bagatte", h,
                            "solo sans prendre: partida and Bagatte doubled"))

    h = R.search(four, 2, {0: list(R.HONOURS), 3: list(R.KINGS)}, ["2D", "3D"],
                 {"type": "call", "declarer": 2, "called_card": "KH"}, lambda h: True)
    h.declarations = [{"seat": 0, "kind": "mitigatti"}, {"seat": 3, "kind": "quatre_rei"}]
    cases.append(trick_case("4-declarations", h, "mitigatti and quatre rei, partner pays"))

    h = find(four, lambda h: h.replay.bagatto is not None and not h.replay.bagatto["valid"],
             contract_kind="call", bagatte=True, keep_condition=False)
    cases.append(trick_case("4-bagatte-invalid", h, "the lead condition broken: no payment"))

    tarots = [f"T{i}" for i in range(2, 11)]
    h = R.search(three, 0, {1: tarots + ["FOOL"]}, ["2S", "3S", "4S"], None, lambda h: True)
    h.declarations = [{"seat": 1, "kind": "ten_tarocchi", "cards": tarots + ["FOOL"]}]
    cases.append(trick_case("3-ten-tarocchi", h, "ten tarocchi with the Fuole among them"))

    h = find(three, lambda h: h.replay.bagatto is not None and h.replay.bagatto["valid"]
             and not h.replay.bagatto["won"], bagatte=True, keep_condition=True)
    cases.append(trick_case("3-petar-bagatte", h, "the Bagatte beaten in the last trick"))

    h = find(three, lambda h: sorted(h.side_points.values())[1] == max(h.side_points.values()))
    cases.append(trick_case("3-tie-trick-record", h, "two players tie for most (R15)"))

    # -- summary records --------------------------------------------------------------------------
    cases.append(facts_case("4-thrown-in", four, {"dealer": 2, "thrown_in": True},
                            R.Facts(four, 2, thrown_in=True), "to the mountain"))
    sur = {"type": "surrender", "declarer": 3, "called_card": "KD"}
    decl = [{"seat": 0, "kind": "mitigatti"}, {"seat": 2, "kind": "quatre_rei"}]
    cases.append(facts_case(
        "4-surrender", four, {"dealer": 3, "contract": sur, "declarations": decl},
        R.Facts(four, 3, contract=sur, declarations=[(0, "mitigatti"), (2, "quatre_rei")]),
        "surrender: 1 to each, 3 per declaration"))
    sans = {"type": "solo", "declarer": 2, "sans_prendre": True}
    rec, f = summary_points(four, {0: 15, 1: 57}, 1, sans, 1)
    cases.append(facts_case("4-sans-prendre-under-18", four, rec, f, "R17: ×4"))
    solo = {"type": "solo", "declarer": 0, "called_card": "T21", "partner": 2}
    rec, f = summary_points(four, {0: 37, 1: 35}, 3, solo, 2,
                            declarations=[{"seat": 2, "kind": "mitigatti"}])
    cases.append(facts_case("4-solo-37", four, rec, f, "solo with a call, exactly 37"))
    h = find(four, lambda h: h.side_points[0] <= 36, contract_kind="call", bagatte=False)
    cases.append(summary_case("4-call-cards-left-out", h, "cards",
                              "full-card pile, the other side left out", leave_out=1))
    cases.append(facts_case("3-thrown-in", three, {"dealer": 0, "thrown_in": True},
                            R.Facts(three, 0, thrown_in=True), "to the mountain"))
    rec, f = summary_points(three, {0: 30, 1: 18, 2: 30}, 1, None, 3)
    cases.append(facts_case("3-tie-pot", three, rec, f, "R15: one marca to the pot"))
    rec, f = summary_points(three, {0: 12, 1: 33, 2: 33}, 2, None, 4)
    cases.append(facts_case("3-tie-split", three, rec, f, "R15: 2 split evenly"))
    h = find(three, lambda h: h.replay.bagatto is not None and not h.replay.bagatto["valid"],
             bagatte=True, keep_condition=False)
    cases.append(summary_case("3-counting-bagatte-invalid", h, "counting",
                              "Bagatte typed invalid in a summary"))

    # -- games ------------------------------------------------------------------------------------
    games: list[Json] = []
    recs3: list[Json] = []
    hands3: list[Json] = []
    for points, dealer, seed in (({0: 30, 1: 30, 2: 18}, 0, 5), (None, 1, None),
                                 ({0: 20, 1: 29, 2: 29}, 1, 6), ({0: 25, 1: 13, 2: 40}, 2, 7)):
        if points is None:
            recs3.append({"dealer": dealer, "thrown_in": True})
            hands3.append({"marca": {0: 0, 1: 0, 2: 0}, "pot": 0, "top_scorer": None})
            continue
        rec, f = summary_points(three, points, dealer, None, seed)
        recs3.append(rec)
        hands3.append(R.settle(f))
    g = R.game(3, hands3, "0.25")
    games.append({"name": "3-pot-game", "variant": "mitigatti-3", "players": ["A", "B", "C"],
                  "options": {"marca_value": "0.25"}, "records": recs3,
                  "expect": {"balances": _s(g["balances"]), "pot": g["pot"],
                             "money": {str(k): f"{v:.2f}" for k, v in g["money"].items()},
                             "pot_collected": [[str(s), m] for s, m in g["collected"]],
                             "next_dealer": 0}})
    recs4: list[Json] = []
    hands4: list[Json] = []
    for i, kind in enumerate(("call", "sans", "solo", "call", "sans")):
        h = R.generate(four, 700 + i, dealer=i % 4, contract_kind=kind)
        recs4.append(h.trick_record())
        hands4.append(R.settle(h.facts()))
    recs4.insert(2, {"dealer": 2, "thrown_in": True})
    hands4.insert(2, {"marca": {s: 0 for s in range(4)}, "pot": 0, "top_scorer": None})
    g = R.game(4, hands4)
    games.append({"name": "4-game", "variant": "mitigatti-4", "players": ["A", "B", "C", "D"],
                  "options": {}, "records": recs4,
                  "expect": {"balances": _s(g["balances"]), "pot": 0,
                             "pot_collected": [], "next_dealer": 1}})
    return {"about": "Mitigatti corpus: expectations from reference.py (see make_corpus.py)",
            "cases": cases, "games": games, "refusals": refusals()}


def refused(name: str, size: R.Size, record: Json, note: str,
            errors: list[tuple[str, str, str]]) -> Json:
    return {"name": name, "variant": size.variant, "note": note, "record": record,
            "expect": {"errors": [{"field": f, "code": c, "rule": r} for f, c, r in errors]}}


def refusals() -> list[Json]:
    """Records a table could enter that the rules refuse, each with every problem it must
    raise (field, code, the rulebook's section)."""
    out: list[Json] = []
    three, four = R.THREE, R.FOUR
    ten = ["FOOL", "T20", "T21", "T19", "T18", "T17", "T16", "T15", "T14", "T13"]
    out.append(refused(
        "3-t20-and-fuole-under-9", three,
        {"dealer": 1, "discard": ["2H", "3H", "4H"],
         "declarations": [{"seat": 0, "kind": "ten_tarocchi", "cards": ten}],
         "piles": [{"side": 0, "points": 5}, {"side": 1, "points": 40},
                   {"side": 2, "points": 33}]},
        "R19: ten tarocchi shows T20 and the Fuole with seat 0, whose side has 9 at least",
        [("piles[0].points", "points_below_cards", "R19")]))
    h = R.search(three, 0, {1: list(R.HONOURS)}, ["2S", "3S", "4S"], None, lambda h: True)
    rec = h.summary_record("cards")
    rec["declarations"] = [{"seat": 1, "kind": "mitigatti"}]
    out.append(refused("3-mitigatti-t20-in-another-pile", three, R.move_card(rec, "T20", 2),
                       "R19: seat 1 declared mitigatti; T20 put in seat 2's pile",
                       [("piles[2]", "kept_card_misplaced", "R19")]))
    call = {"type": "call", "declarer": 1, "called_card": "T20"}
    h = R.search(four, 1, {1: list(R.KINGS)}, ["2C", "3C"], call,
                 lambda h: "T20" not in h.hands[1])
    rec = h.summary_record("counting")
    out.append(refused("4-called-t20-in-the-opponents-pile", four, R.move_card(rec, "T20", 1),
                       "R19: the called T20 is the declarer's side's; put in the other's",
                       [("piles[1]", "kept_card_misplaced", "R19")]))
    solo = {"type": "solo", "declarer": 2, "called_card": "T20"}
    out.append(refused("4-solo-calling-t20-under-5", four,
                       {"dealer": 0, "contract": solo,
                        "piles": [{"side": 0, "points": 4}, {"side": 1, "points": 68}]},
                       "R19: the solo took T20, so its side has T20 and its trick, 5",
                       [("piles[0].points", "points_below_cards", "R19")]))
    return out


def main() -> None:
    OUT.write_text(json.dumps(build(), indent=1, sort_keys=False) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
