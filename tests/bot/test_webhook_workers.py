"""Issue 15: two webhook worker processes behind a proxy, one PostgreSQL database, the fake Bot API,
concurrent users; one worker is killed (SIGKILL) mid-run. Every reply reaches the right chat,
per-user order is kept, nothing is lost or applied twice: with a stand-in handler that applies a turn
in one transaction (50 users), and with the real dialog manager on a small knowledge base, whose turn
writes state, log record and receipt in one transaction (``tests/bot/small_dialog.py``)."""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from bot.cli.durability_bot import pg_applied_turns
from tests.bot.fake_telegram import FakeTelegram

USERS, PER_USER = 50, 6


class _Proxy:
    """A round-robin reverse proxy on 127.0.0.1 that fails over to the next worker (a load balancer)."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        turn = itertools.count()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                start = next(turn)
                for i in range(len(outer.ports)):
                    port = outer.ports[(start + i) % len(outer.ports)]
                    req = urllib.request.Request(f"http://127.0.0.1:{port}{self.path}", data=body, method="POST",
                                                 headers={k: v for k, v in self.headers.items()
                                                          if k.lower() in ("content-type", "x-telegram-bot-api-secret-token")})  # fmt: skip
                    try:
                        with urllib.request.urlopen(req, timeout=10) as resp:  # noqa: S310 - 127.0.0.1
                            status, data = resp.status, resp.read()
                        break
                    except urllib.error.HTTPError as exc:
                        status, data = exc.code, exc.read()
                        break
                    except OSError:
                        continue  # that worker is down: the next one
                else:
                    status, data = 502, b"no worker"
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                return

        class Server(ThreadingHTTPServer):
            # The default listen backlog (5) overflows when the 16 senders' connections arrive while this
            # process's threads hold the interpreter (a loaded machine): the kernel then answers with SYN
            # cookies, and a sender whose handshake completed on a full queue saw its connection reset
            # (the test failed 1 run in 4). A load balancer's backlog is in the hundreds (nginx: 511).
            request_queue_size = 1024
            daemon_threads = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _worker(fake: FakeTelegram, url: str, port: int, proxy_url: str, handler: list[str]) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli.durability_bot", "--port", str(fake.port), "--db", "/nonexistent/unused",
         "--database", url, "--webhook-port", str(port), "--webhook-url", proxy_url, *handler],
        stdout=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("serving"), line
    return proc


def _all_answered(fake: FakeTelegram, users: list[int], per_user: int) -> bool:
    """Every message of every user has its reply in the user's chat (the replies end with ``[re U #K]``)."""
    for u in users:
        markers = {r.rsplit("\n", 1)[-1] for r in fake.texts(u)}
        if not {f"[re {u} #{k}]" for k in range(per_user)} <= markers:
            return False
    return True


def _stop_all(workers: list[subprocess.Popen[str]]) -> None:
    """Kill the worker processes still running (each in its own process group)."""
    for proc in workers:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)


