"""The outside evaluator's door (issue 26): the HTTP interface the open user simulators of the field call,
so that simulated users of other projects can hold conversations with corsbot without an annotator.

It follows what UserSimCRS and SimLab (IAI group, on DialogueKit) send to a recommender served over
HTTP:

- ``GET /agent`` answers 200 (UserSimCRS's ``SimulationPlatform.start`` checks the agent is up that way);
- ``POST /agent`` (UserSimCRS's CRS wrapper posts to the agent URI) and ``POST /agent/receive_utterance``
  (SimLab's agent API) take ``{"context": [utterances so far], "message": "user text"}`` (optional
  ``"user_id"``, ``"agent_id"``) and answer with the reply: ``"response"`` (the wrapper reads it) and
  ``"message"`` (SimLab) hold the text, ``"dialogue_acts"`` the reply's acts as DialogueKit's
  ``DialogueAct`` (``intent`` + ``annotations`` of ``slot`` / ``value``, :mod:`bot.sgd`), ``"annotations"``
  the items (``item`` / QID) and ``"metadata"`` what corsbot logged for the user's turn (intent,
  events, recognizedObjects), the reply's buttons and image, and the ``conversation_id``;
- ``POST /agent/feedback`` ``{"conversation_id": ..., "feedback": "satisfied" | "frustrated"}``: the
  conversation's one click (CRS Arena), counted by the console.

The door is stateless for the caller, as those tools are: each request carries the dialogue so far.
corsbot keeps each conversation's state, so it finds the conversation again from the context: after
each reply it remembers the SHA-256 of the context extended by the message and the reply; a request
whose context (less a trailing copy of the message, less a greeting before the first user message)
hashes to a remembered value continues that conversation; an empty or unknown context starts a new
one (a new user key ``sim:<id>``, logged in the study's evaluator session, kept out of the study's
figures). A JSON body is required (a cross-site form cannot send one without CORS, which is not
allowed), so no CSRF token is needed; no cookie is read.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
from collections.abc import Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bot.channels.web.state import WebState, state_of
from bot.channels.web.store import EVALUATOR, Participant, StoredTurn, new_secret
from bot.sgd import items_of, system_acts, user_acts
from logs.store import StoreError

__all__ = ["routes"]

MAX_CONTEXT = 500
"""Utterances of context accepted in one request."""


def routes() -> list[Route]:
    """The door's routes."""
    return [
        Route("/agent", hello, methods=["GET"]),
        Route("/agent", receive, methods=["POST"]),
        Route("/agent/receive_utterance", receive, methods=["POST"]),
        Route("/agent/feedback", feedback, methods=["POST"]),
    ]


async def hello(request: Request) -> Response:
    """GET ``/agent``: the agent is up."""
    study = state_of(request).config.study
    return JSONResponse({"agent": "corsbot", "status": "ok", "study": study.name,
                         "post": {"context": ["..."], "message": "I like The Matrix"}})  # fmt: skip


def _digest(utterances: Sequence[str]) -> str:
    return hashlib.sha256(json.dumps(list(utterances), ensure_ascii=False).encode("utf-8")).hexdigest()


def _error(text: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status)


async def _body(request: Request) -> dict[str, Any] | JSONResponse:
    if "application/json" not in request.headers.get("content-type", ""):
        return _error("send a JSON body (Content-Type: application/json)", 415)
    try:
        body = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError):
        return _error("the body is not JSON")
    if not isinstance(body, dict):
        return _error("the body must be a JSON object")
    return body


async def _conversation(state: WebState, context: list[str], message: str) -> Participant | None:
    """The conversation the context continues, or None for a new one."""
    prefix = context[:-1] if context and context[-1] == message else context
    if not prefix:
        return None
    for candidate in (prefix, prefix[1:]):  # the caller's own greeting may open the context
        if not candidate:
            continue
        pid = await asyncio.to_thread(state.store.context_owner, _digest(candidate))
        if pid is not None:
            return await asyncio.to_thread(state.store.participant, pid)
    return None


async def receive(request: Request) -> Response:
    """POST ``/agent`` or ``/agent/receive_utterance``: the reply to one simulated user message."""
    state = state_of(request)
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    message, context = body.get("message"), body.get("context", [])
    if not isinstance(message, str) or not message.strip():
        return _error("'message' must be a non-empty string")
    if len(message) > state.config.max_text_chars:
        return _error(f"'message' is longer than {state.config.max_text_chars} characters", 413)
    if not isinstance(context, list) or len(context) > MAX_CONTEXT or not all(isinstance(u, str) for u in context):
        return _error(f"'context' must be a list of at most {MAX_CONTEXT} strings")
    participant = await _conversation(state, context, message)
    if participant is None:
        participant = await asyncio.to_thread(
            lambda: state.store.create_participant(
                f"sim-{secrets.token_hex(8)}", study=state.config.study.name, kind=EVALUATOR,
                condition=next(iter(state.config.study.conditions)), secret=new_secret(),
            )
        )  # fmt: skip
        if participant is None:
            return _error("could not start a conversation, try again", 503)
    blocked = state.limited("turn", participant.pid)
    if blocked is not None:
        return blocked
    try:
        turn = await state.intake.turn(participant, message.strip(), None, interaction="NL")
    except StoreError:
        return _error("the message could not be stored, try again", 503)
    reply_text = turn.reply.text if turn.reply else ""
    prefix = context[:-1] if context and context[-1] == message else context
    await asyncio.to_thread(state.store.remember_context, _digest([*prefix, message, reply_text]), participant.pid)
    return JSONResponse(_answer(participant, turn))


def _answer(participant: Participant, turn: StoredTurn) -> dict[str, Any]:
    reply, annotation = turn.reply, turn.annotation
    text = reply.text if reply else ""
    events = annotation.events if annotation else ()
    objects = annotation.objects if annotation else ""
    acts = system_acts(events, reply, objects) if reply else []
    items = items_of(reply.choices) if reply else ()
    return {
        "response": text,
        "message": text,
        "dialogue_acts": [a.to_dialoguekit() for a in acts],
        "annotations": [{"key": "item", "value": q} for q in items],
        "metadata": {
            "conversation_id": participant.pid,
            "items": list(items),
            "image": reply.image if reply else None,
            "choices": [{"label": c.label, "payload": c.payload} for c in reply.choices] if reply else [],
            "user_intent": annotation.intent if annotation else "",
            "user_acts": [a.to_dialoguekit() for a in user_acts(annotation.intent, objects)] if annotation else [],
            "events": list(events),
            "recognizedObjects": objects,
            "domain": annotation.domain if annotation else "",
        },
    }


async def feedback(request: Request) -> Response:
    """POST ``/agent/feedback``: the conversation's one satisfied / frustrated click."""
    state = state_of(request)
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    pid = body.get("conversation_id")
    found = await asyncio.to_thread(state.store.participant, pid) if isinstance(pid, str) else None
    if found is None or found.kind != EVALUATOR or found.study != state.config.study.name:
        return _error("unknown conversation_id", 404)
    try:
        stored = await asyncio.to_thread(state.store.give_feedback, found.pid, str(body.get("feedback", "")))
    except ValueError as exc:
        return _error(str(exc))
    return JSONResponse({"stored": stored, "conversation_id": found.pid})
