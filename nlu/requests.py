"""Requests for recommendations read from their wording, with the names they give (issue 22).

People ask for a list in many words, and often name what it should be like: "recommend me something",
"ok recommend", "any recs?", "I really liked Arrival, can you recommend some more?", "anything similar
to Dune?", "more like Arrival please", "some songs from Adele?", "can you show me more Blur", "can I get
songs from Muse", "I loved Heat, anything like it?". :func:`read_request` finds such a request in a
message, the parts of it that name its seeds (what the list should be like: the words after "like",
"similar to", "from", "by", "more"), the role a seed person has by the preposition that introduces it
in the domain ("songs by Y": Y as performer; "films by Y": director; "films with Y": actor; "books by
Y": author), and whether the seed is only a reference ("anything like it?", "more like this one").
"More" ("more", "next", "another one", "moar", "more books") asks for more of the list on screen, or a new one.

A statement of taste is no request: "I love songs like Hurt" and "I'd recommend Heat to anyone" name
no request word a seeker uses (a question, "please", an opening "something / any / can you ...").

The patterns are data (``nlu/wording/requests.toml``, issue 24): a new wording of a kind is a new phrase
there, never a rule for one sentence; this module keeps the structure (a request's lead of filler words, the
seeds from a marker to the end of its clause). They read the folded text respelt as chat English (``nlu.textnorm.fold`` + ``chat_spelling``: "recomend
me sth" -> "recommend me something"); seed spans are found on the typed text, where the linker's
mentions are.

Example:
    >>> request = read_request("anything similar to Dune?", "movie")
    >>> request.seeds, request.more
    (((20, 24),), False)
    >>> read_request("I love Dune", "movie") is None
    True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from logs.schema import Intent
from nlu.textnorm import chat_spelling, fold
from nlu.wording import family

__all__ = [
    "Request",
    "asked_in_clause",
    "asked_moods",
    "asks_more",
    "asks_next",
    "is_request_noun",
    "names_in_request",
    "read_request",
    "request_in_turn",
]

_WORDING = family("requests")
# The lead of a request: any number of filler words, each after any signs and before any punctuation ("ok,
# recommend", "hey! anything like X?"); a repetition with punctuation between, which templates do not say.
_FILLER = rf"(?:\W*{_WORDING.alternation('fillers')}\b[\s,!.:;-]*)*"
"""Words that may open a request before its first word ("ok recommend", "hey! anything like X?")."""


def _after_lead(name: str) -> str:
    """The pattern ``name`` opening the message after its lead (:data:`_FILLER`)."""
    return rf"^{_FILLER}(?:{_WORDING.source(name, after_lead=True)})"


def _after_clause(name: str) -> str:
    """The pattern ``name`` opening the message, or a clause after words, after its lead ("i love horror, recommend
    me one"; not "?? Recommend Books", a study's button)."""
    return rf"(?:^|(?<=\w)\s*[,.;!?]+)\s*{_FILLER}(?:{_WORDING.source(name, after_lead=True)})"


_PLAY = _WORDING.pattern("play")
"""A request to play something ("play something chill"): its words are the request's, no title ("Play")."""
_ASKS_WORDING = re.compile(
    _after_clause("asks_opening")
    + "|"
    + _WORDING.source("asks")
    + "|"
    + _WORDING.source("asks_for_works")
    + "|"
    + _WORDING.source("play")
)
"""A request for recommendations, whatever it names ("can you recommend some more?", "what should I
watch?", "recs?", "hit me with a rec", "can I get some songs ..."): asks the bot for items."""
# The bare "more X" opening a message is a seed marker only when a word (no digit) follows and it is not
# "more please" or "more recommendations": lookaheads, which templates do not say.
_SEED_MARKER = re.compile(
    _WORDING.source("seed_marker")
    + rf"|^{_FILLER}(?P<bare>{_WORDING.alternation('bare_more')})(?=\s+[^\W\d])"
    + rf"(?!\s+{_WORDING.alternation('no_seed')}\b)"
    + rf"|^{_FILLER}(?P<want>{_WORDING.source('wanting')})(?!\s*to\b)(?=\s*[^\W\d])"
    # "any good horror?", "some comedies?", "got any jazz?": a question asking for a kind or a name (issue 22-G);
    # only a question, for titles open so ("Any Given Sunday", "Some Nights")
    + rf"|^{_FILLER}(?P<any>{_WORDING.source('asking_for_any', after_lead=True)})(?=\s+[^\W\d])(?=[^?]*\?)"
    + rf"(?!\s+{_WORDING.alternation('no_seed')}\b)"
)
"""Words after which a request names its seeds ("something like X", "more like X", "songs from Y", "more
of Y", "show me more Y"), up to the end of the clause."""
_ASKING = re.compile(_WORDING.source("asking") + "|" + _after_lead("asking_opening"))
"""The message asks (a question, "please", an opener of a request): "something like Dune" asks, "I love
songs like Hurt" states a taste."""
_COMPLAINT = re.compile(_WORDING.source("complaint"))
"""A complaint that the list shows the wrong thing ("thats kendrick not adele"): what follows is asked for."""
_NOT_A_NEW_LIST = _WORDING.pattern("not_a_new_list")
"""Wordings about what was recommended, how to ask, or the user's own recommendation ("I'd recommend
Heat to anyone"): no request for a new list."""
# Where a seed phrase ends: a sign or a clause word between spaces (offsets into the typed text).
_CLAUSE_END = re.compile(rf"[,.;!?]|\s{_WORDING.alternation('clause_ends')}\s")
"""Where the seeds of a marker end: the clause ("more like Heat, but not too violent")."""
_ENDS_WITH_WORKS = re.compile(rf"\s{_WORDING.alternation('works')}\W*$")
"""A seed phrase ending with a noun of works ("a Pratchett book", "some Adele songs"): the person named before it
is its creator, as after "by"."""
_TRAILING_FILLER = re.compile(rf"(?:\s+{_WORDING.alternation('closing_words')}\b)+\W*$")
"""Words that may close a seed phrase without naming anything ("more like Tenet please")."""
_REFERENCE = _WORDING.pattern("reference")
_LIKE_THAT = _WORDING.pattern("like_that")
_NEGATED_VERB = re.compile(r"\b(?:\w+n'?t|not|never)\s+(?:\w+\s+)?$")
"""A negated verb right before a request's words ("didn't do anything for me", "never found anything for me")."""


def _clause_start(text: str, end: int) -> int:
    """Where the clause holding ``text[end]`` starts: after the last sign or clause word before ``end``."""
    starts = [m.end() for m in _CLAUSE_END.finditer(text, 0, end)]
    return starts[-1] if starts else 0


_NEGATED = re.compile(r"\b(?:no|not|nothing|never|without)\s+$")
"""A negation right before a seed marker ("no more stuff like X"): the marker asks for nothing."""
"""More of the same with a word for the kind ("anything in that vein?"): a request that refers back."""
"""A seed that only refers back: to the item on screen, else to what the user just told."""
_MORE = re.compile(_after_lead("more"))
"""More of the list: "more", "one more", "another 1", "next", "something else?", "more recommendations
please", "keep them coming"."""
_FIRST_CLAUSE = re.compile(r"^([^,.;!?\u2013\u2014]+?)\s*(?:[,.;!?\u2013\u2014]+|\s-)\s*\S")
"""The first clause of a message that goes on after it ("more please, preferably older")."""
_SAYS_OF_ITSELF = re.compile(
    r"\b(?:i|i'm|im|i've|ive|i'd|me|my|it|it's|its)\b|" + _WORDING.source("seed_marker").replace("(?P<", "(?P<m_")
)
"""What the rest of a "more" clause may not hold to be read with it: the speaker or the card ("next, i loved it"),
or seeds ("more please, something like Heat")."""
_MOOD_GENRES: dict[str, dict[str, str]] = {d: dict(t) for d, t in _WORDING.table("mood_genres").items()}
_MOOD_ASKED = {
    domain: re.compile(
        r"\b(?:something|anything|stuff)\s+(?:(?:really|very|super|proper|kinda|bit|little)\s+)*("
        + "|".join(sorted(map(re.escape, moods), key=len, reverse=True))
        + r")\b"
    )
    for domain, moods in _MOOD_GENRES.items()
    if moods
}


def asked_moods(text: str, domain: str) -> tuple[str, ...]:
    """The genre words of the moods a message asks for ("what should i watch tonight, something funny": "comedy";
    "noo, something scary": "horror"), from the domain's table of moods a genre gives; () if none."""
    pattern = _MOOD_ASKED.get(domain)
    if pattern is None:
        return ()
    found = (_MOOD_GENRES[domain][m.group(1)] for m in pattern.finditer(chat_spelling(fold(text))))
    return tuple(dict.fromkeys(found))


_SEED_ROLES: dict[str, dict[str, str]] = {d: dict(r) for d, r in _WORDING.table("seed_roles").items()}
"""The role a person named as a seed has, by the preposition before it, per domain ("films by Y":
director; "films with Y": actor; "books by Y": author; "songs from Y": performer)."""


@dataclass(frozen=True, slots=True)
class Request:
    """A request for recommendations.

    Attributes:
        seeds: ``(start, end)`` character ranges of the typed text naming what the list should be like
            (after "like", "similar to", "from", "by", "more"); empty for a request that names nothing.
        role: the role PID a seed person has by its preposition ("songs by Y": ``"P175"``), or None.
        refers_back: a seed is only a reference ("anything like it?", "more like this one").
        more: the whole message asks for more ("more", "next", "another one"), nothing else.
        needs_name: only "more X" makes it a request ("more Blur please"): it stands if a name is found
            in X (``nlu.understand``), else the words were something else ("more detials", "more infos").
        only_seeds: its names are its seeds only, asked for with no opinion ("thats kendrick not adele": Adele;
            issue 22-D); the other names of the message are neither stored nor seeds.
        marks: ``(start, end)`` character ranges of the words that mark its seeds ("a book like", "anything
            by"): words of the request, never names (issue 22-G: "Like", a novel, stored from "a book like that").
    """

    seeds: tuple[tuple[int, int], ...] = ()
    role: str | None = None
    refers_back: bool = False
    more: bool = False
    needs_name: bool = False
    only_seeds: bool = False
    marks: tuple[tuple[int, int], ...] = field(default=(), compare=False)  # where its words are, not what it asks

    def covers(self, start: int, end: int) -> bool:
        """A mention at ``[start, end)`` overlaps a seed range (it names a seed)."""
        return any(start < seed_end and end > seed_start for seed_start, seed_end in self.seeds)


_REQUEST_NOUN = _WORDING.pattern("request_noun")


def is_request_noun(mention: str) -> bool:
    """The words are what a request asks for, not a name ("a Book" in "Can you recommend me a Book?",
    "some songs"): a title that happens to be the word is no seed of the request."""
    return bool(_REQUEST_NOUN.match(fold(mention).strip(" ?!.,")))


def names_in_request(request: Request, mentions: list[tuple[str, int, int]], text: str = "") -> list[bool]:
    """Which mentions ``(words, start, end)`` of a request are names: not the request's own noun ("a
    Book"), and, outside its seed phrases, not only function words ("You" in "Can You recommend me a
    Book?", a novel's title); a seed phrase's words are what the user named ("more like It"), but for a common
    noun under a modifier of its own (:func:`_theme_noun`)."""
    from nlu.stop_words import STOP_WORDS

    out = []
    for words, start, end in mentions:
        inside_mark = any(mark_start <= start and end <= mark_end for mark_start, mark_end in request.marks)
        if is_request_noun(words) or inside_mark or (text and _theme_noun(request, text, start, end, mentions)):
            out.append(False)
            continue
        folded = fold(words).strip(" ?!.,").split()
        out.append(request.covers(start, end) or not all(word in STOP_WORDS for word in folded))
    return out


_COMMON_ZIPF = 4.0
"""A word at least this frequent in English (``wordfreq`` Zipf scale: "animals" 4.8, "robots" 4.0; "dune" 3.3) is a
common noun before it is a title."""


def _theme_noun(request: Request, text: str, start: int, end: int, mentions: list[tuple[str, int, int]]) -> bool:
    """The mention is a common noun typed in lowercase in a seed phrase, after a word of that phrase no mention
    covers: what the list should be about ("anything with talking animals?", "books with giant robots"), not the
    work of that title ("Animals"); "more like heat with de niro" keeps Heat, which nothing modifies (issue 22-D)."""
    from nlu.stop_words import STOP_WORDS

    seed = next(((s, e) for s, e in request.seeds if s <= start and end <= e), None)
    words = text[start:end].split()
    if seed is None or not words or any(not w.isalpha() or not w.islower() or _zipf(w) < _COMMON_ZIPF for w in words):
        return False
    before = re.search(r"([a-z]+)\s+$", text[seed[0] : start])
    if before is None or before.group(1) in STOP_WORDS:
        return False
    begin = seed[0] + before.start(1)
    return not any(s <= begin < e for _, s, e in mentions)


@lru_cache(maxsize=4096)
def _zipf(word: str) -> float:
    from wordfreq import zipf_frequency  # imported on first use: its word list takes a moment to load

    return float(zipf_frequency(word, "en"))


_OPINION_VERB = family("opinion_cues").pattern("opinion_verb")


def asked_in_clause(text: str, start: int, end: int) -> bool:
    """The words at ``[start, end)`` of the typed text stand in a clause that asks for the list and states no
    opinion ("recommend me an anime film", "recomend some metal"; not "i love horror, recommend me one"): what
    the list is asked to be, whatever the request's own words ("recommend", "good") sound like."""
    lowered = text.lower()
    begin = max((found.end() for found in _CLAUSE_END.finditer(lowered, 0, start)), default=0)
    stop = _CLAUSE_END.search(lowered, end)
    clause = lowered[begin : stop.start() if stop else len(lowered)]
    said = _SEED_MARKER.sub(" ", clause)  # "something like X": "like" marks a seed, it is no opinion
    return bool(_ASKS_WORDING.search(chat_spelling(fold(clause)))) and not _OPINION_VERB.search(fold(said))


def asks_more(text: str) -> bool:
    """The message asks for more of the list and says nothing else ("more", "one more", "nxt pls", "keep going,
    one more": each of its clauses asks it)."""
    clauses = [clause for clause in re.split(r"[,.;!?]+", text) if clause.strip()]
    return bool(_MORE.match(chat_spelling(fold(text)))) or (
        len(clauses) > 1 and all(_MORE.match(chat_spelling(fold(clause))) for clause in clauses)
    )


def asks_next(text: str) -> str | None:
    """What the message says before it ends asking for more of the list ("I've watched that already" of "I've
    watched that already, what else have you got"; "" for "what else have you got"), None if it does not end so:
    at a card, the next one of the list, after what the message said of the card."""
    clauses = list(re.finditer(r"[^,.;!?]*[^,.;!?\s][^,.;!?]*", text))
    last = clauses[-1] if clauses else None
    if last is None or not _MORE.match(chat_spelling(fold(last.group(0)))):
        return None
    return text[: last.start()].strip(" ,.;!?")


def read_request(text: str, domain: str | None = None) -> Request | None:
    """The request for recommendations ``text`` makes, or None.

    Args:
        text: the typed message (normalised, ``nlu.textnorm.normalize``): seed ranges index it.
        domain: ``"movie"``, ``"book"`` or ``"music"`` (the roles of seed people); None: no roles.

    Returns:
        :class:`Request`, or None when the message asks for no list (a statement of taste, a question
        about the card, the user's own recommendation to others).
    """
    folded = chat_spelling(fold(text))
    if asks_more(text):  # its words are all the request's ("something different?": no title "Something Different")
        return Request(more=True, marks=((0, len(text)),))
    first = _FIRST_CLAUSE.match(text)
    rest = text[first.end(1) :].lower() if first is not None else ""
    if first is not None and _MORE.match(chat_spelling(fold(first.group(1)))) and not _SAYS_OF_ITSELF.search(rest):
        # "more please, preferably something shorter": the first clause asks for more, the rest says what it should
        # be (its genre or mood words are the dialog's); not "more please, something like Heat", nor "next, i loved
        # it" (an opinion of the card or of a name, the rest of the understanding's) (issue 22-D)
        return Request(more=True, marks=((0, first.end(1)),))
    complaint = _COMPLAINT.search(text.lower())
    if complaint is not None:  # "thats kendrick not adele": a list of what was asked for (issue 22-D)
        stop = _CLAUSE_END.search(text.lower(), complaint.end())
        start, end = complaint.end(), stop.start() if stop else len(text)
        while start < end and text[start].isspace():
            start += 1
        if text[start:end].strip():
            by = _SEED_ROLES.get(domain or "", {}).get("by")
            return Request(seeds=((start, end),), role=by, needs_name=True, only_seeds=True)
    if _NOT_A_NEW_LIST.search(folded):
        return None
    lowered = text.lower()
    # "no more stuff like X", "no more of that guy": a marker under a negation asks for less of X, no list like it
    markers = [m for m in _SEED_MARKER.finditer(lowered) if not _NEGATED.search(lowered, 0, m.start())]
    asked = _ASKS_WORDING.search(folded)
    # "didn't do anything for me", "never found anything good for me": a verb negated before the request's words in
    # their clause says what the work did not do, no request (r7opin)
    worded = asked is not None and not _NEGATED_VERB.search(
        folded[_clause_start(folded, asked.start()) : asked.start()]
    )
    alike = _LIKE_THAT.search(lowered)  # "I love Marvin Gaye, anything in that vein?": what was just named
    if not worded and not ((markers or alike) and _ASKING.search(folded)):
        return None
    seeds: list[tuple[int, int]] = []
    role: str | None = None
    refers_back = alike is not None
    played = _PLAY.search(lowered)  # "play me some X": "play" is the request's, never the album "Play"
    marks = tuple(marker.span() for marker in markers) + ((played.span(),) if played is not None else ())
    marks += (alike.span(),) if alike is not None else ()
    for number, marker in enumerate(markers):
        start = marker.end()
        while start < len(lowered) and lowered[start].isspace():
            start += 1
        stop = _CLAUSE_END.search(lowered, start)
        end = stop.start() if stop else len(lowered)
        if number + 1 < len(markers):  # "show me more stuff like that": the next marker's words are no seed
            end = min(end, markers[number + 1].start())
        filler = _TRAILING_FILLER.search(lowered, start, end)
        end = filler.start() if filler else end
        if not lowered[start:end].strip():
            continue
        if _REFERENCE.match(lowered[start:end]):
            refers_back = True
            continue
        seeds.append((start, end))
        if marker.group("alike") is None:  # "in the spirit of Y": Y is what the list resembles, in no role
            preposition = marker.group(0).split()[-1]
            role = role or _SEED_ROLES.get(domain or "", {}).get(preposition)
    # "more X", "i want a X": a request only if a name is found in X (the caller checks: Request.needs_name)
    bare = (
        not worded
        and alike is None
        and all(marker.group("bare") or marker.group("want") or marker.group("any") for marker in markers)
    )
    if role is None and any(_ENDS_WITH_WORKS.search(lowered, start, end) for start, end in seeds):
        role = _SEED_ROLES.get(domain or "", {}).get("by")  # "a Pratchett book" is a book by Pratchett (issue 22-D)
    return Request(seeds=tuple(seeds), role=role, refers_back=refers_back, needs_name=bare, marks=marks)


CARD_QUESTIONS = frozenset({Intent.REC_WHY.value, Intent.REC_DETAILS.value, Intent.REC_TRAILER.value})
"""Questions about the card on screen: a request overrules them only when it names its seeds ("some songs
from Drake?" heard as a question about the card's details) or asks for more ("more suggestions please")."""
NOT_REQUESTS = frozenset(
    {
        Intent.REC_YES_BUT.value,
        Intent.REC_NO_BUT.value,
        Intent.RESET_PROFILE.value,
        Intent.RESET_EVERYTHING.value,
        Intent.RESET_ITEMS.value,
        Intent.RESET_PROPERTIES.value,
        Intent.DELETE_PREFERENCE.value,
        Intent.START.value,
    }
)
"""Intents a request's wording never overrules: critiques of the card, resets, deletions, /start."""
ANSWERED_QUESTIONS = frozenset({"critique", "delete", "reset"})
"""Open questions whose answers are read as answers whatever they say (a choice among values, a yes/no)."""


def request_in_turn(text: str, domain: str | None, intent: str, question: str | None) -> Request | None:
    """The request of a typed turn (:func:`read_request`) when it stands: the intent heard is no critique,
    reset or deletion (:data:`NOT_REQUESTS`), nor a card question unless the request names its seeds
    or is "more" (:data:`CARD_QUESTIONS`), and no critique, deletion or reset question is open. A request overrules
    any other intent."""
    if intent in NOT_REQUESTS or question in ANSWERED_QUESTIONS:
        return None
    request = read_request(text, domain)
    if request is not None and intent in CARD_QUESTIONS and not (request.seeds or request.refers_back or request.more):
        return None  # "recommend me something" heard as "why?" at a card stays the card's question
    skips = intent == Intent.REC_SKIP or (intent == Intent.SKIP and question is not None)
    if request is not None and request.more and skips:
        return None  # "next" at a card or a question: its skip shows the next card, or drops the question
    return request
