"""An independent reference for Ottocento (rulebook §0, §1, §4, §6), written from the rules alone,
without reading the service's Ottocento modules, so that the two can be compared.

It holds:

- the 62-card Bolognese pack as plain strings (canonical codes), card values and card points
  (§4.1: pairs rule, 6 for the last trick);
- cricche (§4.3 table) and sequences evaluated by BRUTE FORCE: every assignment of every wild
  card (``MATTO``, ``BEGATO``) to a position it may stand for, or to "just adds to length", is
  checked against the rules and the best length is taken (R18). A second, closed-form
  evaluator (``sequences_formula``) restates the same rules greedily; the two are compared in
  the tests, so the reference cannot silently drift;
- trick play: ranks, winner of a trick, the follow rules, legal cards;
- a seeded deal / discard / declaration / random-legal-play generator (``generate``);
- the replay of a whole hand to the sides' piles (the Matto kept, exchanged or lost; the
  discard covered or lost; the last trick) and the expected score of a record, either a
  trick-by-trick record or a summary (full-card piles, or ``tricks`` + ``counting``).

Nothing here imports the service.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

Json = dict[str, Any]

# -- §1 / §4.1 the pack ---------------------------------------------------------------------------

SUITS = ("H", "D", "C", "S")
PLAIN_RANKS = ("1", "6", "7", "8", "9", "10", "J", "C", "Q", "K")  # pack order
MOORS = ("MORO1", "MORO2", "MORO3", "MORO4")
NUMBERED = tuple(f"T{n}" for n in range(5, 17))          # T5 .. T16
NUMBERED_DESC = tuple(reversed(NUMBERED))                # T16 .. T5: the run
TOP = ("WORLD", "SUN", "MOON")
ANGEL, WORLD, SUN, MOON = "ANGEL", "WORLD", "SUN", "MOON"
BEGATO, MATTO = "BEGATO", "MATTO"
WILDS = (MATTO, BEGATO)
TAROCCHI = (ANGEL, WORLD, BEGATO, MATTO)
ACES = tuple("1" + s for s in SUITS)

#: pack order, as the service's ``BOLOGNESE_62.cards`` (checked by a test)
TRUMPS_LOW_TO_HIGH = (BEGATO,) + MOORS + NUMBERED + (MOON, SUN, WORLD, ANGEL)
PACK: tuple[str, ...] = (TRUMPS_LOW_TO_HIGH + tuple(r + s for s in SUITS for r in PLAIN_RANKS)
                         + (MATTO,))
PACK_INDEX = {c: i for i, c in enumerate(PACK)}
_TRUMPS = frozenset(TRUMPS_LOW_TO_HIGH)

# trump power: the Moors are equal
_TRUMP_POWER: dict[str, int] = {BEGATO: 0, **{m: 1 for m in MOORS}}
for _i, _t in enumerate(NUMBERED + (MOON, SUN, WORLD, ANGEL)):
    _TRUMP_POWER[_t] = 2 + _i
# plain power, low -> high
_LONG_ORDER = ("1", "6", "7", "8", "9", "10", "J", "C", "Q", "K")    # swords, batons
_ROUND_ORDER = ("10", "9", "8", "7", "6", "1", "J", "C", "Q", "K")   # cups, coins
_PLAIN_POWER = {
    s: {r: i for i, r in enumerate(_ROUND_ORDER if s in ("H", "D") else _LONG_ORDER)}
    for s in SUITS
}

COURT_VALUE = {"K": 5, "Q": 4, "C": 3, "J": 2}
CRICCA_TABLE = {  # cricca: (all 4, any 3)
    "tarocchi": (36, 18), "K": (34, 17), "Q": (28, 14), "C": (26, 13), "J": (24, 12),
}
CRICCA_MEMBERS = {
    "tarocchi": TAROCCHI,
    **{r: tuple(r + s for s in SUITS) for r in ("K", "Q", "C", "J")},
}
SEQUENCE_TYPES = ("trumps", "H", "D", "C", "S", "moors", "aces")
SIGNALS = ("busso", "volo", "striscio")


def is_trump(card: str) -> bool:
    return card in _TRUMPS


def is_plain(card: str) -> bool:
    return card not in _TRUMPS and card != MATTO


def suit(card: str) -> str | None:
    return card[-1] if is_plain(card) else None


def rank(card: str) -> str | None:
    return card[:-1] if is_plain(card) else None


def value(card: str) -> int:
    """§4.1: tarocchi 5, K 5, Q 4, C 3, J 2, every other card 1."""
    if card in TAROCCHI:
        return 5
    if is_plain(card):
        return COURT_VALUE.get(rank(card) or "", 1)
    return 1


def is_counting(card: str) -> bool:
    """Worth more than 1 point or usable in a cricca or a sequence: all but the 6-10 pips."""
    return not (is_plain(card) and rank(card) in ("6", "7", "8", "9", "10"))


assert len(PACK) == 62 and len(set(PACK)) == 62
assert sum(value(c) for c in PACK) == 118
assert sum(1 for c in PACK if not is_counting(c)) == 20


def card_points(cards: Iterable[str], last_trick: bool) -> int:
    """Values, one point off per pair of cards, 6 for the last trick (§4.1)."""
    cards = list(cards)
    assert len(cards) % 2 == 0, "piles always hold an even number of cards"
    return sum(value(c) for c in cards) - len(cards) // 2 + (6 if last_trick else 0)


def summary_card_points(tricks: int, counting: Iterable[str], holds_discard: bool,
                        last_trick: bool) -> int:
    """Card points of a ``tricks`` + ``counting`` pile: the discard counts as one of the
    ``tricks`` where held (2 cards instead of 4); the other cards are worth 1 each."""
    counting = list(counting)
    n = 4 * tricks - (2 if holds_discard else 0)
    if tricks == 0:
        n = 0
    assert n >= len(counting)
    return sum(value(c) for c in counting) + (n - len(counting)) - n // 2 + (6 if last_trick else 0)


# -- §4.3 cricche -------------------------------------------------------------------------------


def cricche(cards: Iterable[str]) -> list[tuple[str, int, int]]:
    """Every cricca the cards hold: (type, count, points)."""
    cs = set(cards)
    out = []
    for t, members in CRICCA_MEMBERS.items():
        n = sum(1 for m in members if m in cs)
        if n >= 3:
            out.append((t, n, CRICCA_TABLE[t][0 if n == 4 else 1]))
    return out


def cricca_type(cards: Sequence[str]) -> str | None:
    """The cricca a declaration's shown cards form (3 or 4 of one kind, nothing else)."""
    if len(cards) not in (3, 4) or len(set(cards)) != len(cards):
        return None
    for t, members in CRICCA_MEMBERS.items():
        if all(c in members for c in cards):
            return t
    return None


