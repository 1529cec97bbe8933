"""One field across many clubs on the phone page (docs/events.md#one-field-across-many-clubs):
the new-event form hosts a field (the organiser is then shown the event's id and the join key,
to copy) or joins one with the host's id and key; a section's organiser and its wall reach the
field's view, where the sections and the field's standings are shown, in English and in
Italian."""

from __future__ import annotations

import json
import re
from typing import Any

from page_driver import call, new_event_form
from playwright.sync_api import expect
from test_web_accessibility import violations

from service.domain import deal_board, find_variant

SEED = 77
GATTI_3 = find_variant("gatti-3")
HOSTS = ["Anna", "Bruno", "Carla"]
GUESTS = ["Dora", "Ezio", "Fede"]


def _record(number: int, winner: int) -> dict[str, Any]:
    """A ``gatti-3`` record of board ``number`` as dealt, the most points to ``winner``
    (0 or 1)."""
    dealt = deal_board(GATTI_3, SEED, number)
    held = [*dealt.hands[dealt.dealer], *dealt.extra]
    discard = [c.code for c in held if c.is_plain and c.rank not in "KQCJ"][:3]
    points = [40, 20, 18] if winner == 0 else [20, 40, 18]
    return {"dealer": dealt.dealer, "discard": discard,
            "piles": [{"side": s, "points": p} for s, p in enumerate(points)]}


def _host(base: str) -> dict[str, Any]:
    made: dict[str, Any] = call(base, "POST", "/events", body={
        "name": "Simultaneo di Bologna", "variant": "gatti-3", "format": "individual",
        "deals": "duplicate", "seed": SEED, "rounds": 1, "field": True,
        "entrants": [{"name": n} for n in HOSTS]})
    return made


def _play_all(base: str, event: dict[str, Any], winner: int) -> None:
    """Round 1 of a one-table event, every board recorded by the table's own token."""
    started = call(base, "POST", f"/events/{event['id']}/rounds", event["tokens"]["edit"], {})
    table = started["tables"][0]
    for number in table["boards"]:
        call(base, "POST", f"/games/{table['game']}/hands", table["tokens"]["edit"],
             _record(number, winner))


def test_an_organiser_hosts_a_field_and_is_shown_its_join_key(phones: Any) -> None:
    phone = phones()
    page, base = phone.page, phone.base
    new_event_form(page, base, "gatti-3", "Simultaneo di Natale")
    expect(page.locator("#field-host")).to_have_count(0)  # free deals: no field
    page.locator("label:has(#deals-duplicate)").click()
    expect(page.locator("#field-none")).to_be_checked()
    page.locator("label:has(#field-host)").click()
    page.fill("#event-roster", "\n".join(HOSTS))
    with page.expect_request(lambda r: r.url.endswith("/api/v1/events")
                             and r.method == "POST") as sent:
        page.click("#start-event")
    assert json.loads(sent.value.post_data)["field"] is True
    expect(page.locator("#field-card")).to_be_visible()
    event_id = page.evaluate("location.hash").split("/")[2]
    key = page.evaluate(
        f"JSON.parse(localStorage.getItem('segnapunti.events.v1'))['{event_id}'].tokens.field")
    assert key
    expect(page.locator("#field-host-id")).to_have_value(event_id)
    expect(page.locator("#field-key")).to_have_value(key)
    expect(page.locator("#copy-field-key")).to_be_visible()
    assert violations(page) == []


