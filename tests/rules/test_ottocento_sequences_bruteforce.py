"""Ottocento combinations (rulebook §4.1, §4.3, R11, R18) checked against an independent brute
force.

The reference (tests/scenarios/ottocento/reference.py) evaluates a sequence by enumerating
every assignment of each wild card (``MATTO``, ``BEGATO``) to a position it may stand for, or to
"just adds to the length", keeping the assignments the rules allow and taking the best length.
Here:

- every example of R18 (exact lengths and points; ``ANGEL SUN`` is no sequence) and a set of
  hand-written cases for the wild-card rules, against BOTH the reference and the engine's
  ``best_sequences``;
- the brute force against its closed-form restatement, on many random subsets;
- the engine against the brute force on many seeded random subsets (the trumps with wilds, one
  suit with wilds, the Moors with wilds, the aces with wilds, mixed piles and whole random
  piles): for every sequence type the engine's length equals the brute-force best (never
  beaten, never better than a legal assignment allows), and ``cricche`` and ``card_points``
  agree with §4.1 / §4.3.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from service.domain.core.cards import BOLOGNESE_62


def _load_reference() -> Any:
    name = "ottocento_reference"
    if name not in sys.modules:
        path = Path(__file__).parents[1] / "scenarios" / "ottocento" / "reference.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


R = _load_reference()


def _engine() -> Any:
    return importlib.import_module("service.domain.ottocento.combos")


def cards_of(codes: list[str] | tuple[str, ...] | str) -> frozenset[Any]:
    if isinstance(codes, str):
        codes = codes.split()
    return frozenset(BOLOGNESE_62.card(c) for c in codes)


def engine_sequences(codes: Any) -> dict[str, tuple[int, int]]:
    """The engine's sequences of a set of cards: type -> (length, points)."""
    found = _engine().best_sequences(cards_of(codes))
    out: dict[str, tuple[int, int]] = {}
    for s in found:
        assert s.type not in out, f"two {s.type} sequences in {codes}"
        out[str(s.type)] = (int(s.length), int(s.points))
    return out


def reference_sequences(codes: Any) -> dict[str, tuple[int, int]]:
    if isinstance(codes, str):
        codes = codes.split()
    return {t: (n, R.sequence_points(n)) for t, n in R.sequences(codes).items()}


def engine_cricche(codes: Any) -> list[tuple[str, int, int]]:
    return sorted((str(c.type), int(c.count), int(c.points))
                  for c in _engine().cricche(cards_of(codes)))


# -- the pack ------------------------------------------------------------------------------------


def test_reference_pack_is_the_service_pack() -> None:
    assert tuple(c.code for c in BOLOGNESE_62.cards) == R.PACK


def test_pack_total_is_93() -> None:
    assert R.card_points(R.PACK, True) == 93


# -- R18 and the rules of §4.3, written out -------------------------------------------------------

#: (cards, {type: (length, points)}) — the R18 examples first, verbatim
R18_EXAMPLES = [
    ("ANGEL WORLD SUN MOON T16 T15", {"trumps": (6, 25)}),
    ("ANGEL WORLD SUN T16 T15", {"trumps": (5, 20)}),
    ("ANGEL WORLD MATTO T16", {"trumps": (4, 15)}),
    ("KS QS MATTO", {"S": (3, 10)}),
    ("KS QS CS 1S", {"S": (4, 15)}),
    ("KS QS CS JS 1S MATTO BEGATO", {"S": (7, 30)}),
    ("MORO1 MORO2 BEGATO", {"moors": (3, 10)}),
    ("ANGEL SUN", {}),
]

