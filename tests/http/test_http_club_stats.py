"""A member's statistics over HTTP (docs/clubs.md#statistics): ``GET
/clubs/{id}/members/{m}/stats`` per family and variant, over all time or a season, every
figure checked against sums made here from the games as the API reads them and the records
sent; a correction, a deletion, a merge and a forgotten member move them as they move the
results; either club token opens them, a game's tokens never; bad query values are a 422
naming the parameter; a figure from fewer than 5 games says so; the facts of rows written
before they were kept are filled when first read."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any
from urllib.parse import urlencode

import orjson
from http_support import assert_problem, auth, error_fields, gatti3_hand
from sqlalchemy import text
from test_http_club_links import GAMES, started
from test_http_clubs import CLUBS, found_club, member

from service.application.clubs import ClubService
from service.http.resources.clubs import stats_json

FAMILY_Q = {"seat": 1, "kind": "family", "suit": "D"}
THREE_QUEENS = {"seat": 2, "kind": "three_of_a_kind", "rank": "Q"}


def stats(client: Any, club: dict[str, Any], member_id: str, token: str | None = None,
          **query: str) -> Any:
    url = f"{CLUBS}/{club['id']}/members/{member_id}/stats"
    if query:
        url += f"?{urlencode(query)}"
    return client.get(url, headers=auth(token or club["tokens"]["read"]))


def ok_stats(client: Any, club: dict[str, Any], member_id: str, **query: str) -> dict[str, Any]:
    response = stats(client, club, member_id, **query)
    assert response.status_code == 200, response.json
    body: dict[str, Any] = response.json
    return body


def block(body: dict[str, Any], family: str, variant: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = next(b for b in body["families"] if b["family"] == family)
    if variant is not None:
        found = next(v for v in found["variants"] if v["variant"] == variant)
    return found


def figures(found: dict[str, Any]) -> dict[str, Any]:
    """A block's figures by key, the declarations by ``declared.<kind>``."""
    out = {f["key"]: f["value"] for f in found["figures"]}
    out |= {d["key"]: d["value"] for d in found["declared"]["kinds"]}
    return out


def hand(client: Any, game: dict[str, Any], record: dict[str, Any]) -> None:
    response = client.post(f"{GAMES}/{game['id']}/hands", json=record,
                           headers=auth(game["tokens"]["edit"]))
    assert response.status_code == 201, response.json


def seats(client: Any, game: dict[str, Any]) -> dict[int, tuple[int, int, int, int]]:
    """Each seat's column result (points; marca from 10 in a game settled in marca), place,
    how many columns share it, and the game's hands, as the game reads now."""
    body = client.get(f"{GAMES}/{game['id']}", headers=auth(game["tokens"]["read"])).json
    marca = "balances" in body
    scores = {c["key"]: body["balances"][c["key"]] - 10 if marca else body["totals"][c["key"]]
              for c in body["columns"]}
    out = {}
    for column in body["columns"]:
        own = scores[column["key"]]
        place = 1 + sum(1 for v in scores.values() if v > own)
        shared = sum(1 for v in scores.values() if v == own)
        for seat in column["seats"]:
            out[seat] = (own, place, shared, body["hands_played"])
    return out


class Sums:
    """What the test expects of one member in one block, added game by game."""

    def __init__(self) -> None:
        self.games = self.hands = self.points = self.places = 0
        self.wins = Fraction(0)
        self.facts: Counter[str] = Counter()

    def game(self, result: tuple[int, int, int, int], **facts: int) -> None:
        points, place, shared, hands = result
        self.games += 1
        self.hands += hands
        self.points += points
        self.places += place
        self.wins += Fraction(1, shared) if place == 1 else 0
        self.facts.update(facts)

    def expected(self) -> dict[str, Any]:
        def two(value: Fraction) -> float:
            return round(float(value), 2)
        return {"games": self.games, "hands": self.hands, "wins": two(self.wins),
                "average_place": two(Fraction(self.places, self.games)),
                "points_per_hand": two(Fraction(self.points, self.hands)),
                "points_per_game": two(Fraction(self.points, self.games)),
                **self.facts}


