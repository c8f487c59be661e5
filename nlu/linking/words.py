"""The word lists the linking steps read (data: no KB, no index).

Chat, command and domain words that never name anything alone (F29: :func:`stop_words`, with spaCy's
stop words; :func:`common_words`, with VADER's lexicon and the opinion cues of
:mod:`nlu.sentiment_lexicon`), everyday English words (:func:`is_everyday`, ``wordfreq``), type nouns
("movie", "band"), role words (from ``recommender.schema.role_words_for``), like-verbs and their chat
spellings, the words that open, join or end a name or a clause, and commands that link nothing
(:data:`COMMAND_PATTERNS`). Each list says in its docstring where a step reads it.

The lists that build the name index (:func:`stop_words`, :func:`common_words`, :func:`everyday_words`)
are part of its fingerprint (:func:`nlu.linking.index_build.index_fingerprint`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Container
from functools import lru_cache

from nlu.linking.tokens import name_key
from nlu.linking.values import PERSON_ROLES
from nlu.textnorm import fold
from recommender.schema import DOMAIN_ROLE_WORDS, role_words_for

logger = logging.getLogger(__name__)

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

TYPE_WORDS = frozenset(
    """movie movies film films book books novel novels song songs track album record band group
    series show tv saga franchise trilogy genre story""".split()
)

WORK_NOUNS = frozenset("movie film book novel song track album record series show documentary".split())
"""Nouns for a work: the head of an apposition after a name (", the Kogonada film") says the name is a work's."""

PERSON_TAILS = TYPE_WORDS | frozenset(
    "books albums songs tracks stuff music himself herself themselves please pls plz".split()
)
"""Words after a person's lone surname that say it is the person ("a spielberg movie", "bieber himself")."""

TYPE_NOUNS_SINGULAR = frozenset("movie film book novel song track album record band group series show".split())


def person_role_words(domain: str | None) -> dict[str, str]:
    """The role words naming a person's role ("the actor X", "the director of Y"), one word each, from
    the project's one role vocabulary (``recommender.schema.role_words_for``)."""
    return {w: p for w, p in role_words_for(domain).items() if p in PERSON_ROLES and " " not in w}


_ROLE_WORDS: dict[str, str] = {w: p for d in (None, *DOMAIN_ROLE_WORDS) for w, p in person_role_words(d).items()}
"""The person role words of every domain (their PID in the general vocabulary; per domain:
:func:`person_role_words`)."""

ROLE_OR_TYPE_WORDS = (
    frozenset(_ROLE_WORDS)
    | TYPE_WORDS
    | frozenset(
        """actors actresses directors authors writers producers composers singers artists musicians bands
    groups performers rappers screenwriters albums tracks records genre genres""".split()
    )
)

REFERENCE_NOUNS = frozenset("movie film one book novel song track album record series show title piece work".split())

DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})

LIKE_VERBS = frozenset(
    """like likes liked love loves loved enjoy enjoys enjoyed adore adored hate hated hates
    dislike disliked dislikes prefer preferred fan watched saw read listened stand favourite favorite fave
    lika liek lik lke likee luv lov loove looove lovd luvd lovved likd liekd enjoyd enjoied hatd""".split()
)

TRIM_WORDS = frozenset(
    """movie movies film films book books song songs album albums music band bands track tracks
    artist artists actor actors actress director directors author authors writer singer genre genres
    series show novel novels anymore lately again either""".split()
) | frozenset(
    """the a an of and or for by with in on at to from about as is was are be been i my me you your it
    its this that these those all any some very really so too much more most also just only but not
    don't dont do does did he she his her they them their we our probably definitely honestly maybe
    totally absolutely literally actually basically""".split()
)

PREPOSITIONS = frozenset("of by in from with for on at to about and or as".split())

CLAUSE_STOP = frozenset("but however although though because since while whereas so then also too very really".split())

OBJECT_LEAD = frozenset("the a an of all any movies films books songs by as is was".split())

SPAN_STOP = frozenset(
    """and but or however although though because since while whereas with without so then
    also too very much really a lot is was are were as for by from of in on at to""".split()
)

