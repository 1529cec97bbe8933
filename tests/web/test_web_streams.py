"""Screens told of each change by their stream (watch.js, stream.js): the wall board shows a
table's new hand with no poll at all (its polls set ten minutes apart), its stream sent with
the token as ``Authorization`` and never in the address; a game's sheet shows a new hand
from the game its stream's event carries, reading nothing; a phone whose stream is refused (a
service or a proxy without streams) polls as before and still sees the hand; a published
results page puts the new standings in place by itself, with no reload."""

from __future__ import annotations

import re
from typing import Any

from page_driver import Table, call, record
from playwright.sync_api import expect
from test_web_events import SIXTEEN, WALL, evening

#: Ten minutes between polls: whatever the screen shows within the test came by its stream.
NO_POLL_MS = 600_000


def test_the_wall_board_shows_a_new_hand_from_its_stream_without_a_poll(phones: Any) -> None:
    wall = phones(viewport=WALL, poll_ms=NO_POLL_MS)
    page, base = wall.page, wall.base
    event = evening(base, SIXTEEN, rounds=3)
    streams: list[Any] = []
    page.on("request", lambda r: streams.append(r) if r.url.endswith("/stream") else None)
    with page.expect_response(lambda r: r.url.endswith(f"/events/{event['id']}/stream")):
        page.goto(event["links"]["read"])
    expect(page.locator(".board-table")).to_have_count(4)
    stream = streams[0]
    assert stream.headers["authorization"] == f"Bearer {event['tokens']['read']}"
    assert "token" not in stream.url and event["tokens"]["read"] not in stream.url

    record(base, event["round"]["tables"][1], 50)
    card = page.locator("#board-table-2")
    expect(card.locator("[data-total='0']")).to_have_text("50", timeout=5000)
    expect(card.locator(".hands-played")).to_have_text("1 hand")
    assert page.evaluate("document.getElementById('event-live').classList.contains('offline')") \
        is False


def test_a_sheet_shows_a_new_hand_from_its_stream_without_reading_the_game(phones: Any) -> None:
    phone = phones(poll_ms=NO_POLL_MS)
    page = phone.page
    reads: list[str] = []
    page.on("request", lambda r: reads.append(r.url) if r.method == "GET" and re.search(
        r"/api/v1/games/[^/]+$", r.url) else None)
    with page.expect_response(lambda r: r.url.endswith("/stream")):
        Table.seated(page, phone.base, "gatti-3", "gatti", ["Anna", "Bruno", "Carla"])
    game_id = page.evaluate("location.hash").split("/")[2]
    token = page.evaluate(
        f"JSON.parse(localStorage.getItem('segnapunti.games.v1'))['{game_id}'].token")
    reads.clear()
    call(phone.base, "POST", f"/games/{game_id}/hands", token, {
        "dealer": 0, "discard": ["2H", "3H", "4S"],
        "piles": [{"side": 0, "tricks": 10, "counting": ["KH", "QH", "T1"]},
                  {"side": 1, "tricks": 8, "counting": ["JD", "CD", "QD", "KD", "T21", "FOOL"]}]})
    expect(page.locator("tfoot td[data-total='2']")).to_contain_text("31", timeout=5000)
    expect(page.locator("#live")).not_to_have_class(re.compile(r"\boffline\b"))
    # The game came in the stream's event: the sheet asked the service for nothing.
    assert reads == []


def test_a_sheet_whose_stream_is_refused_polls_and_still_sees_the_hand(phones: Any) -> None:
    phone = phones(poll_ms=300)
    page = phone.page
    refused: list[str] = []

    def no_streams(route: Any) -> None:
        refused.append(route.request.url)
        route.fulfill(status=404, content_type="application/problem+json",
                      body='{"status": 404, "code": "not_found"}')

    page.route(re.compile(r"/stream$"), no_streams)
    Table.seated(page, phone.base, "gatti-3", "gatti", ["Anna", "Bruno", "Carla"])
    game_id = page.evaluate("location.hash").split("/")[2]
    token = page.evaluate(
        f"JSON.parse(localStorage.getItem('segnapunti.games.v1'))['{game_id}'].token")
    expect(page.locator("#live")).not_to_have_class(re.compile(r"\boffline\b"))
    assert refused, "the sheet asked for its stream"
    call(phone.base, "POST", f"/games/{game_id}/hands", token, {
        "dealer": 0, "discard": ["2H", "3H", "4S"],
        "piles": [{"side": 0, "tricks": 10, "counting": ["KH", "QH", "T1"]},
                  {"side": 1, "tricks": 8, "counting": ["JD", "CD", "QD", "KD", "T21", "FOOL"]}]})
    expect(page.locator("tfoot td[data-total='2']")).to_contain_text("31", timeout=5000)
    assert len(refused) == 1, "a service without streams is not asked again at once"
    phone.problems[:] = [p for p in phone.problems if "404" not in p]


def test_a_published_page_puts_the_new_results_in_place_without_a_reload(phones: Any) -> None:
    reader = phones()
    page, base = reader.page, reader.base
    event = evening(base, SIXTEEN, rounds=3)
    edit = event["tokens"]["edit"]
    call(base, "PATCH", f"/events/{event['id']}", edit, {"public": True})
    with page.expect_response(lambda r: r.url.endswith(f"/results/events/{event['id']}/stream")):
        page.goto(f"{base}/results/events/{event['id']}")
    page.evaluate("window.stillTheSamePage = true")
    before = page.locator("main").inner_text()
    record(base, event["round"]["tables"][0], 50)
    call(base, "POST", f"/events/{event['id']}/rounds/1/close", edit, {})
    expect(page.locator("main")).not_to_have_text(before, timeout=5000)
    expect(page.locator("main")).to_contain_text("50")
    assert page.evaluate("window.stillTheSamePage") is True
