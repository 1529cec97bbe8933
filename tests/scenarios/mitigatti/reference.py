"""An independent reference for Mitigatti (rulebook §0, §1, §5, §6), written from the rules and the
choices the lead wrote down, without reading the service's Mitigatti modules (the scorer, the
variant's tables, the settlement), so that the two can be compared.

It holds:

- the 78-card pack as plain strings (canonical codes), ranks (§5.1: the Angel on top, T21
  second, the four Papote equal, long and round suits, the ace fifth) and counting values
  (52 in counting cards, R14);
- trick play: the winner of a trick (of equal Papote topping a trick the last played wins),
  the follow rules, legal cards;
- a seeded generator of legal deals, discards (no Kings, no honours), contracts (call, solo
  with a called card and its exchange, solo sans prendre, surrender), declarations and random
  legal play, with an optional Bagatte ultimu attempt;
- the replay of a hand to deck points per side (the Fuole kept by its holder, the discard with
  the dealer's side) and the reference settlement in marca: partida (four: ±1 per opponent,
  ×2 below 18, ×2 again sans prendre, R17; three: 1 or 2 to the top scorer, ties split with the
  remainder to the pot, R15), declarations (1 from each other player, never doubled), Bagatte
  ultimu (2 from / to each, valid only under the lead condition, doubled sans prendre),
  surrender (1 to each, and each declaration's full value to its holder);
- the game: balances from 10, the pot collected by the next sole top scorer, money per marca,
  and a brute-force minimal settlement.

Nothing here imports the service.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import combinations
from typing import Any

Json = dict[str, Any]

# -- §1 / §5.1 the pack ---------------------------------------------------------------------------

SUITS = ("H", "D", "C", "S")
ROUND_SUITS = ("H", "D")       # cups, coins
LONG_SUITS = ("C", "S")        # batons, swords
RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")
TRUMPS = tuple(f"T{n}" for n in range(1, 22))
FOOL = "FOOL"
PACK: tuple[str, ...] = TRUMPS + tuple(r + s for s in SUITS for r in RANKS) + (FOOL,)
KINGS = ("KH", "KD", "KC", "KS")
HONOURS = (FOOL, "T1", "T20")
PAPOTE = ("T2", "T3", "T4", "T5")

#: high → low, as §5.1 writes them
TRUMP_ORDER_DESC: tuple[tuple[str, ...], ...] = (
    ("T20",), ("T21",), *((f"T{n}",) for n in range(19, 5, -1)), PAPOTE, ("T1",))
LONG_ORDER_DESC = ("K", "Q", "C", "J", "1", "10", "9", "8", "7", "6", "5", "4", "3", "2")
ROUND_ORDER_DESC = ("K", "Q", "C", "J", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10")


def is_trump(card: str) -> bool:
    return card.startswith("T") and card[1:].isdigit()


def is_tarot(card: str) -> bool:
    """A tarot for ten tarocchi: a trump or the Fuole (§5.4)."""
    return is_trump(card) or card == FOOL


def is_plain(card: str) -> bool:
    return card != FOOL and not is_trump(card)


def suit_of(card: str) -> str | None:
    return card[-1] if is_plain(card) else None


def rank_of(card: str) -> str:
    return card[:-1] if is_plain(card) else card


def trump_strength(card: str) -> int:
    """Higher is stronger; the Papote share one value."""
    for i, group in enumerate(TRUMP_ORDER_DESC):
        if card in group:
            return 100 - i
    raise ValueError(card)


def plain_strength(card: str) -> int:
    order = ROUND_ORDER_DESC if suit_of(card) in ROUND_SUITS else LONG_ORDER_DESC
    return 100 - order.index(rank_of(card))


def card_points(card: str) -> int:
    """§5.1: honours 4, K 4, Q 3, C 2, J 1, the rest 0."""
    if card in HONOURS:
        return 4
    if is_plain(card):
        return {"K": 4, "Q": 3, "C": 2, "J": 1}.get(rank_of(card), 0)
    return 0


COUNTING = tuple(c for c in PACK if card_points(c))
assert sum(card_points(c) for c in PACK) == 52                 # R14


@dataclass(frozen=True)
class Size:
    players: int
    tricks: int
    discard: int
    total: int
    dealt: int

    @property
    def variant(self) -> str:
        return f"mitigatti-{self.players}"


FOUR = Size(players=4, tricks=19, discard=2, total=72, dealt=19)
THREE = Size(players=3, tricks=25, discard=3, total=78, dealt=25)
SIZES = {4: FOUR, 3: THREE}
for _s in SIZES.values():
    assert 52 + _s.tricks + 1 == _s.total
    assert _s.players * _s.dealt + _s.discard == 78


# -- §0 / §5.1 trick play -------------------------------------------------------------------------

def effective_lead(trick: Sequence[str]) -> str | None:
    if not trick:
        return None
    if trick[0] == FOOL:
        return trick[1] if len(trick) > 1 else None
    return trick[0]


def trick_winner(trick: Sequence[str]) -> int:
    """Position (0 = leader) of the winning card: the highest trump, the last played of equal
    ones; else the highest card of the suit led. The Fuole never wins."""
    trumps = [i for i, c in enumerate(trick) if is_trump(c)]
    if trumps:
        top = max(trump_strength(trick[i]) for i in trumps)
        return max(i for i in trumps if trump_strength(trick[i]) == top)
    lead = effective_lead(trick)
    assert lead is not None
    suit = suit_of(lead)
    followers = [i for i, c in enumerate(trick) if suit_of(c) == suit]
    return max(followers, key=lambda i: plain_strength(trick[i]))


def legal_cards(hand: Iterable[str], trick_so_far: Sequence[str]) -> list[str]:
    """§0 follow rules: suit, else trump; trumps led: trump; the Fuole always."""
    hand = list(hand)
    lead = effective_lead(trick_so_far)
    if lead is None:
        return hand
    if is_trump(lead):
        trumps = [c for c in hand if is_trump(c)]
        return trumps + ([FOOL] if FOOL in hand else []) if trumps else hand
    suit = [c for c in hand if suit_of(c) == suit_of(lead)]
    if suit:
        return suit + ([FOOL] if FOOL in hand else [])
    trumps = [c for c in hand if is_trump(c)]
    if trumps:
        return trumps + ([FOOL] if FOOL in hand else [])
    return hand


# -- §5.5 the lead condition ----------------------------------------------------------------------

def lead_condition_holds(seat: int, tricks: Sequence[Sequence[str]], leaders: Sequence[int],
                         n: int) -> bool:
    """Whenever ``seat`` has led a plain suit, it led that suit at every later lead of its own
    while it still held a card of it (what it held: the cards it played from then on)."""
    played_at: list[str] = [t[(seat - leaders[i]) % n] for i, t in enumerate(tricks)]
    owed: str | None = None
    for i, trick in enumerate(tricks):
        if leaders[i] != seat:
            continue
        held = played_at[i:]
        if owed is not None and not any(suit_of(c) == owed for c in held):
            owed = None
        led = trick[0]
        if owed is not None and suit_of(led) != owed:
            return False
        if is_plain(led):
            owed = suit_of(led)
    return True


# -- replay ---------------------------------------------------------------------------------------

@dataclass
class Replay:
    leaders: list[int]
    winners: list[int]               # seat that won each trick
    played: dict[int, list[str]]     # seat → cards in order of play
    won_cards: dict[int, list[str]]  # seat → cards captured (the Fuole not among them)
    fool_holder: int | None
    bagatto: Json | None             # {"seat", "won", "valid"} when T1 is in the last trick


def replay(tricks: Sequence[Sequence[str]], first_leader: int, n: int) -> Replay:
    leaders, winners = [], []
    played: dict[int, list[str]] = {s: [] for s in range(n)}
    won: dict[int, list[str]] = {s: [] for s in range(n)}
    fool_holder = None
    leader = first_leader
    for trick in tricks:
        leaders.append(leader)
        for i, card in enumerate(trick):
            seat = (leader + i) % n
            played[seat].append(card)
            if card == FOOL:
                fool_holder = seat
        w = (leader + trick_winner(trick)) % n
        winners.append(w)
        won[w].extend(c for c in trick if c != FOOL)
        leader = w
    bagatto = None
    last = tricks[-1]
    if "T1" in last:
        seat = (leaders[-1] + last.index("T1")) % n
        bagatto = {"seat": seat, "won": winners[-1] == seat,
                   "valid": lead_condition_holds(seat, tricks, leaders, n)}
    return Replay(leaders, winners, played, won, fool_holder, bagatto)


# -- the hand's facts and its settlement ----------------------------------------------------------

@dataclass
class Facts:
    """What settles a hand, whatever the record's form."""

    size: Size
    dealer: int
    thrown_in: bool = False
    contract: Json | None = None          # mitigatti-4 only
    partner: int | None = None            # the called card's holder in a call
    side_points: dict[int, int] = field(default_factory=dict)   # side → deck points
    seat_points: dict[int, int] = field(default_factory=dict)   # seat → its column
    declarations: list[tuple[int, str]] = field(default_factory=list)   # (seat, kind)
    bagatto: Json | None = None


