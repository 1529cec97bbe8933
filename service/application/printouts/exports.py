"""A game's record kept elsewhere: the JSON export and its import, and the CSV export
(``GET /games/{id}.json``, ``POST /games/import``, ``GET /games/{id}.csv``).

The JSON export is complete: the game's setup (variant, options, players, first dealer),
every hand's canonical record, which is all a game is (docs/architecture.md, principle 4), with each hand's
result and the game's summary as the service computed them, so the file can be read without
the service, and (format 2) the game's whole history: every version of every hand, the
corrections and deletions included, with the kind of token that made it and when.

An import trusts none of it: it replays every record in order through the same checks as
recording hands one by one (``games.parse_and_score``: the form, the dealer whose
turn it is, the variant's rules, the rubber's end), lists every problem under
``hands[i].record.…`` (``i`` counting from 0, as every field path does), and stores nothing
unless all pass. Where the file carries a hand's result, the replayed result must give every
column the same points (and marca) — an import never silently changes a score. The new game
gets new tokens; everything else is a true copy: the start date, and, replayed from the
history, every hand's versions and times, so the copy's ``GET …/history`` reads as the
original's. A file without a history (format 1, or written by hand) makes each hand's one
``create`` version at the hand's ``created_at``.

The CSV has one row per hand and column: what the column got from the hand, its running
total, the marks of its cells as the sheet prints them, and for Mitigatti the marca and the
balance. Its text cells never start a spreadsheet formula (``_inert``).
"""

from __future__ import annotations

import csv
import io
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Protocol

from service.domain import (
    RULES_VERSION,
    Confirmation,
    GameSetup,
    HandResult,
    Problem,
    RecordInvalid,
    Text,
    UnknownVariant,
    current_verdicts,
    ends_by_evening,
    find_variant,
    game_summary,
    parse_hand_record,
    reason_of,
    score_record,
    seat_name,
    validate_game_setup,
    verdict_problems,
)

from ..errors import ConcurrentChange
from ..games import (
    MAX_HANDS,
    TOKEN_BYTES,
    CreatedGame,
    GameService,
    GameView,
    hand_view,
    hash_token,
    new_game_id,
    parse_and_score,  # the very checks of POST /games/{id}/hands
    table_of,
)
from ..ports import (
    GameIdTaken,
    GameRepository,
    HandAction,
    HandVersion,
    StoredGame,
    StoredHand,
)
from ..unit_of_work import UnitOfWork
from .numbers import hand_numbers
from .sheet import build_sheet

EXPORT_FORMAT = "segnapunti.game"
EXPORT_VERSION = 2
#: The formats an import reads: 1 has no history.
IMPORT_VERSIONS = (1, 2)
#: The most changes an imported history may hold: twenty a hand of the longest game, far past
#: any real evening's corrections, and a bound on the writes one request can ask for.
MAX_HISTORY = 20 * MAX_HANDS

CSV_COLUMNS = ("hand", "dealer_seat", "dealer", "column", "label", "points", "total", "marks",
               "events")
CSV_MARCA_COLUMNS = ("marca", "balance", "pot")


def _iso(when: datetime) -> str:
    return when.isoformat()


# -- export -----------------------------------------------------------------------------------


def export_game(service: GameService, game_id: str, token: str | None) -> dict[str, Any]:
    """The game and its history as one document, read at one version of the game: when a
    write came between reading the game and its history, both are read again."""
    for _ in range(EXPORT_READS):
        view = service.get_game(game_id, token)
        history = service.history(game_id, token)
        if service.get_game(game_id, token).game.version == view.game.version:
            return export_document(view, service.clock(), history)
    raise ConcurrentChange(Text("the game kept changing while it was exported; export it "
                                "again"))


#: Reads of a game and its history before an export gives up on a game that keeps changing.
EXPORT_READS = 5


