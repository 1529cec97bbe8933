"""The gunicorn worker ``python -m service`` serves with: gthread, and a request is read whole
before a thread is given to it.

gthread hands a connection to a thread once its first bytes arrive, and the thread then reads
the rest of the request blocking. A client that sends its request a byte a second (a slowloris,
or a body that crawls) holds that thread the whole time: a per-read timeout never trips, since
a byte comes before it does. Twenty such connections made 6 of 8 health probes wait 4.5–18.5 s
and forty made one time out, well below workers × threads, because connections spread
unevenly over the workers.

``BufferingWorker`` reads each request in the worker's own non-blocking loop (the selector that
already waits for kept-alive connections) until it holds the whole of it: the head, then a
body of ``Content-Length`` bytes or a chunked body to its last chunk. Only then does a thread
get it, with the bytes pushed back into gunicorn's parser (``Unreader.unread``), and the
thread parses and answers as before without waiting on the client. A request not whole
within ``REQUEST_DEADLINE_S`` (30 s, ``$REQUEST_DEADLINE``) of the worker starting to wait for
it gets ``408`` and its connection is closed; a slow client costs a few bytes of memory and a file descriptor, never a thread.

What is not buffered goes to the thread at once, as before, for gunicorn's parser to refuse
or serve: a head larger than ``MAX_HEAD_BYTES`` (the parser answers 431/400), a body larger
than the request takes (``MAX_BODY_BYTES``, an import's ``MAX_IMPORT_BYTES``: the app answers
413 from its length), a malformed length or chunk, and any request once the worker holds
``MAX_HELD_BYTES`` for requests still arriving.
TLS and HTTP/2 by prior knowledge (neither used by the service: its proxy ends TLS) are
served by gthread unchanged.

This module is loaded by gunicorn's master (it names the worker class), so it imports
gunicorn and the standard library only.
"""

from __future__ import annotations

import os
import selectors
import time
from functools import partial
from typing import Any

from gunicorn import http
from gunicorn.workers.gthread import ThreadWorker

#: How long a client has to send a whole request, from when the worker starts waiting for it
#: (a new connection, or a kept-alive one whose next request began to arrive), unless
#: ``$REQUEST_DEADLINE`` (seconds) says otherwise.
REQUEST_DEADLINE_S = 30.0
#: A head longer than this is handed to gunicorn's parser, which refuses it (its limits:
#: 4,094 bytes a request line, 100 fields of 8,190 bytes).
MAX_HEAD_BYTES = 64 * 1024
#: The largest body a request of the service takes (``MAX_BODY_BYTES`` of the app's config),
#: and an import's (``IMPORT_MAX_BYTES``); a longer one is handed over for the app to refuse
#: (413) from its ``Content-Length``.
MAX_BODY_BYTES = 1024 * 1024
MAX_IMPORT_BYTES = 16 * 1024 * 1024
IMPORT_PATH = b"/games/import"
#: Bytes a worker holds for requests still arriving, all together: beyond it, a request is
#: handed to a thread as it is (which reads the rest, as plain gthread does), so that many
#: large bodies sent at once cannot make a worker's memory grow without bound.
MAX_HELD_BYTES = 64 * 1024 * 1024
#: How long a stopping worker still waits for a request on its way.
STOP_LINGER_S = 2.0
#: At most this much is read from a socket at once.
READ_BYTES = 256 * 1024

_TIMEOUT = (b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n"
            b"Content-Type: text/plain\r\n\r\n")
_CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"


def request_deadline() -> float:
    """``$REQUEST_DEADLINE`` in seconds, else ``REQUEST_DEADLINE_S``."""
    raw = os.environ.get("REQUEST_DEADLINE", "").strip()
    value = float(raw) if raw else REQUEST_DEADLINE_S
    if not value > 0:
        raise ValueError(f"REQUEST_DEADLINE is a number of seconds above 0, not {raw!r}")
    return value


