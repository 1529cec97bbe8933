"""An evening that runs itself, on the phones (docs/club-guide.md): a club's event with a door,
made with no entrants; its 24 members check in from their phones at the door's link, a tap
on their name and a tap to confirm each, and each phone lands on the entrant's own page; the
organiser only starts the rounds (the tables' hands come in through the API, as the tables'
phones would send them, and each round ends by itself with its last table) and publishes the
results. The organiser's taps for the whole evening and a member's taps at the door are
counted and printed (``-s``); the organiser types nothing."""

from __future__ import annotations

import re
from typing import Any

from page_driver import call, new_event_form, page_module
from playwright.sync_api import expect
from test_web_accessibility import violations

MEMBERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ilaria", "Luca",
           "Marta", "Nino", "Olga", "Paolo", "Rita", "Sara", "Tommaso", "Ugo", "Vera",
           "Walter", "Zoe", "Aldo", "Bice", "Ciro", "Dora"]
#: Every tap and every key the page takes, counted by the page itself.
COUNTING = """
window.__taps = 0; window.__keys = 0;
document.addEventListener("click", (e) => { if (e.isTrusted) window.__taps += 1; }, true);
document.addEventListener("keydown", (e) => { if (e.isTrusted) window.__keys += 1; }, true);
"""


def club_with_members(base: str, names: list[str]) -> dict[str, Any]:
    club: dict[str, Any] = call(base, "POST", "/clubs", body={"name": "Circolo del Tarocco"})
    club["members"] = {name: call(base, "POST", f"/clubs/{club['id']}/members",
                                  club["tokens"]["edit"], {"name": name})["id"]
                       for name in names}
    return club


def door_event(base: str, club: dict[str, Any], **more: Any) -> dict[str, Any]:
    event: dict[str, Any] = call(base, "POST", "/events", body={
        "name": "Giovedì al circolo", "variant": "gatti-4", "format": "individual",
        "rounds": 4, "club": club["id"], "checkin": True, "entrants": [], **more},
        headers={"Club-Authorization": f"Bearer {club['tokens']['edit']}"})
    return event


def play_round(base: str, event: dict[str, Any], number: int) -> None:
    """Every table of round ``number`` plays its four hands (through the API, as each
    table's scorekeeper's phone sends them)."""
    tables = call(base, "GET", f"/events/{event['id']}/rounds/{number}",
                  event["tokens"]["edit"])["tables"]
    for table in tables:
        game, token = table["game"], table["tokens"]["edit"]
        dealer = call(base, "GET", f"/games/{game}", token)["next_dealer"]
        for hand in range(4):
            call(base, "POST", f"/games/{game}/hands", token, {
                "dealer": (dealer + hand) % 4,
                "piles": [{"side": 0, "points": 30 + 2 * hand + table["table"]},
                          {"side": 1, "points": 42 - 2 * hand - table["table"]}]})


