"""The rulebook in the app (``GET /variants/{id}/rules``): every variant's book in
sections; every ``rule`` that a problem, a result line, a payment or a violation of that variant
names is the ``ref`` of a section of its book. The rules are gathered from random legal hands
and from records spoilt at random in every field, so that the scorer's refusals of every kind
are met; and every ref the rules core writes belongs to some book."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from service.domain.core.errors import RecordInvalid
from service.domain.core.text import read_sections, written_sections
from service.domain.hand.records import read_hand_record
from service.domain.hand.scoring import score_record
from service.domain.options import resolve_options
from service.domain.registry import VARIANTS, find_variant
from service.domain.rulebook import SECTIONS, rulebook
from tests.legal_play import random_legal_hand

DOMAIN = Path(__file__).resolve().parents[2] / "service" / "domain"
REF = re.compile(r"""["'](§\d(?:\.\d)?|R\d{1,2})["']""")


def book(vid: str) -> set[str]:
    return {s.ref for s in rulebook(find_variant(vid))}


def test_every_variant_has_a_book_of_distinct_sections() -> None:
    for vid, variant in VARIANTS.items():
        refs = [s.ref for s in rulebook(variant)]
        assert len(refs) == len(set(refs)), vid
        assert {"§0", "§1", "§6", variant.rules_section} <= set(refs), vid
        assert all(s.title and len(s.text) > 40 for s in rulebook(variant)), vid


def test_every_ref_the_core_writes_is_in_a_book() -> None:
    written = {m for path in DOMAIN.rglob("*.py") for m in REF.findall(path.read_text())}
    assert written - set(SECTIONS) == set()
    in_books = {ref for vid in VARIANTS for ref in book(vid)}
    assert written - in_books == set()


def test_every_ref_a_variant_names_by_its_data_is_in_its_book() -> None:
    for vid, v in VARIANTS.items():
        named = {v.rules_section, v.totals_rule, v.totals_section, v.discard_rule,
                 v.deal_section} | ({v.bagatto.rule} if v.bagatto else set())
        assert named <= book(vid), (vid, named - book(vid))


# -- the prose as data: each family's rules.txt ------------------------------------------------

WRITTEN = """# a comment, then a blank line

§9 A title with   spaces
The first line of its text
# a comment inside a section is passed over
  and the second.

R99 Another
One line.
"""


def test_a_rulebook_file_is_read_as_headings_and_their_joined_lines() -> None:
    assert list(written_sections(WRITTEN)) == [
        (3, "§9", "A title with   spaces", "The first line of its text and the second."),
        (8, "R99", "Another", "One line."),
    ]
    (section,) = read_sections(WRITTEN.replace("\n\nR99", "\nR99"))  # no blank: one text
    assert (section.ref, section.title, section.text) == (
        "§9", "A title with   spaces",
        "The first line of its text and the second. R99 Another One line.")


def test_every_rulebook_file_is_installed_with_the_package() -> None:
    """pyproject.toml's package data covers every rules.txt the rulebook reads (a `pip install
    .` without them could not start)."""
    import fnmatch
    import tomllib

    config = tomllib.loads((DOMAIN.parents[1] / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["service.domain"]
    files = sorted(str(p.relative_to(DOMAIN)) for p in DOMAIN.rglob("rules.txt"))
    assert files == ["gatti/rules.txt", "mitigatti/rules.txt", "ottocento/rules.txt",
                     "rules.txt"]
    for name in files:
        assert any(fnmatch.fnmatch(name, p) for p in patterns), name


def test_the_catalogues_gather_every_title_and_text_of_the_books() -> None:
    from service.locale.__main__ import extracted

    ids = {str(m.id) for m in extracted() if m.id}
    sentences = {str(w) for section in SECTIONS.values() for w in (section.title, section.text)}
    assert sentences - ids == set()


# -- what the scorer says of records spoilt at random ---------------------------------------


def _spoil(vid: str, rng: random.Random) -> dict[str, Any]:
    variant = find_variant(vid)
    hand = random_legal_hand(vid, rng, dealer=rng.randrange(variant.seats))
    codes = [c.code for c in variant.pack.cards]
    seats = variant.seats
    kinds = [m.kind for m in variant.melds]
    record: dict[str, Any] = {"dealer": hand["dealer"]}
    if rng.random() < 0.5:
        record["tricks"] = hand["tricks"]
        if rng.random() < 0.5 and record["tricks"]:
            i, j = rng.randrange(len(hand["tricks"])), rng.randrange(len(hand["tricks"]))
            a, b = rng.randrange(len(hand["tricks"][i])), rng.randrange(len(hand["tricks"][j]))
            record["tricks"] = [list(t) for t in hand["tricks"]]
            record["tricks"][i][a], record["tricks"][j][b] = (record["tricks"][j][b],
                                                              record["tricks"][i][a])
    else:
        n = rng.choice([1, 2, 3])
        form = rng.choice(["points", "summary", "cards"])
        piles = []
        for side in rng.sample(range(3), n):
            if form == "points":
                pile: dict[str, Any] = {"side": side, "points": rng.randrange(0, 95)}
                if rng.random() < 0.4 and kinds:
                    pile["combinations"] = [{"kind": rng.choice(kinds + ["gatti", "cricca"]),
                                             "type": rng.choice(["K", "trumps", "H"]),
                                             "count": rng.randrange(3, 8),
                                             "rank": rng.choice(["K", "Q"]),
                                             "suit": rng.choice("HDCS")}]
                    for key in rng.sample(["type", "count", "rank", "suit"], rng.randrange(4)):
                        del pile["combinations"][0][key]
            elif form == "summary":
                pile = {"side": side, "tricks": rng.randrange(0, 27),
                        "counting": rng.sample(codes, rng.randrange(0, 12))}
            else:
                pile = {"side": side, "cards": rng.sample(codes, rng.randrange(0, 40))}
            piles.append(pile)
        record["piles"] = piles
    if rng.random() < 0.5 and variant.extra:
        record["discard"] = rng.sample(codes, variant.extra if rng.random() < 0.8 else 1)
        if rng.random() < 0.1:
            record["discard"][0] = "ZZ"  # no card of any pack (§1)
    if rng.random() < 0.5 and kinds:
        record["declarations"] = [
            {"seat": rng.randrange(seats), "kind": rng.choice(kinds),
             **rng.choice([{"cards": rng.sample(codes, rng.randrange(2, 12))},
                           {"count": rng.randrange(1, 25)}, {"rank": rng.choice("JCQK")},
                           {"suit": rng.choice("HDCS")}, {}])}
            for _ in range(rng.randrange(1, 4))]
    if rng.random() < 0.3:
        record["fool"] = {"played_by": rng.randrange(seats), "covered": rng.random() < 0.5}
    if rng.random() < 0.3:
        record["bagatto"] = {"seat": rng.randrange(seats), "won": rng.random() < 0.5}
    if rng.random() < 0.4:
        record["last_trick"] = rng.randrange(seats)
    if rng.random() < 0.4 or variant.partnership == "call":
        record["call"] = {"card": rng.choice(["KH", "QS", "T20", "2C"]),
                          "partner": rng.randrange(seats)}
    if variant.contracts and rng.random() < 0.9:
        record["contract"] = {"type": rng.choice(["call", "solo", "surrender"]),
                              "declarer": rng.randrange(seats),
                              "called_card": rng.choice(["KH", "T20", "FOOL", "KS"])}
    if rng.random() < 0.05:
        record["thrown_in"] = True
    return record


def _rules_said(vid: str, record: dict[str, Any]) -> set[str]:
    variant = find_variant(vid)
    try:
        _, result = score_record(variant, resolve_options(variant, {}), record)
    except RecordInvalid as error:
        return {p.rule for p in error.problems if p.rule}
    data = result.to_json()
    said = {line.get("rule") for side in data["sides"] for line in side["lines"]}
    said |= {p.get("rule") for p in data.get("payments") or []}
    return {r for r in said if r}


@pytest.mark.parametrize("vid", sorted(VARIANTS))
def test_every_rule_a_variant_names_is_in_its_book(vid: str) -> None:
    rng = random.Random(f"rulebook-{vid}")
    said: set[str] = set()
    for _ in range(250):
        said |= _rules_said(vid, _spoil(vid, rng))
        legal = random_legal_hand(vid, rng)
        record, problems, _ = read_hand_record(find_variant(vid), legal)
        if record is not None and not problems:
            said |= _rules_said(vid, legal)
    assert len(said) >= 6, said  # the spoiling reaches many clauses
    assert said - book(vid) == set(), sorted(said - book(vid))
