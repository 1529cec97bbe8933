"""A club on the phone page (issue 29): the secretary makes the club from the home screen,
builds its roster (a name twice is refused at its field), renames, marks two names as one
person and undoes it, deactivates and forgets; a member's phone, opened from the members'
link, sees the roster and can change nothing."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect


def _add(page: Any, name: str, initials: str = "") -> None:
    page.fill("#member-name", name)
    page.fill("#member-initials", initials)
    page.click("#add-member")


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
    _add(page, "NICOLO")
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
