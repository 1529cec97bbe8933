"""A game's summary goes on from the summary of its earlier hands exactly as it is computed
from all of them: ``game_summary(s, a + b) == game_summary(s, b, game_summary(s, a))``.

A stored game adds each new hand to its cached summary this way, so the property is what
keeps a long game's totals, R10 / R12 / R13 endings, thrown-in deals and marca ledger right.
The hands are synthetic results (columns, acts, payments, events), which reach every branch
of the summary whatever the cards.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain.core.results import Act, HandResult, Payment
from service.domain.games import GameSetup, game_summary, validate_game_setup
from service.domain.registry import find_variant

VARIANTS = ["gatti-3", "gatti-4", "ottocento", "mitigatti-3", "mitigatti-4"]


def _setup(variant_id: str, marca_value: str | None) -> GameSetup:
    variant = find_variant(variant_id)
    options = {"marca_value": marca_value} if variant.settles_in_marca and marca_value else {}
    return validate_game_setup(variant, options, [f"P{i}" for i in range(variant.seats)], 0)


@st.composite
def hand(draw: Any, setup: GameSetup) -> HandResult:
    keys = [c.key for c in setup.columns()]
    seats = setup.variant.seats
    columns = tuple((k, draw(st.integers(-300, 500))) for k in keys)
    acts = tuple(Act(0, draw(st.sampled_from(keys)), draw(st.integers(0, 400)))
                 for _ in range(draw(st.integers(0, 3))))
    payments = None
    facts: tuple[tuple[str, Any], ...] = ()
    if setup.variant.settles_in_marca:
        payments = tuple(
            Payment("x", draw(st.integers(0, seats - 1)),
                    draw(st.none() | st.integers(0, seats - 1)), draw(st.integers(0, 3)),
                    "", "R15")
            for _ in range(draw(st.integers(0, 4))))
        top = draw(st.none() | st.integers(0, seats - 1))
        facts = () if top is None else (("top_scorer", top),)
    thrown = draw(st.integers(0, 9)) == 0
    return HandResult((), columns, events=("thrown_in",) if thrown else (), facts=facts,
                      acts=acts, payments=payments)


@settings(max_examples=150, deadline=None, database=None)
@given(st.data())
def test_summary_goes_on_from_the_earlier_hands_as_from_scratch(data: Any) -> None:
    setup = _setup(data.draw(st.sampled_from(VARIANTS)),
                   data.draw(st.sampled_from([None, "0.50"])))
    results = data.draw(st.lists(hand(setup), max_size=25))
    running = game_summary(setup, [])
    for n, result in enumerate(results, start=1):
        if running.finished:
            break
        running = game_summary(setup, [result], running)
        assert running == game_summary(setup, results[:n])
    split = data.draw(st.integers(0, len(results)))
    before = game_summary(setup, results[:split])
    if not before.finished:
        assert game_summary(setup, results[split:], before) == game_summary(setup, results)
