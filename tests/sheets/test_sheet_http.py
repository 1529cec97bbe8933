"""The sheet and the exports over HTTP: content types and file names, access as for reading a
game, conditional requests, the CSV's rows, and an export that imports back to a new game
with identical results and new tokens — or to nothing, with every problem listed."""

from __future__ import annotations

import copy
import csv
import io
import re
import uuid
from typing import Any

import pytest
from sheet_samples import SAMPLES, Sample
from sheet_support import API, HttpGame, auth, fields, pdf_text, problem
from sqlalchemy import text

from service.application.printouts import build_sheet
from service.locale import colon


def games_stored(client: Any) -> int:
    engine = client.application.extensions["segnapunti.games"].repository.engine
    with engine.connect() as connection:
        return int(connection.execute(text("SELECT COUNT(*) FROM games")).scalar_one())


# -- the sheet --------------------------------------------------------------------------------


def test_the_sheet_is_a_pdf_named_after_the_game(client: Any) -> None:
    game = HttpGame(client, SAMPLES["gatti-3"])
    response = game.get("/sheet.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"] == (
        f'inline; filename="segnapunti-gatti-3-{game.id}.pdf"')
    assert response.headers["Cache-Control"] == "private, no-cache"
    text_ = pdf_text(response.data)
    assert "Score sheet" in text_ and "Total 152 136 83" in text_
    italian = pdf_text(game.get("/sheet.pdf?lang=it&detail=1").data)
    assert "Foglio segnapunti" in italian and "Anna: buona dichiarata, 20 frilli" in italian
    assert "buona dichiarata" not in pdf_text(game.get("/sheet.pdf?lang=it&detail=0").data)
    assert "Posto" not in italian and "posto" not in italian  # players by name, not seat


#: A Gatti hand recorded trick by trick in which Carla revokes: she plays the C of hearts to
#: the ninth trick, led with clubs, and the K of clubs later (rulebook §6).
REVOKE = Sample("gatti-3", ("Anna", "Bruno", "Carla"), [{"dealer": 0, "tricks": [
    ["JS", "10S", "2S"], ["5C", "3C", "6C"], ["KS", "FOOL", "1S"], ["CS", "9S", "T9"],
    ["CD", "8D", "1D"], ["1C", "T17", "4C"], ["6D", "9D", "10D"], ["6H", "1H", "7H"],
    ["JC", "CH", "T3"], ["5S", "7S", "T2"], ["T1", "T20", "T19"], ["3S", "T14", "T21"],
    ["8H", "5H", "KH"], ["4D", "KD", "QD"], ["3D", "2D", "7D"], ["8C", "KC", "T10"],
    ["T11", "10C", "T18"], ["T13", "T12", "QH"], ["7C", "T5", "QC"], ["5D", "JD", "T15"],
    ["CC", "T6", "2C"], ["4S", "2H", "T4"], ["T7", "6S", "4H"], ["9C", "8S", "9H"],
    ["T16", "QS", "JH"]], "discard": ["T8", "10H", "3H"]}])


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
@pytest.mark.parametrize("sample", [REVOKE, SAMPLES["mitigatti-4"], SAMPLES["ottocento"]],
                         ids=["revoke", "mitigatti-4", "ottocento"])
def test_the_sheets_explanations_are_the_sentences_the_page_shows(
        client: Any, sample: Sample, lang: str) -> None:
    """The detailed sheet prints each hand's lines, payments and illegal plays as
    the service sends them to the page in the same language, the players by name."""
    game = HttpGame(client, sample)
    page = game.get(headers={"Accept-Language": lang}).json
    view = client.application.extensions["segnapunti.games"].get_game(game.id, game.read)
    sheet = build_sheet(view, lang, detail=True)
    for hand, block in zip(page["hands"], sheet.hands, strict=True):
        result = hand["result"]
        said = [f"{line['text']} ({line['rule']})" for side in result["sides"]
                for line in side["lines"]]
        assert [d.removeprefix("† ") for d in block.details[:len(said)]] == said
        for payment in result.get("payments") or []:
            assert any(d.startswith(f"{payment['text']}{colon(lang)} ") for d in block.details)
        violations = [v["message"] for v in result["violations"]]
        assert list(block.details[len(block.details) - len(violations):]) == violations
    if sample is REVOKE:
        assert violations == [{
            "en": "Carla played CH to trick 9, but ♣ was led and the player held a card of "
                  "that suit: it played KC in trick 16",
            "it": "Carla ha giocato cavallo di cuori nella presa 9, ma si giocava a ♣ e il "
                  "giocatore aveva una carta di quel seme: ha giocato re di fiori nella presa 16",
            "fr": "Carla a joué cavalier de cœur au pli 9, mais on jouait ♣ et le joueur avait "
                  "une carte de cette couleur\u202f: il a joué roi de trèfle au pli 16",
        }[lang]]


