"""Replays the Mitigatti corpus (corpus.json, written by make_corpus.py from the independent
reference) through ``score_record`` and ``game_summary`` and compares with the reference's
expectations: each seat's marca, the pot, the score-sheet columns, the sole top scorer (three
players); for trick records each trick's winner and the Bagatte (seat, won, valid); for games
the balances, the pot, who collected it, money and the next dealer.

Records the rules refuse (``refusals``) raise exactly their expected problems: field, code
and the rulebook's section.

Also checks that the committed corpus is what make_corpus.py writes today, and the reference
against itself: generated hands of both sizes are legal plays, total 72 / 78, and settle to
zero (marca plus pot).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from service.domain.core.errors import RecordInvalid
from service.domain.games import game_summary, validate_game_setup
from service.domain.hand.scoring import score_record
from service.domain.options import resolve_options
from service.domain.registry import find_variant

HERE = Path(__file__).parent
CORPUS = HERE / "corpus.json"


def _load(name: str, file: str) -> Any:
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, HERE / file)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


R = _load("mitigatti_reference", "reference.py")
DATA = json.loads(CORPUS.read_text())


def _score(variant_id: str, record: dict[str, Any]) -> Any:
    variant = find_variant(variant_id)
    return score_record(variant, resolve_options(variant, {}), record)[1]


@pytest.mark.parametrize("case", [pytest.param(c, id=c["name"]) for c in DATA["cases"]])
def test_corpus_hand(case: dict[str, Any]) -> None:
    got = _score(case["variant"], case["record"]).to_json()
    want = case["expect"]
    assert got["marca"] == want["marca"]
    assert got["pot"] == want["pot"]
    assert got["columns"] == want["columns"]
    assert sum(got["marca"].values()) + got["pot"] == 0
    if case["variant"] == "mitigatti-3":
        assert got.get("top_scorer") == want["top_scorer"]
    if case["form"] == "tricks":
        assert [t["winner"] for t in got["tricks"]] == want["winners"]
        assert got["violations"] == []
        b = want["bagatto"]
        if b is None:
            assert got.get("bagatto") is None
        else:
            assert got["bagatto"]["seat"] == b["seat"]
            assert got["bagatto"]["won"] == b["won"]
            assert got["bagatto"].get("valid", True) == b["valid"]
            assert ("bagatte_attempt_invalid" in got["events"]) == (not b["valid"])


@pytest.mark.parametrize("game", [pytest.param(g, id=g["name"]) for g in DATA["games"]])
def test_corpus_game(game: dict[str, Any]) -> None:
    variant = find_variant(game["variant"])
    setup = validate_game_setup(variant, game["options"], game["players"], 0)
    results = [_score(game["variant"], r) for r in game["records"]]
    got = game_summary(setup, results).to_json()
    want = game["expect"]
    assert got["balances"] == want["balances"]
    assert got["pot"] == want["pot"]
    assert sum(got["balances"].values()) + got["pot"] == 10 * len(game["players"])
    assert [[c["seat"], c["marca"]] for c in got["pot_collected"]] == want["pot_collected"]
    assert got["next_dealer"] == want["next_dealer"]
    if "money" in want:
        assert got["money"] == want["money"]


@pytest.mark.parametrize("case", [pytest.param(c, id=c["name"]) for c in DATA["refusals"]])
def test_corpus_refusal(case: dict[str, Any]) -> None:
    with pytest.raises(RecordInvalid) as caught:
        _score(case["variant"], case["record"])
    found = [(p.field, p.code, p.rule) for p in caught.value.problems]
    assert found == [(e["field"], e["code"], e["rule"]) for e in case["expect"]["errors"]]


def test_corpus_is_what_make_corpus_writes() -> None:
    maker = _load("mitigatti_make_corpus", "make_corpus.py")
    assert maker.build() == DATA


@pytest.mark.parametrize("n", [4, 3])
def test_reference_generator_is_legal_and_totals(n: int) -> None:
    size = R.SIZES[n]
    for seed in range(40):
        h = R.generate(size, seed)
        held = {s: list(c) for s, c in h.hands.items()}
        leader = h.first_leader
        for trick in h.tricks:
            for i, card in enumerate(trick):
                seat = (leader + i) % n
                assert card in R.legal_cards(held[seat], trick[:i])
                held[seat].remove(card)
            leader = (leader + R.trick_winner(trick)) % n
        assert not any(held.values())
        assert len(h.tricks) == size.tricks
        assert sorted(c for t in h.tricks for c in t) + sorted(h.discard) != []
        assert sorted([c for t in h.tricks for c in t] + h.discard) == sorted(R.PACK)
        assert not set(h.discard) & (set(R.KINGS) | set(R.HONOURS))
        assert sum(h.side_points.values()) == size.total
        s = R.settle(h.facts())
        assert sum(s["marca"].values()) + s["pot"] == 0
        # the summary forms carry the same points
        for form in ("cards", "counting"):
            piles = h.summary_record(form)["piles"]
            if form == "cards":
                total = sum(R.card_points(c) for p in piles for c in p["cards"])
            else:
                total = sum(R.card_points(c) for p in piles for c in p["counting"])
            assert total == 52
