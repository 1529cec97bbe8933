"""A member's statistics (docs/clubs.md#statistics). Standard library only.

**Counted once, when a game counts.** A statistic that needs a game's hands (who dealt,
declared, called, went solo, won the Bagatto ultimo, saw a hand disputed) is counted by
:func:`game_facts` when the game's rows of the club's results are written (finished,
corrected, deleted, a verdict given, a round closed) and kept with each row as its
``facts``; the places of the others at the table go with them, so a member's figures are a
sum over their own rows (:func:`member_stats`) and never a replay of their hands.

**What the facts count**, per member, over a game's hands (a member's dummy's seat with
theirs, ``gatti-2``): ``dealt`` (hands dealt from the seat, thrown-in deals too);
``declared`` (declarations by kind, as the records carry them: Gatti's melds, Ottocento's
cricche and sequences, Mitigatti's accusations); ``called`` (a card called: Gatti's
``gatti-4-call`` dealer with a partner, Mitigatti's declarer calling, or surrendering a call
of their own), ``partnered`` (they held the called card, so played with the caller), ``solo``
(Mitigatti's solo, a Gatti dealer who called their own card); ``bagatto`` (the last trick won
with the Bagatto, a valid attempt); ``disputed`` (hands a player disputes as they stand).
``partners`` are the members of their column, ``against`` each other member's place.

**The figures**, per family and per variant, over the rows given (a season's, a variant's):
games, hands, wins (a first place shared by ``n`` counts ``1/n``), the average place, points
per hand and per game (Mitigatti: marca), the facts' sums, Mitigatti's marca won (evenings
ended ahead), lost (evenings ended behind) and the balance evening by evening, the partners
and opponents met most with the results with each, points per hand month by month (the
month a game finished, UTC), and their evenings: the days they played (``evenings_by_day``:
an evening is a day, whatever number of games or events it held). Each says what it
counts; one from fewer than ``FEW_GAMES`` games says that too.
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..core.results import HandResult
from ..core.text import Text
from ..mitigatti.scoring import DECLARATION_NAMES
from ..registry import VARIANTS
from ..variant import Variant
from .results import SeatResult
from .seasons import Season

#: A figure from fewer games than this says it is a hint, not a trend.
FEW_GAMES = 5
#: How many partners and opponents a block lists: the ones met most.
MOST_MET = 10

Facts = dict[str, Any]


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """What the facts read of one hand of a counted game: its stored record (canonical
    JSON), its result, and whether a player disputes it as it stands."""

    record: Mapping[str, Any]
    result: HandResult
    disputed: bool = False


# -- the facts of one game, per member --------------------------------------------------------


def _seats_of(variant: Variant, seat: int) -> frozenset[int]:
    """A member's seat, and their dummy's where they play one (R9)."""
    if variant.partnership == "dummies":
        return frozenset({seat, seat + variant.players})
    return frozenset({seat})


def _hand_facts(hand: PlayedHand, seats: frozenset[int], out: Counter[str],
                declared: Counter[str]) -> None:
    record, result = hand.record, hand.result
    if record.get("dealer") in seats:
        out["dealt"] += 1
    if hand.disputed:
        out["disputed"] += 1
    if record.get("thrown_in"):
        return
    for declaration in record.get("declarations") or ():
        if declaration.get("seat") in seats:
            declared[str(declaration.get("kind"))] += 1
    derived = dict(result.facts)
    call, contract = record.get("call"), record.get("contract")
    if call is not None:  # gatti-4-call: the dealer calls a card
        partner = derived.get("partner", call.get("partner"))
        if "dealer_alone" in result.events:
            out["solo"] += int(record.get("dealer") in seats)
        else:
            out["called"] += int(record.get("dealer") in seats)
            out["partnered"] += int(partner in seats)
    if contract is not None:  # mitigatti-4: the contract
        declarer = contract.get("declarer")
        if contract.get("type") == "solo":
            out["solo"] += int(declarer in seats)
        else:  # a call, or a call of one's own card surrendered
            out["called"] += int(declarer in seats)
            partner = derived.get("partner", contract.get("partner"))
            if contract.get("type") == "call":
                out["partnered"] += int(partner in seats)
    bagatto = derived.get("bagatto", record.get("bagatto"))
    if (bagatto is not None and bagatto.get("seat") in seats and bagatto.get("won")
            and bagatto.get("valid", True)):
        out["bagatto"] += 1


def seat_facts(variant: Variant, hands: Sequence[PlayedHand], seat: int) -> Facts:
    """The facts of the member at ``seat`` over a game's ``hands`` (the module says which);
    counts of nothing are left out."""
    seats = _seats_of(variant, seat)
    out: Counter[str] = Counter()
    declared: Counter[str] = Counter()
    for hand in hands:
        _hand_facts(hand, seats, out, declared)
    facts: Facts = {key: n for key, n in sorted(out.items()) if n}
    if declared:
        facts["declared"] = dict(sorted(declared.items()))
    return facts


def game_facts(variant: Variant, hands: Sequence[PlayedHand],
               rows: Sequence[SeatResult]) -> tuple[Facts, ...]:
    """Each row's facts, in the order of ``rows`` (a counted game's, ``seat_results``): the
    seat's counts over the hands, the members of its column (``partners``) and every other
    member's place (``against``)."""
    out = []
    for row in rows:
        facts = seat_facts(variant, hands, row.seat)
        facts["partners"] = list(row.partners)
        facts["against"] = {other.counted_for: other.place for other in rows
                            if other.column != row.column}
        out.append(facts)
    return tuple(out)


