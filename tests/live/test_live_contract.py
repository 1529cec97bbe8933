"""The running server against its contract: schemathesis drives every operation of
``openapi/openapi.yaml`` (examples, coverage, fuzzing and stateful phases) with every check,
including ``not_a_server_error`` and ``response_schema_conformance``: no 5xx, no response
that breaks its schema. Bounded: ``SCHEMATHESIS_MAX_EXAMPLES`` cases per operation (default
6) and a fixed seed (``SCHEMATHESIS_SEED``), so CI is fast and repeatable.

The run opens a fixture game with two hands, whose id is every valid ``game_id`` and whose edit
token is every request's ``Authorization``; ``schemathesis_hooks.py`` holds that and the one
adjustment to the stock checks (422 from the rules of tarot).
Expected statuses: a missing ``If-Match`` is 428 (RFC 6585 §3).

The same run shows that the access log never holds a token.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from live_support import API, LiveServer, auth, gatti3_hand

from service.http.openapi import OPENAPI_FILE

HERE = Path(__file__).resolve().parent
MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "6"))
SEED = int(os.environ.get("SCHEMATHESIS_SEED", "20261122"))

CONFIG = """\
seed = {seed}

[generation]
max-examples = {max_examples}
database = "none"

[cache]
enabled = false

[headers]
Authorization = "Bearer {token}"

[checks.positive_data_acceptance]
# The schema fixes a request's form, not the rules or the game's state: a record that fits it
# may break the rules (422 record_invalid; schemathesis_hooks.refused_only_by_the_rules keeps
# the rest strict), a well-formed If-Match may name a version that is no longer current (412).
expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "412", "422", "429", "5xx"]

[checks.missing_required_header]
# If-Match on PUT and DELETE: 428 Precondition Required (RFC 6585 §3).
expected-statuses = [400, 401, 403, 406, 415, 422, 428]
"""


@pytest.fixture(scope="module")
def contract_server(one_db_url: str,
                    tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server, on PostgreSQL when there is one (CI), else SQLite."""
    # schemathesis sends one request at a time: two workers serve it as well as four. The
    # administration is on (a token schemathesis never holds), so its operations answer a
    # missing or wrong token as the contract says instead of being absent.
    server = LiveServer(one_db_url, tmp_path_factory.mktemp("contract"), workers=2,
                        env={"ADMIN_TOKEN": "an-administrators-token-schemathesis-never-sends"}
                        ).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def fixture_game(contract_server: LiveServer) -> dict[str, Any]:
    game = contract_server.create_game()
    for dealer in (0, 1):
        reply = contract_server.call("POST", f"{API}/games/{game['id']}/hands",
                                     gatti3_hand(dealer), auth(game["tokens"]["edit"]))
        assert reply.status == 201, reply
    return game


# Two runs side by side, one per blueprint: schemathesis is bound to one core (its workers are
# threads) and the machine has two. The stored games, whose operations link to one another
# (POST /games -> GET /games/{id}, POST /hands -> PUT / DELETE /hands/{n}), stay in one run
# for the stateful phase. Most of the time goes into the deterministic coverage phase, mostly
# its negative cases, of the operations that take whole hand records. A correction (PUT), an
# organiser's correction of an event's hand and a score (its ``hand``) take the same
# HandRecord as POST /hands, an import a game setup as POST /games takes and hand records:
# those have the coverage phase in positive mode only, their negative space being the one
# POST /hands and POST /games cover in full; fuzzing (both modes) and the stateful phase test
# them as all the others.
# (An [[operations]] entry applies to an operation matching any one of its include-… keys:
# include-name names exactly one.)
POSITIVE_COVERAGE_ONLY = """
[[operations]]
include-name = "{name}"
phases.coverage.generation.mode = "positive"
"""
RUNS = {
    "games": (["--include-path-regex", "^/api/v1/games"],
              POSITIVE_COVERAGE_ONLY.format(name="PUT /api/v1/games/{game_id}/hands/{number}")
              + POSITIVE_COVERAGE_ONLY.format(name="POST /api/v1/games/import")),
    "stateless": (["--exclude-path-regex", "^/api/v1/games"],
                  POSITIVE_COVERAGE_ONLY.format(name="POST /api/v1/score")
                  + POSITIVE_COVERAGE_ONLY.format(
                      name="PUT /api/v1/events/{event_id}/rounds/{number}/tables/{table}"
                           "/hands/{hand}")),
}


def test_schemathesis_finds_nothing(contract_server: LiveServer, fixture_game: Any,
                                    tmp_path: Path) -> None:
    config = CONFIG.format(seed=SEED, max_examples=MAX_EXAMPLES,
                           token=fixture_game["tokens"]["edit"])
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")])),
        "SCHEMATHESIS_HOOKS": "schemathesis_hooks",
        "SEGNAPUNTI_RUN_GAME": fixture_game["id"],
        "SEGNAPUNTI_RUN_TOKEN": fixture_game["tokens"]["edit"],
    }
    runs = {}
    for name, (selection, extra_config) in RUNS.items():
        workdir = tmp_path / name
        workdir.mkdir()
        (workdir / "schemathesis.toml").write_text(config + extra_config)
        runs[name] = subprocess.Popen(
            [sys.executable, "-m", "schemathesis.cli",
             "--config-file", str(workdir / "schemathesis.toml"),
             "--no-color", "run", str(OPENAPI_FILE),
             "--url", f"http://127.0.0.1:{contract_server.port}", "--checks", "all",
             *selection],
            cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
    tested = 0
    for name, run in runs.items():
        output, _ = run.communicate(timeout=300)
        assert run.returncode == 0, f"{name}:\n{output[-20000:]}"
        counts = re.search(r"Selected: (\d+)/\d+\s+Tested: (\d+)", output)
        assert counts and counts.group(1) == counts.group(2), output[-3000:]
        cases = re.search(r"(\d+) generated, (\d+) passed", output)
        assert cases and cases.group(1) == cases.group(2), output[-3000:]
        tested += int(counts.group(2))
        assert "✅ Stateful" in output and "✅ Coverage" in output, output[-3000:]
    operations = sum(
        1 for methods in yaml.safe_load(OPENAPI_FILE.read_text())["paths"].values()
        for method in methods if method != "parameters"
    )
    assert tested == operations  # every operation, in one run or another


def test_the_access_log_never_holds_a_token(contract_server: LiveServer,
                                            fixture_game: Any) -> None:
    token = fixture_game["tokens"]["edit"]
    url = f"{API}/games/{fixture_game['id']}"
    contract_server.call("GET", url, headers=auth(token))
    # A hand-made link might put a token in the query string or a Referer: never logged.
    contract_server.call("GET", f"{url}?token={token}",
                         headers={"Referer": f"http://elsewhere/?token={token}"})
    contract_server.call("GET", url, headers={"Authorization": f"Basic {token}"})
    log = contract_server.log_path.read_text()
    lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    assert {"method": "GET", "route": f"{API}/games/<game_id:game_id>", "status": 200} in [
        {k: line.get(k) for k in ("method", "route", "status")} for line in lines
    ]  # requests are logged, by their route
    assert token not in log
    assert fixture_game["tokens"]["read"] not in log
