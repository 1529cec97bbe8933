"""A club's season end to end, as a club would use it, on SQLite and
PostgreSQL: eight Thursday evenings of two families — stand-alone games of ``gatti-3`` and
``gatti-4``, evenings of marca (``mitigatti-3``, ended by their scorekeeper), two individual
``gatti-3`` events of one round, closed (one with a table stopped before its last hand) — a
finished game's hand corrected weeks later, a hand of a closed round corrected by the event's
organiser a week later, one person entered twice and merged, and a member forgotten. The
service dates a result by when it finished (docs/clubs.md#linking-results-to-members), so its
clock is set to each evening.

Every figure is checked against what this module works out from the hands it entered, never
from the service's answers: the seasons' standings and their leaders evening by evening
("Words": ``sum`` over both families, and ``best_n`` of the Gatti evenings from a later day;
docs/events.md#scoring-an-event), each member's statistics over all time and over a season
("Statistics": games, hands, wins with shared firsts, points per hand, marca won and lost and
the balance evening by evening, hands dealt, partners and opponents met, the months), and
the ratings ("Ratings":
openskill's Plackett–Luce fed the same games in the order they finished). After the merge
the survivor carries both; after the forget the forgotten member is gone from the
standings, statistics and ratings, and is "Player N" where the club's games and events name
them ("Privacy"), their games whole: the others met "Player N" and were rated against them
as before; the merge undone, each has their own evenings again."""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

import pytest
from http_support import API, auth
from openskill.models import PlackettLuce
from test_http_club_links import GAMES, club_auth, started
from test_http_club_ratings import ratings
from test_http_club_seasons import by_rank, open_season, standings
from test_http_club_stats import block, figures, ok_stats
from test_http_clubs import CLUBS, found_club, roster

EVENTS = f"{API}/events"
TENTH = Decimal("0.1")
#: The season's Thursdays.
THURSDAYS = [dt.date(2027, 1, 7) + dt.timedelta(weeks=k) for k in range(8)]

# rulebook §2.1 and §5.1: the counting cards (the honours: Gatti's T1, T21 and the Fool,
# Mitigatti's T1, T20 and the Fool), 4 each, as each King; a Queen 3, a Cavallo 2, a Jack 1.
COURTS = [f"{rank}{suit}" for rank in "KQCJ" for suit in "HDCS"]
GATTI_CARDS = ["T1", "T21", "FOOL", *COURTS]
MITIGATTI_CARDS = ["T1", "T20", "FOOL", *COURTS]
#: Each variant's columns, by seat (rulebook §2.2: gatti-4's pairs are seats 0+2 and 1+3).
COLUMNS = {"gatti-3": [[0], [1], [2]], "mitigatti-3": [[0], [1], [2]],
           "gatti-4": [[0, 2], [1, 3]]}


def card_points(card: str) -> int:
    if card in ("T1", "T20", "T21", "FOOL"):
        return 4
    return {"K": 4, "Q": 3, "C": 2, "J": 1}[card[0]]


@dataclass(frozen=True)
class Hand:
    """A hand as entered (the record but its dealer, whoever's turn it is) and what each
    column scores by the rules."""

    body: dict[str, Any]
    columns: tuple[int, ...]


def three_piles(cards: list[str], tricks: tuple[int, int, int], order: tuple[int, int, int],
                split: tuple[int, int, int]) -> tuple[list[dict[str, Any]], list[int]]:
    """Three piles: side ``s`` took ``tricks[s]`` tricks (the discard one of them), and the
    sides in ``order`` took the counting cards in turn, ``split`` of them each; and each
    side's deck points, its tricks and its counting cards' points (rulebook §2.6, §5.1)."""
    held: dict[int, list[str]] = {}
    start = 0
    for side, n in zip(order, split, strict=True):
        held[side] = cards[start:start + n]
        start += n
    assert start == len(cards) and sum(tricks) == 26
    piles = [{"side": s, "tricks": tricks[s], "counting": held[s]} for s in range(3)]
    points = [tricks[s] + sum(card_points(c) for c in held[s]) for s in range(3)]
    assert sum(points) == 78
    return piles, points


