"""The phone page: ``/`` and its static files (``service/web/static``).

A plain Flask blueprint, so the page stays out of the OpenAPI document: it is a client of the
API like any other and uses only the public endpoints. Game tokens never reach the server in a
page's address: share links carry them in the URL fragment (``/#/games/{id}?token=…``), which
browsers do not send, and the page sends them as ``Authorization: Bearer``.

The files are read once, when the process starts, each with a version: the first 16 hex
digits of its SHA-256. The page links each file with its version (``/app/app.css?v=…``), and
its loader (an inline script, allowed by its hash in the page's Content-Security-Policy) is
given the entry module at its version, with every module the entry imports and each
language's words, to fetch them all at once and again when one fails (``index.html``); a
request for a file at its current version is answered ``immutable`` for a year, so a phone
loads the page's scripts once per release and then from its own cache, even with no signal.
The page itself, and a file asked for without its version (the manifest's icon), are
revalidated on every load (``no-cache``, a 304 when unchanged), so a new release reaches the
phones at once. Text is sent compressed, brotli or gzip as the browser takes it, compressed
once per file and encoding (Flask-Compress with a cache). Edits to the files need a restart.
"""

from __future__ import annotations

import base64
import hashlib
import json
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Blueprint, Request, Response, abort, request
from flask_compress import Compress

from ...locale import page_languages, page_words
from ..paths import PAGE_ASSETS_PREFIX

STATIC_DIR = Path(__file__).resolve().parents[2] / "web" / "static"
#: Where the page's files are served from.
ASSETS_PREFIX = PAGE_ASSETS_PREFIX
#: A year: how long a browser keeps a file at its version.
IMMUTABLE = "public, max-age=31536000, immutable"

#: The page loads nothing from elsewhere and may not be framed; QR codes are inline SVG.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'; manifest-src 'self'"
)
_TYPES = {".webmanifest": "application/manifest+json", ".js": "text/javascript"}
# A link to one of the page's files, in index.html.
_LINK = re.compile(r'(?P<attribute>href|src)="/app/(?P<name>[^"?#/]+)"')
# A module's import of another of the page's modules: ``from "./api.js"``, ``import "./x.js"``.
_IMPORT = re.compile(r'(?P<head>\b(?:from|import)\s*)"\./(?P<name>[A-Za-z0-9_-]+\.js)"')
# What the page's loader loads, in index.html: its styles and its entry module.
_BOOT = re.compile(r'(?P<open><script type="application/json" id="boot">)(?P<data>.*?)</script>',
                   re.DOTALL)
# An inline script of the page (one without src), whose hash the policy allows.
_INLINE_SCRIPT = re.compile(r"<script>(?P<code>.*?)</script>", re.DOTALL)


@dataclass(frozen=True)
class Asset:
    data: bytes
    mimetype: str
    version: str


def _asset(data: bytes, name: str) -> Asset:
    suffix = Path(name).suffix
    mimetype = _TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"
    return Asset(data, mimetype, hashlib.sha256(data).hexdigest()[:16])


def _words(lang: str) -> Asset:
    """The page's words in ``lang``, from its catalogue (``service/locale``), as a module
    whose default export is their table (``words-it.js``), which ``i18n.js`` imports: one
    file a language, versioned and kept offline like the page's other files."""
    table = json.dumps(page_words(lang), ensure_ascii=False, sort_keys=True,
                       separators=(",", ":"))
    return _asset(f"export default {table};\n".encode(), f"words-{lang}.js")


def _load() -> tuple[dict[str, Asset], Asset]:
    """Every file of the page by name (its words made from the catalogues), and the page
    with its links versioned."""
    assets = {path.name: _asset(path.read_bytes(), path.name)
              for path in sorted(STATIC_DIR.iterdir()) if path.is_file()}
    assets.update({f"words-{lang}.js": _words(lang) for lang in page_languages()})
    imports = {name: [found["name"] for found in _IMPORT.finditer(asset.data.decode("utf-8"))
                      if found["name"] in assets]
               for name, asset in assets.items() if name.endswith(".js")}
    _version_imports(assets)

    def at_version(name: str) -> str:
        return f"{ASSETS_PREFIX}{name}?v={assets[name].version}"

    def versioned(link: re.Match[str]) -> str:
        name = link["name"]
        if name not in assets:
            return link[0]
        return f'{link["attribute"]}="{at_version(name)}"'

    def boot(found: re.Match[str]) -> str:
        wanted = json.loads(found["data"])
        entry = _name(wanted["entry"])
        data = {"styles": [at_version(_name(url)) for url in wanted["styles"]],
                "words": {lang: at_version(f"words-{lang}.js") for lang in page_languages()},
                "entry": at_version(entry),
                "modules": [at_version(name) for name in _imported(entry, imports)]}
        return f"{found['open']}{json.dumps(data)}</script>"

    html = _BOOT.sub(boot, assets["index.html"].data.decode("utf-8"))
    return assets, _asset(_LINK.sub(versioned, html).encode("utf-8"), "index.html")


def _name(url: str) -> str:
    """A file's name from its address in the page (``/app/app.js``)."""
    if not url.startswith(ASSETS_PREFIX):
        raise ValueError(f"the page's loader loads only the page's files, not {url}")
    return url.removeprefix(ASSETS_PREFIX)


