"""The web channel's ASGI application (issue 26): :func:`build_app` wires the participant's chat
(:mod:`.chat`), the researcher's console (:mod:`.console`) and the outside evaluator's door
(:mod:`.door`) over one :class:`WebState`.

Stack: Starlette (ASGI routing, sessions, static files) with Jinja2 templates rendered on the server
(autoescaped: every text a participant typed is escaped where it is shown), a few lines of plain
JavaScript for the chat without reloads and the console's keyboard, served by uvicorn; no front-end
build chain. Only this package imports the web framework (``tests/test_layering.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.responses import JSONResponse, RedirectResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from bot.channels.web.intake import TurnIntake
from bot.channels.web.research import StudyData
from bot.channels.web.retrain import RetrainJob
from bot.channels.web.security import BodyLimit, ClientLimit, RateLimiter, SecurityHeaders
from bot.channels.web.state import WebConfig, WebState
from bot.channels.web.store import WebStore

__all__ = ["WebConfig", "WebState", "build_app"]

logger = logging.getLogger(__name__)
HERE = Path(__file__).resolve().parent
SESSION_COOKIE = "corsbot_session"


def build_app(
    config: WebConfig,
    handler: Any,
    *,
    handler_factory: Callable[[], Any] | None = None,
    store: WebStore | None = None,
) -> Starlette:
    """The ASGI application.

    Args:
        config: the settings.
        handler: the dialog handler (``ahandle`` or ``handle``: a :class:`bot.dialog_pool.ProcessDialogHandler`
            running :class:`bot.channels.web.dialogs.StudyDialogs`, or one in the process).
        handler_factory: builds (and starts) a new handler on the live model after the console promoted
            one; the old handler is closed once its turns are done. None: the bot keeps its model
            until restarted.
        store: the web tables (default: opened on ``config.database``).

    Raises:
        StoreError: the database cannot be opened.
    """
    from bot.channels.web import chat, console, door

    store = store or WebStore(config.database)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    state = WebState(
        config=config,
        store=store,
        intake=TurnIntake(store, handler),
        data=StudyData(config.database, config.study, store),
        retrain=RetrainJob(config.study, config.home / "reports" / "web" / "retrain.log"),
        templates=templates,
        limits={
            "ip": RateLimiter(config.ip_rate, config.ip_burst),
            "turn": RateLimiter(config.turn_rate, config.turn_burst),
            "new": RateLimiter(config.new_rate, config.new_burst),
            "login": RateLimiter(config.login_rate, config.login_burst),
        },
    )

    if handler_factory is not None:
        factory = handler_factory

        async def reload() -> None:
            new = await asyncio.to_thread(factory)
            old = await state.intake.replace(new)
            if hasattr(old, "close"):
                old.close()  # on the loop: a pool's pipe readers belong to it

        state.reload = reload

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        def user_key_of(pid: str) -> str | None:
            found = store.participant(pid)
            return found.user_key if found else None

        await state.intake.resume(user_key_of)
        yield
        state.retrain.stop()

    routes = [
        Route("/", lambda request: RedirectResponse("/chat", status_code=303)),
        Route("/healthz", lambda request: JSONResponse({"status": "ok"})),
        *chat.routes(),
        *console.routes(),
        *(door.routes() if config.study.evaluator else []),
        Mount("/static", app=StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[
            Middleware(SecurityHeaders),
            Middleware(BodyLimit, max_bytes=config.max_body_bytes),
            Middleware(ClientLimit, limiter=state.limits["ip"]),
            Middleware(
                SessionMiddleware,
                secret_key=config.signing_key.decode("utf-8"),
                session_cookie=SESSION_COOKIE,
                max_age=30 * 24 * 3600,
                same_site="lax",
                https_only=config.https_cookies,
            ),  # fmt: skip
        ],
    )
    app.state.web = state
    return app
