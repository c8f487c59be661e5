"""The Makefile rebuilds the snapshots when the code that builds them changes (issue 24: the build's
modules were split; a fresh clone's ``make kb`` and a change to any of them must still rebuild)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD_ENTRY = "recommender.sparql"
"""The module ``corsbot kb build`` takes ``open_embedded``, ``RemoteBackend`` and ``build_snapshot`` from."""
NOT_FACTS = {
    "recommender.errors": "error classes: what a failed build says, no fact of a snapshot",
    "recommender.kbpack": "writes kb.pack, which has its own rule (repacked from kb.json.gz)",
}
"""Modules the build imports whose change cannot change ``kb.json.gz``."""


def _project_imports(module: str) -> set[str]:
    """The ``recommender`` modules ``module`` imports, anywhere in its source (deferred imports too)."""
    path = ROOT / (module.replace(".", "/") + ".py")
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {n for n in names if n.split(".")[0] == "recommender"}


def build_modules() -> set[str]:
    """Every ``recommender`` module the build reaches from :data:`BUILD_ENTRY`, transitively."""
    seen, todo = set(), [BUILD_ENTRY]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(_project_imports(module) - seen)
    return seen


def _makefile_build_files() -> set[str]:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.search(r"^KB_BUILD := ((?:.*\\\n)*.*)$", makefile, re.M)
    assert found is not None, "the Makefile has no KB_BUILD list"
    assert re.search(r"^\$\(CORSBOT_HOME\)/kb/%/kb\.json\.gz: .*\$\(KB_BUILD\)", makefile, re.M)
    return set(found.group(1).replace("\\\n", " ").split())


def test_the_makefile_rebuilds_the_snapshot_when_build_code_changes():
    wanted = {m.replace(".", "/") + ".py" for m in build_modules() - set(NOT_FACTS)}
    assert _makefile_build_files() == wanted


def test_the_exempt_modules_are_still_part_of_the_build():
    """An exemption for a module the build no longer imports is stale: it must leave NOT_FACTS."""
    assert set(NOT_FACTS) <= build_modules()
