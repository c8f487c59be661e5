"""The dialog manager as a typed pipeline (see :mod:`bot.dialog.manager`).

Modules, one concern each:

- ``manager``: :class:`DialogManager` (load state, understand once, run the policy, write the turn);
- ``policy``: the one policy table, (open-question kind, act) -> handler, and what the dialog admits;
- ``acts``: typed dialogue acts and state: ``PreferenceTask``, the open question (tagged union), ``Outcome``;
- ``context``: the ``TurnContext`` every handler gets, and the dialog settings;
- ``preferences``, ``questions``: preference acquisition and the question lifecycle;
- ``recommendations``, ``critique``: lists, cards and critiques; ``suggest``: items to rate;
- ``profile``: show, delete, reset; ``conversation``: start, switches, help, small talk, fallbacks;
- ``render``: names, options and cards as shown; ``turn_log``: the log record and state, in one transaction.

``DialogManager`` is imported on first use, so that ``bot.state`` may import ``bot.dialog.acts``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.dialog.manager import DialogManager

__all__ = ["DialogManager"]


def __getattr__(name: str) -> object:
    if name == "DialogManager":
        from bot.dialog.manager import DialogManager

        return DialogManager
    raise AttributeError(f"module 'bot.dialog' has no attribute {name!r}")