def gatti3(tricks: tuple[int, int, int], order: tuple[int, int, int],
           split: tuple[int, int, int]) -> Hand:
    """A gatti-3 hand without melds: each player scores their deck points (§2.6)."""
    piles, points = three_piles(GATTI_CARDS, tricks, order, split)
    return Hand({"discard": ["2H", "3H", "4S"], "piles": piles}, tuple(points))


def mitigatti3(tricks: tuple[int, int, int], order: tuple[int, int, int],
               split: tuple[int, int, int]) -> Hand:
    """A mitigatti-3 hand in marca (rulebook §5.6, three players): 13 to 25 points pay 1 marca
    to the one with most, under 13 pay 2 (one top scorer in every hand here: no pot)."""
    piles, points = three_piles(MITIGATTI_CARDS, tricks, order, split)
    best = max(points)
    assert points.count(best) == 1
    paid = [0 if p == best else 2 if p < 13 else 1 if p < 26 else 0 for p in points]
    return Hand({"piles": piles},
                tuple(sum(paid) if p == best else -paid[s] for s, p in enumerate(points)))


def gatti4(ours: int) -> Hand:
    """A gatti-4 hand in points per pair (seats 0 and 2 against 1 and 3): 72 in all."""
    return Hand({"piles": [{"side": 0, "points": ours}, {"side": 1, "points": 72 - ours}]},
                (ours, 72 - ours))


@dataclass
class Played:
    """A counted table as this module knows it: the member at each seat, the hands entered
    and who dealt them."""

    game: str
    tokens: dict[str, str]
    variant: str
    event: str | None
    evening: int
    day: dt.date
    seats: list[str]
    hands: list[Hand] = field(default_factory=list)
    dealers: list[int] = field(default_factory=list)

    @property
    def family(self) -> str:
        return self.variant.split("-")[0]

    @property
    def columns(self) -> list[list[str]]:
        """The members of each column, by seat."""
        return [[self.seats[s] for s in column] for column in COLUMNS[self.variant]]

    @property
    def totals(self) -> list[int]:
        """Each column's total (Mitigatti: its marca), from the hands entered."""
        return [sum(h.columns[c] for h in self.hands) for c in range(len(self.columns))]

    def place(self, column: int) -> tuple[int, int]:
        """The column's place and how many columns share it."""
        totals = self.totals
        return (1 + sum(1 for t in totals if t > totals[column]),
                totals.count(totals[column]))

    def dealt(self, member: str) -> int:
        return sum(1 for d in self.dealers if self.seats[d] == member)