def sides_of(size: Size, contract: Json | None, partner: int | None) -> dict[int, int]:
    """seat → side. Three players: every seat is its own side. Four: side 0 is the declarer
    (and the partner of a call), side 1 the others."""
    if size.players == 3:
        return {s: s for s in range(3)}
    assert contract is not None
    zero = {contract["declarer"]}
    if contract["type"] == "call" and partner is not None:
        zero.add(partner)
    return {s: 0 if s in zero else 1 for s in range(4)}


def points_from_tricks(size: Size, dealer: int, side: dict[int, int],
                       tricks: Sequence[Sequence[str]], discard: Sequence[str],
                       first_leader: int) -> tuple[Replay, dict[int, int]]:
    rp = replay(tricks, first_leader, size.players)
    pts: dict[int, int] = {}
    for seat in range(size.players):
        pts.setdefault(side[seat], 0)
    for i, w in enumerate(rp.winners):
        pts[side[w]] += 1
    for seat, cards in rp.won_cards.items():
        pts[side[seat]] += sum(card_points(c) for c in cards)
    if rp.fool_holder is not None:
        pts[side[rp.fool_holder]] += card_points(FOOL)
    pts[side[dealer]] += 1 + sum(card_points(c) for c in discard)
    assert sum(pts.values()) == size.total, pts
    return rp, pts


