"""An independent reference replayer for trick-by-trick Gatti records (rulebook §0, §2, §6).

Written from the rules alone, without reading the service's trick engine, so the two can be
compared: it derives each trick's winner, every illegal play with its proof, the piles (with
the Fool's exchange and the covering of the discard), deck points, Bagatto ultimo, melds and the
score-sheet columns. It also holds a deterministic deal-and-play generator (a seeded
``random.Random``) that produces complete, legal trick records.

Cards are plain strings (canonical codes). Nothing here imports the service: the reference is
self-contained so that it cannot share a bug with the engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]

# -- §2.1 the pack ---------------------------------------------------------------------------

SUITS = ("H", "D", "C", "S")
PLAIN_RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")
TRUMPS = tuple(f"T{n}" for n in range(1, 22))
TRUMP_ORDER = tuple(f"T{n}" for n in range(1, 20)) + ("T21", "T20")  # low -> high
PACK: tuple[str, ...] = TRUMPS + tuple(r + s for s in SUITS for r in PLAIN_RANKS) + ("FOOL",)
FOOL = "FOOL"
T1 = "T1"
COURT_VALUE = {"K": 4, "Q": 3, "C": 2, "J": 1}


def is_trump(card: str) -> bool:
    return card in _TRUMP_SET


def is_fool(card: str) -> bool:
    return card == FOOL


def is_plain(card: str) -> bool:
    return card not in _TRUMP_SET and card != FOOL


def suit(card: str) -> str | None:
    return card[-1] if is_plain(card) else None


def rank(card: str) -> str | None:
    return card[:-1] if is_plain(card) else None


def is_pip(card: str) -> bool:
    return is_plain(card) and rank(card) not in COURT_VALUE


def value(card: str) -> int:
    """Counting value (§2.1): T1, T21, FOOL, K = 4; Q 3; C 2; J 1; others 0."""
    if card in ("T1", "T21", "FOOL"):
        return 4
    if is_plain(card):
        return COURT_VALUE.get(rank(card) or "", 0)
    return 0


_TRUMP_SET = frozenset(TRUMPS)
_TRUMP_POWER = {c: i for i, c in enumerate(TRUMP_ORDER)}
_PLAIN_POWER = {r: i for i, r in enumerate(PLAIN_RANKS)}
assert sum(value(c) for c in PACK) == 52 and len(PACK) == 78


# -- §2.2 the table forms --------------------------------------------------------------------


@dataclass(frozen=True)
class Form:
    id: str
    seats: int
    each: int          # cards dealt to each seat (= tricks played)
    discard: int       # the dealer's extra cards, discarded
    total: int         # deck points per hand
    frilli: int        # meld thresholds
    trumps: int
    partnership: str   # none | pairs | call
    columns: str       # seat | side
    bagatto_lost: int  # paid to each opposing side when T1 loses the last trick


FORMS: dict[str, Form] = {
    "gatti-3": Form("gatti-3", 3, 25, 3, 78, 20, 10, "none", "seat", 10),
    "gatti-4": Form("gatti-4", 4, 19, 2, 72, 15, 8, "pairs", "side", 20),
    "gatti-2": Form("gatti-2", 4, 19, 2, 72, 15, 8, "pairs", "side", 20),
    "gatti-4-call": Form("gatti-4-call", 4, 19, 2, 72, 15, 8, "call", "seat", 20),
}
BAGATTO_WIN = 20


# -- §0 / §2.5 tricks --------------------------------------------------------------------------


def effective_lead(cards: Sequence[str]) -> str | None:
    """The card that fixes the trick's suit: the first, or the second when the Fool was led."""
    if not cards:
        return None
    if cards[0] == FOOL:
        return cards[1] if len(cards) > 1 else None
    return cards[0]


