"""``corsbot export`` and ``corsbot logs ...``: CLI glue of the :mod:`logs` package.

The log is read from PostgreSQL when ``CORSBOT_DATABASE_URL`` is set (and no ``--db`` is given),
else from the SQLite database of ``$CORSBOT_HOME``.

- ``corsbot export [--session S] [--out FILE] [--db DB] [--corrected] [--format dataset|sgd]``: write the
  session log as a dataset-format JSON file (default ``<home>/exports/<session or all>.json``; ``--out -``
  writes to stdout and the summary line to stderr; a symlink, device or FIFO is written through, a regular
  file replaced atomically, see :mod:`logs.output`); ``--corrected`` applies the researcher's corrections
  (:mod:`bot.corrections`); ``--format sgd`` writes the web channel's conversations of those records, with
  the system's turns, as schema-guided dialogues (:mod:`bot.sgd`).
- ``corsbot logs sessions [--db DB]``: list the logged sessions with their record counts.
- ``corsbot logs tocheck FILE...``: recompute the toCheck heuristic from the logged intents,
  events and objects of dataset-format files and print the agreement with the logged flags; last
  line exactly ``tocheck: messages=N agreement=A``.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot import paths
from corsbot_errors import ConfigError

if TYPE_CHECKING:
    from bot.channels.web.store import StoredTurn
    from bot.pgstore.store import PgLogStore
    from logs.record import LogRecord
    from logs.store import LogStore

_DB_HELP = (
    "SQLite log database (default: the PostgreSQL database of $CORSBOT_DATABASE_URL if set, "
    "else <home>/corsbot.sqlite3)"
)


def open_log(db: Path | None) -> LogStore | PgLogStore:
    """The session log to read: ``db`` (SQLite) if given, else ``$CORSBOT_DATABASE_URL``'s PostgreSQL
    database, else ``<home>/corsbot.sqlite3``. Both have ``records``, ``sessions``, ``count`` and ``path``.

    Raises:
        StoreError: the database cannot be opened (a missing SQLite file is not created).
        ConfigError: ``CORSBOT_DATABASE_URL`` is not a PostgreSQL URL.
    """
    from bot.compose import database_url
    from logs.store import LogStore

    url = database_url() if db is None else None
    if url is not None:
        from bot.pgstore.store import PgLogStore

        return PgLogStore(url)
    return LogStore(db or paths.database(), create=False)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``export`` and ``logs`` (``sessions``, ``tocheck``) to the top-level parser."""
    export_parser = sub.add_parser("export", help="export the session log as a dataset-format JSON file")
    export_parser.add_argument("--session", help="session to export (default: all sessions)")
    export_parser.add_argument(
        "--out",
        type=Path,
        help="output file, '-' for stdout (default: <home>/exports/<session or all>.json); "
        "a symlink, device or FIFO is written through",
    )
    export_parser.add_argument("--db", type=Path, help=_DB_HELP)
    export_parser.add_argument(
        "--corrected",
        action="store_true",
        help="apply the researcher's corrections (corsbot web's review queue): corrected intent and entities, "
        "toCheck=false; the log itself is never changed",
    )
    export_parser.add_argument(
        "--format",
        choices=("dataset", "sgd"),
        default="dataset",
        help="dataset: the ConveRSE records (default); sgd: whole web conversations with the system's turns as "
        "schema-guided dialogues (dialogue_id, services, turns of USER / SYSTEM with frames of acts and slots; "
        "corrections applied)",
    )
    export_parser.set_defaults(handler=run_export)

    logs_parser = sub.add_parser("logs", help="inspect dataset-format logs")
    logs_sub = logs_parser.add_subparsers(dest="logs_command", metavar="LOGS_COMMAND")
    logs_parser.set_defaults(handler=lambda args: (logs_parser.print_help(), 2)[1])

    sessions_parser = logs_sub.add_parser("sessions", help="list the logged sessions")
    sessions_parser.add_argument("--db", type=Path, help=_DB_HELP)
    sessions_parser.set_defaults(handler=run_sessions)

    tocheck_parser = logs_sub.add_parser(
        "tocheck", help="recompute toCheck from logged intents/events/objects and compare with the logged flags"
    )
    tocheck_parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="dataset-format JSON files")
    tocheck_parser.set_defaults(handler=run_tocheck)


