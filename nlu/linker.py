"""Entity recognition and linking against one domain's knowledge base (issue 5, field cases F26-F30).

How a message is linked:

1. **Tokens.** The message is split into alphanumeric runs (``&`` counts as ``and``); each token is
   folded with :func:`nlu.textnorm.fold` (case, accents, NFKC). Apostrophes (straight, curly,
   mojibake "â€™") and punctuation are token boundaries, so ``Schindler’s List`` and
   ``Schindler's List``, ``WALL-E.``, ``WALL·E`` and ``wall e``, ``Amelie`` and ``Amélie`` give the
   same keys, and a trailing ``.`` or a possessive ``'s`` never blocks a match (F21, F26, F27).
   Messages are cut at ``textnorm.MAX_CHARS``; text in brackets ("(2012)", "(song)") is a hint,
   never a mention.
2. **Exact index.** Every KB label and alias (``kb.names()``) is tokenised the same way; the tuple
   of folded tokens maps to the QIDs that carry it. Labels starting with "the" are also indexed
   without it, labels with a bracketed suffix also without it ("Havana (feat. Young Thug)"), and
   genre values also as "horror", "horror films", "comedy movies", "romantic movies" (genres
   are preferences too).
   An item whose main title (before ": ") no other item and no other name has is also indexed by
   it ("Batman v Superman", similarity 0.9).
   The index is built once per snapshot and linker version and stored beside the snapshot
   (:mod:`nlu.name_index`: a start maps it instead of rebuilding it).
   For every start token the longest n-gram is tried first; the longest non-overlapping spans
   win (F28, like spaCy's ``filter_spans``). Item titles are also keyed by their content words
   only (no articles, "of", "and", possessive "s"), so "fast and furious" also finds "The Fast
   and the Furious" and "the lord of rings" finds "The Lord of the Rings" (similarity 0.9; an
   exact match at least as long wins).
3. **Guards (F29).** A span whose words are all common words (spaCy stop words, chat and command
   words, and for one-word spans VADER lexicon words: "it", "up", "her", "us", "nope") or that has
   fewer than 4 letters is *weak*. A weak span is linked only with a strong signal: it is quoted,
   it is capitalised mid-sentence in a message that is not Title Cased throughout, or it follows
   "the movie/book/song ..." ("the movie It"). Genre words ("horror") are not weak. Messages that
   are commands ("skip", "show me the trailer", "not sure, up to you") link nothing. The subject
   opening an opinion is a signal too: a word that cannot be a subject ("Her is such a beautiful
   film", "Up made me cry"), a capitalised or long run of words ("Me Before You made me cry", "come
   as you are is my favourite song"), a word heading a list of names ("Heat and Collateral"); so are
   an acronym in a message not shouted ("BTS") and a title typed with its label's "!" or "?"
   ("Help! is my favourite Beatles song"). The pronoun "I" is never a capital signal.
   A match that is only a word of the subject opening an opinion ("Clair" of "Clair de lune is the
   most beautiful piece") or of a longer Title Cased title ("The Matrix" of "The Matrix
   Resurrections") is a part of a name the KB lacks: not linked. "TITLE by PERSON", "TITLE is my
   favourite PERSON film" and "PERSON's TITLE" link the work, not the person; a genre describing a
   named thing ("my favourite thriller", "are cyberpunk classics", "perfect trip hop") or an
   audience ("for teens") is no mention.
4. **References.** "this movie", "this one", "it", "that song" ... refer to ``focus`` (the item
   on screen); with no focus they link nothing ("I liked it" -> no mention).
5. **Fuzzy fallback.** Name-like spans that are not fully matched exactly (the objects of a
   like-verb up to the clause end, comma lists included; runs of capitalised words) are matched
   with ``rapidfuzz.fuzz.ratio`` over folded names of similar length sharing a blocking key
   (cut-offs :data:`FUZZY_CUTOFF` / :data:`FUZZY_CUTOFF_LONG`, at least :data:`FUZZY_MIN_CHARS`
   letters, one substituted or swapped letter in a word of :data:`MIN_SUBSTITUTION_CHARS`; no
   WRatio/partial matching; never a lone everyday word, which is spelled right: "a great Bond" is no
   "Bound"); a
   short message with no verb is one such span ("shutter iland 🔥🔥"). A span is tried whole
   first, then cut before inner connectives; a whole-span hit replaces shorter exact matches inside it ("mullholand drive" is
   Mulholland Drive, not Drive). A lone capitalised first or last name ("I love Jackson") is looked
   up in a person-name index and yields the persons who carry it (usually an ambiguous mention).
   A lone word matched exactly that is also a person's first or last name ("Boccaccio": a novel
   and Giovanni Boccaccio) gets those persons as further candidates (similarity 0.72).
6. **Ranking.** Each candidate gets ``score = 0.55*similarity + 0.35*popularity + 0.10*domain +
   context``. Similarity: 1.0 for a label, 0.96 for a genre label plus a type noun, 0.95 for an
   alias (0.7 when the same words are another entity's label), 0.94 for a derived variant,
   ``0.9*ratio/100`` times that for a fuzzy match. Popularity: ``log1p(p)/log1p(max p)`` over the
   KB. Domain: 1 for a recommendable item of the KB; "the movie/book/song ..." before the name adds
   0.1 for items. Context: +0.3 for the focus item, +0.1 for an earlier mention, +0.35 for an item
   of a year named in the message (-0.35 for an item of another known year: "Ghostbusters 2016"),
   +0.35 for a title typed with its label's closing "!" or "?" ("Mother!"). A role word before
   the name ("the actor Sylvester Stallone") adds 0.1 to persons having that role and narrows their ``roles`` to it; "the director of
   Terminator 2" links the item's director(s) instead of the item (``kb.item_values``).
7. **Ambiguity rule.** ``Mention.ambiguous`` is true when at least two candidates remain and the
   second one scores within :data:`AMBIGUITY_MARGIN` (0.08) of the first; when two or more
   recommendable items carry the typed words as their own name ("Inside Out" 2015 and 2011,
   "The Avengers" 2012 and 1998), whatever their popularity; when a lone name is also the first
   or last name of a person at least as popular as the top candidate; and for a short word (under 4
   letters, not a stop word) that is the whole object of a like-verb ("I like sia": F29 says
   ask). It is false when the context singles out the top candidate and not the second: the
   focus item, an earlier mention, the year named in the message ("Inside Out (2011)"; items of
   another year count as no homonyms), the punctuation typed ("Mother!"); and when the popularity
   prior settles it (a far better-known entity carrying the name itself, or an artist before works
   of the same name: artists and bands are property values in the music KB). The dialog manager
   then asks with :mod:`nlu.disambiguation`.

Assumptions: the KB is one domain (``kb.domain``); labels are mostly English (``kb.label`` falls
back to another language or the QID itself, which is indexed like any other name).

Example:
    >>> linker = EntityLinker(kb)                      # doctest: +SKIP
    >>> [m.candidates[0].label for m in linker.link("I love Schindler’s List")]  # doctest: +SKIP
    ["Schindler's List"]
"""

from __future__ import annotations

import dataclasses
import logging
import math
import re
import sys
import time
from collections import defaultdict
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NewType

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from nlu.name_index import DictNameIndex, NameIndex, builder_fingerprint, stored_index
from nlu.textnorm import MAX_CHARS, fold, normalize
from recommender.names import item_year
from recommender.schema import DOMAIN_ROLE_WORDS, role_words_for

logger = logging.getLogger(__name__)

try:  # the KB contract (DESIGN.md); typed ids come from there when available
    from recommender.schema import PID, QID  # type: ignore[assignment]
except ImportError:  # pragma: no cover - recommender.schema not written yet
    QID = NewType("QID", str)  # type: ignore[misc,no-redef]
    PID = NewType("PID", str)  # type: ignore[misc,no-redef]

__all__ = [
    "AMBIGUITY_MARGIN",
    "FUZZY_CUTOFF",
    "Candidate",
    "EntityLinker",
    "Mention",
    "entity_year",
    "tokenize",
]

AMBIGUITY_MARGIN = 0.08
"""Score gap under which the top two candidates are "close" (``Mention.ambiguous``)."""
FUZZY_CUTOFF = 88.0
"""Minimum ``fuzz.ratio`` (0-100) for a typo-tolerant match of one word or of 4-5 letters
("avatr" -> "avatar": 91; "bohemian" -> "bohemija": 87.5, rejected)."""
FUZZY_CUTOFF_LONG = 82.0
"""Minimum ``fuzz.ratio`` for spans of two words or more and 6 letters or more ("daft pan" -> "daft punk": 82.4;
"bob marley" -> "bob catley": 80, rejected)."""
FRAGMENTED_CUTOFF = 90.0
"""A span already covered by two or more exact matches is re-read as one fuzzy name only at this
ratio or more ("Smells Like Teen Spirit" vs "Smells" + "Teen")."""
WHOLE_SPAN_CUTOFF = 85.0
"""A name-like span matched fuzzily as a whole replaces the shorter exact matches inside it only at
this ``fuzz.ratio`` or more."""
MIN_SUBSTITUTION_CHARS = 6
"""A word of at least this many letters with one letter typed wrong, or two letters swapped, is a typo
whatever its ratio ("beyonse" -> "Beyoncé": 85.7, "coldpaly" -> "Coldplay": 87.5, under :data:`FUZZY_CUTOFF`)."""
FUZZY_MIN_CHARS = 4
"""Spans with fewer letters are never fuzzy-matched."""
MIN_STRONG_CHARS = 4
"""Exact spans with fewer letters need a strong signal (F29)."""
MAX_CANDIDATES = 8
"""Candidates kept per mention (the disambiguation question shows at most 5)."""
MAX_NGRAM = 16
"""Names longer than this many tokens are not indexed."""
MAX_SKELETON_SPAN = 10
"""Longest message span (tokens) compared with titles by their content words only."""
MAX_TEXT_CHARS = MAX_CHARS
"""Longer messages are cut (``textnorm.MAX_CHARS``, as every NLU component does)."""
MIN_TITLE_WORD_CHARS = 6
"""A lone word of a title is looked up (and asked about) only from this many letters ("lebowski")."""
MAX_TITLE_WORD_ITEMS = 3
"""A title word shared by more items than this is not distinctive."""
MAX_FUZZY_LOOKUPS = 24
"""Fuzzy look-ups per message; keeps a pathological message (1,000 capitalised words) in bounds."""
DOMINANT_RATIO = 3.0
"""The popularity prior picks the top candidate without a question when it is this many times as
popular as every close rival (and carries the typed name itself)."""
DOMINANT_MIN_POPULARITY = 25.0
"""... and at least this popular (``kb.popularity``: degree + 2 for an English Wikipedia article)."""
MAX_WHOLE_SPAN_TOKENS = 14
NOTABLE_QUANTILE = 0.9
"""An item more popular than this share of its domain's items, credited to a person, wins over
same-named items with no edge at all without a question (:meth:`EntityLinker._dominant`)."""
"""Name-like spans longer than this are not matched as a whole (no title is that long)."""

_SIM_LABEL, _SIM_ALIAS, _SIM_VARIANT, _SIM_FOREIGN_ALIAS, _SIM_TYPED = 1.0, 0.95, 0.94, 0.7, 0.96
_SIM_SKELETON = 0.9
_SIM_MAIN_TITLE = 0.9  # the main title of one item, before its subtitle: "Batman v Superman", "Mistborn"
_SIM_SUBTITLE = 0.92
_PERSON_ROLES = frozenset({"P50", "P57", "P58", "P161", "P162", "P175", "P86", "P170", "P676", "P110"})
_SOLE_CREATORS = frozenset({"P50", "P57"})  # author, director: one work has its own (a song has many performers)
_SUBTITLE = re.compile(r"\s*:\s+|\s+[\u2013\u2014-]\s+")
"""Title/subtitle separators: ": ", " – ", " — ", " - "."""
_SIM_TITLE_WORD = 0.6  # one distinctive word of a title ("lebowski"): always asked about
_SIM_NAMESAKE = 0.72  # a person's first or last name (as the fuzzy first/last-name look-up: 0.9 * 0.8)
_W_SIM, _W_POP, _W_DOMAIN = 0.55, 0.35, 0.10
_FOCUS_BONUS, _HISTORY_BONUS, _ROLE_BONUS, _TYPE_BONUS, _YEAR_BONUS = 0.3, 0.1, 0.1, 0.1, 0.35
_TYPED_BONUS = 0.35  # the name typed with its label's closing punctuation ("Mother!", "Help!"): as strong as a year
_LABEL_PUNCTUATION = "!?"
_FUZZY_SIM_FACTOR = 0.9

_TOKEN = re.compile(r"(?:[^\W_]|[\u0300-\u036f])+|&")
_QUOTES = "\"'"
_BRACKETED = re.compile(r"\s*[(\[][^)\]]*[)\]]\s*$")
_MOJIBAKE = re.compile("\u00e2\u20ac[\u2122\u02dc\u0153\u009d\u201c\u201d]")
"""UTF-8 quotes read as cp1252 ("donâ€™t"), as found in the released messages."""

# Words that, alone or together, do not name anything (F29). spaCy stop words and VADER lexicon
# words are added when the first linker is built; these are chat, command and domain words.
_CHAT_WORDS = frozenset(
    """
    nope yep yeah yes no ok okay sure maybe whatever thanks thank please hi hello hey bye start stop
    skip next help show tell give trailer details detail why profile reset delete remove recommend
    recommendation recommendations suggest suggestion something anything nothing everything movie
    movies film films book books song songs album albums music band bands track tracks artist
    artists actor actors actress director directors author authors writer singer genre genres
    series show shows novel novels watch watched read listen listened like liked love loved
    prefer hate enjoy want wanna gonna lol good great best nice cool awesome fine really very
    much lot lots kind sort one ones other another more less also still want need know think
    mood today tonight tomorrow now time day night new old year years first last second third
    up us her him it me you i my mine your
    """.split()
)

_TYPE_WORDS = frozenset(
    """movie movies film films book books novel novels song songs track album record band group
    series show tv saga franchise trilogy genre story""".split()
)
_TYPE_NOUNS_SINGULAR = frozenset("movie film book novel song track album record band group series show".split())


def _person_role_words(domain: str | None) -> dict[str, str]:
    """The role words naming a person's role ("the actor X", "the director of Y"), one word each, from
    the project's one role vocabulary (``recommender.schema.role_words_for``)."""
    return {w: p for w, p in role_words_for(domain).items() if p in _PERSON_ROLES and " " not in w}