def _same(got: dict[str, Any], want: dict[str, Any]) -> None:
    assert {k: got[k] for k in want} == want


def test_statistics_each_figure_is_the_sum_of_the_members_games(client: Any) -> None:
    club = found_club(client)
    # Gatti with three: Anna at seat 0 deals hand 1, wins the Bagatto ultimo in hand 2;
    # Bruno declares a family, Carla three Queens.
    first = started(client, club, ["Anna", "Bruno", "Carla"])
    anna, bruno, carla = first["club"]["members"]
    hand(client, first, gatti3_hand(0, declarations=[FAMILY_Q, THREE_QUEENS]))
    hand(client, first, gatti3_hand(1, bagatto={"seat": 0, "won": True}))
    hand(client, first, gatti3_hand(2, counting_to=1))
    # Again, Anna at seat 1: she deals hand 2 and declares a family in hand 3.
    second = started(client, club, [{"member": bruno}, {"member": anna}, {"member": carla}])
    hand(client, second, gatti3_hand(0, counting_to=2))
    hand(client, second, gatti3_hand(1, counting_to=2))
    hand(client, second, gatti3_hand(2, declarations=[FAMILY_Q]))
    # Gatti with a called card: Anna (seat 0) calls Dario, then is called by Bruno (seat 1),
    # then Carla deals and goes alone, then Dario calls Carla.
    called = started(client, club, [{"member": anna}, {"member": bruno}, {"member": carla},
                                    "Dario"], variant="gatti-4-call")
    dario = called["club"]["members"][3]
    hand(client, called, {"dealer": 0, "call": {"card": "KH", "partner": 3},
                          "piles": [{"side": 0, "points": 40}]})
    hand(client, called, {"dealer": 1, "call": {"card": "KH", "partner": 0},
                          "piles": [{"side": 0, "points": 30}]})
    hand(client, called, {"dealer": 2, "call": {"card": "KH", "partner": 2},
                          "piles": [{"side": 0, "points": 20}]})
    hand(client, called, {"dealer": 3, "call": {"card": "KH", "partner": 2},
                          "piles": [{"side": 0, "points": 45}]})
    # A Mitigatti evening: Anna calls Carla, Dario plays solo, Bruno declares mitigatti and
    # Anna is called; then the evening is over.
    evening = started(client, club, [{"member": m} for m in (anna, bruno, carla, dario)],
                      variant="mitigatti-4")
    hand(client, evening, {"dealer": 0, "contract": {
        "type": "call", "declarer": 0, "called_card": "KC", "partner": 2},
        "piles": [{"side": 0, "points": 40}]})
    hand(client, evening, {"dealer": 1, "contract": {"type": "solo", "declarer": 3},
                           "piles": [{"side": 0, "points": 30}]})
    hand(client, evening, {"dealer": 2, "contract": {
        "type": "call", "declarer": 2, "called_card": "KC", "partner": 0},
        "declarations": [{"seat": 1, "kind": "mitigatti"}],
        "piles": [{"side": 0, "points": 40}]})
    ended = client.post(f"{GAMES}/{evening['id']}/end", headers=auth(evening["tokens"]["edit"]))
    assert ended.status_code == 200, ended.json

    gatti3, call, gatti, marca = Sums(), Sums(), Sums(), Sums()
    for sums in (gatti3, gatti):
        sums.game(seats(client, first)[0], dealt=1, bagatto=1)
        sums.game(seats(client, second)[1], dealt=1, **{"declared.family": 1})
    for sums in (call, gatti):
        sums.game(seats(client, called)[0], dealt=1, called=1, partnered=1)
    marca.game(seats(client, evening)[0], dealt=1, called=1, partnered=1)

    body = ok_stats(client, club, anna)
    assert body["member"] == {"id": anna, "name": "Anna", "status": "active"}
    assert body["games"] == 4 and body["season"] is None and body["variant"] is None
    assert [b["family"] for b in body["families"]] == ["gatti", "mitigatti"]
    _same(figures(block(body, "gatti")), {**gatti.expected(), "solo": 0, "disputed": 0,
                                          "declared.three_of_a_kind": 0})
    _same(figures(block(body, "gatti", "gatti-3")), gatti3.expected())
    _same(figures(block(body, "gatti", "gatti-4-call")), call.expected())
    assert "called" not in figures(block(body, "gatti", "gatti-3"))  # no call in gatti-3
    mitigatti = figures(block(body, "mitigatti"))
    _same(mitigatti, {**marca.expected(), "solo": 0, "bagatto": 0,
                      "declared.mitigatti": 0, "declared.ten_tarocchi": 0})
    won = max(marca.points, 0)
    assert (mitigatti["marca_won"], mitigatti["marca_lost"], mitigatti["marca_balance"]) == (
        won, won - marca.points, marca.points)
    balance = block(body, "mitigatti")["balance"]
    assert [{k: v for k, v in e.items() if k != "finished_at"} for e in balance["evenings"]] == [
        {"game": evening["id"], "marca": marca.points, "balance": marca.points}]
    assert balance["says"] and block(body, "mitigatti")["months"]["months"][0]["games"] == 1

    # Bruno: a declared family (game one), mitigatti declared; Dario: a solo.
    assert figures(block(ok_stats(client, club, bruno), "gatti"))["declared.family"] == 1
    assert figures(block(ok_stats(client, club, bruno), "mitigatti"))["declared.mitigatti"] == 1
    assert figures(block(ok_stats(client, club, dario), "mitigatti"))["solo"] == 1
    carla_gatti = figures(block(ok_stats(client, club, carla), "gatti"))
    assert (carla_gatti["declared.three_of_a_kind"], carla_gatti["solo"],
            carla_gatti["partnered"], carla_gatti["called"]) == (1, 1, 1, 0)