# -- §4.3 / R18 sequences, by brute force -----------------------------------------------------------


def sequence_points(length: int) -> int:
    return 10 + 5 * (length - 3)


def _assignments(wilds: Sequence[str], slots: Sequence[str], present: set[str]
                 ) -> Iterable[dict[str, str]]:
    """Every assignment of each wild card to a missing slot it stands for, or to "add" (it
    only adds to the length); each slot takes one wild at most (each wild once per sequence,
    one role each)."""
    roles = ("add",) + tuple(s for s in slots if s not in present)
    for choice in product(roles, repeat=len(wilds)):
        used = [r for r in choice if r != "add"]
        if len(set(used)) != len(used):
            continue
        yield {slot: w for w, slot in zip(wilds, choice) if slot != "add"}


def _trump_length(cs: set[str], wilds: Sequence[str]) -> int | None:
    if ANGEL not in cs:  # the Angel must be real
        return None
    best: int | None = None
    for filled in _assignments(wilds, TOP + NUMBERED_DESC, cs):
        real_top = [t for t in TOP if t in cs]
        wild_top = [t for t in TOP if t in filled]
        if not real_top or len(real_top) + len(wild_top) < 2:
            continue  # not established
        reached = 1 + len(real_top)          # the Angel and the real World/Sun/Moon
        previous_filled = False
        for t in NUMBERED_DESC:              # from T16 down, no lower than T5 (R11)
            if t in cs:
                reached += 1
                previous_filled = False
            elif t in filled and not previous_filled:
                previous_filled = True       # a wild not used to establish fills one gap
            else:
                break                        # a gap, or two wilds on adjacent gaps: run ends
        length = reached + len(wilds)        # R18: every wild card held adds
        best = length if best is None else max(best, length)
    return best


