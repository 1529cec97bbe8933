"""Sample games for the score-sheet tests, the pictures in docs/sheets and the benchmark: one
per variant family, every hand a valid record, and long games (a 40-hand Mitigatti evening, a
17-hand Ottocento rubber) made by a seeded generator.

Imported as ``sheet_samples`` (tests/sheets is on the test path); ``play`` stores a sample
through the application's use cases, the same way the API does.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from service.application.games import CreatedGame, GameService, GameView, HandView, utc_now
from service.application.ports import Store
from service.application.unit_of_work import UnitOfWorkFactory

Json = dict[str, Any]
FOUR = ("Anna", "Bruno", "Carla", "Dario")
THREE = ("Anna", "Bruno", "Carla")


@dataclass(frozen=True)
class Sample:
    variant: str
    players: tuple[str, ...]
    hands: list[Json]
    options: Json = field(default_factory=dict)
    first_dealer: int = 0


def _gatti3() -> list[Json]:
    return [
        {"dealer": 0, "discard": ["2H", "3H", "4S"], "declarations": [
            {"seat": 1, "kind": "trumps", "cards": [f"T{n}" for n in range(2, 12)]},
            {"seat": 1, "kind": "trumps", "count": 11},
            {"seat": 2, "kind": "three_of_a_kind", "cards": ["KH", "KD", "KS"]},
            {"seat": 2, "kind": "four_of_a_kind", "rank": "K"},
            {"seat": 0, "kind": "frilli", "count": 20}],
         "piles": [{"side": 0, "tricks": 9, "counting": ["T1", "KH", "KD", "QH", "CH", "JH"]},
                   {"side": 1, "tricks": 10,
                    "counting": ["T21", "FOOL", "KC", "QC", "QD", "CC", "JC"]}]},
        {"dealer": 1, "declarations": [
            {"seat": 2, "kind": "family", "suit": "D"},
            {"seat": 0, "kind": "three_of_a_kind", "rank": "Q"}],
         "bagatto": {"seat": 2, "won": False},
         "piles": [{"side": 0, "tricks": 9, "counting": ["T1", "KH", "KD", "QH", "CH", "JH"]},
                   {"side": 1, "tricks": 10,
                    "counting": ["T21", "FOOL", "KC", "QC", "QD", "CC", "JC"]}]},
        {"dealer": 2, "declarations": [
            {"seat": 0, "kind": "gatti"},
            {"seat": 1, "kind": "frilli", "count": 21},
            {"seat": 1, "kind": "family", "suit": "H"}],
         "bagatto": {"seat": 0, "won": True},
         "piles": [{"side": 0, "tricks": 11,
                    "counting": ["T1", "T21", "FOOL", "KS", "QS", "CS", "JS"]},
                   {"side": 1, "tricks": 8, "counting": ["KH", "QH", "KC", "QC"]}]},
    ]


def _gatti4() -> list[Json]:
    return [
        {"dealer": 0, "discard": ["2H", "3H"], "declarations": [
            {"seat": 1, "kind": "frilli", "count": 15},
            {"seat": 2, "kind": "family", "cards": ["JS", "CS", "QS", "KS"]},
            {"seat": 3, "kind": "trumps", "cards": [f"T{n}" for n in range(2, 10)]},
            {"seat": 0, "kind": "three_of_a_kind", "cards": ["QH", "QD", "QC"]}],
         "piles": [{"side": 0, "tricks": 11,
                    "counting": ["T1", "T21", "KH", "KD", "QH", "QD", "CH", "JH"]}]},
        {"dealer": 1, "declarations": [{"seat": 2, "kind": "four_of_a_kind", "rank": "K"}],
         "bagatto": {"seat": 0, "won": False},
         "piles": [{"side": 0, "tricks": 11,
                    "counting": ["T1", "T21", "KH", "KD", "QH", "QD", "CH", "JH"]}]},
        {"dealer": 2, "declarations": [{"seat": 1, "kind": "family", "suit": "H"},
                                       {"seat": 3, "kind": "gatti"}],
         "piles": [{"side": 1, "tricks": 12,
                    "counting": ["T1", "T21", "FOOL", "KH", "QH", "CH", "JH", "KC", "QC"]}]},
        {"dealer": 3, "declarations": [{"seat": 0, "kind": "trumps", "count": 9}],
         "bagatto": {"seat": 1, "won": True},
         "piles": [{"side": 1, "tricks": 9, "counting": ["T1", "KS", "QS", "KD"]}]},
    ]


def _gatti4_call() -> list[Json]:
    return [
        {"dealer": 0, "call": {"card": "KH", "partner": 2},
         "declarations": [{"seat": 1, "kind": "three_of_a_kind", "rank": "Q"},
                          {"seat": 2, "kind": "frilli", "count": 16}],
         "piles": [{"side": 0, "tricks": 11,
                    "counting": ["T1", "T21", "KH", "KD", "QH", "CH", "JH"]}]},
        {"dealer": 1, "call": {"card": "KS", "partner": 1},
         "declarations": [{"seat": 1, "kind": "four_of_a_kind", "rank": "K"}],
         "piles": [{"side": 0, "tricks": 8, "counting": ["KH", "KD", "KC", "KS", "T1"]}]},
        {"dealer": 2, "call": {"card": "KC", "partner": 0},
         "declarations": [{"seat": 3, "kind": "family", "suit": "D"},
                          {"seat": 0, "kind": "trumps", "count": 8}],
         "bagatto": {"seat": 3, "won": False},
         "piles": [{"side": 0, "tricks": 12,
                    "counting": ["T1", "KC", "QC", "CC", "JC", "KH", "QH", "T21"]}]},
        {"dealer": 3, "call": {"card": "KD", "partner": 1},
         "declarations": [{"seat": 2, "kind": "gatti"}],
         "piles": [{"side": 0, "tricks": 10, "counting": ["KD", "QD", "KS", "QS", "CS"]}]},
    ]


def _gatti_classic4() -> list[Json]:
    return [
        {"dealer": 1, "declarations": [{"seat": 0, "kind": "frilli", "count": 16}],
         "piles": [{"side": 0, "tricks": 14,
                    "counting": ["JD", "CD", "QD", "KD", "KH", "QC", "CS", "JS"]}]},
        {"dealer": 2, "declarations": [{"seat": 0, "kind": "three_of_a_kind", "rank": "C"},
                                       {"seat": 1, "kind": "gatti"}],
         "bagatto": {"seat": 1, "won": True},
         "piles": [{"side": 0, "tricks": 9, "counting": ["KS", "QS", "JC", "CC", "QH"]}]},
        {"dealer": 3, "declarations": [{"seat": 2, "kind": "trumps", "count": 11},
                                       {"seat": 3, "kind": "family", "suit": "C"}],
         "piles": [{"side": 0, "tricks": 12,
                    "counting": ["T1", "T20", "KH", "QH", "CH", "JH", "KD", "FOOL"]}]},
        {"dealer": 0, "bagatto": {"seat": 0, "won": False},
         "piles": [{"side": 0, "tricks": 14, "counting": ["KH", "QH", "CH", "JH", "T1"]}]},
    ]


#: A split of Ottocento's cards that matter with about as few combinations as the pack allows
#: (Moors and aces always make a sequence somewhere): 48 points of combinations a hand.
_OTTO_SPLIT = ["MORO1", "MORO2", "MORO3", "MORO4", "T5", "T8", "T9", "T10", "T15", "T16",
               "ANGEL", "KH", "1D", "JD", "CD", "QD", "1C", "KC", "JS", "CS", "QS"]


def _ottocento() -> list[Json]:
    return [
        {"dealer": 0, "discard": ["6S", "7S"], "last_trick": 2, "declarations": [
            {"seat": 1, "kind": "sequence", "cards": ["KS", "QS", "CS", "JS"]},
            {"seat": 2, "kind": "cricca", "cards": ["KH", "KD", "KC"]}],
         "piles": [{"side": 0, "tricks": 9, "counting": [
             "ANGEL", "WORLD", "SUN", "MOON", "T16", "T15", "KH", "KD", "KC", "QH", "1H",
             "JH", "CH", "MATTO", "T10", "T9", "MORO1", "MORO2", "MORO3"]}]},
        {"dealer": 1, "discard": ["8H", "9H"], "last_trick": 1, "declarations": [
            {"seat": 2, "kind": "sequence", "cards": ["ANGEL", "WORLD", "SUN", "MOON", "T16"]},
            {"seat": 3, "kind": "cricca", "cards": ["QS", "QH", "QD", "QC"]},
            {"seat": 3, "kind": "cricca", "cards": ["JS", "JH", "JD"]},
            {"seat": 3, "kind": "cricca", "cards": ["CS", "CH", "CD"]}],
         "piles": [{"side": 1, "tricks": 10, "counting": [
             "KS", "QS", "QH", "QD", "QC", "JS", "JH", "JD", "CS", "CH", "CD", "1S", "1C",
             "T5", "T6", "T7", "MORO4", "BEGATO", "KC"]}]},
        {"dealer": 2, "discard": ["10C", "9C"], "last_trick": 0, "declarations": [
            {"seat": 3, "kind": "sequence", "cards": ["KD", "QD", "CD"]}],
         "piles": [{"side": 0, "tricks": 8, "counting": _OTTO_SPLIT}]},
        # Seat 1's four cricche, doubled, take its pair past 800 during the declarations:
        # the declarations after it are not counted (R13).
        {"dealer": 3, "declarations": [
            {"seat": 0, "kind": "sequence", "cards": ["ANGEL", "WORLD", "SUN"]},
            {"seat": 1, "kind": "cricca", "cards": ["KS", "KH", "KD", "KC"]},
            {"seat": 1, "kind": "cricca", "cards": ["QS", "QH", "QD", "QC"]},
            {"seat": 1, "kind": "cricca", "cards": ["CS", "CH", "CD", "CC"]},
            {"seat": 1, "kind": "cricca", "cards": ["JS", "JH", "JD"]},
            {"seat": 2, "kind": "sequence", "cards": ["MORO1", "MORO2", "MORO3"]},
            {"seat": 3, "kind": "sequence", "cards": ["1H", "1D", "1C"]}]},
    ]


def _mitigatti4() -> list[Json]:
    return [
        {"dealer": 0, "contract": {"type": "call", "declarer": 0, "called_card": "KH",
                                   "partner": 2},
         "declarations": [{"seat": 1, "kind": "mitigatti"}],
         "bagatto": {"seat": 1, "won": True},
         "piles": [{"side": 0, "tricks": 9, "counting": ["KH", "KD", "QH", "QD", "CH", "JH"]}]},
        {"dealer": 1, "thrown_in": True},
        {"dealer": 1, "contract": {"type": "solo", "declarer": 3, "sans_prendre": True},
         "piles": [{"side": 0, "tricks": 14, "counting": [
             "KH", "KD", "KC", "KS", "QH", "QD", "T20", "FOOL", "T1"]}]},
        {"dealer": 2, "contract": {"type": "call", "declarer": 2, "called_card": "KS",
                                   "partner": 0},
         "declarations": [{"seat": 0, "kind": "quatre_rei"}],
         "piles": [{"side": 0, "tricks": 12, "counting": [
             "T1", "T20", "QH", "QD", "QC", "QS", "CH", "CD", "JH", "JD"]}]},
    ]


def _mitigatti3() -> list[Json]:
    return [
        {"dealer": 0, "thrown_in": True},
        {"dealer": 0, "piles": [
            {"side": 0, "tricks": 10, "counting": ["T1", "T20", "FOOL", "KH", "KD"]},
            {"side": 1, "tricks": 10, "counting": ["KC", "KS", "QH", "QD", "QC", "QS"]}]},
        {"dealer": 1, "declarations": [{"seat": 0, "kind": "mitigatti"}],
         "piles": [
             {"side": 2, "tricks": 12, "counting": ["KH", "KD", "KC", "KS", "QH", "QD"]},
             {"side": 0, "tricks": 8, "counting": ["T1", "T20", "FOOL", "QC", "QS"]}]},
        {"dealer": 2, "piles": [
            {"side": 1, "tricks": 14, "counting": ["T1", "T20", "KH", "KD", "KC", "QH", "QD",
                                                   "FOOL"]},
            {"side": 2, "tricks": 3, "counting": ["JC"]}]},
    ]


SAMPLES: dict[str, Sample] = {
    "gatti-3": Sample("gatti-3", THREE, _gatti3()),
    "gatti-4": Sample("gatti-4", FOUR, _gatti4()),
    "gatti-4-call": Sample("gatti-4-call", FOUR, _gatti4_call()),
    "gatti-classic-4": Sample("gatti-classic-4", FOUR, _gatti_classic4(),
                              {"melds": "both"}, first_dealer=1),
    "ottocento": Sample("ottocento", FOUR, _ottocento()),
    "mitigatti-4": Sample("mitigatti-4", FOUR, _mitigatti4(), {"marca_value": "0.50"}),
    "mitigatti-3": Sample("mitigatti-3", THREE, _mitigatti3()),
}


# -- long games ---------------------------------------------------------------------------------


_MITIGATTI_COUNTING = ["T1", "T20", "FOOL"] + [f"{r}{s}" for r in "KQCJ" for s in "HDCS"]


def long_mitigatti(hands: int = 40, seed: int = 7) -> Sample:
    """A Mitigatti evening of ``hands`` deals: calls, solos, sans prendre, thrown-in deals and
    declarations, from a seeded generator."""
    rng = random.Random(seed)
    records: list[Json] = []
    dealer = 0
    while len(records) < hands:
        roll = rng.random()
        if roll < 0.08:
            records.append({"dealer": dealer, "thrown_in": True})
            continue
        counting = sorted(rng.sample([c for c in _MITIGATTI_COUNTING
                                      if c not in ("FOOL", "T1")], rng.randint(4, 12)))
        if roll < 0.30:
            solo = (dealer + rng.randint(0, 3)) % 4
            contract: Json = {"type": "solo", "declarer": solo}
            if rng.random() < 0.4:
                contract["sans_prendre"] = True
        else:
            kings = [k for k in ("KH", "KD", "KC", "KS")]
            contract = {"type": "call", "declarer": dealer, "called_card": rng.choice(kings),
                        "partner": (dealer + rng.randint(1, 3)) % 4}
        record: Json = {"dealer": dealer, "contract": contract,
                        "piles": [{"side": 0, "tricks": rng.randint(4, 15),
                                   "counting": counting}]}
        records.append(record)
        dealer = (dealer + 1) % 4
    return Sample("mitigatti-4", FOUR, records, {"marca_value": "0.25"})


def long_ottocento(hands: int = 12) -> Sample:
    """An Ottocento rubber about as long as the rules let one be (93 card points and at least
    some 48 in combinations a hand): the pairs take the same cards in turn, so the two climb
    together; the last trick always falls to the first pair, which reaches 800 first."""
    records = []
    for number in range(hands):
        dealer = number % 4
        side = number % 2
        records.append({"dealer": dealer, "discard": ["6S", "7S"],
                        "last_trick": 0, "piles": [{"side": side, "tricks": 8,
                                                       "counting": _OTTO_SPLIT}]})
    return Sample("ottocento", FOUR, records)


class StoredGames:
    """The games' use cases over a store as the service runs them: each write in a unit of
    work of its own, with the access its token opens."""

    def __init__(self, store: Store, clock: Callable[[], datetime] = utc_now) -> None:
        self.service = GameService(store.games, clock=clock)
        self.units = UnitOfWorkFactory(store)

    def create_game(self, variant: str, options: dict[str, Any] | None,
                    players: tuple[str, ...] | list[str], first_dealer: int | None
                    ) -> CreatedGame:
        unit = self.units()
        return unit.run(lambda: self.service.create_game(unit, variant, options, players,
                                                         first_dealer))

    def add_hand(self, game_id: str, token: str, record: dict[str, Any]) -> HandView:
        unit = self.units()
        access = self.service.authorize(game_id, token, write=True)
        return unit.run(lambda: self.service.add_hand(unit, access, record))

    def get_game(self, game_id: str, token: str) -> GameView:
        return self.service.get_game(game_id, token)


def play(service: StoredGames, sample: Sample) -> tuple[GameView, str, str]:
    """Store the sample as a game and record its hands; the game's view and its tokens."""
    created = service.create_game(sample.variant, sample.options, sample.players,
                                  sample.first_dealer)
    game_id = created.view.id
    for record in sample.hands:
        service.add_hand(game_id, created.edit_token, record)
    return service.get_game(game_id, created.read_token), created.edit_token, \
        created.read_token