def _two_workers_one_killed(
    pg_url: str, handler: list[str], users_n: int, per_user: int, applied_turns: Callable[[str], list[tuple[str, str]]]
) -> tuple[FakeTelegram, list[int], dict[int, list[str]]]:
    """Run the burst against two workers, kill one mid-run; the applied (user key, text) pairs, in order."""
    with FakeTelegram() as fake, contextlib.ExitStack() as cleanup:
        ports = [_free_port(), _free_port()]
        proxy = _Proxy(ports)
        cleanup.callback(proxy.server.server_close)
        cleanup.callback(proxy.server.shutdown)
        proxy_url = f"http://127.0.0.1:{proxy.port}/telegram"
        workers: list[subprocess.Popen[str]] = []
        cleanup.callback(_stop_all, workers)  # also when the run fails: no worker outlives the test
        for port in ports:
            workers.append(_worker(fake, pg_url, port, proxy_url, handler))
        users = list(range(300_001, 300_001 + users_n))
        sent = {u: [f"message {k} #{k}" for k in range(per_user)] for u in users}
        pushed = [0]
        lock = threading.Lock()

        def user_session(u: int) -> None:
            for text in sent[u]:
                fake.push_text(u, text)  # posted to the proxy at once, as Telegram does
                with lock:
                    pushed[0] += 1
                time.sleep(0.01)

        def killer() -> None:
            while pushed[0] < users_n * per_user // 2:
                time.sleep(0.005)
            os.killpg(workers[0].pid, signal.SIGKILL)  # mid-run, mid-turn
            workers[0].wait()

        kill = threading.Thread(target=killer, daemon=True)  # a failed burst leaves it waiting
        kill.start()
        with ThreadPoolExecutor(16) as pool:
            list(pool.map(user_session, users))
        kill.join()
        total = users_n * per_user
        # Wait for every turn applied AND every reply sent: a turn the killed worker applied but did not
        # answer is answered (from its receipt) only when the other worker's sweep takes its update, up to
        # 2 x SWEEP_S later. Waiting for the applied turns alone and stopping the survivor a second later
        # lost that reply (the test failed about 1 run in 4 under load, the survivor's log saying "sweep of
        # unfinished updates failed: the connection is closed").
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (
            len(applied_turns(pg_url)) < total or not _all_answered(fake, users, per_user)
        ):
            time.sleep(0.2)
        time.sleep(1.0)  # a turn applied twice would show up meanwhile
        applied = applied_turns(pg_url)
        workers[1].send_signal(signal.SIGTERM)
        workers[1].wait(timeout=30)
        by_user: dict[int, list[str]] = {}
        for key, text in applied:
            by_user.setdefault(int(key.split(":")[1]), []).append(text)
        assert len(applied) == total, f"applied {len(applied)} of {total}"  # none lost, none twice
        assert all(by_user[u] == sent[u] for u in users)  # per-user order across the two workers
        for u in users:  # every reply in the right chat (markers name the user), each message answered
            replies = fake.texts(u)
            assert all(r.rsplit("\n", 1)[-1].startswith(f"[re {u} #") for r in replies)
            assert {f"[re {u} #{k}]" for k in range(per_user)} <= {r.rsplit("\n", 1)[-1] for r in replies}
    return fake, users, by_user


def test_two_webhook_workers_one_killed_lose_nothing_and_keep_order(pg_url):
    _two_workers_one_killed(pg_url, ["--trivial"], USERS, PER_USER, pg_applied_turns)


def _logged_turns(url: str) -> list[tuple[str, str]]:
    """(user key, message) of every turn the dialog manager logged, in commit order."""
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT u.user_id, l.record::json->>'message' FROM log_records l JOIN users u ON u.id = l.user_id "
            "WHERE l.session = 'durability' ORDER BY l.id"
        ).fetchall()
    return [(key, text) for key, text in rows]


def test_two_webhook_workers_run_the_real_dialog_one_transaction_per_turn(pg_url):
    """The real turn path across processes: each turn's state, log record and receipt are committed
    together, once, in the user's order, whichever worker handled it (or took it over after the kill)."""
    import psycopg

    from bot.pgstore.store import PgLogStore
    from bot.state import DialogState
    from logs.schema import join_list

    _two_workers_one_killed(pg_url, ["--handler", "tests.bot.small_dialog:build"], 20, 5, _logged_turns)
    with psycopg.connect(pg_url) as conn:
        receipts = conn.execute("SELECT count(*), count(DISTINCT key) FROM turn_receipts").fetchone()
        states = dict(conn.execute("SELECT user_id, state FROM users WHERE user_id LIKE 'tg:3%'").fetchall())
        log_user_ids = dict(conn.execute("SELECT user_id, id FROM users").fetchall())
        per_user = dict(conn.execute(
            "SELECT u.user_id, count(*) FROM log_records l JOIN users u ON u.id = l.user_id GROUP BY u.user_id"
        ).fetchall())  # fmt: skip
    assert receipts == (100, 100)  # one receipt per turn, committed with it
    assert set(states) == {f"tg:{u}" for u in range(300_001, 300_021)}
    assert all(n == 5 for n in per_user.values())
    log = PgLogStore(pg_url)
    for user, raw in states.items():  # the saved state is the one written with the user's last record
        last = log.rows("durability", user_id=log_user_ids[user])[-1][1]
        assert join_list(DialogState.from_json(raw).logged_contexts) == last.contexts
        assert last.message == "message 4 #4"
    log.close()
