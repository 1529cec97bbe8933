"""Rate limiting: an allowance per token on a game's, an event's or a club's resources (per address
without one), moving windows of a rate and a burst; 429 problem+json with Retry-After; each
client has its own; failed authentications spend an address's own allowance; the phone page
and its files are never limited; the defaults hold a room of 200 phones behind one address. The limits' clock is the test's: the
in-memory storage of ``limits`` reads the time through a module the tests stand in for."""

from __future__ import annotations

import re
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import limits.storage.memory
import pytest
from http_support import API, assert_problem, auth

from service.http.app import create_app
from service.http.ratelimit import (
    DEFAULT_BURST,
    DEFAULT_PER_MINUTE,
    KnownTokens,
    allowance,
    settings_from_env,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The time as the limits' in-memory storage sees it, moved by the test."""
    now = Clock()
    monkeypatch.setattr(limits.storage.memory, "time", SimpleNamespace(time=now))
    return now


def _clocked(migrated_url: str, clock: Clock, **limits_: int) -> Iterator[tuple[Any, Clock]]:
    """A client of an app with these limits, on the test's clock."""
    app = create_app({"DATABASE_URL": migrated_url, "TESTING": True, **limits_,
                      "RATE_LIMIT_CLOCK": clock})
    yield app.test_client(), clock
    app.extensions["segnapunti.games"].repository.engine.dispose()


@pytest.fixture()
def limited(migrated_url: str, clock: Clock) -> Iterator[tuple[Any, Clock]]:
    """An app allowing 60 requests a minute, at most 3 in any 3 seconds."""
    yield from _clocked(migrated_url, clock, RATE_LIMIT_PER_MINUTE=60, RATE_LIMIT_BURST=3)


def test_a_client_over_its_limit_gets_429_with_retry_after(limited: Any) -> None:
    client, clock = limited
    for _ in range(3):
        assert client.get(f"{API}/variants").status_code == 200
    response = client.get(f"{API}/variants")
    body = assert_problem(response, 429, code="rate_limited")
    assert response.headers["Retry-After"] == "3"
    assert "more than 60 requests a minute (3 in 3 s)" in body["detail"]
    assert response.headers["Referrer-Policy"] == "no-referrer"
    clock.now += 2.0
    assert_problem(client.get(f"{API}/variants"), 429)
    assert client.get(f"{API}/variants").headers["Retry-After"] == "1"
    clock.now += 1.5  # the first three requests have left the window
    assert [client.get(f"{API}/variants").status_code for _ in range(4)] == [200, 200, 200, 429]


def test_each_token_has_its_own_bucket(limited: Any) -> None:
    client, clock = limited
    created = client.post(f"{API}/games", json={"variant": "gatti-3",
                                                "players": ["A", "B", "C"]}).json
    game = f"{API}/games/{created['id']}"
    edit, read = auth(created["tokens"]["edit"]), auth(created["tokens"]["read"])
    for _ in range(3):
        assert client.get(game, headers=edit).status_code == 200
    assert_problem(client.get(game, headers=edit), 429)
    # The read token and requests without a token still have theirs (the address bucket
    # spent one request on POST /games).
    for _ in range(3):
        assert client.get(game, headers=read).status_code == 200
    assert client.get(f"{API}/variants").status_code == 200
    # Refused requests count too: a client that keeps hammering stays refused.
    clock.now += 0.5
    assert_problem(client.get(game, headers=edit), 429)


def test_requests_that_fail_count_too(limited: Any) -> None:
    client, _ = limited
    for _ in range(3):
        assert_problem(client.get(f"{API}/games/zzzzzzzzzz", headers=auth("guess")), 401)
    assert_problem(client.get(f"{API}/games/zzzzzzzzzz", headers=auth("guess")), 429)


def test_a_rate_and_its_burst_are_one_moving_window() -> None:
    assert [str(item) for item in allowance(600, 120)] == ["120 per 12 second"]
    assert [str(item) for item in allowance(60, 3)] == ["3 per 3 second"]
    # Where whole seconds cannot hold the burst at the rate, the minute holds the rate.
    assert [str(item) for item in allowance(100, 7)] == ["7 per 4 second", "100 per 1 minute"]
    assert [str(item) for item in allowance(6000, 1)] == ["1 per 1 second",
                                                          "6000 per 1 minute"]
    with pytest.raises(ValueError):
        allowance(0, 5)


def test_settings_come_from_the_environment(monkeypatch: Any) -> None:
    names = ("RATE_LIMIT_STORAGE_URL", "RATE_LIMIT_KEY_PREFIX", "RATE_LIMIT_PER_MINUTE",
             "RATE_LIMIT_BURST", "AUTH_FAILURES_PER_MINUTE", "AUTH_FAILURE_BURST")
    for name in names:
        monkeypatch.delenv(name, raising=False)
    assert settings_from_env() == dict(zip(names, ("memory://", "segnapunti", 6000, 1200, 30, 20),
                                           strict=True))
    given = ("redis://r:6379/2", "club", "30", "5", "6", "2")
    for name, value in zip(names, given, strict=True):
        monkeypatch.setenv(name, value)
    assert settings_from_env() == dict(zip(names, ("redis://r:6379/2", "club", 30, 5, 6, 2),
                                           strict=True))


def test_zero_turns_limiting_off() -> None:
    app = create_app({"DATABASE_URL": "sqlite://", "RATE_LIMIT_PER_MINUTE": 0,
                      "AUTH_FAILURES_PER_MINUTE": 0})
    assert "segnapunti.rate_limit" not in app.extensions
    client = app.test_client()
    assert all(client.get(f"{API}/variants").status_code == 200 for _ in range(200))


def test_the_health_and_readiness_checks_are_never_limited(limited: Any) -> None:
    client, _clock = limited
    for _ in range(3):
        assert client.get(f"{API}/variants").status_code == 200
    assert client.get(f"{API}/variants").status_code == 429
    for _ in range(5):
        assert client.get(f"{API}/health").status_code == 200
        assert client.get(f"{API}/ready").status_code == 200


@pytest.fixture()
def guarded(migrated_url: str, clock: Clock) -> Iterator[tuple[Any, Clock]]:
    """Plenty of requests a minute, but 60 failed authentications a minute, 3 in 3 s."""
    yield from _clocked(migrated_url, clock, RATE_LIMIT_PER_MINUTE=6000, RATE_LIMIT_BURST=1000,
                        AUTH_FAILURES_PER_MINUTE=60, AUTH_FAILURE_BURST=3)


def test_a_new_random_token_per_request_buys_no_new_allowance(guarded: Any) -> None:
    client, clock = guarded
    created = client.post(f"{API}/games", json={"variant": "gatti-3",
                                                "players": ["A", "B", "C"]}).json
    game = f"{API}/games/{created['id']}"
    for guess in ("g1", "g2", "g3"):  # tokens that open nothing: 401
        assert_problem(client.get(game, headers=auth(guess)), 401)
    response = client.get(game, headers=auth("g4"))
    body = assert_problem(response, 429, code="rate_limited")
    assert "different failed authentications" in body["detail"]
    assert response.headers["Retry-After"] == "3"
    # Every guess, old or new, waits while the address's guesses are spent...
    assert_problem(client.get(game, headers=auth("g1")), 429)
    # ...and requests without a token do not.
    assert client.get(f"{API}/variants").status_code == 200
    clock.now += 3.5  # the three failures have left the window
    assert_problem(client.get(game, headers=auth("g5")), 401)


def test_a_valid_token_is_never_refused_for_its_addresss_guesses(guarded: Any) -> None:
    """A guesser and a table share a club's Wi-Fi address: while the address's guesses are
    spent, a token that opens something (a game's, a player's, an event's, a club's) is
    looked up and answered; only the tokens that open nothing are refused."""
    client, _clock = guarded
    created = client.post(f"{API}/games", json={"variant": "gatti-3",
                                                "players": ["A", "B", "C"]}).json
    game = f"{API}/games/{created['id']}"
    event = _event(client)
    club = client.post(f"{API}/clubs", json={"name": "Circolo"}).json
    for guess in ("g1", "g2", "g3", "g4"):
        client.get(game, headers=auth(guess))
    assert_problem(client.get(game, headers=auth("g5")), 429)
    for _ in range(5):
        assert client.get(game, headers=auth(created["tokens"]["read"])).status_code == 200
        assert client.get(game, headers=auth(created["tokens"]["edit"])).status_code == 200
        assert client.get(f"{API}/events/{event['id']}",
                          headers=auth(event["tokens"]["read"])).status_code == 200
        assert client.get(f"{API}/clubs/{club['id']}",
                          headers=auth(club["tokens"]["read"])).status_code == 200
    assert_problem(client.get(game, headers=auth("g6")), 429)


def test_one_lost_token_failing_40_times_spends_only_its_own_count(guarded: Any) -> None:
    """A phone polls a game lost in a restore: its one token fails again and again. It is
    refused after its burst, without being looked up; the other tokens from its address, valid
    or not, are answered as before."""
    client, _clock = guarded
    created = client.post(f"{API}/games", json={"variant": "gatti-3",
                                                "players": ["A", "B", "C"]}).json
    game = f"{API}/games/{created['id']}"
    lost = auth("a-token-of-a-game-lost-in-a-restore")
    statuses = []
    for _ in range(40):
        statuses.append(client.get(f"{API}/games/zzzzzzzzzz", headers=lost).status_code)
    assert statuses[:3] == [401, 401, 401] and set(statuses[3:]) == {429}
    body = assert_problem(client.get(f"{API}/games/zzzzzzzzzz", headers=lost), 429)
    assert "this token failed" in body["detail"]
    assert client.get(game, headers=auth(created["tokens"]["read"])).status_code == 200
    assert client.get(game, headers=auth(created["tokens"]["edit"])).status_code == 200
    # The lost token was one guess of the address: another token is still told it opens nothing.
    assert_problem(client.get(game, headers=auth("another-lost-token")), 401)


def test_another_games_ids_probed_with_ones_token_are_the_addresss_guesses(guarded: Any) -> None:
    """A valid token on other games' ids gets 404 for each (whether they exist is told to no
    one): each id is a guess of the address, so tokens that open nothing wait; the token
    itself opens its game, and is never refused for it."""
    client, _ = guarded
    created = client.post(f"{API}/games", json={"variant": "gatti-3",
                                                "players": ["A", "B", "C"]}).json
    token = auth(created["tokens"]["edit"])
    for probe in ("aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"):
        assert_problem(client.get(f"{API}/games/{probe}", headers=token), 404)
    assert_problem(client.get(f"{API}/games/dddddddddd", headers=token), 404)
    assert client.get(f"{API}/games/{created['id']}", headers=token).status_code == 200
    assert_problem(client.get(f"{API}/games/{created['id']}", headers=auth("guess")), 429)


def test_valid_tokens_spend_no_failures(guarded: Any) -> None:
    client, _ = guarded
    created = client.post(f"{API}/games", json={"variant": "gatti-3",
                                                "players": ["A", "B", "C"]}).json
    game = f"{API}/games/{created['id']}"
    for _ in range(20):
        assert client.get(game, headers=auth(created["tokens"]["read"])).status_code == 200
    # A read token on a write is refused (403), not a failed authentication.
    for _ in range(5):
        assert_problem(client.delete(f"{game}/hands/1", headers=auth(created["tokens"]["read"])),
                       403)
    assert client.get(game, headers=auth(created["tokens"]["edit"])).status_code == 200


def test_outside_a_game_a_token_does_not_choose_the_bucket(limited: Any) -> None:
    client, _ = limited
    for i in range(3):
        response = client.get(f"{API}/variants", headers=auth(f"random-{i}"))
        assert response.status_code == 200
    assert_problem(client.get(f"{API}/variants", headers=auth("random-x")), 429)


def test_a_hand_not_there_yet_is_no_failed_authentication(guarded: Any) -> None:
    client, _ = guarded
    created = client.post(f"{API}/games", json={"variant": "gatti-3",
                                                "players": ["A", "B", "C"]}).json
    game = f"{API}/games/{created['id']}"
    for _ in range(6):
        assert_problem(client.get(f"{game}/hands/1", headers=auth(created["tokens"]["read"])),
                       404)
    assert client.get(game, headers=auth(created["tokens"]["read"])).status_code == 200


def test_the_page_and_its_files_are_never_limited(limited: Any) -> None:
    """A phone refused its page or one of the page's files shows nothing: they are fixed for a
    release and cached, so they are never counted, even from an address whose allowance is
    spent."""
    client, _clock = limited
    for _ in range(3):
        assert client.get(f"{API}/variants").status_code == 200
    assert_problem(client.get(f"{API}/variants"), 429)
    page = client.get("/")
    assert page.status_code == 200
    files = re.findall(r'"(/app/[^"]+)"', page.get_data(as_text=True))  # linked or loaded
    assert "/app/app.js" in {f.partition("?")[0] for f in files}
    for _ in range(2):  # more than the burst of 3, the second time all revalidated
        for path in ["/", "/sw.js", *files, "/app/icon-512.png", "/app/manifest.webmanifest"]:
            assert client.get(path).status_code == 200, path
            etag = client.get(path).headers["ETag"]
            assert client.get(path, headers={"If-None-Match": etag}).status_code == 304, path
    assert_problem(client.get(f"{API}/variants"), 429)  # the API still counts


def _event(client: Any) -> dict[str, Any]:
    response = client.post(f"{API}/events", json={
        "name": "Club", "variant": "gatti-3", "format": "individual",
        "entrants": [{"name": n} for n in ("Anna", "Bruno", "Carla")]})
    assert response.status_code == 201, response.json
    return dict(response.json)


def test_each_event_token_has_its_own_bucket(limited: Any) -> None:
    """An event's resources count per token, as a game's do: a room's boards and organiser
    spend their event's allowance, not the address's."""
    client, clock = limited
    created = _event(client)  # the address spends one on POST /events
    event = f"{API}/events/{created['id']}"
    edit, read = auth(created["tokens"]["edit"]), auth(created["tokens"]["read"])
    for path in (event, f"{event}/standings", event):
        assert client.get(path, headers=read).status_code == 200
    assert_problem(client.get(f"{event}/standings", headers=read), 429)
    for _ in range(3):
        assert client.get(event, headers=edit).status_code == 200
    assert_problem(client.get(event, headers=edit), 429)
    # The address still has its two: creating an event is the address's, not a token's.
    assert [client.get(f"{API}/variants").status_code for _ in range(3)] == [200, 200, 429]
    clock.now += 3.5
    assert client.get(event, headers=read).status_code == 200


def test_a_token_that_opens_no_event_spends_the_addresss_failures(guarded: Any) -> None:
    client, _clock = guarded
    event = f"{API}/events/{_event(client)['id']}"
    for guess in ("g1", "g2", "g3"):
        assert_problem(client.get(event, headers=auth(guess)), 401)
    body = assert_problem(client.get(event, headers=auth("g4")), 429)
    assert "failed authentications" in body["detail"]


#: A room at its fullest, as the defaults are sized (``service/http/ratelimit.py``).
ROOM_PHONES = 200


def test_the_defaults_hold_a_room_of_200_phones_arriving_at_once(migrated_url: str,
                                                                 clock: Clock) -> None:
    """Two hundred phones behind the club's one address open the page within the same
    instant: each reads the list of variants (its service worker installing), a variant and
    its rulebook (on the address), and opens the event's board (the event and its standings,
    on the board's one read token). Nothing is refused; the address has room for the rest of
    the window's 1200 (a room's 6 a phone), and no more."""
    assert [str(item) for item in allowance(DEFAULT_PER_MINUTE, DEFAULT_BURST)] == [
        "1200 per 12 second"]
    assert DEFAULT_PER_MINUTE >= ROOM_PHONES * 30 and DEFAULT_BURST >= ROOM_PHONES * 6
    app = create_app({"DATABASE_URL": migrated_url, "TESTING": True,
                      "RATE_LIMIT_CLOCK": clock, "RATE_LIMIT_PER_MINUTE": DEFAULT_PER_MINUTE,
                      "RATE_LIMIT_BURST": DEFAULT_BURST})
    try:
        client = app.test_client()
        created = _event(client)
        board = auth(created["tokens"]["read"])
        event = f"{API}/events/{created['id']}"
        tags = {path: client.get(path, headers=board).headers["ETag"]
                for path in (event, f"{event}/standings")}
        refused = []
        for _phone in range(ROOM_PHONES):
            for path in (f"{API}/variants", f"{API}/variants/gatti-3",
                         f"{API}/variants/gatti-3/rules"):
                if client.get(path).status_code != 200:
                    refused.append(path)
            for path, tag in tags.items():
                status = client.get(path, headers={**board, "If-None-Match": tag}).status_code
                if status != 304:
                    refused.append(f"{path} {status}")
        assert refused == []
        # The address has spent 1 + 600 of its 1200 in this window: the rest is there for
        # what comes next, and one request more is refused.
        spent = 1 + 3 * ROOM_PHONES
        statuses = [client.get(f"{API}/variants/gatti-3").status_code
                    for _ in range(DEFAULT_BURST - spent + 1)]
        assert statuses.count(429) == 1 and statuses[-1] == 429
        assert client.get(event, headers=board).status_code == 200  # the board's own bucket
    finally:
        app.extensions["segnapunti.games"].repository.engine.dispose()


def test_each_club_token_has_its_own_bucket(limited: Any) -> None:
    """A club's resources count per token, as a game's and an event's do."""
    client, clock = limited
    created = client.post(f"{API}/clubs", json={"name": "Circolo"}).json  # the address's
    club = f"{API}/clubs/{created['id']}"
    edit, read = auth(created["tokens"]["edit"]), auth(created["tokens"]["read"])
    for path in (club, f"{club}/members", club):
        assert client.get(path, headers=read).status_code == 200
    assert_problem(client.get(f"{club}/members", headers=read), 429)
    for _ in range(3):
        assert client.get(club, headers=edit).status_code == 200
    assert_problem(client.get(club, headers=edit), 429)
    assert [client.get(f"{API}/variants").status_code for _ in range(3)] == [200, 200, 429]
    clock.now += 3.5
    assert client.get(club, headers=read).status_code == 200


def test_a_token_that_opened_something_is_looked_up_once_a_minute() -> None:
    """While an address's guesses are spent, a room's phones poll on: each valid token is
    looked up once, then remembered for a minute; a token that opens nothing is looked up
    every time, as it is never remembered."""
    asked: list[str] = []
    now = Clock()

    def token_opens(token: str) -> bool:
        asked.append(token)
        return token.startswith("valid")

    opens = KnownTokens(token_opens, now)
    assert [opens("valid-1") for _ in range(5)] == [True] * 5
    assert [opens("guess") for _ in range(2)] == [False] * 2
    assert asked == ["valid-1", "guess", "guess"]
    now.now += 61
    assert opens("valid-1") and asked[-1] == "valid-1" and len(asked) == 4
