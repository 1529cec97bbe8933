"""Clubs and their members (docs/clubs.md): a club, its roster (add, rename,
initials, deactivate, merge and undo it, forget), its history, its seasons and their
standings (JSON, CSV, PDF), and its export (roster, games, results, seasons). Thin views
over ``service.application.clubs``."""

from __future__ import annotations

import csv
import functools
import hashlib
import io
from collections.abc import Callable
from decimal import Decimal
from typing import Any, TypeVar

from flask import Response, current_app, request, url_for
from flask.views import MethodView

from service.application.caches import LruCache
from service.application.clubs import (
    FAMILIES,
    StatsOf,
    member_etag,
    member_status,
)
from service.application.language import Speaker
from service.application.ports import (
    ClubGame,
    StoredClub,
    StoredMember,
    StoredSeason,
)
from service.application.printouts import build_season_sheet
from service.application.public import RECENT
from service.application.ratings import FamilyRatings, MemberRating, newcomer, shown_rating
from service.application.unit_of_work import UnitOfWork
from service.domain import FEW_GAMES, ClubResult, RunningLine, decimal_json
from service.locale import translations

from ..language import request_language
from ..paths import API_PREFIX
from ..schemas.clubs import (
    ClubCreateSchema,
    ClubExportSchema,
    ClubHistorySchema,
    ClubLinksSchema,
    ClubPublishSchema,
    ClubSchema,
    CreatedClubSchema,
    MemberChangeSchema,
    MemberCreateSchema,
    MemberRatingHistorySchema,
    MemberSchema,
    MembersSchema,
    MemberStatsSchema,
    MergeSchema,
    RatingsQuerySchema,
    RatingsSchema,
    SeasonCreateSchema,
    SeasonSchema,
    SeasonsSchema,
    SeasonStandingsSchema,
    StatsQuerySchema,
)
from ..smorest import Blueprint
from .common import (
    action_json,
    attachment,
    bearer_token,
    club_service,
    conditional_read,
    creates,
    if_match,
    inert,
    json_body,
    printed,
    prints_standings,
    quoted,
    stacked,
    standings_csv,
    standings_rows,
    token_protected,
    write,
)
from .games import kept_json, not_modified, weak
from .keycards import keycard_pdf, prints_keycard

blp = Blueprint(
    "clubs",
    __name__,
    url_prefix=f"{API_PREFIX}/clubs",
    description="Clubs: a roster of members kept from evening to evening (need the club's "
                "token)",
)

ACCESS_HEADER = "Club-Access"
READ_HEADERS = {ACCESS_HEADER: {"description": "`edit` for the secretary's token, `read` for "
                                               "the members'",
                                "schema": {"type": "string", "enum": ["edit", "read"]}}}
ETAG_HEADER = {"ETag": {"description": "the member as they are now (for If-Match)",
                        "schema": {"type": "string"}}}
F = TypeVar("F", bound=Callable[..., Any])


club_protected = token_protected(club_service, "club_id")


# -- serialisation --------------------------------------------------------------------------


def club_link(club_id: str, token: str) -> str:
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return f"{base.rstrip('/')}/#/clubs/{club_id}?token={token}"


def member_json(member: StoredMember) -> dict[str, Any]:
    return {
        "id": member.id,
        "number": member.number,
        "name": member.name,
        "initials": member.initials,
        "active": member.active,
        "status": member_status(member),
        "merged_into": member.merged_into,
        "joined_at": member.joined_at.isoformat(),
        "public": member.public,
    }


def club_json(club: StoredClub) -> dict[str, Any]:
    return {"id": club.id, "name": club.name,
            "members": [member_json(m) for m in club.members],
            "public": club.public, "public_ratings": club.public_ratings,
            "created_at": club.created_at.isoformat(), "version": club.version}


def _member_response(club: StoredClub, member: StoredMember, status: int = 200) -> Any:
    headers = {"ETag": quoted(member_etag(club.id, member))}
    if status == 201:
        headers["Location"] = url_for("clubs.Member", club_id=club.id, member_id=member.id)
    return member_json(member), status, headers


#: The JSON bodies of members' statistics recently read, by their entity tag (the club's
#: version and the member's rows' state, or over a season the club's results' version; what
#: was asked; the language), in this process: read again while nothing they say moved, a
#: member's statistics cost what a game's read costs (GET /games/{id} is answered from its
#: body kept by version the same way).
_BODIES: LruCache[str, bytes] = LruCache(4 * 1024 * 1024, weight=len)


