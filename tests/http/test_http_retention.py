"""Retention (``RETENTION_DAYS``): anonymous games untouched for N days are purged — by
migrate's upkeep, by ``python -m service purge``, and once a day while serving (one process
of many, the database deciding which) — each purge logged as one line and counted in the
metrics; games of an event or a club, and games touched since, are kept; off by default."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from http_support import API, Table, auth
from sqlalchemy import text
from test_http_admin import _app
from test_http_admin_tools import _TABLES, _age, _event, _list
from test_http_club_links import started
from test_http_clubs import found_club

from service.__main__ import main


@pytest.fixture(scope="module")
def kept_app(migrated_url: str) -> Iterator[Any]:
    yield from _app(migrated_url, RETENTION_DAYS=30)


@pytest.fixture()
def admin(kept_app: Any) -> Any:
    """A client of an app with retention on an emptied database, its daily purge done for
    today (only the test of the daily purge lets it run)."""
    with kept_app.extensions["segnapunti.store"].engine.begin() as connection:
        for table in _TABLES:
            connection.execute(text(f"DELETE FROM {table}"))
    retention = kept_app.extensions["segnapunti.retention"]
    retention._claimed = retention.clock().date()
    return kept_app.test_client()


def _world(client: Any) -> dict[str, str]:
    """An anonymous game untouched for 40 days, one for 10, one played 40 days ago and again
    today, and a club's game and an event's table untouched for 40 days."""
    stale, recent, revived = Table(client), Table(client), Table(client)
    revived.play()
    club_game = started(client, found_club(client), ["Anna", "Bruno", "Carla"])
    table = _event(client)["table"]["game"]
    for game, days in ((stale.id, 40), (recent.id, 10), (club_game["id"], 40), (table, 40)):
        _age(client, game, days)
    with client.application.extensions["segnapunti.store"].engine.begin() as connection:
        connection.execute(text("UPDATE games SET created_at = :t WHERE id = :g"),
                           {"t": _days_ago(40), "g": revived.id})
    return {"stale": stale.id, "recent": recent.id, "revived": revived.id,
            "club": club_game["id"], "table": table}


def _days_ago(days: int) -> datetime:
    return datetime.now(UTC) - timedelta(days=days)


def _ids(client: Any) -> set[str]:
    return {row["id"] for row in _list(client, "games", limit=500)["rows"]}


def _purged_total(client: Any) -> float:
    metrics = client.get("/metrics").get_data(as_text=True)
    return next(float(line.split()[-1]) for line in metrics.splitlines()
                if line.startswith("segnapunti_games_purged_total "))


def test_a_purge_removes_anonymous_games_untouched_for_n_days_and_keeps_the_rest(
        admin: Any, caplog: pytest.LogCaptureFixture) -> None:
    world = _world(admin)
    retention = admin.application.extensions["segnapunti.retention"]
    with caplog.at_level(logging.INFO, logger="service.application.retention"):
        purge = retention.purge("command")
    assert purge.games == 1
    assert _ids(admin) == {world["recent"], world["revived"], world["club"], world["table"]}
    [line] = [r for r in caplog.records if "purged_games" in getattr(r, "fields", {})]
    fields = line.fields  # type: ignore[attr-defined]
    assert fields["purged_games"] == 1 and fields["retention_days"] == 30
    assert fields["by"] == "command" and fields["oldest_activity"].startswith(
        _days_ago(40).date().isoformat())
    assert fields["rows"]["games"] == 1


def test_the_metrics_count_the_games_purged(admin: Any) -> None:
    before = _purged_total(admin)
    for _ in range(2):
        _age(admin, Table(admin).id, 31)
    admin.application.extensions["segnapunti.retention"].purge("command")
    assert _purged_total(admin) == before + 2


def test_the_daily_purge_runs_once_a_day_whichever_process_asks(admin: Any,
                                                                migrated_url: str) -> None:
    stale = Table(admin)
    _age(admin, stale.id, 40)
    admin.application.extensions["segnapunti.retention"]._claimed = None
    for other in _app(migrated_url, RETENTION_DAYS=30):
        for app in (admin.application, other, admin.application):
            app.test_client().get(f"{API}/variants")
            thread = app.extensions["segnapunti.retention"].thread
            if thread is not None:
                thread.join(10)
        with other.extensions["segnapunti.store"].engine.connect() as connection:
            purges = connection.execute(text("SELECT by, day, games FROM purges")).all()
    # The first process to ask claimed the day and purged; the other found it claimed, and
    # the first did not ask again.
    assert [(by, games) for by, _day, games in purges] == [("daily", 1)]
    assert purges[0][1] is not None
    assert stale.id not in _ids(admin)


def test_retention_is_off_by_default(client: Any) -> None:
    stale = Table(client)
    _age(client, stale.id, 4000)
    retention = client.application.extensions["segnapunti.retention"]
    assert retention.purge("command") is None
    client.get(f"{API}/variants")
    assert retention.thread is None
    assert client.get(stale.url, headers=auth(stale.read)).status_code == 200


def test_python_m_service_purge_prints_what_it_removed(
        admin: Any, migrated_url: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _age(admin, Table(admin).id, 40)
    monkeypatch.setenv("DATABASE_URL", migrated_url)
    monkeypatch.setenv("RETENTION_DAYS", "30")
    assert main(["purge"]) == 0
    assert "purged 1 anonymous game untouched for 30 days" in capsys.readouterr().out
    assert _ids(admin) == set()
    monkeypatch.delenv("RETENTION_DAYS")
    assert main(["purge"]) == 2


def test_migrate_s_upkeep_purges(admin: Any, migrated_url: str,
                                 monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    stale, kept = Table(admin), Table(admin)
    _age(admin, stale.id, 40)
    monkeypatch.setenv("DATABASE_URL", migrated_url)
    monkeypatch.setenv("RETENTION_DAYS", "30")
    assert main(["migrate"]) == 0
    assert "purged 1 anonymous game" in capsys.readouterr().err
    assert _ids(admin) == {kept.id}
