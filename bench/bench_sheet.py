"""Benchmark: printing the score sheet of a 20-hand game.

What it measures: the time to make the PDF sheet of a stored 20-hand game from its game view
(``build_sheet`` then ``render_sheet``: the view model, the layout, the embedded font, the
page numbers), against a bare reportlab table with the same cells — the same strings, in the
same font, one ``Table`` in a ``SimpleDocTemplate``, no styling, no paragraphs — as a
yardstick that does not depend on the machine's speed. Each is the median of ``--rounds``
rounds; the ratio is the median of the rounds' ratios. The view model's own time is printed
too.

The game is the seeded 20-hand Mitigatti evening of tests/sheets/sheet_samples.py (calls,
solos, sans prendre, thrown-in deals: a marca ledger per hand), or with ``--game ottocento``
the 12-hand rubber to 800 (combinations, doubling, the way to the target), stored through the
use cases in a temporary SQLite file (not timed).

Run from the repository root:

    .venv/bin/python bench/bench_sheet.py [--rounds 7] [--game mitigatti|ottocento]
                                          [--hands 20] [--lang en|it] [--detail]

It is not a test and asserts nothing beyond the two PDFs being made.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reportlab.lib.pagesizes import A4
from reportlab.platypus import SimpleDocTemplate, Table, TableStyle

from service.application.printouts import Sheet, build_sheet
from service.pdf.render import REGULAR, register_fonts, render_sheet
from service.persistence import SqlStore, make_engine, upgrade


def _samples() -> Any:
    path = ROOT / "tests" / "sheets" / "sheet_samples.py"
    spec = importlib.util.spec_from_file_location("sheet_samples", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["sheet_samples"] = module
    spec.loader.exec_module(module)
    return module


def cells_of(sheet: Sheet) -> list[list[str]]:
    """The sheet's table as plain strings: the header, every hand's rows, the totals."""
    out = [["", "", *(c.label for c in sheet.columns)]]
    for hand in sheet.hands:
        for k, row in enumerate(hand.rows):
            first = f"{hand.number} {hand.dealer}" if k == 0 else ""
            if row.kind == "note":
                out.append([first, row.note, *([""] * len(sheet.columns))])
                continue
            out.append([first, row.label, *(f"{e.text} {e.mark}".strip() if e else ""
                                             for e in row.cells)])
    for row in sheet.final:
        out.append(["", row.label, *(e.text if e else "" for e in row.cells)])
    return out


def bare_table(cells: list[list[str]]) -> bytes:
    buffer = io.BytesIO()
    document = SimpleDocTemplate(buffer, pagesize=A4, initialFontName=REGULAR)
    table = Table(cells, repeatRows=1)
    table.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), REGULAR)]))
    document.build([table])
    return buffer.getvalue()


def median_time(work: Callable[[], object], repeat: int) -> float:
    """Seconds per call: the best of a few batches of ``repeat`` calls (one round)."""
    start = time.perf_counter()
    for _ in range(repeat):
        work()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3, help="renders timed per round")
    parser.add_argument("--game", choices=("mitigatti", "ottocento"), default="mitigatti")
    parser.add_argument("--hands", type=int, default=20, help="hands of the Mitigatti evening")
    parser.add_argument("--lang", choices=("en", "it"), default="en")
    parser.add_argument("--detail", action="store_true")
    args = parser.parse_args()

    samples = _samples()
    sample = (samples.long_mitigatti(args.hands) if args.game == "mitigatti"
              else samples.long_ottocento())
    with tempfile.TemporaryDirectory() as directory:
        url = f"sqlite:///{directory}/bench.sqlite3"
        upgrade(url)
        store = SqlStore(make_engine(url))
        view, _, _ = samples.play(samples.StoredGames(store), sample)
        store.engine.dispose()

    register_fonts()
    sheet = build_sheet(view, args.lang, detail=args.detail)
    cells = cells_of(sheet)
    pdf = render_sheet(sheet)
    bare = bare_table(cells)

    def full() -> object:
        return render_sheet(build_sheet(view, args.lang, detail=args.detail))

    def model() -> object:
        return build_sheet(view, args.lang, detail=args.detail)

    def yardstick() -> object:
        return bare_table(cells)

    full()
    yardstick()
    sheets, bares, models, ratios = [], [], [], []
    for _ in range(args.rounds):
        s = median_time(full, args.repeat)
        b = median_time(yardstick, args.repeat)
        m = median_time(model, args.repeat)
        sheets.append(s)
        bares.append(b)
        models.append(m)
        ratios.append(s / b)
    rows = len(cells) - 1
    print(f"game: {view.setup.variant.id}, {len(view.hands)} hands, {len(sheet.columns)} "
          f"columns, {rows} table rows ({args.lang}{', detail' if args.detail else ''})")
    print(f"sheet PDF:          {statistics.median(sheets) * 1000:8.1f} ms "
          f"({len(pdf):,} bytes; median of {args.rounds})")
    print(f"  of which the view model: {statistics.median(models) * 1000:6.2f} ms")
    print(f"bare reportlab table: {statistics.median(bares) * 1000:6.1f} ms "
          f"({len(bare):,} bytes; median of {args.rounds})")
    print(f"ratio sheet / bare table: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
