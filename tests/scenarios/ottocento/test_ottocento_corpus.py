"""Replays the Ottocento corpus (corpus.json, written by make_corpus.py from the independent
reference) through ``score_record`` and compares with the reference's expectations: the columns,
per side the card points, the captured cricche and sequences (type, points) and their doubling,
the declarations of each player and their doubling, each trick's winner, the Matto's fate (kept
or lost, its exchange card), the discard lost by a dealer's side without a trick, no violation;
or, for a
rejected record, the fields of its problems (a wanted field is a prefix of the engine's field;
a ``null`` code accepts any code).

Also checks the reference against its own generator: every generated hand is legal, each side's
pile holds an even number of cards, the card points total 93, and the trick record, the
full-card summary and the tricks + counting summary of one hand score alike.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from service.domain.core.errors import RecordInvalid
from service.domain.hand.scoring import score_record
from service.domain.options import resolve_options
from service.domain.registry import find_variant

HERE = Path(__file__).parent
CORPUS = HERE / "corpus.json"


def _load_reference() -> Any:
    name = "ottocento_reference"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, HERE / "reference.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


R = _load_reference()


def _cases() -> list[Any]:
    data = json.loads(CORPUS.read_text())
    return [pytest.param(case, id=case["name"]) for case in data["cases"]]


def field_matches(wanted: str, found: str) -> bool:
    return found == wanted or found.startswith((wanted + ".", wanted + "["))


def observed(result: dict[str, Any]) -> dict[str, Any]:
    """The facts of a result that the reference predicts, in the reference's shapes."""
    sides = result["sides"]
    lines = [(int(s["side"]), line) for s in sides for line in s["lines"]]
    out: dict[str, Any] = {
        "columns": {str(k): v for k, v in result["columns"].items()},
        "card_points": [sum(line["points"] for side, line in lines
                            if side == k and line["item"] == "card_points") for k in (0, 1)],
        "captured": {str(k): sorted([line["kind"], line["type"], line["points"]]
                                    for side, line in lines
                                    if side == k and line["item"] == "captured")
                     for k in (0, 1)},
        "captured_doubling": {str(k): sorted([line["kind"], line["points"]]
                                             for side, line in lines
                                             if side == k and line["item"] == "doubling"
                                             and line.get("phase") == "captured")
                              for k in (0, 1)},
        "declared": sorted([line["seat"], line["kind"], line["type"], line["points"]]
                           for _, line in lines if line["item"] == "declaration"),
        "declared_doubling": sorted([line.get("seat"), line["kind"], line["points"]]
                                    for _, line in lines if line["item"] == "doubling"
                                    and line.get("phase") == "declared"),
    }
    return out


def compare(expect: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """Every disagreement, keyed by fact (empty when the engine agrees)."""
    got = observed(result)
    wrong: dict[str, Any] = {}
    for key in ("columns", "card_points", "captured", "captured_doubling", "declared",
                "declared_doubling"):
        if got[key] != expect[key]:
            wrong[key] = {"engine": got[key], "reference": expect[key]}
    if "winners" in expect:
        winners = [t.get("winner") for t in result.get("tricks") or []]
        if winners != expect["winners"]:
            wrong["winners"] = {"engine": winners, "reference": expect["winners"]}
    if "fool" in expect:
        fool = result.get("fool") or {}
        got_fool = {"played_by": fool.get("played_by"), "trick": fool.get("trick"),
                    "kept": fool.get("covered"), "exchange_card": fool.get("exchange_card")}
        want_fool = {"exchange_card": None, **expect["fool"]}
        if got_fool != want_fool:
            wrong["fool"] = {"engine": fool, "reference": expect["fool"]}
    # the project's event name (as in the Gatti trick corpus) for a discard the dealer's side
    # loses because it won no trick
    if "discard_lost" in expect and \
            ("discard_uncovered" in result.get("events", [])) != expect["discard_lost"]:
        wrong["events"] = {"engine": result.get("events"),
                           "reference discard lost": expect["discard_lost"]}
    got_violations = [
        {"trick": v.get("trick"), "seat": v.get("seat"), "card": v.get("card"),
         "rule": v.get("rule"), "proof": {"trick": (v.get("proof") or {}).get("trick"),
                                          "card": (v.get("proof") or {}).get("card")}}
        for v in result.get("violations") or []
    ]
    got_violations.sort(key=lambda v: (v["trick"], v["seat"], v["rule"]))
    if got_violations != expect.get("violations", []):
        wrong["violations"] = {"engine": result.get("violations"),
                               "reference": expect.get("violations", [])}
    sides = result["sides"]
    if [s["seats"] for s in sides] != [[0, 2], [1, 3]]:
        wrong["seats"] = [s["seats"] for s in sides]
    for s in sides:
        if s["total"] != sum(line["points"] for line in s["lines"]):
            wrong[f"side {s['side']} total"] = "is not the sum of its lines"
        if result["columns"].get(str(s["side"])) != s["total"]:
            wrong[f"column {s['side']}"] = "differs from the side's total"
    for s in sides:
        for line in s["lines"]:
            if line["item"] == "declaration" and line["seat"] % 2 != s["side"]:
                wrong["declaration on the wrong side"] = line
    return wrong


@pytest.mark.parametrize("case", _cases())
def test_ottocento_corpus(case: dict[str, Any]) -> None:
    variant = find_variant("ottocento")
    options = resolve_options(variant, {})
    expect = case["expect"]
    if "errors" in expect:
        with pytest.raises(RecordInvalid) as caught:
            score_record(variant, options, case["hand"])
        found = [(p.field, p.code) for p in caught.value.problems]
        for wanted in expect["errors"]:
            assert any(field_matches(wanted["field"], f) and wanted["code"] in (None, c)
                       for f, c in found), (wanted, found)
        return
    _, result = score_record(variant, options, case["hand"])
    wrong = compare(expect, result.to_json())
    assert not wrong, json.dumps(wrong, indent=1)


# -- the reference against its own generator ---------------------------------------------------


@pytest.mark.parametrize("seed", range(0, 400, 7))
def test_reference_generated_hands_are_legal_and_total_93(seed: int) -> None:
    game = R.generate(seed, declare=0.7, signals=0.2)
    rec = game.record()
    # legality: each seat played its hand, every card followed the rules
    leader = (rec["dealer"] + 1) % 4
    hands = {s: list(h) for s, h in game.hands.items()}
    for cards in rec["tricks"]:
        for i, card in enumerate(cards):
            seat = (leader + i) % 4
            assert card in R.legal_cards(hands[seat], cards[:i])
            hands[seat].remove(card)
        leader = (leader + R.trick_winner_index(cards)) % 4
    assert not any(hands.values())
    assert all(R.may_discard(c) for c in rec["discard"])
    rep = R.replay(rec)
    assert all(len(p) % 2 == 0 for p in rep.piles)
    assert sorted(rep.piles[0] + rep.piles[1]) == sorted(R.PACK)
    assert R.card_points(rep.piles[0], rep.last_side == 0) \
        + R.card_points(rep.piles[1], rep.last_side == 1) == 93
    whole = R.expect(rec)
    for summary in (R.full_summary(rec, rep), R.full_summary(rec, rep, sides=(1,)),
                    R.counting_summary(rec, rep), R.counting_summary(rec, rep, sides=(0,))):
        assert R.expect(summary)["columns"] == whole["columns"]
