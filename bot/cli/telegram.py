"""``corsbot telegram`` (run the bot) and ``corsbot bench telegram`` (its throughput benchmark).

``corsbot telegram`` reads the bot token from an environment variable (never from the command line,
where ``ps`` would show it), takes the single-instance lock next to the database, starts
``--processes`` dialog-manager worker processes (default 2; :mod:`bot.dialog_pool`: each builds the
dialog manager from ``$CORSBOT_HOME`` with ``bot.compose.build_dialog_manager``, each user is pinned
to one of them, all share the SQLite database) and serves by long polling, or by webhook with
``--webhook-url``. ``--processes 0`` runs the dialog manager in the bot process on the channel's
threads instead. ``--echo`` answers with an echo handler instead of the dialog manager (to check a
token and the channel without models).

``corsbot bench telegram`` measures messages per second through python-telegram-bot and the fake
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
import asyncio
import contextlib
import functools
import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot import paths
from bot.cli.args import non_negative_int, positive_float, positive_int
from bot.cli.args import port as port_number
from bot.compose import database_url
from bot.redact import redact, register_secret
from bot.turns import Choice, Reply, Turn
from corsbot_errors import ConfigError
from logs.store import check_database

logger = logging.getLogger(__name__)

FAKE_SERVER_MODULE = "bot.channels.fake_bot_api"
FAKE_TOKEN = "123456789:TEST-fake-token"  # the token bot/channels/fake_bot_api accepts
DEFAULT_PROCESSES = 2
"""Dialog-manager worker processes of ``corsbot telegram`` and its bench (see :mod:`bot.dialog_pool`)."""
BENCH_TEXTS = (
    "hi",
    "I like Christopher Nolan",
    "I love science fiction films",
    "I don't like horror films",
    "I liked The Matrix",
    "help",
    "show me my profile",
    "I love Tom Hanks",
    "recommend me something",
    "thanks",
)


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
    t.set_defaults(handler=_bench_cli)
    from bot.cli.durability import register_bench  # noqa: PLC0415

    register_bench(bench_sub)


# ------------------------------------------------------------------------------------- handlers


class EchoHandler:
    """A trivial dialog handler: ``you said <text>`` (buttons Like/Skip after a button press)."""

    def handle(self, turn: Turn) -> Reply:
        """Echo the turn."""
        if turn.payload is not None:
            return Reply(f"pressed {turn.text}", choices=(Choice("Like", "like"), Choice("Skip", "skip")), card=True)
        return Reply(f"you said {turn.text}")


def _real_dialog_manager(
    db: Path, session: str, processes: int = 0, warmup: tuple[Turn, ...] = (), elicitation: str | None = None
) -> Any:
    """The real dialog manager on ``db``: in this process (``processes=0``, warmed up here with
    ``warmup``) or in worker processes (:class:`bot.dialog_pool.ProcessDialogHandler`, started and
    each warmed up with ``warmup``; close it after use). ``elicitation``: the setting of
    :func:`bot.compose.build_dialog_manager` (None: no suggestions, as the benchmarks run).

    Raises:
        ConfigError: the model or knowledge base is missing, or a worker could not start.
    """
    from bot.compose import build_dialog_manager  # noqa: PLC0415 - heavy (models, KB)

    if processes <= 0:
        dm = build_dialog_manager(db=db, session=session, elicitation=elicitation)
        for turn in warmup:
            dm.handle(turn)
        return dm
    from bot.dialog_pool import ProcessDialogHandler  # noqa: PLC0415

    pool = ProcessDialogHandler(
        functools.partial(build_dialog_manager, db=db, session=session, elicitation=elicitation),
        processes=processes,
        warmup=warmup,
    )
    pool.start()
    return pool


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
    options: dict[str, Any] = {"workers": max(args.workers, args.processes), "http_backend": args.http_backend}
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
            else _real_dialog_manager(db, "telegram", args.processes, elicitation=elicitation)
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


# ------------------------------------------------------------------------------------- corsbot bench telegram


@dataclass(frozen=True, slots=True)
class BenchResult:
    """Outcome of one benchmark run.

    Attributes:
        users: concurrent users.
        messages: messages sent (users x messages per user).
        seconds: wall time from the first push to the last delivered reply.
        lost: messages whose reply did not reach their chat in order: the echo handler's replies
            are compared exactly; the real dialog manager's replies carry a per-turn marker line.
        handler: which handler answered.
        cpu_s: CPU time of the bot process (all its threads) over the same interval, in seconds:
            less sensitive than ``seconds`` to other jobs on a shared machine.
        workers_cpu_s: CPU seconds of the dialog worker processes over the interval (0 without).
        server_cpu_s: CPU seconds of the fake Bot API server process over the interval.
    """

    users: int
    messages: int
    seconds: float
    lost: int
    handler: str
    cpu_s: float = 0.0
    workers_cpu_s: float = 0.0
    server_cpu_s: float = 0.0

    @property
    def msgs_per_s(self) -> float:
        """Messages handled and delivered per second."""
        return (self.messages - self.lost) / self.seconds if self.seconds > 0 else 0.0


class _CountingHandler:
    """Wraps a handler and counts the turns it finished (thread-safe).

    With ``mark=True`` each reply gets a last line ``[bench <user> #<k>]`` (k = the user's k-th
    turn, from 0), so that the benchmark can check that every turn's reply reached the right chat in
    order, whatever the reply looks like (a split text, a photo with caption, ...). The users type
    the plain :data:`BENCH_TEXTS` in turn, as people would (no marker in the text, which would
    change what the NLU does); a turn whose text is not the one due at k gets the marker
    ``[bench <user> out of order]`` instead, which the check counts as lost.
    """

    def __init__(self, inner: Any, *, mark: bool = False) -> None:
        self.inner = inner
        self.mark = mark
        self.done = 0
        self._turns: dict[str, int] = {}  # user -> turns started (one user's turns never overlap)
        self._lock = threading.Lock()
        if hasattr(inner, "ahandle"):  # the channel awaits it instead of using its threads
            self.ahandle = self._ahandle

    def _start(self, turn: Turn) -> int:
        with self._lock:
            k = self._turns.get(turn.user_id, 0)
            self._turns[turn.user_id] = k + 1
        return k

    def _finish(self, turn: Turn, k: int, reply: Reply) -> Reply:
        if not self.mark:
            return reply
        due = BENCH_TEXTS[k % len(BENCH_TEXTS)]
        marker = _marker(turn.user_id, k) if turn.text == due else f"[bench {turn.user_id} out of order]"
        return replace(reply, text=f"{reply.text}\n{marker}")

    def handle(self, turn: Turn) -> Reply:
        k = self._start(turn)
        try:
            return self._finish(turn, k, self.inner.handle(turn))
        finally:
            with self._lock:
                self.done += 1

    async def _ahandle(self, turn: Turn) -> Reply:
        k = self._start(turn)
        try:
            return self._finish(turn, k, await self.inner.ahandle(turn))
        finally:
            with self._lock:
                self.done += 1


def _cpu_of(pids: list[int]) -> float:
    """CPU seconds (user + system) used so far by the processes ``pids``, from ``/proc`` (0 where unreadable)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime (fields 14 and 15)
        except (OSError, IndexError, ValueError):
            continue
    return total