def _imported(entry: str, imports: dict[str, list[str]]) -> list[str]:
    """Every module ``entry`` imports, at any depth, by name."""
    found: set[str] = set()
    waiting = [entry]
    while waiting:
        for name in imports[waiting.pop()]:
            if name not in found:
                found.add(name)
                waiting.append(name)
    return sorted(found)


def _page_policy(html: bytes) -> str:
    """The policy, allowing the page's own inline scripts (its loader) by their hashes."""
    hashes = [base64.b64encode(hashlib.sha256(found["code"].encode("utf-8")).digest()).decode()
              for found in _INLINE_SCRIPT.finditer(html.decode("utf-8"))]
    allowed = "".join(f" 'sha256-{digest}'" for digest in hashes)
    return CONTENT_SECURITY_POLICY.replace("script-src 'self'", f"script-src 'self'{allowed}")


def _version_imports(assets: dict[str, Asset]) -> None:
    """Each module's imports of the page's other modules, at their versions (so a module is
    kept a year like any file, and a new release of one it imports is a new version of it
    too): modules first that import none, each version taken after its imports are written."""
    done: set[str] = set()

    def visit(name: str, trail: tuple[str, ...]) -> None:
        if name in done:
            return
        if name in trail:
            raise ValueError("the page's modules import each other in a ring: "
                             + " → ".join((*trail, name)))
        text = assets[name].data.decode("utf-8")
        for found in _IMPORT.finditer(text):
            if found["name"] in assets:
                visit(found["name"], (*trail, name))

        def versioned(found: re.Match[str]) -> str:
            target = assets.get(found["name"])
            if target is None:
                return found[0]
            return f'{found["head"]}"{ASSETS_PREFIX}{found["name"]}?v={target.version}"'

        assets[name] = _asset(_IMPORT.sub(versioned, text).encode("utf-8"), name)
        done.add(name)

    for name in sorted(assets):
        if name.endswith(".js") and name != "sw.js":
            visit(name, ())


ASSETS, PAGE = _load()
PAGE_POLICY = _page_policy(PAGE.data)
#: The service worker's source, served at /sw.js with this release filled in (not at /app/).
_WORKER_SOURCE = ASSETS.pop("sw.js").data.decode("utf-8")


def _worker() -> Asset:
    """The service worker of this release: what it keeps when it installs (the page, every
    file at the version the page links, the unversioned icons the manifest names, the list of
    variants), and a release name that changes with any of them. A variant's data and rules
    it keeps as the page reads them: fetched whole at install, they would cost every phone of
    a room arriving together 11 requests on their one address's allowance (``ratelimit``),
    and a game seen once opens from the page's own copy anyway."""
    linked = [f"{ASSETS_PREFIX}{name}?v={ASSETS[name].version}"
              for name in sorted(ASSETS) if name != "index.html"]
    icons = [f"{ASSETS_PREFIX}{name}" for name in sorted(ASSETS)
             if name.endswith((".png", ".svg", ".webmanifest"))]
    data = ["/api/v1/variants"]
    files = ["/", *linked, *icons, *data]
    release = hashlib.sha256("\n".join(
        [PAGE.version, *files, _WORKER_SOURCE]).encode()).hexdigest()[:16]
    source = (_WORKER_SOURCE.replace("__RELEASE__", release)
              .replace("__FILES__", json.dumps(files, indent=2)))
    return _asset(source.encode("utf-8"), "sw.js")


WORKER = _worker()

page = Blueprint("web", __name__)
compress = Compress()


class _Compressed(dict[str, bytes]):
    """Flask-Compress's cache: each file once per encoding (the files are fixed while the
    process lives, so their number bounds it)."""

    def set(self, key: str, value: bytes) -> None:
        self[key] = value


def compression_settings() -> dict[str, Any]:
    """The app's Flask-Compress keys: only the page's views compress (the API compresses
    what it sends itself), brotli first, gzip for the rest."""
    return {
        "COMPRESS_REGISTER": False,
        "COMPRESS_ALGORITHM": ["br", "gzip"],
        "COMPRESS_MIMETYPES": ["text/html", "text/css", "text/javascript",
                               "application/javascript", "image/svg+xml",
                               "application/manifest+json"],
        "COMPRESS_BR_LEVEL": 11,  # once per file: the smallest
        "COMPRESS_LEVEL": 9,
        "COMPRESS_CACHE_BACKEND": _Compressed,
        "COMPRESS_CACHE_KEY": _cache_key,
    }


def _cache_key(sent: Request) -> str:
    return sent.path


def _send(asset: Asset, *, immutable: bool = False,
          policy: str = CONTENT_SECURITY_POLICY) -> Response:
    response = Response(asset.data, mimetype=asset.mimetype)
    response.set_etag(asset.version)
    response.headers["Content-Security-Policy"] = policy
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Cache-Control"] = IMMUTABLE if immutable else "no-cache"
    return response.make_conditional(request)


@page.route("/admin")
@page.route("/")
@compress.compressed()
def index() -> Response:
    return _send(PAGE, policy=PAGE_POLICY)


@page.route("/sw.js")
@compress.compressed()
def service_worker() -> Response:
    """The service worker, at the root so that its scope is the whole page; revalidated on
    every load, as browsers do for workers anyway."""
    return _send(WORKER)


@page.route(f"{ASSETS_PREFIX}<path:filename>")
@compress.compressed()
def asset(filename: str) -> Response:
    found = ASSETS.get(filename)
    if found is None:
        abort(404)
    return _send(found, immutable=request.args.get("v") == found.version)
