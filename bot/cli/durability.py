"""``corsbot bench durability``: the Telegram bot killed with SIGKILL during bursts, restarted, and
every message checked (issue 17, item 1).

The fake Bot API server (:mod:`bot.channels.fake_bot_api`) runs in a subprocess; the bot runs in
another (:mod:`bot.cli.durability_bot`: the real channel with its durable inbox in a temporary
SQLite database, and the real dialog manager in ``--processes`` worker processes when a KB and a
model exist under ``$CORSBOT_HOME``, else ``--trivial``'s stand-in that stores every applied turn
the same way). Each round queues a burst (``--users`` users x ``--messages`` texts, all at once),
waits until a random number of the burst's replies (1 to all but one, counted at the fake server)
has arrived, and kills the bot's whole process group (bot and dialog workers) with SIGKILL at
once, mid-turn; the next round starts it again (with what the killed run left unfinished). After ``--kills`` rounds the bot is started a
last time and given ``--timeout`` seconds to finish. Then, for every message sent:

- **lost**: its turn was never applied (no log record with its text for its user), or no reply
  carrying its marker reached its chat;
- **duplicated**: its turn was applied more than once (two log records with its text).

A reply sent twice (the bot was killed after sending it, before marking the update handled) is at
least once delivery, which no Telegram bot can avoid; it is counted on the line before the last.
Every text is unique (``"<bench text> #<k>"``) and every reply carries a last line
``[re <user> #<k>]`` added outside the dialog manager, so both checks are exact.

Last line: ``durability: kills=K messages=N lost=L duplicated=D``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.cli.args import non_negative_int, positive_float, positive_int
from corsbot_errors import ConfigError

SESSION = "durability"
BENCH_TEXTS = (
    "hi",
    "I like Christopher Nolan",
    "I love science fiction films",
    "I don't like horror films",
    "I liked The Matrix",
    "show me my profile",
    "I love Tom Hanks",
    "recommend me something",
)


def register_bench(bench_sub: argparse._SubParsersAction) -> None:
    """Add ``bench durability`` under ``corsbot bench``."""
    d = bench_sub.add_parser("durability", help="SIGKILL the Telegram bot during bursts: nothing lost or applied twice")
    d.add_argument("--users", type=positive_int, default=20, help="users (default 20)")
    d.add_argument("--messages", type=positive_int, default=5, help="messages per user per burst (default 5)")
    d.add_argument("--kills", type=non_negative_int, default=5, help="bursts, each ended by a SIGKILL (default 5)")
    d.add_argument("--processes", type=non_negative_int, default=2, help="dialog worker processes (default 2)")
    d.add_argument("--timeout", type=positive_float, default=180.0, help="seconds for the last run (default 180)")
    d.add_argument("--seed", type=int, default=None, help="seed of the kill times (default: random)")
    d.add_argument("--trivial", action="store_true", help="a storing echo handler instead of the dialog manager")
    d.set_defaults(handler=_cli)


@dataclass(frozen=True, slots=True)
class DurabilityResult:
    """Outcome: kills done, messages sent, lost, applied twice, replies delivered more than once."""

    kills: int
    messages: int
    lost: int
    duplicated: int
    resent: int


def _cli(args: argparse.Namespace) -> int:
    result = run_durability(users=args.users, per_burst=args.messages, kills=args.kills, processes=args.processes,
                            timeout_s=args.timeout, trivial=args.trivial, seed=args.seed)  # fmt: skip
    print(f"durability: replies delivered more than once (at-least-once delivery after a kill): {result.resent}")
    print(
        f"durability: kills={result.kills} messages={result.messages} lost={result.lost} duplicated={result.duplicated}"
    )
    return 0


def run_durability(
    *,
    users: int = 20,
    per_burst: int = 5,
    kills: int = 5,
    processes: int = 2,
    timeout_s: float = 180.0,
    trivial: bool = False,
    seed: int | None = None,
    echo: Any = print,
) -> DurabilityResult:
    """Run the benchmark (see the module docstring).

    Raises:
        ConfigError: the fake server or the bot did not start.
    """
    rng = random.Random(seed)
    ids = list(range(200_001, 200_001 + users))
    sent: dict[int, list[str]] = {u: [] for u in ids}
    with tempfile.TemporaryDirectory(prefix="corsbot-durability-") as tmp:
        db = Path(tmp) / "durability.sqlite3"
        server = subprocess.Popen([sys.executable, "-m", "bot.channels.fake_bot_api"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)  # fmt: skip
        try:
            line = server.stdout.readline() if server.stdout else ""
            if not line.startswith("PORT "):
                raise ConfigError(f"the fake Bot API server did not start: {line.strip()!r}")
            port = int(line.split()[1])
            bot_args = ["--port", str(port), "--db", str(db), "--processes", str(processes)]
            if trivial:
                bot_args.append("--trivial")
            done_kills = 0
            for _ in range(kills):
                bot = _start_bot(bot_args)
                burst = []
                for u in ids:
                    for _ in range(per_burst):
                        k = len(sent[u])
                        sent[u].append(f"{BENCH_TEXTS[k % len(BENCH_TEXTS)]} #{k}")
                        burst.append((u, sent[u][-1]))
                rng.shuffle(burst)
                burst.sort(key=lambda item: sent[item[0]].index(item[1]))  # per user in order, users interleaved
                before = _count_replies(port)
                _control(port, "push_texts", burst)
                target = before + rng.randint(1, len(burst) - 1)  # a random point inside the burst
                wait_until = time.monotonic() + 120
                while _count_replies(port) < target and time.monotonic() < wait_until:
                    time.sleep(0.005)
                _kill(bot)
                done_kills += 1
                echo(f"durability: killed the bot ({done_kills}/{kills}), {_count_replies(port)} replies so far")
            bot = _start_bot(bot_args)
            total = sum(len(texts) for texts in sent.values())
            deadline = time.monotonic() + timeout_s
            while time.monotonic() < deadline and _answered(port, sent) < total:
                time.sleep(0.5)
            _stop(bot)
            replies = _control(port, "replies")
        finally:
            if server.stdin:
                server.stdin.close()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        applied = _applied(db, trivial, ids)
    lost = duplicated = resent = 0
    for u in ids:
        got = replies.get(str(u), [])
        for k, text in enumerate(sent[u]):
            times = applied.get((u, text), 0)
            delivered = sum(1 for r in got if r.rstrip().endswith(_marker(u, k)))
            lost += times == 0 or delivered == 0
            duplicated += times > 1
            resent += max(delivered - 1, 0)
    return DurabilityResult(kills, sum(len(t) for t in sent.values()), lost, duplicated, resent)


def _marker(user: int, k: int) -> str:
    return f"[re {user} #{k}]"


def _start_bot(bot_args: list[str]) -> subprocess.Popen[str]:
    """Start the bot in its own process group; return once it printed ``serving``."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli.durability_bot", *bot_args],
        stdout=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    ready = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("serving"):
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    if not ready.wait(300):
        _kill(proc)
        raise ConfigError("the bot did not start within 300 s")
    return proc


