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
    "recommender.rec_eval",
    "recommender.elicitation_eval",
    "recommender.bench",
    "recommender.audit",
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


def test_only_the_sparql_module_imports_sparqlwrapper():
    offenders = [
        str(path.relative_to(ROOT))
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if any(name.split(".")[0] == "SPARQLWrapper" for name in _imports(path))
        and path.relative_to(ROOT).as_posix() != "recommender/sparql.py"
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


def _module_graph() -> dict[str, set[str]]:
    """Project module -> the project modules it imports (module level or inside functions)."""
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            name = _module(path)
            modules[name.removesuffix(".__init__")] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found = _imports(path) | _lazy_imports(path, package=None)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found |= {f"{node.module}.{alias.name}" for alias in node.names}
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_the_telegram_commands_the_dialog_pool_and_the_channels_import_no_circle():
    """``corsbot telegram``, its benches and the bot the durability bench kills share
    ``bot.cli.telegram_common`` instead of importing each other (issue 25)."""
    watched = ("bot.cli.telegram", "bot.cli.bench_telegram", "bot.cli.durability", "bot.dialog_pool", "bot.channels")
    graph = _module_graph()
    assert "bot.cli.telegram_common" in graph
    offenders = [sorted(c) for c in _circles(graph) if any(m.startswith(watched) for m in c)]
    assert offenders == []
