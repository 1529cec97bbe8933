"""An import's refusals are said in the request's language, naming the table's players
: the problems ``POST /games/import`` finds in a file keep their fields and codes,
and their sentences come from the catalogues, a seat said by its player's name."""

from __future__ import annotations

from typing import Any

import pytest
from http_support import API, assert_problem, auth

IMPORT = f"{API}/games/import"
AT = "2026-11-25T20:00:00+00:00"


def _exported(table: Any, **kwargs: Any) -> dict[str, Any]:
    game = table(**kwargs)
    game.play()
    return game.client.get(f"{game.url}.json", headers=auth(game.read)).json


def _refused(client: Any, document: dict[str, Any], lang: str) -> dict[str, dict[str, str]]:
    """Each problem of a refused import, by its field: its code and its message."""
    response = client.post(IMPORT, json=document, headers={"Accept-Language": lang})
    body = assert_problem(response, 422)
    assert response.headers["Content-Language"] == lang
    return {e["field"]: {"code": e["code"], "message": e["message"]} for e in body["errors"]}


DEALT = {
    "en": "the hand says Bruno dealt, its record Anna",
    "it": "la mano dice che ha dato le carte Bruno, la sua registrazione Anna",
    "fr": "selon la donne, le donneur est Bruno, selon sa feuille Anna",
}


@pytest.mark.parametrize("lang", DEALT)
def test_a_hand_whose_dealer_disagrees_names_the_players(client: Any, table: Any,
                                                         lang: str) -> None:
    document = _exported(table)
    document["hands"][0]["dealer"] = 1  # its record says seat 0, Anna, dealt
    said = _refused(client, document, lang)
    assert said["hands[0].dealer"] == {"code": "disagrees_with_record", "message": DEALT[lang]}


DIFFERS = {
    "en": "hand 1: columns {given} were exported, the rules now give {now}; remove the result "
          "to import the record as the rules score it now",
    "it": "mano 1: sono state esportate le colonne {given}, le regole ora danno {now}; togli il "
          "risultato per importare la registrazione come la contano ora le regole",
    "fr": "donne 1\u202f: l'export donne les colonnes {given}, les règles donnent maintenant {now}\u202f; "
          "retirez le résultat pour importer la feuille telle que les règles la comptent "
          "maintenant",
}


@pytest.mark.parametrize("lang", DIFFERS)
def test_a_result_the_rules_now_score_otherwise_is_said_in_the_language(
        client: Any, table: Any, lang: str) -> None:
    document = _exported(table)
    now = dict(document["hands"][0]["result"]["columns"])
    given = {**now, "0": now["0"] + 1}
    document["hands"][0]["result"]["columns"] = given
    said = _refused(client, document, lang)

    def written(columns: dict[str, int]) -> str:
        return "{" + ", ".join(f'"{k}": {columns[k]}' for k in sorted(columns)) + "}"

    assert said["hands[0].result"] == {
        "code": "result_differs",
        "message": DIFFERS[lang].format(given=written(given), now=written(now))}


CREATED = {
    "en": "hand 2 is created when the game has 0 hands: the next is hand 1",
    "it": "la mano 2 viene creata quando la partita ha 0 mani: la prossima è la mano 1",
    "fr": "la donne 2 est créée quand la partie a 0 donne\u202f: la suivante est la donne 1",
}


@pytest.mark.parametrize("lang", CREATED)
def test_a_history_out_of_turn_says_the_hands_in_the_language(client: Any, table: Any,
                                                               lang: str) -> None:
    document = _exported(table)
    document["history"][0]["number"] = 2
    said = _refused(client, document, lang)
    assert said["history[0].number"] == {"code": "wrong_hand_number", "message": CREATED[lang]}


NO_PLAYER = {
    "en": "Anna's dummy has no player of its own",
    "it": "morto di Anna non ha un giocatore suo",
    "fr": "mort de Anna n'a pas de joueur à soi",
}


@pytest.mark.parametrize("lang", NO_PLAYER)
def test_a_verdict_of_a_dummys_seat_names_the_dummy(client: Any, table: Any,
                                                    lang: str) -> None:
    game = table(variant="gatti-2", players=("Anna", "Bruno"))
    added = game.add({"dealer": 0, "piles": [{"side": 0, "points": 50},
                                              {"side": 1, "points": 22}]})
    assert added.status_code == 201, added.json
    document = game.client.get(f"{game.url}.json", headers=auth(game.read)).json
    document["history"][0]["confirmations"] = [
        {"seat": 2, "verdict": "confirm", "version": 1, "at": AT}]
    said = _refused(client, document, lang)
    assert said["history[0].confirmations[0].seat"] == {"code": "not_a_player",
                                                        "message": NO_PLAYER[lang]}