REQUEST_FILLER = frozenset(
    """me us something anything some a an any good great nice new more other else another few couple of please
    now pls plz thing things stuff one ones to watch read listen for tonight movie movies film films book books
    novel novels song songs track tracks album albums record records music""".split()
)
"""The words of a bare request ("recommend me some good movies"): a request of these words only links nothing;
any other word may be what is asked for ("recommend me a comedy": the genre; issue 22-D)."""
REQUEST_VERBS = frozenset("recommend suggest want need give show find get".split())
"""Verbs whose object is what a request asks for ("i want a comedy", "suggest me a thriller"): a genre word there
is the genre asked for, not a common noun after a determiner (:meth:`nlu.linking.guard.SpanGuard.strong_enough`)."""

_FILLER = "|".join(sorted(REQUEST_FILLER, key=len, reverse=True))
COMMAND_PATTERNS = re.compile(
    r"^(?:please\s+)?(?:"
    r"(?:show|give|send)\s+(?:me\s+)?(?:the\s+|a\s+)?(?:trailer|details|detail|profile|plot|info\w*)"
    r"|(?:show|see)\s+(?:me\s+)?my\s+profile|skip(?:\s+it|\s+this(?:\s+one)?)?|next(?:\s+one)?|help|why"
    r"|stop|start|restart|reset(?:\s+\w+)*|back|cancel|yes|no|nope|yep|yeah|ok|okay|sure|maybe|thanks?"
    r"|(?:i'?m\s+)?not\s+sure(?:\s*,?\s*(?:it'?s\s+)?up\s+to\s+you)?|(?:it'?s\s+)?up\s+to\s+you|whatever"
    rf"|surprise\s+me|what'?s\s+up|i\s+don'?t\s+know|dunno|(?:recommend|suggest)(?:\s+(?:{_FILLER}))*"
    r")[\s.!?]*$"
)


@lru_cache(maxsize=1)
def stop_words() -> frozenset[str]:
    """Stop words and chat/command/domain words: never a name on their own (F29)."""
    from nlu.stop_words import STOP_WORDS  # spaCy's list, copied: importing spaCy is ~1 s of a start

    words = set(_CHAT_WORDS) | STOP_WORDS
    return frozenset(fold(w) for w in words)


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """:func:`stop_words` plus VADER's lexicon words ("love", "happy", "nope"): weak as one-word names."""
    words = set(stop_words())
    try:
        from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

        words.update(fold(w) for w in SentimentIntensityAnalyzer().lexicon if w.isalpha())
    except ImportError:  # pragma: no cover
        logger.warning("VADER lexicon unavailable")
    return frozenset(words | opinion_words())


COMMON_ZIPF = 4.5
"""A word at least this frequent in English (``wordfreq`` Zipf scale: 4.5 = about 30 per million
words; "kids" 5.3, "spirit" 4.8, "favourite" 4.6, "titanic" 3.6, "inception" 3.7) is an everyday
word: alone, it names a title only with a signal (capitalised mid-sentence, quoted, "the movie X",
the whole message, the whole object of a like-verb: then asked about)."""

RARE_ZIPF = 3.5
"""A lowercase word typed where no name is expected (not after a like-verb, "the", "is", "and", "by",
"of" ...) is taken for a title only when rarer than this in English ("from scratch": no)."""

ARGUMENT_LEADS = (
    frozenset("the is was are were and or by of about than like love hate fan watched read heard saw seen".split())
    | LIKE_VERBS
    | TYPE_WORDS
)

SUPERLATIVES = frozenset("favourite favorite fave best greatest top finest".split())

COVER_WORDS = frozenset("cover version remix rendition recording".split())
"""Nouns of "the PERSON cover of TITLE": a recording of the title by the person (issue 22-E)."""

WORK_PRONOUNS = frozenset("something anything stuff more else one ones".split())
"""Words standing for works in a request ("anything by X", "something from X")."""

