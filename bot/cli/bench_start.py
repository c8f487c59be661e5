"""``corsbot bench start``: cold-start time and memory of the real CLI, one domain and all three.

Each run starts ``corsbot chat --jsonl`` as a fresh process (``python -m bot.cli``) in a fresh
runtime folder (an empty database; ``kb/`` and ``models/`` linked to this runtime folder's), sends
it the preference turns of the script at once, and measures:

- the wall time from starting the process to the reply of the script's last preference turn: for
  one domain, "I like The Matrix" (movie); for three domains, one preference per domain in one chat
  (movie, then book, then music: every domain is loaded by the time the last reply comes);
- the process's peak resident memory (``ru_maxrss`` of ``wait4``) once it has exited at the end of input.

Every reply must be an understood preference (intent ``preference`` with a recognised QID); any
other answer is an error, so a broken or missing model or knowledge base cannot pass for a fast
start. A first warm-up run (not counted) lets the operating system's file cache and a missing
linker index (built and stored on first use, see :mod:`nlu.name_index`) settle; the figures are
the medians of ``--runs`` runs. Wall times include the Python interpreter's own start.

Writes ``<home>/reports/bench/start.json``; last line exactly
``start: one_domain_s=X three_domains_s=Y rss_mb_three_domains=Z``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from bot import paths
from bot.cli.args import non_negative_int, positive_float, positive_int
from corsbot_errors import ConfigError

ONE_DOMAIN: tuple[tuple[str, str], ...] = (("movie", "I like The Matrix"),)
"""(domain, preference) turns of the one-domain run."""
THREE_DOMAINS: tuple[tuple[str, str], ...] = (
    ("movie", "I like The Matrix"),
    ("book", "I like Stephen King"),
    ("music", "I like Pink Floyd"),
)
"""(domain, preference) turns of the three-domain run, in one chat."""


@dataclass(frozen=True, slots=True)
class StartRun:
    """One fresh process: seconds to the last preference reply, peak RSS (MB), the replies' QIDs."""

    seconds: float
    rss_mb: float
    recognized: tuple[str, ...]


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``bench start`` (under the ``bench`` command group)."""
    from bot.cli import command_group

    bench_sub = command_group(sub, "bench", "benchmarks")
    p = bench_sub.add_parser("start", help="cold-start time and peak memory of the CLI (one domain, three domains)")
    p.add_argument("--runs", type=positive_int, default=5, help="measured runs of each script (default 5)")
    p.add_argument("--warmup", type=non_negative_int, default=1, help="unmeasured runs first (default 1)")
    p.add_argument("--timeout", type=positive_float, default=300.0, help="seconds allowed per run (default 300)")
    p.add_argument("--out", type=Path, help="report folder (default <home>/reports/bench)")
    p.set_defaults(handler=run_bench_start)


def start_once(turns: tuple[tuple[str, str], ...], *, timeout: float = 300.0) -> StartRun:
    """Run the CLI once as a fresh process on ``turns`` (module docstring).

    Raises:
        ConfigError: the model or knowledge base is missing, the process failed or timed out, or a
            reply is not an understood preference.
    """
    with tempfile.TemporaryDirectory(prefix="corsbot-start-") as tmp:
        home = Path(tmp)
        (home / "kb").symlink_to(paths.kb_dir().resolve(), target_is_directory=True)
        (home / "models").symlink_to(paths.intent_model().parent.resolve(), target_is_directory=True)
        env = {**os.environ, "CORSBOT_HOME": str(home), "PYTHONUNBUFFERED": "1"}
        lines = "".join(json.dumps({"user": "bench", "text": text, "domain": domain}) + "\n" for domain, text in turns)
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "chat", "--jsonl", "--domain", turns[0][0]],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=home,
            text=True,
        )
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        try:
            assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
            proc.stdin.write(lines)
            proc.stdin.close()
            replies: list[dict] = []
            answered_at = None
            for line in proc.stdout:
                replies.append(json.loads(line))
                if len(replies) == len(turns):
                    answered_at = time.perf_counter() - started
            err = proc.stderr.read()
            _pid, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
        finally:
            timer.cancel()
    if proc.returncode != 0 or answered_at is None:
        last = err.strip().splitlines()[-1] if err.strip() else f"exit status {proc.returncode}"
        raise ConfigError(f"bench start: the chat process failed or timed out after {timeout:.0f} s: {last}")
    recognized = []
    for (domain, text), reply in zip(turns, replies, strict=False):
        if reply.get("intent") != "preference" or not reply.get("recognizedObjects"):
            raise ConfigError(f"bench start: {text!r} ({domain}) was not understood as a preference: {reply}")
        recognized.append(str(reply["recognizedObjects"]))
    return StartRun(seconds=answered_at, rss_mb=usage.ru_maxrss / 1024.0, recognized=tuple(recognized))


def run_bench_start(args: argparse.Namespace) -> int:
    """Handler of ``corsbot bench start``."""
    runs: dict[str, list[StartRun]] = {"one": [], "three": []}
    for k in range(args.warmup + args.runs):
        one = start_once(ONE_DOMAIN, timeout=args.timeout)
        three = start_once(THREE_DOMAINS, timeout=args.timeout)
        label = "warm-up" if k < args.warmup else f"run {k - args.warmup + 1}"
        print(
            f"{label}: one_domain_s={one.seconds:.2f} rss_mb_one_domain={one.rss_mb:.0f} "
            f"three_domains_s={three.seconds:.2f} rss_mb_three_domains={three.rss_mb:.0f}",
            flush=True,
        )
        if k >= args.warmup:
            runs["one"].append(one)
            runs["three"].append(three)
    result = {
        "one_domain_s": statistics.median(r.seconds for r in runs["one"]),
        "three_domains_s": statistics.median(r.seconds for r in runs["three"]),
        "rss_mb_one_domain": statistics.median(r.rss_mb for r in runs["one"]),
        "rss_mb_three_domains": statistics.median(r.rss_mb for r in runs["three"]),
    }
    out = args.out or paths.reports_dir() / "bench"
    out.mkdir(parents=True, exist_ok=True)
    (out / "start.json").write_text(
        json.dumps(
            {**result, "runs": {k: [asdict(r) for r in v] for k, v in runs.items()}, "python": sys.version.split()[0]},
            indent=2,
        )
        + "\n"
    )
    print(
        f"start: one_domain_s={result['one_domain_s']:.2f} three_domains_s={result['three_domains_s']:.2f} "
        f"rss_mb_three_domains={result['rss_mb_three_domains']:.0f}"
    )
    return 0
