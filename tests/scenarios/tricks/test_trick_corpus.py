"""Replays the trick-by-trick corpus (tests/scenarios/tricks/corpus/*.json) through the service's
public domain API and compares with the expectations written by the independent reference
(reference.py, via make_corpus.py): columns, each trick's winner, every violation with its
proof, events, the Fool, Bagatto ultimo and the called partner; or, for a record that must be
rejected, the fields (and codes, once known) of its problems.

Also checks the reference against the generator's own claims: every generated hand is legal
(no violation) and its deck points total 78 / 72.
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from service.domain.core.errors import RecordInvalid
from service.domain.hand.scoring import score_record
from service.domain.options import resolve_options
from service.domain.registry import find_variant

HERE = Path(__file__).parent
CORPUS = HERE / "corpus"


def _load_reference() -> Any:
    name = "trick_reference"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, HERE / "reference.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


R = _load_reference()
#: Events the reference derives; the engine may add others, but these must agree.
KNOWN_EVENTS = ("discard_uncovered", "dealer_alone", "fool_handed_over")


def _cases() -> list[Any]:
    out = []
    for path in sorted(CORPUS.glob("*.json")):
        data = json.loads(path.read_text())
        for case in data["cases"]:
            out.append(pytest.param(data["variant"], case, id=f"{path.stem}: {case['name']}"))
    return out


def _partner(result: dict[str, Any], dealer: int) -> int | None:
    """The called partner as the result reports it: a ``partner`` or ``call`` fact, else the
    other seat of side 0 (the dealer's side; the dealer itself when alone)."""
    partner = result.get("partner")
    if isinstance(partner, int):
        return partner
    call = result.get("call")
    if isinstance(call, dict) and isinstance(call.get("partner"), int):
        return int(call["partner"])
    seats = result["sides"][0]["seats"]
    others = [s for s in seats if s != dealer]
    return others[0] if others else dealer


@pytest.mark.parametrize(("variant_id", "case"), _cases())
def test_trick_corpus(variant_id: str, case: dict[str, Any]) -> None:
    variant = find_variant(variant_id)
    expect = case["expect"]
    options = resolve_options(variant, case.get("options"))

    if "errors" in expect:
        with pytest.raises(RecordInvalid) as caught:
            score_record(variant, options, case["hand"])
        found = [(p.field, p.code) for p in caught.value.problems]
        for wanted in expect["errors"]:
            assert (wanted["field"], wanted["code"]) in found, found
        return

    _, result_obj = score_record(variant, options, case["hand"])
    result = result_obj.to_json()
    assert [t["winner"] for t in result["tricks"]] == expect["winners"]
    assert [t["number"] for t in result["tricks"]] == list(range(1, len(expect["winners"]) + 1))
    leaders = [(case["hand"]["dealer"] + 1) % variant.seats] + expect["winners"][:-1]
    assert [t["leader"] for t in result["tricks"]] == leaders
    assert [list(t["cards"]) for t in result["tricks"]] == case["hand"]["tricks"]
    got_violations = [
        {"trick": v["trick"], "seat": v["seat"], "card": v["card"], "rule": v["rule"],
         "proof": {"trick": v.get("proof", {}).get("trick"), "card": v.get("proof", {}).get("card")}}
        for v in result["violations"]
    ]
    assert got_violations == expect["violations"]
    deck = sum(line["points"] for s in result["sides"] for line in s["lines"]
               if line["item"] == "deck_points")
    assert deck == (78 if variant.seats == 3 else 72)
    assert result["columns"] == expect["columns"]
    for name in KNOWN_EVENTS:
        assert (name in result["events"]) == (name in expect.get("events", [])), \
            (name, result["events"])
    if "fool" in expect:
        got = result.get("fool") or {}
        assert {k: got.get(k) for k in expect["fool"]} == expect["fool"], got
    if "bagatto" in expect:
        got = result.get("bagatto") or {}
        assert {k: got.get(k) for k in expect["bagatto"]} == expect["bagatto"], got
    if "partner" in expect:
        assert _partner(result, case["hand"]["dealer"]) == expect["partner"]


# -- the reference against the generator's claims ----------------------------------------------


@pytest.mark.parametrize("variant_id", list(R.FORMS))
def test_generated_hands_are_legal_and_total(variant_id: str) -> None:
    form = R.FORMS[variant_id]
    for seed in range(40):
        game = R.generate(variant_id, seed)
        rep = R.replay(variant_id, game.record())
        assert rep.violations == []
        assert rep.winners == game.winners
        assert sum(rep.deck_points().values()) == form.total
        # every pile holds whole tricks (plus the discard where held) after the exchanges
        for side, pile in rep.piles.items():
            extra = form.discard if rep.discard_holder == side else 0
            assert (len(pile) - extra) % form.seats == 0
        assert sorted(c for p in rep.piles.values() for c in p) == sorted(R.PACK)
        # the discard derived from the tricks is the one dealt away
        again = R.replay(variant_id, game.record(with_discard=False))
        assert sorted(again.discard) == sorted(game.discard)
        assert again.columns == rep.columns


@pytest.mark.parametrize("variant_id", list(R.FORMS))
def test_reference_revoke_swap(variant_id: str) -> None:
    for seed in range(5):
        game = R.generate(variant_id, seed)
        found = R.make_revoke(variant_id, game.record(), random.Random(seed))
        assert found is not None
        record, violation = found
        rep = R.replay(variant_id, record)
        assert rep.violations == [violation]
        assert rep.winners == game.winners
        trick, seat = violation["trick"], violation["seat"]
        proof = violation["proof"]
        assert proof["trick"] > trick
        assert rep.seats_of_cards[proof["card"]] == (proof["trick"] - 1, seat)


def test_reference_examples() -> None:
    """Small hand-checked facts of §2.1 / §2.5 that the rest relies on."""
    assert R.trick_winner_index(["T21", "T20", "T19"]) == 1      # T20 beats T21
    assert R.trick_winner_index(["FOOL", "5H", "KH"]) == 2       # the second card leads
    assert R.trick_winner_index(["FOOL", "5H", "KS"]) == 1       # off-suit never wins
    assert R.trick_winner_index(["KH", "T1", "QH", "FOOL"]) == 1  # any trump beats the suit
    assert R.check_play("5S", ["KH"], ["5S", "2H"]) == "must_follow_suit"
    assert R.check_play("5S", ["KH"], ["5S", "T2"]) == "must_trump"
    assert R.check_play("5S", ["T4"], ["5S", "T2"]) == "must_follow_trump"
    assert R.check_play("5S", ["FOOL"], ["5S", "T2", "2H"]) is None   # after a led Fool
    assert R.check_play("FOOL", ["KH"], ["FOOL", "2H"]) is None
    assert R.check_play("T2", ["KH", "T5"], ["T2"]) is None          # no need to overtrump
