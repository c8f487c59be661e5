"""The researcher's console (issue 26): ``/console`` behind a login.

The login form takes the secret of ``CORSBOT_CONSOLE_TOKEN`` (never a URL parameter); a correct one
puts an HMAC of it in the signed, HttpOnly, SameSite session cookie (a changed token logs everyone
out). Without a configured token the console is closed to everyone. Every console route answers a
request without that session with a redirect to the login (pages) or 401 (data, exports), and every
post checks the CSRF token.

Pages: the dashboard (live figures, :mod:`.research`, refreshed every few seconds; the participants;
retraining and promotion), a conversation (each turn with its logged intent, objects, events, toCheck,
the classifier's confidence, the correction), and the review queue (the toCheck turns, or any turn
filtered by intent or confidence) relabelled with the keyboard; exports in the dataset's format
(as logged, or with the corrections) and as schema-guided dialogues.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from bot import paths
from bot.channels.web.security import console_fingerprint, csrf_ok
from bot.channels.web.state import WebState, client_of, state_of
from bot.corrections import known_intent
from bot.intent_models import cv_text, promote, read_card
from bot.messages import SMALLTALK
from corsbot_errors import ConfigError
from logs.schema import Intent

__all__ = ["routes"]

INTENTS = (*(i.value for i in Intent), *sorted(SMALLTALK))
"""The intents offered when relabelling (the dataset's, and the small talk the bot answers)."""


def routes() -> list[Route]:
    """The console's routes."""
    return [
        Route("/console/login", login_page, methods=["GET"]),
        Route("/console/login", login, methods=["POST"]),
        Route("/console/logout", logout, methods=["POST"]),
        Route("/console", dashboard, methods=["GET"]),
        Route("/console/api/figures", figures, methods=["GET"]),
        Route("/console/conversation/{pid}", conversation, methods=["GET"]),
        Route("/console/review", review, methods=["GET"]),
        Route("/console/review/{message_id}", relabel, methods=["POST"]),
        Route("/console/retrain", retrain, methods=["POST"]),
        Route("/console/api/retrain", retrain_status, methods=["GET"]),
        Route("/console/promote", promote_model, methods=["POST"]),
        Route("/console/export/{kind}", export, methods=["GET"]),
    ]


def _logged_in(state: WebState, request: Request) -> bool:
    token = state.config.console_token
    seen = request.session.get("console")
    return (
        bool(token)
        and isinstance(seen, str)
        and hmac.compare_digest(seen, console_fingerprint(token or "", state.config.signing_key))
    )


def _closed(state: WebState, request: Request, *, page: bool) -> Response | None:
    if _logged_in(state, request):
        return None
    if page:
        return RedirectResponse("/console/login", status_code=303)
    return JSONResponse({"error": "log in to the console first"}, status_code=401)


async def _post_form(state: WebState, request: Request) -> dict[str, str] | Response:
    """The form of a console post: logged in, CSRF token right."""
    closed = _closed(state, request, page=False)
    if closed is not None:
        return closed
    form = await request.form()
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    if not csrf_ok(request.session, values.get("csrf") or request.headers.get("x-csrf-token")):
        return JSONResponse({"error": "expired page: reload it"}, status_code=403)
    return values


async def login_page(request: Request) -> Response:
    """GET ``/console/login``."""
    state = state_of(request)
    if _logged_in(state, request):
        return RedirectResponse("/console", status_code=303)
    return state.render(request, "console_login.html", {"configured": bool(state.config.console_token), "error": ""})


async def login(request: Request) -> Response:
    """POST ``/console/login``: the token from the form (never from the URL)."""
    state = state_of(request)
    blocked = state.limited("login", client_of(request))
    if blocked is not None:
        return blocked
    form = await request.form()
    given, csrf = form.get("token"), form.get("csrf")
    token = state.config.console_token
    if not csrf_ok(request.session, csrf):
        return state.render(
            request, "console_login.html", {"configured": bool(token), "error": "The page expired, try again."}, 403
        )
    if not token or not isinstance(given, str) or not hmac.compare_digest(given.encode(), token.encode()):
        return state.render(request, "console_login.html", {"configured": bool(token), "error": "Wrong token."}, 401)
    request.session["console"] = console_fingerprint(token, state.config.signing_key)
    return RedirectResponse("/console", status_code=303)


async def logout(request: Request) -> Response:
    """POST ``/console/logout``."""
    state = state_of(request)
    form = await _post_form(state, request)
    if isinstance(form, Response):
        return form
    request.session.pop("console", None)
    return RedirectResponse("/console/login", status_code=303)


def _models() -> dict[str, Any]:
    live, candidate = read_card(paths.intent_model()), read_card(paths.intent_candidate())
    return {"live": cv_text(live), "candidate": cv_text(candidate) if candidate.exists else "",
            "live_created": live.created, "candidate_created": candidate.created}  # fmt: skip


async def dashboard(request: Request) -> Response:
    """GET ``/console``: figures, participants, retraining."""
    state = state_of(request)
    closed = _closed(state, request, page=True)
    if closed is not None:
        return closed
    figures_now = await asyncio.to_thread(state.data.figures)
    participants = await asyncio.to_thread(state.store.participants, state.config.study.name)
    return state.render(request, "console.html", {
        "figures": figures_now.to_json(), "participants": participants, "models": _models(),
        "retrain": state.retrain.status(), "retrain_command": "corsbot " + " ".join(state.retrain.command()[3:]),
    })  # fmt: skip


async def figures(request: Request) -> Response:
    """GET ``/console/api/figures``: the live figures (JSON)."""
    state = state_of(request)
    closed = _closed(state, request, page=False)
    if closed is not None:
        return closed
    figures_now = await asyncio.to_thread(state.data.figures)
    return JSONResponse({"figures": figures_now.to_json(), "time": time.time()})


async def conversation(request: Request) -> Response:
    """GET ``/console/conversation/{pid}``: every turn with what was logged for it."""
    state = state_of(request)
    closed = _closed(state, request, page=True)
    if closed is not None:
        return closed
    pid = request.path_params["pid"]
    participant = await asyncio.to_thread(state.store.participant, pid)
    if participant is None or participant.study != state.config.study.name:
        return state.render(request, "message.html", {"title": "Unknown", "text": "No such participant."}, 404)
    rows = await asyncio.to_thread(state.data.conversation, pid)
    return state.render(request, "conversation.html", {"participant": participant, "rows": rows})


def _float(text: str | None) -> float | None:
    try:
        return float(text) if text not in (None, "") else None
    except ValueError:
        return None


async def review(request: Request) -> Response:
    """GET ``/console/review``: the review queue (``only=tocheck|all``, ``intent=``, ``max_confidence=``)."""
    state = state_of(request)
    closed = _closed(state, request, page=True)
    if closed is not None:
        return closed
    q = request.query_params
    only = q.get("only", "tocheck") if q.get("only") in ("tocheck", "all") else "tocheck"
    intent = q.get("intent", "") if q.get("intent", "") in ("", *INTENTS) or known_intent(q.get("intent", "")) else ""
    max_confidence = _float(q.get("max_confidence"))
    show_corrected = q.get("corrected") == "1"
    items = await asyncio.to_thread(
        lambda: state.data.queue(only=only, intent=intent, max_confidence=max_confidence, corrected=show_corrected)
    )
    return state.render(request, "review.html", {
        "items": items, "intents": INTENTS, "only": only, "intent": intent,
        "max_confidence": "" if max_confidence is None else max_confidence, "corrected": show_corrected,
    })  # fmt: skip


async def relabel(request: Request) -> Response:
    """POST ``/console/review/{message_id}``: store (``intent``, ``objects``, ``note``) or undo (``undo=1``)."""
    state = state_of(request)
    form = await _post_form(state, request)
    if isinstance(form, Response):
        return form
    message_id = request.path_params["message_id"]
    if form.get("undo") == "1":
        removed = await asyncio.to_thread(state.data.corrections.delete, message_id)
        return JSONResponse({"undone": removed, "message_id": message_id})
    try:
        correction = await asyncio.to_thread(
            state.data.correct,
            message_id,
            form.get("intent", "").strip(),
            form.get("objects", ""),
            form.get("note", ""),
        )
    except KeyError:
        return JSONResponse({"error": "no such turn in this study's log"}, status_code=404)
    except ValueError as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    return JSONResponse({"stored": True, "message_id": message_id, "intent": correction.intent,
                         "objects": check_objects_text(correction.objects)})  # fmt: skip


def check_objects_text(objects: str) -> str:
    """The stored objects as shown back."""
    from bot.corrections import check_objects

    return check_objects(objects)


async def retrain(request: Request) -> Response:
    """POST ``/console/retrain``: start ``corsbot nlu train --logs`` in the background."""
    state = state_of(request)
    form = await _post_form(state, request)
    if isinstance(form, Response):
        return form
    started = state.retrain.start()
    return JSONResponse(
        {"started": started, "status": state.retrain.status().state}, status_code=202 if started else 409
    )


async def retrain_status(request: Request) -> Response:
    """GET ``/console/api/retrain``: the retraining's state and both models' CV figures."""
    state = state_of(request)
    closed = _closed(state, request, page=False)
    if closed is not None:
        return closed
    status = state.retrain.status()
    return JSONResponse({"state": status.state, "returncode": status.returncode, "tail": status.tail,
                         "models": _models(), "reloading": state.reloading})  # fmt: skip


async def promote_model(request: Request) -> Response:
    """POST ``/console/promote``: the candidate becomes the live model; the dialog workers restart on it."""
    state = state_of(request)
    form = await _post_form(state, request)
    if isinstance(form, Response):
        return form
    if state.retrain.status().state == "running":
        return JSONResponse({"error": "a retraining is running"}, status_code=409)
    try:
        before, after = await asyncio.to_thread(promote)
    except ConfigError as exc:
        return JSONResponse({"error": str(exc)}, status_code=409)
    if state.reload is not None:
        asyncio.get_running_loop().create_task(_reload(state))
    return JSONResponse({"promoted": True, "previous": cv_text(before), "live": cv_text(after)})


async def _reload(state: WebState) -> None:
    state.reloading = True
    try:
        assert state.reload is not None
        await state.reload()
    finally:
        state.reloading = False


async def export(request: Request) -> Response:
    """GET ``/console/export/{dataset|dataset-corrected|sgd}``: a download (``?evaluator=1`` for the evaluator's)."""
    state = state_of(request)
    closed = _closed(state, request, page=False)
    if closed is not None:
        return closed
    kind = request.path_params["kind"]
    evaluator = request.query_params.get("evaluator") == "1"
    if kind in ("dataset", "dataset-corrected"):
        body: Any = await asyncio.to_thread(
            lambda: state.data.dataset(corrected=kind == "dataset-corrected", evaluator=evaluator)
        )
    elif kind == "sgd":
        body = await asyncio.to_thread(lambda: state.data.sgd(evaluator=evaluator))
    else:
        return JSONResponse({"error": "unknown export (dataset, dataset-corrected, sgd)"}, status_code=404)
    name = f"{state.config.study.name}{'-evaluator' if evaluator else ''}-{kind}.json"
    return Response(json.dumps(body, ensure_ascii=False, indent=1), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})  # fmt: skip