def _suit_length(cs: set[str], wilds: Sequence[str], s: str) -> int | None:
    if "K" + s not in cs:  # the King must be real
        return None
    courts = tuple(r + s for r in ("Q", "C", "J"))
    best: int | None = None
    for filled in _assignments(wilds, courts + ("1" + s,), cs):
        real = [c for c in courts if c in cs]
        wild = [c for c in courts if c in filled]
        if not real or len(real) + len(wild) < 2:
            continue
        reached = 1 + len(real) + (1 if "1" + s in cs else 0)  # the ace, once established
        length = reached + len(wilds)
        best = length if best is None else max(best, length)
    return best


def _set_length(cs: set[str], wilds: Sequence[str], members: Sequence[str]) -> int | None:
    """Moors or aces: at least three, at least two real."""
    best: int | None = None
    for filled in _assignments(wilds, members, cs):
        real = [m for m in members if m in cs]
        if len(real) < 2 or len(real) + len(filled) < 3:
            continue
        length = len(real) + len(wilds)
        best = length if best is None else max(best, length)
    return best


def sequences(cards: Iterable[str]) -> dict[str, int]:
    """Every sequence the cards establish: type -> best length (brute force)."""
    cs = set(cards)
    wilds = [w for w in WILDS if w in cs]
    found: dict[str, int | None] = {"trumps": _trump_length(cs, wilds)}
    for s in SUITS:
        found[s] = _suit_length(cs, wilds, s)
    found["moors"] = _set_length(cs, wilds, MOORS)
    found["aces"] = _set_length(cs, wilds, ACES)
    return {t: n for t, n in found.items() if n is not None}


def sequences_formula(cards: Iterable[str]) -> dict[str, int]:
    """The same rules restated in closed form (greedy), to cross-check the brute force."""
    cs = set(cards)
    w = sum(1 for x in WILDS if x in cs)
    out: dict[str, int] = {}
    top = sum(1 for t in TOP if t in cs)
    if ANGEL in cs and top >= 1 and top + w >= 2:
        free = w - max(0, 2 - top)
        n = 1 + top
        prev = False
        for t in NUMBERED_DESC:
            if t in cs:
                n += 1
                prev = False
            elif free > 0 and not prev:
                free -= 1
                prev = True
            else:
                break
        out["trumps"] = n + w
    for s in SUITS:
        courts = sum(1 for r in ("Q", "C", "J") if r + s in cs)
        if "K" + s in cs and courts >= 1 and courts + w >= 2:
            out[s] = 1 + courts + (1 if "1" + s in cs else 0) + w
    for name, members in (("moors", MOORS), ("aces", ACES)):
        real = sum(1 for m in members if m in cs)
        if real >= 2 and real + w >= 3:
            out[name] = real + w
    return out


def combos_points(cards: Iterable[str]) -> tuple[list[tuple[str, str, int]], list[tuple[str, int]]]:
    """All cricche and sequences of a set of cards, as (kind, type, points), and the doubling
    lines (kind, extra points) for three or more of a kind."""
    cards = list(cards)
    lines: list[tuple[str, str, int]] = []
    doubling: list[tuple[str, int]] = []
    cr = cricche(cards)
    lines += [("cricca", t, p) for t, _, p in cr]
    if len(cr) >= 3:
        doubling.append(("cricca", sum(p for _, _, p in cr)))
    sq = sequences(cards)
    lines += [("sequence", t, sequence_points(n)) for t, n in sq.items()]
    if len(sq) >= 3:
        doubling.append(("sequence", sum(sequence_points(n) for n in sq.values())))
    return sorted(lines), sorted(doubling)


