"""Imports follow the data flow (docs/DESIGN.md): checked on the source, not by convention."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "nlu": {"bot", "logs"},
    "recommender": {"bot", "nlu", "logs"},
    "logs": {"bot", "nlu", "recommender"},
}
ALLOWED_EXCEPTIONS = {"logs.errors"}  # the dependency-free root of the exception tree


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_does_not_import_downstream(package):
    offenders = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for name in _imports(path):
            if name in ALLOWED_EXCEPTIONS:
                continue
            if name.split(".")[0] in FORBIDDEN[package]:
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_only_the_telegram_channel_imports_telegram():
    """Only the modules of the ``bot/channels/telegram/`` package import python-telegram-bot."""
    offenders = [
        str(path.relative_to(ROOT))
        for package in ("bot", "nlu", "recommender", "logs")
        for path in sorted((ROOT / package).rglob("*.py"))
        if any(name.split(".")[0] == "telegram" for name in _imports(path))
        and not path.relative_to(ROOT).as_posix().startswith("bot/channels/telegram/")
    ]
    assert offenders == []


def test_only_the_sparql_module_imports_sparqlwrapper():
    offenders = [
        str(path.relative_to(ROOT))
        for package in ("bot", "nlu", "recommender", "logs")
        for path in sorted((ROOT / package).rglob("*.py"))
        if any(name.split(".")[0] == "SPARQLWrapper" for name in _imports(path))
        and path.relative_to(ROOT).as_posix() != "recommender/sparql.py"
    ]
    assert offenders == []


def test_no_runtime_module_imports_cli_glue():
    """CLI glue (bot/cli*.py) sits on top: the dialog, services and channels never import it."""
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if not path.name.startswith("cli")
        for name in _imports(path) | _lazy_imports(path)
        if name.startswith("bot.cli")
    ]
    assert offenders == []


def _lazy_imports(path: Path) -> set[str]:
    """``from bot import cli_rec`` style imports (module named in the imported names)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "bot"
        for alias in node.names
    }