def export_document(view: GameView, exported_at: datetime,
                    history: Sequence[HandVersion] = ()) -> dict[str, Any]:
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
        "history": [
            {
                "number": version.number,
                "version": version.version,
                "action": version.action,
                "record": version.record,
                "rules_version": version.rules_version,
                "token_kind": version.token_kind,
                "created_at": _iso(version.created_at),
                "confirmations": [verdict.to_json() for verdict in version.confirmations],
            }
            # The hands' own history: the scorekeeper's "the evening is over" (hand 0) is
            # the game's ``ended_at`` below, not a change an import replays.
            for version in history if version.number > 0
        ],
        **({"ended_at": _iso(view.game.ended_at)} if view.game.ended_at else {}),
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


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """A checked import: the setup, the start, the changes to replay, and what the replayed
    hands score."""

    setup: GameSetup
    created_at: datetime
    steps: tuple[HandVersion, ...]  # the changes to replay in order, as the history has them
    results: tuple[HandResult, ...]


def _setup(game: Mapping[str, Any], problems: list[Problem]) -> GameSetup | None:
    try:
        variant = find_variant(str(game.get("variant")))
    except UnknownVariant as error:
        problems.append(Problem("game.variant", "unknown_variant",
                                Text("there is no variant {variant}",
                                     variant=repr(error.variant_id))))
        return None
    try:
        return validate_game_setup(variant, game.get("options"), list(game.get("players") or []),
                                   game.get("first_dealer"))
    except RecordInvalid as error:
        problems.extend(error.at("game").problems)
        return None


def _moment(raw: Any, field: str, problems: list[Problem], default: datetime) -> datetime:
    """A time as exported (ISO 8601 with its offset), in UTC; ``default`` when absent."""
    if raw is None:
        return default
    try:
        when = datetime.fromisoformat(str(raw))
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        problems.append(Problem(field, "invalid_field",
                                Text("an ISO 8601 date and time with its offset, as "
                                     "exported")))
        return default
    return when.astimezone(UTC)


def _same_numbers(given: Any, result: HandResult) -> list[Text]:
    """What a hand's exported result says differently from the replayed one (its columns'
    points, and Mitigatti's marca)."""
    if not isinstance(given, Mapping):
        return []
    replayed = result.to_json()
    differ = []
    if "columns" in given and given["columns"] != replayed.get("columns"):
        differ.append(Text("columns {given} were exported, the rules now give {replayed}",
                           given=_json(given["columns"]),
                           replayed=_json(replayed.get("columns"))))
    if "marca" in given and given["marca"] != replayed.get("marca"):
        differ.append(Text("marca {given} were exported, the rules now give {replayed}",
                           given=_json(given["marca"]), replayed=_json(replayed.get("marca"))))
    return differ


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _seat(value: Any, seats: int) -> object:
    """A seat the file names, as a sentence names it: one of the table's ``seats`` by its
    player (where the table is known), another number as a seat, anything else as it was
    written."""
    if isinstance(value, int) and not isinstance(value, bool):
        return seat_name(value) if 0 <= value < seats else Text("seat {seat}", seat=value)
    return repr(value)


def _replay_hands(setup: GameSetup, hands: Sequence[Mapping[str, Any]],
                  problems: list[Problem]) -> tuple[list[dict[str, Any]], list[HandResult]]:
    """The canonical records and results of the game's hands, each checked as the next hand
    of the game, as ``POST /games/{id}/hands`` checks it."""
    records: list[dict[str, Any]] = []
    results: list[HandResult] = []
    summary = game_summary(setup, [])  # the game's after ``results``, carried on hand by hand
    seats = setup.variant.seats
    broken = False
    for index, hand in enumerate(hands):
        field = f"hands[{index}]"
        number = hand.get("number")
        if number is not None and number != index + 1:
            problems.append(Problem(f"{field}.number", "wrong_hand_number",
                                    Text("the hand at position {index} is hand {n}, not "
                                         "{given}", index=index, n=index + 1, given=number)))
        dealer, recorded = hand.get("dealer"), hand["record"].get("dealer")
        if dealer is not None and dealer != recorded:
            problems.append(Problem(f"{field}.dealer", "disagrees_with_record",
                                    Text("the hand says {dealer} dealt, its record {recorded}",
                                         dealer=_seat(dealer, seats),
                                         recorded=_seat(recorded, seats))))
        if not broken and summary.finished:
            problems.append(Problem(field, "game_finished",
                                    Text("the game ended before hand {n}: it takes no more "
                                         "hands", n=index + 1),
                                    "R10" if setup.variant.target is None else "R12"))
            broken = True
        # Each hand by the rules it was recorded under, as the game read it where it was
        # exported (a ruling that only refuses binds the hands recorded since it came).
        rules = str(hand.get("rules_version") or RULES_VERSION)
        try:
            if broken:
                # After a hand that failed, whose turn it is cannot be known: a later hand is
                # still checked against the rules of its variant.
                score_record(setup.variant, setup.options, hand["record"], rules_version=rules)
                continue
            record, result = parse_and_score(setup, hand["record"], results, summary,
                                             rules_version=rules)
        except RecordInvalid as error:
            problems.extend(error.at(f"{field}.record").problems)
            broken = True
            continue
        for difference in _same_numbers(hand.get("result"), result):
            problems.append(Problem(f"{field}.result", "result_differs",
                                    Text("hand {n}: {difference}; remove the result to import "
                                         "the record as the rules score it now",
                                         n=index + 1, difference=difference)))
        records.append(record.to_json())
        results.append(result)
        summary = game_summary(setup, [result], summary)
    return records, results


