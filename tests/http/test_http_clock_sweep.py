"""The round clock closes a round by itself even when nobody reads the event at its moment:
the sweep each serving process runs (``CLOCK_SWEEP_SECONDS``) closes every round due, once
however many processes sweep at the same time, logs and counts each close; a table's own
requests apply the clock too; and the standings PDF says a round the clock closed was closed
by the clock. On SQLite and PostgreSQL; the service's clock is the test's, and the sweep is
called by the test (a test's app starts no thread)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from http_support import assert_problem, auth
from sqlalchemy import event as sql_event
from test_http_admin import _app
from test_http_event_clock_prizes import Clock, _pdf_text, four, iso
from test_http_events import Evening, points

from service.application.clock_sweep import CLOCK_SWEEP_SECONDS, ClockSweep, sweep_seconds
from service.http.metrics import ROUNDS_CLOSED_BY_CLOCK

API = "/api/v1"


@pytest.fixture()
def clock(client: Any, monkeypatch: pytest.MonkeyPatch) -> Clock:
    found = Clock()
    monkeypatch.setattr(client.application.extensions["segnapunti.games"], "clock", found)
    return found


@pytest.fixture()
def other_app(migrated_url: str, client: Any, clock: Clock,
              monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A second serving process over the same database, on the same clock."""
    for application in _app(migrated_url):
        monkeypatch.setattr(application.extensions["segnapunti.games"], "clock", clock)
        yield application


def sweep(app: Any) -> int:
    return int(app.extensions["segnapunti.clock_sweep"].sweep())


def open_round(client: Any, evening: Evening) -> int | None:
    """The number of the event's round stored open, read from the database alone (a reading
    of the event would apply the clock itself)."""
    found = client.application.extensions["segnapunti.events"].repository.open_round_clock(
        evening.id)
    return None if found is None else int(found[1])


def clock_closes(client: Any, evening: Evening) -> list[dict[str, Any]]:
    history = client.application.extensions["segnapunti.events"].repository.event_history(
        evening.id)
    return [a.data for a in history if a.action == "close_round"]


def closing(client: Any, **more: Any) -> tuple[Evening, dict[str, Any]]:
    """An evening whose round 1 closes by itself at 33 minutes, a hand played at its table."""
    evening = four(client, round_minutes=30, auto_close=True, grace_minutes=3, **more)
    table = evening.start()["tables"][0]
    evening.record(table, points(40, 32))
    return evening, table


# -- the sweep ------------------------------------------------------------------------------


def test_the_sweep_closes_a_round_due_that_nobody_reads_at_its_moment(
        client: Any, clock: Clock) -> None:
    evening, _table = closing(client)
    clock.at(32.9)
    assert sweep(client.application) == 0
    assert open_round(client, evening) == 1
    clock.at(33.2)  # nobody reads the event: the sweep alone
    assert sweep(client.application) == 1
    assert open_round(client, evening) is None
    [closed] = clock_closes(client, evening)
    assert closed == {"round": 1, "automatic": True, "clock": True}
    played = evening.state()["rounds"][0]
    assert played["state"] == "closed" and played["closed_at"] == iso(33)
    assert played["tables"][0]["status"] == "closed"
    assert sweep(client.application) == 0  # nothing left to close


def test_the_sweep_leaves_rounds_without_auto_close_or_still_running(
        client: Any, clock: Clock) -> None:
    no_auto = four(client, round_minutes=30)
    no_auto.start()
    no_clock = four(client)
    no_clock.start()
    later = four(client, round_minutes=60, auto_close=True)
    later.start()
    clock.at(45)
    assert sweep(client.application) == 0
    assert [open_round(client, e) for e in (no_auto, no_clock, later)] == [1, 1, 1]


def test_the_sweep_closes_every_due_round_of_every_event(client: Any, clock: Clock) -> None:
    first, _ = closing(client)
    second = four(client, round_minutes=5, auto_close=True, grace_minutes=0)
    second.start()
    clock.at(40)
    assert sweep(client.application) == 2
    assert open_round(client, first) is None and open_round(client, second) is None
    assert second.state()["rounds"][0]["closed_at"] == iso(5)