def sequence_candidates(cards: Iterable[str], kind: str) -> list[str]:
    """The cards of a hand that belong to a sequence of this type (the shown cards of a
    declaration: every member held, reached or not, and every wild)."""
    cs = set(cards)
    if kind == "trumps":
        members: tuple[str, ...] = (ANGEL,) + TOP + NUMBERED_DESC
    elif kind == "moors":
        members = MOORS
    elif kind == "aces":
        members = ACES
    else:
        members = tuple(r + kind for r in ("K", "Q", "C", "J", "1"))
    return [c for c in members + WILDS if c in cs]


# -- §0 / §4.1 / §4.2 tricks --------------------------------------------------------------------


def effective_lead(cards: Sequence[str]) -> str | None:
    if not cards:
        return None
    if cards[0] == MATTO:
        return cards[1] if len(cards) > 1 else None
    return cards[0]


def trick_winner_index(cards: Sequence[str]) -> int:
    """Position (from the leader) of the card that wins a complete trick."""
    trumps = [(i, c) for i, c in enumerate(cards) if is_trump(c)]
    if trumps:
        top = max(_TRUMP_POWER[c] for _, c in trumps)
        return max(i for i, c in trumps if _TRUMP_POWER[c] == top)  # equal Moors: last wins
    lead = effective_lead(cards)
    assert lead is not None and is_plain(lead)
    led = suit(lead)
    assert led is not None
    same = [(i, c) for i, c in enumerate(cards) if suit(c) == led]
    return max(same, key=lambda ic: _PLAIN_POWER[led][rank(ic[1]) or ""])[0]


def legal_cards(hand: Sequence[str], played: Sequence[str]) -> list[str]:
    """The cards of ``hand`` that may be played to a trick holding ``played`` (§0)."""
    lead = effective_lead(played)
    if lead is None:
        return list(hand)
    if is_trump(lead):
        must = [c for c in hand if is_trump(c)]
    else:
        must = [c for c in hand if suit(c) == suit(lead)] or [c for c in hand if is_trump(c)]
    if not must:
        return list(hand)
    return must + ([MATTO] if MATTO in hand else [])


def check_play(card: str, played_before: Sequence[str], hand: Sequence[str]) -> str | None:
    """The follow rule a play breaks (``must_follow_suit``, ``must_trump``,
    ``must_follow_trump``) or None; ``hand`` is what the player held, the card included. The
    Matto may always be played; after a led Matto the second card is free."""
    if card == MATTO:
        return None
    lead = effective_lead(played_before)
    if lead is None:
        return None
    if is_trump(lead):
        if not is_trump(card) and any(is_trump(c) for c in hand):
            return "must_follow_trump"
        return None
    led = suit(lead)
    if suit(card) == led:
        return None
    if any(suit(c) == led for c in hand):
        return "must_follow_suit"
    if not is_trump(card) and any(is_trump(c) for c in hand):
        return "must_trump"
    return None


