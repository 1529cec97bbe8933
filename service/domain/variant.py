"""What a variant is: a frozen table of rule parameters plus a few named hooks (docs/architecture.md, principle 2).

The engine reads these fields; it never asks which variant it is playing. Where two rule sets
differ in a way a number cannot say (how tricks become points, what Bagatto ultimo pays), the
variant carries a hook: a plain function chosen from a small named set.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, Protocol

from .core.cards import Card, Pack, Suit
from .core.results import HandResult

#: Lists what a hand of cards can declare, with points (``POST /melds/suggest``).
Suggester = Callable[["Variant", tuple[Card, ...]], list[dict[str, object]]]


class Scorer(Protocol):
    """Checks and scores a hand record under a variant's rules with its resolved options;
    raises ``RecordInvalid`` naming every rule it breaks. ``left_out`` names the record's
    sections that were malformed and left out of it. ``dealt`` is what each seat held before
    the discard where the service dealt the hand itself (a duplicate board), None for a
    table's own deal: a rule that follows a card's holder reads it where the record does not
    show the holder. ``waived`` names the refusing rulings the record is not held to (it was
    recorded before them, ``rulings.waived_rulings``): their checks are left out.

    The record is a ``hand.records.HandRecord``; it is typed ``Any`` here so that what a
    variant is does not depend on what a hand is (the hand's modules read the variant)."""

    def __call__(self, variant: Variant, options: Mapping[str, object], record: Any,
                 left_out: frozenset[str], /, *,
                 dealt: Sequence[frozenset[Card]] | None = None,
                 waived: frozenset[str] = frozenset()) -> HandResult: ...


Partnership = Literal["none", "fixed_pairs", "dummies", "call", "contract"]
FoolRule = Literal["exchange_next_trick", "exchange_any_capture", "kept"]


@dataclass(frozen=True)
class OptionSpec:
    """A game option: its name, default, allowed values and what it means."""

    name: str
    default: object
    choices: tuple[object, ...]
    description: str
    #: For an option that is no choice from a list: reads a value, or None when invalid.
    parse: Callable[[object], object | None] | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"default": self.default, "description": self.description}
        if self.parse is None:
            out["choices"] = list(self.choices)
        return out


@dataclass(frozen=True)
class MeldRule:
    """A meld of rulebook §2.4 / §3: how many cards it needs and what it scores.

    ``family`` groups melds a player scores at most once per hand (R1): three and four of a
    kind of the same rank are one family, so the second only adds the difference.
    """

    kind: str
    points: int
    per_card: bool = False
    threshold: int = 0
    captured: bool = False
    mark: str | None = None
    description: str = ""
    #: The types a meld said by kind may be (Ottocento's cricca of Kings, sequence of
    #: trumps), each with the fewest and the most cards it holds: ``(type, least, most)``.
    types: tuple[tuple[str, int, int], ...] = ()

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, "description": self.description,
                                  "captured": self.captured}
        if self.per_card:
            out.update(points_per_card=self.points, at_least=self.threshold)
        else:
            out["points"] = self.points
        if self.mark:
            out["mark"] = self.mark
        if self.types:
            out["types"] = [{"type": name, "least": least, "most": most}
                            for name, least, most in self.types]
        return out


@dataclass(frozen=True)
class BagattoRule:
    """What Bagatto ultimo pays: ``win`` to the player's side when T1 takes the last trick;
    when it fails, ``lose_each_opponent`` to every opposing side and ``lose_own`` to the
    player's own side (negative for a penalty)."""

    win: int
    lose_each_opponent: int
    lose_own: int
    optional: bool
    rule: str
    #: Mitigatti: valid only if the player, having led a plain suit, kept leading it at every
    #: later lead until out of it (§5.5).
    lead_condition: bool = False


@dataclass(frozen=True)
class Ranks:
    """How the cards rank, low to high (§2.1, §3, §4.1, §5.1): the trumps in groups of equals
    (of equal trumps topping a trick the last played wins), the plain suits, and cups and
    coins where they differ (Ottocento and Mitigatti reverse the round suits' pips)."""

    trumps: tuple[tuple[str, ...], ...]
    plain: tuple[str, ...]
    round_suits: tuple[str, ...] | None = None


