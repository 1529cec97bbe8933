"""Helpers for the HTTP tests: valid and invalid hand records, a game-playing client,
problem assertions. Imported by the test modules as ``http_support``."""

from __future__ import annotations

from typing import Any

API = "/api/v1"
PROBLEM = "application/problem+json"

# Gatti's counting cards (rulebook §2.1): 52 points in all.
COUNTING = [
    "T1", "T21", "FOOL",
    *(f"{rank}{suit}" for rank in "KQCJ" for suit in "HDCS"),
]


def gatti3_hand(dealer: int, *, counting_to: int = 0, tricks: tuple[int, int, int] = (10, 8, 8),
                **extra: Any) -> dict[str, Any]:
    """A valid ``gatti-3`` record in summary form: 26 tricks (the discard counts as one) and
    every counting card in the pile of seat ``counting_to``."""
    piles = [
        {"side": side, "tricks": tricks[side],
         "counting": COUNTING if side == counting_to else []}
        for side in range(3)
    ]
    return {"dealer": dealer, "discard": ["2H", "3H", "4S"], "piles": piles, **extra}


def invalid_hand(dealer: int) -> dict[str, Any]:
    """A record the rules reject: a King discarded and a card that does not exist."""
    hand = gatti3_hand(dealer)
    hand["discard"] = ["KH", "XX", "4S"]
    return hand


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Table:
    """A game seen from a client: creates it, then plays hands with its edit token."""

    def __init__(self, client: Any, variant: str = "gatti-3",
                 players: tuple[str, ...] = ("Anna", "Bruno", "Carla"), **body: Any) -> None:
        self.client = client
        response = client.post(f"{API}/games",
                               json={"variant": variant, "players": list(players), **body})
        assert response.status_code == 201, response.json
        self.created = response
        self.id: str = response.json["id"]
        self.edit: str = response.json["tokens"]["edit"]
        self.read: str = response.json["tokens"]["read"]
        self.url = f"{API}/games/{self.id}"

    def get(self, token: str | None = None) -> Any:
        return self.client.get(self.url, headers=auth(token or self.read))

    def state(self) -> dict[str, Any]:
        response = self.get()
        assert response.status_code == 200, response.json
        return response.json

    def add(self, record: dict[str, Any], token: str | None = None) -> Any:
        return self.client.post(f"{self.url}/hands", json=record,
                                headers=auth(token or self.edit))

    def play(self, counting_to: int = 0) -> dict[str, Any]:
        dealer = self.state()["next_dealer"]
        response = self.add(gatti3_hand(dealer, counting_to=counting_to))
        assert response.status_code == 201, response.json
        return response.json

    def hand(self, number: int, token: str | None = None) -> Any:
        return self.client.get(f"{self.url}/hands/{number}", headers=auth(token or self.read))

    def history(self) -> list[dict[str, Any]]:
        response = self.client.get(f"{self.url}/history", headers=auth(self.read))
        assert response.status_code == 200, response.json
        return response.json["versions"]


def assert_problem(response: Any, status: int, *, code: str | None = None) -> dict[str, Any]:
    """The response is an RFC 9457 problem with this status (and top-level code)."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == PROBLEM, response.mimetype
    body = response.json
    assert body["status"] == status
    assert isinstance(body["type"], str) and body["type"]
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str)
    assert isinstance(body["errors"], list)
    for error in body["errors"]:
        assert {"field", "code", "message"} <= set(error)
    if code is not None:
        assert body["code"] == code, body
    return body


def error_fields(body: dict[str, Any]) -> dict[str, str]:
    return {e["field"]: e["code"] for e in body["errors"]}