def settle(f: Facts) -> Json:
    """The marca each seat nets, what is set aside, and the sole top scorer (three players)."""
    n = f.size.players
    net = {s: 0 for s in range(n)}
    pot = 0
    top: int | None = None
    out: Json = {"marca": net, "pot": 0, "top_scorer": None, "items": []}
    if f.thrown_in:
        return out

    def pay(a: int, b: int, m: int, item: str) -> None:
        if m == 0 or a == b:
            return
        net[a] -= m
        net[b] += m
        out["items"].append((item, a, b, m))

    contract = f.contract or {}
    sans = bool(contract.get("type") == "solo" and contract.get("sans_prendre"))
    if contract.get("type") == "surrender":
        d = contract["declarer"]
        for s in range(n):
            pay(d, s, 1, "surrender")
        for seat, _kind in f.declarations:
            pay(d, seat, n - 1, "declaration")
        return out

    # declarations: 1 from each other player, never doubled
    for seat, _kind in f.declarations:
        for s in range(n):
            pay(s, seat, 1, "declaration")

    # Bagatte ultimu
    if f.bagatto and f.bagatto.get("valid", True):
        m = 2 * (2 if sans else 1)
        b = f.bagatto["seat"]
        for s in range(n):
            if f.bagatto["won"]:
                pay(s, b, m, "bagatte_ultimu")
            else:
                pay(b, s, m, "bagatte_ultimu")

    # partida
    if n == 4:
        side = sides_of(f.size, f.contract, f.partner)
        p0 = f.side_points[0]
        unit = 1
        if p0 < 18 or f.size.total - p0 < 18:
            unit *= 2
        if sans:
            unit *= 2                                              # R17
        decl = contract["declarer"]
        mine = [s for s in range(4) if side[s] == 0]
        theirs = [s for s in range(4) if side[s] == 1]
        if contract["type"] == "solo":
            for o in theirs:
                (pay(o, decl, unit, "partida") if p0 >= 37 else pay(decl, o, unit, "partida"))
        else:
            for a, o in zip(mine, theirs):
                (pay(o, a, unit, "partida") if p0 >= 37 else pay(a, o, unit, "partida"))
    else:
        pts = f.seat_points
        best = max(pts.values())
        tops = [s for s in range(3) if pts[s] == best]
        owed = {s: (2 if pts[s] < 13 else 1 if pts[s] < 26 else 0) for s in range(3)
                if s not in tops}
        if len(tops) == 1:
            top = tops[0]
            for s, m in owed.items():
                pay(s, top, m, "partida")
        else:
            for s, m in owed.items():
                q, r = divmod(m, len(tops))
                for t in tops:
                    pay(s, t, q, "partida")
                if r:
                    net[s] -= r
                    pot += r
                    out["items"].append(("partida", s, "pot", r))
    out["pot"] = pot
    out["top_scorer"] = top
    assert sum(net.values()) + pot == 0
    return out


