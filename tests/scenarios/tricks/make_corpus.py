"""Writes tests/scenarios/tricks/corpus/<variant>.json: trick-by-trick hands and what they
must score, with the expectations computed by the independent reference (reference.py).

Run once (``python tests/scenarios/tricks/make_corpus.py``); the output is committed as data.
Every hand comes from the seeded generator, so the script is deterministic: it searches seeds
for hands with the wanted feature (the Fool led, Bagatto ultimo won…), then checks the feature
with the reference before writing the case. Rejected records (``expect.errors``) are written
with the field and the problem code (``REJECTIONS``) the engine must raise.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import reference as R

Json = dict[str, Any]
OUT = Path(__file__).parent / "corpus"


# -- stacked deals -----------------------------------------------------------------------------


def weak_dealer(rng: random.Random, form: R.Form, dealer: int) -> dict[int, list[str]]:
    """The dealer's side holds only the lowest pips (no trumps), so it may win no trick."""
    n = form.seats
    if form.partnership == "none":
        weak = [r + s for s in R.SUITS for r in ("1", "2", "3", "4", "5", "6", "7")]
        weak_seats = [dealer]
    else:
        weak = [r + s for s in R.SUITS for r in R.PLAIN_RANKS[:10]]
        weak_seats = [dealer, (dealer + 2) % n]
    strong = [c for c in R.PACK if c not in weak]
    rng.shuffle(weak)
    rng.shuffle(strong)
    hands: dict[int, list[str]] = {}
    for s in range(n):
        size = form.each + (form.discard if s == dealer else 0)
        source = weak if s in weak_seats else strong
        hands[s], source[:] = source[:size], source[size:]
    assert not weak and not strong
    return hands


def weak_fool_side(rng: random.Random, form: R.Form, dealer: int) -> dict[int, list[str]]:
    """4-handed: the side against the dealer holds only pips and the Fool, so once the Fool
    is played it is unlikely to win a later trick."""
    pips = [r + s for s in R.SUITS for r in R.PLAIN_RANKS[:10]]
    rng.shuffle(pips)
    weak = pips[:37] + [R.FOOL]
    strong = [c for c in R.PACK if c not in weak]
    rng.shuffle(weak)
    rng.shuffle(strong)
    hands: dict[int, list[str]] = {}
    for s in range(form.seats):
        size = form.each + (form.discard if s == dealer else 0)
        source = strong if s in (dealer, (dealer + 2) % 4) else weak
        hands[s], source[:] = source[:size], source[size:]
    assert not weak and not strong
    return hands


# -- searching -----------------------------------------------------------------------------------


def search(form_id: str, want: Callable[[R.Game, R.Replay], bool], start: int = 1,
           limit: int = 20000, **kwargs: Any) -> tuple[int, R.Game, R.Replay]:
    for seed in range(start, start + limit):
        game = R.generate(form_id, seed, **kwargs)
        rep = R.replay(form_id, game.record())
        if want(game, rep):
            return seed, game, rep
    raise SystemExit(f"{form_id}: no seed found from {start} (+{limit})")


def t1_last(game: R.Game) -> bool:
    return R.T1 in game.tricks[-1]


def case(name: str, form_id: str, hand: Json, options: Json | None = None,
         note: str | None = None) -> Json:
    rep = R.replay(form_id, hand, options)
    out: Json = {"name": name}
    if note:
        out["note"] = note
    if options:
        out["options"] = options
    out["hand"] = hand
    out["expect"] = rep.expect()
    return out