def trick_winner_index(cards: Sequence[str]) -> int:
    """Position (0-based, from the leader) of the card that wins a complete trick."""
    trumps = [(i, c) for i, c in enumerate(cards) if is_trump(c)]
    if trumps:
        return max(trumps, key=lambda ic: _TRUMP_POWER[ic[1]])[0]
    lead = effective_lead(cards)
    assert lead is not None and is_plain(lead)
    led = suit(lead)
    same = [(i, c) for i, c in enumerate(cards) if suit(c) == led]
    return max(same, key=lambda ic: _PLAIN_POWER[rank(ic[1]) or ""])[0]


def legal_cards(hand: Sequence[str], played: Sequence[str]) -> list[str]:
    """Which cards of ``hand`` may be played to a trick holding ``played`` (§0)."""
    lead = effective_lead(played)
    if lead is None:
        return list(hand)
    if is_trump(lead):
        trumps = [c for c in hand if is_trump(c)]
        return trumps + ([FOOL] if FOOL in hand else []) if trumps else list(hand)
    led = suit(lead)
    follow = [c for c in hand if suit(c) == led]
    if follow:
        return follow + ([FOOL] if FOOL in hand else [])
    trumps = [c for c in hand if is_trump(c)]
    if trumps:
        return trumps + ([FOOL] if FOOL in hand else [])
    return list(hand)


def check_play(card: str, played_before: Sequence[str], hand: Sequence[str]) -> str | None:
    """The rule a play breaks (``must_follow_suit``, ``must_trump``, ``must_follow_trump``) or
    None. ``hand`` is what the player held (the card itself included)."""
    if card == FOOL:
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


# -- the replay ------------------------------------------------------------------------------


class ReferenceError_(ValueError):
    """The reference cannot replay this record (it is not a complete, well-formed one)."""


@dataclass
class Replay:
    form: Form
    dealer: int
    leaders: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    seats_of_cards: dict[str, tuple[int, int]] = field(default_factory=dict)  # card -> (trick, seat)
    violations: list[Json] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    partner: int | None = None
    sides: list[tuple[int, ...]] = field(default_factory=list)
    piles: dict[int, list[str]] = field(default_factory=dict)
    tricks_won: dict[int, int] = field(default_factory=dict)
    discard_holder: int = 0
    fool: Json | None = None
    exchange_card: str | None = None
    bagatto: Json | None = None
    lines: dict[int, list[tuple[str, int]]] = field(default_factory=dict)
    totals: dict[int, int] = field(default_factory=dict)
    columns: dict[str, int] = field(default_factory=dict)
    events: list[str] = field(default_factory=list)
    hands: dict[int, list[str]] = field(default_factory=dict)

    def side_of(self, seat: int) -> int:
        return next(i for i, seats in enumerate(self.sides) if seat in seats)

    def deck_points(self) -> dict[int, int]:
        return {s: pts for s, ls in self.lines.items() for item, pts in ls if item == "deck_points"}

    def expect(self) -> Json:
        """The corpus ``expect`` block."""
        out: Json = {"columns": dict(self.columns), "winners": list(self.winners),
                     "violations": [dict(v) for v in self.violations],
                     "events": list(self.events)}
        if self.bagatto is not None:
            out["bagatto"] = dict(self.bagatto)
        if self.fool is not None:
            out["fool"] = dict(self.fool)
        if self.form.partnership == "call":
            out["partner"] = self.partner
        return out