class IncomingRequest:
    """The bytes of one request as they arrive, and whether they make a whole request yet
    (or enough of one for gunicorn's parser to refuse it)."""

    def __init__(self, data: bytes = b"", deadline: float = 0.0) -> None:
        self.data = bytearray(data)
        self.deadline = deadline
        self.head_end = -1
        #: Where the body ends (``Content-Length``), once the head is read.
        self.body_end = -1
        self.chunked = False
        #: Where the next chunk's size line starts; whether the last chunk was read.
        self.chunk_at = 0
        self.body_bytes = 0
        self.body_limit = MAX_BODY_BYTES
        self.in_trailers = False
        #: The client waits for ``100 Continue`` before it sends the body.
        self.expects_continue = False
        self.handed_over = False

    def feed(self, more: bytes) -> None:
        self.data += more

    def ready(self) -> bool:
        """Whether what arrived is a whole request, or is to be handed over as it is."""
        if self.handed_over:
            return True
        if self.head_end < 0:
            end = self.data.find(b"\r\n\r\n")
            if end < 0:
                # A head with bare line feeds, or too long: the parser decides.
                return self.data.find(b"\n\n") >= 0 or len(self.data) > MAX_HEAD_BYTES
            self.head_end = end + 4
            if self._read_head(bytes(self.data[:end])):
                self.handed_over = True
                return True
        if self.chunked:
            return self._chunks_read()
        return len(self.data) >= self.body_end

    def wants_continue(self) -> bool:
        """Whether the client awaits ``100 Continue`` before its body (asked once ``ready``
        said the head is read and the body is not)."""
        if self.expects_continue:
            self.expects_continue = False
            return True
        return False

    def _read_head(self, head: bytes) -> bool:
        """Note how the body is framed; ``True`` to hand the request over as it is."""
        lines = head.lstrip(b"\r\n").split(b"\r\n")
        request_line = lines[0].split(b" ")
        version = request_line[-1] if len(request_line) == 3 else b""
        path = request_line[1].split(b"?")[0] if len(request_line) == 3 else b""
        self.body_limit = MAX_IMPORT_BYTES if path.endswith(IMPORT_PATH) else MAX_BODY_BYTES
        lengths: list[bytes] = []
        codings: list[bytes] = []
        expect = b""
        for line in lines[1:]:
            name, colon, value = line.partition(b":")
            if not colon:
                return True
            name = name.strip().lower()
            if name == b"content-length":
                lengths.append(value.strip())
            elif name == b"transfer-encoding":
                codings.extend(c.strip().lower() for c in value.split(b","))
            elif name == b"expect":
                expect = value.strip().lower()
        if codings:
            if lengths or codings[-1] != b"chunked":
                return True  # the parser refuses both framings at once, or an unknown one
            self.chunked = True
            self.chunk_at = self.head_end
        elif lengths:
            if len(set(lengths)) != 1 or not lengths[0].isdigit():
                return True
            length = int(lengths[0])
            if length > self.body_limit:
                return True
            self.body_end = self.head_end + length
        else:
            self.body_end = self.head_end  # no body
        self.expects_continue = (expect == b"100-continue" and version == b"HTTP/1.1"
                                 and (self.chunked or self.body_end > self.head_end))
        return False

    def _chunks_read(self) -> bool:
        data = self.data
        while True:
            if self.in_trailers:
                # The trailer section ends with an empty line (often at once).
                return (data.startswith(b"\r\n", self.chunk_at)
                        or data.find(b"\r\n\r\n", self.chunk_at) >= 0
                        or len(data) - self.chunk_at > MAX_HEAD_BYTES)
            line_end = data.find(b"\r\n", self.chunk_at)
            if line_end < 0:
                return len(data) - self.chunk_at > MAX_HEAD_BYTES
            size_text = bytes(data[self.chunk_at:line_end]).split(b";")[0].strip()
            if not size_text or any(c not in b"0123456789abcdefABCDEF" for c in size_text):
                return True  # malformed: the parser refuses it
            size = int(size_text, 16)
            if size == 0:
                self.in_trailers = True
                self.chunk_at = line_end + 2
                continue
            self.body_bytes += size
            if self.body_bytes > self.body_limit:
                return True
            after = line_end + 2 + size + 2
            if len(data) < after:
                return False
            self.chunk_at = after


