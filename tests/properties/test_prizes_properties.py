"""Properties of the prize list shared by the standings, for any prizes and any places (ties
anywhere, more prizes than entrants or fewer):

- the money the sharers of a place receive sums exactly to the money of the places they
  cover, to the cent, and no share differs from another of the same place by more than a
  cent (the odd cents, said with the award);
- every prize in kind of a covered place is listed with each of its sharers;
- a place that no entrant reaches is said unawarded, and only such a place;
- an entrant receives an award exactly when a place it covers has a prize.
"""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain.events.prizes import CENT, Prize, share_prizes

SETTINGS = settings(max_examples=80, deadline=None, database=None)

amounts = st.integers(0, 10**7).map(lambda cents: Decimal(cents) * CENT)
prizes = st.lists(st.builds(Prize, st.one_of(st.none(), amounts),
                            st.one_of(st.none(), st.sampled_from(["a ham", "a cup", "wine"])))
                  .filter(lambda p: p.amount is not None or p.label is not None), max_size=12)


@st.composite
def placings(draw: st.DrawFn) -> list[tuple[int, int]]:
    """Entrants best first and their places as the standings give them (1, 1, 3, …)."""
    sizes = draw(st.lists(st.integers(1, 5), max_size=8))
    out, entrant = [], 0
    for size in sizes:
        place = entrant + 1
        for _ in range(size):
            out.append((entrant, place))
            entrant += 1
    return out


@SETTINGS
@given(prizes, placings())
def test_the_shares_sum_to_the_prizes_of_the_covered_places(
        found: list[Prize], places: list[tuple[int, int]]) -> None:
    shared = share_prizes(found, places)
    by_place: dict[int, list[int]] = {}
    for entrant, place in places:
        by_place.setdefault(place, []).append(entrant)
    awards = {a.entrant: a for a in shared.awards}
    assert len(awards) == len(shared.awards)
    for place, sharers in by_place.items():
        covered = found[place - 1:place - 1 + len(sharers)]
        money = [p.amount for p in covered if p.amount is not None]
        labels = tuple(p.label for p in covered if p.label is not None)
        got = [awards[e] for e in sharers if e in awards]
        if not covered:
            assert got == []
            continue
        assert len(got) == len(sharers)
        if money:
            shares = [a.amount for a in got]
            assert all(s is not None for s in shares)
            assert sum(shares, Decimal(0)) == sum(money, Decimal(0))
            assert max(shares) - min(shares) <= CENT
            assert sum(a.odd_cents for a in got) * CENT == \
                sum(money, Decimal(0)) - min(shares) * len(sharers)
        else:
            assert all(a.amount is None for a in got)
        for award in got:
            assert award.labels == labels and award.place == place
            assert set(award.shared_with) == set(sharers) - {award.entrant}


@SETTINGS
@given(prizes, placings())
def test_only_the_places_no_entrant_reaches_go_unawarded(
        found: list[Prize], places: list[tuple[int, int]]) -> None:
    shared = share_prizes(found, places)
    assert shared.unawarded == tuple(range(len(places) + 1, len(found) + 1))