def _steps_of_hands(hands: Sequence[Mapping[str, Any]], records: Sequence[dict[str, Any]],
                    problems: list[Problem], now: datetime) -> list[HandVersion]:
    """Without a history, each hand is created once, at its own time."""
    return [
        HandVersion(number, 1, "create", record, str(hand.get("rules_version") or RULES_VERSION),
                    "edit", _moment(hand.get("created_at"), f"hands[{number - 1}].created_at",
                                    problems, now))
        for number, (hand, record) in enumerate(zip(hands, records, strict=True), start=1)
    ]


def _steps_of_history(setup: GameSetup, history: Sequence[Mapping[str, Any]],
                      hands: Sequence[Mapping[str, Any]], records: Sequence[dict[str, Any]],
                      problems: list[Problem], now: datetime) -> list[HandVersion]:
    """The history's changes, checked as the service made them: a hand is created after the
    last one, corrected or deleted (the last) while it is there, each version one more than
    its number's last, a record with every change but a deletion, and each record well formed
    for the variant. Replayed, they must leave exactly the game's hands."""
    steps: list[HandVersion] = []
    live: dict[int, dict[str, Any]] = {}  # the hands as the history has them so far
    versions: dict[int, int] = {}  # the last version of each hand number
    for index, entry in enumerate(history):
        field = f"history[{index}]"
        action: HandAction = entry["action"]
        number: int = entry["number"]
        found = len(problems)
        if action == "create" and number != len(live) + 1:
            problems.append(Problem(f"{field}.number", "wrong_hand_number",
                                    Text.counted("hand {number} is created when the game has "
                                                 "{n} hand: the next is hand {next}",
                                                 "hand {number} is created when the game has "
                                                 "{n} hands: the next is hand {next}",
                                                 len(live), number=number,
                                                 next=len(live) + 1)))
        elif action != "create" and number not in live:
            problems.append(Problem(f"{field}.number", "no_such_hand", (
                Text("hand {number} is not in the game at this point: there is nothing to "
                     "correct", number=number) if action == "correct" else
                Text("hand {number} is not in the game at this point: there is nothing to "
                     "delete", number=number))))
        elif action == "delete" and number != len(live):
            problems.append(Problem(f"{field}.number", "not_last_hand",
                                    Text("only the last hand ({n}) can be deleted",
                                         n=len(live))))
        expected = versions.get(number, 0) + 1
        if entry["version"] != expected:
            problems.append(Problem(f"{field}.version", "wrong_version",
                                    Text("hand {number}'s next version is {expected}, not "
                                         "{given}", number=number, expected=expected,
                                         given=entry["version"])))
        record = entry.get("record")
        canonical: dict[str, Any] | None = None
        if action == "delete":
            if record is not None:
                problems.append(Problem(f"{field}.record", "unexpected_record",
                                        Text("a deletion has no record (null)")))
        elif record is None:
            problems.append(Problem(f"{field}.record", "missing_record", (
                Text("a create version has the hand's record") if action == "create" else
                Text("a correct version has the hand's record"))))
        elif 0 < number <= len(hands) and record == hands[number - 1]["record"]:
            canonical = records[number - 1]  # the hand as it now is, checked already
        else:
            try:
                canonical = score_record(
                    setup.variant, setup.options, record,
                    rules_version=str(entry.get("rules_version") or RULES_VERSION))[0].to_json()
            except RecordInvalid as error:
                problems.extend(error.at(f"{field}.record").problems)
        when = _moment(entry.get("created_at"), f"{field}.created_at", problems, now)
        if len(problems) > found:
            # Past a change that does not follow, the rest cannot be followed either.
            return steps
        versions[number] = expected
        if action == "delete":
            del live[number]
        else:
            assert canonical is not None
            live[number] = canonical
        verdicts = _verdicts(setup, entry, expected, field, problems, now)
        if len(problems) > found:
            return steps
        steps.append(HandVersion(number, expected, action, canonical,
                                 str(entry.get("rules_version") or RULES_VERSION),
                                 entry["token_kind"], when, verdicts))
    kept = [live[number] for number in sorted(live)]
    if kept != list(records):
        differ = next((n for n, (a, b) in enumerate(zip(kept, records), start=1) if a != b),
                      min(len(kept), len(records)) + 1)
        problems.append(Problem("history", "disagrees_with_hands",
                                Text.counted("replayed, the history leaves {n} hand and "
                                             "the file lists {listed}; they differ from hand "
                                             "{hand}",
                                             "replayed, the history leaves {n} hands and "
                                             "the file lists {listed}; they differ from hand "
                                             "{hand}", len(kept), listed=len(records),
                                             hand=differ)))
    return steps


