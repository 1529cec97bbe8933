"""The traps an independent evening fell into at phone size, in it-IT: each
test does what the evening did and checks the page no longer lets it go wrong."""

from __future__ import annotations

import datetime
from typing import Any

from page_driver import Table, call
from playwright.sync_api import expect
from test_web_accessibility import violations

THREE = ["Anna", "Bruno", "Carla"]


def retype_in_the_middle(table: Table) -> None:
    """Anna's "20" tapped in its middle, ⌫, then 1: what the evening did."""
    page = table.page
    anna = page.locator("#points-0")
    box = anna.bounding_box()
    assert box is not None
    anna.click(position={"x": 14, "y": box["height"] / 2})
    page.keyboard.press("Backspace")
    page.keyboard.type("1")


def test_a_tap_selects_the_number_and_a_deletion_never_moves_on(phones: Any) -> None:
    phone = phones(locale="it-IT")
    page = phone.page
    table = Table.seated(page, phone.base, "gatti-3", "gatti", THREE, new_hand=True)
    table.points(0, 20)
    assert page.evaluate("document.activeElement.id") == "points-1"  # 20 is complete
    page.keyboard.type("5")
    retype_in_the_middle(table)
    # The tap selected "20": ⌫ emptied it, the focus stayed, "1" replaced it; Bruno kept 5.
    expect(page.locator("#points-0")).to_have_value("1")
    expect(page.locator("#points-1")).to_have_value("5")
    assert page.evaluate("document.activeElement.id") == "points-0"
    # A deletion that leaves a complete-looking "0" does not move on either.
    page.keyboard.press("Backspace")
    page.keyboard.type("20")  # complete: on to Bruno's
    page.locator("#points-0").click()
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Backspace")
    expect(page.locator("#points-0")).to_have_value("0")
    assert page.evaluate("document.activeElement.id") == "points-0"
    # A field the focus moves to selects what it holds: what is typed replaces it.
    page.keyboard.press("Delete")  # the caret is before the "0"
    page.keyboard.type("39")
    assert page.evaluate("document.activeElement.id") == "points-1"
    page.keyboard.type("20")
    expect(page.locator("#points-1")).to_have_value("20")
    expect(page.locator(".check-list")).to_contain_text("39 + 20 + 19 = 78")

    # The same in the correction form.
    table.save_and_wait()
    page.click("tr.hand[data-hand='1'] .hand-button")
    page.click("#correct-1")
    page.wait_for_selector("#save")
    expect(page.locator("#points-0")).to_have_value("39")
    retype_in_the_middle(table)
    expect(page.locator("#points-0")).to_have_value("1")
    expect(page.locator("#points-1")).to_have_value("20")
    assert page.evaluate("document.activeElement.id") == "points-0"
    # The stepper's field too: tapped, what it holds is selected, and typing replaces it.
    table.by_cards()
    table.fill_number("#tricks", 12)
    page.locator("#tricks").click()
    page.keyboard.type("9")
    expect(page.locator("#tricks")).to_have_value("9")


def test_an_untouched_hand_says_what_is_missing_not_a_sum_of_nothing(phones: Any) -> None:
    phone = phones(locale="it-IT")
    page = phone.page
    table = Table.seated(page, phone.base, "gatti-3", "gatti", THREE, new_hand=True)
    checks = page.locator(".check-list")
    expect(checks.locator("li.bad").first).to_contain_text("Non c'è ancora niente")
    expect(checks).not_to_contain_text("devono fare")
    table.by_cards()  # nor by cards: no "0 + 0 + 0", no "0 of 24 tricks"
    expect(checks.locator("li.bad").first).to_contain_text("Non c'è ancora niente")
    expect(checks).not_to_contain_text("devono fare")
    expect(checks.locator("li")).to_have_count(1)
    # Something entered, the sum is said.
    table.choose("#pile-mode-points")
    table.points(0, 39)
    expect(checks).to_contain_text("39 + 0 + 39 = 78")


def test_the_ottocento_form_names_empty_seats_by_their_labels(phones: Any) -> None:
    phone = phones(locale="it-IT")
    page = phone.page
    table = Table(page, phone.base)
    page.goto(phone.base + "/")
    page.click("#new-game")
    table.choose("#family-ottocento")
    pairing = page.locator("#pairing")
    expect(pairing).to_have_text("Coppie: Giocatore 1 & Giocatore 3 contro Giocatore 2 & Giocatore 4.")
    expect(page.locator("#dealers label")).to_have_count(4)  # a dealer to choose before names
    page.fill("#player-0", "Anna")
    expect(pairing).to_have_text("Coppie: Anna & Giocatore 3 contro Giocatore 2 & Giocatore 4.")
    expect(page.locator("body")).not_to_contain_text("undefined")


def by_api(base: str, game: str, token: str, hands: int) -> None:
    """``hands`` gatti-3 hands recorded by another phone (39, 20, the rest)."""
    for _ in range(hands):
        dealer = call(base, "GET", f"/games/{game}", token)["next_dealer"]
        call(base, "POST", f"/games/{game}/hands", token, {
            "dealer": dealer, "piles": [{"side": 0, "points": 39}, {"side": 1, "points": 20}]})


