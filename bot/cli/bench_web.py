"""``corsbot bench web``: participants through the web chat with the real dialog manager (issue 26).

The server is the one ``corsbot web`` runs (:func:`bot.channels.web.app.build_app` under uvicorn, the
dialog in ``--processes`` worker processes, every turn stored in ``web_turns`` before it is answered),
on 127.0.0.1, with the KB and model of ``$CORSBOT_HOME`` and the state, log and web tables in a
temporary SQLite database; the workers are warmed up off the clock (the bench texts once under their
own user key). The participants are a separate process (:func:`run_client`, aiohttp), as browsers are:
``--users`` participants each open ``/chat?pid=...`` (registration and the automatic start turn, off
the clock), then, all at once, each sends ``--messages`` texts one after the other (the next once the
reply came, as the chat page does), with the per-participant rate limit of production and the
per-address limits off (every participant comes from 127.0.0.1). The clock runs from the first message
to the last reply.

``lost`` counts messages without a 200 answer carrying a reply, plus messages missing from the
participant's stored transcript, answered, in the order sent (read from the database afterwards).
``p99_ms``: the 99th percentile of the time from sending a message to its reply. Last line:
``web: users=U messages=N msgs_per_s=X lost=L p99_ms=Y``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot import paths
from bot.cli.bench_telegram import BENCH_TEXTS  # the same texts, so the two figures compare
from bot.turns import Reply, Turn
from corsbot_errors import ConfigError

__all__ = ["BenchResult", "run_bench", "run_client"]

_CSRF = re.compile(r'name="csrf-token" content="([^"]+)"')


@dataclass(frozen=True, slots=True)
class BenchResult:
    """One run: ``users``, ``messages`` sent, wall ``seconds`` of the timed part, ``lost`` messages,
    ``p99_ms`` reply latency, the ``handler`` that answered."""

    users: int
    messages: int
    seconds: float
    lost: int
    p99_ms: float
    handler: str

    @property
    def msgs_per_s(self) -> float:
        """Messages answered per second."""
        return (self.messages - self.lost) / self.seconds if self.seconds > 0 else 0.0


class _Echo:
    """The trivial handler of ``--trivial``."""

    def handle(self, turn: Turn) -> Reply:
        return Reply(f"you said {turn.text}")


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def _client(url: str, users: int, per_user: int, timeout_s: float) -> dict[str, Any]:
    import aiohttp

    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=timeout_s)
    sessions = [aiohttp.ClientSession(connector=connector, connector_owner=False, timeout=timeout,
                                      cookie_jar=aiohttp.CookieJar(unsafe=True)) for _ in range(users)]  # fmt: skip
    tokens: list[str] = [""] * users
    latencies: list[float] = []
    failed = 0

    async def register(i: int) -> None:
        async with sessions[i].get(f"{url}/chat?pid=bench-{i}") as r:
            found = _CSRF.search(await r.text())
            tokens[i] = found.group(1) if r.status == 200 and found else ""

    async def talk(i: int) -> None:
        nonlocal failed
        for k in range(per_user):
            data = {"csrf": tokens[i], "pid": f"bench-{i}", "text": BENCH_TEXTS[k % len(BENCH_TEXTS)]}
            started = time.perf_counter()
            try:
                async with sessions[i].post(f"{url}/chat/send", data=data, headers={"Accept": "application/json"}) as r:
                    body = await r.json(content_type=None) if r.status == 200 else None
            except (TimeoutError, aiohttp.ClientError, ValueError):
                body = None
            latencies.append((time.perf_counter() - started) * 1000)
            if not body or not (body.get("reply") or {}).get("text"):
                failed += 1

    try:
        await asyncio.gather(*(register(i) for i in range(users)))
        began = time.perf_counter()
        await asyncio.gather(*(talk(i) for i in range(users)))
        seconds = time.perf_counter() - began
    finally:
        for s in sessions:
            await s.close()
        await connector.close()
    return {"seconds": seconds, "failed": failed, "p99_ms": _percentile(latencies, 0.99),
            "p50_ms": _percentile(latencies, 0.5), "registered": sum(1 for t in tokens if t)}  # fmt: skip


def run_client(url: str, users: int, per_user: int, timeout_s: float) -> dict[str, Any]:
    """The participants (see the module docstring); returns ``seconds``, ``failed``, ``p99_ms``, ``p50_ms``."""
    return asyncio.run(_client(url, users, per_user, timeout_s))


def _missing_from_transcripts(db: Path, users: int, per_user: int) -> int:
    """Messages not stored, not answered, or out of order in the participants' transcripts."""
    from bot.channels.web.store import WebStore

    store = WebStore(db)
    try:
        missing = 0
        for i in range(users):
            typed = [t for t in store.turns(f"bench-{i}") if not t.auto]
            expected = [BENCH_TEXTS[k % len(BENCH_TEXTS)] for k in range(per_user)]
            got = [t.text for t in typed if t.reply is not None]
            missing += sum(1 for k, text in enumerate(expected) if k >= len(got) or got[k] != text)
    finally:
        store.close()
    return missing


