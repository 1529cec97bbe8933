"""The operator's tools besides new tokens: the lists of clubs, events and games (paged, by
last activity, with what each holds and its tokens' state, filtered for cleanup), deleting any
of them with all it keeps (confirmed by its id, in one transaction, logged and counted), and
revoking tokens (refused from then on, nothing replacing them until renewed, kept in the
history)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from http_support import API, Table, assert_problem, auth, error_fields
from sqlalchemy import text
from test_http_admin import ADMIN, GATTI3, _app
from test_http_club_links import play, results, started
from test_http_clubs import found_club

_TABLES = ("idempotency_keys", "club_results", "club_rating_steps", "club_ratings",
           "club_seasons", "club_actions", "club_members", "clubs", "event_actions",
           "event_tables", "event_rounds", "events", "board_refusals", "confirmations",
           "player_tokens", "hand_versions", "hands", "games", "purges")


@pytest.fixture(scope="module")
def tools_app(migrated_url: str) -> Iterator[Any]:
    yield from _app(migrated_url)


@pytest.fixture()
def admin(tools_app: Any) -> Any:
    """A client of an app with an admin token, on an emptied database."""
    with _engine(tools_app).begin() as connection:
        for table in _TABLES:
            connection.execute(text(f"DELETE FROM {table}"))
    return tools_app.test_client()


def _engine(app: Any) -> Any:
    return app.extensions["segnapunti.games"].repository.engine


def _age(client: Any, game_id: str, days: int) -> None:
    """The game made, and all it did, ``days`` days ago."""
    then = datetime.now(UTC) - timedelta(days=days)
    with _engine(client.application).begin() as connection:
        connection.execute(text("UPDATE games SET created_at = :t WHERE id = :g"),
                           {"t": then, "g": game_id})
        for table in ("hand_versions", "confirmations"):
            connection.execute(text(f"UPDATE {table} SET created_at = :t WHERE game_id = :g"),
                               {"t": then, "g": game_id})


def _list(client: Any, kind: str, **query: Any) -> dict[str, Any]:
    response = client.get(f"{API}/admin/{kind}", query_string=query, headers=auth(ADMIN))
    assert response.status_code == 200, response.json
    assert response.headers["Cache-Control"] == "no-store"
    body: dict[str, Any] = response.json
    return body


def _event(client: Any, rounds: int = 1) -> dict[str, Any]:
    made = client.post(f"{API}/events", json={"name": "Torneo", **GATTI3})
    assert made.status_code == 201, made.json
    event: dict[str, Any] = made.json
    for number in range(1, rounds + 1):
        if number > 1:
            closed = client.post(f"{API}/events/{event['id']}/rounds/{number - 1}/close",
                                 headers=auth(event["tokens"]["edit"]))
            assert closed.status_code == 200, closed.json
        started_ = client.post(f"{API}/events/{event['id']}/rounds", json={},
                               headers=auth(event["tokens"]["edit"]))
        assert started_.status_code == 201, started_.json
        event["table"] = started_.json["tables"][0]
    return event


def _delete(client: Any, kind: str, resource_id: str, confirm: str | None = "same") -> Any:
    query = {} if confirm is None else {"confirm": resource_id if confirm == "same" else confirm}
    return client.delete(f"{API}/admin/{kind}/{resource_id}", query_string=query,
                         headers=auth(ADMIN))


def _revoke(client: Any, kind: str, resource_id: str, *which: str) -> Any:
    return client.post(f"{API}/admin/{kind}/{resource_id}/tokens",
                       json={"action": "revoke", "which": list(which)}, headers=auth(ADMIN))


# -- the lists ------------------------------------------------------------------------------


def test_the_games_list_is_by_last_activity_newest_first_with_size_and_tokens(
        admin: Any) -> None:
    older, newer = Table(admin), Table(admin)
    older.play()  # a hand makes the older game the one last active
    rows = _list(admin, "games")["rows"]
    assert [row["id"] for row in rows] == [older.id, newer.id]
    first = rows[0]
    assert first["size"] == {"hands": 1, "players": 3}
    assert first["variant"] == "gatti-3" and first["name"] == "Anna · Bruno · Carla"
    assert first["anonymous"] is True and first["club"] is None and first["event"] is None
    assert first["tokens"] == {"edit": "active", "read": "active", "players": "active"}
    assert first["renewed_at"] is None and first["revoked_at"] is None
    assert first["last_activity"] > first["created_at"]
    assert rows[1]["last_activity"] == rows[1]["created_at"]


def test_the_events_and_clubs_lists_show_what_each_holds(admin: Any) -> None:
    club = found_club(admin)
    game = started(admin, club, ["Anna", "Bruno", "Carla"])
    play(admin, game, 2)
    event = _event(admin)
    [listed_event] = _list(admin, "events")["rows"]
    assert listed_event["id"] == event["id"] and listed_event["name"] == "Torneo"
    assert listed_event["size"] == {"entrants": 3, "rounds": 1, "tables": 1, "hands": 0}
    assert listed_event["anonymous"] is True
    [listed_club] = _list(admin, "clubs")["rows"]
    assert listed_club["size"] == {"members": 3, "games": 1, "events": 0, "seasons": 0}
    # The club's last activity is its game's last hand.
    club_game = next(row for row in _list(admin, "games")["rows"] if row["id"] == game["id"])
    assert club_game["anonymous"] is False and club_game["club"] == club["id"]
    assert listed_club["last_activity"] == club_game["last_activity"]
    table_game = next(row for row in _list(admin, "games")["rows"]
                      if row["id"] == event["table"]["game"])
    assert table_game["event"] == event["id"] and table_game["anonymous"] is False


def test_the_lists_page_and_sort_oldest_first_for_cleanup(admin: Any) -> None:
    games = [Table(admin) for _ in range(5)]
    for age, game in enumerate(games):
        _age(admin, game.id, 10 - age)  # the first is the oldest
    page = _list(admin, "games", limit=2, offset=1, order="oldest")
    assert page["total"] == 5 and page["limit"] == 2 and page["offset"] == 1
    assert [row["id"] for row in page["rows"]] == [games[1].id, games[2].id]
    newest = _list(admin, "games", limit=1)
    assert [row["id"] for row in newest["rows"]] == [games[4].id]


def test_the_lists_filter_inactive_days_and_anonymous(admin: Any) -> None:
    quiet, busy = Table(admin), Table(admin)
    _age(admin, quiet.id, 40)
    event = _event(admin)
    inactive = _list(admin, "games", inactive_days=30)
    assert [row["id"] for row in inactive["rows"]] == [quiet.id]
    anonymous = {row["id"] for row in _list(admin, "games", anonymous="true")["rows"]}
    assert anonymous == {quiet.id, busy.id}
    others = [row["id"] for row in _list(admin, "games", anonymous="false")["rows"]]
    assert others == [event["table"]["game"]]


def test_the_lists_refuse_bad_paging_naming_each_field(admin: Any) -> None:
    response = admin.get(f"{API}/admin/games", query_string={"limit": 0, "order": "sideways"},
                         headers=auth(ADMIN))
    body = assert_problem(response, 422)
    assert set(error_fields(body)) == {"query.limit", "query.order"}


def test_the_lists_need_the_admin_token(admin: Any, client: Any) -> None:
    game = Table(admin)
    assert_problem(admin.get(f"{API}/admin/games", headers=auth(game.edit)), 401,
                   code="invalid_token")
    assert_problem(client.get(f"{API}/admin/games", headers=auth(ADMIN)), 404)


# -- deleting -------------------------------------------------------------------------------


def test_deleting_a_game_removes_it_logged_and_counted(admin: Any,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    game = Table(admin)
    game.play()
    before = _deleted_count(admin, "game")
    with caplog.at_level(logging.WARNING, logger="service.http.resources.admin"):
        response = _delete(admin, "games", game.id)
    assert response.status_code == 200, response.json
    assert response.json["deleted"]["games"] == 1
    assert response.json["deleted"]["hands"] == 1
    assert_problem(game.get(), 401, code="invalid_token")
    assert _list(admin, "games")["total"] == 0
    [line] = [r for r in caplog.records if getattr(r, "fields", {}).get("admin_deleted")]
    assert line.fields == {"admin_deleted": "game", "id": game.id,  # type: ignore[attr-defined]
                           "rows": response.json["deleted"]}
    json.dumps(line.fields)  # type: ignore[attr-defined]
    assert _deleted_count(admin, "game") == before + 1


def _deleted_count(client: Any, kind: str) -> float:
    metrics = client.get("/metrics").get_data(as_text=True)
    prefix = f'segnapunti_admin_deleted_total{{kind="{kind}s"}} '
    return next((float(line.removeprefix(prefix)) for line in metrics.splitlines()
                 if line.startswith(prefix)), 0.0)


def test_deleting_needs_the_id_confirmed_and_an_unknown_id_is_404(admin: Any) -> None:
    game = Table(admin)
    assert_problem(_delete(admin, "games", game.id, confirm=None), 428,
                   code="precondition_required")
    assert_problem(_delete(admin, "games", game.id, confirm="abcdefghjk"), 412,
                   code="precondition_failed")
    assert game.get().status_code == 200
    for kind in ("clubs", "events", "games"):
        assert_problem(_delete(admin, kind, "abcdefghjk"), 404, code="not_found")


def test_a_table_is_deleted_with_its_event_not_alone(admin: Any) -> None:
    event = _event(admin, rounds=2)
    table = event["table"]["game"]
    assert_problem(_delete(admin, "games", table), 409, code="table_of_an_event")
    response = _delete(admin, "events", event["id"])
    assert response.status_code == 200, response.json
    deleted = response.json["deleted"]
    assert deleted["events"] == 1 and deleted["games"] == 2 and deleted["event_tables"] == 2
    assert deleted["event_rounds"] == 2
    assert _list(admin, "games")["total"] == 0
    assert_problem(admin.get(f"{API}/events/{event['id']}",
                             headers=auth(event["tokens"]["read"])), 401)


def test_deleting_a_club_deletes_its_members_events_and_games(admin: Any) -> None:
    club = found_club(admin)
    game = started(admin, club, ["Anna", "Bruno", "Carla"])
    play(admin, game, 3, counting_to=1)
    made = admin.post(f"{API}/events", json={"name": "Serata", **GATTI3, "club": club["id"]},
                      headers={"Club-Authorization": f"Bearer {club['tokens']['edit']}"})
    assert made.status_code == 201, made.json
    admin.post(f"{API}/events/{made.json['id']}/rounds", json={},
               headers=auth(made.json["tokens"]["edit"]))
    stranger = Table(admin)
    response = _delete(admin, "clubs", club["id"])
    assert response.status_code == 200, response.json
    deleted = response.json["deleted"]
    assert deleted["clubs"] == 1 and deleted["club_members"] == 3
    assert deleted["events"] == 1 and deleted["games"] == 2 and deleted["club_results"] == 3
    assert [row["id"] for row in _list(admin, "games")["rows"]] == [stranger.id]
    assert _list(admin, "clubs")["total"] == 0 and _list(admin, "events")["total"] == 0


def test_deleting_a_club_s_game_takes_it_out_of_the_club_s_results(admin: Any) -> None:
    club = found_club(admin)
    kept, gone = (started(admin, club, ["Anna", "Bruno", "Carla"]) for _ in range(2))
    for game in (kept, gone):
        play(admin, game, 3, counting_to=1)
    assert {row["game"] for row in results(admin, club)} == {kept["id"], gone["id"]}
    assert _delete(admin, "games", gone["id"]).status_code == 200
    assert {row["game"] for row in results(admin, club)} == {kept["id"]}
    ratings = admin.get(f"{API}/clubs/{club['id']}/ratings?family=gatti",
                        headers=auth(club["tokens"]["read"]))
    assert ratings.status_code == 200, ratings.json
    assert {row["games"] for row in ratings.json["ratings"]} == {1}


# -- revoking -------------------------------------------------------------------------------


def test_a_game_s_revoked_edit_token_is_refused_until_renewed(admin: Any) -> None:
    game = Table(admin)
    response = _revoke(admin, "games", game.id, "edit")
    assert response.status_code == 200, response.json
    assert response.json == {"id": game.id, "revoked": ["edit"]}
    assert_problem(game.get(game.edit), 401, code="invalid_token")
    assert game.get(game.read).status_code == 200  # the read link was not named
    assert [(v["action"], v["token_kind"]) for v in game.history()] == [
        ("revoke_tokens", "admin")]
    [row] = _list(admin, "games")["rows"]
    assert row["tokens"]["edit"] == "revoked" and row["revoked_at"] is not None
    renewed = admin.post(f"{API}/admin/games/{game.id}/tokens", headers=auth(ADMIN))
    assert renewed.status_code == 200
    assert game.get(renewed.json["tokens"]["edit"]).status_code == 200
    assert _list(admin, "games")["rows"][0]["tokens"]["edit"] == "active"


def test_a_game_s_revoked_read_and_players_links_are_refused(admin: Any) -> None:
    game = Table(admin)
    player = admin.get(f"{API}/games/{game.id}/players", headers=auth(game.edit)).json
    assert _revoke(admin, "games", game.id, "read", "players").status_code == 200
    for token in (game.read, player["tokens"][0]):
        assert_problem(game.get(token), 401, code="invalid_token")
    assert game.get(game.edit).status_code == 200


def test_a_club_s_revoked_tokens_are_refused_and_kept_in_its_history(admin: Any) -> None:
    club = found_club(admin)
    assert _revoke(admin, "clubs", club["id"], "edit").status_code == 200
    assert_problem(admin.get(f"{API}/clubs/{club['id']}", headers=auth(club["tokens"]["edit"])),
                   401, code="invalid_token")
    history = admin.get(f"{API}/clubs/{club['id']}/history",
                        headers=auth(club["tokens"]["read"]))
    assert history.status_code == 200, history.json
    assert history.json["actions"][-1]["action"] == "revoke_tokens"
    assert history.json["actions"][-1]["data"] == {"by": "admin", "tokens": ["edit"]}


def test_an_event_s_revoked_tables_and_read_token_are_refused(admin: Any) -> None:
    event = _event(admin)
    table = event["table"]
    assert _revoke(admin, "events", event["id"], "read", "tables").status_code == 200
    for token in (table["tokens"]["edit"], table["tokens"]["read"]):
        assert_problem(admin.get(f"{API}/games/{table['game']}", headers=auth(token)), 401,
                       code="invalid_token")
    assert_problem(admin.get(f"{API}/events/{event['id']}",
                             headers=auth(event["tokens"]["read"])), 401, code="invalid_token")
    organiser = admin.get(f"{API}/events/{event['id']}", headers=auth(event["tokens"]["edit"]))
    assert organiser.status_code == 200


def test_revoking_names_tokens_the_kind_has(admin: Any) -> None:
    club = found_club(admin)
    body = assert_problem(_revoke(admin, "clubs", club["id"], "players"), 422)
    assert set(error_fields(body)) == {"which[0]"}
    body = assert_problem(admin.post(f"{API}/admin/clubs/{club['id']}/tokens",
                                     json={"action": "revoke"}, headers=auth(ADMIN)), 422)
    assert set(error_fields(body)) == {"which"}
    assert admin.get(f"{API}/clubs/{club['id']}",
                     headers=auth(club["tokens"]["edit"])).status_code == 200
