"""The ``corsbot`` command line: a thin layer that parses arguments and calls plain functions.

Subcommands are registered by glue modules, one per concern, each exposing
``register(subparsers) -> None``:

- ``bot/cli/kb.py``: ``kb build | stats | show``
- ``bot/cli/nlu.py``: ``nlu train | evaluate | evaluate-entities | evaluate-realistic | evaluate-conversations``
- ``bot/cli/rec.py``: ``rec evaluate | bench``
- ``bot/cli/logs.py``: ``export``, ``logs tocheck``
- ``bot/cli/chat.py``: ``chat``, ``replay``
- ``bot/cli/telegram.py``: ``telegram``, ``bench telegram``
- ``bot/cli/web.py``: ``web``, ``bench web``
- ``bot/cli/bench_start.py``: ``bench start``

A command group shared by several modules (``bench``) is made with :func:`command_group`.

Every handler returns a process exit code. Errors that corsbot raises on purpose
(``CorsbotError`` subclasses, missing files) are printed as one clear line on stderr, exit code 2;
never a traceback (use ``-v`` to see one).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

_GLUE_MODULES = (
    "bot.cli.kb",
    "bot.cli.nlu",
    "bot.cli.rec",
    "bot.cli.logs",
    "bot.cli.chat",
    "bot.cli.telegram",
    "bot.cli.web",
    "bot.cli.bench_start",
)

logger = logging.getLogger(__name__)


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="corsbot",
        description="Conversational recommender (movies, books, music) over a Wikidata knowledge graph.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-vv for debug)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _GLUE_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # a glue module not written yet
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def command_group(sub: argparse._SubParsersAction, name: str, help_text: str) -> argparse._SubParsersAction:
    """The subcommands of the top-level command ``name`` (e.g. ``bench``), created by the first
    glue module that asks, so that several modules can add subcommands to it."""
    parser = sub.choices.get(name)
    if parser is None:
        parser = sub.add_parser(name, help=help_text)
        parser.add_subparsers(dest=f"{name}_command", metavar=name.upper())
        parser.set_defaults(handler=lambda args: (parser.print_help(), 2)[1])
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    raise AssertionError(f"{name} has no subcommands")  # pragma: no cover - made above


def package_version() -> str:
    """The installed ``corsbot`` version (``pyproject.toml``), or the one written there if not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("corsbot")
    except PackageNotFoundError:
        import re
        from pathlib import Path

        pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
        found = (
            re.search(r'^version\s*=\s*"([^"]+)"', pyproject.read_text(encoding="utf-8"), re.M)
            if pyproject.is_file()
            else None
        )
        return found.group(1) if found else "unknown"


def configure_logging(verbosity: int) -> None:
    """Configure the root logger for scripts (the only place that does)."""
    level = logging.WARNING if verbosity <= 0 else logging.INFO if verbosity == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    from bot import redact

    redact.install()  # every handler: no token, secret or password in any log line or traceback


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``corsbot``; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    configure_logging(args.verbose)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return int(handler(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `corsbot ... | head`: the reader left; stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # noqa: BLE001 - the CLI's last line of defence
        from bot.errors import describe_error

        message = describe_error(exc)
        if message is None or args.verbose >= 2:
            logger.exception("unexpected error")
        from bot.redact import redact

        print(redact(f"corsbot: error: {message or exc.__class__.__name__ + ': ' + str(exc)}"), file=sys.stderr)
        return 2
