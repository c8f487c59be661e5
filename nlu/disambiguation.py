"""Build and answer disambiguation questions: which item (F30) and which role (property type).

Two kinds of question, as in the released study:

- **item**: a mention whose top candidates are close ("I love the Avengers") ->
  options "The Avengers (2012 film)", "The Avengers (1998 film)", ... plus "none of these";
- **role** (``property_type_disambiguation``): a person who is a value of several properties
  ("I like Tom Cruise") -> options "actor", "producer", plus "none of these".

An answer is recognised by one parser, :func:`parse_option` (the bot's, through
``nlu.understand``; :func:`parse_answer` reads the answers of this module's questions with it, and
``corsbot nlu evaluate-entities`` scores it): button payload, number ("2", "#2", "2nd", "the second
one"), year ("2012", "the 2012 one"), role word ("as an actor", "director"), label ("The Avengers
1998", "Walt Disney", with typos via ``rapidfuzz``) or "none of these" ("none of them", "neither",
"no", "other"). Anything else is not an answer: the dialog manager then treats the message as a new
request and stores nothing (ignoring a question never corrupts the profile).

Payloads are short ids (``"d:1"``, ``"d:none"``; F08: at most 64 bytes), never labels.

Example:
    >>> q = item_question(mention, kb)                      # doctest: +SKIP
    >>> [o.display for o in q.options]                       # doctest: +SKIP
    ['The Avengers (2012 film)', 'The Avengers (1998 film)']
    >>> parse_answer(q, "the 1998 one").value                # doctest: +SKIP
    'Q1125729'
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from rapidfuzz import fuzz

from nlu.linker import Candidate, Mention, entity_year
from nlu.textnorm import fold
from nlu.wording import family
from recommender.schema import role_name, role_words

logger = logging.getLogger(__name__)

__all__ = [
    "YES_WORDS",
    "Choice",
    "parse_option",
    "Answer",
    "AnswerKind",
    "MAX_OPTIONS",
    "NONE_PAYLOAD",
    "Option",
    "Question",
    "QuestionKind",
    "item_question",
    "needs_role_question",
    "parse_answer",
    "role_label",
    "role_question",
]

MAX_OPTIONS = 6
"""Options listed in one question (plus "none of these"): the bot's limit too (``bot.dialog.questions``)."""
PAYLOAD_PREFIX = "d:"
NONE_PAYLOAD = "d:none"
LABEL_MATCH_CUTOFF = 80.0
"""Minimum ``token_set_ratio`` for an answer to pick an option by its label."""

_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")

_ANSWERS = family("answers")
YES_WORDS: tuple[str, ...] = _ANSWERS.words("yes_words")
"""Words that open a yes ("yes please", "sure"); data in ``nlu/wording/answers.toml``."""
# "\b" after the word as typed: a thumb alone is no yes here (it needs a word after it).
_YES = re.compile(r"^(" + "|".join(map(re.escape, YES_WORDS)) + r")\b", re.I)
_NO = _ANSWERS.pattern("option_no")
_NONE_OF_THEM = _ANSWERS.pattern("option_none")
_ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth")
_ORDINAL_DIGITS = {"1st": "first", "2nd": "second", "3rd": "third", "4th": "fourth", "5th": "fifth", "6th": "sixth"}
_NUMBER_WORDS = ("one", "two", "three", "four", "five", "six")

Choice = int | str | None
"""What an answer chooses: an option index, ``"none"`` (none of these), or None (not an answer)."""