# -- a member's rows, summed ------------------------------------------------------------------


class MemberRow(NamedTuple):
    """What the statistics read of one of the member's rows of the club's results: the game
    (and its event), its family and variant, when it finished (aware), the member's place
    (shared by ``shared`` columns), their column's points (marca in a game settled in
    marca), the hands played, and the facts counted when it was written (None: written
    before facts were kept)."""

    game: str
    event: str | None
    family: str
    variant: str
    finished_at: dt.datetime
    place: int
    shared: int
    points: int
    hands: int
    marca: int | None
    facts: Mapping[str, Any] | None


#: A game has four columns at most: a share of a first place is a whole number of twelfths.
TWELFTHS = 12
#: The facts that are counts, summed as they are.
COUNTED = ("dealt", "called", "partnered", "solo", "bagatto", "disputed")


def _ratio(numerator: int, denominator: int) -> int | float | None:
    """``numerator / denominator`` to two decimals, half away from zero, as JSON writes it
    (a whole number as an integer); None for a denominator of 0. In whole numbers: exact,
    and a tenth of the cost of a Decimal's rounding."""
    if not denominator:
        return None
    hundredths = (abs(numerator) * 200 + denominator) // (2 * denominator)
    if numerator < 0:
        hundredths = -hundredths
    return hundredths // 100 if hundredths % 100 == 0 else hundredths / 100


@functools.cache
def caution(games: int) -> Text | None:
    """The words a figure from fewer than ``FEW_GAMES`` games carries (None: enough)."""
    if games >= FEW_GAMES:
        return None
    return Text.counted("from {n} game only: too few to go by",
                        "from {n} games only: too few to go by", games)


def _few(out: dict[str, Any], games: int) -> dict[str, Any]:
    out["few"] = games < FEW_GAMES
    if (words := caution(games)) is not None:
        out["caution"] = words
    return out


