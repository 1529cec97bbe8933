"""A club on the phone page: the secretary makes the club from the home screen,
builds its roster (a name twice is refused at its field), renames, marks two names as one
person and undoes it, deactivates and forgets; a member's phone, opened from the members'
link, sees the roster and can change nothing. A game or an event started from the club seats
its members with a tap each; a season shows its leaders evening by evening and its
printouts; a member's page shows their statistics and charts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from page_driver import Table, call, club_game
from playwright.sync_api import expect


def _add(page: Any, name: str, initials: str = "", *, added: bool = True) -> None:
    page.fill("#member-name", name)
    page.fill("#member-initials", initials)
    page.click("#add-member")
    if added:  # on the roster, and the form drawn again for the next name
        page.locator("#roster .member", has_text=name).wait_for()
        expect(page.locator("#member-name")).to_have_value("")


def test_a_secretary_builds_the_roster_and_a_member_reads_it(phones: Any) -> None:
    secretary = phones()
    page = secretary.page
    page.goto(secretary.base + "/")
    page.click("#new-club")
    page.fill("#club-name", "Circolo del Giovedì")
    page.click("#create-club")
    expect(page.locator("h1")).to_have_text("Circolo del Giovedì")
    expect(page.locator("#roster")).to_contain_text("No members yet")

    _add(page, "Nicolò", "NR")
    expect(page.locator("#roster .member")).to_have_count(1)
    _add(page, "Anna")
    _add(page, "Bruno")
    expect(page.locator(".lead")).to_contain_text("3 members on the roster")
    # The same name however typed is one person: refused at the name, nothing added.
    _add(page, "NICOLO", added=False)
    expect(page.locator(".add-member [data-field='name'] .field-error")).to_be_visible()
    expect(page.locator("#roster .member")).to_have_count(3)

    anna = page.locator("#roster .member", has_text="Anna")
    anna_id = anna.get_attribute("data-member")
    page.click(f"#member-{anna_id}")  # a name tapped: what can be done with it
    page.click(f"#rename-{anna_id}")
    page.fill(f"#rename-input-{anna_id}", "Anna Rossi")
    page.click("#rename-save")
    expect(page.locator("#roster")).to_contain_text("Anna Rossi")

    bruno_id = page.locator("#roster .member", has_text="Bruno").get_attribute("data-member")
    page.click(f"#member-{bruno_id}")
    page.click(f"#merge-{bruno_id}")
    page.select_option(f"#merge-into-{bruno_id}", anna_id)
    page.click("#merge-save")
    expect(page.locator(".lead")).to_contain_text("2 members on the roster")
    others = page.locator("#roster-others")
    expect(others).to_contain_text("same person as Anna Rossi")
    others.locator("summary").click()
    page.click(f"#member-{bruno_id}")
    page.click(f"#unmerge-{bruno_id}")
    expect(page.locator(".lead")).to_contain_text("3 members on the roster")

    nicolo_id = page.locator("#roster .member", has_text="Nicolò").get_attribute("data-member")
    page.click(f"#member-{nicolo_id}")
    page.click(f"#forget-{nicolo_id}")
    page.click("#forget-yes")
    expect(page.locator("#roster-others")).to_contain_text("Player 1")
    expect(page.locator("body")).not_to_contain_text("Nicolò")

    page.click(f"#member-{bruno_id}")
    page.click(f"#active-{bruno_id}")
    expect(page.locator("#roster-others")).to_contain_text("inactive")

    # The members' link, opened on another phone: the roster, and nothing to change.
    link = page.locator("#club-link").input_value()
    member = phones()
    member.page.goto(link)
    expect(member.page.locator("h1")).to_have_text("Circolo del Giovedì")
    expect(member.page.locator(".lead")).to_contain_text("read only")
    expect(member.page.locator("#roster")).to_contain_text("Anna Rossi")
    expect(member.page.locator("#add-member")).to_have_count(0)
    expect(member.page.locator("#roster button")).to_have_count(0)
    member.page.goto(member.base + "/")
    expect(member.page.locator("#club-list")).to_contain_text("member")

    page.goto(secretary.base + "/")
    expect(page.locator("#club-list")).to_contain_text("Circolo del Giovedì")
    expect(page.locator("#club-list")).to_contain_text("secretary")


def test_the_club_page_shows_a_seasons_standings_and_the_ratings(phones: Any) -> None:
    """docs/clubs.md#the-phone-page: the secretary opens a season from the club's page; a game
    of the club, finished, shows in the season's standings and the family's ratings."""
    secretary, page, club_id, edit, _ = _club_with(phones, [])
    expect(page.locator("#ratings")).to_contain_text("No finished game")

    page.click("#season-new")
    page.fill("#season-name", "Autunno")
    page.fill("#season-from", "2026-01-01")
    page.fill("#season-to", "2099-12-31")
    page.click("#season-save")
    expect(page.locator("#seasons label", has_text="Autunno")).to_be_visible()

    club_game(secretary.base, club_id, edit)

    page.reload()
    page.locator("label:has(#season-" + _season_id(secretary.base, club_id, edit) + ")").click()
    standings = page.locator("#season-standings")
    expect(standings.locator("tbody tr")).to_have_count(3)
    expect(standings.locator("tbody tr").first).to_contain_text("Anna")
    ratings = page.locator("#ratings-table tbody tr")
    expect(ratings).to_have_count(3)
    expect(ratings.first).to_contain_text("Anna")
    # A member's rating game by game: a line from the newcomer's 1000, its figures in words.
    ratings.first.locator("button").click()
    chart = page.locator("#rating-chart")
    expect(chart.locator("h3")).to_contain_text("Anna")
    rating = ratings.first.locator("td.num").first.inner_text()
    expect(chart.locator("polyline")).to_have_attribute("data-values", f"1000,{rating}")
    expect(chart.locator(".chart-figures tbody tr")).to_have_count(2)
    expect(page.locator("#roster")).to_contain_text("Bruno")  # the game's names joined the roster


def _season_id(base: str, club_id: str, token: str) -> str:
    return str(call(base, "GET", f"/clubs/{club_id}/seasons", token)["seasons"][0]["id"])


def _club_with(phones: Any, names: list[str]) -> tuple[Any, Any, str, str, dict[str, str]]:
    """The secretary's phone with a new club of these members: the phone, its page, the
    club's id and edit token, and each member's id by name."""
    secretary = phones()
    page = secretary.page
    page.goto(secretary.base + "/#/clubs/new")
    page.fill("#club-name", "Circolo")
    page.click("#create-club")
    expect(page.locator("h1")).to_have_text("Circolo")
    for name in names:
        _add(page, name)
    club_id = page.evaluate("location.hash").split("/")[2]
    edit = page.evaluate(
        f"JSON.parse(localStorage.getItem('segnapunti.clubs.v1'))['{club_id}'].tokens.edit")
    ids = {name: str(page.locator("#roster .member", has_text=name).get_attribute("data-member"))
           for name in names}
    return secretary, page, club_id, edit, ids


def test_a_game_started_from_the_club_seats_its_members_with_a_tap_each(phones: Any) -> None:
    """docs/clubs.md#the-phone-page: starting a game from the club fills the seats from the
    roster with a tap each; the game is the club's, its seats those members."""
    secretary, page, club_id, _edit, ids = _club_with(phones, ["Anna", "Bruno", "Carla", "Dario"])
    page.click("#club-new-game")
    expect(page.locator(".lead")).to_contain_text("Circolo")
    expect(page.locator("#variant-summary")).to_have_attribute("data-variant", "gatti-3")
    # A tap seats a member in the next empty seat; a tap again frees it for the next one.
    for name in ("Carla", "Anna", "Bruno"):
        page.click(f"#seat-member-{ids[name]}")
    expect(page.locator("#player-1")).to_have_value("Anna")
    expect(page.locator(f"#seat-member-{ids['Dario']}")).to_be_disabled()  # every seat taken
    page.click(f"#seat-member-{ids['Anna']}")
    expect(page.locator("#player-1")).to_have_value("")
    expect(page.locator(f"#seat-member-{ids['Anna']}")).to_have_attribute("aria-pressed", "false")
    page.click(f"#seat-member-{ids['Dario']}")
    assert [page.input_value(f"#player-{i}") for i in range(3)] == ["Carla", "Dario", "Bruno"]
    expect(page.locator(f"#seat-member-{ids['Dario']}")).to_have_attribute("aria-pressed", "true")
    page.click("#start")
    page.wait_for_selector("#to-sheet")
    game = Table(page, secretary.base).stored_game()
    assert game["club"] == {"id": club_id,
                            "members": [ids["Carla"], ids["Dario"], ids["Bruno"]]}
    assert game["players"] == ["Carla", "Dario", "Bruno"]