def parse_option(
    kind: str | None, text: str, payload: str | None, options: Sequence[Sequence[str]], *, listed: bool = True
) -> Choice:
    """The option a reply chooses: the bot's one answer parser (``corsbot nlu evaluate-entities`` scores it too).

    Args:
        kind: ``"item"`` (which one?), ``"role"`` (as actor or producer?) or ``"confirm"`` (did
            you like it?); critique and deletion questions are read as ``"item"``.
        text: the reply as typed (or the pressed button's label).
        payload: the pressed button's payload without its question number (``"pick:1"``,
            ``"role:P161"``, ``"none"``, ``"yes"``, ``"no"``), or None for typed text.
        options: per option, the words that name it: its label first, then its full option name
            and qualifiers only it has ("1984", "David Lynch"); for a role question its role name,
            then its PID, then its role words.
        listed: the options were shown to the user (a question). False for the other readings of a
            preference just stored, which the user never saw: a number or an ordinal ("2", "the
            second one") then picks nothing, only words that name a reading ("the 1998 one").

    Returns:
        An option index; ``"none"`` for "none of these" (a "no" too, except at a yes/no
        question, where yes = 0 and no = 1); None when the reply does not answer. Typed replies
        are read in order: yes/no (confirm), none, a number ("2", "#2"), an ordinal ("the
        second one", "last"), a year naming one option ("the 1998 one"), then the closest option
        words (``rapidfuzz`` ratio >= 80, or the words contained in the reply).
    """
    if payload:
        name, _, value = payload.partition(":")
        if name == "none":
            return "none"
        if name == "yes":
            return 0
        if name == "no":
            return 1 if kind == "confirm" else "none"
        if name == "pick" and value.isdigit() and int(value) < max(len(options), 1):
            return int(value)
        if name == "role":  # options of a role question name the PID second
            for i, words in enumerate(options):
                if value in words[1:2]:
                    return i
        return None
    folded = fold(text)
    if kind == "confirm":
        return 0 if _YES.match(folded) else 1 if _NO.match(folded) else None
    if _NONE_OF_THEM.search(folded) or _NO.fullmatch(folded.strip(" .!")):
        return "none"
    number = re.fullmatch(r"\s*(?:number\s*|option\s*|n\.?\s*|#)?(\d{1,2})(?:st|nd|rd|th)?\s*[.)]?\s*", folded)
    if number and not listed:
        return None  # "2" with no list on screen: no position to pick
    if number and 1 <= int(number.group(1)) <= len(options):
        return int(number.group(1)) - 1
    ordinal = re.search(r"\b(first|second|third|fourth|fifth|sixth|last|1st|2nd|3rd|4th|5th|6th)\b", folded)
    if ordinal is None and folded.strip(" .!?") in _NUMBER_WORDS:  # "two" alone
        ordinal = re.search(r"\w+", _ORDINAL_WORDS[_NUMBER_WORDS.index(folded.strip(" .!?"))])
    if ordinal and len(folded.split()) <= 4 and options and listed:
        word = ordinal.group(0 if ordinal.lastindex is None else 1)
        index = len(options) - 1 if word == "last" else _ORDINAL_WORDS.index(_ORDINAL_DIGITS.get(word, word))
        if index < len(options):
            return index
    year = _YEAR.search(folded)
    if year:
        hits = [i for i, words in enumerate(options) if re.search(rf"\b{year.group(1)}\b", " ".join(words[1:]))]
        if len(hits) == 1:
            return hits[0]
    scores = [0.0] * len(options)
    for i, words in enumerate(options):
        for word in words:
            if not word:
                continue
            score = fuzz.ratio(fold(word), folded)
            if fold(word) == folded.strip(" .!?,"):
                score = WHOLE_REPLY_SCORE  # "Fast & Furious!": the name and nothing else
            if fold(word) and re.search(rf"\b{re.escape(fold(word))}\b", folded):
                score = max(score, 95.0)
            scores[i] = max(scores[i], score)
    for i, own in enumerate(_own_words(options)):  # "the tarkovsky one": a word only this option's qualifiers have
        if any(re.search(_OWN_WORD_REFERENCE.format(w=re.escape(w)), folded) for w in own):
            scores[i] = max(scores[i], OWN_WORD_SCORE)
    best_score = max(scores, default=0.0)
    if best_score == WHOLE_REPLY_SCORE and listed:
        # the reply is an option's name and nothing else ("Fast & furious" at a list of the film and its series,
        # both so named): the first of them, the one ranked higher; the reply says which was taken
        return scores.index(best_score)
    if best_score < LABEL_MATCH_CUTOFF or scores.count(best_score) > 1:
        return None  # "yeah solaris is great" at "Which Solaris?": words every option has choose none (issue 22-D)
    return scores.index(best_score)


WHOLE_REPLY_SCORE = 100.0
"""The score of an option whose name the reply is, letter for letter once folded."""


