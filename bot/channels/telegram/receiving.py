"""Receiving updates durably (issue 17, item 1): long polling and the webhook server, both storing each
update in the :class:`~bot.channels.inbox.UpdateInbox` *before* confirming it to Telegram.

- :class:`Poller`: ``getUpdates`` with ``offset`` = the last ``update_id`` of the batch Telegram just
  returned + 1, once that batch is stored (Telegram drops what is below the offset, so only stored
  updates are ever confirmed). Never a maximum kept from earlier batches or runs: update ids may go
  backwards (a restarted fake server; Telegram picks the next id at random after a week without
  updates), and a stale maximum would confirm, so lose, every new update below it. Ids going
  backwards are logged once (a warning); duplicates are dropped by the inbox, by ``update_id``, among
  the unfinished and recently finished updates. If the inbox cannot be written the batch
  is fetched again after a pause, never confirmed. A 409 Conflict (another poller, or a webhook set
  elsewhere) or a refused token stops the channel with a clear error; network failures are retried
  with a growing pause (1 s doubling up to 30 s).
- :class:`WebhookServer`: an aiohttp server answering Telegram's POSTs on ``url_path``; the header
  ``X-Telegram-Bot-Api-Secret-Token`` must equal the configured secret (else 403, nothing stored);
  an unreadable body gets 400; the answer is 200 only once the update is stored (500 otherwise:
  Telegram redelivers it later).

Both hand the raw update dicts to ``accept``, which stores them and schedules those that are new.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from telegram import Bot
from telegram.error import Conflict, Forbidden, InvalidToken, NetworkError, TelegramError, TimedOut

from corsbot_errors import CorsbotError

logger = logging.getLogger(__name__)

Accept = Callable[[list[dict[str, Any]]], Awaitable[None]]
"""Stores raw updates and schedules the new ones; raises :class:`CorsbotError` when it cannot store."""
MAX_PAUSE_S = 30.0
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class Poller:
    """Long polling into the inbox (see the module docstring).

    Args:
        bot: the PTB bot (its get-updates HTTP connection is used).
        accept: stores a batch; raising means "not stored".
        timeout_s: long-polling timeout of ``getUpdates``.
        on_fatal: called with a message when polling cannot go on (409, token revoked).
    """

    def __init__(self, bot: Bot, accept: Accept, *, timeout_s: float, on_fatal: Callable[[str], None]) -> None:
        self._bot = bot
        self._accept = accept
        self._timeout_s = timeout_s
        self._on_fatal = on_fatal
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start polling in a task on the running loop."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name="corsbot-poller")

    async def stop(self) -> None:
        """Stop polling (an update fetched but not stored yet stays unconfirmed: Telegram resends it)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def _run(self) -> None:
        offset: int | None = None
        warned = False
        pause = 1.0
        while True:
            params: dict[str, Any] = {"timeout": int(self._timeout_s)}
            if offset is not None:
                params["offset"] = offset
            try:
                batch = await self._bot.do_api_request("getUpdates", api_kwargs=params)
            except Conflict as exc:
                self._on_fatal(
                    "another process is receiving updates for this bot token (Telegram 409 Conflict: "
                    f"{exc.message}); stop it (or delete its webhook) and start again"
                )
                return
            except (InvalidToken, Forbidden) as exc:
                self._on_fatal(f"Telegram no longer accepts the bot token ({type(exc).__name__}); check it")
                return
            except (NetworkError, TimedOut, TelegramError) as exc:
                logger.warning("polling error (retrying in %.0f s): %s", pause, exc)
                await asyncio.sleep(pause)
                pause = min(pause * 2, MAX_PAUSE_S)
                continue
            updates = [u for u in batch or () if isinstance(u, dict) and isinstance(u.get("update_id"), int)]
            if not updates:
                pause = 1.0
                continue
            try:
                await self._accept(updates)
            except CorsbotError as exc:  # not stored: do not confirm, fetch the same batch again
                logger.error("could not store %d updates, not confirming them (retrying in %.0f s): %s",
                             len(updates), pause, exc)  # fmt: skip
                await asyncio.sleep(pause)
                pause = min(pause * 2, MAX_PAUSE_S)
                continue
            pause = 1.0
            ids = [u["update_id"] for u in updates]
            previous = offset - 1 if offset is not None else None
            for update_id in ids:
                if previous is not None and update_id <= previous and not warned:
                    warned = True
                    logger.warning("Telegram update ids went backwards (%d after %d: a restarted Bot API server, "
                                   "or Telegram renumbering after a quiet week); confirming from the newest batch",
                                   update_id, previous)  # fmt: skip
                previous = update_id
            offset = ids[-1] + 1  # what Telegram just returned, not a maximum of earlier ids


class WebhookServer:
    """The local HTTP server Telegram (or a reverse proxy in front of it) posts updates to.

    Args:
        accept: stores one update (a list of one); raising means "not stored" (answer 500).
        listen: address to bind.
        port: port to bind.
        url_path: the path Telegram posts to (without the leading ``/``).
        secret_token: the expected ``X-Telegram-Bot-Api-Secret-Token``; None accepts any post
            (only behind a proxy that checks it: the CLI refuses to start without one).
    """

    def __init__(self, accept: Accept, *, listen: str, port: int, url_path: str, secret_token: str | None) -> None:
        self._accept = accept
        self._listen = listen
        self._port = port
        self._path = "/" + url_path.lstrip("/")
        self._secret = secret_token
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Bind and serve.

        Raises:
            OSError: the address cannot be bound (in use, not local).
        """
        app = web.Application(client_max_size=1 << 20)
        app.router.add_post(self._path, self._on_post)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._listen, self._port, reuse_address=True)
        try:
            await site.start()
        except OSError:
            await self.stop()
            raise

    async def stop(self) -> None:
        """Stop serving (idempotent)."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _on_post(self, request: web.Request) -> web.Response:
        if self._secret is not None and not hmac.compare_digest(
            request.headers.get(SECRET_HEADER, "").encode(), self._secret.encode()
        ):
            logger.warning("webhook post from %s without the right secret token: refused", request.remote)
            return web.Response(status=403, text="forbidden")
        try:
            update = json.loads(await request.read())
        except (ValueError, RecursionError):
            return web.Response(status=400, text="not JSON")
        if not isinstance(update, dict) or not isinstance(update.get("update_id"), int):
            return web.Response(status=400, text="not an update")
        try:
            await self._accept([update])
        except CorsbotError as exc:
            logger.error("could not store update %s; Telegram will redeliver it: %s", update["update_id"], exc)
            return web.Response(status=500, text="not stored")
        return web.Response(status=200, text="ok")


def user_key_of(update: dict[str, Any], prefix: str) -> str | None:
    """The user an update belongs to (``from`` of its message, callback query, membership change ...)."""
    for field, value in update.items():
        if field == "update_id" or not isinstance(value, dict):
            continue
        sender = value.get("from")
        if isinstance(sender, dict) and isinstance(sender.get("id"), int):
            return f"{prefix}{sender['id']}"
    return None
