"""Test doubles of the Telegram tests: the fake Bot API server (now in the package,
:mod:`bot.channels.fake_bot_api`, as ``corsbot bench telegram`` runs it) and fakes of the dialog side."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from bot.channels.fake_bot_api import BOT_ID, BOT_USERNAME, TOKEN, ApiError, FakeTelegram, html_to_text

__all__ = ["BOT_ID", "BOT_USERNAME", "TOKEN", "ApiError", "FakeTelegram", "ScriptedHandler", "echo", "html_to_text",
           "wait_until"]  # fmt: skip


class ScriptedHandler:
    """A fake dialog manager: ``script(turn) -> Reply`` (default :func:`echo`).

    Records every turn, counts overlapping turns of one user (``overlaps``, must stay 0) and the
    worker threads it ran on.
    """

    def __init__(self, script: Callable[[Any], Any] | None = None) -> None:
        self.script = script or echo
        self.turns: list[Any] = []
        self.threads: set[str] = set()
        self.overlaps = 0
        self._busy: set[str] = set()
        self._lock = threading.Lock()

    def handle(self, turn: Any) -> Any:
        with self._lock:
            if turn.user_id in self._busy:
                self.overlaps += 1
            self._busy.add(turn.user_id)
            self.turns.append(turn)
            self.threads.add(threading.current_thread().name)
        try:
            return self.script(turn)
        finally:
            with self._lock:
                self._busy.discard(turn.user_id)

    def texts(self, user_id: str) -> list[str]:
        """Texts of the turns of one user, in the order they were handled."""
        with self._lock:
            return [t.text for t in self.turns if t.user_id == user_id]


def echo(turn: Any) -> Any:
    """``you said X`` with Like/Skip buttons; a button press answers a card (edited in place)."""
    from bot.turns import Choice, Reply

    buttons = (Choice("Like", "like:Q1"), Choice("Skip", "skip"))
    if turn.payload is not None:
        return Reply(f"pressed {turn.payload} ({turn.text})", choices=buttons, card=True)
    return Reply(f"you said {turn.text}", choices=buttons)


async def wait_until(predicate: Callable[[], object], timeout: float = 10.0) -> bool:
    """Poll ``predicate`` from the event loop (the bot runs on the same loop) until true or timeout."""
    import asyncio  # noqa: PLC0415

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        await asyncio.sleep(0.02)
    return bool(predicate())