def _conditional(club_id: str, variant: str, build: Callable[[], dict[str, Any]], *,
                 results: bool = False) -> Response:
    """A read answered by the club's version (``results``: and its results' version): 304
    while the client has it."""
    service = club_service()
    state, kind = (service.results_tag(club_id, bearer_token()) if results
                   else service.state_tag(club_id, bearer_token()))
    tag = f"{state}-{variant}"
    response: Response
    if request.if_none_match and request.if_none_match.contains_weak(tag):
        response = not_modified(tag, weak=True)
    else:
        response = current_app.json.response(build())  # type: ignore[assignment]
        response.headers["ETag"] = weak(tag)
    response.headers[ACCESS_HEADER] = kind
    return response


def _kept(tag: str, kind: str, build: Callable[[], dict[str, Any]]) -> Response:
    """A read by its entity tag: 304 while the client has it, else its body, made once per
    tag in this process (``_BODIES``)."""
    response = kept_json(_BODIES, tag, build)
    response.headers[ACCESS_HEADER] = kind
    return response


# -- resources ------------------------------------------------------------------------------


@blp.route("")
class Clubs(MethodView):
    @creates(blp, ClubCreateSchema, CreatedClubSchema)
    def post(self, body: dict[str, Any], unit: UnitOfWork) -> Any:
        """Found a club

        A club with its name and no members yet. The secretary's edit token and the members'
        read token are shown here, and again to the edit token (`GET /clubs/{id}/links`).
        """
        created = club_service().create_club(unit, body)
        club = created.club
        data = club_json(club)
        data["tokens"] = {"edit": created.edit_token, "read": created.read_token}
        data["links"] = {"edit": club_link(club.id, created.edit_token),
                         "read": club_link(club.id, created.read_token)}
        return data, 201, {"Location": url_for("clubs.Club", club_id=club.id)}


@blp.route("/<id:club_id>")
class Club(MethodView):
    @conditional_read(blp, club_protected, ClubSchema, READ_HEADERS,
                      "the club is as the ETag sent")
    def get(self, club_id: str) -> Any:
        """Read a club

        Its name and every member (active, inactive, merged, forgotten). Either token opens
        it.
        """
        return _conditional(club_id, "club", lambda: club_json(
            club_service().get_club(club_id, bearer_token())))

    @club_protected(blp, write=True, check_first=True)
    @write(blp)
    @json_body(blp)
    @blp.arguments(ClubPublishSchema)
    @blp.response(200, ClubSchema)
    def patch(self, body: dict[str, Any], club_id: str, unit: UnitOfWork) -> Any:
        """Publish a club, or take it down

        `public: true` (the secretary's edit token) makes the club's published events and
        its seasons' standings readable by anyone without a token, at
        `/api/v1/public/clubs/{id}` and as a page at `/results/clubs/{id}`;
        `public_ratings: true` adds its ratings; `false` takes them down at once. A member
        with `public: false` is named there by their initials. The read token may not
        (403). Kept in the history (`publish`).
        """
        club = club_service().publish(unit, club_id, bearer_token(), body)
        RECENT.forget(f"club:{club_id}")
        return club_json(club)


@blp.route("/<id:club_id>/links")
class ClubLinks(MethodView):
    @club_protected(blp, write=True)
    @blp.response(200, ClubLinksSchema)
    def get(self, club_id: str) -> Any:
        """Show the club's links again

        The members' read token and both links, for the edit token only (the read token is
        worked out from it).
        """
        token = bearer_token()
        read = club_service().links(club_id, token)
        assert token is not None
        return {"tokens": {"read": read},
                "links": {"edit": club_link(club_id, token), "read": club_link(club_id, read)}}


@blp.route("/<id:club_id>/keycard.pdf")
class ClubKeyCard(MethodView):
    @prints_keycard(blp, club_protected)
    def get(self, query: dict[str, Any], club_id: str) -> Any:
        """Print the club's key card

        The secretary's link as a QR code and as text on one A6 page, with what it opens and
        to keep it safe: opened on a new phone, it brings the club back as its secretary.
        The edit token only; `lang=it` prints it in Italian, else the reader's language.
        """
        token = bearer_token()
        service = club_service()
        service.authorize(club_id, token, write=True)
        club = service.get_club(club_id, token)
        assert token is not None
        return keycard_pdf("club", club_id, club.name, club_link(club_id, token), query,
                           service.clock())