def _safe_name(session: str | None) -> str:
    if session is None:
        return "all"
    return re.sub(r"[^A-Za-z0-9._-]+", "_", session).strip("._") or "session"


def run_export(args: argparse.Namespace) -> int:
    """Handler of ``corsbot export``."""
    from logs.output import is_stdout, write_text
    from logs.record import write_records

    suffix = (
        "" if args.format == "dataset" and not args.corrected else f"-{'sgd' if args.format == 'sgd' else 'corrected'}"
    )
    out = args.out or paths.exports_dir() / f"{_safe_name(args.session)}{suffix}.json"
    with open_log(args.db) as store:
        if args.session is not None and args.session not in store.sessions():
            known = ", ".join(store.sessions()) or "none"
            raise ConfigError(f"no session {args.session!r} in {store.path} (sessions: {known})")
        records = store.records(args.session)
    if args.corrected or args.format == "sgd":
        from bot.corrections import apply_corrections, open_for_log

        with open_for_log(args.db) as corrections_store:
            corrections = corrections_store.all()
        records = apply_corrections(records, corrections)
    if args.format == "sgd":
        import json

        dialogues = _sgd(args.db, records, frozenset(corrections))
        write_text(out, json.dumps(dialogues, ensure_ascii=False, indent=1) + "\n")
        what = f"{len(dialogues)} dialogues"
    else:
        write_records(out, records)
        what = f"{len(records)} records"
    # with --out - the JSON is on stdout: the summary goes to stderr so the output stays parseable
    print(
        f"exported {what} to {'stdout' if is_stdout(out) else out}",
        file=sys.stderr if is_stdout(out) else sys.stdout,
    )
    return 0


def _sgd(db: Path | None, records: list[LogRecord], corrected: frozenset[str]) -> list[dict[str, Any]]:
    """The web channel's conversations whose turns are among ``records`` as schema-guided dialogues."""
    from bot.channels.web.store import WebStore
    from bot.compose import database_url
    from bot.sgd import sgd_dialogues

    url = database_url() if db is None else None
    store = WebStore(url or db or paths.database())
    try:
        by_id = {r.message_id: r for r in records}
        turns = store.turns_by_message(list(by_id))
        pids = sorted({t.pid for t in turns.values()})
        participants = {pid: store.participant(pid) for pid in pids}
        conversations: dict[str, list[StoredTurn]] = {}
        for turn in store.all_turns(pids):
            who = participants.get(turn.pid)
            conversations.setdefault(f"{who.study if who else 'web'}/{turn.pid}", []).append(turn)
    finally:
        store.close()
    return sgd_dialogues(conversations, by_id, corrected=corrected)


def run_sessions(args: argparse.Namespace) -> int:
    """Handler of ``corsbot logs sessions``."""
    with open_log(args.db) as store:
        names = store.sessions()
        for name in names:
            print(f"{name}\t{store.count(name)}")
    print(f"sessions: {len(names)}")
    return 0


def run_tocheck(args: argparse.Namespace) -> int:
    """Handler of ``corsbot logs tocheck``."""
    from logs.record import RecordError, read_records
    from logs.tocheck import agreement, compute_to_check

    total = agreed = 0
    for path in args.files:
        result = read_records(path)
        for problem in result.problems[:10]:
            print(f"corsbot: warning: skipped {problem}", file=sys.stderr)
        if result.problems:
            print(f"corsbot: warning: {path}: {len(result.problems)} unusable records skipped", file=sys.stderr)
        if not result.records:
            raise RecordError(f"{path}: no usable message records ({len(result.problems)} unusable)")
        records = result.records
        flags = compute_to_check(records)
        same = sum(flag == record.to_check for flag, record in zip(flags, records, strict=True))
        total += len(records)
        agreed += same
        print(f"{path}: messages={len(records)} agreement={agreement(same, len(records)):.3f}")
    print(f"tocheck: messages={total} agreement={agreement(agreed, total):.3f}")
    return 0
