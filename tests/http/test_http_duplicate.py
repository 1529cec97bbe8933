"""Duplicate events through the API (docs/events.md#duplicate), on SQLite and PostgreSQL: a
12-player ``gatti-3`` duplicate individual played end to
end (the movement's boards at every table, each hand dealt by its board's dealer, each game
ending after its boards), the boards' JSON and who may read it, the deal slips PDF read back
with pypdf, and the bad input of the section."""

from __future__ import annotations

import io
import itertools
import random
import re
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

import pytest
from http_support import COUNTING, assert_problem, auth, error_fields
from legal_play import play_out
from pypdf import PdfReader

from service.domain import deal_board, find_variant

API = "/api/v1"
TWELVE = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ilaria", "Luca",
          "Marta", "Nino", "Olga"]
SEED = 2028
GATTI_3 = find_variant("gatti-3")


def board(number: int) -> Any:
    return deal_board(GATTI_3, SEED, number)


def board_record(number: int, winner: int) -> dict[str, Any]:
    """A ``gatti-3`` record of board ``number`` as dealt: its dealer, a discard of three
    plain cards below the courts that the dealer held, every counting card in ``winner``'s
    pile."""
    dealt = board(number)
    held = [*dealt.hands[dealt.dealer], *dealt.extra]
    discard = [c.code for c in held if c.is_plain and c.rank not in ("K", "Q", "C", "J")][:3]
    piles = [{"side": side, "tricks": (10, 8, 8)[side],
              "counting": COUNTING if side == winner else []} for side in range(3)]
    return {"dealer": dealt.dealer, "discard": discard, "piles": piles}


class Duplicate:
    """A duplicate evening seen from the organiser's phone and the room's."""

    def __init__(self, client: Any, **body: Any) -> None:
        self.client = client
        self.created = client.post(f"{API}/events", json={
            "name": "Serata duplicata", "variant": "gatti-3", "format": "individual",
            "deals": "duplicate", "seed": SEED,
            "entrants": [{"name": n} for n in TWELVE], **body})
        assert self.created.status_code == 201, self.created.json
        self.id = self.created.json["id"]
        self.edit = self.created.json["tokens"]["edit"]
        self.read = self.created.json["tokens"]["read"]
        self.url = f"{API}/events/{self.id}"

    def start(self) -> dict[str, Any]:
        response = self.client.post(f"{self.url}/rounds", json={}, headers=auth(self.edit))
        assert response.status_code == 201, response.json
        return response.json

    def boards(self, token: str) -> list[int]:
        response = self.client.get(f"{self.url}/boards", headers=auth(token))
        assert response.status_code == 200, response.json
        return [b["board"] for b in response.json["boards"]]

    def game(self, table: dict[str, Any]) -> dict[str, Any]:
        response = self.client.get(f"{API}/games/{table['game']}",
                                   headers=auth(table["tokens"]["edit"]))
        assert response.status_code == 200, response.json
        return response.json

    def play(self, table: dict[str, Any], winner: int = 0) -> dict[str, Any]:
        """The table's next board, entered with the table's own token."""
        number = table["boards"][self.game(table)["hands_played"]]
        response = self.client.post(f"{API}/games/{table['game']}/hands",
                                    json=board_record(number, winner),
                                    headers=auth(table["tokens"]["edit"]))
        assert response.status_code == 201, response.json
        return response.json


