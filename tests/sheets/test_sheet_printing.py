"""Printing without holding the service: a version's sheet is rendered once per
worker and kept (by game version, language and detail, within a byte budget), the sheet says
the time of the game's last change so that a kept one is never stale, and renders run a few
at a time: a request that cannot get its turn is a 503 with Retry-After, never a held
thread."""

from __future__ import annotations

import threading
import time
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sheet_samples import SAMPLES, Sample
from sheet_support import HttpGame, pdf_text
from waiting import wait_until

from service.application.printouts import PrinterBusy, SheetPrinter, as_of
from service.pdf import render_sheet


class Counting:
    """A renderer that counts its calls (and may take its time)."""

    def __init__(self, pause: float = 0.0) -> None:
        self.calls = 0
        self.pause = pause

    def __call__(self, sheet: Any) -> bytes:
        self.calls += 1
        time.sleep(self.pause)
        return render_sheet(sheet)


@pytest.fixture()
def counting(client: Any) -> Counting:
    renderer = Counting()
    client.application.extensions["segnapunti.printer"].render = renderer
    return renderer


def test_a_version_is_rendered_once_and_then_sent_as_kept(
        client: Any, counting: Counting) -> None:
    game = HttpGame(client, SAMPLES["gatti-4"])
    first = game.get("/sheet.pdf")
    second = game.get("/sheet.pdf", token=game.edit)  # either token: the same sheet
    assert first.status_code == second.status_code == 200
    assert first.data == second.data
    assert counting.calls == 1
    game.get("/sheet.pdf?lang=it")
    game.get("/sheet.pdf?detail=1")
    game.get("/sheet.pdf?lang=it&detail=1")
    game.get("/sheet.pdf?lang=it")
    assert counting.calls == 4


def test_a_new_version_is_rendered_anew(client: Any, counting: Counting) -> None:
    sample = SAMPLES["mitigatti-3"]
    game = HttpGame(client, sample)
    before = pdf_text(game.get("/sheet.pdf").data)
    hand = client.get(f"{game.url}/hands/1", headers={"Authorization": f"Bearer {game.read}"})
    deleted = client.delete(f"{game.url}/hands/{len(sample.hands)}",
                            headers={"Authorization": f"Bearer {game.edit}",
                                     "If-Match": "*"})
    assert hand.status_code == 200 and deleted.status_code == 204
    after = pdf_text(game.get("/sheet.pdf").data)
    assert counting.calls == 2
    assert before != after


def test_the_sheet_says_the_time_of_the_games_last_change(stored: Any) -> None:
    view = stored(SAMPLES["gatti-3"])
    newest = max(hand.updated_at for hand in view.hands)
    assert as_of(view) == newest
    text = pdf_text(SheetPrinter(render_sheet).pdf(view, "en", detail=False)[0])
    assert "As of" in text and "Printed" not in text
    # In the game's time zone (Gatti's default, Italy's), named by its abbreviation.
    local = newest.astimezone(ZoneInfo("Europe/Rome"))
    assert f"{local.year}, {local.strftime('%H:%M')} {local.strftime('%Z')}" in text
    assert local.strftime("%Z") in ("CET", "CEST")
    italian = pdf_text(SheetPrinter(render_sheet).pdf(view, "it", detail=False)[0])
    assert "Aggiornato al" in italian
    # Two renders of one version, at different moments, print the same words.
    time.sleep(1.1)
    assert pdf_text(SheetPrinter(render_sheet).pdf(view, "en", detail=False)[0]) == text


def test_kept_sheets_stay_within_their_bytes(stored: Any) -> None:
    renderer = Counting()
    views = [stored(SAMPLES[name]) for name in ("gatti-3", "gatti-4", "ottocento")]
    size = len(SheetPrinter(render_sheet).pdf(views[0], "en", detail=False)[0])
    printer = SheetPrinter(renderer, cache_bytes=int(size * 2.5))
    for view in views:
        printer.pdf(view, "en", detail=False)
    assert printer._kept.total <= int(size * 2.5)
    printer.pdf(views[0], "en", detail=False)  # the oldest went first
    assert renderer.calls == 4


def test_a_request_that_cannot_get_its_turn_is_a_503(client: Any) -> None:
    game = HttpGame(client, SAMPLES["gatti-3"])
    busy = SheetPrinter(render_sheet, concurrency=1, wait_s=0.2)
    client.application.extensions["segnapunti.printer"] = busy
    assert busy._slots.acquire(timeout=1)  # another sheet being printed
    try:
        started = time.monotonic()
        response = game.get("/sheet.pdf")
        waited = time.monotonic() - started
    finally:
        busy._slots.release()
    assert response.status_code == 503
    assert response.mimetype == "application/problem+json"
    assert response.json["code"] == "printer_busy"
    assert response.headers["Retry-After"] == "1"
    assert 0.15 < waited < 2
    assert game.get("/sheet.pdf").status_code == 200  # its turn, now


def test_two_requests_for_one_version_render_it_once(stored: Any) -> None:
    view = stored(SAMPLES["ottocento"])
    renderer = Counting(pause=0.3)
    printer = SheetPrinter(renderer, concurrency=2)
    results: list[bytes] = []
    threads = [threading.Thread(target=lambda: results.append(
        printer.pdf(view, "en", detail=True)[0])) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert renderer.calls == 1
    assert len(results) == 3 and len(set(results)) == 1


def test_waiting_for_another_render_is_bounded_too(stored: Any) -> None:
    view = stored(SAMPLES["gatti-4"])
    renderer = Counting(pause=1.0)
    printer = SheetPrinter(renderer, wait_s=0.1)
    first = threading.Thread(target=lambda: printer.pdf(view, "en", detail=False))
    first.start()
    assert wait_until(lambda: renderer.calls == 1, 30)  # the first is rendering
    with pytest.raises(PrinterBusy):
        printer.pdf(view, "en", detail=False)
    first.join()
    assert printer.pdf(view, "en", detail=False)[0].startswith(b"%PDF")


def test_the_sheet_prints_the_games_own_time_zone(stored: Any) -> None:
    sample = SAMPLES["mitigatti-3"]
    tokyo = stored(Sample(sample.variant, sample.players, sample.hands,
                          {**sample.options, "time_zone": "Asia/Tokyo"}))
    text = pdf_text(SheetPrinter(render_sheet).pdf(tokyo, "it", detail=False)[0])
    started = tokyo.game.created_at.astimezone(ZoneInfo("Asia/Tokyo"))
    assert f"{started.year}, {started.strftime('%H:%M')} JST" in text
    paris = pdf_text(SheetPrinter(render_sheet).pdf(stored(sample), "it", detail=False)[0])
    assert " CET" in paris or " CEST" in paris  # Nice's game: France's time by default
