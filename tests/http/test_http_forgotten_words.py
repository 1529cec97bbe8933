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


@pytest.mark.parametrize("lang,word", [("it", "Giocatore"), ("fr", "Joueur")])
def test_a_forgotten_member_is_named_in_the_readers_language_in_the_games_sentences(
        client: Any, lang: str, word: str) -> None:
    """The lines a hand's result says (JSON read with ``Accept-Language``) name the forgotten
    member in the reader's language; the seat's name itself stays the service's."""
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    play(client, game, 1)
    anna = game["club"]["members"][0]
    edit = auth(club["tokens"]["edit"])
    assert client.post(f"{CLUBS}/{club['id']}/members/{anna}/forget", headers=edit).status_code \
        == 200
    body = client.get(f"{GAMES}/{game['id']}", headers={**auth(game["tokens"]["read"]),
                                                        "Accept-Language": lang}).json
    lines = [line["text"] for hand in body["hands"] for side in hand["result"]["sides"]
             for line in side["lines"]]
    forgotten = body["seats"][0]
    assert forgotten.startswith("Player ")
    assert any(line.startswith(f"{word} {forgotten.split()[1]}") for line in lines), lines
    assert not [line for line in lines if "Player" in line]