#: further cases, each derived by hand from the words of §4.3 / R11 / R18
RULE_CASES = [
    # the trump sequence needs the Angel, real
    ("WORLD SUN MOON T16 T15 MATTO BEGATO", {}),
    # ... and at least one of World/Sun/Moon real
    ("ANGEL MATTO BEGATO T16 T15", {}),
    # one real of World/Sun/Moon and no wild: not established
    ("ANGEL MOON T16 T15 T14", {}),
    # a wild stands for the second of World/Sun/Moon
    ("ANGEL MOON BEGATO T16", {"trumps": (4, 15)}),
    # the wild that establishes cannot also fill T16: T15 is not reached
    ("ANGEL WORLD MATTO T15 T14", {"trumps": (3, 10)}),
    # two wilds: one establishes, the other fills T16
    ("ANGEL WORLD MATTO BEGATO T15 T14", {"trumps": (6, 25)}),
    # a free wild fills T16
    ("ANGEL WORLD SUN MOON T15 MATTO", {"trumps": (6, 25)}),
    # two free wilds fill two gaps that are not adjacent
    ("ANGEL WORLD SUN MOON T15 T13 T12 MATTO BEGATO", {"trumps": (9, 40)}),
    # two adjacent gaps: the run ends; the wilds still add (R18)
    ("ANGEL WORLD SUN MOON T14 T13 MATTO BEGATO", {"trumps": (6, 25)}),
    ("ANGEL WORLD SUN MOON T16 T13 T12 MATTO BEGATO", {"trumps": (7, 30)}),
    # a gap with no wild: the run ends
    ("ANGEL WORLD SUN T16 T14 T13", {"trumps": (4, 15)}),
    # the whole run, down to T5 and no lower (R11); Moors and BEGATO are not members
    ("ANGEL WORLD SUN MOON " + " ".join(f"T{n}" for n in range(16, 4, -1)),
     {"trumps": (16, 75)}),
    ("ANGEL WORLD SUN MOON " + " ".join(f"T{n}" for n in range(16, 4, -1)) + " MATTO BEGATO",
     {"trumps": (18, 85)}),
    ("ANGEL WORLD SUN MOON " + " ".join(f"T{n}" for n in range(16, 5, -1)) + " MORO1 MATTO",
     {"trumps": (16, 75)}),
    # T5 missing filled by a wild: the run stops there anyway
    ("ANGEL WORLD SUN " + " ".join(f"T{n}" for n in range(16, 5, -1)) + " MATTO",
     {"trumps": (15, 70)}),
    # suits: the King real, two of Q/C/J with one real, the ace after
    ("KH QH 1H", {}),
    ("KH MATTO BEGATO 1H", {}),
    ("QH CH JH 1H MATTO", {}),
    ("KD JD MATTO 1D", {"D": (4, 15)}),
    ("KC CC JC", {"C": (3, 10)}),
    ("KC QC CC JC", {"C": (4, 15)}),
    ("KC QC CC JC 1C", {"C": (5, 20)}),
    ("KC QC CC JC 1C BEGATO", {"C": (6, 25)}),
    # Moors and aces: three or more, two real
    ("MORO1 MORO2", {}),
    ("MORO3 MATTO BEGATO", {}),
    ("MORO1 MORO2 MORO3 MORO4", {"moors": (4, 15)}),
    ("MORO1 MORO2 MORO3 MORO4 MATTO BEGATO", {"moors": (6, 25)}),
    ("1H 1D MATTO", {"aces": (3, 10)}),
    ("1H 1D 1C 1S MATTO", {"aces": (5, 20)}),
    ("1S MATTO BEGATO", {}),
    # every wild is used in every sequence
    ("KS QS KH CH 1H 1C MATTO",
     {"S": (3, 10), "H": (4, 15), "aces": (3, 10)}),
    ("ANGEL WORLD SUN KS QS CS MORO1 MORO2 MORO3 1S 1D MATTO BEGATO",
     {"trumps": (5, 20), "S": (6, 25), "moors": (5, 20), "aces": (4, 15)}),
]


@pytest.mark.parametrize(("codes", "expected"), R18_EXAMPLES + RULE_CASES,
                         ids=[c for c, _ in R18_EXAMPLES + RULE_CASES])
def test_reference_rule_cases(codes: str, expected: dict[str, tuple[int, int]]) -> None:
    assert reference_sequences(codes) == expected
    assert {t: (n, R.sequence_points(n)) for t, n in R.sequences_formula(codes.split()).items()
            } == expected


@pytest.mark.parametrize(("codes", "expected"), R18_EXAMPLES, ids=[c for c, _ in R18_EXAMPLES])
def test_engine_r18_examples(codes: str, expected: dict[str, tuple[int, int]]) -> None:
    assert engine_sequences(codes) == expected


@pytest.mark.parametrize(("codes", "expected"), RULE_CASES, ids=[c for c, _ in RULE_CASES])
def test_engine_rule_cases(codes: str, expected: dict[str, tuple[int, int]]) -> None:
    assert engine_sequences(codes) == expected


