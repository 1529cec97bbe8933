"""A refusal names the table's players: the service says a game's problems with
its players' names, in the page's language, and the page shows its words as sent, at the
field each is about; the preview (``/score``, sent the game's seats) names them too."""

from __future__ import annotations

from typing import Any

import pytest
from page_driver import king_shown_twice
from playwright.sync_api import expect

#: What the service says of the King of Hearts shown twice, by the page's language.
SHOWN_TWICE = {"en-GB": "KH was already shown by Bruno",
               "it-IT": "Bruno ha già mostrato re di cuori"}


@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_a_refusal_at_a_field_names_the_player(phones: Any, locale: str) -> None:
    """Bruno declares the family of ♥ and Carla four Kings: the King of Hearts is shown by
    two players (R2), and the problem at Carla's declaration names Bruno."""
    phone = phones(locale)
    page = phone.page
    table = king_shown_twice(phone)
    expect(page.locator("#preview .preview-errors")).to_contain_text(SHOWN_TWICE[locale])
    table.save()
    error = page.locator("[data-field='declarations[1]'] .field-error")
    expect(error).to_contain_text(SHOWN_TWICE[locale])
    text = error.inner_text()
    for word in ("seat", "posto", "declarations["):
        assert word not in text, text