def columns(f: Facts) -> dict[int, int]:
    if f.size.players == 3:
        return dict(f.seat_points)
    side = sides_of(f.size, f.contract, f.partner)
    return {s: f.side_points[side[s]] for s in range(4)}


# -- the game -------------------------------------------------------------------------------------

def game(players: int, hands: Sequence[Json], marca_value: str | None = None) -> Json:
    """``hands``: each {"marca": {seat: net}, "pot": set aside, "top_scorer": seat|None}.
    The accumulated pot goes to the next sole top scorer, before that hand's own set-aside."""
    balance = {s: 10 for s in range(players)}
    pot = 0
    collected = []
    for h in hands:
        if h.get("top_scorer") is not None and pot:
            balance[h["top_scorer"]] += pot
            collected.append((h["top_scorer"], pot))
            pot = 0
        for s, m in h["marca"].items():
            balance[int(s)] += m
        pot += h.get("pot", 0)
    assert sum(balance.values()) + pot == 10 * players
    out: Json = {"balances": balance, "pot": pot, "collected": collected}
    if marca_value is not None:
        v = Decimal(marca_value)
        # what each player won or lost: the marca held at the end against the 10 of the start
        out["money"] = {s: (b - 10) * v for s, b in balance.items()}
    return out


def min_transfers_count(nets: dict[Any, int]) -> int:
    """Brute force: the fewest transfers that settle ``nets`` (sum zero). A set of transfers
    among the non-zero parties settles them exactly when its graph's components each sum to
    zero; the minimum is (parties) − (largest number of disjoint zero-sum groups)."""
    vals = [v for v in nets.values() if v]
    k = len(vals)
    if k == 0:
        return 0
    # best[mask] = the most zero-sum groups a zero-sum set `mask` can be split into
    full = (1 << k) - 1
    total = [0] * (1 << k)
    for mask in range(1, 1 << k):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + vals[low]
    best = [0] * (1 << k)
    for mask in range(1, 1 << k):
        if total[mask] != 0:
            continue
        low = mask & -mask
        sub = mask
        b = 1
        while sub:
            if sub & low and sub != mask and total[sub] == 0:
                b = max(b, 1 + best[mask ^ sub])
            sub = (sub - 1) & mask
        best[mask] = b
    return k - best[full]


def _components_settle(parties: list[Any], edges: Sequence[tuple[Any, Any]],
                       nets: dict[Any, int]) -> bool:
    parent = {p: p for p in parties}

    def find(x: Any) -> Any:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for a, b in edges:
        parent[find(a)] = find(b)
    sums: dict[Any, int] = {}
    for p in parties:
        sums[find(p)] = sums.get(find(p), 0) + nets[p]
    return all(v == 0 for v in sums.values())


