"""``corsbot bench durability``: the Telegram bot and single dialog workers killed with SIGKILL during
bursts, the bot restarted, and every message checked (issues 17.1 and 25).

The fake Bot API server (:mod:`bot.channels.fake_bot_api`) runs in a subprocess; the bot runs in
another (:mod:`bot.cli.durability_bot`: the real channel with its durable inbox in a temporary SQLite
database, and the real dialog manager in ``--processes`` worker processes when a KB and a model exist
under ``$CORSBOT_HOME``, else ``--trivial``'s stand-in that stores every applied turn the same way,
also in worker processes). Each round queues a burst (``--users`` users x ``--messages`` texts, all at
once) and picks random points inside it, counted in replies at the fake server (1 to all but one):

- in the first ``--worker-kills`` rounds, one dialog worker process (chosen at random) is killed with
  SIGKILL at the first point, mid-turn or while it starts; the bot restarts it and runs the turns it
  held again there;
- in the first ``--kills`` rounds, the bot's whole process group (bot and dialog workers) is killed
  with SIGKILL at a later point; the next round starts it again (with what the killed run left
  unfinished).

After the rounds the bot runs (or is started) a last time and gets ``--timeout`` seconds to answer
everything. Then, for every message sent:

- **lost**: its turn was never applied (no log record with its text for its user), or no reply
  carrying its marker reached its chat;
- **duplicated**: a reply carrying its marker reached its chat more than once (the bot was killed
  after Telegram accepted the reply and before the bot recorded that it went out: the Bot API has no
  idempotent send), or its turn was applied more than once (never expected: counted too);
- **apologies**: replies that are an apology instead of an answer (the channel's "something went
  wrong", "took too long", "could not save", or the dialog's storage apology).

Every text is unique (``"<bench text> #<k>"``) and every reply carries a last line
``[re <user> #<k>]`` added outside the dialog manager, so the checks are exact.

Last line: ``durability: kills=K worker_kills=W messages=N lost=L duplicated=D apologies=A``.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.cli.args import non_negative_int, positive_float, positive_int
from bot.cli.telegram_common import DURABILITY_SESSION, FAKE_SERVER_MODULE, control
from corsbot_errors import ConfigError

SESSION = DURABILITY_SESSION
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
REPLY_WAIT_S = 120.0
"""How long a round waits for the replies of its kill points (a bot that answers nothing meanwhile)."""


def register_bench(bench_sub: argparse._SubParsersAction) -> None:
    """Add ``bench durability`` under ``corsbot bench``."""
    d = bench_sub.add_parser(
        "durability", help="SIGKILL the Telegram bot and its dialog workers during bursts: nothing lost, sent twice"
    )
    d.add_argument("--users", type=positive_int, default=20, help="users (default 20)")
    d.add_argument("--messages", type=positive_int, default=5, help="messages per user per burst (default 5)")
    d.add_argument("--kills", type=non_negative_int, default=5, help="bursts ended by a SIGKILL of the bot (default 5)")
    d.add_argument("--worker-kills", type=non_negative_int, default=5,
                   help="bursts with a SIGKILL of one dialog worker process (default 5)")  # fmt: skip
    d.add_argument("--processes", type=non_negative_int, default=2, help="dialog worker processes (default 2)")
    d.add_argument("--timeout", type=positive_float, default=180.0, help="seconds for the last run (default 180)")
    d.add_argument("--seed", type=int, default=None, help="seed of the kill points (default: random)")
    d.add_argument("--trivial", action="store_true", help="a storing echo handler instead of the dialog manager")
    d.set_defaults(handler=_cli)


@dataclass(frozen=True, slots=True)
class DurabilityResult:
    """Outcome of a run.

    Attributes:
        kills: SIGKILLs of the bot (with its workers).
        worker_kills: SIGKILLs of one dialog worker process.
        messages: messages sent.
        lost: messages never applied or never answered.
        duplicated: replies delivered more than once plus turns applied more than once.
        applied_twice: turns applied more than once (part of ``duplicated``; expected 0).
        apologies: apology replies (any chat).
    """

    kills: int
    worker_kills: int
    messages: int
    lost: int
    duplicated: int
    applied_twice: int
    apologies: int


def _cli(args: argparse.Namespace) -> int:
    result = run_durability(users=args.users, per_burst=args.messages, kills=args.kills,
                            worker_kills=args.worker_kills, processes=args.processes, timeout_s=args.timeout,
                            trivial=args.trivial, seed=args.seed)  # fmt: skip
    print(f"durability: replies delivered twice {result.duplicated - result.applied_twice} (a kill of the bot after "
          f"Telegram accepted a reply, before the bot recorded it), turns applied twice {result.applied_twice}")  # fmt: skip
    print(f"durability: kills={result.kills} worker_kills={result.worker_kills} messages={result.messages} "
          f"lost={result.lost} duplicated={result.duplicated} apologies={result.apologies}")  # fmt: skip
    return 0


def run_durability(
    *,
    users: int = 20,
    per_burst: int = 5,
    kills: int = 5,
    worker_kills: int = 5,
    processes: int = 2,
    timeout_s: float = 180.0,
    trivial: bool = False,
    seed: int | None = None,
    echo: Callable[[str], Any] = print,
) -> DurabilityResult:
    """Run the benchmark (see the module docstring).

    Raises:
        ConfigError: worker kills without worker processes, or the fake server or the bot did not start.
    """
    if worker_kills and processes < 1:
        raise ConfigError("--worker-kills needs dialog worker processes (--processes >= 1)")
    rng = random.Random(seed)
    ids = list(range(200_001, 200_001 + users))
    sent: dict[int, list[str]] = {u: [] for u in ids}
    with tempfile.TemporaryDirectory(prefix="corsbot-durability-") as tmp:
        db = Path(tmp) / "durability.sqlite3"
        server = subprocess.Popen([sys.executable, "-m", FAKE_SERVER_MODULE], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)  # fmt: skip
        try:
            line = server.stdout.readline() if server.stdout else ""
            if not line.startswith("PORT "):
                raise ConfigError(f"the fake Bot API server did not start: {line.strip()!r}")
            port = int(line.split()[1])
            bot_args = ["--port", str(port), "--db", str(db), "--processes", str(processes)]
            if trivial:
                bot_args.append("--trivial")
            done_kills = done_worker_kills = 0
            bot: subprocess.Popen[str] | None = None
            for round_ in range(max(kills, worker_kills)):
                if bot is None:
                    bot = _start_bot(bot_args)
                burst = _burst(sent, ids, per_burst, rng)
                before = _count_replies(port)
                control(port, "push_texts", burst)
                points = sorted(rng.sample(range(1, len(burst)), 2)) if len(burst) > 2 else [1, 1]
                if round_ < worker_kills:
                    _wait_replies(port, before + points[0])
                    if _kill_a_worker(bot.pid, rng):
                        done_worker_kills += 1
                        echo(f"durability: killed a dialog worker ({done_worker_kills}/{worker_kills}), "
                             f"{_count_replies(port)} replies so far")  # fmt: skip
                if round_ < kills:
                    _wait_replies(port, before + points[1])
                    _kill(bot)
                    bot = None
                    done_kills += 1
                    echo(f"durability: killed the bot ({done_kills}/{kills}), {_count_replies(port)} replies so far")
            if bot is None:
                bot = _start_bot(bot_args)
            total = sum(len(texts) for texts in sent.values())
            deadline = time.monotonic() + timeout_s
            while time.monotonic() < deadline and _answered(port, sent) < total:
                time.sleep(0.5)
            _stop(bot)
            replies: dict[str, list[str]] = control(port, "replies")
        finally:
            if server.stdin:
                server.stdin.close()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        applied = _applied(db, trivial, ids)
    lost = resent = twice = 0
    for u in ids:
        got = replies.get(str(u), [])
        for k, text in enumerate(sent[u]):
            times = applied.get((u, text), 0)
            delivered = sum(1 for r in got if r.rstrip().endswith(_marker(u, k)))
            lost += times == 0 or delivered == 0
            twice += times > 1
            resent += max(delivered - 1, 0)
    apologies = sum(1 for texts in replies.values() for r in texts if r.startswith(_apologies()))
    messages = sum(len(t) for t in sent.values())
    return DurabilityResult(done_kills, done_worker_kills, messages, lost, resent + twice, twice, apologies)


def _burst(sent: dict[int, list[str]], ids: list[int], per_burst: int, rng: random.Random) -> list[tuple[int, str]]:
    """The next ``per_burst`` texts of every user (appended to ``sent``), users interleaved at random."""
    burst = []
    for u in ids:
        for _ in range(per_burst):
            k = len(sent[u])
            sent[u].append(f"{BENCH_TEXTS[k % len(BENCH_TEXTS)]} #{k}")
            burst.append((u, k, sent[u][-1]))
    rng.shuffle(burst)
    burst.sort(key=lambda item: item[1])  # each user's in order, users interleaved
    return [(u, text) for u, _, text in burst]


def _apologies() -> tuple[str, ...]:
    """The beginnings of every apology a user can get instead of an answer."""
    from bot import messages  # noqa: PLC0415
    from bot.channels.telegram.config import ChannelTexts  # noqa: PLC0415 - no python-telegram-bot import

    texts = ChannelTexts()
    return (texts.apology, texts.too_slow, texts.storage_apology, messages.STORAGE_ERROR)


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


def _wait_replies(port: int, target: int) -> None:
    """Wait until the fake server got ``target`` replies in all (at most :data:`REPLY_WAIT_S`)."""
    wait_until = time.monotonic() + REPLY_WAIT_S
    while _count_replies(port) < target and time.monotonic() < wait_until:
        time.sleep(0.005)


def dialog_workers(bot_pid: int) -> list[int]:
    """Process ids of the dialog workers of the bot ``bot_pid``: its children started by
    :mod:`multiprocessing`'s spawn (read from ``/proc``; not its resource tracker)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            if parent == bot_pid and b"spawn_main" in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile, or not ours to read
    return sorted(found)


def _kill_a_worker(bot_pid: int, rng: random.Random) -> bool:
    """SIGKILL one of the bot's dialog workers, chosen at random; False when it has none running."""
    workers = dialog_workers(bot_pid)
    if not workers:
        return False
    try:
        os.kill(rng.choice(workers), signal.SIGKILL)
    except ProcessLookupError:
        return False
    return True


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


def _count_replies(port: int) -> int:
    replies: dict[str, list[str]] = control(port, "replies")
    return sum(len(v) for v in replies.values())


def _answered(port: int, sent: dict[int, list[str]]) -> int:
    replies: dict[str, list[str]] = control(port, "replies")
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
