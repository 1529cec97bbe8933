"""Every example of README.md and docs/*.md runs against a live service and prints what the
page shows (the convention: tests/live/docs_examples.py). One server for all the pages; the
commands of a page share their shell variables, in order, and nothing else."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from docs_examples import (
    ROOT,
    SHELL_LANGUAGES,
    Example,
    blocks,
    examples,
    json_mismatch,
    output_mismatch,
    pages,
)
from live_support import LiveServer

PAGES = pages()
# The administrator's token, set for the server and in the examples' shell (operations.md).
ADMIN_TOKEN = "the-administrators-token-of-the-docs-examples"
STATUS = re.compile(r"^__STATUS__ (\d{3})$", re.MULTILINE)
# Every curl of an example tells its status on standard error, whatever its options.
SHELLS_OWN = {"_", "status", "SHLVL", "PWD", "OLDPWD"}  # set by bash or by the script below
PRELUDE = """set -a -o pipefail
curl() { command curl -w '%{stderr}\\n__STATUS__ %{http_code}\\n' "$@"; }
"""


@pytest.fixture(scope="module")
def server(one_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(one_db_url, tmp_path_factory.mktemp("docs"), workers=1,
                      env={"ADMIN_TOKEN": ADMIN_TOKEN}).start()
    yield live
    live.stop()


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


def run(example: Example, variables: dict[str, str], port: int, state: Path) -> str:
    """Run one command with the page's variables so far; return what it printed and update
    the variables with what it set."""
    command = example.command.replace("localhost:8000", f"127.0.0.1:{port}")
    script = f'{PRELUDE}{command}\nstatus=$?\nenv -0 > "{state}"\nexit $status\n'
    base = {key: value for key, value in os.environ.items() if not key.startswith("BASH_FUNC")}
    done = subprocess.run(["bash", "-c", script], check=False, env={**base, **variables},
                          capture_output=True, text=True, timeout=60, cwd=state.parent)
    where = f"{example.where}: $ {example.command}"
    assert done.returncode == 0, f"{where}\nexited {done.returncode}: {done.stderr[-2000:]}"
    shown = "\n".join(example.output).strip()
    statuses = [int(code) for code in STATUS.findall(done.stderr)]
    if not shown.startswith("HTTP/"):
        failed = [code for code in statuses if code >= 400]
        assert not failed, f"{where}\nanswered {failed}: {done.stdout[-2000:]}"
    after = dict(item.split("=", 1) for item in state.read_text().split("\0") if "=" in item)
    for name, value in after.items():
        if name in SHELLS_OWN:
            continue
        if os.environ.get(name) != value and variables.get(name) != value:
            assert value not in ("", "null"), f"{where}\nset {name} to {value!r}"
            variables[name] = value
    return done.stdout


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_shell_block_is_run_or_says_it_is_not(page: Path) -> None:
    for block in blocks(page):
        transcript = any(line.startswith("$ ") for line in block.text.splitlines())
        if block.language not in SHELL_LANGUAGES and not (block.language == "" and transcript):
            continue
        if "not-run" in block.info.split():
            continue
        assert block.language == "console" and examples(block), (
            f"{block.where}: a shell block is either ```console with `$ ` commands (run by "
            f"this test) or ```{block.language or 'console'} not-run")


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_example_of_the_page_prints_what_the_page_shows(
        page: Path, server: LiveServer, tmp_path: Path) -> None:
    variables: dict[str, str] = {"ADMIN_TOKEN": ADMIN_TOKEN}
    for block in blocks(page):
        if block.language != "console" or "not-run" in block.info.split():
            continue
        for example in examples(block):
            printed = run(example, variables, server.port, tmp_path / "env")
            reason = output_mismatch(example.output, printed)
            assert reason is None, f"{example.where}: $ {example.command}\n{reason}\n" \
                                   f"printed: {printed[:1500]}"


def test_the_pages_have_examples_that_run() -> None:
    counted = sum(len(examples(block)) for page in PAGES for block in blocks(page)
                  if block.language == "console" and "not-run" not in block.info.split())
    assert counted >= 30, counted


# The comparison itself: a stale example fails.

def test_an_id_from_another_run_does_not_match() -> None:
    assert json_mismatch({"id": "3f2a"}, {"id": "9c1b"}) is not None
    assert json_mismatch({"id": "…"}, {"id": "9c1b"}) is None


def test_a_field_shown_must_come_back() -> None:
    assert json_mismatch({"total": 36, "rule": "§2.4"}, {"total": 36}) is not None


def test_a_list_shows_some_of_its_items_in_their_order() -> None:
    assert json_mismatch([{"side": 1}, {"side": 2}], [{"side": 0}, {"side": 1}, {"side": 2}]) \
        is None
    assert json_mismatch([{"side": 2}, {"side": 1}], [{"side": 1}, {"side": 2}]) is not None


def test_a_status_line_shown_must_be_the_status() -> None:
    printed = "HTTP/1.1 201 CREATED\r\nETag: \"abc\"\r\n\r\n{\"number\": 1}"
    assert output_mismatch(["HTTP/1.1 201 CREATED", "ETag: …", "", '{"number": 1}'],
                           printed) is None
    assert output_mismatch(["HTTP/1.1 200 OK", "", '{"number": 1}'], printed) is not None


def test_text_lines_shown_must_come_back_in_their_order() -> None:
    assert output_mismatch(["a…", "c"], "ab\nb\nc") is None
    assert output_mismatch(["c", "a…"], "ab\nb\nc") is not None
