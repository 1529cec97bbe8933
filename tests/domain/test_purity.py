"""Principle 1 of docs/architecture.md: the rules core in ``service/domain/`` imports only the standard
library and its own package. Checked on the source (AST), so an import hidden in a function or
under ``TYPE_CHECKING`` counts too."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

DOMAIN = Path(__file__).resolve().parents[2] / "service" / "domain"
PACKAGE = "service.domain"
MODULES = sorted(DOMAIN.rglob("*.py"))


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(DOMAIN).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([PACKAGE, *parts])


def _imports(path: Path) -> list[tuple[int, str]]:
    return _imports_in(path.read_text(encoding="utf-8"), _module_name(path),
                       path.name == "__init__.py")


def _imports_in(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """Every module that ``source`` (the module ``module``) imports, as an absolute dotted
    name, with its line."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.append((node.lineno, name))
        elif isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
            # importlib.import_module("x") / __import__("x") with a literal name
            fname = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            if fname in ("import_module", "__import__") and node.args and isinstance(
                    node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value))
    return found


def _allowed(name: str) -> bool:
    top = name.split(".")[0]
    return top in sys.stdlib_module_names or name == PACKAGE or name.startswith(PACKAGE + ".")


def test_the_domain_package_has_modules() -> None:
    names = {p.name for p in MODULES}
    assert {"__init__.py", "cards.py", "notation.py", "records.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(DOMAIN)))
def test_domain_module_imports_only_the_standard_library_and_its_own_package(path: Path) -> None:
    foreign = [f"line {line}: {name}" for line, name in _imports(path) if not _allowed(name)]
    assert not foreign, f"{path.relative_to(DOMAIN.parent.parent)} imports {foreign}"


def test_relative_imports_do_not_climb_out_of_the_domain() -> None:
    for path in MODULES:
        for line, name in _imports(path):
            if name.split(".")[0] not in sys.stdlib_module_names:
                assert name.startswith(PACKAGE), f"{path.name} line {line}: {name}"


def test_the_check_itself_catches_a_foreign_import() -> None:
    source = ("import flask\nfrom sqlalchemy import orm\nfrom ..http import app\n"
              "import json\nfrom . import cards\nfrom .variant import Variant\n"
              "def f():\n    import reportlab.pdfgen\n"
              "    importlib.import_module('marshmallow')\n")
    names = [name for _, name in _imports_in(source, "service.domain.probe", False)]
    assert [n for n in names if not _allowed(n)] == [
        "flask", "sqlalchemy", "service.http", "reportlab.pdfgen", "marshmallow"]
    assert "service.domain" in names and "service.domain.variant" in names
