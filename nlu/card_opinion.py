"""An opinion of the card on screen, in any words (issue 22): ``rates_card``.

People answer a recommendation card with what they think of it, in chat words the intent classifier
learned otherwise: "seen it, hated it honestly" (heard as a skip: "I've seen it"), "already read it, loved
it", "boring 🥱" (heard as a "yes"), "seen it, it was great but way too long" (heard as details), "Not my
thing" (a preference naming nothing). A stated opinion that names nothing else rates the card, whatever
was heard: an experience alone ("already seen it") skips, one with an opinion rates. None of these is one:

- a request for another item ("not for me, another one", "meh, next", "skip it"): a skip;
- a declined offer without a judgement ("nah not my thing"): a skip; "nah, hated that one", "meh, not for me" are
  ratings, "meh" a hedge (asked: "Did you like X?", issue 22);
- a question or request ("is it any good?", "can you recommend me a film?"), a farewell ("Great, thanks! Bye");
- an opinion with an object of its own ("i love spirited away") or a subject of its own ("folklore is her
  best album"): about a name the linker did not find;
- what the released study's agent logged otherwise at a card, kept for its replay: small talk ("Good film")
  and the card's fallback ("I dislike"), unless the words say the user knows the item ("seen it, it's good").

Only the lexicon's cues count (``nlu.sentiment.SentimentRecognizer.has_cue``), never VADER's score alone
("no thanks"). The word lists are data (``nlu/wording/card.toml``, issue 24).

Example:
    >>> from nlu.sentiment import SentimentRecognizer
    >>> rates_card("seen it, hated it honestly", "seen it, hated it honestly",
    ...            intent="request_recommendation - skip", phrased="request_recommendation - skip",
    ...            sentiment=SentimentRecognizer())
    True
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from logs.schema import Intent, is_smalltalk
from nlu.opinion_scope import degree_phrases, opens_own_subject
from nlu.wording import family
from recommender.schema import DOMAINS, role_pattern

__all__ = ["TO_THE_BOT", "judges_people_only", "rates_card", "skips_card"]

CARD_OPINION_INTENTS = frozenset(
    {Intent.REC_SKIP.value, Intent.FALLBACK.value, Intent.PREFERENCE.value, Intent.REC_DETAILS.value}
)
"""Intents a stated opinion of the card overrules: what the classifier hears in "seen it, hated it" (a skip),
"seen it, it was great but way too long" (details), "Not my thing" (a preference naming nothing). The card's
own fallback stays one: the released study's agent did not understand "I dislike" at a card either, and its
replay is the reference (an overrule there lowered its figures)."""
MISHEARD_INTENTS = frozenset({Intent.REC_WHY.value, Intent.REC_TRAILER.value, Intent.RECOMMENDATION.value})
"""Intents a classifier may hear in a judgement of the card that has none of their words ("ya this is good" as
"why?", "nah thats mid" as a request): the judgement rates the card."""
APPRAISALS = {"smalltalk.appraisal.good": "+", "smalltalk.appraisal.bad": "-"}
"""Small-talk appraisals and the sign they hear: one the lexicon contradicts ("nah thats mid" heard as "good")
was misheard, and the judgement rates the card."""
_WORDING = family("card")
NOT_UNDERSTOOD = frozenset({Intent.REC_FALLBACK.value, Intent.REC_CRITIQUING_FALLBACK.value, Intent.FALLBACK.value})
CARD_REFERENCE = _WORDING.pattern("card_reference")
"""Words that refer to the card in an opinion of it ("hated that one", "gr8 movie"; "not my style": none)."""
OPINION_OBJECT = _WORDING.pattern("opinion_object")
"""An opinion verb with an object of its own ("i love spirited away"): about that, not the card."""
MAX_BARE_CARD_OPINION = 5
"""Words of an opinion of the card that does not refer to it ("boring 🥱", "Not my style", "Can't say I'm a fan")."""
ASKING = _WORDING.pattern("asking")
"""A question or a request at a card ("Can your recommend me a film?"): the lexicon's "recommend" is no opinion."""
ANOTHER = _WORDING.pattern("another")
"""A request for another item ("not for me, another one", "meh, next one", "skip it"): a skip, whatever the
opinion."""
DECLINING = _WORDING.pattern("declining")
"""A declining opener ("nah not my thing"): the offer declined, a skip unless a clear judgement follows."""
STATED_VERB = _WORDING.pattern("stated_verb")
"""A stated opinion verb in any chat spelling ("I dislike", "Lika", "luv"): at the card's fallback, the study's
agent's reading is kept."""
EXPERIENCED = _WORDING.pattern("experienced")
"""Words saying the user knows the item on screen ("seen it, hated it"): the opinion is a rating of it."""
QUESTION_WORDS = _WORDING.pattern("question_words")
"""Words of a question ("what makes you think I'd like it"): no judgement misheard as a question."""
CLOSING = _WORDING.pattern("closing")
"""Words that close a conversation: "Great, thanks! Bye" is a farewell, not a rating of the card."""
TO_THE_BOT = _WORDING.pattern("to_the_bot")
"""A compliment to the bot itself ("You have good taste lol"): small talk, no rating of the card (issue 22-H)."""
THE_WORK = _WORDING.pattern("the_work")
"""Words naming the work on screen itself ("it", "the book"): a critique without them judges only the people it
names by role ("can't stand that author")."""
SKIPPING_CLOSE = _WORDING.pattern("skipping_close")
"""A message ending with a request for the next item ("... lol. skip"): a skip of the card."""


