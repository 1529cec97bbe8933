"""Benchmark: what making an app costs, with the OpenAPI document's pages written when the
document is first read (as the service does: ``service/http/smorest.py``) and written as each
blueprint is registered (flask-smorest's own ``Api.register_blueprint``).

What it measures: ``create_app`` on an in-memory database, rounds of each way taking turns
(each first in turn), CPU time (``time.process_time``) a made app; the best and the median of
``--rounds`` rounds of ``--apps`` apps each, the best being the least disturbed by whatever
else the machine runs; and the first read of the document (``documented_spec``) of an app made
the service's way, the cost moved to the few processes that serve the document. Reported as
milliseconds an app and the ratio of the two.

    .venv/bin/python bench/bench_startup.py [--apps 10] [--rounds 7]

It is not a test and asserts nothing beyond both ways giving the same document.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from flask_smorest import Api

from service.http.app import create_app
from service.http.smorest import SegnapuntiApi

CONFIG = {"DATABASE_URL": "sqlite://"}


def _deferred() -> Any:
    return create_app(CONFIG)


def _at_registration() -> Any:
    deferred = SegnapuntiApi.register_blueprint
    SegnapuntiApi.register_blueprint = Api.register_blueprint  # type: ignore[method-assign]
    try:
        return create_app(CONFIG)
    finally:
        SegnapuntiApi.register_blueprint = deferred  # type: ignore[method-assign]


def _spec(app: Any) -> dict[str, Any]:
    with app.app_context():
        api = app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
        spec: dict[str, Any] = api.documented_spec().to_dict()
        return spec


def _round(make: Callable[[], Any], apps: int) -> float:
    start = time.process_time()
    for _ in range(apps):
        make()
    return (time.process_time() - start) / apps * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--apps", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    assert _spec(_deferred()) == _spec(_at_registration()), "the two ways differ"
    ways = {"pages when first read": _deferred, "pages at registration": _at_registration}
    times: dict[str, list[float]] = {name: [] for name in ways}
    for n in range(args.rounds):
        order = list(ways) if n % 2 == 0 else list(reversed(ways))
        for name in order:
            times[name].append(_round(ways[name], args.apps))
    first_reads = []
    for _ in range(args.rounds):
        app = _deferred()
        start = time.process_time()
        _spec(app)
        first_reads.append((time.process_time() - start) * 1000)
    for name, found in times.items():
        print(f"{name:24} best {min(found):6.1f} ms  median {statistics.median(found):6.1f} ms"
              " an app")
    print(f"{'first read of the spec':24} best {min(first_reads):6.1f} ms  median "
          f"{statistics.median(first_reads):6.1f} ms")
    deferred, at_registration = (min(times[name]) for name in ways)
    print(f"an app made the service's way costs {deferred / at_registration:.2f} of one "
          "made flask-smorest's way (best rounds)")


if __name__ == "__main__":
    main()