def run_bench(*, users: int, per_user: int, processes: int, timeout_s: float, trivial: bool = False) -> BenchResult:
    """Run the benchmark (see the module docstring).

    Raises:
        ConfigError: bad counts, or the server did not start.
    """
    from bot.channels.web.app import WebConfig, build_app
    from bot.channels.web.server import start_in_thread
    from bot.channels.web.study import StudyConfig

    if users < 1 or per_user < 1:
        raise ConfigError("--users and --messages must be >= 1")
    study = StudyConfig(name="bench", evaluator=False, conditions={"default": "none"})
    with tempfile.TemporaryDirectory(prefix="corsbot-webbench-") as tmp:
        db = Path(tmp) / "bench.sqlite3"
        handler: Any
        if trivial:
            handler, label = _Echo(), "trivial echo handler (--trivial)"
        else:
            handler = _study_handler(db, study, processes)
            where = f"{processes} worker processes" if processes > 0 else "in the server process"
            label = f"real DialogManager ({where}; KB and model from {paths.home()}, state in a temporary database)"
        print(f"web bench: handler = {label}", flush=True)
        config = WebConfig(study=study, database=db, signing_key=os.urandom(32).hex().encode(), home=Path(tmp),
                           ip_rate=0, new_rate=0)  # fmt: skip
        server = None
        try:
            server = start_in_thread(build_app(config, handler))
            print(f"web bench: server {server.url}; {users} participants x {per_user} messages, from a client process",
                  flush=True)  # fmt: skip
            from bot.cli.bench_telegram import _cpu_of

            worker_pids = handler.pids() if hasattr(handler, "pids") else []
            cpu_started, workers_started = time.process_time(), _cpu_of(worker_pids)
            done = subprocess.run(
                [sys.executable, "-m", "bot.cli.bench_web", "client", server.url, str(users), str(per_user), str(timeout_s)],
                capture_output=True, text=True, timeout=timeout_s + 120, check=False,
            )  # fmt: skip
            if done.returncode != 0:
                raise ConfigError(
                    f"the bench client failed: {done.stderr.strip().splitlines()[-1:] or done.returncode}"
                )
            figures = json.loads(done.stdout.strip().splitlines()[-1])
            server_cpu, workers_cpu = time.process_time() - cpu_started, _cpu_of(worker_pids) - workers_started
        finally:
            if server is not None:
                server.stop()
            if hasattr(handler, "close"):
                handler.close()
        lost = max(int(figures["failed"]), _missing_from_transcripts(db, users, per_user))
        n = users * per_user
        print(f"web bench: {n} messages in {figures['seconds']:.2f} s; reply latency p50 {figures['p50_ms']:.0f} ms, "
              f"p99 {figures['p99_ms']:.0f} ms; CPU per message (registration included): server process "
              f"{server_cpu * 1000 / n:.2f} ms, dialog workers {workers_cpu * 1000 / n:.2f} ms", flush=True)  # fmt: skip
        return BenchResult(users, users * per_user, float(figures["seconds"]), lost, float(figures["p99_ms"]), label)


def _study_handler(db: Path, study: Any, processes: int) -> Any:
    """The real handler, warmed up off the clock (the bench texts once under ``warmup:probe``)."""
    import functools

    from bot.channels.web.dialogs import StudyDialogs, build_study_dialogs

    warmup = tuple(Turn("warmup:probe", text, interaction_type="mixed") for text in BENCH_TEXTS)
    if processes <= 0:
        dialogs = StudyDialogs(db=db, study=study)
        for turn in warmup:
            dialogs.handle(turn)
        return dialogs
    from bot.dialog_pool import ProcessDialogHandler

    pool = ProcessDialogHandler(functools.partial(build_study_dialogs, db=db, study=study), processes=processes,
                                warmup=warmup)  # fmt: skip
    pool.start()
    return pool


def bench_cli(args: argparse.Namespace) -> int:
    """Handler of ``corsbot bench web``."""
    print(f"web bench: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs", flush=True)
    result = run_bench(users=args.users, per_user=args.messages, processes=args.processes, timeout_s=args.timeout,
                       trivial=args.trivial)  # fmt: skip
    print(f"web: users={result.users} messages={result.messages} msgs_per_s={result.msgs_per_s:.1f} "
          f"lost={result.lost} p99_ms={result.p99_ms:.0f}")  # fmt: skip
    return 0


if __name__ == "__main__":  # the client process of the benchmark
    if len(sys.argv) == 6 and sys.argv[1] == "client":
        out = run_client(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]))
        print(json.dumps(out))
    else:
        sys.exit("usage: python -m bot.cli.bench_web client URL USERS MESSAGES TIMEOUT_S")
