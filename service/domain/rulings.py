"""The rules versions, and the rulings that only refuse records, each by the version that
brought it.

Every stored hand carries the rules version it was recorded under (``RULES_VERSION`` then),
and every result is scored again from its record when it is read. A ruling that only refuses
records (a record it accepts scores exactly as before, as R19 does) binds the records made
from the version that brought it on: a hand recorded and accepted earlier keeps reading with
the result it had, and says that the rules now would refuse it. New records and corrections
(a correction is a new version, under the rules of its day) are held to every ruling.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

#: Stored with every hand version: results are derived from the record by these rules.
RULES_VERSION = "2026.11.3"

#: Each ruling that only refuses records, by the rules version that brought it.
REFUSALS_SINCE: Mapping[str, str] = MappingProxyType({
    "R19": "2026.11.3",  # T20 is never beaten: it ends in its holder's side's pile
})


def _order(version: str) -> tuple[int, ...] | None:
    """A rules version as numbers to compare ("2026.11.2" < "2026.11.10"); None when it is
    not written as dotted numbers."""
    parts = version.split(".")
    if not all(part.isdecimal() for part in parts):
        return None
    return tuple(int(part) for part in parts)


def waived_rulings(rules_version: str) -> frozenset[str]:
    """The refusing rulings a hand recorded under ``rules_version`` was not held to: those a
    later version brought. A version not written as dotted numbers is held to every one."""
    recorded = _order(rules_version)
    if recorded is None:
        return frozenset()
    return frozenset(rule for rule, since in REFUSALS_SINCE.items()
                     if (brought := _order(since)) is not None and recorded < brought)
