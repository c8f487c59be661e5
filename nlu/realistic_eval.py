"""Scoring of ``corsbot nlu evaluate-realistic``: what users get from sentences typed the way people talk (issue 12).

The test set (``tests/data/realistic/``, see its README) gives per sentence the domain, what is on
screen (``context``), the gold intent and the intended entities with their polarity (``+``, ``-``
or ``ask``: a hedge, the bot must ask or store nothing). The driver (``bot/cli/realistic.py``) sends
each sentence to a fresh user of the real dialog manager, answers at most one reasonable question
per intended entity (the option that names it, "yes"/"no" as the gold polarity says, the first role),
and hands a :class:`TurnOutcome` per sentence to :func:`score`. This module only scores: it never
drives the dialog, so ``nlu`` does not import ``bot``.

Metrics (the last line ``understanding: sentences=N preference_recall=X linked_in_kb=Y wrong_links=W
polarity=Z other_intents=V spurious_mentions=S questions_per_turn=Q``):

- ``preference_recall``: share of preference sentences the bot handled as a preference (a
  preference intent, or something stored, or a preference question asked);
- ``linked_in_kb``: share of intended entities present in the domain's KB that end up stored, directly
  or after one reasonable question (QIDs compared as the KB merged them: ``KnowledgeBase.canonical``);
- ``wrong_links``: share of intended entities (in the KB or not) for which another entity was stored
  instead (per sentence, unmatched stored entities are paired with unmatched intended ones);
- ``polarity``: over the stored intended entities in the KB: the stored sign is the gold one; for a
  gold ``ask`` the sign must come from the user's answer to a yes/no question, never from the
  sentence alone;
- ``other_intents``: accuracy on the non-preference turns (the logged intent is the gold one; any
  small-talk intent counts for a small-talk turn) with nothing stored;
- ``spurious_mentions``: per sentence, stored entities nobody intended plus questions about them;
- ``questions_per_turn``: preference questions in the bot's first reply, per sentence.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from nlu.errors import NluError

__all__ = [
    "GoldEntity",
    "RealisticSentence",
    "Scores",
    "TurnOutcome",
    "load_sentences",
    "score",
    "PREFERENCE_INTENTS",
]

PREFERENCE_INTENTS = frozenset(
    {
        "preference",
        "preference - disambiguation",
        "preference - yes",
        "preference - no",
        "request_recommendation - preference",
    }
)
"""Logged intents that mean "the turn was read as an opinion"."""


@dataclass(frozen=True, slots=True)
class GoldEntity:
    """One intended entity: label, kind (item/person/band/genre/series), polarity (+, -, ask), QID or None."""

    label: str
    kind: str
    polarity: str
    qid: str | None
    mention: str


@dataclass(frozen=True, slots=True)
class RealisticSentence:
    """One line of the test set (fields as in ``tests/data/realistic/README.md``)."""

    id: str
    domain: str
    context: str
    kind: str
    intent: str
    text: str
    entities: tuple[GoldEntity, ...]
    tags: tuple[str, ...]


@dataclass(slots=True)
class TurnOutcome:
    """What the dialog did with one sentence.

    Attributes:
        intent: the intent logged for the sentence's turn.
        stored: ``(qid, sign, confirmed)`` for every opinion stored by the turn and by the answers
            to its questions; ``confirmed`` = the sign came from a yes/no answer.
        questions: preference questions open after the first reply (0 or 1).
        asked_preference: the first reply asked a preference question (item, role or yes/no).
        stray_questions: questions about something no intended entity names.
        reply: the first reply's text (for the error report).
    """

    intent: str
    stored: list[tuple[str, str, bool]] = field(default_factory=list)
    questions: int = 0
    asked_preference: bool = False
    stray_questions: int = 0
    reply: str = ""


@dataclass(slots=True)
class Scores:
    """Counts behind the ``understanding:`` line (see the module docstring)."""

    sentences: int = 0
    preference_sentences: int = 0
    preference_hits: int = 0
    in_kb: int = 0
    in_kb_stored: int = 0
    intended: int = 0
    wrong: int = 0
    polarity_total: int = 0
    polarity_right: int = 0
    other: int = 0
    other_right: int = 0
    spurious: int = 0
    questions: int = 0
    errors: list[dict[str, object]] = field(default_factory=list)

    @staticmethod
    def _ratio(a: int, b: int) -> str:
        return f"{a / b:.3f}" if b else "0.000"

    def line(self) -> str:
        """``sentences=N preference_recall=X ... questions_per_turn=Q`` (without the ``understanding:`` name)."""
        n = self.sentences
        return (
            f"sentences={n} preference_recall={self._ratio(self.preference_hits, self.preference_sentences)}"
            f" linked_in_kb={self._ratio(self.in_kb_stored, self.in_kb)}"
            f" wrong_links={self._ratio(self.wrong, self.intended)}"
            f" polarity={self._ratio(self.polarity_right, self.polarity_total)}"
            f" other_intents={self._ratio(self.other_right, self.other)}"
            f" spurious_mentions={self._ratio(self.spurious, n)}"
            f" questions_per_turn={self._ratio(self.questions, n)}"
        )


def load_sentences(path: Path) -> list[RealisticSentence]:
    """Read a test-set file (JSON lines).

    Raises:
        NluError: the file is missing or a line is not a valid sentence (names the line).
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise NluError(f"cannot read the realistic test set {path}: {exc}") from exc
    out = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            entities = tuple(
                GoldEntity(str(e["label"]), str(e["kind"]), str(e["polarity"]), e.get("qid"), str(e.get("mention", "")))
                for e in obj.get("entities", ())
            )
            out.append(
                RealisticSentence(
                    str(obj["id"]),
                    str(obj["domain"]),
                    str(obj.get("context", "start")),
                    str(obj["kind"]),
                    str(obj["intent"]),
                    str(obj["text"]),
                    entities,
                    tuple(str(t) for t in obj.get("tags", ())),
                )
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise NluError(f"{path}:{number}: not a test sentence ({exc})") from exc
    return out


def score(
    pairs: Iterable[tuple[RealisticSentence, TurnOutcome]],
    in_kb: Callable[[str, str], bool],
    canonical: Callable[[str, str], str] | None = None,
) -> Scores:
    """Score the outcomes of the sentences.

    Args:
        pairs: ``(sentence, outcome)`` per sentence.
        in_kb: ``in_kb(domain, qid)``: the QID is in that domain's KB (the one the bot runs with).
        canonical: ``canonical(domain, qid)``: the entity a QID became in that KB (near-duplicate
            genres are merged: ``KnowledgeBase.canonical``), so that a gold QID of a merged genre
            ("crime fiction") matches the genre the bot stores; None compares QIDs as they are.

    Returns:
        :class:`Scores`; ``errors`` lists the sentences with any miss (for the report).
    """
    s = Scores()
    for sentence, outcome in pairs:
        s.sentences += 1
        s.questions += outcome.questions
        if canonical is not None:
            domain = sentence.domain
            entities = tuple(replace(e, qid=canonical(domain, e.qid)) if e.qid else e for e in sentence.entities)
            sentence = replace(sentence, entities=entities)
            outcome = replace(outcome, stored=[(canonical(domain, q), sign, c) for q, sign, c in outcome.stored])
        stored: dict[str, tuple[str, bool]] = {}
        for qid, sign, confirmed in outcome.stored:
            stored.setdefault(qid, (sign, confirmed))
        gold_qids = {e.qid for e in sentence.entities if e.qid}
        extra = [q for q in stored if q not in gold_qids]
        problems: list[str] = []
        if sentence.kind == "preference":
            s.preference_sentences += 1
            hit = outcome.intent in PREFERENCE_INTENTS or bool(outcome.stored) or outcome.asked_preference
            s.preference_hits += hit
            if not hit:
                problems.append("not read as a preference")
        else:
            s.other += 1
            right = outcome.intent == sentence.intent or (
                outcome.intent.startswith("smalltalk.") and sentence.intent.startswith("smalltalk.")
            )
            right = right and not outcome.stored
            s.other_right += right
            if not right:
                problems.append(f"intent {outcome.intent} (gold {sentence.intent})")
        missed = 0
        for entity in sentence.entities:
            s.intended += 1
            got = stored.get(entity.qid) if entity.qid else None
            if got is None:
                missed += 1
            if entity.qid and in_kb(sentence.domain, entity.qid):
                s.in_kb += 1
                if got is None:
                    problems.append(f"not stored: {entity.label} {entity.qid}")
                    continue
                s.in_kb_stored += 1
                s.polarity_total += 1
                sign, confirmed = got
                right = confirmed if entity.polarity == "ask" else sign == entity.polarity
                s.polarity_right += right
                if not right:
                    problems.append(f"polarity {sign} (gold {entity.polarity}) for {entity.label}")
        wrong = min(len(extra), missed)
        s.wrong += wrong
        spurious = len(extra) - wrong + outcome.stray_questions
        s.spurious += spurious
        if extra:
            problems.append(f"stored not intended: {', '.join(extra)}")
        if outcome.stray_questions:
            problems.append("asked about something not intended")
        if problems:
            s.errors.append(
                {
                    "id": sentence.id,
                    "text": sentence.text,
                    "intent": outcome.intent,
                    "stored": [f"{q}{sign}" for q, (sign, _c) in stored.items()],
                    "gold": [f"{e.label} {e.qid}{e.polarity}" for e in sentence.entities],
                    "problems": problems,
                    "reply": outcome.reply,
                    "tags": list(sentence.tags),
                }
            )
    return s


def by_group(
    pairs: Sequence[tuple[RealisticSentence, TurnOutcome]],
    key: Callable[[RealisticSentence], str],
    in_kb: Callable[[str, str], bool],
    canonical: Callable[[str, str], str] | None = None,
) -> dict[str, Scores]:
    """:func:`score` per group (e.g. per domain or per first tag), groups in sorted order."""
    groups: dict[str, list[tuple[RealisticSentence, TurnOutcome]]] = {}
    for pair in pairs:
        groups.setdefault(key(pair[0]), []).append(pair)
    return {name: score(groups[name], in_kb, canonical) for name in sorted(groups)}
