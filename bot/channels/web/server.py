"""Serving the web channel with uvicorn (issue 26): :func:`serve` for ``corsbot web`` (until Ctrl-C or
SIGTERM, which uvicorn turns into a graceful stop: running turns finish), :func:`start_in_thread` for
the benchmark and the tests (a server on a free port of 127.0.0.1 in a thread of this process).
"""

from __future__ import annotations

import asyncio
import signal
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import uvicorn

__all__ = ["RunningServer", "free_port", "serve", "start_in_thread"]


def _config(app: Any, host: str, port: int, **options: Any) -> uvicorn.Config:
    # proxy_headers: behind a reverse proxy on this host, the client address is the proxy's
    # X-Forwarded-For (what the rate limits key on); uvicorn trusts only 127.0.0.1 for it by default.
    return uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False, proxy_headers=True,
                          lifespan="on", timeout_graceful_shutdown=30, **options)  # fmt: skip


def serve(app: Any, *, host: str, port: int, on_started: Callable[[], None] | None = None) -> None:
    """Serve ``app`` until stopped (Ctrl-C / SIGTERM).

    Raises:
        OSError: the address cannot be bound (uvicorn exits; the caller says so).
    """
    server = uvicorn.Server(_config(app, host, port))

    async def run() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started and not task.done():
            await asyncio.sleep(0.05)
        if server.started and on_started is not None:
            on_started()
        await task

    # uvicorn stops gracefully on SIGINT / SIGTERM, then raises the signal again for the handler it found:
    # a no-op one here, so that the caller still closes the dialog workers and says it stopped.
    previous = {sig: signal.signal(sig, _ignore) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        asyncio.run(run())
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if not server.started:
        raise OSError(f"could not serve on {host}:{port} (address in use, or not allowed)")


def _ignore(signum: int, frame: object) -> None:
    """A signal handler that does nothing (see :func:`serve`)."""


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RunningServer:
    """A uvicorn server running in a thread (:func:`start_in_thread`); :meth:`stop` ends it."""

    def __init__(self, server: uvicorn.Server, thread: threading.Thread, url: str) -> None:
        self.server, self.thread, self.url = server, thread, url

    def stop(self, timeout: float = 30.0) -> None:
        """Ask the server to stop and wait for its thread."""
        self.server.should_exit = True
        self.thread.join(timeout)


def start_in_thread(app: Any, *, port: int | None = None, timeout: float = 60.0) -> RunningServer:
    """Serve ``app`` on 127.0.0.1 in a daemon thread; returns once it accepts connections.

    Raises:
        RuntimeError: it did not start within ``timeout`` seconds.
    """
    port = port or free_port()
    server = uvicorn.Server(_config(app, "127.0.0.1", port))
    thread = threading.Thread(target=server.run, name="corsbot-web", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    return RunningServer(server, thread, f"http://127.0.0.1:{port}")