_ROLE_WORDS: dict[str, str] = {w: p for d in (None, *DOMAIN_ROLE_WORDS) for w, p in _person_role_words(d).items()}
"""The person role words of every domain (their PID in the general vocabulary; per domain: ``self._role_words``)."""
_ROLE_OR_TYPE_WORDS = (
    frozenset(_ROLE_WORDS)
    | _TYPE_WORDS
    | frozenset(
        """actors actresses directors authors writers producers composers singers artists musicians bands
    groups performers rappers screenwriters albums tracks records genre genres""".split()
    )
)
_REFERENCE_NOUNS = frozenset("movie film one book novel song track album record series show title piece work".split())
_DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
_LIKE_VERBS = frozenset(
    """like likes liked love loves loved enjoy enjoys enjoyed adore adored hate hated hates
    dislike disliked dislikes prefer preferred fan watched saw read listened stand favourite favorite fave
    lika liek lik lke likee luv lov loove looove lovd luvd lovved likd liekd enjoyd enjoied hatd""".split()
)
_TRIM_WORDS = frozenset(
    """movie movies film films book books song songs album albums music band bands track tracks
    artist artists actor actors actress director directors author authors writer singer genre genres
    series show novel novels anymore lately again either""".split()
) | frozenset(
    """the a an of and or for by with in on at to from about as is was are be been i my me you your it
    its this that these those all any some very really so too much more most also just only but not
    don't dont do does did he she his her they them their we our""".split()
)
_PREPOSITIONS = frozenset("of by in from with for on at to about and or as".split())
_CLAUSE_STOP = frozenset("but however although though because since while whereas so then also too very really".split())
MAX_CUTS = 3
MAX_SUBJECT_TOKENS = 8
"""A message's first words up to a verb such as "is"/"was" are tried as a (typo'd) name only up to this length."""
"""Cuts before inner connectives tried per name-like span, after the whole span."""
MAX_WHOLE_MESSAGE_TOKENS = 4
"""A message of at most this many words with no verb is tried as one (typo'd) name ("shutter iland 🔥")."""
MAX_LIST_ITEMS = 25
"""Comma-separated objects of one like-verb that are read as name-like spans."""
_OBJECT_LEAD = frozenset("the a an of all any movies films books songs by as is was".split())
_GENRE_ADJECTIVES = {
    "romance": "romantic",
    "drama": "dramatic",
    "crime": "criminal",
    "comedy": "comic",
    "history": "historical",
    "mystery": "mysterious",
    "biography": "biographical",
    "animation": "animated",
    "satire": "satirical",
    "psychology": "psychological",
}
"""Adjectives of genre nouns, for the genre variants ("romantic movies" -> romance film)."""
_GENRE_SUFFIXES = ("film", "movie", "music", "novel", "fiction", "literature", "genre")
_SPAN_STOP = frozenset(
    """and but or however although though because since while whereas with without so then
    also too very much really a lot is was are were as for by from of in on at to""".split()
)
_COMMAND_PATTERNS = re.compile(
    r"^(?:please\s+)?(?:"
    r"(?:show|give|send)\s+(?:me\s+)?(?:the\s+|a\s+)?(?:trailer|details|detail|profile|plot|info\w*)"
    r"|(?:show|see)\s+(?:me\s+)?my\s+profile|skip(?:\s+it|\s+this(?:\s+one)?)?|next(?:\s+one)?|help|why"
    r"|stop|start|restart|reset(?:\s+\w+)*|back|cancel|yes|no|nope|yep|yeah|ok|okay|sure|maybe|thanks?"
    r"|(?:i'?m\s+)?not\s+sure(?:\s*,?\s*(?:it'?s\s+)?up\s+to\s+you)?|(?:it'?s\s+)?up\s+to\s+you|whatever"
    r"|surprise\s+me|what'?s\s+up|i\s+don'?t\s+know|dunno|recommend(?:\s+\w+){0,4}|suggest(?:\s+\w+){0,4}"
    r")[\s.!?]*$"
)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One KB entity a mention may refer to.

    Attributes:
        qid: Wikidata QID.
        label: display label (``kb.label``).
        score: ranking score in about [0, 1.4] (see module docstring); higher is better.
        is_item: a recommendable item of the KB's domain (else a property value: person, genre ...).
        roles: properties for which the entity is a value, most frequent first (narrowed to the
            role the user named, e.g. "the actor X" -> ``("P161",)``); empty for pure items.
        description: KB description, if any.
    """

    qid: QID
    label: str
    score: float
    is_item: bool
    roles: tuple[PID, ...]
    description: str | None


@dataclass(frozen=True, slots=True)
class Mention:
    """A span of the message that names (or refers to) KB entities.

    Attributes:
        text: the span as typed (``text[start:end]`` of the message given to :meth:`EntityLinker.link`).
        start: character offset of the span in the message.
        end: character offset after the span.
        candidates: ranked candidates, best first (at most :data:`MAX_CANDIDATES`).
        ambiguous: ask the user: the top two candidates are within :data:`AMBIGUITY_MARGIN`, or the
            mention is a short word that needs a confirmation ("I like sia", F29).
        partial: the span is one word of the candidates' titles, not a whole name ("I like
            lebowski"): confirm even a single candidate before storing it.
    """

    text: str
    start: int
    end: int
    candidates: tuple[Candidate, ...]
    ambiguous: bool
    partial: bool = False

    @property
    def best(self) -> Candidate | None:
        """The top candidate, or None."""
        return self.candidates[0] if self.candidates else None


@dataclass(frozen=True, slots=True)
class _Token:
    key: str  # folded
    raw: str  # as typed
    start: int
    end: int


@lru_cache(maxsize=1)
def _stop_words() -> frozenset[str]:
    """Stop words and chat/command/domain words: never a name on their own (F29)."""
    from nlu.stop_words import STOP_WORDS  # spaCy's list, copied: importing spaCy is ~1 s of a start

    words = set(_CHAT_WORDS) | STOP_WORDS
    return frozenset(fold(w) for w in words)


@lru_cache(maxsize=1)
def _common_words() -> frozenset[str]:
    """:func:`_stop_words` plus VADER's lexicon words ("love", "happy", "nope"): weak as one-word names."""
    words = set(_stop_words())
    try:
        from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

        words.update(fold(w) for w in SentimentIntensityAnalyzer().lexicon if w.isalpha())
    except ImportError:  # pragma: no cover
        logger.warning("VADER lexicon unavailable")
    return frozenset(words | _opinion_words())


COMMON_ZIPF = 4.5
"""A word at least this frequent in English (``wordfreq`` Zipf scale: 4.5 = about 30 per million
words; "kids" 5.3, "spirit" 4.8, "favourite" 4.6, "titanic" 3.6, "inception" 3.7) is an everyday
word: alone, it names a title only with a signal (capitalised mid-sentence, quoted, "the movie X",
the whole message, the whole object of a like-verb: then asked about)."""
RARE_ZIPF = 3.5
"""A lowercase word typed where no name is expected (not after a like-verb, "the", "is", "and", "by",
"of" ...) is taken for a title only when rarer than this in English ("from scratch": no)."""
_ARGUMENT_LEADS = (
    frozenset("the is was are were and or by of about than like love hate fan watched read heard saw seen".split())
    | _LIKE_VERBS
    | _TYPE_WORDS
)
_SUPERLATIVES = frozenset("favourite favorite fave best greatest top finest".split())
_NOUN_DETERMINERS = frozenset("my your his our their a an".split())
"""Determiners before a lowercase word that make it a common noun even when a genre shares it ("my
teens", "a twist"); "her" is also an object ("I love her"), "the" opens titles and genres ("the blues")."""
_DETERMINERS = frozenset("my your his her our their a an some any every no this that these those its".split())
"""A word after one of these is a common noun ("my kids"), never a title on its own."""
_PREDICATES = frozenset(
    """is was s are were isn wasn aren weren has had have made makes blew bored bores rocks rocked rules sucks sucked slaps slapped
    deserves deserved will gets got kept changed""".split()
)
"""Verbs after a sentence-initial name that make it the subject of an opinion ("Frozen was great")."""


@lru_cache(maxsize=65536)
def _zipf(word: str) -> float:
    """``wordfreq.zipf_frequency(word, "en")`` (0.0 when the package or its data is missing)."""
    try:
        from wordfreq import zipf_frequency
    except ImportError:  # pragma: no cover - a declared dependency
        return 0.0
    return float(zipf_frequency(word, "en"))


@lru_cache(maxsize=1)
def _opinion_phrases() -> frozenset[str]:
    """Opinion cues of several words, as folded token strings ("big fan", "must read", "changed my life")."""
    from nlu import sentiment_lexicon as lex

    out = set()
    for group in (lex.STATED_POSITIVE, lex.STATED_NEGATIVE, lex.EVALUATIVE_POSITIVE, lex.EVALUATIVE_NEGATIVE):
        for phrase in group:
            key = name_key(phrase)
            if len(key) > 1:
                out.add(" ".join(key))
                if key[0] in ("a", "the") and len(key) > 2:
                    out.add(" ".join(key[1:]))  # "a must read" -> "must read" (never one word: "the queen")
    return frozenset(out)


MAX_PHRASE_TOKENS = 6


def _inside_opinion_phrase(tokens: list[_Token], i: int, j: int) -> bool:
    """Tokens ``i:j`` lie inside an opinion phrase of several words in the message ("gives me chills")."""
    phrases = _opinion_phrases()
    keys = [t.key for t in tokens]
    for a in range(max(0, j - MAX_PHRASE_TOKENS), i + 1):
        for b in range(max(j, a + 2), min(len(tokens), a + MAX_PHRASE_TOKENS) + 1):
            if (a, b) != (i, j) and " ".join(keys[a:b]) in phrases:
                return True
    return False


def _everyday(word: str) -> bool:
    """An everyday English word (:data:`COMMON_ZIPF`), not a number."""
    return word.isalpha() and word in _everyday_lookup()


@lru_cache(maxsize=1)
def everyday_words() -> frozenset[str]:
    """Every word whose ``_zipf`` is at least :data:`COMMON_ZIPF` (about 5,000): ``wordfreq``'s list
    read in decreasing frequency down to the threshold. Built with the name index and stored in it,
    so that a start need not import wordfreq and load its 300k-word table (1-2 s, 30 MB)."""
    try:
        from wordfreq import iter_wordlist
    except ImportError:  # pragma: no cover - a declared dependency
        return frozenset()
    out = set()
    for word in iter_wordlist("en"):
        if _zipf(word) < COMMON_ZIPF:
            break
        if word.isalpha():
            out.add(word)
    return frozenset(out)


_EVERYDAY: list[Container[str]] = []
"""The everyday-word set in use: the one stored in the first mapped name index, else :func:`everyday_words`."""


def _everyday_lookup() -> Container[str]:
    if not _EVERYDAY:
        _EVERYDAY.append(everyday_words())
    return _EVERYDAY[0]


@lru_cache(maxsize=1)
def _opinion_words() -> frozenset[str]:
    """One-word opinion cues ("love", "favourite", "great", "sick", "meh"): never a title on their own
    unless quoted, typed ("the song Love") or the whole message."""
    from nlu import sentiment_lexicon as lex

    words = {
        fold(w)
        for group in (lex.STATED_POSITIVE, lex.STATED_NEGATIVE, lex.EVALUATIVE_POSITIVE, lex.EVALUATIVE_NEGATIVE)
        for w in group
        if w.isalpha()
    }
    return frozenset(words | {"favourite", "favorite", "fave", "fav", "opinion", "like", "love"})


@lru_cache(maxsize=1)
def index_fingerprint() -> str:
    """Fingerprint of the rules that build the name index: this module's and the text
    normaliser's source and the word lists they use (a stored index built otherwise is rebuilt)."""
    from importlib.metadata import PackageNotFoundError, version

    from nlu import name_index, textnorm

    try:
        wordfreq_version = version("wordfreq")  # its data decides everyday_words()
    except PackageNotFoundError:  # pragma: no cover - a declared dependency
        wordfreq_version = "none"
    return builder_fingerprint(
        __file__,
        name_index.__file__,
        textnorm.__file__,
        words=(_stop_words(), _common_words(), {f"wordfreq {wordfreq_version}", f"zipf {COMMON_ZIPF}"}),
    )


def tokenize(text: str) -> list[_Token]:
    """Split ``text`` into alphanumeric tokens with character offsets; ``&`` becomes ``and``.

    Args:
        text: any string (not normalised; offsets refer to it).

    Returns:
        Tokens with ``key`` (folded), ``raw``, ``start`` and ``end`` offsets into ``text``.
    """
    out = []
    text = _MOJIBAKE.sub(lambda m: "'" * len(m.group(0)), text)  # same length: offsets stay valid
    for match in _TOKEN.finditer(text):
        raw = match.group(0)
        key = "and" if raw == "&" else fold(raw).replace(" ", "")
        if key:
            out.append(_Token(key, raw, match.start(), match.end()))
    return out


def name_key(name: str) -> tuple[str, ...]:
    """The index key of a name: its folded tokens (``"Schindler's List"`` -> ``("schindler", "s", "list")``).

    Same tokens as :func:`tokenize` gives for the name, computed on the folded name at once (fast
    path for ASCII names: lower-casing is folding there).
    """
    folded = name.lower() if name.isascii() else fold(_MOJIBAKE.sub("'", name))
    tokens = _TOKEN.findall(folded)
    if "&" in tokens:
        tokens = ["and" if t == "&" else t for t in tokens]
    return tuple(tokens)


def _plural(word: str) -> str:
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


