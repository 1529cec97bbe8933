"""A dummy is named after its player in the language the service speaks: "Anna's
dummy" in English, as the API always said, "morto di Anna" and "mort de Anna" in Italian and
French, in a game's seats and in every sentence that names the dummy's seat."""

from __future__ import annotations

from typing import Any

import pytest
from http_support import auth

SEATS = {
    "en": ["Anna", "Bruno", "Anna's dummy", "Bruno's dummy"],
    "it": ["Anna", "Bruno", "morto di Anna", "morto di Bruno"],
    "fr": ["Anna", "Bruno", "mort de Anna", "mort de Bruno"],
}


@pytest.mark.parametrize("lang", SEATS)
def test_a_games_seats_name_the_dummies_in_the_language(table: Any, lang: str) -> None:
    game = table(variant="gatti-2", players=("Anna", "Bruno"))
    read = game.client.get(game.url, headers={**auth(game.read), "Accept-Language": lang})
    assert read.status_code == 200, read.json
    assert read.json["seats"] == SEATS[lang]
    assert read.json["players"] == ["Anna", "Bruno"]


DEALER = {
    "en": "Anna deals this hand, not Anna's dummy",
    "it": "questa mano la dà Anna, non morto di Anna",
    "fr": "c'est Anna qui distribue cette donne, pas mort de Anna",
}


@pytest.mark.parametrize("lang", DEALER)
def test_a_refusal_names_the_dummy_in_the_language(table: Any, lang: str) -> None:
    game = table(variant="gatti-2", players=("Anna", "Bruno"))
    refused = game.client.post(
        f"{game.url}/hands", headers={**auth(game.edit), "Accept-Language": lang},
        json={"dealer": 2, "piles": [{"side": 0, "points": 40}, {"side": 1, "points": 20}]})
    assert refused.status_code == 422, refused.json
    said = {e["code"]: e["message"] for e in refused.json["errors"]}
    assert said["wrong_dealer"] == DEALER[lang]