def test_statistics_partners_and_opponents_met_most_with_the_results_with_each(
        client: Any) -> None:
    club = found_club(client)
    games: list[dict[str, Any]] = []
    for winner in (0, 0, 1):
        # gatti-4: seats 0 and 2 (Anna and Carla) against 1 and 3 (Bruno and Dario).
        game = started(client, club, ["Anna", "Bruno", "Carla", "Dario"] if not games else
                       [{"member": m} for m in games[0]["club"]["members"]], variant="gatti-4")
        side0 = 50 if winner == 0 else 20
        for dealer in range(4):
            hand(client, game, {"dealer": dealer, "piles": [
                {"side": 0, "points": side0}, {"side": 1, "points": 72 - side0}]})
        games.append(game)
    anna, bruno, carla, dario = games[0]["club"]["members"]
    body = ok_stats(client, club, anna)
    partners = block(body, "gatti")["partners"]
    assert partners["says"]
    assert [(m["member"]["id"], m["member"]["name"], m["games"]) for m in partners["members"]] == [
        (carla, "Carla", 3)]
    assert partners["members"][0]["wins"] == 2 and partners["members"][0]["few"] is True
    assert partners["members"][0]["caution"]
    opponents = block(body, "gatti")["opponents"]["members"]
    assert [(m["member"]["id"], m["games"], m["ahead"], m["level"], m["behind"])
            for m in opponents] == sorted([(bruno, 3, 2, 0, 1), (dario, 3, 2, 0, 1)])
    assert {m["member"]["name"] for m in opponents} == {"Bruno", "Dario"}
    assert all(m["wins"] == 2 and m["average_place"] == round(4 / 3, 2) for m in opponents)
    assert block(body, "gatti")["opponents"]["says"]


def test_statistics_follow_a_correction_and_a_deletion(client: Any) -> None:
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    anna = game["club"]["members"][0]
    for dealer in range(3):
        hand(client, game, gatti3_hand(dealer, counting_to=0))
    before = figures(block(ok_stats(client, club, anna), "gatti"))
    assert (before["games"], before["wins"], before["average_place"]) == (1, 1, 1)
    corrected = client.put(f"{GAMES}/{game['id']}/hands/3", json=gatti3_hand(2, counting_to=1),
                           headers={**auth(game["tokens"]["edit"]), "If-Match": "*"})
    assert corrected.status_code == 200, corrected.json
    after = figures(block(ok_stats(client, club, anna), "gatti"))
    points, place, _shared, hands = seats(client, game)[0]
    assert (after["points_per_game"], after["average_place"], after["hands"]) == (
        points, place, hands)
    assert after["points_per_game"] < before["points_per_game"]
    gone = client.delete(f"{GAMES}/{game['id']}/hands/3",
                         headers={**auth(game["tokens"]["edit"]), "If-Match": "*"})
    assert gone.status_code == 204, gone.get_data(as_text=True)
    assert ok_stats(client, club, anna) | {"member": None} == {
        "member": None, "season": None, "variant": None, "few_games": 5, "games": 0,
        "families": []}


