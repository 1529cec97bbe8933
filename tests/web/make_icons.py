"""Render the page's PNG icons from SVG with Chromium: the app icon (any) at 192 and 512 px,
and a maskable one whose spade card sits inside the safe zone (the middle 80 %). Run from the
repository root after changing ``service/web/static/icon.svg``:

    .venv/bin/python tests/web/make_icons.py
"""
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crowd import chromium_path

STATIC = Path("service/web/static")
ANY = (STATIC / "icon.svg").read_text()
# Full bleed felt; the card at 56 % of the side, centred: inside the 80 % circle.
MASKABLE = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
            '<rect width="64" height="64" fill="#0b4a31"/>'
            '<rect x="21" y="15" width="22" height="34" rx="3.5" fill="#fff"/>'
            '<text x="32" y="39" font-family="DejaVu Sans, sans-serif" font-size="20" '
            'text-anchor="middle" fill="#111">♠</text></svg>')
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
    for name, svg in (("icon", ANY), ("icon-maskable", MASKABLE)):
        for size in (192, 512):
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content('<html><body style="margin:0;background:transparent">'
                             + sized + '</body></html>')
            page.screenshot(path=str(STATIC / f"{name}-{size}.png"), omit_background=True)
            page.close()
    browser.close()
