"""Screenshots of the phone page at a phone's size, for docs/screens/.

    python tests/web/make_screens.py [--out docs/screens]

Starts the service on a free port with a temporary database, plays a few hands through the
page with Debian's chromium (as the browser tests do) and saves one PNG per screen."""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # waiting, which conftest imports
sys.path.insert(2, str(Path(__file__).resolve().parents[1] / "sheets"))  # the sample games

from conftest import CHROMIUM_ARGS, ROOT, chromium_path
from page_driver import Table, call, record
from playwright.sync_api import expect, sync_playwright
from sheet_samples import long_mitigatti, long_ottocento

PHONE = {"width": 360, "height": 740}
WALL = {"width": 1280, "height": 720}
TWELVE = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ilaria", "Luca",
          "Marta", "Nino", "Olga"]


def event_screens(browser: Any, base: str, shots: Shots) -> None:
    """The new-event form, the organiser's view with a round's tables and a QR fold
    open, and the board on a wall's screen."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="it-IT",
                                  has_touch=True)
    page = context.new_page()
    page.goto(base + "/#/events/new")
    page.locator("label:has(#variant-gatti-4)").click()
    page.fill("#event-name", "Giovedì al circolo")
    page.fill("#event-roster", "\n".join(TWELVE))
    page.locator("#event-roster").blur()
    page.set_viewport_size({"width": 360, "height": 1100})  # a tall phone: the form's heart
    shots.take(page, "22-new-event", top="#format-title")
    page.set_viewport_size(PHONE)
    page.click("#start-event")
    page.click("#start-round")
    page.wait_for_selector(".table-card")
    event_id = page.evaluate("location.hash").split("/")[2]
    saved = page.evaluate(
        f"JSON.parse(localStorage.getItem('segnapunti.events.v1'))['{event_id}']")
    tables = call(base, "GET", f"/events/{event_id}/rounds/1", saved["tokens"]["edit"])["tables"]
    for t, table in enumerate(tables[:2]):
        for side0 in (40, 30, 45)[:t + 2]:
            record(base, table, side0)
    expect(page.locator("#table-2 .hands-played")).to_contain_text("3")
    page.click("#links-2 summary")
    page.wait_for_selector("#links-2 svg.qr")
    page.set_viewport_size({"width": 360, "height": 1100})
    page.mouse.move(0, 0)
    shots.take(page, "23-event-organiser", top="#round")
    context.close()

    wall = browser.new_context(viewport=WALL, device_scale_factor=1, locale="it-IT")
    board = wall.new_page()
    board.goto(saved["links"]["read"])
    board.wait_for_selector("#board-table")
    shots.take(board, "24-event-board")
    wall.close()


def door_screens(browser: Any, base: str, shots: Shots) -> None:
    """An evening that runs itself: the door on a player's phone (a name tapped), the
    entrant's own page in a round, and the organiser's screen with the door and who came."""
    club = call(base, "POST", "/clubs", body={"name": "Circolo del Tarocco"})
    members = {name: call(base, "POST", f"/clubs/{club['id']}/members", club["tokens"]["edit"],
                          {"name": name})["id"] for name in TWELVE}
    event = call(base, "POST", "/events", body={
        "name": "Giovedì al circolo", "variant": "gatti-4", "format": "individual",
        "rounds": 4, "club": club["id"], "checkin": True, "entrants": [], "round_minutes": 40},
        headers={"Club-Authorization": f"Bearer {club['tokens']['edit']}"})
    for name in TWELVE[4:11]:
        call(base, "POST", f"/events/{event['id']}/checkins", event["tokens"]["door"],
             {"member": members[name]})
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="it-IT",
                                  has_touch=True)
    page = context.new_page()
    page.goto(event["links"]["door"])
    page.click(f"#member-{members['Anna']}")
    shots.take(page, "29-door")
    page.click("#door-yes")
    page.wait_for_selector("#welcome")
    for name in TWELVE[1:4]:
        call(base, "POST", f"/events/{event['id']}/checkins", event["tokens"]["door"],
             {"member": members[name]})
    call(base, "POST", f"/events/{event['id']}/rounds", event["tokens"]["edit"], {})
    page.wait_for_selector(".open-game")
    shots.take(page, "30-entrant")
    page.goto(f"{base}/#/events/{event['id']}?token={event['tokens']['edit']}")
    page.wait_for_selector("#door-card")
    page.click("#door-link summary")
    page.wait_for_selector("#door-link svg.qr")
    page.set_viewport_size({"width": 360, "height": 1100})
    shots.take(page, "31-organiser-door")
    context.close()


def verdict_screens(browser: Any, base: str, shots: Shots) -> None:
    """A player's phone asked to check a hand, and the scorekeeper's sheet with a
    player's dispute at the top."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="it-IT",
                                  has_touch=True)
    page = context.new_page()
    *_, links = Table.with_a_hand_by_points(page, base,
                                            ["Anna", "Bruno", "Carla"])
    player = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="it-IT",
                                 has_touch=True)
    carla = player.new_page()
    carla.goto(links[2])
    carla.wait_for_selector("#confirm-1")
    carla.set_viewport_size({"width": 360, "height": 1000})  # the hand and its two buttons
    shots.take(carla, "25-player-check-hand", top="#verdict")
    carla.click("#dispute-1")
    carla.fill("#reason-1", "Bruno ha fatto 21 punti, non 20")
    carla.click("#send-dispute-1")
    expect(carla.locator("#verdict")).to_contain_text("Hai detto la tua")
    player.close()
    page.wait_for_selector("#disputes")
    page.mouse.move(0, 0)
    shots.take(page, "26-sheet-dispute")
    context.close()