def _flat(text_: str) -> str:
    return " ".join(text_.split())


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
@pytest.mark.parametrize("name", ["mitigatti-4", "mitigatti-3", "gatti-4-call"])
def test_the_pdf_says_the_contract_and_the_pot_as_the_api_does(client: Any, name: str,
                                                                 lang: str) -> None:
    """The sheet prints who played with whom (a contract, a call) at each hand's
    head, each payment's flow and the pot collected (R15) in the very sentences the API sends
    for the same hands, in the same language, the players by name."""
    game = HttpGame(client, SAMPLES[name])
    body = game.get(headers={"Accept-Language": lang}).json
    pdf = _flat(pdf_text(game.get(f"/sheet.pdf?lang={lang}&detail=1").data))
    contracts = [hand["result"]["contract_text"] for hand in body["hands"]
                 if "contract_text" in hand["result"]]
    assert contracts if name != "mitigatti-3" else not contracts
    flows = [payment["flow"] for hand in body["hands"]
             for payment in hand["result"].get("payments", [])]
    collected = [x["text"] for x in body.get("pot_collected", [])]
    assert bool(collected) == (name == "mitigatti-3")
    for sentence in [*contracts, *flows, *(f"{c} (R15)" for c in collected)]:
        assert _flat(sentence) in pdf, sentence
    assert all(c.split()[0] in body["seats"] for c in contracts)  # the declarer by name


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
@pytest.mark.parametrize("name", ["mitigatti-4", "mitigatti-3"])
def test_the_pdfs_settlement_is_the_apis_transfers(client: Any, name: str, lang: str) -> None:
    """The ledger's transfers are printed under "To settle" in the very sentences
    the API sends beside them, in the same language, the players by name and the money as
    the language writes it, and nothing else follows them."""
    game = HttpGame(client, SAMPLES[name])
    body = game.get(headers={"Accept-Language": lang}).json
    said = [transfer["text"] for transfer in body["transfers"]]
    assert said
    view = client.application.extensions["segnapunti.games"].get_game(game.id, game.read)
    lines = build_sheet(view, lang).sections[0].lines
    assert list(lines[len(lines) - len(said):]) == said
    pdf = _flat(pdf_text(game.get(f"/sheet.pdf?lang={lang}").data))
    places = [pdf.find(_flat(sentence)) for sentence in said]
    assert -1 not in places and places == sorted(places), (said, pdf)
    if "marca_value" in SAMPLES[name].options:
        assert all(("€" in sentence) for sentence in said)


def test_the_sheet_in_french_for_nice(client: Any) -> None:
    """``?lang=fr`` prints the sheet in French: its headings, Mitigatti's words as
    Cason's article writes them, money as French writes it."""
    game = HttpGame(client, SAMPLES["mitigatti-4"])
    french = pdf_text(game.get("/sheet.pdf?lang=fr&detail=1").data)
    for heading in ("Feuille de marque", "Joueurs, dans l'ordre du jeu", "Premier donneur",
                    "Donne", "Compte des marca", "Pour régler"):
        assert heading in french, heading
    assert "accusassions" in french and "Bagatte ultimu" in french
    assert "Bruno a gagné le dernier pli avec le Bagatte" in french
    assert "0,50 € la marca" in french
    assert "Score sheet" not in french and "Foglio" not in french
    # French sets a narrow no-break space before a colon, and no line break there.
    view = client.application.extensions["segnapunti.games"].get_game(game.id, game.read)
    lines = build_sheet(view, "fr").sections[0].lines
    assert "Pour régler\u202f:" in lines
    assert not [line for line in lines if re.search(r"\S[:;!?](\s|$)| [:;!?]", line)]