def replay(form_id: str, record: Json, options: Json | None = None) -> Replay:
    """Replay and score a complete trick record (rulebook §2.5, §2.6)."""
    form = FORMS[form_id]
    options = options or {}
    n = form.seats
    dealer = record["dealer"]
    tricks: list[list[str]] = [list(t) for t in record["tricks"]]
    if len(tricks) != form.each or any(len(t) != n for t in tricks):
        raise ReferenceError_("incomplete or malformed tricks")
    played = [c for t in tricks for c in t]
    if len(set(played)) != len(played) or not set(played) <= set(PACK):
        raise ReferenceError_("a card twice or a foreign card")
    rep = Replay(form, dealer)

    # winners, and who played what
    leader = (dealer + 1) % n
    plays: dict[int, list[tuple[int, str]]] = {s: [] for s in range(n)}  # seat -> [(trick, card)]
    for t, cards in enumerate(tricks):
        rep.leaders.append(leader)
        for i, card in enumerate(cards):
            seat = (leader + i) % n
            plays[seat].append((t, card))
            rep.seats_of_cards[card] = (t, seat)
        winner = (leader + trick_winner_index(cards)) % n
        rep.winners.append(winner)
        leader = winner
    rep.hands = {s: [c for _, c in plays[s]] for s in range(n)}

    # legality (a player's hand at trick t = what they play at t and later)
    for t, cards in enumerate(tricks):
        lead_seat = rep.leaders[t]
        for i, card in enumerate(cards):
            seat = (lead_seat + i) % n
            later = [(t2, c) for t2, c in plays[seat] if t2 >= t]
            rule = check_play(card, cards[:i], [c for _, c in later])
            if rule is None:
                continue
            lead = effective_lead(cards[:i])
            assert lead is not None
            led = suit(lead) if rule == "must_follow_suit" else None
            proof = next((t2, c) for t2, c in later if t2 > t
                         and (suit(c) == led if led else is_trump(c)))
            rep.violations.append({"trick": t + 1, "seat": seat, "card": card, "rule": rule,
                                   "proof": {"trick": proof[0] + 1, "card": proof[1]}})

    # discard
    if record.get("discard") is not None:
        rep.discard = list(record["discard"])
    else:
        rep.discard = [c for c in PACK if c not in set(played)]
    if len(rep.discard) != form.discard or set(rep.discard) & set(played) \
            or len(set(rep.discard) | set(played)) != 78:
        raise ReferenceError_("the discard does not complete the pack")

    # sides
    if form.partnership == "none":
        rep.sides = [(s,) for s in range(n)]
    elif form.partnership == "pairs":
        rep.sides = [(0, 2), (1, 3)]
    else:
        called = record["call"]["card"]
        rep.partner = dealer if called in rep.discard else rep.seats_of_cards[called][1]
        team = tuple(sorted({dealer, rep.partner}))
        rep.sides = [team, tuple(s for s in range(n) if s not in team)]
        if rep.partner == dealer:
            rep.events.append("dealer_alone")
    nsides = len(rep.sides)
    side_of = rep.side_of

    # piles: each trick to its winner's side
    rep.piles = {s: [] for s in range(nsides)}
    rep.tricks_won = {s: 0 for s in range(nsides)}
    trick_side = [side_of(w) for w in rep.winners]
    for t, cards in enumerate(tricks):
        rep.piles[trick_side[t]].extend(cards)
        rep.tricks_won[trick_side[t]] += 1

    # the Fool
    if FOOL in rep.seats_of_cards:
        ft, fseat = rep.seats_of_cards[FOOL]
        fside, wside = side_of(fseat), trick_side[ft]
        rep.fool = {"played_by": fseat, "trick": ft + 1}
        if fside != wside:
            rep.piles[wside].remove(FOOL)
            rep.piles[fside].append(FOOL)
            won_later = [t for t in range(ft + 1, len(tricks)) if trick_side[t] == fside]
            if won_later:
                fool_rec = record.get("fool") or {}
                given = fool_rec.get("exchange_card")
                if given is not None:
                    if not any(given in tricks[t] for t in won_later):
                        raise ReferenceError_("exchange card not from a later trick won")
                    card = given
                else:
                    first = tricks[won_later[0]]
                    card = min(first, key=lambda c: (value(c), first.index(c)))
                rep.piles[fside].remove(card)
                rep.piles[wside].append(card)
                rep.exchange_card = card
                rep.fool["covered"] = True
            else:
                rep.piles[fside].remove(FOOL)
                rep.piles[wside].append(FOOL)
                rep.fool["covered"] = False
                rep.events.append("fool_handed_over")

    # the discard (§2.3)
    dside = side_of(dealer)
    if rep.tricks_won[dside] > 0:
        rep.discard_holder = dside
    else:
        rep.events.insert(0, "discard_uncovered")
        if form.partnership == "none":
            rep.discard_holder = trick_side[-1]
        else:
            rep.discard_holder = 1 - dside
    rep.piles[rep.discard_holder].extend(rep.discard)

    # lines: melds, Bagatto, deck points
    rep.lines = {s: [] for s in range(nsides)}
    melds_option = options.get("melds", "hand")
    if melds_option in ("hand", "both"):
        best: dict[tuple[int, str], int] = {}
        for d in record.get("declarations") or []:
            pts, family = meld_points(form, d)
            key = (d["seat"], family)
            before = best.get(key, 0)
            best[key] = max(before, pts)
            rep.lines[side_of(d["seat"])].append(("meld", max(0, pts - before)))
    if melds_option in ("captured", "both"):
        raise ReferenceError_("captured melds are not modelled by the reference")
    last = tricks[-1]
    if T1 in last:
        t1_seat = (rep.leaders[-1] + last.index(T1)) % n
        won = rep.winners[-1] == t1_seat
        if options.get("bagatto_ultimo", True):
            rep.bagatto = {"seat": t1_seat, "won": won}
            own = side_of(t1_seat)
            if won:
                rep.lines[own].append(("bagatto_ultimo", BAGATTO_WIN))
            else:
                for s in range(nsides):
                    if s != own:
                        rep.lines[s].append(("bagatto_ultimo", form.bagatto_lost))
    for s in range(nsides):
        tricks_held = rep.tricks_won[s] + (1 if rep.discard_holder == s else 0)
        rep.lines[s].append(("deck_points", tricks_held + sum(value(c) for c in rep.piles[s])))
    assert sum(rep.deck_points().values()) == form.total
    rep.totals = {s: sum(p for _, p in ls) for s, ls in rep.lines.items()}
    if form.columns == "seat":
        rep.columns = {str(seat): rep.totals[side_of(seat)] for seat in range(n)}
    else:
        rep.columns = {str(s): rep.totals[s] for s in range(nsides)}
    return rep


