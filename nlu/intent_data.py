"""The intent recognizer's labelled examples (issue 24: split from ``nlu.intents``): :class:`IntentExample`, the
DialogFlow agent's training phrases and our small-talk phrases as examples, and their counts.

Reads the agent export (``intents/NAME_usersays_en.json`` + ``NAME.json``) and ``nlu/intent_smalltalk.json``;
adds :class:`IntentExample` values (events unknown, ``validated`` False).

Example:
    >>> [e.intent for e in smalltalk_examples()][:1]   # doctest: +SKIP
    ['smalltalk.greetings.hello']
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from nlu.errors import NluError

__all__ = ["SMALLTALK_PATH", "IntentExample", "agent_examples", "intent_counts", "smalltalk_examples"]


@dataclass(frozen=True, slots=True)
class IntentExample:
    """One labelled user message.

    Attributes:
        text: the user's message, raw.
        contexts: context names active before the message (the previous record's ``contexts``).
        intent: the intent name to predict (dataset vocabulary).
        group: conversation key (e.g. ``"<file>:<userID>"``); cross-validation never splits one.
        domain: ``movie``, ``book`` or ``music`` (reporting only).
        validated: ``toCheck == False`` (inside a cleanly completed task: silver standard).
        events: the system events of the previous turn (the previous record's ``events``), or
            ``None`` when unknown (e.g. DialogFlow training phrases). An addition to DESIGN.md's
            fields, with a default, so positional construction with six fields still works.
    """

    text: str
    contexts: tuple[str, ...]
    intent: str
    group: str
    domain: str
    validated: bool
    events: tuple[str, ...] | None = None


def intent_counts(examples: Iterable[IntentExample]) -> dict[str, int]:
    """``{intent: number of examples}``, most frequent first."""
    return dict(Counter(e.intent for e in examples).most_common())


SMALLTALK_PATH = Path(__file__).with_name("intent_smalltalk.json")
"""Our own small set of small-talk phrases (greetings, thanks, bye, how are you, insults, ...)."""


def agent_examples(agent_dir: Path, *, group: str = "dialogflow-agent") -> list[IntentExample]:
    """Training phrases of a DialogFlow ES agent export as examples (extra training data).

    Reads every ``intents/NAME_usersays_en.json`` (phrases; the parts of annotated phrases are
    joined) and ``intents/NAME.json`` (the intent's name and input ``contexts``, used as the
    example's contexts). Events are unknown (``None``); ``validated`` is False.

    Args:
        agent_dir: the export's root (holding ``intents/``) or the ``intents`` folder itself.
        group: conversation key given to all these examples.

    Returns:
        Examples in file-name order; empty if the folder has no intents.

    Raises:
        NluError: if the folder is missing or a file is not valid JSON.
    """
    agent_dir = Path(agent_dir)
    folder = agent_dir / "intents" if (agent_dir / "intents").is_dir() else agent_dir
    if not folder.is_dir():
        raise NluError(f"no DialogFlow intents folder at {agent_dir}")
    out: list[IntentExample] = []
    for says in sorted(folder.glob("*_usersays_en.json")):
        spec = says.with_name(says.name[: -len("_usersays_en.json")] + ".json")
        try:
            phrases = json.loads(says.read_text(encoding="utf-8"))
            meta = json.loads(spec.read_text(encoding="utf-8")) if spec.is_file() else {}
        except (OSError, ValueError) as exc:
            raise NluError(f"cannot read DialogFlow intent {says}: {exc}") from exc
        name = meta.get("name") or spec.stem
        contexts = tuple(str(c) for c in meta.get("contexts", ()))
        for phrase in phrases:
            text = "".join(str(part.get("text", "")) for part in phrase.get("data", ()))
            if text.strip():
                out.append(IntentExample(text, contexts, name, group, "movie", False, None))
    return out


def smalltalk_examples(path: Path = SMALLTALK_PATH) -> list[IntentExample]:
    """Our small-talk phrases (``{"intent": ["phrase", ...]}``) as context-free examples.

    Raises:
        NluError: if the file is missing or malformed.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return [
            IntentExample(str(text), (), str(intent), "smalltalk", "any", False, None)
            for intent, phrases in data.items()
            for text in phrases
        ]
    except (OSError, ValueError, AttributeError) as exc:
        raise NluError(f"cannot read small-talk phrases {path}: {exc}") from exc
