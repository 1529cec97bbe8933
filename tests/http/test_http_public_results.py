"""Public results: an event or a club published by its edit token is readable without a token,
as JSON (``/api/v1/public/…``) and as a page (``/results/…``); nothing is public unless
published, and taken down it is gone at once. Names on public answers are as the club lets
them be: a forgotten member is "Player N" in the reader's language, a member who asked to be
left out their initials; nothing of a duplicate board still being played appears."""

from __future__ import annotations

import random
from typing import Any

import pytest
from http_support import assert_problem, auth
from legal_play import play_out
from test_http_club_links import club_event, play, started
from test_http_club_seasons import open_season
from test_http_clubs import CLUBS, found_club

from service.domain import deal_board, find_variant

API = "/api/v1"
EVENTS = f"{API}/events"
SIX = ["Anna Rossi", "Bruno", "Carla", "Dario", "Elena", "Fabio"]


def evening(client: Any, **extra: Any) -> dict[str, Any]:
    body = {"name": "Serata del giovedì", "variant": "gatti-3", "format": "individual",
            "entrants": [{"name": n} for n in SIX[:3]], **extra}
    created = client.post(EVENTS, json=body)
    assert created.status_code == 201, created.json
    result: dict[str, Any] = created.json
    return result


@pytest.fixture(autouse=True)
def every_read_fresh(app: Any) -> Any:
    """Each read here asks the database for the published state (a process answers from
    the state it read within the last second otherwise: one test says so)."""
    app.config["PUBLIC_FRESH_SECONDS"] = 0
    yield
    app.config.pop("PUBLIC_FRESH_SECONDS")


def publish(client: Any, url: str, token: str, **body: Any) -> Any:
    return client.patch(url, json=body, headers=auth(token))


def public_event(client: Any, event_id: str, **headers: str) -> Any:
    return client.get(f"{API}/public/events/{event_id}", headers=headers)


# -- publishing -----------------------------------------------------------------------------


def test_nothing_is_public_unless_published(client: Any) -> None:
    event = evening(client)
    assert_problem(public_event(client, event["id"]), 404)
    page = client.get(f"/results/events/{event['id']}")
    assert page.status_code == 404
    assert "Serata" not in page.get_data(as_text=True)


def test_an_unpublished_event_answers_as_one_that_does_not_exist(client: Any) -> None:
    event = evening(client)
    hidden = public_event(client, event["id"])
    missing = public_event(client, "x" * len(event["id"]))
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json["title"] == missing.json["title"]
    assert hidden.json["detail"].replace(event["id"], "?") == \
        missing.json["detail"].replace("x" * len(event["id"]), "?")


def test_the_edit_token_publishes_an_event_and_the_history_says_so(client: Any) -> None:
    event = evening(client)
    url = f"{EVENTS}/{event['id']}"
    published = publish(client, url, event["tokens"]["edit"], public=True)
    assert published.status_code == 200, published.json
    assert published.json["public"] is True
    read = public_event(client, event["id"])
    assert read.status_code == 200, read.json
    assert read.json["name"] == "Serata del giovedì"
    assert [r["entrant"] for r in read.json["standings"]["rows"]] == SIX[:3]
    history = client.get(f"{url}/history", headers=auth(event["tokens"]["edit"])).json
    assert [a["action"] for a in history["actions"]][-1] == "publish"


def test_unpublishing_takes_the_results_down_at_once(client: Any) -> None:
    event = evening(client)
    url = f"{EVENTS}/{event['id']}"
    publish(client, url, event["tokens"]["edit"], public=True)
    assert public_event(client, event["id"]).status_code == 200
    assert client.get(f"/results/events/{event['id']}").status_code == 200
    taken = publish(client, url, event["tokens"]["edit"], public=False)
    assert taken.status_code == 200 and taken.json["public"] is False
    assert public_event(client, event["id"]).status_code == 404
    assert client.get(f"/results/events/{event['id']}").status_code == 404
    history = client.get(f"{url}/history", headers=auth(event["tokens"]["edit"])).json
    assert [a["action"] for a in history["actions"]][-2:] == ["publish", "unpublish"]


def test_publishing_with_the_read_token_is_forbidden_and_changes_nothing(client: Any) -> None:
    event = evening(client)
    refused = publish(client, f"{EVENTS}/{event['id']}", event["tokens"]["read"], public=True)
    assert_problem(refused, 403)
    assert public_event(client, event["id"]).status_code == 404