class EntityLinker:
    """Find and rank KB entities named in a message (see the module docstring for the method).

    The index is built once in ``__init__`` (a few seconds for the largest domain); :meth:`link`
    takes milliseconds (tens of ms when the fuzzy fallback runs).

    Args:
        kb: a ``recommender.kb.KnowledgeBase`` (or any object with ``names``, ``label``,
            ``aliases``, ``roles``, ``popularity``, ``is_item``, ``description``, ``domain``).
    """

    def __init__(self, kb: Any, *, names: NameIndex | None = None) -> None:
        _common_words()  # load the word lists (spaCy stop words, VADER lexicon) once per process
        started = time.perf_counter()
        self.kb = kb
        self.domain: str = getattr(kb, "domain", "")
        self._role_words = _person_role_words(self.domain or None)
        # the index the rules below build, mapped from the snapshot folder when stored there
        self._names: NameIndex = names or stored_index(kb, index_fingerprint(), self.build_index)
        self._pop_scale = self._names.pop_scale
        self._notable: float | None = None  # _notable_popularity, computed at its first use
        stored_words = self._names.everyday()
        if not _EVERYDAY and stored_words is not None:  # the same words for every domain: first one wins
            _EVERYDAY.append(stored_words)
        self.build_seconds = time.perf_counter() - started
        n_keys, n_entities, n_fuzzy = self._names.stats()
        logger.info(
            "entity index for %s: %d keys, %d entities, %d fuzzy names in %.2f s (%s)",
            self.domain or "?",
            n_keys,
            n_entities,
            n_fuzzy,
            self.build_seconds,
            type(self._names).__name__,
        )

    def build_index(self) -> DictNameIndex:
        """Build the name index of ``self.kb`` by the rules of the module docstring (seconds for a
        real domain; :func:`nlu.name_index.stored_index` keeps it for the next start)."""
        kb = self.kb
        index: dict[tuple[str, ...], dict[str, float]] = defaultdict(dict)
        labels: dict[str, str] = {}
        names = [(name, qid) for name, qid in kb.names() if name]
        for _name, qid in names:
            if qid not in labels:
                labels[qid] = kb.label(qid)
        keys = {name: name_key(name) for name, _qid in names}
        self._label_keys: dict[str, tuple[str, ...]] = {
            qid: keys.get(label) or name_key(label) for qid, label in labels.items()
        }
        label_keys: dict[tuple[str, ...], str] = {}
        for qid, key in self._label_keys.items():
            label_keys.setdefault(key, qid)
        for name, qid in names:
            key = keys[name]
            if not key or len(key) > MAX_NGRAM:
                continue
            if name == labels[qid]:
                sim = _SIM_LABEL
            else:  # an alias; weaker when the same words are another entity's label
                owner = label_keys.get(key)
                sim = _SIM_ALIAS if owner in (None, qid) else _SIM_FOREIGN_ALIAS
            self._add(index, key, qid, sim)
            if len(key) > 1 and key[0] == "the":
                self._add(index, key[1:], qid, min(sim, _SIM_VARIANT))
        self._genre_variants(index, labels)
        self._bare_variants(index, labels)
        self._main_titles(index, labels)
        self._spelling_variants(index, labels)
        self._index = dict(index)
        skeletons = self._skeleton_index(labels)
        max_len: dict[str, int] = {}
        for key in self._index:
            if len(key) > max_len.get(key[0], 0):
                max_len[key[0]] = len(key)
        self._build_fuzzy()
        title_words = self._title_word_index(labels)
        built = DictNameIndex(
            exact=self._index,
            skeleton=skeletons,
            max_len=max_len,
            partial=self._partial,
            title=title_words,
            fuzzy_names=self._fuzzy_names,
            block=self._block,
            pop_scale=math.log1p(max((kb.popularity(q) for q in labels), default=1.0) or 1.0) or 1.0,
            n_entities=len(labels),
            everyday=everyday_words(),
        )
        del self._label_keys, self._index, self._fuzzy_names, self._block, self._partial  # build-time only
        return built

    # ------------------------------------------------------------------ index building
    @staticmethod
    def _add(index: dict, key: tuple[str, ...], qid: str, sim: float) -> None:
        entry = index[key]
        if entry.get(qid, 0.0) < sim:
            entry[qid] = sim

    def _title_word_index(self, labels: dict[str, str]) -> dict[str, tuple[str, ...]]:
        """Distinctive words of item titles: word -> the (at most MAX_TITLE_WORD_ITEMS) items whose
        label of two or more words contains it. Only words of >= MIN_TITLE_WORD_CHARS letters that
        are not common words ("lebowski" -> The Big Lebowski; not "house", "night")."""
        common = _common_words()
        found: dict[str, set[str]] = defaultdict(set)
        for qid, label in labels.items():
            if not self.kb.is_item(qid):
                continue
            key = self._label_keys.get(qid) or name_key(label)
            if len(key) < 2:
                continue
            for word in key:
                if len(word) >= MIN_TITLE_WORD_CHARS and word.isalpha() and word not in common:
                    found[word].add(qid)
        return {w: tuple(sorted(q, key=_qid_order)) for w, q in found.items() if len(q) <= MAX_TITLE_WORD_ITEMS}

    def _title_word_spans(
        self, text: str, tokens: list[_Token], taken: list
    ) -> list[tuple[int, int, dict[str, float], str]]:
        """A lone distinctive word that is the whole object of a like-verb and matched nothing else
        ("I like lebowski"): the titles that contain it, always asked about ("ask")."""
        covered = {k for s in taken for k in range(s[0], s[1])}
        out = []
        for i in range(1, len(tokens)):
            if i in covered or tokens[i - 1].key not in _LIKE_VERBS:
                continue
            if not (
                i + 1 == len(tokens) or _boundary(text, tokens, i + 1) or tokens[i + 1].key in _SPAN_STOP | _CLAUSE_STOP
            ):
                continue
            items = self._names.title_items(tokens[i].key)
            if items:
                out.append((i, i + 1, {q: _SIM_TITLE_WORD for q in items}, "ask"))
        return out

    def _genre_variants(self, index: dict, labels: dict[str, str]) -> None:
        """Index "horror film" also as "horror", "horror films", "horror movies" (genre values).

        The label's own words plus a type noun ("comedy" + "films") score 0.96; forms derived from
        a longer label ("comedy film" -> "comedy", plural "comedy films") score 0.94.
        """
        for qid in labels:
            if self.kb.is_item(qid):
                continue
            roles = self.kb.roles(qid)
            if not roles or "P136" not in roles:
                continue
            key = self._label_keys[qid]
            if not key:
                continue
            nouns = ("film", "films", "movie", "movies", "music", "songs", "books", "novels", "stories")
            for noun in nouns:
                if key[-1] != noun:
                    self._add(index, key + (sys.intern(noun),), qid, _SIM_TYPED)
            base = key[:-1] if len(key) > 1 and key[-1] in _GENRE_SUFFIXES else key
            variants = {base, base[:-1] + (_plural(base[-1]),), key[:-1] + (_plural(key[-1]),)}
            if base != key:
                variants.update(base + (noun,) for noun in nouns)
            adjective = _GENRE_ADJECTIVES.get(base[0])
            if adjective is not None:  # "romance film" -> "romantic movies", "crime film" -> "criminal film"
                variants.update((adjective, *base[1:], noun) for noun in nouns)
            for variant in variants:
                if variant != key:
                    self._add(index, tuple(sys.intern(t) for t in variant), qid, _SIM_VARIANT)

    def _skeleton_index(self, labels: dict[str, str]) -> dict[tuple[str, ...], dict[str, float]]:
        """Item labels keyed by their content words only ("The Fast and the Furious" ->
        ("fast", "furious"); "The Lord of the Rings" -> ("lord", "rings")): typed titles often drop
        or add articles and particles ("fast and furious", "the lord of rings"). Similarity
        :data:`_SIM_SKELETON`, so an exact label ranks first and a close pair is asked about."""
        out: dict[tuple[str, ...], dict[str, float]] = defaultdict(dict)
        items = getattr(self.kb, "items", None)
        is_item = items.__contains__ if isinstance(items, (set, frozenset, dict)) else self.kb.is_item
        drop = _SKELETON_DROP
        for qid, key in self._label_keys.items():
            if len(key) < 2 or drop.isdisjoint(key) or not is_item(qid):
                continue
            skeleton = tuple(t for t in key if t not in drop)
            if len(skeleton) >= 2:
                out[skeleton][qid] = _SIM_SKELETON
            label = labels[qid]
            if "(" in label or "[" in label:
                bare = name_key(_BRACKETED.sub("", label).strip())
                bare_skeleton = _skeleton(bare)
                if len(bare_skeleton) >= 2 and bare_skeleton != bare:
                    out[bare_skeleton].setdefault(qid, _SIM_SKELETON)
        return dict(out)

    def _bare_variants(self, index: dict, labels: dict[str, str]) -> None:
        """Index labels without a bracketed suffix: "Havana (feat. Young Thug)" -> "Havana"; and
        item titles by their subtitle of two words or more: "Star Wars: Episode III – Revenge of
        the Sith" -> "Revenge of the Sith", "Mad Max: Fury Road" -> "Fury Road" (similarity 0.92),
        unless the main title is a person's name ("J. K. Rowling: Harry Potter")."""
        owners = {key: qid for qid, key in self._label_keys.items() if not self.kb.is_item(qid)}
        for qid, label in labels.items():
            bare = _BRACKETED.sub("", label).strip()
            if bare and bare != label:
                key = name_key(bare)
                if key:
                    self._add(index, key, qid, _SIM_VARIANT)
            parts = _SUBTITLE.split(bare or label)
            if len(parts) > 1 and self.kb.is_item(qid):  # "Star Wars: Episode III – Revenge of the Sith"
                owner = owners.get(name_key(parts[0]))
                if owner is not None and _PERSON_ROLES.intersection(self.kb.roles(owner)):
                    continue  # "J. K. Rowling: Harry Potter" is about Harry Potter, not named so
                key = name_key(parts[-1])
                if len(key) >= 2 and sum(len(t) for t in key if t not in _SKELETON_DROP) >= 6:
                    self._add(index, key, qid, _SIM_SUBTITLE)

    def _spelling_variants(self, index: dict, labels: dict[str, str]) -> None:
        """Index the ways people type what a label spells otherwise: a sequel's Roman numeral as a digit
        and back ("Evil Dead II" as "evil dead 2", "Toy Story 3" as "toy story iii"), and a person without
        the middle initial of the label ("Octavia E. Butler" as "Octavia Butler", "Philip K. Dick" as
        "Philip Dick"). Similarity :data:`_SIM_VARIANT`; a variant that is another entity's own name
        is not added."""
        for qid, label in labels.items():
            key = self._label_keys.get(qid) or name_key(label)
            if len(key) < 2:
                continue
            variant: tuple[str, ...] | None = None
            if self.kb.is_item(qid):
                last = key[-1]
                if last in _ROMAN_NUMERALS:
                    variant = (*key[:-1], str(_ROMAN_NUMERALS.index(last) + 2))
                elif last.isdigit() and 2 <= int(last) <= len(_ROMAN_NUMERALS) + 1 and not key[-2].isdigit():
                    variant = (*key[:-1], _ROMAN_NUMERALS[int(last) - 2])
            elif (
                len(key) == 3
                and len(key[1]) == 1
                and key[1].isalpha()
                and _PERSON_ROLES.intersection(self.kb.roles(qid))
            ):
                variant = (key[0], key[2])
            if variant is not None and variant not in index:
                self._add(index, tuple(sys.intern(t) for t in variant), qid, _SIM_VARIANT)

    def _main_titles(self, index: dict, labels: dict[str, str]) -> None:
        """Index an item also by its main title, the words before its subtitle ("Batman v Superman:
        Dawn of Justice" -> "Batman v Superman", "Mistborn: The Final Empire" -> "Mistborn"), when
        nothing else carries those words as a name (then "Star Wars" stays the franchise) and no other
        item has that main title ("Harry Potter: A Magical Year" and "Harry Potter: Page to Screen" are
        no "Harry Potter", nor the four "Mistborn: ..." books "Mistborn"), but for its numbered sequels
        and same-labelled copies ("Paul Blart" is "Paul Blart: Mall Cop", not "... Mall Cop 2"). Similarity
        :data:`_SIM_MAIN_TITLE`: below any label, alias or derived variant."""
        mains: dict[tuple[str, ...], list[str]] = defaultdict(list)
        for qid, label in labels.items():
            if not self.kb.is_item(qid):
                continue
            parts = _SUBTITLE.split(_BRACKETED.sub("", label).strip(), maxsplit=1)
            if len(parts) < 2 or not parts[1].strip():
                continue
            key = name_key(parts[0])
            if key and len(key) <= MAX_NGRAM and sum(len(t) for t in key if not t.isdigit()) >= MIN_STRONG_CHARS:
                mains[key].append(qid)
        for key, qids in mains.items():
            if key in index:
                continue
            if len(qids) > 1:  # "Paul Blart: Mall Cop" (twice in the dump) and "... Mall Cop 2": the first film
                full = {q: self._label_keys.get(q) or name_key(labels[q]) for q in qids}
                firsts = {
                    q
                    for q, k in full.items()
                    if not (len(k) > 1 and (k[-1].isdigit() or k[-1] in _ROMAN_NUMERALS) and k[:-1] in full.values())
                }
                qids = sorted(firsts) if len({full[q] for q in firsts}) == 1 else qids
            if len({self._label_keys.get(q) or name_key(labels[q]) for q in qids}) == 1:
                for qid in qids:
                    self._add(index, tuple(sys.intern(t) for t in key), qid, _SIM_MAIN_TITLE)

    def _build_fuzzy(self) -> None:
        """Names for the fuzzy fallback, sorted by length, plus a person first/last-name index."""
        partial: dict[str, set[str]] = defaultdict(set)
        pairs = [(joined, key) for key in self._index if len(joined := " ".join(key)) >= FUZZY_MIN_CHARS]
        pairs.sort(key=lambda p: len(p[0]))
        stop = _stop_words()
        for qid, key in self._label_keys.items():
            if len(key) < 2:
                continue
            if self.kb.is_item(qid):
                # music items that are artists named like people ("Luciano Ligabue", "Wiz Khalifa") in a KB
                # where artists are items; never a song or an album ("Dangerous Woman" is nobody's name)
                if (
                    self.domain != "music"
                    or len(key) != 2
                    or not all(t.isalpha() and t not in stop for t in key)
                    or not _PERSON_ROLES.intersection(self.kb.roles(qid))
                ):
                    continue
            else:
                roles = self.kb.roles(qid)
                if not roles or "P136" in roles:
                    continue
            if len(key) >= 2:
                for part in (key[0], key[-1]):
                    if len(part) >= FUZZY_MIN_CHARS and part not in stop:
                        partial[part].add(qid)
        names = [joined for joined, _key in pairs]
        self._fuzzy_names = names  # joined names are unique (tokens hold no space): the key is name.split(" ")
        stop = _stop_words()
        block: dict[str, list[int]] = defaultdict(list)
        for pos, joined in enumerate(names):
            for block_key in _block_keys(joined, stop):
                block[block_key].append(pos)
        self._block = dict(block)
        self._partial = {k: tuple(v) for k, v in partial.items()}

    # ------------------------------------------------------------------ linking
    def link(
        self,
        text: str,
        *,
        focus: QID | None = None,
        history: Sequence[QID] = (),
    ) -> tuple[Mention, ...]:
        """Find the entities named in ``text``.

        Args:
            text: the user message as typed (any length; cut at ``textnorm.MAX_CHARS``).
            focus: the item being discussed (on screen); "it", "this movie" ... refer to it.
            history: QIDs mentioned earlier in the dialog (ranking bonus).

        Returns:
            Mentions in text order, non-overlapping; each has at least one candidate. Empty for
            commands, small talk and texts without a name.
        """
        if not text or not text.strip():
            return ()
        text = text[:MAX_TEXT_CHARS]
        folded_msg = normalize(text).casefold().strip()
        if _COMMAND_PATTERNS.match(folded_msg):
            return ()
        tokens = tokenize(text)
        if not tokens:
            return ()
        bracketed = _bracketed_tokens(text, tokens)
        spans = [s for s in self._exact_spans(text, tokens) if not bracketed.issuperset(range(s[0], s[1]))]
        spans += self._reference_spans(tokens, spans, focus)
        spans += self._fuzzy_spans(text, tokens, spans)
        spans += self._title_word_spans(text, tokens, spans)
        spans = [s for s in spans if not bracketed.issuperset(range(s[0], s[1]))]
        spans = self._by_person(text, tokens, spans)
        explained = {k for s in spans if s[3] == _SAYS_WHICH for k in range(s[0], s[1])}  # "Spielberg's Hook"
        # works named by their person ("Flowers by Miley Cyrus"): no namesake person of the title's word
        credited = {
            s[1] for s in spans if s[3] != _SAYS_WHICH and s[1] + 1 in {t[0] for t in spans if t[3] == _SAYS_WHICH}
        }
        spans = [s for s in spans if s[3] != _SAYS_WHICH]
        spans = self._drop_genre_attributes(tokens, spans)
        spans = self._drop_acronym_readings(tokens, spans)
        spans.sort(key=lambda s: s[0])
        years = {int(t.key) for t in tokens if t.key.isdigit() and len(t.key) == 4 and 1880 <= int(t.key) <= 2100}
        history_set = frozenset(history)
        covered = {k for s in spans for k in range(s[0], s[1])} | explained
        mentions = []
        for i, j, scored, kind in spans:
            start, end = tokens[i].start, tokens[j - 1].end
            namesakes = self._namesakes(text, tokens, i, j, scored) if kind == "exact" and j not in credited else ()
            if namesakes:
                scored = {**scored, **{q: _SIM_NAMESAKE for q in namesakes}}
            typed = self._typed_as_label(text, tokens, i, j, scored) if kind == "exact" else frozenset()
            picked = frozenset(map(QID, history_set | typed))  # the message or the dialog singles these out
            cands = self._rank(scored, tokens, i, focus, history_set, years=years, typed=typed)
            if not cands:
                continue
            relation = self._relation(tokens, i, cands[0])
            if relation is not None:  # "the director of Terminator 2" -> James Cameron
                i, cands = relation
                start = tokens[i].start
            kind_hint = _kind_hint(text, tokens, i, j, self.domain)
            if kind_hint is not None and len(cands) > 1:  # "Queen is my favourite band": the band
                cands = self._prefer_kind(cands, kind_hint)
            if kind_hint not in ("album", "song") and len(cands) > 1:
                cands = self._artist_first(cands, scored)  # "I love Weezer": the band, not its album "Weezer"
            ambiguous = kind == "ask" or (len(cands) > 1 and cands[0].score - cands[1].score < AMBIGUITY_MARGIN)
            if kind != "ask" and relation is None and len(cands) > 1:
                if self._dominant(cands, scored):
                    ambiguous = False  # "I love Taylor Swift": the star, not her album of the same name
                elif self._context_pick(cands[0], focus, picked, years):
                    # the dialog or the message singles the top one out ("Inside Out (2011)", "Mother!")
                    ambiguous = ambiguous and self._context_pick(cands[1], focus, picked, years)
                elif kind == "exact":
                    fitting = [c for c in cands if kind_hint is None or self._is_kind(c, kind_hint)]
                    if years:  # "Ghostbusters 2016": not the 1984 film
                        fitting = [c for c in fitting if entity_year(self.kb, c.qid) in (None, *years)]
                    ambiguous = ambiguous or _homonyms(fitting or cands, scored) >= 2
                    # a lone name that is also the first or last name of a person at least as
                    # popular as what it names ("I like Boccaccio": a novel and Giovanni Boccaccio)
                    ambiguous = ambiguous or (
                        cands[0].qid not in namesakes
                        and any(
                            c.qid in namesakes and self.kb.popularity(c.qid) >= self.kb.popularity(cands[0].qid)
                            for c in cands[1:]
                        )
                    )
            if (
                kind == "fuzzy"
                and not ambiguous
                and all(v <= _SIM_NAMESAKE + 1e-6 for v in scored.values())
                and self.kb.popularity(cands[0].qid) < DOMINANT_MIN_POPULARITY
            ):
                ambiguous = True  # "Oppenheimer was lit": only the surname of a little-known actor, asked
            if kind != "ref" and relation is None and _fragment(text, tokens, i, j, spans, explained):
                continue  # "Spider-Man" and "Way Home" of "Spider-Man: No Way Home" (not in the KB)
            if kind in ("exact", "fuzzy") and relation is None and _subject_fragment(text, tokens, i, j):
                continue  # "Clair" of "Clair de lune is the most beautiful piece" (not in the KB)
            if (
                kind == "exact"
                and relation is None
                and not ambiguous
                and not self._context_pick(cands[0], focus, picked, years)
            ):
                ambiguous = _dangling(text, tokens, i, j, covered)
            mentions.append(
                Mention(
                    text[start:end],
                    start,
                    end,
                    cands,
                    ambiguous,
                    partial=kind == "ask" and all(v == _SIM_TITLE_WORD for v in scored.values()),
                )
            )
        return tuple(mentions)

    def _typed_as_label(self, text: str, tokens: list[_Token], i: int, j: int, hit: Any) -> frozenset[str]:
        """Candidates whose label ends with the "!" or "?" typed right after the span, the words
        being those of the label ("Mother!" of Aronofsky, not Albert Brooks's "Mother"; "Help!"): the
        user typed the title as it is spelled, a signal as strong as a year."""
        mark = text[tokens[j - 1].end : tokens[j - 1].end + 1]
        if not mark or mark not in _LABEL_PUNCTUATION:
            return frozenset()
        words = tuple(t.key for t in tokens[i:j])
        out = set()
        for qid in hit:
            label = self.kb.label(qid).rstrip()
            if label.endswith(mark) and name_key(label) in (words, ("the", *words)):
                out.add(qid)
        return frozenset(out) if len(out) < len(hit) or len(out) == 1 else frozenset()

    def _namesakes(self, text: str, tokens: list[_Token], i: int, j: int, scored: dict[str, float]) -> frozenset[str]:
        """Persons whose first or last name is the one word matched exactly at ``i`` when that word
        names something else too ("Boccaccio": a book and Giovanni Boccaccio; "Disney": the
        company and Walt Disney); only for a capitalised word or the whole object of a like-verb.
        Persons already matched by the word (their label or alias) are not namesakes."""
        if j - i != 1:
            return frozenset()
        people = self._names.namesakes(tokens[i].key)
        if not people:
            return frozenset()
        whole_object = (
            i > 0
            and tokens[i - 1].key in _LIKE_VERBS
            and (j == len(tokens) or _boundary(text, tokens, j) or tokens[j].key in _SPAN_STOP | _CLAUSE_STOP)
        )
        if not (tokens[i].raw[:1].isupper() or whole_object):
            return frozenset()
        if any(q in scored for q in people):
            return frozenset()  # the word already names one of these persons ("Tolkien")
        return frozenset(people)

    def _by_person(self, text: str, tokens: list[_Token], spans: list) -> list:
        """ "TITLE by PERSON" ("1984 by Orwell", "Misery by Stephen King", "Hello by Adele") and "TITLE
        is my favourite PERSON (song)" ("Help! is my favourite Beatles song"): the words before "by"
        (or the subject before "is") name a work of that person, matched against the person's works in the KB
        (labels and aliases, exactly, by content words, or with ``fuzz.ratio`` >= :data:`FUZZY_CUTOFF`;
        a year-like number also as words: "1984" = "Nineteen Eighty-Four"); failing that, any item
        whose name the words are, however common ("Misery"), but not one written or directed by
        someone else. "TITLE with PERSON" and "TITLE from PERSON" ("Big with Tom Hanks") count only
        when the title is one of the person's works. The work replaces the person's mention (the
        person is rated only when named on their own; a second person after "and" says which work
        too); nothing found: unchanged."""
        out = self._works_after(text, tokens, self._possessive_person(text, tokens, spans))
        for span in spans:
            i = span[0]
            if span not in out or i < 2:
                continue
            lead = tokens[i - 1].key
            if lead in _WORK_OF_LEADS:
                end = i - 1
            else:  # "Help! is my favourite Beatles song", "Fargo has always been my favourite Coen brothers film"
                if not {t.key for t in tokens[max(0, i - 2) : i]} & _SUPERLATIVES:
                    continue
                end = next((k for k in range(1, i) if _is_verb(tokens, k)), 0)
                if end == 0 or not any(s[1] <= end for s in out if s is not span) and not tokens[0].raw[:1].isupper():
                    continue
            people = [q for q in span[2] if _PERSON_ROLES.intersection(self.kb.roles(q))]
            if span[1] - i == 1:  # "Vertigo by Hitchcock": the persons of that last name too
                people += [q for q in (self._names.namesakes(tokens[i].key) or ()) if q not in people]
            if not people:
                continue  # "blown away by Interstellar"
            people.sort(key=lambda q: -self.kb.popularity(q))  # the best known first: Alfred of the Hitchcocks
            value_items = getattr(self.kb, "value_items", None)
            if value_items is None:
                continue
            works = {w for p in people[:3] for _pid, w in value_items(p) if self.kb.is_item(w)}
            # the songs of their albums too: the shared dump often gives a song's performer only on its album
            works |= {
                w for album in list(works) for pid, w in value_items(album) if pid == "P361" and self.kb.is_item(w)
            }
            found = self._title_before(text, tokens, end, works, own_only=lead in ("with", "from"))
            if found is not None and not works.intersection(found[1]):
                # none of the person's works: not one written or directed by someone else ("Blindness by
                # Saramago" is not Henry Green's "Blindness"; a song's performer may cover it: "Hurt by
                # Johnny Cash"); a namesake with no credit may be theirs, the KB lacking it
                named = set(people)
                kept = {
                    q: v
                    for q, v in found[1].items()
                    if not self._credited(q, _SOLE_CREATORS) or named.intersection(self._creators(q))
                }
                found = (found[0], kept) if kept else None
            if found is None and lead in ("with", "from"):
                if span[3] == "fuzzy" and any(s[1] == end for s in out):
                    out = [s for s in out if s is not span]  # "A Ghost Story from David Lowery": not his
                    # namesake "David Lowe", whose works it is not: a person the KB lacks says which
                continue  # "Moon with my friend Sam", "Heat from Michael Mann" unknown: both as they are
            if found is None:
                before = tokens[end - 1].raw
                if before[:1].isupper() or before.isdigit() or any(s[1] <= end for s in out if s is not span):
                    out = [s for s in out if s is not span]  # "Tenet by Nolan", Tenet unknown: Nolan is no opinion
                continue
            a, scored = found
            out = [s for s in out if s is not span and not (a <= s[0] < end or a < s[1] <= end)]
            out.append((a, end, scored, "exact"))
            out.append((span[0], span[1], {}, _SAYS_WHICH))
            out = self._co_credited(text, tokens, span[1], out)
            # "Emma and Persuasion are my favourite Austen novels": the works listed before it are theirs too
            for _listed in range(MAX_LIST_ITEMS):
                if a < 2 or tokens[a - 1].key != "and" and text[tokens[a - 2].end : tokens[a - 1].start].strip() != ",":
                    break
                joint = a - 1 if tokens[a - 1].key == "and" else a
                listed = self._title_before(text, tokens, joint, works, own_only=True)
                if listed is None or not works.intersection(listed[1]):
                    break
                b, scored = listed[0], {q: v for q, v in listed[1].items() if q in works}
                out = [s for s in out if not (b <= s[0] < joint or b < s[1] <= joint)]
                out.append((b, joint, scored, "exact"))
                a = b
        return out

    def _co_credited(self, text: str, tokens: list[_Token], j: int, spans: list) -> list:
        """ "TITLE by A and B" ("Under Pressure by Queen and David Bowie"): a person named right after the
        one who says which work is meant, joined by "and" or "&", says it too (no opinion of them)."""
        if j + 1 >= len(tokens) or tokens[j].key not in ("and", "&") or _boundary(text, tokens, j):
            return spans
        follower = next((s for s in spans if s[0] == j + 1 and s[3] != _SAYS_WHICH), None)
        if follower is None or not any(_PERSON_ROLES.intersection(self.kb.roles(q)) for q in follower[2]):
            return spans
        out = [s for s in spans if s is not follower]
        out.append((follower[0], follower[1], {}, _SAYS_WHICH))
        return out

    def _works_after(self, text: str, tokens: list[_Token], spans: list) -> list:
        """ "ARTIST TITLE" or "ARTIST's TITLE" with TITLE one of the artist's works, however weak its words
        alone ("radiohead ok computer 🔥", "Taylor Swift's folklore"): the work is linked in place of the
        artist (who only says which work is meant), replacing weaker matches inside its words."""
        value_items = getattr(self.kb, "value_items", None)
        if value_items is None:
            return spans
        out = list(spans)
        keys = [t.key for t in tokens]
        for span in spans:
            j = span[1]
            if span not in out or j >= len(tokens) or _boundary(text, tokens, j):
                continue
            people = [q for q in span[2] if _PERSON_ROLES.intersection(self.kb.roles(q))][:3]
            if not people:
                continue
            start = j + 1 if keys[j] == "s" and j + 1 < len(tokens) else j
            works = {w for p in people for _pid, w in value_items(p) if self.kb.is_item(w)}
            if not works:
                continue
            titles: dict[tuple[str, ...], dict[str, float]] = {}
            for w in works:
                for name in (self.kb.label(w), *self.kb.aliases(w)):
                    key = name_key(name)
                    if key:
                        titles.setdefault(key, {})[w] = _SIM_LABEL
            found = None
            for end in range(min(len(tokens), start + MAX_SKELETON_SPAN), start, -1):
                if any(_boundary(text, tokens, k) for k in range(start + 1, end)):
                    continue
                hit = titles.get(tuple(keys[start:end]))
                if hit:
                    found = (start, end, hit, "exact")
                    break
            if found is None:
                continue
            a, b = found[0], found[1]
            out = [s for s in out if s is not span and not (s[0] < b and a < s[1])]
            out.append(found)
            out.append((span[0], span[1], {}, _SAYS_WHICH))
        return out

    def _possessive_person(self, text: str, tokens: list[_Token], spans: list) -> list:
        """ "PERSON's TITLE" ("Spielberg's Hook", "Radiohead's OK Computer"): the person only says which
        work is meant, so their mention leaves when an item's mention follows the possessive, or a
        capitalised title the KB lacks ("Nirvana's Bleach Sessions"), or a superlative after a work
        named before ("Hotel California is the Eagles' best": the work is rated); alone the person is
        rated ("Weezer's old stuff is great")."""
        starts = {s[0]: s for s in spans}
        out = list(spans)
        for span in spans:
            j = span[1]
            if (
                j + 1 >= len(tokens)
                or tokens[j].key != "s"
                or text[tokens[j - 1].end : tokens[j].start] not in _APOSTROPHES
            ):
                continue
            follower = starts.get(j + 1)
            if follower is None or not any(self.kb.is_item(q) for q in follower[2]):
                k = j + 2 if tokens[j + 1].key == "the" and j + 2 < len(tokens) else j + 1  # "Atwood's The Testaments"
                after = tokens[k]
                # a capitalised name follows: a title the KB lacks ("Crazy Frog's Axel F", not the artist "Axel")
                # or a member ("Radiohead's Thom Yorke"), rated for itself
                unknown_title = after.raw[:1].isupper() and after.key not in _stop_words()
                ranked = after.key in _SUPERLATIVES | {"worst"} and any(
                    s[1] <= span[0] and any(self.kb.is_item(q) for q in s[2]) for s in spans
                )
                if not (unknown_title or ranked):
                    continue
            if any(_PERSON_ROLES.intersection(self.kb.roles(q)) for q in span[2]):
                out = [s for s in out if s is not span]
                out.append((span[0], span[1], {}, _SAYS_WHICH))
        return out

    def _drop_acronym_readings(self, tokens: list[_Token], spans: list) -> list:
        """A candidate named by an everyday word only through a short acronym ("IT" for Italy, "US") is
        no reading of that word typed without capitals ("I loved It" is Stephen King's novel, never
        Italy; found by a fresh user). Longer names in capitals are stylised titles that people type in
        any case ("WALL-E", "BRAT"), and a rare word stays an acronym in lowercase too ("i love bts")."""
        out = []
        stop = _stop_words()
        for span in spans:
            i, j, scored = span[0], span[1], span[2]
            typed = "".join(t.raw for t in tokens[i:j])
            if not isinstance(scored, dict) or typed.isupper() or j - i != 1 or tokens[i].key not in stop:
                out.append(span)
                continue
            key = tuple(t.key for t in tokens[i:j])
            kept = {}
            for qid, score in scored.items():
                names = [n for n in (self.kb.label(qid), *self.kb.aliases(qid)) if n and name_key(n) == key]
                if not names or not all(n.isupper() and len(n) <= 3 for n in names):
                    kept[qid] = score
            if kept:
                out.append((i, j, kept, *span[3:]))
        return out

    def _drop_genre_attributes(self, tokens: list[_Token], spans: list) -> list:
        """A genre that describes another named thing is no opinion of the genre: after
        "favourite"/"best"/"greatest" ("Vertigo is my favourite thriller", "Halloween is the best
        horror film"), after "is"/"are" ("Neuromancer and Snow Crash are cyberpunk classics") or a
        word of praise ("Massive Attack and Tricky, perfect trip hop"); alone it is one ("My
        favourite genre is horror", "I love Radiohead and trip hop"). A genre after "for" is an
        audience, never an opinion ("dad rock for teens"). A genre word typed in lowercase counts as
        the genre even when a title shares it ("thriller")."""
        out = []
        for span in spans:
            i = span[0]
            genre = any("P136" in self.kb.roles(q) and not self.kb.is_item(q) for q in span[2]) and (
                tokens[i].raw.islower() or all("P136" in self.kb.roles(q) and not self.kb.is_item(q) for q in span[2])
            )
            if not genre:
                out.append(span)
                continue
            if i > 0 and tokens[i - 1].key == "for":
                continue  # "for teens", "for kids": an audience
            others = [s for s in spans if s is not span and not self._is_genre_span(s)]
            k = i - 1
            while k >= 0 and tokens[k].key in _DESCRIPTOR_FILLERS:
                k -= 1
            lead = tokens[k].key if k >= 0 else ""
            before = {t.key for t in tokens[max(0, i - 2) : i]}
            if others and before & _SUPERLATIVES:
                continue  # "Vertigo is my favourite thriller", "My favourite poetry collection is Leaves of Grass"
            if any(s[1] <= i for s in others) and (lead in _COPULAS or lead in _PRAISE_WORDS):
                continue  # "... are cyberpunk classics", "..., perfect trip hop"
            out.append(span)
        return out

    def _is_genre_span(self, span: tuple) -> bool:
        return all("P136" in self.kb.roles(q) and not self.kb.is_item(q) for q in span[2])

    def _title_before(
        self, text: str, tokens: list[_Token], by: int, works: set[str], *, own_only: bool = False
    ) -> tuple[int, dict[str, float]] | None:
        """The longest run of words ending before token ``by`` that names one of ``works`` (else, unless
        ``own_only``, an item of the index), with its candidates; None if nothing fits. A like-verb or a
        verb capitalised is a word of the title ("Someone Like You by Adele", "You Are Not Alone by ...")."""
        names: dict[str, list[tuple[str, ...]]] = {}
        for w in works:
            own = [name_key(self.kb.label(w))]
            own += [name_key(alias) for alias in self.kb.aliases(w)]
            names[w] = [k for k in own if k]
        keys = [t.key for t in tokens]
        best: tuple[int, dict[str, float]] | None = None
        fallback: tuple[int, dict[str, float]] | None = None
        for a in range(by - 1, max(-1, by - 1 - MAX_SKELETON_SPAN), -1):
            if a + 1 < by and _boundary(text, tokens, a + 1):
                break
            title_word = tokens[a].raw[:1].isupper() and not _boundary(text, tokens, a)  # "Love Me Do by ..."
            if not title_word and (keys[a] in _LIKE_VERBS or _is_verb(tokens, a)) or keys[a] in _CLAUSE_STOP:
                break  # (a possessive "s" is part of the title: "Butcher's Crossing by John Williams")
            if keys[a] == "and":
                continue  # a list joint opens no title (its skeleton drops it: "and Persuasion" = "Persuasion")
            typed = tuple(keys[a:by])
            spelled = tuple(w for t in typed for w in (_number_words(t) or (t,)))
            hits: dict[str, float] = {}
            for qid, variants in names.items():
                for variant in variants:
                    if variant in (typed, spelled) or _skeleton(variant) == _skeleton(spelled):
                        hits[qid] = _SIM_LABEL
                    elif len(" ".join(typed)) >= FUZZY_MIN_CHARS:
                        ratio = fuzz.ratio(" ".join(spelled), " ".join(variant))
                        if ratio >= FUZZY_CUTOFF:
                            hits[qid] = max(hits.get(qid, 0.0), _FUZZY_SIM_FACTOR * ratio / 100.0)
            if hits:
                best = (a, hits)
            elif best is None and not own_only:
                indexed = {q: v for q, v in (self._names.exact(typed) or {}).items() if self.kb.is_item(q)}
                capitalised = len(typed) > 1 and all(t.raw[:1].isupper() for t in tokens[a:by])
                if indexed and (capitalised or not all(k in _stop_words() for k in typed)):
                    fallback = (a, indexed)  # "Someone Like You by Adele": function words typed as a title
        return best or fallback

    def _dominant(self, cands: Sequence[Candidate], scored: dict[str, float]) -> bool:
        """The popularity prior settles it: the top candidate carries the typed words as its own
        name, is well known (popularity >= :data:`DOMINANT_MIN_POPULARITY`) and at least
        :data:`DOMINANT_RATIO` times as popular as every other close candidate ("Taylor Swift" the
        artist, 60, vs her album, 12; "The Lion King" 1994, 37, vs the 2019 film, 1)."""
        top = cands[0]
        person = bool(_PERSON_ROLES.intersection(top.roles))
        own_name = scored.get(top.qid, 0.0) >= _SIM_FOREIGN_ALIAS and scored.get(top.qid) != _SIM_NAMESAKE
        if person and (top.is_item or own_name) and self._lone_artist(cands, scored):
            return True  # the band or singer among works of the same name ("Weezer", "Elvis")
        if scored.get(top.qid, 0.0) < (_SIM_ALIAS if person else _SIM_VARIANT) or not (top.is_item or person):
            return False  # genres, and people named by a first or last name only, are asked about as before
        pop = self.kb.popularity(top.qid)
        rivals = [
            c for c in cands[1:] if top.score - c.score < AMBIGUITY_MARGIN or scored.get(c.qid, 0.0) >= _SIM_VARIANT
        ]
        if (
            top.is_item
            and all(self.kb.popularity(c.qid) == 0 for c in rivals)
            and pop > self._notable_popularity()
            and self._credited(top.qid)
        ):
            return True  # "Dracula": Stoker's novel, among the best-known tenth, not a namesake with no edge at all
        if pop < DOMINANT_MIN_POPULARITY:
            return False
        if not person and any(not c.is_item and top.score - c.score < AMBIGUITY_MARGIN for c in rivals):
            return False
        return all(pop >= DOMINANT_RATIO * self.kb.popularity(c.qid) for c in rivals)

    def _notable_popularity(self) -> float:
        """The popularity above which an item is among the best-known tenth of the domain's items
        (:data:`NOTABLE_QUANTILE`): 0 in a KB where most works have no edge (books), 24 for films,
        where a film with no edge is mostly a recent one the shared dump lacks ("Suspiria" 2018)."""
        if self._notable is None:
            items = getattr(self.kb, "items", ())
            pops = sorted(self.kb.popularity(q) for q in items)
            self._notable = pops[int(NOTABLE_QUANTILE * (len(pops) - 1))] if pops else math.inf
        return self._notable

    def _creators(self, qid: str) -> set[str]:
        """The persons the item is credited to by :data:`_SOLE_CREATORS` (author, director)."""
        item_values = getattr(self.kb, "item_values", None)
        return set() if item_values is None else {v for pid, v in item_values(qid) if pid in _SOLE_CREATORS}

    def _credited(self, qid: str, roles: frozenset[str] = _PERSON_ROLES) -> bool:
        """The item has a creator in the KB (author, director, performer, composer ...; or one of ``roles``)."""
        item_values = getattr(self.kb, "item_values", None)
        return item_values is not None and any(pid in roles for pid, _v in item_values(qid))

    def _artist_first(self, cands: tuple[Candidate, ...], scored: dict[str, float]) -> tuple[Candidate, ...]:
        """Works named after their own author or performer ("Weezer" the album by Weezer, "Bon Jovi"
        by Bon Jovi) leave the candidates when the artist is one of them, and a name that is a far
        better-known person's alias ("Elvis", "Mozart") puts that person first: the popularity prior
        over every reading of the typed words (:data:`DOMINANT_RATIO`, :data:`DOMINANT_MIN_POPULARITY`)."""
        item_values = getattr(self.kb, "item_values", None)
        qids = {c.qid for c in cands}
        if item_values is not None:
            kept = tuple(
                c
                for c in cands
                if _PERSON_ROLES.intersection(c.roles)
                or not any(p in _PERSON_ROLES and v in qids and v != c.qid for p, v in item_values(c.qid))
                or scored.get(c.qid, 0.0) < _SIM_VARIANT
            )
            if kept:
                cands = kept
        best_sim = max(scored.values(), default=0.0)
        named = [
            c
            for c in cands
            if (c.is_item or _PERSON_ROLES.intersection(c.roles))  # artists are property values in music
            and (
                scored.get(c.qid, 0.0) >= (_SIM_VARIANT if c.is_item else _SIM_ALIAS)  # "Beethoven (I Love to ...)"
                or scored.get(c.qid, 0.0) >= best_sim - 1e-9 > 0.0  # the same typo'd name: "beyonse"
                # a person's alias that is also a work's label ("Elvis", "Mozart") still names the person
                or (
                    scored.get(c.qid, 0.0) >= _SIM_FOREIGN_ALIAS
                    and scored.get(c.qid) != _SIM_NAMESAKE  # a first or last name only ("Boccaccio") names no one
                    and _PERSON_ROLES.intersection(c.roles)
                )
            )
        ]
        performers = [c for c in named if _PERSON_ROLES.intersection(c.roles)]
        if len(performers) == 1 and len(named) > 1 and performers[0] is not cands[0]:
            artist = performers[0]  # "I love Weezer": the band, not its album of the same name
            others = max(self.kb.popularity(c.qid) for c in named if c is not artist)
            pop = self.kb.popularity(artist.qid)
            weaker = scored.get(artist.qid, 0.0) < scored.get(cands[0].qid, 0.0)
            # a work of the artist's own name whose performer the KB does not know is likely the artist's
            # self-titled one ("Blink-182" the album, 9, and the band, 6)
            eponymous = not weaker and all(
                item_values is not None
                and not any(p in _PERSON_ROLES for p, _v in item_values(c.qid))
                and DOMINANT_RATIO * pop >= self.kb.popularity(c.qid)
                for c in named
                if c is not artist
            )
            if (pop >= others or eponymous) and (not weaker or pop >= DOMINANT_RATIO * others):
                top = dataclasses.replace(artist, score=round(max(artist.score, cands[0].score) + 1e-6, 6))
                cands = (top, *(c for c in cands if c.qid != artist.qid))
        if len(named) > 1:
            pops = {c.qid: self.kb.popularity(c.qid) for c in named}
            best = max(named, key=lambda c: pops[c.qid])
            if best.qid != cands[0].qid and pops[best.qid] >= DOMINANT_MIN_POPULARITY:
                if all(pops[best.qid] >= DOMINANT_RATIO * pops[c.qid] for c in named if c is not best):
                    top = dataclasses.replace(best, score=round(max(best.score, cands[0].score) + 1e-6, 6))
                    cands = (top, *(c for c in cands if c.qid != best.qid))
        return cands

    def _lone_artist(self, cands: Sequence[Candidate], scored: dict[str, float]) -> bool:
        """The top candidate is the only performer or author among the close candidates and the
        other close ones are works at most as well known (an artist's eponymous album or song)."""
        top = cands[0]
        pop = self.kb.popularity(top.qid)
        for c in cands[1:]:
            if top.score - c.score >= AMBIGUITY_MARGIN and scored.get(c.qid, 0.0) < _SIM_VARIANT:
                continue
            if not c.is_item or _PERSON_ROLES.intersection(c.roles) or self.kb.popularity(c.qid) > pop:
                return False
        return True

    def _prefer_kind(self, cands: tuple[Candidate, ...], kind: str) -> tuple[Candidate, ...]:
        """Candidates of the kind a type noun names ("band", "album", "song") get :data:`_TYPE_BONUS`;
        when exactly the top one fits, the others drop below the ambiguity margin."""
        fits = {c.qid for c in cands if self._is_kind(c, kind)}
        if not fits or len(fits) == len(cands):
            return cands
        bonus = AMBIGUITY_MARGIN + _TYPE_BONUS
        boosted = [dataclasses.replace(c, score=round(c.score + bonus, 6)) if c.qid in fits else c for c in cands]
        boosted.sort(key=lambda c: (-c.score, _qid_order(c.qid)))
        return tuple(boosted)

    def _is_kind(self, cand: Candidate, kind: str) -> bool:
        roles = set(cand.roles) | set(self.kb.roles(cand.qid))
        if kind == "performer":
            return "P175" in roles
        if kind == "album":
            return "P361" in roles and "P175" not in roles
        if kind == "song":
            values = getattr(self.kb, "item_values", None)
            return bool(cand.is_item and values is not None and any(p == "P361" for p, _ in values(cand.qid)))
        if kind == "work":
            return cand.is_item and not roles.intersection(_PERSON_ROLES)
        if kind == "person":
            return bool(roles.intersection(_PERSON_ROLES))
        return False

    def _context_pick(self, top: Candidate, focus: QID | None, history: frozenset[QID], years: set[int]) -> bool:
        """The dialog or the message singles out the top candidate: it is the focus item, an earlier
        mention, or of a year named in the message ("The Avengers (2012)")."""
        return top.qid == focus or top.qid in history or bool(years and entity_year(self.kb, top.qid) in years)

    def _relation(self, tokens: list[_Token], i: int, item: Candidate) -> tuple[int, tuple[Candidate, ...]] | None:
        """ "<role> of <item>": the item's values for that role, most popular first (None if not so)."""
        if i < 2 or tokens[i - 1].key != "of" or tokens[i - 2].key not in self._role_words or not item.is_item:
            return None
        pid = self._role_words[tokens[i - 2].key]
        item_values = getattr(self.kb, "item_values", None)
        if item_values is None:
            return None
        values = [q for p, q in item_values(item.qid) if p == pid]
        if not values:
            return None
        kb = self.kb
        ranked = sorted(
            (
                Candidate(
                    QID(q),
                    kb.label(q),
                    round(_W_SIM + _W_POP * math.log1p(max(kb.popularity(q), 0.0)) / self._pop_scale, 6),
                    bool(kb.is_item(q)),
                    (PID(pid),),
                    kb.description(q),
                )
                for q in dict.fromkeys(values)
            ),
            key=lambda c: (-c.score, _qid_order(c.qid)),
        )
        first = i - 3 if i >= 3 and tokens[i - 3].key in ("the", "a", "an", "his", "her", "its", "their") else i - 2
        return first, tuple(ranked[:MAX_CANDIDATES])

    def _exact_spans(self, text: str, tokens: list[_Token]) -> list[tuple[int, int, dict[str, float], str]]:
        found: list[tuple[int, int, dict[str, float], str]] = []
        keys = [t.key for t in tokens]
        for i, tok in enumerate(tokens):
            longest = self._names.max_len(tok.key)
            for n in range(min(longest, len(tokens) - i), 0, -1):
                hit = self._names.exact(tuple(keys[i : i + n]))
                if hit is None:
                    continue
                if self._strong_enough(text, tokens, i, i + n, hit, {f[1] for f in found}):
                    found.append((i, i + n, dict(hit), "exact"))
                    break
                if self._short_object(text, tokens, i, i + n):
                    found.append((i, i + n, dict(hit), "ask"))  # F29: "I like sia" -> ask
                    break
        found = self._skeleton_spans(text, tokens, found)
        return _longest_first(found)

    def _skeleton_spans(self, text: str, tokens: list[_Token], found: list) -> list:
        """Add title matches that differ only in articles, "of", "and" or a possessive "s" (the
        ``_skeleton_index``); a skeleton hit on a span found exactly joins its candidates."""
        if not self._names.has_skeletons():
            return found
        keys = [t.key for t in tokens]
        by_range = {(f[0], f[1]): f for f in found}
        out = list(found)
        stop = _stop_words()
        for i, tok in enumerate(tokens):
            if tok.key in _SKELETON_DROP or tok.key in _LIKE_VERBS or tok.key in stop:
                continue
            for n in range(min(MAX_SKELETON_SPAN, len(tokens) - i), 1, -1):
                j = i + n
                if keys[j - 1] in _SKELETON_DROP or any(_boundary(text, tokens, k) for k in range(i + 1, j)):
                    continue
                hit = self._names.skeleton(_skeleton(tuple(keys[i:j])))
                if hit is None:
                    continue
                same = by_range.get((i, j))
                if same is not None:
                    for qid, sim in hit.items():
                        same[2].setdefault(qid, sim)
                elif self._strong_enough(text, tokens, i, j, hit) and not any(
                    f[0] < j and i < f[1] and f[1] - f[0] >= n for f in found
                ):  # an exact match at least as long wins
                    out.append((i, j, dict(hit), "exact"))
                break
        return out

    def _short_object(self, text: str, tokens: list[_Token], i: int, j: int) -> bool:
        """A short (< 4 letters) non-stop word that is the whole object of a like-verb ("I like
        sia", "I love tex"): linked, but always asked about (F29: otherwise ask)."""
        words = [t.key for t in tokens[i:j]]
        if len(words) == 2 and words[0] == "the":
            words = words[1:]  # "I like the house"
        letters = sum(len(w) for w in words)
        everyday = len(words) == 1 and _everyday(words[0]) and words[0] not in _opinion_words()
        if any(w in _stop_words() for w in words) or not (2 <= letters < MIN_STRONG_CHARS or everyday):
            return False
        if i == 0 or tokens[i - 1].key not in _LIKE_VERBS:
            return False
        return j == len(tokens) or _boundary(text, tokens, j) or tokens[j].key in _SPAN_STOP | _CLAUSE_STOP

    def _strong_enough(
        self, text: str, tokens: list[_Token], i: int, j: int, hit: dict[str, float], ends: Container[int] = ()
    ) -> bool:
        """F29 guard: weak spans (common words / < 4 letters) need a strong signal. ``ends``: where
        the names matched before this span end (exclusive token indexes)."""
        words = [t.key for t in tokens[i:j]]
        content = words[1:] if words[0] == "the" and len(words) > 1 else words
        common = _common_words() if len(content) == 1 else _stop_words()
        letters = sum(len(w) for w in words)
        if words == ["i"]:
            return False
        if len(words) > 1 and words[0] == "i" and words[1] in _LIKE_VERBS and tokens[i + 1].raw.islower():
            return False  # "i love hip hop": the user's own words, not the album "I Love Hip Hop"
        before, after = text[: tokens[i].start].rstrip(), text[tokens[j - 1].end :].lstrip()
        quoted = before.endswith(tuple(_QUOTES)) and after.startswith(tuple(_QUOTES))
        typed = (  # "the movie It", not "the movies she acted in"
            i > 1
            and tokens[i - 1].key in _TYPE_NOUNS_SINGULAR
            and tokens[i - 2].key in ("the", "a", "an", "that")
            and words[0] not in _PREPOSITIONS
        )
        if all(w.isdigit() for w in content):
            return quoted or typed  # "2012", "300": only "the movie 300" or quoted
        if (
            i > 0
            and tokens[i - 1].key in _COPULAS
            and words[0] in _stop_words()
            and words[0] != "the"
            and not (quoted or typed)
            and not any(t.raw[:1].isupper() for t in tokens[i:j])
        ):
            return False  # "Spiegel im Spiegel is so peaceful": a predicate, not the song "So Peaceful"
        if (
            i > 1
            and tokens[i - 1].key in _COPULAS
            and not (quoted or typed)
            and all(t.raw.islower() and _zipf(t.key) >= RARE_ZIPF for t in tokens[i:j])
            and i - 1 in ends
        ):
            return False  # "Gone Girl was twisted": an English word after the named subject's verb, no "Twisted"
        subject = _opinion_subject(text, tokens, i, j)
        if self._typed_as_label(text, tokens, i, j, hit) and (subject or (i > 0 and tokens[i - 1].key in _LIKE_VERBS)):
            return True  # "Help! is my favourite Beatles song": typed as its label is spelled
        if subject and len(content) == 1 and content[0] in _OBJECT_WORDS and tokens[i].raw[:1].isupper():
            return True  # "Her is such a beautiful film", "Up made me cry": no subject pronoun, a title
        if subject and len(content) > 1 and _subject_title(tokens, i, j, content):
            return True  # "Me Before You made me cry", "come as you are is my favourite song"
        if j - i == 1 and _acronym(tokens, i) and content[0] not in _stop_words():
            return True  # "BTS and Blackpink are both amazing", "I love MGMT"
        whole = _whole_message(text, tokens, i, j)
        if " ".join(content) in _opinion_phrases() and not (quoted or typed):
            return False  # "Big fan of ...", "a must read": the words of an opinion, not a title
        if not (quoted or typed) and _inside_opinion_phrase(tokens, i, j):
            return False  # "chills" of "gives me chills", "jam" of "is my jam"
        if len(content) == 1 and content[0] in _opinion_words():
            return quoted or typed  # "favourite", "love", a bare "Like" (a rating): never a title on their own
        if len(content) == 1 and _calendar_word(tokens, i, j) and not (quoted or typed or whole):
            return False  # "on Friday", "last October": a date, not the film "Friday"
        if (
            subject
            and len(content) == 1
            and letters >= MIN_STRONG_CHARS
            and content[0] not in _stop_words()
            and not _everyday(content[0])
        ):
            return True  # "Joker was well acted", "Beloved was hard going": a rarer word opening an opinion
        if (
            len(content) == 1
            and j - i == 1
            and i > 0
            and tokens[i - 1].key in _NOUN_DETERMINERS
            and tokens[i].raw.islower()
            and not (quoted or typed)
            and not (i > 1 and tokens[i - 2].key in _LIKE_VERBS)  # "I like a thriller now and then"
        ):
            return False  # "my teens", "what a twist": a common noun after a determiner, not the genre "teen"
        if not (quoted or typed) and _predicate_noun(text, tokens, i, j, ends):
            return False  # "Neil Gaiman is a wonderful storyteller": what the named subject is, no title
        if (
            letters >= MIN_STRONG_CHARS
            and not all(w in _stop_words() for w in content)
            and any("P136" in self.kb.roles(q) for q in hit)
        ):
            return True  # a genre word: "I like horror"
        if (
            len(content) > 1
            and not (quoted or typed or whole)
            and all(_everyday(w) or w in _stop_words() for w in content)
            # "By the way, ...", "how I feel" (the pronoun is always capitalised)
            and not any(t.raw[:1].isupper() and t.key != "i" for k, t in enumerate(tokens[i:j], i) if k > 0)
            and not (i > 0 and tokens[i - 1].key in _LIKE_VERBS)
            and not (i > 1 and tokens[i - 1].key == "the" and tokens[i - 2].key in _LIKE_VERBS)
        ):
            return False  # "by the way", "for the record", "my childhood": everyday words, not a title
        if (
            len(content) == 1
            and j - i == 1
            and i > 0
            and not tokens[i].raw[:1].isupper()
            and not (quoted or typed or whole)
            and tokens[i - 1].key not in _ARGUMENT_LEADS
            and not _boundary(text, tokens, i)
            and _zipf(content[0]) >= RARE_ZIPF
        ):
            return False  # "start over from scratch": a lowercase word where no title is expected
        if len(content) == 1 and _everyday(content[0]) and not (quoted or typed or whole):
            if i > 0 and tokens[i - 1].key in _DETERMINERS:
                return False  # "my kids", "a queen"
            if (
                i == 0
                and j < len(tokens)
                and (tokens[j].key in _PREDICATES or subject)
                and content[0] not in _stop_words()
            ):
                return True  # "Frozen was great", "Speed never gets old" (not "We had to read ...")
            if (
                i == 0
                and letters >= MIN_STRONG_CHARS
                and content[0] not in _stop_words()
                and _listed_with_a_name(text, tokens, j)
            ):
                return True  # "Heat and Collateral, Michael Mann at his best"
            common = common | {content[0]}  # only a capitalised title (below) names something
        if letters >= MIN_STRONG_CHARS and not all(w in common for w in content):
            return True
        # quoted
        before, after = text[: tokens[i].start].rstrip(), text[tokens[j - 1].end :].lstrip()
        if before.endswith(tuple(_QUOTES)) and after.startswith(tuple(_QUOTES)):
            return True
        if typed:  # after a type word: "the movie It", "the song Help"
            return True
        # capitalised mid-sentence in a message that is not Title Cased throughout; a role or type
        # word is never a title so ("Woody Allen as Actors")
        if all(w in _ROLE_OR_TYPE_WORDS for w in content):
            return False
        first = tokens[i].raw
        if tokens[i].key == "i":  # the pronoun is always capitalised: "..., I love it" is no title "I Love It"
            first = tokens[i + 1].raw if j - i > 1 else ""
        sentence_start = i == 0 or before.endswith((".", "!", "?", ":", ";", "\n"))
        if first[:1].isupper() and not sentence_start and letters >= 2:
            others = [
                t.raw for k, t in enumerate(tokens) if k and not i <= k < j and t.raw[:1].isalpha() and t.key != "i"
            ]
            title_cased = bool(others) and all(w[:1].isupper() for w in others)
            shouting = all(t.raw.isupper() for t in tokens if t.raw[:1].isalpha() and t.key != "i")
            return not title_cased and not shouting
        return False

    def _reference_spans(
        self, tokens: list[_Token], taken: list, focus: str | None
    ) -> list[tuple[int, int, dict[str, float], str]]:
        """ "this movie", "that one", "it" -> the focus item (nothing without a focus)."""
        if focus is None:
            return []
        used = {k for i, j, _, _ in taken for k in range(i, j)}
        out = []
        for i, tok in enumerate(tokens):
            if i in used:
                continue
            if tok.key in _DEMONSTRATIVES and i + 1 < len(tokens) and tokens[i + 1].key in _REFERENCE_NOUNS:
                if i + 1 not in used:
                    out.append((i, i + 2, {focus: _SIM_LABEL}, "ref"))
                    used.update((i, i + 1))
            elif tok.key in ("it", "this", "that") and not out and not taken:
                # a bare pronoun refers to the focus only when nothing is named ("I watched
                # Inception and loved it" is about Inception); "that" only at the end ("I like that")
                if tok.key == "that" and i + 1 < len(tokens):
                    continue
                out.append((i, i + 1, {focus: _SIM_LABEL}, "ref"))
                used.add(i)
        return out

    def _fuzzy_spans(
        self, text: str, tokens: list[_Token], taken: list
    ) -> list[tuple[int, int, dict[str, float], str]]:
        """Typo-tolerant fallback over spans that look like names but are not fully matched exactly.

        A name-like span (object of a like-verb up to the clause end, run of capitalised words) is
        first matched as a whole, then cut before each inner connective ("pirates of the
        caribbeans | for the music"), longest first: a fuzzy hit there replaces the shorter exact
        matches inside it ("mullholand drive" -> "Mulholland Drive", not "Drive"). Otherwise its
        runs of unmatched tokens are matched one by one. ``taken`` is edited in place.
        """
        common = _common_words()
        out: list[tuple[int, int, dict[str, float], str]] = []
        budget = [MAX_FUZZY_LOOKUPS]

        def lookup(span: Sequence[_Token], *, allow_partial: bool) -> dict[str, float]:
            if budget[0] <= 0:
                return {}
            budget[0] -= 1
            return self._fuzzy_lookup(span, allow_partial=allow_partial)

        for i, j, cuts in self._name_like_spans(text, tokens):
            if any(i < s[1] and s[0] < j and not (i <= s[0] and s[1] <= j) for s in taken + out):
                continue  # overlaps a span chosen otherwise
            inside = [s for s in taken if i <= s[0] and s[1] <= j]
            covered = {k for s in inside for k in range(s[0], s[1])}
            content = [k for k in range(i, j) if tokens[k].key not in common]
            fragmented = len(inside) >= 2
            if not content or (all(k in covered for k in content) and not fragmented):
                continue
            whole = None
            for end in cuts:
                a, b = _trim(tokens, i, end, common)
                within = [s for s in inside if a <= s[0] and s[1] <= b]
                if b - a < 2 or b - a > MAX_WHOLE_SPAN_TOKENS or (within and max(s[1] - s[0] for s in within) >= b - a):
                    continue
                pieces = len(within)
                if pieces < 2 and all(k in covered for k in range(a, b) if tokens[k].key not in common):
                    continue
                if (
                    a > 0
                    and tokens[a - 1].key in _PREPOSITIONS
                    and all(
                        (tokens[k].key in common or _everyday(tokens[k].key)) and not tokens[k].raw[:1].isupper()
                        for k in range(a, b)
                    )
                ):
                    continue  # "..., by the way": an idiom of everyday words in lowercase is no (typo'd) title
                scored = lookup(tokens[a:b], allow_partial=False)
                need = FRAGMENTED_CUTOFF if pieces >= 2 else WHOLE_SPAN_CUTOFF
                if scored and max(scored.values()) >= _FUZZY_SIM_FACTOR * need / 100.0 * _SIM_VARIANT:
                    whole = (a, b, scored, "fuzzy")
                    break
            if whole is not None:
                for s in inside:
                    if whole[0] <= s[0] and s[1] <= whole[1]:
                        taken.remove(s)
                        covered.difference_update(range(s[0], s[1]))
                # pieces matched for an enclosing span (a list) give way too: "the rigns" of "the lord of the rigns"
                out[:] = [s for s in out if not (whole[0] <= s[0] and s[1] <= whole[1])]
                out.append(whole)
                covered.update(range(whole[0], whole[1]))
            k = i
            while k < j:  # runs of uncovered tokens, split at connectives
                if k in covered or tokens[k].key in _SPAN_STOP:
                    k += 1
                    continue
                m = k
                while m < j and m not in covered and tokens[m].key not in _SPAN_STOP:
                    m += 1
                a, b = _trim(tokens, k, m, common)
                if b > a and all(
                    (tokens[t].key in common or _everyday(tokens[t].key)) and not tokens[t].raw[:1].isupper()
                    for t in range(a, b)
                ):
                    a = b  # "by the way": everyday words in lowercase, no name
                if b > a:
                    # a lone first/last name only when capitalised or the whole object ("I like kubrick")
                    # an everyday word ("Woman" of "No Woman, No Cry") only as a like-verb's object or after "by"
                    lone_everyday = b - a == 1 and _everyday(tokens[a].key)
                    after_verb = a > 0 and tokens[a - 1].key in _LIKE_VERBS
                    partial = (
                        (tokens[a].raw[:1].isupper() and not lone_everyday)
                        or (a == i and b == j and (not lone_everyday or after_verb))
                        or (a > 0 and tokens[a - 1].key == "by")
                    )
                    if lone_everyday and not partial:
                        k = m  # a word spelled right is no typo of a title ("a great Bond" is not "Bound")
                        continue
                    scored = {}
                    if b < m and tokens[b].key in _TYPE_WORDS:  # a typo'd genre keeps its noun: "ramance film"
                        scored = lookup(tokens[a : b + 1], allow_partial=False)
                        b += bool(scored)
                    if not scored:
                        scored = lookup(tokens[a:b], allow_partial=partial)
                    if scored:
                        out.append((a, b, scored, "fuzzy"))
                k = m
        return out

    def _name_like_spans(self, text: str, tokens: list[_Token]) -> list[tuple[int, int, list[int]]]:
        """Spans that probably name something, with the ends to try (whole span first, then cuts
        before inner connectives): like-verb objects up to the clause end, capitalised runs."""
        common = _common_words()
        spans: list[tuple[int, int, list[int]]] = []
        n = len(tokens)
        for v, tok in enumerate(tokens):
            if tok.key not in _LIKE_VERBS:
                continue
            i = v + 1
            while i < n and (
                tokens[i].key in _OBJECT_LEAD or tokens[i].key in self._role_words or tokens[i].key in _TYPE_WORDS
            ):
                i += 1
            if i - 1 > v and tokens[i - 1].key == "the":
                i -= 1  # keep a title's article: "the shiming" -> "The Shining"
            for _chunk in range(MAX_LIST_ITEMS):  # "I love Split, Eternal Sunshine ... and Limitless"
                j = i
                while j < n and tokens[j].key not in _CLAUSE_STOP and (j == i or not _boundary(text, tokens, j)):
                    j += 1
                if j > i:
                    cuts = [j] + [k for k in range(j - 1, i, -1) if tokens[k].key in _SPAN_STOP][:MAX_CUTS]
                    spans.append((i, j, cuts))
                    # "loved the hobit and the lord of the rigns": each listed title on its own too
                    spans += [(k + 1, j, [j]) for k in range(i + 1, j - 1) if tokens[k].key == "and"][:MAX_CUTS]
                if j >= n or tokens[j].key in _CLAUSE_STOP or "," not in text[tokens[j - 1].end : tokens[j].start]:
                    break
                i = j
        for v in range(2, n - 1):  # "my favourite band is aerosmyth", "my favourit movie is the sixth sence"
            if tokens[v].key in ("is", "was") and tokens[v - 1].key in _TYPE_WORDS:
                lead = [t.key for t in tokens[max(0, v - 3) : v - 1]]
                if any(w in _SUPERLATIVES or _opinion_typo(w) for w in lead):
                    j = v + 1
                    while j < n and tokens[j].key not in _CLAUSE_STOP and not _boundary(text, tokens, j):
                        j += 1
                    spans.append((v + 1, j, [j]))
        if n <= MAX_WHOLE_MESSAGE_TOKENS and not any(
            t.key in _LIKE_VERBS or t.key in _PREDICATES or t.key in _CLAUSE_STOP for t in tokens
        ):  # a short message that is only a (typo'd) name, maybe with emoji: "shutter iland 🔥🔥", "beyonse"
            spans.append((0, n, [n]))
        for k in range(1, min(n, MAX_SUBJECT_TOKENS + 1)):  # the subject of an opinion: "the terminater was amazing"
            if tokens[k].key in _CLAUSE_STOP or tokens[k].key in ("and", "or", "but"):
                break
            if tokens[k].key in _PREDICATES and not _boundary(text, tokens, k):
                if not any(_boundary(text, tokens, m) for m in range(1, k)):
                    spans.append((0, k, [k]))
                break
        i = 1
        while i < n:
            if tokens[i].raw[:1].isupper() and tokens[i].key not in common:
                j = i + 1
                while (
                    j < n
                    and (tokens[j].raw[:1].isupper() or tokens[j].raw.isdigit())
                    and not _boundary(text, tokens, j)
                ):
                    j += 1
                if not any(s[0] <= i < s[1] for s in spans):
                    spans.append((i, j, [j]))
                i = j
            else:
                i += 1
        seen: set[tuple[int, int]] = set()
        unique = [s for s in spans if (s[0], s[1]) not in seen and not seen.add((s[0], s[1]))]  # type: ignore[func-returns-value]
        return [s for s in unique if not all(t.key in common for t in tokens[s[0] : s[1]])]

    def _fuzzy_lookup(self, span: Sequence[_Token], *, allow_partial: bool) -> dict[str, float]:
        query = " ".join(t.key for t in span)
        query = re.sub(r"(?<=[a-z])\d+$", "", query)  # "stallone4" -> "stallone"
        letters = sum(c.isalnum() for c in query)
        if letters < FUZZY_MIN_CHARS or query.isdigit():
            return {}
        if len(span) == 1 and _opinion_typo(query):
            return {}  # "my favourit band": a misspelt opinion word, not the film "The Favourite"
        scored: dict[str, float] = {}
        people = self._names.namesakes(query) if allow_partial and len(span) == 1 else None
        if people is not None:
            for qid in people:  # "I love Jackson": the persons called so
                scored[qid] = _FUZZY_SIM_FACTOR * 0.8
            return scored
        cutoff = strict = _fuzzy_cutoff(letters, len(span))
        if len(span) == 1 and len(query) >= MIN_SUBSTITUTION_CHARS:
            # one letter typed wrong in a word ("beyonse"): ratio (2n-2)/2n, under the cut-off up to 8 letters
            cutoff = min(cutoff, 100.0 * (len(query) - 1) / len(query) - 0.01)
        lo = math.floor(len(query) * cutoff / (200 - cutoff))
        hi = math.ceil(len(query) * (200 - cutoff) / cutoff)
        stop = _stop_words()
        # names are sorted by length, so each block's positions are too: the index slices the length window
        ids = self._names.fuzzy_window(lo, hi, _block_keys(query, stop))
        if ids:
            names = self._names
            choices = [names.fuzzy_name(pos) for pos in ids]
            hits = process.extract(query, choices, scorer=fuzz.ratio, score_cutoff=cutoff, limit=MAX_CANDIDATES * 2)
            digits = [t for t in query.split() if t.isdigit()]
            for name, ratio, _k in hits:
                if [t for t in name.split() if t.isdigit()] != digits:
                    continue  # "inside out 2" is not "Inside Out": a sequel's number is no typo
                if ratio < strict and OSA.distance(query, name) > 1:
                    continue  # under the cut-off only one substituted or swapped letter is a typo ("coldpaly")
                if _other_word(query, name):
                    continue  # "the matrix resurrections" is not "The Matrix Revolutions"
                for qid, kind_sim in (names.exact(tuple(name.split(" "))) or {}).items():
                    sim = _FUZZY_SIM_FACTOR * ratio / 100.0 * kind_sim
                    if scored.get(qid, 0.0) < sim:
                        scored[qid] = sim
        return scored

    # ------------------------------------------------------------------ ranking
    def _rank(
        self,
        scored: dict[str, float],
        tokens: list[_Token],
        i: int,
        focus: QID | None,
        history: frozenset[QID],
        *,
        years: set[int] | frozenset[int] = frozenset(),
        typed: frozenset[str] = frozenset(),
    ) -> tuple[Candidate, ...]:
        kb = self.kb
        before = [t.key for t in tokens[max(0, i - 2) : i]]
        role_hint = next((self._role_words[w] for w in reversed(before) if w in self._role_words), None)
        type_hint = any(w in _TYPE_WORDS for w in before)
        out = []
        for qid, sim in scored.items():
            is_item = bool(kb.is_item(qid))
            roles = tuple(kb.roles(qid))
            score = _W_SIM * sim + _W_POP * math.log1p(max(kb.popularity(qid), 0.0)) / self._pop_scale
            score += _W_DOMAIN * is_item
            if type_hint and is_item:
                score += _TYPE_BONUS
            if role_hint and role_hint in roles:
                score += _ROLE_BONUS
                roles = (PID(role_hint),)
            if years and len(scored) > 1:
                year = entity_year(kb, qid)
                if year in years:
                    score += _YEAR_BONUS  # "The Avengers (2012)"
                elif year is not None and is_item:
                    score -= _YEAR_BONUS  # "Ghostbusters 2016": not the 1984 film
            if qid in typed:
                score += _TYPED_BONUS  # "Mother!" typed with its label's punctuation
            if qid == focus:
                score += _FOCUS_BONUS
            elif qid in history:
                score += _HISTORY_BONUS
            label = kb.label(qid)
            out.append(Candidate(QID(qid), label, round(score, 6), is_item, roles, kb.description(qid)))
        out.sort(key=lambda c: (-c.score, _qid_order(c.qid)))
        return tuple(out[:MAX_CANDIDATES])