NAME_LEADS = frozenset("into than over especially particularly including like".split())
"""Words after which a name is expected ("i'm into X", "better than X", "especially X"); with "fan of",
"more of", "similar to", "more" and the like-verbs (:func:`nlu.linking.syntax.name_slot`)."""
LEAD_PAIRS = frozenset(
    {("fan", "of"), ("fans", "of"), ("more", "of"), ("similar", "to"), ("such", "as"), ("big", "on")}
    | {("i", "meant"), ("i", "mean"), ("thinking", "of"), ("talking", "about")}
    | {(word, "of") for word in COVER_WORDS}
    | {(word, lead) for word in TYPE_WORDS | WORK_PRONOUNS for lead in ("by", "from")}
    | {("what", "about"), ("how", "about")}
)
"""Two-word leads of a name ("a big fan of X", "anything similar to X", and the name put in place of another:
"sorry, i meant collateral", "i was thinking of ronin"; issue 22-D; the recording of "the X cover of hurt", 22-E;
the maker of works asked for, "a book by X", "songs from X", "anything by X", and "what about X?", fresh3)."""
ADDITION_WORDS = frozenset("too also as well either and oh plus".split())
"""Words around a name that only add it to what was said ("lady bird too", "oh and X")."""
SUBJECT_LEADS = frozenset("think thought guess believe reckon feel felt honestly personally tbh imo".split())
"""Words after which a clause, and its subject, opens ("i think tarantino is overrated")."""

SUBJECT_PRONOUNS = frozenset("i we".split())
"""Pronouns after a topicalised name ("the giver i loved though")."""

NOUN_DETERMINERS = frozenset("my your his our their a an".split())
"""Determiners before a lowercase word that make it a common noun even when a genre shares it ("my
teens", "a twist"); "her" is also an object ("I love her"), "the" opens titles and genres ("the blues")."""

DETERMINERS = frozenset("my your his her our their a an some any every no this that these those its".split())
"""A word after one of these is a common noun ("my kids"), never a title on its own."""

PREDICATES = frozenset(
    """is was s are were isn wasn aren weren has had have made makes blew bored bores rocks rocked rules sucks sucked slaps slapped
    deserves deserved will gets got kept changed gives gave hits hit brings broke breaks r did didn does doesn""".split()
)
"""Verbs after a sentence-initial name that make it the subject of an opinion ("Frozen was great"; "r" is
chat's "are")."""


@lru_cache(maxsize=65536)
def zipf(word: str) -> float:
    """``wordfreq.zipf_frequency(word, "en")`` (0.0 when the package or its data is missing)."""
    try:
        from wordfreq import zipf_frequency
    except ImportError:  # pragma: no cover - a declared dependency
        return 0.0
    return float(zipf_frequency(word, "en"))


@lru_cache(maxsize=1)
def opinion_phrases() -> frozenset[str]:
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
"""Longest opinion phrase looked for around a span (``nlu.linking.syntax.inside_opinion_phrase``)."""


def is_everyday(word: str) -> bool:
    """An everyday English word (:data:`COMMON_ZIPF`), not a number."""
    return word.isalpha() and word in _everyday_lookup()


@lru_cache(maxsize=1)
def everyday_words() -> frozenset[str]:
    """Every word whose ``zipf`` is at least :data:`COMMON_ZIPF` (about 5,000): ``wordfreq``'s list
    read in decreasing frequency down to the threshold. Built with the name index and stored in it,
    so that a start need not import wordfreq and load its 300k-word table (1-2 s, 30 MB)."""
    try:
        from wordfreq import iter_wordlist
    except ImportError:  # pragma: no cover - a declared dependency
        return frozenset()
    out = set()
    for word in iter_wordlist("en"):
        if zipf(word) < COMMON_ZIPF:
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


def use_everyday_words(words: Container[str] | None) -> None:
    """Read the everyday words from ``words`` (the set stored in a mapped name index) unless a set is
    in use already: the same words for every domain, the first one wins; None changes nothing."""
    if not _EVERYDAY and words is not None:
        _EVERYDAY.append(words)


@lru_cache(maxsize=1)
def opinion_words() -> frozenset[str]:
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


ROMAN_NUMERALS = ("ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")
"""Sequel numerals 2-10 as a label spells them ("Evil Dead II", "Rocky IV")."""

WORK_OF_LEADS = frozenset({"by", "with", "from", "of"})
"""Words between a title and the person who says which work it is: "Misery by Stephen King", "Big with Tom
Hanks", "A Ghost Story from David Lowery", non-native "Emma of Jane Austen" (all but "by" only when the title is
one of the person's works: :data:`OWN_WORK_LEADS`)."""

OWN_WORK_LEADS = WORK_OF_LEADS - {"by"}
"""The leads of :data:`WORK_OF_LEADS` that say a work only when the title is one of the person's works ("a fan
of Heart", "Moon with my friend Sam" name no work)."""

