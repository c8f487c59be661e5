"""The answer to a suggested item (the successor study's protocol, issue 13): ``read_answer``.

While the bot asks about one suggested item ("Do you like Scarface?"), the next message may answer
it, or do something else. :func:`read_answer` decides which, from the words, the spans the entity
linker found and the sentiment recognizer's polarity of a message about the item on screen:

- ``skip``: "Skip", "Skip this", "I don't know it", "I haven't seen it", "what's the next one?",
  "none of them" (the original agent's ``skip`` phrases); a skip phrase with an opinion besides
  ("I haven't seen it but I like the plot") is a rating;
- ``rate``: the message is about the item: a reference to it ("I like it", "I don't like this
  movie", "Yes, I love it"), a bare opinion when nothing is named ("I like", "Dislike"), a bare yes /
  no, also with critique-like additions ("I like it and I like the protagonist", "I don't like it,
  but I like Jason Statham"): :attr:`Answer.polarity` is the item's, :attr:`Answer.others` the other
  things named (a new preference each), :attr:`Answer.roles` the role words with the polarity of
  their clause (("P161", "+") for "and I like the actors": the item's values of that role);
- ``roles``: only role words with an opinion ("I don't like the director"): about the item's values,
  the item itself is not rated;
- ``new``: the message names something else and does not refer to the item ("I like Toy Story"): a
  new preference, which ends the suggestion;
- None: not about the suggestion ("suggest me a movie", "why did you suggest it?", small talk).

Example:
    >>> read_answer("Skip this", named=(), polarity=lambda text: "0").kind
    'skip'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from nlu.textnorm import fold
from nlu.wording import family
from recommender.schema import role_pattern, role_words_for

__all__ = ["Answer", "read_answer", "role_opinions"]

_WORDING = family("answers")
_SKIP = _WORDING.pattern("skip_suggestion")
# A "no" answers unless it is a determiner ("no romcoms please"): not followed by a word other than those that
# go on an answer ("no thanks", "no, I didn't"): a lookahead inside a lookahead, which templates do not say.
_REFERENCE = re.compile(
    _WORDING.source("about_suggestion")
    + rf"|^\W*no\b(?!\s+(?!{_WORDING.alternation('no_followers')}\b)[a-z])"
    + r"|^\W*(👍|👎)"
)
"""A reference to the suggested item, or a yes / no answer opening the message; a "no" that is a determiner ("no
romcoms please", "no horror") answers nothing: it is a request about something else (issue 22)."""
_TIME = _WORDING.pattern("time_phrase")
"""A demonstrative opening a time ("these days"): no reference to the item (issue 22-H)."""
_BARE_OPINION = _WORDING.pattern("bare_opinion")
"""An opinion with no object ("I like", "Dislike"): about the item on screen, when nothing is named."""
_THE_ITEM = _WORDING.pattern("the_item")
""""I liked the movie": the item asked about, when nothing else is named."""
_REFERENCE_WORD = _WORDING.pattern("reference_word")
_OPINION = _WORDING.pattern("opinion_word")
_ROLE_WORDS = role_words_for("movie")  # the successor study was run in the movie domain only
"""Role words of a critique-like addition about the suggested item ("and I like the actors"): the
project's one role vocabulary (``recommender.schema``)."""
# Clauses end at signs or at the clause words of the data (the spans of the role words' clauses).
_CLAUSE = re.compile(rf"\s*(?:[,;.!?]|\b{_WORDING.alternation('clause_words')}\b)\s*")
_ROLE = re.compile(r"\b(?:the|its|his|her|their|this|these)\s+(" + role_pattern("movie") + r")\b")


@dataclass(frozen=True, slots=True)
class Answer:
    """How a message relates to the open suggestion.

    Attributes:
        kind: ``"rate"``, ``"skip"``, ``"new"``, or ``"roles"`` (only role words about the item: "I don't
            like the director"; the item itself is not rated).
        polarity: for ``rate``: ``"+"``, ``"-"``, or ``"0"`` when the words carry no opinion.
        roles: ``(PID, polarity)`` of the role words about the item ("and I like the actors" ->
            ``("P161", "+")``; the polarity of the clause holding the word, else the item's), in order.
        others: spans ``(start, end)`` of the other things the message names.
    """

    kind: str
    polarity: str = "0"
    roles: tuple[tuple[str, str], ...] = ()
    others: tuple[tuple[int, int], ...] = ()


def read_answer(
    text: str,
    *,
    named: Sequence[tuple[int, int]],
    polarity: Callable[[str], str],
) -> Answer | None:
    """Read a message while a suggested item is open (see the module docstring).

    Args:
        text: the message.
        named: spans of the things the entity linker found in it, other than the suggested item.
        polarity: the sentiment recognizer's polarity of a message about the item on screen
            (``"+"``, ``"-"`` or ``"0"``), e.g. ``lambda t: sentiment.message_polarity(t).value``.

    Returns:
        An :class:`Answer`, or None when the message is not about the suggestion.
    """
    others = tuple((a, b) for a, b in named if fold(text[a:b]) not in _ROLE_WORDS)  # "the protagonist" is no title
    masked = fold(_mask(text, others))
    found = role_opinions(masked, polarity)
    skip = _SKIP.search(masked)
    if skip:
        rest = _REFERENCE_WORD.sub(" ", masked[: skip.start()] + " " + masked[skip.end() :])
        said = polarity(rest) if _OPINION.search(rest) else "0"
        if said in ("+", "-"):  # "I haven't seen it but I like the plot": an opinion after all
            return Answer("rate", said, _roles(found, said), others)
        return Answer("skip", others=others)
    if others and not _refers_before(text, others):
        return Answer("new", others=others)  # "Grease is a guilty pleasure, but I love it": "it" is Grease
    if (
        _REFERENCE.search(_TIME.sub(" ", masked))
        or (not others and (_BARE_OPINION.match(masked) or _THE_ITEM.search(masked)))
        or (others and _THE_ITEM.search(fold(text[: min(a for a, _b in others)])))
    ):
        said = polarity(text)
        if said in ("+", "-"):
            return Answer("rate", said, _roles(found, said), others)
        return None  # "why did you suggest this movie?": about it, but no answer
    if others:
        return Answer("new", others=others)
    if any(said in ("+", "-") for said in found.values()):  # "I don't like the director": its director
        return Answer("roles", "0", tuple(found.items()))
    return None


def role_opinions(text: str, polarity: Callable[[str], str]) -> dict[str, str]:
    """Role words of ``text`` about an item ("the director", "its genre") -> the polarity of their clause
    (``"+"``, ``"-"`` or ``"0"``), PID -> polarity in order of appearance."""
    folded = fold(text)
    found: dict[str, str] = {}
    for m in _ROLE.finditer(folded):
        start = max((c.end() for c in _CLAUSE.finditer(folded, 0, m.start())), default=0)
        ends = [c.start() for c in _CLAUSE.finditer(folded, m.end())]
        found.setdefault(_ROLE_WORDS[m.group(1)], polarity(folded[start : ends[0] if ends else len(folded)]))
    return found


def _refers_before(text: str, others: Sequence[tuple[int, int]]) -> bool:
    """The message refers to the suggested item (or answers yes / no) before it names anything else: "I don't
    like it, but I like Jason Statham". A pronoun after a name has that name as its antecedent ("Heat too, loved
    it", "Grease is silly but I love it"): the message is about the name, not the suggestion (issue 22)."""
    before = fold(text[: min(a for a, _b in others)])
    return bool(_REFERENCE.search(_TIME.sub(" ", before)) or _THE_ITEM.search(before))


def _roles(found: dict[str, str], item_polarity: str) -> tuple[tuple[str, str], ...]:
    return tuple((pid, said if said in ("+", "-") else item_polarity) for pid, said in found.items())


def _mask(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` with the named spans blanked (so a title such as "It" or "This Is Us" is no reference)."""
    if not spans:
        return text
    chars = list(text)
    for start, end in spans:
        if 0 <= start <= end <= len(chars):
            chars[start:end] = " " * (end - start)
    return "".join(chars)
