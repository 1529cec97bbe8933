"""One field across many clubs (docs/events.md#one-field-across-many-clubs): a duplicate event
hosts a field and its join key opens it to other clubs' events, each a section playing the
host's boards; the field's standings and travellers compare every section's results, a
board's secret holds across every section, and a section that leaves takes nothing from the
others."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from http_support import assert_problem, auth, error_fields
from test_http_admin import ADMIN, _app
from test_http_duplicate import SEED, board_record
from test_http_events import Evening

API = "/api/v1"


def _body(name: str, players: tuple[str, ...] = ("Anna", "Bruno", "Carla"),
          **more: Any) -> dict[str, Any]:
    return {"name": name, "variant": "gatti-3", "format": "individual",
            "entrants": [{"name": n} for n in players], **more}


class Section(Evening):
    """An event of the field (the host, or a section) seen from its organiser's phone."""

    def __init__(self, client: Any, body: dict[str, Any]) -> None:
        super().__init__(client, **body)
        self.tables: list[dict[str, Any]] = []

    @property
    def key(self) -> str:
        return str(self.created.json["tokens"]["field"])

    def start(self) -> list[dict[str, Any]]:
        started = self.client.post(f"{self.url}/rounds", json={}, headers=auth(self.edit))
        assert started.status_code == 201, started.json
        self.tables = started.json["tables"]
        return self.tables

    def play(self, table: int = 0, winner: int = 0) -> int:
        """The table's next board, recorded with its own token; the board's number."""
        found = self.tables[table]
        game = self.client.get(f"{API}/games/{found['game']}",
                               headers=auth(found["tokens"]["edit"])).json
        number: int = found["boards"][game["hands_played"]]
        hand = self.client.post(f"{API}/games/{found['game']}/hands",
                                json=board_record(number, winner),
                                headers=auth(found["tokens"]["edit"]))
        assert hand.status_code == 201, hand.json
        return number

    def field(self, token: str | None = None) -> Any:
        return self.client.get(f"{self.url}/field",
                               headers=auth(token) if token else {})


def _host(client: Any, **more: Any) -> Section:
    return Section(client, _body("Simultaneo, Circolo Bologna", deals="duplicate", seed=SEED,
                                 rounds=1, field=True, **more))


def _join(client: Any, host: Section, name: str = "Circolo Modena",
          players: tuple[str, ...] = ("Dora", "Ezio", "Fede"), **more: Any) -> Section:
    return Section(client, _body(name, players, **{"rounds": 1, **more,
                                                   "field": {"join": host.id,
                                                             "key": host.key}}))


def _count(client: Any) -> int:
    """How many events the store holds (a refused creation makes none)."""
    from service.persistence.base import tables

    (events,) = tables("events")
    store = client.application.extensions["segnapunti.events"].repository
    with store.connections.connect() as connection:
        return len(connection.execute(events.select()).all())


def test_hosting_a_field_gives_its_join_key_to_the_edit_token_only(client: Any) -> None:
    host = _host(client)
    key = host.key
    assert key and key not in (host.edit, host.read)
    assert host.created.json["field"] == {"host": host.id, "hosts": True}
    links = client.get(f"{host.url}/links", headers=auth(host.edit))
    assert links.status_code == 200 and links.json["tokens"]["field"] == key
    assert_problem(client.get(f"{host.url}/links", headers=auth(host.read)), 403)
    room = client.get(host.url, headers=auth(host.read))
    assert key not in room.get_data(as_text=True)
    plain = Section(client, _body("Serata", deals="duplicate"))
    assert "field" not in plain.created.json["tokens"]
    assert plain.created.json["field"] is None
    assert "field" not in client.get(f"{plain.url}/links", headers=auth(plain.edit)).json[
        "tokens"]


