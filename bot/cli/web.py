"""``corsbot web`` (run a study from the browser) and ``corsbot bench web`` (its throughput benchmark).

``corsbot web [--study FILE] [--listen 127.0.0.1] [--port 8080] [--processes 2]`` serves, on the
embedded defaults (the SQLite database, KB and models of ``$CORSBOT_HOME``; PostgreSQL with
``CORSBOT_DATABASE_URL``, as for Telegram):

- ``/chat`` (``/chat?pid=...``) the participants' chat, ``/console`` the researcher's console (login with
  the token of ``CORSBOT_CONSOLE_TOKEN``; closed without it), ``/agent`` the outside evaluator's door;
- the dialog in ``--processes`` worker processes (:mod:`bot.dialog_pool`, each running the dialog
  managers of the study's conditions, :mod:`bot.channels.web.dialogs`; ``0``: in the server process).

``corsbot bench web`` (harness in :mod:`bot.cli.bench_web`): participants through the web chat with the
real dialog manager; last line ``web: users=U messages=N msgs_per_s=X lost=L p99_ms=Y``.
"""

from __future__ import annotations

import argparse
import functools
import os
from pathlib import Path
from typing import Any

from bot import paths
from bot.cli.args import non_negative_int, positive_float, positive_int
from bot.cli.args import port as port_number
from corsbot_errors import ConfigError

DEFAULT_PROCESSES = 2
"""Dialog worker processes of ``corsbot web`` (as ``corsbot telegram``)."""
TOKEN_ENV = "CORSBOT_CONSOLE_TOKEN"


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``web`` and ``bench web``."""
    p = sub.add_parser(
        "web",
        help="run a study from the browser: participants' chat, researcher's console, evaluator's door",
        description="Serve the web chat at /chat (participants: /chat?pid=ID), the researcher's console at "
        f"/console (log in with the token of ${TOKEN_ENV}; closed without it) and the outside evaluator's door "
        'at /agent (UserSimCRS / DialogueKit: GET answers 200, POST {"context": [...], "message": ...}).',
    )
    p.add_argument("--study", type=Path, help="study file (TOML: consent, min_turns, conditions, completion code, ...; "
                   "see docs/DESIGN.md); default: one condition, no consent")  # fmt: skip
    p.add_argument(
        "--listen",
        default="127.0.0.1",
        help="address to serve on (default 127.0.0.1; put a TLS proxy in front for the internet)",
    )
    p.add_argument("--port", type=port_number, default=8080, help="port (default 8080)")
    p.add_argument("--processes", type=non_negative_int, default=DEFAULT_PROCESSES,
                   help=f"dialog worker processes (default {DEFAULT_PROCESSES}; 0 = in the server process)")  # fmt: skip
    p.add_argument("--db", type=Path, help="SQLite database (default $CORSBOT_HOME/corsbot.sqlite3)")
    p.add_argument("--elicitation", default=None, metavar="STRATEGY",
                   help="elicitation setting of the default condition (as corsbot chat; default $CORSBOT_ELICITATION)")  # fmt: skip
    p.add_argument("--token-env", default=TOKEN_ENV, metavar="NAME",
                   help=f"environment variable holding the console's login token (default {TOKEN_ENV}); never on the command line")  # fmt: skip
    p.add_argument("--https-cookies", action="store_true", help="mark the session cookie Secure (serving behind HTTPS)")
    p.set_defaults(handler=_web_cli)

    from bot.cli import command_group

    bench = command_group(sub, "bench", "benchmarks").add_parser(
        "web", help="participants per second through the web chat with the real dialog manager"
    )
    bench.add_argument("--users", type=positive_int, default=100, help="concurrent participants (default 100)")
    bench.add_argument("--messages", type=positive_int, default=10, help="messages per participant (default 10)")
    bench.add_argument("--processes", type=non_negative_int, default=DEFAULT_PROCESSES,
                       help=f"dialog worker processes (default {DEFAULT_PROCESSES}, as corsbot web)")  # fmt: skip
    bench.add_argument("--timeout", type=positive_float, default=300.0, help="give up after this many seconds")
    bench.add_argument("--trivial", action="store_true", help="an echo handler instead of the dialog manager")
    bench.set_defaults(handler=_bench_cli)


def study_handler(*, db: Path, study: Any, processes: int) -> Any:
    """The dialog handler of a study: :class:`bot.channels.web.dialogs.StudyDialogs` in ``processes``
    worker processes (started here), or in this process (``processes=0``).

    Raises:
        ConfigError: the model or KB is missing, or a worker could not start.
    """
    from bot.channels.web.dialogs import StudyDialogs, build_study_dialogs

    if processes <= 0:
        return StudyDialogs(db=db, study=study)
    from bot.dialog_pool import ProcessDialogHandler

    pool = ProcessDialogHandler(functools.partial(build_study_dialogs, db=db, study=study), processes=processes)
    pool.start()
    return pool


def _web_cli(args: argparse.Namespace) -> int:
    from bot.channels.web.app import WebConfig, build_app
    from bot.channels.web.security import load_signing_key
    from bot.channels.web.server import serve
    from bot.channels.web.study import load_study
    from bot.cli.chat import elicitation_setting
    from bot.compose import database_url
    from bot.redact import register_secret
    from logs.store import check_database

    study = load_study(args.study, default_elicitation=elicitation_setting(args))
    token = os.environ.get(args.token_env, "").strip() or None
    register_secret(token)
    if token is not None and len(token) < 12:
        raise ConfigError(f"{args.token_env} is too short: use at least 12 characters (e.g. openssl rand -hex 16)")
    db = args.db or paths.database()
    url = database_url()
    if url is None:
        check_database(db)
    key = load_signing_key(paths.home())
    config = WebConfig(study=study, database=url or db, signing_key=key, console_token=token, home=paths.home(),
                       https_cookies=args.https_cookies)  # fmt: skip
    make = functools.partial(study_handler, db=db, study=study, processes=args.processes)
    handler = make()
    app: Any = None
    try:
        app = build_app(config, handler, handler_factory=make)
        backend = "postgresql" if url else "sqlite"
        where = f"http://{args.listen}:{args.port}"

        def started() -> None:
            console = "/console" if token else f"/console closed: set {args.token_env}"
            print(f"web: serving {where} ({backend}, study {study.name}): participants {where}/chat?pid=ID, "
                  f"researcher {where}{console}" + (f", evaluator {where}/agent" if study.evaluator else ""),
                  flush=True)  # fmt: skip

        serve(app, host=args.listen, port=args.port, on_started=started)
    finally:
        current = app.state.web.intake.handler if app is not None else handler
        for h in {id(handler): handler, id(current): current}.values():
            if hasattr(h, "close"):
                h.close()
    print("web: stopped")
    return 0


def _bench_cli(args: argparse.Namespace) -> int:
    from bot.cli.bench_web import bench_cli

    return bench_cli(args)