def test_statistics_of_a_merged_member_count_for_the_survivor(client: Any) -> None:
    club = found_club(client)
    first = started(client, club, ["Anna", "Bruno", "Carla"])
    second = started(client, club, ["Anny", "Bruno", "Carla"])
    for game in (first, second):
        for dealer in range(3):
            hand(client, game, gatti3_hand(dealer, counting_to=0))
    anna, bruno, _ = first["club"]["members"]
    anny = second["club"]["members"][0]
    merged = client.post(f"{CLUBS}/{club['id']}/members/{anny}/merge", json={"into": anna},
                         headers=auth(club["tokens"]["edit"]))
    assert merged.status_code == 200, merged.json
    assert figures(block(ok_stats(client, club, anna), "gatti"))["games"] == 2
    assert ok_stats(client, club, anny)["games"] == 0
    assert ok_stats(client, club, anny)["member"]["status"] == "merged"
    # Bruno met Anny in the second game: she is Anna now, one opponent met twice.
    opponents = block(ok_stats(client, club, bruno), "gatti")["opponents"]["members"]
    assert {m["member"]["id"]: m["games"] for m in opponents}[anna] == 2
    assert anny not in {m["member"]["id"] for m in opponents}
    unmerged = client.post(f"{CLUBS}/{club['id']}/members/{anny}/unmerge",
                           headers=auth(club["tokens"]["edit"]))
    assert unmerged.status_code == 200, unmerged.json
    assert figures(block(ok_stats(client, club, anny), "gatti"))["games"] == 1


def test_privacy_a_forgotten_member_has_no_statistics_and_is_met_as_player_n(
        client: Any) -> None:
    """Forgotten, Carla has no statistics; the others' do not move: they met "Player 3"."""
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    for dealer in range(3):
        hand(client, game, gatti3_hand(dealer))
    anna, bruno, carla = game["club"]["members"]
    forgotten = client.post(f"{CLUBS}/{club['id']}/members/{carla}/forget",
                            headers=auth(club["tokens"]["edit"]))
    assert forgotten.status_code == 200, forgotten.json
    gone = ok_stats(client, club, carla)
    assert (gone["games"], gone["families"], gone["member"]["status"]) == (0, [], "forgotten")
    opponents = block(ok_stats(client, club, anna), "gatti")["opponents"]["members"]
    assert {m["member"]["id"]: m["member"]["name"] for m in opponents} == {
        bruno: "Bruno", carla: "Player 3"}


def test_statistics_a_figure_from_fewer_than_five_games_says_so(client: Any) -> None:
    club = found_club(client)
    anna = None
    for number in range(5):
        players: list[Any] = ["Anna", "Bruno", "Carla"] if anna is None else [
            {"member": anna}, "Bruno", "Carla"]
        game = started(client, club, players)
        anna = game["club"]["members"][0]
        for dealer in range(3):
            hand(client, game, gatti3_hand(dealer))
        found = block(ok_stats(client, club, anna), "gatti")
        few = number + 1 < 5
        assert found["few"] is few
        assert all(f["few"] is few and f["games"] == number + 1 for f in found["figures"])
        if few:
            assert all(f["caution"] for f in found["figures"])
            assert found["figures"][0]["caution"].startswith(f"from {number + 1} game")
        else:
            assert not any("caution" in f for f in found["figures"])
        assert all(f["says"] for f in found["figures"])
    assert ok_stats(client, club, str(anna))["few_games"] == 5


