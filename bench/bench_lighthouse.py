"""Benchmark: Lighthouse's scores of the public results pages, as a phone loads them.

The service as it is run (``python -m service``: migrations, then gunicorn) on a free port
and a temporary SQLite database; through its API, a published event of 8 players of
``gatti-3`` with two rounds of three hands a table played, and a published club
(its ratings too) with a season, a club evening of 6 members played, and that
evening published. Lighthouse (its mobile defaults: a mid-range phone, a slow 4G network
simulated) reads ``/results/events/{id}`` and ``/results/clubs/{id}`` ``--runs`` times each
in Chromium, headless; the bench prints each page's median score of each category
(performance, accessibility, best practices, SEO: 0 to 1) and writes them, with every
run's, to ``var/lighthouse/scores.json`` (each run's whole report beside it).

Lighthouse comes from the npm registry at a pinned version, installed by the bench into
``var/lighthouse/`` (ignored by git) when it is missing there: Node and npm must be on the
PATH. The browser is ``CHROME_PATH``, else Debian's ``chromium``, else its headless shell
(``make chromium``). No network beyond this machine is needed once Lighthouse is installed.

Run from the repository root (a minute or two):

    .venv/bin/python bench/bench_lighthouse.py [--runs 5]

It is not a test and asserts nothing beyond every request succeeding.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "var" / "lighthouse"
#: The Lighthouse the figures were measured with (12.x runs on Node 18 and 20).
LIGHTHOUSE_VERSION = "12.8.2"
LIGHTHOUSE = OUT / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
#: Chromium headless in a machine without a network: nothing of its own fetched or updated.
CHROME_FLAGS = ("--headless --no-sandbox --disable-gpu --disable-background-networking "
                "--disable-component-update --disable-sync --no-first-run")
BROWSERS = ("/usr/bin/chromium", "/usr/bin/chromium-headless-shell", "/usr/bin/chromium-browser")
API = "/api/v1"
COUNTING = ["T1", "T21", "FOOL", *(f"{rank}{suit}" for rank in "KQCJ" for suit in "HDCS")]


def lighthouse() -> Path:
    """Lighthouse's command-line script, installed from the npm registry when missing."""
    installed = OUT / "node_modules" / "lighthouse" / "package.json"
    if not installed.exists() or json.loads(installed.read_text())["version"] != \
            LIGHTHOUSE_VERSION:
        OUT.mkdir(parents=True, exist_ok=True)
        print(f"installing lighthouse@{LIGHTHOUSE_VERSION} into {OUT}", file=sys.stderr)
        subprocess.run(["npm", "install", "--prefix", str(OUT), "--no-audit", "--no-fund",
                        "--no-save", f"lighthouse@{LIGHTHOUSE_VERSION}"], check=True)
    return LIGHTHOUSE