#: The problem (field and code) the engine raises for each rejected record.
REJECTIONS: dict[str, dict[str, str]] = {
    "24 tricks: incomplete": {
        "tricks": "incomplete_tricks"
    },
    "26 tricks: the discard played as a 26th trick": {
        "tricks": "too_many_tricks"
    },
    "a card played twice": {
        "tricks[4][1]": "card_played_twice"
    },
    "a trick of 2 cards": {
        "tricks[3]": "trick_size"
    },
    "a bagatto block that the tricks contradict": {
        "bagatto": "disagrees_with_tricks"
    },
    "a King in the derived discard": {
        "discard[1]": "king_discarded"
    },
    "a given discard that shares a card with the tricks": {
        "discard[0]": "discarded_card_played"
    },
    "a given partner that did not play the called card": {
        "call.partner": "disagrees_with_tricks"
    },
    "an exchange card from a trick before the Fool's": {
        "fool.exchange_card": "not_in_later_trick"
    },
}


def reject(name: str, hand: Json, errors: list[str], note: str) -> Json:
    codes = REJECTIONS[name]
    assert set(errors) == set(codes), (name, errors, codes)
    return {"name": name, "note": note, "hand": hand,
            "expect": {"errors": [{"field": f, "code": codes[f]} for f in errors]}}


def revoke_search(form_id: str, rule: str, start: int = 1) -> tuple[int, Json, Json]:
    for seed in range(start, start + 500):
        game = R.generate(form_id, seed)
        for k in range(3):
            found = R.make_revoke(form_id, game.record(), random.Random(k))
            if found and found[1]["rule"] == rule:
                return seed, found[0], found[1]
    raise SystemExit(f"{form_id}: no {rule} revoke found")


def explicit_exchange(rep: R.Replay, record: Json) -> Json | None:
    """The Fool record naming, as the exchange card, the dearest card of the first later trick
    the Fool's side won (so it differs from the default, the cheapest)."""
    if not (rep.fool and rep.fool.get("covered")):
        return None
    fseat, ft = rep.fool["played_by"], rep.fool["trick"]
    fside = rep.side_of(fseat)
    first = next(t for t in range(ft, len(record["tricks"]))
                 if rep.side_of(rep.winners[t]) == fside)
    cards = record["tricks"][first]
    card = max(cards, key=lambda c: (R.value(c), -cards.index(c)))
    if R.value(card) == min(R.value(c) for c in cards):
        return None
    return {"played_by": fseat, "trick": ft, "covered": True, "exchange_card": card}


# -- the variants ------------------------------------------------------------------------------


def gatti_3() -> list[Json]:
    v = "gatti-3"
    cases = []

    _, g, _ = search(v, lambda g, r: len(R.all_melds(g)) >= 2 and not t1_last(g))
    rec = g.record(with_discard=False)
    rec["declarations"] = R.all_melds(g)
    cases.append(case("a random legal hand, the discard derived, melds declared", v, rec))

    _, g, r = search(v, lambda g, r: r.fool is not None and g.tricks[r.fool["trick"] - 1][0]
                     == R.FOOL and r.fool.get("covered") is True and not t1_last(g),
                     policy=R.lead_fool)
    cases.append(case("the Fool led: the second card fixes the suit; covered by the default "
                      "exchange (the cheapest card of the next trick won)", v, g.record()))

    _, g, r = search(v, lambda g, r: r.fool is not None and bool(r.fool.get("covered"))
                     and r.fool["trick"] > 5 and not t1_last(g)
                     and explicit_exchange(r, g.record()) is not None, start=100)
    rec = g.record()
    rec["fool"] = explicit_exchange(r, rec)
    cases.append(case("the Fool covered with an explicit exchange_card (a counting card)",
                      v, rec))

    _, g, r = search(v, lambda g, r: R.FOOL in g.tricks[-1] and not t1_last(g),
                     policy=R.keep(R.FOOL))
    cases.append(case("the Fool in the last trick: never covered, handed to the winner",
                      v, g.record()))

    _, g, r = search(v, lambda g, r: "discard_uncovered" in r.events, stack=weak_dealer)
    cases.append(case("the dealer wins no trick: the discard goes to the last trick's winner",
                      v, g.record(with_discard=False)))

    _, g, r = search(v, lambda g, r: bool(r.bagatto and r.bagatto["won"]), policy=R.keep(R.T1))
    rec = g.record()
    rec["bagatto"] = dict(r.bagatto or {})
    cases.append(case("Bagatto ultimo won (+20), the bagatto block given and agreeing", v,
                      rec))

    _, g, r = search(v, lambda g, r: bool(r.bagatto and not r.bagatto["won"]),
                     policy=R.keep(R.T1))
    cases.append(case("Bagatto ultimo lost: +10 to each of the other two", v, g.record()))
    cases.append(case("Bagatto ultimo lost, option off: no Bagatto points", v, g.record(),
                      options={"bagatto_ultimo": False}))

    seed, rec, _ = revoke_search(v, "must_follow_suit")
    cases.append(case(f"a revoke: did not follow suit (seed {seed}, two cards swapped)", v,
                      rec))
    seed, rec, _ = revoke_search(v, "must_trump", start=seed + 1)
    cases.append(case(f"a revoke: void in the suit led, did not trump (seed {seed})", v, rec))

    cases += rejects_3()
    return cases