def meld_points(form: Form, d: Json) -> tuple[int, str]:
    """Points and R1 family of one declaration that lists its shown cards (§2.4)."""
    kind, cards = d["kind"], d.get("cards") or []
    if kind == "frilli":
        assert len(cards) >= form.frilli and all(is_pip(c) for c in cards)
        return len(cards), "frilli"
    if kind == "trumps":
        assert len(cards) >= form.trumps and all(is_trump(c) for c in cards)
        return len(cards), "trumps"
    if kind == "gatti":
        return 10, "gatti"
    if kind == "family":
        s = d.get("suit") or suit(cards[0])
        return 10, f"family:{s}"
    if kind == "four_of_a_kind":
        r = d.get("rank") or rank(cards[0])
        return 10, f"kind:{r}"
    if kind == "three_of_a_kind":
        r = d.get("rank") or rank(cards[0])
        return 5, f"kind:{r}"
    raise ReferenceError_(f"unknown meld {kind}")


# -- the generator -----------------------------------------------------------------------------

#: chooses a card among the legal ones: (rng, seat, legal, trick so far, game state) -> card
Policy = Callable[[random.Random, int, list[str], list[str], "Game"], str]


@dataclass
class Game:
    """A generated hand: the deal and its record."""

    form: Form
    dealer: int
    hands: dict[int, list[str]]          # after the discard
    discard: list[str]
    tricks: list[list[str]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    call: str | None = None

    def record(self, with_discard: bool = True) -> Json:
        out: Json = {"dealer": self.dealer, "tricks": [list(t) for t in self.tricks]}
        if with_discard:
            out["discard"] = list(self.discard)
        if self.call is not None:
            out["call"] = {"card": self.call}
        return out


def random_policy(rng: random.Random, seat: int, legal: list[str], played: list[str],
                  game: Game) -> str:
    return rng.choice(legal)


def legal_discards(hand: Sequence[str], k: int, rng: random.Random) -> list[str]:
    """A random legal discard of ``k`` cards (§2.3): no King; T1 only as the sole trump."""
    trumps = [c for c in hand if is_trump(c)]
    allowed = [c for c in hand if not (is_plain(c) and rank(c) == "K")
               and not (c == T1 and len(trumps) > 1)]
    return rng.sample(allowed, k)


def deal(form_id: str, seed: int, dealer: int | None = None,
         stack: Callable[[random.Random, Form, int], dict[int, list[str]]] | None = None) -> Game:
    """Shuffle and deal: each seat its hand, the dealer its extra cards, then a legal discard."""
    form = FORMS[form_id]
    rng = random.Random(seed)
    if dealer is None:
        dealer = rng.randrange(form.seats)
    if stack is not None:
        hands = stack(rng, form, dealer)
    else:
        pack = list(PACK)
        rng.shuffle(pack)
        hands, i = {}, 0
        for s in range(form.seats):
            size = form.each + (form.discard if s == dealer else 0)
            hands[s] = pack[i:i + size]
            i += size
    discard = legal_discards(hands[dealer], form.discard, rng)
    hands[dealer] = [c for c in hands[dealer] if c not in discard]
    return Game(form, dealer, hands, discard)


def play(game: Game, seed: int, policy: Policy = random_policy,
         policies: dict[int, Policy] | None = None) -> Game:
    """Play the hand out with legal cards chosen by the policy (per seat if given)."""
    rng = random.Random(seed)
    n = game.form.seats
    hands = {s: list(h) for s, h in game.hands.items()}
    leader = (game.dealer + 1) % n
    game.tricks, game.winners = [], []
    for _ in range(game.form.each):
        cards: list[str] = []
        for i in range(n):
            seat = (leader + i) % n
            legal = legal_cards(hands[seat], cards)
            choose = (policies or {}).get(seat, policy)
            card = choose(rng, seat, legal, cards, game)
            assert card in legal
            hands[seat].remove(card)
            cards.append(card)
        winner = (leader + trick_winner_index(cards)) % n
        game.tricks.append(cards)
        game.winners.append(winner)
        leader = winner
    return game


def call_card(game: Game, rng: random.Random, alone: bool = False) -> str:
    """``gatti-4-call``: the dealer calls a King it does not hold (one it holds when alone;
    a Queen when it holds all four Kings)."""
    held = game.hands[game.dealer]
    kings = [f"K{s}" for s in SUITS]
    if all(k in held for k in kings):
        queens = [f"Q{s}" for s in SUITS]
        mine = [q for q in queens if q in held or q in game.discard]
        others = [q for q in queens if q not in mine]
        # Alone with no Queen of its own it cannot call itself: it calls another's.
        return rng.choice(mine if mine and (alone or not others) else others)
    mine = [k for k in kings if k in held]
    others = [k for k in kings if k not in held]
    return rng.choice(mine if alone and mine else others)


def generate(form_id: str, seed: int, policy: Policy = random_policy,
             policies: dict[int, Policy] | None = None, dealer: int | None = None,
             stack: Callable[[random.Random, Form, int], dict[int, list[str]]] | None = None,
             alone: bool = False) -> Game:
    """A complete legal hand for ``form_id``, the same for the same arguments."""
    game = deal(form_id, seed, dealer, stack)
    if game.form.partnership == "call":
        game.call = call_card(game, random.Random(seed * 7 + 1), alone)
    return play(game, seed * 31 + 7, policy, policies)


# -- play policies -------------------------------------------------------------------------------


def keep(*cards: str) -> Policy:
    """Play any legal card but hold ``cards`` back as long as there is a choice."""

    def policy(rng: random.Random, seat: int, legal: list[str], played: list[str],
               game: Game) -> str:
        rest = [c for c in legal if c not in cards]
        return rng.choice(rest or legal)

    return policy


def lead_fool(rng: random.Random, seat: int, legal: list[str], played: list[str],
              game: Game) -> str:
    """Lead the Fool at the first chance; otherwise random."""
    if not played and FOOL in legal:
        return FOOL
    return rng.choice([c for c in legal if c != FOOL] or legal)


# -- declarations --------------------------------------------------------------------------------


def melds_of(form: Form, seat: int, hand: list[str], upgrade: bool = False) -> list[Json]:
    """Every meld ``hand`` forms, declared with its cards (R2). With ``upgrade``, four of a kind
    is declared as three first, then four (R1)."""
    out: list[Json] = []
    pips = [c for c in hand if is_pip(c)]
    trumps = [c for c in hand if is_trump(c)]
    if len(pips) >= form.frilli:
        out.append({"seat": seat, "kind": "frilli", "cards": sorted(pips, key=PACK.index)})
    if len(trumps) >= form.trumps:
        out.append({"seat": seat, "kind": "trumps", "cards": sorted(trumps, key=PACK.index)})
    if all(c in hand for c in ("FOOL", "T1", "T21")):
        out.append({"seat": seat, "kind": "gatti", "cards": ["T1", "T21", "FOOL"]})
    for s in SUITS:
        family = [r + s for r in ("J", "C", "Q", "K")]
        if all(c in hand for c in family):
            out.append({"seat": seat, "kind": "family", "cards": family})
    for r in ("J", "C", "Q", "K"):
        same = [r + s for s in SUITS if r + s in hand]
        if len(same) == 4:
            if upgrade:
                out.append({"seat": seat, "kind": "three_of_a_kind", "cards": same[:3]})
            out.append({"seat": seat, "kind": "four_of_a_kind", "cards": same})
        elif len(same) == 3:
            out.append({"seat": seat, "kind": "three_of_a_kind", "cards": same})
    return out


def all_melds(game: Game, upgrade: bool = False) -> list[Json]:
    """Each seat's melds in the order of declaring: starting after the dealer."""
    n = game.form.seats
    rep = replay(game.form.id, game.record())
    out: list[Json] = []
    for k in range(1, n + 1):
        seat = (game.dealer + k) % n
        out += melds_of(game.form, seat, rep.hands[seat], upgrade)
    return out


# -- making a revoke -----------------------------------------------------------------------------


def make_revoke(form_id: str, record: Json, rng: random.Random,
                avoid: Sequence[str] = (FOOL, T1)) -> tuple[Json, Json] | None:
    """Swap two of one player's cards between two tricks so that exactly one play becomes
    illegal while no trick winner changes (verified by replaying). Returns the new record and
    the one violation, or None when no such swap was found."""
    base = replay(form_id, record)
    n = base.form.seats
    tricks = record["tricks"]
    candidates = [(t, t2) for t in range(len(tricks)) for t2 in range(t + 1, len(tricks))]
    rng.shuffle(candidates)
    for seat in rng.sample(range(n), n):
        for t, t2 in candidates:
            pos = (seat - base.leaders[t]) % n
            a = tricks[t][pos]
            b = tricks[t2][(seat - base.leaders[t2]) % n]
            if a in avoid or b in avoid:
                continue
            held = [tricks[k][(seat - base.leaders[k]) % n] for k in range(t, len(tricks))]
            if check_play(b, tricks[t][:pos], held) is None:
                continue  # b would be legal at trick t: no revoke there
            new = [list(x) for x in tricks]
            new[t][(seat - base.leaders[t]) % n] = b
            new[t2][(seat - base.leaders[t2]) % n] = a
            rec = dict(record, tricks=new)
            try:
                rep = replay(form_id, rec)
            except ReferenceError_:
                continue
            if rep.winners != base.winners or len(rep.violations) != 1:
                continue
            v = rep.violations[0]
            if (v["trick"], v["seat"], v["card"]) != (t + 1, seat, b):
                continue
            return rec, v
    return None