def start_server(work: Path) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "1",
           "DATABASE_URL": f"sqlite:///{work / 'screens.sqlite3'}", "RATE_LIMIT_PER_MINUTE": "0",
           "HOME": str(work)}
    process = subprocess.Popen([sys.executable, "-m", "service"], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(f"{base}/api/v1/variants", timeout=1)
            return process, base
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


def chart_screens(browser: Any, base: str, shots: Shots) -> None:
    """The chart under a sheet, Ottocento's race to 800 in the light scheme and an
    evening of Mitigatti's balances in the dark (the long samples of the sheet tests, played
    through the API)."""
    for name, sample, scheme in (("27-chart-ottocento", long_ottocento(), "light"),
                                 ("28-chart-mitigatti-dark", long_mitigatti(16), "dark")):
        game = call(base, "POST", "/games", None, {
            "variant": sample.variant, "players": list(sample.players),
            "options": sample.options, "first_dealer": sample.first_dealer})
        for hand in sample.hands:
            call(base, "POST", f"/games/{game['id']}/hands", game["tokens"]["edit"], hand)
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="it-IT",
                                      color_scheme=scheme, has_touch=True)
        page = context.new_page()
        page.goto(base + "/#" + game["links"]["read"].split("#", 1)[1])
        page.wait_for_selector("#chart polyline")
        page.wait_for_timeout(800)  # the rulebook arrives and the sheet is drawn again
        shots.take(page, name, top="#chart")
        context.close()