def test_a_game_in_french_prints_its_sheet_in_french_unless_asked_otherwise(client: Any) -> None:
    """A game started in French (its ``language`` option, which the page sets when a
    French phone starts Mitigatti, the game of Nice) prints French sheets for a reader who
    asks for no language; one who asks has theirs. A game without one prints English."""
    sample = SAMPLES["mitigatti-4"]
    french = HttpGame(client, Sample(sample.variant, sample.players, sample.hands,
                                     {**sample.options, "language": "fr"}))
    assert french.state()["options"]["language"] == "fr"
    assert "Feuille de marque" in pdf_text(french.get("/sheet.pdf").data)
    assert "Foglio segnapunti" in pdf_text(french.get("/sheet.pdf?lang=it").data)
    plain = HttpGame(client, sample)
    assert plain.state()["options"]["language"] is None
    assert "Score sheet" in pdf_text(plain.get("/sheet.pdf").data)
    refused = client.post(f"{API}/games", json={"variant": "mitigatti-4",
                                                "players": list(sample.players),
                                                "options": {"language": "de"}})
    assert fields(problem(refused, 422)) == {"options.language": "invalid_option"}


def test_the_sheet_opens_with_either_token_as_the_game_does(client: Any) -> None:
    game = HttpGame(client, SAMPLES["gatti-4"])
    other = HttpGame(client, Sample("gatti-3", ("X", "Y", "Z"), []))
    cases = {
        "no token": (game.url, {}),
        "a token that opens nothing": (game.url, auth("not-a-token-of-any-game")),
        "another game's token": (game.url, auth(other.read)),
        "no such game": (f"{API}/games/nosuchgame", auth(game.read)),
    }
    expected = {"no token": 401, "a token that opens nothing": 401,
                "another game's token": 404, "no such game": 404}
    for suffix in ("/sheet.pdf", ".json", ".csv"):
        assert game.get(suffix, game.read).status_code == 200
        assert game.get(suffix, game.edit).status_code == 200
        for case, (url, headers) in cases.items():
            read = client.get(url, headers=headers)
            body = problem(client.get(f"{url}{suffix}", headers=headers), expected[case])
            assert (body["status"], body["code"]) == (read.status_code, read.json["code"]), case


def test_the_sheets_query_is_checked(client: Any) -> None:
    game = HttpGame(client, SAMPLES["gatti-3"])
    assert fields(problem(game.get("/sheet.pdf?lang=de"), 422)) == {"query.lang": "invalid_field"}
    assert fields(problem(game.get("/sheet.pdf?detail=yes"), 422)) == {
        "query.detail": "invalid_field"}
    assert game.get("/sheet.pdf?detail=true&lang=en").status_code == 200
    # Other parameters (a cache-buster a browser or a link adds) are ignored.
    assert game.get("/sheet.pdf?v=2").status_code == 200


@pytest.mark.parametrize("suffix", ["/sheet.pdf?lang=it", ".json", ".csv"])
def test_a_client_that_has_it_gets_304_until_the_game_changes(client: Any, suffix: str) -> None:
    sample = SAMPLES["gatti-3"]
    game = HttpGame(client, Sample(sample.variant, sample.players, sample.hands[:1]))
    first = game.get(suffix)
    etag = first.headers["ETag"]
    assert etag.startswith('W/"')
    assert game.get(suffix, headers={"If-None-Match": etag}).status_code == 304
    added = client.post(f"{game.url}/hands", json=sample.hands[1], headers=auth(game.edit))
    assert added.status_code == 201
    again = game.get(suffix, headers={"If-None-Match": etag})
    assert again.status_code == 200 and again.headers["ETag"] != etag


# -- the CSV ----------------------------------------------------------------------------------


def test_the_csv_has_a_row_per_hand_and_column(client: Any) -> None:
    game = HttpGame(client, SAMPLES["gatti-4"])
    response = game.get(".csv")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8; header=present"
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="segnapunti-gatti-4-{game.id}.csv"')
    assert response.data.endswith(b"\r\n")
    rows = list(csv.DictReader(io.StringIO(response.data.decode("utf-8"))))
    assert len(rows) == 4 * 2
    assert list(rows[0]) == ["hand", "dealer_seat", "dealer", "column", "label", "points",
                             "total", "marks", "events"]
    assert rows[0] == {"hand": "1", "dealer_seat": "0", "dealer": "Anna", "column": "0",
                       "label": "Anna & Carla", "points": "51", "total": "51",
                       "marks": "10 ♠; 5 Q; 36", "events": ""}
    state = game.state()
    last = {r["column"]: int(r["total"]) for r in rows if r["hand"] == "4"}
    assert last == state["totals"]
    for column in ("0", "1"):
        assert sum(int(r["points"]) for r in rows if r["column"] == column) == last[column]