class Clock:
    """The service's clock: each evening from 20:30 UTC, a minute on at every reading."""

    def __init__(self) -> None:
        self.now = dt.datetime(2027, 1, 1, tzinfo=dt.UTC)

    def evening(self, day: dt.date) -> None:
        self.now = dt.datetime.combine(day, dt.time(20, 30), tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        self.now += dt.timedelta(minutes=1)
        return self.now


@pytest.fixture()
def clock(client: Any, monkeypatch: pytest.MonkeyPatch) -> Clock:
    found = Clock()
    monkeypatch.setattr(client.application.extensions["segnapunti.games"], "clock", found)
    return found


class Season:
    """The club's evenings played through the API, and what this module knows of them."""

    def __init__(self, client: Any, clock: Clock) -> None:
        self.client = client
        self.clock = clock
        self.club = found_club(client, "Circolo del Tarocco")
        self.tables: list[Played] = []
        self.evenings: list[tuple[str, str, dt.date]] = []  # kind, id, day

    def _play(self, table: Played, hands: Iterable[Hand]) -> None:
        url = f"{GAMES}/{table.game}"
        for hand in hands:
            dealer = self.client.get(url, headers=auth(table.tokens["read"])).json["next_dealer"]
            response = self.client.post(f"{url}/hands", json={"dealer": dealer, **hand.body},
                                        headers=auth(table.tokens["edit"]))
            assert response.status_code == 201, response.json
            table.hands.append(hand)
            table.dealers.append(dealer)

    def check_sheet(self, table: Played) -> None:
        """The game's sheet says what the hands entered say (a check of this module's
        arithmetic as much as of the service's)."""
        body = self.client.get(f"{GAMES}/{table.game}", headers=auth(table.tokens["read"])).json
        assert [c["seats"] for c in body["columns"]] == COLUMNS[table.variant]
        results = [body["balances"][c["key"]] - 10 if "balances" in body
                   else body["totals"][c["key"]] for c in body["columns"]]
        assert results == table.totals
        assert body["hands_played"] == len(table.hands)

    def game(self, day: dt.date, variant: str, players: list[str],
             hands: list[Hand]) -> Played:
        """A stand-alone game; an evening of marca is ended by its scorekeeper."""
        self.clock.evening(day)
        game = started(self.client, self.club, players, variant)
        table = Played(game["id"], game["tokens"], variant, None, len(self.evenings) + 1, day,
                       game["club"]["members"])
        self._play(table, hands)
        if variant.startswith("mitigatti"):
            ended = self.client.post(f"{GAMES}/{table.game}/end",
                                     headers=auth(table.tokens["edit"]))
            assert ended.status_code == 200, ended.json
        self.check_sheet(table)
        self.tables.append(table)
        self.evenings.append(("game", table.game, day))
        return table

    def event(self, day: dt.date, name: str, entrants: list[str], seed: int,
              plays: list[list[Hand]]) -> dict[str, Any]:
        """An individual gatti-3 event of one round, its tables playing ``plays`` (a table
        given fewer than 3 hands is stopped by the round's close)."""
        self.clock.evening(day)
        created = self.client.post(EVENTS, json={
            "name": name, "variant": "gatti-3", "format": "individual", "seed": seed,
            "club": self.club["id"], "entrants": [{"name": n} for n in entrants]},
            headers=club_auth(self.club))
        assert created.status_code == 201, created.json
        event: dict[str, Any] = created.json
        organiser = auth(event["tokens"]["edit"])
        started_round = self.client.post(f"{EVENTS}/{event['id']}/rounds", json={},
                                         headers=organiser)
        assert started_round.status_code == 201, started_round.json
        tables = sorted(started_round.json["tables"], key=lambda t: t["table"])
        assert len(tables) == len(plays) and not started_round.json["byes"]
        for seated, hands in zip(tables, plays, strict=True):
            game = self.client.get(f"{GAMES}/{seated['game']}",
                                   headers=auth(seated["tokens"]["read"])).json
            table = Played(seated["game"], seated["tokens"], "gatti-3", event["id"],
                           len(self.evenings) + 1, day, game["club"]["members"])
            self._play(table, hands)
            self.tables.append(table)
        played = self.client.get(f"{EVENTS}/{event['id']}", headers=organiser).json
        if played["rounds"][0]["state"] == "open":  # a table still playing: a timed round
            closed = self.client.post(f"{EVENTS}/{event['id']}/rounds/1/close",
                                      headers=organiser)
            assert closed.status_code == 200, closed.json
        for table in self.tables[-len(plays):]:
            self.check_sheet(table)
        self.evenings.append(("event", event["id"], day))
        return event


# -- the figures, worked out here --------------------------------------------------------

#: Which member a seat's results count for now: themselves, or the member they were merged
#: into (a forgotten member's for themselves, shown for nobody: see ``hidden``).
Who = Callable[[str], str | None]


def differences(totals: list[int]) -> list[Decimal]:
    """docs/events.md: own total minus the opponents' (two columns), or minus the table's average
    to one decimal (more)."""
    if len(totals) == 2:
        return [Decimal(totals[0] - totals[1]), Decimal(totals[1] - totals[0])]
    mean = Decimal(sum(totals)) / len(totals)
    return [(Decimal(t) - mean).quantize(TENTH, rounding=ROUND_HALF_UP) for t in totals]


@dataclass(frozen=True)
class SeasonRule:
    families: tuple[str, ...]
    first: dt.date
    last: dt.date
    best: int | None = None  # best_n's n; None: sum

    def counts(self, table: Played) -> bool:
        return ((not self.families or table.family in self.families)
                and self.first <= table.day <= self.last)


def evening_sums(season: Season, rule: SeasonRule, who: Who
                 ) -> dict[str, dict[int, tuple[int, Decimal, int, frozenset[str]]]]:
    """Each member's evenings of the season: match points, difference and points, and the
    members met."""
    out: dict[str, dict[int, list[Any]]] = defaultdict(dict)
    for table in season.tables:
        if not rule.counts(table):
            continue
        totals = table.totals
        mps, diffs = by_rank(totals), differences(totals)
        for c, column in enumerate(table.columns):
            others = {who(o) for d, other in enumerate(table.columns) if d != c
                      for o in other} - {None}
            for seated in column:
                member = who(seated)
                if member is None:
                    continue
                sums = out[member].setdefault(table.evening, [0, Decimal(0), 0, set()])
                sums[0] += mps[c]
                sums[1] += diffs[c]
                sums[2] += totals[c]
                sums[3] |= others
    return {m: {e: (s[0], s[1], s[2], frozenset(s[3])) for e, s in nights.items()}
            for m, nights in out.items()}


def kept(nights: dict[int, tuple[int, Decimal, int, frozenset[str]]],
         best: int | None) -> list[int]:
    """The evenings a season counts of a member: all (sum), or their ``best`` by match
    points, difference, points, the earlier first (best_n)."""
    return sorted(nights, key=lambda e: (-nights[e][0], -nights[e][1], -nights[e][2], e)
                  )[:best]


def expected_standings(season: Season, rule: SeasonRule, who: Who
                       ) -> dict[str, tuple[int, int, Decimal, int]]:
    """Each member's place, match points, difference and points. Rows equal on all three
    share a place if they never met; the season's hands are chosen so that no two who met
    are level (their meetings would decide)."""
    sums: dict[str, tuple[int, Decimal, int]] = {}
    met: dict[str, frozenset[str]] = {}
    for member, nights in evening_sums(season, rule, who).items():
        counted = kept(nights, rule.best)
        sums[member] = (sum(nights[e][0] for e in counted),
                        sum((nights[e][1] for e in counted), Decimal(0)),
                        sum(nights[e][2] for e in counted))
        met[member] = frozenset().union(*(nights[e][3] for e in counted))
    out = {}
    for member, key in sums.items():
        level = {m for m, other in sums.items() if other == key and m != member}
        assert not level & met[member], f"{member} is level with {level & met[member]}"
        place = 1 + sum(1 for other in sums.values() if other > key)
        out[member] = (place, *key)
    return out


def expected_running(season: Season, rule: SeasonRule, who: Who, member: str,
                     evenings: list[int]) -> list[int]:
    """A member's match points as the standings counted them at the season's start and
    after each of its evenings."""
    nights = evening_sums(season, rule, who).get(member, {})
    out = [0]
    for k in range(1, len(evenings) + 1):
        so_far = {e: nights[e] for e in evenings[:k] if e in nights}
        out.append(sum(so_far[e][0] for e in kept(so_far, rule.best)))
    return out


def two(value: Fraction) -> int | float:
    """A ratio as the statistics write it: two decimals, half away from zero."""
    hundredths = int(abs(value) * 100 + Fraction(1, 2))
    if value < 0:
        hundredths = -hundredths
    return hundredths // 100 if hundredths % 100 == 0 else hundredths / 100


@dataclass
class Figures:
    """A member's figures in one family as this module works them out."""

    figures: dict[str, Any]
    partners: dict[str, int]
    opponents: dict[str, int]
    #: Each month's games, hands and points (the month a game finished).
    months: dict[str, tuple[int, int, int]]
    #: Mitigatti's evenings in order: the game, its marca, the balance so far.
    balance: list[tuple[str, int, int]]


def expected_figures(season: Season, who: Who, member: str, family: str,
                     rule: SeasonRule | None = None) -> Figures:
    """A member's figures in one family (over a season's dates and families when given):
    the figures, the games with each partner and against each opponent, the months, and
    the balance in marca evening by evening."""
    games = hands = points = dealt = won = lost = 0
    wins = Fraction(0)
    partners: Counter[str] = Counter()
    opponents: Counter[str] = Counter()
    months: dict[str, tuple[int, int, int]] = {}
    balance: list[tuple[str, int, int]] = []
    for table in season.tables:
        if table.family != family or (rule is not None and not rule.counts(table)):
            continue
        mine = [(c, s) for c, column in enumerate(table.columns) for s in column
                if who(s) == member]
        if not mine:
            continue
        (column, seated), = mine
        own = table.totals[column]
        place, shared = table.place(column)
        games += 1
        hands += len(table.hands)
        points += own
        wins += Fraction(1, shared) if place == 1 else 0
        dealt += table.dealt(seated)
        won, lost = won + max(own, 0), lost + max(-own, 0)
        month = f"{table.day:%Y-%m}"
        was = months.get(month, (0, 0, 0))
        months[month] = (was[0] + 1, was[1] + len(table.hands), was[2] + own)
        balance.append((table.game, own, (balance[-1][2] if balance else 0) + own))
        partners.update(m for s in table.columns[column] if s != seated
                        if (m := who(s)) is not None)
        opponents.update(m for c, other in enumerate(table.columns) if c != column
                         for s in other if (m := who(s)) is not None)
    found: dict[str, Any] = {"games": games, "hands": hands, "wins": two(wins),
                             "points_per_hand": two(Fraction(points, hands)) if hands else None,
                             "dealt": dealt}
    if family == "mitigatti":
        found |= {"marca_won": won, "marca_lost": lost, "marca_balance": won - lost}
    return Figures(found, dict(partners), dict(opponents), months, balance)


def expected_ratings(season: Season, who: Who, family: str
                     ) -> tuple[dict[str, tuple[int, float, float, int]], dict[str, list[str]]]:
    """openskill's Plackett–Luce over the family's games in the order they finished (an
    event's tables when its round closed; equal times by game id): each column a side of
    the members it counts for, its place among all the columns. Each member's shown rating,
    mu, sigma and games, and their games in order."""
    model = PlackettLuce()
    current: dict[str, Any] = {}
    played: dict[str, list[str]] = defaultdict(list)
    for table in sorted((t for t in season.tables if t.family == family),
                        key=lambda t: (t.evening, t.game)):
        sides: list[list[str]] = []
        places: list[float] = []
        for c, column in enumerate(table.columns):
            side = list(dict.fromkeys(m for s in column if (m := who(s)) is not None))
            if side:
                sides.append(side)
                places.append(table.place(c)[0])
        if len(sides) < 2:
            continue
        teams = [[current.get(m) or model.rating(name=m) for m in side] for side in sides]
        for side, rated in zip(sides, model.rate(teams, ranks=places), strict=True):
            for member, after in zip(side, rated, strict=True):
                current[member] = after
                played[member].append(table.game)
    return ({m: (round(1000 + 40 * (r.mu - 3 * r.sigma)), r.mu, r.sigma, len(played[m]))
             for m, r in current.items()}, dict(played))


# -- the checks ----------------------------------------------------------------------------


def check_standings(season: Season, season_id: str, rule: SeasonRule, who: Who) -> None:
    client, club = season.client, season.club
    response = standings(client, club, season_id)
    assert response.status_code == 200, response.json
    body = response.json
    got = {r["member"]: (r["place"], r["match_points"], Decimal(str(r["difference"])),
                         r["points"]) for r in body["rows"]}
    assert got == expected_standings(season, rule, who)
    assert [r["place"] for r in body["rows"]] == sorted(r["place"] for r in body["rows"])
    counted = [k for k, (kind, ident, day) in enumerate(season.evenings, start=1)
               if any(rule.counts(t) and t.evening == k for t in season.tables)]
    assert [(e.get("game") or e.get("event"), e["date"]) for e in body["evenings"]] == [
        (season.evenings[k - 1][1], season.evenings[k - 1][2].isoformat()) for k in counted]
    leaders = body["leaders"]
    assert [x["member"] for x in leaders] == [r["member"] for r in body["rows"][:5]]
    for leader in leaders:
        assert leader["running"] == expected_running(season, rule, who, leader["member"],
                                                     counted), leader


def check_statistics(season: Season, members: Iterable[str], who: Who,
                     rule: SeasonRule | None = None, season_id: str | None = None,
                     hidden: frozenset[str] = frozenset()) -> None:
    client, club = season.client, season.club
    for member in members:
        body = ok_stats(client, club, member, **({"season": season_id} if season_id else {}))
        if member in hidden:
            assert (body["games"], body["families"]) == (0, []), member
            continue
        families = []
        for family in ("gatti", "mitigatti"):
            want = expected_figures(season, who, member, family, rule)
            if not want.figures["games"]:
                continue
            families.append(family)
            found = block(body, family)
            where = (member, family)
            assert {k: figures(found)[k] for k in want.figures} == want.figures, where
            assert {p["member"]["id"]: p["games"]
                    for p in found["partners"]["members"]} == want.partners, where
            assert {o["member"]["id"]: o["games"]
                    for o in found["opponents"]["members"]} == want.opponents, where
            assert {m["month"]: (m["games"], m["hands"], m["points"])
                    for m in found["months"]["months"]} == want.months, where
            if family == "mitigatti":
                assert [(e["game"], e["marca"], e["balance"])
                        for e in found["balance"]["evenings"]] == want.balance, where
        assert [b["family"] for b in body["families"]] == families, member
        assert body["games"] == sum(block(body, f)["games"] for f in families)


def check_ratings(season: Season, who: Who, survivor: str | None = None,
                  hidden: frozenset[str] = frozenset()) -> None:
    client, club = season.client, season.club
    for family in ("gatti", "mitigatti"):
        want, played = expected_ratings(season, who, family)
        want = {m: rated for m, rated in want.items() if m not in hidden}
        response = ratings(client, club, family)
        assert response.status_code == 200, response.json
        rows = response.json["ratings"]
        assert {r["member"]["id"]: (r["rating"], r["games"]) for r in rows} == {
            m: (shown, games) for m, (shown, _mu, _sigma, games) in want.items()}, family
        for row in rows:
            _shown, mu, sigma, _games = want[row["member"]["id"]]
            assert (row["mu"], row["sigma"]) == pytest.approx((mu, sigma), abs=1e-3)
        if survivor is not None and survivor in played:
            history = client.get(f"{CLUBS}/{club['id']}/members/{survivor}/ratings"
                                 f"?family={family}", headers=auth(club["tokens"]["read"]))
            assert [p["game"] for p in history.json["history"]] == played[survivor]
            last = next(t for t in season.tables if t.game == played[survivor][-1])
            assert history.json["last_played"].startswith(last.day.isoformat())


def check_all(season: Season, seasons: dict[str, SeasonRule], who: Who,
              survivor: str | None = None, hidden: frozenset[str] = frozenset()) -> None:
    """Every check, ``hidden`` the forgotten: their seats still count for them (the others
    met and were rated against them), but no standings, statistics or rating of theirs is
    shown."""
    def shown(member: str) -> str | None:
        counted = who(member)
        return None if counted in hidden else counted

    for season_id, rule in seasons.items():
        check_standings(season, season_id, rule, shown)
    members = {m["id"] for m in roster(season.client, season.club)}
    check_statistics(season, sorted(members), who, hidden=hidden)
    best_n = next(s for s, rule in seasons.items() if rule.best is not None)
    check_statistics(season, sorted(members), who, seasons[best_n], best_n, hidden=hidden)
    check_ratings(season, who, survivor, hidden)


# -- the season ----------------------------------------------------------------------------


def test_words_statistics_ratings_privacy_a_season_as_a_club_plays_it(
        client: Any, clock: Clock) -> None:
    season = Season(client, clock)
    club = season.club
    edit = auth(club["tokens"]["edit"])
    winter = SeasonRule((), dt.date(2027, 1, 1), dt.date(2027, 3, 31))
    gatti_best = SeasonRule(("gatti",), dt.date(2027, 1, 10), dt.date(2027, 3, 31), best=2)
    seasons = {
        open_season(client, club, name="Inverno", **{"from": "2027-01-01", "to": "2027-03-31"}
                    ).json["id"]: winter,
        open_season(client, club, name="Gatti", families=["gatti"], counting="best_n", n=2,
                    **{"from": "2027-01-10", "to": "2027-03-31"}).json["id"]: gatti_best,
    }

    # 1. Gatti with three: Anna, Bruno, Carla.
    first = season.game(THURSDAYS[0], "gatti-3", ["Anna", "Bruno", "Carla"], [
        gatti3((10, 8, 8), (0, 1, 2), (7, 6, 6)),
        gatti3((9, 9, 8), (1, 2, 0), (5, 7, 7)),
        gatti3((8, 10, 8), (2, 0, 1), (4, 9, 6))])
    # 2. An evening of marca, two hands, ended by its scorekeeper.
    season.game(THURSDAYS[1], "mitigatti-3", ["Anna", "Dario", "Elena"], [
        mitigatti3((12, 6, 8), (0, 1, 2), (7, 4, 8)),
        mitigatti3((6, 14, 6), (2, 1, 0), (2, 10, 7))])
    # 3. An event of six: two tables, the second stopped after two hands by the close.
    giovedi = season.event(THURSDAYS[2], "Giovedì grasso",
                           ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"], 5, [
                               [gatti3((9, 9, 8), (0, 1, 2), (6, 6, 7)),
                                gatti3((8, 10, 8), (1, 2, 0), (8, 5, 6)),
                                gatti3((10, 8, 8), (2, 0, 1), (5, 7, 7))],
                               [gatti3((11, 7, 8), (0, 1, 2), (4, 8, 7)),
                                gatti3((7, 7, 12), (2, 1, 0), (9, 4, 6))]])
    # 4. Giuseppe's first evening.
    fourth = season.game(THURSDAYS[3], "gatti-3", ["Dario", "Franco", "Giuseppe"], [
        gatti3((12, 7, 7), (0, 1, 2), (5, 7, 7)),
        gatti3((8, 8, 10), (1, 0, 2), (7, 7, 5)),
        gatti3((9, 10, 7), (2, 1, 0), (6, 6, 7))])
    # The same night, the organiser settles a dispute of the first event's stopped table,
    # closed a week before: its first hand's counting cards went the other way round.
    stopped = next(t for t in season.tables if t.event == giovedi["id"] and len(t.hands) == 2)
    settled = gatti3((11, 7, 8), (2, 1, 0), (4, 8, 7))
    put = client.put(f"{EVENTS}/{giovedi['id']}/rounds/1/tables/2/hands/1",
                     json={"dealer": stopped.dealers[0], **settled.body},
                     headers={**auth(giovedi["tokens"]["edit"]), "If-Match": "*"})
    assert put.status_code == 200, put.json
    stopped.hands[0] = settled
    season.check_sheet(stopped)
    # 5. Marca again: Giuseppe entered as "Beppe".
    season.game(THURSDAYS[4], "mitigatti-3", ["Bruno", "Carla", "Beppe"], [
        mitigatti3((10, 8, 8), (0, 1, 2), (8, 6, 5)),
        mitigatti3((6, 6, 14), (2, 0, 1), (9, 5, 5)),
        mitigatti3((8, 12, 6), (1, 2, 0), (6, 9, 4))])
    # The same night, the first evening's sheet is found wrong: its first hand was Carla's.
    corrected = gatti3((8, 8, 10), (2, 0, 1), (7, 6, 6))
    put = client.put(f"{GAMES}/{first.game}/hands/1",
                     json={"dealer": first.dealers[0], **corrected.body},
                     headers={**auth(first.tokens["edit"]), "If-Match": "*"})
    assert put.status_code == 200, put.json
    first.hands[0] = corrected
    season.check_sheet(first)
    # 6. Gatti in pairs: Anna and Elena against Bruno and Franco.
    season.game(THURSDAYS[5], "gatti-4", ["Anna", "Bruno", "Elena", "Franco"],
                [gatti4(40), gatti4(30), gatti4(45), gatti4(38)])
    # 7. The second event.
    season.event(THURSDAYS[6], "Giovedì di Carnevale",
                 ["Anna", "Carla", "Dario", "Elena", "Franco", "Giuseppe"], 9, [
                     [gatti3((10, 8, 8), (1, 0, 2), (5, 8, 6)),
                      gatti3((9, 9, 8), (0, 2, 1), (7, 5, 7)),
                      gatti3((8, 9, 9), (2, 1, 0), (6, 7, 6))],
                     [gatti3((8, 10, 8), (0, 1, 2), (7, 6, 6)),
                      gatti3((10, 8, 8), (2, 0, 1), (4, 8, 7)),
                      gatti3((9, 8, 9), (1, 2, 0), (8, 6, 5))]])
    # 8. Beppe again.
    season.game(THURSDAYS[7], "gatti-3", ["Bruno", "Beppe", "Dario"], [
        gatti3((8, 9, 9), (1, 0, 2), (6, 6, 7)),
        gatti3((10, 8, 8), (2, 1, 0), (7, 5, 7)),
        gatti3((9, 9, 8), (0, 2, 1), (5, 8, 6))])

    members = {m["name"]: m["id"] for m in roster(client, club)}
    assert sorted(members) == ["Anna", "Beppe", "Bruno", "Carla", "Dario", "Elena", "Franco",
                               "Giuseppe"]
    check_all(season, seasons, lambda m: m)

    # Beppe is Giuseppe: one person, both their evenings.
    beppe, giuseppe = members["Beppe"], members["Giuseppe"]
    merged = client.post(f"{CLUBS}/{club['id']}/members/{beppe}/merge",
                         json={"into": giuseppe}, headers=edit)
    assert merged.status_code == 200, merged.json
    one: dict[str, str] = {beppe: giuseppe}

    def after_merge(member: str) -> str | None:
        return one.get(member, member)

    check_all(season, seasons, after_merge, survivor=giuseppe)
    gone = ok_stats(client, club, beppe)
    assert (gone["games"], gone["member"]["status"]) == (0, "merged")

    # Franco asks to be forgotten.
    franco = next(m for m in roster(client, club) if m["id"] == members["Franco"])
    forgotten = client.post(f"{CLUBS}/{club['id']}/members/{franco['id']}/forget",
                            headers=edit)
    assert forgotten.status_code == 200, forgotten.json

    gone = frozenset({franco["id"]})
    check_all(season, seasons, after_merge, survivor=giuseppe, hidden=gone)
    label = f"Player {franco['number']}"
    nobody = ok_stats(client, club, franco["id"])
    assert (nobody["games"], nobody["families"], nobody["member"]["name"]) == (0, [], label)
    for season_id in seasons:
        body = standings(client, club, season_id).json
        assert franco["id"] not in {r["member"] for r in body["rows"]}
        assert "Franco" not in str(body)
    event_rows = client.get(f"{EVENTS}/{giovedi['id']}/standings",
                            headers=auth(giovedi["tokens"]["read"])).json["rows"]
    assert label in {r["entrant"] for r in event_rows}
    assert "Franco" not in {r["entrant"] for r in event_rows}
    sheet = client.get(f"{GAMES}/{fourth.game}", headers=auth(fourth.tokens["read"])).json
    assert sheet["players"] == ["Dario", label, "Giuseppe"]

    # The merge was wrong after all (docs/clubs.md#words: undoable): Beppe has his evenings back.
    unmerged = client.post(f"{CLUBS}/{club['id']}/members/{beppe}/unmerge", headers=edit)
    assert unmerged.status_code == 200, unmerged.json
    one.clear()
    check_all(season, seasons, after_merge, hidden=gone)
