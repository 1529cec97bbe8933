"""A link per player, which "each player vouches for the hand" stands on: creating a
game gives each seat a token and a link that read the game as that seat and change nothing;
the edit token shows them again (they are worked out from it), a game from before player
links gets them then; the access rules hold for them as for the other tokens."""

from __future__ import annotations

from typing import Any

from http_support import assert_problem, auth, gatti3_hand


def test_a_new_game_gives_each_player_a_link(table: Any) -> None:
    game = table()
    tokens = game.created.json["tokens"]["players"]
    links = game.created.json["links"]["players"]
    assert len(tokens) == 3 and len(set(tokens)) == 3
    assert all(token not in (game.edit, game.read) for token in tokens)
    assert links == [link.replace(link.split("token=")[1], token)
                     for link, token in zip(links, tokens, strict=True)]
    assert all(f"#/games/{game.id}?token=" in link for link in links)


def test_a_dummys_seat_has_no_link(table: Any) -> None:
    game = table(variant="gatti-2", players=("Anna", "Bruno"))
    tokens = game.created.json["tokens"]["players"]
    assert tokens[2:] == [None, None] and all(tokens[:2])
    assert game.created.json["links"]["players"][2:] == [None, None]


def test_a_player_link_reads_the_game_and_changes_nothing(client: Any, table: Any) -> None:
    game = table()
    game.play()
    player = game.created.json["tokens"]["players"][1]
    read = client.get(game.url, headers=auth(player))
    assert read.status_code == 200 and read.headers["Game-Access"] == "player"
    assert client.get(f"{game.url}/hands/1", headers=auth(player)).status_code == 200
    assert client.get(f"{game.url}/history", headers=auth(player)).status_code == 200
    refused = client.post(f"{game.url}/hands", headers=auth(player),
                          json=gatti3_hand(game.state()["next_dealer"]))
    assert_problem(refused, 403, code="read_only_token")
    assert "player's link" in refused.json["detail"]
    hand = client.get(f"{game.url}/hands/1", headers=auth(game.read))
    deleted = client.delete(f"{game.url}/hands/1",
                            headers={**auth(player), "If-Match": hand.headers["ETag"]})
    assert deleted.status_code == 403
    assert len(game.state()["hands"]) == 1


def test_the_edit_token_shows_the_links_again(client: Any, table: Any) -> None:
    game = table()
    again = client.get(f"{game.url}/players", headers=auth(game.edit))
    assert again.status_code == 200
    assert again.json["tokens"] == game.created.json["tokens"]["players"]
    assert again.json["links"] == game.created.json["links"]["players"]
    for token in (game.read, again.json["tokens"][0]):
        assert_problem(client.get(f"{game.url}/players", headers=auth(token)), 403)
    assert_problem(client.get(f"{game.url}/players"), 401)
    other = table()
    assert_problem(client.get(f"{other.url}/players", headers=auth(game.edit)), 404)


def test_a_player_link_of_one_game_opens_no_other(client: Any, table: Any) -> None:
    game, other = table(), table()
    player = game.created.json["tokens"]["players"][0]
    assert_problem(client.get(other.url, headers=auth(player)), 404)
    assert_problem(client.get(other.url, headers=auth("x" * 43)), 401)


def test_a_game_from_before_player_links_gets_them_from_its_edit_token(
        client: Any, table: Any, app: Any) -> None:
    game = table()
    player = game.created.json["tokens"]["players"][2]
    repository = app.extensions["segnapunti.games"].repository
    with repository._write() as connection:  # as a game made before the links were
        connection.exec_driver_sql(f"DELETE FROM player_tokens WHERE game_id = '{game.id}'")
    assert_problem(client.get(game.url, headers=auth(player)), 401)
    shown = client.get(f"{game.url}/players", headers=auth(game.edit))
    assert shown.json["tokens"][2] == player
    assert client.get(game.url, headers=auth(player)).headers["Game-Access"] == "player"
