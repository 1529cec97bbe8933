"""Benchmark: the room's screens on streams, against the same room polling.

Runs ``bench/locust_clubnight.py`` headless against ``--host`` (the proxy of
``deploy/native.sh``, whose state folder ``--state`` names its processes) and measures, in one
invocation:

Every run's request figures are also read from Caddy's access log (``at_the_proxy``: p50,
p95, p99 in ms and the count of hands, game reads, verdicts, event reads and field standings'
reads), from the request's arrival at the proxy to its answer: locust's figures add the time
an answer waits in locust's one process before it is timed, which grows with the streams that
process holds (1,000 spectators' streams doubled a read's p99 there).

Every run's request figures (p99 of a hand, of a read, errors) are those of the room at its
pace: from the moment every phone, board and organiser has loaded the page (the locustfile
then starts its figures again, and prints the arrival's time, requests and errors apart;
those errors still count). A real room arrives over minutes, not all in one second.

1. **Streams at 40 tables** (``--tables``): the 163 phones, boards and organiser on streams
   (``CLUBNIGHT_LIVE=streams``) and ``--spectators`` (1,000) spectators holding streams, half
   on a section's board, half on its published results page, for ``--minutes`` (2.5). It
   prints how many of the (stream, hand) pairs heard of the hand within 2 s and 5 s (the
   locustfile's ``heard`` says exactly how a delay is counted), the p99 of a hand and of a
   read, the errors (a stream cut or refused counts as one), and the streams' server's memory
   a stream: its ``VmRSS`` (``/proc/<pid>/status``) before locust starts and once every stream
   is open, the difference divided by the streams then open.
2. **The knee, both ways**: 40, 80, 120… tables (``--start``, ``--step``, ``--most``), each
   step ``--step-seconds`` (75) with streams and then polling (no spectators), the tables
   playing ``--knee-speedup`` times faster than a real room (10 by default, as the other
   parts; 1 is a real room's pace: a hand every ~5 minutes a table) and, with
   ``--knee-cached``, every page already in its phone's cache (no cold loads), until a step's
   p99 of a hand or of a game's read passes ``--knee-ms`` (250) or has an error: the knee of
   each way is its last step that held. A way stops climbing at its first step that did not
   hold; the whole stops when the time ``--budget-minutes`` (35) would run out.
3. **A field** (``--field``, once the service has fields): 10 sections of 12 tables, one
   the field's host and nine joining it with its key, duplicate deals, 4 boards a round,
   each section with its organiser, two boards and a field board reading the field's
   standings as its page does (``GET /events/{section}/field?rows=brief``), for
   ``--field-minutes`` (``--minutes`` unless given), with streams and then polling
   (``--field-ways``): the p99 of a field standings' read while they play (at the knee's
   pace). With streams a field board reads the field only when it moved, once a board is
   complete across the field: at a real room's pace, near the end of a round (some 20
   minutes), so such a run needs ``--field-minutes`` past that. The three parts in one
   run: ``--field --field-ways streams --field-minutes 26 --start 300 --most 300
   --step-seconds 180 --knee-speedup 1 --knee-cached`` (some 40 minutes).

For each step it also samples the CPU time of each process every 5 s (over the whole step,
and from 30 s after it starts, once every page is loaded, to 10 s before it ends): Caddy, app-1, app-2,
the streams' server (each by its session, as ``deploy/native.sh`` starts them), this
database's PostgreSQL backends, locust, and the whole machine (``/proc/stat``), as a share of
one core: what is CPU-bound at the knee.

    deploy/native.sh start   # RATE_LIMIT_PER_MINUTE=0 CREATION_QUOTA_EVENTS=0: one address
    .venv/bin/python bench/bench_live.py --host http://127.0.0.1:8080 --state var/native

It is a benchmark, not a test; each run's summary is in ``var/live/<name>.txt`` and the
figures of the whole in ``var/live/summary.json``.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import itertools
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LOCUSTFILE = ROOT / "bench" / "locust_clubnight.py"
OUT = ROOT / "var" / "live"
TICK = os.sysconf("SC_CLK_TCK")
GROUPS = ("proxy", "app-1", "app-2", "streams")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def streams_pid(state: Path) -> int:
    return int((state / "sv" / "streams" / "supervise" / "pid").read_text())


class CpuSampler:
    """CPU seconds of each part of the topology, sampled every 5 s in a thread."""

    def __init__(self, state: Path, database: str) -> None:
        self.state = state
        self.sessions = {int((state / f"{name}.pid").read_text()): name for name in GROUPS}
        self.database = database
        self.locust_session = 0
        self.samples: list[tuple[float, dict[str, float]]] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def read(self) -> dict[str, float]:
        ticks: dict[str, float] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
                fields = stat[stat.rindex(")") + 2:].split()
                session = int(fields[3])
                used = int(fields[11]) + int(fields[12])
                group = self.sessions.get(session)
                if group is None and session == self.locust_session:
                    group = "locust"
                if group is None and fields[0] and "postgres" in stat[:stat.rindex(")")]:
                    cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
                    if f" {self.database} ".encode() in cmdline.replace(b"\0", b" ") + b" ":
                        group = "postgres"
            except (OSError, ValueError, IndexError):
                continue
            if group is not None:
                ticks[group] = ticks.get(group, 0) + used
        with open("/proc/stat") as f:
            cpu = [int(v) for v in f.readline().split()[1:]]
        ticks["machine"] = sum(cpu) - cpu[3] - cpu[4]  # all but idle and iowait
        return {k: v / TICK for k, v in ticks.items()}

    def run(self) -> None:
        while not self.stopping.is_set():
            self.samples.append((time.monotonic(), self.read()))
            self.stopping.wait(5.0)

    def start(self, locust_session: int) -> None:
        self.locust_session = locust_session
        self.samples = []
        self.stopping.clear()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def stop(self, steady_after: float = 0.0) -> dict[str, float]:
        """Each part's share of one core (%) over the run, from its first sample to its last
        (a process gone meanwhile, e.g. a backend, is counted up to its last sample); with
        ``steady_after``, from that many seconds after the first sample to 10 s before the
        last (the night at its pace: every page loaded, nothing stopping yet)."""
        if not self.stopping.is_set():
            self.stopping.set()
            self.thread.join()
            self.samples.append((time.monotonic(), self.read()))
        samples = self.samples
        if steady_after:
            t_first, t_last = samples[0][0] + steady_after, samples[-1][0] - 10
            samples = [s for s in samples if t_first <= s[0] <= t_last]
        if len(samples) < 2:
            return {}
        (t0, first), (t1, last) = samples[0], samples[-1]
        shares: dict[str, float] = {}
        names = set(first) | set(last)
        for name in names:
            # A process that ended between samples takes its ticks with it: sum each
            # interval's growth where positive.
            used = 0.0
            for (_, a), (_, b) in itertools.pairwise(samples):
                used += max(0.0, b.get(name, 0.0) - a.get(name, 0.0))
            shares[name] = round(100 * used / (t1 - t0), 1)
        # What the rest of the machine used meanwhile (other people's work on it).
        shares["others"] = round(shares.get("machine", 0.0) - sum(
            v for k, v in shares.items() if k != "machine"), 1)
        return shares


def run_locust(name: str, host: str, tables: int, seconds: int, live: str, spectators: int,
               sampler: CpuSampler, watch: Any = None,
               field_sections: int = 0, pace: dict[str, str] | None = None) -> dict[str, Any]:
    """One headless run; its stats by request name, its printed summary, CPU shares.
    ``field_sections``: a field of that many sections sharing the tables (and a field board
    each); ``pace``: the locustfile's settings of the tables' speed and the pages' cache."""
    prefix = OUT / name
    sections = field_sections or -(-tables // 40)
    users = 4 * tables + 3 * sections + spectators + field_sections
    status = OUT / f"{name}.open"
    status.unlink(missing_ok=True)
    command = [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless",
               "--host", host, "--users", str(users),
               "--spawn-rate", str(max(40, users // 8)), "--run-time", f"{seconds}s",
               "--only-summary", "--csv", str(prefix), "--stop-timeout", "5"]
    env = dict(os.environ, CLUBNIGHT_TABLES=str(tables), CLUBNIGHT_LIVE=live,
               CLUBNIGHT_SPECTATORS=str(spectators), CLUBNIGHT_STATUS_FILE=str(status))
    if field_sections:
        env.update(CLUBNIGHT_FIELD="1", CLUBNIGHT_SECTION_TABLES=str(tables // field_sections))
    env.update(pace or {})
    with (OUT / f"{name}.txt").open("w") as log:
        started = time.time()
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        sampler.start(process.pid)
        extra = watch(process, status) if watch is not None else {}
        try:
            process.wait(timeout=seconds + 240)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        cpu = sampler.stop()
        steady = sampler.stop(steady_after=30.0)
    text = (OUT / f"{name}.txt").read_text()
    stats: dict[str, dict[str, str]] = {}
    path = Path(f"{prefix}_stats.csv")
    if path.exists():
        with path.open() as f:
            stats = {row["Name"]: row for row in csv.DictReader(f)}
    return {"name": name, "tables": tables, "live": live, "users": users, "stats": stats,
            "text": text, "cpu": cpu, "cpu_steady": steady, "started": started,
            "state": sampler.state,
            "ended": time.time(), **extra}


#: The requests whose time at the proxy is told apart, by the method and path Caddy logs.
AT_THE_PROXY = {
    "hand": re.compile(r"POST /api/v1/games/[\w-]+/hands"),
    "game read": re.compile(r"GET /api/v1/games/[\w-]+"),
    "verdict": re.compile(r"POST /api/v1/games/[\w-]+/hands/\d+/confirmations"),
    "event read": re.compile(r"GET /api/v1/events/[\w-]+(/standings)?"),
    "field standings": re.compile(r"GET /api/v1/events/[\w-]+/field"),
}


def at_the_proxy(state: Path, since: float, until: float) -> dict[str, list[float]]:
    """Each kind's (``AT_THE_PROXY``) p50, p95 and p99 in ms and count, as Caddy's access log
    says between ``since`` and ``until`` (wall clock): from the request's arrival at the proxy
    to its answer, without the time an answer waits in locust's one process before it is
    timed (which grows with the streams it holds)."""
    durations: dict[str, list[float]] = {kind: [] for kind in AT_THE_PROXY}
    folder = state / "caddy"
    for path in sorted(folder.glob("access*.log*")):
        opener: Any = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt") as f:
            for line in f:
                if '"handled request"' not in line:
                    continue
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if not since <= entry.get("ts", 0) <= until:
                    continue
                asked = f"{entry['request']['method']} {entry['request']['uri'].split('?')[0]}"
                for kind, pattern in AT_THE_PROXY.items():
                    if pattern.fullmatch(asked):
                        durations[kind].append(entry["duration"] * 1000)
                        break
    found: dict[str, list[float]] = {}
    for kind, values in durations.items():
        if values:
            values.sort()
            n = len(values)
            found[kind] = [round(values[min(n - 1, int(q * n))]) for q in (0.5, 0.95, 0.99)]
            found[kind].append(n)
    return found


def figures(run: dict[str, Any]) -> dict[str, Any]:
    stats = run["stats"]
    read = "read game" if run["live"] == "streams" else "poll game"
    row: dict[str, Any] = {"tables": run["tables"], "live": run["live"], "cpu": run["cpu"],
                           "cpu_steady": run["cpu_steady"]}
    for key, name in (("hand", "hand"), ("read", read)):
        s = stats.get(name, {})
        row[key] = [s.get(q, "-") for q in ("50%", "95%", "99%")]
        row[f"{key}_requests"] = s.get("Request Count", "0")
    reads = [s for n, s in stats.items() if n != "Aggregated" and s.get("Type") == "GET"
             and not n.startswith(("stream", "page", "variant"))]
    row["reads_requests"] = sum(int(s["Request Count"]) for s in reads)
    total = stats.get("Aggregated", {})
    row["requests"] = total.get("Request Count", "-")
    row["errors"] = int(total.get("Failure Count", "0") or 0)
    arrival = re.search(r"^arrival: every page loaded in (\d+) s, (\d+) requests, (\d+) errors"
                        r".*?(?:\(at ([\d.]+)\))?$", run["text"], re.MULTILINE)
    if arrival:  # the figures are from the room's arrival on; its errors count all the same
        row["arrival"] = {"seconds": int(arrival.group(1)), "requests": int(arrival.group(2)),
                          "errors": int(arrival.group(3))}
        row["errors"] += row["arrival"]["errors"]
    if run.get("state") is not None:
        # From the moment the room arrived (the locustfile says when; its count of seconds
        # starts after the night's set-up, so alone it would take in the arrival's last ones).
        since = (float(arrival.group(4)) if arrival and arrival.group(4)
                 else run["started"] + (row["arrival"]["seconds"] if arrival else 0))
        row["at_the_proxy"] = at_the_proxy(run["state"], since, run["ended"])
    row["ok"] = bool(stats) and "the night could not be set up" not in run["text"]
    heard = {}
    for line in run["text"].splitlines():
        m = re.match(r"(\w[\w ]*?)\s+(\d+)\s+([\d.]+|nan)\s+([\d.]+|nan)\s+(\S+)\s+(\S+)\s+(\S+)$",
                     line)
        if m and m.group(1) in ("phone", "board", "organiser", "spectator board",
                                "spectator results", "all streams"):
            heard[m.group(1)] = {"pairs": int(m.group(2)), "within_2s": float(m.group(3)),
                                 "within_5s": float(m.group(4)), "p50_ms": m.group(5),
                                 "p99_ms": m.group(6), "max_ms": m.group(7)}
    if heard:
        row["heard"] = heard
    streams_line = re.search(r"^streams: .*$", run["text"], re.MULTILINE)
    if streams_line:
        row["streams"] = streams_line.group(0)
    errors = re.findall(r"^error: .*$", run["text"], re.MULTILINE)
    if errors:
        row["error_lines"] = errors[:10]
    return row


def database_name(state: Path) -> str:
    """The topology's database (``DATABASE_URL``, else as saved by ``deploy/native.sh``)."""
    url = os.environ.get("DATABASE_URL", "")
    saved = state / "native.env"
    if not url and saved.exists():
        found = re.search(r"^DATABASE_URL='([^']*)'", saved.read_text(), re.MULTILINE)
        url = found.group(1) if found else ""
    return url.rsplit("/", 1)[-1].split("?")[0] or "segnapunti"


def worst_p99(row: dict[str, Any]) -> float:
    try:
        return max(float(row["hand"][2]), float(row["read"][2]))
    except (ValueError, TypeError):
        return float("inf")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="http://127.0.0.1:8080")
    parser.add_argument("--state", type=Path, default=ROOT / "var" / "native")
    parser.add_argument("--database", default="",
                        help="the database's name, for its backends' CPU (from DATABASE_URL)")
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--minutes", type=float, default=2.5)
    parser.add_argument("--field-minutes", type=float, default=None,
                        help="the field's minutes a way (default: --minutes)")
    parser.add_argument("--start", type=int, default=40)
    parser.add_argument("--step", type=int, default=40)
    parser.add_argument("--most", type=int, default=400)
    parser.add_argument("--step-seconds", type=int, default=75)
    parser.add_argument("--knee-ms", type=float, default=250.0)
    parser.add_argument("--knee-speedup", type=float, default=10.0,
                        help="how much faster than a real room the knee's and the field's "
                             "tables play")
    parser.add_argument("--knee-cached", action="store_true",
                        help="the knee's and the field's phones have the page cached")
    parser.add_argument("--budget-minutes", type=float, default=35.0)
    parser.add_argument("--skip", default="", help="parts to skip: any of a, knee, field")
    parser.add_argument("--field", action="store_true", help="run the field's part too")
    parser.add_argument("--field-ways", default="streams,polling",
                        help="the field's ways, in order: streams, polling or both")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    database = args.database or database_name(args.state)
    sampler = CpuSampler(args.state, database)
    summary: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}

    if "a" not in args.skip:
        pid = streams_pid(args.state)
        before = rss_kib(pid)
        expected = 4 * args.tables + 3 * -(-args.tables // 40) + args.spectators

        def watch(process: subprocess.Popen[bytes], status: Path) -> dict[str, Any]:
            """The streams' server's RSS once every stream is open (or after 60 s)."""
            deadline = time.monotonic() + 60
            opened = 0
            while time.monotonic() < deadline and process.poll() is None:
                try:
                    opened = int(status.read_text().strip() or 0)
                except (OSError, ValueError):
                    opened = 0
                if opened >= expected:
                    break
                time.sleep(0.5)
            time.sleep(2)  # the last ones' first readings done
            try:
                opened = int(status.read_text().strip() or 0)
            except (OSError, ValueError):
                pass
            return {"rss_before_kib": before, "rss_open_kib": rss_kib(pid),
                    "streams_open": opened}

        run = run_locust("a-streams", args.host, args.tables, int(args.minutes * 60),
                         "streams", args.spectators, sampler, watch)
        row = figures(run)
        row["rss_after_kib"] = rss_kib(pid)
        for key in ("rss_before_kib", "rss_open_kib", "streams_open"):
            row[key] = run[key]
        if run["streams_open"]:
            row["kib_a_stream"] = round((run["rss_open_kib"] - before) / run["streams_open"], 1)
        summary["a"] = row
        print(json.dumps(row, indent=1), flush=True)

    # The knee's and the field's pace: the tables' speed, and the pages cached or loaded cold.
    pace = {"CLUBNIGHT_SPEEDUP": f"{args.knee_speedup:g}",
            "CLUBNIGHT_PAGES": "cached" if args.knee_cached else "cold"}
    if "knee" not in args.skip:
        summary["knee_pace"] = pace
        knees: dict[str, int | None] = {"streams": None, "polling": None}
        climbing = {"streams": True, "polling": True}
        steps = []
        per_step = args.step_seconds + 45  # set-up, spawn, stop
        for tables in range(args.start, args.most + 1, args.step):
            for live in ("streams", "polling"):
                if not climbing[live]:
                    continue
                left = args.budget_minutes * 60 - (time.monotonic() - began)
                if left < per_step + tables * 0.3:
                    print(f"budget spent: {live} stops at {tables} tables", flush=True)
                    climbing[live] = False
                    summary.setdefault("budget_stopped", []).append([live, tables])
                    continue
                run = run_locust(f"knee-{live}-{tables}", args.host, tables,
                                 args.step_seconds, live, 0, sampler, pace=pace)
                row = figures(run)
                steps.append(row)
                held = row["ok"] and row["errors"] == 0 and worst_p99(row) <= args.knee_ms
                row["held"] = held
                print(f"{live:8} {tables:4d} tables: hand p50/p95/p99 {'/'.join(row['hand'])}"
                      f"  read p50/p95/p99 {'/'.join(row['read'])}  errors {row['errors']}"
                      f"  requests {row['requests']}  cpu {row['cpu']}"
                      f"  cpu from 30 s on {row['cpu_steady']}"
                      f"  at the proxy {row.get('at_the_proxy')}"
                      f"  {'held' if held else 'passed the knee'}", flush=True)
                if held:
                    knees[live] = tables
                else:
                    climbing[live] = False
            if not any(climbing.values()):
                break
        summary["steps"] = steps
        summary["knees"] = knees
        print(f"knees: {knees} (p99 of a hand and of a game's read <= {args.knee_ms:.0f} ms, "
              f"no error)", flush=True)

    if args.field and "field" not in args.skip:
        summary["field"] = {}
        for live in args.field_ways.split(","):
            minutes = args.minutes if args.field_minutes is None else args.field_minutes
            run = run_locust(f"field-{live}", args.host, 120, int(minutes * 60), live, 0,
                             sampler, field_sections=10, pace=pace)
            row = figures(run)
            s = run["stats"].get("field standings", {})
            row["field_standings"] = [s.get(q, "-") for q in ("50%", "95%", "99%")]
            row["field_standings_requests"] = s.get("Request Count", "0")
            summary["field"][live] = row
            print(f"field of 10 sections of 12 tables, {live}: field standings p50/p95/p99 "
                  f"{'/'.join(row['field_standings'])} ms ({row['field_standings_requests']} "
                  f"reads), hand p99 {row['hand'][2]}, read p99 {row['read'][2]}, errors "
                  f"{row['errors']}, cpu {row['cpu']}, at the proxy {row.get('at_the_proxy')}",
                  flush=True)

    summary["minutes"] = round((time.monotonic() - began) / 60, 1)
    (OUT / "summary.json").write_text(json.dumps(summary, indent=1))
    print(f"done in {summary['minutes']} min; figures in {OUT / 'summary.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
