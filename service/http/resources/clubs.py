"""Clubs and their members (issue 29, part 1; CLUBS.md): a club, its roster (add, rename,
initials, deactivate, merge and undo it, forget), its history and its roster's export. Thin
views over ``service.application.clubs``."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Response, current_app, request, url_for
from flask.views import MethodView

from service.application.clubs import (
    ClubService,
    member_etag,
    member_status,
)
from service.application.ports import StoredClub, StoredMember
from service.application.unit_of_work import UnitOfWork

from ..blueprint import Blueprint
from ..paths import API_PREFIX
from ..schemas.clubs import (
    ClubCreateSchema,
    ClubHistorySchema,
    ClubLinksSchema,
    ClubSchema,
    CreatedClubSchema,
    MemberChangeSchema,
    MemberCreateSchema,
    MemberSchema,
    MembersSchema,
    MergeSchema,
)
from .common import (
    bearer_token,
    conditional_read,
    creates,
    if_match,
    json_body,
    quoted,
    stacked,
    token_protected,
    write,
)
from .games import not_modified, weak

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


def club_service() -> ClubService:
    service: ClubService = current_app.extensions["segnapunti.clubs"]
    return service


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
    }


def club_json(club: StoredClub) -> dict[str, Any]:
    return {"id": club.id, "name": club.name,
            "members": [member_json(m) for m in club.members],
            "created_at": club.created_at.isoformat(), "version": club.version}


def _member_response(club: StoredClub, member: StoredMember, status: int = 200) -> Any:
    headers = {"ETag": quoted(member_etag(club.id, member))}
    if status == 201:
        headers["Location"] = url_for("clubs.Member", club_id=club.id, member_id=member.id)
    return member_json(member), status, headers


def _conditional(club_id: str, variant: str, build: Callable[[], dict[str, Any]]) -> Response:
    """A read answered by the club's version: 304 while the client has it."""
    state, kind = club_service().state_tag(club_id, bearer_token())
    tag = f"{state}-{variant}"
    response: Response
    if request.if_none_match and request.if_none_match.contains_weak(tag):
        response = not_modified(tag, weak=True)
    else:
        response = current_app.json.response(build())  # type: ignore[assignment]
        response.headers["ETag"] = weak(tag)
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


@blp.route("/<game_id:club_id>")
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


@blp.route("/<game_id:club_id>/links")
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


@blp.route("/<game_id:club_id>/members")
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


@blp.route("/<game_id:club_id>/members/<game_id:member_id>")
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


@blp.route("/<game_id:club_id>/members/<game_id:member_id>/merge")
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


@blp.route("/<game_id:club_id>/members/<game_id:member_id>/unmerge")
class UnmergeMember(MethodView):
    @member_action
    def post(self, club_id: str, member_id: str, unit: UnitOfWork) -> Any:
        """Undo a merge

        The merged member back on the roster as they were before the merge (409 if not
        merged). Kept in the history. Takes no body.
        """
        club, member = club_service().unmerge(unit, club_id, bearer_token(), member_id)
        return _member_response(club, member)


@blp.route("/<game_id:club_id>/members/<game_id:member_id>/forget")
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


@blp.route("/<game_id:club_id>/history")
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
    return [{"version": a.version, "action": a.action, "data": a.data,
             "created_at": a.created_at.isoformat()}
            for a in club_service().history(club_id, bearer_token())]


@blp.route("/<game_id:club_id>.json")
class ClubExport(MethodView):
    @club_protected(blp, write=False)
    @blp.response(200, ClubSchema)
    def get(self, club_id: str) -> Any:
        """Export the club as JSON

        For now the club's roster (as `GET /clubs/{id}` gives it) and its history, as one
        file; its games, events and seasons will join it.
        """
        club = club_service().get_club(club_id, bearer_token())
        body = {**club_json(club), "export": "roster", "history": _history_json(club_id)}
        response = current_app.json.response(body)
        response.headers["Content-Disposition"] = (
            f'attachment; filename="segnapunti-club-{club_id}.json"')
        return response


CSV_COLUMNS = ("number", "id", "name", "initials", "status", "merged_into", "joined_at")


@blp.route("/<game_id:club_id>.csv")
class ClubCsv(MethodView):
    @club_protected(blp, write=False)
    @blp.response(200, {"type": "string"}, content_type="text/csv",
                  description="The roster, a row per member")
    def get(self, club_id: str) -> Any:
        """Export the roster as CSV

        For now the club's roster: a row per member (number, id, name, initials, status,
        merged into, joined).
        """
        club = club_service().get_club(club_id, bearer_token())
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(CSV_COLUMNS)
        for m in club.members:
            writer.writerow([m.number, m.id, _inert(m.name), _inert(m.initials or ""),
                             member_status(m), m.merged_into or "", m.joined_at.isoformat()])
        response = Response(out.getvalue(), mimetype="text/csv")
        response.headers["Content-Disposition"] = (
            f'attachment; filename="segnapunti-club-{club_id}.csv"')
        return response


def _inert(text: str) -> str:
    """A name a spreadsheet would read as a formula, made plain text."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
