"""``corsbot telegram`` (run the bot) and ``corsbot bench telegram`` (its throughput benchmark).

``corsbot telegram`` reads the bot token from an environment variable (never from the command line,
where ``ps`` would show it), takes the single-instance lock next to the database, starts
``--processes`` dialog-manager worker processes (default 2; :mod:`bot.dialog_pool`: each builds the
dialog manager from ``$CORSBOT_HOME`` with ``bot.compose.build_dialog_manager``, each user is pinned
to one of them, all share the SQLite database) and serves by long polling, or by webhook with
``--webhook-url``. ``--processes 0`` runs the dialog manager in the bot process on the channel's
threads instead. ``--echo`` answers with an echo handler instead of the dialog manager (to check a
token and the channel without models).

``corsbot bench telegram`` (its harness in :mod:`bot.cli.bench_telegram`; what the commands share is in
:mod:`bot.cli.telegram_common`) measures messages per second through python-telegram-bot and the fake
Bot API server of :mod:`bot.channels.fake_bot_api` (run in a subprocess, as the real Bot API is
another machine): ``--users`` users each send ``--messages`` texts, all queued at once and
interleaved; the clock runs from the first push until every turn is handled and delivered. It uses
the real dialog manager when it can be built from ``$CORSBOT_HOME`` (KB snapshot and intent model;
state and session log in a temporary SQLite database; run as in production, in ``--processes``
worker processes, each warmed up off the clock by sending the bench texts once under its own user
key), else a trivial echo handler, and prints which. It also prints the CPU time per message of the
bot process, of the dialog workers and of the fake server over the same interval: the figures to
compare variants with on a shared machine (msgs/s follows the CPU share the processes get, and on
this machine the CPU time of the same work itself grows about 2x when both cores are busy).
PTB's :class:`~telegram.ext.AIORateLimiter` is installed as in production, with its overall limit
off (Telegram's 30 messages/s would cap the figure). Last line:
``telegram: users=100 messages=N msgs_per_s=R lost=L``.

Measurements and their history: ``docs/benchmarks.md`` ("Telegram throughput").
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
from pathlib import Path
from typing import Any

from bot import paths
from bot.cli import telegram_common
from bot.cli.args import non_negative_int, positive_float, positive_int
from bot.cli.args import port as port_number
from bot.cli.telegram_common import DEFAULT_PROCESSES, EchoHandler
from bot.redact import redact, register_secret
from corsbot_errors import ConfigError
from logs.store import check_database

logger = logging.getLogger(__name__)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``telegram`` and ``bench telegram`` to the top-level parser."""
    p = sub.add_parser(
        "telegram",
        help="run the Telegram bot (long polling, or webhook with --webhook-url)",
        description="Run the Telegram bot. The token is read from the environment variable "
        "TELEGRAM_BOT_TOKEN (another one with --token-env), e.g. "
        "TELEGRAM_BOT_TOKEN=123:abc corsbot telegram",
    )
    p.add_argument(
        "--token-env",
        default="TELEGRAM_BOT_TOKEN",
        metavar="NAME",
        help="name of the environment variable holding the bot token (default TELEGRAM_BOT_TOKEN; "
        "the token itself is never given on the command line)",
    )
    p.add_argument("--webhook-url", help="public HTTPS URL for a webhook (default: long polling)")
    p.add_argument("--listen", default="127.0.0.1", help="webhook server address (default 127.0.0.1)")
    p.add_argument("--port", type=port_number, default=8443, help="webhook server port (default 8443)")
    p.add_argument("--url-path", default="telegram", help="webhook path on the local server")
    p.add_argument(
        "--secret-env",
        default="TELEGRAM_WEBHOOK_SECRET",
        metavar="NAME",
        help="name of the environment variable with the webhook secret (default TELEGRAM_WEBHOOK_SECRET)",
    )
    p.add_argument("--base-url", help="Bot API root, e.g. http://127.0.0.1:8081/bot (tests, a local Bot API)")
    p.add_argument("--db", type=Path, help="SQLite database (default $CORSBOT_HOME/corsbot.sqlite3)")
    p.add_argument(
        "--workers", type=positive_int, default=8, help="channel threads running or awaiting turns (default 8)"
    )
    p.add_argument("--processes", type=non_negative_int, default=DEFAULT_PROCESSES,
                   help=f"dialog-manager worker processes, each user pinned to one (default {DEFAULT_PROCESSES}; "
                        "0 = in the bot process, on the threads)")  # fmt: skip
    p.add_argument(
        "--sends-in-flight",
        type=positive_int,
        default=1,
        metavar="N",
        help="replies sent at once, each recorded sent before the next (default 1: a kill -9 can then send "
        "at most one reply twice; more is faster over a slow link, with up to N replies sent twice per crash)",
    )
    p.add_argument(
        "--http-backend",
        choices=("aiohttp", "httpx"),
        default="aiohttp",
        help="HTTP client for the Bot API (default aiohttp; httpx = PTB's own)",
    )
    p.add_argument("--echo", action="store_true", help="answer with an echo handler instead of the dialog manager")
    p.add_argument(
        "--elicitation",
        default=None,
        metavar="STRATEGY",
        help="items suggested to rate after each preference: popularity, randpop, varxpop, item2item, highest "
        "or none, or domain=strategy pairs (default $CORSBOT_ELICITATION, else highest for movies, none for "
        "books and music)",
    )
    p.set_defaults(handler=_telegram_cli)

    from bot.cli import command_group

    bench_sub = command_group(sub, "bench", "benchmarks")
    t = bench_sub.add_parser("telegram", help="messages/s through PTB and a fake Bot API server")
    t.add_argument("--users", type=positive_int, default=100, help="concurrent users (default 100)")
    t.add_argument("--messages", type=positive_int, default=10, help="messages per user (default 10)")
    t.add_argument(
        "--timeout", type=positive_float, default=120.0, help="give up after this many seconds (default 120)"
    )
    t.add_argument(
        "--pool", type=positive_int, default=64, help="HTTP connections of the bot (default 64, as in production)"
    )
    t.add_argument(
        "--http-backend",
        choices=("aiohttp", "httpx"),
        default="aiohttp",
        help="the bot's HTTP client (default aiohttp, as in production; httpx = PTB's default)",
    )
    t.add_argument(
        "--processes",
        type=non_negative_int,
        default=DEFAULT_PROCESSES,
        help=f"dialog-manager worker processes (default {DEFAULT_PROCESSES}, as in production; 0 = in the bot process)",
    )
    t.add_argument("--trivial", action="store_true", help="use the trivial echo handler even if a model exists")
    t.add_argument(
        "--database",
        metavar="URL",
        help="PostgreSQL URL for the dialog state, log and inbox (default: a temporary SQLite file); "
        "the bench writes a session 'bench' into it: use a throwaway database",
    )
    t.set_defaults(handler=_bench_cli)
    from bot.cli import fake_telegram  # noqa: PLC0415
    from bot.cli.durability import register_bench  # noqa: PLC0415

    fake_telegram.register(sub)

    register_bench(bench_sub)