def test_statistics_over_a_season_or_a_variant(client: Any) -> None:
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    for dealer in range(3):
        hand(client, game, gatti3_hand(dealer))
    anna = game["club"]["members"][0]
    evening = started(client, club, [{"member": anna}, "Bruno", "Carla"], variant="mitigatti-3")
    hand(client, evening, {"dealer": 0, "piles": [
        {"side": 0, "tricks": 12, "counting": ["T1", "T20", "FOOL", "KH", "KD", "KC", "KS"]},
        {"side": 1, "tricks": 8, "counting": ["QH", "QD", "QC", "QS"]}]})
    assert client.post(f"{GAMES}/{evening['id']}/end",
                       headers=auth(evening["tokens"]["edit"])).status_code == 200
    edit = auth(club["tokens"]["edit"])
    now = client.post(f"{CLUBS}/{club['id']}/seasons", json={
        "name": "Now", "from": "2020-01-01", "to": "2099-12-31", "families": ["mitigatti"]},
        headers=edit).json["id"]
    past = client.post(f"{CLUBS}/{club['id']}/seasons", json={
        "name": "Past", "from": "2001-01-01", "to": "2001-12-31"}, headers=edit).json["id"]
    whole = ok_stats(client, club, anna)
    assert [b["family"] for b in whole["families"]] == ["gatti", "mitigatti"]
    season = ok_stats(client, club, anna, season=now)
    assert season["season"]["id"] == now and season["season"]["name"] == "Now"
    assert [b["family"] for b in season["families"]] == ["mitigatti"]
    assert ok_stats(client, club, anna, season=past)["games"] == 0
    one = ok_stats(client, club, anna, variant="gatti-3")
    assert one["variant"] == "gatti-3" and one["games"] == 1
    assert [b["family"] for b in one["families"]] == ["gatti"]
    assert ok_stats(client, club, anna, season=now, variant="gatti-3")["games"] == 0


def test_statistics_count_the_hands_a_player_disputes(client: Any) -> None:
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    for dealer in range(3):
        hand(client, game, gatti3_hand(dealer))
    anna = game["club"]["members"][0]
    assert figures(block(ok_stats(client, club, anna), "gatti"))["disputed"] == 0
    disputed = client.post(f"{GAMES}/{game['id']}/hands/2/confirmations",
                           json={"verdict": "dispute", "reason": "the Fool was covered"},
                           headers=auth(game["tokens"]["players"][1]))
    assert disputed.status_code in (200, 201), disputed.json
    assert figures(block(ok_stats(client, club, anna), "gatti"))["disputed"] == 1
    confirmed = client.post(f"{GAMES}/{game['id']}/hands/2/confirmations",
                            json={"verdict": "confirm"},
                            headers=auth(game["tokens"]["players"][1]))
    assert confirmed.status_code in (200, 201), confirmed.json
    assert figures(block(ok_stats(client, club, anna), "gatti"))["disputed"] == 0


def test_resources_the_statistics_answer_304_until_a_result_moves(client: Any) -> None:
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    anna = game["club"]["members"][0]
    first = stats(client, club, anna)
    assert first.status_code == 200 and first.headers["Club-Access"] == "read"
    tag = first.headers["ETag"]
    assert tag.startswith('W/"')
    again = client.get(f"{CLUBS}/{club['id']}/members/{anna}/stats",
                       headers={**auth(club["tokens"]["read"]), "If-None-Match": tag})
    assert again.status_code == 304
    for dealer in range(3):
        hand(client, game, gatti3_hand(dealer))
    moved = stats(client, club, anna)
    assert moved.headers["ETag"] != tag and moved.json["games"] == 1
    # A game Anna did not play leaves her statistics as they were (a season's move: the
    # other games date its evenings).
    season = client.post(f"{CLUBS}/{club['id']}/seasons", json={
        "name": "Now", "from": "2020-01-01", "to": "2099-12-31"},
        headers=auth(club["tokens"]["edit"])).json["id"]
    member(client, club, "Dario")  # a new member is a change to the club: before the tags
    moved = stats(client, club, anna)
    seasonal = stats(client, club, anna, season=season).headers["ETag"]
    elsewhere = started(client, club, ["Bruno", "Carla", "Dario"])
    for dealer in range(3):
        hand(client, elsewhere, gatti3_hand(dealer))
    assert client.get(f"{CLUBS}/{club['id']}/members/{anna}/stats", headers={
        **auth(club["tokens"]["read"]), "If-None-Match": moved.headers["ETag"]}
        ).status_code == 304
    assert stats(client, club, anna, season=season).headers["ETag"] != seasonal
    italian = client.get(f"{CLUBS}/{club['id']}/members/{anna}/stats",
                         headers={**auth(club["tokens"]["read"]), "Accept-Language": "it"})
    assert italian.headers["ETag"] != moved.headers["ETag"]
    assert italian.headers["Content-Language"] == "it"
    said = block(italian.json, "gatti")["figures"][0]["says"]
    assert said != block(moved.json, "gatti")["figures"][0]["says"]