def skips_card(folded: str, content: str, *, sentiment: Any, rated: bool = False) -> bool:
    """True if the message passes over the card on screen (issue 22-D): it ends asking for the next item
    ("u just asked me about that one lol. skip"), or declines it with no judgement ("nah not my thing":
    :data:`DECLINING` and nothing that judges; "meh" leans to a dislike: issue 22-F) unless the classifier
    heard a rating (``rated``: "nope, not feeling this" is a dislike). The caller checks that a card is on screen, no question is open and nothing else is
    named; :func:`rates_card` was asked first (a judgement rates the card)."""
    if SKIPPING_CLOSE.search(folded) and not ASKING.search(folded):
        return True
    if rated or not DECLINING.match(folded) or CLOSING.search(folded) or ASKING.search(folded):
        return False
    return not _judges(sentiment, content, strong=True)


def _judges(sentiment: Any, content: str, *, strong: bool, experienced: bool = False) -> bool:
    """The message judges the card: a cue of the lexicon (with ``strong``, a stated or judging word, or a hedge
    that leans: "meh, not for me", "not bad"), or, without ``strong``, any cue, also a misspelt verb of "it", whose
    reading answers "Do you like it?" one way ("lovd it": issue 22-F). "nah not my thing" declines, judges nothing
    strong. With ``experienced`` (the user says they know the item), any word of opinion said of "it" rates it,
    the lexicon's or VADER's ("seen it, it was cute": issue 22). A stand-in sentiment without ``has_cue`` judges
    nothing."""
    has_cue = getattr(sentiment, "has_cue", None)
    if has_cue is None:
        return False
    if has_cue(content, strong=strong, respell=False):
        return True
    if experienced and getattr(sentiment.message_polarity(content), "value", "0") in ("+", "-"):
        return True
    if not has_cue(content, strong=False, respell=True):
        return False
    if strong and not getattr(sentiment, "leans", lambda _text: False)(content):
        return False  # declined ("nah not my thing": a skip), not judged ("meh, not for me")
    # a lean ("not for me") or a misspelt verb of "it" ("lovd it"): what it answers to "Do you like it?"; a shrug
    # ("meh") answers it with a hedge, asked about (issue 22)
    said = getattr(sentiment.message_polarity(content), "value", "0")
    return said in ("+", "-") or (strong and getattr(sentiment, "leans", lambda _text: False)(content))


def _contradicted(intent: str, content: str, sentiment: Any) -> bool:
    """The classifier heard a small-talk appraisal of one sign ("Glad you like it!") where the lexicon reads a
    judging cue of the other ("nah thats mid" heard as ``smalltalk.appraisal.good``): a judgement misheard. A
    stand-in sentiment without ``has_cue`` contradicts nothing; "Good film" agrees and stays small talk."""
    heard = APPRAISALS.get(intent)
    if heard is None or not getattr(sentiment, "has_cue", lambda *_a, **_k: False)(content, strong=True):
        return False
    said = getattr(sentiment.message_polarity(content), "value", "0")
    return said in ("+", "-") and said != heard


def _bare_words(folded: str) -> int:
    """Words of the message less its aspect cues ("great but way too long": 2; ``nlu.opinion_scope``): an
    aspect of the card judged beside the whole is still about the card (issue 22-D)."""
    aspects = degree_phrases(folded)
    words = len(folded.split()) - sum(len(p.split()) for p in aspects)
    return words - 1 if aspects and re.search(r"\bbut\b", folded) else words