# ------------------------------------------------------------------------------------- corsbot telegram


def _telegram_cli(args: argparse.Namespace) -> int:
    from bot.channels.inbox import SqliteInbox  # noqa: PLC0415
    from bot.channels.telegram import (  # noqa: PLC0415
        InstanceLock,
        TelegramChannel,
        TelegramConfig,
        bot_id_of,
        lock_path_for,
    )
    from bot.channels.users import ChannelUsers  # noqa: PLC0415
    from bot.cli.chat import elicitation_setting  # noqa: PLC0415

    elicitation = None if args.echo else elicitation_setting(args)  # a bad name: one clear error first
    token = os.environ.get(args.token_env, "").strip()
    register_secret(token)
    register_secret(os.environ.get(args.secret_env))
    if not token:
        raise ConfigError(f"no bot token: set the environment variable {args.token_env} (from @BotFather)")
    db = args.db or paths.database()
    if args.processes < 0:
        raise ConfigError("--processes must be >= 0")
    options: dict[str, Any] = {
        "workers": max(args.workers, args.processes),
        "http_backend": args.http_backend,
        "sends_in_flight": args.sends_in_flight,
    }
    if args.base_url:
        options["base_url"] = args.base_url
        options["base_file_url"] = (
            args.base_url[: -len("/bot")] + "/file/bot" if args.base_url.endswith("/bot") else args.base_url
        )
    if args.webhook_url:
        options.update(webhook_url=args.webhook_url, listen=args.listen, port=args.port, url_path=args.url_path,
                       secret_token=os.environ.get(args.secret_env) or None)  # fmt: skip
    if args.webhook_url and not options.get("secret_token"):
        raise ConfigError(f"webhook mode needs a secret: set {args.secret_env} (1-256 characters A-Z a-z 0-9 _ -)")
    config = TelegramConfig(token=token, **options)
    source = f"telegram:{bot_id_of(token)}"
    from bot.compose import database_url  # noqa: PLC0415 - the runtime, imported to run, not to build the parser

    url = database_url()
    if url is None:
        from bot.store import StateStore  # noqa: PLC0415

        check_database(db)  # damaged pages: one line naming the file and what to do, before anything starts
        StateStore(db).close()  # a read-only folder fails here with one line naming the database, before the lock
        inbox: Any = SqliteInbox(db, source)  # updates stored before they are confirmed
        users: Any = ChannelUsers(db)
    else:
        from bot.pgstore.store import PgChannelUsers, PgInbox  # noqa: PLC0415

        inbox, users = PgInbox(url, source), PgChannelUsers(url)  # schema created, migrated or refused here
    # one poller per token (a second one gets 409 from Telegram anyway); webhook workers may be many
    lock = InstanceLock(lock_path_for(token, db.parent)) if not args.webhook_url else contextlib.nullcontext()
    with lock:
        handler = (
            EchoHandler()
            if args.echo
            else telegram_common.real_dialog_manager(db, "telegram", args.processes, elicitation=elicitation)
        )
        try:
            channel = TelegramChannel(handler, config, users=users, inbox=inbox)
            mode = f"webhook {redact(args.webhook_url)}" if args.webhook_url else "long polling"
            backend = "postgresql" if url else "sqlite"
            channel.run(on_started=lambda: print(f"telegram: serving ({mode}, {backend}); Ctrl-C stops", flush=True))
        finally:
            if hasattr(handler, "close"):
                handler.close()
    print("telegram: stopped")
    return 0


def _bench_cli(args: argparse.Namespace) -> int:
    from bot.cli.bench_telegram import bench_cli  # noqa: PLC0415 - the harness, only for the benchmark

    return bench_cli(args)
