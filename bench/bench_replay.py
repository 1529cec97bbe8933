"""Benchmark: replaying and scoring a complete trick-by-trick ``gatti-3`` hand.

What it measures: the throughput (hands per second) of
``service.domain.hand.scoring.score_record`` on one complete ``gatti-3`` record with 25 tricks (the
discard derived, melds declared), against ``json.loads`` of the same record's JSON text as a
yardstick that does not depend on the machine's speed. It prints both rates and the ratio
(score_record throughput / json.loads throughput), each the median of 5 rounds.

The hand is produced by the seeded generator of the independent reference replayer
(tests/scenarios/tricks/reference.py), so every run scores the same record.

Run from the repository root:

    .venv/bin/python bench/bench_replay.py [--seconds 0.5] [--seed 1]

It is not a test and asserts nothing beyond the record being accepted.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.domain import (
    find_variant,
    resolve_options,
    score_record,
)

ROUNDS = 5


def _reference() -> Any:
    path = ROOT / "tests" / "scenarios" / "tricks" / "reference.py"
    spec = importlib.util.spec_from_file_location("trick_reference", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["trick_reference"] = module
    spec.loader.exec_module(module)
    return module


def rate(work: Callable[[], object], seconds: float) -> float:
    """Calls per second of ``work`` over about ``seconds`` (batches sized by a first probe)."""
    batch, elapsed = 1, 0.0
    while elapsed < seconds / 10:
        batch *= 2
        start = time.perf_counter()
        for _ in range(batch):
            work()
        elapsed = time.perf_counter() - start
    n = max(1, int(batch * seconds / elapsed))
    start = time.perf_counter()
    for _ in range(n):
        work()
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="length of one round")
    parser.add_argument("--seed", type=int, default=1, help="generator seed of the hand")
    args = parser.parse_args()

    ref = _reference()
    game = ref.generate("gatti-3", args.seed)
    record = game.record(with_discard=False)
    record["declarations"] = ref.all_melds(game)
    text = json.dumps(record)
    variant = find_variant("gatti-3")
    options = resolve_options(variant, None)
    _, result = score_record(variant, options, json.loads(text))
    assert "tricks" in result.to_json(), "score_record does not replay tricks"

    def score() -> object:
        return score_record(variant, options, record)

    def parse() -> object:
        return json.loads(text)

    scored, parsed, ratios = [], [], []
    for _ in range(ROUNDS):
        s = rate(score, args.seconds)
        p = rate(parse, args.seconds)
        scored.append(s)
        parsed.append(p)
        ratios.append(s / p)
    print(f"record: gatti-3, {len(record['tricks'])} tricks, "
          f"{len(record['declarations'])} declarations, {len(text)} bytes of JSON")
    print(f"score_record: {statistics.median(scored):12,.0f} hands/s (median of {ROUNDS})")
    print(f"json.loads:   {statistics.median(parsed):12,.0f} hands/s (median of {ROUNDS})")
    print(f"ratio score_record / json.loads: {statistics.median(ratios):.4f} "
          f"(1 / {1 / statistics.median(ratios):.0f})")


if __name__ == "__main__":
    main()