def brute_force_transfers(nets: dict[Any, int], limit: int) -> int | None:
    """A second brute force, by enumeration: the fewest transfers (edges between parties, any
    amounts) that settle ``nets``, trying every set of edges up to ``limit`` in size. Amounts
    on a forest of edges are forced, so a set works iff each of its components sums to zero
    and, for a forest, the forced amounts exist (always, given zero-sum components)."""
    parties = [p for p, v in nets.items() if v]
    pairs = list(combinations(parties, 2))
    for size in range(limit + 1):
        for edges in combinations(pairs, size):
            if _components_settle(parties, edges, nets):
                return size
    return None


# -- the generator --------------------------------------------------------------------------------

@dataclass
class Hand:
    """A generated hand: the deal after discard and exchange, its play and its record."""

    size: Size
    dealer: int
    hands: dict[int, list[str]]      # what each seat plays (after the discard and exchange)
    discard: list[str]
    contract: Json | None
    partner: int | None
    declarations: list[Json]
    tricks: list[list[str]]
    first_leader: int
    holder: int | None = None        # a solo's called card came from this seat
    replay: Replay | None = None
    side_points: dict[int, int] = field(default_factory=dict)

    @property
    def side(self) -> dict[int, int]:
        return sides_of(self.size, self.contract, self.partner)

    def facts(self) -> Facts:
        f = Facts(self.size, self.dealer, contract=self.contract, partner=self.partner,
                  side_points=dict(self.side_points),
                  declarations=[(d["seat"], d["kind"]) for d in self.declarations],
                  bagatto=self.replay.bagatto if self.replay else None)
        if self.size.players == 3:
            f.seat_points = dict(self.side_points)
        return f

    def trick_record(self, with_discard: bool = True) -> Json:
        rec: Json = {"dealer": self.dealer, "tricks": [list(t) for t in self.tricks]}
        if with_discard:
            rec["discard"] = list(self.discard)
        if self.contract is not None:
            rec["contract"] = dict(self.contract)
        if self.declarations:
            rec["declarations"] = [dict(d) for d in self.declarations]
        return rec

    def pile_cards(self) -> dict[int, list[str]]:
        """side → every card in its pile (captures, the discard, the Fuole with its holder)."""
        assert self.replay is not None
        piles: dict[int, list[str]] = {}
        for seat in range(self.size.players):
            piles.setdefault(self.side[seat], [])
        for seat, cards in self.replay.won_cards.items():
            piles[self.side[seat]].extend(cards)
        if self.replay.fool_holder is not None:
            piles[self.side[self.replay.fool_holder]].append(FOOL)
        piles[self.side[self.dealer]].extend(self.discard)
        return piles

    def summary_record(self, form: str = "counting", leave_out: int | None = None) -> Json:
        """A summary record: piles as ``tricks`` + ``counting`` (the discard counted as one
        trick for the dealer's side), or every ``cards``; optionally one side left out."""
        assert self.replay is not None
        rec: Json = {"dealer": self.dealer, "discard": list(self.discard)}
        if self.contract is not None:
            rec["contract"] = dict(self.contract)
            if self.contract["type"] == "call":
                rec["contract"]["partner"] = self.partner     # a summary cannot derive it
        if self.declarations:
            rec["declarations"] = [dict(d) for d in self.declarations]
        piles = self.pile_cards()
        tricks_won: dict[int, int] = {s: 0 for s in piles}
        for w in self.replay.winners:
            tricks_won[self.side[w]] += 1
        tricks_won[self.side[self.dealer]] += 1
        rec["piles"] = []
        for s in sorted(piles):
            if s == leave_out:
                continue
            if form == "cards":
                rec["piles"].append({"side": s, "cards": sorted(piles[s], key=PACK.index)})
            else:
                rec["piles"].append({"side": s, "tricks": tricks_won[s], "counting": sorted(
                    (c for c in piles[s] if card_points(c)), key=PACK.index)})
        if self.replay.bagatto is not None:
            rec["bagatto"] = {"seat": self.replay.bagatto["seat"],
                              "won": self.replay.bagatto["won"],
                              "valid": self.replay.bagatto["valid"]}
        if self.replay.fool_holder is not None:
            rec["fool"] = {"played_by": self.replay.fool_holder}
        return rec