def _marker(user_key: str, k: int) -> str:
    return f"[bench {user_key} #{k}]"


def _control(port: int, action: str, body: Any = None) -> Any:
    data = json.dumps(body).encode() if body is not None else b""
    req = urllib.request.Request(f"http://127.0.0.1:{port}/control/{action}", data=data, method="POST")
    with urllib.request.urlopen(req, timeout=30) as resp:  # noqa: S310 - 127.0.0.1 only
        return json.loads(resp.read())["result"]


def run_bench(
    *,
    users: int = 100,
    per_user: int = 10,
    timeout_s: float = 120.0,
    pool: int = 64,
    trivial: bool = False,
    http_backend: str = "aiohttp",
    processes: int = DEFAULT_PROCESSES,
) -> BenchResult:
    """Run the Telegram throughput benchmark (see the module docstring).

    Args:
        users: concurrent users (>= 1).
        per_user: messages per user (>= 1).
        timeout_s: overall bound; messages not answered by then count as lost.
        pool: HTTP connections of the bot.
        http_backend: ``"aiohttp"`` or ``"httpx"`` (``TelegramConfig.http_backend``).
        trivial: use the echo handler even if the real dialog manager can be built.
        processes: dialog-manager worker processes (0 = in the bot process).

    Returns:
        The measured :class:`BenchResult`.

    Raises:
        ConfigError: bad counts, or the fake server did not start.
    """
    if users < 1 or per_user < 1 or processes < 0:
        raise ConfigError("--users and --messages must be >= 1, --processes >= 0")
    with tempfile.TemporaryDirectory(prefix="corsbot-bench-") as tmp:
        inner: Any
        if trivial:
            inner, label = EchoHandler(), "trivial echo handler (--trivial)"
        else:
            try:  # warm-up off the clock: loads the models, the KB and the recommender
                warmup = tuple(Turn("bench:probe", text, interaction_type="mixed") for text in BENCH_TEXTS)
                inner = _real_dialog_manager(Path(tmp) / "bench.sqlite3", "bench", processes, warmup)
                where = f"{processes} worker processes" if processes > 0 else "in the bot process"
                label = (f"real DialogManager ({where}; KB and model from {paths.home()}, "
                         "state in a temporary database)")  # fmt: skip
            except Exception as exc:  # noqa: BLE001 - any failure to build means: no real DM here
                inner, label = EchoHandler(), f"trivial echo handler (real DialogManager unavailable: {exc})"
        print(f"telegram bench: handler = {label}")
        proc = subprocess.Popen(
            [sys.executable, "-m", FAKE_SERVER_MODULE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        try:
            line = proc.stdout.readline() if proc.stdout else ""
            if not line.startswith("PORT "):
                raise ConfigError(f"the fake Bot API server did not start: {line.strip()!r}")
            port = int(line.split()[1])
            print(f"telegram bench: fake Bot API server in a subprocess on 127.0.0.1:{port}; {users} users x "
                  f"{per_user} messages; AIORateLimiter on with its overall limit off (Telegram's 30 msg/s would cap "
                  f"it); HTTP backend {http_backend}, pool {pool}")  # fmt: skip
            counting = _CountingHandler(inner, mark=not isinstance(inner, EchoHandler))
            workers = max(8, processes)
            return asyncio.run(
                _bench(
                    port,
                    counting,
                    label,
                    users,
                    per_user,
                    timeout_s,
                    pool,
                    http_backend,
                    workers,
                    proc.pid,
                    Path(tmp) / "bench.sqlite3",
                )  # fmt: skip
            )
        finally:
            if hasattr(inner, "close"):
                with contextlib.suppress(Exception):
                    inner.close()
            if proc.stdin:
                proc.stdin.close()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


async def _bench(
    port: int,
    handler: _CountingHandler,
    label: str,
    users: int,
    per_user: int,
    timeout_s: float,
    pool: int,
    http_backend: str,
    workers: int = 8,
    server_pid: int | None = None,
    db: Path | None = None,
) -> BenchResult:
    from bot.channels.inbox import SqliteInbox  # noqa: PLC0415
    from bot.channels.telegram import TelegramChannel, TelegramConfig  # noqa: PLC0415

    config = TelegramConfig(
        token=FAKE_TOKEN, base_url=f"http://127.0.0.1:{port}/bot", base_file_url=f"http://127.0.0.1:{port}/file/bot",
        overall_rate_per_s=0, connection_pool_size=pool, workers=workers, http_backend=http_backend, poll_timeout_s=2.0, typing_delay_s=2.0,
        slow_notice_s=30.0, deadline_s=max(timeout_s, 30.0),
    )  # fmt: skip
    inbox = SqliteInbox(db, "telegram:bench") if db is not None else None  # as in production: stored first
    channel = TelegramChannel(handler, config, inbox=inbox)
    await channel.start()
    ids = list(range(100_001, 100_001 + users))
    # the echo handler's replies are compared exactly, so its texts carry their number
    sent = [
        (u, BENCH_TEXTS[k % len(BENCH_TEXTS)] if handler.mark else f"{BENCH_TEXTS[k % len(BENCH_TEXTS)]} #{k}")
        for k in range(per_user)
        for u in ids
    ]
    total = len(sent)
    try:
        worker_pids = handler.inner.pids() if hasattr(handler.inner, "pids") else []
        server_pids = [server_pid] if server_pid is not None else []
        workers_started, server_started = _cpu_of(worker_pids), _cpu_of(server_pids)
        started, cpu_started = time.perf_counter(), time.process_time()
        await asyncio.to_thread(_control, port, "push_texts", sent)
        deadline = started + timeout_s
        while time.perf_counter() < deadline:
            if handler.done >= total and len(channel.processor.locks) == 0:
                break
            await asyncio.sleep(0.02)
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        workers_cpu, server_cpu = _cpu_of(worker_pids) - workers_started, _cpu_of(server_pids) - server_started
    finally:
        await channel.stop()
    replies: dict[str, list[str]] = await asyncio.to_thread(_control, port, "replies")
    lost = 0
    for u in ids:
        got = replies.get(str(u), [])
        expected = [t for uu, t in sent if uu == u]
        if not handler.mark:  # echo: the exact texts, in order
            lost += sum(1 for i, t in enumerate(expected) if i >= len(got) or got[i] != f"you said {t}")
            continue
        # real dialog manager: the reply of the user's k-th turn ends with its marker, in order
        ends = [m.rstrip() for m in got]
        pos = found = 0
        for k in range(len(expected)):
            want = _marker(f"tg:{u}", k)
            hit = next((i for i in range(pos, len(ends)) if ends[i].endswith(want)), None)
            if hit is not None:  # a reply missing (or out of order) does not hide the later ones
                found, pos = found + 1, hit + 1
        lost += len(expected) - found
    return BenchResult(users, total, elapsed, lost, label, cpu, workers_cpu, server_cpu)


def cpu_reference_ms() -> float:
    """Best of 5 timings of ``sum(range(10**6))`` in ms: a CPU-speed reference printed with the bench
    (about 10-15 ms on an idle 2020s desktop core; higher on a slow or shared machine)."""
    import timeit  # noqa: PLC0415

    return min(timeit.repeat("sum(range(10**6))", number=1, repeat=5)) * 1000


def _bench_cli(args: argparse.Namespace) -> int:
    if args.users < 1 or args.messages < 1:
        raise ConfigError("--users and --messages must be >= 1")
    print(f"telegram bench: CPU reference sum(range(10**6)) = {cpu_reference_ms():.1f} ms "
          f"(idle desktop core: about 10-15 ms), load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")  # fmt: skip
    result = run_bench(users=args.users, per_user=args.messages, timeout_s=args.timeout, pool=args.pool, trivial=args.trivial,
                       http_backend=args.http_backend, processes=args.processes)  # fmt: skip
    per = 1000 / max(result.messages, 1)
    print(f"telegram bench: {result.messages} messages in {result.seconds:.2f} s; CPU per message: bot process "
          f"{result.cpu_s * per:.2f} ms, dialog workers {result.workers_cpu_s * per:.2f} ms, fake server "
          f"{result.server_cpu_s * per:.2f} ms")  # fmt: skip
    print(
        f"telegram: users={result.users} messages={result.messages} msgs_per_s={result.msgs_per_s:.1f} lost={result.lost}"
    )
    return 0
