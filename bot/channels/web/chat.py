"""The participant's chat (issue 26): ``/chat?pid=...`` and its posts.

A participant arrives with an id from the recruiting platform's URL (``/chat?pid=...``) or gets a new
one; the first visit registers them with a fresh secret kept in their signed session cookie (the id
alone never opens a conversation: an id already registered from another browser gets a polite
refusal), assigns the study condition (balanced), shows the consent text when the study has one,
then the chat: the whole conversation rendered on the server (escaped), the last reply's buttons,
its image, a text box. Each message or button press is one turn through :class:`TurnIntake` (stored
before it is answered, in order); with JavaScript the page posts with ``fetch`` and appends the reply,
without it every form works by a normal post and redirect. After ``min_turns`` messages they typed
(button presses do not count) the participant may finish and gets the completion code; one satisfied / frustrated click per
conversation is offered when the study wants it.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from bot.channels.web.security import csrf_ok
from bot.channels.web.state import WebState, client_of, state_of
from bot.channels.web.store import PARTICIPANT, Participant, StoredTurn, new_secret, valid_pid
from bot.turns import MAX_PAYLOAD_BYTES, Choice, Reply
from logs.store import StoreError

__all__ = ["routes"]

MAX_REMEMBERED = 5
"""Participants one browser session keeps the secrets of."""
COMPLETED = "This conversation is finished. Thank you for taking part!"


def routes() -> list[Route]:
    """The chat's routes."""
    return [
        Route("/chat", chat_page, methods=["GET"]),
        Route("/chat/consent", consent, methods=["POST"]),
        Route("/chat/send", send, methods=["POST"]),
        Route("/chat/feedback", feedback, methods=["POST"]),
        Route("/chat/finish", finish, methods=["POST"]),
    ]


def _secrets(request: Request) -> dict[str, str]:
    known = request.session.get("p")
    return dict(known) if isinstance(known, dict) else {}


def _remember(request: Request, pid: str, secret: str) -> None:
    known = {k: v for k, v in _secrets(request).items() if k != pid}
    known[pid] = secret
    request.session["p"] = dict(list(known.items())[-MAX_REMEMBERED:])
    request.session["last"] = pid


def _message(state: WebState, request: Request, title: str, text: str, status: int) -> Response:
    """An error or notice: a page, or ``{"error": text, "title": title}`` to a request that accepts JSON
    (the page's script shows ``error`` as it is)."""
    if _wants_json(request):
        return JSONResponse({"error": text, "title": title}, status_code=status)
    return state.render(request, "message.html", {"title": title, "text": text}, status_code=status)


async def _own(state: WebState, request: Request, pid: Any) -> Participant | Response:
    """The participant ``pid`` if this browser holds their secret, else an error page (403/400)."""
    if not isinstance(pid, str) or not valid_pid(pid):
        return _message(state, request, "Invalid link", "This participant id is not valid.", 400)
    found = await state.participant(pid)
    if found is None or found.kind != PARTICIPANT or found.study != state.config.study.name:
        return _message(state, request, "Unknown participant", "Open the study link again to start.", 403)
    if not found.owns(_secrets(request).get(pid)):
        return _message(state, request, "Conversation open elsewhere",
                        "This participant id is already in use in another browser. Please continue there, "
                        "or contact the researcher.", 403)  # fmt: skip
    return found


def _completion_code(state: WebState) -> str:
    code = state.config.study.completion_code
    return secrets.token_hex(4).upper() if code == "random" else code


async def _register(state: WebState, request: Request, pid: str) -> Participant | Response:
    study = state.config.study
    blocked = state.limited("new", client_of(request), json=_wants_json(request))
    if blocked is not None:
        return blocked
    counts = await asyncio.to_thread(state.store.condition_counts, study.name)
    secret = new_secret()
    created = await asyncio.to_thread(
        lambda: state.store.create_participant(
            pid, study=study.name, kind=PARTICIPANT, condition=study.assign(counts), secret=secret,
            code=_completion_code(state),
        )
    )  # fmt: skip
    if created is None:  # taken meanwhile
        return await _own(state, request, pid)
    _remember(request, pid, secret)
    return created


async def chat_page(request: Request) -> Response:
    """GET ``/chat``: register or recognise the participant, then consent, the chat, or the end."""
    state = state_of(request)
    pid = request.query_params.get("pid") or request.session.get("last") or f"anon-{secrets.token_hex(8)}"
    if not valid_pid(pid):
        return _message(state, request, "Invalid link", "This participant id is not valid.", 400)
    existing = await state.participant(pid)
    participant = await (_register(state, request, pid) if existing is None else _own(state, request, pid))
    if isinstance(participant, Response):
        return participant
    request.session["last"] = pid
    study = state.config.study
    if study.consent and participant.consented_ms is None:
        return state.render(request, "consent.html", {"pid": pid})
    if participant.completed_ms is not None:
        return _done(state, request, participant)
    turns = await asyncio.to_thread(state.store.turns, pid)
    if not turns:
        try:
            turns = [await state.intake.turn(participant, "/start", None, interaction="mixed", auto=True)]
        except StoreError:
            return _message(state, request, "Try again", "The chat could not start just now; reload the page.", 503)
    return state.render(request, "chat.html", _chat_context(state, participant, turns))


def _chat_context(state: WebState, participant: Participant, turns: list[StoredTurn]) -> dict[str, Any]:
    last = turns[-1].reply if turns and turns[-1].reply else None
    typed = sum(1 for t in turns if not t.auto and t.payload is None)  # as WebStore.typed_turns counts
    return {
        "pid": participant.pid,
        "turns": turns,
        "choices": last.choices if last else (),
        "can_finish": typed >= state.config.study.min_turns,
        "typed": typed,
        "feedback": participant.feedback,
        "max_text": state.config.max_text_chars,
    }