def _verdicts(setup: GameSetup, entry: Mapping[str, Any], version: int, field: str,
              problems: list[Problem], now: datetime) -> tuple[Confirmation, ...]:
    """The players' verdicts on one version of a hand, checked as the service takes them: a
    player's seat, on this version (never on a deletion), a reason only with a dispute."""
    raw = entry.get("confirmations") or []
    if raw and entry["action"] == "delete":
        problems.append(Problem(f"{field}.confirmations", "unexpected_confirmations",
                                Text("a deletion takes no verdicts")))
        return ()
    out = []
    for k, given in enumerate(raw):
        at = f"{field}.confirmations[{k}]"
        if given["seat"] >= setup.variant.players:
            problems.append(Problem(f"{at}.seat", "not_a_player",
                                    Text("{seat} has no player of its own",
                                         seat=_seat(given["seat"], setup.variant.seats))))
        if given["version"] != version:
            problems.append(Problem(f"{at}.version", "wrong_version",
                                    Text("a verdict listed under version {version} is on it, "
                                         "not on version {given}", version=version,
                                         given=given["version"])))
        problems.extend(p.at(at) for p in verdict_problems(given["verdict"],
                                                           given.get("reason")))
        out.append(Confirmation(given["seat"], given["verdict"], version,
                                _moment(given["at"], f"{at}.at", problems, now),
                                reason_of(given["verdict"], given.get("reason"))))
    return tuple(out)


def check_import(document: Mapping[str, Any]) -> ImportPlan:
    """The checked plan of an import; or ``RecordInvalid`` with every problem found."""
    game = document["game"]
    problems: list[Problem] = []
    now = datetime.now(UTC)
    setup = _setup(game, problems)
    created_at = _moment(game.get("created_at"), "game.created_at", problems, now)
    if setup is None:
        # Without the game's setup no hand can be checked.
        raise RecordInvalid(problems)
    hands = document.get("hands") or []
    records, results = _replay_hands(setup, hands, problems)
    steps: list[HandVersion] = []
    if not problems:
        history = document.get("history")
        steps = (_steps_of_hands(hands, records, problems, now) if history is None
                 else _steps_of_history(setup, history, hands, records, problems, now))
    if problems:
        raise RecordInvalid(problems, *table_of(setup))
    return ImportPlan(setup, created_at, tuple(steps), tuple(results))


class KeptViews(Protocol):
    """Where the service keeps the games' views it has worked out (``games.GameViews``)."""

    def keep(self, view: GameView) -> None: ...


