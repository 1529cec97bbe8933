"""A game's record kept elsewhere: the JSON export and its import, and the CSV export
(API.md ``GET /games/{id}.json``, ``POST /games/import``, ``GET /games/{id}.csv``).

The JSON export is complete: the game's setup (variant, options, players, first dealer) and
every hand's canonical record, which is all a game is (ARCHITECTURE §4), with each hand's
result and the game's summary as the service computed them, so the file can be read without
the service. An import trusts none of it: it replays every record in order through the same
checks as recording hands one by one (``games._parse_and_score``: the form, the dealer whose
turn it is, the variant's rules, the rubber's end), lists every problem under
``hands[i].record.…`` (``i`` counting from 0, as every field path does), and stores nothing
unless all pass. Where the file carries a hand's result, the replayed result must give every
column the same points (and marca) — an import never silently changes a score. The new game
gets new tokens; its start date is the original one.

The CSV has one row per hand and column: what the column got from the hand, its running
total, the marks of its cells as the sheet prints them, and for Mitigatti the marca and the
balance. Its text cells never start a spreadsheet formula (``_inert``).
"""

from __future__ import annotations

import csv
import io
import json
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from service.domain import RULES_VERSION
from service.domain.errors import Problem, RecordInvalid, UnknownVariant
from service.domain.games import GameSetup, game_summary, validate_game_setup
from service.domain.results import HandResult
from service.domain.scoring import score_record
from service.domain.variants import find_variant

from .errors import ConcurrentChange
from .games import (
    TOKEN_BYTES,
    CreatedGame,
    GameService,
    GameView,
    HandView,
    _parse_and_score,  # the very checks of POST /games/{id}/hands
    hash_token,
    new_game_id,
)
from .ports import GameIdTaken, StoredGame, StoredHand
from .sheets import build_sheet, hand_numbers

EXPORT_FORMAT = "segnapunti.game"
EXPORT_VERSION = 1

CSV_COLUMNS = ("hand", "dealer_seat", "dealer", "column", "label", "points", "total", "marks",
               "events")
CSV_MARCA_COLUMNS = ("marca", "balance", "pot")


def _iso(when: datetime) -> str:
    return when.isoformat()


# -- export -----------------------------------------------------------------------------------


def export_document(view: GameView, exported_at: datetime) -> dict[str, Any]:
    """The complete game as one JSON document, re-importable by ``import_game``."""
    game = view.game
    return {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_VERSION,
        "exported_at": _iso(exported_at),
        "rules_version": RULES_VERSION,
        "game": {
            "id": game.id,
            "variant": game.variant,
            "options": dict(view.setup.options),
            "players": list(game.players),
            "first_dealer": game.first_dealer,
            "created_at": _iso(game.created_at),
        },
        "hands": [
            {
                "number": hand.number,
                "dealer": hand.dealer,
                "record": hand.record,
                "result": hand.result.to_json(),
                "rules_version": hand.rules_version,
                "created_at": _iso(hand.created_at),
                "updated_at": _iso(hand.updated_at),
            }
            for hand in view.hands
        ],
        "summary": view.summary.to_json(),
    }