def violations(record: Json) -> list[Json]:
    """Every illegal play of a trick record, proved by the first card the player played later
    that it should have played then (§6)."""
    tricks = record["tricks"]
    leader = (record["dealer"] + 1) % 4
    leaders = []
    plays: dict[int, list[tuple[int, str]]] = {s: [] for s in range(4)}
    for t, cards in enumerate(tricks):
        leaders.append(leader)
        for i, card in enumerate(cards):
            plays[(leader + i) % 4].append((t, card))
        leader = (leader + trick_winner_index(cards)) % 4
    out = []
    for entry in record.get("signals") or []:
        given = [str(x).lower() for x in entry["signals"]]
        if any(x not in SIGNALS for x in given) or len(set(given)) != len(given) \
                or len(given) > 2:
            t = entry["trick"] - 1   # §4.2: busso, volo, striscio, two together at most
            out.append({"trick": t + 1, "seat": leaders[t], "card": tricks[t][0],
                        "rule": "illegal_signal", "proof": {"trick": None, "card": None}})
    for t, cards in enumerate(tricks):
        for i, card in enumerate(cards):
            seat = (leaders[t] + i) % 4
            later = [(t2, c) for t2, c in plays[seat] if t2 >= t]
            rule = check_play(card, cards[:i], [c for _, c in later])
            if rule is None:
                continue
            lead = effective_lead(cards[:i])
            led = suit(lead) if rule == "must_follow_suit" and lead else None
            proof = next((t2, c) for t2, c in later if t2 > t
                         and (suit(c) == led if led else is_trump(c)))
            out.append({"trick": t + 1, "seat": seat, "card": card, "rule": rule,
                        "proof": {"trick": proof[0] + 1, "card": proof[1]}})
    return sorted(out, key=lambda v: (v["trick"], v["seat"], v["rule"]))


def make_revoke(record: Json, rng: random.Random) -> tuple[Json, Json] | None:
    """Swap two of one player's cards between two tricks so that exactly one play becomes
    illegal while no trick winner changes. Returns the new record and its one violation."""
    base = replay(record)
    tricks = record["tricks"]
    leaders = [(record["dealer"] + 1) % 4] + base.winners[:-1]
    pairs = [(t, t2) for t in range(15) for t2 in range(t + 1, 15)]
    rng.shuffle(pairs)
    for seat in rng.sample(range(4), 4):
        for t, t2 in pairs:
            i, j = (seat - leaders[t]) % 4, (seat - leaders[t2]) % 4
            a, b = tricks[t][i], tricks[t2][j]
            if MATTO in (a, b):
                continue
            new = [list(x) for x in tricks]
            new[t][i], new[t2][j] = b, a
            rec = dict(record, tricks=new)
            rec.pop("fool", None)
            rep = replay(rec)
            if rep.winners != base.winners:
                continue
            found = violations(rec)
            if len(found) == 1 and (found[0]["trick"], found[0]["seat"]) == (t + 1, seat):
                return rec, found[0]
    return None


# -- the generator --------------------------------------------------------------------------------

Policy = Callable[[random.Random, list[str], list[str], int], str]


def random_policy(rng: random.Random, hand: list[str], legal: list[str], trick_no: int) -> str:
    return rng.choice(legal)


def keep(card: str) -> Policy:
    """Hold ``card`` back until it is the only legal card or the last trick."""
    def policy(rng: random.Random, hand: list[str], legal: list[str], trick_no: int) -> str:
        others = [c for c in legal if c != card]
        return rng.choice(others or legal)
    return policy


def lead_matto(rng: random.Random, hand: list[str], legal: list[str], trick_no: int) -> str:
    if MATTO in legal and rng.random() < 0.7:
        return MATTO
    return rng.choice(legal)


@dataclass
class Game:
    dealer: int
    hands: dict[int, list[str]]          # after the discard, in play
    discard: list[str]
    declarations: list[Json]
    tricks: list[list[str]]
    signals: list[Json] = field(default_factory=list)

    def record(self, *, with_discard: bool = True, declarations: bool = True,
               signals: bool = True) -> Json:
        out: Json = {"dealer": self.dealer}
        if with_discard:
            out["discard"] = list(self.discard)
        if declarations and self.declarations:
            out["declarations"] = [dict(d, cards=list(d["cards"])) for d in self.declarations]
        out["tricks"] = [list(t) for t in self.tricks]
        if signals and self.signals:
            out["signals"] = [dict(s, signals=list(s["signals"])) for s in self.signals]
        return out


def deal(rng: random.Random, dealer: int,
         force: dict[int, Sequence[str]] | None = None) -> dict[int, list[str]]:
    """15 cards each, the dealer 17; ``force`` puts given cards in given seats' hands."""
    force = force or {}
    rest = [c for c in PACK if not any(c in f for f in force.values())]
    rng.shuffle(rest)
    hands: dict[int, list[str]] = {}
    for s in range(4):
        size = 17 if s == dealer else 15
        mine = list(force.get(s, ()))
        take = size - len(mine)
        hands[s] = mine + rest[:take]
        rest = rest[take:]
    assert not rest
    return hands


