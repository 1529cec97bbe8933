"""Each technology has one package that imports it (ARCHITECTURE §1, §7)."""

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
    "reportlab": "pdf",
    "babel": "locale",
    # the ratings' model (application/ratings.py): arithmetic, no edge technology
    "openskill": "application",
    # sealing the kept first answers of keyed requests (application/idempotency.py)
    "cryptography": "application",
    # GET /metrics (http/metrics.py), and its directory, made by gunicorn's master
    "prometheus_client": ("http", "metrics_dir.py"),
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
    data read with Babel behind functions that load it when first asked; issue 27: the
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
