"""Replays the corpus of recorded hands (tests/scenarios/corpus/*.json) and compares each result
with the one written down by hand: per-column points, chosen lines, sides and events, or the
exact problems a rejected record must raise."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from service.domain.core.errors import RecordInvalid
from service.domain.hand.records import parse_hand_record
from service.domain.hand.scoring import score_hand
from service.domain.options import resolve_options
from service.domain.registry import find_variant

CORPUS = Path(__file__).parent / "corpus"


def _cases() -> list[Any]:
    out = []
    for path in sorted(CORPUS.glob("*.json")):
        data = json.loads(path.read_text())
        for case in data["cases"]:
            out.append(pytest.param(data["variant"], case, id=f"{path.stem}: {case['name']}"))
    return out


@pytest.mark.parametrize(("variant_id", "case"), _cases())
def test_corpus_hand(variant_id: str, case: dict[str, Any]) -> None:
    variant = find_variant(variant_id)
    expect = case["expect"]
    options = resolve_options(variant, case.get("options"))

    def run() -> dict[str, Any]:
        record = parse_hand_record(variant, case["hand"])
        return score_hand(variant, options, record).to_json()

    if "errors" in expect:
        with pytest.raises(RecordInvalid) as caught:
            run()
        found = {(p.field, p.code) for p in caught.value.problems}
        wanted = {(e["field"], e["code"]) for e in expect["errors"]}
        assert found == wanted, caught.value.problems
        return
    result = run()
    assert result["columns"] == expect["columns"]
    total = sum(s["total"] for s in result["sides"])
    deck = sum(line["points"] for s in result["sides"] for line in s["lines"]
               if line["item"] == "deck_points")
    assert deck == variant.deck_total
    assert total == sum(line["points"] for s in result["sides"] for line in s["lines"])
    for side, lines in expect.get("lines", {}).items():
        got = [[line["item"], line["points"]] for line in result["sides"][int(side)]["lines"]]
        assert got == lines
    for side, seats in expect.get("sides", {}).items():
        assert result["sides"][int(side)]["seats"] == seats
    assert result["events"] == expect.get("events", [])