def legal_discard(hand: Sequence[str], k: int, rng: random.Random) -> list[str]:
    allowed = [c for c in hand if c not in KINGS and c not in HONOURS]
    return rng.sample(allowed, k)


def deal(size: Size, dealer: int, rng: random.Random,
         force: dict[int, list[str]] | None = None) -> dict[int, list[str]]:
    """Hands before the discard (the dealer holds ``discard`` more); ``force`` puts cards in
    given hands first."""
    n = size.players
    hands: dict[int, list[str]] = {s: [] for s in range(n)}
    rest = list(PACK)
    for seat, cards in (force or {}).items():
        for c in cards:
            rest.remove(c)
            hands[seat].append(c)
    rng.shuffle(rest)
    for seat in range(n):
        need = size.dealt + (size.discard if seat == dealer else 0) - len(hands[seat])
        assert need >= 0
        hands[seat].extend(rest[:need])
        rest = rest[need:]
    assert not rest
    return hands


def play(hands: dict[int, list[str]], first_leader: int, n: int, rng: random.Random,
         bagatte: bool = False, keep_condition: bool = True,
         opening: Sequence[str] = ()) -> list[list[str]]:
    """Random legal play from ``first_leader``. With ``bagatte`` the holder of T1 keeps it as
    long as it can and, with ``keep_condition``, leads as the lead condition asks. ``opening``
    forces the first cards played (each must be legal)."""
    held = {s: list(c) for s, c in hands.items()}
    tricks: list[list[str]] = []
    leader = first_leader
    t1_holder = next((s for s, c in held.items() if "T1" in c), None)
    owed: str | None = None
    while any(held.values()):
        trick: list[str] = []
        for i in range(n):
            seat = (leader + i) % n
            options = legal_cards(held[seat], trick)
            if bagatte and seat == t1_holder:
                if len(options) > 1 and "T1" in options:
                    options = [c for c in options if c != "T1"]
                if i == 0 and keep_condition:
                    if owed and any(suit_of(c) == owed for c in held[seat]):
                        options = [c for c in options if suit_of(c) == owed]
                    elif len(options) > 1:
                        # lead trumps or a plain suit; never the Fuole while a suit is owed
                        options = [c for c in options if c != FOOL] or options
            card = rng.choice(sorted(options, key=PACK.index))
            k = len(tricks) * n + i
            if k < len(opening):
                card = opening[k]
                assert card in legal_cards(held[seat], trick), (card, trick)
            if bagatte and seat == t1_holder and i == 0 and is_plain(card):
                owed = suit_of(card)
            trick.append(card)
            held[seat].remove(card)
        tricks.append(trick)
        leader = (leader + trick_winner(trick)) % n
    return tricks


def find_declarations(hands: dict[int, list[str]], rng: random.Random,
                      chance: float = 1.0) -> list[Json]:
    out: list[Json] = []
    for seat in sorted(hands):
        cards = hands[seat]
        tarots = [c for c in cards if is_tarot(c)]
        if len(tarots) >= 10 and rng.random() < chance:
            out.append({"seat": seat, "kind": "ten_tarocchi",
                        "cards": sorted(rng.sample(tarots, 10), key=PACK.index)})
        if all(h in cards for h in HONOURS) and rng.random() < chance:
            out.append({"seat": seat, "kind": "mitigatti"})
        if all(k in cards for k in KINGS) and rng.random() < chance:
            out.append({"seat": seat, "kind": "quatre_rei"})
    return out