def offline_hand_on_a_finished_game(phones: Any) -> tuple[Any, Table, str]:
    """A gatti-3 game of two hands on the sheet; hand 3 entered with no network while another
    phone records hand 3 and the game ends; the network back, the waiting hand is refused."""
    phone = phones(locale="it-IT")
    page = phone.page
    table, game, edit, _ = Table.with_a_hand_by_points(page, phone.base, THREE)
    by_api(phone.base, game, edit, 1)
    expect(page.locator("tr.hand")).to_have_count(2)
    phone.context.set_offline(True)
    try:
        table.new_hand()
        table.points(0, 40)
        page.keyboard.type("20")
        table.save()
        page.wait_for_selector("#outbox")
        by_api(phone.base, game, edit, 1)
    finally:
        phone.context.set_offline(False)
    expect(page.locator("#outbox .outbox-item.refused")).to_be_visible()
    return phone, table, game


def test_a_refusal_says_the_game_by_its_players_not_its_id(phones: Any) -> None:
    phone, table, game = offline_hand_on_a_finished_game(phones)
    refused = table.page.locator("#outbox .outbox-item.refused")
    expect(refused).to_contain_text("Anna, Bruno e Carla")
    expect(refused).not_to_contain_text(game)
    phone.problems.clear()  # the browser logs each request refused while offline


def test_a_refused_hand_already_recorded_is_dropped_first_and_none_past_the_end(
        phones: Any) -> None:
    """Hands 2 and 3 entered with no network while another phone records hand 2."""
    phone = phones(locale="it-IT")
    page = phone.page
    table, game, edit, _ = Table.with_a_hand_by_points(page, phone.base, THREE)
    phone.context.set_offline(True)
    try:
        for first in (40, 30):
            table.new_hand()
            table.points(0, first)
            page.keyboard.type("20")
            table.save()
            page.wait_for_selector("#outbox")
        # Three hands counted, the game's three: no "Mano 4 di 3", no hand 4 offered.
        expect(page.locator(".sheet-head .status")).to_have_text("Tutte le 3 mani segnate")
        expect(page.locator("#new-hand")).to_have_count(0)
        sheet = page.url
        page.goto(sheet + "/hand")  # nor is the form opened past the end: back to the sheet
        expect(page).to_have_url(sheet)
        expect(page.locator("#save")).to_have_count(0)
        by_api(phone.base, game, edit, 1)  # hand 2, on another phone
    finally:
        phone.context.set_offline(False)
    refused = page.locator("#outbox .outbox-item.refused")
    expect(refused).to_be_visible()
    # Behind the refused hand, hand 3 waits for the player, not for the network.
    expect(page.locator("#outbox .outbox-item").nth(1)).to_contain_text("aspetta che tu decida")
    expect(page.locator("#outbox")).not_to_contain_text("torna la rete")
    # The first offer: the service has a hand 2, drop mine. Then hand 3 goes.
    first = refused.locator("button").first
    expect(first).to_have_text("La mano 2 è già segnata: scarta la mia")
    first.click()
    expect(page.locator("#outbox")).to_have_count(0)
    hands = table.stored_game()["hands"]
    assert [[p["points"] for p in h["record"]["piles"]] for h in hands] == [
        [39, 20], [39, 20], [30, 20]]
    phone.problems.clear()  # the browser logs each request refused while offline


def test_a_refused_hand_on_a_finished_game_is_dropped_only_when_asked(phones: Any) -> None:
    phone, table, _ = offline_hand_on_a_finished_game(phones)
    page = table.page
    refused = page.locator("#outbox .outbox-item.refused")
    expect(refused).to_contain_text("La partita è finita: questa mano non può più entrare.")
    expect(refused.locator("[id^='outbox-reenter-']")).to_have_count(0)
    assert violations(page) == []  # what it says is said to every reader
    asked: list[str] = []

    def answer(dialog: Any, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda d: answer(d, False))
    refused.locator("[id^='outbox-drop-']").click()
    expect(refused).to_be_visible()  # kept: the player said no
    page.once("dialog", lambda d: answer(d, True))
    refused.locator("[id^='outbox-drop-']").click()
    expect(page.locator("#outbox")).to_have_count(0)
    assert all("La partita è finita" in message for message in asked) and len(asked) == 2
    assert len(table.stored_game()["hands"]) == 3
    phone.problems.clear()


def test_a_finished_game_plays_again_and_the_home_list_tells_the_games_apart(
        phones: Any) -> None:
    phone = phones(locale="it-IT")
    page = phone.page
    table, game, edit, _ = Table.with_a_hand_by_points(page, phone.base, THREE)
    by_api(phone.base, game, edit, 2)  # the game's last two hands, on another phone
    expect(page.locator(".sheet-head .status")).to_have_text("Partita finita")
    old = table.stored_game()
    assert violations(page) == []
    page.click("#play-again")  # "Gioca ancora con gli stessi giocatori"
    table.to_sheet()
    new = table.stored_game()
    assert new["id"] != game and new["hands"] == [] and new["status"] == "in_progress"
    assert (new["variant"], new["players"], new["options"]) == (
        old["variant"], old["players"], old["options"])
    assert new["first_dealer"] == (old["first_dealer"] + 1) % 3  # the deal moves on
    # Home: two games of the same players, each with its date, variant and leader.
    page.goto(phone.base + "/")
    items = page.locator(".game-list .game-link")
    expect(items).to_have_count(2)
    finished = items.filter(has_text="ha vinto")
    expect(finished).to_have_count(1)
    expect(finished).to_contain_text("ha vinto Anna (117)")
    assert violations(page) == []
    for i in range(2):
        expect(items.nth(i)).to_contain_text("Gatti a tre")
        expect(items.nth(i).locator(".game-date")).to_contain_text(
            str(datetime.date.today().year))
