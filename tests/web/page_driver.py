"""A player at the table, driving the phone page the way a person does: taps on chips, cards
and steppers, text in the name fields. Shared by the browser tests and the screenshot script."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

from playwright.sync_api import expect

#: What a combination asks after its kind, in order.
_COMBO_STEPS = {"gatti": (), "family": ("suit",), "four_of_a_kind": ("rank",),
                "three_of_a_kind": ("rank",), "cricca": ("type", "count"),
                "sequence": ("type", "count")}


class Table:
    def __init__(self, page: Any, base: str) -> None:
        self.page = page
        self.base = base

    # -- starting a game -------------------------------------------------------------------

    def start_game(self, variant: str, family: str, names: list[str], dealer: int = 0,
                   options: dict[str, Any] | None = None) -> dict[str, str]:
        """Start a game from the home page; returns the share links shown."""
        page = self.page
        page.goto(self.base + "/")
        page.click("#new-game")
        self.choose(f"#family-{family}")
        if page.locator(f"#variant-{variant}").count():
            self.choose(f"#variant-{variant}")
        expect(page.locator("#variant-summary")).to_have_attribute("data-variant", variant)
        for name, value in (options or {}).items():
            if name == "melds":
                self.choose(f"#opt-melds-{value}")
            elif name == "bagatto_ultimo":
                switch = page.locator("#opt-bagatto")
                if (switch.get_attribute("aria-checked") == "true") != value:
                    switch.click()
            elif name == "marca_value":
                page.fill("#opt-marca", value)
        for i, name in enumerate(names):
            page.fill(f"#player-{i}", name)
        self.choose(f"#dealer-{dealer}")
        page.click("#start")
        page.wait_for_selector("#to-sheet")
        links = {kind: page.input_value(f"#link-{kind}") for kind in ("edit", "read")
                 if page.locator(f"#link-{kind}").count()}
        return links

    def open_game(self, variant: str, names: list[str]) -> dict[str, Any]:
        """A game made through the API (the new-game form has tests of its own) and its sheet
        opened by its edit link inside the page as it stands, which is not loaded again; the
        game as the API made it."""
        game: dict[str, Any] = call(self.base, "POST", "/games",
                                    body={"variant": variant, "players": names})
        self.page.goto(f"{self.base}/#/games/{game['id']}?token={game['tokens']['edit']}")
        self.page.locator(f"#new-hand[href='#/games/{game['id']}/hand']").wait_for()
        return game

    @classmethod
    def seated(cls, page: Any, base: str, variant: str, family: str, names: list[str],
               *, new_hand: bool = False) -> Table:
        """A game started, its sheet open, and with ``new_hand`` the form of its first hand."""
        table = cls(page, base)
        table.start_game(variant, family, names)
        table.to_sheet()
        if new_hand:
            table.new_hand()
        return table

    @classmethod
    def with_a_hand_by_points(cls, page: Any, base: str,
                              names: list[str]) -> tuple[Table, str, str, list[str]]:
        """A ``gatti-3`` game seated on the page and its first hand entered by points (39, 20,
        the rest): the table, the game's id, its edit token as the phone keeps it, and the
        players' own links."""
        table = cls.seated(page, base, "gatti-3", "gatti", names, new_hand=True)
        table.points(0, 39)
        page.keyboard.type("20")
        table.save_and_wait()
        game_id = page.evaluate("location.hash").split("/")[2]
        edit = page.evaluate(
            f"JSON.parse(localStorage.getItem('segnapunti.games.v1'))['{game_id}'].token")
        links = call(base, "GET", f"/games/{game_id}/players", edit)["links"]
        return table, game_id, edit, links

    def to_sheet(self) -> None:
        self.page.click("#to-sheet")
        self.page.wait_for_selector("table.sheet")

    # -- a hand ----------------------------------------------------------------------------

    def new_hand(self) -> None:
        self.page.click("#new-hand")
        self.page.wait_for_selector("#save")

    def choose(self, selector: str) -> None:
        """Tap a chip: the label around a radio button."""
        self.page.locator(f"label:has({selector})").click()
        expect(self.page.locator(selector)).to_be_checked()

    def seat_chip(self, group: str, seat: int) -> None:
        self.choose(f"#{group}-{seat}")

    def declare(self, seat: int, kind: str, *, suit: str | None = None, rank: str | None = None,
                count: int | None = None) -> None:
        """A declaration said at the table: who, what, and its suit, rank or count."""
        page = self.page
        page.click("#decl-add")
        self.seat_chip("decl-seat", seat)
        self.choose("#decl-mode-kind")
        self.choose(f"#decl-kind-{kind}")
        if suit:
            self.choose(f"#decl-suit-{suit}")
        if rank:
            self.choose(f"#decl-rank-{rank}")
        if count is not None:
            self.fill_number("#decl-count", count)
        page.click("#decl-confirm")

    def declare_cards(self, seat: int, cards: list[str], pick: str) -> None:
        """A declaration by its cards: tap them, ask for suggestions, pick one by its label."""
        page = self.page
        page.click("#decl-add")
        self.seat_chip("decl-seat", seat)
        if page.locator("#decl-mode-cards").count():
            self.choose("#decl-mode-cards")
        for card in cards:
            page.click(f"#decl-card-{card}")
        page.click("#decl-suggest")
        page.locator("#suggestions button", has_text=re.compile(pick, re.IGNORECASE)).first.click()

    def fill_number(self, selector: str, value: int) -> None:
        field = self.page.locator(selector)
        field.fill(str(value))
        field.dispatch_event("change")

    def by_cards(self) -> None:
        """Count card by card (the hand in dispute) rather than by the points counted."""
        if not self.page.locator("#pile-mode-cards").is_checked():
            self.choose("#pile-mode-cards")

    def points(self, side: int, points: int) -> None:
        """One side's points as the table counted them, typed into its field."""
        field = self.page.locator(f"#points-{side}")
        field.click()
        field.press_sequentially(str(points))

    def combination(self, side: int, kind: str, *choices: str) -> None:
        """A combination a pile holds, by kind: then its suit, rank, or type and count."""
        page = self.page
        page.click(f"#combo-add-{side}")
        steps = [("kind", kind), *zip(_COMBO_STEPS[kind], choices, strict=True)]
        for group, value in steps[:-1]:
            self.choose(f"#combo-{group}-{value}")
        group, value = steps[-1]  # the last choice adds it and closes the picker
        page.locator(f"label:has(#combo-{group}-{value})").click()
        expect(page.locator("#combo-picker")).to_have_count(0)

    def pile(self, side: int, tricks: int, cards: list[str]) -> None:
        """One side's pile: its tricks with the stepper's field, its cards by tapping them."""
        page = self.page
        self.by_cards()
        page.click(f"#side-tab-{side}")
        expect(page.locator(f"#side-tab-{side}")).to_have_attribute("aria-selected", "true")
        self.fill_number("#tricks", tricks)
        for card in cards:
            page.click(f"#card-{card}")
            expect(page.locator(f"#card-{card}")).to_have_attribute("aria-pressed", "true")

    def bagatto(self, seat: int, won: bool) -> None:
        page = self.page
        page.click("#bagatto-on")
        self.seat_chip("bagatto-seat", seat)
        self.choose("#bagatto-won-won" if won else "#bagatto-won-lost")

    def save(self) -> None:
        self.page.click("#save")

    def save_and_wait(self) -> None:
        self.save()
        self.page.wait_for_selector("table.sheet")

    # -- reading the sheet -----------------------------------------------------------------

    def stored_game(self) -> dict[str, Any]:
        """The game the page shows, as the service holds it (read with the phone's token)."""
        game_id = self.page.evaluate("location.hash").split("/")[2]
        token = self.page.evaluate(
            f"JSON.parse(localStorage.getItem('segnapunti.games.v1'))['{game_id}'].token")
        request = urllib.request.Request(f"{self.base}/api/v1/games/{game_id}",
                                         headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request) as response:
            data: dict[str, Any] = json.load(response)
        return data

    def totals(self) -> dict[str, str]:
        cells = self.page.locator("tfoot td[data-total]")
        out = {}
        for i in range(cells.count()):
            cell = cells.nth(i)
            out[cell.get_attribute("data-total")] = cell.inner_text().replace("★", "").strip()
        return out