def choose_contract(dealt: dict[int, list[str]], dealer: int, rng: random.Random,
                    kind: str | None = None) -> tuple[Json, int | None, dict[int, list[str]]]:
    """A legal contract for a four-player deal (after the discard), the partner of a call (or
    the holder of a solo's called card), and the hands after a solo's exchange."""
    hands = {s: list(c) for s, c in dealt.items()}
    dh = hands[dealer]
    must_solo = all(k in dh for k in KINGS) and "T20" in dh          # R16
    if kind is None:
        kind = rng.choice(["call", "call", "solo", "sans"])
    if kind == "call" and must_solo:
        kind = "sans"
    if kind == "call":
        callable_ = [k for k in KINGS if k not in dh] or ["T20"]
        card = rng.choice(callable_)
        partner = next(s for s, c in hands.items() if card in c)
        return {"type": "call", "declarer": dealer, "called_card": card}, partner, hands
    declarer = rng.randrange(4)
    if kind == "sans":
        return {"type": "solo", "declarer": declarer, "sans_prendre": True}, None, hands
    mine = hands[declarer]
    others = [c for s, cs in hands.items() if s != declarer for c in cs if c != FOOL]
    card = rng.choice(sorted(others, key=PACK.index))
    holder = next(s for s, c in hands.items() if card in c)
    back = rng.choice(sorted(mine, key=PACK.index))
    hands[holder].remove(card)
    hands[declarer].append(card)
    hands[declarer].remove(back)
    hands[holder].append(back)
    contract = {"type": "solo", "declarer": declarer, "called_card": card}
    if rng.random() < 0.5:
        contract["partner"] = holder
    return contract, holder, hands


def generate(size: Size, seed: int, dealer: int | None = None, contract_kind: str | None = None,
             bagatte: bool | None = None, force: dict[int, list[str]] | None = None,
             declare_chance: float = 1.0, keep_condition: bool | None = None) -> Hand:
    rng = random.Random(seed)
    n = size.players
    dealer = rng.randrange(n) if dealer is None else dealer
    dealt = deal(size, dealer, rng, force)
    discard = legal_discard(dealt[dealer], size.discard, rng)
    for c in discard:
        dealt[dealer].remove(c)
    contract, partner = None, None
    hands = dealt
    if n == 4:
        contract, partner, hands = choose_contract(dealt, dealer, rng, contract_kind)
    declarations = find_declarations(hands, rng, declare_chance)
    first = (dealer + 1) % n
    if bagatte is None:
        bagatte = rng.random() < 0.5
    if keep_condition is None:
        keep_condition = rng.random() < 0.8
    tricks = play(hands, first, n, rng, bagatte, keep_condition)
    is_call = bool(contract and contract["type"] == "call")
    h = Hand(size, dealer, hands, discard, contract, partner if is_call else None,
             declarations, tricks, first, holder=None if is_call else partner)
    rp, pts = points_from_tricks(size, dealer, h.side, tricks, discard, first)
    h.replay, h.side_points = rp, pts
    return h


def hand_from_play(size: Size, dealer: int, hands: dict[int, list[str]], discard: list[str],
                   tricks: list[list[str]], contract: Json | None = None,
                   partner: int | None = None, declarations: list[Json] | None = None) -> Hand:
    """A Hand from a play given in full (for constructed cases)."""
    first = (dealer + 1) % size.players
    h = Hand(size, dealer, hands, discard, contract, partner, declarations or [], tricks, first)
    h.replay, h.side_points = points_from_tricks(size, dealer, h.side, tricks, discard, first)
    return h


def search(size: Size, dealer: int, force: dict[int, list[str]], discard: list[str],
           contract: Json | None, want: Any, seeds: Iterable[int] = range(2000),
           opening: Sequence[str] = (), bagatte: bool = False,
           keep_condition: bool = True) -> Hand:
    """The first seeded deal (``force`` and ``discard`` fixed, the rest random) and random
    legal play for which ``want(hand)`` holds. A call's partner is the called card's holder."""
    for seed in seeds:
        rng = random.Random(seed)
        f = {s: list(c) for s, c in force.items()}
        f.setdefault(dealer, []).extend(discard)
        dealt = deal(size, dealer, rng, f)
        for c in discard:
            dealt[dealer].remove(c)
        partner = None
        if contract and contract["type"] == "call":
            partner = next(s for s, c in dealt.items() if contract["called_card"] in c)
            if partner == dealer:
                continue                   # the dealer would call a card of their own
        tricks = play(dealt, (dealer + 1) % size.players, size.players, rng, bagatte,
                      keep_condition, opening)
        h = hand_from_play(size, dealer, dealt, list(discard), tricks, contract, partner)
        if want(h):
            return h
    raise ValueError("no seed gives the wanted hand")