#: What each figure counts (Mitigatti's own words where its points are marca).
SAYS: dict[str, Text] = {
    "games": Text("finished games they played (a table of a closed round is a game)"),
    "hands": Text("hands played in those games, thrown-in deals too"),
    "wins": Text("games they finished first; a first place shared by several counts its "
                 "share (two sharing it: 1/2 each)"),
    "average_place": Text("their place on average, 1 the best (a shared place as the sheet "
                          "gives it)"),
    "points_per_hand": Text("points per hand: their column's points (their pair's, where "
                            "they play in pairs) over the hands played"),
    "points_per_game": Text("points per game: their column's total, on average"),
    "dealt": Text("hands they dealt (a dummy's deal with its player's; thrown-in deals too)"),
    "called": Text("hands in which they called a card (Mitigatti: a call surrendered too)"),
    "partnered": Text("hands in which they held the called card, so played with the caller"),
    "solo": Text("hands they played alone (Mitigatti's solo, or a dealer who called their "
                 "own card)"),
    "bagatto": Text("hands whose last trick they won with the Bagatto (Bagatto ultimo)"),
    "disputed": Text("hands of their games that a player disputes as they stand"),
    "marca_won": Text("marca won, added over the evenings they ended ahead"),
    "marca_lost": Text("marca lost, added over the evenings they ended behind"),
    "marca_balance": Text("their balance in marca: won less lost"),
}
SAYS_MARCA: dict[str, Text] = {
    "points_per_hand": Text("marca won or lost per hand: each evening's marca over its "
                            "hands"),
    "points_per_game": Text("marca won or lost per evening"),
}
DECLARED_SAY = Text("declarations they made, kind by kind (a dummy's with its player's)")
PARTNERS_SAY = Text("the members who played on their side most: the games together, the wins "
                    "(a shared first place counts its share), the average place and the points "
                    "per game together")
OPPONENTS_SAY = Text("the members they played against most: the games against each, their "
                     "wins in those games, how often they finished ahead of them, level or "
                     "behind")
MONTHS_SAY = Text("points per hand, month by month (the month a game finished, UTC)")
MONTHS_SAY_MARCA = Text("marca per hand, month by month (the month an evening ended, UTC)")
BALANCE_SAY = Text("their balance in marca evening by evening: each evening's marca won or "
                   "lost, added up")
EVENINGS_SAY = Text("their evenings: each day they played (UTC), however many games or events "
                    "that day, with its games, hands and points")
EVENINGS_SAY_MARCA = Text("their evenings: each day they played (UTC), however many games "
                          "that day, with its games, hands, marca and the balance after it")

#: The words of each kind of declaration the records carry, and what its figure counts.
KIND_NAMES: dict[str, Text] = {
    "frilli": Text("frilli"),
    "trumps": Text("trumps"),
    "gatti": Text("gatti"),
    "family": Text("family"),
    "four_of_a_kind": Text("four of a kind"),
    "three_of_a_kind": Text("three of a kind"),
    "cricca": Text("cricca"),
    "sequence": Text("sequence"),
    **DECLARATION_NAMES,
}


@functools.cache
def _kind(kind: str) -> tuple[Text | str, Text]:
    """A kind's words (a kind the service has no words for: as recorded) and its figure's."""
    label: Text | str = KIND_NAMES.get(kind) or kind
    return label, Text("declarations they made: {kind}", kind=label)


def _order(row: MemberRow) -> tuple[dt.datetime, str]:
    """Finishing order: when a game finished, then its id."""
    return row.finished_at, row.game


def _month(row: MemberRow) -> str:
    """The UTC month a row's game finished, ``YYYY-MM``."""
    moment = row.finished_at
    if moment.tzinfo is not dt.UTC:
        moment = moment.astimezone(dt.UTC)
    return f"{moment.year:04d}-{moment.month:02d}"


def _count_in(counter: Counter[str], key: str, n: int) -> None:
    """``n`` added to a count; a count that comes to nothing leaves the counter."""
    total = counter[key] + n
    if total:
        counter[key] = total
    else:
        counter.pop(key, None)


