"""Fixtures of the HTTP tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from http_support import Table


@pytest.fixture()
def table(client: Any) -> Callable[..., Table]:
    def make(**kwargs: Any) -> Table:
        return Table(client, **kwargs)

    return make