def test_publishing_names_a_public_that_is_not_a_boolean(client: Any) -> None:
    event = evening(client)
    refused = publish(client, f"{EVENTS}/{event['id']}", event["tokens"]["edit"],
                      public="yes")
    assert_problem(refused, 422)
    assert "public" in str(refused.json)
    assert public_event(client, event["id"]).status_code == 404


def test_a_club_is_published_by_its_edit_token_not_its_read_token(client: Any) -> None:
    club = found_club(client)
    url = f"{CLUBS}/{club['id']}"
    assert client.get(f"{API}/public/clubs/{club['id']}").status_code == 404
    assert_problem(publish(client, url, club["tokens"]["read"], public=True), 403)
    assert client.get(f"{API}/public/clubs/{club['id']}").status_code == 404
    done = publish(client, url, club["tokens"]["edit"], public=True)
    assert done.status_code == 200 and done.json["public"] is True
    read = client.get(f"{API}/public/clubs/{club['id']}")
    assert read.status_code == 200 and read.json["name"] == club["name"]
    history = client.get(f"{url}/history", headers=auth(club["tokens"]["edit"])).json
    assert history["actions"][-1]["action"] == "publish"
    publish(client, url, club["tokens"]["edit"], public=False)
    assert client.get(f"{API}/public/clubs/{club['id']}").status_code == 404


# -- what is shown --------------------------------------------------------------------------


def test_a_published_event_shows_its_rounds_tables_and_totals_without_tokens(
        client: Any) -> None:
    event = evening(client)
    publish(client, f"{EVENTS}/{event['id']}", event["tokens"]["edit"], public=True)
    table = client.post(f"{EVENTS}/{event['id']}/rounds", json={},
                        headers=auth(event["tokens"]["edit"])).json["tables"][0]
    play(client, {"id": table["game"], "tokens": table["tokens"]}, 1)
    read = public_event(client, event["id"])
    assert read.status_code == 200
    [played] = read.json["rounds"]
    [shown] = played["tables"]
    assert sorted(shown["entrants"]) == sorted(SIX[:3])
    assert [c["total"] for c in shown["columns"]]
    text = read.get_data(as_text=True)
    for secret in (event["tokens"]["edit"], event["tokens"]["read"], table["tokens"]["edit"],
                   table["tokens"]["read"], table["game"]):
        assert secret not in text
    assert "seed" not in read.json


def test_a_public_read_is_cached_by_its_tag(client: Any) -> None:
    event = evening(client)
    publish(client, f"{EVENTS}/{event['id']}", event["tokens"]["edit"], public=True)
    for url in (f"{API}/public/events/{event['id']}", f"/results/events/{event['id']}"):
        first = client.get(url)
        assert first.headers["Cache-Control"].startswith("public, max-age=")
        again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304
        assert again.headers["Cache-Control"] == first.headers["Cache-Control"]


def test_a_public_tag_moves_when_a_hand_is_recorded(client: Any) -> None:
    event = evening(client)
    publish(client, f"{EVENTS}/{event['id']}", event["tokens"]["edit"], public=True)
    table = client.post(f"{EVENTS}/{event['id']}/rounds", json={},
                        headers=auth(event["tokens"]["edit"])).json["tables"][0]
    before = public_event(client, event["id"]).headers["ETag"]
    play(client, {"id": table["game"], "tokens": table["tokens"]}, 1)
    after = public_event(client, event["id"], **{"If-None-Match": before})
    assert after.status_code == 200 and after.headers["ETag"] != before


# -- privacy --------------------------------------------------------------------------------


def _club_evening(client: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, str]]:
    club = found_club(client)
    game = started(client, club, SIX[:3])
    members = dict(zip(SIX[:3], game["club"]["members"], strict=True))
    event = club_event(client, club, [{"name": {"member": members[n]}} for n in SIX[:3]]).json
    publish(client, f"{EVENTS}/{event['id']}", event["tokens"]["edit"], public=True)
    return club, event, members


@pytest.mark.parametrize(("lang", "label"), [("en", "Player 1"), ("it", "Giocatore 1"),
                                             ("fr", "Joueur 1")])
def test_privacy_a_forgotten_member_is_player_n_in_the_readers_language(
        client: Any, lang: str, label: str) -> None:
    club, event, members = _club_evening(client)
    forgot = client.post(f"{CLUBS}/{club['id']}/members/{members['Anna Rossi']}/forget",
                         headers=auth(club["tokens"]["edit"]))
    assert forgot.status_code == 200, forgot.json
    read = client.get(f"{API}/public/events/{event['id']}?lang={lang}")
    names = [r["entrant"] for r in read.json["standings"]["rows"]]
    assert label in names and "Anna Rossi" not in read.get_data(as_text=True)
    page = client.get(f"/results/events/{event['id']}", headers={"Accept-Language": lang})
    assert label in page.get_data(as_text=True)