# -- the page's modules, as it loaded them ---------------------------------------------------


def new_event_form(page: Any, base: str, variant: str, name: str) -> None:
    """The home page's new-event form, with ``variant`` chosen (its summary shown) and the
    event named ``name``."""
    page.goto(base + "/")
    page.click("#new-event")
    page.locator(f"label:has(#variant-{variant})").click()
    expect(page.locator("#variant-summary")).to_have_attribute("data-variant", variant)
    page.fill("#event-name", name)


def king_shown_twice(phone: Any) -> Table:
    """A new gatti-3 hand on ``phone`` where Bruno declares the family of ♥ and Carla four
    Kings, so the King of Hearts is shown by two players (R2), with piles that count it
    whole; not saved. The table at its form."""
    table = Table(phone.page, phone.base)
    table.start_game("gatti-3", "gatti", ["Anna", "Bruno", "Carla"])
    table.to_sheet()
    table.new_hand()
    table.declare(1, "family", suit="H")
    table.declare(2, "four_of_a_kind", rank="K")
    table.pile(0, 9, ["T1", "QH"])
    table.pile(1, 9, ["T21"])
    return table


def page_module(page: Any, name: str, script: str, arg: Any = None) -> Any:
    """What ``script`` (a JavaScript function of a module's exports and ``arg``) returns, run
    on the page's module ``name`` (``"i18n.js"``) as the page loaded it: at the version the
    loader imported, so the same instance, in the page's language with its words."""
    url = page.evaluate("""(name) => JSON.parse(document.getElementById("boot").textContent)
        .modules.find((url) => url.startsWith(`/app/${name}?`))""", name)
    assert url, name
    return page.evaluate(
        f"async (arg) => ({script})(await import({json.dumps(url)}), arg)", arg)