def _kill(proc: subprocess.Popen[str]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the bot and its dialog workers, mid-turn
    except ProcessLookupError:
        pass
    proc.wait()


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        _kill(proc)


def _control(port: int, action: str, body: Any = None) -> Any:
    data = json.dumps(body).encode() if body is not None else b""
    req = urllib.request.Request(f"http://127.0.0.1:{port}/control/{action}", data=data, method="POST")
    with urllib.request.urlopen(req, timeout=30) as resp:  # noqa: S310 - 127.0.0.1 only
        return json.loads(resp.read())["result"]


def _count_replies(port: int) -> int:
    return sum(len(v) for v in _control(port, "replies").values())


def _answered(port: int, sent: dict[int, list[str]]) -> int:
    replies = _control(port, "replies")
    ends = {u: {r.rstrip().rsplit("\n", 1)[-1] for r in replies.get(str(u), [])} for u in sent}
    return sum(1 for u, texts in sent.items() for k in range(len(texts)) if _marker(u, k) in ends[u])


def _applied(db: Path, trivial: bool, ids: list[int]) -> dict[tuple[int, str], int]:
    """How often each (user, text) was applied: the stand-in's table, or the dialog's session log."""
    counts: dict[tuple[int, str], int] = {}
    if trivial:
        from bot.cli.durability_bot import applied_turns  # noqa: PLC0415

        for user_key, text in applied_turns(db):
            key = (int(user_key.split(":")[1]), text)
            counts[key] = counts.get(key, 0) + 1
        return counts
    from bot.store import StateStore  # noqa: PLC0415
    from logs.store import LogStore  # noqa: PLC0415

    states, log = StateStore(db), LogStore(db)
    try:
        for u in ids:
            for _, record in log.rows(SESSION, user_id=states.numeric_id(f"tg:{u}")):
                counts[(u, record.message)] = counts.get((u, record.message), 0) + 1
    finally:
        states.close()
        log.close()
    return counts
