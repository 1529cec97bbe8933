"""Mitigatti's R19 through the API: T20 is never beaten, so it ends in the pile of the side
whose player held it. The stateless ``/score``, a game of free deals, a duplicate table (whose
board says who held T20) and an organiser's correction of a closed round refuse alike a record
that puts T20 in another side's pile or gives its side fewer points than T20 brings, with a
422 naming the card and the side and citing R19; nothing refused is stored. A hand recorded
and accepted before R19 came keeps reading with its result (the game, its sheet, its exports
and their import), saying the rules now would refuse it; its correction, and a new hand, are
held to R19."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from http_support import Table, assert_problem, auth
from legal_play import play_out
from pypdf import PdfReader
from test_http_club_links import started
from test_http_clubs import found_club

from service.domain import RULES_VERSION, deal_board, find_variant, parse_hand_record
from service.domain.core.errors import ProblemList
from service.domain.hand.records import read_hand_record
from service.domain.hand.replay import replay_if_played
from service.domain.options import resolve_options

API = "/api/v1"
V3 = find_variant("mitigatti-3")
SEED = 2029
PLAYERS = ("Anna", "Bruno", "Carla")
TEN_WITH_FOOL = ["FOOL", "T20", "T21", "T19", "T18", "T17", "T16", "T15", "T14", "T13"]


def by_points(dealer: int, points: tuple[int, int, int], **extra: Any) -> dict[str, Any]:
    return {"dealer": dealer, **extra,
            "piles": [{"side": s, "points": p} for s, p in enumerate(points)]}


#: Seat 0 shows T20 and the Fuole (ten tarocchi) and its pile is given 5 points.
SHORT = by_points(1, (5, 40, 33), discard=["2H", "3H", "4H"],
                  declarations=[{"seat": 0, "kind": "ten_tarocchi", "cards": TEN_WITH_FOOL}])


def r19_errors(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in body["errors"] if e.get("rule") == "R19"]


def played_piles(dealer: int, hands: Any, extra: Any, seed: int) -> dict[str, Any]:
    """A deal played out legally, given as its piles of every card."""
    record, discard = play_out(V3, hands, extra, dealer, random.Random(seed))
    read, _, _ = read_hand_record(V3, record)
    assert read is not None
    replayed, _ = replay_if_played(V3, resolve_options(V3, {}), read, frozenset(),
                                   ProblemList())
    return {"dealer": dealer, "discard": [c.code for c in discard],
            "piles": [p.to_json() for p in replayed.piles]}


def moved(record: dict[str, Any], to_side: int) -> dict[str, Any]:
    """``record`` with T20 put in ``to_side``'s pile, a card of no points back in exchange."""
    piles = [dict(p) for p in record["piles"]]
    source = next(p for p in piles if "T20" in p["cards"])
    target = next(p for p in piles if p["side"] == to_side)
    back = next(c for c in target["cards"] if c[0].isdigit() and c not in record["discard"])
    source["cards"] = [c for c in source["cards"] if c != "T20"] + [back]
    target["cards"] = [c for c in target["cards"] if c != back] + ["T20"]
    return {**record, "piles": piles}


def holder_of_honours() -> tuple[Any, int]:
    """A deal (a board of its own seed) where one seat holds the three honours, and that
    seat."""
    honours = {V3.pack.card(c) for c in ("FOOL", "T1", "T20")}
    for seed in range(500):
        board = deal_board(V3, f"free-{seed}", 1)
        for seat, held in enumerate(board.holdings()):
            if honours <= held and seat != board.dealer:
                return board, seat
    raise AssertionError("no deal with the honours in one hand")


# -- POST /score ------------------------------------------------------------------------------

def test_r19_score_refuses_t20_and_the_fuole_held_under_9_points(client: Any) -> None:
    body = assert_problem(client.post(f"{API}/score",
                                      json={"variant": "mitigatti-3", "hand": SHORT}), 422)
    assert [(e["field"], e["code"], e["rule"]) for e in body["errors"]] == [
        ("hand.piles[0].points", "points_below_cards", "R19")]
    message = body["errors"][0]["message"]
    assert "seat 0" in message and "9 in all" in message and "5 is too few" in message
    fair = by_points(1, (9, 40, 29), discard=SHORT["discard"],
                     declarations=SHORT["declarations"])
    answer = client.post(f"{API}/score", json={"variant": "mitigatti-3", "hand": fair})
    assert answer.status_code == 200, answer.json
    assert answer.json["columns"]["0"] == 9