class _Tally:
    """The sums of a block's rows: wins in twelfths; partners' and opponents' sums by
    member (games, wins, places, points; against an opponent also ahead, level, behind);
    points by month; the rows in finishing order (Mitigatti's evenings). Every sum folds
    both ways: a row added (``sign`` 1) or taken out again (-1), as a rewritten row's old
    contribution is taken out and its new one added."""

    __slots__ = ("counts", "declared", "evenings", "games", "hands", "months", "opponents",
                 "partners", "places", "points", "shown", "wins")

    def __init__(self) -> None:
        self.games = self.hands = self.points = self.places = self.wins = 0
        self.counts: Counter[str] = Counter()
        self.declared: Counter[str] = Counter()
        self.partners: dict[str, list[int]] = {}
        self.opponents: dict[str, list[int]] = {}
        self.months: dict[str, list[int]] = {}
        self.evenings: list[MemberRow] = []
        #: The blocks' JSON made of these sums, by what else it says (``Block.to_json``).
        self.shown: dict[Hashable, dict[str, Any]] = {}

    def copy(self) -> _Tally:
        """A tally of its own with the same sums (to fold more rows into, leaving this one
        as it is for whoever still reads it)."""
        out = _Tally()
        out.games, out.hands, out.points = self.games, self.hands, self.points
        out.places, out.wins = self.places, self.wins
        out.counts, out.declared = Counter(self.counts), Counter(self.declared)
        out.partners = {k: list(v) for k, v in self.partners.items()}
        out.opponents = {k: list(v) for k, v in self.opponents.items()}
        out.months = {k: list(v) for k, v in self.months.items()}
        out.evenings = list(self.evenings)
        return out

    def add(self, row: MemberRow, who: Callable[[str], str | None], sign: int = 1) -> None:
        won = TWELFTHS // row.shared if row.place == 1 else 0
        place, points, hands = row.place, row.points, row.hands
        self.games += sign
        self.hands += sign * hands
        self.points += sign * points
        self.places += sign * place
        self.wins += sign * won
        evenings = self.evenings
        if sign < 0:
            at = bisect.bisect_left(evenings, _order(row), key=_order)
            while evenings[at] != row:
                at += 1
            del evenings[at]
        elif not evenings or (last := evenings[-1]).finished_at < row.finished_at or (
                last.finished_at == row.finished_at and last.game <= row.game):
            evenings.append(row)
        else:
            bisect.insort(evenings, row, key=_order)
        months, month = self.months, _month(row)
        sums = months.get(month)
        if sums is None:
            sums = months[month] = [0, 0, 0]
        sums[0] += sign
        sums[1] += sign * hands
        sums[2] += sign * points
        if not sums[0]:
            del months[month]
        facts = row.facts
        if not facts:
            return
        counts = self.counts
        for key in COUNTED:
            if key in facts:
                _count_in(counts, key, sign * facts[key])
        for kind, n in facts.get("declared", {}).items():
            _count_in(self.declared, kind, sign * n)
        partners, opponents = self.partners, self.opponents
        for recorded in facts.get("partners", ()):
            member = who(recorded)
            if member is None:
                continue
            sums = partners.get(member)
            if sums is None:
                sums = partners[member] = [0, 0, 0, 0]
            sums[0] += sign
            sums[1] += sign * won
            sums[2] += sign * place
            sums[3] += sign * points
            if not sums[0]:
                del partners[member]
        for recorded, theirs in facts.get("against", {}).items():
            member = who(recorded)
            if member is None:
                continue
            sums = opponents.get(member)
            if sums is None:
                sums = opponents[member] = [0, 0, 0, 0, 0, 0, 0]
            sums[0] += sign
            sums[1] += sign * won
            sums[2] += sign * place
            sums[3] += sign * points
            sums[4 if place < theirs else 5 if place == theirs else 6] += sign
            if not sums[0]:
                del opponents[member]