def may_discard(card: str) -> bool:
    """§4.2: no 5-point cards (tarocchi, Kings)."""
    return value(card) < 5


def choose_discard(rng: random.Random, hand: list[str]) -> list[str]:
    return rng.sample([c for c in hand if may_discard(c)], 2)


def hand_declarations(rng: random.Random, seat: int, hand: Sequence[str],
                      p: float = 0.8) -> list[Json]:
    """Some of the combinations the hand holds, as legal declarations: each cricca held (all
    its cards, or three of four) and each sequence (every member card held and the wilds)."""
    out: list[Json] = []
    for t, n, _ in cricche(hand):
        if rng.random() < p:
            cards = [c for c in CRICCA_MEMBERS[t] if c in hand]
            if n == 4 and rng.random() < 0.3:
                cards = rng.sample(cards, 3)
            out.append({"seat": seat, "kind": "cricca", "cards": cards})
    for t in sequences(hand):
        if rng.random() < p:
            cards = sequence_candidates(hand, t)
            out.append({"seat": seat, "kind": "sequence", "cards": cards})
    return out


def generate(seed: int, *, dealer: int | None = None, policy: Policy = random_policy,
             policies: dict[int, Policy] | None = None,
             force: dict[int, Sequence[str]] | None = None,
             discard: Callable[[random.Random, list[str]], list[str]] = choose_discard,
             declare: float = 0.0, signals: float = 0.0) -> Game:
    """A complete legal hand from ``seed``: deal, discard, declarations (each combination a
    hand holds is declared with probability ``declare``), 15 tricks of random legal cards, and
    random legal signals with a lead (probability ``signals``)."""
    rng = random.Random(seed)
    d = rng.randrange(4) if dealer is None else dealer
    hands = deal(rng, d, force)
    thrown = discard(rng, hands[d])
    hands[d] = [c for c in hands[d] if c not in thrown]
    decls: list[Json] = []
    if declare:
        for i in range(4):
            seat = (d + 1 + i) % 4
            decls += hand_declarations(rng, seat, hands[seat], declare)
    in_hand = {s: list(h) for s, h in hands.items()}
    tricks: list[list[str]] = []
    sigs: list[Json] = []
    leader = (d + 1) % 4
    for n in range(15):
        played: list[str] = []
        for i in range(4):
            seat = (leader + i) % 4
            legal = legal_cards(in_hand[seat], played)
            pol = (policies or {}).get(seat, policy)
            card = pol(rng, in_hand[seat], legal, n)
            assert card in legal
            in_hand[seat].remove(card)
            played.append(card)
        if signals and rng.random() < signals:
            sigs.append({"trick": n + 1, "signals": rng.sample(SIGNALS, rng.choice((1, 2)))})
        tricks.append(played)
        leader = (leader + trick_winner_index(played)) % 4
    return Game(d, hands, thrown, decls, tricks, sigs)


# -- replay and score ------------------------------------------------------------------------------


def side_of(seat: int) -> int:
    return seat % 2


def cheapest(cards: Iterable[str]) -> str:
    """The default exchange card, of the cards the Matto's side took in tricks (its final
    pile less the discard): lowest value, then a 6-10 pip (usable in no cricca or sequence),
    then the first in pack order."""
    return min(cards, key=lambda c: (value(c), is_counting(c), PACK_INDEX[c]))


@dataclass
class Replay:
    dealer: int
    winners: list[int] = field(default_factory=list)        # seats, per trick
    piles: list[list[str]] = field(default_factory=lambda: [[], []])
    tricks_won: list[int] = field(default_factory=lambda: [0, 0])
    discard: list[str] = field(default_factory=list)
    discard_side: int = 0
    last_side: int = 0
    fool: Json | None = None