class BufferingWorker(ThreadWorker):  # type: ignore[misc]
    """gthread, with each request read whole in the worker's loop before a thread gets it
    (the module's docstring says why)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.incoming: dict[Any, IncomingRequest] = {}
        self.deadline_s = request_deadline()
        #: Bytes held for the requests in ``incoming``, all together.
        self.held = 0
        #: When the worker was told to stop.
        self.stopping_at: float | None = None

    def buffers(self, conn: Any) -> bool:
        cfg = self.cfg
        return not (cfg.is_ssl or getattr(cfg, "protocol", "http") != "http"
                    or getattr(cfg, "http2_cleartext", "off") in ("prior-knowledge", "both"))

    def enqueue_req(self, conn: Any) -> None:
        """Every connection with a request coming (new, kept alive, or with the next request
        read ahead) passes here: it waits in the loop until its request is whole."""
        if not self.buffers(conn):
            super().enqueue_req(conn)
            return
        held = conn.parser.unreader.take_buffered() if conn.parser is not None else b""
        deadline = time.monotonic() + (self.deadline_s if self.alive else STOP_LINGER_S)
        request = IncomingRequest(held, deadline)
        if not (held and request.ready()):
            # What already arrived (a kept-alive connection is here because it is readable)
            # is read at once: a request that came whole goes to a thread without ever
            # waiting in the poller.
            conn.sock.setblocking(False)
            if not self.receive(conn, request):
                return
        if request.ready():
            self.hand_over(conn, request)
            return
        self.incoming[conn] = request
        self.held += len(request.data)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_request_bytes,
                                                                      conn))
        if request.wants_continue():
            self.say_continue(conn)

    def receive(self, conn: Any, request: IncomingRequest) -> bool:
        """Read what has arrived into ``request``; ``False`` once the connection is gone (the
        client went away before its request was whole)."""
        try:
            data = conn.sock.recv(READ_BYTES)
        except (BlockingIOError, InterruptedError):
            return True
        except OSError:
            data = b""
        if not data:
            self.drop(conn)
            return False
        request.feed(data)
        if conn in self.incoming:
            self.held += len(data)
        return True

    def on_request_bytes(self, conn: Any, _sock: Any) -> None:
        request = self.incoming.get(conn)
        if request is None:  # handed over or dropped earlier in the same turn of the loop
            return
        if not self.receive(conn, request):
            return
        if request.ready() or self.held > MAX_HELD_BYTES:
            self.poller.unregister(conn.sock)
            del self.incoming[conn]
            self.held -= len(request.data)
            self.hand_over(conn, request)
        elif request.wants_continue():
            self.say_continue(conn)

    def say_continue(self, conn: Any) -> None:
        """``100 Continue`` to a client that waits for it before its body (gunicorn says it
        again when the thread reads the request: a client takes any number of them)."""
        try:
            conn.sock.send(_CONTINUE)
        except OSError:
            self.drop(conn)

    def hand_over(self, conn: Any, request: IncomingRequest) -> None:
        """A thread gets the connection, its request waiting in the parser's buffer."""
        if conn.parser is None:
            conn.parser = http.get_parser(self.cfg, conn.sock, conn.client)
        conn.parser.unreader.unread(bytes(request.data))
        conn.data_ready = True
        super().enqueue_req(conn)

    def drop(self, conn: Any, answer: bytes = b"") -> None:
        request = self.incoming.pop(conn, None)
        if request is not None:
            self.held -= len(request.data)
        try:
            self.poller.unregister(conn.sock)
        except (OSError, KeyError, ValueError):
            pass
        if answer:
            try:
                conn.sock.send(answer)
            except OSError:
                pass
        self.nr_conns -= 1
        conn.close()

    def murder_pending(self) -> None:
        """Run by the loop about once a second: besides gthread's own, close the connections
        whose request is not whole by its deadline (``408``); once the worker stops, those
        with nothing sent yet at once, and the others within ``STOP_LINGER_S``."""
        super().murder_pending()
        now = time.monotonic()
        if not self.alive and self.stopping_at is None:
            # A stopping worker waits no longer for a request already on its way than it
            # keeps kept-alive connections open (gthread's STOP_KEEPALIVE_LINGER).
            self.stopping_at = now
            for request in self.incoming.values():
                request.deadline = min(request.deadline, now + STOP_LINGER_S)
        for conn, request in list(self.incoming.items()):
            if request.deadline <= now or (not self.alive and not request.data):
                self.log.debug("closing %s: its request was not whole in time", conn.client)
                self.drop(conn, _TIMEOUT if request.data else b"")
