"""Step 5b of linking: is this span a mention of its top candidate at all? A learned gate (issue 22-L).

Reads: a span the decision would link or ask about (:class:`nlu.linking.scoring.Ranked`), the message's
tokens and context, the KB's popularity and roles. Adds: the probability that the typed words name the
entity rather than mean what they say as English ("the trio recordings" is no album *Trio*; "travis" of
"travis scott" is no band *Travis*). A span inside a noun phrase (:func:`inside_phrase`) below :data:`PHRASE_BAR`
is dropped (:meth:`nlu.linking.decision.Decider.decide`); one standing alone below :data:`DROP_BELOW` (none
now). Only short spans of everyday English words are gated (:func:`gated`: "ishiguro" means nothing else).

The features (:func:`features`) are general, none of them a phrase: how common the words are in English
(``wordfreq``), stop words, how they were typed (capitals, quotes: weak, since many type lowercase), where the
span sits in its clause (a determiner or a content word before it, a content word after it: inside a longer
noun phrase or name), the object of a like-verb or the subject of a predicate, exact or fuzzy and how close,
the share of the entity's name typed, the entity's popularity and kind. The weights are a logistic regression
fitted by ``corsbot nlu train-mentions`` (:mod:`nlu.linking.mention_train`) and stored as data
(``data/mention_weights.json``); without that file every span passes.

Example:
    >>> gate = MentionGate.load()                                   # doctest: +SKIP
    >>> gate.probability(features_of_the_trio_recordings) < PHRASE_BAR     # doctest: +SKIP
    True
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from nlu.linking.tokens import Token, name_key
from nlu.linking.values import PERSON_ROLES, SIM_VARIANT, LinkContext
from nlu.linking.words import (
    DETERMINERS,
    KIND_NOUNS,
    LIKE_VERBS,
    PREDICATES,
    REQUEST_FILLER,
    REQUEST_VERBS,
    ROLE_OR_TYPE_WORDS,
    ROMAN_NUMERALS,
    TRIM_WORDS,
    opinion_phrases,
    opinion_words,
    stop_words,
    zipf,
)

WEIGHTS_PATH = Path(__file__).with_name("data") / "mention_weights.json"
"""The fitted weights and threshold (``corsbot nlu train-mentions`` writes them)."""

DROP_BELOW = 0.0
"""The bar for a span standing alone in its clause: none. Most such spans of everyday words are titles or answers
("The Ruins" as a whole message, "no more adele please", "Part Two even better"), and the model's lowest
probabilities still held such titles (the study replay and the linker's tests lost some at 0.03)."""

PHRASE_BAR = 0.5
"""The bar for a span with a content word right before or after it in its clause (:func:`inside_phrase`: "the
trio recordings", "travis scott"): a part of a longer noun phrase or name unless the model
finds it likelier a mention."""

CLAUSE_MARKS = frozenset(".,;:!?()[]\n–—-")
"""Characters between two tokens that end a clause (or a list item)."""

QUOTES = frozenset("\"'“”‘’«»`*")
"""Characters around a span that say it was typed as a name."""

FEATURES = (
    "bias",
    "one_word",
    "length",
    "stop_share",
    "zipf_min",
    "zipf_mean",
    "english",
    "typed_title",
    "title_mid_clause",
    "typed_lower",
    "typed_caps",
    "clause_start",
    "clause_end",
    "whole_message",
    "quoted",
    "determiner_before",
    "content_before",
    "like_verb_before",
    "content_after",
    "name_after",
    "predicate_after",
    "listed",
    "fuzzy",
    "similarity",
    "name_share",
    "popularity",
    "person",
    "item",
    "topic",
    "ask",
)
"""The feature names, in the order of the weight vector."""


def _gap(text: str, tokens: Sequence[Token], k: int) -> str:
    """The characters between token ``k - 1`` and token ``k`` (the message's ends count as clause marks)."""
    if k <= 0 or k >= len(tokens):
        return "."
    return text[tokens[k - 1].end : tokens[k].start]


def _breaks(gap: str) -> bool:
    """A clause mark or a symbol (an emoji) between two words."""
    return any(c in CLAUSE_MARKS or unicodedata.category(c) == "So" for c in gap)


NP_OPENERS = DETERMINERS | frozenset("the more many few several such".split())
"""Determiners and quantifiers that open a noun phrase (a closed class)."""

CHAT_ABBREVIATIONS = frozenset("tbh imo imho ngl lol lmao rn btw fr omg idk ikr smh af fyi irl jk tho".split())
"""Chat's abbreviations (a closed class): a comment after a name, never part of it ("X tbh")."""

TIME_WORDS = frozenset(
    "yesterday today tonight tomorrow lately recently again now ago once twice earlier later".split()
)
"""Adverbs of time (a closed class): when, after a name ("watched X yesterday"), never part of it."""


@lru_cache(maxsize=1)
def _not_content() -> frozenset[str]:
    """Words that never continue a noun phrase around a name: like-verbs, predicates, opinion cues, request
    fillers, kind and role nouns ("X pls", "X stuff", "X especially" leave X a name)."""
    return (
        frozenset(
            LIKE_VERBS | PREDICATES | opinion_words() | REQUEST_FILLER | REQUEST_VERBS | TRIM_WORDS | ROLE_OR_TYPE_WORDS
        )
        | frozenset(KIND_NOUNS)
        | CHAT_ABBREVIATIONS
        | TIME_WORDS
    )


def _content(word: str) -> bool:
    """A word that may be part of the same noun phrase: alphabetic, no stop word, none of :func:`_not_content`,
    no adverb or past form by its ending ("obviously", "destroyed": a verb or an adverb, not a noun)."""
    if not word.isalpha() or word in stop_words() or word in _not_content():
        return False
    return not (len(word) > 4 and word.endswith(("ly", "ed")))


ENGLISH_ZIPF = 3.0
"""A span is gated only when each of its words is a stop word or an English word at least this common
(``wordfreq`` Zipf): only words with an everyday meaning can mean what they say ("ishiguro", "pixar" cannot)."""


def _listed(text: str, tokens: Sequence[Token], i: int, j: int, covered: AbstractSet[int]) -> bool:
    """Another proposed span sits next to this one across "and", "or" or a comma: a list of names."""
    joins = ("and", "or")
    if i > 0 and i - 1 in covered and "," in _gap(text, tokens, i):
        return True
    if i > 1 and tokens[i - 1].key in joins and i - 2 in covered:
        return True
    if j < len(tokens) and j in covered and "," in _gap(text, tokens, j):
        return True
    return j + 1 < len(tokens) and tokens[j].key in joins and j + 1 in covered


def full_name(top: Any, span: Sequence[Token]) -> bool:
    """The span is a person's or a band's whole name of two words or more ("johnny depp", "fleetwood mac"):
    their everyday words are a name together."""
    return (
        len(span) > 1
        and bool(PERSON_ROLES.intersection(top.roles))
        and name_key(top.label) == tuple(t.key for t in span)
    )


MAX_GATED_WORDS = 2
"""Longer spans are never gated: an exact match of three words or more is rarely chance ("the catcher in the rye")."""


def gated(tokens: Sequence[Token], cands: Sequence[Any]) -> bool:
    """The gate decides the span read as ``cands[0]``: at most :data:`MAX_GATED_WORDS` words, all with an everyday
    English meaning (:data:`ENGLISH_ZIPF`; no sequel numeral); read as a work or as a person or band by their
    whole label; and no other candidate a genre or subject (the closed class of topics: "no trap please"
    may mean the genre)."""
    top, stop = cands[0], stop_words()
    if not 0 < len(tokens) <= MAX_GATED_WORDS or full_name(top, tokens):
        return False
    person = bool(PERSON_ROLES.intersection(top.roles))
    if not (top.is_item or person) or (person and len(name_key(top.label)) > len(tokens)):
        return False  # a genre, a subject, a person by a surname ("bieber")
    if any(not c.is_item and not PERSON_ROLES.intersection(c.roles) for c in cands):
        return False
    return all(
        t.key in stop or (t.key.isalpha() and t.key not in ROMAN_NUMERALS and zipf(t.key) >= ENGLISH_ZIPF)
        for t in tokens
    )


def features(
    text: str,
    tokens: Sequence[Token],
    i: int,
    j: int,
    top: Any,
    sim: float,
    kind: str,
    kb: Any,
    context: Any = None,
    ask: bool = False,
    person_name: Callable[[str], bool] = lambda _w: False,
) -> list[float]:
    """The feature vector of the span ``tokens[i:j]`` read as ``top`` (a candidate with ``qid``, ``label``,
    ``roles``, ``is_item``), in the order of :data:`FEATURES`; ``person_name``: a word is a first or last name
    of the KB's persons ("travis scott": a person the KB lacks)."""
    span = tokens[i:j]
    keys = [t.key for t in span]
    stop = stop_words()
    content = [k for k in keys if k not in stop]
    freqs = [zipf(k) for k in keys]
    title = all(t.raw[:1].isupper() for t in span if t.key not in stop) and any(t.key not in stop for t in span)
    caps = all(t.raw.isupper() and len(t.raw) > 1 for t in span if t.raw.isalpha())
    start, end = _breaks(_gap(text, tokens, i)), _breaks(_gap(text, tokens, j))
    before = tokens[i - 1].key if i > 0 and not _breaks(_gap(text, tokens, i)) else ""
    after = tokens[j].key if j < len(tokens) and not _breaks(_gap(text, tokens, j)) else ""
    if j + 1 < len(tokens) and tokens[j + 1].key == "t" and "'" in _gap(text, tokens, j + 1).replace("’", "'"):
        after = "not"  # "didn't", "couldn't": a negated verb after the name, not a word of a noun phrase
    if any(" ".join(t.key for t in tokens[j : j + n]) in opinion_phrases() for n in (1, 2, 3)):
        after = "goes"  # an opinion phrase after the name ("X goes hard"): its predicate
    covered: AbstractSet[int] = context.covered if context is not None else frozenset()
    after_free = bool(after) and j not in covered
    before_free = bool(before) and (i - 1) not in covered
    raw_after = tokens[j].raw if after_free else ""
    near = {tokens[k].key for k in range(max(0, i - 3), i)}
    lead, tail = text[max(0, span[0].start - 1) : span[0].start], text[span[-1].end : span[-1].end + 1]
    label_words = len(name_key(top.label)) or 1
    roles = set(top.roles)
    person = bool(PERSON_ROLES.intersection(roles))
    pop = kb.popularity(top.qid)
    return [
        1.0,
        float(j - i == 1),
        min(j - i, 4) / 4,
        sum(k in stop for k in keys) / len(keys),
        min((zipf(k) for k in content), default=8.0) / 8,
        sum(freqs) / len(freqs) / 8,
        float(all(k in stop or f >= 3.0 for k, f in zip(keys, freqs, strict=True))),
        float(title and not caps),
        float(title and not caps and not start and i > 0),
        float(all(t.raw.islower() or not t.raw.isalpha() for t in span)),
        float(caps),
        float(start),
        float(end),
        float(i == 0 and j == len(tokens)),
        float(bool(QUOTES.intersection(lead + tail))),
        float(before_free and before in NP_OPENERS),
        float(before_free and _content(before) and before not in DETERMINERS),
        float(bool(near & LIKE_VERBS)),
        float(after_free and _content(after)),
        float(after_free and _content(after) and (raw_after[:1].isupper() or zipf(after) < 3.0 or person_name(after))),
        float(bool(after) and after in PREDICATES),
        float(_listed(text, tokens, i, j, covered)),
        float(kind == "fuzzy"),
        sim,
        min(1.0, (j - i) / label_words),
        math.log1p(max(pop, 0.0)) / 5,
        float(person),
        float(top.is_item and not person),
        float(not top.is_item and not person),
        float(ask),
    ]


def inside_phrase(vector: Sequence[float]) -> bool:
    """The features say the span is a modifier inside a noun phrase (a determiner before it, a content word after
    it: "the trio recordings") or the first part of a longer name (a name after it: "travis scott"); a content
    word after alone may be a verb ("X follows me everywhere")."""
    after = vector[FEATURES.index("content_after")]
    return bool(after and (vector[FEATURES.index("determiner_before")] or vector[FEATURES.index("name_after")]))


@dataclass(frozen=True, slots=True)
class MentionGate:
    """A logistic regression over :data:`FEATURES` (weights as fitted; none: every span passes)."""

    weights: tuple[float, ...] = ()
    threshold: float = DROP_BELOW

    @classmethod
    def load(cls, path: Path = WEIGHTS_PATH) -> MentionGate:
        """The stored weights, or an open gate when the file is missing or of other features."""
        return _load(str(path))

    def probability(self, vector: Sequence[float]) -> float:
        """P(the span names the entity) for a feature vector (1.0 without weights)."""
        if not self.weights:
            return 1.0
        z = sum(w * x for w, x in zip(self.weights, vector, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def passes(
        self,
        text: str,
        tokens: Sequence[Token],
        i: int,
        j: int,
        ranked: Any,
        kb: Any,
        context: LinkContext,
        ask: bool,
        person_name: Callable[[str], bool] = lambda _w: False,
    ) -> bool:
        """The span, read as its top candidate, is likely enough a mention (:data:`PHRASE_BAR`, :data:`DROP_BELOW`)."""
        top = ranked.candidates[0]
        if not gated(tokens[i:j], ranked.candidates) or j in context.credited:
            return True  # ("take on me by a-ha": the person credited says it is the work)
        sim = ranked.scored.get(top.qid, SIM_VARIANT)
        vector = features(text, tokens, i, j, top, sim, ranked.span.kind, kb, context, ask, person_name)
        return self.probability(vector) >= (PHRASE_BAR if inside_phrase(vector) else self.threshold)


@lru_cache(maxsize=4)
def _load(path: str) -> MentionGate:
    file = Path(path)
    if not file.is_file():
        return MentionGate()
    data = json.loads(file.read_text(encoding="utf-8"))
    if tuple(data.get("features", ())) != FEATURES:
        return MentionGate()
    return MentionGate(tuple(float(w) for w in data["weights"]), float(data.get("threshold", DROP_BELOW)))