@blp.route("/<id:club_id>/members")
class Members(MethodView):
    @conditional_read(blp, club_protected, MembersSchema, READ_HEADERS,
                      "the roster is as the ETag sent")
    def get(self, club_id: str) -> Any:
        """Read the roster

        Every member in the order they joined, active and inactive, merged and forgotten
        ones too (with their `status`). Either token.
        """
        return _conditional(club_id, "members", lambda: {
            "club_id": club_id,
            "members": [member_json(m) for m in
                        club_service().get_club(club_id, bearer_token()).members]})

    @club_protected(blp, write=True, check_first=True)
    @creates(blp, MemberCreateSchema, MemberSchema, ETAG_HEADER)
    def post(self, body: dict[str, Any], club_id: str, unit: UnitOfWork) -> Any:
        """Add a member

        A name unique in the club (compared without case, accents or invisible characters:
        a duplicate is 422 on `name`) and optional initials. Kept in the history.
        """
        club, member = club_service().add_member(unit, club_id, bearer_token(), body)
        return _member_response(club, member, 201)


@blp.route("/<id:club_id>/members/<id:member_id>")
class Member(MethodView):
    @club_protected(blp, write=False)
    @blp.response(200, MemberSchema, headers=ETAG_HEADER)
    def get(self, club_id: str, member_id: str) -> Any:
        """Read a member

        The member as the roster shows them, with their `ETag` (for `If-Match`).
        """
        return _member_response(*club_service().get_member(club_id, bearer_token(),
                                                           member_id))

    @club_protected(blp, write=True, check_first=True)
    @write(blp)
    @json_body(blp)
    @blp.arguments(MemberChangeSchema)
    @blp.response(200, MemberSchema, headers=ETAG_HEADER)
    @blp.alt_response(409, response="CONFLICT")
    @blp.alt_response(412, response="PRECONDITION_FAILED")
    def patch(self, body: dict[str, Any], club_id: str, member_id: str,
              unit: UnitOfWork) -> Any:
        """Change a member

        Rename them (`name`: the member and every result stay theirs), change or drop their
        initials, deactivate (`active: false`) or reactivate them. `If-Match` is optional:
        when sent it must be the member's current `ETag` (412 otherwise). Kept in the
        history.
        """
        club, member = club_service().change_member(unit, club_id, bearer_token(), member_id,
                                                    body, if_match())
        return _member_response(club, member)


@blp.route("/<id:club_id>/members/<id:member_id>/merge")
class MergeMember(MethodView):
    @club_protected(blp, write=True, check_first=True)
    @write(blp, idempotent=True)
    @json_body(blp)
    @blp.arguments(MergeSchema)
    @blp.response(200, MemberSchema, headers=ETAG_HEADER)
    @blp.alt_response(409, response="CONFLICT")
    def post(self, body: dict[str, Any], club_id: str, member_id: str,
             unit: UnitOfWork) -> Any:
        """Merge a member into another

        Two members found to be one person: this one leaves the roster (`status` `merged`,
        `merged_into` the other). Kept in the history and undone by
        `POST …/members/{m}/unmerge`. Merging a member into itself, or into a member not on
        the roster, is 422 on `into`.
        """
        club, member = club_service().merge(unit, club_id, bearer_token(), member_id,
                                            body.get("into"))
        return _member_response(club, member)


#: What the secretary does to a member with no body (undo a merge, forget): the edit token,
#: keyed, the member as they are after it; 409 when it cannot be done to them.
member_action = stacked(club_protected(blp, write=True, check_first=True),
                        write(blp, idempotent=True),
                        blp.response(200, MemberSchema, headers=ETAG_HEADER),
                        blp.alt_response(409, response="CONFLICT"))


@blp.route("/<id:club_id>/members/<id:member_id>/unmerge")
class UnmergeMember(MethodView):
    @member_action
    def post(self, club_id: str, member_id: str, unit: UnitOfWork) -> Any:
        """Undo a merge

        The merged member back on the roster as they were before the merge (409 if not
        merged). Kept in the history. Takes no body.
        """
        club, member = club_service().unmerge(unit, club_id, bearer_token(), member_id)
        return _member_response(club, member)