@dataclass(frozen=True, slots=True)
class Block:
    """The figures of one family (``variant`` None, its variants' blocks in ``variants``),
    or of one variant of it: a tally of its rows and the variants it holds."""

    family: str
    variant: str | None
    tally: _Tally
    kinds: tuple[str, ...]
    calls: bool
    bagatto: bool
    marca: bool
    variants: tuple[Block, ...] = ()

    @property
    def games(self) -> int:
        return self.tally.games

    def figures(self) -> list[tuple[str, int | float | None]]:
        """Each figure's key and value, in the order shown."""
        t = self.tally
        out: list[tuple[str, int | float | None]] = [
            ("games", t.games), ("hands", t.hands),
            ("wins", _ratio(t.wins, TWELFTHS)),
            ("average_place", _ratio(t.places, t.games)),
            ("points_per_hand", _ratio(t.points, t.hands)),
            ("points_per_game", _ratio(t.points, t.games)),
            ("dealt", t.counts["dealt"])]
        if self.calls:
            out += [(key, t.counts[key]) for key in ("called", "partnered", "solo")]
        if self.bagatto:
            out.append(("bagatto", t.counts["bagatto"]))
        out.append(("disputed", t.counts["disputed"]))
        if self.marca:
            marca = [row.marca or 0 for row in t.evenings]
            won, lost = sum(m for m in marca if m > 0), -sum(m for m in marca if m < 0)
            out += [("marca_won", won), ("marca_lost", lost), ("marca_balance", won - lost)]
        return out

    def to_json(self, name: Callable[[str], str], memo: Hashable = None) -> dict[str, Any]:
        """The block as the API says it, members named by ``name``. With ``memo`` (what
        says which names ``name`` gives: the roster's version), it is made once per tally
        and kept with it, so the blocks of sums that did not move are not made again."""
        key: Hashable = None
        if memo is not None:
            key = (memo, self.variant, self.kinds, tuple(v.variant for v in self.variants))
            found = self.tally.shown.get(key)
            if found is not None:
                return found
        out = self._json(name, memo)
        if key is not None:
            self.tally.shown[key] = out
        return out

    def _json(self, name: Callable[[str], str], memo: Hashable) -> dict[str, Any]:
        t = self.tally
        games = t.games
        says = SAYS_MARCA if self.marca else {}
        figures = [_few({"key": key, "value": value,
                         "says": says.get(key) or SAYS[key], "games": games}, games)
                   for key, value in self.figures()]
        declared = []
        for kind in self.kinds:
            label, said = _kind(kind)
            declared.append(_few({"kind": kind, "label": label, "key": f"declared.{kind}",
                                  "value": t.declared[kind], "says": said, "games": games},
                                 games))
        out: dict[str, Any] = {"family": self.family}
        if self.variant is not None:
            out["variant"] = self.variant
        out |= {
            "games": games, "few": games < FEW_GAMES, "figures": figures,
            "declared": {"says": DECLARED_SAY, "kinds": declared},
            "partners": {"says": PARTNERS_SAY, "members": [
                _met(member, sums, name, False) for member, sums in _most(t.partners)]},
            "opponents": {"says": OPPONENTS_SAY, "members": [
                _met(member, sums, name, True) for member, sums in _most(t.opponents)]},
            "months": {"says": MONTHS_SAY_MARCA if self.marca else MONTHS_SAY, "months": [
                _few({"month": month, "games": n, "hands": hands, "points": points,
                      "points_per_hand": _ratio(points, hands)}, n)
                for month, (n, hands, points) in sorted(t.months.items())]},
        }
        if self.marca:
            balance, evenings = 0, []
            for row in t.evenings:
                balance += row.marca or 0
                evenings.append({"game": row.game, "finished_at": row.finished_at.isoformat(),
                                 "marca": row.marca or 0, "balance": balance})
            out["balance"] = {"says": BALANCE_SAY, "evenings": evenings}
        out["evenings"] = {"says": EVENINGS_SAY_MARCA if self.marca else EVENINGS_SAY,
                           "days": evenings_by_day(t.evenings, marca=self.marca)}
        if self.variant is None:
            out["variants"] = [v.to_json(name, memo) for v in self.variants]
        return out


