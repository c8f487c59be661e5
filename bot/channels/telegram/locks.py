"""Locks of the Telegram channel: one running bot per token and host (:class:`InstanceLock`, field
case F10) and per-user arrival order of updates (:class:`KeyedLocks` and the update processor that
uses them, field case F11)."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Hashable
from pathlib import Path
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

from bot.channels.telegram.config import ChannelError


def bot_id_of(token: str) -> str:
    """The numeric bot id of a token (the part before ':'), or a short hash if it has none."""
    head = token.split(":", 1)[0]
    return head if head.isdigit() else hashlib.sha256(token.encode()).hexdigest()[:12]


def lock_path_for(token: str, folder: Path) -> Path:
    """Lock file of the bot owning ``token``: ``<folder>/telegram-<bot id>.lock`` (folder = the DB's)."""
    return Path(folder) / f"telegram-{bot_id_of(token)}.lock"


class InstanceLock:
    """An exclusive, non-blocking ``fcntl.flock`` on a lock file: one running bot per token and host.

    The lock is released by the kernel when the process dies, so a stale file never blocks a restart.
    The file holds the owner's pid (for the error message).

    Example::

        with InstanceLock(lock_path_for(token, db.parent)):
            channel.run()
    """

    def __init__(self, path: Path) -> None:
        """Args: path: the lock file (created with its folder if missing)."""
        self.path = Path(path)
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock.

        Raises:
            ChannelError: if another process (or another ``InstanceLock`` object) holds it.
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise ChannelError(
                f"another corsbot telegram instance is already running with this bot token "
                f"(lock {self.path} held by pid {owner}); stop it first"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd

    def release(self) -> None:
        """Release the lock (idempotent); the file is left in place."""
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> InstanceLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class KeyedLocks:
    """FIFO asyncio locks by key, dropped when nobody holds or waits for them (bounded memory)."""

    def __init__(self) -> None:
        self._entries: dict[Hashable, list[Any]] = {}  # key -> [asyncio.Lock, holders + waiters]

    @contextlib.asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        """Hold the lock of ``key``; waiters get it in the order they asked (asyncio.Lock is FIFO)."""
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = [asyncio.Lock(), 0]
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                self._entries.pop(key, None)

    def __len__(self) -> int:
        return len(self._entries)


class SerialUpdateProcessor(BaseUpdateProcessor):
    """Processes updates of different users concurrently and updates of one user in arrival order.

    PTB creates one task per update in arrival order; this processor's first step (before any
    await that can suspend) is to queue on the user's FIFO lock, so arrival order is kept. A
    ``gate`` returning False drops the update (used to debounce taps, F05).

    At most ``max_concurrent_updates`` updates run at once, counted *inside* the user's lock: an update
    waiting for its user's earlier ones holds no slot, so one user's burst never starves the others.
    PTB's own semaphore (taken by its final ``process_update`` before the user's lock) is therefore
    given no limit (:data:`_UNBOUNDED`), and the bound is this processor's own semaphore.
    """

    def __init__(
        self,
        max_concurrent_updates: int,
        *,
        key: Callable[[object], Hashable | None],
        gate: Callable[[object], bool],
        done: Callable[[object], None],
        shared: Callable[[object], contextlib.AbstractAsyncContextManager[bool]] | None = None,
    ) -> None:
        """Args:
        shared: with several bot processes sharing one database (webhook workers), an async context
            manager held around each update of a user (inside the process's own lock): it holds the
            user's lock across processes and yields False when the update must not run (already
            handled elsewhere).

        Raises:
            ValueError: ``max_concurrent_updates`` below 1.
        """
        if max_concurrent_updates < 1:
            raise ValueError("`max_concurrent_updates` must be a positive integer!")
        super().__init__(_UNBOUNDED)
        self._slots = asyncio.BoundedSemaphore(max_concurrent_updates)
        self._key = key
        self._gate = gate
        self._done = done
        self._shared = shared
        self.locks = KeyedLocks()

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Gate, then the user's lock (and the shared one), then a slot, then the update's coroutine."""
        if not self._gate(update):
            _discard(coroutine)
            return
        key = self._key(update)
        try:
            if key is None:
                await self._run(coroutine)
            else:
                async with self.locks.hold(key):
                    if self._shared is None:
                        await self._run(coroutine)
                    else:
                        async with self._shared(update) as run:
                            if run:
                                await self._run(coroutine)
                            else:
                                _discard(coroutine)
        finally:
            self._done(update)

    async def _run(self, coroutine: Awaitable[Any]) -> None:
        async with self._slots:
            await coroutine

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None


_UNBOUNDED = 1 << 30
"""PTB's semaphore of :class:`SerialUpdateProcessor`: never the bound (see the class docstring)."""


def _discard(coroutine: Awaitable[Any]) -> None:
    """Close an update's coroutine that will not run (no "never awaited" warning)."""
    if isinstance(coroutine, Coroutine):
        coroutine.close()


def serial_key(update: object) -> Hashable | None:
    """The key updates are serialised on: the Telegram user (else the chat), None for neither."""
    if not isinstance(update, Update):
        return None
    if update.effective_user is not None:
        return ("user", update.effective_user.id)
    if update.effective_chat is not None:
        return ("chat", update.effective_chat.id)
    return None
