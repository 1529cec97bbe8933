"""A duplicate board keeps its secret until every table due to play it has played it (or its
round is closed): until then no answer to anyone but the organiser depends on its results.

Each evening is walked hand by hand next to shadow evenings of the same seed, roster and
movement, which differ from it only in the results at the boards still incomplete: in the
shadow of table ``w`` every other table records another result on a board until the board is
complete, and then corrects it to the evening's. After every hand (and after a round is
closed) every answer the room's read token can get is read in each evening, and every answer
table ``w``'s own tokens can get in the evening and in its shadow: the bytes (the PDFs' text)
must be the same, the events' ids, tokens and clocks aside. The organiser meanwhile sees
every result live, the boards still secret listed, with an entity tag of its own."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from http_support import auth
from legal_play import play_out
from pypdf import PdfReader

from service.domain import deal_board, find_variant


@pytest.fixture(scope="module")
def db_url(one_db_url: str) -> str:
    """What the room and a refusal say is decided above the database: one is enough
    (PostgreSQL where there is one, as in production)."""
    return one_db_url


API = "/api/v1"
SEED = 2026
#: Another result on a board than the evening's, for the shadows' tables.
OTHER = 10


@dataclass
class Evening:
    """One duplicate evening through the API: its tokens, and each round's tables (game,
    tokens, boards)."""

    client: Any
    body: dict[str, Any]
    tables: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    #: (round, table) -> the record each hand was last given.
    records: dict[tuple[int, int], list[dict[str, Any]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        created = self.client.post(f"{API}/events", json=self.body)
        assert created.status_code == 201, created.json
        self.id = created.json["id"]
        self.edit = created.json["tokens"]["edit"]
        self.read = created.json["tokens"]["read"]
        self.url = f"{API}/events/{self.id}"

    def start(self) -> int:
        started = self.client.post(f"{self.url}/rounds", json={}, headers=auth(self.edit))
        assert started.status_code == 201, started.json
        number = started.json["round"]
        for table in started.json["tables"]:
            self.tables[(number, table["table"])] = table
            self.records[(number, table["table"])] = []
        return number

    def record(self, where: tuple[int, int], record: dict[str, Any]) -> None:
        table = self.tables[where]
        hand = self.client.post(f"{API}/games/{table['game']}/hands", json=record,
                                headers=auth(table["tokens"]["edit"]))
        assert hand.status_code == 201, hand.json
        self.records[where].append(record)

    def correct(self, where: tuple[int, int], number: int, record: dict[str, Any]) -> None:
        """The table's own correction of its hand ``number`` (its scorekeeper's token)."""
        table = self.tables[where]
        url = f"{API}/games/{table['game']}/hands/{number}"
        token = auth(table["tokens"]["edit"])
        tag = self.client.get(url, headers=token).headers["ETag"]
        corrected = self.client.put(url, json=record, headers={**token, "If-Match": tag})
        assert corrected.status_code == 200, corrected.json
        self.records[where][number - 1] = record

    def close(self, number: int) -> None:
        closed = self.client.post(f"{self.url}/rounds/{number}/close", json={},
                                  headers=auth(self.edit))
        assert closed.status_code == 200, closed.json

    def _players(self, table: dict[str, Any]) -> list[str]:
        """The player links' tokens of a table's game."""
        players = self.client.get(f"{API}/games/{table['game']}/players",
                                  headers=auth(table["tokens"]["edit"]))
        assert players.status_code == 200, players.json
        return list(players.json["tokens"])

    def same_as(self, other: Evening) -> Callable[[str], str]:
        """What makes this evening's answers read as ``other``'s: its ids and tokens said as
        ``other``'s, and every clock reading alike."""
        pairs = [(self.id, other.id), (self.edit, other.edit), (self.read, other.read)]
        for where, table in self.tables.items():
            theirs = other.tables[where]
            pairs += [(table["game"], theirs["game"]),
                      (table["tokens"]["edit"], theirs["tokens"]["edit"]),
                      (table["tokens"]["read"], theirs["tokens"]["read"])]
            pairs += zip(self._players(table), other._players(theirs), strict=True)

        def said(text: str) -> str:
            for mine, theirs in pairs:
                text = text.replace(mine, theirs)
            return _clockless(text)

        return said


_CLOCKS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)?"
                     r"|\d\d/\d\d/\d{4}( \d\d:\d\d( [A-Z]+)?)?")
#: A hand's entity tag: its number and version, and a digest of its game's id.
_HAND_TAGS = re.compile(r"(h\d+v\d+)-[0-9a-f]+")


