"""A club on the phone page (issue 29): the secretary makes the club from the home screen,
builds its roster (a name twice is refused at its field), renames, marks two names as one
person and undoes it, deactivates and forgets; a member's phone, opened from the members'
link, sees the roster and can change nothing."""

from __future__ import annotations

import re
from typing import Any

from page_driver import call
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
    """CLUBS.md "The phone page": the secretary opens a season from the club's page; a game
    of the club, finished, shows in the season's standings and the family's ratings."""
    secretary = phones()
    page = secretary.page
    page.goto(secretary.base + "/#/clubs/new")
    page.fill("#club-name", "Circolo")
    page.click("#create-club")
    expect(page.locator("#ratings")).to_contain_text("No finished game")
    club_id = page.evaluate("location.hash").split("/")[2]
    edit = page.evaluate(
        f"JSON.parse(localStorage.getItem('segnapunti.clubs.v1'))['{club_id}'].tokens.edit")

    page.click("#season-new")
    page.fill("#season-name", "Autunno")
    page.fill("#season-from", "2026-01-01")
    page.fill("#season-to", "2099-12-31")
    page.click("#season-save")
    expect(page.locator("#seasons label", has_text="Autunno")).to_be_visible()

    game = call(secretary.base, "POST", "/games", body={
        "variant": "gatti-3", "players": ["Anna", "Bruno", "Carla"], "club": club_id},
        headers={"Club-Authorization": f"Bearer {edit}"})
    token = game["tokens"]["edit"]
    for _ in range(3):
        dealer = call(secretary.base, "GET", f"/games/{game['id']}", token)["next_dealer"]
        call(secretary.base, "POST", f"/games/{game['id']}/hands", token, {
            "dealer": dealer, "piles": [{"side": 0, "points": 40}, {"side": 1, "points": 20}]})

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
    expect(chart.locator("table.visually-hidden tbody tr")).to_have_count(2)
    expect(page.locator("#roster")).to_contain_text("Bruno")  # the game's names joined the roster


def _season_id(base: str, club_id: str, token: str) -> str:
    return str(call(base, "GET", f"/clubs/{club_id}/seasons", token)["seasons"][0]["id"])


def test_a_members_page_shows_their_statistics_and_charts(phones: Any) -> None:
    """CLUBS.md "Pictures" and "Statistics": a member's page, opened from the roster, says
    their figures with what each counts (and that two games are too few to go by), their
    partners and opponents, points per hand month by month as a chart with its figures in
    words, and their rating game by game."""
    secretary = phones()
    page = secretary.page
    page.goto(secretary.base + "/#/clubs/new")
    page.fill("#club-name", "Circolo")
    page.click("#create-club")
    expect(page.locator("#roster")).to_contain_text("No members yet")
    club_id = page.evaluate("location.hash").split("/")[2]
    edit = page.evaluate(
        f"JSON.parse(localStorage.getItem('segnapunti.clubs.v1'))['{club_id}'].tokens.edit")
    for first in (40, 10):
        game = call(secretary.base, "POST", "/games", body={
            "variant": "gatti-3", "players": ["Anna", "Bruno", "Carla"], "club": club_id},
            headers={"Club-Authorization": f"Bearer {edit}"})
        token = game["tokens"]["edit"]
        for _ in range(3):
            dealer = call(secretary.base, "GET", f"/games/{game['id']}", token)["next_dealer"]
            call(secretary.base, "POST", f"/games/{game['id']}/hands", token, {
                "dealer": dealer,
                "piles": [{"side": 0, "points": first}, {"side": 1, "points": 20}]})
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
    # Points per hand by month: the chart's line and, for a screen reader, its table.
    months = stats["families"][0]["months"]["months"]
    chart = page.locator("#member-months")
    expect(chart.locator("polyline")).to_have_attribute(
        "data-values", ",".join(str(m["points_per_hand"]) for m in months))
    expect(chart.locator("table.visually-hidden tbody tr")).to_have_count(len(months))
    expect(chart.locator("svg")).to_have_attribute("aria-hidden", "true")
    # The rating game by game, from the newcomer's 1000.
    expect(page.locator("#member-rating polyline")).to_have_attribute(
        "data-values", re.compile(r"^1000,\d+,\d+$"))
    page.click("#member-back")
    expect(page.locator("#roster")).to_contain_text("Bruno")