def test_a_duplicate_event_says_its_deals_and_boards_per_round(client: Any) -> None:
    evening = Duplicate(client)
    assert evening.created.json["deals"] == "duplicate"
    assert evening.created.json["boards_per_round"] == GATTI_3.hands_per_game == 3
    assert evening.created.json["seed"] == SEED  # the organiser's, shown once
    read = client.get(evening.url, headers=auth(evening.read)).json
    assert (read["deals"], read["boards_per_round"]) == ("duplicate", 3)
    assert read["seed"] is None  # the seed deals every board: the room never sees it
    free = client.post(f"{API}/events", json={
        "name": "Serata", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": n} for n in TWELVE[:3]]}).json
    assert (free["deals"], free["boards_per_round"]) == ("free", None)


@pytest.mark.parametrize(("variant", "expected"), [
    ("gatti-4", 4), ("ottocento", 4), ("mitigatti-4", 4), ("mitigatti-3", 3)])
def test_boards_per_round_defaults_to_a_game_s_hands_and_ottocento_4(
        client: Any, variant: str, expected: int) -> None:
    created = client.post(f"{API}/events", json={
        "name": "Sera", "variant": variant, "format": "individual", "deals": "duplicate",
        "entrants": [{"name": n} for n in TWELVE[:8]]})
    assert created.status_code == 201, created.json
    assert created.json["boards_per_round"] == expected


@pytest.mark.parametrize(("variant", "default", "most"), [
    ("gatti-3", 3, 3), ("gatti-4", 4, 4), ("gatti-classic-3", 3, 3), ("ottocento", 4, 8),
    ("mitigatti-4", 4, 8), ("mitigatti-3", 3, 8)])
def test_the_variants_say_boards_per_round_s_default_and_most(
        client: Any, variant: str, default: int, most: int) -> None:
    """docs/events.md#duplicate: boards_per_round defaults to a game's hands (Ottocento 4) and
    goes from 1 to what a game holds; the catalogue and the variant's detail say both, and an
    event takes the most and refuses one more."""
    listed = {v["id"]: v for v in client.get(f"{API}/variants").json}
    expected = {"default": default, "max": most}
    assert listed[variant]["boards_per_round"] == expected
    assert client.get(f"{API}/variants/{variant}").json["boards_per_round"] == expected
    body = {"name": "Sera", "variant": variant, "format": "individual", "deals": "duplicate",
            "entrants": [{"name": n} for n in TWELVE[:8]]}
    created = client.post(f"{API}/events", json={**body, "boards_per_round": most})
    assert created.status_code == 201, created.json
    assert created.json["boards_per_round"] == most
    assert client.post(f"{API}/events", json=body).json["boards_per_round"] == default
    refused = assert_problem(client.post(f"{API}/events",
                                         json={**body, "boards_per_round": most + 1}), 422)
    assert error_fields(refused) == {"boards_per_round": "invalid_boards_per_round"}


def test_gatti_3_duplicate_individual_of_12_players_end_to_end(client: Any) -> None:
    evening = Duplicate(client, rounds=2)
    seats_of_board: dict[tuple[int, int], list[str]] = defaultdict(list)
    played_by: dict[str, list[int]] = defaultdict(list)
    for round_number, own in ((1, [1, 2, 3]), (2, [4, 5, 6])):
        started = evening.start()
        tables = started["tables"]
        assert len(tables) == 4 and started["byes"] == []
        # Every table plays the round's own boards, each from its own start, round them.
        for place, table in enumerate(tables):
            start = place % 3
            assert table["boards"] == own[start:] + own[:start]
        listed = client.get(evening.url, headers=auth(evening.read)).json["rounds"]
        assert [t["boards"] for t in listed[round_number - 1]["tables"]] == \
            [t["boards"] for t in tables]
        for table in tables:
            game = evening.game(table)
            assert [b["board"] for b in game["boards"]] == table["boards"]
            for b in game["boards"]:
                assert b["dealer"] == board(b["board"]).dealer
            for n, number in enumerate(table["boards"]):
                # Hand n is the table's n-th board, dealt by the board's dealer, not the
                # rotation's; its exposed cards are shown once the table reaches it, a later
                # board's not yet.
                listed = evening.game(table)
                assert listed["next_dealer"] == board(number).dealer
                assert [b["exposed"] for b in listed["boards"]] == [
                    [c.code for c in board(later).exposed] if i <= n else []
                    for i, later in enumerate(table["boards"])]
                hand = evening.play(table, winner=n % 3)
                assert (hand["number"], hand["board"]) == (n + 1, number)
                assert hand["dealer"] == board(number).dealer == (number - 1) % 3
                for seat, name in enumerate(table["seats"]):
                    seats_of_board[(number, seat)].append(name)
                    played_by[name].append(number)
            # The game lasts exactly its boards: finished after the third, no fourth.
            game = evening.game(table)
            assert (game["status"], game["ended_by"], game["hands_played"]) == \
                ("finished", "boards", 3)
            more = client.post(f"{API}/games/{table['game']}/hands",
                               json=board_record(table["boards"][0], 0),
                               headers=auth(table["tokens"]["edit"]))
            assert_problem(more, 409, code="game_finished")
    # Nobody plays a board twice; each seat of a board is held by different entrants.
    for name, boards in played_by.items():
        assert sorted(boards) == [1, 2, 3, 4, 5, 6], name
    for (number, seat), names in seats_of_board.items():
        assert len(names) == len(set(names)) == 4, (number, seat)
    assert client.get(evening.url, headers=auth(evening.read)).json["status"] == "over"


def test_a_round_of_fewer_boards_than_a_game_of_gatti_ends_after_them(client: Any) -> None:
    evening = Duplicate(client, boards_per_round=2)
    table = evening.start()["tables"][0]
    assert table["boards"] == [1, 2]
    evening.play(table)
    assert evening.game(table)["status"] == "in_progress"
    evening.play(table)
    game = evening.game(table)
    assert (game["status"], game["hands_played"], game["next_dealer"]) == \
        ("finished", 2, None)


def test_the_boards_json_gives_every_board_to_the_organiser(client: Any) -> None:
    evening = Duplicate(client, rounds=2)
    body = client.get(f"{evening.url}/boards", headers=auth(evening.edit)).json
    assert body["boards"] == [board(n).to_json() for n in range(1, 7)]
    first = body["boards"][0]
    assert len(first["hands"]) == 3 and all(len(h) == 25 for h in first["hands"])
    assert len(first["extra"]) == 3 and len(first["exposed"]) == 3
    # Without planned rounds: the rounds started and the next one.
    open_ended = Duplicate(client)
    assert open_ended.boards(open_ended.edit) == [1, 2, 3]
    open_ended.start()
    assert open_ended.boards(open_ended.edit) == [1, 2, 3, 4, 5, 6]


def test_the_room_sees_a_board_once_every_table_due_to_play_it_has(client: Any) -> None:
    evening = Duplicate(client, rounds=2)
    assert evening.boards(evening.read) == []
    tables = evening.start()["tables"]
    # The tables play 1 2 3, 2 3 1, 3 1 2, 1 2 3.
    assert [t["boards"][0] for t in tables] == [1, 2, 3, 1]
    evening.play(tables[0])
    evening.play(tables[3])
    assert evening.boards(evening.read) == []  # board 1 still due at tables 2 and 3
    for _ in range(3):
        evening.play(tables[1])  # 2, 3, then 1
    evening.play(tables[2])
    assert evening.boards(evening.read) == []
    evening.play(tables[2])  # 3, then 1: every table has played board 1
    shown = client.get(f"{evening.url}/boards", headers=auth(evening.read)).json["boards"]
    assert shown == [board(1).to_json()]
    assert evening.boards(evening.edit) == [1, 2, 3, 4, 5, 6]


def test_a_closed_round_shows_the_boards_its_tables_will_no_longer_play(client: Any) -> None:
    evening = Duplicate(client, rounds=2)
    tables = evening.start()["tables"]
    evening.play(tables[0])
    closed = client.post(f"{evening.url}/rounds/1/close", headers=auth(evening.edit))
    assert closed.status_code == 200, closed.json
    assert evening.boards(evening.read) == [1, 2, 3]


def test_an_event_of_free_deals_has_no_boards(client: Any) -> None:
    created = client.post(f"{API}/events", json={
        "name": "Serata", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": n} for n in TWELVE[:3]]}).json
    url = f"{API}/events/{created['id']}"
    assert_problem(client.get(f"{url}/boards", headers=auth(created["tokens"]["edit"])), 404)
    assert_problem(client.get(f"{url}/boards.pdf", headers=auth(created["tokens"]["edit"])),
                   404)
    started = client.post(f"{url}/rounds", json={}, headers=auth(created["tokens"]["edit"]))
    table = started.json["tables"][0]
    assert "boards" not in table
    game = client.get(f"{API}/games/{table['game']}", headers=auth(table["tokens"]["edit"]))
    assert "boards" not in game.json


def _pdf_text(response: Any) -> tuple[int, str]:
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(response.data))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def test_the_deal_slips_count_seats_from_one_and_name_court_cards_in_their_language(
        client: Any) -> None:
    """A French slip: Place 1 to 3 (the dealer's too), kings, queens and jacks by the French
    letters R, D and V, as the phone's card faces show them."""
    evening = Duplicate(client, rounds=2)
    _pages, text = _pdf_text(client.get(f"{evening.url}/boards.pdf?lang=fr",
                                        headers=auth(evening.edit)))
    flat = " ".join(text.split())
    assert "Place 0" not in flat
    french = {"K": "R", "Q": "D", "C": "C", "J": "V"}
    for number in range(1, 7):
        dealt = board(number)
        assert f"Place {len(dealt.hands)}" in flat
        for hand in dealt.hands:
            hearts = " ".join(french.get(str(c.rank), str(c.rank)) for c in hand
                              if c.suit is not None and c.suit.value == "H")
            assert hearts in flat, (number, hearts)


def test_the_deal_slips_print_each_board_its_dealer_and_every_seat_s_cards(
        client: Any) -> None:
    evening = Duplicate(client, rounds=2)
    pages, text = _pdf_text(client.get(f"{evening.url}/boards.pdf",
                                       headers=auth(evening.edit)))
    assert pages == 3  # six boards, two a page
    flat = " ".join(text.split())
    for number in range(1, 7):
        dealt = board(number)
        assert f"Board {number}" in flat
        assert f"Dealer: seat {dealt.dealer + 1}" in flat
        for hand in dealt.hands:
            trumps = " ".join(c.code[1:] for c in hand if c.is_trump)
            hearts = " ".join(str(c.rank) for c in hand if c.suit is not None
                              and c.suit.value == "H")
            # Sorted high to low in the game's order, as the slip prints them.
            assert trumps in flat and hearts in flat, (number, trumps, hearts)
    assert "Seat 0" not in flat  # seats as a person counts them, from 1
    for word in ("Seat 1", "Seat 2", "Seat 3", "Trumps", "Hearts", "Diamonds", "Clubs",
                 "Spades", "Dealer takes (3)", "Exposed cards"):
        assert word in flat, word
    _pages, italian = _pdf_text(client.get(f"{evening.url}/boards.pdf?lang=it",
                                           headers=auth(evening.edit)))
    flat = " ".join(italian.split())
    for word in ("Smazzata 1", "Smazzata 6", "Mazziere: posto 1", "Posto 3", "Trionfi",
                 "Cuori", "Picche", "Al mazziere (3)", "Carte scoperte"):
        assert word in flat, word


def test_the_deal_slips_are_the_organiser_s(client: Any) -> None:
    evening = Duplicate(client)
    assert_problem(client.get(f"{evening.url}/boards.pdf", headers=auth(evening.read)), 403,
                   code="read_only_token")


def test_ottocento_slips_name_its_own_suits_and_trumps(client: Any) -> None:
    pairs = [{"name": f"Coppia {i}", "players": [f"A{i}", f"B{i}"]} for i in range(4)]
    created = client.post(f"{API}/events", json={
        "name": "Torneo", "variant": "ottocento", "format": "pairs", "deals": "duplicate",
        "rounds": 1, "seed": 5, "entrants": pairs}).json
    _pages, text = _pdf_text(client.get(f"{API}/events/{created['id']}/boards.pdf",
                                        headers=auth(created["tokens"]["edit"])))
    flat = " ".join(text.split())
    for word in ("Board 4", "Cups", "Coins", "Batons", "Swords", "Dealer takes (2)",
                 "No card is exposed"):
        assert word in flat, word
    assert "Hearts" not in flat


def test_the_score_sheet_says_board_not_hand(client: Any) -> None:
    evening = Duplicate(client)
    table = evening.start()["tables"][1]  # plays 2, 3, 1
    for _ in range(3):
        evening.play(table)
    _pages, text = _pdf_text(client.get(f"{API}/games/{table['game']}/sheet.pdf",
                                        headers=auth(table["tokens"]["read"])))
    flat = " ".join(text.split())
    assert "Board" in flat and "The game ended after its 3 boards" in flat


def test_the_score_sheet_s_headings_break_no_word_and_its_head_names_no_id(
        client: Any) -> None:
    """The Italian sheet's first column says "Smazzata" whole (its type smaller where the
    column is narrow, never a word cut over two lines); its head says the variant and when the
    game started, the game's id only in the small print at the foot of each page."""
    evening = Duplicate(client)
    table = evening.start()["tables"][1]
    for _ in range(3):
        evening.play(table)
    pages, text = _pdf_text(client.get(f"{API}/games/{table['game']}/sheet.pdf?lang=it",
                                       headers=auth(table["tokens"]["read"])))
    lines = text.split("\n")
    assert any(line.split()[:1] == ["Smazzata"] for line in lines), lines[:40]
    assert not any(line.strip() == "a" for line in lines), lines[:40]
    assert text.count(table["game"]) == pages  # the foot's, once a page
    assert "Partita " + table["game"] not in text


def _events(client: Any) -> int:
    engine = client.application.extensions["segnapunti.games"].repository.engine
    with engine.connect() as connection:
        return int(connection.exec_driver_sql("SELECT COUNT(*) FROM events").scalar_one())


@pytest.mark.parametrize(("body", "fields"), [
    ({"deals": "shuffled"}, {"deals": "unknown_deals"}),
    ({"deals": "duplicate", "boards_per_round": 0},
     {"boards_per_round": "invalid_boards_per_round"}),
    # A game of gatti-3 holds 3 hands: a round cannot give it 4 boards.
    ({"deals": "duplicate", "boards_per_round": 4},
     {"boards_per_round": "invalid_boards_per_round"}),
    ({"deals": "duplicate", "boards_per_round": "3"},
     {"boards_per_round": "invalid_boards_per_round"}),
    ({"deals": "duplicate", "boards_per_round": True},
     {"boards_per_round": "invalid_boards_per_round"}),
    ({"boards_per_round": 2}, {"boards_per_round": "boards_unexpected"}),
    ({"deals": "free", "boards_per_round": 2}, {"boards_per_round": "boards_unexpected"}),
    # Every problem at once.
    ({"deals": "duplicate", "boards_per_round": -1, "rounds": 0, "format": "pairs"},
     {"boards_per_round": "invalid_boards_per_round", "rounds": "invalid_rounds",
      "format": "format_unfit", "entrants[0].players": "pair_needs_two",
      "entrants[1].players": "pair_needs_two", "entrants[2].players": "pair_needs_two"}),
])
def test_bad_duplicate_setups_are_refused_whole_and_store_nothing(
        client: Any, body: dict[str, Any], fields: dict[str, str]) -> None:
    before = _events(client)
    response = client.post(f"{API}/events", json={
        "name": "Sera", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": n} for n in TWELVE[:3]], **body})
    problem = assert_problem(response, 422)
    assert error_fields(problem) == fields
    assert _events(client) == before


def test_ottocento_takes_up_to_8_boards_a_round(client: Any) -> None:
    pairs = [{"name": f"Coppia {i}", "players": [f"A{i}", f"B{i}"]} for i in range(4)]
    body = {"name": "Torneo", "variant": "ottocento", "format": "pairs",
            "deals": "duplicate", "entrants": pairs}
    assert client.post(f"{API}/events", json={**body, "boards_per_round": 8}).status_code \
        == 201
    problem = assert_problem(client.post(f"{API}/events",
                                         json={**body, "boards_per_round": 9}), 422)
    assert error_fields(problem) == {"boards_per_round": "invalid_boards_per_round"}


def test_free_seating_of_a_duplicate_round_is_checked_and_gets_the_boards(
        client: Any) -> None:
    evening = Duplicate(client, format="free")
    bad = client.post(f"{evening.url}/rounds", json={"tables": [
        ["Anna", "Bruno", "Carla"], ["Anna", "Dario", "Nessuno"]]}, headers=auth(evening.edit))
    problem = assert_problem(bad, 422)
    assert set(error_fields(problem)) >= {"tables[1].seats[2]"}
    assert client.get(evening.url, headers=auth(evening.read)).json["rounds"] == []
    good = client.post(f"{evening.url}/rounds", json={"tables": [
        ["Anna", "Bruno", "Carla"], ["Dario", "Elena", "Fabio"]]}, headers=auth(evening.edit))
    assert good.status_code == 201, good.json
    assert [t["boards"] for t in good.json["tables"]] == [[1, 2, 3], [2, 3, 1]]


def test_the_referee_knows_the_cards_of_a_tables_board(client: Any) -> None:
    """docs/events.md#the-referee-knows-the-cards: a table's record that disagrees with its
    board is a 422 naming the board, the player and the card (never who holds it), with the
    rules' problems at once; nothing is stored."""
    evening = Duplicate(client)
    table = evening.start()["tables"][0]
    number = table["boards"][0]
    dealt = board(number)
    record = board_record(number, 0)
    other = (dealt.dealer + 1) % 3
    stranger = next(c.code for c in dealt.hands[other] if c.is_plain and c.rank != "K")
    record["discard"] = [stranger, *record["discard"][1:]]
    refused = client.post(f"{API}/games/{table['game']}/hands", json=record,
                          headers=auth(table["tokens"]["edit"]))
    body = assert_problem(refused, 422)
    problem = next(e for e in body["errors"] if e["field"] == "discard[0]")
    assert problem["code"] == "not_dealt"
    assert f"board {number}" in problem["message"] and stranger in problem["message"]
    assert table["seats"][dealt.dealer] in problem["message"]  # the dealer, by name
    assert table["seats"][other] not in problem["message"]  # never the card's holder
    assert evening.game(table)["hands_played"] == 0
    # The board's dealer, not the rotation's: another dealer is named once, by the board.
    wrong = {**board_record(number, 0), "dealer": other}
    body = assert_problem(client.post(f"{API}/games/{table['game']}/hands", json=wrong,
                                      headers=auth(table["tokens"]["edit"])), 422)
    assert [e["field"] for e in body["errors"]].count("dealer") == 1
    evening.play(table)
    assert evening.game(table)["hands_played"] == 1


def test_a_boards_traveller_scores_every_table_across_the_room(client: Any) -> None:
    """docs/events.md#scoring-a-board, #shapes: the traveller lists each table's result on
    the board and each column's matchpoints (2 per result beaten, 1 per tie), as a percentage
    of the top; the room reads it once every table due to play the board has."""
    evening = Duplicate(client)
    tables = evening.start()["tables"]
    board_one = [t for t in tables if 1 in t["boards"]]
    assert len(board_one) == 4
    winners = [0, 1, 1, 2]
    for table, winner in zip(tables, winners, strict=True):
        for _ in range(3):
            evening.play(table, winner)
    read = client.get(f"{evening.url}/boards/1", headers=auth(evening.read))
    assert read.status_code == 200, read.json
    body = read.json
    assert body["board"] == 1 and body["top"] == 6 and len(body["results"]) == 4
    columns = [[r["columns"][str(c)] for r in body["results"]] for c in range(3)]
    for c, results in enumerate(columns):
        for row, own in zip(body["results"], results, strict=True):
            beaten = sum(1 for other in results if other < own)
            tied = sum(1 for other in results if other == own) - 1
            assert row["matchpoints"][str(c)] == 2 * beaten + tied
            assert row["percentage"][str(c)] == pytest.approx(
                100 * (2 * beaten + tied) / 6, abs=0.01)
        assert sum(r["matchpoints"][str(c)] for r in body["results"]) == 4 * 3
    assert {(r["round"], r["table"]) for r in body["results"]} == {
        (1, t["table"]) for t in board_one}


def test_the_room_reads_a_traveller_only_once_the_board_is_played_everywhere(
        client: Any) -> None:
    evening = Duplicate(client)
    tables = evening.start()["tables"]
    evening.play(tables[0])
    first = tables[0]["boards"][0]
    assert_problem(client.get(f"{evening.url}/boards/{first}", headers=auth(evening.read)), 404)
    organiser = client.get(f"{evening.url}/boards/{first}", headers=auth(evening.edit))
    assert organiser.status_code == 200 and len(organiser.json["results"]) == 1
    assert organiser.json["results"][0]["percentage"] == {"0": 50, "1": 50, "2": 50}
    assert_problem(client.get(f"{evening.url}/boards/99", headers=auth(evening.edit)), 404)


def test_a_duplicate_events_standings_rank_by_the_boards_average_percentage(
        client: Any) -> None:
    """docs/events.md#standings: a duplicate event ranks by the average percentage over the
    boards played, then the points; each row adds its boards and percentage and explains
    itself board by board. The percentages are the travellers'."""
    evening = Duplicate(client)
    tables = evening.start()["tables"]
    for table, winner in zip(tables, [0, 1, 1, 2], strict=True):
        for _ in range(3):
            evening.play(table, winner)
    rows = client.get(f"{evening.url}/standings", headers=auth(evening.read)).json["rows"]
    assert len(rows) == 12 and all(row["boards"] == 3 for row in rows)
    earned: dict[str, list[float]] = defaultdict(list)
    for number in (1, 2, 3):
        for result in client.get(f"{evening.url}/boards/{number}",
                                 headers=auth(evening.read)).json["results"]:
            for seat, name in enumerate(result["seats"]):
                earned[name].append(result["percentage"][str(seat)])
    for row in rows:
        assert row["percentage"] == pytest.approx(sum(earned[row["entrant"]]) / 3, abs=0.01)
        assert any("board" in line for line in row["explanation"])
    keys = [(row["percentage"], row["points"]) for row in rows]
    assert keys == sorted(keys, reverse=True)
    assert rows[0]["place"] == 1


# -- a whole evening of legal play, scored against sums made here ------------------------------


def _legal_record(variant_id: str, number: int, rng: random.Random) -> dict[str, Any]:
    """Board ``number`` as dealt, played out by a legal discard and random legal tricks."""
    variant = find_variant(variant_id)
    dealt = deal_board(variant, SEED, number)
    record, _discard = play_out(variant, dealt.hands, dealt.extra, dealt.dealer, rng)
    return record


def _rounded(value: Fraction) -> float:
    """A percentage as the service shows it: two decimals, half up."""
    shown = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP)
    return int(shown) if shown == shown.to_integral_value() else float(shown)


@pytest.mark.parametrize(("variant_id", "format", "entrants", "rounds", "boards"), [
    ("gatti-3", "individual", [{"name": n} for n in TWELVE], 2, 3),
    ("ottocento", "pairs", [{"name": f"Coppia {i}", "players": [f"A{i}", f"B{i}"]}
                            for i in range(10)], 5, 2),
], ids=["gatti-3-individual-of-12", "ottocento-mitchell-of-10-pairs"])
def test_every_board_of_every_round_played_legally_scores_as_the_sums_made_here(
        client: Any, variant_id: str, format: str, entrants: list[dict[str, Any]],
        rounds: int, boards: int) -> None:
    """docs/events.md#duplicate, end to end over HTTP: a 12-player ``gatti-3`` individual and a
    10-pair ``ottocento`` Mitchell (its five rounds: one line stays, the other moves up a
    table, every pair meets each pair of the other line once), every board of every round
    played at every table by a legal trick record of the board as dealt; each board's
    matchpoints (2 per result beaten in its column, 1 per tie), each traveller and each row
    of the standings checked against sums made here from the hands' own columns."""
    rng = random.Random(f"{variant_id}:{SEED}")
    created = client.post(f"{API}/events", json={
        "name": "Serata", "variant": variant_id, "format": format, "deals": "duplicate",
        "boards_per_round": boards, "rounds": rounds, "seed": SEED, "entrants": entrants})
    assert created.status_code == 201, created.json
    url, edit = f"{API}/events/{created.json['id']}", created.json["tokens"]["edit"]
    read = created.json["tokens"]["read"]
    #: board -> [(round, table, who each column credits, each column's points)]
    played: dict[int, list[tuple[int, int, list[str], list[int]]]] = defaultdict(list)
    lines: list[dict[int, tuple[str, str]]] = []  # pairs: round -> table -> (stays, moves)
    for number in range(1, rounds + 1):
        started = client.post(f"{url}/rounds", json={}, headers=auth(edit))
        assert started.status_code == 201, started.json
        assert started.json["byes"] == []
        own = list(range((number - 1) * boards + 1, number * boards + 1))
        listed = client.get(url, headers=auth(read)).json["rounds"][number - 1]["tables"]
        if format == "pairs":
            lines.append({t["table"]: (t["entrants"][0], t["entrants"][1]) for t in listed})
        for table, seen in zip(started.json["tables"], listed, strict=True):
            assert sorted(table["boards"]) == own  # every table plays the round's boards
            credited = seen["entrants"] if format == "pairs" else seen["seats"]
            for n, board_number in enumerate(table["boards"], start=1):
                hand = client.post(f"{API}/games/{table['game']}/hands",
                                   json=_legal_record(variant_id, board_number, rng),
                                   headers=auth(table["tokens"]["edit"]))
                assert hand.status_code == 201, hand.json
                assert (hand.json["number"], hand.json["board"]) == (n, board_number)
                columns = hand.json["result"]["columns"]
                played[board_number].append((
                    number, table["table"], credited,
                    [columns[str(c)] for c in range(len(columns))]))
    assert client.get(url, headers=auth(read)).json["status"] == "over"
    assert sorted(played) == list(range(1, rounds * boards + 1))

    if format == "pairs":
        # The Mitchell: the stayers keep their table, the movers go up one a round, and every
        # stayer meets every mover once.
        tables = sorted(lines[0])
        for before, after in itertools.pairwise(lines):
            for t in tables:
                assert after[t][0] == before[t][0]
                up = tables[(tables.index(t) + 1) % len(tables)]
                assert after[up][1] == before[t][1]
        meetings = [(stays, moves) for rnd in lines for stays, moves in rnd.values()]
        assert len(meetings) == len(set(meetings)) == len(tables) ** 2

    # The sums made here: each result against every other result of its board and column.
    matchpoints: dict[str, int] = defaultdict(int)
    points: dict[str, int] = defaultdict(int)
    percentages: dict[str, list[Fraction]] = defaultdict(list)
    expected: dict[tuple[int, int, int], list[int]] = {}  # (board, round, table) -> by column
    for board_number, results in played.items():
        top = 2 * (len(results) - 1)
        for round_, table, credited, columns in results:
            earned = []
            for c, own in enumerate(columns):
                mp = sum(2 if own > other[3][c] else 1 if own == other[3][c] else 0
                         for other in results if other[:2] != (round_, table))
                earned.append(mp)
                matchpoints[credited[c]] += mp
                points[credited[c]] += own
                percentages[credited[c]].append(Fraction(100 * mp, top))
            expected[(board_number, round_, table)] = earned
        traveller = client.get(f"{url}/boards/{board_number}", headers=auth(read)).json
        assert traveller["top"] == top
        assert len(traveller["results"]) == len(results)
        for row in traveller["results"]:
            mine = expected[(board_number, row["round"], row["table"])]
            assert row["matchpoints"] == {str(c): mp for c, mp in enumerate(mine)}
            assert row["percentage"] == {str(c): _rounded(Fraction(100 * mp, top))
                                         for c, mp in enumerate(mine)}

    rows = client.get(f"{url}/standings", headers=auth(read)).json["rows"]
    assert {row["entrant"] for row in rows} == {e["name"] for e in entrants}
    for row in rows:
        name = row["entrant"]
        assert row["boards"] == len(percentages[name]) == rounds * boards
        assert row["match_points"] == matchpoints[name]
        assert row["points"] == points[name]
        assert row["percentage"] == _rounded(sum(percentages[name], Fraction(0))
                                             / len(percentages[name]))
    keys = [(row["percentage"], row["points"]) for row in rows]
    assert keys == sorted(keys, reverse=True)
    assert [row["place"] for row in rows] == sorted(row["place"] for row in rows)


# -- boards_per_round: from 1 to what a game holds -------------------------------------------------


@pytest.mark.parametrize(("variant_id", "most"), [
    ("gatti-3", 3), ("gatti-classic-3", 3), ("gatti-4", 4), ("gatti-4-call", 4),
    ("gatti-classic-4", 4), ("gatti-2", 4), ("gatti-classic-2", 4), ("ottocento", 8),
    ("mitigatti-4", 8), ("mitigatti-3", 8)])
def test_boards_per_round_from_1_to_what_a_game_holds(client: Any, variant_id: str,
                                                      most: int) -> None:
    """docs/events.md#bad-input of "Duplicate": ``boards_per_round`` below 1 or more than a game
    can hold (a Gatti game's hands; 8 for Ottocento's and Mitigatti's games of no fixed
    length) is a 422 naming the field and the most, nothing stored; 1 and the most are
    taken."""
    body = {"name": "Sera", "variant": variant_id, "format": "individual",
            "deals": "duplicate", "entrants": [{"name": n} for n in TWELVE]}
    for good in (1, most):
        created = client.post(f"{API}/events", json={**body, "boards_per_round": good})
        assert created.status_code == 201, created.json
        assert created.json["boards_per_round"] == good
    before = _events(client)
    for bad in (0, most + 1):
        problem = assert_problem(client.post(f"{API}/events",
                                             json={**body, "boards_per_round": bad}), 422)
        assert error_fields(problem) == {"boards_per_round": "invalid_boards_per_round"}
        message = next(e["message"] for e in problem["errors"])
        assert f"from 1 to {most}" in message and variant_id in message
    assert _events(client) == before


# -- the printable standings add the travellers ----------------------------------------------------


def test_the_standings_pdf_adds_a_page_of_travellers_of_the_boards_played(
        client: Any) -> None:
    """docs/events.md#standings: the standings PDF of a duplicate event ranks by the average
    percentage over the boards and adds the travellers: a block per board every table due to
    play it has played, each table's result with who held each seat, the points, the
    matchpoints out of the top and the percentage, as ``GET /events/{id}/boards/{b}`` says."""
    evening = Duplicate(client, rounds=2)
    first = evening.start()["tables"]
    for table, winner in zip(first, [0, 1, 1, 2], strict=True):
        for _ in range(3):
            evening.play(table, winner)
    second = evening.start()["tables"]
    evening.play(second[0], 2)  # board 4 at table 1 only: boards 4 to 6 are not finished
    pages, text = _pdf_text(client.get(f"{evening.url}/standings.pdf",
                                       headers=auth(evening.read)))
    flat = " ".join(text.split())
    assert pages >= 2
    for word in ("Deals duplicate: the same boards at every table, 3 a round",
                 "Ranked by the average percentage over the boards played, then points",
                 "Place Entrant % Boards MP Diff. Points", "Travellers",
                 "Round Table Seat 1 Seat 2 Seat 3", "4 results compared"):
        assert word in flat, word
    assert flat.index("How each place was reached") < flat.index("Travellers")
    rows = client.get(f"{evening.url}/standings", headers=auth(evening.read)).json["rows"]
    for row in rows:
        assert f"{row['place']} {row['entrant']} {row['percentage']:g}% {row['boards']}" \
            in flat, row["entrant"]
    for number in (1, 2, 3):
        assert f"Board {number}" in flat
        traveller = client.get(f"{evening.url}/boards/{number}",
                               headers=auth(evening.read)).json
        for result in traveller["results"]:
            cells = [f"{result['seats'][c]} {result['columns'][str(c)]} · "
                     f"{result['matchpoints'][str(c)]}/{traveller['top']} MP · "
                     f"{result['percentage'][str(c)]:g}%" for c in range(3)]
            # The row: its round and table, then each seat's cell.
            assert f"{result['round']} {result['table']} {' '.join(cells)}" in flat, cells
    for number in (4, 5, 6):
        assert f"Board {number}" not in flat  # still due at some table
    _pages, italian = _pdf_text(client.get(f"{evening.url}/standings.pdf?lang=it",
                                           headers=auth(evening.edit)))
    flat = " ".join(italian.split())
    for word in ("Fogli viaggianti", "Smazzata 1", "Turno Tavolo Posto 1 Posto 2 Posto 3",
                 "PS", "Smazzate duplicato: le stesse smazzate a ogni tavolo, 3 per turno"):
        assert word in flat, word
    _pages, french = _pdf_text(client.get(f"{evening.url}/standings.pdf?lang=fr",
                                          headers=auth(evening.edit)))
    flat = " ".join(french.split())
    for word in ("Feuilles ambulantes", "Donne 1", "Tour Table Place 1 Place 2 Place 3",
                 "4 résultats comparés"):
        assert word in flat, word


def test_the_standings_pdf_writes_percentages_and_differences_as_the_language_does(
        client: Any) -> None:
    """Italian and French write a decimal comma ("58,33%"; French "58,33 %", a no-break
    space before the sign), in the places, the travellers and the explanations alike."""
    evening = Duplicate(client, rounds=1)
    for table, winner in zip(evening.start()["tables"], [0, 1, 1, 2], strict=True):
        for _ in range(3):
            evening.play(table, winner)
    rows = client.get(f"{evening.url}/standings", headers=auth(evening.read)).json["rows"]
    fractional = [row for row in rows if row["percentage"] != int(row["percentage"])]
    assert fractional, rows
    for lang, sign in (("it", "%"), ("fr", " %")):
        _pages, text = _pdf_text(client.get(f"{evening.url}/standings.pdf?lang={lang}",
                                            headers=auth(evening.read)))
        text = re.sub(r"[ \n\u00a0\u202f]+", " ", text)  # pypdf reads a no-break space as one
        for row in fractional:
            written = f"{row['percentage']:g}".replace(".", ",")
            assert f"{row['entrant']} {written}{sign}" in text, (lang, row)
            assert f"{row['percentage']:g}" not in text, (lang, row)
        assert not re.search(r"\d\.\d", text), (lang, re.findall(r".{20}\d\.\d.{10}", text))


def test_a_free_deal_event_s_standings_pdf_has_no_travellers(client: Any) -> None:
    created = client.post(f"{API}/events", json={
        "name": "Serata", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": n} for n in TWELVE[:3]]}).json
    _pages, text = _pdf_text(client.get(f"{API}/events/{created['id']}/standings.pdf",
                                        headers=auth(created["tokens"]["edit"])))
    assert "Travellers" not in text and "Boards" not in text


# -- what the wall and the organiser read: the boards finished, the boards owed --------------------


def test_the_standings_list_the_boards_finished_across_the_room_with_their_tops(
        client: Any) -> None:
    """docs/events.md#standings: the wall board shows the boards finished and their tops. The
    standings of a duplicate event list each board every table due to play it has played,
    with each column's top result (its points, matchpoints, percentage, and who made it),
    as the board's traveller says; a board still due somewhere is not listed."""
    evening = Duplicate(client)
    tables = evening.start()["tables"]

    def finished() -> list[dict[str, Any]]:
        body = client.get(f"{evening.url}/standings", headers=auth(evening.read)).json
        return list(body["boards_finished"])

    assert finished() == []
    evening.play(tables[0], 0)  # board 1 at table 1; tables 2, 3 and 4 still owe it
    assert finished() == []
    for table, winner in zip(tables, [0, 1, 1, 2], strict=True):
        while evening.game(table)["status"] != "finished":
            evening.play(table, winner)
    listed = finished()
    assert [b["board"] for b in listed] == [1, 2, 3]
    for board_listed in listed:
        traveller = client.get(f"{evening.url}/boards/{board_listed['board']}",
                               headers=auth(evening.read)).json
        assert board_listed["tables"] == len(traveller["results"]) == 4
        assert board_listed["top"] == traveller["top"] == 6
        assert [top["column"] for top in board_listed["tops"]] == [0, 1, 2]
        for top in board_listed["tops"]:
            c = str(top["column"])
            best = max(r["columns"][c] for r in traveller["results"])
            makers = [r for r in traveller["results"] if r["columns"][c] == best]
            assert top["points"] == best
            assert top["matchpoints"] == makers[0]["matchpoints"][c]
            assert top["percentage"] == makers[0]["percentage"][c]
            assert top["by"] == [{"round": r["round"], "table": r["table"],
                                  "entrants": [r["seats"][top["column"]]]} for r in makers]
    free = client.post(f"{API}/events", json={
        "name": "Serata", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": n} for n in TWELVE[:3]]}).json
    body = client.get(f"{API}/events/{free['id']}/standings",
                      headers=auth(free["tokens"]["read"])).json
    assert "boards_finished" not in body


def test_each_table_says_the_boards_it_still_owes(client: Any) -> None:
    """The organiser sees which boards each table of the round still owes: a table's boards
    after those it has played, none once its game ended or its round was closed."""
    evening = Duplicate(client, rounds=2)
    tables = evening.start()["tables"]

    def owed() -> list[list[int]]:
        rounds = client.get(evening.url, headers=auth(evening.edit)).json["rounds"]
        return [t["boards_owed"] for t in rounds[-1]["tables"]]

    assert owed() == [[1, 2, 3], [2, 3, 1], [3, 1, 2], [1, 2, 3]]
    evening.play(tables[1])
    assert owed() == [[1, 2, 3], [3, 1], [3, 1, 2], [1, 2, 3]]
    for _ in range(3):
        evening.play(tables[0])
    assert owed() == [[], [3, 1], [3, 1, 2], [1, 2, 3]]
    closed = client.post(f"{evening.url}/rounds/1/close", headers=auth(evening.edit))
    assert closed.status_code == 200, closed.json
    assert owed() == [[], [], [], []]
    evening.start()
    assert owed() == [[4, 5, 6], [5, 6, 4], [6, 4, 5], [4, 5, 6]]
