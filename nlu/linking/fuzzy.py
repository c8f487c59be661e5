"""Step 1b of linking: the typo-tolerant fallback of span proposal and candidate generation.

Reads: the message's tokens, the spans the name index matched exactly (:mod:`nlu.linking.matching`)
and the index's fuzzy tables (names sorted by length with blocking keys; persons' first and last
names). Adds: ``fuzzy`` :class:`nlu.linking.values.Span` values, and removes the exact spans a
whole-span hit replaces.

Name-like spans that are not fully matched exactly (the objects of a like-verb up to the clause end,
comma lists included, and what "also", "and", "plus" opening the message add; runs of capitalised
words; the subject of a verb opening the message or a clause, split at a possessive: "Faulkner's | As I
Lay Dying"; a short message with no verb: "shutter iland 🔥🔥"; never only words for a part of a work:
"the acting") are matched with ``rapidfuzz.fuzz.ratio`` over folded names of similar
length sharing a blocking key (cut-offs :data:`nlu.linking.values.FUZZY_CUTOFF` /
:data:`FUZZY_CUTOFF_LONG`, at least ``FUZZY_MIN_CHARS`` letters, one substituted or swapped letter in
a word of :data:`MIN_SUBSTITUTION_CHARS`; no WRatio/partial matching; never a lone everyday word,
which is spelled right: "a great Bond" is no "Bound", nor one English word another's: "bleach" is no
"Breach"). A span is tried whole first, then cut before
inner connectives; a whole-span hit replaces shorter exact matches inside it ("mullholand drive" is
Mulholland Drive, not Drive). A lone capitalised first or last name ("I love Jackson") is looked up in
the person-name table and yields the persons who carry it (usually an ambiguous mention).

Example:
    >>> FuzzyMatcher(names, {}).fuzzy_spans("I loved mullholand drive", tokens, taken)  # doctest: +SKIP
    [Span(start=2, end=4, scored={'Q...': 0.82...}, kind='fuzzy')]
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from nlu.linking.guard import greeting, work_part
from nlu.linking.namesakes import age_word
from nlu.linking.ordinals import kind_after, ranked
from nlu.linking.syntax import MAX_SUBJECT_TOKENS, is_verb, name_slot, opinion_typo, trim
from nlu.linking.tokens import Token, block_keys, boundary, skeleton_key
from nlu.linking.values import (
    FUZZY_CUTOFF,
    FUZZY_MIN_CHARS,
    FUZZY_SIM_FACTOR,
    MAX_CANDIDATES,
    MAX_LIST_ITEMS,
    SIM_VARIANT,
    Span,
)
from nlu.linking.words import (
    APOSTROPHES,
    ASPECT_WORDS,
    CLAUSE_STOP,
    COPULAS,
    LIKE_VERBS,
    OBJECT_LEAD,
    PERSON_TAILS,
    PREDICATES,
    PREPOSITIONS,
    REQUEST_VERBS,
    SPAN_STOP,
    SUBJECT_LEADS,
    SUBJECT_PRONOUNS,
    SUPERLATIVES,
    TYPE_WORDS,
    common_words,
    is_everyday,
    stop_words,
    zipf,
)
from nlu.name_index import NameIndex

CUE_SPLITS = frozenset("original remake remakes reboot version".split())
"""Cues of age (:mod:`nlu.linking.namesakes`) that end a run of words to respell: they say which work, they are
no word of its title."""

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

PLURAL_COPULAS = frozenset("are were r re".split())
"""A listed subject before these is two names ("Chopin and Debussy are my favourites")."""

MAX_FUZZY_LOOKUPS = 24
"""Fuzzy look-ups per message; keeps a pathological message (1,000 capitalised words) in bounds."""

MAX_WHOLE_SPAN_TOKENS = 14
"""Name-like spans longer than this are not matched as a whole (no title is that long)."""

MAX_CUTS = 3
"""Cuts before inner connectives tried per name-like span, after the whole span."""

OPENERS = frozenset({"also", "and", "plus"})
"""Words that open a message adding names to what was said ("also X and Y", "oh and X")."""

MAX_WHOLE_MESSAGE_TOKENS = 4
"""A message of at most this many words with no verb is tried as one (typo'd) name ("shutter iland 🔥")."""

OTHER_WORD_RATIO = 75.0
"""A typed word of 4+ letters that English knows (:data:`KNOWN_WORD_ZIPF`) and is less like the name's word
than this (``fuzz.ratio``) is another word, not a typo of it ("bees" / "flies": 44, "resurrections" /
"revolutions": 67, "shark" / "shakes": 73; "iland" / "island": 91)."""

CLOSEST_MARGIN = 8.0
"""A typo names the names spelled closest to it: a hit this many ``fuzz.ratio`` points under the best one is
another name ("led zepplin": the band Led Zeppelin, 95.7, not the album "Led Zeppelin IV", 84.6)."""

KNOWN_WORD_ZIPF = 1.5
"""``wordfreq`` Zipf frequency from which a typed word counts as an English word (:func:`_other_word`)."""


def _other_word(query: str, name: str) -> bool:
    """Some word of ``query`` is another English word than the name's word in its place (same word count): spelled
    far from it, or a common word rewritten from the name's own common word (:func:`_rewritten`: "Dark Places" is
    not the film "Dark Palace"; one slip or letters dropped may still be a typo: "form" for "from", "Image
    Dragons")."""
    typed, named = query.split(), name.split()
    if len(typed) != len(named) or len(typed) < 2:
        return False
    return any(
        a != b
        and len(a) >= 4
        and a.isalpha()
        and (
            (fuzz.ratio(a, b) < OTHER_WORD_RATIO and zipf(a) >= KNOWN_WORD_ZIPF)
            or (b.isalpha() and _rewritten(a, b) and zipf(a) >= WORD_ZIPF and zipf(b) >= WORD_ZIPF)
        )
        for a, b in zip(typed, named, strict=True)
    )


def _merged_words(query: str, name: str) -> bool:
    """Two or more English words spelled right, typed apart, against a name of fewer words spelled with other
    letters: the words are the person's own, no typo of that name ("Astral Weeks" is not the label "Astralwerks";
    "spider man" may be "Spider-Man", the same letters)."""
    typed, named = query.split(), name.split()
    if len(typed) < 2 or len(named) >= len(typed) or "".join(typed) == "".join(named) or set(typed) & set(named):
        return False  # (a word of the name typed as it is: "big foo fighters" is Foo Fighters with a word more)
    return all(w.isalpha() and zipf(w) >= WORD_ZIPF for w in typed)


def _rewritten(a: str, b: str) -> bool:
    """Two edits or more from the name's word ``b`` to the typed ``a``, and not only letters of it dropped while typing
    ("image" for "imagine", "park" for "sparks" may be typos; "places" for "palace", "spider" for "side" not)."""
    return OSA.distance(a, b) >= 2 and not _in_order(a, b)


def _in_order(short: str, long: str) -> bool:
    """The letters of ``short`` appear in ``long`` in the same order."""
    rest = iter(long)
    return all(ch in rest for ch in short)


def _plural_word(query: str, name: str) -> bool:
    """A word of ``query`` is the plural of the name's English word in its place (same word count, two or more):
    its own word, no typo ("Country Roads" is not the song "Country Road"; a person's "Williams" may be)."""
    typed, named = query.split(), name.split()
    if len(typed) != len(named) or len(typed) < 2:
        return False
    return any(a == b + "s" and b.isalpha() and zipf(b) >= WORD_ZIPF for a, b in zip(typed, named, strict=True))


WORD_ZIPF = 3.0
"""``wordfreq`` Zipf frequency from which one typed word is an English word spelled right (:func:`_another_word`)."""


def _possessive(text: str, tokens: Sequence[Token], m: int) -> bool:
    """Token ``m`` is the "s" of a possessive ("Faulkner's")."""
    return tokens[m].key == "s" and m > 0 and text[tokens[m - 1].end : tokens[m].start] in APOSTROPHES


def _up_to_copula(text: str, tokens: list[Token], a: int, k: int) -> list[tuple[int, int, list[int]]]:
    """The subject up to a copula after the first verb, when the title holds a verb ("do i wanna kno is my fav":
    "wanna" is the title's, "is" the clause's; issue 22-E)."""
    for m in range(k + 1, min(len(tokens), a + MAX_SUBJECT_TOKENS + 1)):
        if boundary(text, tokens, m) or tokens[m].key in CLAUSE_STOP:
            return []
        if tokens[m].key in COPULAS and tokens[m].key != "s":
            return [(a, m, [m])]
    return []


def _another_word(query: str, name: str) -> bool:
    """One typed English word and a name of one other English word (articles aside), neither the other's
    singular: a word spelled right, no typo ("bleach" is not "Breach" nor "The Beach", "instructions" not
    "Instruction"; "jaw" may be "Jaws")."""
    typed = query.split()
    named = [w for w in name.split() if w not in ("the", "a", "an")]
    if len(typed) != 1 or len(named) != 1 or typed[0] == named[0]:
        return False
    a, b = typed[0], named[0]
    if a + "s" == b:
        return (
            False  # "jaw" for "Jaws": a letter dropped; the plural of a title's word is its own word ("Instructions?")
        )
    return a.isalpha() and b.isalpha() and zipf(a) >= WORD_ZIPF and zipf(b) >= WORD_ZIPF


def _fuzzy_cutoff(letters: int, words: int) -> float:
    """:data:`FUZZY_CUTOFF` for one word or fewer than 6 letters, else :data:`FUZZY_CUTOFF_LONG`."""
    return FUZZY_CUTOFF if letters < 6 or words == 1 else FUZZY_CUTOFF_LONG


class FuzzyMatcher:
    """The typo-tolerant fallback over one domain's name index (module docstring).

    Args:
        names: the domain's name index.
        role_words: the domain's person role words ("actor" -> "P161"): they may lead a like-verb's
            object ("I love the actor ...").
        is_person: whether an entity is a person (a lone word before a kind noun names only persons).
    """

    def __init__(
        self, names: NameIndex, role_words: Mapping[str, str], is_person: Callable[[str], bool] | None = None
    ) -> None:
        self._names = names
        self._role_words = role_words
        self._is_person = is_person or (lambda _q: True)

    def fuzzy_spans(self, text: str, tokens: list[Token], taken: list[Span]) -> list[Span]:
        """Typo-tolerant fallback over spans that look like names but are not fully matched exactly.

        A name-like span (object of a like-verb up to the clause end, run of capitalised words) is
        first matched as a whole, then cut before each inner connective ("pirates of the
        caribbeans | for the music"), longest first: a fuzzy hit there replaces the shorter exact
        matches inside it ("mullholand drive" -> "Mulholland Drive", not "Drive"). Otherwise its
        runs of unmatched tokens are matched one by one. ``taken`` is edited in place.
        """
        common = common_words()
        out: list[Span] = []
        budget = [MAX_FUZZY_LOOKUPS]

        def lookup(span: Sequence[Token], *, allow_partial: bool, english: bool = True) -> dict[str, float]:
            if budget[0] <= 0:
                return {}
            budget[0] -= 1
            return self._fuzzy_lookup(span, allow_partial=allow_partial, english=english)

        for i, j, cuts in self._name_like_spans(text, tokens):
            # "the 2nd X movie": the name after the rank (a kind word closing it; "the sixth sence" is a title)
            i = max([i] + [k + 1 for k in range(i + 1, j - 1) if ranked(tokens, k) and kind_after(tokens, k, j)])
            if any(i < s[1] and s[0] < j and not (i <= s[0] and s[1] <= j) for s in taken + out):
                continue  # overlaps a span chosen otherwise
            inside = [s for s in taken if i <= s[0] and s[1] <= j]
            covered = {k for s in inside for k in range(s[0], s[1])}
            # (and what an earlier name-like span matched already: a listed title is tried twice)
            covered |= {k for s in out if i <= s[0] and s[1] <= j for k in range(s[0], s[1])}
            content = [k for k in range(i, j) if tokens[k].key not in common]
            fragmented = len(inside) >= 2
            if not content or (all(k in covered for k in content) and not fragmented):
                continue
            whole: Span | None = None
            for end in cuts:
                a, b = trim(tokens, i, end, common)
                # the function words trimmed may open the title: "do i wanna kno" is "Do I Wanna Know?" (issue 22-E)
                opened = (
                    a > i
                    and b == end
                    and all(tokens[k].key in common for k in range(i, a))
                    and not any(s[0] < a for s in inside)  # (words the index names on their own stay so: "Only")
                )
                if opened and b - a < 2 <= b - i:
                    a = i
                within = [s for s in inside if a <= s[0] and s[1] <= b]
                if b - a < 2 or b - a > MAX_WHOLE_SPAN_TOKENS or (within and max(s[1] - s[0] for s in within) >= b - a):
                    continue
                pieces = len(within)
                if pieces < 2 and all(k in covered for k in range(a, b) if tokens[k].key not in common):
                    continue
                if (
                    a > 0
                    and tokens[a - 1].key in PREPOSITIONS
                    and all(
                        (tokens[k].key in common or is_everyday(tokens[k].key)) and not tokens[k].raw[:1].isupper()
                        for k in range(a, b)
                    )
                ):
                    continue  # "..., by the way": an idiom of everyday words in lowercase is no (typo'd) title
                parts = all(tokens[k].key in common or tokens[k].key in ASPECT_WORDS for k in range(a, b))
                if parts or work_part(tokens, a, b):
                    continue  # "the acting was great": a part of the work, no typo'd title ("The Atoning")
                scored = lookup(tokens[a:b], allow_partial=False)
                if opened and a > i:
                    untrimmed = lookup(tokens[i:b], allow_partial=False)
                    if untrimmed and max(untrimmed.values()) > max(scored.values(), default=0.0):
                        a, scored = i, untrimmed
                need = FRAGMENTED_CUTOFF if pieces >= 2 else WHOLE_SPAN_CUTOFF
                if scored and max(scored.values()) >= FUZZY_SIM_FACTOR * need / 100.0 * SIM_VARIANT:
                    whole = Span(a, b, scored, "fuzzy")
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
            # a cue of age typed with a slip ("the orignal X") splits runs as connectives do: no (typo'd) title word;
            # so does one spelt right that no typo'd title opens with ("the original magnificient seven")
            stops = {
                k
                for k in range(i, j)
                if tokens[k].key in SPAN_STOP or age_word(tokens[k].key) != tokens[k].key or tokens[k].key in CUE_SPLITS
            }
            k = i
            while k < j:  # runs of uncovered tokens, split at connectives
                if k in covered or k in stops:
                    k += 1
                    continue
                m = k
                while m < j and m not in covered and m not in stops:
                    m += 1
                a, b = trim(tokens, k, m, common)
                if b - a == 3 and (tokens[a].key, tokens[a + 1].key) == ("no", "more"):
                    a += 2  # "no more bieber pls": enough of a name, no title "No More ..." typo'd
                if b - a >= 3 and tokens[a].key == "the" and tokens[b - 1].key == "one":
                    a, b = a + 1, b - 1  # "..., the Carpenter one": the name inside the apposition
                if b > a and all(
                    (tokens[t].key in common or is_everyday(tokens[t].key)) and not tokens[t].raw[:1].isupper()
                    for t in range(a, b)
                ):
                    a = b  # "by the way": everyday words in lowercase, no name
                if b > a and work_part(tokens, a, b):
                    a = b  # "love the chorus": a part of the work, no typo'd title
                if a == 0 and b - a == 1 and greeting(tokens[0].raw):
                    a = b  # "hiii 🖤 emo kid here": the greeting opening the message, no typo'd name
                if b > a:
                    # a lone first/last name only when capitalised or the whole object ("I like kubrick")
                    # an everyday word ("Woman" of "No Woman, No Cry") only as a like-verb's object or after "by"
                    lone_everyday = b - a == 1 and is_everyday(tokens[a].key)
                    after_verb = a > 0 and tokens[a - 1].key in LIKE_VERBS
                    partial = (
                        (tokens[a].raw[:1].isupper() and not lone_everyday)
                        or (a == i and b == j and (not lone_everyday or after_verb))
                        or (a > 0 and tokens[a - 1].key == "by")
                        # where a name is expected: "also scorsese is a genius" (issue 22-E)
                        or (b - a == 1 and not lone_everyday and name_slot(text, tokens, a, b) is not None)
                    )
                    # a kind noun, reflexive or "please" after a lone word: a person ("a spielberg movie")
                    tailed = (
                        not partial
                        and not is_everyday(tokens[a].key)
                        and a + 1 < m
                        and all(tokens[t].key in PERSON_TAILS for t in range(a + 1, m))
                    )
                    if lone_everyday and not partial:
                        k = m  # a word spelled right is no typo of a title ("a great Bond" is not "Bound")
                        continue
                    scored = {}
                    if tailed:  # only the persons of that name ("korean films" is no Korean War), before a genre
                        scored = {
                            q: v for q, v in lookup(tokens[a : a + 1], allow_partial=True).items() if self._is_person(q)
                        }
                        b = a + 1 if scored else b
                    if not scored and b < m and tokens[b].key in TYPE_WORDS:  # a typo'd genre keeps its noun
                        scored = lookup(tokens[a : b + 1], allow_partial=False)
                        b += bool(scored)
                    if not scored:
                        # a lone lowercase word away from a verb, one letter off an everyday English word, is that
                        # word typed with a slip ("i saw it yesterdy"), no title of that word ("Yesterday")
                        words_only = b - a == 1 and tokens[a].raw.islower() and not after_verb
                        scored = lookup(tokens[a:b], allow_partial=partial, english=not words_only)
                    if scored:
                        out.append(Span(a, b, scored, "fuzzy"))
                k = m
        return out

    def _name_like_spans(self, text: str, tokens: list[Token]) -> list[tuple[int, int, list[int]]]:
        """Spans that probably name something, with the ends to try (whole span first, then cuts
        before inner connectives): like-verb objects up to the clause end (and what "also", "and",
        "plus" opening the message add), capitalised runs."""
        common = common_words()
        spans: list[tuple[int, int, list[int]]] = []
        n = len(tokens)
        for v, tok in enumerate(tokens):
            # an addition opening the message opens an object too: "also the usual suspets and la confidential"
            opener = tok.key in OPENERS and (v == 0 or (v == 1 and tokens[0].key in OPENERS | {"oh"}))
            # a request's object closed by a kind noun: "i want a spielberg movie", "give me a pratchett book"
            asked = tok.key in REQUEST_VERBS and any(t.key in TYPE_WORDS for t in tokens[v + 2 : v + 6])
            if tok.key not in LIKE_VERBS and not opener and not asked:
                continue
            i = v + 1
            while i < n and (
                tokens[i].key in OBJECT_LEAD or tokens[i].key in self._role_words or tokens[i].key in TYPE_WORDS
            ):
                i += 1
            if i - 1 > v and tokens[i - 1].key == "the":
                i -= 1  # keep a title's article: "the shiming" -> "The Shining"
            for _chunk in range(MAX_LIST_ITEMS):  # "I love Split, Eternal Sunshine ... and Limitless"
                j = i
                while j < n and tokens[j].key not in CLAUSE_STOP and (j == i or not boundary(text, tokens, j)):
                    j += 1
                if j > i:
                    cuts = [j] + [k for k in range(j - 1, i, -1) if tokens[k].key in SPAN_STOP][:MAX_CUTS]
                    typed = next(
                        (k for k in range(v + 1, i - 1) if tokens[k].key == "the" and tokens[k + 1].key in TYPE_WORDS),
                        None,
                    )
                    if _chunk == 0 and typed is not None:
                        spans.append((typed, j, [j]))  # "i loved the book theif": the type word may be the title's
                    spans.append((i, j, cuts))
                    # "loved the hobit and the lord of the rigns": each listed title on its own too
                    spans += [(k + 1, j, [j]) for k in range(i + 1, j - 1) if tokens[k].key == "and"][:MAX_CUTS]
                if j >= n or tokens[j].key in CLAUSE_STOP or "," not in text[tokens[j - 1].end : tokens[j].start]:
                    break
                i = j
        for v in range(2, n - 1):  # "my favourite band is aerosmyth", "my favourit movie is the sixth sence"
            if tokens[v].key in ("is", "was") and tokens[v - 1].key in TYPE_WORDS:
                lead = [t.key for t in tokens[max(0, v - 3) : v - 1]]
                if any(w in SUPERLATIVES or opinion_typo(w) for w in lead):
                    j = v + 1
                    while j < n and tokens[j].key not in CLAUSE_STOP and not boundary(text, tokens, j):
                        j += 1
                    spans.append((v + 1, j, [j]))
        if n <= MAX_WHOLE_MESSAGE_TOKENS and not any(
            t.key in LIKE_VERBS or t.key in PREDICATES or t.key in CLAUSE_STOP for t in tokens
        ):  # a short message that is only a (typo'd) name, maybe with emoji: "shutter iland 🔥🔥", "beyonse"
            spans.append((0, n, [n]))
        # the subject of an opinion opening the message or a clause: "the terminater was amazing", "solaris too,
        # tarkovsky is a genius"
        starts = [m for m in range(1, n) if boundary(text, tokens, m) or tokens[m - 1].key in SUBJECT_LEADS]
        for a in [0, *starts]:
            joints: list[int] = []  # "Chopin and Debussy are ...": the names of a listed subject (issue 22-E)
            for k in range(a + 1, min(n, a + MAX_SUBJECT_TOKENS + 1)):
                if tokens[k].key in ("and", "or") and k > a and not joints and not boundary(text, tokens, k):
                    joints.append(k)
                    continue
                if tokens[k].key in CLAUSE_STOP or tokens[k].key in ("and", "or", "but"):
                    break
                if _topic_ends(text, tokens, k) and not joints:
                    spans.append((a, k, [k]))  # "the three musketers i read twice": a name fronted before "i read"
                    break
                if is_verb(tokens, k) and not boundary(text, tokens, k):  # (not the possessive of "kiedis's memoir")
                    if joints and (tokens[k].key not in PLURAL_COPULAS or k == joints[0] + 1):
                        break  # (a singular verb: one title, "love and monsters was ...", as before)
                    if joints:
                        spans += [(a, joints[0], [joints[0]]), (joints[0] + 1, k, [k])]
                    elif not any(boundary(text, tokens, m) for m in range(a + 1, k)):
                        # a possessive splits the owner from the work: "Faulkner's As I Lay Dying is brilliant"
                        poss = next((m for m in range(a + 1, k) if _possessive(text, tokens, m)), None)
                        spans += [(a, k, [k])] if poss is None else [(a, poss, [poss]), (poss + 1, k, [k])]
                        if poss is None:  # ("sugar were goin down is a classic": a title's copula, too)
                            spans += _up_to_copula(text, tokens, a, k)
                    break
        # a clause that only adds a name ("..., we were liers too"): its words before "too" / "also", verbs and all
        for a in [0, *(m for m in range(1, n) if boundary(text, tokens, m))]:
            b = next((m for m in range(a + 1, n) if boundary(text, tokens, m)), n)
            if (
                b - a >= 3
                and tokens[b - 1].key in ("too", "also")
                and not any(t.key in LIKE_VERBS or t.key in CLAUSE_STOP for t in tokens[a : b - 1])
            ):
                spans.append((a, b - 1, [b - 1]))
        i = 1
        while i < n:
            if tokens[i].raw[:1].isupper() and tokens[i].key not in common:
                j = i + 1
                while (
                    j < n and (tokens[j].raw[:1].isupper() or tokens[j].raw.isdigit()) and not boundary(text, tokens, j)
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

    def _fuzzy_lookup(self, span: Sequence[Token], *, allow_partial: bool, english: bool = True) -> dict[str, float]:
        """Entities whose names are spelled close to ``span`` (module docstring); ``english=False``: none whose
        name is one everyday English word."""
        query = " ".join(t.key for t in span)
        query = re.sub(r"(?<=[a-z])\d+$", "", query)  # "stallone4" -> "stallone"
        letters = sum(c.isalnum() for c in query)
        if letters < FUZZY_MIN_CHARS or query.isdigit():
            return {}
        if len(span) == 1 and opinion_typo(query):
            return {}  # "my favourit band": a misspelt opinion word, not the film "The Favourite"
        scored: dict[str, float] = {}
        people = self._names.namesakes(query) if allow_partial and len(span) == 1 else None
        if people is not None:
            for qid in people:  # "I love Jackson": the persons called so
                scored[qid] = FUZZY_SIM_FACTOR * 0.8
            return scored
        cutoff = strict = _fuzzy_cutoff(letters, len(span))
        if len(span) == 1 and len(query) >= MIN_SUBSTITUTION_CHARS:
            # one letter typed wrong in a word ("beyonse"): ratio (2n-2)/2n, under the cut-off up to 8 letters
            cutoff = min(cutoff, 100.0 * (len(query) - 1) / len(query) - 0.01)
        lo = math.floor(len(query) * cutoff / (200 - cutoff))
        hi = math.ceil(len(query) * (200 - cutoff) / cutoff)
        stop = stop_words()
        # names are sorted by length, so each block's positions are too: the index slices the length window
        keys = block_keys(query, stop)
        if len(span) >= 2 and sum(t.key not in stop for t in span) <= 1:
            keys |= block_keys(query, frozenset())  # "all of mee": a title of function words is blocked on them
        ids = self._names.fuzzy_window(lo, hi, keys)
        if ids:
            names = self._names
            choices = [names.fuzzy_name(pos) for pos in ids]
            hits = process.extract(query, choices, scorer=fuzz.ratio, score_cutoff=cutoff, limit=MAX_CANDIDATES * 2)
            digits = [t for t in query.split() if t.isdigit()]
            kept: list[tuple[str, float]] = []
            for name, ratio, _k in hits:
                if not english and is_everyday(name):
                    continue  # "yesterdy": the word typed with a slip
                if [t for t in name.split() if t.isdigit()] != digits:
                    continue  # "inside out 2" is not "Inside Out": a sequel's number is no typo
                if ratio < strict and OSA.distance(query, name) > 1:
                    continue  # under the cut-off only one substituted or swapped letter is a typo ("coldpaly")
                if _other_word(query, name) or _another_word(query, name) or _merged_words(query, name):
                    continue  # "the matrix resurrections" is not "The Matrix Revolutions", "bleach" no "Breach"
                kept.append((name, ratio))
            # (by the content words too: "fast and furios" is as close to "The Fast and the Furious")
            skeleton = " ".join(skeleton_key(tuple(query.split())))
            near = {
                name: max(ratio, fuzz.ratio(skeleton, " ".join(skeleton_key(tuple(name.split())))))
                for name, ratio in kept
            }
            closest = max(near.values(), default=0.0)
            for name, ratio in kept:
                if near[name] < closest - CLOSEST_MARGIN:
                    continue  # a name spelled much further from the typed words than the closest one
                plural = _plural_word(query, name)
                for qid, kind_sim in (names.exact(tuple(name.split(" "))) or {}).items():
                    if plural and not self._is_person(qid):
                        continue  # a plural typed is its own word, but in a person's name ("willy williams")
                    sim = FUZZY_SIM_FACTOR * ratio / 100.0 * kind_sim
                    if scored.get(qid, 0.0) < sim:
                        scored[qid] = sim
        return scored


def _topic_ends(text: str, tokens: list[Token], k: int) -> bool:
    """Token ``k`` opens "i" / "we" + a like-verb or a verb after a fronted object: the name before it is that
    verb's object ("the giver i loved", "dune we watched twice", issue 22)."""
    return (
        k + 1 < len(tokens)
        and tokens[k].key in SUBJECT_PRONOUNS
        and (tokens[k + 1].key in LIKE_VERBS or is_verb(tokens, k + 1))
        and not boundary(text, tokens, k)
    )