CRICCA_CASES = [
    ("ANGEL WORLD MATTO", [("tarocchi", 3, 18)]),
    ("ANGEL WORLD BEGATO MATTO", [("tarocchi", 4, 36)]),
    ("ANGEL WORLD SUN MOON", []),
    ("KH KD KC KS", [("K", 4, 34)]),
    ("QH QD QC", [("Q", 3, 14)]),
    ("QH QD QC QS", [("Q", 4, 28)]),
    ("CH CD CS", [("C", 3, 13)]),
    ("CH CD CS CC", [("C", 4, 26)]),
    ("JH JD JS", [("J", 3, 12)]),
    ("JH JD JS JC", [("J", 4, 24)]),
    ("KH KD QC QS JH JD", []),
    ("KH KD KC QC QS QD JH JD JS ANGEL WORLD BEGATO",
     [("J", 3, 12), ("K", 3, 17), ("Q", 3, 14), ("tarocchi", 3, 18)]),
]


@pytest.mark.parametrize(("codes", "expected"), CRICCA_CASES, ids=[c for c, _ in CRICCA_CASES])
def test_cricche_cases(codes: str, expected: list[tuple[str, int, int]]) -> None:
    assert sorted(R.cricche(codes.split())) == sorted(expected)
    assert engine_cricche(codes) == sorted(expected)


CARD_POINT_CASES = [
    ("ANGEL WORLD", False, 9),
    ("KH 7H", False, 5),
    ("QH CH JH 1H", False, 8),
    ("6S 7S 8S 9S", True, 8),
    ("BEGATO MATTO MORO1 T5", False, 10),
]


@pytest.mark.parametrize(("codes", "last", "points"), CARD_POINT_CASES,
                         ids=[c for c, _, _ in CARD_POINT_CASES])
def test_card_points_cases(codes: str, last: bool, points: int) -> None:
    assert R.card_points(codes.split(), last) == points
    assert _engine().card_points(cards_of(codes), last) == points


# -- random cross-checks ----------------------------------------------------------------------------

TRUMP_POOL = [c for c in R.PACK if R.is_trump(c)]                     # with BEGATO and the Moors
COUNTING_POOL = [c for c in R.PACK if R.is_counting(c) and c not in R.WILDS]


def _with_wilds(rng: random.Random, cards: list[str]) -> list[str]:
    return cards + [w for w in R.WILDS if w not in cards and rng.random() < 0.55]


def _subsets(seed: int, n: int) -> list[list[str]]:
    """Seeded random card sets of every family the rules treat differently."""
    rng = random.Random(seed)
    out: list[list[str]] = []
    top = ["ANGEL", "WORLD", "SUN", "MOON"]
    for _ in range(n):
        kind = rng.randrange(7)
        if kind == 0:       # high trumps, most of the run, with gaps
            base = [c for c in top if rng.random() < 0.75]
            base += [t for t in R.NUMBERED if rng.random() < 0.7]
        elif kind == 1:     # any trumps
            base = rng.sample(TRUMP_POOL, rng.randrange(0, len(TRUMP_POOL) + 1))
        elif kind == 2:     # one suit's counting cards
            s = rng.choice(R.SUITS)
            base = [r + s for r in ("K", "Q", "C", "J", "1") if rng.random() < 0.6]
        elif kind == 3:     # Moors
            base = [m for m in R.MOORS if rng.random() < 0.55]
        elif kind == 4:     # aces
            base = [a for a in R.ACES if rng.random() < 0.55]
        elif kind == 5:     # a mixed handful of counting cards
            base = rng.sample(COUNTING_POOL, rng.randrange(0, 25))
        else:               # a whole random pile of whole tricks
            base = rng.sample(R.PACK, 4 * rng.randrange(0, 16))
        out.append(base if kind == 6 else _with_wilds(rng, base))
    return out


def test_reference_brute_force_equals_its_closed_form() -> None:
    for cards in _subsets(7, 6000):
        assert R.sequences(cards) == R.sequences_formula(cards), cards


def test_reference_brute_force_exhaustive_on_the_trump_top() -> None:
    """Every subset of ANGEL WORLD SUN MOON T16 T15 T14 T13 with every choice of wilds."""
    base = ["ANGEL", "WORLD", "SUN", "MOON", "T16", "T15", "T14", "T13"]
    for mask in range(1 << len(base)):
        for wild_mask in range(4):
            cards = [c for i, c in enumerate(base) if mask >> i & 1]
            cards += [w for i, w in enumerate(R.WILDS) if wild_mask >> i & 1]
            assert R.sequences(cards) == R.sequences_formula(cards), cards


