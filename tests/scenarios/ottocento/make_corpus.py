"""Writes tests/scenarios/ottocento/corpus.json: Ottocento hands and what they must score, with
every expectation computed by the independent reference (reference.py).

Run once (``python tests/scenarios/ottocento/make_corpus.py``); the output is committed as data.
Every hand comes from the seeded generator, so the script is deterministic: it searches seeds
for hands with a wanted feature (the Matto led, two Moors topping a trick, a declaration with
shown cards the run does not reach…) and checks the feature before writing the case.

Rejected records carry ``expect.errors``: each a ``field`` (a prefix of the field the engine
must name: ``declarations[0]`` matches ``declarations[0].cards[2]``) and a ``code`` (``null``:
any code).
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
OUT = Path(__file__).parent / "corpus.json"


# -- stacked deals ----------------------------------------------------------------------------------

def weak_side_force(dealer: int, weak_side_gets_matto: bool,
                    weak_side: int | None = None) -> dict[int, list[str]]:
    """A side (the dealer's by default) holds only plain cards below the Queens (and perhaps
    the Matto); the other side every trump and the Kings and Queens (and Knights as room
    requires), so the weak side wins no trick."""
    weak_side = R.side_of(dealer) if weak_side is None else weak_side
    strong = [c for c in R.PACK if R.is_trump(c)]
    strong += [r + s for s in R.SUITS for r in ("K", "Q")]
    weak = [c for c in R.PACK if c not in strong and c != R.MATTO]
    (weak if weak_side_gets_matto else strong).append(R.MATTO)
    size = 32 if weak_side == R.side_of(dealer) else 30
    for knight in ("CS", "CC", "CH", "CD"):
        if len(weak) > size:
            weak.remove(knight)            # a Knight goes to the strong side
            strong.append(knight)
    assert len(weak) == size and len(strong) == 62 - size
    rng = random.Random(dealer)
    rng.shuffle(weak)
    rng.shuffle(strong)
    hands: dict[int, list[str]] = {}
    for seat in range(4):
        n = 17 if seat == dealer else 15
        source = weak if R.side_of(seat) == weak_side else strong
        hands[seat], source[:] = source[:n], source[n:]
    assert not weak and not strong
    return hands


def discard_card(card: str, avoid: tuple[str, ...] = ()
                 ) -> Callable[[random.Random, list[str]], list[str]]:
    """A discard of ``card`` and one other card the dealer may discard (not in ``avoid``)."""
    def choose(rng: random.Random, hand: list[str]) -> list[str]:
        other = rng.choice([c for c in hand if c != card and c not in avoid
                            and R.may_discard(c)])
        return [card, other]
    return choose


def lone_trick_force(seed: int) -> dict[int, list[str]]:
    """Seats 0+2 hold the ANGEL, the Matto, the T5 and plain cards below every plain card of
    seats 1+3, who hold every other trump: seat 0 leads the ANGEL to the first trick (every
    other seat must play a trump), and seats 0+2 win no other trick, so the Matto's exchange
    card comes from a pile of four trumps (no 6-10 pip to give)."""
    b_plain = [r + s for s in R.SUITS for r in ("K", "Q", "C")] + ["JS"]
    b = [c for c in R.PACK if R.is_trump(c) and c not in ("ANGEL", "T5")] + b_plain
    a = [c for c in R.PACK if R.is_plain(c) and c not in b_plain]
    rng = random.Random(seed)
    rng.shuffle(a)
    rng.shuffle(b)
    return {0: ["ANGEL", R.MATTO] + a[:13], 2: ["T5"] + a[13:], 3: b[:17], 1: b[17:]}


def angel_first(rng: random.Random, hand: list[str], legal: list[str], trick_no: int) -> str:
    if trick_no == 0 and "ANGEL" in legal:
        return "ANGEL"
    return rng.choice(legal)


# -- searching ----------------------------------------------------------------------------------------

def search(want: Callable[[R.Game, R.Replay], bool], start: int = 1, limit: int = 5000,
           **kwargs: Any) -> R.Game:
    for seed in range(start, start + limit):
        game = R.generate(seed, **kwargs)
        rep = R.replay(game.record())
        if want(game, rep):
            return game
    raise SystemExit(f"no seed found from {start} (+{limit}) for {want}")


def moors_topping(game: R.Game, rep: R.Replay) -> bool:
    for cards in game.tricks:
        trumps = [c for c in cards if R.is_trump(c)]
        moors = [c for c in trumps if c in R.MOORS]
        if len(moors) >= 2 and all(c in R.MOORS or c == R.BEGATO for c in trumps):
            return True
    return False


def unreached_declaration(game: R.Game, rep: R.Replay) -> bool:
    """A declared sequence whose shown cards include some the run does not reach."""
    for d in game.declarations:
        if d["kind"] == "sequence":
            (_, n), = R.sequences(d["cards"]).items()
            if n < len(d["cards"]):
                return True
    return False


def matto_led(game: R.Game, rep: R.Replay) -> bool:
    return any(t[0] == R.MATTO for t in game.tricks) and bool(rep.fool and rep.fool.get(
        "exchange_card"))


def matto_exchanged(game: R.Game, rep: R.Replay) -> bool:
    return bool(rep.fool and rep.fool.get("exchange_card"))


def explicit_exchange(game: R.Game, rep: R.Replay) -> str | None:
    """A 1-point card of the Matto's side's tricks (not the discard) other than the default
    exchange card: the last such in pack order."""
    assert rep.fool is not None
    mside = R.side_of(rep.fool["played_by"])
    default = rep.fool["exchange_card"]
    won = [c for t, w in zip(game.tricks, rep.winners) if R.side_of(w) == mside for c in t]
    options = [c for c in won if c != R.MATTO and c != default and R.value(c) == 1]
    if not options:
        return None
    return max(options, key=R.PACK_INDEX.__getitem__)


# -- cases ----------------------------------------------------------------------------------------


def case(name: str, hand: Json, note: str = "") -> Json:
    out: Json = {"name": name}
    if note:
        out["note"] = note
    out["hand"] = hand
    out["expect"] = R.expect(hand)
    return out


def reject(name: str, hand: Json, fields: list[str], note: str) -> Json:
    return {"name": name, "note": note, "hand": hand,
            "expect": {"errors": [{"field": f, "code": None} for f in fields]}}


def trick_cases() -> list[Json]:
    out = []
    g = search(lambda g, r: True, start=1)
    out.append(case("a random legal hand, no declarations", g.record()))

    g = search(lambda g, r: len(g.declarations) >= 3 and len(g.signals) >= 2, start=10,
               declare=0.9, signals=0.3)
    out.append(case("declarations by several players and signals with some leads", g.record()))

    g = search(lambda g, r: len(g.declarations) >= 2 and r.fool is not None, start=40,
               declare=0.9)
    out.append(case("the discard left out (derived as the cards never played), declarations",
                    g.record(with_discard=False)))

    g = search(unreached_declaration, start=60, declare=1.0)
    out.append(case("a declared sequence showing cards its run does not reach (R18: they add "
                    "nothing, the declaration stands)", g.record()))

    g = search(matto_led, start=100, policy=R.lead_matto)
    out.append(case("the Matto led: the second card sets the suit; the other side wins the "
                    "trick and takes the default exchange card (cheapest of the Matto's "
                    "side's final pile)", g.record()))

    def with_explicit(g: R.Game, r: R.Replay) -> bool:
        return matto_exchanged(g, r) and explicit_exchange(g, r) is not None
    g = search(with_explicit, start=200)
    rep = R.replay(g.record())
    rec = g.record()
    assert rep.fool is not None
    rec["fool"] = {"played_by": rep.fool["played_by"], "trick": rep.fool["trick"],
                   "exchange_card": explicit_exchange(g, rep)}
    assert R.replay(rec).fool["exchange_card"] != rep.fool["exchange_card"]  # type: ignore[index]
    out.append(case("the Matto exchanged for a named card (fool.exchange_card)", rec))

    g = search(lambda g, r: R.MATTO in g.tricks[-1] and matto_exchanged(g, r), start=300,
               policy=R.keep(R.MATTO))
    out.append(case("the Matto played to the last trick, won by the other side: kept, "
                    "exchanged; the 6 points go to the trick's winner", g.record()))

    g = search(moors_topping, start=400)
    out.append(case("two Moors top a trick: the one played last wins", g.record()))

    d = 2
    g = R.generate(500, dealer=d, force=weak_side_force(d, weak_side_gets_matto=False))
    rep = R.replay(g.record())
    assert rep.tricks_won[R.side_of(d)] == 0 and rep.discard_side != R.side_of(d)
    out.append(case("the dealer's side wins no trick: the discard goes to the opponents",
                    g.record()))

    d = 1
    g = R.generate(501, dealer=d, force=weak_side_force(d, weak_side_gets_matto=True),
                   declare=1.0)
    rep = R.replay(g.record())
    assert rep.tricks_won[R.side_of(d)] == 0 and rep.fool and rep.fool["kept"] is False
    out.append(case("the Matto's side (the dealer's) takes no trick: the Matto and the discard "
                    "go to the opponents", g.record()))

    def discard_matters(g: R.Game, r: R.Replay) -> bool:
        """The Matto's side holds the discard, and the cheapest card of its whole pile is a
        discard card: the exchange must still come from its tricks."""
        if not matto_exchanged(g, r) or r.fool is None:
            return False
        mside = R.side_of(r.fool["played_by"])
        pile = [c for c in r.piles[mside] if c != R.MATTO] + [r.fool["exchange_card"]]
        return r.discard_side == mside and R.cheapest(pile) in g.discard
    g = search(discard_matters, start=1400)
    out.append(case("the Matto's side holds the discard, whose card would be the cheapest: the "
                    "exchange card comes from its tricks (§6: the discard stays with its side)",
                    g.record()))

    g = R.generate(1500, dealer=3, force=lone_trick_force(1500), policies={0: angel_first})
    rep = R.replay(g.record())
    assert rep.tricks_won == [1, 14] and rep.fool and R.is_counting(rep.fool["exchange_card"])
    out.append(case("the Matto's side took one trick, of four trumps: the default exchange card "
                    "is the lowest value, then the first in pack order (a Moor before T5)",
                    g.record()))

    g = search(lambda g, r: any(t[0] == R.MATTO and R.is_trump(t[1]) for t in g.tricks),
               start=1600, policy=R.lead_matto)
    out.append(case("the Matto led and a trump second: the trick is a trump trick", g.record()))

    d = 0
    g = R.generate(1700, dealer=d, force=weak_side_force(d, weak_side_gets_matto=True, weak_side=1),
                   declare=1.0)
    rep = R.replay(g.record())
    assert rep.tricks_won == [15, 0] and rep.fool and rep.fool["kept"] is False
    assert any(R.MATTO in x["cards"] and x["seat"] % 2 == 1 for x in g.declarations)
    out.append(case("the Matto's side (not the dealer's) takes no trick, after declaring the "
                    "Matto in a sequence: the Matto goes to the opponents", g.record()))

    d = 2
    g = R.generate(1800, dealer=d, force={1: ["KS", "QS", "CS", "KH", "QH", "CH"],
                                          3: ["KD", "QD", "CD", "KC", "QC", "CC"]},
                   declare=1.0)
    dec, dbl = R.declared(g.record())
    assert sum(1 for x in dec if x[0] % 2 == 1 and x[1] == "sequence") >= 3 and not dbl, dec
    out.append(case("partners declare four sequences between them, two each: no doubling "
                    "(never pooled)", g.record()))

    d = 1
    trumps_hand = ["ANGEL", "MOON", "MATTO", "BEGATO", "T15", "T14", "T12", "T11"]
    g = R.generate(1900, dealer=d, force={2: trumps_hand}, declare=1.0)
    dec, _ = R.declared(g.record())
    assert [2, "sequence", "trumps", 25] in dec, dec
    out.append(case("a declared trump sequence: one wild stands for World/Sun, the other fills "
                    "T16; T13 missing ends the run (T12, T11 shown, not reached)", g.record()))

    for rule, start in (("must_follow_suit", 2000), ("must_trump", 2100),
                        ("must_follow_trump", 2200)):
        for seed in range(start, start + 300):
            g = R.generate(seed)
            found = R.make_revoke(g.record(), random.Random(seed))
            if found and found[1]["rule"] == rule:
                break
        else:
            raise SystemExit(f"no {rule} revoke found")
        rec, _ = found
        out.append(case(f"a revoke ({rule}): one violation, proved by a later card; the hand "
                        "is still scored", rec))

    g = search(lambda g, r: True, start=2300)
    rec = g.record()
    rec["signals"] = [{"trick": 2, "signals": ["busso", "volo"]},
                      {"trick": 5, "signals": ["fischio"]},
                      {"trick": 9, "signals": ["busso", "volo", "striscio"]}]
    out.append(case("signals: two together are legal; an unknown signal and three at once are "
                    "illegal (violations of the leader; the hand is still scored)", rec))

    d = 3
    strong_hand = ["ANGEL", "WORLD", "SUN", "MATTO", "KH", "KD", "KC", "KS", "QH", "QD", "QS",
                   "CS", "MORO1", "MORO2", "MORO3"]
    g = R.generate(502, dealer=d, force={0: strong_hand}, declare=1.0)
    dec, dbl = R.declared(g.record())
    assert {x[1] for x in dbl if x[0] == 0} == {"cricca", "sequence"}, dbl
    out.append(case("one player declares 3 cricche and 5 sequences: both totals doubled; the "
                    "partners' declarations are not pooled", g.record()))
    return out


def summary_cases() -> list[Json]:
    out = []
    g = search(lambda g, r: len(g.declarations) >= 2, start=700, declare=0.9)
    rec = g.record()
    rep = R.replay(rec)
    out.append(case("summary: both piles as full cards, with declarations",
                    R.full_summary(rec, rep)))
    out.append(case("summary: side 1's pile as full cards, side 0's derived",
                    R.full_summary(rec, rep, sides=(1,))))
    out.append(case("summary: both piles as tricks + counting cards",
                    R.counting_summary(rec, rep)))

    g = search(lambda g, r: any(len(v) for v in R.expect(g.record())["captured_doubling"]
                                .values()), start=800)
    rec = g.record()
    rep = R.replay(rec)
    out.append(case("summary: side 0's pile as tricks + counting cards, side 1's derived; "
                    "a pile with three or more captured sequences",
                    R.counting_summary(rec, rep, sides=(0,))))

    d = 0
    g = R.generate(900, dealer=d, force=weak_side_force(d, weak_side_gets_matto=False))
    rec = g.record()
    rep = R.replay(rec)
    assert rep.tricks_won[0] == 0
    out.append(case("summary: the dealer's side took no trick (tricks 0, no counting cards); "
                    "the opponents hold the discard as their 16th 'trick'",
                    R.counting_summary(rec, rep)))
    out.append(case("summary: the dealer's side took no trick, full cards (an empty pile)",
                    R.full_summary(rec, rep)))

    d = 0
    g = R.generate(1700, dealer=d, force=weak_side_force(d, weak_side_gets_matto=True,
                                                         weak_side=1), declare=1.0)
    rec = g.record()
    rep = R.replay(rec)
    assert rep.tricks_won == [15, 0] and R.MATTO in rep.piles[0]
    out.append(case("summary: side 1 declared the Matto and took no trick: the Matto in side "
                    "0's pile is allowed (§6)", R.full_summary(rec, rep, sides=(0,))))
    return out


def rejection_cases() -> list[Json]:
    out = []
    d = 1
    g = R.generate(1000, dealer=d, force={d: ["KH"]}, discard=discard_card("KH"))
    assert "KH" in g.discard
    out.append(reject("a King in the discard", g.record(), ["discard"],
                      "§4.2: the discard may not contain 5-point cards"))

    d = 3
    g = R.generate(1004, dealer=d, force={d: ["BEGATO"]}, discard=discard_card("BEGATO"))
    out.append(reject("the Bégato in the discard", g.record(), ["discard"],
                      "§4.2: no tarocchi in the discard"))

    g = search(lambda g, r: r.fool is not None, start=1010)
    rec = g.record()
    rep = R.replay(rec)
    assert rep.fool is not None
    rec["fool"] = {"played_by": (rep.fool["played_by"] + 1) % 4, "trick": rep.fool["trick"]}
    out.append(reject("a fool block naming the wrong player of the Matto", rec, ["fool"],
                      "§6: the Matto's player and trick are derived from the tricks"))

    d = 2
    g = R.generate(1001, dealer=d, force={d: ["QH", "QD", "QC"]}, discard=discard_card("QH", avoid=("QD", "QC")))
    rec = g.record()
    rec["declarations"] = [{"seat": d, "kind": "cricca", "cards": ["QH", "QD", "QC"]}]
    out.append(reject("a declaration using a discarded card", rec, ["declarations[0]"],
                      "§4.3: the dealer may not use discarded cards in declarations"))

    d = 0
    g = R.generate(1002, dealer=d, force={1: ["KH", "KD", "QS"]})
    rec = g.record()
    rec["declarations"] = [{"seat": 1, "kind": "cricca", "cards": ["KH", "KD", "QS"]}]
    out.append(reject("a cricca of mixed ranks", rec, ["declarations[0]"],
                      "§4.3: three or four of one kind"))

    d = 0
    g = R.generate(1003, dealer=d, force={1: ["WORLD", "SUN", "MOON", "T16", "T15", "MATTO"]})
    assert "ANGEL" not in g.hands[1]
    rec = g.record()
    rec["declarations"] = [{"seat": 1, "kind": "sequence",
                            "cards": ["WORLD", "SUN", "MOON", "T16", "T15", "MATTO"]}]
    out.append(reject("a trump sequence declared without the Angel", rec, ["declarations[0]"],
                      "§4.3: the Angel must be real"))

    g = search(lambda g, r: True, start=1100)
    rec = g.record()
    rep = R.replay(rec)
    bad = R.counting_summary(rec, rep)
    bad["piles"][0]["tricks"] += 1
    out.append(reject("summary piles whose card points do not total 93 (one trick too many)",
                      bad, ["piles"], "§4.1, §6: card points total 93"))

    bad = R.counting_summary(rec, rep)
    dropped = next(c for c in bad["piles"][1]["counting"] if R.value(c) >= 3)
    bad["piles"][1]["counting"].remove(dropped)
    out.append(reject(f"summary counting cards missing {dropped} (points total 93 - "
                      f"{R.value(dropped) - 1})", bad, ["piles"],
                      "§6: the piles must partition the pack and total 93"))

    g = search(lambda g, r: any(d["seat"] % 2 == 0 and "ANGEL" in d["cards"]
                                for d in g.declarations), start=1200, declare=1.0)
    rec = g.record()
    rep = R.replay(rec)
    bad = R.full_summary(rec, rep)
    p0, p1 = bad["piles"][0]["cards"], bad["piles"][1]["cards"]
    cheap = next(c for c in p1 if not R.is_counting(c))
    p0[p0.index("ANGEL")] = cheap
    p1[p1.index(cheap)] = "ANGEL"
    out.append(reject("summary: the ANGEL, shown by a player of side 0, in side 1's pile",
                      bad, ["piles"], "§4.2 / §6: the Angel can never be captured"))

    g = search(lambda g, r: any(x["seat"] % 2 == 0 and R.MATTO in x["cards"]
                                for x in g.declarations)
               and r.tricks_won[0] > 0, start=1250, declare=1.0)
    rec = g.record()
    rep = R.replay(rec)
    bad = R.full_summary(rec, rep)
    p0, p1 = bad["piles"][0]["cards"], bad["piles"][1]["cards"]
    cheap = next(c for c in p1 if not R.is_counting(c))
    p0[p0.index(R.MATTO)] = cheap
    p1[p1.index(cheap)] = R.MATTO
    out.append(reject("summary: the MATTO, shown by a player of side 0 (which took tricks), in "
                      "side 1's pile", bad, ["piles"],
                      "§4.2 / §6: the Matto is always kept by its side"))

    def dealer_side_matto(g: R.Game, r: R.Replay) -> bool:
        return matto_exchanged(g, r) and r.fool is not None \
            and R.side_of(r.fool["played_by"]) == r.discard_side
    g = search(dealer_side_matto, start=1280)
    rec = g.record()
    rep = R.replay(rec)
    assert rep.fool is not None
    rec["fool"] = {"played_by": rep.fool["played_by"], "trick": rep.fool["trick"],
                   "exchange_card": rec["discard"][0]}
    out.append(reject("the Matto exchanged for a card of the discard", rec, ["fool"],
                      "§6: the discard never leaves the side that holds it; the exchange card "
                      "is one the Matto's side took in tricks"))

    d = 0
    g = R.generate(1350, dealer=d, force=weak_side_force(d, weak_side_gets_matto=False))
    rec = g.record()
    rep = R.replay(rec)
    bad = R.counting_summary(rec, rep)
    assert bad["piles"][0]["tricks"] == 0
    bad["last_trick"] = 2
    out.append(reject("summary: the last trick won by a seat whose side took no trick", bad,
                      ["last_trick"], "§4.1: the last trick's 6 points go to its winner's side"))

    g = search(lambda g, r: True, start=1300)
    rec = g.record()
    rec["tricks"][3][2] = "2H"
    out.append(reject("a card not in the 62-card pack (2H)", rec, ["tricks"],
                      "§1: a code the game's pack does not contain"))
    return out


def main() -> None:
    cases = trick_cases() + summary_cases() + rejection_cases()
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names))
    data = {"variant": "ottocento",
            "note": "written by make_corpus.py from the independent reference (reference.py)",
            "cases": cases}
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