def test_two_processes_sweeping_at_once_close_the_round_once(
        client: Any, clock: Clock, other_app: Any) -> None:
    evening, _table = closing(client)
    clock.at(34)
    mine = client.application.extensions["segnapunti.events"]
    found_due = mine.repository.open_rounds_closing_by_clock
    theirs: list[int] = []

    def then_the_other_sweeps(started_before: Any) -> Any:
        due = found_due(started_before)  # both found the round due ...
        theirs.append(sweep(other_app))  # ... and the other process closes it first
        return due

    mine.repository.open_rounds_closing_by_clock = then_the_other_sweeps
    try:
        assert sweep(client.application) == 0  # found it closed
    finally:
        del mine.repository.open_rounds_closing_by_clock
    assert theirs == [1]
    assert len(clock_closes(client, evening)) == 1
    assert evening.state()["rounds"][0]["closed_at"] == iso(33)


def test_sweeps_racing_in_threads_close_the_round_once(
        client: Any, clock: Clock, other_app: Any) -> None:
    evening, _table = closing(client)
    clock.at(34)
    apps = [client.application, other_app, client.application, other_app]
    start = threading.Barrier(len(apps))
    closed: list[int] = []

    def race(app: Any) -> None:
        start.wait()
        closed.append(sweep(app))

    threads = [threading.Thread(target=race, args=(app,)) for app in apps]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(closed) == [0, 0, 0, 1]
    assert len(clock_closes(client, evening)) == 1
    assert evening.state()["version"] == 3  # created, round started, closed once


def test_each_close_by_the_clock_is_logged_and_counted(
        client: Any, clock: Clock, caplog: pytest.LogCaptureFixture) -> None:
    evening, _table = closing(client)
    before = ROUNDS_CLOSED_BY_CLOCK.labels("sweep")._value.get()
    clock.at(33.5)
    with caplog.at_level(logging.INFO, logger="service.application.events"):
        assert sweep(client.application) == 1
    assert ROUNDS_CLOSED_BY_CLOCK.labels("sweep")._value.get() == before + 1
    [line] = [r for r in caplog.records if "late_seconds" in getattr(r, "fields", {})]
    assert line.fields == {  # type: ignore[attr-defined]
        "event": evening.id, "round": 1, "closed_at": iso(33), "by": "sweep",
        "late_seconds": 30.0, "unfinished_tables": 1}
    metrics = client.get("/metrics").get_data(as_text=True)
    assert 'segnapunti_rounds_closed_by_clock_total{by="sweep"}' in metrics


def test_a_failing_sweep_is_logged_and_the_next_one_runs(
        caplog: pytest.LogCaptureFixture) -> None:
    calls: list[int] = []

    def close_due() -> int:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("the database is away")
        return 2

    sweeper = ClockSweep(close_due, 20)
    with caplog.at_level(logging.ERROR, logger="service.application.clock_sweep"):
        assert sweeper.sweep() == 0
    assert "sweep failed" in caplog.text
    assert sweeper.sweep() == 2


def test_a_started_sweep_sweeps_every_interval_until_stopped() -> None:
    swept = threading.Semaphore(0)

    def close_due() -> int:
        swept.release()
        return 0

    sweeper = ClockSweep(close_due, 0.01)
    assert sweeper.start() is True
    assert sweeper.start() is False  # once a process
    try:
        assert swept.acquire(timeout=5) and swept.acquire(timeout=5)
    finally:
        sweeper.stop()
    assert sweeper.thread is None


def test_the_sweep_is_off_at_zero_seconds() -> None:
    assert ClockSweep(lambda: 0, 0).start() is False


@pytest.mark.parametrize(("raw", "seconds"), [(None, CLOCK_SWEEP_SECONDS), ("", 20.0),
                                               ("15", 15.0), ("0", 0.0), (" 30 ", 30.0)])