def replay(record: Json) -> Replay:
    """The sides' final piles of a trick-by-trick record (§4.2)."""
    dealer = record["dealer"]
    tricks = record["tricks"]
    rep = Replay(dealer)
    played = {c for t in tricks for c in t}
    rep.discard = list(record.get("discard") or [c for c in PACK if c not in played])
    leader = (dealer + 1) % 4
    matto: tuple[int, int, int] | None = None   # (seat, trick number, winning side)
    for n, cards in enumerate(tricks, 1):
        w = (leader + trick_winner_index(cards)) % 4
        rep.winners.append(w)
        rep.piles[side_of(w)] += cards
        rep.tricks_won[side_of(w)] += 1
        if MATTO in cards:
            matto = ((leader + cards.index(MATTO)) % 4, n, side_of(w))
        leader = w
    rep.last_side = side_of(rep.winners[-1])
    ds = side_of(dealer)
    rep.discard_side = ds if rep.tricks_won[ds] else 1 - ds
    won = [list(rep.piles[0]), list(rep.piles[1])]      # what each side took in tricks
    rep.piles[rep.discard_side] += rep.discard
    if matto is not None:
        mseat, mtrick, wside = matto
        mside = side_of(mseat)
        fool: Json = {"played_by": mseat, "trick": mtrick}
        if rep.tricks_won[mside] == 0:
            fool["kept"] = False                      # the Matto goes to the opponents
        elif wside != mside:
            # one card of those the Matto's side took in tricks (seed: "any card they have
            # previously taken in tricks"; §6: the discard never leaves the side holding it)
            given = (record.get("fool") or {}).get("exchange_card")
            own = [c for c in won[mside] if c != MATTO]
            card = given or cheapest(own)
            assert card in own, (card, own)
            rep.piles[wside].remove(MATTO)
            rep.piles[mside].append(MATTO)
            rep.piles[mside].remove(card)
            rep.piles[wside].append(card)
            fool.update(kept=True, exchange_card=card)
        else:
            fool["kept"] = True
        rep.fool = fool
    assert sorted(rep.piles[0] + rep.piles[1]) == sorted(PACK)
    return rep


def declared(record: Json) -> tuple[list[list[Any]], list[list[Any]]]:
    """Declaration lines [seat, kind, type, points] and the per-player doubling lines
    [seat, kind, extra points] (never pooled across partners)."""
    lines: list[list[Any]] = []
    for d in record.get("declarations") or []:
        if d["kind"] == "cricca":
            t = cricca_type(d["cards"])
            assert t is not None, d
            lines.append([d["seat"], "cricca", t, CRICCA_TABLE[t][0 if len(d["cards"]) == 4 else 1]])
        else:
            found = sequences(d["cards"])
            assert len(found) == 1, d
            (t, n), = found.items()
            lines.append([d["seat"], "sequence", t, sequence_points(n)])
    doubling: list[list[Any]] = []
    for seat in range(4):
        for kind in ("cricca", "sequence"):
            mine = [x for x in lines if x[0] == seat and x[1] == kind]
            if len({x[2] for x in mine}) >= 3:
                doubling.append([seat, kind, sum(x[3] for x in mine)])
    return sorted(lines), sorted(doubling)