def test_privacy_a_member_left_out_of_public_pages_is_named_by_initials(client: Any) -> None:
    club, event, members = _club_evening(client)
    before = public_event(client, event["id"])
    left = client.patch(f"{CLUBS}/{club['id']}/members/{members['Anna Rossi']}",
                        json={"public": False}, headers=auth(club["tokens"]["edit"]))
    assert left.status_code == 200 and left.json["public"] is False
    after = public_event(client, event["id"], **{"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200
    names = [r["entrant"] for r in after.json["standings"]["rows"]]
    assert "AR" in names and "Anna Rossi" not in after.get_data(as_text=True)
    assert "Anna Rossi" not in client.get(f"/results/events/{event['id']}").get_data(
        as_text=True)
    # the club's own (tokened) answers still name her
    own = client.get(f"{EVENTS}/{event['id']}", headers=auth(event["tokens"]["read"]))
    assert "Anna Rossi" in own.get_data(as_text=True)


def test_privacy_a_member_s_public_flag_is_set_by_the_club_s_edit_token_only(
        client: Any) -> None:
    club, _event, members = _club_evening(client)
    url = f"{CLUBS}/{club['id']}/members/{members['Bruno']}"
    assert_problem(client.patch(url, json={"public": False},
                                headers=auth(club["tokens"]["read"])), 403)
    bad = client.patch(url, json={"public": "no"}, headers=auth(club["tokens"]["edit"]))
    assert_problem(bad, 422)
    assert "public" in str(bad.json)


def test_privacy_a_club_s_page_names_members_as_its_events_do(client: Any) -> None:
    club, _event, members = _club_evening(client)
    game = started(client, club, [{"member": members[n]} for n in SIX[:3]])
    play(client, game, 3)
    season = open_season(client, club).json
    client.patch(f"{CLUBS}/{club['id']}/members/{members['Anna Rossi']}",
                 json={"public": False}, headers=auth(club["tokens"]["edit"]))
    publish(client, f"{CLUBS}/{club['id']}", club["tokens"]["edit"], public=True,
            public_ratings=True)
    read = client.get(f"{API}/public/clubs/{club['id']}")
    assert read.status_code == 200, read.json
    [shown] = read.json["seasons"]
    assert shown["id"] == season["id"]
    assert "AR" in [r["member"] for r in shown["rows"]]
    assert "AR" in [r["member"] for r in read.json["ratings"][0]["ratings"]]
    assert "Anna Rossi" not in read.get_data(as_text=True)
    assert [e["name"] for e in read.json["events"]] == ["Giovedì"]


def test_a_club_shows_its_ratings_only_when_it_publishes_them(client: Any) -> None:
    club = found_club(client)
    game = started(client, club, SIX[:3])
    play(client, game, 3)
    publish(client, f"{CLUBS}/{club['id']}", club["tokens"]["edit"], public=True)
    assert "ratings" not in client.get(f"{API}/public/clubs/{club['id']}").json
    publish(client, f"{CLUBS}/{club['id']}", club["tokens"]["edit"], public_ratings=True)
    assert client.get(f"{API}/public/clubs/{club['id']}").json["ratings"]


def test_a_club_lists_only_its_published_events(client: Any) -> None:
    club, event, _members = _club_evening(client)
    other = club_event(client, club, [{"name": n} for n in ("Gino", "Ilaria", "Luca")],
                       name="Venerdì").json
    publish(client, f"{CLUBS}/{club['id']}", club["tokens"]["edit"], public=True)
    listed = client.get(f"{API}/public/clubs/{club['id']}").json["events"]
    assert [e["id"] for e in listed] == [event["id"]]
    assert other["id"] not in client.get(f"/results/clubs/{club['id']}").get_data(as_text=True)


def _board_record(variant: str, seed: int, board: int, play: int = 0) -> dict[str, Any]:
    """A legal record of the board as dealt (``play``: which of its random plays)."""
    found = find_variant(variant)
    dealt = deal_board(found, seed, board)
    record: dict[str, Any] = play_out(found, dealt.hands, dealt.extra, dealt.dealer,
                                      random.Random(f"{variant}:{board}:{play}"))[0]
    return record


def test_privacy_nothing_of_a_board_not_yet_complete_is_public(client: Any) -> None:
    """Table 1 plays boards 1, 2, 3; table 2 plays 2, 3, 1. Table 1's first hand (board 1)
    changes nothing public; once both tables have played board 2 its traveller appears."""
    body = {"name": "Duplicato", "variant": "gatti-3", "format": "individual",
            "deals": "duplicate", "seed": 2026, "rounds": 1,
            "entrants": [{"name": n} for n in SIX]}
    event = client.post(EVENTS, json=body).json
    publish(client, f"{EVENTS}/{event['id']}", event["tokens"]["edit"], public=True)
    tables = client.post(f"{EVENTS}/{event['id']}/rounds", json={},
                         headers=auth(event["tokens"]["edit"])).json["tables"]
    assert [t["boards"] for t in tables] == [[1, 2, 3], [2, 3, 1]]

    def record(table: dict[str, Any], board: int) -> None:
        done = client.post(f"{API}/games/{table['game']}/hands",
                           json=_board_record("gatti-3", 2026, board),
                           headers=auth(table["tokens"]["edit"]))
        assert done.status_code == 201, done.json

    before = public_event(client, event["id"]).json
    page_before = client.get(f"/results/events/{event['id']}").get_data(as_text=True)
    record(tables[0], 1)
    assert public_event(client, event["id"]).json == before
    assert client.get(f"/results/events/{event['id']}").get_data(as_text=True) == page_before
    assert before["boards"] == []
    record(tables[1], 2)
    record(tables[0], 2)
    shown = public_event(client, event["id"]).json
    assert [b["board"] for b in shown["boards"]] == [2]
    assert "seed" not in shown


# -- the page -------------------------------------------------------------------------------


def test_the_page_has_its_title_description_share_link_qr_and_language(client: Any) -> None:
    from html.parser import HTMLParser

    event = evening(client)
    publish(client, f"{EVENTS}/{event['id']}", event["tokens"]["edit"], public=True)
    page = client.get(f"/results/events/{event['id']}?lang=it")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)

    class Found(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.tags: list[tuple[str, dict[str, str | None]]] = []
            self.title = ""
            self._in_title = False

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.tags.append((tag, dict(attrs)))
            self._in_title = tag == "title"

        def handle_data(self, data: str) -> None:
            if self._in_title:
                self.title += data

        def handle_endtag(self, tag: str) -> None:
            self._in_title = False

    found = Found()
    found.feed(html)
    attrs = {tag: a for tag, a in found.tags}
    assert attrs["html"]["lang"] == "it"
    assert found.title.startswith("Serata del giovedì")
    metas = {a.get("name"): a.get("content") for tag, a in found.tags if tag == "meta"}
    assert "Serata del giovedì" in (metas["description"] or "")
    assert metas["viewport"] and metas["robots"] == "index, follow"
    link = f"http://localhost/results/events/{event['id']}"
    assert any(tag == "a" and a.get("href") == link for tag, a in found.tags)
    assert "<svg" in html and "Codice QR" in html
    # One script, the page's own: it follows the page's stream (the page is whole without it).
    scripts = [a for tag, a in found.tags if tag == "script"]
    assert len(scripts) == 1 and scripts[0]["type"] == "module"
    assert (scripts[0]["src"] or "").startswith("/app/resultslive.js?v=")
    assert client.get(scripts[0]["src"]).status_code == 200
    assert any(tag == "caption" for tag, _ in found.tags)
    assert "script-src 'self';" in page.headers["Content-Security-Policy"]


def test_the_page_loads_nothing_before_it_shows(client: Any) -> None:
    """What would hold a phone's first paint back: a style sheet, a script or a font to
    fetch; the page's style is inline and its QR code inline SVG, and its one script is a
    module (run once the page has shown) after everything it shows."""
    event = evening(client)
    publish(client, f"{EVENTS}/{event['id']}", event["tokens"]["edit"], public=True)
    html = client.get(f"/results/events/{event['id']}").get_data(as_text=True)
    assert "<style>" in html
    assert 'rel="stylesheet"' not in html and "@import" not in html and "@font-face" not in html
    assert html.count("<script") == 1 and html.count(" src=") == 1
    assert '<script type="module" src="/app/resultslive.js?v=' in html
    assert html.index("<script") > html.index("</footer>")


def test_the_page_s_policy_lets_a_crawler_s_tool_read_robots_txt_from_it(client: Any) -> None:
    """Lighthouse, for one, reads ``/robots.txt`` from within the page: a policy without
    ``connect-src`` refuses it (and so the page's SEO audit); the page's own script reads its
    stream with it, and no other script may run."""
    event = evening(client)
    publish(client, f"{EVENTS}/{event['id']}", event["tokens"]["edit"], public=True)
    policy = client.get(f"/results/events/{event['id']}").headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["connect-src"] == "'self'"
    assert directives["default-src"] == "'none'" and directives["script-src"] == "'self'"


def test_the_page_after_a_hand_shows_the_round_that_changed_and_keeps_the_others(
        client: Any) -> None:
    event = evening(client)
    url = f"{EVENTS}/{event['id']}"
    edit = auth(event["tokens"]["edit"])
    publish(client, url, event["tokens"]["edit"], public=True)
    first = client.post(f"{url}/rounds", json={}, headers=edit).json["tables"][0]
    play(client, {"id": first["game"], "tokens": first["tokens"]}, 1)
    client.post(f"{url}/rounds/1/close", headers=edit)
    second = client.post(f"{url}/rounds", json={}, headers=edit).json["tables"][0]
    before = client.get(f"/results/events/{event['id']}").get_data(as_text=True)
    play(client, {"id": second["game"], "tokens": second["tokens"]}, 1)
    after = client.get(f"/results/events/{event['id']}").get_data(as_text=True)
    round_2 = public_event(client, event["id"]).json["rounds"][1]["tables"][0]
    shown = after.split('id="round-2"')[1].split('id="round-1"')[0]  # the newest first
    assert round_2["columns"] and f">{round_2['columns'][0]['total']}<" in shown
    assert shown != before.split('id="round-2"')[1].split('id="round-1"')[0]
    assert after.split('id="round-1"')[1] == before.split('id="round-1"')[1]


def test_the_page_says_numbers_as_its_language_writes_them(client: Any) -> None:
    body = {"name": "Torneo", "variant": "gatti-3", "format": "individual", "rounds": 1,
            "entrants": [{"name": n} for n in SIX], "deals": "duplicate", "seed": 2026}
    event = client.post(EVENTS, json=body).json
    publish(client, f"{EVENTS}/{event['id']}", event["tokens"]["edit"], public=True)
    tables = client.post(f"{EVENTS}/{event['id']}/rounds", json={},
                         headers=auth(event["tokens"]["edit"])).json["tables"]
    for k, (table, boards) in enumerate(zip(tables, ([1, 2, 3], [2, 3, 1]), strict=True)):
        for board in boards:
            client.post(f"{API}/games/{table['game']}/hands",
                        json=_board_record("gatti-3", 2026, board, k),
                        headers=auth(table["tokens"]["edit"]))
    rows = public_event(client, event["id"]).json["standings"]["rows"]
    percentage = next(r["percentage"] for r in rows if "." in str(r["percentage"]))
    italian = client.get(f"/results/events/{event['id']}?lang=it").get_data(as_text=True)
    english = client.get(f"/results/events/{event['id']}?lang=en").get_data(as_text=True)
    assert f"{percentage} %" in english
    assert f"{str(percentage).replace('.', ',')} %" in italian


def test_a_process_answers_from_the_state_it_read_within_a_second_but_not_after_publishing(
        app: Any, client: Any) -> None:
    app.config["PUBLIC_FRESH_SECONDS"] = 60
    event = evening(client)
    url = f"{EVENTS}/{event['id']}"
    publish(client, url, event["tokens"]["edit"], public=True)
    table = client.post(f"{url}/rounds", json={},
                        headers=auth(event["tokens"]["edit"])).json["tables"][0]
    before = public_event(client, event["id"]).headers["ETag"]
    play(client, {"id": table["game"], "tokens": table["tokens"]}, 1)
    assert public_event(client, event["id"]).headers["ETag"] == before  # kept: no query
    publish(client, url, event["tokens"]["edit"], public=False)
    assert public_event(client, event["id"]).status_code == 404  # at once


def test_the_club_page_shows_its_seasons_and_its_published_ratings_in_french(
        client: Any) -> None:
    club = found_club(client)
    play(client, started(client, club, SIX[:3]), 3)
    open_season(client, club)
    publish(client, f"{CLUBS}/{club['id']}", club["tokens"]["edit"], public=True)
    page = client.get(f"/results/clubs/{club['id']}", headers={"Accept-Language": "fr"})
    assert page.status_code == 200 and page.headers["Content-Language"] == "fr"
    html = page.get_data(as_text=True)
    assert '<html lang="fr">' in html and "Autunno : classement" in html
    assert "Classement de force" not in html
    publish(client, f"{CLUBS}/{club['id']}", club["tokens"]["edit"], public_ratings=True)
    html = client.get(f"/results/clubs/{club['id']}?lang=fr").get_data(as_text=True)
    assert "Classement de force : Gatti" in html