def _qid_order(qid: str) -> tuple[int, str]:
    """Tie-break of equal scores: the lower Wikidata number first (older entities are usually the
    better-known ones: Q44578 "Titanic" 1997 before Q1197729), numerically, not as text."""
    digits = qid[1:]
    return (int(digits), qid) if digits.isdigit() else (sys.maxsize, qid)


_WORK_OF_LEADS = frozenset({"by", "with", "from"})
"""Words between a title and the person who says which work it is: "Misery by Stephen King", "Big with Tom
Hanks", "A Ghost Story from David Lowery" ("with" and "from" only when the title is one of the person's works)."""
_ROMAN_NUMERALS = ("ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")
"""Sequel numerals 2-10 as a label spells them ("Evil Dead II", "Rocky IV")."""
_SAYS_WHICH = "says-which"
"""Kind of a person's span that only says which work is meant ("Spielberg's Hook"): no mention, but its
words are explained (no part of an unknown title)."""
_COPULAS = frozenset("is are was were s re been".split())
_DESCRIPTOR_FILLERS = frozenset("a an the such so pure real true proper total absolute".split())
_PRAISE_WORDS = frozenset(
    """perfect great classic brilliant amazing excellent quintessential essential peak top solid fine good
    best finest greatest underrated overrated""".split()
)
"""Words before a genre that make it an attribute of what was named ("..., perfect trip hop")."""
_APOSTROPHES = ("'", "\u2019", "\u2018", "\u02bc", "`", "\u00b4")
_S_SUBJECTS = frozenset("it that what there here he she who this everything nothing which where how".split())
"""Words whose "'s" is "is" ("it's", "that's"); after any other word it is a possessive ("Butcher's")."""