def expect(record: Json) -> Json:
    """What a record must score: columns, per side the card points, captured combinations
    and their doubling; the declarations; for trick records the winners and the Matto."""
    out: Json = {}
    piles: list[list[str] | None] = [None, None]
    summary: list[tuple[int, list[str]] | None] = [None, None]
    if "tricks" in record:
        rep = replay(record)
        piles = [rep.piles[0], rep.piles[1]]
        last_side = rep.last_side
        out["winners"] = rep.winners
        out["discard_lost"] = rep.discard_side != side_of(record["dealer"])
        out["violations"] = violations(record)
        if rep.fool is not None:
            out["fool"] = rep.fool
    else:
        last_side = side_of(record["last_trick"])
        for p in record["piles"]:
            if "cards" in p:
                piles[p["side"]] = list(p["cards"])
            else:
                summary[p["side"]] = (p["tricks"], list(p["counting"]))
        if piles[0] is not None or piles[1] is not None:
            k = 0 if piles[0] is not None else 1
            if piles[1 - k] is None:
                piles[1 - k] = [c for c in PACK if c not in piles[k]]  # type: ignore[operator]
        else:
            k = 0 if summary[0] is not None else 1
            if summary[1 - k] is None:
                t, cnt = summary[k]  # type: ignore[misc]
                summary[1 - k] = (16 - t, [c for c in PACK if is_counting(c) and c not in cnt])
    cps: list[int] = []
    captured: Json = {}
    captured_doubling: Json = {}
    for side in (0, 1):
        if piles[side] is not None:
            pile = piles[side]
            assert pile is not None and len(pile) % 2 == 0
            cp = card_points(pile, last_side == side)
            combo_cards: list[str] = pile
        else:
            t, cnt = summary[side]  # type: ignore[misc]
            holds = t > 0 and _summary_holds_discard(record, side, summary)
            cp = summary_card_points(t, cnt, holds, last_side == side)
            combo_cards = cnt
        lines, doubling = combos_points(combo_cards)
        cps.append(cp)
        captured[str(side)] = [list(x) for x in lines]
        captured_doubling[str(side)] = [list(x) for x in doubling]
    assert sum(cps) == 93, cps
    dec, dec_doubling = declared(record)
    totals = []
    for side in (0, 1):
        total = cps[side]
        total += sum(p for _, _, p in captured[str(side)])
        total += sum(p for _, p in captured_doubling[str(side)])
        total += sum(x[3] for x in dec if side_of(x[0]) == side)
        total += sum(x[2] for x in dec_doubling if side_of(x[0]) == side)
        totals.append(total)
    out.update(
        columns={"0": totals[0], "1": totals[1]},
        card_points=cps,
        captured=captured,
        captured_doubling=captured_doubling,
        declared=dec,
        declared_doubling=dec_doubling,
    )
    return out


def _summary_holds_discard(record: Json, side: int,
                           summary: list[tuple[int, list[str]] | None]) -> bool:
    """In a ``tricks`` + ``counting`` summary the dealer's side holds the discard (counted as
    one of its tricks) unless it took no trick; then the opponents hold it."""
    ds = side_of(record["dealer"])
    dealer_tricks = summary[ds][0]  # type: ignore[index]
    holder = ds if dealer_tricks > 0 else 1 - ds
    return side == holder


# -- summaries from a replay ---------------------------------------------------------------------


def full_summary(game_record: Json, rep: Replay, sides: Sequence[int] = (0, 1)) -> Json:
    """The same hand as a summary record with full-card piles (only ``sides`` given)."""
    out: Json = {"dealer": game_record["dealer"]}
    if "discard" in game_record:
        out["discard"] = list(game_record["discard"])
    if game_record.get("declarations"):
        out["declarations"] = game_record["declarations"]
    out["piles"] = [{"side": s, "cards": sorted(rep.piles[s], key=PACK_INDEX.__getitem__)}
                    for s in sides]
    out["last_trick"] = rep.winners[-1]
    return out


def counting_summary(game_record: Json, rep: Replay, sides: Sequence[int] = (0, 1)) -> Json:
    """The same hand as a ``tricks`` + ``counting`` summary (the discard one of the holder's
    tricks)."""
    out: Json = {"dealer": game_record["dealer"]}
    if "discard" in game_record:
        out["discard"] = list(game_record["discard"])
    if game_record.get("declarations"):
        out["declarations"] = game_record["declarations"]
    piles = []
    for s in sides:
        n = rep.tricks_won[s] + (1 if rep.discard_side == s else 0)
        counting = sorted((c for c in rep.piles[s] if is_counting(c)), key=PACK_INDEX.__getitem__)
        piles.append({"side": s, "tricks": n, "counting": counting})
    out["piles"] = piles
    out["last_trick"] = rep.winners[-1]
    return out
