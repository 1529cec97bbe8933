"""``GET /metrics`` of the real server (``python -m service`` with ``SERVER=gunicorn``, two workers): each
worker counts in files of its own in the metrics directory, and whichever worker answers a
scrape answers for the whole server; a worker that dies leaves the live sums (gunicorn's
``child_exit``), and a new start begins its counts at zero."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_support import API, LiveServer
from prometheus_client.mmap_dict import MmapedDict
from prometheus_client.parser import text_string_to_metric_families

HEALTH = f"{API}/health"
#: How long the test waits for gunicorn to replace a killed worker on a loaded machine.
RESPAWN_TIMEOUT_S = 90.0


def by_worker(directory: Path, kind: str, sample: str, **labels: str) -> dict[int, float]:
    """A sample as each worker wrote it to its own file (``kind``: its files' prefix), by
    the worker's pid."""
    values: dict[int, float] = {}
    for path in directory.glob(f"{kind}_*.db"):
        pid = int(path.stem.rpartition("_")[2])
        for key, value, *_ in MmapedDict.read_all_values_from_file(str(path)):
            _, name, written, _ = json.loads(key)
            if name == sample and labels.items() <= written.items():
                values[pid] = values.get(pid, 0.0) + value
    return values


def health_counts(directory: Path) -> dict[int, float]:
    """The 200s of ``/api/v1/health`` each worker counted."""
    return by_worker(directory, "counter", "segnapunti_http_requests_total", route=HEALTH,
                     status="200")


def scrape(server: LiveServer) -> dict[str, float]:
    """``/metrics``: the server's whole count of health 200s, and its workers alive."""
    reply = server.call("GET", "/metrics")
    assert reply.status == 200, reply
    found = {"health": 0.0, "workers": 0.0}
    for family in text_string_to_metric_families(reply.body.decode()):
        for sample in family.samples:
            if sample.name == "segnapunti_http_requests_total" and (
                    sample.labels.get("route") == HEALTH and sample.labels["status"] == "200"):
                found["health"] += sample.value
            elif sample.name == "segnapunti_workers":
                found["workers"] = sample.value
    return found


def workers_of(master: int) -> set[int]:
    children = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[1]) == master and fields[0] != "Z":
                children.add(int(entry.name))
    return children


@pytest.fixture(scope="module")
def metered(one_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    workdir = tmp_path_factory.mktemp("metered")
    directory = workdir / "metrics"
    directory.mkdir()
    # An earlier run's counts, which a new start must not add to its own.
    leftover = MmapedDict(str(directory / "counter_1.db"))
    leftover.write_value(json.dumps(["segnapunti_http_requests", "segnapunti_http_requests_total",
                                     {"method": "GET", "route": HEALTH, "status": "200"},
                                     "an earlier run"], sort_keys=True), 1000.0, 0.0)
    leftover.close()
    live = LiveServer(one_db_url, workdir, workers=2,
                      env={"PROMETHEUS_MULTIPROC_DIR": str(directory),
                           "SERVER": "gunicorn"}).start()
    yield live
    live.stop()


def test_a_scrape_sums_the_counts_of_every_worker(metered: LiveServer) -> None:
    directory = Path(metered.env["PROMETHEUS_MULTIPROC_DIR"])
    sent = 0
    lock = threading.Lock()

    def send(times: int) -> None:
        nonlocal sent
        for _ in range(times):
            assert metered.call("GET", HEALTH).status == 200
            with lock:
                sent += 1

    # Requests from many threads at once, until both workers have answered some.
    deadline = time.monotonic() + 60
    while len([n for n in health_counts(directory).values() if n > 0]) < 2:
        assert time.monotonic() < deadline, health_counts(directory)
        threads = [threading.Thread(target=send, args=(10,)) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    per_worker = health_counts(directory)
    assert sum(per_worker.values()) == sent and 1 not in per_worker
    for _ in range(6):  # whichever worker answers the scrape
        assert scrape(metered) == {"health": sent, "workers": 2}


def test_a_dead_worker_leaves_the_live_sums_and_its_counts_stay(metered: LiveServer) -> None:
    assert metered.process is not None
    directory = Path(metered.env["PROMETHEUS_MULTIPROC_DIR"])
    before = scrape(metered)["health"]
    workers = workers_of(metered.process.pid)
    assert len(workers) == 2
    victim = min(workers)
    os.kill(victim, signal.SIGKILL)
    deadline = time.monotonic() + RESPAWN_TIMEOUT_S
    while True:
        replaced = workers_of(metered.process.pid) - workers
        alive = by_worker(directory, "gauge_livesum", "segnapunti_workers")
        if replaced and all(alive.get(pid) == 1 for pid in replaced):
            break
        assert time.monotonic() < deadline, "gunicorn did not replace the killed worker"
        time.sleep(0.1)
    assert not (directory / f"gauge_livesum_{victim}.db").exists()
    for _ in range(4):
        assert scrape(metered) == {"health": before, "workers": 2}