OWN_WORD_SCORE = 90.0
"""The score of an option whose qualifiers alone have a word of the reply ("the tarkovsky one"): above the cutoff,
below a label or qualifier typed in full (95)."""
_OWN_WORD_REFERENCE = r"\b(?:by|from|with)\s+(?:\w+\s+)?{w}\b|\b{w}(?:'s|\s+one|\s+version)\b"
"""How a reply names an option by a word of its qualifiers: "the whedon one", "chechik's", "the one by whedon"
(not "Tarkovsky is a genius", an opinion of the person)."""
_OWN_WORD_MIN = 4
"""Letters of a word of a qualifier that names its option alone ("lynch"; not "film", "by", "the")."""


def _own_words(options: Sequence[Sequence[str]]) -> list[set[str]]:
    """Per option, the words of its qualifiers (not of its label) that no other option has."""
    words = [
        {w for q in opt[1:] for w in re.findall(r"[a-z]+", fold(q)) if len(w) >= _OWN_WORD_MIN}
        - set(re.findall(r"[a-z]+", fold(opt[0] if opt else "")))
        for opt in options
    ]
    return [mine - set().union(*(w for k, w in enumerate(words) if k != i)) for i, mine in enumerate(words)]


class QuestionKind(Enum):
    """What a disambiguation question asks for."""

    ITEM = "item"
    ROLE = "role"


class AnswerKind(Enum):
    """Outcome of :func:`parse_answer`."""

    CHOSEN = "chosen"  # ``value`` holds the QID (item) or PID (role)
    NONE = "none"  # "none of these"
    UNKNOWN = "unknown"  # not an answer to the question


@dataclass(frozen=True, slots=True)
class Option:
    """One choice of a question.

    Attributes:
        value: the QID (item question) or PID (role question) chosen by this option.
        display: text shown to the user ("The Avengers (2012 film)", "actor").
        payload: button id (``"d:1"``...), at most 64 bytes.
        year: the item's year, if known (answers like "the 2012 one").
        label: the plain label ("The Avengers"), used to match typed answers.
    """

    value: str
    display: str
    payload: str
    year: int | None = None
    label: str = ""


@dataclass(frozen=True, slots=True)
class Question:
    """A disambiguation question about one mention.

    Attributes:
        kind: item or role question.
        mention: the text the user typed ("the Avengers", "Tom Cruise").
        options: the choices, best first; "none of these" is implicit (:data:`NONE_PAYLOAD`).
        subject: for a role question, the QID of the person; else None.
    """

    kind: QuestionKind
    mention: str
    options: tuple[Option, ...]
    subject: str | None = None

    @property
    def none_payload(self) -> str:
        """Payload of the "none of these" button."""
        return NONE_PAYLOAD


@dataclass(frozen=True, slots=True)
class Answer:
    """Parsed reply to a :class:`Question`: ``kind`` and, when CHOSEN, the option's ``value``."""

    kind: AnswerKind
    value: str | None = None


def role_label(pid: str) -> str:
    """Human name of a property ("P161" -> "actor"): ``recommender.schema.role_name``."""
    return role_name(pid)


_DOMAIN_TYPE = {"movie": "film", "book": "book", "music": "music"}
_KINDS = (
    "animated film",
    "documentary film",
    "short film",
    "television series",
    "miniseries",
    "film series",
    "film",
    "novel series",
    "novel",
    "short story",
    "poem",
    "play",
    "book",
    "comic",
    "album",
    "single",
    "song",
    "band",
    "musical group",
    "rapper",
    "singer",
    "musician",
    "actor",
    "actress",
    "director",
    "writer",
    "novelist",
    "poet",
    "company",
    "genre",
)
_WIKI_QUALIFIER = re.compile(r"_\(([^)]*)\)$")