def evenings_by_day(rows: Iterable[MemberRow], *, marca: bool = False) -> list[dict[str, Any]]:
    """A member's evenings: the days (UTC) their ``rows`` finished, in order — an evening is
    a day at the club, not a game: five stand-alone games of one day are one evening, and so
    is an event with a game of the same day. Each day says its games, the events they
    belong to, its hands and points (with ``marca``: the marca and the balance after it)."""
    days: dict[dt.date, list[Any]] = {}
    for row in sorted(rows, key=_order):
        moment = row.finished_at
        day = (moment if moment.tzinfo is dt.UTC else moment.astimezone(dt.UTC)).date()
        sums = days.get(day)
        if sums is None:
            sums = days[day] = [0, set(), 0, 0, 0]
        sums[0] += 1
        if row.event is not None:
            sums[1].add(row.event)
        sums[2] += row.hands
        sums[3] += row.points
        sums[4] += row.marca or 0
    out: list[dict[str, Any]] = []
    balance = 0
    for day, (games, events, hands, points, won) in days.items():
        evening: dict[str, Any] = {"date": day.isoformat(), "games": games,
                                   "events": len(events), "hands": hands, "points": points,
                                   "points_per_hand": _ratio(points, hands)}
        if marca:
            balance += won
            evening |= {"marca": won, "balance": balance}
        out.append(evening)
    return out


def _most(met: Mapping[str, list[int]]) -> list[tuple[str, list[int]]]:
    """The ``MOST_MET`` members met most (most games first, then by id)."""
    return sorted(met.items(), key=lambda item: (-item[1][0], item[0]))[:MOST_MET]


def _met(member: str, sums: Sequence[int], name: Callable[[str], str],
         opponent: bool) -> dict[str, Any]:
    games, wins, places, points = sums[:4]
    out: dict[str, Any] = {
        "member": {"id": member, "name": name(member)}, "games": games,
        "wins": _ratio(wins, TWELFTHS),
        "average_place": _ratio(places, games),
        "points_per_game": _ratio(points, games)}
    if opponent:
        out.update(ahead=sums[4], level=sums[5], behind=sums[6])
    return _few(out, games)


def _block(family: str, variant: str | None, tally: _Tally, variants: Sequence[str],
           inner: tuple[Block, ...] = ()) -> Block:
    rules = [VARIANTS[v] for v in variants if v in VARIANTS]
    kinds = list(dict.fromkeys(m.kind for v in rules for m in v.melds))
    kinds += sorted(k for k in tally.declared if k not in kinds)
    return Block(family, variant, tally, tuple(kinds),
                 calls=any(v.partnership in ("call", "contract") for v in rules),
                 bagatto=any(v.bagatto is not None for v in rules),
                 marca=any(v.settles_in_marca for v in rules), variants=inner)


@dataclass(frozen=True, slots=True)
class MemberStats:
    """A member's statistics: a block per family played (each with a block per variant),
    the families in the order of their names."""

    games: int
    families: tuple[Block, ...]


def counted_in(season: Season, rows: Sequence[MemberRow],
               evening_ends: Mapping[str, dt.datetime]) -> list[MemberRow]:
    """The rows a season counts, as its standings count them: of its families, their
    evening ended within its dates (an event's evening by its last closed round, given in
    ``evening_ends`` by event: the member may not have played it)."""
    def day(row: MemberRow) -> dt.date:
        end = row.finished_at if row.event is None else evening_ends.get(row.event,
                                                                         row.finished_at)
        return end.astimezone(dt.UTC).date()
    return [r for r in rows if season.counts(r.family, day(r))]


@dataclass(frozen=True, slots=True)
class Folded:
    """A member's rows summed variant by variant and family by family (``fold``), what their
    statistics of all time or of one variant are made from (``folded_stats``), and kept so:
    ``refold`` takes rows out and puts rows in without summing the others again. ``tallies``
    by (family, variant), ``families`` by family; never changed once made (``refold`` makes
    the tallies it touches anew and shares the others)."""

    tallies: Mapping[tuple[str, str], _Tally]
    families: Mapping[str, _Tally]


