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
ALLOWED = {"nlu": {"logs.schema"}}
"""The dataset vocabulary (intent names, events; it imports nothing of the project): nlu reads and
produces intent names (``nlu/understand.py``)."""
PACKAGES = ("bot", "nlu", "recommender", "logs")
EVALUATION_MODULES = {
    "nlu.intent_eval",
    "nlu.entity_eval",
    "nlu.entity_tasks",
    "nlu.link_eval",
    "recommender.rec_eval",
    "recommender.elicitation_eval",
    "recommender.bench",
    "recommender.audit",
    "recommender.audit_lists",
}
"""Offline evaluation and benchmark code: the CLI runs it, the live bot never imports it."""


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
            if name in ALLOWED.get(package, ()):
                continue
            if name.split(".")[0] in FORBIDDEN[package]:
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_only_the_telegram_channel_imports_telegram():
    """Only the modules of the ``bot/channels/telegram/`` package import python-telegram-bot."""
    offenders = [
        str(path.relative_to(ROOT))
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if any(name.split(".")[0] == "telegram" for name in _imports(path))
        and not path.relative_to(ROOT).as_posix().startswith("bot/channels/telegram/")
    ]
    assert offenders == []


WEB_FRAMEWORK = {"starlette", "uvicorn", "jinja2", "multipart", "python_multipart", "itsdangerous"}
"""The web stack of the web channel (issue 26)."""


def test_only_the_web_channel_imports_the_web_framework():
    """Only the modules of the ``bot/channels/web/`` package import Starlette, uvicorn, Jinja2 (and their parts)."""
    offenders = [
        str(path.relative_to(ROOT))
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if any(name.split(".")[0] in WEB_FRAMEWORK for name in _imports(path))
        and not path.relative_to(ROOT).as_posix().startswith("bot/channels/web/")
    ]
    assert offenders == []


def test_the_web_dialog_side_runs_without_the_web_framework():
    """The dialog workers load ``bot.channels.web.dialogs`` (and the store it reads): no web framework there,
    directly or through the package's other modules."""
    web = ROOT / "bot" / "channels" / "web"
    for name in ("__init__.py", "dialogs.py", "store.py", "study.py"):
        imported = _imports(web / name)
        assert not {n for n in imported if n.split(".")[0] in WEB_FRAMEWORK}, name
        assert not {n for n in imported if n.startswith("bot.channels.web.")} - {
            "bot.channels.web.store",
            "bot.channels.web.study",
        }, name


def test_only_the_sparql_client_imports_sparqlwrapper():
    offenders = [
        str(path.relative_to(ROOT))
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if any(name.split(".")[0] == "SPARQLWrapper" for name in _imports(path))
        and path.relative_to(ROOT).as_posix() != "recommender/sparql_client.py"
    ]
    assert offenders == []


def test_the_vocabularies_allowed_across_layers_import_nothing_of_the_project():
    for name in {"logs.schema"}:
        names = _imports(ROOT / (name.replace(".", "/") + ".py"))
        assert not {n for n in names if n.split(".")[0] in PACKAGES}, name


def test_the_root_errors_import_nothing_of_the_project():
    """``corsbot_errors`` is the neutral root every package imports: it imports none of them."""
    names = _imports(ROOT / "corsbot_errors.py")
    assert not {name for name in names if name.split(".")[0] in PACKAGES}


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _runtime_modules() -> list[Path]:
    """Modules the running bot may load: everything but the CLI glue and the evaluation code."""
    return [
        path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if not _module(path).startswith("bot.cli") and _module(path) not in EVALUATION_MODULES
    ]


def test_no_runtime_module_imports_cli_glue():
    """CLI glue (``bot/cli/``) sits on top: the dialog, services and channels never import it."""
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in _runtime_modules()
        for name in _imports(path) | _lazy_imports(path)
        if name == "bot.cli" or name.startswith("bot.cli.")
    ]
    assert offenders == []


def test_no_runtime_module_imports_evaluation_code():
    """The live bot never imports offline evaluation or benchmarks (``*_eval``, ``recommender.bench``)."""
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in _runtime_modules()
        for name in _imports(path) | _lazy_imports(path, package=None)
        if name in EVALUATION_MODULES
    ]
    assert offenders == []


def test_the_dialog_never_imports_a_channel():
    """The dialog manager works on ``Turn`` and ``Reply`` only; channels import it, not the reverse."""
    dialog = [path for path in sorted((ROOT / "bot").rglob("*.py")) if _module(path).startswith("bot.dialog")]
    assert dialog
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in dialog
        for name in _imports(path) | _lazy_imports(path)
        if name == "bot.channels" or name.startswith("bot.channels.") or name.split(".")[0] == "telegram"
    ]
    assert offenders == []