_ASPECT_WORDS = frozenset(
    """soundtrack score ending plot story cast acting sequel sequels remake trilogy series saga franchise
    album albums song songs lyrics voice vocals concert tour show live version cover covers books book film
    movie movies films music chapter chapters season seasons episode episodes era stuff""".split()
)
"""Words after a name that talk about a part or a form of it ("Pulp Fiction soundtrack is great")."""


def _subject_fragment(text: str, tokens: list[_Token], i: int, j: int) -> bool:
    """A match inside the subject that opens an opinion ("Clair de lune is the most beautiful piece")
    while the subject holds other words that no part or adverb explains (matched or not: one subject
    names one thing): the subject is a title the KB lacks, and the match only a word of it. Lists,
    "by" and possessives are no single subject; an everyday or common word, an adverb ("totally"), a
    number ("Frozen 2") or a word for a part of a work ("soundtrack") is no sign."""
    k = next((m for m in range(1, min(len(tokens), MAX_SUBJECT_TOKENS + 1)) if _is_verb(tokens, m)), 0)
    if k == 0 or j > k or any(_boundary(text, tokens, m) for m in range(1, k)):
        return False
    keys = [t.key for t in tokens[:k]]
    if {"and", "or", "by", "with", "s", "vs"} & set(keys) or keys[0] in _NOT_TITLE_OPENERS:
        return False
    if any(key in _LIKE_VERBS or key in _CLAUSE_STOP for key in keys):
        return False  # "I liked The Maze Runner but Divergent was boring": no single subject
    common = _common_words()
    for m in range(k):
        if i <= m < j:
            continue
        t = tokens[m]
        if (
            not t.raw[:1].islower()  # capitalised runs are _fragment's ("Nolan Inception is great" names both)
            or t.key in common
            or t.key in _TITLE_JOINERS
            or t.key in _ROLE_OR_TYPE_WORDS
            or t.key in _ASPECT_WORDS
            or t.key in _SUBJECT_ADVERBS
            or t.key.endswith("ly")
            or not t.key.isalpha()
            or _everyday(t.key)
        ):
            continue
        return True
    return False


