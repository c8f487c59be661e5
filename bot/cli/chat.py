"""``corsbot chat`` (terminal chat) and ``corsbot replay`` (a logged study fed to the dialog manager).

Both build the same :class:`bot.dialog.DialogManager` as the Telegram channel (the composition root,
:mod:`bot.compose`), so the three share one code path.

``corsbot chat --domain movie`` reads one message per line from stdin (works from a pipe) and prints
the bot's replies; buttons are listed as ``[1] Like  [2] Dislike ...`` and typing the number presses
the button (interaction type ``mixed`` then, else ``NL``). ``corsbot chat --jsonl`` is the scripted
interface: one JSON object per line in and one per reply out (:mod:`bot.cli.jsonl`).

``corsbot replay FILE... [--domain D] [--report DIR]`` feeds each user's logged messages, in
timestamp order, through a fresh dialog (user key ``replay:<file>:<userID>``), logs our records in a
separate database (``$CORSBOT_HOME/replay.sqlite3``, recreated per run), writes them as dataset-format
JSON next to the report, and prints the agreement with the logged records. The domain of a file
comes from a ``movie``/``book``/``music`` folder in its path, else ``--domain`` (default movie).
Its last line is ``replay: messages=N exceptions=E intent_agreement=X intent_agreement_validated=Y``,
extended with ``events_agreement=V objects_f1=O tocheck_agreement=T`` when ``--report`` is given.
A replay is configured as the studies' systems were: a list only after 3 preferences
(``bot.dialog.context.STUDY_MIN_PREFERENCES``), where chat and Telegram recommend from the first (issue 22),
and one domain per bot (a request for another domain's items does not switch: ``domain_requests=False``).
Unusable records are skipped with one warning each (file and index); a score over zero messages is
printed ``0.000`` (never a vacuous ``1.000``), and when no record of any file could be read the
command fails (exit 2) instead of printing a summary of nothing.

Active elicitation (issue 13): ``corsbot chat --elicitation S`` (default ``$CORSBOT_ELICITATION``, else
``bot.suggestion.DEFAULT_STRATEGIES``: ``highest`` for movies, none for books and music) suggests an
item to rate after each preference. ``corsbot replay`` takes the strategy of a file from its folder when
that is one of the successor study's six condition names (``popularity``, ``randPopularity``,
``varxPopularity``, ``item2item``, ``highestPredicted``, ``nosuggestions``; the replay is then
configured as that study's system: no role questions), else ``--elicitation S`` (default none, the
first study's behaviour); the opinions of the replayed file itself are never counted by its strategy.
Per file it adds a line ``  elicitation=S events_agreement_without_suggestion=... suggestion_turns=...
ours=... same_turn=... suggestion_answers=... same_item=... suggestion_overlap=... skips=...``
(:mod:`logs.suggestions`; the overlap is a sanity figure: our strategy suggested the item the logged
answer rated, at that turn). Files without ``contexts`` (the successor study's) read fine.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot import paths
from bot.cli.args import positive_int, user_key
from bot.turns import Reply, Turn

if TYPE_CHECKING:
    from bot.dialog.manager import DialogManager
    from logs.record import LogRecord

logger = logging.getLogger(__name__)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``chat`` and ``replay``."""
    chat = sub.add_parser("chat", help="chat with the bot in the terminal (stdin/stdout, pipe-friendly)")
    chat.add_argument("--domain", choices=paths.DOMAINS, default="movie", help="domain to start in (default movie)")
    chat.add_argument(
        "--user",
        type=user_key,
        default="cli:local",
        help="user key, not empty, at most 128 characters (profiles persist per user key; default cli:local)",
    )
    chat.add_argument(
        "--jsonl",
        action="store_true",
        help='scripted: one JSON object per line in ({"user": U, "text": T} or {"user": U, "press": PAYLOAD}, '
        'optional "domain"; without "user" the line is --user\'s), one per line out (text, choices, image, intent, '
        "events, recognizedObjects; an error for a bad or blank line); "
        'each user is switched to --domain at their first line, unless the line has its own "domain"',
    )
    chat.add_argument(
        "--elicitation",
        default=None,
        metavar="STRATEGY",
        help="items suggested to rate after each preference: popularity, randpop, varxpop, item2item, highest "
        "or none, or domain=strategy pairs (default $CORSBOT_ELICITATION, else highest for movies, none for "
        "books and music)",
    )
    chat.set_defaults(handler=_chat_cli)

    replay = sub.add_parser("replay", help="replay logged user-study messages through the dialog manager")
    replay.add_argument("files", nargs="+", type=Path, help="dataset-format JSON files")
    replay.add_argument(
        "--domain",
        choices=paths.DOMAINS,
        default="movie",
        help="domain for files not under a movie/book/music folder (default movie)",
    )
    replay.add_argument(
        "--report",
        type=Path,
        default=None,
        help="write report.json, report.md and a chart to this folder (extends the last line)",
    )
    replay.add_argument(
        "--limit-users", type=positive_int, default=None, help="replay only the first N users of each file"
    )
    replay.add_argument(
        "--elicitation",
        default=None,
        metavar="STRATEGY",
        help="elicitation strategy for files not in a folder named after a condition of the successor study "
        "(popularity, randPopularity, varxPopularity, item2item, highestPredicted, nosuggestions); default none",
    )
    replay.set_defaults(handler=_replay_cli)