def rejects_3() -> list[Json]:
    v = "gatti-3"
    _, g, r = search(v, lambda g, r: not t1_last(g) and R.FOOL not in g.tricks[-1], start=500)
    base = g.record(with_discard=False)
    out = []
    out.append(reject("24 tricks: incomplete", dict(base, tricks=base["tricks"][:-1]),
                      ["tricks"], "a trick record must hold all 25 tricks"))
    out.append(reject("26 tricks: the discard played as a 26th trick",
                      dict(g.record(), tricks=base["tricks"] + [list(g.discard)]),
                      ["tricks"], "25 tricks in gatti-3; a 26th (the discard) is overlong"))
    twice = [list(t) for t in base["tricks"]]
    twice[4][1] = twice[2][1]
    out.append(reject("a card played twice", dict(base, tricks=twice), ["tricks[4][1]"],
                      "the card of trick 3, second place, played again in trick 5"))
    short = [list(t) for t in base["tricks"]]
    short[3] = short[3][:2]
    out.append(reject("a trick of 2 cards", dict(base, tricks=short), ["tricks[3]"],
                      "every trick holds one card per seat"))
    # T1 not in the last trick, yet a bagatto block claims it
    last_seat = (r.leaders[-1]) % 3
    out.append(reject("a bagatto block that the tricks contradict",
                      dict(base, bagatto={"seat": last_seat, "won": True}), ["bagatto"],
                      "T1 was not played to the last trick"))
    # a King never played: put it in the derived discard (swap with a discarded card)
    king_trick = next(t for t, cards in enumerate(base["tricks"])
                      if any(R.rank(c) == "K" for c in cards))
    kcards = list(base["tricks"][king_trick])
    ki = next(i for i, c in enumerate(kcards) if R.rank(c) == "K")
    kcards[ki] = g.discard[0]
    kt = [list(t) for t in base["tricks"]]
    kt[king_trick] = kcards
    derived = [c for c in R.PACK if c not in {x for t in kt for x in t}]
    king_at = next(i for i, c in enumerate(derived) if R.rank(c) == "K")
    out.append(reject("a King in the derived discard", dict(base, tricks=kt),
                      [f"discard[{king_at}]"],
                      f"{base['tricks'][king_trick][ki]} is never played, so the derived "
                      "discard holds it"))
    out.append(reject("a given discard that shares a card with the tricks",
                      dict(base, discard=[base["tricks"][0][0]] + g.discard[1:]),
                      ["discard[0]"], "the discard's first card is also played in trick 1"))
    return out


