"""Health probes' latency while the attack battery (``tests/live/attack_battery.py``) holds,
for a server run from a checkout (``--checkout``, default this one) with ``SERVER`` as given:

    python bench/bench_attack.py                          waitress, this checkout
    python bench/bench_attack.py --server gunicorn        gunicorn gthread alone (no proxy)
    python bench/bench_attack.py --checkout /work/main    an earlier release's server

Prints each probe's latency in seconds (20.0: no answer within 20 s)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "live"))
sys.path.insert(0, str(ROOT / "tests"))

from attack_battery import run_battery
from live_support import LiveServer


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkout", default=str(ROOT))
    parser.add_argument("--server", default="waitress")
    parser.add_argument("--settle", type=float, default=1.0)
    args = parser.parse_args()
    os.environ["PYTHONPATH"] = args.checkout
    with tempfile.TemporaryDirectory() as work:
        url = f"sqlite:///{work}/bench.sqlite3"
        live = LiveServer(url, Path(work), env={"SERVER": args.server}).start()
        try:
            latencies = run_battery(live.port, settle_s=args.settle)
        finally:
            live.stop()
    print(f"{args.checkout} SERVER={args.server}: probes (s) "
          + " ".join(f"{s:.2f}" for s in latencies) + f"; max {max(latencies):.2f}")


if __name__ == "__main__":
    main()
