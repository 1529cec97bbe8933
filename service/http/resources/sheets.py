"""The printable score sheet and the exports: ``GET /games/{id}/sheet.pdf``,
``GET /games/{id}.json``, ``GET /games/{id}.csv`` and ``POST /games/import``."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, request, url_for
from flask.views import MethodView

from service.application.printouts import SheetPrinter, export_csv, export_game, import_game
from service.application.unit_of_work import UnitOfWork

from ..paths import API_PREFIX
from ..schemas import CreatedGameSchema
from ..schemas.exports import GameExportSchema, GameImportSchema, SheetQuerySchema
from ..smorest import Blueprint
from .common import bearer_token, creates, game_service, not_modified_doc, protected
from .games import (
    not_modified,
    said_game,
    share_link,
)

blp = Blueprint(
    "sheets",
    __name__,
    url_prefix=f"{API_PREFIX}/games",
    description="The printable score sheet, and the game as JSON or CSV to keep elsewhere "
                "(either token), and back (import)",
)

ETAG = {"ETag": {"description": "weak: changes with the game (and the language and detail "
                                "of a sheet)", "schema": {"type": "string"}}}
DISPOSITION = {"Content-Disposition": {"description": "the file's name",
                                       "schema": {"type": "string"}}}


def printer() -> SheetPrinter:
    kept: SheetPrinter = current_app.extensions["segnapunti.printer"]
    return kept


def _conditional(game_id: str, variant: str) -> tuple[str, Response | None]:
    """The representation's weak entity tag, and a 304 when the client has it already."""
    tag = f"{game_service().game_tag(game_id, bearer_token())}-{variant}"
    if request.if_none_match and request.if_none_match.contains_weak(tag):
        return tag, not_modified(tag, weak=True)
    return tag, None


def _file(body: bytes | str, mimetype: str, filename: str, tag: str, *,
          inline: bool = False) -> Response:
    response = Response(body, mimetype=mimetype)
    disposition = "inline" if inline else "attachment"
    response.headers["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    response.set_etag(tag, weak=True)
    return response


@blp.route("/<game_id:game_id>/sheet.pdf")
class SheetPdf(MethodView):
    @protected(blp, write=False)
    @blp.arguments(SheetQuerySchema, location="query")
    @blp.response(200, {"type": "string", "format": "binary"}, content_type="application/pdf",
                  description="The score sheet, A4", headers={**ETAG, **DISPOSITION})
    @not_modified_doc(blp, "the game is as the ETag sent")
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """Print the score sheet

        The sheet as players keep it on paper, as a PDF: a column per player or pair, each
        hand's dealer, its meld or declaration lines with their marks (`20 F`, `10 ♦`,
        `5 K`), the deck or card points, a rule across and the running totals; the final
        totals and winners; Mitigatti's marca ledger and transfers; Ottocento's progress to
        800. `lang=it` prints it in Italian; without `lang` it speaks the game's `language`
        option (a table's own), else English. `detail=1` adds each hand's explanation lines.
        Either token opens it.
        """
        asked = query.get("lang")
        detail = bool(query.get("detail", False))
        # The game's options never change: "the game's own language" names one sheet.
        tag, cached = _conditional(game_id, f"sheet-{asked or 'own'}-{int(detail)}")
        if cached is not None:
            return cached
        view = game_service().get_game(game_id, bearer_token())
        lang = asked or str(view.setup.options.get("language") or "en")
        pdf, filename = printer().pdf(view, lang, detail=detail)
        return _file(pdf, "application/pdf", filename, tag, inline=True)


@blp.route("/<game_id:game_id>.json")
class GameJson(MethodView):
    @protected(blp, write=False)
    @blp.response(200, GameExportSchema, headers={**ETAG, **DISPOSITION})
    @not_modified_doc(blp, "the game is as the ETag sent")
    def get(self, game_id: str) -> Any:
        """Export the game as JSON

        Complete and re-importable: the variant, options, players, first dealer and every
        hand's canonical record, with each hand's result and times, the game's summary, and
        its whole history (every version of every hand, corrections and deletions included,
        as `GET /games/{id}/history`). `POST /games/import` makes a true copy of it: the same
        results, history and times, with new tokens.
        """
        tag, cached = _conditional(game_id, "json")
        if cached is not None:
            return cached
        document = export_game(game_service(), game_id, bearer_token())
        name = f"segnapunti-{document['game']['variant']}-{document['game']['id']}.json"
        headers = {"Content-Disposition": f'attachment; filename="{name}"', "ETag": f'W/"{tag}"'}
        return document, headers


@blp.route("/<game_id:game_id>.csv")
class GameCsv(MethodView):
    @protected(blp, write=False)
    @blp.response(200, {"type": "string"}, content_type="text/csv",
                  description="One row per hand and column", headers={**ETAG, **DISPOSITION})
    @not_modified_doc(blp, "the game is as the ETag sent")
    def get(self, game_id: str) -> Any:
        """Export the game as CSV

        One row per hand and column: `hand`, `dealer_seat`, `dealer`, `column`, `label`,
        `points` (what the column got from the hand), `total` (its running total), `marks`
        (its lines as the sheet prints them), `events`; Mitigatti adds `marca`, `balance`
        and `pot`. UTF-8, comma-separated, quoted where needed (RFC 4180).
        """
        tag, cached = _conditional(game_id, "csv")
        if cached is not None:
            return cached
        view = game_service().get_game(game_id, bearer_token())
        response = _file(export_csv(view), "text/csv",
                         f"segnapunti-{view.game.variant}-{view.id}.csv", tag)
        response.headers["Content-Type"] = "text/csv; charset=utf-8; header=present"
        return response


@blp.route("/import")
class GameImport(MethodView):
    @creates(blp, GameImportSchema, CreatedGameSchema)
    def post(self, document: dict[str, Any], unit: UnitOfWork) -> Any:
        """Import a game

        Takes a game exported by `GET /games/{id}.json` and creates a new game with the same
        players, options and hands, and new tokens (shown only here). Every hand is replayed
        in order through the same checks as recording it; every problem is listed (`422`,
        fields under `hands[i].record.…`, `i` from 0) and nothing is created. Where the file
        holds a hand's result, the replayed one must give the same points. Its `history`
        (format 2) is replayed change by change at its own times, so the copy's history is
        the original's; it must follow (`history[i].…`) and end in the hands listed.

        The body may be up to 16 MiB, and gzip-compressed (`Content-Encoding: gzip`, 16 MiB
        inflated at most: `413`; a stream that is not whole gzip: `400`).
        """
        created = import_game(unit, document, game_service().views)
        tokens = {"edit": created.edit_token, "read": created.read_token}
        links = {
            "edit": share_link(created.view.id, created.edit_token),
            "read": share_link(created.view.id, created.read_token),
        }
        return (said_game(created.view, tokens=tokens, links=links), 201,
                {"Location": url_for("games.Game", game_id=created.view.id)})
