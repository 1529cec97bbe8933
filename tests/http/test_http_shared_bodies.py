"""The events' bodies shared by the processes behind one proxy (``SHARED_CACHE_URL``,
``service/http/shared_bodies.py``), with the Redis of CI: a second process answers an event's
standings and a game from the bodies the first one made, without making them (nor reading the
game); readers asking at once wait for the one that makes it; with Redis away each makes its
own, and answers all the same."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from http_support import auth
from redis_support import CLOSED_PORT_URL, REDIS_URL, needs_redis

from service.application.caches import LruCache
from service.http import shared_bodies
from service.http.app import create_app
from service.http.resources import events as event_resources
from service.http.resources import games as game_resources
from service.http.shared_bodies import SharedBodies

API = "/api/v1"
NO_LIMITS = {"RATE_LIMIT_PER_MINUTE": 0, "AUTH_FAILURES_PER_MINUTE": 0,
             "CREATION_QUOTA_GAMES": 0, "CREATION_QUOTA_EVENTS": 0, "CREATION_QUOTA_CLUBS": 0}


@pytest.fixture()
def processes(migrated_url: str, request: pytest.FixtureRequest) -> Iterator[list[Any]]:
    """Two apps on one database sharing the cache at the test's URL (its ``param``)."""
    url = getattr(request, "param", REDIS_URL)
    apps = [create_app({"DATABASE_URL": migrated_url, "TESTING": True,
                        "SHARED_CACHE_URL": url, **NO_LIMITS}) for _ in range(2)]
    yield apps
    for app in apps:
        app.extensions["segnapunti.games"].repository.engine.dispose()


