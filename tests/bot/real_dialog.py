"""The real dialog of ``corsbot chat`` for conversation tests: the trained intent model, the sentiment
recognizer and the knowledge-base snapshots of ``$CORSBOT_HOME``; tests using it are skipped when they
are not built."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from bot import paths
from bot.turns import Turn

_USERS = itertools.count()


def real_dialog_manager(tmp_path_factory: Any, elicitation: str, **options: Any) -> Any:
    """The dialog manager as ``corsbot chat`` builds it, on a scratch database of ``tmp_path_factory`` (and
    so without the likes logged in the runtime folder's database: the same lists on every machine); skips
    the test when the snapshots or the intent model are missing (``make kb model``)."""
    needed = [paths.kb_snapshot(domain) for domain in ("movie", "book", "music")]
    if not all(path.exists() for path in needed) or not (paths.home() / "models" / "intent").exists():
        pytest.skip("KB snapshots or the intent model not built (make kb model)")
    from bot.compose import build_dialog_manager

    db = tmp_path_factory.mktemp("real-dialog") / "db.sqlite3"
    options.setdefault("scratch", True)
    return build_dialog_manager(db=db, session="test", elicitation=elicitation, **options)


class Chat:
    """One fresh user of the real dialog, switched to ``domain``."""

    def __init__(self, dm: Any, domain: str) -> None:
        self.dm, self.user = dm, f"test:{next(_USERS)}"
        self.say(f"/{domain}")

    def say(self, text: str, payload: str | None = None) -> Any:
        return self.dm.handle(Turn(self.user, text, payload=payload))

    def press(self, payload: str) -> Any:
        """Press the button of ``payload``."""
        return self.say("", payload=payload)

    @property
    def state(self) -> Any:
        return self.dm._states.load(self.user)

    @property
    def kb(self) -> Any:
        """The knowledge base of the current domain."""
        return self.dm._services.domain(self.state.domain).kb

    def values(self, item: str, pid: str) -> set[str]:
        """The values of ``item`` for property ``pid``."""
        return {value for p, value in self.kb.item_values(item) if p == pid}

    def profile(self, domain: str | None = None) -> dict[str, str]:
        """QID -> polarity in ``domain`` (default: the current one)."""
        return {q: p["polarity"] for q, p in self.state.profile(domain).items()}

    def labels(self, domain: str | None = None) -> dict[str, str]:
        """Label -> polarity in ``domain`` (default: the current one)."""
        kb = self.dm._services.domain(domain or self.state.domain).kb
        return {kb.label(q): p for q, p in self.profile(domain).items()}

    def intent(self) -> str:
        """The intent logged for the last turn."""
        return str(self.dm.last_records(self.user, 1)[0].intent)


def card_of(reply: Any) -> str | None:
    """The QID of the card a reply shows (its like button's), None for a reply without a card."""
    likes = [c.payload for c in reply.choices if c.payload.startswith("like:")]
    return likes[0].split(":")[1].split("@")[0] if reply.card and likes else None


def card_after(chat: Chat, likes: str) -> str:
    """Say ``likes``, ask for a recommendation and return the QID of the card shown (asserted shown)."""
    chat.say(likes)
    shown = card_of(chat.say("recommend me something"))
    assert shown is not None
    return shown
