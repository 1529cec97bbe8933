"""Benchmark: how many tables the machine holds on a championship night.

Runs ``bench/locust_clubnight.py`` (headless locust, every phone from one address) at 40
tables, then 80, 120… against ``--host`` (the proxy of ``deploy/native.sh``, or any running
service), each step for ``--minutes`` real minutes (3 by default: 30 simulated minutes at
the night's default speed-up of 10), and prints a row a step: requests, errors, and the p50 /
p95 / p99 of a hand and of a poll of a game (ms). It stops at the first step whose p99 of a
hand or a poll is over ``--knee-ms`` (250) or that had any error: the knee is the step
before it.

    .venv/bin/python bench/bench_clubnight.py --host http://127.0.0.1:8080 [--start 40]
        [--step 40] [--most 400] [--minutes 3]

It is a benchmark, not a test; each step's own summary (every kind of request) is in
``var/clubnight/<tables>.txt``.
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCUSTFILE = ROOT / "bench" / "locust_clubnight.py"
KINDS = (("POST", "hand"), ("GET", "poll game"))


def run_step(host: str, tables: int, minutes: float, out: Path) -> dict[str, dict[str, str]]:
    """One headless run at ``tables`` tables; its statistics by request name."""
    prefix = out / str(tables)
    sections = -(-tables // 40)  # an event of at most 40 tables (200 entrants) a section
    users = 4 * tables + 3 * sections
    command = [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless",
               "--host", host, "--users", str(users), "--spawn-rate", str(max(20, users // 8)),
               "--run-time", f"{int(minutes * 60)}s", "--only-summary", "--csv", str(prefix)]
    env = dict(os.environ, CLUBNIGHT_TABLES=str(tables))
    with (out / f"{tables}.txt").open("w") as log:
        subprocess.run(command, env=env, stdout=log, stderr=subprocess.STDOUT, check=False)
    with Path(f"{prefix}_stats.csv").open() as f:
        return {row["Name"]: row for row in csv.DictReader(f)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="http://127.0.0.1:8080")
    parser.add_argument("--start", type=int, default=40)
    parser.add_argument("--step", type=int, default=40)
    parser.add_argument("--most", type=int, default=400)
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--knee-ms", type=float, default=250.0)
    args = parser.parse_args()
    out = ROOT / "var" / "clubnight"
    out.mkdir(parents=True, exist_ok=True)
    print(f"{'tables':>6} {'requests':>9} {'errors':>7}  "
          f"{'hand p50/p95/p99':>18}  {'poll p50/p95/p99':>18}")
    knee = None
    for tables in range(args.start, args.most + 1, args.step):
        stats = run_step(args.host, tables, args.minutes, out)
        total = stats.get("Aggregated", {})
        cells = []
        worst = 0.0
        for _method, name in KINDS:
            row = stats.get(name, {})
            p = [row.get(q, "-") for q in ("50%", "95%", "99%")]
            worst = max(worst, float(row.get("99%") or "inf"))
            cells.append("/".join(p))
        errors = int(total.get("Failure Count", "0") or 0)
        print(f"{tables:6d} {total.get('Request Count', '-'):>9} {errors:7d}  "
              f"{cells[0]:>18}  {cells[1]:>18}", flush=True)
        if errors or worst > args.knee_ms:
            break
        knee = tables
    print(f"knee: {knee if knee is not None else 'below ' + str(args.start)} tables "
          f"(p99 of a hand and of a poll <= {args.knee_ms:.0f} ms, no error)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
