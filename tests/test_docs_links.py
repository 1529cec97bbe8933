"""The README's and docs/'s relative links lead somewhere: the file or folder exists, and a
``#fragment`` names a heading of the page it points to (as GitHub makes the heading's
anchor)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)|\bsrc=\"([^\"]+)\"")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation but ``-`` and ``_`` dropped,
    spaces made hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text())
    return {anchor(match) for match in re.findall(r"^#{1,6} (.+)$", text, re.MULTILINE)}


def links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text())
    return [a or b for a, b in LINK.findall(text)]


def broken(page: Path) -> list[str]:
    found = []
    for target in links(page):
        if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
            continue
        path, _, fragment = target.partition("#")
        destination = (page.parent / path).resolve() if path else page
        if not destination.exists():
            found.append(f"{target}: no such file")
        elif fragment and destination.suffix == ".md" and fragment not in anchors(destination):
            found.append(f"{target}: no heading #{fragment} in {destination.name}")
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_of_the_page_leads_somewhere(page: Path) -> None:
    assert broken(page) == []


def test_a_link_to_a_missing_file_or_heading_is_broken(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## A heading, with (`code`)\n")
    page = tmp_path / "page.md"
    page.write_text("[ok](other.md#a-heading-with-code) [no](missing.md) "
                    "[bad](other.md#elsewhere) <img src=\"gone.png\">\n")
    assert broken(page) == ["missing.md: no such file",
                            "other.md#elsewhere: no heading #elsewhere in other.md",
                            "gone.png: no such file"]