def _is_verb(tokens: list[_Token], k: int) -> bool:
    """Token ``k`` is one of :data:`_PREDICATES`; an "s" only after a pronoun ("it's", not "Butcher's")."""
    if tokens[k].key not in _PREDICATES:
        return False
    return tokens[k].key != "s" or (k > 0 and tokens[k - 1].key in _S_SUBJECTS)


_OBJECT_WORDS = frozenset("her him us them me up yes".split())
"""Words that cannot open a sentence as its subject: followed by a verb, they are a title ("Her is such a
beautiful film", "Up made me cry", "Us was terrifying", "Yes are the best prog band")."""
_SUBJECT_ADVERBS = frozenset("always never still just really totally honestly seriously truly also".split())
"""Adverbs between a subject and its verb ("No Woman, No Cry always makes me smile")."""
_NOT_TITLE_OPENERS = frozenset(
    """i my our your his her their this that these those it we they he she there here all both none most some
    each every any one half everything nothing something anything everyone nobody""".split()
)
"""First words of a subject that is no title unless capitalised as one ("this book was great", "my kids were")."""
_CHAT_ACRONYMS = frozenset(
    "lol lmao omg tbh imo imho idk btw af wtf smh fyi asap ok tv dj ep lp uk usa ai bc rn irl ngl pls plz thx ty np jk rip ps".split()
)
"""Capitalised chat abbreviations, never a name on their own ("sick AF", "TBH")."""


