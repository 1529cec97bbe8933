"""Properties of trick-by-trick scoring, checked against the independent reference replayer
(tests/scenarios/tricks/reference.py), for all four current Gatti forms:

- a random legal deal played out with random legal cards (sometimes holding T1 or the Fool
  back, sometimes leading the Fool, sometimes with every meld the hands form declared), scored
  through ``score_record``: the deck points total 78 / 72, there is no violation, each trick's
  winner is the reference's, and so are the score-sheet columns;
- the same hand with two of one player's cards swapped between two tricks so that exactly one
  play is illegal while no trick winner changes: exactly that one violation (trick, seat, card,
  rule, proof) is reported, and scoring is not blocked.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from service.domain.hand.scoring import score_record
from service.domain.options import resolve_options
from service.domain.registry import find_variant


def _load_reference() -> Any:
    name = "trick_reference"
    if name not in sys.modules:
        path = Path(__file__).parents[1] / "scenarios" / "tricks" / "reference.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


R = _load_reference()
FORMS = tuple(R.FORMS)
SETTINGS = settings(max_examples=30, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
POLICIES = {
    "random": R.random_policy,
    "keep_t1": R.keep(R.T1),
    "keep_fool": R.keep(R.FOOL),
    "lead_fool": R.lead_fool,
}


def _game(form_id: str, seed: int, policy: str, melds: bool, with_discard: bool,
          alone: bool) -> tuple[Any, dict[str, Any]]:
    game = R.generate(form_id, seed, policy=POLICIES[policy], alone=alone)
    record = game.record(with_discard=with_discard)
    if melds:
        record["declarations"] = R.all_melds(game)
    return game, record


def _score(form_id: str, record: dict[str, Any]) -> dict[str, Any]:
    variant = find_variant(form_id)
    _, result = score_record(variant, resolve_options(variant, None), record)
    return result.to_json()


def _deck_total(result: dict[str, Any]) -> int:
    return sum(line["points"] for side in result["sides"] for line in side["lines"]
               if line["item"] == "deck_points")


hands = st.tuples(st.sampled_from(FORMS), st.integers(0, 2**31), st.sampled_from(list(POLICIES)),
                  st.booleans(), st.booleans(), st.booleans())


@SETTINGS
@given(hands)
# The dealer holds all four Kings and no Queen, and would play alone: it calls another's Queen.
@example(("gatti-4-call", 172, "random", False, False, True))
def test_legal_play_scores_like_the_reference(hand: tuple[str, int, str, bool, bool, bool]
                                              ) -> None:
    form_id, seed, policy, melds, with_discard, alone = hand
    game, record = _game(form_id, seed, policy, melds, with_discard, alone)
    ref = R.replay(form_id, record)
    result = _score(form_id, record)
    assert _deck_total(result) == R.FORMS[form_id].total
    assert result["violations"] == []
    assert [t["winner"] for t in result["tricks"]] == ref.winners == game.winners
    assert result["columns"] == ref.columns


@SETTINGS
@given(hands)
def test_one_swap_is_one_violation(hand: tuple[str, int, str, bool, bool, bool]) -> None:
    form_id, seed, policy, melds, with_discard, alone = hand
    game, record = _game(form_id, seed, policy, melds, with_discard, alone)
    found = R.make_revoke(form_id, record, random.Random(seed))
    if found is None:  # pragma: no cover - a swap is nearly always found
        return
    swapped, violation = found
    result = _score(form_id, swapped)
    assert [t["winner"] for t in result["tricks"]] == game.winners
    got = [(v["trick"], v["seat"], v["card"], v["rule"]) for v in result["violations"]]
    assert got == [(violation["trick"], violation["seat"], violation["card"],
                    violation["rule"])]
    proof = result["violations"][0].get("proof") or {}
    assert (proof.get("trick"), proof.get("card")) == (violation["proof"]["trick"],
                                                       violation["proof"]["card"])
    assert _deck_total(result) == R.FORMS[form_id].total
    assert result["columns"] == R.replay(form_id, swapped).columns