def gatti_4() -> list[Json]:
    v = "gatti-4"
    cases = []
    _, g, _ = search(v, lambda g, r: sum(1 for m in R.all_melds(g, True)) >= 3
                     and not t1_last(g) and any(m["kind"] == "four_of_a_kind"
                                                for m in R.all_melds(g)))
    rec = g.record(with_discard=False)
    rec["declarations"] = R.all_melds(g, upgrade=True)
    cases.append(case("melds, with three then four of a kind (R1: 5 + 5)", v, rec))

    _, g, _ = search(v, lambda g, r: bool(r.bagatto and r.bagatto["won"]), policy=R.keep(R.T1))
    cases.append(case("Bagatto ultimo won: +20 to the side", v, g.record()))

    def lost_to_partner(g: R.Game, r: R.Replay) -> bool:
        if not (r.bagatto and not r.bagatto["won"]):
            return False
        return r.side_of(r.winners[-1]) == r.side_of(r.bagatto["seat"])

    _, g, _ = search(v, lost_to_partner, policy=R.keep(R.T1))
    cases.append(case("Bagatto ultimo lost to the partner: +20 to the opponents", v,
                      g.record()))

    _, g, _ = search(v, lambda g, r: "discard_uncovered" in r.events, stack=weak_dealer)
    cases.append(case("the dealer's side wins no trick: the discard goes to the opponents", v,
                      g.record(with_discard=False)))

    _, g, _ = search(v, lambda g, r: r.fool is not None and "covered" not in r.fool
                     and not t1_last(g))
    cases.append(case("the Fool's partner wins the Fool's trick: nothing owed", v,
                      g.record()))

    def fool_stranded(g: R.Game, r: R.Replay) -> bool:
        if not (r.fool and r.fool.get("covered") is False and r.fool["trick"] < len(g.tricks)):
            return False
        fside = r.side_of(r.fool["played_by"])
        return any(r.side_of(w) == fside for w in r.winners[:r.fool["trick"] - 1])

    _, g, _ = search(v, fool_stranded, stack=weak_fool_side)
    cases.append(case("the Fool played early, its side wins no later trick: handed over", v,
                      g.record()))

    seed, rec, _ = revoke_search(v, "must_follow_trump")
    cases.append(case(f"a revoke: trump led, did not play a trump (seed {seed})", v, rec))

    _, g, _ = search(v, lambda g, r: R.FOOL in g.tricks[-1] and r.fool is not None
                     and "covered" not in r.fool and not t1_last(g), policy=R.keep(R.FOOL))
    cases.append(case("the Fool in the last trick, its partner wins it: nothing owed", v,
                      g.record()))
    return cases


def gatti_2() -> list[Json]:
    v = "gatti-2"
    cases = []
    _, g, _ = search(v, lambda g, r: any(m["seat"] in (2, 3) for m in R.all_melds(g))
                     and not t1_last(g), start=10)
    rec = g.record()
    rec["declarations"] = R.all_melds(g)
    cases.append(case("dummies' melds score for their controllers' sides", v, rec))

    _, g, r = search(v, lambda g, r: r.fool is not None and g.tricks[r.fool["trick"] - 1][0]
                     == R.FOOL and explicit_exchange(r, g.record()) is not None,
                     policy=R.lead_fool, start=10)
    rec = g.record()
    rec["fool"] = explicit_exchange(r, rec)
    cases.append(case("the Fool led and covered with an explicit exchange_card", v, rec))

    _, g, r = search(v, lambda g, r: R.FOOL in g.tricks[-1] and "covered" in (r.fool or {}),
                     policy=R.keep(R.FOOL), start=10)
    cases.append(case("the Fool in the last trick, lost to the opponents", v,
                      g.record(with_discard=False)))

    _, g, r = search(v, lambda g, r: bool(r.bagatto), policy=R.keep(R.T1), start=10)
    cases.append(case("Bagatto ultimo option off: T1 in the last trick scores nothing", v,
                      g.record(), options={"bagatto_ultimo": False}))

    seed, rec, _ = revoke_search(v, "must_trump", start=10)
    cases.append(case(f"a revoke by a dummy or player: void, did not trump (seed {seed})", v,
                      rec))
    return cases