def _lazy_imports(path: Path, package: str | None = "bot") -> set[str]:
    """``from bot import cli`` style imports (module named in the imported names); every package's
    when ``package`` is None (``from recommender import rec_eval``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
        if node.module == package or (package is None and node.module in PACKAGES)
        for alias in node.names
    }


# ---------------------------------------------------------------- import circles (issue 24)
#
# Every import statement between two modules of the project counts: at module level, inside a
# function and under ``if TYPE_CHECKING:``. A deferred import (in a function, or for typing only)
# hides a circle from the interpreter, not from the reader: the two modules still depend on each
# other, cannot be read, tested or moved one without the other, and one refactoring away from an
# ImportError. The three kinds are named in the report, so that a circle's owner sees which edge to
# cut. An import names the module it loads (``from bot import paths`` -> ``bot.paths``); the parent
# packages Python loads first are no edges (a package re-exporting its modules is no circle).

KNOWN_CIRCLES: dict[frozenset[str], str] = {}
"""Circles tolerated for a while, each with the work that removes it (empty since issue 24 broke the last,
the dialog's preferences <-> suggestions). A circle found is tolerated only inside one of these; one no
longer found must leave this list."""


def _project_modules(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the project (a package is its ``__init__``)."""
    modules = {"corsbot_errors": root / "corsbot_errors.py"}
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _import_edges(name: str, path: Path, modules: dict[str, Path]) -> dict[str, tuple[str, int]]:
    """The project modules ``name`` imports -> (kind, line) of the first such import; kind is
    ``module level``, ``in a function`` or ``for typing only``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def resolve(target: str) -> str | None:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        return target or None

    edges: dict[str, tuple[str, int]] = {}

    def visit(node: ast.AST, kind: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = kind
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and kind == "module level":
                inner = "in a function"
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                inner = "for typing only"
            if isinstance(child, ast.Import):
                targets = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parent = package
                    for _ in range(child.level - 1):
                        parent = parent.rpartition(".")[0]
                    base = f"{parent}.{base}" if base else parent
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in child.names]
            else:
                targets = []
            for target in targets:
                found = resolve(target)
                if found and found != name and found not in edges:
                    edges[found] = (inner, child.lineno)
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), "module level")
    return edges


def import_circles(root: Path = ROOT) -> list[tuple[frozenset[str], list[str]]]:
    """Every import circle of the project under ``root``: its modules (a strongly connected component of
    the import graph, Tarjan's algorithm) and the imports between them (``a -> b (in a function, line 12)``)."""
    modules = _project_modules(root)
    graph = {name: _import_edges(name, path, modules) for name, path in sorted(modules.items())}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[tuple[frozenset[str], list[str]]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            members = {stack.pop()}
            while v not in members:
                members.add(stack.pop())
            if len(members) > 1:
                edges = [
                    f"{a} -> {b} ({kind}, line {line})"
                    for a in sorted(members)
                    for b, (kind, line) in sorted(graph[a].items())
                    if b in members
                ]
                circles.append((frozenset(members), edges))

    for name in graph:
        if name not in index:
            strong(name)
    return circles


def test_no_new_import_circle():
    """No import circle between the project's modules but inside the known ones (each with its owner)."""
    new = [
        f"{', '.join(sorted(members))}:\n    " + "\n    ".join(edges)
        for members, edges in import_circles()
        if not any(members <= known for known in KNOWN_CIRCLES)
    ]
    assert not new, "import circles:\n" + "\n".join(new)


def test_a_known_circle_that_is_gone_leaves_the_list():
    found = [members for members, _edges in import_circles()]
    gone = [
        f"{sorted(known)} ({owner})" for known, owner in KNOWN_CIRCLES.items() if not any(m <= known for m in found)
    ]
    assert not gone, f"no longer circles, remove them from KNOWN_CIRCLES: {gone}"


def test_the_circle_finder_names_each_kind_of_import(tmp_path):
    """The finder on a small tree: a circle through a function-level and a typing-only import is found."""
    for package, files in {
        "nlu": {"a.py": "from nlu import b\n", "b.py": "def f():\n    from nlu.c import g\n"},
        "logs": {},
        "bot": {},
        "recommender": {},
    }.items():
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("", encoding="utf-8")
        for name, text in files.items():
            (tmp_path / package / name).write_text(text, encoding="utf-8")
    (tmp_path / "nlu" / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n", encoding="utf-8"
    )
    (tmp_path / "corsbot_errors.py").write_text("", encoding="utf-8")
    ((members, edges),) = import_circles(tmp_path)
    assert members == {"nlu.a", "nlu.b", "nlu.c"}
    assert edges == [
        "nlu.a -> nlu.b (module level, line 1)",
        "nlu.b -> nlu.c (in a function, line 2)",
        "nlu.c -> nlu.a (for typing only, line 3)",
    ]
