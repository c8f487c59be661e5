"""Helpers of the knowledge-base tests (used by conftest.py and the test modules): start a real
``oxigraph serve`` on 127.0.0.1, and a scriptable local HTTP SPARQL endpoint (fake responses, or
forwarding to a real server) for the SPARQL field cases F14-F19.
"""

from __future__ import annotations

import http.server
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent.parent / "data" / "kb"
TINY_NT = DATA / "tiny.nt"
BUILT_AT = "2026-01-01T00:00:00Z"
OXIGRAPH = Path(sys.executable).with_name("oxigraph")


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class OxigraphServer:
    """A running ``oxigraph serve`` (query URL ``url``); ``stop()`` ends it."""

    process: subprocess.Popen
    url: str
    location: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def start_oxigraph(location: Path, dump: Path) -> OxigraphServer:
    """Load ``dump`` into ``location`` and serve it on 127.0.0.1 (a free port); waits until ready."""
    if not OXIGRAPH.exists():
        pytest.skip(f"oxigraph server binary not installed at {OXIGRAPH}")
    if not location.exists():
        subprocess.run(
            [str(OXIGRAPH), "load", "--location", str(location), "--file", str(dump)],
            check=True,
            capture_output=True,
            timeout=120,
        )
    port = free_port()
    proc = subprocess.Popen(
        [str(OXIGRAPH), "serve", "--location", str(location), "--bind", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    server = OxigraphServer(proc, f"http://127.0.0.1:{port}/query", location)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"oxigraph serve exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/query?query=ASK%7B%7D", timeout=1):
                return server
        except OSError:
            time.sleep(0.1)
    server.stop()
    raise RuntimeError("oxigraph serve did not start within 30 s")


# ------------------------------------------------------------------------------------------------
# scriptable local endpoint
# ------------------------------------------------------------------------------------------------


@dataclass
class Reply:
    """A scripted answer: status, headers, body; ``delay_s`` before answering; ``close_early``
    sends a Content-Length larger than the body and closes (an IncompleteRead)."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    close_early: bool = False


FORWARD = "forward"
"""A script entry meaning: pass this request to the upstream server."""


@dataclass
class FakeEndpoint:
    """A local HTTP SPARQL endpoint that plays a script, then forwards (or repeats the last entry).

    Attributes:
        url: its query URL.
        script: entries (``Reply`` or ``FORWARD``) consumed one per request.
        upstream: URL requests are forwarded to (``FORWARD`` entries and after the script).
        requests: ``(headers, body)`` of every request received.
        repeat_last: keep playing the last entry once the script is used up (instead of forwarding).
        once_if: ``(needle, reply)`` pairs: the first request whose body contains ``needle`` gets
            ``reply`` (each pair fires once), before the script is consulted.
    """

    url: str = ""
    script: list[object] = field(default_factory=list)
    upstream: str | None = None
    requests: list[tuple[dict[str, str], bytes]] = field(default_factory=list)
    repeat_last: bool = False
    once_if: list[tuple[bytes, Reply]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def next_entry(self, body: bytes = b"") -> object:
        with self._lock:
            for k, (needle, reply) in enumerate(self.once_if):
                if needle in body:
                    del self.once_if[k]
                    return reply
            if self.script:
                entry = self.script.pop(0) if (len(self.script) > 1 or not self.repeat_last) else self.script[0]
                return entry
            return FORWARD


def make_handler(fake: FakeEndpoint) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:  # quiet
            pass

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            fake.requests.append(({k: v for k, v in self.headers.items()}, body))
            entry = fake.next_entry(urllib.parse.unquote_plus(body.decode("latin-1")).encode("latin-1"))
            if entry == FORWARD:
                if fake.upstream is None:
                    entry = Reply(502, b"no upstream")
                else:
                    self._forward(body)
                    return
            assert isinstance(entry, Reply)
            if entry.delay_s:
                time.sleep(entry.delay_s)
            try:
                self.send_response(entry.status)
                for k, v in entry.headers.items():
                    self.send_header(k, v)
                size = len(entry.body) + (1000 if entry.close_early else 0)
                self.send_header("Content-Length", str(size))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(entry.body)
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True

        def _forward(self, body: bytes) -> None:
            req = urllib.request.Request(
                fake.upstream,  # type: ignore[arg-type]
                data=body if self.command == "POST" else None,
                headers={k: v for k, v in self.headers.items() if k.lower() in ("content-type", "accept")},
                method=self.command,
            )
            try:
                with urllib.request.urlopen(req, timeout=30) as resp:
                    data, status, ctype = resp.read(), resp.status, resp.headers.get("Content-Type", "")
            except urllib.error.HTTPError as exc:
                data, status, ctype = exc.read(), exc.code, exc.headers.get("Content-Type", "")
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
            self.close_connection = True

        do_POST = _serve
        do_GET = _serve

    return Handler


def sparql_json(vars_: list[str], rows: list[dict[str, dict[str, str]]]) -> bytes:
    """A SPARQL JSON results body."""
    import json

    return json.dumps({"head": {"vars": vars_}, "results": {"bindings": rows}}).encode()


JSON_HEADERS = {"Content-Type": "application/sparql-results+json"}