def rates_card(folded: str, content: str, *, intent: str, phrased: str | None, sentiment: Any) -> bool:
    """True if the message rates the card on screen (module docstring): a like, a dislike, or a hedge ("it's ok
    i guess": no opinion, the list goes on). The caller checks that a card is on screen, no question is open,
    nothing else is named and the message is no card question, bare yes/no or critique.

    Args:
        folded: the message after its lead-in, folded; content: the same, as typed.
        intent: the classifier's intent (after the dialog's admissible intents); phrased: the intent of
            ``nlu.phrasings.phrased_intent``, or None.
        sentiment: the sentiment recognizer (``has_cue``; a stand-in without it rates nothing).
    """
    if phrased not in (None, Intent.REC_SKIP.value):
        return False
    confirmation = intent.startswith("smalltalk.confirmation")  # "boring 🥱" heard as a "yes"
    experienced = bool(EXPERIENCED.search(folded))  # "seen it, it's good": about the card, whatever was heard
    # a judgement of the card heard as a question about it ("ya this is good" as "why?") or as a request ("nah
    # thats mid" as "recommend"): the caller found no card question words, and it asks nothing (issue 22-D)
    misheard = intent in MISHEARD_INTENTS and not ASKING.search(folded) and not QUESTION_WORDS.search(folded)
    heard = intent in CARD_OPINION_INTENTS or confirmation or misheard or _contradicted(intent, content, sentiment)
    # the card's fallback yields to a judgement ("boring 🥱", "mid") or to an experience ("seen it, it's good"),
    # not to a bare stated verb the study's agent left as a fallback ("I dislike"); small talk only to an experience
    judged = intent in NOT_UNDERSTOOD and not STATED_VERB.search(folded)
    if phrased is None and not heard and not judged and not (experienced and is_smalltalk(intent)):
        if not (experienced and intent in NOT_UNDERSTOOD):
            return False  # small talk and a stated verb at the card's fallback keep the study's reading
    if CLOSING.search(folded) or ASKING.search(folded) or ANOTHER.search(folded) or opens_own_subject(content):
        return False
    if OPINION_OBJECT.search(folded) or not (
        CARD_REFERENCE.search(folded) or _bare_words(folded) <= MAX_BARE_CARD_OPINION
    ):
        return False  # "i love spirited away", "i'm obsessed with taylor swift": about a name the KB lacks
    # a skip (the classifier's, or a declining "nah") yields only to a clear judgement ("nah, hated that one";
    # "nah not my thing" stays a skip) unless the words say the user knows the item ("read it, not my style")
    skip = phrased == Intent.REC_SKIP or intent in (Intent.REC_SKIP, Intent.SKIP) or bool(DECLINING.match(folded))
    strong = (skip or confirmation or judged) and not experienced
    # a misspelt cue ("Dislile", "Likr") does not rate the card: the released study's agent did not get those
    # either, and a wrong rating moves the list on
    # "seen it, it was cute": a judgement of the work itself, not a wish ("I want to read a book today")
    said_of_it = experienced and THE_WORK.search(folded) is not None
    return _judges(sentiment, content, strong=strong, experienced=said_of_it)


PEOPLE_KINDS = frozenset({"person", "artist", "band"})
"""Kinds of a role's values that are people (``recommender.schema`` edges): "that author", "the band", not "my
style" (a genre)."""


def judges_people_only(folded: str, roles: Sequence[str]) -> bool:
    """The message (folded) names a role of people (``roles``: PIDs it names that are, in some domain, edges whose
    kinds are :data:`PEOPLE_KINDS`) with a demonstrative ("that author", "those actors") and nothing of the work on
    screen itself (:data:`THE_WORK`): "nope, can't stand that author" judges the card's author, not the card (issue
    22-H); "not my style" (a genre) and "I like the actors" (the released study's rating of the card) rate it."""
    if not any(pid in _people_pids() for pid in roles) or THE_WORK.search(folded) is not None:
        return False
    # "that author", "those actors": the released study's agent heard "I like the actors" at a card as its rating
    return _demonstrative_role().search(folded) is not None


@functools.cache
def _demonstrative_role() -> re.Pattern[str]:
    words = "|".join(role_pattern(domain) for domain in DOMAINS)
    return re.compile(rf"\b(?:that|this|those|these)\s+(?:{words})\b")


@functools.cache
def _people_pids() -> frozenset[str]:
    return frozenset(str(e.pid) for d in DOMAINS.values() for e in d.edges if PEOPLE_KINDS & set(e.kinds))