def render_plain(reply: Reply) -> str:
    """A reply as terminal text, buttons numbered ``[1] label``."""
    text = reply.text
    if reply.image:
        text += f"\n(image: {reply.image})"
    if reply.choices:
        text += "\n" + "  ".join(f"[{i}] {c.label}" for i, c in enumerate(reply.choices, 1))
    return text


def chat(dm: DialogManager, *, user: str, domain: str, stdin: TextIO, stdout: TextIO) -> int:
    """Run a terminal chat until end of input; returns 0."""
    reply = dm.handle(Turn(user, f"/{domain}"))
    print(f"bot> {render_plain(reply)}", file=stdout, flush=True)
    for line in stdin:
        text = line.rstrip("\n")
        payload, interaction = None, "NL"
        stripped = text.strip()
        # only ASCII digits press a button ("²" and "٣" are digits to str.isdigit, not to int())
        if stripped.isascii() and stripped.isdigit() and reply.choices:
            if not 1 <= int(stripped) <= len(reply.choices):  # a typo of a button number, not a message
                print(f"bot> {_no_such_button(stripped, len(reply.choices))}", file=stdout, flush=True)
                continue
            choice = reply.choices[int(stripped) - 1]
            text, payload, interaction = choice.label, choice.payload, "mixed"
        reply = dm.handle(Turn(user, text, payload=payload, interaction_type=interaction))
        print(f"bot> {render_plain(reply)}", file=stdout, flush=True)
    return 0


def _no_such_button(number: str, buttons: int) -> str:
    """The terminal chat's answer to a button number the last reply does not have (nothing is sent)."""
    which = "button 1" if buttons == 1 else f"buttons 1 to {buttons}"
    return f"There is no button {number}: the last answer has {which}. Type a number among them, or a message."


def elicitation_setting(args: argparse.Namespace) -> str:
    """The deployment's elicitation setting: ``--elicitation``, else ``$CORSBOT_ELICITATION``, else ``""``
    (the defaults); checked here so that a bad name is one clear error before anything loads.

    Raises:
        ConfigError: an unknown strategy or domain.
    """
    import os

    from bot.suggestion import ENV_VARIABLE, parse_elicitation

    setting = args.elicitation if args.elicitation is not None else os.environ.get(ENV_VARIABLE, "")
    parse_elicitation(setting)
    return setting


def _chat_cli(args: argparse.Namespace) -> int:
    from bot import compose  # the runtime (NLU, recommender): imported to run, not to build the parser
    from logs.store import check_database

    check_database(paths.database())  # damaged pages: one line naming the file and what to do (issue 17.5)
    dm = compose.build_dialog_manager(db=paths.database(), session="chat", elicitation=elicitation_setting(args))
    if args.jsonl:
        from bot.cli.jsonl import chat_jsonl

        return chat_jsonl(dm, user=args.user, domain=args.domain, stdin=sys.stdin, stdout=sys.stdout)
    return chat(dm, user=args.user, domain=args.domain, stdin=sys.stdin, stdout=sys.stdout)


