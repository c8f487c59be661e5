"""Dialog managers in worker processes: :class:`ProcessDialogHandler`, a ``DialogHandler`` whose
turns run in ``processes`` child processes, each user pinned to one of them.

Why: a turn of the real dialog manager is pure-Python CPU work (NLU, entity linking, PageRank,
toCheck, SQLite), about 1.2 ms on an idle core; python-telegram-bot, aiohttp and the channel cost
the event loop another 1-2 ms per message. In one process both share one interpreter lock, so the
bot is capped at one core (about 300 msg/s on the idle 2-core test machine, under 210 when other
jobs load it). With the dialog managers in their own processes the channel's loop and the turns
run on different cores, and a long turn (a PageRank run, the first load of a domain) never holds
the loop's interpreter lock. Figures in ``docs/benchmarks.md``.

How:

- Each worker is one child process (``spawn`` start method: no inherited threads, locks or SQLite
  connections) talking over a :func:`multiprocessing.Pipe`: it builds its handler by calling
  ``factory()`` once (the factory must be picklable: a module-level function or a
  :func:`functools.partial` of one; as with any ``spawn`` start, the main script needs the
  ``if __name__ == "__main__":`` guard), handles the ``warmup`` turns (loads the models and the KB), then
  answers one pickled :class:`Turn` at a time with a pickled :class:`Reply`. A plain pipe rather
  than a ``ProcessPoolExecutor``, whose feeder and manager threads cost the bot process more CPU
  per turn in interpreter-lock hand-offs (measured in ``docs/benchmarks.md``).
- A user goes to worker ``crc32(user_id) % processes``, always the same one, so the dialog manager's
  per-user in-memory caches (the toCheck rows) stay right; the state itself is read from and
  committed to SQLite on every turn, as in one process (WAL, and a database locked by another
  process is waited for: :mod:`logs.dbaccess`; so the workers share the database file safely).
- :meth:`ahandle` (what the Telegram channel uses) is a coroutine on the event loop: the turn is
  pickled into the worker's pipe and the loop watches the pipe (``loop.add_reader``), so no thread
  is involved; up to :data:`PIPELINE` turns per worker are in its pipe at once (the worker answers
  them in order, without waiting for the loop between turns), more wait on a semaphore. The
  channel already serialises the turns of one user; different users run concurrently.
  :meth:`handle` is the blocking variant for threads and scripts (one turn per worker at a time).
  One handler object is used in one of the two ways (a worker serving both would mix answers).
- Errors: a :class:`~corsbot_errors.CorsbotError` in the child comes back as a :class:`WorkerError`
  carrying its message (the channel shows it to the user); any other exception is logged in the
  child with its traceback and comes back as :class:`WorkerCrash` (a bug: the turn is not run again).
- A worker process that dies (killed, segfault, out of memory) is restarted, and each turn it held
  (being answered, or waiting in its pipe) that has a key (``Turn.key``) is run again, once, on the
  restarted worker: the dialog manager applies a key at most once (its receipt is stored in the
  turn's transaction), so a turn the dead worker had already committed returns its stored reply, and
  one that it had not is applied now; the person gets one answer either way. A turn without a key
  (which could be applied twice), or one whose second run dies too (a turn that kills its worker),
  raises :class:`WorkerCrash`. The committed state is in SQLite: nothing stored is lost.
- Priority: the workers run :data:`WORKER_NICENESS` steps nicer than the bot process (``os.nice``). A
  turn is CPU-bound batch work, while the channel's event loop carries every user's I/O: receiving,
  sending, and recording right after each send that the reply went out. On a busy 2-core machine a
  worker woken by a turn (or loading its models after a restart) otherwise takes the core from the
  loop for milliseconds at a time, and every reply whose record waits then is sent again after a
  kill of the bot: ``corsbot bench durability`` had 1-10 replies sent twice per 5 bot kills at the
  same niceness, 0-4 at +5 (6 interleaved runs each, load average 3.5-6.5; ``docs/benchmarks.md``);
  throughput did not drop (``corsbot bench telegram``: 204-277 msg/s against 243-325 in 3 pairs).
- Stopping: workers ignore SIGINT and SIGTERM (sent to the whole process group by Ctrl-C or a
  service manager); :meth:`close` stops them after their current turn, and a worker whose parent
  died (even by SIGKILL) exits when its pipe closes.

Example::

    handler = ProcessDialogHandler(functools.partial(build_dialog_manager, db=db, session="telegram"), processes=2)
    handler.start()                       # spawns and warms the workers; raises if the factory fails
    reply = await handler.ahandle(Turn("tg:42", "hi"))     # on an event loop (or handler.handle in a thread)
    handler.close()
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import logging
import multiprocessing
import os
import signal
import threading
import zlib
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any

from bot import redact
from bot.turns import Reply, Turn
from corsbot_errors import ConfigError, CorsbotError
from logs.store import StoreError

logger = logging.getLogger(__name__)

PIPELINE = 4
"""Turns a worker may have queued in its pipe at once on the :meth:`ProcessDialogHandler.ahandle` path."""
START_TIMEOUT_S = 600.0
"""How long :meth:`ProcessDialogHandler.start` waits for a worker to build and warm its handler."""
WORKER_NICENESS = 5
"""How much nicer (lower CPU priority) the worker processes run than the bot process (see the module docstring)."""


class WorkerError(CorsbotError):
    """A deliberate error of the dialog manager in a worker (its message is meant for the user)."""


class WorkerStoreError(WorkerError, StoreError):
    """The dialog manager in a worker could not read or write the database (locked, full, damaged):
    a :class:`~logs.store.StoreError`, whose message (naming the file) is for the log only."""


class WorkerCrash(CorsbotError):
    """A turn failed in a worker by a bug, or the worker process died."""

    def __str__(self) -> str:  # the channel shows str(CorsbotError) to the user: keep it generic
        return ""


class WorkerDied(WorkerCrash):
    """The worker process died with the turn in flight (or before it could be sent): the turn may be
    run again (see the module docstring). Raised to callers only when it was not (no key, or its
    second run died too)."""


class _KilledAtStart(ConfigError):
    """A worker process was killed by a signal before it was ready (not a fault of its factory)."""


def _worker_main(
    conn: Connection, factory: Callable[[], Any], warmup: Sequence[Turn], index: int, log_level: int, niceness: int = 0
) -> None:
    """Child process: build the handler, warm it up, then answer turns until ``None`` or EOF.

    Messages to the parent: ``("ready", None)`` or ``("init-error", text)`` once, then per turn
    ``("ok", Reply)``, ``("error", message)`` (a CorsbotError) or ``("crash", description)``.
    Warm-up user keys get ``#<index>`` appended, so that two workers never write one user's state.
    """
    # Ctrl-C and a service manager's SIGTERM reach the whole process group: the bot process decides
    # when the workers stop (after their current turn); a dead parent closes the pipe (EOF) anyway.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if niceness > 0:
        os.nice(niceness)  # the bot's event loop comes first (module docstring)
    # This is the worker process's entry point (its "CLI"): it mirrors the parent's log level, as
    # bot/cli/__init__.py configured it, with the process name added.
    logging.basicConfig(level=log_level, format="%(asctime)s %(levelname)s %(processName)s %(name)s: %(message)s")
    redact.install()  # secrets the worker reads itself (a database password) never reach its log
    log = logging.getLogger(__name__)
    try:
        handler = factory()
        for turn in warmup:
            handler.handle(dataclasses.replace(turn, user_id=f"{turn.user_id}#{index}"))
    except CorsbotError as exc:  # e.g. ConfigError "no intent model: run corsbot nlu train": the message says it all
        conn.send(("init-error", str(exc)))
        return
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        log.exception("dialog worker %d could not build its handler", index)
        conn.send(("init-error", f"{type(exc).__name__}: {exc}"))
        return
    conn.send(("ready", None))
    while True:
        try:
            turn = conn.recv()
        except (EOFError, OSError):
            return
        if turn is None:
            return
        try:
            answer: tuple[str, Any] = ("ok", handler.handle(turn))
        except StoreError as exc:  # the message names the database file: for the log, never for the user
            log.error("turn of %s failed in dialog worker %d: %s", turn.user_id, index, exc)
            answer = ("store-error", str(exc))
        except CorsbotError as exc:
            answer = ("error", str(exc))
        except Exception as exc:  # noqa: BLE001 - reported to the parent, never kills the worker
            log.exception("turn of %s failed in dialog worker %d", turn.user_id, index)
            answer = ("crash", f"{type(exc).__name__}: {exc}")
        conn.send(answer)


@dataclasses.dataclass(slots=True)
class _Worker:
    process: Any  # multiprocessing.context.SpawnProcess
    conn: Connection
    ready: bool = False
    mode: str = ""  # "" until the first turn, then "sync" (handle) or "async" (ahandle)
    loop: asyncio.AbstractEventLoop | None = None  # async mode: the loop watching the pipe
    waiting: collections.deque[asyncio.Future[tuple[str, Any]]] = dataclasses.field(default_factory=collections.deque)
    slots: asyncio.Semaphore | None = None  # async mode: at most PIPELINE turns in the pipe
    dead: bool = False


def _answer(kind: str, value: Any) -> Reply:
    if kind == "ok":
        return value
    if kind == "error":
        raise WorkerError(value)
    if kind == "store-error":
        raise WorkerStoreError(value)
    raise WorkerCrash(value)


class ProcessDialogHandler:
    """A ``DialogHandler`` running ``factory()``'s handler in worker processes (see the module docstring).

    Args:
        factory: picklable zero-argument callable returning a handler (``handle(turn) -> Reply``);
            called once in each worker process.
        processes: worker processes (>= 1).
        warmup: turns each worker handles once at start, their replies discarded; they are stored
            like any turn, under the turn's user key + ``#<worker index>`` (use a key of their own,
            e.g. ``"warmup:probe"``).
        niceness: how much nicer than this process the workers run (``os.nice``; 0 = the same).

    Raises:
        ConfigError: ``processes`` < 1.
    """

    def __init__(
        self,
        factory: Callable[[], Any],
        *,
        processes: int = 2,
        warmup: Sequence[Turn] = (),
        niceness: int = WORKER_NICENESS,
    ) -> None:
        if processes < 1:
            raise ConfigError("the dialog needs at least 1 worker process")
        self._factory = factory
        self._warmup = tuple(warmup)
        self._niceness = max(niceness, 0)
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker | None] = [None] * processes
        self._locks = [threading.Lock() for _ in range(processes)]
        self._closed = False

    @property
    def processes(self) -> int:
        """Number of worker processes."""
        return len(self._workers)

    def _spawn(self, index: int) -> _Worker:
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=_worker_main,
            args=(child, self._factory, self._warmup, index, logging.getLogger().getEffectiveLevel(), self._niceness),
            name=f"corsbot-dialog-{index}",
            daemon=True,
        )
        process.start()
        child.close()
        return _Worker(process, parent)

    def _await_ready(self, index: int, worker: _Worker, timeout_s: float) -> None:
        """Wait for the worker's first message (caller holds its lock).

        Raises:
            ConfigError: the worker failed to build its handler, died, or did not answer in time.
        """
        if worker.ready:
            return
        if not worker.conn.poll(timeout_s):
            raise ConfigError(f"dialog worker {index} did not start within {timeout_s:.0f} s")
        try:
            kind, value = worker.conn.recv()
        except (EOFError, OSError):
            worker.process.join(1.0)
            code = worker.process.exitcode
            if code is not None and code < 0:  # killed by a signal while it loaded: no fault of its factory
                raise _KilledAtStart(f"dialog worker {index} was killed (signal {-code}) while it started") from None
            kind, value = "init-error", f"the process exited with code {code}"
        if kind != "ready":
            raise ConfigError(f"dialog worker {index} could not start: {value}")
        worker.ready = True

    def start(self, timeout_s: float = START_TIMEOUT_S) -> None:
        """Spawn every worker and wait until each has built and warmed its handler (they load in parallel).

        Raises:
            ConfigError: a worker could not build its handler (e.g. no model under ``$CORSBOT_HOME``;
                its traceback is logged by the worker) or did not start within ``timeout_s``.
        """
        for i in range(self.processes):
            with self._locks[i]:
                if self._workers[i] is None:
                    self._workers[i] = self._spawn(i)
        try:
            for i in range(self.processes):
                with self._locks[i]:
                    worker = self._workers[i]
                    assert worker is not None
                    self._await_ready(i, worker, timeout_s)
        except ConfigError:
            self.close()
            raise

    def pids(self) -> list[int]:
        """Process ids of the running workers (for CPU accounting)."""
        return [w.process.pid for w in self._workers if w is not None and w.process.pid is not None]

    def worker_of(self, user_id: str) -> int:
        """Index of the worker serving ``user_id`` (``crc32`` of the key: stable across runs)."""
        return zlib.crc32(user_id.encode("utf-8", "replace")) % self.processes

    def handle(self, turn: Turn) -> Reply:
        """Answer one turn in the user's worker (blocks the calling thread; starts the worker if needed).

        A turn with a key whose worker dies meanwhile is run again once on the restarted worker.

        Raises:
            WorkerError: the dialog manager raised a :class:`CorsbotError` (message for the user).
            WorkerCrash: a bug in the handler, or the worker process died and the turn could not be
                run again (no key, or its second run died too); the worker restarts for the next turn.
            ConfigError: the worker cannot (re)start, or the handler was closed.
        """
        try:
            return self._handle_once(turn)
        except WorkerDied:
            if not self._may_run_again(turn):
                raise
        return self._handle_once(turn)

    def _may_run_again(self, turn: Turn) -> bool:
        """True (and logged) when a turn its worker died with may run once more: it has a key."""
        if turn.key is None or self._closed:
            return False
        logger.warning("turn %s of %s was in flight on a dialog worker that died: running it again on the "
                       "restarted worker", turn.key, turn.user_id)  # fmt: skip
        return True

    def _handle_once(self, turn: Turn) -> Reply:
        """One try of :meth:`handle` (raises :class:`WorkerDied` when the worker dies)."""
        index = self.worker_of(turn.user_id)
        with self._locks[index]:
            if self._closed:
                raise ConfigError("the dialog workers are closed")
            worker = self._workers[index]
            if worker is None:
                worker = self._workers[index] = self._spawn(index)
            if worker.mode == "async":
                raise ConfigError("this ProcessDialogHandler is used through ahandle(); handle() would mix answers")
            worker.mode = "sync"
            try:
                self._await_ready(index, worker, START_TIMEOUT_S)
                worker.conn.send(turn)
                kind, value = worker.conn.recv()
            except (EOFError, OSError, ConfigError) as exc:
                logger.error("dialog worker %d died during a turn of %s (%s); it restarts", index, turn.user_id, exc)
                self._workers[index] = None
                self._stop(worker)
                if isinstance(exc, ConfigError) and not isinstance(exc, _KilledAtStart):
                    raise WorkerCrash(f"dialog worker {index} could not start: {exc}") from exc
                raise WorkerDied(f"dialog worker {index} died") from exc
        return _answer(kind, value)

    async def ahandle(self, turn: Turn) -> Reply:
        """Answer one turn in the user's worker without blocking the event loop (see the module docstring).

        The first call binds the handler to the running loop. A worker that is not ready yet (just
        spawned, or restarted after a crash) is waited for in a thread. A turn with a key whose
        worker dies meanwhile is run again once on the restarted worker.

        Raises:
            WorkerError: the dialog manager raised a :class:`CorsbotError` (message for the user).
            WorkerCrash: a bug in the handler, or the worker process died and the turn could not be
                run again (no key, or its second run died too); the worker restarts for the next turn.
            ConfigError: the worker cannot (re)start, or the handler was closed.
        """
        try:
            return await self._ahandle_once(turn)
        except WorkerDied:
            if not self._may_run_again(turn):
                raise
        return await self._ahandle_once(turn)

    async def _ahandle_once(self, turn: Turn) -> Reply:
        """One try of :meth:`ahandle` (raises :class:`WorkerDied` when the worker dies)."""
        index = self.worker_of(turn.user_id)
        worker = await self._async_worker(index)
        assert worker.slots is not None
        async with worker.slots:
            if worker.dead:
                raise WorkerDied(f"dialog worker {index} died")
            future: asyncio.Future[tuple[str, Any]] = asyncio.get_running_loop().create_future()
            worker.waiting.append(future)
            try:
                worker.conn.send(turn)
            except (OSError, ValueError) as exc:
                worker.waiting.remove(future)
                self._async_died(index, worker, exc)
                raise WorkerDied(f"dialog worker {index} died") from exc
            kind, value = await asyncio.shield(future)  # a cancelled caller must not desynchronise the pipe
        return _answer(kind, value)

    async def _async_worker(self, index: int) -> _Worker:
        """The ready worker ``index`` bound to the running loop (spawned and awaited if needed)."""
        loop = asyncio.get_running_loop()
        worker = self._workers[index]
        if worker is not None and worker.mode == "async" and not worker.dead:
            return worker
        if self._closed:
            raise ConfigError("the dialog workers are closed")
        if worker is not None and worker.mode == "sync":
            raise ConfigError("this ProcessDialogHandler is used through handle(); ahandle() would mix answers")
        if worker is None or worker.dead or not worker.ready:
            try:  # spawning costs 10-20 ms: off the loop, which meanwhile sends and records replies
                worker = await asyncio.to_thread(self._start_worker, index)
            except _KilledAtStart as exc:
                raise WorkerDied(str(exc)) from exc
            except ConfigError as exc:
                raise WorkerCrash(f"dialog worker {index} could not start: {exc}") from exc
        if worker.mode != "async":  # first caller after the wait attaches the reader
            worker.mode, worker.loop, worker.slots = "async", loop, asyncio.Semaphore(PIPELINE)
            loop.add_reader(worker.conn.fileno(), self._on_readable, index, worker)
        return worker

    def _start_worker(self, index: int) -> _Worker:
        """In a thread: worker ``index`` spawned if it is missing or dead, and waited for until ready.

        Raises:
            ConfigError: the workers are closed, or the worker could not start (it is stopped and
                forgotten; :class:`_KilledAtStart` when a signal killed it).
        """
        with self._locks[index]:
            if self._closed:
                raise ConfigError("the dialog workers are closed")
            worker = self._workers[index]
            if worker is None or worker.dead:
                worker = self._workers[index] = self._spawn(index)
            try:
                self._await_ready(index, worker, START_TIMEOUT_S)
            except ConfigError:
                if self._workers[index] is worker:
                    self._workers[index] = None
                self._stop(worker)
                raise
        return worker

    def _on_readable(self, index: int, worker: _Worker) -> None:
        """Loop callback: read every answer available on the worker's pipe, resolve the oldest waiters."""
        try:
            while worker.conn.poll():
                answer = worker.conn.recv()
                if worker.waiting:
                    future = worker.waiting.popleft()
                    if not future.done():
                        future.set_result(answer)
        except (EOFError, OSError) as exc:
            self._async_died(index, worker, exc)

    def _async_died(self, index: int, worker: _Worker, exc: BaseException) -> None:
        if worker.dead:
            return
        worker.dead = True
        logger.error("dialog worker %d died (%s) with %d turns in flight; it restarts", index, exc,
                     len(worker.waiting))  # fmt: skip
        if worker.loop is not None:
            with contextlib.suppress(Exception):
                worker.loop.remove_reader(worker.conn.fileno())
        while worker.waiting:
            future = worker.waiting.popleft()
            if not future.done():
                future.set_exception(WorkerDied(f"dialog worker {index} died"))
        if self._workers[index] is worker:
            self._workers[index] = None
        loop, worker.loop = worker.loop, None  # its reader is removed above: _stop must not touch the loop
        if loop is not None and not loop.is_closed():  # reaping the process may wait: not on the loop
            loop.run_in_executor(None, self._stop, worker, 1.0)
        else:
            self._stop(worker, timeout_s=1.0)

    @staticmethod
    def _stop(worker: _Worker, timeout_s: float = 10.0) -> None:
        if worker.loop is not None and not worker.loop.is_closed():
            with contextlib.suppress(Exception):
                worker.loop.remove_reader(worker.conn.fileno())
        with contextlib.suppress(OSError, ValueError):
            worker.conn.send(None)
        worker.process.join(timeout_s)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(timeout_s)
        worker.conn.close()

    def close(self) -> None:
        """Stop the workers after their current turn (idempotent; later turns raise ConfigError)."""
        self._closed = True
        for i in range(self.processes):
            with self._locks[i]:
                worker, self._workers[i] = self._workers[i], None
            if worker is not None:
                self._stop(worker)

    def __enter__(self) -> ProcessDialogHandler:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["WORKER_NICENESS", "ProcessDialogHandler", "WorkerCrash", "WorkerDied", "WorkerError", "WorkerStoreError"]