@blp.route("/<id:club_id>/members/<id:member_id>/forget")
class ForgetMember(MethodView):
    @member_action
    def post(self, club_id: str, member_id: str, unit: UnitOfWork) -> Any:
        """Forget a member

        For good, with the edit token only: their name becomes "Player N" (N their number),
        their initials go, and the history keeps that they were forgotten without their name
        (their earlier actions lose it too). Cannot be undone. Takes no body.
        """
        club, member = club_service().forget(unit, club_id, bearer_token(), member_id)
        return _member_response(club, member)


@blp.route("/<id:club_id>/history")
class ClubHistory(MethodView):
    @club_protected(blp, write=False)
    @blp.response(200, ClubHistorySchema)
    def get(self, club_id: str) -> Any:
        """Read the club's history

        Every change in order: founded, each member added, changed (renamed, initials,
        deactivated or reactivated), merged, unmerged or forgotten.
        """
        return {"club_id": club_id, "actions": _history_json(club_id)}


def _history_json(club_id: str) -> list[dict[str, Any]]:
    return [action_json(a) for a in club_service().history(club_id, bearer_token())]


def season_json(season: StoredSeason) -> dict[str, Any]:
    spec = season.season
    return {"id": season.id, "name": spec.name, "from": spec.date_from.isoformat(),
            "to": spec.date_to.isoformat(), "families": list(spec.families),
            "counting": spec.counting, "n": spec.best_n,
            "created_at": season.created_at.isoformat()}


def result_json(row: ClubResult) -> dict[str, Any]:
    return {"game": row.game, "seat": row.seat, "member": row.member,
            "counted_for": row.counted_for, "event": row.event, "round": row.round,
            "table": row.table, "family": row.family, "variant": row.variant,
            "finished_at": row.finished_at.isoformat(), "column": row.column,
            "place": row.place, "shared": row.shared, "partners": list(row.partners),
            "opponents": list(row.opponents), "totals": list(row.totals),
            "points": row.points, "hands": row.hands, "marca": row.marca, "state": row.state}


def club_game_json(game: ClubGame) -> dict[str, Any]:
    return {"id": game.id, "variant": game.variant, "players": list(game.players),
            "members": list(game.seat_members), "created_at": game.created_at.isoformat(),
            "event": ({"id": game.event[0], "round": game.event[1], "table": game.event[2]}
                      if game.event else None),
            "ended_at": game.ended_at.isoformat() if game.ended_at else None}


@blp.route("/<id:club_id>/seasons")
class Seasons(MethodView):
    @club_protected(blp, write=False)
    @blp.response(200, SeasonsSchema)
    def get(self, club_id: str) -> Any:
        """List the club's seasons

        Every season, oldest first. Either token.
        """
        return {"club_id": club_id, "seasons": [
            season_json(s) for s in club_service().seasons(club_id, bearer_token())]}

    @club_protected(blp, write=True, check_first=True)
    @creates(blp, SeasonCreateSchema, SeasonSchema)
    def post(self, body: dict[str, Any], club_id: str, unit: UnitOfWork) -> Any:
        """Open a season

        A name, its first and last days (`from`, `to`, both counted), the families it
        counts (none: all) and how (`counting`: `sum` of match points, `best_n` with `n`, or
        `average` per evening). It counts the club's games and events of its families
        that finished within its dates. Reversed dates, an unknown family: 422 naming
        each. Kept in the club's history.
        """
        raw = {("from" if k == "from_" else k): v for k, v in body.items()}
        season = club_service().add_season(unit, club_id, bearer_token(), raw)
        return season_json(season), 201, {"Location": url_for(
            "clubs.Season", club_id=club_id, season_id=season.id)}


@blp.route("/<id:club_id>/seasons/<id:season_id>")
class Season(MethodView):
    @club_protected(blp, write=False)
    @blp.response(200, SeasonSchema)
    def get(self, club_id: str, season_id: str) -> Any:
        """Read a season

        Its name, dates, families and counting. Either token.
        """
        return season_json(club_service().season(club_id, bearer_token(), season_id))


def _standings_json(club_id: str, season_id: str) -> dict[str, Any]:
    club, season, found = club_service().standings(club_id, bearer_token(), season_id)
    names = _entrant_names(club, found.members)
    rows = standings_rows(found.standings, names)
    for row in rows:
        row["member"] = found.members[row["number"]]
    return {"season": season_json(season), "rows": rows,
            "evenings": [e.to_json() for e in found.evenings],
            "leaders": [leader_json(line, found.members, names) for line in found.leaders]}