def replay_file(
    dm: DialogManager, path: Path, *, run_id: str, limit_users: int | None = None
) -> tuple[list[LogRecord], list[LogRecord], int, float]:
    """Replay one dataset file; returns ``(logged, ours, exceptions, seconds)``.

    ``logged`` and ``ours`` are aligned lists of ``LogRecord`` (ours[i] answers logged[i]).
    Each unusable record is reported on stderr with its index (``corsbot: warning: skipped
    <file>: record 3: no 'message' field``) and skipped.

    Raises:
        RecordError: the file cannot be read or is not a JSON array.
    """
    from logs.record import conversations, read_records

    result = read_records(path)
    for problem in result.problems:  # each names the file and the record's index
        print(f"corsbot: warning: skipped {problem}", file=sys.stderr)
    logged: list[LogRecord] = []
    ours: list[LogRecord] = []
    exceptions = 0
    started = time.perf_counter()
    users = conversations(result.records)
    for n, (user_id, records) in enumerate(users.items()):
        if limit_users is not None and n >= limit_users:
            break
        key = f"replay:{run_id}:{path.parent.name}/{path.stem}:{user_id}"
        handled = 0
        for record in records:
            turn = Turn(
                key,
                record.message,
                interaction_type=record.interaction_type or "NL",
                timestamp_ms=record.timestamp_start,
            )
            try:
                dm.handle(turn)
            except Exception:  # noqa: BLE001 - counted and reported, the replay goes on
                exceptions += 1
                logger.exception("replay %s user %s message %s failed", path, user_id, record.message_id)
                continue
            logged.append(record)
            handled += 1
        ours.extend(dm.last_records(key, handled))
    return logged, ours, exceptions, time.perf_counter() - started


def _check_replay_args(args: argparse.Namespace) -> Path:
    """Validate the replay's files and report folder before loading anything; returns the report folder.

    Raises:
        ConfigError: a file is missing or a folder, or the report folder cannot be created.
    """
    from corsbot_errors import ConfigError

    folders = [str(path) for path in args.files if path.is_dir()]
    if folders:
        raise ConfigError(
            f"{', '.join(folders)}: a folder, not a dataset file (give the JSON files in it, e.g. {folders[0]}/*.json)"
        )
    missing = [str(path) for path in args.files if not path.exists()]  # a pipe such as <(zcat f.gz) exists
    if missing:
        raise ConfigError(f"no such file: {', '.join(missing)}")
    if args.report is not None and args.report.exists() and not args.report.is_dir():
        raise ConfigError(f"--report must be a folder, {args.report} is a file")
    out_dir = args.report or paths.reports_dir() / "replay"
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot create the report folder {out_dir} ({exc.strerror or exc})") from exc
    return out_dir


def _score(value: float, count: int) -> str:
    """A score as ``0.123``; ``0.000`` when it is over zero items (never a vacuous ``1.000``)."""
    return f"{value:.3f}" if count else "0.000"


