"""The examples of README.md and docs/*.md, as the reader sees them, and how one is checked.

The convention (docs/development.md, "Examples that run"):

- A ```console block is run (unless its fence says ``not-run``). Each line beginning with ``$ `` is a command for bash; it goes
  on over the next lines while it ends with ``\\`` or leaves a quote open. The lines after a
  command, up to the next command, are what it prints, abridged as the page likes:
  a JSON document is compared field by field (an object shows some of its fields, a list some
  of its items in their order, ``"…"`` stands for any value: ids, tokens, timestamps, ETags);
  other text is compared line by line (the lines shown appear in that order, ``…`` inside a
  line stands for anything). A response printed with ``curl -i`` begins with its status line
  and the headers shown (compared as above), then a blank line and the body.
- Every ``curl`` of a command must answer below 400 unless its output shows its status line.
- Commands of a page share their shell variables, in order: an id is captured by an earlier
  command of the same page (``GAME=$(curl … | jq -r .id)``), and a captured variable that is
  empty or ``null`` fails the example.
- ``localhost:8000`` is the address of the server the test started; ``$ADMIN_TOKEN`` is its
  administrator's token, as in the shell of the one who runs the instance.
- A shell block that is not run says so: ```sh not-run or ```console not-run (an operator's
  command: deploy, backup, Docker). Any other shell block (sh, bash, shell, console without
  ``$ ``, or a block of no language holding ``$ `` commands) is refused, so that an example is
  either run or declared not to be.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SHELL_LANGUAGES = {"sh", "bash", "shell", "console", "zsh"}
ANY = "…"


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@dataclass
class Block:
    page: Path
    line: int  # of the opening fence, 1-based
    info: str  # the fence's info string: "console", "sh not-run", "json"…
    text: str

    @property
    def language(self) -> str:
        return (self.info.split() or [""])[0]

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


@dataclass
class Example:
    block: Block
    command: str
    output: list[str] = field(default_factory=list)
    line: int = 0

    @property
    def where(self) -> str:
        return f"{self.block.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    found: list[Block] = []
    lines = page.read_text().splitlines()
    index = 0
    while index < len(lines):
        opening = re.match(r"^(`{3,})(.*)$", lines[index])
        if opening is None:
            index += 1
            continue
        fence, info = opening.group(1), opening.group(2).strip()
        end = index + 1
        while end < len(lines) and not lines[end].startswith(fence):
            end += 1
        found.append(Block(page, index + 1, info, "\n".join(lines[index + 1:end])))
        index = end + 1
    return found


def _complete(command: str) -> bool:
    if command.endswith("\\"):
        return False
    try:
        shlex.split(command)
    except ValueError:  # a quote left open: the command goes on
        return False
    return True


def examples(block: Block) -> list[Example]:
    found: list[Example] = []
    lines = block.text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.startswith("$ "):
            if found:
                found[-1].output.append(line)
            elif line.strip():
                raise ValueError(f"{block.where}: text before the first command: {line!r}")
            index += 1
            continue
        start = index
        command = line[2:]
        while not _complete(command) and index + 1 < len(lines):
            index += 1
            command += "\n" + lines[index]
        found.append(Example(block, command, line=block.line + 1 + start))
        index += 1
    return found


# What comes back, against what the page shows.

def _text_matches(shown: str, actual: str) -> bool:
    pattern = ".*".join(re.escape(part) for part in shown.split(ANY))
    return re.fullmatch(pattern, actual, re.DOTALL) is not None


def json_mismatch(shown: Any, actual: Any, path: str = "$") -> str | None:
    """Why ``actual`` is not what ``shown`` shows, or None."""
    if shown == ANY:
        return None
    if isinstance(shown, dict):
        if not isinstance(actual, dict):
            return f"{path}: an object was shown, {json.dumps(actual)[:200]} came back"
        for key, value in shown.items():
            if key not in actual:
                return f"{path}.{key}: shown, but not in what came back"
            reason = json_mismatch(value, actual[key], f"{path}.{key}")
            if reason:
                return reason
        return None
    if isinstance(shown, list):
        if not isinstance(actual, list):
            return f"{path}: a list was shown, {json.dumps(actual)[:200]} came back"
        position = 0
        for number, item in enumerate(shown):
            while position < len(actual) and json_mismatch(item, actual[position]) is not None:
                position += 1
            if position == len(actual):
                closest = [json_mismatch(item, candidate) for candidate in actual]
                return (f"{path}[{number}]: no item in order matches "
                        f"{json.dumps(item, ensure_ascii=False)[:200]} "
                        f"({next((c for c in closest if c), 'the list is empty')})")
            position += 1
        return None
    if isinstance(shown, str) and isinstance(actual, str) and ANY in shown:
        return None if _text_matches(shown, actual) else f"{path}: {actual!r} is not {shown!r}"
    if shown != actual or type(shown) is not type(actual):
        return f"{path}: {json.dumps(actual, ensure_ascii=False)[:200]} came back, " \
               f"{json.dumps(shown, ensure_ascii=False)} shown"
    return None


def lines_mismatch(shown: list[str], actual: list[str]) -> str | None:
    position = 0
    for line in shown:
        while position < len(actual) and not _text_matches(line.rstrip(), actual[position].rstrip()):
            position += 1
        if position == len(actual):
            return f"the line {line!r} does not come back (in this order)"
        position += 1
    return None


def output_mismatch(shown_lines: list[str], printed: str) -> str | None:
    """Why ``printed`` is not what the page shows (``shown_lines``), or None."""
    shown = "\n".join(shown_lines).strip("\n")
    if not shown:
        return None
    printed = printed.replace("\r\n", "\n")
    if shown.startswith("HTTP/"):
        shown_head, _, shown_body = shown.partition("\n\n")
        head, _, body = printed.partition("\n\n")
        shown_status, *shown_headers = shown_head.splitlines()
        status, *headers = head.splitlines()
        if shown_status.split()[1] != status.split()[1]:
            return f"status {status.split()[1]} came back, {shown_status.split()[1]} shown"
        named = {h.partition(":")[0].lower(): h.partition(":")[2].strip() for h in headers}
        for header in shown_headers:
            name, _, value = header.partition(":")
            if name.lower() not in named:
                return f"the header {name} does not come back"
            if not _text_matches(value.strip(), named[name.lower()]):
                return f"{name}: {named[name.lower()]!r} came back, {value.strip()!r} shown"
        shown, printed = shown_body.strip("\n"), body
        if not shown:
            return None
    try:
        expected = json.loads(shown)
    except json.JSONDecodeError:
        return lines_mismatch(shown.splitlines(), printed.splitlines())
    try:
        actual = json.loads(printed)
    except json.JSONDecodeError:
        return f"JSON was shown, this came back: {printed[:300]!r}"
    return json_mismatch(expected, actual)
