"""Replay figures of the successor study's suggestion protocol (``corsbot replay``, issue 13).

The successor study (active preference elicitation) logs the event ``suggestion`` on a turn after
which the bot asked about one suggested item, and the user's answer on the next turn: ``preference``
with the rated QID ("I like it" -> ``Q172241+``) or ``skip`` (no QID: the log does not say which item
was skipped). :func:`suggestion_figures` compares our replayed records with the logged ones:

* **events agreement without ``suggestion``**: the event sets compared with the suggestion left out of
  both: ``suggestion`` and the ``question`` it comes with (unless the turn also asked another question:
  ``disambiguation`` or ``recommendation`` in the set), so a turn where only the suggestion differs
  counts as agreeing; the plain events agreement is :attr:`logs.compare.Comparison.events_agreement`;
* **suggestion turns**: logged turns with ``suggestion``, how many of ours have it too on the same
  message (``suggestion_matches``);
* **suggestion overlap** (a sanity figure, not a target): of the logged answers that rated the
  suggested item (the turn after a logged ``suggestion``, intent ``preference``, exactly one QID, and a
  message that names no item: at most :data:`MAX_ANSWER_WORDS` words with "it", "this", "that", "yes",
  "no" or only an opinion verb, e.g. "I like it", "I don't like", "Yes, I love it"), how many times our
  record of that message holds the same QID, i.e. our strategy had suggested the same item at that
  turn and the answer rated it. Logged skips are counted (``skip_answers``) but cannot be compared:
  the log does not name the skipped item.

Example:
    >>> suggestion_figures([], []).answers
    0
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from logs.compare import CompareError
from logs.record import LogRecord, conversation_order
from logs.schema import parse_objects, split_list

SUGGESTION = "suggestion"
"""The successor study's event: the bot suggested an item to rate after this turn."""
MAX_ANSWER_WORDS = 6
"""Longest message taken as an answer about the suggested item (longer ones usually name a title)."""

_ANAPHORIC = re.compile(r"\b(it|this|that|yes|yeah|no|nope)\b", re.I)
_BARE_OPINION = re.compile(
    r"^\W*(i\s+)?(do\s*n['’]?o?t\s+|don['’]?t\s+|really\s+)?(like|love|dislike|hate|enjoy|adore)d?\W*$", re.I
)

__all__ = ["MAX_ANSWER_WORDS", "SUGGESTION", "SuggestionFigures", "is_answer_wording", "merge", "suggestion_figures"]


@dataclass(frozen=True, slots=True)
class SuggestionFigures:
    """Raw counts (rates are properties, :func:`merge` sums several files).

    Attributes:
        messages: compared pairs.
        events_matches_without: pairs whose event sets agree once ``suggestion`` is left out.
        suggestion_turns: logged turns with the ``suggestion`` event.
        suggestion_matches: of those, how many of ours have it too.
        our_suggestion_turns: our turns with the ``suggestion`` event.
        answers: logged answers rating the suggested item (see the module docstring).
        same_item: of those, how many our record rated the same QID.
        skip_answers: logged ``skip`` turns right after a logged suggestion.
    """

    messages: int = 0
    events_matches_without: int = 0
    suggestion_turns: int = 0
    suggestion_matches: int = 0
    our_suggestion_turns: int = 0
    answers: int = 0
    same_item: int = 0
    skip_answers: int = 0

    @property
    def events_agreement_without(self) -> float:
        """Events agreement with ``suggestion`` left out (0.0 over no message)."""
        return self.events_matches_without / self.messages if self.messages else 0.0

    @property
    def suggestion_overlap(self) -> float:
        """Share of the logged answers about a suggested item where ours rated the same item."""
        return self.same_item / self.answers if self.answers else 0.0

    def figures(self) -> dict[str, float | int]:
        """Counts and rates as a flat dict."""
        return {
            "events_agreement_without_suggestion": self.events_agreement_without,
            "suggestion_turns": self.suggestion_turns,
            "suggestion_matches": self.suggestion_matches,
            "our_suggestion_turns": self.our_suggestion_turns,
            "suggestion_answers": self.answers,
            "suggestion_same_item": self.same_item,
            "suggestion_overlap": self.suggestion_overlap,
            "suggestion_skip_answers": self.skip_answers,
        }


def is_answer_wording(message: str) -> bool:
    """Whether a message reads as an answer about the item on screen ("I like it", "Dislike it",
    "I don't like"), not as a new preference naming a title (see the module docstring)."""
    words = message.split()
    if not words or len(words) > MAX_ANSWER_WORDS:
        return False
    return bool(_ANAPHORIC.search(message) or _BARE_OPINION.match(message))


def suggestion_figures(ours: Sequence[LogRecord], logged: Sequence[LogRecord]) -> SuggestionFigures:
    """Compare aligned record lists (``ours[k]`` answers the message of ``logged[k]``; one file).

    Raises:
        CompareError: the lists have different lengths.
    """
    if len(ours) != len(logged):
        raise CompareError(f"cannot compare {len(ours)} replayed records with {len(logged)} logged ones")
    without = turns = matches = our_turns = answers = same = skips = 0
    for mine, theirs in zip(ours, logged, strict=True):
        a, b = frozenset(split_list(mine.events)), frozenset(split_list(theirs.events))
        without += _without_suggestion(a) == _without_suggestion(b)
        turns += SUGGESTION in b
        matches += SUGGESTION in b and SUGGESTION in a
        our_turns += SUGGESTION in a
    order = conversation_order(logged)
    for prev, cur in zip(order, order[1:], strict=False):
        before, record = logged[prev], logged[cur]
        if before.user_id != record.user_id or SUGGESTION not in split_list(before.events):
            continue
        if record.intent == "skip":
            skips += 1
            continue
        objects = parse_objects(record.recognized_objects)
        if record.intent != "preference" or len(objects) != 1 or not is_answer_wording(record.message):
            continue
        answers += 1
        same += objects[0][0] in {qid for qid, _ in parse_objects(ours[cur].recognized_objects)}
    return SuggestionFigures(len(logged), without, turns, matches, our_turns, answers, same, skips)


def _without_suggestion(events: frozenset[str]) -> frozenset[str]:
    """The events with the suggestion (and its question, when no other question was asked) left out."""
    if SUGGESTION not in events:
        return events
    asked_else = bool(events & {"disambiguation", "recommendation"})
    return events - {SUGGESTION} - (set() if asked_else else {"question"})


def merge(parts: Iterable[SuggestionFigures]) -> SuggestionFigures:
    """Sum the counts of several files."""
    parts = list(parts)
    return SuggestionFigures(
        *(sum(getattr(p, name) for p in parts) for name in SuggestionFigures.__dataclass_fields__)  # noqa: B009
    )