def import_game(unit: UnitOfWork, document: Mapping[str, Any],
                views: KeptViews | None = None) -> CreatedGame:
    """Create a new game from an exported document: every hand checked and replayed in
    order, then its history stored change by change, with new tokens, in ``unit``'s
    transaction; nothing is stored on any problem. Once it is committed the new game's view
    is kept in ``views``, so that reading the copy does not score its hands again."""
    plan = check_import(document)
    setup = plan.setup
    repository = unit.games
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
        created_at=plan.created_at,
        version=1,
    )
    hands: dict[int, StoredHand] = {}
    try:
        repository.add_game(game)
    except GameIdTaken as error:  # pragma: no cover - a collision in a 2**49 space
        raise ConcurrentChange("a new game's id was already taken") from error
    version = game.version
    for step in plan.steps:
        _replay(repository, game.id, version, step, hands)
        version += 1 + len(step.confirmations)
    ended_at = _evening_over(document, setup, bool(hands))
    if ended_at is not None:
        repository.end_game(game.id, expected_game_version=version, ended=True,
                            token_kind="edit", now=ended_at)
        version += 1
    stored = tuple(_with_current_verdicts(hands[number], plan.steps)
                   for number in sorted(hands))
    final = StoredGame(**{**_fields(game), "version": version, "hands": stored,
                          "ended_at": ended_at})
    view = GameView(final, setup, tuple(hand_view(final.id, s, parse_hand_record(setup.variant,
                                                                              s.record), r,
                                                  setup)
                                        for s, r in zip(stored, plan.results, strict=True)),
                    game_summary(setup, list(plan.results), ended=ended_at is not None))
    if views is not None:
        unit.after_commit(lambda: views.keep(view))
    return CreatedGame(view, edit_token, read_token)


def _evening_over(document: Mapping[str, Any], setup: GameSetup,
                  has_hands: bool) -> datetime | None:
    """When the exported game's scorekeeper said the evening is over (``ended_at``), for a
    game that ends so and has hands; None otherwise. A time that is no time: 422."""
    raw = document.get("ended_at")
    if raw is None or not ends_by_evening(setup.variant) or not has_hands:
        return None
    problems: list[Problem] = []
    when = _moment(raw, "ended_at", problems, datetime.now(UTC))
    if problems:
        raise RecordInvalid(problems)
    return when


def _replay(repository: GameRepository, game_id: str, version: int, step: HandVersion,
            hands: dict[int, StoredHand]) -> None:
    """Make one change of the history to the new game, at version ``version``, as the
    original game's service made it; ``hands`` follows the game's hands."""
    if step.action == "delete":
        repository.delete_hand(
            game_id, expected_game_version=version, number=step.number,
            expected_hand_version=hands.pop(step.number).version,
            rules_version=step.rules_version, token_kind=step.token_kind, now=step.created_at)
        return
    assert step.record is not None
    _replay_change(repository, game_id, version, step, hands)
    for offset, verdict in enumerate(step.confirmations, start=1):
        repository.add_confirmation(game_id, expected_game_version=version + offset,
                                    confirmation=verdict, number=step.number)


def _replay_change(repository: GameRepository, game_id: str, version: int, step: HandVersion,
                   hands: dict[int, StoredHand]) -> None:
    assert step.record is not None
    if step.action == "create":
        hands[step.number] = repository.add_hand(
            game_id, expected_game_version=version, number=step.number, record=step.record,
            rules_version=step.rules_version, token_kind=step.token_kind, now=step.created_at)
    else:
        hands[step.number] = repository.replace_hand(
            game_id, expected_game_version=version, number=step.number,
            expected_hand_version=hands[step.number].version, record=step.record,
            rules_version=step.rules_version, token_kind=step.token_kind, now=step.created_at)


def _with_current_verdicts(hand: StoredHand, steps: Sequence[HandVersion]) -> StoredHand:
    """The hand with each seat's latest verdict on its current version."""
    given = [v for step in steps if step.number == hand.number and step.version == hand.version
             for v in step.confirmations]
    return replace(hand, confirmations=current_verdicts(given, hand.version))


def _fields(game: StoredGame) -> dict[str, Any]:
    return {name: getattr(game, name) for name in StoredGame.__dataclass_fields__}


__all__ = ["CSV_COLUMNS", "EXPORT_FORMAT", "EXPORT_VERSION", "IMPORT_VERSIONS", "MAX_HISTORY",
           "ImportPlan", "check_import", "export_csv", "export_document", "export_game",
           "import_game"]