def test_a_section_joins_a_field_from_the_form_and_sees_the_field_standings(
        phones: Any) -> None:
    phone = phones()
    page, base = phone.page, phone.base
    host = _host(base)
    new_event_form(page, base, "gatti-3", "Circolo di Modena")
    page.locator("label:has(#deals-duplicate)").click()
    page.locator("label:has(#field-join)").click()
    page.fill("#field-join-id", host["id"])
    page.fill("#field-join-key", "not the key")
    page.fill("#event-roster", "\n".join(GUESTS))
    page.click("#start-event")
    # A wrong key is refused on the key's field, and nothing is made.
    expect(page.locator("[data-field='field.key'] .field-error")).to_contain_text(
        "ask its organiser for the join key")
    page.fill("#field-join-key", host["tokens"]["field"])
    with page.expect_request(lambda r: r.url.endswith("/api/v1/events")
                             and r.method == "POST") as sent:
        page.click("#start-event")
    body = json.loads(sent.value.post_data)
    assert body["field"] == {"join": host["id"], "key": host["tokens"]["field"]}
    assert "boards_per_round" not in body  # the host's
    expect(page.locator("#field-card")).to_be_visible()
    expect(page.locator("#field-key")).to_have_count(0)  # a section hands out no key
    section_id = page.evaluate("location.hash").split("/")[2]
    edit = page.evaluate(
        f"JSON.parse(localStorage.getItem('segnapunti.events.v1'))['{section_id}'].tokens.edit")
    section = call(base, "GET", f"/events/{section_id}", edit)
    assert section["field"] == {"host": host["id"], "hosts": False}

    _play_all(base, host, winner=0)
    _play_all(base, {"id": section_id, "tokens": {"edit": edit}}, winner=1)
    page.click("#to-field")
    expect(page.locator("#field-view h1")).to_have_text("The field")
    expect(page.locator("#field-sections li")).to_have_count(2)
    expect(page.locator(f"#field-sections li[data-event='{host['id']}']")).to_contain_text(
        "Simultaneo di Bologna")
    expect(page.locator("#field-table tbody tr")).to_have_count(6)
    expect(page.locator(f"#field-table tr[data-section='{section_id}']")).to_have_count(3)
    expect(page.locator("#field-table")).to_contain_text("Circolo di Modena")
    expect(page.locator("#field-boards")).to_have_text("Boards counted: 1, 2, 3")
    assert violations(page) == []
    page.click("#field-back")
    expect(page.locator("#field-card")).to_be_visible()


def test_the_wall_of_a_section_opens_the_field_in_italian(phones: Any) -> None:
    phone = phones(locale="it-IT")
    page, base = phone.page, phone.base
    host = _host(base)
    page.goto(f"{base}/#/events/{host['id']}/board?token={host['tokens']['read']}")
    page.click("#board-to-field")
    expect(page.locator("#field-view h1")).to_have_text("Il simultaneo")
    expect(page.locator("#field-standings-title")).to_contain_text("Classifica del simultaneo")
    expect(page.locator("#field-boards")).to_have_text(
        "Nessuna smazzata è ancora stata giocata da tutte le sezioni.")


def test_the_field_standings_move_as_the_last_section_plays_without_a_poll(
        phones: Any) -> None:
    """The field's view holds the field's stream: with its polls ten minutes apart, the
    standings appear when the other club's section plays the boards the host has played."""
    phone = phones(poll_ms=600_000)
    page, base = phone.page, phone.base
    host = _host(base)
    section = call(base, "POST", "/events", body={
        "name": "Circolo di Modena", "variant": "gatti-3", "format": "individual",
        "deals": "duplicate", "rounds": 1, "entrants": [{"name": n} for n in GUESTS],
        "field": {"join": host["id"], "key": host["tokens"]["field"]}})
    # The section seats its round: its table owes the host's boards from now on.
    seated = call(base, "POST", f"/events/{section['id']}/rounds", section["tokens"]["edit"], {})
    table = seated["tables"][0]
    _play_all(base, host, winner=0)
    reads: list[Any] = []
    page.on("request", lambda r: reads.append(r) if re.search(
        r"/api/v1/events/[^/]+/field(\?|$)", r.url) else None)
    with page.expect_response(lambda r: r.url.endswith(f"/events/{host['id']}/field/stream")):
        page.goto(f"{base}/#/events/{host['id']}/board?token={host['tokens']['read']}")
        page.click("#board-to-field")
    expect(page.locator("#field-boards")).to_have_text(
        "No board has been played by every section yet.")
    for number in table["boards"]:
        call(base, "POST", f"/games/{table['game']}/hands", table["tokens"]["edit"],
             _record(number, 1))
    expect(page.locator("#field-boards")).to_have_text("Boards counted: 1, 2, 3", timeout=5000)
    expect(page.locator("#field-table tbody tr")).to_have_count(6)
    # The wall reads the brief rows, the body the field's stream made ahead; told by its
    # stream, it takes the newest made (max-stale) rather than wait for one being made.
    assert reads and all(r.url.endswith("/field?rows=brief") for r in reads)
    assert reads[0].headers.get("cache-control") is None
    assert "max-stale" in [r.headers.get("cache-control") for r in reads[1:]]