def test_only_a_duplicate_event_hosts_a_field_and_nothing_is_stored(client: Any) -> None:
    before = _count(client)
    refused = assert_problem(client.post(f"{API}/events", json=_body("Serata", field=True)),
                             422)
    assert error_fields(refused) == {"field": "field_not_duplicate"}
    shaped = assert_problem(client.post(f"{API}/events", json=_body(
        "Serata", deals="duplicate", field="yes")), 422)
    assert error_fields(shaped) == {"field": "invalid_field"}
    assert _count(client) == before


def test_a_section_plays_the_host_s_boards_with_its_own_roster_and_tokens(client: Any) -> None:
    host = _host(client, boards_per_round=2)
    section = _join(client, host, players=("Dora", "Ezio", "Fede", "Gino", "Ines", "Lia"),
                    rounds=2)
    made = section.created.json
    assert (made["variant"], made["deals"], made["boards_per_round"]) == (
        "gatti-3", "duplicate", 2)
    assert made["field"] == {"host": host.id, "hosts": False}
    assert "field" not in made["tokens"]  # a section hands out no key of its own
    assert made["rounds_planned"] == 2 and len(made["entrants"]) == 6
    assert {section.edit, section.read}.isdisjoint({host.edit, host.read})
    theirs = client.get(f"{host.url}/boards", headers=auth(host.edit)).json["boards"]
    mine = client.get(f"{section.url}/boards", headers=auth(section.edit)).json["boards"]
    assert mine[:len(theirs)] == theirs  # the same deals, board by board
    assert len(section.start()) == 2  # its own movement: two tables of three


def test_a_wrong_key_learns_nothing_of_the_host(client: Any) -> None:
    """A wrong key, a host that does not exist, an event that hosts no field, a section
    joined instead of its host: one refusal, worded alike, nothing stored."""
    host = _host(client)
    section = _join(client, host)
    plain = Section(client, _body("Serata", deals="duplicate"))
    before = _count(client)
    said = []
    for join, key in ((host.id, "not-the-key"), ("ZZZZZZZZZZ", host.key),
                      (plain.id, host.key), (section.id, host.key), (host.id, host.edit)):
        refused = assert_problem(client.post(f"{API}/events", json=_body(
            "Intrusi", ("Dora", "Ezio", "Fede"), field={"join": join, "key": key})), 422)
        assert error_fields(refused) == {"field.key": "field_key_wrong"}
        said.append(refused["errors"][0]["message"].replace(join, "ID"))
    assert len(set(said)) == 1
    assert _count(client) == before


def test_a_join_that_contradicts_the_host_is_refused_naming_each_field(client: Any) -> None:
    host = _host(client)
    before = _count(client)
    refused = assert_problem(client.post(f"{API}/events", json=_body(
        "Modena", deals="free", boards_per_round=1, seed=SEED + 1,
        field={"join": host.id, "key": host.key})), 422)
    assert error_fields(refused) == {
        "deals": "field_deals", "boards_per_round": "field_contradicts_host",
        "seed": "field_contradicts_host"}
    other = assert_problem(client.post(f"{API}/events", json={
        **_body("Modena"), "variant": "gatti-4", "entrants": [
            {"name": n} for n in ("Dora", "Ezio", "Fede", "Gino")],
        "field": {"join": host.id, "key": host.key}}), 422)
    assert error_fields(other)["variant"] == "field_contradicts_host"
    assert _count(client) == before
    # The host's own values, given again, are no contradiction.
    agreed = _join(client, host, deals="duplicate", boards_per_round=3, seed=SEED)
    assert agreed.created.json["boards_per_round"] == 3