def _describe(kb: Any, cand: Candidate, year: int | None) -> str:
    """Short type text for an option: "2012 film", "actor, producer", a short description.

    Items: the Wikipedia title's qualifier when there is one ("The_Avengers_(2012_film)" ->
    "2012 film"), else year + the first type word of the description, else the domain's noun.
    Non-items: their role names, else the start of the description.
    """
    if cand.is_item:
        try:
            details = kb.details(cand.qid)
        except Exception:  # noqa: BLE001 - decoration only
            details = None
        wiki = getattr(details, "wikipedia", None) or ""
        match = _WIKI_QUALIFIER.search(wiki)
        if match:
            return match.group(1).replace("_", " ")
        desc = (cand.description or "").casefold()
        kind = next((k for k in _KINDS if re.search(rf"\b{k}\b", desc)), None)
        kind = kind or _DOMAIN_TYPE.get(getattr(kb, "domain", ""), "item")
        if year:
            return f"{year} {kind}"
        if cand.description and len(cand.description) <= 40:
            return cand.description
        return kind
    if cand.roles:
        return ", ".join(dict.fromkeys(role_label(p) for p in cand.roles[:3]))
    return (cand.description or "").strip()[:40]


def item_question(mention: Mention, kb: Any, *, limit: int = MAX_OPTIONS) -> Question:
    """Question listing the mention's top candidates with year and type.

    Args:
        mention: a mention (usually ``ambiguous``) with at least one candidate.
        kb: the knowledge base (``details(qid).year`` is used when present).
        limit: how many candidates to list (the rest are dropped).

    Returns:
        An item :class:`Question`; displays are made unique (description or QID appended).
    """
    options = []
    for n, cand in enumerate(mention.candidates[:limit], start=1):
        year = entity_year(kb, cand.qid)
        kind = _describe(kb, cand, year)
        display = f"{cand.label} ({kind})" if kind else cand.label
        options.append(Option(cand.qid, display, f"{PAYLOAD_PREFIX}{n}", year, cand.label))
    seen: dict[str, int] = {}
    for opt in options:
        seen[opt.display] = seen.get(opt.display, 0) + 1
    unique = tuple(
        opt
        if seen[opt.display] == 1
        else Option(opt.value, f"{opt.display} [{opt.value}]", opt.payload, opt.year, opt.label)
        for opt in options
    )
    return Question(QuestionKind.ITEM, mention.text, unique)


def needs_role_question(candidate: Candidate) -> bool:
    """True when a non-item entity is a value of several properties (ask which role)."""
    return not candidate.is_item and len(set(candidate.roles)) > 1


def role_question(candidate: Candidate, *, limit: int = MAX_OPTIONS) -> Question:
    """Question listing the role names of a person ("actor", "producer").

    Args:
        candidate: the chosen entity; its ``roles`` are the options (most frequent first).
        limit: maximum roles listed.

    Returns:
        A role :class:`Question` whose option values are PIDs.
    """
    options = []
    for n, pid in enumerate(dict.fromkeys(candidate.roles).keys(), start=1):
        if n > limit:
            break
        name = role_label(pid)
        options.append(Option(pid, name, f"{PAYLOAD_PREFIX}{n}", None, name))
    return Question(QuestionKind.ROLE, candidate.label, tuple(options), subject=candidate.qid)


def parse_answer(question: Question, text: str | None, *, payload: str | None = None) -> Answer:
    """Recognise the user's reply to ``question`` with the bot's one answer parser, :func:`parse_option`.

    The options are named by their label, display and year (item questions) or their role name,
    PID and role words (role questions); a button payload ``d:<n>`` / ``d:none`` is the bot's
    ``pick:<n-1>`` / ``none``.

    Args:
        question: the question asked.
        text: the reply as typed (may be None for a pure button press).
        payload: the button payload, if a button was pressed.

    Returns:
        :class:`Answer`; UNKNOWN when the reply does not answer the question.
    """
    options = question.options
    pressed = None
    if payload == NONE_PAYLOAD:
        pressed = "none"
    elif payload:
        pressed = next((f"pick:{i}" for i, opt in enumerate(options) if opt.payload == payload), None)
    if question.kind is QuestionKind.ROLE:
        words = [[opt.display, opt.value, *role_words(opt.value)] for opt in options]
    else:
        words = [[opt.label, opt.display, *([str(opt.year)] if opt.year else [])] for opt in options]
    if pressed is None and not (text or "").strip(" .!?"):
        return Answer(AnswerKind.UNKNOWN)
    choice = parse_option("role" if question.kind is QuestionKind.ROLE else "item", text or "", pressed, words)
    if choice == "none":
        return Answer(AnswerKind.NONE)
    if isinstance(choice, int):
        return Answer(AnswerKind.CHOSEN, options[choice].value)
    return Answer(AnswerKind.UNKNOWN)