def test_access_either_club_token_opens_the_statistics_a_games_token_never(
        client: Any) -> None:
    club, other = found_club(client), found_club(client, "Altro circolo")
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    anna = game["club"]["members"][0]
    assert stats(client, club, anna, club["tokens"]["edit"]).headers["Club-Access"] == "edit"
    assert stats(client, club, anna, club["tokens"]["read"]).headers["Club-Access"] == "read"
    for token in (game["tokens"]["edit"], game["tokens"]["read"], game["tokens"]["players"][0],
                  other["tokens"]["read"]):
        assert_problem(stats(client, club, anna, token), 404)
    assert_problem(client.get(f"{CLUBS}/{club['id']}/members/{anna}/stats"), 401)
    assert_problem(stats(client, club, anna, "no-such-token"), 401)
    assert_problem(stats(client, other, anna, other["tokens"]["read"]), 404)


def test_bad_input_a_season_or_variant_that_is_not_there_is_named(client: Any) -> None:
    club, other = found_club(client), found_club(client, "Altro circolo")
    anna = member(client, club, "Anna")["id"]
    theirs = client.post(f"{CLUBS}/{other['id']}/seasons", json={
        "name": "Theirs", "from": "2026-01-01", "to": "2026-12-31"},
        headers=auth(other["tokens"]["edit"])).json["id"]
    body = assert_problem(stats(client, club, anna, season="nosuchseason", variant="scopa"),
                          422)
    assert error_fields(body) == {"season": "unknown_season", "variant": "unknown_variant"}
    body = assert_problem(stats(client, club, anna, season=theirs), 422)
    assert error_fields(body) == {"season": "unknown_season"}
    assert_problem(stats(client, club, "nosuchmember"), 404)
    assert ok_stats(client, club, anna, variant="GATTI-3")["variant"] == "gatti-3"


def test_statistics_fill_the_facts_of_rows_written_before_they_were_kept(client: Any) -> None:
    club = found_club(client)
    game = started(client, club, ["Anna", "Bruno", "Carla"])
    hand(client, game, gatti3_hand(0, declarations=[FAMILY_Q]))
    hand(client, game, gatti3_hand(1))
    hand(client, game, gatti3_hand(2))
    bruno = game["club"]["members"][1]
    engine = client.application.extensions["segnapunti.store"].engine
    with engine.begin() as connection:
        emptied = connection.execute(text("UPDATE club_results SET facts = NULL "
                                          "WHERE game_id = :game"), {"game": game["id"]})
        assert emptied.rowcount == 3
    found = figures(block(ok_stats(client, club, bruno), "gatti"))
    assert (found["dealt"], found["declared.family"]) == (1, 1)
    with engine.connect() as connection:
        left = connection.execute(text("SELECT count(*) FROM club_results WHERE game_id = :game "
                                       "AND facts IS NULL"), {"game": game["id"]}).scalar()
    assert left == 0


def afresh(client: Any, club: dict[str, Any], member_id: str, **query: str) -> Any:
    """The member's statistics as a service that kept nothing reads them: every row read
    and summed."""
    kept: ClubService = client.application.extensions["segnapunti.clubs"]
    fresh = ClubService(kept.repository, kept.clock, kept.opens_something, kept.fill_facts)
    found = fresh.member_stats(club["id"], club["tokens"]["read"], member_id,
                               query.get("season"), query.get("variant"))
    return orjson.loads(orjson.dumps(stats_json(found)))


