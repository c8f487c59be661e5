"""Where a span sits in the message: the syntax the linking steps read (no KB, no index).

Reads: the message's tokens (:mod:`nlu.linking.tokens`) and the word lists (:mod:`nlu.linking.words`).
Adds: yes/no answers about a run of tokens that the guard (:mod:`nlu.linking.guard`), the fuzzy
matcher, the work resolver, the filters and the scorer ask: is it the subject of an opinion ("Frozen
was great"), an acronym ("BTS"), a date ("on Friday"), the head of a list of names ("Heat and
Collateral"), a predicate noun ("... is a wonderful storyteller"), part of a Title Cased run, inside an
opinion phrase ("gives me chills"); which kind a type noun next to it names ("the band Queen").

Example:
    >>> from nlu.linking.tokens import tokenize
    >>> tokens = tokenize("Frozen was great")
    >>> opinion_subject("Frozen was great", tokens, 0, 1), is_verb(tokens, 1)
    (True, True)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Container, Sequence
from functools import lru_cache

from rapidfuzz.distance import OSA

from nlu.linking.tokens import Token, boundary
from nlu.linking.words import (
    ADDITION_WORDS,
    CALENDAR_LEADS,
    CALENDAR_WORDS,
    CHAT_ACRONYMS,
    CLAUSE_STOP,
    COPULAS,
    KIND_NOUNS,
    LABEL_PUNCTUATION,
    LEAD_PAIRS,
    LIKE_VERBS,
    MAX_PHRASE_TOKENS,
    NAME_LEADS,
    NOT_TITLE_OPENERS,
    PREDICATE_OPENERS,
    PREDICATE_STOPS,
    PREDICATES,
    PREPOSITIONS,
    ROLE_OR_TYPE_WORDS,
    S_SUBJECTS,
    SPAN_STOP,
    SUBJECT_ADVERBS,
    SUBJECT_LEADS,
    SUBJECT_PRONOUNS,
    SUPERLATIVES,
    TITLE_JOINERS,
    TRIM_WORDS,
    TYPE_WORDS,
    WORK_NOUNS,
    opinion_phrases,
    opinion_words,
    zipf,
)

MAX_SUBJECT_TOKENS = 8
"""A message's first words up to a verb such as "is"/"was" are tried as a (typo'd) name only up to this length."""


def inside_opinion_phrase(tokens: list[Token], i: int, j: int) -> bool:
    """Tokens ``i:j`` lie inside an opinion phrase of several words in the message ("gives me chills")."""
    phrases = opinion_phrases()
    keys = [t.key for t in tokens]
    for a in range(max(0, j - MAX_PHRASE_TOKENS), i + 1):
        for b in range(max(j, a + 2), min(len(tokens), a + MAX_PHRASE_TOKENS) + 1):
            if (a, b) != (i, j) and " ".join(keys[a:b]) in phrases:
                return True
    return False


def whole_message(text: str, tokens: list[Token], i: int, j: int) -> bool:
    """The span is all the message says (apart from "the", punctuation and emoji): "Kids", "Up!"."""
    return all(t.key == "the" for k, t in enumerate(tokens) if not i <= k < j)


EMPHASIS_MIN_CHARS = 5
"""An all-capitals word of this many letters that English knows (:data:`EMPHASIS_ZIPF`) is emphasis ("BANGER",
"LOVED"); acronyms of names are shorter ("BTS", "MGMT", "ABBA") or no English word ("INXS")."""
EMPHASIS_ZIPF = 3.0
"""``wordfreq`` Zipf frequency from which a word counts as English for :data:`EMPHASIS_MIN_CHARS`."""


def emphasis(token: Token) -> bool:
    """An English word typed in capitals for emphasis ("BANGER", "LOVED"; :data:`EMPHASIS_MIN_CHARS`)."""
    raw = token.raw
    return len(raw) >= EMPHASIS_MIN_CHARS and raw.isupper() and zipf(token.key) >= EMPHASIS_ZIPF


def acronym(tokens: list[Token], i: int) -> bool:
    """An all-capitals word of 2+ characters in a message that is not shouted ("BTS", "MGMT", "U2"), not a
    chat abbreviation ("TBH", "AF")."""
    raw = tokens[i].raw
    if len(raw) < 2 or not raw.isalnum() or not raw.isupper() or tokens[i].key in CHAT_ACRONYMS:
        return False
    if emphasis(tokens[i]):
        return False  # "is a BANGER", "i LOVED it": an English word in capitals is emphasis, no acronym
    others = [t.raw for k, t in enumerate(tokens) if k != i and t.raw[:1].isalpha() and t.key != "i"]
    return bool(others) and not all(w.isupper() for w in others)


def is_verb(tokens: list[Token], k: int) -> bool:
    """Token ``k`` is one of :data:`PREDICATES`; an "s" only after a pronoun ("it's", not "Butcher's")."""
    if tokens[k].key not in PREDICATES:
        return False
    return tokens[k].key != "s" or (k > 0 and tokens[k - 1].key in S_SUBJECTS)


def opinion_subject(text: str, tokens: list[Token], i: int, j: int) -> bool:
    """Tokens ``i:j`` open the message and a verb follows (after at most one adverb): the subject of what
    the message says ("Frozen was great", "Her is such a beautiful film", "Help! is my favourite ...")."""
    if i != 0 or j >= len(tokens):
        return False
    k = j + 1 if tokens[j].key in SUBJECT_ADVERBS and j + 1 < len(tokens) else j
    if not is_verb(tokens, k):
        return False
    gap = text[tokens[j - 1].end : tokens[j].start]
    return not boundary(text, tokens, j) or gap.strip() in LABEL_PUNCTUATION


def name_slot(text: str, tokens: list[Token], i: int, j: int, ends: Container[int] = ()) -> str | None:
    """Where tokens ``i:j`` stand if a name is expected there (issue 22: lowercase is how people type in
    chat), else None:

    - ``object``: the whole object of a like-verb or a lead ("i loved misery", "a big fan of stephen
      king", "anything similar to fight club?", "more blur", "especially here comes the sun": the span
      ends the object);
    - ``subject``: it opens the message or a clause and a verb follows, maybe after the rest of a list
      ("numb and in the end are still perfect songs", "..., meteora is a bit too polished");
    - ``alone``: its clause says nothing else but "too", "also" ... ("lady bird too", "sapiens was
      brilliant, thinking fast and slow too");
    - ``list``: it follows "and" right after a name matched (``ends``: "californication and under the
      bridge"); ``comma``: a comma ("heat, ronin"); ``rated``: an emoji rating the name before ("jaws 🔥 e.t.");
    - ``topic``: it opens the message and "i loved" follows ("the giver i loved though");
    - ``fan``: "fan" follows it ("a huge bts fan", issue 22-E).
    """
    n = len(tokens)
    ends_object = j == n or boundary(text, tokens, j) or tokens[j].key in SPAN_STOP | CLAUSE_STOP | CHAT_ACRONYMS
    k = i - 1 if i > 0 and tokens[i - 1].key != "the" else i - 2
    if k >= 0 and not boundary(text, tokens, k + 1):
        lead = tokens[k].key
        pair = (tokens[k - 1].key, lead) if k > 0 else ("", lead)
        if ends_object and (
            lead in LIKE_VERBS or lead in NAME_LEADS or pair in LEAD_PAIRS or (lead == "more" and k <= 4)
        ):
            return "object"
        if pair in LEAD_PAIRS and j < n and tokens[j].key in COPULAS:
            return "object"  # "the johnny cash cover of hurt is even better": the pair's object, then its verb
    if j < n and tokens[j].key in FAN_NOUNS and not boundary(text, tokens, j) and i > 0:
        return "fan"  # "i'm a huge bts fan": what the fan is a fan of (issue 22-E)
    a, b = i, j  # the span's clause
    while a > 0 and not boundary(text, tokens, a):
        a -= 1
    while b < n and not boundary(text, tokens, b):
        b += 1
    rest = [t.key for m, t in enumerate(tokens[a:b], a) if not i <= m < j]
    if all(w in ADDITION_WORDS or w == "the" for w in rest) and ((a, b) == (0, n) or ADDITION_WORDS.intersection(rest)):
        return "alone"  # (a clause of its own is an addition only with "too" ...: not "By the way, ...")
    if i > 0 and tokens[i - 1].key == "and" and i - 1 in ends:
        return "list"
    if (
        i in ends
        and listing_gap(text[tokens[i - 1].end : tokens[i].start])
        and tokens[i].key not in PREPOSITIONS
        and not (j < n and is_verb(tokens, j))  # (a clause's subject: "romance novels, me before you made me cry")
    ):
        # "heat, ronin and collateral", "jaws 🔥 e.t. 🔥" (not ", for the record": a phrase of its own)
        return "rated" if rated_gap(text[tokens[i - 1].end : tokens[i].start]) else "comma"
    opens = (
        i == 0
        or boundary(text, tokens, i)
        or tokens[i - 1].key in ("and", "but", "though", "also", "especially")
        or tokens[i - 1].key in SUBJECT_LEADS  # "i think tarantino is overrated"
    )
    if opens and j < n:
        m = j
        if tokens[m].key == "and":  # "numb and in the end are ...": the rest of a listed subject
            m += 1
            while m < n and m - j <= MAX_SUBJECT_TOKENS and not is_verb(tokens, m) and not boundary(text, tokens, m):
                m += 1
        if m < n and tokens[m].key in SUBJECT_ADVERBS and m + 1 < n:
            m += 1
        if m < n and is_verb(tokens, m) and not boundary(text, tokens, m):
            return "subject"
    if i == 0 and j + 1 < n and tokens[j].key in SUBJECT_PRONOUNS and tokens[j + 1].key in LIKE_VERBS:
        return "topic"
    return None


ENSEMBLE_NOUNS = frozenset("duo trio quartet quintet orchestra ensemble choir outfit".split())
"""Nouns of performers an apposition may name ("justice, the french electronic duo"), besides ``KIND_NOUNS``."""

PLAYER_NOUNS = frozenset(
    "composer composers pianist pianists guitarist guitarists drummer drummers bassist vocalist vocalists violinist"
    " cellist conductor singers musicians artists rappers performer performers bands groups".split()
)
"""The closed class of music's role nouns beyond ``KIND_NOUNS``: in the clause of a name they make it a performer
("Brahms was a genius composer": the composer, not his namesake song; "Heart are fantastic musicians")."""

FAN_NOUNS = frozenset("fan fans stan".split())
"""Nouns after the name they are fans of ("a huge bts fan")."""


def listing_gap(gap: str) -> bool:
    """The characters between two tokens list names: a comma, or emoji only ("jaws 🔥 e.t. 🔥 ...", issue 22-E;
    a name's own closing "." may come first: "e.t. 🔥")."""
    gap = gap.strip().lstrip(".").strip()
    if gap == ",":
        return True
    if gap.endswith(",") and gap[:-1].strip():
        gap = gap[:-1].strip()  # "the time traveler's wife 😍, one day": an emoji rating, then the comma
    return bool(gap) and all(unicodedata.category(c) in EMOJI_CATEGORIES or c.isspace() for c in gap)


def rated_gap(gap: str) -> bool:
    """The gap between two listed names holds an emoji: each name rated by one ("one day 🤮, call me by ...")."""
    return any(unicodedata.category(c) in EMOJI_CATEGORIES and unicodedata.category(c) != "Mn" for c in gap)


EMOJI_CATEGORIES = frozenset({"So", "Sk", "Cf", "Mn"})
"""Unicode categories of emoji and their modifiers (symbols, skin tones, joiners, variation selectors)."""


def subject_title(tokens: list[Token], i: int, j: int, content: Sequence[str]) -> bool:
    """A subject of several words that reads as a title: all capitalised in a message not Title Cased
    throughout ("Me Before You made me cry"), or, in any case, three words or more not opening with a
    pronoun or determiner ("come as you are is my favourite song"; not "this book was great")."""
    if all(w in ROLE_OR_TYPE_WORDS for w in content):
        return False
    capitalised = all(t.raw[:1].isupper() or not t.raw[:1].isalpha() for t in tokens[i:j])
    rest = [t for k, t in enumerate(tokens) if not i <= k < j and t.raw[:1].isalpha() and t.key != "i"]
    if capitalised and rest and not all(t.raw[:1].isupper() for t in rest):
        return True
    return len(content) >= 3 and tokens[i].key not in NOT_TITLE_OPENERS


def calendar_word(tokens: list[Token], i: int, j: int) -> bool:
    """Tokens ``i:j`` are one day, month, season or holiday after a word that makes it a date ("on Friday",
    "last October", "every Christmas"), or both in lowercase ("last summer"): when something happened, not
    the film "Friday"."""
    if j - i == 2 and tokens[i].key in CALENDAR_LEADS and tokens[i + 1].key in CALENDAR_WORDS:
        return tokens[i].raw.islower()  # "read it last summer" (typed "Last Summer": maybe the title)
    return j - i == 1 and tokens[i].key in CALENDAR_WORDS and i > 0 and tokens[i - 1].key in CALENDAR_LEADS


def listed_with_a_name(text: str, tokens: list[Token], j: int) -> bool:
    """A capitalised word follows token ``j - 1`` after "and", "&" or a comma: the span heads a list of
    names ("Heat and Collateral", "Frozen, Moana and Coco")."""
    if j >= len(tokens):
        return False
    if tokens[j].key == "and" and not boundary(text, tokens, j):
        return j + 1 < len(tokens) and tokens[j + 1].raw[:1].isupper() and tokens[j + 1].key != "i"
    gap = text[tokens[j - 1].end : tokens[j].start]
    return gap.strip() == "," and tokens[j].raw[:1].isupper() and tokens[j].key != "i"


PREDICATE_FILLERS = frozenset(
    "just pure total absolute utter such so a an bit little kind sort of really truly".split()
)
"""Words between a copula and its predicate ("is just noise", "was a bit of a mess")."""


def predicate_of_a_name(text: str, tokens: list[Token], i: int, ends: Container[int]) -> bool:
    """Token ``i`` follows a copula (maybe after fillers: "is just", "was such a") whose subject is a name
    matched earlier in the same clause ("Gone Girl was twisted", "Yeezus on the other hand is just noise
    to me"; or capitalised, a name the KB may lack), and no superlative frames it ("X is my favourite,
    twisted" is no frame; "my favourite film is twisted" names one: no name before the copula)."""
    k = i - 1
    while k > 0 and tokens[k].key in PREDICATE_FILLERS and not boundary(text, tokens, k + 1):
        k -= 1
    if k <= 0 or tokens[k].key not in COPULAS or boundary(text, tokens, k + 1):
        return False
    a = k
    while a > 0 and not boundary(text, tokens, a):
        a -= 1
    if any(t.key in SUPERLATIVES for t in tokens[a:k]):
        return False
    # a capitalised word inside the subject is a name too, one the KB may lack ("Her cover of Jolene is unmatched")
    return any(e in ends for e in range(a + 1, k + 1)) or any(
        t.raw[:1].isupper() and t.key != "i" for t in tokens[a + 1 : k]
    )


def predicate_noun(text: str, tokens: list[Token], i: int, j: int, ends: Container[int]) -> bool:
    """Tokens ``i:j``, in lowercase, end a predicate noun phrase after a name's copula ("Neil Gaiman is a
    wonderful storyteller", "... is an amazing world builder", "... is the queen of crime"): a few
    lowercase words back (no "than", "and" ...) lies "is a" / "is the" right after a matched or
    capitalised name (one the KB may lack: "Brandon Sanderson")."""
    if not all(t.raw.islower() for t in tokens[i:j]):
        return False
    k = i - 1
    while k > 0 and i - k <= 4 and tokens[k].raw.islower() and tokens[k].key not in PREDICATE_STOPS:
        named = k - 1 in ends or (k > 1 and tokens[k - 2].raw[:1].isupper() and tokens[k - 2].key != "i")
        if tokens[k].key in PREDICATE_OPENERS and tokens[k - 1].key in COPULAS and named:
            return not any(boundary(text, tokens, m) for m in range(k, j))
        k -= 1
    return False


@lru_cache(maxsize=4096)
def opinion_typo(word: str) -> bool:
    """``word`` (5+ letters) is one typed letter away from an opinion word or a superlative ("favourit",
    "favorit", "amazng", "awsome"): no typo of a title."""
    if len(word) < 5 or not word.isalpha():
        return False
    cues = opinion_words() | SUPERLATIVES
    return any(abs(len(w) - len(word)) <= 1 and OSA.distance(word, w) <= 1 for w in cues)


def trim(tokens: list[Token], a: int, b: int, common: frozenset[str]) -> tuple[int, int]:
    """Drop stop words at both ends (and a possessive "s" at the start) and type words at the end ("the
    long movies" -> "long").

    ``common`` is accepted for symmetry with the callers but only function and chat words are
    trimmed: VADER and spaCy stop words such as "full" or "beauty" belong to titles ("Full Metal
    Jacket", "American Beauty").
    """
    stop = TRIM_WORDS
    while a < b and (tokens[a].key in stop or tokens[a].key == "s") and tokens[a].key != "the":
        a += 1  # (a possessive "s" opens no name: "agatha christie's mysteries")
    while a < b and tokens[a].key == "the" and (b - a == 1 or tokens[a + 1].key in stop):
        a += 1
    while b > a and (
        tokens[b - 1].key in stop or tokens[b - 1].key in TYPE_WORDS or tokens[b - 1].key in CHAT_ACRONYMS
    ):
        b -= 1  # (a chat abbreviation closing the clause is no word of the title: "the shining tbh", issue 22-E)
    return a, b


MAX_JOINERS = 3
"""Lowercase words in a row inside a Title Cased title ("Diary of a Wimpy Kid")."""


def title_run(text: str, tokens: list[Token], i: int, j: int) -> tuple[int, int]:
    """The run of Title Cased words (capitalised words, numbers that are no year, and
    :data:`TITLE_JOINERS` between them) around tokens ``i:j``, within one clause (a colon or a dash
    does not end it: "Spider-Man: No Way Home")."""

    def title_word(k: int) -> bool:
        raw = tokens[k].raw
        if tokens[k].key == "i":
            return False
        if raw.isdigit():
            return not (len(raw) == 4 and 1880 <= int(raw) <= 2100)
        return raw[:1].isupper()

    a = i
    while a > 0 and not boundary(text, tokens, a):
        k = a - 1
        while (
            k >= 0
            and a - k <= MAX_JOINERS
            and (tokens[k].key in TITLE_JOINERS or tokens[k].raw == "&")
            and not boundary(text, tokens, k + 1)
        ):
            k -= 1  # "Diary of a Wimpy Kid": joiners between title words
        if k >= 0 and title_word(k) and not boundary(text, tokens, k + 1):
            a = k
        elif k + 1 < a and title_word(k + 1) and (k < 0 or boundary(text, tokens, k + 1)):
            a = k + 1  # a capitalised joiner opens the title: "The Matrix Resurrections"
            break
        else:
            break
    b = j
    while b < len(tokens) and not boundary(text, tokens, b):
        k = b
        while k < len(tokens) and k - b < MAX_JOINERS and (tokens[k].key in TITLE_JOINERS or tokens[k].raw == "&"):
            k += 1
        if k < len(tokens) and title_word(k) and not any(boundary(text, tokens, m) for m in range(b, k + 1)):
            b = k + 1
        else:
            break
    return a, b


def kind_hint_of(text: str, tokens: list[Token], i: int, j: int, domain: str) -> str | None:
    """The kind a type noun next to the mention names: "the band Queen", "Queen is my favourite band",
    "Queen, the album", "my favourite songs are X" (a type noun right before, or before its copula, or
    within the clause's next four words)."""
    if i > 0 and tokens[i - 1].key in KIND_NOUNS and not boundary(text, tokens, i):
        return KIND_NOUNS[tokens[i - 1].key]
    if i > 1 and tokens[i - 1].key in COPULAS and tokens[i - 2].key in KIND_NOUNS and not boundary(text, tokens, i):
        return KIND_NOUNS[tokens[i - 2].key]  # "my fave songs are californication and ..."
    listed = (
        i > 1
        and tokens[i - 2].key not in ADDITION_WORDS
        and (  # not "oh and Franz Ferdinand are ..."
            tokens[i - 1].key == "and" or text[tokens[i - 1].end : tokens[i].start].strip() == ","
        )
    )
    if (
        domain == "music"
        and j < len(tokens)
        and tokens[j].key in ("are", "were")
        and not boundary(text, tokens, j)
        and not listed
    ):
        return "performer"  # "Train are alright": a band takes the plural (not "X and Y are": a list does)
    if domain == "music" and j < len(tokens) and tokens[j].key in FAN_NOUNS and not boundary(text, tokens, j):
        return "performer"  # "big Cure fan here": one is a fan of a band or a singer, not of its self-titled album
    if j < len(tokens) and boundary(text, tokens, j) and tokens[j].key in ("the", "a", "an"):
        for k in range(j + 1, min(j + 5, len(tokens))):  # ", the french electronic duo": what the name is
            if boundary(text, tokens, k):
                break
            kind = KIND_NOUNS.get(tokens[k].key) or ("performer" if tokens[k].key in ENSEMBLE_NOUNS else None)
            if kind is not None:
                return kind
    for k in range(j, min(j + 5, len(tokens))):
        if k > j and boundary(text, tokens, k):
            break
        if tokens[k].key in KIND_NOUNS:
            return KIND_NOUNS[tokens[k].key]
        if domain == "music" and tokens[k].key in PLAYER_NOUNS:
            return "performer"
        if tokens[k].key in SPAN_STOP and tokens[k].key not in ("is", "was", "a", "an"):
            break
    return None


def apposed_work(text: str, tokens: list[Token], j: int) -> bool:
    """An apposition after the name ending at token ``j`` is headed by a noun for a work (", the Kogonada film",
    ", a 2017 novel"): the name is a work's title, whatever persons or topics the KB has of that name."""
    if j >= len(tokens) or tokens[j].key not in ("the", "a", "an"):
        return False
    if text[tokens[j - 1].end : tokens[j].start].strip() not in (",", "-", "–", "—"):
        return False  # ("Napoleon. The film was long": a sentence of its own)
    for k in range(j + 1, min(j + 5, len(tokens))):
        if boundary(text, tokens, k):
            return False
        if tokens[k].key in WORK_NOUNS:
            return not _person_noun_after(text, tokens, k + 1)
    return False


_PERSON_NOUN_ENDS = ("er", "or", "ist", "ian")
_PERSON_NOUNS = frozenset("critic buff star legend icon genius fan nerd geek".split())


def _person_noun_after(text: str, tokens: list[Token], k: int) -> bool:
    """Token ``k`` goes on the work noun before it as a noun for a person (", the greatest film composer ever", "a
    book lover"): the apposition is a person's, not a work's."""
    if k >= len(tokens) or boundary(text, tokens, k):
        return False
    key = tokens[k].key
    return key.isalpha() and (key in _PERSON_NOUNS or key in ROLE_OR_TYPE_WORDS or key.endswith(_PERSON_NOUN_ENDS))