def test_engine_sequences_equal_brute_force_on_random_subsets() -> None:
    wrong = []
    for cards in _subsets(2024, 3000):
        got = engine_sequences(cards)
        want = reference_sequences(cards)
        if got != want:
            wrong.append((sorted(cards, key=R.PACK_INDEX.__getitem__), got, want))
    assert not wrong, f"{len(wrong)} disagreements, first: {wrong[:5]}"


def test_engine_sequences_exhaustive_on_the_trump_top() -> None:
    base = ["ANGEL", "WORLD", "SUN", "MOON", "T16", "T15", "T14", "T13"]
    wrong = []
    for mask in range(1 << len(base)):
        for wild_mask in range(4):
            cards = [c for i, c in enumerate(base) if mask >> i & 1]
            cards += [w for i, w in enumerate(R.WILDS) if wild_mask >> i & 1]
            got, want = engine_sequences(cards), reference_sequences(cards)
            if got != want:
                wrong.append((cards, got, want))
    assert not wrong, f"{len(wrong)} disagreements, first: {wrong[:5]}"


def test_engine_sequences_exhaustive_on_one_suit_and_the_sets() -> None:
    wrong = []
    for family in (["KS", "QS", "CS", "JS", "1S"], ["KD", "QD", "CD", "JD", "1D"],
                   list(R.MOORS), list(R.ACES)):
        for mask in range(1 << len(family)):
            for wild_mask in range(4):
                cards = [c for i, c in enumerate(family) if mask >> i & 1]
                cards += [w for i, w in enumerate(R.WILDS) if wild_mask >> i & 1]
                got, want = engine_sequences(cards), reference_sequences(cards)
                if got != want:
                    wrong.append((cards, got, want))
    assert not wrong, f"{len(wrong)} disagreements, first: {wrong[:5]}"


def test_engine_cricche_and_card_points_on_random_piles() -> None:
    rng = random.Random(93)
    wrong = []
    for _ in range(2000):
        cards = rng.sample(R.PACK, 2 * rng.randrange(0, 32))
        last = rng.random() < 0.5
        got_c, want_c = engine_cricche(cards), sorted(R.cricche(cards))
        got_p, want_p = _engine().card_points(cards_of(cards), last), R.card_points(cards, last)
        if got_c != want_c or got_p != want_p:
            wrong.append((cards, last, got_c, want_c, got_p, want_p))
    assert not wrong, f"{len(wrong)} disagreements, first: {wrong[:3]}"


def test_engine_card_points_partition_totals_93() -> None:
    rng = random.Random(5)
    for _ in range(300):
        pack = list(R.PACK)
        rng.shuffle(pack)
        cut = 2 * rng.randrange(0, 32)
        a, b = pack[:cut], pack[cut:]
        last = rng.random() < 0.5
        total = (_engine().card_points(cards_of(a), last)
                 + _engine().card_points(cards_of(b), not last))
        assert total == 93, (a, b)


def test_engine_trump_sequence_exhaustive() -> None:
    """Every set of trumps holding the Angel: each choice of World/Sun/Moon, of wild cards and
    of the twelve numbered trumps (131 072 sets), against the reference's closed form (itself
    checked against the brute force above)."""
    wrong = []
    engine = _engine()
    by_code = {c: BOLOGNESE_62.card(c) for c in R.PACK}
    for top in range(8):
        for wild_mask in range(4):
            base = ["ANGEL"] + [t for i, t in enumerate(R.TOP) if top >> i & 1]
            base += [w for i, w in enumerate(R.WILDS) if wild_mask >> i & 1]
            for mask in range(1 << 12):
                cards = base + [t for i, t in enumerate(R.NUMBERED_DESC) if mask >> i & 1]
                found = engine.best_sequences(frozenset(by_code[c] for c in cards))
                got = {str(s.type): int(s.length) for s in found}.get("trumps")
                want = R.sequences_formula(cards).get("trumps")
                if got != want:
                    wrong.append((cards, got, want))
    assert not wrong, f"{len(wrong)} disagreements, first: {wrong[:5]}"
