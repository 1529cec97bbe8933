"""The project speaks for itself: every text file the repository tracks says what a thing is,
cites the project's own rulebook (``service/domain/*/rules.txt``) and docs (``docs/``), and
names no work-tracking item: no numbered issue, no ``#12`` reference, no ticket, and none of the
team's specification files, which a reader of the repository does not have.

The patterns are assembled from pieces, so this file does not match them itself.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
THIS = Path(__file__).resolve().relative_to(ROOT).as_posix()

#: The word and a number after it, in prose ("Issue N:", "issues N and M") or in a test's
#: name (``..._issue_N_...``).
NUMBERED_ISSUE = re.compile(r"(?<![a-z])issues?[ _]" + r"\d+", re.IGNORECASE)
#: "(#12)", "see #7": a hash and one to three digits, alone. Not an HTML entity (``&#39;``),
#: not a number format (``#,##0``), not part of a word or a path.
HASH_NUMBER = re.compile(r"(?<![&\w#/])" + "#" + r"\d{1,3}\b(?![\w-])")
#: The one standard the code cites by a hash and a number: Unicode's UTS #39.
STANDARDS = re.compile(r"UTS " + "#" + r"39\b")
#: A colour in three or six hex digits (``#000``, ``#666``) on a line that paints something.
COLOUR = re.compile(r"(fill|stroke|colou?r|background|border|shadow|theme)", re.IGNORECASE)
TICKET = re.compile(r"\bticket" + r"s?\b", re.IGNORECASE)
SPEC_FILES = re.compile(
    r"\b(?:RULES|EVENTS|CLUBS|NIGHT|API)" + r"\.md\b"
    + "|" + r"\.\./" + "shared")


#: The words the examples below are made of.
ISSUE, TICKET_WORD = "iss" + "ue", "tick" + "et"


@cache
def tracked_texts() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every tracked text file but this one, as its path and its lines."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                                check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: no list of tracked files")
    texts = []
    for name in filter(None, listed):
        path = ROOT / name
        if name == THIS or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:
            continue
        try:
            texts.append((name, tuple(data.decode("utf-8").splitlines())))
        except UnicodeDecodeError:
            continue
    return tuple(texts)


def offenders(found: Callable[[str], object]) -> list[str]:
    """``path:line: text`` for every line ``found(line)`` says is an offence."""
    return [f"{name}:{number}: {line.strip()[:120]}"
            for name, lines in tracked_texts()
            for number, line in enumerate(lines, 1) if found(line)]


def ticket_hash(line: str) -> bool:
    """Whether the line names an item by ``#`` and a number, once standards and colours are
    set aside."""
    for match in HASH_NUMBER.finditer(STANDARDS.sub("", line)):
        if len(match.group()) == 4 and COLOUR.search(line):
            continue
        return True
    return False


def test_no_tracked_file_names_a_numbered_issue() -> None:
    assert offenders(NUMBERED_ISSUE.search) == []


def test_no_tracked_file_names_an_item_by_hash_and_number() -> None:
    assert offenders(ticket_hash) == []


def test_no_tracked_file_speaks_of_tickets() -> None:
    assert offenders(TICKET.search) == []


def test_no_tracked_file_cites_the_team_s_specification_files() -> None:
    assert offenders(SPEC_FILES.search) == []


@pytest.mark.parametrize("text", [
    "a bye (" + ISSUE + " 25)", ISSUE + "s 18 and 15", "def test_x_" + ISSUE + "_25_repro():",
    "see (#" + "12)", "follow-up of #" + "7", "the " + TICKET_WORD + " says",
    "as EVENTS" + ".md says", "in ../" + "shared/NIGHT" + ".md",
])
def test_the_patterns_catch_what_they_are_for(text: str) -> None:
    assert any((NUMBERED_ISSUE.search(text), ticket_hash(text), TICKET.search(text),
                SPEC_FILES.search(text)))


@pytest.mark.parametrize("text", [
    "UTS #39 skeletons", "color: var(--muted, #666);", 'fill="#111"', "&#39;",
    'f"#,##0.{digits}"', "docs/events.md#duplicate", "a pair game's 12 players",
    "the administrator issues new tokens",
])
def test_the_patterns_let_the_project_s_own_words_be(text: str) -> None:
    assert not any((NUMBERED_ISSUE.search(text), ticket_hash(text), TICKET.search(text),
                    SPEC_FILES.search(text)))