def evening(client: Any) -> tuple[str, str]:
    created = client.post(f"{API}/events", json={
        "name": "Sera", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": n} for n in ("Anna", "Bruno", "Carla")]})
    assert created.status_code == 201, created.json
    event, edit = created.json["id"], created.json["tokens"]["edit"]
    table = client.post(f"{API}/events/{event}/rounds", json={},
                        headers=auth(edit)).json["tables"][0]
    hand = client.post(f"{API}/games/{table['game']}/hands",
                       json={"dealer": 0, "piles": [{"side": 0, "points": 40},
                                                    {"side": 1, "points": 20}]},
                       headers=auth(table["tokens"]["edit"]))
    assert hand.status_code == 201, hand.json
    return event, created.json["tokens"]["read"]


def counting_standings(app: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The events whose standings ``app`` makes from now on, as another process would: the
    bodies the test's process kept so far are not its own."""
    monkeypatch.setattr(event_resources, "_BODIES", LruCache(4 * 1024 * 1024, weight=len))
    made: list[str] = []
    service = app.extensions["segnapunti.events"]
    standings_of = service.standings_of

    def counted(view: Any) -> Any:
        made.append(view.id)
        return standings_of(view)

    monkeypatch.setattr(service, "standings_of", counted)
    return made


def read_in_both(processes: list[Any], monkeypatch: pytest.MonkeyPatch
                 ) -> tuple[Any, Any, str, list[str]]:
    """An evening's standings read by the first process, then by the second: both answers,
    the event, and the events whose standings the second made."""
    first, second = (app.test_client() for app in processes)
    event, read = evening(first)
    url = f"{API}/events/{event}/standings"
    one = first.get(url, headers=auth(read))
    made = counting_standings(processes[1], monkeypatch)
    two = second.get(url, headers=auth(read))
    assert one.status_code == two.status_code == 200
    assert two.get_data() == one.get_data()
    return one, two, event, made


@needs_redis
def test_a_second_process_answers_the_standings_the_first_made(
        processes: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    one, two, _event, made = read_in_both(processes, monkeypatch)
    assert two.headers["ETag"] == one.headers["ETag"]
    assert made == []  # the second process made nothing


@needs_redis
def test_a_second_process_answers_a_game_from_the_body_the_first_made(
        processes: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = (app.test_client() for app in processes)
    game = first.post(f"{API}/games", json={"variant": "gatti-3",
                                             "players": ["Anna", "Bruno", "Carla"]}).json
    path, player = f"{API}/games/{game['id']}", auth(game["tokens"]["players"][0])
    assert first.post(f"{path}/hands", json={"dealer": 0, "piles": [
        {"side": 0, "points": 40}, {"side": 1, "points": 20}]},
        headers=auth(game["tokens"]["edit"])).status_code == 201
    one = first.get(path, headers=player)
    # The second process: a cache of its own, and every game it reads whole counted.
    monkeypatch.setattr(game_resources, "_GAME_BODIES", LruCache(4 * 1024 * 1024, weight=len))
    views = processes[1].extensions["segnapunti.games"].views
    loaded: list[str] = []
    load = views.load
    monkeypatch.setattr(views, "load", lambda game_id: loaded.append(game_id) or load(game_id))
    two = second.get(path, headers=player)
    assert two.status_code == one.status_code == 200
    assert two.get_data() == one.get_data() and two.headers["ETag"] == one.headers["ETag"]
    assert two.headers["Game-Access"] == "player" and two.headers["Game-Seat"] == "0"
    assert loaded == []


@needs_redis
@pytest.mark.parametrize("encoding", ["gzip", "identity"])
def test_a_round_s_new_games_are_read_elsewhere_without_reading_them(
        processes: list[Any], monkeypatch: pytest.MonkeyPatch, encoding: str) -> None:
    """The request that starts a round makes its games' first bodies for every process: the
    phones opening their new tables, on any worker, read none of those games."""
    first, second = (app.test_client() for app in processes)
    created = first.post(f"{API}/events", json={
        "name": "Sera", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": n} for n in ("Anna", "Bruno", "Carla", "Dario", "Elsa",
                                           "Franco")]}).json
    monkeypatch.setattr(game_resources, "_GAME_BODIES", LruCache(4 * 1024 * 1024, weight=len))
    tables = first.post(f"{API}/events/{created['id']}/rounds", json={},
                        headers=auth(created["tokens"]["edit"])).json["tables"]
    assert len(tables) == 2
    # The second process: a cache of its own, and every game it reads whole counted.
    monkeypatch.setattr(game_resources, "_GAME_BODIES", LruCache(4 * 1024 * 1024, weight=len))
    views = processes[1].extensions["segnapunti.games"].views
    loaded: list[str] = []
    load = views.load
    monkeypatch.setattr(views, "load", lambda game_id: loaded.append(game_id) or load(game_id))
    headers = {"Accept-Encoding": encoding}
    read = [second.get(f"{API}/games/{t['game']}", headers={**headers, **auth(t["tokens"]["read"])})
            for t in tables]
    assert loaded == []
    # What the game's own read makes, in a process that kept nothing.
    monkeypatch.setattr(game_resources, "_GAME_BODIES", LruCache(4 * 1024 * 1024, weight=len))
    processes[1].extensions["segnapunti.shared_bodies"].put = lambda *_args: None
    processes[1].extensions["segnapunti.shared_bodies"].get = lambda *_args: None
    for table, answer in zip(tables, read, strict=True):
        fresh = second.get(f"{API}/games/{table['game']}",
                           headers={**headers, **auth(table["tokens"]["read"])})
        assert answer.status_code == fresh.status_code == 200
        assert answer.headers["ETag"] == fresh.headers["ETag"]
        assert answer.get_data() == fresh.get_data()
        assert answer.headers.get("Content-Encoding") == fresh.headers.get("Content-Encoding")
    assert loaded == [t["game"] for t in tables]


@pytest.mark.parametrize("processes", [CLOSED_PORT_URL], indirect=True)
def test_with_the_shared_cache_away_each_process_makes_its_own(
        processes: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    _one, _two, event, made = read_in_both(processes, monkeypatch)
    assert made == [event]


def test_a_cache_that_does_not_answer_is_asked_again_only_after_a_while() -> None:
    now = [0.0]
    shared = SharedBodies(CLOSED_PORT_URL, clock=lambda: now[0])
    assert shared.get("k") is None
    assert not shared._answering()  # one second before it is asked again
    now[0] = 1.5
    assert shared._answering()
    shared.put("k", b"x")  # asked again, away again: two seconds now
    now[0] = 3.0
    assert not shared._answering()


def patient(monkeypatch: pytest.MonkeyPatch) -> SharedBodies:
    """Shared bodies of a test's own, whose Redis is given a while to answer: on a loaded
    machine a tenth of a second can pass, and Redis would be taken for away."""
    monkeypatch.setattr(shared_bodies, "TIMEOUT_S", 5.0)
    return SharedBodies(REDIS_URL, prefix=f"segnapunti-test-{uuid.uuid4().hex}")


@needs_redis
def test_readers_asking_at_once_wait_for_one_maker(monkeypatch: pytest.MonkeyPatch) -> None:
    shared = patient(monkeypatch)
    started, release = threading.Event(), threading.Event()
    makers: list[str] = []

    def slow() -> bytes:
        makers.append("first")
        started.set()
        assert release.wait(5)
        return b'{"standings": []}'

    def other() -> bytes:
        makers.append("another")
        return b"made twice"

    answers: dict[str, bytes] = {}
    first = threading.Thread(target=lambda: answers.setdefault("first", shared.made("k", slow)))
    first.start()
    assert started.wait(5)
    waiters = [threading.Thread(target=lambda n=n: answers.setdefault(
        f"waiter {n}", shared.made("k", other))) for n in range(3)]
    for waiter in waiters:
        waiter.start()
    time.sleep(0.1)  # the waiters are asking Redis meanwhile
    release.set()
    for thread in (first, *waiters):
        thread.join(5)
    assert makers == ["first"]
    assert set(answers.values()) == {b'{"standings": []}'} and len(answers) == 4
    # The claim is let go: a body no longer in Redis is made again by the next reader.
    shared.client.delete(shared.prefix + "k")
    assert shared.made("k", other) == b"made twice"


@needs_redis
def test_a_reader_whose_maker_shared_nothing_makes_its_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    shared = patient(monkeypatch)
    # Another reader claimed the body and will end without sharing it (too large to keep).
    claim = f"{shared.prefix}k:making"
    shared.client.set(claim, b"1", px=5000)
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 3:
            shared.client.delete(claim)

    assert shared.made("k", lambda: b"mine", sleep=sleep) == b"mine"
    assert len(waits) == 3


def counting_loads(app: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The events ``app`` reads whole from now on."""
    repository = app.extensions["segnapunti.events"].repository
    loaded: list[str] = []
    get_event = repository.get_event
    monkeypatch.setattr(repository, "get_event",
                        lambda event_id: loaded.append(event_id) or get_event(event_id))
    return loaded


def started_field(client: Any) -> tuple[Any, Any]:
    """A field's host and a section that joined it, each with its first round started."""
    from test_http_event_field import _host, _join

    host = _host(client)
    section = _join(client, host)
    host.start()
    section.start()
    return host, section


@needs_redis
def test_a_second_process_reads_a_field_s_tag_from_the_sections_the_first_summed_up(
        processes: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A field's tag says every section's summary at its state: a process that has not read
    the sections since they moved reads their summaries from the one that summed them up,
    and loads no section whole."""
    first, second = (app.test_client() for app in processes)
    host, section = started_field(first)
    host.play()
    section.play()
    one = first.get(f"{section.url}/field", headers=auth(section.read))
    assert one.status_code == 200
    monkeypatch.setattr(event_resources, "_BODIES", LruCache(4 * 1024 * 1024, weight=len))
    loaded = counting_loads(processes[1], monkeypatch)
    for url, token in ((section.url, section.read), (host.url, host.edit)):
        again = second.get(f"{url}/field",
                           headers={**auth(token), "If-None-Match": one.headers["ETag"]})
        assert again.status_code == 304 and again.headers["ETag"] == one.headers["ETag"]
    assert loaded == []
    # A hand moves the section: its new summary is made once, by whichever process asks.
    section.play()
    moved = second.get(f"{section.url}/field", headers=auth(section.read))
    assert moved.status_code == 200 and loaded == [section.id]
    loaded_first = counting_loads(processes[0], monkeypatch)
    assert first.get(f"{host.url}/field", headers={
        **auth(host.read), "If-None-Match": moved.headers["ETag"]}).status_code == 304
    assert loaded_first == []


@needs_redis
def test_a_section_read_past_the_state_asked_for_is_summed_up_for_no_one_else(
        processes: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A section that moved between the field's state and its reading is summed up as it
    is now: that summary answers the reader, and no other process takes it for the older
    state."""
    first = processes[0].test_client()
    _host, section = started_field(first)
    service = processes[0].extensions["segnapunti.events"]
    state = service.repository.field_state(section.id)
    section.play()  # the section moves on after its state was read
    monkeypatch.setattr(service.repository, "field_state", lambda _event_id: state)
    assert service.field_tag(section.id, section.read)[0].startswith("f")
    shared = processes[0].extensions["segnapunti.shared_bodies"]
    keys = [f"section:{i}:{version}:{played}" for i, version, played in state[1]]
    found = dict(zip(keys, shared.get_many(keys), strict=True))
    assert [k for k, v in found.items() if v is None] == [
        f"section:{i}:{version}:{played}" for i, version, played in state[1]
        if i == section.id]


@needs_redis
def test_a_reader_that_takes_a_stale_answer_gets_the_newest_made_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    shared = patient(monkeypatch)
    board = "e1-read-standings-it"
    shared.put("e1.5", b"five", (board, 5))
    shared.put("e1.3", b"three", (board, 3))  # made later for an older state
    # The state of order 7 is not made yet: whether another process is making it or not,
    # the reader told by its stream (which makes it) takes the newest made.
    made: list[str] = []
    assert shared.answered("e1.7", lambda: made.append("7") or b"seven",
                           newest=(board, 7), stale=True) == ("e1.5", b"five")
    claim = f"{shared.prefix}e1.7:making"
    shared.client.set(claim, b"1", px=5000)
    assert shared.answered("e1.7", lambda: made.append("7") or b"seven",
                           newest=(board, 7), stale=True) == ("e1.5", b"five")
    assert made == []
    # Without max-stale the reader waits for the state it asked for.
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        shared.put("e1.7", b"seven", (board, 7))

    assert shared.answered("e1.7", lambda: b"made again", sleep,
                           newest=(board, 7)) == ("e1.7", b"seven")
    assert waits and made == []
    # A resource with nothing made yet waits too, even when a stale answer would do.
    shared.client.set(f"{shared.prefix}e2.1:making", b"1", px=5000)
    assert shared.answered("e2.1", lambda: b"its own", lambda _s: shared.client.delete(
        f"{shared.prefix}e2.1:making"), newest=("e2-read", 1), stale=True) == (
        "e2.1", b"its own")


@needs_redis
def test_a_board_told_of_a_hand_reads_the_newest_standings_made_while_the_next_are_made(
        processes: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """``Cache-Control: max-stale`` (what an event's screen sends when its stream tells it):
    where the event's current state is not made yet, the newest state made answers at once,
    with its own tag, and nothing is made; without it, the current state answers."""
    first, second = (app.test_client() for app in processes)
    created = first.post(f"{API}/events", json={
        "name": "Sera", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": n} for n in ("Anna", "Bruno", "Carla")]}).json
    read = created["tokens"]["read"]
    table = first.post(f"{API}/events/{created['id']}/rounds", json={},
                       headers=auth(created["tokens"]["edit"])).json["tables"][0]

    def hand(dealer: int) -> None:
        assert first.post(f"{API}/games/{table['game']}/hands", json={
            "dealer": dealer, "piles": [{"side": 0, "points": 40}, {"side": 1, "points": 20}]},
            headers=auth(table["tokens"]["edit"])).status_code == 201

    hand(0)
    url = f"{API}/events/{created['id']}/standings"
    one = first.get(url, headers=auth(read))
    assert one.status_code == 200
    hand(1)  # the event moves on; no process has made its new state yet
    monkeypatch.setattr(event_resources, "_BODIES", LruCache(4 * 1024 * 1024, weight=len))
    made = counting_standings(processes[1], monkeypatch)
    stale = second.get(url, headers={**auth(read), "Cache-Control": "max-stale"})
    assert stale.status_code == 200 and made == []
    assert stale.headers["ETag"] == one.headers["ETag"]
    assert stale.get_data() == one.get_data()
    again = second.get(url, headers={**auth(read), "Cache-Control": "max-stale",
                                      "If-None-Match": one.headers["ETag"]})
    assert again.status_code == 304 and again.headers["ETag"] == one.headers["ETag"]
    fresh = second.get(url, headers={**auth(read), "If-None-Match": one.headers["ETag"]})
    assert fresh.status_code == 200 and fresh.headers["ETag"] != one.headers["ETag"]
    assert made == [created["id"]]


@needs_redis
def test_a_field_board_told_of_a_change_reads_the_newest_field_made_with_any_section_s_token(
        processes: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The field's body is the same for every section: the newest made with one section's
    token answers a stale read with another's where the current one is not made yet."""
    first, second = (app.test_client() for app in processes)
    host, section = started_field(first)
    one = first.get(f"{host.url}/field", headers=auth(host.read))
    assert one.status_code == 200
    # The section closes its round: the field's state moves with it.
    closed = first.post(f"{section.url}/rounds/1/close", headers=auth(section.edit))
    assert closed.status_code == 200, closed.json
    monkeypatch.setattr(event_resources, "_BODIES", LruCache(4 * 1024 * 1024, weight=len))
    stale = second.get(f"{section.url}/field",
                       headers={**auth(section.read), "Cache-Control": "max-stale"})
    assert stale.status_code == 200 and stale.headers["ETag"] == one.headers["ETag"]
    assert stale.get_data() == one.get_data()
    fresh = second.get(f"{section.url}/field", headers=auth(section.read))
    assert fresh.status_code == 200 and fresh.headers["ETag"] != one.headers["ETag"]


@needs_redis
def test_a_field_board_s_stale_read_takes_the_newest_field_made_loading_nothing(
        processes: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand moves a section: no process has summed it up as it is now. A read that takes
    the newest field made answers the field made before, loading nothing; a read without
    ``max-stale`` sums the section up."""
    first, second = (app.test_client() for app in processes)
    host, section = started_field(first)
    host.play()
    one = first.get(f"{section.url}/field", headers=auth(section.read))
    assert one.status_code == 200
    section.play()  # no one reads the field after it
    monkeypatch.setattr(event_resources, "_BODIES", LruCache(4 * 1024 * 1024, weight=len))
    loaded = counting_loads(processes[1], monkeypatch)
    stale = second.get(f"{host.url}/field",
                       headers={**auth(host.read), "Cache-Control": "max-stale"})
    assert stale.status_code == 200 and stale.headers["ETag"] == one.headers["ETag"]
    assert stale.get_data() == one.get_data() and loaded == []
    fresh = second.get(f"{host.url}/field", headers=auth(host.read))
    assert fresh.status_code == 200 and section.id in loaded


@needs_redis
def test_a_field_board_s_stale_read_waits_for_no_section_being_summed_up(
        processes: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Two sections close their rounds: a read of one's event sums up the other as it is
    now, and a process is summing up the first (the field's stream, making the field it will
    tell of). A wall's read that takes the newest field made answers the one made before at
    once, loading nothing and waiting for no one; a read without ``max-stale`` (a poll)
    waits for the section and answers the field as it is now."""
    first, second = (app.test_client() for app in processes)
    host, section = started_field(first)
    one = first.get(f"{section.url}/field", headers=auth(section.read))
    assert one.status_code == 200
    for moved in (host, section):  # each closes its round: the field's tag moves
        closed = first.post(f"{moved.url}/rounds/1/close", headers=auth(moved.edit))
        assert closed.status_code == 200, closed.json
    # The section's room reads its event: the boards the host owes sum up the host.
    assert first.get(section.url, headers=auth(section.read)).status_code == 200
    service = processes[0].extensions["segnapunti.events"]
    _host_id, sections = service.repository.field_state(section.id)
    shared = processes[0].extensions["segnapunti.shared_bodies"]
    keys = {i: f"section:{i}:{version}:{played}" for i, version, played in sections}
    assert [v is not None for v in shared.get_many([keys[host.id], keys[section.id]])] == [
        True, False]
    claim = f"{shared.prefix}{keys[section.id]}:making"
    shared.client.set(claim, b"1", px=5000)  # another process is summing up the section
    monkeypatch.setattr(event_resources, "_BODIES", LruCache(4 * 1024 * 1024, weight=len))
    loaded = counting_loads(processes[1], monkeypatch)
    other = processes[1].extensions["segnapunti.shared_bodies"]
    waits: list[str] = []
    made_elsewhere = other._made_elsewhere

    def waited(key: str, claim: str, sleep: Any) -> Any:
        waits.append(key.removeprefix(other.prefix))
        shared.client.delete(claim)  # the other process ends without sharing it
        return made_elsewhere(key, claim, sleep)

    monkeypatch.setattr(other, "_made_elsewhere", waited)
    stale = second.get(f"{host.url}/field",
                       headers={**auth(host.read), "Cache-Control": "max-stale"})
    assert stale.status_code == 200 and stale.headers["ETag"] == one.headers["ETag"]
    assert stale.get_data() == one.get_data()
    assert loaded == [] and waits == []
    again = second.get(f"{host.url}/field", headers={
        **auth(host.read), "Cache-Control": "max-stale", "If-None-Match": one.headers["ETag"]})
    assert again.status_code == 304 and again.headers["ETag"] == one.headers["ETag"]

    now = second.get(f"{host.url}/field", headers=auth(host.read))
    assert now.status_code == 200 and now.headers["ETag"] != one.headers["ETag"]
    assert waits == [keys[section.id]] and section.id in loaded
