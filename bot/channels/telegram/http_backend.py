"""The HTTP backend of the Telegram channel: python-telegram-bot's requests over aiohttp."""

from __future__ import annotations

from typing import Any

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

from bot.redact import redact


class AiohttpRequest(BaseRequest):
    """python-telegram-bot networking backend on an :mod:`aiohttp` client session (HTTP/1.1 keep-alive).

    PTB's default backend (httpx over httpcore and anyio) costs about 4-5 ms of CPU per Bot API call
    on this project's 2-core test machine, most of it in httpcore's connection-pool bookkeeping
    (its queue is re-scanned for every request, each idle connection is probed with a ``poll``
    syscall); this one about 0.4 ms, and a whole message through PTB and the channel 1.2-1.6 ms
    instead of 5-6.5 ms (``corsbot bench telegram`` and py-spy; figures in ``docs/benchmarks.md``). It implements PTB's documented extension point
    :class:`telegram.request.BaseRequest`: parameters are sent form-encoded (JSON values as PTB
    encodes them), files as ``multipart/form-data``.

    Timeouts (seconds, None = no limit; PTB passes per-call values, else the defaults here):
    ``connect_timeout`` bounds the TCP/TLS connect, ``pool_timeout`` + ``connect_timeout`` the wait
    for a free pooled connection plus the connect, ``read_timeout`` each socket read, and their sum
    plus ``write_timeout`` the whole call. Errors: a timeout raises :class:`telegram.error.TimedOut`,
    any other client failure :class:`telegram.error.NetworkError` (as PTB's own backend does).

    Example::

        ApplicationBuilder().token(token).request(AiohttpRequest(connection_pool_size=64)).build()
    """

    def __init__(
        self, *, connection_pool_size: int = 64, timeout_s: float | None = 15.0, read_timeout_s: float | None = None
    ) -> None:
        """Args:
        connection_pool_size: most connections open at once (per host); further calls wait.
        timeout_s: default connect, pool, write and read timeout in seconds.
        read_timeout_s: default read timeout if different (``getUpdates``: poll timeout + margin).
        """
        self._pool_size = connection_pool_size
        self._timeout_s = timeout_s
        self._read_timeout_s = timeout_s if read_timeout_s is None else read_timeout_s
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        """Default read timeout in seconds (PTB adds it to long-polling timeouts)."""
        return self._read_timeout_s

    async def initialize(self) -> None:
        """Open the client session (idempotent)."""
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(
                limit=self._pool_size, limit_per_host=self._pool_size, keepalive_timeout=30
            )
            self._session = aiohttp.ClientSession(connector=connector, headers={"User-Agent": self.USER_AGENT})

    async def shutdown(self) -> None:
        """Close the session and its connections (idempotent)."""
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """One HTTP call -> (status code, body); see :meth:`telegram.request.BaseRequest.do_request`.

        Raises:
            RuntimeError: not initialised.
            telegram.error.TimedOut: a timeout expired.
            telegram.error.NetworkError: the call failed otherwise (refused connection, reset, bad URL).
        """
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        read = _seconds(read_timeout, self._read_timeout_s)
        write, connect, pool = (
            _seconds(value, self._timeout_s) for value in (write_timeout, connect_timeout, pool_timeout)
        )
        parts = [p for p in (read, write, connect, pool) if p is not None]
        timeout = aiohttp.ClientTimeout(
            total=sum(parts) if len(parts) == 4 else None,  # any part without a limit: no total limit
            connect=None if pool is None or connect is None else pool + connect,
            sock_connect=connect,
            sock_read=read,
        )
        data: Any = None
        if request_data is not None:
            fields = request_data.json_parameters
            files = request_data.multipart_data if request_data.contains_files else None
            if files:
                form = aiohttp.FormData()
                for name, value in fields.items():
                    if name not in files:
                        form.add_field(name, value)
                for name, (filename, content, mime) in files.items():
                    form.add_field(name, content, filename=filename, content_type=mime)
                data = form
            elif fields:
                data = fields
        try:
            async with session.request(method, url, data=data, timeout=timeout) as response:
                return response.status, await response.read()
        except TimeoutError as exc:  # aiohttp's timeouts derive from it (asyncio.TimeoutError on 3.11)
            raise TimedOut(f"timed out calling the Bot API ({type(exc).__name__})") from None
        except aiohttp.ClientError as exc:
            raise NetworkError(redact(f"aiohttp.{type(exc).__name__}: {exc}")) from None  # the cause names the URL


def _seconds(value: Any, default: float | None) -> float | None:
    """A PTB timeout argument in seconds: ``default`` for PTB's ``DEFAULT_NONE``, None = no limit."""
    if value is BaseRequest.DEFAULT_NONE:
        return default
    return None if value is None else float(value)
