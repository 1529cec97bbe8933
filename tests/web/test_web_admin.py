"""The operator's page (``/admin``) at a phone's width, on a service of its own with an admin
token and ``CREATION=clubs``: the token pasted is kept in the tab's sessionStorage only (never
in the address or localStorage); the lists show what each holds and its last activity; a
deletion asks first, saying what is lost; a revocation shows in the list; and the home page
says who may create instead of offering buttons that would fail."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PHONE, Phone, serving
from playwright.sync_api import expect

ADMIN = "the-operators-admin-token-0123456789"


@pytest.fixture(scope="module")
def admin_server(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    work: Path = tmp_path_factory.mktemp("web-admin")
    with serving(work, RATE_LIMIT_PER_MINUTE="0", AUTH_FAILURES_PER_MINUTE="0",
                 ADMIN_TOKEN=ADMIN, CREATION="clubs") as base:
        yield base


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{base}/api/v1{path}", data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {ADMIN}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        found: dict[str, Any] = json.load(response)
    return found


@pytest.fixture()
def phone(browser: Any, admin_server: str) -> Iterator[Phone]:
    opened = Phone(browser, admin_server, "en-GB", viewport=PHONE)
    yield opened
    problems = opened.problems
    opened.close()
    assert problems == [], f"console errors: {problems}"


def _fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= innerWidth"))


def test_the_operator_lists_deletes_and_revokes_at_a_phone_s_width(phone: Phone) -> None:
    base = phone.base
    club = _post(base, "/clubs", {"name": "Circolo del Giovedì"})
    game = _post(base, "/games", {"variant": "gatti-3", "players": ["Anna", "Bruno", "Carla"]})
    page = phone.page
    page.goto(base + "/admin")
    page.fill("#admin-token", ADMIN)
    page.click("#admin-open")
    rows = page.locator("#admin-list .admin-row")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Anna · Bruno · Carla")
    expect(rows.first).to_contain_text("hands: 0")
    expect(rows.first).to_contain_text("Last active")
    assert ADMIN not in page.url
    assert page.evaluate("sessionStorage.getItem('segnapunti.admin')") == ADMIN
    assert ADMIN not in page.evaluate("JSON.stringify(localStorage)")
    assert _fits(page)

    rows.first.get_by_role("button", name="Delete").click()
    expect(page.locator("#admin-question")).to_contain_text("Its hands and their history go")
    assert _fits(page)
    page.click("#admin-yes")
    expect(page.locator("#admin-said")).to_contain_text("is deleted")
    expect(page.locator("#admin-list")).to_have_count(0)

    page.click("#admin-clubs")
    club_row = page.locator(f"#admin-list .admin-row[data-id='{club['id']}']")
    expect(club_row).to_contain_text("members: 0")
    club_row.get_by_role("button", name="Revoke: edit").click()
    page.click("#admin-yes")
    expect(club_row).to_contain_text("edit token revoked")
    assert _fits(page)
    # The game deleted and the club's edit token revoked are refused.
    for path, token in ((f"/games/{game['id']}", game["tokens"]["edit"]),
                        (f"/clubs/{club['id']}", club["tokens"]["edit"])):
        request = urllib.request.Request(f"{base}/api/v1{path}",
                                         headers={"Authorization": f"Bearer {token}"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 401


def test_the_home_page_says_who_may_create_here(phone: Phone) -> None:
    page = phone.page
    page.goto(phone.base + "/")
    expect(page.locator("#creation-note")).to_contain_text("founded by the administrator")
    expect(page.locator("#new-game")).to_have_count(0)
    expect(page.locator("#new-club")).to_have_count(0)
