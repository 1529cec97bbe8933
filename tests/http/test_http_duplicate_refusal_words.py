"""A refusal never says who holds a card: a duplicate board keeps its secret until every
table due to play it has played it. On SQLite and PostgreSQL.

For every duplicate variant, a table posts to the board it is about to play records that
misplace its cards in every way a record can: a shuffled pack as its tricks, the hands
swapped round the table, a card played from the wrong hand, a discard of another seat's
card, declarations of cards the declarer was not dealt (shown, and said by kind or count), a
called card's partner or a contract's partner who does not hold it, the Fool's and the
Bagatto's players wrong, cards said exposed that were not, the wrong dealer. Every word of
every refusal, in English, Italian and French (the problem's title and detail, each error),
is read: a refusal of the referee names the board, the seat the record gave the card to and
the card, never another seat or player, never where a card lies (its holder, how many of a
class a seat was dealt, which cards the board exposed); every other problem of the refusal is
the one the same record gets at a table of free deals, which knows no deal."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from http_support import assert_problem, auth
from legal_play import play_out

from service.domain import VARIANTS, deal_board, find_variant, suggest_melds
from service.domain.core.cards import Card
from service.domain.duplicate import Board
from service.domain.hand.tricks import trick_winner
from service.domain.variant import Variant


@pytest.fixture(scope="module")
def db_url(one_db_url: str) -> str:
    """What the room and a refusal say is decided above the database: one is enough
    (PostgreSQL where there is one, as in production)."""
    return one_db_url


API = "/api/v1"
SEED = 4242
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ilaria", "Luca",
           "Marta", "Nino", "Olga"]
LANGUAGES = ("en", "it", "fr")
#: The referee's codes: what the deal, not the rules, says is wrong.
REFEREE = {"not_dealt", "not_exposed", "not_the_boards_dealer"}
#: How a refusal said where a card lay, in each language: the holder after the card, the
#: holder in brackets, the board's exposed cards, how many of a class a seat was dealt.
WHERE = {
    "en": [r"was dealt to", r"; .+ was$", r"'s\) was not exposed", r"the board exposed",
           r"but was dealt \d", r"is dealt by"],
    "it": [r"l'ha ricevuta", r"l'aveva in mano", r"le carte scoperte sono",
           r"ne ha ricevuti \d", r"la dà .+, non"],
    "fr": [r"qui l'avait", r"l'avait\)", r"la donne montrait", r"n'en avait que",
           r"est distribuée par .+, pas"],
}

Json = dict[str, Any]


def held(board: Board, seat: int) -> list[Card]:
    return [*board.hands[seat], *(board.extra if seat == board.dealer else ())]


def legal(variant: Variant, board: Board, rng: random.Random,
          hands: tuple[tuple[Card, ...], ...] | None = None) -> Json:
    """The board (or these hands of it) played out legally: dealer, discard, tricks."""
    record, discard = play_out(variant, hands or board.hands, board.extra, board.dealer, rng)
    if variant.extra:
        record["discard"] = [c.code for c in discard]
    return record


def misplaced(variant: Variant, board: Board, rng: random.Random) -> dict[str, Json]:
    """Records of ``board`` that misplace its cards, each in its own way."""
    n, dealer = variant.seats, board.dealer
    other = (dealer + 1) % n
    records: dict[str, Json] = {}
    played = legal(variant, board, rng)
    pack = [c for c in variant.pack.cards if c.code not in played.get("discard", [])]
    rng.shuffle(pack)
    records["shuffled pack"] = {**played, "tricks": [
        [c.code for c in pack[i:i + n]] for i in range(0, len(pack), n)]}
    swapped = tuple(board.hands[(s + 1) % n] for s in range(n))
    records["hands swapped round the table"] = legal(variant, board, rng, swapped)
    wrong_hand = legal(variant, board, rng)
    first = wrong_hand["tricks"][0]
    first[0], first[1] = first[1], first[0]
    records["a card played from the wrong hand"] = wrong_hand
    if variant.extra:
        discard = list(played["discard"])
        discard[0] = board.hands[other][0].code
        records["a discard of another seat's card"] = {"dealer": dealer, "discard": discard}
    declarations: list[Json] = []
    for seat in range(n):
        theirs = [c.code for c in held(board, (seat + 1) % n)]
        for found in suggest_melds(variant, theirs):
            if "declaration" in found:
                declarations.append({**found["declaration"], "seat": seat})  # type: ignore
    kinds = {meld.kind for meld in variant.melds}
    if "family" in kinds:  # Gatti's, current and older rules
        declarations += [{"seat": other, "kind": "family", "suit": "H"},
                         {"seat": other, "kind": "four_of_a_kind", "rank": "K"},
                         {"seat": other, "kind": "three_of_a_kind", "rank": "Q"},
                         {"seat": other, "kind": "trumps", "count": 20},
                         {"seat": other, "kind": "gatti"}]
    elif "ten_tarocchi" in kinds:
        declarations += [{"seat": other, "kind": "ten_tarocchi"},
                         {"seat": other, "kind": "mitigatti"},
                         {"seat": other, "kind": "quatre_rei"}]
    else:
        declarations += [{"seat": other, "kind": "cricca", "type": "K", "count": 3},
                         {"seat": other, "kind": "cricca", "type": "K", "count": 4}]
    records["declarations of cards not held"] = {"dealer": dealer,
                                                 "declarations": declarations}
    kings = [c for c in variant.pack.cards if c.is_plain and c.rank == "K"]
    king = next(k for k in kings if board.holder(k) != dealer)
    elsewhere = next(s for s in range(n) if s not in (dealer, board.holder(king)))
    bid: Json = {"dealer": dealer}
    if variant.partnership == "call":
        bid["call"] = {"card": king.code, "partner": elsewhere}
    if variant.contracts:
        bid["contract"] = {"type": "call", "declarer": dealer, "called_card": king.code,
                           "partner": elsewhere}
    fool = board.holder(variant.pack.fool)
    assert fool is not None
    bid["fool"] = {"played_by": (fool + 1) % n}
    if variant.bagatto is not None:
        t1 = board.holder(variant.pack.card("T1"))
        assert t1 is not None
        bid["bagatto"] = {"seat": (t1 + 1) % n, "won": True}
    if board.exposed:
        bid["exposed"] = [c.code for c in held(board, other) if c not in board.exposed][:2]
    records["the wrong called card's partner, Fool, Bagatto and exposed cards"] = bid
    if variant.partnership == "call" or variant.contracts:
        surrender = {"type": "surrender", "declarer": dealer, "called_card": king.code}
        if variant.contracts:
            records["a surrender calling a card not held"] = {"dealer": dealer,
                                                               "contract": surrender}
    records["the wrong dealer"] = {**legal(variant, board, rng), "dealer": other}
    return records


def seat_of(variant: Variant, board: Board, record: Json, field: str) -> int | None:
    """The seat the record gives the card of ``field`` to (None for the exposed cards)."""
    if field.startswith("exposed"):
        return None
    if field == "dealer" or field.startswith("discard"):
        return int(record["dealer"]) if field == "dealer" else board.dealer
    found = re.match(r"tricks\[(\d+)\]\[(\d+)\]$", field)
    if found:
        i, k = int(found[1]), int(found[2])
        leader = (board.dealer + 1) % variant.seats
        for trick in record["tricks"][:i]:
            cards = [variant.pack.card(c) for c in trick]
            leader = (leader + trick_winner(variant, cards)) % variant.seats
        return (leader + k) % variant.seats
    found = re.match(r"declarations\[(\d+)\]", field)
    if found:
        return int(record["declarations"][int(found[1])]["seat"])
    return {"call.partner": lambda: record["call"]["partner"],
            "contract.partner": lambda: record["contract"]["partner"],
            "contract.called_card": lambda: record["contract"]["declarer"],
            "fool.played_by": lambda: record["fool"]["played_by"],
            "bagatto.seat": lambda: record["bagatto"]["seat"]}[field]()


def named(message: str, players: list[str]) -> set[str]:
    return {p for p in players if re.search(rf"\b{re.escape(p)}\b", message)}


class Room:
    """A duplicate evening of one variant, its first table about to play its first board."""

    def __init__(self, client: Any, variant_id: str) -> None:
        self.client = client
        created = client.post(f"{API}/events", json={
            "name": "Serata", "variant": variant_id, "format": "individual",
            "deals": "duplicate", "seed": SEED,
            "entrants": [{"name": n} for n in PLAYERS]}).json
        self.url = f"{API}/events/{created['id']}"
        self.edit = created["tokens"]["edit"]
        started = client.post(f"{self.url}/rounds", json={}, headers=auth(self.edit)).json
        self.table = started["tables"][0]
        self.game = client.get(f"{API}/games/{self.table['game']}",
                               headers=auth(self.table["tokens"]["edit"])).json
        self.board = deal_board(find_variant(variant_id), SEED, self.table["boards"][0])
        self.variant_id = variant_id

    def refusal(self, record: Json, lang: str) -> Json:
        response = self.client.post(
            f"{API}/games/{self.table['game']}/hands", json=record,
            headers={**auth(self.table["tokens"]["edit"]), "Accept-Language": lang})
        return assert_problem(response, 422, code="record_invalid")

    def free_problems(self, record: Json, lang: str) -> set[tuple[str, str, str]]:
        """The problems of ``record`` as the first hand of a new game of free deals of the
        same players, dealt by the board's dealer: none when it takes it."""
        free = self.client.post(f"{API}/games", json={
            "variant": self.variant_id, "players": self.game["players"],
            "first_dealer": self.board.dealer}).json
        response = self.client.post(
            f"{API}/games/{free['id']}/hands", json=record,
            headers={**auth(free["tokens"]["edit"]), "Accept-Language": lang})
        if response.status_code == 201:
            return set()
        problem = assert_problem(response, 422, code="record_invalid")
        return {(e["field"], e["code"], e["message"]) for e in problem["errors"]}

    def release(self) -> None:
        released = self.client.post(
            f"{self.url}/rounds/1/tables/1/boards/{self.board.number}/release",
            headers=auth(self.edit))
        assert released.status_code == 200, released.json

    def owner(self, seat: int) -> str:
        """The player a seat's name says (a dummy's: its player's)."""
        players = self.game["players"]
        return str(players[seat % len(players)])


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_a_refusal_names_the_board_the_seat_and_the_card_never_who_holds_it(
        client: Any, variant_id: str) -> None:
    variant = find_variant(variant_id)
    room = Room(client, variant_id)
    rng = random.Random(f"{variant_id}:{SEED}")
    records = misplaced(variant, room.board, rng)
    players = [str(p) for p in room.game["players"]]
    referee_lines = 0
    for lang in LANGUAGES:
        for what, record in records.items():
            refused = room.refusal(record, lang)
            assert any(e["code"] in REFEREE for e in refused["errors"]), (what, refused)
            free = room.free_problems(record, lang)
            texts = [refused["title"], refused["detail"]]
            for error in refused["errors"]:
                message = error["message"]
                texts.append(message)
                if error["code"] not in REFEREE:
                    # The rules' own problems: the same at a table that knows no deal.
                    assert (error["field"], error["code"], message) in free, (what, error)
                    continue
                referee_lines += 1
                assert f"{room.board.number}" in message, (what, error)
                seat = seat_of(variant, room.board, record, error["field"])
                allowed = set() if seat is None else {room.owner(seat)}
                assert named(message, players) <= allowed, (what, lang, error)
            if len(refused["errors"]) == 1:
                assert refused["detail"] == refused["errors"][0]["message"]
            else:
                assert named(refused["detail"], players) == set(), (what, refused["detail"])
            for text in texts:
                for pattern in WHERE[lang]:
                    assert not re.search(pattern, text), (what, lang, pattern, text)
        room.release()  # each language's records are ten refusals or fewer
    assert referee_lines >= 20 * len(LANGUAGES)
