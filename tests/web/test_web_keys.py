"""Nothing a phone keeps is lost by a tap: "×" beside a game, an event or a club on the home
screen asks first and says what is lost (as secretary or organiser: the link or the key card
alone bring it back); a hand saved with no network of a game forgotten meanwhile still reaches
the service. The key card printed from the club's page (a PDF, its link as text) brings the
club back as its secretary on a new browser; the edit link is shown again as a QR code behind
a warning."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from page_driver import Table, call
from playwright.sync_api import expect
from pypdf import PdfReader
from waiting import wait_until

THREE = ["Anna", "Bruno", "Carla"]


def _home(page: Any) -> None:
    """The home screen, reached inside the page (no load: it works with no network)."""
    page.evaluate("location.hash = '#/'")
    page.wait_for_selector("#new-game")


def _printed_link(page: Any, kind: str) -> str:
    """The key card printed from the page (the PDF it saves), and the edit link on it."""
    with page.expect_download() as download:
        page.click("#keycard-pdf")
    text = PdfReader(io.BytesIO(Path(download.value.path()).read_bytes())).pages[0].extract_text()
    # The link is set on one line, or the address and its token on two.
    lines = [line.strip() for line in text.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("http"))
    link = lines[start] + (lines[start + 1] if lines[start + 1].startswith("?") else "")
    assert re.fullmatch(rf"http://[^\s]+/#/{kind}/[a-z0-9]+\?token=[A-Za-z0-9_-]+", link), text
    return link


def test_forgetting_a_game_asks_first_and_its_waiting_hand_still_reaches_the_service(
        phones: Any) -> None:
    phone = phones()
    page = phone.page
    table = Table(page, phone.base)
    game = table.open_game("gatti-3", THREE)
    page.wait_for_selector("#new-hand")

    phone.context.set_offline(True)
    try:
        table.new_hand()
        table.points(0, 30)
        page.keyboard.type("28")
        table.save()
        expect(page.locator("#outbox")).to_contain_text("One hand waiting to be sent")
        _home(page)
        games = page.locator("#game-list .game-item")
        expect(games).to_have_count(1)
        games.locator(".forget").click()
        card = page.locator(".forget-card")
        expect(card).to_contain_text("no longer open this game as its scorekeeper")
        expect(card).to_contain_text("One hand saved with no network is still waiting")
        page.click("#home-forget-cancel")  # nothing forgotten
        expect(page.locator("#game-list .game-link")).to_have_count(1)
        games.locator(".forget").click()
        page.click("#home-forget-yes")
        expect(page.locator("#game-list")).to_have_count(0)
        # The game's card is gone; its waiting hand is still shown, with its game.
        expect(page.locator("#orphans")).to_contain_text(
            "Anna, Bruno, Carla: one hand waiting to be sent")
    finally:
        phone.context.set_offline(False)
    # Back online: the waiting hand is sent all the same, and no longer shown.
    expect(page.locator("#orphans")).to_have_count(0)
    token = game["tokens"]["edit"]
    assert wait_until(lambda: call(phone.base, "GET", f"/games/{game['id']}", token)
                      ["hands_played"] == 1, timeout=20)
    hand = call(phone.base, "GET", f"/games/{game['id']}", token)["hands"][0]
    assert [p["points"] for p in hand["record"]["piles"]] == [30, 28]
    phone.problems.clear()  # the browser logs each request refused while offline


def test_the_key_card_brings_the_club_back_as_its_secretary_on_a_new_browser(
        phones: Any) -> None:
    secretary = phones()
    page = secretary.page
    page.goto(secretary.base + "/")
    page.click("#new-club")
    page.fill("#club-name", "Circolo del Giovedì")
    page.click("#create-club")
    expect(page.locator("h1")).to_have_text("Circolo del Giovedì")
    # Just made: the key card is offered first, until it is printed.
    card = page.locator("#key-card")
    expect(card).to_have_class(re.compile(r"\bwarn\b"))
    expect(card).to_contain_text("only this phone holds the secretary's link")
    link = _printed_link(page, "clubs")
    expect(card).not_to_have_class(re.compile(r"\bwarn\b"))

    # The edit link shown again: behind a tap and a warning, as a QR code and as text.
    expect(page.locator("#edit-link")).to_have_count(0)
    page.click("#edit-link-show")
    expect(page.locator(".edit-link-warning")).to_contain_text("can change the club")
    expect(page.locator("#edit-link")).to_have_count(0)
    page.click("#edit-link-yes")
    expect(card.locator(".qr-box svg")).to_be_visible()
    expect(page.locator("#edit-link")).to_have_value(link)

    # Forgotten on this phone, after the question that says what is lost.
    _home(page)
    page.locator("#club-list .forget").click()
    expect(page.locator(".forget-card")).to_contain_text(
        "no longer open Circolo del Giovedì as its secretary; without the link or the key "
        "card you cannot get it back")
    page.click("#home-forget-yes")
    expect(page.locator("#club-list")).to_have_count(0)

    # A new phone opens the card's link: the club is back, as its secretary.
    other = phones()
    other.page.goto(link)
    expect(other.page.locator("h1")).to_have_text("Circolo del Giovedì")
    expect(other.page.locator("#add-member")).to_be_visible()
    expect(other.page.locator("#key-card")).to_be_visible()


def test_forgetting_an_event_asks_first_and_its_key_card_opens_it_elsewhere(
        phones: Any) -> None:
    organiser = phones()
    page = organiser.page
    event = call(organiser.base, "POST", "/events", body={
        "name": "Torneo di Natale", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": n} for n in THREE]})
    page.goto(event["links"]["edit"])
    expect(page.locator("h1")).to_have_text("Torneo di Natale")
    link = _printed_link(page, "events")
    assert link.split("?token=")[1] == event["tokens"]["edit"]
    page.click("#edit-link-show")
    expect(page.locator(".edit-link-warning")).to_contain_text("can change the event")
    page.click("#edit-link-yes")
    expect(page.locator("#key-card .qr-box svg")).to_be_visible()

    _home(page)
    page.locator("#event-list .forget").click()
    expect(page.locator(".forget-card")).to_contain_text(
        "no longer open Torneo di Natale as its organiser")
    page.click("#home-forget-cancel")
    expect(page.locator("#event-list .game-link")).to_have_count(1)
    page.locator("#event-list .forget").click()
    page.click("#home-forget-yes")
    expect(page.locator("#event-list")).to_have_count(0)

    other = phones()
    other.page.goto(link)
    expect(other.page.locator("h1")).to_have_text("Torneo di Natale")
    expect(other.page.locator("#key-card")).to_be_visible()