def test_the_csv_quotes_names_and_carries_the_marca(client: Any) -> None:
    players = ("Anna, detta \"la Rossa\"", "Bruno", "Carla")
    game = HttpGame(client, Sample("mitigatti-3", players, SAMPLES["mitigatti-3"].hands))
    raw = game.get(".csv").data.decode("utf-8")
    assert not raw.startswith("\ufeff")  # no byte-order mark
    assert '"Anna, detta ""la Rossa"""' in raw
    rows = list(csv.DictReader(io.StringIO(raw)))
    assert list(rows[0])[-3:] == ["marca", "balance", "pot"]
    assert len(rows) == 4 * 3
    assert rows[0]["events"] == "thrown_in" and rows[0]["marca"] == "0"
    state = game.state()
    assert {r["column"]: int(r["balance"]) for r in rows if r["hand"] == "4"} == \
        state["balances"]
    assert rows[-1]["pot"] == str(state["pot"])
    assert {r["label"] for r in rows} == set(players)


# -- export and import ------------------------------------------------------------------------


def _export(game: HttpGame) -> dict[str, Any]:
    response = game.get(".json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    return response.json  # type: ignore[no-any-return]


def _without_times(hand: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in hand.items() if k not in ("created_at", "updated_at", "etag")}


@pytest.mark.parametrize("name", list(SAMPLES))
def test_an_export_imports_to_identical_results_with_new_tokens(client: Any,
                                                                name: str) -> None:
    game = HttpGame(client, SAMPLES[name])
    document = _export(game)
    assert document["format"] == "segnapunti.game" and document["format_version"] == 2
    assert [h["record"] for h in document["hands"]] == [h["record"] for h in
                                                          game.state()["hands"]]
    response = client.post(f"{API}/games/import", json=document)
    assert response.status_code == 201, response.json
    created = response.json
    assert response.headers["Location"] == f"{API}/games/{created['id']}"
    assert created["id"] != game.id
    assert set(created["tokens"].values()).isdisjoint({game.edit, game.read})
    # The new game's tokens open it; the old ones do not.
    copy_url = f"{API}/games/{created['id']}"
    assert client.get(copy_url, headers=auth(created["tokens"]["read"])).status_code == 200
    assert client.get(copy_url, headers=auth(game.read)).status_code == 404
    original, imported = game.state(), client.get(
        copy_url, headers=auth(created["tokens"]["read"])).json
    for key in ("variant", "options", "players", "first_dealer", "columns", "totals",
                "status", "winners", "next_dealer", "created_at", "balances", "pot",
                "transfers", "money", "ended_by"):
        assert imported.get(key) == original.get(key), key
    assert [_without_times(h) for h in imported["hands"]] == [
        _without_times(h) for h in original["hands"]]
    # And the copy exports to the same document, but for its id and times.
    again = client.get(f"{copy_url}.json", headers=auth(created["tokens"]["read"])).json
    assert [(h["record"], h["result"]) for h in again["hands"]] == [
        (h["record"], h["result"]) for h in document["hands"]]
    assert again["summary"] == document["summary"]


def test_an_import_with_problems_lists_them_all_and_creates_nothing(client: Any) -> None:
    game = HttpGame(client, SAMPLES["gatti-3"])
    document = _export(game)
    broken = copy.deepcopy(document)
    broken["hands"][0]["result"]["columns"]["0"] = 99
    broken["hands"][1]["record"]["declarations"][0]["suit"] = "X"
    broken["hands"][2]["record"]["piles"][0]["counting"].append("KH")  # side 1 has it too
    before = games_stored(client)
    body = problem(client.post(f"{API}/games/import", json=broken), 422)
    found = fields(body)
    assert found["hands[0].result"] == "result_differs"
    assert any(f.startswith("hands[1].record.declarations[0]") for f in found)
    assert any(f.startswith("hands[2].record.piles") for f in found)
    assert games_stored(client) == before


def test_an_import_is_checked_as_adding_hands_is(client: Any) -> None:
    game = HttpGame(client, SAMPLES["gatti-3"])
    document = _export(game)
    for hand in document["hands"]:
        hand.pop("result")
    # Without the results, the records import as the rules score them.
    assert client.post(f"{API}/games/import", json=document).status_code == 201

    wrong_dealer = copy.deepcopy(document)
    wrong_dealer["hands"][1]["record"]["dealer"] = 2
    body = problem(client.post(f"{API}/games/import", json=wrong_dealer), 422)
    assert fields(body)["hands[1].record.dealer"] == "wrong_dealer"

    too_many = copy.deepcopy(document)
    too_many["hands"].append({**copy.deepcopy(document["hands"][0]), "number": 4})
    body = problem(client.post(f"{API}/games/import", json=too_many), 422)
    assert fields(body) == {"hands[3]": "game_finished"}

    renumbered = copy.deepcopy(document)
    renumbered["hands"][0]["number"] = 2
    renumbered["hands"][1]["dealer"] = 0
    assert fields(problem(client.post(f"{API}/games/import", json=renumbered), 422)) == {
        "hands[0].number": "wrong_hand_number", "hands[1].dealer": "disagrees_with_record"}

    setup = copy.deepcopy(document)
    setup["game"]["players"] = ["Anna", "anna", ""]
    setup["game"]["first_dealer"] = 7
    setup["game"]["created_at"] = "yesterday"
    assert fields(problem(client.post(f"{API}/games/import", json=setup), 422)) == {
        "game.players[1]": "duplicate_name", "game.players[2]": "invalid_name",
        "game.first_dealer": "out_of_range", "game.created_at": "invalid_field"}

    unknown = copy.deepcopy(document)
    unknown["game"]["variant"] = "briscola"
    assert fields(problem(client.post(f"{API}/games/import", json=unknown), 422)) == {
        "game.variant": "unknown_variant"}

    form = copy.deepcopy(document)
    form["format"] = "something-else"
    form["hands"][0]["record"]["colour"] = "red"
    del form["game"]["variant"]
    assert fields(problem(client.post(f"{API}/games/import", json=form), 422)) == {
        "format": "invalid_field", "hands[0].record.colour": "unknown_field",
        "game.variant": "missing_field"}
    assert games_stored(client) == 2


def test_an_in_progress_game_imports_and_plays_on(client: Any) -> None:
    sample = SAMPLES["ottocento"]
    game = HttpGame(client, Sample(sample.variant, sample.players, sample.hands[:2]))
    response = client.post(f"{API}/games/import", json=_export(game))
    assert response.status_code == 201
    created = response.json
    assert created["status"] == "in_progress" and created["next_dealer"] == 2
    more = client.post(f"{API}/games/{created['id']}/hands", json=sample.hands[2],
                       headers=auth(created["tokens"]["edit"]))
    assert more.status_code == 201, more.json
    history = client.get(f"{API}/games/{created['id']}/history",
                         headers=auth(created["tokens"]["read"])).json["versions"]
    assert [(v["number"], v["action"], v["token_kind"]) for v in history] == [
        (1, "create", "edit"), (2, "create", "edit"), (3, "create", "edit")]


def test_an_import_retried_with_its_idempotency_key_creates_one_game(client: Any) -> None:
    document = _export(HttpGame(client, SAMPLES["mitigatti-3"]))
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.post(f"{API}/games/import", json=document, headers=key)
    again = client.post(f"{API}/games/import", json=document, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json["id"] == first.json["id"]
    assert again.json["tokens"] == first.json["tokens"]
    assert games_stored(client) == 2
    document["game"]["players"] = ["X", "Y", "Z"]
    problem(client.post(f"{API}/games/import", json=document, headers=key), 422)


def test_the_csv_marks_are_the_sheets(client: Any) -> None:
    game = HttpGame(client, SAMPLES["gatti-classic-4"])
    rows = list(csv.DictReader(io.StringIO(game.get(".csv").data.decode("utf-8"))))
    last = [r for r in rows if r["hand"] == "4"]
    assert last[0]["marks"] == "10 ♥; −20 B; 32"
    assert last[0]["points"] == "22" and last[0]["dealer"] == "Anna"
