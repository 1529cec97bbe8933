"""Properties of Ottocento scoring (rulebook §4, §6), checked against the independent reference
(tests/scenarios/ottocento/reference.py):

- a random legal deal played out with random legal cards (sometimes leading the Matto, sometimes
  holding the Matto or the Bégato back, sometimes with declarations and signals, with the discard
  given or derived), scored through ``score_record``: the card points (the ``card_points`` lines)
  total 93, there is no violation, each trick's winner and the columns are the reference's;
- the same hand as a summary with full-card piles (one or both sides given) and as a
  ``tricks`` + ``counting`` summary: accepted (so every pile the engine derives holds whole
  tricks, an even number of cards) and scored to the same columns;
- the same hand with two of one player's cards swapped between two tricks so that exactly one
  play is illegal while no trick winner changes: exactly that violation (trick, seat, card,
  rule, proof) is reported, and the hand is still scored to the reference's columns.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.domain.hand.scoring import score_record
from service.domain.options import resolve_options
from service.domain.registry import find_variant


def _load_reference() -> Any:
    name = "ottocento_reference"
    if name not in sys.modules:
        path = Path(__file__).parents[1] / "scenarios" / "ottocento" / "reference.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


R = _load_reference()
SETTINGS = settings(max_examples=250, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
POLICIES = {
    "random": R.random_policy,
    "lead_matto": R.lead_matto,
    "keep_matto": R.keep(R.MATTO),
    "keep_begato": R.keep(R.BEGATO),
}


def _score(record: dict[str, Any]) -> dict[str, Any]:
    variant = find_variant("ottocento")
    _, result = score_record(variant, resolve_options(variant, {}), record)
    return result.to_json()


def _card_points(result: dict[str, Any]) -> list[int]:
    return [sum(line["points"] for line in s["lines"] if line["item"] == "card_points")
            for s in result["sides"]]


@SETTINGS
@given(seed=st.integers(0, 10**6), policy=st.sampled_from(sorted(POLICIES)),
       declare=st.sampled_from([0.0, 0.5, 1.0]), with_discard=st.booleans(),
       signals=st.sampled_from([0.0, 0.3]))
def test_random_legal_hand_scores_like_the_reference(seed: int, policy: str, declare: float,
                                                     with_discard: bool, signals: float) -> None:
    game = R.generate(seed, policy=POLICIES[policy], declare=declare, signals=signals)
    record = game.record(with_discard=with_discard)
    expect = R.expect(record)
    result = _score(record)
    assert result["violations"] == []
    assert sum(_card_points(result)) == 93
    assert _card_points(result) == expect["card_points"]
    assert [t["winner"] for t in result["tricks"]] == expect["winners"]
    if "fool" in expect:  # the Matto's fate and the default exchange card
        fool = result.get("fool") or {}
        assert (fool.get("played_by"), fool.get("trick"), fool.get("covered"),
                fool.get("exchange_card")) == (
            expect["fool"]["played_by"], expect["fool"]["trick"], expect["fool"]["kept"],
            expect["fool"].get("exchange_card")), (fool, expect["fool"])
    assert result["columns"] == expect["columns"]


@SETTINGS
@given(seed=st.integers(0, 10**6), policy=st.sampled_from(sorted(POLICIES)),
       declare=st.sampled_from([0.0, 0.7]), form=st.sampled_from(["full", "counting"]),
       sides=st.sampled_from([(0, 1), (0,), (1,)]))
def test_summaries_of_a_hand_score_like_its_tricks(seed: int, policy: str, declare: float,
                                                   form: str, sides: tuple[int, ...]) -> None:
    game = R.generate(seed, policy=POLICIES[policy], declare=declare)
    record = game.record()
    rep = R.replay(record)
    assert all(len(p) % 2 == 0 for p in rep.piles)
    whole = _score(record)
    make = R.full_summary if form == "full" else R.counting_summary
    summary = make(record, rep, sides=sides)
    result = _score(summary)
    assert result["violations"] == []
    assert sum(_card_points(result)) == 93
    assert result["columns"] == whole["columns"] == R.expect(summary)["columns"]


@SETTINGS
@given(seed=st.integers(0, 10**6), swap_seed=st.integers(0, 1000))
def test_one_revoke_is_reported_and_scored(seed: int, swap_seed: int) -> None:
    game = R.generate(seed)
    found = R.make_revoke(game.record(), random.Random(swap_seed))
    if found is None:
        return
    record, violation = found
    result = _score(record)
    got = [{"trick": v["trick"], "seat": v["seat"], "card": v["card"], "rule": v["rule"],
            "proof": {"trick": (v.get("proof") or {}).get("trick"),
                      "card": (v.get("proof") or {}).get("card")}}
           for v in result["violations"]]
    assert got == [violation]
    assert sum(_card_points(result)) == 93
    assert result["columns"] == R.expect(record)["columns"]