@pytest.mark.parametrize(("language", "words"), [
    ("en", "is never beaten"), ("it", "non si batte mai"), ("fr", "n'est jamais battu")])
def test_r19_refusal_is_said_in_the_asked_language(client: Any, language: str,
                                                    words: str) -> None:
    body = assert_problem(client.post(f"{API}/score",
                                      json={"variant": "mitigatti-3", "hand": SHORT},
                                      headers={"Accept-Language": language}), 422)
    (error,) = r19_errors(body)
    assert words in error["message"], error["message"]


# -- a game of free deals ---------------------------------------------------------------------

def test_r19_a_free_game_refuses_t20_in_another_players_pile(client: Any) -> None:
    board, seat = holder_of_honours()
    table = Table(client, "mitigatti-3", PLAYERS)
    assert table.state()["next_dealer"] == board.dealer
    record = played_piles(board.dealer, board.hands, board.extra, 1)
    record["declarations"] = [{"seat": seat, "kind": "mitigatti"}]
    other = next(s for s in range(3) if s != seat)
    body = assert_problem(table.add(moved(record, other)), 422)
    (error,) = body["errors"]
    assert (error["field"], error["code"], error["rule"]) == (
        f"piles[{other}]", "kept_card_misplaced", "R19")
    assert f"{PLAYERS[other]}'s pile" in error["message"]
    short = by_points(board.dealer, (0, 0, 0), declarations=record["declarations"])
    short["piles"] = [{"side": s, "points": 8 if s == seat else 0} for s in range(3)]
    short["piles"][next(s for s in range(3) if s != seat)]["points"] = 70
    body = assert_problem(table.add(short), 422)
    assert [(e["field"], e["rule"]) for e in r19_errors(body)] == [
        (f"piles[{seat}].points", "R19")]
    assert table.state()["hands_played"] == 0
    added = table.add(record)
    assert added.status_code == 201, added.json
    # a correction of the game's own hand is refused alike
    etag = table.hand(1).headers["ETag"]
    refused = client.put(f"{table.url}/hands/1", json=moved(record, other),
                         headers={**auth(table.edit), "If-Match": etag})
    assert r19_errors(assert_problem(refused, 422))
    assert table.hand(1).json["version"] == 1


# -- a duplicate table, and the organiser's correction after the round is closed --------------

class Room:
    """A mitigatti-3 duplicate evening of one table, its first round started."""

    def __init__(self, client: Any) -> None:
        self.client = client
        created = client.post(f"{API}/events", json={
            "name": "Sera a Nizza", "variant": "mitigatti-3", "format": "individual",
            "deals": "duplicate", "seed": SEED, "entrants": [{"name": n} for n in PLAYERS]})
        assert created.status_code == 201, created.json
        self.edit = created.json["tokens"]["edit"]
        self.url = f"{API}/events/{created.json['id']}"
        started = client.post(f"{self.url}/rounds", json={}, headers=auth(self.edit))
        assert started.status_code == 201, started.json
        self.table = started.json["tables"][0]
        self.game = f"{API}/games/{self.table['game']}"
        self.token = self.table["tokens"]["edit"]
        self.board = deal_board(V3, SEED, self.table["boards"][0])
        self.record = played_piles(self.board.dealer, self.board.hands, self.board.extra, 2)

    def holder(self, code: str) -> int:
        seat = self.board.holder(V3.pack.card(code))
        assert seat is not None
        return seat

    def add(self, record: dict[str, Any]) -> Any:
        return self.client.post(f"{self.game}/hands", json=record, headers=auth(self.token))

    def hands_played(self) -> int:
        return int(self.client.get(self.game, headers=auth(self.token)).json["hands_played"])