def test_an_event_started_from_the_club_takes_its_members_and_new_names(phones: Any) -> None:
    """An event likewise: each tap adds a member to the roster's lines, a tap again takes
    them off, and a name typed that the club does not have becomes a new member."""
    secretary, page, club_id, edit, ids = _club_with(phones, ["Anna", "Bruno", "Carla", "Dario"])
    page.click("#club-new-event")
    expect(page.locator(".lead")).to_contain_text("Circolo")
    page.fill("#event-name", "Giovedì")
    for name in ("Dario", "Anna", "Bruno", "Carla"):
        page.click(f"#seat-member-{ids[name]}")
    page.click(f"#seat-member-{ids['Anna']}")  # off again
    expect(page.locator("#event-roster")).to_have_value("Dario\nBruno\nCarla")
    page.fill("#event-roster", "Dario\nBruno\nCarla\nElena")
    page.click(f"#seat-member-{ids['Anna']}")
    expect(page.locator("#event-roster")).to_have_value("Dario\nBruno\nCarla\nElena\nAnna")
    expect(page.locator("#roster-count")).to_contain_text("5")
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/api/v1/events")
                             ) as sent:
        page.click("#start-event")
    body = sent.value.post_data_json
    assert body["club"] == club_id
    assert sent.value.headers["club-authorization"] == f"Bearer {edit}"
    assert body["entrants"] == [{"name": {"member": ids["Dario"]}}, {"name": {"member": ids["Bruno"]}},
                                {"name": {"member": ids["Carla"]}}, {"name": "Elena"},
                                {"name": {"member": ids["Anna"]}}]
    page.wait_for_url("**/#/events/*")
    event_id = page.evaluate("location.hash").split("/")[2]
    token = page.evaluate(
        f"JSON.parse(localStorage.getItem('segnapunti.events.v1'))['{event_id}'].tokens.edit")
    members = {m["name"]: m["id"] for m in call(
        secretary.base, "GET", f"/clubs/{club_id}/members", edit)["members"]}
    assert set(members) == {"Anna", "Bruno", "Carla", "Dario", "Elena"}  # Elena: a new member
    # Its tables are the club's games, each seat the member of that name.
    table = call(secretary.base, "POST", f"/events/{event_id}/rounds", token, {})["tables"][0]
    game = call(secretary.base, "GET", f"/games/{table['game']}", table["tokens"]["read"])
    assert game["club"]["id"] == club_id
    assert game["club"]["members"] == [members[name] for name in game["players"]]