def test_an_evening_runs_itself_from_the_door_to_the_published_results(phones: Any) -> None:
    # The players' phones read their page less often than the organiser's screen.
    organiser, member, door = phones(), phones(poll_ms=1500), phones(poll_ms=1500)
    base = organiser.base
    club = club_with_members(base, MEMBERS)
    event = door_event(base, club, round_minutes=30)
    for phone in (organiser, member, door):
        phone.context.add_init_script(COUNTING)
    page = organiser.page
    page.goto(f"{base}/#/events/{event['id']}?token={event['tokens']['edit']}")
    expect(page.locator("#door-card")).to_be_visible()

    # Anna checks in from her own phone, by the poster's QR code: her name, then yes.
    door_link = event["links"]["door"]
    phone = member.page
    phone.goto(door_link)
    phone.click(f"#member-{club['members']['Anna']}")
    phone.click("#door-yes")
    expect(phone.locator("#entrant h1")).to_have_text("Anna")
    expect(phone.locator("#now-title")).to_have_text("Waiting for round 1")
    member_taps = phone.evaluate("window.__taps")
    assert "token" not in phone.url
    # The phone keeps her page: the app opened again goes back to it.
    phone.goto(f"{base}/")
    expect(phone.locator("#entrant h1")).to_have_text("Anna")

    # The 23 others, each from a phone of their own (one phone's storage cleared between).
    for name in MEMBERS[1:]:
        door.page.goto(door_link)
        before = door.page.evaluate("window.__taps")
        door.page.click(f"#member-{club['members'][name]}")
        door.page.click("#door-yes")
        expect(door.page.locator("#entrant h1")).to_have_text(name)
        assert door.page.evaluate("window.__taps") - before <= 3
        door.page.evaluate("localStorage.clear()")
    at_the_door = call(base, "GET", f"/events/{event['id']}/door", event["tokens"]["door"])
    assert at_the_door["members"] == [] and at_the_door["checked_in"] == 24

    # Who has checked in fills the organiser's screen as they come.
    expect(page.locator("#roster summary")).to_have_text("Checked in: 24 players")
    expect(page.locator("#door-checked")).to_have_text("24 players have checked in at the door")
    for number in range(1, 5):
        page.click("#start-round")
        expect(page.locator("#round-title")).to_contain_text(f"Round {number}")
        expect(page.locator(".table-card")).to_have_count(6)
        if number == 2:
            # Anna's phone says where she sits, and opens her table's game as her seat.
            expect(phone.locator("#now-title")).to_have_text(
                re.compile(r"^Round 2 · table [1-6] · seat [1-4]$"))
            expect(phone.locator("#now-with")).to_have_text(re.compile(r"^with \w+, \w+ and \w+$"))
            expect(phone.locator(".open-game")).to_have_attribute(
                "href", re.compile(r"#/games/\w+\?token="))
            expect(phone.locator("#entrant-clock")).to_have_text(re.compile(r"^Time left 2\d:\d\d$"))
        play_round(base, event, number)
        expect(page.locator("#round .round-state")).to_have_text("closed")
    expect(page.locator("#event-status")).to_have_text("Over")
    page.click("#publish-switch")
    expect(page.locator("#public-link")).to_have_attribute(
        "href", re.compile(rf"/results/events/{event['id']}$"))
    assert call(base, "GET", f"/events/{event['id']}", event["tokens"]["edit"])["public"] is True
    expect(phone.locator("#entrant-rounds")).to_have_text("4 rounds played")
    expect(phone.locator("#entrant-place")).to_have_text(re.compile(r"^Place \d+$"))

    organiser_taps = page.evaluate("window.__taps")
    organiser_keys = page.evaluate("window.__keys")
    print(f"\norganiser's taps for the evening: {organiser_taps}, keys typed: {organiser_keys}"
          f"\na member's taps at the door: {member_taps}")
    assert organiser_taps <= 10
    assert organiser_keys == 0
    assert member_taps <= 3


def test_the_door_refuses_a_second_check_in_in_the_readers_words_and_the_organiser_fixes_the_roster(
        phones: Any) -> None:
    organiser, player = phones("it-IT"), phones("it-IT")
    page, base = organiser.page, organiser.base
    # Made on the form: a door, a bye for each round missed, and nobody on the roster yet.
    new_event_form(page, base, "gatti-4", "Venerdì")
    page.click("#event-checkin")
    page.locator("label:has(#late-bye)").click()
    page.click("#start-event")
    expect(page.locator("#door-card")).to_be_visible()
    event_id = page.evaluate("location.hash").split("/")[2]
    saved = page.evaluate(
        f"JSON.parse(localStorage.getItem('segnapunti.events.v1'))['{event_id}']")
    made = call(base, "GET", f"/events/{event_id}", saved["tokens"]["edit"])
    assert (made["checkin"], made["late_rounds"], made["entrants"]) == (True, "bye", [])
    page.fill("#add-entrant", "Anna")
    page.click("#add-entrant-send")
    expect(page.locator("#roster summary")).to_have_text("Registrati: 1 giocatore")

    # A newcomer types a name once, and lands on their own page.
    phone = player.page
    phone.goto(saved["links"]["door"])
    phone.fill("#door-name", "Bruno")
    phone.click("#door-send")
    expect(phone.locator("#entrant h1")).to_have_text("Bruno")
    expect(phone.locator("#now-title")).to_have_text("In attesa del turno 1")
    # The door again on the same phone: it knows whom it checked in; a name on the roster
    # already is refused, in Italian, saying what to do.
    phone.goto(saved["links"]["door"])
    expect(phone.locator("#door-mine")).to_contain_text("Bruno")
    assert violations(phone) == []
    phone.fill("#door-name", "anna")
    phone.click("#door-send")
    expect(phone.locator("#door-errors")).to_contain_text(
        "La registrazione di anna c'è già: l'organizzatore può mostrarne di nuovo il link.")
    phone.click("#door-to-mine")

    # Bruno withdraws (asked first), then comes back before the first round.
    phone.click("#entrant-withdraw-ask")
    expect(phone.locator("#withdraw-text")).to_contain_text("Ritirarti dalla serata?")
    assert violations(phone) == []
    phone.click("#withdraw-yes")
    expect(phone.locator("#withdrawn-line")).to_have_text("Hai lasciato la serata dal turno 1.")
    expect(page.locator("#entrant-1 .entrant-notes")).to_contain_text("ritiro dal turno 1")
    phone.click("#entrant-return")
    expect(phone.locator("#entrant-withdraw-ask")).to_be_visible()

    # The organiser shows Bruno's link again, and removes a mistaken entrant.
    page.click("#entrant-button-1")
    page.click("#entrant-link-1")
    expect(page.locator("#link-entrant-1")).to_have_value(
        re.compile(rf"/#/events/{event_id}/entrants/1\?token=\w+$"))
    expect(page.locator(".entrant-link svg.qr")).to_have_count(1)
    assert violations(page) == []
    page.click("#entrant-button-0")
    page.click("#entrant-remove-0")
    page.click("#remove-yes")
    expect(page.locator("#roster summary")).to_have_text("Registrati: 1 giocatore")
    expect(page.locator("#entrant-0")).to_have_count(0)