def chrome() -> str:
    path = os.environ.get("CHROME_PATH") or next(
        (b for b in BROWSERS if Path(b).exists()), None)
    if path is None:
        sys.exit("no Chromium: set CHROME_PATH, or `make chromium`")
    return path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(work: Path) -> Iterator[str]:
    """The service as it is run, on a free port and a new SQLite file in ``work``."""
    port = _free_port()
    env = {**os.environ, "PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "2",
           "DATABASE_URL": f"sqlite:///{work / 'segnapunti.sqlite3'}", "HOME": str(work),
           "RATE_LIMIT_PER_MINUTE": "0", "AUTH_FAILURES_PER_MINUTE": "0"}
    with (work / "server.log").open("wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "service"], cwd=ROOT, env=env,
                                   stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    with urllib.request.urlopen(f"{base}{API}/health", timeout=2):
                        break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        sys.exit((work / "server.log").read_text(errors="replace")[-2000:])
                    time.sleep(0.1)
            yield base
        finally:
            process.terminate()
            process.wait(timeout=10)


class Api:
    def __init__(self, base: str) -> None:
        self.base = base

    def __call__(self, method: str, path: str, body: Any = None,
                 **headers: str) -> Any:
        request = urllib.request.Request(
            f"{self.base}{API}{path}", method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json", **headers})
        try:
            with urllib.request.urlopen(request) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            sys.exit(f"{method} {path}: {error.code} {error.read()[:500]!r}")


def bearer(token: str) -> str:
    return f"Bearer {token}"


def play_round(api: Api, event: dict[str, Any]) -> None:
    """A round started at the event and a hand played at each of its tables."""
    edit = bearer(event["tokens"]["edit"])
    tables = api("POST", f"/events/{event['id']}/rounds", {}, Authorization=edit)["tables"]
    for table in tables:
        game = api("GET", f"/games/{table['game']}",
                   Authorization=bearer(table["tokens"]["read"]))
        for side in range(3):
            api("POST", f"/games/{table['game']}/hands", {
                "dealer": game["next_dealer"], "discard": ["2H", "3H", "4S"],
                "piles": [{"side": s, "tricks": t, "counting": COUNTING if s == side else []}
                          for s, t in enumerate((10, 8, 8))]},
                Authorization=bearer(table["tokens"]["edit"]))
            game = api("GET", f"/games/{table['game']}",
                       Authorization=bearer(table["tokens"]["read"]))


def published_event(api: Api) -> str:
    event = api("POST", "/events", {
        "name": "Torneo d'autunno", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": f"Giocatore {n}"} for n in
                     ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")]})
    edit = bearer(event["tokens"]["edit"])
    api("PATCH", f"/events/{event['id']}", {"public": True}, Authorization=edit)
    play_round(api, event)  # three hands a table: the round is over and closes itself
    play_round(api, event)
    return f"/results/events/{event['id']}"


def published_club(api: Api) -> str:
    club = api("POST", "/clubs", {"name": "Circolo del Giovedì"})
    edit = bearer(club["tokens"]["edit"])
    api("POST", f"/clubs/{club['id']}/seasons",
        {"name": "Autunno", "from": "2020-01-01", "to": "2099-12-31"}, Authorization=edit)
    event = api("POST", "/events", {
        "name": "Giovedì", "variant": "gatti-3", "format": "individual", "club": club["id"],
        "entrants": [{"name": n} for n in ("Anna", "Bruno", "Carla", "Dario", "Elena",
                                           "Fabio")]}, **{"Club-Authorization": edit})
    api("PATCH", f"/events/{event['id']}", {"public": True},
        Authorization=bearer(event["tokens"]["edit"]))
    play_round(api, event)
    api("PATCH", f"/clubs/{club['id']}", {"public": True, "public_ratings": True},
        Authorization=edit)
    return f"/results/clubs/{club['id']}"


def audit(script: Path, browser: str, url: str, report: Path) -> dict[str, float]:
    """One Lighthouse run (mobile, its defaults) of ``url``: each category's score."""
    subprocess.run(
        ["node", str(script), url, "--quiet", "--output=json", f"--output-path={report}",
         f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={CHROME_FLAGS}"],
        env={**os.environ, "CHROME_PATH": browser}, check=True)
    categories = json.loads(report.read_text())["categories"]
    return {name: categories[name]["score"] for name in CATEGORIES}


def failing(report: Path) -> list[str]:
    """The audits of a report that lose points (score below 1), by id."""
    audits = json.loads(report.read_text())["audits"]
    return sorted(name for name, a in audits.items()
                  if a.get("score") is not None and a["score"] < 1
                  and a.get("scoreDisplayMode") in ("binary", "numeric", "metricSavings"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if shutil.which("node") is None:
        sys.exit("Lighthouse needs Node (18 or later) and npm on the PATH")
    script, browser = lighthouse(), chrome()
    OUT.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="segnapunti-lighthouse-"))
    with serving(work) as base:
        api = Api(base)
        pages = {"event": published_event(api), "club": published_club(api)}
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in pages}
        misses: dict[str, set[str]] = {name: set() for name in pages}
        for n in range(args.runs):
            for name, path in pages.items():
                report = OUT / f"{name}-{n + 1}.json"
                runs[name].append(audit(script, browser, f"{base}{path}", report))
                misses[name].update(failing(report))
    medians = {name: {c: statistics.median(r[c] for r in each) for c in CATEGORIES}
               for name, each in runs.items()}
    print(f"Lighthouse {LIGHTHOUSE_VERSION}, mobile, {browser}, median of {args.runs} runs")
    print(f"{'page':<8}" + "".join(f"{c:>16}" for c in CATEGORIES))
    for name, scores in medians.items():
        print(f"{name:<8}" + "".join(f"{scores[c]:>16.2f}" for c in CATEGORIES))
        if misses[name]:
            print(f"  {name}: audits below 1 in some run: {', '.join(sorted(misses[name]))}")
    (OUT / "scores.json").write_text(json.dumps({
        "lighthouse": LIGHTHOUSE_VERSION, "browser": browser, "runs": args.runs,
        "median": medians, "each": runs, "below_one": {k: sorted(v) for k, v in misses.items()},
    }, indent=2) + "\n")
    print(f"written: {OUT / 'scores.json'}")


if __name__ == "__main__":
    main()
