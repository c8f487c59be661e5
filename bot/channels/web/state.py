"""What the web channel's routes share: the settings (:class:`WebConfig`) and the per-application
state (:class:`WebState`), read by the chat, the console and the evaluator's door; :mod:`.app` builds them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.templating import Jinja2Templates

from bot.channels.web.intake import TurnIntake
from bot.channels.web.research import StudyData
from bot.channels.web.retrain import RetrainJob
from bot.channels.web.security import TOO_FAST, RateLimiter, csrf_token
from bot.channels.web.store import Participant, WebStore
from bot.channels.web.study import StudyConfig

__all__ = ["PARTICIPANT_TTL_S", "WebConfig", "WebState", "client_of", "state_of"]

PARTICIPANT_TTL_S = 2.0


@dataclass(frozen=True, slots=True)
class WebConfig:
    """Settings of the web channel.

    Attributes:
        study: the study (participants, conditions, consent, ...).
        database: the SQLite file, or the ``postgresql://`` URL.
        signing_key: the session cookie's signing key (:func:`.security.load_signing_key`).
        console_token: the researcher's login secret (None: the console is closed to everyone).
        home: the runtime folder (retraining's log).
        https_cookies: mark the session cookie ``Secure`` (behind an HTTPS proxy).
        max_body_bytes: bound on a request body (413 above).
        max_text_chars: bound on a typed message (longer ones are refused with a message).
        ip_rate, ip_burst: requests per second (and burst) per client address (0: no limit).
        turn_rate, turn_burst: messages per second (and burst) per participant or evaluator conversation.
        new_rate, new_burst: new participants per second (and burst) per client address.
        login_rate, login_burst: console login attempts per second (and burst) per client address.
    """

    study: StudyConfig
    database: Path | str
    signing_key: bytes
    console_token: str | None = None
    home: Path = Path("var")
    https_cookies: bool = False
    max_body_bytes: int = 64 * 1024
    max_text_chars: int = 2000
    ip_rate: float = 50.0
    ip_burst: float = 200.0
    turn_rate: float = 3.0
    turn_burst: float = 20.0
    new_rate: float = 0.5
    new_burst: float = 30.0
    login_rate: float = 0.2
    login_burst: float = 5.0


@dataclass(slots=True)
class WebState:
    """What the routes share (one per application)."""

    config: WebConfig
    store: WebStore
    intake: TurnIntake
    data: StudyData
    retrain: RetrainJob
    templates: Jinja2Templates
    reload: Callable[[], Awaitable[None]] | None = None
    limits: dict[str, RateLimiter] = field(default_factory=dict)
    reloading: bool = False
    _participants: dict[str, tuple[float, Participant]] = field(default_factory=dict)

    async def participant(self, pid: str) -> Participant | None:
        """The participant ``pid`` (read at most every :data:`PARTICIPANT_TTL_S` seconds: a chat post
        needs it, and only its consent, completion and feedback change, through this process's
        :meth:`forget` or, with several web processes on PostgreSQL, within that delay)."""
        now = time.monotonic()
        cached = self._participants.get(pid)
        if cached is not None and now - cached[0] < PARTICIPANT_TTL_S:
            return cached[1]
        found = await asyncio.to_thread(self.store.participant, pid)
        if found is not None:
            if len(self._participants) >= 10_000:
                self._participants.clear()
            self._participants[pid] = (now, found)
        return found

    def forget(self, pid: str) -> None:
        """Drop the cached row of ``pid`` (after changing it)."""
        self._participants.pop(pid, None)

    def render(self, request: Request, name: str, context: dict[str, Any], status_code: int = 200) -> Response:
        """A page from the templates (autoescaped), with the session's CSRF token in its context."""
        context = {"csrf": csrf_token(request.session), "study": self.config.study, **context}
        return self.templates.TemplateResponse(request, name, context, status_code=status_code)

    def limited(self, kind: str, key: str, *, json: bool = False) -> Response | None:
        """A 429 response if ``key`` is over its ``kind`` limit, else None (``json``: a JSON error
        ``{"error": ...}`` for a request that accepts JSON, else plain text)."""
        limiter = self.limits[kind]
        if limiter.allow(key):
            return None
        headers = {"Retry-After": str(limiter.retry_after())}
        if json:
            return JSONResponse({"error": TOO_FAST}, status_code=429, headers=headers)
        return PlainTextResponse("too many requests, slow down", status_code=429, headers=headers)


def state_of(request: Request) -> WebState:
    """The application's :class:`WebState`."""
    state: WebState = request.app.state.web
    return state


def client_of(request: Request) -> str:
    """The client address (uvicorn puts the proxy's ``X-Forwarded-For`` there when it trusts the proxy)."""
    return request.client.host if request.client else "unknown"