def test_r19_a_duplicate_table_knows_who_held_t20_from_its_board(client: Any) -> None:
    """The record shows no holder; the board does. The refusal names the card and the side
    whose pile it was put in, never the seat the board dealt it to."""
    room = Room(client)
    holder = room.holder("T20")
    seats = room.table["seats"]
    for other in (s for s in range(3) if s != holder):
        body = assert_problem(room.add(moved(room.record, other)), 422)
        (error,) = body["errors"]
        assert (error["field"], error["code"], error["rule"]) == (
            f"piles[{other}]", "kept_card_misplaced", "R19")
        assert f"{seats[other]}'s pile" in error["message"]
        assert seats[holder] not in error["message"]
    # by points: T20 and its trick, the Fuole if the same seat held it, the discard for the
    # dealer: one point fewer is refused
    least = 5 + 4 * (room.holder("FOOL") == holder) + (
        1 + sum(V3.card_points(V3.pack.card(c)) for c in room.record["discard"])
        if holder == room.board.dealer else 0)
    points = [0, 0, 0]
    points[holder] = least - 1
    points[(holder + 1) % 3] = 78 - (least - 1)
    short = by_points(room.board.dealer, (points[0], points[1], points[2]),
                      discard=room.record["discard"])
    body = assert_problem(room.add(short), 422)
    assert [(e["field"], e["code"]) for e in r19_errors(body)] == [
        (f"piles[{holder}].points", "points_below_cards")]
    assert room.hands_played() == 0
    added = room.add(room.record)
    assert added.status_code == 201, added.json


def test_r19_an_organisers_correction_after_close_is_refused_alike(client: Any) -> None:
    room = Room(client)
    assert room.add(room.record).status_code == 201
    closed = client.post(f"{room.url}/rounds/1/close", json={"despite_disputes": True},
                         headers=auth(room.edit))
    assert closed.status_code == 200, closed.json
    etag = client.get(f"{room.game}/hands/1", headers=auth(room.token)).headers["ETag"]
    other = (room.holder("T20") + 1) % 3
    refused = client.put(f"{room.url}/rounds/1/tables/1/hands/1",
                         json=moved(room.record, other),
                         headers={**auth(room.edit), "If-Match": etag})
    (error,) = assert_problem(refused, 422)["errors"]
    assert (error["field"], error["code"], error["rule"]) == (
        f"piles[{other}]", "kept_card_misplaced", "R19")
    hand = client.get(f"{room.game}/hands/1", headers=auth(room.token)).json
    assert hand["version"] == 1
    again = client.put(f"{room.url}/rounds/1/tables/1/hands/1", json=room.record,
                       headers={**auth(room.edit), "If-Match": etag})
    assert again.status_code == 200, again.json


# -- a hand recorded before R19 came ----------------------------------------------------------

#: The rules version before R19: a hand recorded under it was never held to R19.
BEFORE_R19 = "2026.11.2"


def store_before_r19(client: Any, game_id: str, record: dict[str, Any]) -> None:
    """``record`` as the game's next hand, recorded under the rules before R19: put in the
    store as the upgrade leaves it."""
    repository = client.application.extensions["segnapunti.games"].repository
    game = repository.get_game(game_id)
    repository.add_hand(game_id, expected_game_version=game.version, number=len(game.hands) + 1,
                        record=parse_hand_record(V3, record).to_json(),
                        rules_version=BEFORE_R19, token_kind="edit", now=game.created_at)


def stored_before_r19(client: Any) -> Table:
    """A mitigatti-3 game of free deals whose hand 1 is ``SHORT`` (seat 0's ten tarocchi show
    T20 and the Fuole, its pile given 5 points), recorded under the rules before R19."""
    table = Table(client, "mitigatti-3", PLAYERS, first_dealer=SHORT["dealer"])
    store_before_r19(client, table.id, SHORT)
    return table


def pdf_text(data: bytes) -> str:
    return " ".join(" ".join(page.extract_text() or "" for page in
                             PdfReader(io.BytesIO(data)).pages).split())


@pytest.mark.parametrize(("language", "words"), [
    ("en", "recorded under the rules of 2026.11.2, before R19"),
    ("it", "registrata con le regole 2026.11.2, prima della R19"),
    ("fr", "enregistrée sous les règles 2026.11.2, avant la R19")])