def _done(state: WebState, request: Request, participant: Participant) -> Response:
    code = participant.completion_code or ""
    url = state.config.study.completion_url
    link = url.replace("{code}", code) if url and url.startswith(("https://", "http://")) else None
    return state.render(request, "done.html", {"pid": participant.pid, "code": code, "link": link,
                                               "feedback": participant.feedback})  # fmt: skip


async def _form(request: Request) -> dict[str, str]:
    form = await request.form()
    return {k: v for k, v in form.items() if isinstance(v, str)}


def _wants_json(request: Request) -> bool:
    return "application/json" in request.headers.get("accept", "")


async def _checked(request: Request) -> tuple[WebState, dict[str, str], Participant] | Response:
    """The form of a chat post, its CSRF token checked and its participant owned by this browser."""
    state = state_of(request)
    form = await _form(request)
    if not csrf_ok(request.session, form.get("csrf") or request.headers.get("x-csrf-token")):
        return _message(state, request, "Expired page", "This page expired; reload it and try again.", 403)
    participant = await _own(state, request, form.get("pid"))
    if isinstance(participant, Response):
        return participant
    return state, form, participant


def _reply_json(reply: Reply | None) -> dict[str, Any] | None:
    if reply is None:
        return None
    return {"text": reply.text, "image": reply.image,
            "choices": [{"label": c.label, "payload": c.payload} for c in reply.choices]}  # fmt: skip


async def send(request: Request) -> Response:
    """POST ``/chat/send``: one message (``text``) or button press (``payload``) of the participant."""
    checked = await _checked(request)
    if isinstance(checked, Response):
        return checked
    state, form, participant = checked
    if participant.completed_ms is not None:
        return _message(state, request, "Finished", COMPLETED, 409)
    if state.config.study.consent and participant.consented_ms is None:
        return _message(state, request, "Consent first", "Please read and accept the consent first.", 409)
    blocked = state.limited("turn", participant.pid, json=_wants_json(request))
    if blocked is not None:
        return blocked
    text, payload = (form.get("text") or "").strip(), form.get("payload") or None
    if payload is not None:
        if len(payload.encode("utf-8")) > MAX_PAYLOAD_BYTES:
            return _message(state, request, "Bad button", "That button is not valid.", 400)
        text = await _label_of(state, participant.pid, payload)
    elif not text:
        return _message(state, request, "Empty message", "Type a message first.", 400)
    elif len(text) > state.config.max_text_chars:
        return _message(state, request, "Too long",
                        f"Messages are limited to {state.config.max_text_chars} characters.", 413)  # fmt: skip
    try:
        turn = await state.intake.turn(participant, text, payload, interaction="mixed")
    except StoreError:
        return _message(state, request, "Try again", "Your message could not be saved; please send it again.", 503)
    if not _wants_json(request):
        return RedirectResponse(f"/chat?pid={participant.pid}#end", status_code=303)
    typed = turn.typed if turn.typed is not None else await asyncio.to_thread(state.store.typed_turns, participant.pid)
    return JSONResponse({"user": text, "reply": _reply_json(turn.reply), "typed": typed,
                         "can_finish": typed >= state.config.study.min_turns})  # fmt: skip


async def _label_of(state: WebState, pid: str, payload: str) -> str:
    """The label of the button with ``payload`` in the last reply (the payload itself for a stale one,
    as ``corsbot chat --jsonl`` logs it)."""
    turns = await asyncio.to_thread(state.store.turns, pid)
    last: tuple[Choice, ...] = turns[-1].reply.choices if turns and turns[-1].reply else ()
    return next((c.label for c in last if c.payload == payload), payload)


async def consent(request: Request) -> Response:
    """POST ``/chat/consent``: the participant agreed."""
    checked = await _checked(request)
    if isinstance(checked, Response):
        return checked
    state, form, participant = checked
    if form.get("agree") != "yes":
        return _message(state, request, "No consent", "You did not agree, so the study does not start. "
                        "You can close this page.", 200)  # fmt: skip
    await asyncio.to_thread(state.store.consent, participant.pid)
    state.forget(participant.pid)
    return RedirectResponse(f"/chat?pid={participant.pid}", status_code=303)


async def feedback(request: Request) -> Response:
    """POST ``/chat/feedback``: the conversation's one satisfied / frustrated click."""
    checked = await _checked(request)
    if isinstance(checked, Response):
        return checked
    state, form, participant = checked
    try:
        stored = await asyncio.to_thread(state.store.give_feedback, participant.pid, form.get("value", ""))
        state.forget(participant.pid)
    except ValueError:
        return _message(state, request, "Bad feedback", "Choose satisfied or frustrated.", 400)
    if _wants_json(request):
        return JSONResponse({"stored": stored})
    return RedirectResponse(f"/chat?pid={participant.pid}", status_code=303)


async def finish(request: Request) -> Response:
    """POST ``/chat/finish``: end the conversation and show the completion code."""
    checked = await _checked(request)
    if isinstance(checked, Response):
        return checked
    state, _, participant = checked
    typed = await asyncio.to_thread(state.store.typed_turns, participant.pid)
    if typed < state.config.study.min_turns:
        return _message(state, request, "Not yet",
                        f"Please chat a little more first ({typed} of {state.config.study.min_turns} messages).",
                        409)  # fmt: skip
    await asyncio.to_thread(
        state.store.complete, participant.pid, participant.completion_code or _completion_code(state)
    )
    state.forget(participant.pid)
    return RedirectResponse(f"/chat?pid={participant.pid}", status_code=303)