def expected(h: Hand) -> Json:
    """What a generated hand must score: marca, pot, columns, and the derived facts."""
    f = h.facts()
    s = settle(f)
    return {"marca": {str(k): v for k, v in s["marca"].items()}, "pot": s["pot"],
            "columns": {str(k): v for k, v in columns(f).items()},
            "top_scorer": s["top_scorer"], "bagatto": h.replay.bagatto if h.replay else None,
            "winners": list(h.replay.winners) if h.replay else None}


# -- summary records with chosen points -----------------------------------------------------------

def split_counting(needs: Sequence[int], rng: random.Random,
                   keep: dict[str, int] | None = None) -> list[list[str]] | None:
    """Every counting card into ``len(needs)`` groups whose points are exactly ``needs``
    (summing to 52); ``keep`` pins cards to groups. None when impossible."""
    assert sum(needs) == 52
    keep = keep or {}
    groups: list[list[str]] = [[] for _ in needs]
    left = list(needs)
    for card, g in keep.items():
        groups[g].append(card)
        left[g] -= card_points(card)
    if min(left) < 0:
        return None
    cards = sorted((c for c in COUNTING if c not in keep), key=lambda c: -card_points(c))

    def place(i: int) -> bool:
        if i == len(cards):
            return all(v == 0 for v in left)
        c = cards[i]
        order = list(range(len(needs)))
        rng.shuffle(order)
        for g in order:
            if left[g] >= card_points(c):
                left[g] -= card_points(c)
                groups[g].append(c)
                if place(i + 1):
                    return True
                groups[g].pop()
                left[g] += card_points(c)
        return False
    return [sorted(g, key=PACK.index) for g in groups] if place(0) else None


def piles_for(size: Size, points: dict[int, int], dealer_side: int, rng: random.Random,
              keep: dict[str, int] | None = None) -> list[Json]:
    """Summary piles (``tricks`` + ``counting``) giving each side exactly ``points``. The
    tricks include the discard for the dealer's side; no trickless side holds a card; each
    pile's counting cards fit in its cards (not counting the Fuole as a card beyond them)."""
    sides = sorted(points)
    assert sum(points.values()) == size.total
    per_trick = size.players
    for _ in range(2000):
        # tricks per side (with the discard's one for the dealer's side), all ≥ 1
        cuts = sorted(rng.sample(range(1, size.tricks + 1), len(sides) - 1))
        bounds = [0, *cuts, size.tricks + 1]
        tricks = {s: bounds[i + 1] - bounds[i] for i, s in enumerate(sides)}
        if tricks[dealer_side] < 2:
            continue
        needs = [points[s] - tricks[s] for s in sides]
        if min(needs) < 0:
            continue
        groups = split_counting(needs, rng, keep)
        if groups is None:
            continue
        ok = all(len(groups[i]) <= per_trick * (tricks[s] - (s == dealer_side))
                 + (size.discard if s == dealer_side else 0) for i, s in enumerate(sides))
        if ok:
            return [{"side": s, "tricks": tricks[s], "counting": groups[i]}
                    for i, s in enumerate(sides)]
    raise ValueError(f"no piles for {points}")


def move_card(record: Json, card: str, to_side: int) -> Json:
    """``record`` (a summary by ``cards`` or by ``tricks`` + ``counting``) with ``card`` moved
    from its pile to ``to_side``'s. Piles of every card stay whole tricks: a card of no points
    of that pile, not of the discard, comes back in exchange. Nothing else changes, so the
    points still total 72 / 78."""
    out = {**record, "piles": [dict(p) for p in record["piles"]]}
    key = "cards" if "cards" in out["piles"][0] else "counting"
    source = next(p for p in out["piles"] if card in p[key])
    target = next(p for p in out["piles"] if p["side"] == to_side)
    assert source is not target
    source[key] = [c for c in source[key] if c != card]
    target[key] = sorted([*target[key], card], key=PACK.index)
    if key == "cards":
        back = next(c for c in target[key] if not card_points(c)
                    and c not in record.get("discard", ()))
        target[key] = [c for c in target[key] if c != back]
        source[key] = sorted([*source[key], back], key=PACK.index)
    return out
