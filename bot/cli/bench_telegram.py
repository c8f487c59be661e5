"""``corsbot bench telegram``: messages per second through python-telegram-bot and the fake Bot API
server of :mod:`bot.channels.fake_bot_api` (see :mod:`bot.cli.telegram` for what it measures; the
figures and their history are in ``docs/benchmarks.md``)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bot import paths
from bot.cli import telegram_common
from bot.cli.telegram_common import DEFAULT_PROCESSES, FAKE_SERVER_MODULE, FAKE_TOKEN, EchoHandler, control
from bot.redact import register_secret
from bot.turns import Reply, Turn
from corsbot_errors import ConfigError

logger = logging.getLogger(__name__)

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
                inner = telegram_common.real_dialog_manager(Path(tmp) / "bench.sqlite3", "bench", processes, warmup)
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
    from bot.compose import database_url  # noqa: PLC0415 - the runtime, imported to run

    config = TelegramConfig(
        token=FAKE_TOKEN, base_url=f"http://127.0.0.1:{port}/bot", base_file_url=f"http://127.0.0.1:{port}/file/bot",
        overall_rate_per_s=0, connection_pool_size=pool, workers=workers, http_backend=http_backend, poll_timeout_s=2.0, typing_delay_s=2.0,
        slow_notice_s=30.0, deadline_s=max(timeout_s, 30.0),
    )  # fmt: skip
    url = database_url()
    inbox: Any
    if url is not None:
        from bot.pgstore.store import PgInbox  # noqa: PLC0415

        inbox = PgInbox(url, f"telegram:bench:{time.time_ns()}")  # as in production: stored first
    else:
        inbox = SqliteInbox(db, "telegram:bench") if db is not None else None
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
        await asyncio.to_thread(control, port, "push_texts", sent)
        deadline = started + timeout_s
        while time.perf_counter() < deadline:
            if handler.done >= total and len(channel.processor.locks) == 0:
                break
            await asyncio.sleep(0.02)
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        workers_cpu, server_cpu = _cpu_of(worker_pids) - workers_started, _cpu_of(server_pids) - server_started
    finally:
        await channel.stop()
    replies: dict[str, list[str]] = await asyncio.to_thread(control, port, "replies")
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


def bench_cli(args: argparse.Namespace) -> int:
    if args.users < 1 or args.messages < 1:
        raise ConfigError("--users and --messages must be >= 1")
    print(f"telegram bench: CPU reference sum(range(10**6)) = {cpu_reference_ms():.1f} ms "
          f"(idle desktop core: about 10-15 ms), load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")  # fmt: skip
    if getattr(args, "database", None):
        from bot.pgstore.store import is_url  # noqa: PLC0415

        if not is_url(args.database):
            raise ConfigError("--database must be a postgresql://user:password@host:port/dbname URL")
        register_secret(urlsplit(args.database).password)
        os.environ["CORSBOT_DATABASE_URL"] = args.database  # read by the composition root in every worker
    result = run_bench(users=args.users, per_user=args.messages, timeout_s=args.timeout, pool=args.pool, trivial=args.trivial,
                       http_backend=args.http_backend, processes=args.processes)  # fmt: skip
    per = 1000 / max(result.messages, 1)
    print(f"telegram bench: {result.messages} messages in {result.seconds:.2f} s; CPU per message: bot process "
          f"{result.cpu_s * per:.2f} ms, dialog workers {result.workers_cpu_s * per:.2f} ms, fake server "
          f"{result.server_cpu_s * per:.2f} ms")  # fmt: skip
    print(
        f"telegram: users={result.users} messages={result.messages} msgs_per_s={result.msgs_per_s:.1f} lost={result.lost}"
        f" backend={'postgresql' if getattr(args, 'database', None) else 'sqlite'} workers={args.processes}"
    )
    return 0
