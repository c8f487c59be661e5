"""What the Telegram commands share (``corsbot telegram``, ``corsbot bench telegram``, ``corsbot bench
durability`` and the bot that bench kills): a plain module importing none of them, so that they import
it and never each other in a circle.
"""

from __future__ import annotations

import functools
import json
import urllib.request
from pathlib import Path
from typing import Any

from bot.turns import Choice, Reply, Turn

DEFAULT_PROCESSES = 2
"""Dialog-manager worker processes of ``corsbot telegram`` and its benches (see :mod:`bot.dialog_pool`)."""
FAKE_SERVER_MODULE = "bot.channels.fake_bot_api"
"""``python -m`` this: the fake Bot API server the benches run in a subprocess (prints ``PORT <n>``)."""
FAKE_TOKEN = "123456789:TEST-fake-token"
"""The token the fake Bot API server accepts."""
DURABILITY_SESSION = "durability"
"""The log session of the bot ``corsbot bench durability`` kills."""


class EchoHandler:
    """A trivial dialog handler: ``you said <text>`` (buttons Like/Skip after a button press)."""

    def handle(self, turn: Turn) -> Reply:
        """Echo the turn."""
        if turn.payload is not None:
            return Reply(f"pressed {turn.text}", choices=(Choice("Like", "like"), Choice("Skip", "skip")), card=True)
        return Reply(f"you said {turn.text}")


def real_dialog_manager(
    db: Path, session: str, processes: int = 0, warmup: tuple[Turn, ...] = (), elicitation: str | None = None
) -> Any:
    """The real dialog manager on ``db``: in this process (``processes=0``, warmed up here with
    ``warmup``) or in worker processes (:class:`bot.dialog_pool.ProcessDialogHandler`, started and
    each warmed up with ``warmup``; close it after use). ``elicitation``: the setting of
    :func:`bot.compose.build_dialog_manager` (None: no suggestions, as the benchmarks run).

    Raises:
        ConfigError: the model or knowledge base is missing, or a worker could not start.
    """
    from bot.compose import build_dialog_manager  # noqa: PLC0415 - heavy (models, KB)

    if processes <= 0:
        dm = build_dialog_manager(db=db, session=session, elicitation=elicitation)
        for turn in warmup:
            dm.handle(turn)
        return dm
    from bot.dialog_pool import ProcessDialogHandler  # noqa: PLC0415

    pool = ProcessDialogHandler(
        functools.partial(build_dialog_manager, db=db, session=session, elicitation=elicitation),
        processes=processes,
        warmup=warmup,
    )
    pool.start()
    return pool


def control(port: int, action: str, body: Any = None) -> Any:
    """Call the control endpoint ``action`` of the fake Bot API server on ``127.0.0.1:port`` (its
    ``result``): ``push_texts`` (body ``[[user_id, text], ...]``), ``replies``, ``count``, ``texts``.

    Raises:
        OSError: the server cannot be reached (``urllib.error.URLError``).
    """
    data = json.dumps(body).encode() if body is not None else b""
    req = urllib.request.Request(f"http://127.0.0.1:{port}/control/{action}", data=data, method="POST")
    with urllib.request.urlopen(req, timeout=30) as resp:  # noqa: S310 - 127.0.0.1 only
        return json.loads(resp.read())["result"]


__all__ = [
    "DEFAULT_PROCESSES",
    "DURABILITY_SESSION",
    "FAKE_SERVER_MODULE",
    "FAKE_TOKEN",
    "EchoHandler",
    "control",
    "real_dialog_manager",
]