def test_a_seasons_leaders_evening_by_evening_and_its_printouts(phones: Any) -> None:
    """docs/clubs.md#pictures: the season's standings have a chart of the top places evening by
    evening, its figures in a table for screen readers; the printouts are a tap away, the
    PDF in the page's language."""
    secretary, page, club_id, edit, _ids = _club_with(phones, [])
    call(secretary.base, "POST", f"/clubs/{club_id}/seasons", edit,
         {"name": "Autunno", "from": "2026-01-01", "to": "2099-12-31"})
    for winner in (40, 10):
        club_game(secretary.base, club_id, edit, winner, 60 - winner)
    season = _season_id(secretary.base, club_id, edit)
    standings = call(secretary.base, "GET", f"/clubs/{club_id}/seasons/{season}/standings", edit)
    page.reload()
    page.locator(f"label:has(#season-{season})").click()
    chart = page.locator("#season-chart")
    expect(chart.locator("h3")).to_have_text("The top 3, evening by evening")
    lines = chart.locator("polyline")
    expect(lines).to_have_count(3)
    # Both games were played today: one evening, the start and after it.
    for k, leader in enumerate(standings["leaders"]):
        expect(lines.nth(k)).to_have_attribute(
            "data-values", ",".join(str(v) for v in (leader["running"][0], leader["running"][2])))
    # In words: a row for the start and for each evening, a column a leader.
    figures = chart.locator(".chart-figures tbody tr")
    expect(figures).to_have_count(2)
    first = standings["leaders"][0]
    expect(figures.nth(1)).to_contain_text(str(first["running"][2]))
    expect(figures.nth(1)).to_contain_text("2 games or events")
    expect(chart.locator(".chart-figures thead")).to_contain_text(first["entrant"])
    with page.expect_download() as pdf:
        page.click("#season-pdf")
    assert pdf.value.suggested_filename == "Circolo Autunno.pdf"
    assert Path(pdf.value.path()).read_bytes().startswith(b"%PDF")
    assert page.locator("#season-pdf").get_attribute("href").endswith("standings.pdf?lang=en")
    with page.expect_download() as sheet:
        page.click("#season-csv")
    assert Path(sheet.value.path()).read_text(encoding="utf-8").startswith("place,entrant")