def test_the_field_standings_compare_every_result_across_the_sections(client: Any) -> None:
    host = _host(client)
    section = _join(client, host)
    host.start()
    section.start()
    for _ in range(3):
        host.play(winner=0)
        section.play(winner=1)
    field = host.field(host.read)
    assert field.status_code == 200, field.json
    body = field.json
    assert [s["event"] for s in body["sections"]] == [host.id, section.id]
    assert body["sections"][0]["host"] and not body["sections"][1]["host"]
    assert body["sections"][1]["name"] == "Circolo Modena"
    assert body["sections"][1]["tables"] == 1 and body["sections"][1]["status"] == "over"
    assert body["boards_complete"] == [1, 2, 3]
    assert len(body["rows"]) == 6
    assert {r["section"] for r in body["rows"]} == {host.id, section.id}
    by_name = {r["entrant"]: r for r in body["rows"]}
    assert by_name["Dora"]["section_name"] == "Circolo Modena"
    # Each board: two results a column, one per section, compared: not the 50 % of a
    # board played at one table that each section's own standings give everyone.
    assert all(r["boards"] == 3 for r in body["rows"])
    assert by_name["Anna"]["percentage"] + by_name["Dora"]["percentage"] == 100
    own = client.get(f"{section.url}/standings", headers=auth(section.read)).json
    assert {r["percentage"] for r in own["rows"]} == {50}
    assert {r["percentage"] for r in body["rows"]} != {50}
    traveller = client.get(f"{section.url}/field/boards/1", headers=auth(section.edit))
    assert traveller.status_code == 200, traveller.json
    assert traveller.json["top"] == 2
    assert {r["section"] for r in traveller.json["results"]} == {host.id, section.id}
    assert {r["section_name"] for r in traveller.json["results"]} == {
        "Simultaneo, Circolo Bologna", "Circolo Modena"}


def test_a_board_keeps_its_secret_until_every_section_has_played_it(client: Any) -> None:
    host = _host(client)
    section = _join(client, host)
    host.start()
    section.start()
    first = host.play()
    assert first == 1
    # The host's only table has played board 1; the section's has not: nobody but the
    # host's organiser reads anything of it.
    assert_problem(client.get(f"{host.url}/boards/1", headers=auth(host.read)), 404)
    assert client.get(f"{host.url}/boards/1", headers=auth(host.edit)).status_code == 200
    room = client.get(host.url, headers=auth(host.read)).json
    assert room["boards_complete"] == [] and 1 in room["boards_secret"]
    assert room["rounds"][0]["tables"][0]["totals"] == {"0": 0, "1": 0, "2": 0}
    standings = client.get(f"{host.url}/standings", headers=auth(host.read)).json
    assert all(r["boards"] == 0 for r in standings["rows"])
    assert client.get(f"{host.url}/standings", headers=auth(host.edit)).json[
        "rows"][0]["boards"] == 1
    assert client.patch(host.url, json={"public": True},
                        headers=auth(host.edit)).status_code == 200
    public = client.get(f"{API}/public/events/{host.id}").json
    assert public["boards"] == []
    field = host.field(host.edit).json
    assert field["boards_complete"] == [] and all(r["boards"] == 0 for r in field["rows"])
    assert_problem(client.get(f"{host.url}/field/boards/1", headers=auth(host.edit)), 404)
    # The section's organiser sees their own section live, and nothing of the host's.
    mine = client.get(f"{section.url}/standings", headers=auth(section.edit)).json
    assert all(r["boards"] == 0 for r in mine["rows"])
    section.play()
    assert client.get(f"{host.url}/boards/1", headers=auth(host.read)).status_code == 200
    assert client.get(host.url, headers=auth(host.read)).json["boards_complete"] == [1]
    assert host.field().json["boards_complete"] == [1]  # published: no token needed


def test_a_section_between_rounds_still_owes_the_boards_of_its_rounds_to_come(
        client: Any) -> None:
    host = Section(client, _body("Simultaneo", deals="duplicate", seed=SEED, rounds=2,
                                 boards_per_round=1, field=True))
    section = _join(client, host, rounds=2)
    host.start()
    section.start()
    host.play()
    section.play()  # board 1 everywhere; round 1 ends at both
    host.start()
    assert host.play() == 2
    # The section has started and plans a second round: board 2 is still its to play.
    assert_problem(client.get(f"{host.url}/boards/2", headers=auth(host.read)), 404)
    assert client.get(f"{host.url}/boards/1", headers=auth(host.read)).status_code == 200
    section.start()
    section.play()
    assert client.get(f"{host.url}/boards/2", headers=auth(host.read)).status_code == 200