def queen_in_discard(v: str, seed: int) -> R.Game:
    """``gatti-4-call``: the dealer holds all four Kings, discards a Queen and calls it (the
    called card in the discard: the dealer plays alone)."""

    def four_kings(rng: random.Random, form: R.Form, dealer: int) -> dict[int, list[str]]:
        mine = [f"K{s}" for s in R.SUITS] + ["QH"]
        rest = [c for c in R.PACK if c not in mine]
        rng.shuffle(rest)
        hands = {dealer: mine + rest[:form.each + form.discard - len(mine)]}
        rest = rest[form.each + form.discard - len(mine):]
        for s in range(form.seats):
            if s != dealer:
                hands[s], rest = rest[:form.each], rest[form.each:]
        return hands

    for k in range(seed, seed + 100):
        g = R.deal(v, k, stack=four_kings)
        hand = g.hands[g.dealer] + g.discard
        other = next(c for c in hand if R.is_plain(c) and R.rank(c) not in ("K", "Q"))
        g.discard = ["QH", other]
        g.hands[g.dealer] = [c for c in hand if c not in g.discard]
        g.call = "QH"
        R.play(g, k)
        rep = R.replay(v, g.record())
        if rep.partner == g.dealer and not t1_last(g):
            return g
    raise SystemExit("no Queen-in-discard hand")


def gatti_4_call() -> list[Json]:
    v = "gatti-4-call"
    cases = []
    _, g, r = search(v, lambda g, r: r.partner != g.dealer and not t1_last(g)
                     and len(R.all_melds(g)) >= 1)
    rec = g.record(with_discard=False)
    rec["declarations"] = R.all_melds(g)
    cases.append(case("the called King's player is the partner (derived)", v, rec))

    _, g, r = search(v, lambda g, r: r.partner != g.dealer and not t1_last(g)
                     and bool(r.fool and r.fool.get("covered")), start=50)
    rec = g.record()
    rec["call"]["partner"] = r.partner
    cases.append(case("the partner given and agreeing; the Fool covered", v, rec))

    _, g, r = search(v, lambda g, r: r.partner == g.dealer and not t1_last(g), alone=True)
    cases.append(case("the dealer calls a King of its own: alone against three", v,
                      g.record()))

    _, g, r = search(v, lambda g, r: bool(r.bagatto and r.bagatto["won"]), policy=R.keep(R.T1),
                     start=50)
    cases.append(case("Bagatto ultimo won under a call", v, g.record()))

    seed, rec, _ = revoke_search(v, "must_follow_suit", start=50)
    cases.append(case(f"a revoke: did not follow suit (seed {seed})", v, rec))

    g = queen_in_discard(v, 7)
    cases.append(case("four Kings: the dealer calls a Queen it discarded and plays alone", v,
                      g.record(with_discard=False)))

    _, g, r = search(v, lambda g, r: r.partner != g.dealer and r.fool is not None
                     and r.fool.get("covered") is True and r.fool["trick"] > 1, start=200)
    rec = g.record()
    wrong = next(s for s in range(4) if s not in (g.dealer, r.partner))
    rec["call"]["partner"] = wrong
    cases.append(reject("a given partner that did not play the called card", rec,
                        ["call.partner"],
                        f"{g.call} was played by seat {r.partner}, not seat {wrong}"))
    rec = g.record()
    assert r.fool is not None
    rec["fool"] = {"played_by": r.fool["played_by"], "trick": r.fool["trick"], "covered": True,
                   "exchange_card": g.tricks[0][0]}
    cases.append(reject("an exchange card from a trick before the Fool's", rec,
                        ["fool.exchange_card"],
                        "the exchange card must come from a later trick the Fool's side won"))
    return cases


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for v, make in (("gatti-3", gatti_3), ("gatti-4", gatti_4), ("gatti-2", gatti_2),
                    ("gatti-4-call", gatti_4_call)):
        cases = make()
        names = [c["name"] for c in cases]
        assert len(names) == len(set(names)), names
        (OUT / f"{v}.json").write_text(
            json.dumps({"variant": v, "cases": cases}, indent=1, ensure_ascii=False) + "\n")
        print(v, len(cases), "cases")


if __name__ == "__main__":
    main()
