"""Use cases of clubs (docs/clubs.md): create a club, read it, its roster and its
history; add a member, rename one (in every game and event of the club too), change their
initials, deactivate and reactivate them, merge two members (undoable: ``unmerge``; their
results counted for the survivor), forget one (irreversible; their results go). The seats
of a game or an event of the club as its members (``link_seats``, ``link_entrants``, then
``seat``); its seasons and their standings; its export.

A club's tokens work as an event's: the edit token is the secretary's, the read token the
members'; only their hashes are kept, the read token worked out from the edit token so the
secretary can show it again. A token that opens something else (another club, an event, a
game) is a 404 here, one that opens nothing a 401: a game's tokens never open its club.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from service.domain import (
    MEMBERS_MAX,
    VARIANTS,
    ClubResult,
    Folded,
    MemberRow,
    MemberStats,
    Problem,
    RecordInvalid,
    RosterEntry,
    RosterName,
    SeasonStandings,
    SeatChoice,
    Text,
    UnknownVariant,
    choose_members,
    counted_in,
    find_variant,
    fold,
    folded_stats,
    forgotten_label,
    member_key,
    member_stats,
    merge_problems,
    refold,
    season_standings,
    validate_club_name,
    validate_member,
    validate_season,
)

from .caches import LruCache
from .errors import (
    ConcurrentChange,
    Conflict,
    NotFound,
    PreconditionFailed,
)
from .games import (
    ANY_VERSION,
    TOKEN_BYTES,
    TokenWords,
    derived_token,
    hash_token,
    new_game_id,
    own_token_access,
)
from .lookalikes import looks
from .member_names import show_names
from .ports import (
    ClubCredentials,
    ClubGame,
    ClubRepository,
    EventAction,
    GameIdTaken,
    StaleGame,
    StoredClub,
    StoredMember,
    StoredSeason,
)
from .ratings import (
    FamilyRatings,
    MemberRating,
    history_of,
    kept_table,
    matches_of,
    rate_matches,
    rerate_member,
)
from .unit_of_work import UnitOfWork


class ClubNotFound(NotFound):
    """No such club for this token (another club's token, or no club with this id)."""

    failed_authentication = True


CLUB_TOKEN_WORDS = TokenWords(
    needed=Text("this request needs the club's token (Authorization: Bearer …)"),
    opens_nothing=Text("this token opens no club; check the link it came from"),
    read_only=Text("the members' read-only token cannot change the club; use the "
                   "secretary's"))


def club_read_token(edit_token: str, club_id: str) -> str:
    """The members' read token, worked out from the secretary's edit token."""
    return derived_token(edit_token, f"club {club_id} read")


def member_etag(club_id: str, member: StoredMember) -> str:
    """A member's entity tag: it moves with every change to them."""
    digest = hashlib.sha256(f"{club_id}|{member.id}|{member.changed_version}".encode())
    return f"m{member.changed_version}-{digest.hexdigest()[:16]}"


def club_etag(club_id: str, version: int) -> str:
    digest = hashlib.sha256(f"{club_id}|{version}".encode()).hexdigest()[:16]
    return f"c{version}-{digest}"


def results_etag(club_id: str, credentials: ClubCredentials) -> str:
    """The tag of what the club's results say (its standings): the club's version (its
    roster's names, its seasons) and its results' version (every counted game's rows)."""
    digest = hashlib.sha256(
        f"{club_id}|{credentials.version}|{credentials.results_version}".encode()).hexdigest()
    return f"r{credentials.version}.{credentials.results_version}-{digest[:16]}"


#: Every family of game a season can count.
FAMILIES = tuple(sorted({v.family for v in VARIANTS.values()}))


@dataclass(frozen=True, slots=True)
class ClubExport:
    """A club whole: its roster, its games, their results, its seasons, its history."""

    club: StoredClub
    games: list[ClubGame]
    results: list[ClubResult]
    seasons: list[StoredSeason]
    history: list[EventAction]


@dataclass(frozen=True, slots=True)
class SeatLink:
    """A new game's seats (or an event's entrants) as members of ``club``, not yet
    written: ``choice`` says who sits where and which names become members."""

    club: StoredClub
    choice: SeatChoice


@dataclass(frozen=True, slots=True)
class EntrantLink:
    """An event's entrants as members: ``link``'s seats are each entrant's name, or a
    pair's two players, ``where`` saying whose (entrant, player or None)."""

    link: SeatLink

    where: tuple[tuple[int, int | None], ...]

    def named(self, entrants: list[Any]) -> list[Any]:
        """The entrants with each member's name (as now) where a member was sent."""
        out = [dict(e) if isinstance(e, Mapping) else e for e in entrants]
        for (i, k), name in zip(self.where, self.link.choice.names, strict=True):
            if k is None:
                out[i]["name"] = name
            else:
                out[i]["players"] = [*out[i]["players"]]
                out[i]["players"][k] = name
        return out

    def by_entrant(self, members: tuple[str | None, ...]) -> dict[int, tuple[str | None, ...]]:
        """The member of each entrant (one, or a pair's two), from the members by seat."""
        out: dict[int, list[str | None]] = {}
        for (i, _), member in zip(self.where, members, strict=True):
            out.setdefault(i, []).append(member)
        return {i: tuple(m) for i, m in out.items()}


@dataclass(frozen=True, slots=True)
class CreatedClub:
    club: StoredClub
    edit_token: str
    read_token: str


def _unpublished(club_id: str) -> ClubNotFound:
    """The answer for a club not published, the same whether it exists or not."""
    return ClubNotFound(Text("there is no published club {club}", club=repr(club_id)))


def _concurrent() -> ConcurrentChange:
    """Another request changed the club between this one's read and its write: the unit of
    work runs the change again from a fresh read (a name taken meanwhile is then a 422)."""
    return ConcurrentChange(Text("the club was changed by another request at the same time; "
                                 "read it and try again"))


@dataclass(frozen=True, slots=True)
class StatsOf:
    """A member's statistics as asked: the club (its roster names the partners and
    opponents), the member, the season and variant they are limited to, and the figures."""

    club: StoredClub
    member: StoredMember
    season: StoredSeason | None
    variant: str | None
    stats: MemberStats


#: How many of the members' rows of the club's results a process keeps folded for their
#: statistics (a member with 500 games weighs 501), and how many clubs' rosters.
KEPT_ROWS = 20_000
KEPT_ROSTERS = 64


@dataclass(frozen=True, slots=True)
class KeptRows:
    """A member's rows as their statistics last read them, and their fold: the club's
    ``version`` they were read and folded at (its roster says whom each recorded id counts
    for, and a merge or forget recounts rows without writing them again), the newest
    results version that wrote one (``written``), the rows by game and seat."""

    version: int
    written: int
    rows: Mapping[tuple[str, int], MemberRow]
    folded: Folded


class ClubService:
    """The use cases of clubs over a ``ClubRepository``. ``opens_something`` says whether a
    token's hash opens any game or event (then a club it does not open is a 404, not 401).
    ``fill_facts``, when given, gives counted games whose rows were written before the
    statistics' facts were kept their facts (in a unit of work of its own)."""

    def __init__(self, repository: ClubRepository, clock: Callable[[], datetime],
                 opens_something: Callable[[str], bool],
                 fill_facts: Callable[[Collection[str]], None] | None = None) -> None:
        self.repository = repository
        self.clock = clock
        self.opens_something = opens_something
        self.fill_facts = fill_facts
        #: Each club's roster by its version, and each member's rows folded (``KeptRows``):
        #: both name an immutable state, so neither is ever stale, only unused.
        self._rosters: LruCache[str, StoredClub] = LruCache(KEPT_ROSTERS)
        self._kept: LruCache[tuple[str, str], KeptRows] = LruCache(
            KEPT_ROWS, weight=lambda kept: len(kept.rows) + 1)

    # -- access -----------------------------------------------------------------------------

    def authorize(self, club_id: str, token: str | None, *, write: bool) -> str:
        """``edit`` or ``read``: 401 without a token or with one that opens nothing, 404 for
        another club's (or an event's, or a game's), 403 for the read token on a change."""
        return self._authorize(club_id, token, write=write)[0]

    def _authorize(self, club_id: str, token: str | None, *,
                   write: bool) -> tuple[str, ClubCredentials]:
        return own_token_access(
            token, lambda: self.repository.get_club_credentials(club_id),
            lambda digest: (self.repository.club_token_exists(digest)
                            or self.opens_something(digest)),
            write=write, words=CLUB_TOKEN_WORDS,
            not_found=lambda: ClubNotFound(Text("there is no club {club} for this token",
                                                club=repr(club_id))))

    # -- reads ------------------------------------------------------------------------------

    def state_tag(self, club_id: str, token: str | None) -> tuple[str, str]:
        """The club's entity tag (its version: every change moves it) and the token's kind."""
        kind, credentials = self._authorize(club_id, token, write=False)
        return club_etag(club_id, credentials.version), kind

    def get_club(self, club_id: str, token: str | None) -> StoredClub:
        """The club as it is (either token); its roster read again only when its version
        moved since this process last read it."""
        _, credentials = self._authorize(club_id, token, write=False)
        kept = self._rosters.get(club_id)
        if kept is not None and kept.version == credentials.version:
            return kept
        club = self._load(club_id)
        self._rosters.put(club_id, club)
        return club

    def get_member(self, club_id: str, token: str | None,
                   member_id: str) -> tuple[StoredClub, StoredMember]:
        club = self.get_club(club_id, token)
        return club, self._member(club, member_id)

    def history(self, club_id: str, token: str | None) -> list[EventAction]:
        self._authorize(club_id, token, write=False)
        return self.repository.club_history(club_id)

    def results_tag(self, club_id: str, token: str | None) -> tuple[str, str]:
        """The entity tag of the club's results (seasons' standings) and the token's kind."""
        kind, credentials = self._authorize(club_id, token, write=False)
        return results_etag(club_id, credentials), kind

    def stats_tag(self, club_id: str, token: str | None, member_id: str,
                  season_id: object = None) -> tuple[str, str]:
        """The entity tag of a member's statistics and the token's kind. All time (or one
        variant) they say the member's rows alone: the tag is the club's version (the names
        of partners, merges and forgets) and the member's rows' state (how many, the newest
        results version that wrote one), so a result elsewhere in the club leaves it as it
        was. Over a season, whose evenings other members' rows date, it is the club's
        results tag."""
        kind, credentials = self._authorize(club_id, token, write=False)
        if season_id is not None:
            return results_etag(club_id, credentials), kind
        count, written = self.repository.member_rows_state(club_id, member_id)
        digest = hashlib.sha256(
            f"{club_id}|{member_id}|{credentials.version}|{count}|{written}".encode()
        ).hexdigest()[:16]
        return f"m{credentials.version}.{count}.{written}-{digest}", kind

    def seasons(self, club_id: str, token: str | None) -> list[StoredSeason]:
        self._authorize(club_id, token, write=False)
        return self.repository.seasons(club_id)

    def season(self, club_id: str, token: str | None, season_id: str) -> StoredSeason:
        found = next((s for s in self.seasons(club_id, token) if s.id == season_id), None)
        if found is None:
            raise NotFound(Text("club {club} has no season {season}", club=club_id,
                                season=repr(season_id)))
        return found

    def standings(self, club_id: str, token: str | None,
                  season_id: str) -> tuple[StoredClub, StoredSeason, SeasonStandings]:
        """A season's standings, from the club's results and its roster's names now."""
        season = self.season(club_id, token, season_id)
        club = self._load(club_id)
        return club, season, self.season_table(club, season)

    def season_table(self, club: StoredClub, season: StoredSeason) -> SeasonStandings:
        """A season's standings from the club's results, its roster's names now."""
        gone = _forgotten(club)
        return season_standings(season.season, self.repository.club_results(club.id),
                                [(m.id, m.name) for m in club.members if m.id not in gone])

    def ratings(self, club_id: str, token: str | None,
                family: object) -> tuple[StoredClub, FamilyRatings]:
        """The family's ratings table, recomputed from the club's counted games (either
        token); a family no game of the club has played gives an empty table."""
        club = self.get_club(club_id, token)
        return club, self.family_ratings(club, family)

    def family_ratings(self, club: StoredClub, family: object) -> FamilyRatings:
        """The family's ratings table of ``club``, its forgotten members left out."""
        club_id = club.id
        if not isinstance(family, str) or family not in FAMILIES:
            raise RecordInvalid([Problem("family", "invalid_family", Text(
                "family: one of {families}", families=", ".join(FAMILIES)))])
        rated, kept = self.repository.kept_ratings(club_id, family)
        if rated:
            table = kept_table(family, rated, kept)
        else:  # results from before ratings were kept, until a write rates them whole
            rows = self.repository.family_results(club_id, family, None)
            table = rate_matches(matches_of(rows)).get(family, FamilyRatings(family, ()))
        gone = _forgotten(club)
        return FamilyRatings(family, tuple(r for r in table.members if r.member not in gone),
                             table.games)

    def member_rating(self, club_id: str, token: str | None, member_id: str,
                      family: object) -> tuple[StoredClub, int | None, MemberRating | None]:
        """A member's row of the family's ratings (either token), its place and their
        rating after each of their games: None for a member with no rated game of it
        (nor a forgotten one)."""
        club, table = self.ratings(club_id, token, family)
        self._member(club, member_id)
        found = next(((n, r) for n, r in enumerate(table.members, start=1)
                      if r.member == member_id), None)
        if found is None:
            return club, None, None
        place, row = found
        if not row.history:
            assert isinstance(family, str)
            row = replace(row, history=history_of(
                self.repository.member_rating_steps(club_id, family, member_id)))
        return club, place, row

    def member_stats(self, club_id: str, token: str | None, member_id: str,
                     season_id: object = None, variant: object = None) -> StatsOf:
        """A member's statistics (either token), over the club's counted games or a
        season's (``season_id``: one of the club's seasons), of every variant or one: an
        unknown season (another club's too) or variant is a 422 naming it, every problem at
        once. A member merged into another has none of their own (they count for the
        other), nor does a forgotten one.

        The figures sum the member's rows of the club's results; a row written before
        facts were kept has its game's facts filled first (``fill_facts``), once. The rows
        and their sums are kept in the process (``_member_rows``): read again, only the rows
        written since are read and folded in."""
        club = self.get_club(club_id, token)
        member = self._member(club, member_id)
        problems = []
        season = None
        if season_id is not None:
            season = next((s for s in self.repository.seasons(club_id) if s.id == season_id),
                          None)
            if season is None:
                problems.append(Problem("season", "unknown_season", Text(
                    "club {club} has no season {season}", club=club_id,
                    season=repr(season_id))))
        variant_id = None
        if variant is not None:
            try:
                variant_id = find_variant(str(variant)).id
            except UnknownVariant:
                problems.append(Problem("variant", "unknown_variant", Text(
                    "there is no variant {variant} (the variants: {known})",
                    variant=repr(variant), known=", ".join(VARIANTS))))
        if problems:
            raise RecordInvalid(problems)
        if member.forgotten:  # their rows stay for the others' sake, theirs to no one
            return StatsOf(club, member, season, variant_id,
                           member_stats((), _counted_for(club).get, variant=variant_id))
        kept = self._member_rows(club, member_id)
        if season is not None:
            rows = list(kept.rows.values())
            events = {row.event for row in rows if row.event is not None}
            rows = counted_in(season.season, rows,
                              self.repository.evening_ends(club_id, events))
            stats = member_stats(rows, _counted_for(club).get, variant=variant_id)
        else:
            stats = folded_stats(kept.folded, variant=variant_id)
        return StatsOf(club, member, season, variant_id, stats)

    def _member_rows(self, club: StoredClub, member_id: str) -> KeptRows:
        """The member's rows and their fold, as the club's version ``club`` says whom they
        count for: from those kept, only the rows written since read (a rewritten game's old
        rows taken out of the sums, its new ones added); all of them again when the club's
        version moved, or when the rows then counting for the member are not the ones kept
        and those read (a game that no longer counts for them)."""
        key = (club.id, member_id)
        kept = self._kept.get(key)
        who = _counted_for(club).get
        if kept is not None and kept.version == club.version:
            found = self.repository.member_results(club.id, member_id, kept.written)
            if found.version == kept.version:
                if not found.rows and found.count == len(kept.rows):
                    return kept
                games = {row.game for _, _, row in found.rows}
                rows = {k: row for k, row in kept.rows.items() if k[0] not in games}
                rows.update(((row.game, seat), row) for seat, _, row in found.rows)
                if len(rows) == found.count and all(r.facts is not None for _, _, r in found.rows):
                    gone = [row for k, row in kept.rows.items() if k[0] in games]
                    written = max((w for _, w, _ in found.rows), default=kept.written)
                    kept = KeptRows(kept.version, written, rows, refold(
                        kept.folded, gone, [row for _, _, row in found.rows], who))
                    self._kept.put(key, kept)
                    return kept
        found = self.repository.member_results(club.id, member_id)
        if any(row.facts is None for _, _, row in found.rows) and self.fill_facts is not None:
            self.fill_facts({row.game for _, _, row in found.rows if row.facts is None})
            found = self.repository.member_results(club.id, member_id)
        rows = {(row.game, seat): row for seat, _, row in found.rows}
        kept = KeptRows(found.version, max((w for _, w, _ in found.rows), default=0), rows,
                        fold(rows.values(), who))
        if found.version == club.version and all(r.facts is not None for r in rows.values()):
            self._kept.put(key, kept)
        return kept

    def export(self, club_id: str, token: str | None) -> ClubExport:
        """Everything the club keeps, for its export (either token)."""
        club = self.get_club(club_id, token)
        gone = _forgotten(club)
        return ClubExport(club, self.repository.club_games(club_id),
                          [r for r in self.repository.club_results(club_id)
                           if r.counted_for not in gone],
                          self.repository.seasons(club_id),
                          self.repository.club_history(club_id))

    def links(self, club_id: str, token: str | None) -> str:
        """The members' read token again, for the secretary (edit token only)."""
        self._authorize(club_id, token, write=True)
        assert token is not None
        return club_read_token(token, club_id)

    # -- writes -----------------------------------------------------------------------------

    def link_seats(self, club_id: object, token: str | None, seats: object) -> SeatLink:
        """A new game's seats (``players``) as the club's members, with the club's edit
        token (a game's or an event's own tokens open no club: 404, as any token of
        something else). Nothing is written yet: ``seat`` does it, in the unit of work of
        the game made with them."""
        listed = list(seats) if isinstance(seats, list | tuple) else []
        return self._link(club_id, token, [(f"players[{i}]", s) for i, s in enumerate(listed)])

    def link_entrants(self, club_id: object, token: str | None,
                      entrants: object) -> EntrantLink:
        """An event's entrants as the club's members: each entrant's ``name``, or in the
        pairs format (an entrant with ``players``) each of its two players; as
        ``link_seats``."""
        where: list[tuple[int, int | None]] = []
        seats: list[tuple[str, object]] = []
        for i, entrant in enumerate(entrants if isinstance(entrants, list) else []):
            if not isinstance(entrant, Mapping):
                continue
            if isinstance(entrant.get("players"), list):
                for k, player in enumerate(entrant["players"]):
                    where.append((i, k))
                    seats.append((f"entrants[{i}].players[{k}]", player))
            else:
                where.append((i, None))
                seats.append((f"entrants[{i}].name", entrant.get("name")))
        return EntrantLink(self._link(club_id, token, seats), tuple(where))

    def link_arrival(self, club_id: str, seats: list[tuple[str, object]]) -> SeatLink:
        """An entrant arriving at a club's event (docs/events.md#the-door) as the club's
        members, as ``link_seats``: the event's door or organiser is let in by the event's
        own token (the event was made for the club with the club's)."""
        return self._link(club_id, None, seats, authorize=False)

    def get_club_name(self, club_id: str) -> str | None:
        """A club's name, for a printout of one of its events (its poster)."""
        found = self.repository.get_club(club_id)
        return found.name if found is not None else None

    def door_members(self, club_id: str, entered: set[str]) -> list[tuple[str, str]]:
        """The club's active members not among ``entered``, by name: who may yet arrive."""
        club = self._load(club_id)
        found = [(m.id, m.name) for m in club.members
                 if m.active and m.merged_into is None and not m.forgotten
                 and m.id not in entered]
        return sorted(found, key=lambda m: (member_key(m[1]), m[1], m[0]))

    def _link(self, club_id: object, token: str | None,
              seats: list[tuple[str, object]], authorize: bool = True) -> SeatLink:
        if not isinstance(club_id, str):
            raise RecordInvalid([Problem("club", "invalid_club", Text(
                "club is the id of the club the game or event is played for"))])
        if authorize:
            self._authorize(club_id, token, write=True)
        club = self._load(club_id)
        roster = [RosterEntry(m.id, m.name, m.name_key, m.merged_into, m.forgotten)
                  for m in club.members]
        return SeatLink(club, choose_members(seats, roster, looks))

    def seat(self, unit: UnitOfWork, link: SeatLink,
             joined: str) -> tuple[str | None, ...]:
        """Write ``link``'s new members to the club (each an ``add_member`` in its history,
        saying what they ``joined``: ``game g1``, ``event e1``); the member at each seat."""
        club = link.club
        if len(club.members) + len(link.choice.new) > MEMBERS_MAX:
            raise RecordInvalid([Problem("club", "too_many_members", Text(
                "a club has at most {n} members", n=MEMBERS_MAX))])
        ids: dict[int, str] = {}
        now = self.clock()
        for seat, name in link.choice.new:
            member = StoredMember(
                id=self._new_member_id(club), number=len(club.members) + 1, name=name,
                name_key=member_key(name), initials=None, active=True, joined_at=now,
                merged_into=None, forgotten=False, changed_version=club.version + 1)
            club = self._write(unit, club, (member,), "add_member", {
                "member": member.id, "name": name, "initials": None, "joined": joined}, now)
            ids[seat] = member.id
        return link.choice.with_new(ids)

    def add_season(self, unit: UnitOfWork, club_id: str, token: str | None,
                   body: Mapping[str, Any]) -> StoredSeason:
        """A season of the club (edit token): its name, dates, families and counting."""
        self._serialise(unit, club_id)
        self._authorize(club_id, token, write=True)
        club = self._load(club_id)
        spec = validate_season(body, FAMILIES)
        now = self.clock()
        taken = {s.id for s in self.repository.seasons(club_id)}
        season_id = new_game_id()
        while season_id in taken:  # pragma: no cover - a collision in a 2**49 space
            season_id = new_game_id()
        season = StoredSeason(season_id, spec, now)
        try:
            unit.clubs.add_season(club_id, expected_version=club.version, season=season,
                                  data={"season": season_id, "name": spec.name}, now=now)
        except StaleGame as error:
            raise _concurrent() from error
        return season

    def create_club(self, unit: UnitOfWork, body: Mapping[str, Any]) -> CreatedClub:
        name = validate_club_name(body.get("name"))
        edit_token = secrets.token_urlsafe(TOKEN_BYTES)
        club_id = new_game_id()
        read_token = club_read_token(edit_token, club_id)
        now = self.clock()
        club = StoredClub(club_id, name, hash_token(edit_token), hash_token(read_token), now, 1)
        try:
            unit.clubs.add_club(club, now)
        except GameIdTaken as error:  # pragma: no cover - a collision in a 2**49 space
            raise Conflict(Text("a new club's id was already taken; try again"),
                           code="concurrent_change") from error
        return CreatedClub(club, edit_token, read_token)

    def add_member(self, unit: UnitOfWork, club_id: str, token: str | None,
                   body: Mapping[str, Any]) -> tuple[StoredClub, StoredMember]:
        self._serialise(unit, club_id)
        self._authorize(club_id, token, write=True)
        club = self._load(club_id)
        change = validate_member(body, _roster(club), new=True, looks=looks)
        if len(club.members) >= MEMBERS_MAX:
            raise RecordInvalid([Problem("name", "too_many_members", Text(
                "a club has at most {n} members", n=MEMBERS_MAX))])
        assert change.name is not None
        now = self.clock()
        member = StoredMember(
            id=self._new_member_id(club), number=len(club.members) + 1, name=change.name,
            name_key=member_key(change.name), initials=change.initials, active=True,
            joined_at=now, merged_into=None, forgotten=False, changed_version=club.version + 1)
        data = {"member": member.id, "name": member.name, "initials": member.initials}
        return self._write(unit, club, (member,), "add_member", data, now), member

    def publish(self, unit: UnitOfWork, club_id: str, token: str | None,
                body: Mapping[str, Any]) -> StoredClub:
        """The secretary publishes the club (``public``: its published events, seasons'
        standings, and with ``public_ratings`` its ratings, readable without a token) or
        takes it down, at once; kept in its history. The read token may not (403)."""
        self._serialise(unit, club_id)
        self._authorize(club_id, token, write=True)
        club = self._load(club_id)
        public = bool(body.get("public", club.public))
        ratings = bool(body.get("public_ratings", club.public_ratings))
        if (public, ratings) == (club.public, club.public_ratings):
            return club
        try:
            unit.clubs.publish_club(club_id, expected_version=club.version, public=public,
                                    public_ratings=ratings,
                                    data={"public": public, "public_ratings": ratings},
                                    now=self.clock())
        except StaleGame as error:
            raise _concurrent() from error
        return replace(club, public=public, public_ratings=ratings, version=club.version + 1)

    def public_state(self, club_id: str) -> tuple[int, int, bool, str]:
        """A published club's state (``public_club_state``); 404 for one not published, as
        for one that does not exist."""
        state = self.repository.public_club_state(club_id)
        if state is None:
            raise _unpublished(club_id)
        return state

    def public_club(self, club_id: str) -> StoredClub:
        """A published club (404 when not published)."""
        club = self.repository.get_club(club_id)
        if club is None or not club.public:
            raise _unpublished(club_id)
        return club

    def change_member(self, unit: UnitOfWork, club_id: str, token: str | None,
                      member_id: str, body: Mapping[str, Any],
                      if_match: Collection[str] | None) -> tuple[StoredClub, StoredMember]:
        """Rename a member, change or drop their initials, deactivate or reactivate them.
        ``If-Match`` is optional: when sent, it must name the member as they are now."""
        self._serialise(unit, club_id)
        self._authorize(club_id, token, write=True)
        club = self._load(club_id)
        member = self._member(club, member_id)
        self._check_if_match(club, member, if_match)
        change = validate_member(body, _roster(club), member=member.id, new=False,
                                 looks=looks)
        if member.forgotten and (change.name is not None or change.initials is not None):
            raise Conflict(Text("a forgotten member keeps their neutral name"),
                           code="member_forgotten")
        changed = member
        data: dict[str, Any] = {"member": member.id}
        if change.name is not None and change.name != member.name:
            changed = replace(changed, name=change.name, name_key=member_key(change.name))
            data.update(before=member.name, after=change.name)
        if change.initials_given and change.initials != member.initials:
            changed = replace(changed, initials=change.initials)
            data["initials"] = change.initials
        if change.active is not None and change.active != member.active:
            changed = replace(changed, active=change.active)
            data["active"] = change.active
        if isinstance(body.get("public"), bool) and body["public"] != member.public:
            changed = replace(changed, public=body["public"])  # on public pages: initials
            data["public"] = body["public"]
        if changed == member:
            return club, member  # nothing to change: nothing written
        now = self.clock()
        changed = replace(changed, changed_version=club.version + 1)
        club = self._write(unit, club, (changed,), "change_member", data, now)
        if changed.name != member.name:
            _show_names(unit, club)
        return club, changed

    def merge(self, unit: UnitOfWork, club_id: str, token: str | None, member_id: str,
              into: object) -> tuple[StoredClub, StoredMember]:
        """Member ``member_id`` found to be ``into``: it leaves the roster, kept merged
        (``merged_into``) so the merge can be undone."""
        self._serialise(unit, club_id)
        self._authorize(club_id, token, write=True)
        club = self._load(club_id)
        member = self._member(club, member_id)
        if member.forgotten:
            raise Conflict(Text("a forgotten member cannot be merged"), code="member_forgotten")
        if member.merged_into is not None:
            raise Conflict(Text("this member is already merged into {into}",
                                into=member.merged_into), code="already_merged")
        merge_problems(member.id, into, {m.id: _state(m) for m in club.members})
        assert isinstance(into, str)
        met = self.repository.shared_game(club_id, member.id, into)
        if met is not None:
            raise RecordInvalid([Problem("into", "members_met", Text(
                "{member} and {into} sat at the same table (game {game}): they are two "
                "people", member=member.name, into=self._member(club, into).name, game=met))])
        now = self.clock()
        merged = replace(member, merged_into=into, changed_version=club.version + 1)
        club = self._write(unit, club, (merged,), "merge", {"member": member.id, "into": into},
                           now)
        unit.clubs.recount_member(club.id, member.id, into)
        _show_names(unit, club)
        rerate_member(unit.clubs, club.id, member.id)
        return club, merged

    def unmerge(self, unit: UnitOfWork, club_id: str, token: str | None,
                member_id: str) -> tuple[StoredClub, StoredMember]:
        """Undo a merge: the member back on the roster as they were."""
        self._serialise(unit, club_id)
        self._authorize(club_id, token, write=True)
        club = self._load(club_id)
        member = self._member(club, member_id)
        if member.merged_into is None:
            raise Conflict(Text("this member is not merged into another"), code="not_merged")
        if self._member(club, member.merged_into).forgotten:
            raise Conflict(Text("this member was merged into a member since forgotten: "
                                "forgotten with them, they cannot be unmerged"),
                           code="member_forgotten")
        now = self.clock()
        restored = replace(member, merged_into=None, changed_version=club.version + 1)
        club = self._write(unit, club, (restored,), "unmerge",
                           {"member": member.id, "from": member.merged_into}, now)
        unit.clubs.recount_member(club.id, member.id, member.id)
        _show_names(unit, club)
        rerate_member(unit.clubs, club.id, member.id)
        return club, restored

    def forget(self, unit: UnitOfWork, club_id: str, token: str | None,
               member_id: str) -> tuple[StoredClub, StoredMember]:
        """Forget a member, for good: their name becomes "Player N", their initials go, and
        the history keeps that it happened without the name (nor any earlier one)."""
        self._serialise(unit, club_id)
        self._authorize(club_id, token, write=True)
        club = self._load(club_id)
        member = self._member(club, member_id)
        if member.forgotten:
            raise Conflict(Text("this member is already forgotten"), code="member_forgotten")
        name, key = _neutral_name(club, member)
        now = self.clock()
        forgotten = replace(member, name=name, name_key=key, initials=None, forgotten=True,
                            changed_version=club.version + 1)
        club = self._write(unit, club, (forgotten,), "forget",
                           {"member": member.id, "number": member.number}, now,
                           forget=member.id)
        # A forgotten member's rows count for whom they counted for before (themselves, or
        # the member they were found to be): the games stay whole, everyone else's figures
        # and ratings do not move, and the rows are shown for nobody once that member is
        # forgotten.
        unit.clubs.recount_member(club.id, member.id, member.merged_into or member.id)
        unit.clubs.withdraw_replays(club.id, member.id)
        club = self._forget_merged_into(unit, club, member.id, now)
        _show_names(unit, club)
        rerate_member(unit.clubs, club.id, member.id)
        return club, forgotten

    def _forget_merged_into(self, unit: UnitOfWork, club: StoredClub, member_id: str,
                            now: datetime) -> StoredClub:
        """The members merged into a member being forgotten are forgotten with them: found
        to be the same person, their names are that person's names too. Each becomes
        "Player N" (N their own number) in the roster, their games and events, the history
        (a ``forget`` saying ``with`` whom) and the kept first responses, as the member's
        own. Whichever of a merge and a forget comes first, no member is left merged into a
        forgotten one under a name of their own."""
        for other in [m for m in club.members if m.merged_into == member_id
                      and not m.forgotten]:
            name, key = _neutral_name(club, other)
            gone = replace(other, name=name, name_key=key, initials=None, forgotten=True,
                           changed_version=club.version + 1)
            club = self._write(unit, club, (gone,), "forget",
                               {"member": other.id, "number": other.number,
                                "with": member_id}, now, forget=other.id)
            unit.clubs.withdraw_replays(club.id, other.id)
        return club

    # -- internals --------------------------------------------------------------------------

    @staticmethod
    def _serialise(unit: UnitOfWork, club_id: str) -> None:
        """A change to the club's roster or seasons waits for any other one to end, before
        it reads the club: what it checks (who is forgotten, merged, named so) is then what
        it writes over, and two changes at once end as one after the other would, instead of
        the second losing the club's compare-and-set and, past a few tries, the client
        getting a 409."""
        unit.clubs.lock_club(club_id)

    def _write(self, unit: UnitOfWork, club: StoredClub, members: tuple[StoredMember, ...],
               action: str, data: dict[str, Any], now: datetime,
               forget: str | None = None) -> StoredClub:
        try:
            unit.clubs.change_members(club.id, expected_version=club.version,
                                      members=members, action=action, data=data, now=now,
                                      forget=forget)
        except StaleGame as error:
            raise _concurrent() from error
        by_id = {m.id: m for m in club.members}
        by_id.update({m.id: m for m in members})
        return replace(club, version=club.version + 1,
                       members=tuple(sorted(by_id.values(), key=lambda m: m.number)))

    def _load(self, club_id: str) -> StoredClub:
        club = self.repository.get_club(club_id)
        if club is None:
            raise ClubNotFound(Text("there is no club {club} for this token",
                                    club=repr(club_id)))
        return club

    @staticmethod
    def _member(club: StoredClub, member_id: str) -> StoredMember:
        found = next((m for m in club.members if m.id == member_id), None)
        if found is None:
            raise NotFound(Text("club {club} has no member {member}", club=club.id,
                                member=repr(member_id)))
        return found

    @staticmethod
    def _check_if_match(club: StoredClub, member: StoredMember,
                        if_match: Collection[str] | None) -> None:
        if if_match is None or ANY_VERSION in if_match:
            return
        if member_etag(club.id, member) not in if_match:
            raise PreconditionFailed(Text(
                "the member changed since the ETag sent; read them again"))

    @staticmethod
    def _new_member_id(club: StoredClub) -> str:
        taken = {m.id for m in club.members}
        while True:
            found = new_game_id()
            if found not in taken:
                return found


def _neutral_name(club: StoredClub, member: StoredMember) -> tuple[str, str]:
    """The name a member is forgotten under ("Player N", N their number) and its key. The
    label cannot be someone else's name: were "Player N" taken, it says the member's id
    too."""
    label = forgotten_label(member.number)
    taken = next((m for m in club.members
                  if m.id != member.id and m.name_key == member_key(label)), None)
    if taken is not None:
        label = f"{label} ({member.id})"
    return label, member_key(label)


def _roster(club: StoredClub) -> list[RosterName]:
    """Every name of the club, merged and forgotten members' too: none can be taken again,
    nor one that looks like it (``looks``)."""
    return [RosterName(m.id, m.name_key, m.name, looks(m.name)) for m in club.members]


def _counted_for(club: StoredClub) -> dict[str, str | None]:
    """Each member's id to the member their results count for now: themselves, or the one
    they were merged into, forgotten or not (a forget changes no one's games: the results of
    a forgotten member are shown as "Player N" where others met them and nowhere as their
    own; ``ClubRepository.member_states``, from the roster already read)."""
    return {m.id: m.merged_into or m.id for m in club.members}


def _forgotten(club: StoredClub) -> set[str]:
    """The members whose results are shown for nobody: the forgotten (a member merged into
    one counts for them, so is forgotten with them)."""
    return {m.id for m in club.members if m.forgotten}


def _show_names(unit: UnitOfWork, club: StoredClub) -> None:
    """Every seat and entrant of the club's games and events named as the roster ``club``
    says now: a member by the name of the member they count for (a merged member's games
    show the kept member's name, until the merge is undone; a forgotten member's, and those
    of a member merged into them, "Player N")."""
    names = {m.id: m.name for m in club.members}
    show_names(unit, club.id, {
        m.id: names[target] for m in club.members
        if (target := _counted_for(club)[m.id]) is not None})


def _state(member: StoredMember) -> str:
    if member.forgotten:
        return "forgotten"
    return "merged" if member.merged_into is not None else "member"


def member_status(member: StoredMember) -> str:
    """``active``, ``inactive``, ``merged`` or ``forgotten``."""
    if member.forgotten:
        return "forgotten"
    if member.merged_into is not None:
        return "merged"
    return "active" if member.active else "inactive"


__all__ = ["FAMILIES", "ClubExport", "ClubNotFound", "ClubService", "CreatedClub", "EntrantLink",
           "SeatLink", "StatsOf", "club_etag",
           "club_read_token", "member_etag", "member_status", "results_etag"]