def test_a_section_that_never_starts_holds_nothing_back(client: Any) -> None:
    host = _host(client)
    _join(client, host)
    host.start()
    host.play()
    assert client.get(f"{host.url}/boards/1", headers=auth(host.read)).status_code == 200
    field = host.field(host.read).json
    assert field["boards_complete"] == [1]
    assert {r["section"] for r in field["rows"] if r["boards"]} == {host.id}


@pytest.fixture()
def admin(migrated_url: str) -> Iterator[Any]:
    for application in _app(migrated_url):
        yield application.test_client()


def test_a_section_that_leaves_takes_nothing_from_the_others(admin: Any) -> None:
    host = _host(admin)
    section = _join(admin, host)
    host.start()
    section.start()
    host.play()
    assert_problem(admin.get(f"{host.url}/boards/1", headers=auth(host.read)), 404)
    deleted = admin.delete(f"{API}/admin/events/{section.id}",
                           query_string={"confirm": section.id}, headers=auth(ADMIN))
    assert deleted.status_code == 200, deleted.json
    assert admin.get(f"{host.url}/boards/1", headers=auth(host.read)).status_code == 200
    field = host.field(host.read).json
    assert [s["event"] for s in field["sections"]] == [host.id]
    assert len(field["rows"]) == 3 and field["boards_complete"] == [1]


def test_the_join_key_follows_a_renewal_of_the_host_s_tokens(admin: Any) -> None:
    host = _host(admin)
    renewed = admin.post(f"{API}/admin/events/{host.id}/tokens", headers=auth(ADMIN))
    assert renewed.status_code == 200, renewed.json
    edit = renewed.json["tokens"]["edit"]
    key = admin.get(f"{host.url}/links", headers=auth(edit)).json["tokens"]["field"]
    assert key != host.key
    refused = assert_problem(admin.post(f"{API}/events", json=_body(
        "Modena", field={"join": host.id, "key": host.key})), 422)
    assert error_fields(refused) == {"field.key": "field_key_wrong"}
    joined = admin.post(f"{API}/events", json=_body(
        "Modena", field={"join": host.id, "key": key}))
    assert joined.status_code == 201, joined.json
    assert joined.json["field"]["host"] == host.id


def test_the_field_is_read_with_any_section_s_token_or_once_the_host_publishes(
        client: Any) -> None:
    host = _host(client)
    section = _join(client, host)
    for token in (host.edit, host.read):
        assert host.field(token).status_code == 200
    for token in (section.edit, section.read):
        assert section.field(token).status_code == 200
    assert_problem(host.field(), 401)
    assert_problem(section.field(), 401)
    assert_problem(host.field(section.read), 404)  # a section's token opens its own id
    plain = Section(client, _body("Serata", deals="duplicate"))
    assert_problem(plain.field(plain.edit), 404)
    assert client.patch(host.url, json={"public": True},
                        headers=auth(host.edit)).status_code == 200
    assert host.field().status_code == 200
    assert section.field().status_code == 200
    assert host.field().json["public"] is True
    # A section publishing its own event does not publish the field.
    client.patch(host.url, json={"public": False}, headers=auth(host.edit))
    client.patch(section.url, json={"public": True}, headers=auth(section.edit))
    assert_problem(section.field(), 401)