def test_statistics_kept_between_reads_are_the_rows_summed_again(client: Any) -> None:
    """Read again, the statistics fold in only the rows written since (a corrected game's
    old row out, its new one in); a game that no longer counts, a merge and a forget are
    followed too: each read says what summing every row again says."""
    club = found_club(client)
    first = started(client, club, ["Anna", "Bruno", "Carla"])
    second = started(client, club, ["Anna", "Bruno", "Dario"])
    third = started(client, club, ["Anny", "Carla", "Dario"])
    anna, bruno, carla = first["club"]["members"]
    anny = third["club"]["members"][0]
    for dealer in range(3):
        hand(client, first, gatti3_hand(dealer, counting_to=0))
        hand(client, second, gatti3_hand(dealer, counting_to=1,
                                         declarations=[THREE_QUEENS] if dealer else []))
        hand(client, third, gatti3_hand(dealer, counting_to=2))
    season = client.post(f"{CLUBS}/{club['id']}/seasons", json={
        "name": "Now", "from": "2020-01-01", "to": "2099-12-31"},
        headers=auth(club["tokens"]["edit"])).json["id"]

    def same(who: str) -> None:
        for query in ({}, {"variant": "gatti-3"}, {"season": season}):
            assert ok_stats(client, club, who, **query) == afresh(client, club, who, **query)

    for who in (anna, bruno, carla):
        same(who)
    edit = {**auth(first["tokens"]["edit"]), "If-Match": "*"}
    assert client.put(f"{GAMES}/{first['id']}/hands/3", json=gatti3_hand(2, counting_to=1),
                      headers=edit).status_code == 200
    same(anna)
    assert client.delete(f"{GAMES}/{first['id']}/hands/3", headers=edit).status_code == 204
    assert ok_stats(client, club, anna)["games"] == 1  # the first game no longer counts
    same(anna)
    same(bruno)
    hand(client, first, gatti3_hand(2, counting_to=2))
    assert ok_stats(client, club, anna)["games"] == 2
    same(anna)
    merged = client.post(f"{CLUBS}/{club['id']}/members/{anny}/merge", json={"into": anna},
                         headers=auth(club["tokens"]["edit"]))
    assert merged.status_code == 200, merged.json
    assert ok_stats(client, club, anna)["games"] == 3
    same(anna)
    same(carla)
    dario = second["club"]["members"][2]
    forgotten = client.post(f"{CLUBS}/{club['id']}/members/{dario}/forget",
                            headers=auth(club["tokens"]["edit"]))
    assert forgotten.status_code == 200, forgotten.json
    met = block(ok_stats(client, club, anna), "gatti")["opponents"]["members"]
    assert {m["member"]["id"]: m["member"]["name"] for m in met}[dario] == "Player 4"
    same(anna)
    same(carla)


def test_statistics_a_members_evenings_are_the_days_they_played(client: Any) -> None:
    """Three stand-alone games finished the same day are one evening of three games, not
    three evenings: the day, its games, hands and points as the games read."""
    club = found_club(client)
    first = started(client, club, ["Anna", "Bruno", "Carla"])
    anna = first["club"]["members"][0]
    games = [first] + [started(client, club, [{"member": anna}, "Bruno", "Carla"])
                       for _ in range(2)]
    for game in games:
        for dealer in range(3):
            hand(client, game, gatti3_hand(dealer))
    played = [seats(client, game)[0] for game in games]
    history = client.get(f"{CLUBS}/{club['id']}/members/{anna}/ratings?family=gatti",
                         headers=auth(club["tokens"]["read"])).json["history"]
    finished = {point["finished_at"][:10] for point in history}
    assert len(history) == 3 and len(finished) == 1
    evenings = block(ok_stats(client, club, anna), "gatti")["evenings"]
    assert evenings["says"]
    assert evenings["days"] == [{
        "date": finished.pop(), "games": 3, "events": 0,
        "hands": sum(p[3] for p in played), "points": sum(p[0] for p in played),
        "points_per_hand": round(sum(p[0] for p in played) / sum(p[3] for p in played), 2)}]
