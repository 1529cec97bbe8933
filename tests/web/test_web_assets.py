"""The phone page as files: served at ``/`` with a strict Content-Security-Policy, each file
linked at its content's version and kept a year at it, the page revalidated, text sent
compressed as the browser takes it, nothing loaded from elsewhere, kept out of the OpenAPI
document, every language complete, and the QR encoder checked against a reference matrix."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
from typing import Any

import brotli
import pytest
from page_driver import page_module

from service.http.resources.web import STATIC_DIR
from service.locale import __main__ as tool
from service.locale import page_languages

#: The files the page links (its style and icons) and its loader loads (its modules).
ASSETS = ["app.js", "app.css", "i18n.js", "cards.js", "qr.js", "icon.svg", "icon-192.png",
          "manifest.webmanifest"]
LINKED = ["app.css", "icon.svg", "icon-192.png", "manifest.webmanifest"]
#: The modules app.js imports (ES modules, no build step): the state, each screen, and the
#: helpers it uses itself.
MODULES = ["admin.js", "api.js", "board.js", "clubs.js", "clubseats.js", "dom.js", "door.js",
           "entrant.js", "eventform.js", "events.js", "eventstate.js", "field.js", "handform.js",
           "home.js",
           "i18n.js", "member.js", "newgame.js", "rules.js", "share.js", "sheet.js", "state.js",
           "stores.js"]
#: Every module of the page, whoever imports it: every file of it but the entry, the service
#: worker (no classic script puts anything on ``window``) and the published results pages'
#: own script (``resultslive.js``, which the page never loads).
ALL_MODULES = sorted(p.name for p in STATIC_DIR.glob("*.js")
                     if p.name not in ("sw.js", "app.js", "resultslive.js"))
IMPORT = re.compile(r'"/app/([a-z0-9]+\.js)\?v=([0-9a-f]{16})"')


def served(client: Any, name: str) -> bytes:
    """A file as the service sends it: the file itself, a module with its imports of the
    page's other modules at their versions."""
    data: bytes = client.get(f"/app/{name}").data
    return data


def test_the_page_is_served_at_the_root(stateless_app: Any) -> None:
    client = stateless_app.test_client()
    response = client.get("/")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["Cache-Control"] == "no-cache"
    html = response.get_data(as_text=True)
    # The one inline script, the loader, is allowed by its hash and nothing else is.
    inline = re.findall(r"<script>(.*?)</script>", html, re.DOTALL)
    assert len(inline) == 1
    digest = base64.b64encode(hashlib.sha256(inline[0].encode()).digest()).decode()
    assert re.findall(r"'sha256-[^']+'", policy) == [f"'sha256-{digest}'"]
    links = re.findall(r'(?:src|href)="/app/([^"?]+)\?v=([0-9a-f]{16})"', html)
    assert sorted(name for name, _ in links) == sorted(LINKED)
    boot = json.loads(re.search(r'<script type="application/json" id="boot">(.*?)</script>',
                                html, re.DOTALL)[1])
    loaded = [boot["entry"], *boot["styles"], *boot["modules"]]
    assert boot["styles"][0].startswith("/app/app.css?v=")
    assert "scripts" not in boot  # no classic script: the words, QR and cards are modules
    assert boot["entry"].startswith("/app/app.js?v=")
    # The words, a file a language made from the catalogues, at its version.
    assert {lang: url.partition("?")[0] for lang, url in boot["words"].items()} == {
        "en": "/app/words-en.js", "fr": "/app/words-fr.js", "it": "/app/words-it.js"}
    loaded += boot["words"].values()
    # Every module, fetched by the loader at once: no module waits for the one importing it.
    assert sorted(url.partition("?")[0] for url in boot["modules"]) == [
        f"/app/{name}" for name in ALL_MODULES]
    for name, version in [*links, *(re.fullmatch(r"/app/(.+)\?v=(.+)", url).groups()
                                     for url in loaded)]:
        assert version == hashlib.sha256(served(client, name)).hexdigest()[:16]  # its content's
        if not name.endswith(".js") or name in ("i18n.js", "qr.js"):  # they import nothing
            assert served(client, name) == (STATIC_DIR / name).read_bytes()


def test_modules_import_each_other_at_their_versions(stateless_app: Any) -> None:
    client = stateless_app.test_client()
    imported = dict(IMPORT.findall(served(client, "app.js").decode()))
    assert sorted(imported) == MODULES
    for name, version in imported.items():
        response = client.get(f"/app/{name}?v={version}")
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert version == hashlib.sha256(response.data).hexdigest()[:16]
    source = (STATIC_DIR / "app.js").read_text()
    assert all(f'"./{name}"' in source for name in MODULES)  # the files import by path
    assert served(client, "app.js").decode() == re.sub(
        r'"\./([a-z0-9]+\.js)"', lambda m: f'"/app/{m[1]}?v={imported[m[1]]}"', source)


def _versioned(client: Any) -> dict[str, str]:
    html = client.get("/").get_data(as_text=True)
    return dict(re.findall(r'/app/([^"?]+)\?v=([0-9a-f]{16})"', html))