def test_a_pairs_event_from_the_club_pairs_its_members_a_tap_each(phones: Any) -> None:
    """In the pairs format a tap gives the first pair still one player short its second,
    named after both; a tap again takes a player off their pair."""
    _secretary, page, club_id, _edit, ids = _club_with(phones, ["Anna", "Bruno", "Carla", "Dario"])
    page.click("#club-new-event")
    page.fill("#event-name", "Coppie")
    page.locator("label:has(#format-pairs)").click()
    for name in ("Anna", "Bruno", "Carla"):
        page.click(f"#seat-member-{ids[name]}")
    roster = page.locator("#event-roster")
    expect(roster).to_have_value("Anna & Bruno: Anna, Bruno\nCarla: Carla")
    page.click(f"#seat-member-{ids['Bruno']}")
    expect(roster).to_have_value("Anna: Anna\nCarla: Carla")
    page.click(f"#seat-member-{ids['Dario']}")
    page.click(f"#seat-member-{ids['Bruno']}")
    expect(roster).to_have_value("Anna & Dario: Anna, Dario\nCarla & Bruno: Carla, Bruno")
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/api/v1/events")
                             ) as sent:
        page.click("#start-event")
    assert sent.value.post_data_json["club"] == club_id
    assert sent.value.post_data_json["entrants"] == [
        {"name": "Anna & Dario", "players": [{"member": ids["Anna"]}, {"member": ids["Dario"]}]},
        {"name": "Carla & Bruno", "players": [{"member": ids["Carla"]}, {"member": ids["Bruno"]}]}]
    page.wait_for_url("**/#/events/*")


def test_a_members_page_shows_their_statistics_and_charts(phones: Any) -> None:
    """docs/clubs.md#pictures, #statistics: a member's page, opened from the roster, says
    their figures with what each counts (and that two games are too few to go by), their
    partners and opponents, points per hand month by month as a chart with its figures in
    words, and their rating game by game."""
    secretary, page, club_id, edit, _ = _club_with(phones, [])
    expect(page.locator("#roster")).to_contain_text("No members yet")
    for first in (40, 10):
        game = club_game(secretary.base, club_id, edit, first)
    anna = game["club"]["members"][0]
    stats = call(secretary.base, "GET", f"/clubs/{club_id}/members/{anna}/stats", edit)

    page.reload()
    page.click(f"#member-{anna}")
    page.click(f"#stats-{anna}")
    expect(page.locator("h1")).to_have_text("Anna")
    expect(page.locator(".lead")).to_contain_text("2 games counted")
    figures = page.locator("#member-figures")
    expect(figures.locator("tr[data-key='games'] td")).to_have_text("2")
    expect(figures.locator("tr[data-key='games'] th")).to_contain_text("Finished games")
    expect(page.locator("#member-caution")).to_contain_text("From 2 games only")
    expect(page.locator("#member-opponents tbody tr")).to_have_count(2)
    # Points per hand by month: a bar a month and, for a screen reader, its table.
    months = stats["families"][0]["months"]["months"]
    chart = page.locator("#member-months")
    expect(chart.locator("svg")).to_have_attribute(
        "data-values", ",".join(str(m["points_per_hand"]) for m in months))
    expect(chart.locator("rect.chart-bar")).to_have_count(len(months))
    expect(chart.locator(".chart-figures tbody tr")).to_have_count(len(months))
    expect(chart.locator("svg")).to_have_attribute("aria-hidden", "true")
    # The rating game by game, from the newcomer's 1000.
    expect(page.locator("#member-rating polyline")).to_have_attribute(
        "data-values", re.compile(r"^1000,\d+,\d+$"))
    page.click("#member-back")
    expect(page.locator("#roster")).to_contain_text("Bruno")


def test_a_phone_without_the_clubs_link_is_told_to_open_it_from_the_link(phones: Any) -> None:
    """docs/clubs.md#the-phone-page: a club's page and a member's page opened on a phone that
    holds none of the club's tokens say so, with the way home."""
    _secretary, _page, club_id, _edit, ids = _club_with(phones, ["Anna"])
    stranger = phones()
    page = stranger.page
    for path, screen in ((f"/#/clubs/{club_id}", "club"),
                         (f"/#/clubs/{club_id}/members/{ids['Anna']}", "member")):
        page.goto(stranger.base + path)
        section = page.locator(f"section.screen.{screen}")
        expect(section.locator(".card")).to_contain_text("does not have this club's link")
        expect(section.locator("a.button[href='#/']")).to_be_visible()
        expect(page.locator("#roster")).to_have_count(0)