def _clockless(text: str) -> str:
    """An answer with its clock readings and its hands' digests of the game's id left out."""
    return _HAND_TAGS.sub(r"\1", _CLOCKS.sub("<when>", text))


def _pdf_text(response: Any) -> str:
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    reader = PdfReader(io.BytesIO(response.data))
    return "\n".join(page.extract_text() for page in reader.pages)


def _said(response: Any) -> str:
    """An answer as bytes to compare: its status and body (a PDF's text)."""
    if response.mimetype == "application/pdf":
        return f"{response.status_code}\n{_pdf_text(response)}"
    return f"{response.status_code}\n{response.get_data(as_text=True)}"


def room_readings(evening: Evening, boards: int) -> dict[str, str]:
    """Every answer the room's read token can get of the event: the event (what the wall
    board reads), its standings (their explanations in English and Italian), its exports,
    the standings PDF, the boards' deals, and every board's traveller."""
    client, token = evening.client, auth(evening.read)
    paths = ["", "/standings", ".json", ".csv", "/standings.pdf", "/history", "/boards",
             *(f"/boards/{b}" for b in range(1, boards + 1))]
    out = {path: _said(client.get(f"{evening.url}{path}", headers=token)) for path in paths}
    out["/standings (it)"] = _said(client.get(f"{evening.url}/standings",
                                              headers={**token, "Accept-Language": "it"}))
    return out


def table_readings(evening: Evening, where: tuple[int, int]) -> dict[str, str]:
    """Every answer a table's own tokens can get: its scorekeeper's and its read link's,
    the game, each hand, its history, its sheet (the same to both: read once), its exports
    (and its players' links, to its scorekeeper); a player's link, the game and its export.
    The event is another resource, which none of them opens (404)."""
    client, table = evening.client, evening.tables[where]
    game = f"{API}/games/{table['game']}"
    out = {}
    tokens = {**table["tokens"], "player": evening._players(table)[0]}
    for kind, secret in tokens.items():
        token = auth(secret)
        hands = client.get(game, headers=token).json["hands_played"]
        paths = ["", ".json"] if kind == "player" else [
            "", "/history", ".json", ".csv", *(f"/hands/{n}" for n in range(1, hands + 1)),
            *(["/players", "/sheet.pdf"] if kind == "edit" else [])]
        out |= {f"{kind} {path}": _said(client.get(f"{game}{path}", headers=token))
                for path in paths}
        for path in ("", "/standings", "/boards", "/boards/1", ".json"):
            refused = client.get(f"{evening.url}{path}", headers=token)
            assert refused.status_code == 404, (kind, path, refused.status_code)
    return out


def _result(client: Any, variant: str, record: dict[str, Any]) -> tuple[object, ...]:
    scored = client.post(f"{API}/score", json={"variant": variant, "hand": record})
    assert scored.status_code == 200, scored.json
    return scored.json["columns"], scored.json.get("marca")


class Records:
    """Legal records of each board as dealt: the evening's at table ``t`` and another result
    for the shadows (its columns, or Mitigatti's marca, not the evening's)."""

    def __init__(self, client: Any, variant: str) -> None:
        self.client, self.variant = client, variant
        self.found: dict[tuple[int, int], dict[str, Any]] = {}

    def _play(self, board: int, k: int) -> dict[str, Any]:
        if (board, k) not in self.found:
            variant = find_variant(self.variant)
            dealt = deal_board(variant, SEED, board)
            self.found[(board, k)] = play_out(variant, dealt.hands, dealt.extra, dealt.dealer,
                                              random.Random(f"{self.variant}:{board}:{k}"))[0]
        return self.found[(board, k)]

    def evening(self, board: int, table: int) -> dict[str, Any]:
        return self._play(board, table)

    def other(self, board: int, table: int) -> dict[str, Any]:
        own = _result(self.client, self.variant, self.evening(board, table))
        k = table + OTHER
        while _result(self.client, self.variant, self._play(board, k)) == own:
            k += 1
        return self._play(board, k)


@dataclass(frozen=True)
class Walk:
    """An evening to walk: its event, and each round's steps — a table recording its next
    board, or ``"close"`` (the organiser closes the round)."""

    body: dict[str, Any]
    rounds: tuple[tuple[int | str, ...], ...]
    boards: int


def _event(variant: str, format: str, entrants: list[dict[str, Any]], **more: Any
           ) -> dict[str, Any]:
    return {"name": "Serata duplicata", "variant": variant, "format": format,
            "deals": "duplicate", "seed": SEED, "entrants": entrants, **more}


