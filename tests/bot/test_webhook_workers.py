"""Issue 15: two webhook worker processes behind a proxy, one PostgreSQL database, the fake Bot API,
50 concurrent users; one worker is killed (SIGKILL) mid-run. Every reply reaches the right chat,
per-user order is kept, nothing is lost or applied twice."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
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

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _worker(fake: FakeTelegram, url: str, port: int, proxy_url: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli.durability_bot", "--port", str(fake.port), "--db", "/nonexistent/unused",
         "--database", url, "--webhook-port", str(port), "--webhook-url", proxy_url, "--trivial"],
        stdout=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("serving"), line
    return proc


def test_two_webhook_workers_one_killed_lose_nothing_and_keep_order(pg_url):
    with FakeTelegram() as fake:
        ports = [_free_port(), _free_port()]
        proxy = _Proxy(ports)
        proxy_url = f"http://127.0.0.1:{proxy.port}/telegram"
        workers = [_worker(fake, pg_url, port, proxy_url) for port in ports]
        users = list(range(300_001, 300_001 + USERS))
        sent = {u: [f"message {k} #{k}" for k in range(PER_USER)] for u in users}
        pushed = [0]
        lock = threading.Lock()

        def user_session(u: int) -> None:
            for text in sent[u]:
                fake.push_text(u, text)  # posted to the proxy at once, as Telegram does
                with lock:
                    pushed[0] += 1
                time.sleep(0.01)

        def killer() -> None:
            while pushed[0] < USERS * PER_USER // 2:
                time.sleep(0.005)
            os.killpg(workers[0].pid, signal.SIGKILL)  # mid-run, mid-turn
            workers[0].wait()

        kill = threading.Thread(target=killer)
        kill.start()
        with ThreadPoolExecutor(16) as pool:
            list(pool.map(user_session, users))
        kill.join()
        total = USERS * PER_USER
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(pg_applied_turns(pg_url)) < total:
            time.sleep(0.2)
        time.sleep(1.0)
        applied = pg_applied_turns(pg_url)
        workers[1].send_signal(signal.SIGTERM)
        workers[1].wait(timeout=30)
        proxy.server.shutdown()
        by_user: dict[int, list[str]] = {}
        for key, text in applied:
            by_user.setdefault(int(key.split(":")[1]), []).append(text)
        assert len(applied) == total, f"applied {len(applied)} of {total}"  # none lost, none twice
        assert all(by_user[u] == sent[u] for u in users)  # per-user order across the two workers
        for u in users:  # every reply in the right chat (markers name the user), each message answered
            replies = fake.texts(u)
            assert all(r.rsplit("\n", 1)[-1].startswith(f"[re {u} #") for r in replies)
            assert {f"[re {u} #{k}]" for k in range(PER_USER)} <= {r.rsplit("\n", 1)[-1] for r in replies}