def test_a_wall_reads_the_field_s_brief_rows_with_a_tag_of_their_own(client: Any) -> None:
    """``rows=brief``: each row's place, section, entrant and totals, without its results and
    explanation; the same places and figures as the full rows, under a tag of its own that
    moves with them."""
    host = _host(client)
    section = _join(client, host)
    host.start()
    section.start()
    host.play(winner=0)
    section.play(winner=1)
    full = host.field(host.read)
    brief = client.get(f"{host.url}/field?rows=brief", headers=auth(host.read))
    assert brief.status_code == 200, brief.json
    assert brief.headers["ETag"] != full.headers["ETag"]
    kept = ("place", "section", "section_name", "entrant", "number", "boards", "percentage",
            "match_points", "difference", "points")
    assert [{k: r[k] for k in kept} for r in full.json["rows"]] == [
        {k: r[k] for k in kept} for r in brief.json["rows"]]
    assert all(set(r) == set(kept) for r in brief.json["rows"])
    assert all(r["results"] and r["explanation"] for r in full.json["rows"])
    assert {k: v for k, v in brief.json.items() if k != "rows"} == {
        k: v for k, v in full.json.items() if k != "rows"}
    tag = {**auth(host.read), "If-None-Match": brief.headers["ETag"]}
    assert client.get(f"{host.url}/field?rows=brief", headers=tag).status_code == 304
    host.play(winner=1)
    section.play(winner=0)
    assert client.get(f"{host.url}/field?rows=brief", headers=tag).status_code == 200
    wrong = client.get(f"{host.url}/field?rows=short", headers=auth(host.read))
    assert_problem(wrong, 422)
    assert error_fields(wrong.json) == {"query.rows": "invalid_field"}