COPULAS = frozenset("is are was were s re been r".split())
"""Forms of "to be" ("r": chat's "are", "X and Y r my fav albums")."""

DESCRIPTOR_FILLERS = frozenset("a an the such so pure real true proper total absolute".split())

PRAISE_WORDS = frozenset(
    """perfect great classic brilliant amazing excellent quintessential essential peak top solid fine good
    best finest greatest underrated overrated""".split()
)
"""Words before a genre that make it an attribute of what was named ("..., perfect trip hop")."""

APOSTROPHES = ("'", "\u2019", "\u2018", "\u02bc", "`", "\u00b4")

S_SUBJECTS = frozenset("it that what there here he she who this everything nothing which where how".split())
"""Words whose "'s" is "is" ("it's", "that's"); after any other word it is a possessive ("Butcher's")."""

AUDIENCE_WORDS = frozenset(
    """kid kids child children children's teen teens teenager teenagers youth young adult adults grown-ups family
    families women men girls boys toddlers babies""".split()
)
"""People nouns a genre may be named by ("teen", "family film"): after "for" they say whom a work is for ("dad rock
for teens"), where any other genre is the object of a phrasal verb ("I don't care for big band")."""

ASPECT_WORDS = frozenset(
    """soundtrack score ending plot story cast acting sequel sequels remake trilogy series saga franchise
    album albums song songs lyrics voice vocals concert tour show live version cover covers books book film
    movie movies films music chapter chapters season seasons episode episodes era stuff""".split()
)
"""Words after a name that talk about a part or a form of it ("Pulp Fiction soundtrack is great")."""

AUXILIARIES = frozenset("can could will would should do does did have has are is may might shall".split())
"""Verbs that open a question before its subject ("Can You recommend ...", "Do You know ...")."""
PRONOUNS = frozenset("you me it us her him them i we they she he".split())
"""Pronouns: after an auxiliary opening the message, the question's subject, never a title ("You")."""

OBJECT_WORDS = frozenset("her him us them me up yes".split())
"""Words that cannot open a sentence as its subject: followed by a verb, they are a title ("Her is such a
beautiful film", "Up made me cry", "Us was terrifying", "Yes are the best prog band")."""

SUBJECT_ADVERBS = frozenset("always never still just really totally honestly seriously truly also".split())
"""Adverbs between a subject and its verb ("No Woman, No Cry always makes me smile")."""

NOT_TITLE_OPENERS = frozenset(
    """i my our your his her their this that these those it we they he she there here all both none most some
    each every any one half everything nothing something anything everyone nobody""".split()
)
"""First words of a subject that is no title unless capitalised as one ("this book was great", "my kids were")."""

CHAT_ACRONYMS = frozenset(
    "lol lmao omg tbh imo imho idk btw af wtf smh fyi asap ok tv dj ep lp uk usa ai bc rn irl ngl pls plz thx ty np jk rip ps".split()
)
"""Capitalised chat abbreviations, never a name on their own ("sick AF", "TBH")."""

CALENDAR_WORDS = frozenset(
    """monday tuesday wednesday thursday friday saturday sunday january february march april may june july
    august september october november december christmas easter halloween summer winter autumn""".split()
)

CALENDAR_LEADS = frozenset(
    "on last next this every since until till by in of each early late one that merry happy".split()
)
"""Words that make a day, month or holiday after them a date ("on Friday") or a greeting ("Merry Christmas")."""

PREDICATE_OPENERS = frozenset("a an the such one".split())

PREDICATE_STOPS = frozenset("than and or but like as with by to from".split())

KIND_NOUNS = {
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
item; "the movie X" and role words are weighed in ``nlu.linking.scoring``)."""

TITLE_JOINERS = frozenset(
    "of the at to in on for a an de la le les du des da di von van der den y v vs im am und el del della los las".split()
)
"""Lowercase words inside a Title Cased title ("Kafka on the Shore", "Batman v Superman"); "and" is
not one ("Heat and Collateral" names two films), nor "by" ("Her by Spike Jonze"); "&" is ("Carrie & Lowell"):
people list two things with "and", titles spell it "&"."""

LABEL_PUNCTUATION = "!?"
"""Closing punctuation some labels carry ("Mother!", "Help!"): typed after the name, it says which."""

QUOTES = "\"'"
"""Quotes around a span: a strong signal that it is a name (F29)."""