#: The ways a pile becomes deck points, by the names the API gives them
#: (``deck_points_method``): a point a trick (§2.6, R14), a point per three cards (§3), or the
#: cards' values counted in pairs (§4.1); each adds the pile's card values.
DeckMethod = Literal["per_trick", "per_three_cards", "in_pairs"]


@dataclass(frozen=True)
class DeckPoints:
    """How a pile becomes deck points (§2.6, §3, §4.1): ``count`` is the hook, given the
    variant, the pile's tricks (the discard counted as one where held), its cards and its
    counting cards' points; ``rule`` says it in words (the description's
    ``deck_points_rule``), ``method`` names it for a client that counts a pile itself (the
    description's ``deck_points_method``)."""

    count: Callable[[Variant, int, int, int], int]
    rule: str
    method: DeckMethod


@dataclass(frozen=True)
class Variant:
    """One rule set. Every field is data the engine reads; hooks are named functions."""

    id: str
    name: str
    family: str
    summary_text: str
    pack: Pack
    #: Seats at the table; each has a player but a dummy's (``players`` follows).
    seats: int
    partnership: Partnership
    #: The cards the dealer takes beyond the others' and discards again (the whole pack is
    #: dealt, every seat the same: ``dealt_each`` follows).
    extra: int
    ranks: Ranks
    counting: Mapping[str, int]
    melds: tuple[MeldRule, ...]
    gatti_cards: tuple[str, ...]
    discard_forbidden_ranks: tuple[str, ...]
    discard_t1_only_sole_trump: bool
    discard_covering: bool
    bagatto: BagattoRule | None
    options: tuple[OptionSpec, ...]
    deck_count: DeckPoints
    scorer: Scorer
    suggester: Suggester
    rules_section: str
    aliases: tuple[str, ...] = ()
    exposed_cards: int = 0
    #: The hands a game lasts; None where it is played to a target (Ottocento) or hand by hand
    #: with no end (Mitigatti).
    hands_per_game: int | None = None
    #: The clause that sets the discard's rules.
    discard_rule: str = "§2.3"
    #: Cards besides the forbidden ranks that the dealer may not discard (by code).
    discard_forbidden_cards: tuple[str, ...] = ()
    #: What becomes of the Fool after its trick (see ``replay.py``).
    fool_rule: FoolRule = "exchange_next_trick"
    #: How many cards each seat gets at each pass of the deal (the rulebook's packets); none
    #: said: all of them at once (``deal_packets``).
    packets: tuple[int, ...] = ()
    #: The cards a summary pile lists (by code); None: the counting cards.
    summary_codes: tuple[str, ...] | None = None
    #: A game played to a target (Ottocento's 800) rather than a number of hands.
    target: int | None = None
    #: The clause that fixes the hand's total (R5 in Gatti), and the section that explains
    #: how deck points are counted.
    totals_rule: str = "R5"
    totals_section: str = "§2.6"
    #: Points for the last trick (Ottocento's 6).
    last_trick_points: int = 0
    #: The signals a leader may give (Ottocento); any other is illegal.
    signals: tuple[str, ...] = ()
    #: The contracts a hand may be played under (Mitigatti with four).
    contracts: tuple[str, ...] = ()
    #: Whether a deal may be thrown in ("to the mountain") without moving the deal.
    throw_in: bool = False
    #: Whether the game is settled in marca (Mitigatti).
    settles_in_marca: bool = False
    #: The language its home tables speak (Liguria's and Bologna's Italian, Nice's French): a
    #: game started from a phone in it prints its sheets in it (the ``language`` option).
    home_language: str = "it"
    extra_facts: Mapping[str, object] = field(default_factory=dict)

    # -- derived facts -------------------------------------------------------------------------

    @property
    def trick_size(self) -> int:
        return self.seats

    @property
    def suit_style(self) -> str:
        """How the pack's suits are named: ``round`` (cups, coins, batons, swords: the packs
        whose cups and coins run their pips the other way, ``ranks.round_suits``) or
        ``french`` (hearts, diamonds, clubs, spades)."""
        return "round" if self.ranks.round_suits else "french"

    @property
    def players(self) -> int:
        """A player at every seat, but none at a dummy's: two with dummies."""
        return self.seats // 2 if self.partnership == "dummies" else self.seats

    @property
    def has_pairs(self) -> bool:
        return self.partnership in ("fixed_pairs", "dummies")

    @property
    def columns_per_seat(self) -> bool:
        """One score-sheet column per player (3-handed, calling) or per pair."""
        return self.partnership in ("none", "call", "contract")

    @property
    def discard_cards(self) -> int:
        return self.extra

    @property
    def dealt_each(self) -> int:
        """The cards each seat plays: the whole pack is dealt, the dealer's extra apart."""
        return (len(self.pack) - self.extra) // self.seats

    @property
    def deal_packets(self) -> tuple[int, ...]:
        """Each seat's packets in the order dealt, adding up to ``dealt_each``."""
        return self.packets or (self.dealt_each,)

    @property
    def tricks_per_hand(self) -> int:
        """A trick for each card a seat plays, and the discard counted as one."""
        return self.dealt_each + 1

    @cached_property
    def deck_total(self) -> int:
        """The hand's total (R5, R14, §4.1): the deck points of one pile holding every
        trick, the discard and every card, and the last trick's points."""
        every_card = sum(self._points.values())
        return (self.deck_points(self.tricks_per_hand, len(self.pack), every_card)
                + self.last_trick_points)

    def meld(self, kind: str) -> MeldRule | None:
        return next((m for m in self.melds if m.kind == kind), None)

    @cached_property
    def _points(self) -> dict[Card, int]:
        """Every card's counting value: ``counting`` names cards by code, or plain ranks as
        ``rank:K``."""
        return {
            card: self.counting.get(card.code, 0) if not card.is_plain
            else self.counting.get(card.code, self.counting.get(f"rank:{card.rank}", 0))
            for card in self.pack.cards
        }

    @property
    def deal_section(self) -> str:
        """The section of the rulebook that sets the table form and the deal."""
        return {"§2": "§2.2", "§4": "§4.2", "§5": "§5.2"}.get(self.rules_section,
                                                             self.rules_section)

    def card_points(self, card: Card) -> int:
        return self._points.get(card, 0)

    @cached_property
    def card_strength(self) -> dict[Card, int]:
        """How high each card ranks: trumps above every plain card, equal trumps sharing a
        value; plain cards by their suit's order. The Fool has no rank and is absent."""
        strength: dict[Card, int] = {}
        for level, group in enumerate(self.ranks.trumps):
            for code in group:
                strength[self.pack.card(code)] = 1000 + level
        for card in self.pack.cards:
            if card.is_plain:
                order = self.ranks.plain
                if self.ranks.round_suits and card.suit in (Suit.HEARTS, Suit.DIAMONDS):
                    order = self.ranks.round_suits
                strength[card] = order.index(card.rank or "")
        return strength

    @cached_property
    def unlisted_card_value(self) -> int:
        """What each card a summary pile does not list is worth (0 where it lists the
        counting cards; Ottocento's 6 to 10 of each suit, 1): the same for every such card,
        so a pile's tricks say what they hold."""
        values = {self.card_points(c) for c in self.pack.cards if c not in self.summary_cards}
        if len(values) > 1:
            raise ValueError(f"{self.id}: the cards a summary leaves out are worth "
                             f"{sorted(values)}, not one value")
        return values.pop() if values else 0

    @cached_property
    def counting_cards(self) -> frozenset[Card]:
        return frozenset(c for c, p in self._points.items() if p)

    def is_counting(self, card: Card) -> bool:
        return self.card_points(card) > 0

    @cached_property
    def summary_cards(self) -> frozenset[Card]:
        """The cards a summary pile lists: the counting cards, or the variant's own list."""
        if self.summary_codes is None:
            return self.counting_cards
        return frozenset(self.pack.card(c) for c in self.summary_codes)

    def fixed_sides(self) -> tuple[tuple[int, ...], ...] | None:
        """The sides that do not change from hand to hand, or None where a call forms them."""
        if self.partnership == "none":
            return tuple((s,) for s in range(self.seats))
        if self.has_pairs:
            return ((0, 2), (1, 3))
        return None

    def deck_points(self, tricks: int, cards: int, counting_points: int) -> int:
        """Deck points of a pile of ``cards`` cards holding ``tricks`` tricks (the discard
        counted as one where held) and ``counting_points`` in counting cards."""
        return self.deck_count.count(self, tricks, cards, counting_points)

    # -- descriptions for the API --------------------------------------------------------------

    def option_defaults(self) -> dict[str, object]:
        return {o.name: o.default for o in self.options}

    def sides_json(self) -> list[dict[str, object]]:
        fixed = self.fixed_sides()
        if fixed is None:
            first = ("the dealer and the holder of the called card" if self.partnership == "call"
                     else "the declarer, and the partner a call gives them")
            return [{"side": 0, "seats": first}, {"side": 1, "seats": "the other players"}]
        return [{"side": i, "seats": list(seats)} for i, seats in enumerate(fixed)]

    def summary(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "family": self.family,
            "summary": self.summary_text,
            "players": self.players,
            "seats": self.seats,
            "partnership": self.partnership,
            "sides": self.sides_json(),
            "options": {o.name: o.to_json() for o in self.options},
            "home_language": self.home_language,
        }

    def describe(self) -> dict[str, object]:
        counting = {}
        for card in self.pack.cards:
            points = self.card_points(card)
            if points:
                counting[card.code] = points
        out = self.summary()
        out.update(
            aliases=list(self.aliases),
            rules_section=self.rules_section,
            pack={"id": self.pack.id, "name": self.pack.name, "size": len(self.pack),
                  "cards": [c.code for c in self.pack.cards]},
            ranks={"trumps_low_to_high": [g[0] if len(g) == 1 else list(g)
                                          for g in self.ranks.trumps],
                   "equal_trumps": "of equal trumps topping a trick, the last played wins",
                   "plain_low_to_high": list(self.ranks.plain),
                   **({"cups_and_coins_low_to_high": list(self.ranks.round_suits)}
                      if self.ranks.round_suits else {}),
                   "fool": "never wins a trick; may always be played"},
            counting=counting,
            counting_total=sum(counting.values()),
            deal={"dealt_each": self.dealt_each, "dealer_extra": self.extra,
                  "discard": self.extra, "exposed": self.exposed_cards,
                  "discard_forbidden_ranks": list(self.discard_forbidden_ranks),
                  "discard_forbidden_cards": list(self.discard_forbidden_cards),
                  "discard_t1_only_if_sole_trump": self.discard_t1_only_sole_trump,
                  "discard_must_be_covered": self.discard_covering},
            trick_size=self.trick_size,
            tricks_per_hand=self.tricks_per_hand,
            deck_points_total=self.deck_total,
            deck_points_rule=self.deck_count.rule,
            deck_points_method=self.deck_count.method,
            summary_cards=[c.code for c in self.pack.sort(self.summary_cards)],
            unlisted_card_value=self.unlisted_card_value,
            suit_style=self.suit_style,
            throw_in=self.throw_in,
            settles_in_marca=self.settles_in_marca,
            melds=[m.to_json() for m in self.melds],
            hands_per_game=self.hands_per_game,
            target=self.target,
            fool=self.fool_rule,
            last_trick_points=self.last_trick_points,
            bagatto_ultimo=None if self.bagatto is None else {
                "win": self.bagatto.win, "lose_each_opponent": self.bagatto.lose_each_opponent,
                "lose_own_side": self.bagatto.lose_own, "optional": self.bagatto.optional,
                "lead_condition": self.bagatto.lead_condition, "rule": self.bagatto.rule},
            **dict(self.extra_facts),
        )
        return out