def test_the_sweeps_setting_is_seconds_or_zero_for_none(raw: str | None,
                                                        seconds: float) -> None:
    assert sweep_seconds(raw) == seconds


@pytest.mark.parametrize("raw", ["-1", "0.5", "soon", "7200"])
def test_a_sweep_setting_that_is_no_interval_is_refused(raw: str) -> None:
    with pytest.raises(ValueError, match="CLOCK_SWEEP_SECONDS"):
        sweep_seconds(raw)


# -- a table's requests ---------------------------------------------------------------------


def test_a_tables_sheet_finds_its_round_closed_once_its_clock_says_so(
        client: Any, clock: Clock) -> None:
    evening, table = closing(client)
    game = f"{API}/games/{table['game']}"
    read = client.get(game, headers=auth(table["tokens"]["read"]))
    assert read.json["event"]["closed"] is False
    clock.at(40)  # nobody reads the event: the table's poll alone
    again = client.get(game, headers={**auth(table["tokens"]["read"]),
                                      "If-None-Match": read.headers["ETag"]})
    assert again.status_code == 200
    assert again.json["event"]["closed"] is True
    assert open_round(client, evening) is None
    [closed] = clock_closes(client, evening)
    assert closed["clock"] is True
    assert evening.state()["rounds"][0]["closed_at"] == iso(33)


def test_a_hand_recorded_after_the_rounds_moment_is_refused(
        client: Any, clock: Clock) -> None:
    evening, table = closing(client)
    clock.at(34)
    refused = client.post(f"{API}/games/{table['game']}/hands",
                          json={"dealer": 1, **points(36, 36)},
                          headers=auth(table["tokens"]["edit"]))
    assert_problem(refused, 409, code="game_closed")
    assert {r["points"] for r in evening.standings()["rows"]} == {40, 32}


def _statements(client: Any, path: str, headers: dict[str, str]) -> int:
    engine = client.application.extensions["segnapunti.store"].engine
    counted: list[str] = []

    def count(*args: Any) -> None:
        counted.append(args[2])

    sql_event.listen(engine, "before_cursor_execute", count)
    try:
        response = client.get(path, headers=headers)
    finally:
        sql_event.remove(engine, "before_cursor_execute", count)
    assert response.status_code == 304
    return len(counted)


def test_a_tables_poll_before_its_moment_costs_no_query_more_than_a_games(
        client: Any, clock: Clock, table: Any) -> None:
    """The table's credentials carry its event's version; the round's clock read at that
    version is kept, so a poll checks the clock without asking the database again."""
    _evening, seated = closing(client)
    game = f"{API}/games/{seated['game']}"
    tag = client.get(game, headers=auth(seated["tokens"]["read"])).headers["ETag"]
    anonymous = table()
    plain = f"{API}/games/{anonymous.id}"
    plain_tag = client.get(plain, headers=auth(anonymous.edit)).headers["ETag"]
    clock.at(20)
    alone = _statements(client, plain, {**auth(anonymous.edit), "If-None-Match": plain_tag})
    seated_count = _statements(client, game, {**auth(seated["tokens"]["read"]),
                                              "If-None-Match": tag})
    assert seated_count == alone


# -- the standings PDF ----------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "words", "not_said"), [
    ("en", "Round 1 (closed by the clock)", "closed by the organiser"),
    ("it", "Turno 1 (chiuso dall'orologio)", "chiuso dall'organizzatore"),
    ("fr", "Tour 1 (clos par l'horloge)", "clos par l'organisateur")])
def test_the_standings_pdf_says_a_round_the_clock_closed_was_closed_by_the_clock(
        client: Any, clock: Clock, lang: str, words: str, not_said: str) -> None:
    evening, _table = closing(client, rounds=2)
    clock.at(40)
    sweep(client.application)
    evening.start()
    evening.close(2)
    text = _pdf_text(client, evening, lang)
    assert words in text
    # The second round, closed by the organiser's hand, still says so.
    assert not_said in text