def _opinion_subject(text: str, tokens: list[_Token], i: int, j: int) -> bool:
    """Tokens ``i:j`` open the message and a verb follows (after at most one adverb): the subject of what
    the message says ("Frozen was great", "Her is such a beautiful film", "Help! is my favourite ...")."""
    if i != 0 or j >= len(tokens):
        return False
    k = j + 1 if tokens[j].key in _SUBJECT_ADVERBS and j + 1 < len(tokens) else j
    if not _is_verb(tokens, k):
        return False
    gap = text[tokens[j - 1].end : tokens[j].start]
    return not _boundary(text, tokens, j) or gap.strip() in _LABEL_PUNCTUATION


def _subject_title(tokens: list[_Token], i: int, j: int, content: Sequence[str]) -> bool:
    """A subject of several words that reads as a title: all capitalised in a message not Title Cased
    throughout ("Me Before You made me cry"), or, in any case, three words or more not opening with a
    pronoun or determiner ("come as you are is my favourite song"; not "this book was great")."""
    if all(w in _ROLE_OR_TYPE_WORDS for w in content):
        return False
    capitalised = all(t.raw[:1].isupper() or not t.raw[:1].isalpha() for t in tokens[i:j])
    rest = [t for k, t in enumerate(tokens) if not i <= k < j and t.raw[:1].isalpha() and t.key != "i"]
    if capitalised and rest and not all(t.raw[:1].isupper() for t in rest):
        return True
    return len(content) >= 3 and tokens[i].key not in _NOT_TITLE_OPENERS


_CALENDAR_WORDS = frozenset(
    """monday tuesday wednesday thursday friday saturday sunday january february march april may june july
    august september october november december christmas easter halloween""".split()
)
_CALENDAR_LEADS = frozenset("on last next this every since until till by in of each early late one that".split())


_PREDICATE_OPENERS = frozenset("a an the such one".split())
_PREDICATE_STOPS = frozenset("than and or but like as with by to from".split())


def _predicate_noun(text: str, tokens: list[_Token], i: int, j: int, ends: Container[int]) -> bool:
    """Tokens ``i:j``, in lowercase, end a predicate noun phrase after a name's copula ("Neil Gaiman is a
    wonderful storyteller", "... is an amazing world builder", "... is the queen of crime"): a few
    lowercase words back (no "than", "and" ...) lies "is a" / "is the" right after a matched or
    capitalised name (one the KB may lack: "Brandon Sanderson")."""
    if not all(t.raw.islower() for t in tokens[i:j]):
        return False
    k = i - 1
    while k > 0 and i - k <= 4 and tokens[k].raw.islower() and tokens[k].key not in _PREDICATE_STOPS:
        named = k - 1 in ends or (k > 1 and tokens[k - 2].raw[:1].isupper() and tokens[k - 2].key != "i")
        if tokens[k].key in _PREDICATE_OPENERS and tokens[k - 1].key in _COPULAS and named:
            return not any(_boundary(text, tokens, m) for m in range(k, j))
        k -= 1
    return False