def export_csv(view: GameView) -> str:
    """One row per hand and column (RFC 4180: CRLF line ends, fields quoted when needed)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    marca = view.summary.ledger is not None
    writer.writerow(CSV_COLUMNS + (CSV_MARCA_COLUMNS if marca else ()))
    names = view.setup.seat_names()
    sheet = build_sheet(view, "en")
    keys = [c.key for c in sheet.columns]
    for hand, numbers, block in zip(view.hands, hand_numbers(view), sheet.hands, strict=True):
        events = " ".join(hand.result.events)
        for column in view.summary.columns:
            j = keys.index(column.key)
            marks = [f"{cell.text} {cell.mark}".strip()
                     for row in block.rows if row.kind in ("line", "deck") and row.cells
                     for cell in [row.cells[j]] if cell is not None]
            row: list[object] = [
                hand.number, hand.dealer, names[hand.dealer], column.key, column.label,
                numbers.points[column.key], numbers.totals[column.key], "; ".join(marks),
                events,
            ]
            if marca:
                assert numbers.marca is not None and numbers.balances is not None
                row += [numbers.marca[column.key], numbers.balances[column.key], numbers.pot]
            writer.writerow([_inert(cell) for cell in row])
    return out.getvalue()


#: What a spreadsheet reads as the start of a formula (OWASP, CSV injection): a text cell
#: starting with one of them is written with a leading apostrophe, which the spreadsheet shows
#: as text and does not evaluate.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _inert(cell: object) -> object:
    """A CSV cell that no spreadsheet runs: a text that could start a formula (a player named
    ``=HYPERLINK(…)``) is prefixed with ``'``. Numbers stay numbers; the JSON export and the
    page show names as they are."""
    if isinstance(cell, str) and cell.startswith(_FORMULA_STARTS):
        return "'" + cell
    return cell


# -- import -----------------------------------------------------------------------------------


def _setup(game: Mapping[str, Any], problems: list[Problem]) -> GameSetup | None:
    try:
        variant = find_variant(str(game.get("variant")))
    except UnknownVariant as error:
        problems.append(Problem("game.variant", "unknown_variant",
                                f"there is no variant {error.variant_id!r}"))
        return None
    try:
        return validate_game_setup(variant, game.get("options"), list(game.get("players") or []),
                                   game.get("first_dealer"))
    except RecordInvalid as error:
        problems.extend(error.at("game").problems)
        return None


def _created_at(game: Mapping[str, Any], problems: list[Problem], now: datetime) -> datetime:
    raw = game.get("created_at")
    if raw is None:
        return now
    try:
        when = datetime.fromisoformat(str(raw))
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        problems.append(Problem("game.created_at", "invalid_field",
                                "an ISO 8601 date and time with its offset, as exported"))
        return now
    return when.astimezone(UTC)


def _same_numbers(given: Any, result: HandResult) -> list[str]:
    """What a hand's exported result says differently from the replayed one (its columns'
    points, and Mitigatti's marca)."""
    if not isinstance(given, Mapping):
        return []
    replayed = result.to_json()
    differ = []
    for name in ("columns", "marca"):
        if name in given and given[name] != replayed.get(name):
            differ.append(f"{name} {_json(given[name])} were exported, the rules now "
                          f"give {_json(replayed.get(name))}")
    return differ


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def check_import(document: Mapping[str, Any]) -> tuple[GameSetup, list[dict[str, Any]],
                                                       list[HandResult], datetime]:
    """The setup, the canonical records and results of a game to import, and its start; or
    ``RecordInvalid`` with every problem found."""
    game = document["game"]
    problems: list[Problem] = []
    setup = _setup(game, problems)
    created_at = _created_at(game, problems, datetime.now(UTC))
    if setup is None:
        # Without the game's setup no hand can be checked.
        raise RecordInvalid(problems)
    records: list[dict[str, Any]] = []
    results: list[HandResult] = []
    broken = False
    for index, hand in enumerate(document.get("hands") or []):
        field = f"hands[{index}]"
        number = hand.get("number")
        if number is not None and number != index + 1:
            problems.append(Problem(f"{field}.number", "wrong_hand_number",
                                    f"the hand at position {index} is hand {index + 1}, "
                                    f"not {number}"))
        dealer, recorded = hand.get("dealer"), hand["record"].get("dealer")
        if dealer is not None and dealer != recorded:
            problems.append(Problem(f"{field}.dealer", "disagrees_with_record",
                                    f"the hand says seat {dealer} dealt, its record seat "
                                    f"{recorded}"))
        if not broken and game_summary(setup, results).finished:
            problems.append(Problem(field, "game_finished",
                                    f"the game ended before hand {index + 1}: it takes no more "
                                    "hands", "R10" if setup.variant.target is None else "R12"))
            broken = True
        try:
            if broken:
                # After a hand that failed, whose turn it is cannot be known: a later hand is
                # still checked against the rules of its variant.
                score_record(setup.variant, setup.options, hand["record"])
                continue
            record, result = _parse_and_score(setup, hand["record"], results)
        except RecordInvalid as error:
            problems.extend(error.at(f"{field}.record").problems)
            broken = True
            continue
        for difference in _same_numbers(hand.get("result"), result):
            problems.append(Problem(f"{field}.result", "result_differs",
                                    f"hand {index + 1}: {difference}; remove the result to "
                                    "import the record as the rules score it now"))
        records.append(record.to_json())
        results.append(result)
    if problems:
        raise RecordInvalid(problems)
    return setup, records, results, created_at


def import_game(service: GameService, document: Mapping[str, Any]) -> CreatedGame:
    """Create a new game from an exported document: every hand checked and replayed in
    order, then stored in one transaction with new tokens; nothing is stored on any
    problem."""
    setup, records, results, created_at = check_import(document)
    repository = service.repository
    edit_token = secrets.token_urlsafe(TOKEN_BYTES)
    read_token = secrets.token_urlsafe(TOKEN_BYTES)
    game = StoredGame(
        id=new_game_id(),
        variant=setup.variant.id,
        options=dict(setup.options),
        players=tuple(setup.players),
        first_dealer=setup.first_dealer,
        edit_token_hash=hash_token(edit_token),
        read_token_hash=hash_token(read_token),
        created_at=created_at,
        version=1,
    )
    with repository.atomic():
        try:
            repository.add_game(game)
        except GameIdTaken as error:  # pragma: no cover - a collision in a 2**49 space
            raise ConcurrentChange("a new game's id was already taken") from error
        stored: list[StoredHand] = []
        for number, record in enumerate(records, start=1):
            stored.append(repository.add_hand(
                game.id, expected_game_version=game.version + number - 1, number=number,
                record=record, rules_version=RULES_VERSION, token_kind="edit",
                now=service.clock()))
    final = StoredGame(**{**_fields(game), "version": game.version + len(stored),
                          "hands": tuple(stored)})
    view = GameView(final, setup, tuple(_hand_view(final.id, s, r) for s, r in
                                        zip(stored, results, strict=True)),
                    game_summary(setup, results))
    return CreatedGame(view, edit_token, read_token)


def _fields(game: StoredGame) -> dict[str, Any]:
    return {name: getattr(game, name) for name in StoredGame.__dataclass_fields__}


def _hand_view(game_id: str, stored: StoredHand, result: HandResult) -> HandView:
    return HandView(game_id=game_id, number=stored.number, version=stored.version,
                    dealer=int(stored.record["dealer"]), record=stored.record,
                    rules_version=stored.rules_version, result=result,
                    created_at=stored.created_at, updated_at=stored.updated_at)


__all__ = ["CSV_COLUMNS", "EXPORT_FORMAT", "EXPORT_VERSION", "check_import", "export_csv",
           "export_document", "import_game"]
