"""The round's clock on the phones, at 360 px: the organiser's screen, the wall board and a
table's sheet count the time left down, then say "last hand" once it is up; the organiser's
standings show the prize list, provisional while the round is played. The browsers' clocks
are the test's (Playwright's clock), moved past the round's end at once: no waiting."""

from __future__ import annotations

import re
from typing import Any

from page_driver import call, new_event_form
from playwright.sync_api import expect
from test_web_accessibility import violations
from test_web_events import TWELVE, evening

LEFT = re.compile(r"^Time left [45]:\d\d$")


def test_the_screens_count_the_round_down_then_say_last_hand(phones: Any) -> None:
    organiser = phones()
    page, base = organiser.page, organiser.base
    event = evening(base, TWELVE[:4], round_minutes=5,
                    prizes=[{"amount": 30}, {"label": "a salame"}])
    table = phones()
    board = phones()
    for phone in (organiser, table, board):
        phone.page.clock.install()
    page.goto(f"{base}/#/events/{event['id']}?token={event['tokens']['edit']}")
    expect(page.locator("#round-clock")).to_have_text(LEFT)
    # Before any hand the four share the first place: the money of the two places they
    # cover, and the salame, shared four ways.
    expect(page.locator("#prizes")).to_contain_text("provisional")
    expect(page.locator("#prizes .prize").first).to_contain_text("€7.50 · a salame")
    assert violations(page) == []
    table.page.goto(event["round"]["tables"][0]["links"]["edit"])
    expect(table.page.locator("#table-clock")).to_have_text(LEFT)
    board.page.goto(f"{base}/#/events/{event['id']}/board?token={event['tokens']['read']}")
    expect(board.page.locator("#board-clock")).to_have_text(LEFT)

    for phone in (organiser, table, board):
        phone.page.clock.fast_forward("05:01")
    expect(page.locator("#round-clock")).to_have_text("Last hand")
    expect(table.page.locator("#table-clock")).to_have_text("Last hand")
    expect(board.page.locator("#board-clock")).to_have_text("Last hand")
    assert violations(table.page) == []


def test_the_clock_speaks_the_pages_language(phones: Any) -> None:
    phone = phones(locale="it-IT")
    event = evening(phone.base, TWELVE[:4], round_minutes=5)
    phone.page.clock.install()
    phone.page.goto(event["round"]["tables"][0]["links"]["edit"])
    expect(phone.page.locator("#table-clock")).to_have_text(re.compile(r"^Tempo rimasto [45]:\d\d$"))
    phone.page.clock.fast_forward("05:01")
    expect(phone.page.locator("#table-clock")).to_have_text("Ultima mano")


def test_the_organiser_sets_the_clock_and_the_prizes_on_the_new_event_form(
        phones: Any) -> None:
    phone = phones()
    page, base = phone.page, phone.base
    new_event_form(page, base, "gatti-4", "Thursday at the club")
    expect(page.locator("#event-autoclose")).to_have_count(0)  # no clock, nothing to close
    page.fill("#event-minutes", "30")
    page.check("#event-autoclose")
    page.fill("#event-prizes", "50\n20,50 a bottle\na salame\n")
    page.fill("#event-roster", "\n".join(TWELVE[:4]))
    page.click("#start-event")
    expect(page.locator("#event-status")).to_have_text("Not started yet")
    event_id = page.evaluate("location.hash").split("/")[2]
    edit = page.evaluate(
        f"JSON.parse(localStorage.getItem('segnapunti.events.v1'))['{event_id}'].tokens.edit")
    made = call(base, "GET", f"/events/{event_id}", edit)
    assert made["round_minutes"] == 30 and made["auto_close"] is True
    assert made["prizes"] == [{"amount": "50.00"}, {"amount": "20.50", "label": "a bottle"},
                              {"label": "a salame"}]
    expect(page.locator("#prizes")).to_contain_text("a salame")


def test_the_organiser_gives_a_round_running_late_more_time(phones: Any) -> None:
    phone = phones()
    page, base = phone.page, phone.base
    event = evening(base, TWELVE[:4], round_minutes=5)
    page.goto(f"{base}/#/events/{event['id']}?token={event['tokens']['edit']}")
    expect(page.locator("#round-clock")).to_have_text(LEFT)
    page.fill("#clock-minutes", "300")
    page.click("#clock-set")
    expect(page.locator("#clock-errors")).to_contain_text("240")
    page.fill("#clock-minutes", "30")
    page.click("#clock-set")
    expect(page.locator("#round-clock")).to_have_text(re.compile(r"^Time left (29|30):\d\d$"))
    assert call(base, "GET", f"/events/{event['id']}", event["tokens"]["read"])[
        "round_minutes"] == 30