def _folded(folded: Folded, changes: Iterable[tuple[int, Iterable[MemberRow]]],
            who: Callable[[str], str | None]) -> Folded:
    tallies, families = dict(folded.tallies), dict(folded.families)
    made: set[object] = set()

    def tally_of(sums: dict[Any, _Tally], key: Any) -> _Tally:
        if key not in made:
            found = sums.get(key)
            sums[key] = _Tally() if found is None else found.copy()
            made.add(key)
        return sums[key]

    for sign, rows in changes:
        for row in sorted(rows, key=_order):
            tally_of(tallies, (row.family, row.variant)).add(row, who, sign)
            tally_of(families, row.family).add(row, who, sign)
    return Folded({key: t for key, t in tallies.items() if t.games},
                  {key: t for key, t in families.items() if t.games})


def _merged(tallies: Iterable[_Tally]) -> _Tally:
    """One tally of several (a family's, of its variants'): the sums added, the evenings
    in finishing order."""
    out = _Tally()
    for tally in tallies:
        out.games += tally.games
        out.hands += tally.hands
        out.points += tally.points
        out.places += tally.places
        out.wins += tally.wins
        out.counts.update(tally.counts)
        out.declared.update(tally.declared)
        for mine, theirs in ((out.partners, tally.partners), (out.opponents, tally.opponents),
                             (out.months, tally.months)):
            for key, sums in theirs.items():
                found = mine.get(key)
                if found is None:
                    mine[key] = list(sums)
                else:
                    for i, value in enumerate(sums):
                        found[i] += value
        out.evenings.extend(tally.evenings)
    out.evenings.sort(key=_order)
    return out


def fold(rows: Iterable[MemberRow], who: Callable[[str], str | None]) -> Folded:
    """A member's rows (any order) summed variant by variant, and family by family (its
    variants' sums added up): ``who`` says which member a recorded partner's or opponent's
    id counts for now (the one they were merged into; None for one forgotten)."""
    tallies: dict[tuple[str, str], _Tally] = {}
    for row in sorted(rows, key=_order):
        tally = tallies.get((row.family, row.variant))
        if tally is None:
            tally = tallies[row.family, row.variant] = _Tally()
        tally.add(row, who)
    families = {family: _merged(t for (f, _), t in tallies.items() if f == family)
                for family in {family for family, _ in tallies}}
    return Folded(tallies, families)


def refold(folded: Folded, gone: Iterable[MemberRow], added: Iterable[MemberRow],
           who: Callable[[str], str | None]) -> Folded:
    """``folded`` without the rows ``gone`` (rows folded into it before: a rewritten
    game's old rows, a game that no longer counts) and with the rows ``added``, ``who`` as
    when it was folded; the variants and families neither touches are shared with
    ``folded`` (and the JSON of their blocks with them)."""
    return _folded(folded, [(-1, gone), (1, added)], who)


def folded_stats(folded: Folded, *, variant: str | None = None) -> MemberStats:
    """A member's statistics from their folded rows (only ``variant``'s when given): a block
    per family, and in it a block per variant."""
    families: dict[str, dict[str, _Tally]] = {}
    for (family, name), tally in sorted(folded.tallies.items()):
        if variant is None or name == variant:
            families.setdefault(family, {})[name] = tally
    blocks = tuple(
        _block(family, None, folded.families[family] if variant is None else inner[variant],
               list(inner), tuple(_block(family, name, tally, [name])
                                  for name, tally in inner.items()))
        for family, inner in families.items())
    return MemberStats(sum(b.games for b in blocks), blocks)


def member_stats(rows: Iterable[MemberRow], who: Callable[[str], str | None], *,
                 variant: str | None = None) -> MemberStats:
    """A member's statistics from their rows (any order; only ``variant``'s when given):
    ``who`` says which member a recorded partner's or opponent's id counts for now (the one
    they were merged into; None for one forgotten). One pass over the rows, a tally per
    variant; a family's is its variants' added up."""
    return folded_stats(fold((r for r in rows if variant is None or r.variant == variant),
                             who), variant=variant)


__all__ = ["FEW_GAMES", "MOST_MET", "Block", "Folded", "MemberRow", "MemberStats",
           "PlayedHand", "caution", "counted_in", "evenings_by_day", "fold", "folded_stats", "game_facts",
           "member_stats", "refold", "seat_facts"]