def test_the_field_is_sent_compressed_once_to_a_client_that_takes_gzip(client: Any) -> None:
    """A field's body is kept gzip-compressed: a client that takes gzip gets it as kept (so
    the proxy compresses nothing again), one that does not gets the same JSON inflated."""
    import gzip
    import json

    host = _host(client)
    host.start()
    host.play()
    plain = host.field(host.read)
    assert "Content-Encoding" not in plain.headers
    assert "Accept-Encoding" in plain.headers["Vary"]
    packed = client.get(f"{host.url}/field",
                        headers={**auth(host.read), "Accept-Encoding": "gzip, br"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert packed.headers["ETag"] == plain.headers["ETag"]
    assert json.loads(gzip.decompress(packed.get_data())) == plain.json


def test_the_field_answers_304_until_what_it_counts_moves(client: Any) -> None:
    host = _host(client)
    section = _join(client, host)
    host.start()
    section.start()
    first = host.field(host.read)
    tag = first.headers["ETag"]
    again = client.get(f"{host.url}/field", headers={**auth(host.read), "If-None-Match": tag})
    assert again.status_code == 304
    room = client.get(host.url, headers=auth(host.read))
    # A section plays board 1, which the host still owes: the field reads the same.
    assert section.play() == 1
    same = client.get(f"{host.url}/field", headers={**auth(host.read), "If-None-Match": tag})
    assert same.status_code == 304
    assert host.field(host.read).json == first.json
    # The host's room reads another event (the section owes board 1 no more): its tag moves.
    after = client.get(host.url, headers={**auth(host.read),
                                          "If-None-Match": room.headers["ETag"]})
    assert after.status_code == 200
    assert client.get(f"{host.url}/field/boards/1", headers=auth(host.read)).status_code == 404
    # The host plays it too: board 1 is complete, and the field counts it.
    assert host.play() == 1
    moved = client.get(f"{host.url}/field", headers={**auth(host.read), "If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["ETag"] != tag
    assert moved.json["boards_complete"] == [1]
    assert client.get(f"{host.url}/field/boards/1", headers=auth(host.read)).status_code == 200


def test_the_field_s_304_to_a_section_s_token_loads_no_event(
        client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stream's reading of the field asks for its tag after every hand of every section:
    with a section's token it reads the field's state and the sections' summaries it keeps,
    and loads no section whole."""
    host = _host(client)
    section = _join(client, host)
    host.start()
    section.start()
    tag = section.field(section.read).headers["ETag"]
    repository = client.application.extensions["segnapunti.events"].repository
    loaded: list[str] = []
    get_event = repository.get_event
    monkeypatch.setattr(repository, "get_event",
                        lambda event_id: loaded.append(event_id) or get_event(event_id))
    for url, token in ((section.url, section.read), (section.url, section.edit),
                       (host.url, host.read)):
        again = client.get(f"{url}/field", headers={**auth(token), "If-None-Match": tag})
        assert again.status_code == 304 and again.headers["ETag"] == tag
    assert loaded == []
    # An event in no field is 404 all the same, and a wrong token 401.
    alone = Section(client, _body("Circolo Parma", deals="duplicate", seed=SEED, rounds=1))
    assert alone.field(alone.read).status_code == 404
    assert section.field("not-a-token").status_code == 401


def test_the_field_made_again_after_a_hand_reads_only_the_section_that_moved(
        client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each section is read whole once per state in a process: the field's standings, made
    again after a hand in one section, read that section (once, for its summary and the
    standings alike) and the reader's own event for its access, and no other section."""
    host = _host(client)
    moved = _join(client, host)
    still = _join(client, host, "Circolo Parma", ("Gino", "Ines", "Luca"))
    for section in (host, moved, still):
        section.start()
        section.play()
    host.play()
    still.play()
    first = host.field(host.read)  # board 2 still owed by one section: not counted yet
    assert first.status_code == 200 and first.json["boards_complete"] == [1]
    repository = client.application.extensions["segnapunti.events"].repository
    loaded: list[str] = []
    get_event = repository.get_event
    monkeypatch.setattr(repository, "get_event",
                        lambda event_id: loaded.append(event_id) or get_event(event_id))
    assert moved.play() == 2
    again = host.field(host.read)
    assert again.status_code == 200 and again.json["boards_complete"] == [1, 2]
    assert sorted(loaded) == sorted([moved.id, host.id])


def test_a_hand_elsewhere_that_leaves_every_board_owed_moves_no_room(client: Any) -> None:
    host = _host(client)
    section = _join(client, host, players=("Dora", "Ezio", "Fede", "Gino", "Ines", "Luca"))
    host.start()
    section.start()
    assert len(section.tables) == 2
    rooms = {e.id: client.get(e.url, headers=auth(e.read)) for e in (host, section)}
    field = host.field(host.read)
    # One of the section's two tables plays board 1: the other still owes it.
    assert section.play(table=0) == 1
    host_room = client.get(host.url, headers={
        **auth(host.read), "If-None-Match": rooms[host.id].headers["ETag"]})
    assert host_room.status_code == 304
    assert client.get(f"{host.url}/field", headers={
        **auth(host.read), "If-None-Match": field.headers["ETag"]}).status_code == 304
    # The section's own room and its organiser's reading moved, as ever.
    assert client.get(section.url, headers={
        **auth(section.read), "If-None-Match": rooms[section.id].headers["ETag"]}
        ).status_code == 200


def test_a_section_keeps_its_room_s_options_and_plays_by_the_host_s_rules(
        client: Any) -> None:
    host = _host(client)
    section = _join(client, host, options={"time_zone": "Europe/Paris", "language": "fr"})
    options = section.created.json["options"]
    assert (options["time_zone"], options["language"]) == ("Europe/Paris", "fr")
    assert options["melds"] == host.created.json["options"]["melds"]
    refused = assert_problem(client.post(f"{API}/events", json=_body(
        "Modena", options={"melds": "none" if options["melds"] != "none" else "hand"},
        field={"join": host.id, "key": host.key})), 422)
    assert error_fields(refused)["options"] == "field_contradicts_host"
    wrong = assert_problem(client.post(f"{API}/events", json=_body(
        "Modena", options={"melds": "sideways"}, field={"join": host.id, "key": host.key})),
        422)
    assert "options.melds" in error_fields(wrong) or "options" in error_fields(wrong)