class Shots:
    def __init__(self, out: Path) -> None:
        self.out = out
        out.mkdir(parents=True, exist_ok=True)

    def take(self, page: Any, name: str, *, top: str | None = None, full: bool = False) -> None:
        if top:
            page.locator(top).first.evaluate(
                "el => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 64)")
        else:
            page.evaluate("window.scrollTo(0, 0)")
        page.evaluate("document.getElementById('toast').hidden = true")
        page.wait_for_timeout(150)
        page.screenshot(path=str(self.out / f"{name}.png"), full_page=full)
        print("saved", name)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(ROOT / "docs" / "screens"))
    args = parser.parse_args()
    shots = Shots(Path(args.out))
    work = Path(tempfile.mkdtemp(prefix="segnapunti-screens-"))
    process, base = start_server(work)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(),
                                                 args=CHROMIUM_ARGS)
            context = browser.new_context(viewport=PHONE, device_scale_factor=2,
                                          locale="it-IT", has_touch=True)
            page = context.new_page()
            table = Table(page, base)
            page.goto(base + "/")
            shots.take(page, "01-home")

            page.click("#new-game")
            for i, name in enumerate(["Anna", "Bruno", "Carla"]):
                page.fill(f"#player-{i}", name)
            page.locator("#player-2").blur()
            shots.take(page, "02-new-game")
            shots.take(page, "03-new-game-players", top="[data-field='players']")
            page.click("#start")
            page.wait_for_selector("#to-sheet")
            shots.take(page, "04-share")
            table.to_sheet()

            table.new_hand()
            table.declare(1, "family", suit="D")
            table.declare(0, "trumps", count=10)
            page.click("#decl-add")
            table.seat_chip("decl-seat", 2)
            table.choose("#decl-mode-cards")
            for card in ["KH", "KC", "KS", "JH", "CH", "QH"]:
                page.click(f"#decl-card-{card}")
            page.click("#decl-suggest")
            page.wait_for_selector("#suggestions button")
            shots.take(page, "05-hand-declarations", top="[data-field='declarations']")
            shots.take(page, "06-hand-suggestions", top="#decl-suggest")
            page.locator("#suggestions button", has_text="Terno").first.click()
            table.pile(0, 9, ["T1", "KH", "QH", "CH", "JH"])
            table.pile(1, 10, ["T21", "FOOL", "KC", "QC", "QD", "CC", "JC"])
            shots.take(page, "07-hand-piles", top="[data-field='piles']")
            expect(page.locator("#preview")).to_contain_text("33")
            shots.take(page, "08-hand-checks", top=".checks")
            table.save_and_wait()

            table.new_hand()
            table.declare(2, "four_of_a_kind", rank="K")
            table.declare(0, "family", suit="H")
            table.pile(0, 6, ["KD", "QS"])
            table.pile(1, 12, ["QH", "QD", "QC"])
            table.save()
            page.wait_for_selector(".field-error")
            shots.take(page, "09-error-at-field", top="[data-field='declarations']")
            page.click("#decl-remove-0")
            table.declare_cards(2, ["FOOL", "T1", "T21"], "Gatti")
            table.bagatto(2, won=True)
            table.save_and_wait()
            page.click("tr.hand[data-hand='1'] .hand-button")
            shots.take(page, "10-sheet", top="h1")
            shots.take(page, "11-sheet-explained", top="#details-1")

            table.new_hand()
            table.declare(1, "trumps", count=10)
            table.declare(1, "trumps", count=11)
            # The usual way in: the points the table counted, one number a side.
            table.points(0, 31)
            page.keyboard.type("36")
            shots.take(page, "18-hand-by-points", top="[data-field='piles']")
            table.save_and_wait()
            page.click("tr.hand[data-hand='3'] .hand-button")
            page.click("tr.hand[data-hand='3'] .hand-button")
            shots.take(page, "12-sheet-finished")

            # Mitigatti, in English.
            page.click("[data-lang='en']")
            table.start_game("mitigatti-4", "mitigatti", ["Anna", "Bruno", "Carla", "Dario"],
                             options={"marca_value": "0.50"})
            table.to_sheet()
            table.new_hand()
            table.choose("#contract-card-KH")
            table.seat_chip("contract-partner", 2)
            table.declare(1, "mitigatti")
            shots.take(page, "13-mitigatti-contract")
            table.pile(0, 9, ["KH", "KD", "QH", "QD"])
            table.bagatto(1, won=True)
            table.save_and_wait()
            table.new_hand()
            table.choose("#contract-type-solo")
            table.seat_chip("contract-declarer", 3)
            page.click("#sans-prendre")
            table.pile(0, 6, ["KS", "QS", "FOOL"])
            table.save_and_wait()
            shots.take(page, "14-mitigatti-balances")
            shots.take(page, "15-mitigatti-sheet", top="table.sheet")

            # No signal: the next hand waits on the phone, and goes when the network is back.
            context.set_offline(True)
            table.new_hand()
            table.choose("#contract-card-KS")
            table.seat_chip("contract-partner", 3)
            table.points(0, 41)
            table.save()
            page.wait_for_selector("#outbox")
            shots.take(page, "21-waiting-hands", top="#outbox")
            context.set_offline(False)
            page.wait_for_selector("#outbox", state="detached", timeout=20_000)

            # Ottocento's race to 800, and the read-only link on another phone.
            links = table.start_game("ottocento", "ottocento", ["Anna", "Bruno", "Carla", "Dario"])
            table.to_sheet()
            table.new_hand()
            table.declare_cards(1, ["KH", "KD", "KS"], "cricca")
            table.pile(0, 8, ["ANGEL", "WORLD", "SUN", "MOON", "KH", "KD", "QH", "T16", "T15",
                              "T14", "T13", "MORO1", "MORO2", "1H", "1D", "JH", "JD", "CH", "CD",
                              "QD", "KC"])
            table.seat_chip("last-trick", 0)
            shots.take(page, "16-ottocento-piles", top="[data-field='piles']")
            table.save_and_wait()
            table.new_hand()
            table.points(0, 52)
            table.combination(0, "cricca", "K", "4")
            page.click("#combo-add-0")
            table.choose("#combo-kind-sequence")
            table.choose("#combo-type-trumps")
            table.seat_chip("last-trick", 1)
            shots.take(page, "19-ottocento-by-points", top="[data-field='piles']")
            page.locator("label:has(#combo-count-6)").click()
            table.save_and_wait()
            reader = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="it-IT")
            other = reader.new_page()
            other.goto(links["read"])
            other.wait_for_selector("table.sheet")
            shots.take(other, "17-read-only-ottocento")
            # The rulebook, opened at the section a line cites.
            other.goto(links["read"].split("#")[0] + "#/rules/ottocento/%C2%A74.3")
            other.wait_for_selector(".rule-section.target")
            shots.take(other, "20-rules", top=".rule-section.target")
            reader.close()
            event_screens(browser, base, shots)
            verdict_screens(browser, base, shots)
            door_screens(browser, base, shots)
            chart_screens(browser, base, shots)
            browser.close()
    finally:
        process.terminate()
        process.wait(timeout=10)


if __name__ == "__main__":
    main()
