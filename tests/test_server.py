"""The worker reads a request whole before a thread gets it (``service.server``): what counts
as whole, HTTP/1.1's framing read the way gunicorn's parser reads it, and what is handed over
unread for the parser or the app to refuse. The worker itself, against slow clients, is
``tests/live/test_live_slow_clients.py``."""

from __future__ import annotations

import pytest

from service.server import (
    MAX_BODY_BYTES,
    MAX_HEAD_BYTES,
    MAX_IMPORT_BYTES,
    IncomingRequest,
    request_deadline,
)

HEAD = b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\n"


def arriving(*pieces: bytes) -> list[bool]:
    """Whether the request is whole after each piece arrives."""
    request = IncomingRequest()
    seen = []
    for piece in pieces:
        request.feed(piece)
        seen.append(request.ready())
    return seen


def test_a_request_without_a_body_is_whole_at_the_end_of_its_head() -> None:
    assert arriving(b"GET /api/v1/health HTTP/1.1\r\n", b"Host: x\r\n", b"\r\n") == [
        False, False, True]


def test_a_body_of_content_length_bytes_is_waited_for_to_its_last_byte() -> None:
    assert arriving(HEAD + b"Content-Length: 3\r\n\r\n", b"{}", b" ") == [False, False, True]
    assert arriving(HEAD + b"content-length:  0\r\n\r\n") == [True]


def test_a_chunked_body_is_waited_for_to_its_last_chunk_and_trailers() -> None:
    assert arriving(HEAD + b"Transfer-Encoding: chunked\r\n\r\n", b"2\r\n{}", b"\r\n",
                    b"1;ext=1\r\n \r\n0\r\n", b"\r\n") == [False, False, False, False, True]
    assert arriving(HEAD + b"Transfer-Encoding: chunked\r\n\r\n0\r\nX-T: 1\r\n",
                    b"\r\n") == [False, True]


@pytest.mark.parametrize("head", [
    HEAD + b"Content-Length: 3\r\nContent-Length: 4\r\n\r\n",
    HEAD + b"Content-Length: -1\r\n\r\n",
    HEAD + b"Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
    HEAD + b"Transfer-Encoding: gzip\r\n\r\n",
    HEAD + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n",
    HEAD + b"Transfer-Encoding: chunked\r\n\r\n0x1\r\n",
    HEAD + b"Bad header line\r\n\r\n",
    HEAD + f"Content-Length: {MAX_BODY_BYTES + 1}\r\n\r\n".encode(),
    b"GET / HTTP/1.1\nHost: x\n\n",
], ids=["two lengths", "negative", "both framings", "unknown coding", "bad chunk size",
        "hex prefix", "no colon", "over the body limit", "bare line feeds"])
def test_what_the_parser_or_the_app_refuses_is_handed_over_at_once(head: bytes) -> None:
    assert arriving(head) == [True]


def test_only_an_import_is_held_up_to_its_larger_limit() -> None:
    body = f"Content-Length: {MAX_BODY_BYTES + 1}\r\n\r\n".encode()
    assert arriving(HEAD + body) == [True]
    assert arriving(b"POST /api/v1/games/import?x=1 HTTP/1.1\r\nHost: x\r\n" + body) == [False]
    too_large = f"Content-Length: {MAX_IMPORT_BYTES + 1}\r\n\r\n".encode()
    assert arriving(b"POST /api/v1/games/import HTTP/1.1\r\nHost: x\r\n" + too_large) == [True]


def test_a_head_over_its_limit_is_handed_over_without_its_end() -> None:
    assert arriving(HEAD, b"X: " + b"a" * MAX_HEAD_BYTES) == [False, True]


def test_100_continue_is_asked_for_once_when_a_body_is_awaited() -> None:
    request = IncomingRequest(HEAD + b"Expect: 100-continue\r\nContent-Length: 2\r\n\r\n")
    assert not request.ready()
    assert request.wants_continue() and not request.wants_continue()
    request.feed(b"{}")
    assert request.ready()
    bodiless = IncomingRequest(HEAD + b"Expect: 100-continue\r\nContent-Length: 0\r\n\r\n")
    assert bodiless.ready() and not bodiless.wants_continue()


def test_the_request_deadline_comes_from_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REQUEST_DEADLINE", raising=False)
    assert request_deadline() == 30.0
    monkeypatch.setenv("REQUEST_DEADLINE", "2.5")
    assert request_deadline() == 2.5
    monkeypatch.setenv("REQUEST_DEADLINE", "0")
    with pytest.raises(ValueError, match="REQUEST_DEADLINE"):
        request_deadline()


def test_the_body_limits_are_the_apps() -> None:
    from service.http.bodylimits import IMPORT_MAX_BYTES
    from service.http.config import MAX_BODY_BYTES as APP_MAX_BODY_BYTES
    from service.http.paths import IMPORT_PATH

    assert (MAX_BODY_BYTES, MAX_IMPORT_BYTES) == (APP_MAX_BODY_BYTES, IMPORT_MAX_BYTES)
    assert IMPORT_PATH.endswith("/games/import")


def test_python_m_service_serves_with_the_buffering_worker(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import service.__main__ as main
    from service.server import BufferingWorker

    seen: dict[str, object] = {}

    class Server:
        def __init__(self, options: dict[str, object]) -> None:
            seen.update(options)

        def run(self) -> None:
            pass

    monkeypatch.setattr(main, "GunicornServer", Server)
    main.serve()
    module, _, name = str(seen["worker_class"]).rpartition(".")
    assert getattr(__import__(module, fromlist=[name]), name) is BufferingWorker
