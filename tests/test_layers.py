"""Each technology has one package that imports it (docs/architecture.md, principle 1 and 7)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SERVICE = Path(__file__).resolve().parents[1] / "service"

# third-party top-level module -> the only part of service/ allowed to import it
OWNERS: dict[str, str | tuple[str, ...]] = {
    "flask": "http",
    "flask_smorest": "http",
    "marshmallow": "http",
    "webargs": "http",
    "apispec": "http",
    "werkzeug": "http",
    "swagger_ui_bundle": "http",
    "yaml": "http",
    "sqlalchemy": "persistence",
    "alembic": "persistence",
    "psycopg": "persistence",
    "gunicorn": ("server.py",),
    "waitress": ("server.py",),
    # the live screens' server: streams in an event loop, the app in threads
    "tornado": "live",
    "reportlab": "pdf",
    "babel": "locale",
    # the ratings' model (application/ratings.py): arithmetic, no edge technology
    "openskill": "application",
    # sealing the kept first answers of keyed requests (application/idempotency.py)
    "cryptography": "application",
    # GET /metrics (http/metrics.py), and its directory, made by gunicorn's master
    "prometheus_client": ("http", "metrics_dir.py"),
    # the public results pages: their templates and their link's QR code
    "jinja2": "http",
    "markupsafe": "http",
    "segno": "http",
}


# plain Python libraries the application layer may use (no I/O, no framework)
APPLICATION_LIBRARIES = {"openskill", "cryptography"}


def _imports(path: Path) -> set[str]:
    """Absolute top-level modules imported by a file (relative imports are skipped)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def _python_files() -> list[Path]:
    return sorted(SERVICE.rglob("*.py"))


@pytest.mark.parametrize("path", _python_files(), ids=lambda p: str(p.relative_to(SERVICE)))
def test_third_party_imports_stay_in_their_package(path: Path) -> None:
    part = path.relative_to(SERVICE).parts[0]
    for module in _imports(path):
        owner = OWNERS.get(module.split(".")[0])
        if owner is not None:
            owners = (owner,) if isinstance(owner, str) else owner
            assert part in owners, f"{path.relative_to(SERVICE)} imports {module}"


@pytest.mark.parametrize(
    "path",
    sorted((SERVICE / "domain").rglob("*.py")),
    ids=lambda p: str(p.relative_to(SERVICE)),
)
def test_domain_imports_only_the_standard_library(path: Path) -> None:
    for module in _imports(path):
        top = module.split(".")[0]
        assert top in sys.stdlib_module_names or module.startswith("service.domain"), (
            f"{path.relative_to(SERVICE)} imports {module}"
        )


def test_application_imports_no_edge_technology() -> None:
    """Below the application only the core and the words: ``service.locale`` (the catalogues,
    data read with Babel behind functions that load it when first asked: the
    printable sheet's words)."""
    for path in sorted((SERVICE / "application").rglob("*.py")):
        for module in _imports(path):
            top = module.split(".")[0]
            assert top in sys.stdlib_module_names or top in APPLICATION_LIBRARIES or (
                module.startswith(("service.domain", "service.application"))
            ) or module == "service.locale", f"{path.relative_to(SERVICE)} imports {module}"


def test_the_words_import_nothing_of_the_floors_above() -> None:
    """``service.locale``'s reader (its ``__init__``) is the standard library and Babel: the
    application may read its words without reaching the edges."""
    for module in _imports(SERVICE / "locale" / "__init__.py"):
        assert module.split(".")[0] in sys.stdlib_module_names or module.startswith("babel"), \
            module


#: The rules core's own floors, the lowest first, as ``docs/architecture.md`` draws them: a
#: module of the core imports from its own floor or the floors below, never from one above.
DOMAIN_FLOORS: tuple[tuple[str, ...], ...] = (
    ("core",),
    ("rulings",),
    ("variant",),
    ("hand",),
    ("options",),
    ("ottocento",),
    ("gatti",),
    ("mitigatti",),
    ("registry", "rulebook"),
    ("events",),
    ("duplicate",),
    ("games",),
    ("clubs",),
    ("__init__",),
)
_FLOOR = {part: floor for floor, parts in enumerate(DOMAIN_FLOORS) for part in parts}


def _domain_imports(path: Path) -> set[str]:
    """The parts of the core (``games``, ``events``, …) a file of it imports from."""
    here = path.relative_to(SERVICE).with_suffix("").parts  # ("domain", "events", "setup")
    package = here[:-1]  # a package's __init__ imports relative to the package itself
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = ("service", *package[:len(package) - node.level + 1])
            targets = [(*base, *node.module.split("."))] if node.module else [
                (*base, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            targets = [tuple(node.module.split("."))] if node.module else []
        elif isinstance(node, ast.Import):
            targets = [tuple(alias.name.split(".")) for alias in node.names]
        else:
            continue
        found.update(target[2] for target in targets
                     if len(target) > 2 and target[:2] == ("service", "domain"))
    return found


@pytest.mark.parametrize(
    "path",
    sorted((SERVICE / "domain").rglob("*.py")),
    ids=lambda p: str(p.relative_to(SERVICE)),
)
def test_the_core_imports_only_its_own_floor_and_those_below(path: Path) -> None:
    own = path.relative_to(SERVICE / "domain").parts[0].removesuffix(".py")
    assert own in _FLOOR, f"{own} is on no floor of DOMAIN_FLOORS"
    for part in _domain_imports(path):
        assert _FLOOR[part] <= _FLOOR[own], (
            f"{path.relative_to(SERVICE)} imports from {part}, a floor above {own}")
