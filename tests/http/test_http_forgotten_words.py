"""A forgotten member in the reader's language: the service keeps them as "Player N" (N their
number on the roster), and a printed sheet says "Giocatore N" in Italian and
"Joueur N" in French, as the phone page does."""

from __future__ import annotations

import io
from typing import Any

import pytest
from http_support import auth
from pypdf import PdfReader
from test_http_club_links import GAMES, play, started
from test_http_clubs import CLUBS, found_club


def _text(data: bytes) -> str:
    return " ".join(" ".join((page.extract_text() or "").split())
                    for page in PdfReader(io.BytesIO(data)).pages)


@pytest.mark.parametrize("lang,word", [("it", "Giocatore"), ("fr", "Joueur"), ("en", "Player")])
def test_a_forgotten_member_is_printed_in_the_sheets_language(client: Any, lang: str,
                                                               word: str) -> None:
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    play(client, game, 3)
    anna = game["club"]["members"][0]
    edit = auth(club["tokens"]["edit"])
    assert client.post(f"{CLUBS}/{club['id']}/members/{anna}/forget", headers=edit).status_code \
        == 200
    number = next(m["number"] for m in client.get(f"{CLUBS}/{club['id']}/members",
                                                 headers=edit).json["members"]
                  if m["id"] == anna)
    read = auth(game["tokens"]["read"])
    response = client.get(f"{GAMES}/{game['id']}/sheet.pdf?lang={lang}&detail=1", headers=read)
    assert response.status_code == 200
    text = _text(response.data)
    assert f"{word} {number}" in text
    assert "Anna" not in text
    if lang != "en":
        assert "Player" not in text