def leader_json(line: RunningLine, members: tuple[str, ...], names: list[str]) -> dict[str, Any]:
    """One leading member's match points at the season's start and after each evening."""
    return {"member": members[line.entrant], "entrant": names[line.entrant],
            "running": [None if v is None else decimal_json(Decimal(v)) for v in line.values]}


def _entrant_names(club: StoredClub, members: tuple[str, ...]) -> list[str]:
    by_id = {m.id: m.name for m in club.members}
    return [by_id[m] for m in members]


@blp.route("/<id:club_id>/seasons/<id:season_id>/standings")
class SeasonStandings(MethodView):
    @conditional_read(blp, club_protected, SeasonStandingsSchema, READ_HEADERS,
                      "nothing the season counts changed since the ETag sent")
    def get(self, club_id: str, season_id: str) -> Any:
        """Read a season's standings

        Every member's place, match points, difference and points (averages with `average`),
        round by round (each game, each round of an event), and how each place was reached,
        as an event's standings are; ties as in an event. Either token; a weak `ETag` that
        moves with every counted result and every change to the club (304 while unchanged).
        """
        return _conditional(club_id, f"season-{season_id}-{request_language()}",
                            lambda: _standings_json(club_id, season_id), results=True)


@blp.route("/<id:club_id>/seasons/<id:season_id>/standings.csv")
class SeasonStandingsCsv(MethodView):
    @club_protected(blp, write=False)
    @blp.response(200, {"type": "string"}, content_type="text/csv",
                  description="The standings, a row per member and a column per round")
    def get(self, club_id: str, season_id: str) -> Any:
        """Export a season's standings as CSV

        A row per member: place, name, number, match points, difference, points, then each
        round's match points.
        """
        club, _, found = club_service().standings(club_id, bearer_token(), season_id)
        return standings_csv(found.standings, _entrant_names(club, found.members),
                             [n for e in found.evenings for n in e.rounds],
                             f"segnapunti-season-{season_id}.csv")


@blp.route("/<id:club_id>/seasons/<id:season_id>/standings.pdf")
class SeasonStandingsPdf(MethodView):
    @prints_standings(blp, club_protected, "The season's standings, A4")
    def get(self, query: dict[str, Any], club_id: str, season_id: str) -> Any:
        """Print a season's standings

        The places, the evenings counted and how each place was reached, as an event's
        printed standings. `lang=it` prints it in Italian.
        """
        lang = query.get("lang", "en")
        service = club_service()
        club, season, found = service.standings(club_id, bearer_token(), season_id)
        sheet = build_season_sheet(
            club.name, season.season, found, _entrant_names(club, found.members), lang,
            service.clock(), Speaker(lang, None, translations(lang)),
            f"segnapunti-season-{season_id}.pdf")
        return printed(sheet)


@blp.route("/<id:club_id>.json")
class ClubExport(MethodView):
    @club_protected(blp, write=False)
    @blp.response(200, ClubExportSchema)
    def get(self, club_id: str) -> Any:
        """Export the club as JSON

        The club's roster (as `GET /clubs/{id}` gives it), its games (the members at each
        seat), its results (a row per member and counted game, in finishing order), its
        seasons and its history, as one file. A forgotten member is "Player N" throughout.
        """
        found = club_service().export(club_id, bearer_token())
        body = {**club_json(found.club), "export": "club",
                "games": [club_game_json(game) for game in found.games],
                "results": [result_json(r) for r in found.results],
                "seasons": [season_json(s) for s in found.seasons],
                "history": [action_json(a) for a in found.history]}
        response = current_app.json.response(body)
        response.headers["Content-Disposition"] = (
            f'attachment; filename="segnapunti-club-{club_id}.json"')
        return response


CSV_COLUMNS = ("number", "id", "name", "initials", "status", "merged_into", "joined_at")
GAME_COLUMNS = ("game", "variant", "created_at", "event", "round", "table", "ended_at",
                "seat", "player", "member")
RESULT_COLUMNS = ("game", "seat", "member", "counted_for", "event", "round", "table",
                  "family", "variant", "finished_at", "place", "shared", "points", "hands",
                  "marca", "state")