SIX = [{"name": n} for n in ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")]
WALKS = {
    # Table 1 plays boards 1, 2, 3 and table 2 boards 2, 3, 1: table 1's first hand is board
    # 1, which table 2 plays last.
    "gatti-3-individual": Walk(_event("gatti-3", "individual", SIX, rounds=1),
                               ((1, 2, 2, 1, 1, 2),), 3),
    # The second round is closed before its tables finish: its boards count as they stand.
    "ottocento-pairs": Walk(_event("ottocento", "pairs", [
        {"name": f"Coppia {i}", "players": [f"A{i}", f"B{i}"]} for i in range(4)],
        rounds=2, boards_per_round=2), ((1, 2, 2, 1), (2, "close")), 4),
    "mitigatti-3-individual": Walk(_event("mitigatti-3", "individual", SIX, rounds=1,
                                          boards_per_round=2), ((2, 1, 1, 2),), 2),
}


def _secret(evening: Evening, closed: set[int]) -> list[int]:
    """The boards of the rounds started that a table of an open round has still to play,
    as the test works them out from what each table has played."""
    owed = set()
    for (number, t), table in evening.tables.items():
        if number not in closed:
            owed.update(table["boards"][len(evening.records[(number, t)]):])
    return sorted(owed)


@pytest.mark.parametrize("name", list(WALKS))
def test_no_answer_but_the_organiser_s_depends_on_a_board_not_yet_played_everywhere(
        client: Any, name: str) -> None:
    """Hand by hand (see the module): the room's answers read the same bytes as in every
    shadow evening, each table's own answers as in its shadow; the organiser's list the
    boards still secret and count every result live; the room's tag is new when a board
    becomes complete, and never the organiser's while their answers differ."""
    walk = WALKS[name]
    variant = walk.body["variant"]
    records = Records(client, variant)
    evening = Evening(client, walk.body)
    shadow_tables = {t for steps in walk.rounds for t in steps if t != "close"}
    shadows = {w: Evening(client, walk.body) for w in sorted(shadow_tables)}
    closed: set[int] = set()
    last_room_tag = None
    for steps in walk.rounds:
        number = evening.start()
        for shadow in shadows.values():
            assert shadow.start() == number
            assert ({w: t["boards"] for w, t in shadow.tables.items()}
                    == {w: t["boards"] for w, t in evening.tables.items()})
        for step in steps:
            if step == "close":
                # Before the round closes, the shadows' secret results become the evening's.
                for shadow in shadows.values():
                    for where, done in shadow.records.items():
                        for n, record in enumerate(done, start=1):
                            wanted = evening.records[where][n - 1]
                            if record != wanted:
                                shadow.correct(where, n, wanted)
                evening.close(number)
                for shadow in shadows.values():
                    shadow.close(number)
                closed.add(number)
            else:
                where = (number, int(step))
                board = evening.tables[where]["boards"][len(evening.records[where])]
                evening.record(where, records.evening(board, int(step)))
                complete = board not in _secret(evening, closed)
                for w, shadow in shadows.items():
                    if complete:  # the board is no secret now: the evening's results, given
                        # before the hand that completes it (which may end the round)
                        for other, table in shadow.tables.items():
                            if board in table["boards"][:len(shadow.records[other])]:
                                n = table["boards"].index(board) + 1
                                wanted = evening.records[other][n - 1]
                                if shadow.records[other][n - 1] != wanted:
                                    shadow.correct(other, n, wanted)
                    if w == step or complete:
                        shadow.record(where, records.evening(board, int(step)))
                    else:
                        shadow.record(where, records.other(board, int(step)))

            # The room reads the same in every evening; each table the same as in its shadow.
            room = room_readings(evening, walk.boards)
            for w, shadow in shadows.items():
                said = shadow.same_as(evening)
                theirs = {path: said(text) for path, text in
                          room_readings(shadow, walk.boards).items()}
                mine = {path: _clockless(text) for path, text in room.items()}
                for path, text in mine.items():
                    assert theirs[path] == text, (name, step, w, path)
                where = (number, w)
                assert ({path: said(text) for path, text in
                         table_readings(shadow, where).items()}
                        == {path: _clockless(text) for path, text in
                            table_readings(evening, where).items()}), (name, step, w)

            # The organiser sees every result live, and which boards are still secret.
            secret = _secret(evening, closed)
            organiser = client.get(evening.url, headers=auth(evening.edit))
            read = client.get(evening.url, headers=auth(evening.read))
            assert organiser.json["boards_secret"] == read.json["boards_secret"] == secret
            for r in organiser.json["rounds"]:
                for table in r["tables"]:
                    tokens = evening.tables[(r["round"], table["table"])]["tokens"]
                    game = client.get(f"{API}/games/{table['game']}",
                                      headers=auth(tokens["read"])).json
                    assert table["totals"] == game["totals"]
            live = client.get(f"{evening.url}/standings", headers=auth(evening.edit)).json
            played = sum(len(done) for done in evening.records.values())
            assert sum(row["boards"] for row in live["rows"]) == played * (
                3 if variant != "ottocento" else 2)
            # Their answers have tags of their own, the room's new when a board is complete.
            if organiser.data != read.data:
                assert organiser.headers["ETag"] != read.headers["ETag"]
                again = client.get(evening.url, headers={
                    **auth(evening.read), "If-None-Match": organiser.headers["ETag"]})
                assert again.status_code == 200 and again.data == read.data
            if read.json["boards_complete"] != (last_room_tag or (None, []))[1]:
                assert read.headers["ETag"] != (last_room_tag or ("", None))[0]
            last_room_tag = (read.headers["ETag"], read.json["boards_complete"])
    assert client.get(evening.url, headers=auth(evening.read)).json["boards_secret"] == []


def test_table_1_s_first_board_is_not_in_the_room_s_answers_until_table_2_plays_it(
        client: Any) -> None:
    """Six players of ``gatti-3``, seed 2026: table 1 plays boards 1, 2, 3 and table 2
    boards 2, 3, 1. Table 1 records board 1: the organiser's standings count it, the room's
    say nothing of it (no board played, totals 0), nor its PDF, nor its exports."""
    records = Records(client, "gatti-3")
    evening = Evening(client, WALKS["gatti-3-individual"].body)
    evening.start()
    assert evening.tables[(1, 1)]["boards"] == [1, 2, 3]
    assert evening.tables[(1, 2)]["boards"] == [2, 3, 1]
    evening.record((1, 1), records.evening(1, 1))
    live = client.get(f"{evening.url}/standings", headers=auth(evening.edit)).json
    assert any("board 1 (round 1, table 1)" in line
               for row in live["rows"] for line in row["explanation"])
    room = client.get(f"{evening.url}/standings", headers=auth(evening.read)).json
    assert all(row["boards"] == 0 and row["points"] == 0 for row in room["rows"])
    assert not any("board 1" in line for row in room["rows"] for line in row["explanation"])
    tables = client.get(evening.url, headers=auth(evening.read)).json["rounds"][0]["tables"]
    assert [set(t["totals"].values()) for t in tables] == [{0}, {0}]
    assert [t["hands_played"] for t in tables] == [1, 0]  # progress is no secret
    text = _pdf_text(client.get(f"{evening.url}/standings.pdf", headers=auth(evening.read)))
    assert "board 1 (round 1, table 1)" not in text.replace("\n", " ")
    csv = client.get(f"{evening.url}.csv", headers=auth(evening.read)).get_data(as_text=True)
    assert set(csv.splitlines()[1].split(",")[3:6]) == {"0"}
    organiser = client.get(evening.url, headers=auth(evening.edit)).json
    assert organiser["boards_secret"] == [1, 2, 3] and organiser["boards_complete"] == []


def test_the_room_s_answers_have_entity_tags_of_their_own_new_when_a_board_is_complete(
        client: Any) -> None:
    """While a board is secret the organiser's event and standings differ from the room's:
    the room's tag is not the organiser's (nor answered 304 to it), and it changes when the
    board becomes complete."""
    records = Records(client, "gatti-3")
    evening = Evening(client, WALKS["gatti-3-individual"].body)
    evening.start()
    evening.record((1, 1), records.evening(1, 1))
    for path in ("", "/standings"):
        url = f"{evening.url}{path}"
        organiser = client.get(url, headers=auth(evening.edit))
        room = client.get(url, headers=auth(evening.read))
        assert organiser.data != room.data
        assert organiser.headers["ETag"] != room.headers["ETag"]
        again = client.get(url, headers={**auth(evening.read),
                                          "If-None-Match": organiser.headers["ETag"]})
        assert again.status_code == 200 and again.data == room.data
        # The organiser's own tag, sent first, is not the room's body either.
        mine = client.get(url, headers={**auth(evening.edit),
                                        "If-None-Match": room.headers["ETag"]})
        assert mine.status_code == 200 and mine.data == organiser.data
    before = client.get(evening.url, headers=auth(evening.read)).headers["ETag"]
    evening.record((1, 2), records.evening(2, 2))
    evening.record((1, 2), records.evening(3, 2))
    evening.record((1, 2), records.evening(1, 2))  # board 1 is complete
    after = client.get(evening.url, headers=auth(evening.read))
    assert after.json["boards_complete"] == [1]
    assert after.headers["ETag"] != before
    assert client.get(evening.url, headers={**auth(evening.read),
                                            "If-None-Match": before}).status_code == 200
