"""A club's and an event's key card (``GET …/keycard.pdf``): the edit link printed, as a QR
code and as text, with what it opens and to keep it safe, on one page; only the edit token
prints it (the read token is refused, as for the links shown again), in the language asked
or else the reader's, and no cache keeps it."""

from __future__ import annotations

import io
from typing import Any

import pytest
from http_support import assert_problem, auth
from pypdf import PdfReader

CLUBS = "/api/v1/clubs"
EVENTS = "/api/v1/events"


def _text(response: Any) -> str:
    assert response.status_code == 200, response.data[:300]
    assert response.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(response.data))
    assert len(reader.pages) == 1
    return reader.pages[0].extract_text()


def _squeezed(text: str) -> str:
    """The text with every space and line break taken out: the link is set on two lines."""
    return "".join(text.split())


def _club(client: Any) -> dict[str, Any]:
    made = client.post(CLUBS, json={"name": "Circolo del Giovedì"})
    assert made.status_code == 201
    body: dict[str, Any] = made.json
    return body


def _event(client: Any) -> dict[str, Any]:
    made = client.post(EVENTS, json={
        "name": "Torneo di Natale", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": n} for n in ("Anna", "Bruno", "Carla")]})
    assert made.status_code == 201, made.json
    body: dict[str, Any] = made.json
    return body


def test_a_club_s_key_card_prints_the_secretary_s_link_and_what_it_opens(client: Any) -> None:
    club = _club(client)
    response = client.get(f"{CLUBS}/{club['id']}/keycard.pdf?lang=it",
                          headers=auth(club["tokens"]["edit"]))
    text = _text(response)
    assert club["links"]["edit"] in _squeezed(text)
    assert "Circolo del Giovedì" in text
    assert "SCHEDA CHIAVE" in text and "segretario" in text
    assert "Conservala con cura" in text
    assert response.headers["Cache-Control"] == "no-store"
    assert "attachment" in response.headers["Content-Disposition"]


def test_an_event_s_key_card_prints_the_organiser_s_link(client: Any) -> None:
    event = _event(client)
    text = _text(client.get(f"{EVENTS}/{event['id']}/keycard.pdf?lang=fr",
                            headers=auth(event["tokens"]["edit"])))
    assert event["links"]["edit"] in _squeezed(text)
    assert "CARTE-CLÉ" in text and "Torneo di Natale" in text
    assert "organisateur" in text and "Gardez-la en lieu sûr" in text


@pytest.mark.parametrize(("accept", "words"), [("it-IT,it;q=0.9", "Il link del segretario"),
                                               ("fr-FR", "Le lien du secrétaire"),
                                               ("de-DE", "The club secretary's link")])
def test_the_key_card_is_in_the_reader_s_language_without_lang(client: Any, accept: str,
                                                               words: str) -> None:
    club = _club(client)
    response = client.get(f"{CLUBS}/{club['id']}/keycard.pdf",
                          headers={**auth(club["tokens"]["edit"]), "Accept-Language": accept})
    assert words in _text(response)


@pytest.mark.parametrize("kind", ["club", "event"])
def test_only_the_edit_token_prints_the_key_card(client: Any, kind: str) -> None:
    made = _club(client) if kind == "club" else _event(client)
    url = f"{CLUBS if kind == 'club' else EVENTS}/{made['id']}/keycard.pdf"
    assert_problem(client.get(url, headers=auth(made["tokens"]["read"])), 403,
                   code="read_only_token")
    assert_problem(client.get(url), 401, code="token_missing")
    other = _club(client) if kind == "club" else _event(client)
    assert_problem(client.get(url, headers=auth(other["tokens"]["edit"])), 404,
                   code="not_found")
