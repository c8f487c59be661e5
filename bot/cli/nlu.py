"""``corsbot nlu ...``: registers the ``nlu`` command; its subcommands come from
``bot/cli/intents.py`` (train, evaluate), ``bot/cli/entities.py`` (evaluate-entities),
``bot/cli/realistic.py`` (evaluate-realistic) and ``bot/cli/conversations.py`` (evaluate-conversations), ``bot/cli/linking.py`` (evaluate-linking),
``bot/cli/mentions.py`` (train-mentions), ``bot/cli/acts.py`` (evaluate-acts)."""

from __future__ import annotations

import argparse
import importlib


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``nlu`` and its subcommands to the top-level parser."""
    parser = sub.add_parser("nlu", help="train and evaluate the language understanding")
    nlu_sub = parser.add_subparsers(dest="nlu_command", metavar="NLU_COMMAND")
    parser.set_defaults(handler=lambda args: (parser.print_help(), 2)[1])
    for name in (
        "bot.cli.intents",
        "bot.cli.entities",
        "bot.cli.realistic",
        "bot.cli.conversations",
        "bot.cli.linking",
        "bot.cli.mentions",
        "bot.cli.acts",
    ):
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(nlu_sub)