SEASON_COLUMNS = ("season", "name", "from", "to", "families", "counting", "n")


@blp.route("/<id:club_id>.csv")
class ClubCsv(MethodView):
    @club_protected(blp, write=False)
    @blp.response(200, {"type": "string"}, content_type="text/csv",
                  description="The roster, then the games, the results and the seasons")
    def get(self, club_id: str) -> Any:
        """Export the club as CSV

        Four tables one after the other, each with its header, a blank line between: the
        roster (a row per member: number, id, name, initials, status, merged into, joined),
        the games (a row per seat: the player's name now and their member), the results (a
        row per member and counted game) and the seasons.
        """
        found = club_service().export(club_id, bearer_token())
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(CSV_COLUMNS)
        for m in found.club.members:
            writer.writerow([m.number, m.id, inert(m.name), inert(m.initials or ""),
                             member_status(m), m.merged_into or "", m.joined_at.isoformat()])
        writer.writerow([])
        writer.writerow(GAME_COLUMNS)
        for game in found.games:
            event = game.event or ("", "", "")
            for seat, name in enumerate(game.players):
                writer.writerow([game.id, game.variant, game.created_at.isoformat(), *event,
                                 game.ended_at.isoformat() if game.ended_at else "", seat,
                                 inert(name),
                                 (game.seat_members[seat] if seat < len(game.seat_members) else "")
                                 or ""])
        writer.writerow([])
        writer.writerow(RESULT_COLUMNS)
        for r in found.results:
            writer.writerow([r.game, r.seat, r.member, r.counted_for, r.event or "",
                             r.round or "", r.table or "", r.family, r.variant,
                             r.finished_at.isoformat(), r.place, r.shared, r.points, r.hands,
                             "" if r.marca is None else r.marca, r.state])
        writer.writerow([])
        writer.writerow(SEASON_COLUMNS)
        for s in found.seasons:
            spec = s.season
            writer.writerow([s.id, inert(spec.name), spec.date_from.isoformat(),
                             spec.date_to.isoformat(), " ".join(spec.families),
                             spec.counting, spec.best_n or ""])
        return attachment(out.getvalue(), "text/csv", f"segnapunti-club-{club_id}.csv")


# -- ratings ---------------------------------------------------------------------------------

#: What the ratings say of themselves.
RATINGS_MODEL = "Plackett–Luce (openskill), recomputed in finishing order"
RATINGS_SCALE = "1000 + 40·(mu − 3σ)"


def _rating_json(row: MemberRating, place: int, names: dict[str, str]) -> dict[str, Any]:
    return {"place": place, "member": {"id": row.member, "name": names.get(row.member, "")},
            **_rating_figures(row)}


@functools.lru_cache(maxsize=4096)
def _rating_figures(row: MemberRating) -> dict[str, Any]:
    """A rating's figures as the API says them: the same rating says the same each read
    (a game moves the ratings of its few players only), so they are made once. The
    caller copies them into its row and never changes them."""
    return {"rating": row.shown, "certainty": round(100 * row.certainty),
            "mu": round(row.mu, 3), "sigma": round(row.sigma, 3), "games": row.games,
            "last_change": round(row.last_change), "last_game": row.last_game,
            "last_played": row.last_played.isoformat()}


def _results_read(schema: Any, query: Any) -> Callable[[F], F]:
    """A read of what the club's counted results make (its ratings, a member's ratings and
    statistics), asked by a query: either token; 304 while no counted result changed."""
    return stacked(conditional_read(blp, club_protected, schema, READ_HEADERS,
                                    "no counted result of the club changed since the ETag "
                                    "sent"),
                   blp.arguments(query, location="query"))


def _ratings(club_id: str, family: object) -> tuple[FamilyRatings, dict[str, str]]:
    club, table = club_service().ratings(club_id, bearer_token(), family)
    return table, {m.id: m.name for m in club.members}