@pytest.mark.parametrize("name", ASSETS)
def test_a_file_at_its_version_is_kept_a_year(stateless_app: Any, name: str) -> None:
    client = stateless_app.test_client()
    version = _versioned(client)[name]
    response = client.get(f"/app/{name}?v={version}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert response.data == served(client, name)
    # Another version (an old page asking for a file that changed since) is revalidated.
    stale = client.get(f"/app/{name}?v=0000000000000000")
    assert stale.headers["Cache-Control"] == "no-cache"


@pytest.mark.parametrize("name", ["handform.js", "app.css", "words-it.js", "qr.js"])
def test_text_is_sent_compressed_as_the_browser_takes_it(stateless_app: Any,
                                                         name: str) -> None:
    client = stateless_app.test_client()
    original = served(client, name)
    sent = client.get(f"/app/{name}", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert sent.headers["Content-Encoding"] == "br"
    assert brotli.decompress(sent.data) == original
    assert len(sent.data) < len(original) / 3
    assert "Accept-Encoding" in sent.headers["Vary"]
    sent = client.get(f"/app/{name}", headers={"Accept-Encoding": "gzip"})
    assert sent.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(sent.data) == original
    assert client.get(f"/app/{name}").data == original  # no encoding asked for: none
    # Revalidating the compressed copy with its own tag: 304, nothing sent.
    again = client.get(f"/app/{name}", headers={"Accept-Encoding": "gzip",
                                                "If-None-Match": sent.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_the_page_itself_is_compressed_and_revalidated(stateless_app: Any) -> None:
    client = stateless_app.test_client()
    first = client.get("/", headers={"Accept-Encoding": "br"})
    assert first.headers["Content-Encoding"] == "br"
    assert first.headers["Cache-Control"] == "no-cache"
    assert b"/app/app.js?v=" in brotli.decompress(first.data)
    again = client.get("/", headers={"Accept-Encoding": "br",
                                     "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize("name", ASSETS)
def test_every_asset_is_served_and_revalidated(stateless_app: Any, name: str) -> None:
    client = stateless_app.test_client()
    response = client.get(f"/app/{name}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-cache"
    again = client.get(f"/app/{name}", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


def test_the_manifest_offers_png_and_maskable_icons(stateless_app: Any) -> None:
    """Phones that install the page want PNGs of 192 and 512 px, and a maskable one (its
    drawing inside the middle 80 %), besides the SVG."""
    import json
    import struct

    client = stateless_app.test_client()
    manifest = json.loads(client.get("/app/manifest.webmanifest").data)
    purposes = set()
    for icon in manifest["icons"]:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon["src"]
        if icon["type"] == "image/png":
            assert response.data[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", response.data[16:24])
            assert f"{width}x{height}" == icon["sizes"]
            purposes.add((icon["purpose"], icon["sizes"]))
    assert purposes == {(p, s) for p in ("any", "maskable") for s in ("192x192", "512x512")}


def test_no_path_outside_the_page_folder(stateless_app: Any) -> None:
    client = stateless_app.test_client()
    assert client.get("/app/../resources/web.py").status_code == 404
    assert client.get("/app/missing.js").status_code == 404


def test_the_page_loads_nothing_from_elsewhere() -> None:
    """No CDN, no web font, no analytics: every URL in the page's files is the page's own."""
    for path in STATIC_DIR.iterdir():
        if path.suffix not in {".html", ".js", ".css"}:
            continue
        text = path.read_text()
        urls = re.findall(r"https?://[^\s\"'`)]+", text)
        assert urls == [] or all(u.startswith("http://www.w3.org/2000/svg") for u in urls), (
            path.name, urls)


def test_the_page_stays_out_of_the_api_document(stateless_app: Any) -> None:
    spec = stateless_app.test_client().get("/api/v1/openapi.json").get_json()
    assert "/" not in spec["paths"]
    assert not any(p.startswith("/app") for p in spec["paths"])


def _words(client: Any, lang: str) -> dict[str, Any]:
    """The page's words in ``lang`` as the service sends them: a module, its table the
    default export."""
    module = served(client, f"words-{lang}.js").decode("utf-8")
    found = re.fullmatch(r"export default (.*);\n", module, re.DOTALL)
    assert found
    return dict(json.loads(found[1]))


def test_every_word_the_page_says_is_in_every_language(stateless_app: Any) -> None:
    client = stateless_app.test_client()
    languages = page_languages()
    assert set(languages) == {"en", "it", "fr"}
    words = {lang: _words(client, lang) for lang in languages}
    # Error codes and the variants are said by the service in English; other languages say
    # them in their own words, each all that any has.
    for lang in languages:
        assert tool.page_missing(lang) == [], lang
        if lang != "en":
            assert {k for k in words[lang].keys() - words["en"].keys()
                    if not k.startswith(("code.", "variant."))} == set()
            assert words["en"].keys() - words[lang].keys() == set()
            assert words[lang].keys() == words["it"].keys(), lang
    used, templates = set(), set()
    for name in ("app.js", *ALL_MODULES):
        source = (STATIC_DIR / name).read_text()
        used |= set(re.findall(r'\bt\(\s*"([^"]+)"', source))
        used |= set(re.findall(r'\btr\(\s*"([^"]+)"', source))
        templates |= set(re.findall(r'\bt\(\s*`([a-zA-Z.]+)\$\{', source))
    assert used - words["en"].keys() == set()
    # A key made in the page (`meld.${kind}`): the catalogue holds words under its stem.
    for stem in templates:
        assert any(key.startswith(stem) for key in words["it"]), stem
    # A count's words, by the plural categories the browser's Intl.PluralRules names.
    assert words["it"]["marca"] == {"one": "{n} marca", "many": "{n} marche",
                                    "other": "{n} marche"}


def test_the_locale_check_finds_a_missing_page_word(tmp_path: Any, monkeypatch: Any) -> None:
    source = tool.page_path("it").read_text("utf-8")
    cut = source.replace('msgstr "Indietro"', 'msgstr ""')
    assert cut != source
    (tmp_path / "it" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "en" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "it" / "LC_MESSAGES" / "page.po").write_text(cut, "utf-8")
    (tmp_path / "en" / "LC_MESSAGES" / "page.po").write_text(
        tool.page_path("en").read_text("utf-8"), "utf-8")
    monkeypatch.setattr(tool, "HERE", tmp_path)
    assert tool.page_missing("it") == ["action.back"]
    assert tool.page_missing("en") == []


# The share link below at level M, mask 2 (version 5): a reference encoder's matrix, one row
# per line, as hexadecimal.
QR_TEXT = "https://segnapunti.example/#/games/k7g7vcznfm?token=IcXQF6-pjELe5ZovqRsM_HNE4xKvqJvx"
QR_ROWS = [
    "1fc0f2687f", "10474dce41", "175091a15d", "1754cd7e5d", "175d27ad5d", "105b615741",
    "1fd555557f", "18d59700", "17c7a85f7c", "1cbd29e486", "1be1e8d653", "c2523f1b9", "a795a2ff7",
    "14815fa120", "19ef7582bb", "10a2c5c2f0", "1dd8f2eed7", "cb39d4b66", "12666c43e7",
    "11f50c6e1", "45b2e1bd4", "1b21dba908", "1274ed0b3b", "15b51092f0", "11faf847d6",
    "112791fb20", "106c290efb", "100903c291", "14f9da1dff", "1f17a318", "1fcd791557",
    "105ad7d518", "175429f7f4", "1753b123d7", "1759395507", "1043a1c451", "1fd6fe6c9f",
]


def test_the_qr_encoder_matches_a_reference(browser: Any, server: str) -> None:
    page = browser.new_page()
    try:
        page.goto(server + "/")
        page.locator("#new-game").wait_for()  # the page started: its scripts have run
        got = page_module(page, "qr.js", "({ QR }, text) => QR.encode(text, {mask: 2}).modules"
                          ".map(row => row.map(d => d ? '1' : '0').join(''))", QR_TEXT)
        expected = [format(int(row, 16), "037b") for row in QR_ROWS]
        assert got == expected
        chosen = page_module(page, "qr.js", "({ QR }, text) => QR.encode(text).version", QR_TEXT)
        assert chosen == 5
        # Modules all: none of the page's helpers is left on ``window`` for another to find.
        assert page.evaluate("[typeof I18n, typeof Cards, typeof QR]") == ["undefined"] * 3
    finally:
        page.close()


def test_every_page_file_is_installed_with_the_package() -> None:
    """pyproject.toml's package data covers each file of the page (a `pip install .` without
    one would serve a 404)."""
    import fnmatch
    import tomllib

    config = tomllib.loads((STATIC_DIR.parents[2] / "pyproject.toml").read_text())
    data = config["tool"]["setuptools"]["package-data"]
    patterns = data.get("*", []) + data.get("service.web.static", [])
    for path in STATIC_DIR.iterdir():
        assert any(fnmatch.fnmatch(path.name, p) for p in patterns), path.name


def test_the_service_worker_keeps_this_releases_files(stateless_app: Any) -> None:
    client = stateless_app.test_client()
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert worker.headers["Cache-Control"] == "no-cache"
    source = worker.get_data(as_text=True)
    files = re.search(r"const FILES = (\[.*?\]);", source, re.DOTALL)
    assert files is not None
    import json

    kept = set(json.loads(files.group(1)))
    html = client.get("/").get_data(as_text=True)
    linked = set(re.findall(r'(?:src|href)="(/app/[^"]+)"', html))
    assert {"/", *linked, "/api/v1/variants"} <= kept
    # Of the API, the list alone: a room's phones installing it together spend their one
    # address's allowance on nothing else (a variant's data is kept as the page reads it).
    assert {path for path in kept if path.startswith("/api/")} == {"/api/v1/variants"}
    assert re.search(r'const RELEASE = "[0-9a-f]{16}";', source)
    assert client.get("/app/sw.js").status_code == 404  # only at the root, filled in