def _calendar_word(tokens: list[_Token], i: int, j: int) -> bool:
    """Tokens ``i:j`` are one day, month or holiday after a word that makes it a date ("on Friday", "last
    October", "every Christmas"): when something happened, not the film "Friday"."""
    return j - i == 1 and tokens[i].key in _CALENDAR_WORDS and i > 0 and tokens[i - 1].key in _CALENDAR_LEADS


@lru_cache(maxsize=4096)
def _opinion_typo(word: str) -> bool:
    """``word`` (5+ letters) is one typed letter away from an opinion word or a superlative ("favourit",
    "favorit", "amazng", "awsome"): no typo of a title."""
    if len(word) < 5 or not word.isalpha():
        return False
    cues = _opinion_words() | _SUPERLATIVES
    return any(abs(len(w) - len(word)) <= 1 and OSA.distance(word, w) <= 1 for w in cues)


def _acronym(tokens: list[_Token], i: int) -> bool:
    """An all-capitals word of 2+ characters in a message that is not shouted ("BTS", "MGMT", "U2"), not a
    chat abbreviation ("TBH", "AF")."""
    raw = tokens[i].raw
    if len(raw) < 2 or not raw.isalnum() or not raw.isupper() or tokens[i].key in _CHAT_ACRONYMS:
        return False
    others = [t.raw for k, t in enumerate(tokens) if k != i and t.raw[:1].isalpha() and t.key != "i"]
    return bool(others) and not all(w.isupper() for w in others)


def _listed_with_a_name(text: str, tokens: list[_Token], j: int) -> bool:
    """A capitalised word follows token ``j - 1`` after "and", "&" or a comma: the span heads a list of
    names ("Heat and Collateral", "Frozen, Moana and Coco")."""
    if j >= len(tokens):
        return False
    if tokens[j].key == "and" and not _boundary(text, tokens, j):
        return j + 1 < len(tokens) and tokens[j + 1].raw[:1].isupper() and tokens[j + 1].key != "i"
    gap = text[tokens[j - 1].end : tokens[j].start]
    return gap.strip() == "," and tokens[j].raw[:1].isupper() and tokens[j].key != "i"


def _dangling(text: str, tokens: list[_Token], i: int, j: int, covered: set[int]) -> bool:
    """A one-word match glued to an unknown word ("Laura Prepon", "paul deitel", "Una notte"): the
    word is probably part of a name the KB lacks, so the match is asked about, not assumed."""
    if j - i != 1:
        return False
    common = _common_words()
    for k in (i - 1, j):
        if not 0 <= k < len(tokens) or k in covered:
            continue
        if _boundary(text, tokens, max(k, i)):
            continue
        word = tokens[k]
        if word.key in _PREDICATES:
            continue  # "Midnights wasn't as good": a verb
        if not word.raw[:1].isupper() and _zipf(word.key) >= RARE_ZIPF:
            continue  # "Mitski breaks my heart": an everyday word in lowercase is no part of a name
        if word.raw.isalpha() and len(word.key) >= 3 and word.key not in common and word.key not in _LIKE_VERBS:
            return True
    return False


def _homonyms(cands: Sequence[Candidate], scored: dict[str, float]) -> int:
    """How many candidates carry the typed words as their own name (label, alias or derived
    variant, not a fuzzy or foreign-alias match): "Inside Out" (2015 film) and "Inside Out" (2011
    film) are homonyms whatever their popularity, so the user is asked (issue 5: "The Avengers
    (2012 film)", "The Avengers (1998 film)")."""
    return sum(c.is_item and scored.get(c.qid, 0.0) >= _SIM_VARIANT for c in cands)


_SKELETON_DROP = frozenset({"the", "a", "an", "of", "and", "s"})


def _skeleton(key: tuple[str, ...]) -> tuple[str, ...]:
    """A name key without articles, "of", "and" and the possessive "s" (see ``_skeleton_index``)."""
    return tuple(t for t in key if t not in _SKELETON_DROP)


def _bracketed_tokens(text: str, tokens: list[_Token]) -> set[int]:
    """Indices of tokens inside (...) or [...]: qualifiers such as "(2012)", "(song)", "(rock band)"."""
    inside: set[int] = set()
    for match in re.finditer(r"[(\[][^)\]]*[)\]]?", text):
        inside.update(k for k, t in enumerate(tokens) if match.start() < t.start and t.end <= match.end())
    return inside


def entity_year(kb: Any, qid: str) -> int | None:
    """Year of an entity (:func:`recommender.names.item_year`: details, else description or
    Wikipedia title). Returns None when unknown."""
    return item_year(kb, qid)


def _block_keys(joined: str, stop: frozenset[str]) -> set[str]:
    """Blocking keys of a folded name for the fuzzy search: first two and last two letters of each
    content word of 3+ letters (a typo rarely hits both ends of a word)."""
    keys = set()
    for t in joined.split():
        n = len(t)
        if n >= 3 and t not in stop:
            keys.add("<" + t[:2])
            if n >= 4:
                keys.add(t[-2:] + ">")
    return keys


def _trim(tokens: list[_Token], a: int, b: int, common: frozenset[str]) -> tuple[int, int]:
    """Drop stop words at both ends and type words at the end ("the long movies" -> "long").

    ``common`` is accepted for symmetry with the callers but only function and chat words are
    trimmed: VADER and spaCy stop words such as "full" or "beauty" belong to titles ("Full Metal
    Jacket", "American Beauty").
    """
    stop = _TRIM_WORDS
    while a < b and tokens[a].key in stop and tokens[a].key != "the":
        a += 1
    while a < b and tokens[a].key == "the" and (b - a == 1 or tokens[a + 1].key in stop):
        a += 1
    while b > a and (tokens[b - 1].key in stop or tokens[b - 1].key in _TYPE_WORDS):
        b -= 1
    return a, b


OTHER_WORD_RATIO = 75.0
"""A typed word of 4+ letters that English knows (:data:`KNOWN_WORD_ZIPF`) and is less like the name's word
than this (``fuzz.ratio``) is another word, not a typo of it ("bees" / "flies": 44, "resurrections" /
"revolutions": 67, "shark" / "shakes": 73; "iland" / "island": 91)."""
KNOWN_WORD_ZIPF = 1.5


def _other_word(query: str, name: str) -> bool:
    """Some word of ``query`` is another English word than the name's word in its place (same word count)."""
    typed, named = query.split(), name.split()
    if len(typed) != len(named) or len(typed) < 2:
        return False
    return any(
        a != b and len(a) >= 4 and a.isalpha() and fuzz.ratio(a, b) < OTHER_WORD_RATIO and _zipf(a) >= KNOWN_WORD_ZIPF
        for a, b in zip(typed, named, strict=True)
    )


def _fuzzy_cutoff(letters: int, words: int) -> float:
    """:data:`FUZZY_CUTOFF` for one word or fewer than 6 letters, else :data:`FUZZY_CUTOFF_LONG`."""
    return FUZZY_CUTOFF if letters < 6 or words == 1 else FUZZY_CUTOFF_LONG


_ABBREVIATIONS = frozenset("sgt dr mr mrs ms st jr sr mt vs vol pt no".split())


def _boundary(text: str, tokens: list[_Token], j: int) -> bool:
    """True if punctuation ending a clause stands between token j-1 and token j (a period after
    an initial or an abbreviation is not one: "J. K. Rowling", "Samuel L. Jackson", "Sgt. Pepper")."""
    if j == 0:
        return False
    gap = text[tokens[j - 1].end : tokens[j].start]
    if gap.strip() == "." and (len(tokens[j - 1].raw) == 1 or tokens[j - 1].key in _ABBREVIATIONS):
        return False
    return any(c in ",;.!?()\n" for c in gap)


_KIND_NOUNS = {
    "band": "performer",
    "bands": "performer",
    "group": "performer",
    "singer": "performer",
    "artist": "performer",
    "rapper": "performer",
    "musician": "performer",
    "songwriter": "performer",
    "dj": "performer",
    "album": "album",
    "albums": "album",
    "record": "album",
    "lp": "album",
    "ep": "album",
    "song": "song",
    "songs": "song",
    "track": "song",
    "single": "song",
    "tune": "song",
}
"""Type nouns that tell the kinds of music items apart (in the other domains the KB holds one kind of
item; "the movie X" and role words are weighed in ``_rank``)."""


def _kind_hint(text: str, tokens: list[_Token], i: int, j: int, domain: str) -> str | None:
    """The kind a type noun next to the mention names: "the band Queen", "Queen is my favourite band",
    "Queen, the album" (a type noun right before, or within the clause's next four words)."""
    if i > 0 and tokens[i - 1].key in _KIND_NOUNS and not _boundary(text, tokens, i):
        return _KIND_NOUNS[tokens[i - 1].key]
    if domain == "music" and j < len(tokens) and tokens[j].key in ("are", "were") and not _boundary(text, tokens, j):
        return "performer"  # "Train are alright": a band takes the plural
    for k in range(j, min(j + 5, len(tokens))):
        if k > j and _boundary(text, tokens, k):
            break
        if tokens[k].key in _KIND_NOUNS:
            return _KIND_NOUNS[tokens[k].key]
        if tokens[k].key in _SPAN_STOP and tokens[k].key not in ("is", "was", "a", "an"):
            break
    return None


MAX_JOINERS = 3
"""Lowercase words in a row inside a Title Cased title ("Diary of a Wimpy Kid")."""
_TITLE_JOINERS = frozenset(
    "of the at to in on for a an de la le les du des da di von van der den y v vs im am und el del della los las".split()
)
"""Lowercase words inside a Title Cased title ("Kafka on the Shore", "Batman v Superman"); "and" is
not one ("Heat and Collateral" names two films), nor "by" ("Her by Spike Jonze"); "&" is ("Carrie & Lowell"):
people list two things with "and", titles spell it "&"."""


def _title_run(text: str, tokens: list[_Token], i: int, j: int) -> tuple[int, int]:
    """The run of Title Cased words (capitalised words, numbers that are no year, and
    :data:`_TITLE_JOINERS` between them) around tokens ``i:j``, within one clause (a colon or a dash
    does not end it: "Spider-Man: No Way Home")."""

    def title_word(k: int) -> bool:
        raw = tokens[k].raw
        if tokens[k].key == "i":
            return False
        if raw.isdigit():
            return not (len(raw) == 4 and 1880 <= int(raw) <= 2100)
        return raw[:1].isupper()

    a = i
    while a > 0 and not _boundary(text, tokens, a):
        k = a - 1
        while (
            k >= 0
            and a - k <= MAX_JOINERS
            and (tokens[k].key in _TITLE_JOINERS or tokens[k].raw == "&")
            and not _boundary(text, tokens, k + 1)
        ):
            k -= 1  # "Diary of a Wimpy Kid": joiners between title words
        if k >= 0 and title_word(k) and not _boundary(text, tokens, k + 1):
            a = k
        elif k + 1 < a and title_word(k + 1) and (k < 0 or _boundary(text, tokens, k + 1)):
            a = k + 1  # a capitalised joiner opens the title: "The Matrix Resurrections"
            break
        else:
            break
    b = j
    while b < len(tokens) and not _boundary(text, tokens, b):
        k = b
        while k < len(tokens) and k - b < MAX_JOINERS and (tokens[k].key in _TITLE_JOINERS or tokens[k].raw == "&"):
            k += 1
        if k < len(tokens) and title_word(k) and not any(_boundary(text, tokens, m) for m in range(b, k + 1)):
            b = k + 1
        else:
            break
    return a, b


def _fragment(
    text: str, tokens: list[_Token], i: int, j: int, spans: Sequence[tuple], explained: Container[int] = ()
) -> bool:
    """A match inside a longer Title Cased title that no single match covers: part of a title the KB
    lacks ("Spider-Man" and "Way Home" in "Spider-Man: No Way Home", "Once" in "Everything
    Everywhere All at Once", "Percy" in "Percy Jackson", "Top Gun" and "Maverick" in "Top Gun:
    Maverick"). The run must hold another match or a capitalised word no match covers that is no
    role, type or chat word ("Brad Pitt Movies" is Brad Pitt). Messages Title Cased throughout or
    shouted say nothing by their capitals."""
    letters = [t for k, t in enumerate(tokens) if k > 0 and t.raw[:1].isalpha() and t.key != "i"]
    if letters and all(t.raw[:1].isupper() for t in letters):
        return False
    if letters and all(t.raw.isupper() for t in letters):
        return False
    a, b = _title_run(text, tokens, i, j)
    if (a, b) == (i, j):
        return False
    if any(s[0] != i and a <= s[0] and s[1] <= b for s in spans):
        return True
    covered = {k for s in spans for k in range(s[0], s[1])}
    common = _common_words()
    for k in range(a, b):
        if i <= k < j or k in covered or k in explained or tokens[k].key in _TITLE_JOINERS:
            continue
        key = tokens[k].key
        if key in _ROLE_OR_TYPE_WORDS or key.isdigit() or _calendar_word(tokens, k, k + 1):
            continue  # a number after a title is a sequel or a year the linker weighs ("Die Hard 4"); "on Friday" a date
        if key in _opinion_words() and (k == a or not tokens[k].raw[:1].isupper()):
            continue  # "Loved Inception": an opinion word opening the run; inside it, capitalised, it is
            # a word of the title ("A Love Supreme", "Sweet Dreams"), so the match is only part of it
        if k == a and (k == 0 or _boundary(text, tokens, k)) and key in common:
            continue  # a capital at the start of a sentence: "My", "Big"
        return True
    return False


_UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def _two_digits(n: int) -> list[str]:
    if n < 20:
        return [_UNITS[n]]
    return [_TENS[n // 10]] + ([_UNITS[n % 10]] if n % 10 else [])


def _number_words(token: str) -> tuple[str, ...] | None:
    """A number as title words: "1984" -> ("nineteen", "eighty", "four"), "2001" -> ("two",
    "thousand", "one"), "7" -> ("seven"); None for other tokens or numbers over 9999."""
    if not token.isdigit() or len(token) > 4:
        return None
    n = int(token)
    if n < 100:
        return tuple(_two_digits(n))
    if len(token) == 4 and 1100 <= n < 2000 and n % 100:  # years are read in pairs: "nineteen eighty four"
        return tuple(_two_digits(n // 100) + _two_digits(n % 100))
    words = []
    if n >= 1000:
        words += [_UNITS[n // 1000], "thousand"]
    if n % 1000 >= 100:
        words += [_UNITS[n % 1000 // 100], "hundred"]
    if n % 100:
        words += _two_digits(n % 100)
    return tuple(words)


def _whole_message(text: str, tokens: list[_Token], i: int, j: int) -> bool:
    """The span is all the message says (apart from "the", punctuation and emoji): "Kids", "Up!"."""
    return all(t.key == "the" for k, t in enumerate(tokens) if not i <= k < j)


def _longest_first(found: Iterable[tuple[int, int, dict, str]]) -> list[tuple[int, int, dict, str]]:
    """Keep the longest non-overlapping spans (ties: leftmost), as spaCy's ``filter_spans``."""
    chosen: list[tuple[int, int, dict, str]] = []
    used: set[int] = set()
    for span in sorted(found, key=lambda s: (-(s[1] - s[0]), s[0])):
        if not any(k in used for k in range(span[0], span[1])):
            chosen.append(span)
            used.update(range(span[0], span[1]))
    return chosen