@blp.route("/<id:club_id>/ratings")
class Ratings(MethodView):
    @_results_read(RatingsSchema, RatingsQuerySchema)
    def get(self, query: dict[str, Any], club_id: str) -> Any:
        """Read the club's ratings in a family

        A Bayesian skill rating per member (openskill's Plackett–Luce model): a pair game
        rates its sides, a game of players on their own their places. Recomputed from the
        club's counted games in the order they finished, so a correction to an old game moves
        every later rating the same way every time. `rating` is the conservative
        `mu − 3σ` on a scale where a newcomer is 1000; `certainty` says how sure it is. Either
        token; a weak `ETag` that moves with every counted result (304 while unchanged).
        """
        family = query.get("family")

        def build() -> dict[str, Any]:
            table, names = _ratings(club_id, family)
            return {"family": table.family, "model": RATINGS_MODEL, "scale": RATINGS_SCALE,
                    "games": table.games,
                    "ratings": [_rating_json(row, place, names)
                                for place, row in enumerate(table.members, start=1)]}

        if family in FAMILIES:  # the body kept by its tag, as a member's statistics are
            state, kind = club_service().results_tag(club_id, bearer_token())
            return _kept(f"{state}-ratings-{family}", kind, build)
        return _conditional(club_id, f"ratings-{family}", build, results=True)


@blp.route("/<id:club_id>/members/<id:member_id>/ratings")
class MemberRatings(MethodView):
    @_results_read(MemberRatingHistorySchema, RatingsQuerySchema)
    def get(self, query: dict[str, Any], club_id: str, member_id: str) -> Any:
        """Read a member's rating in a family, game by game

        The member's row of the ratings and their rating after each of their games, in the
        order the games finished: what the member's chart draws. A member who has played no
        game of the family has a newcomer's rating (1000, certainty 0) and no history. Either
        token.
        """
        family = query.get("family")

        def build() -> dict[str, Any]:
            club, place, row = club_service().member_rating(club_id, bearer_token(),
                                                            member_id, family)
            names = {m.id: m.name for m in club.members}
            if row is None or place is None:  # no game of the family yet: a newcomer's rating
                mu, sigma = newcomer()
                return {"place": None, "member": {"id": member_id, "name": names[member_id]},
                        "rating": round(shown_rating(mu, sigma)), "certainty": 0,
                        "mu": round(mu, 3), "sigma": round(sigma, 3), "games": 0,
                        "last_change": 0, "last_game": None, "last_played": None,
                        "family": family, "history": []}
            return {**_rating_json(row, place, names), "family": family,
                    "history": [{"game": p.game, "finished_at": p.finished_at.isoformat(),
                                 "rating": round(p.rating), "change": round(p.change)}
                                for p in row.history]}

        return _conditional(club_id, f"ratings-{family}-{member_id}", build, results=True)


# -- statistics ------------------------------------------------------------------------------


def stats_json(found: StatsOf) -> dict[str, Any]:
    names = {m.id: m.name for m in found.club.members}
    member = found.member
    return {"member": {"id": member.id, "name": member.name, "status": member_status(member)},
            "season": season_json(found.season) if found.season is not None else None,
            "variant": found.variant, "few_games": FEW_GAMES, "games": found.stats.games,
            "families": [block.to_json(lambda m: names.get(m, ""), found.club.version)
                         for block in found.stats.families]}


@blp.route("/<id:club_id>/members/<id:member_id>/stats")
class MemberStats(MethodView):
    @_results_read(MemberStatsSchema, StatsQuerySchema)
    def get(self, query: dict[str, Any], club_id: str, member_id: str) -> Any:
        """Read a member's statistics

        Per family and variant, over all time or a season (`season`), of every variant or
        one (`variant`): games and hands played, wins (a shared first place counts its
        share), the average place, points per hand and per game, how often they dealt,
        declared (kind by kind), called or were called, played solo, won the Bagatto
        ultimo, had a hand disputed; Mitigatti's marca won and lost and the balance evening
        by evening; the partners and opponents met most with the results with each; points
        per hand month by month. Every figure says what it counts (`says`, in the request's
        language), and one from fewer than `few_games` games says so (`few`, `caution`).
        Summed from the club's results as the games were counted, never replayed. Either
        token; a weak `ETag` that moves with every counted result (304 while unchanged). A
        season the club does not have, or a variant that does not exist: 422 naming it.
        """
        season, variant = query.get("season"), query.get("variant")
        asked = hashlib.sha256(f"{member_id}|{season}|{variant}".encode()).hexdigest()[:16]
        service, token = club_service(), bearer_token()
        state, kind = service.stats_tag(club_id, token, member_id, season)
        return _kept(f"{state}-stats-{asked}-{request_language()}", kind, lambda: stats_json(
            service.member_stats(club_id, token, member_id, season, variant)))
