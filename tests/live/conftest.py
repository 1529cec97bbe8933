"""Fixtures of the live-server tests: a running server per test module on the module's
database (``db_url``: SQLite, and PostgreSQL when ``TEST_DATABASE_URL`` is set), already
migrated; and the production topology behind its proxy (``proxy_topology``,
``proxy_base_url``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from live_support import LiveServer
from native_topology import NativeTopology, caddy_missing
from redis_support import forget


@pytest.fixture(scope="module")
def server(migrated_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # The module's database (``db_url``: SQLite, and PostgreSQL when there is one) starts as a
    # copy of the schema migrated once in this process (``migrated_url``): the server's own
    # migration finds nothing to do. Two gunicorn worker processes (SERVER=gunicorn, as compose
    # runs it): requests race across processes as in production, and a busy machine starts the
    # module's server in half the time four would take. The other servers have their own
    # modules: waitress test_live_slow_clients.py, tornado (the default: one process, with the
    # streams) test_live_streams.py.
    live = LiveServer(migrated_url, tmp_path_factory.mktemp("server"), workers=2,
                      env={"SERVER": "gunicorn"}).start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def proxy_topology(one_db_url: str,
                   tmp_path_factory: pytest.TempPathFactory) -> Iterator[NativeTopology]:
    """compose's topology run natively for this module (``deploy/native.sh``): Caddy on
    ``deploy/Caddyfile`` in front of two app servers (2 workers of 8 threads each), on the
    module's database and Redis under a key prefix of its own, the service's default limits.
    Skipped, saying why, only where Caddy cannot be installed."""
    reason = caddy_missing()
    if reason is not None:
        pytest.skip(reason)
    topology = NativeTopology(one_db_url, tmp_path_factory.mktemp("native")).start()
    yield topology
    topology.stop()
    forget(topology.key_prefix)


@pytest.fixture(scope="module")
def proxy_base_url(proxy_topology: NativeTopology) -> str:
    """The proxy's address (``http://127.0.0.1:PORT``): the club's one public address."""
    return proxy_topology.base_url