def _replay_cli(args: argparse.Namespace) -> int:
    from bot import compose
    from bot.dialog.context import STUDY_MIN_PREFERENCES
    from corsbot_errors import ConfigError
    from logs.compare import compare, merge
    from logs.record import write_records
    from logs.store import open_error
    from logs.suggestions import SuggestionFigures, suggestion_figures
    from logs.suggestions import merge as merge_suggestions
    from recommender.elicitation import condition_strategy, strategy_name

    out_dir = _check_replay_args(args)
    default_strategy = strategy_name(args.elicitation) if args.elicitation else "none"
    # figures independent of what was chatted here; the studies' recommenders walked the graph with the
    # study users' edges alone (no blend with the KB graph's walk, recommender.support)
    services = compose.load_services(logged_likes=False, support_half=0)
    db = paths.home() / "replay.sqlite3"
    try:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
    except OSError as exc:
        raise open_error(db, exc) from exc
    run_id = time.strftime("%Y%m%dT%H%M%S")
    comparisons, all_messages, all_exceptions, all_seconds = [], 0, 0, 0.0
    figures: list[SuggestionFigures] = []
    for path in args.files:
        domain = paths.domain_from_path(path, args.domain)
        condition = condition_strategy(path.parent.name)
        strategy = condition or default_strategy
        dm = compose.build_dialog_manager(
            db=db,
            session=f"replay:{path.parent.name}/{path.stem}",
            services=services,
            elicitation=f"{domain}={strategy}",
            role_questions=condition is None,  # the successor study's system asked no role questions
            min_preferences=STUDY_MIN_PREFERENCES,  # both studies' systems recommended after 3 preferences
            domain_requests=False,  # and served one domain per bot: "suggest a film" to the book bot meant books
            hedge_questions=False,  # and passed over a hedge at a card ("meh") without a question
            dialogue_acts=False,  # and heard the study's intents alone
            start_keeps_dialog=condition is not None,  # the successor study's /start only greeted
            study_files_left_out=[path],
            scratch=True,  # replay.sqlite3, never the operator's server database
        )
        dm.default_domain = domain
        logged, ours, exceptions, seconds = replay_file(dm, path, run_id=run_id, limit_users=args.limit_users)
        write_records(out_dir / f"ours_{path.parent.name}_{path.stem}.json", ours)
        comparison = compare(ours, logged)
        n = len(logged)
        print(
            f"{path}: domain={domain} messages={n} exceptions={exceptions} "
            f"intent_agreement={_score(comparison.intent_agreement, n)} "
            f"intent_agreement_validated={_score(comparison.intent_agreement_validated, comparison.validated)} "
            f"events_agreement={_score(comparison.events_agreement, n)} "
            f"objects_f1={_score(comparison.objects_f1, n)} "
            f"tocheck_agreement={_score(comparison.tocheck_agreement, n)} msgs_per_s={n / max(seconds, 1e-9):.1f}"
        )
        sugg = suggestion_figures(ours, logged)
        figures.append(sugg)
        if strategy != "none" or sugg.suggestion_turns:
            print(
                f"  elicitation={strategy} events_agreement_without_suggestion="
                f"{_score(sugg.events_agreement_without, n)} suggestion_turns={sugg.suggestion_turns} "
                f"ours={sugg.our_suggestion_turns} same_turn={sugg.suggestion_matches} "
                f"suggestion_answers={sugg.answers} same_item={sugg.same_item} "
                f"suggestion_overlap={_score(sugg.suggestion_overlap, sugg.answers)} skips={sugg.skip_answers}"
            )
        comparisons.append(comparison)
        all_messages += n
        all_exceptions += exceptions
        all_seconds += seconds
    if all_messages == 0 and all_exceptions == 0:
        raise ConfigError(
            f"no usable message record in {', '.join(str(p) for p in args.files)} "
            "(see the warnings above): nothing was replayed"
        )
    total = merge(comparisons)
    line = (
        f"replay: messages={all_messages} exceptions={all_exceptions} "
        f"intent_agreement={_score(total.intent_agreement, all_messages)} "
        f"intent_agreement_validated={_score(total.intent_agreement_validated, total.validated)}"
    )
    if args.report is not None:
        from logs.report import write_report

        write_report(
            total,
            args.report,
            extra={
                "messages_per_second": all_messages / max(all_seconds, 1e-9),
                "exceptions": all_exceptions,
                "files": [str(p) for p in args.files],
                "suggestions": merge_suggestions(figures).figures(),
            },
        )
        line += (
            f" events_agreement={_score(total.events_agreement, all_messages)}"
            f" objects_f1={_score(total.objects_f1, all_messages)}"
            f" tocheck_agreement={_score(total.tocheck_agreement, all_messages)}"
        )
    print(line)
    return 0 if all_exceptions == 0 else 1