# -- the API, as a table's scorekeeper or a script calls it --------------------------------


def call(base: str, method: str, path: str, token: str | None = None, body: Any = None,
         headers: dict[str, str] | None = None) -> Any:
    headers = {"Content-Type": "application/json", **(headers or {})}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(f"{base}/api/v1{path}", method=method, headers=headers,
                                     data=None if body is None else json.dumps(body).encode())
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def club_game(base: str, club_id: str, club_edit: str, side0: int = 40,
              side1: int = 20) -> dict[str, Any]:
    """A gatti-3 game of the club (Anna, Bruno, Carla: members by name) played to its end
    through the API, three hands of ``side0`` points to side 0 and ``side1`` to side 1; the
    game."""
    game: dict[str, Any] = call(base, "POST", "/games", body={
        "variant": "gatti-3", "players": ["Anna", "Bruno", "Carla"], "club": club_id},
        headers={"Club-Authorization": f"Bearer {club_edit}"})
    token = game["tokens"]["edit"]
    for _ in range(3):
        dealer = call(base, "GET", f"/games/{game['id']}", token)["next_dealer"]
        call(base, "POST", f"/games/{game['id']}/hands", token, {
            "dealer": dealer, "piles": [{"side": 0, "points": side0}, {"side": 1, "points": side1}]})
    return game


def record(base: str, table: dict[str, Any], side0: int) -> None:
    """A hand at an event's table (``gatti-4``, by points), entered by its scorekeeper with
    the table's own edit token."""
    game, token = table["game"], table["tokens"]["edit"]
    dealer = call(base, "GET", f"/games/{game}", token)["next_dealer"]
    call(base, "POST", f"/games/{game}/hands", token, {
        "dealer": dealer, "piles": [{"side": 0, "points": side0}, {"side": 1, "points": 72 - side0}]})