def test_the_organiser_opens_the_door_before_round_1_and_a_pair_checks_in_with_two_names(
        phones: Any) -> None:
    organiser, player = phones(), phones()
    page, base = organiser.page, organiser.base
    event = call(base, "POST", "/events", body={
        "name": "Pairs night", "variant": "tarocchino-bolognese", "format": "pairs",
        "entrants": [{"name": "Reds", "players": ["Carla", "Dario"]},
                     {"name": "Blues", "players": ["Elena", "Fabio"]}]})
    page.goto(f"{base}/#/events/{event['id']}?token={event['tokens']['edit']}")
    expect(page.locator("#door-card")).to_have_count(0)
    page.click("#checkin-switch")
    expect(page.locator("#door-card")).to_be_visible()
    page.click("#door-link summary")
    door_link = page.input_value("#link-door")
    assert re.search(rf"/#/events/{event['id']}/door\?token=\w+$", door_link)

    phone = player.page
    phone.goto(door_link)
    phone.fill("#door-player-0", "Anna")
    phone.fill("#door-player-1", "Bruno")
    phone.click("#door-send")
    expect(phone.locator("#entrant h1")).to_have_text("Anna & Bruno")
    expect(page.locator("#roster summary")).to_have_text("Checked in: 3 pairs")
    expect(page.locator("#door-checked")).to_have_text("1 pair has checked in at the door")


def test_news_that_comes_while_a_finger_is_down_waits_for_it_to_lift(phones: Any) -> None:
    # The door's tablet reads the door often; Bruno's finger is on his name when the read
    # brings Anna checked in from her own phone, the row above his gone.
    door = phones(poll_ms=300)
    base = door.base
    club = club_with_members(base, MEMBERS[:4])
    event = door_event(base, club)
    page = door.page
    page.goto(event["links"]["door"])
    bruno = page.locator(f"#member-{club['members']['Bruno']}")
    expect(bruno).to_be_visible()
    box = bruno.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    with page.expect_response(lambda r: r.url.endswith("/door") and r.status == 200):
        call(base, "POST", f"/events/{event['id']}/checkins", event["tokens"]["door"],
             {"member": club["members"]["Anna"]})
    page.evaluate("() => new Promise((done) => setTimeout(done, 200))")
    # Nothing moved under the finger: the news waits.
    expect(page.locator("#door-count")).to_have_text("0 players checked in")
    page.mouse.up()
    # The tap was Bruno's, and the news is on the screen with it.
    expect(page.locator("#door-yes")).to_have_text(re.compile("Bruno"))
    expect(page.locator(f"#member-{club['members']['Anna']}")).to_have_count(0)
    expect(page.locator("#door-count")).to_have_text("1 player checked in")


def test_a_read_that_comes_back_after_a_later_one_is_dropped(phones: Any) -> None:
    # Two reads of one resource: the first (a poll still on its way when the screen read
    # afresh) answered last. Its older state is not taken over the newer one.
    phone = phones()
    page = phone.page
    page.goto(f"{phone.base}/")
    taken = page_module(page, "api.js", """async ({ inOrder }) => {
        const reads = inOrder();
        let answerFirst;
        const first = reads(() => new Promise((done) => { answerFirst = done; }));
        const second = await reads(async () => "newer");
        answerFirst("older");
        return [await first, second, await reads(async () => "next")];
    }""")
    assert taken == [None, "newer", "next"]
