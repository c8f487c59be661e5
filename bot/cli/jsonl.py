"""``corsbot chat --jsonl``: the scripted interface (one JSON object per line in, one per reply out).

Input, one object per line::

    {"user": "alice", "text": "I love Stephen King"}
    {"user": "alice", "press": "role:P50@3"}              # a button's payload, as sent with a reply
    {"user": "bob", "text": "I like Dune", "domain": "book"}

``user`` is optional: a line without it is the ``--user`` user's (default ``cli:local``), one user for all
such lines; given, it must be a non-blank string of at most ``bot.cli.args.MAX_USER_KEY`` (128)
characters. Each user is switched to ``--domain`` at their first line
of the run, as plain ``corsbot chat --domain`` does at start (a user known from an earlier run may be
in another domain); a line's own ``domain`` wins, and switches that user to it. A switch is a logged
``/book`` turn whose reply is not written, made only when the user is not in the domain already. A press is
logged with the button's label as the message when the user's last reply offered it, else the
payload; its interaction type is ``mixed``.

Output, one object per input line, in order::

    {"user": "alice", "text": "Got it: 👍 Stephen King. ...", "choices": [{"label": "Like", "payload":
     "like:Q42"}], "image": null, "intent": "preference", "events": ["preference"],
     "recognizedObjects": "Q39829+"}

``intent``, ``events`` and ``recognizedObjects`` are those logged for the turn (dataset format). A line
that is not such an object (a blank line too) gets ``{"error": "line 3: ..."}`` and the next line is read,
so the N-th output line always answers the N-th input line. This format is
kept stable: scripted tests and outside evaluation tools drive the bot through it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, TextIO

from bot.cli.args import check_user_key
from bot.turns import Choice, Reply, Turn
from nlu.understand import DOMAIN_WORDS

if TYPE_CHECKING:
    from bot.dialog.manager import DialogManager


def chat_jsonl(dm: DialogManager, *, user: str, domain: str, stdin: TextIO, stdout: TextIO) -> int:
    """Run the scripted chat until end of input (see the module docstring); returns 0."""
    last_choices: dict[str, tuple[Choice, ...]] = {}
    seen: set[str] = set()  # users who had a line in this run (the first one puts them in ``domain``)
    dm.default_domain = domain
    for number, line in enumerate(stdin, 1):
        try:
            request = _request(line, number, default_user=user)
        except ValueError as exc:
            _write(stdout, {"error": str(exc)})
            continue
        key = request["user"]
        wanted = request.get("domain") or (domain if key not in seen else None)
        seen.add(key)
        if wanted and wanted != dm.current_domain(key):
            dm.handle(Turn(key, f"/{wanted}"))
            last_choices[key] = ()
        if "press" in request:
            payload = request["press"]
            label = next((c.label for c in last_choices.get(key, ()) if c.payload == payload), payload)
            turn = Turn(key, label, payload=payload, interaction_type="mixed")
        else:
            turn = Turn(key, request["text"])
        reply = dm.handle(turn)
        last_choices[key] = reply.choices
        _write(stdout, _answer(dm, key, reply))
    return 0


def _request(line: str, number: int, *, default_user: str) -> dict[str, str]:
    """The line's request (``user``, ``text`` or ``press``, optional ``domain``).

    Raises:
        ValueError: ``line <number>: <what is wrong>``.
    """
    if not line.strip():
        raise ValueError(f"line {number}: empty line (one JSON object per line)")
    try:
        obj = json.loads(line)
    except ValueError:
        raise ValueError(f"line {number}: not JSON") from None
    if not isinstance(obj, dict):
        raise ValueError(f"line {number}: not a JSON object")
    user = obj.get("user", default_user)
    if not isinstance(user, str):
        raise ValueError(f"line {number}: 'user' must be a non-empty string")
    try:
        check_user_key(user)
    except ValueError as exc:
        raise ValueError(f"line {number}: 'user': {exc}") from None
    text, press = obj.get("text"), obj.get("press")
    if (text is None) == (press is None):
        raise ValueError(f"line {number}: give exactly one of 'text' and 'press'")
    if not isinstance(text if press is None else press, str):
        raise ValueError(f"line {number}: 'text' and 'press' must be strings")
    domain = obj.get("domain")
    if domain is not None and domain not in DOMAIN_WORDS:
        raise ValueError(f"line {number}: unknown domain {domain!r} (known: {', '.join(DOMAIN_WORDS)})")
    request = {"user": user, **({"text": text} if press is None else {"press": press})}
    if domain:
        request["domain"] = domain
    return request


def _answer(dm: DialogManager, user: str, reply: Reply) -> dict[str, object]:
    records = dm.last_records(user, 1)
    record = records[0] if records else None
    return {
        "user": user,
        "text": reply.text,
        "choices": [{"label": c.label, "payload": c.payload} for c in reply.choices],
        "image": reply.image,
        "intent": record.intent if record else None,
        "events": [e for e in (record.events.split(", ") if record and record.events else [])],
        "recognizedObjects": record.recognized_objects if record else "",
    }


def _write(stdout: TextIO, obj: dict[str, object]) -> None:
    print(json.dumps(obj, ensure_ascii=False), file=stdout, flush=True)