def test_r19_a_hand_recorded_before_it_reads_with_its_result_and_says_so(
        client: Any, language: str, words: str) -> None:
    table = stored_before_r19(client)
    answer = client.get(table.url, headers={**auth(table.read), "Accept-Language": language})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    (hand,) = answer.json["hands"]
    assert hand["rules_version"] == BEFORE_R19
    # The result it was accepted with: seat 0's 5 points, and the settlement they make.
    assert hand["result"]["columns"]["0"] == 5
    assert hand["result"]["marca"] == {"0": 0, "1": 1, "2": -1}
    note = hand["result"]["earlier_rules"]
    assert words in note, note
    assert "5" in note and "9" in note
    assert answer.json["hands_played"] == 1
    one = client.get(f"{table.url}/hands/1",
                     headers={**auth(table.read), "Accept-Language": language})
    assert one.status_code == 200 and words in one.json["result"]["earlier_rules"]
    sheet = client.get(f"{table.url}/sheet.pdf?lang={language}", headers=auth(table.read))
    assert sheet.status_code == 200, sheet.get_data(as_text=True)
    assert words in pdf_text(sheet.data)


def test_r19_a_hand_recorded_before_it_exports_and_imports_whole(client: Any) -> None:
    table = stored_before_r19(client)
    csv = client.get(f"{table.url}.csv", headers=auth(table.read))
    assert csv.status_code == 200, csv.get_data(as_text=True)
    exported = client.get(f"{table.url}.json", headers=auth(table.read))
    assert exported.status_code == 200, exported.get_data(as_text=True)
    document = exported.json
    assert [h["rules_version"] for h in document["hands"]] == [BEFORE_R19]
    copied = client.post(f"{API}/games/import", json=document)
    assert copied.status_code == 201, copied.json
    (hand,) = copied.json["hands"]
    assert hand["rules_version"] == BEFORE_R19
    assert hand["result"]["marca"] == document["hands"][0]["result"]["marca"]
    assert "R19" in hand["result"]["earlier_rules"]
    # The same file claiming today's rules for the hand is refused for R19 alone.
    document["hands"][0]["rules_version"] = RULES_VERSION
    document["history"][0]["rules_version"] = RULES_VERSION
    refused = assert_problem(client.post(f"{API}/games/import", json=document), 422)
    assert [(e["field"], e["rule"]) for e in refused["errors"]] == [
        ("hands[0].record.piles[0].points", "R19")]


def test_r19_holds_a_correction_and_a_new_hand_of_a_game_recorded_before_it(
        client: Any) -> None:
    table = stored_before_r19(client)
    etag = table.hand(1).headers["ETag"]
    refused = client.put(f"{table.url}/hands/1", json=SHORT,
                         headers={**auth(table.edit), "If-Match": etag})
    assert [(e["field"], e["code"]) for e in r19_errors(assert_problem(refused, 422))] == [
        ("piles[0].points", "points_below_cards")]
    assert table.hand(1).json["version"] == 1
    following = by_points(2, (5, 40, 33), discard=SHORT["discard"],
                          declarations=SHORT["declarations"])
    assert r19_errors(assert_problem(table.add(following), 422))
    assert table.state()["hands_played"] == 1
    fair = by_points(2, (9, 40, 29), discard=SHORT["discard"],
                     declarations=SHORT["declarations"])
    added = table.add(fair)
    assert added.status_code == 201, added.json
    assert added.json["rules_version"] == RULES_VERSION
    assert "earlier_rules" not in added.json["result"]


def test_r19_a_club_evening_recorded_before_it_ends_and_counts_for_its_members(
        client: Any) -> None:
    club = found_club(client)
    evening = started(client, club, list(PLAYERS), variant="mitigatti-3")
    url, tokens = f"{API}/games/{evening['id']}", evening["tokens"]
    # The dealer's side holding T20 brings the discard too: 10 at least, 5 given.
    shown = by_points(0, (5, 40, 33), discard=SHORT["discard"],
                      declarations=SHORT["declarations"])
    store_before_r19(client, evening["id"], shown)
    ended = client.post(f"{url}/end", headers=auth(tokens["edit"]))
    assert ended.status_code == 200, ended.get_data(as_text=True)
    anna = evening["club"]["members"][0]
    body = client.get(f"{API}/clubs/{club['id']}/members/{anna}/stats",
                      headers=auth(club["tokens"]["read"]))
    assert body.status_code == 200, body.get_data(as_text=True)
    (mitigatti,) = body.json["families"]
    assert {d["key"]: d["value"] for d in mitigatti["declared"]["kinds"]}[
        "declared.ten_tarocchi"] == 1
