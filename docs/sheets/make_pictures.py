"""Render the sample score sheets of docs/sheets/ as PNG pictures.

Each sample game of tests/sheets/sheet_samples.py (one per variant family) is stored through
the use cases in a temporary SQLite file, printed by the service's own sheet code, and its
pages converted with ``pdftoppm`` (poppler-utils: ``apt-get install poppler-utils``; the
tests do not need it). Page 1 is ``<variant>.png``, further pages ``<variant>-2.png``…; the
Italian sheet with its explanation lines is ``gatti-3-it-detail.png``. With ``--pdf`` the
PDFs are written next to them too (they are not committed: the service makes them).

Run from the repository root:

    .venv/bin/python docs/sheets/make_pictures.py [--dpi 110] [--pdf]
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from service.application.printouts import build_sheet
from service.pdf import render_sheet
from service.persistence import SqlStore, make_engine, upgrade

#: The pictures are dated, like any printed sheet, with a fixed day.
WHEN = datetime(2026, 11, 21, 21, 30, tzinfo=UTC)


def _samples() -> Any:
    path = ROOT / "tests" / "sheets" / "sheet_samples.py"
    spec = importlib.util.spec_from_file_location("sheet_samples", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["sheet_samples"] = module
    spec.loader.exec_module(module)
    return module


def picture(pdf: bytes, name: str, dpi: int, keep_pdf: bool) -> list[Path]:
    if keep_pdf:
        (OUT / f"{name}.pdf").write_bytes(pdf)
    for old in OUT.glob(f"{name}-[0-9]*.png"):
        old.unlink()
    with tempfile.TemporaryDirectory() as directory:
        source = Path(directory) / "sheet.pdf"
        source.write_bytes(pdf)
        subprocess.run(["pdftoppm", "-png", "-r", str(dpi), str(source),
                        str(Path(directory) / "page")], check=True)
        pages = sorted(Path(directory).glob("page-*.png"))
        made = []
        for number, page in enumerate(pages, start=1):
            target = OUT / (f"{name}.png" if number == 1 else f"{name}-{number}.png")
            target.write_bytes(page.read_bytes())
            made.append(target)
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dpi", type=int, default=110)
    parser.add_argument("--pdf", action="store_true", help="keep the PDFs too")
    args = parser.parse_args()
    samples = _samples()
    with tempfile.TemporaryDirectory() as directory:
        url = f"sqlite:///{directory}/pictures.sqlite3"
        upgrade(url)
        store = SqlStore(make_engine(url))
        service = samples.StoredGames(store, clock=lambda: WHEN)
        jobs = [(name, sample, "en", False) for name, sample in samples.SAMPLES.items()]
        jobs.append(("gatti-3-it-detail", samples.SAMPLES["gatti-3"], "it", True))
        for name, sample, lang, detail in jobs:
            view, _, _ = samples.play(service, sample)
            sheet = build_sheet(view, lang, detail=detail, as_of=WHEN)
            for path in picture(render_sheet(sheet), name, args.dpi, args.pdf):
                print(path.relative_to(ROOT))
        store.engine.dispose()


if __name__ == "__main__":
    main()
