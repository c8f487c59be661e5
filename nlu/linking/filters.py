"""Step 3 of linking: filters of proposed spans (a genre that only describes, an acronym reading,
a part of a longer name the KB lacks, a word glued to an unknown one).

Reads: the spans left after the work resolver (:mod:`nlu.linking.works`) and the message's tokens;
the KB's roles and names. Adds nothing: :class:`SpanFilter` drops spans that are no mention of what
they match; :func:`fragment`, :func:`subject_fragment` (drop) and :func:`dangling` (ask) are read by
the decision (:mod:`nlu.linking.decision`) for each ranked mention.

Example (a genre describing a named film is no opinion of the genre):
    "Vertigo is my favourite thriller" -> the span "thriller" is dropped, "Vertigo" stays.
"""

from __future__ import annotations

import math
from collections.abc import Container, Sequence
from typing import Any

from nlu.linking.namesakes import AFTER_CUES, OLDER_CUES, age_word
from nlu.linking.syntax import FAN_NOUNS, MAX_SUBJECT_TOKENS, calendar_word, is_verb, title_run
from nlu.linking.tokens import Token, boundary, name_key
from nlu.linking.values import SIM_SUBTITLE, SIM_VARIANT, Span
from nlu.linking.words import (
    ADDITION_WORDS,
    ASPECT_WORDS,
    AUDIENCE_WORDS,
    CLAUSE_STOP,
    COPULAS,
    COVER_WORDS,
    DESCRIPTOR_FILLERS,
    LIKE_VERBS,
    NOT_TITLE_OPENERS,
    PRAISE_WORDS,
    PREDICATES,
    RARE_ZIPF,
    ROLE_OR_TYPE_WORDS,
    SUBJECT_ADVERBS,
    SUBJECT_PRONOUNS,
    SUPERLATIVES,
    TITLE_JOINERS,
    common_words,
    is_everyday,
    opinion_words,
    stop_words,
    zipf,
)


def dangling(text: str, tokens: list[Token], i: int, j: int, covered: Container[int]) -> bool:
    """A one-word match glued to an unknown word ("Laura Prepon", "paul deitel", "Una notte"): the
    word is probably part of a name the KB lacks, so the match is asked about, not assumed."""
    if j - i != 1:
        return False
    common = common_words()
    for k in (i - 1, j):
        if not 0 <= k < len(tokens) or k in covered:
            continue
        if boundary(text, tokens, max(k, i)):
            continue
        if text[tokens[min(k, i)].end : tokens[max(k, i)].start].strip():
            continue  # an emoji or a sign between them: "hiii 🖤 emo kid here"
        word = tokens[k]
        if word.key in PREDICATES:
            continue  # "Midnights wasn't as good": a verb
        if not word.raw[:1].isupper() and zipf(word.key) >= RARE_ZIPF:
            continue  # "Mitski breaks my heart": an everyday word in lowercase is no part of a name
        if (k == 0 or boundary(text, tokens, k)) and _fan_degree(tokens, k, j):
            continue  # "Big Cure fan here": how big a fan, capitalised as the sentence's first word
        if word.raw.isalpha() and len(word.key) >= 3 and word.key not in common and word.key not in LIKE_VERBS:
            return True
    return False


def _fan_degree(tokens: list[Token], k: int, j: int) -> bool:
    """Token ``k``, an everyday word, says how much of a fan of the name ending at ``j`` ("Big Cure fan here",
    "Massive Blur fan": the adjective is the fan's, no word of a name the KB lacks)."""
    return k == j - 2 and j < len(tokens) and tokens[j].key in FAN_NOUNS and is_everyday(tokens[k].key)


def fragment(
    text: str, tokens: list[Token], i: int, j: int, spans: Sequence[Span], explained: Container[int] = ()
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
    a, b = title_run(text, tokens, i, j)
    covered = {k for s in spans for k in range(s[0], s[1])}
    a = _before_and_the(text, tokens, a, covered)
    if (a, b) == (i, j):
        return False
    if any(s[0] != i and a <= s[0] and s[1] <= b for s in spans):
        return True
    common = common_words()
    for k in range(a, b):
        if i <= k < j or k in covered or k in explained or tokens[k].key in TITLE_JOINERS:
            continue
        key = tokens[k].key
        if key in ROLE_OR_TYPE_WORDS or key.isdigit() or calendar_word(tokens, k, k + 1):
            continue  # a number after a title is a sequel or a year the linker weighs ("Die Hard 4"); "on Friday" a date
        if key in opinion_words() and (k == a or not tokens[k].raw[:1].isupper()):
            continue  # "Loved Inception": an opinion word opening the run; inside it, capitalised, it is
            # a word of the title ("A Love Supreme", "Sweet Dreams"), so the match is only part of it
        if k == a and (k == 0 or boundary(text, tokens, k)) and (key in common or _fan_degree(tokens, k, j)):
            continue  # a capital at the start of a sentence: "My", "Big"; "Huge Oasis fan": a huge fan
        return True
    return False


def _before_and_the(text: str, tokens: list[Token], a: int, covered: Container[int]) -> int:
    """The start of the Title Cased run a title run starting at ``a`` continues through "and the" (its article in
    lowercase, as inside a title: "The Housekeeper and the Professor"), when no match covers the word before "and"
    (matched, it is a list: "Heat and the Departed"); else ``a``."""
    k = a - 1
    if k < 1 or tokens[k].key not in ("the", "a", "an") or not tokens[k].raw.islower() or tokens[k - 1].key != "and":
        return a
    m = k - 2
    if m < 0 or m in covered or not tokens[m].raw[:1].isupper() or tokens[m].key == "i":
        return a
    if any(boundary(text, tokens, n) for n in range(m + 1, a + 1)):
        return a
    return title_run(text, tokens, m, m + 1)[0]


REFERRING_VERBS = LIKE_VERBS | frozenset("meant mean mentioned said talked saw watched read heard".split())
"""Verbs of a relative clause after a name that say which one is meant ("the X I meant", "the X we watched")."""


def subject_fragment(text: str, tokens: list[Token], i: int, j: int, explained: Container[int] = ()) -> bool:
    """A match inside the subject that opens an opinion ("Clair de lune is the most beautiful piece")
    while the subject holds other words that no part or adverb explains (matched or not: one subject
    names one thing): the subject is a title the KB lacks, and the match only a word of it. The subject
    may open a clause after a comma ("also mac demarco, salad days is a vibe": not the band "Salad").
    Lists ("X and Y are"; with a singular verb, "love and monsters was ...", one title), "by" and
    possessives are no single subject; a common word, an adverb ("totally"), a number
    ("Frozen 2") or a word for a part of a work ("soundtrack", "concerts") is no sign, nor an everyday
    word but the one noun between a lowercase match and the verb ("salad days is"), nor the name of the person
    who says which work it is (``explained``: "fleetwood mac rumours is ...")."""
    a = i  # the clause the match opens: the message's, or one after a comma ("..., salad days is a vibe")
    while a > 0 and not boundary(text, tokens, a):
        a -= 1
    while a < i and tokens[a].key in ADDITION_WORDS | {"oh"}:
        a += 1  # "oh and X was ...": the subject starts after the addition
    limit = min(len(tokens), a + MAX_SUBJECT_TOKENS + 1)
    k = next((m for m in range(a + 1, limit) if is_verb(tokens, m)), 0)
    if k == 0 or j > k or any(boundary(text, tokens, m) for m in range(a + 1, k)):
        return False
    if i >= 2 and tokens[i - 1].key == "of" and tokens[i - 2].key in COVER_WORDS:
        return False  # "the johnny cash cover of hurt is ...": the recording of a title, which the subject names
    if j < k and tokens[j].key == "as":
        return False  # "Coltrane as a saxophonist is unmatched": the person in a role, not a word of a title
    if j + 1 < k and tokens[j].key in SUBJECT_PRONOUNS and tokens[j + 1].key in REFERRING_VERBS:
        return False  # "the Suspiria I meant is ...": a relative clause says which X, no word of a title
    if j < k and tokens[j].key in MODIFIER_LEADS:
        k = j  # "ember from the winter nights soundtrack is a bop": what follows "from" tells where it is from
    keys = [t.key for t in tokens[a:k]]
    joints = {"or", "by", "with", "s", "vs"} | ({"and"} if tokens[k].key in PLURAL_VERBS else set())
    if joints & set(keys) or keys[0] in NOT_TITLE_OPENERS:
        return False  # ("X and Y was ...": one title, a singular verb after it; "X and Y are": a list)
    if any((key in LIKE_VERBS and keys[m + 1 : m + 2] != ["and"]) or key in CLAUSE_STOP for m, key in enumerate(keys)):
        return False  # "I liked The Maze Runner but Divergent was boring": no single subject (not "love and ...")
    if (j == k and i - 2 >= a and tokens[i - 1].key == "and") or (j + 2 == k and tokens[j].key == "and"):
        # a verb of no number after capitalised names ("WALL-E and Coco made me cry") leaves them a list
        verb = tokens[k].key
        numberless = verb not in ("is", "was", "has", "s") and not (verb.endswith("s") and verb not in PLURAL_VERBS)
        if not (numberless and all(t.raw[:1].isupper() for t in tokens[a:k] if t.key != "and")):
            return True  # "love and monsters was such a fun surprise": "X and Y" before a singular verb is one title
    common = common_words()
    for m in range(a, k):
        if i <= m < j or m in explained:
            continue
        t = tokens[m]
        if (
            not t.raw[:1].islower()  # capitalised runs are fragment's ("Nolan Inception is great" names both)
            or t.key in common
            or t.key in TITLE_JOINERS
            or _part_or_kind(t.key)
            or t.key in SUBJECT_ADVERBS
            or age_word(t.key) in AFTER_CUES | OLDER_CUES  # "the ghostbusters reboot was awful": which reading
            # ("the origenal X": a slip of "original"), no word of a title
            or t.key.endswith("ly")
            or not t.key.isalpha()
            or (is_everyday(t.key) and not (m == j == k - 1 and j - i == 1 and tokens[i].raw.islower()))
        ):
            continue  # (an everyday noun is a sign only as the one word between a lowercase match and the verb)
        return True
    return False


PART_DETERMINERS = frozenset("the its their his her".split())
"""Words before a part of a work ("the soundtrack", "its score"): that work's, not the genre."""

MODIFIER_LEADS = frozenset("from by with in on at for about".split())
"""Prepositions after a subject's name that open a modifier of it, no part of a title."""

PLURAL_VERBS = frozenset("are were r have re".split())
"""Verbs that take a list as their subject ("Ponyo and Totoro are ...")."""


def _part_or_kind(word: str) -> bool:
    """A role, type or part word, or its plural ("soundtrack", "songs", "concerts")."""
    words = ROLE_OR_TYPE_WORDS | ASPECT_WORDS
    return word in words or (word.endswith("s") and word[:-1] in words)


def sequels(kb: Any, names: Any, tokens: list[Token], spans: list[Span]) -> list[Span]:
    """A subtitle typed after a title named before it in the message ("I liked the godfather, it was part II that
    bored me"): the title's own sequel of that subtitle ("The Godfather Part II"), not another title's ("Hostel:
    Part II"), when the KB has one; only for spans matched by subtitles alone."""
    out = list(spans)
    for n, span in enumerate(spans):
        if not span.scored or any(not math.isclose(v, SIM_SUBTITLE) for v in span.scored.values()):
            continue
        typed = tuple(t.key for t in tokens[span.start : span.end])
        for before in sorted((s for s in spans if s.end <= span.start), key=lambda s: -s.end):
            titles = [q for q in before.scored if kb.is_item(q)]
            found = {
                q: SIM_VARIANT
                for t in titles
                for q, _v in (names.exact(name_key(kb.label(t)) + typed) or {}).items()
                if kb.is_item(q)
            }
            if found:
                out[n] = Span(span.start, span.end, found, span.kind)
                break
    return out


def _apposition(text: str, tokens: list[Token], i: int, j: int) -> bool:
    """Tokens ``i:j`` close an apposition opened by "the" after a comma, with only a year or descriptors between
    ("..., the 1995 anime", "..., the original sci-fi classic"): the clause describes the name before it."""
    if j < len(tokens) and not boundary(text, tokens, j):
        return False
    k = i - 1
    while k >= 0 and (tokens[k].key.isdigit() or tokens[k].key in ("original", "classic", "old", "new")):
        k -= 1
    return (
        k >= 0
        and tokens[k].key == "the"
        and k < i
        and boundary(text, tokens, k)
        and "," in text[: tokens[k].start][-3:]
    )


class SpanFilter:
    """Drops the proposed spans that name no opinion's object (see the methods).

    Args:
        kb: the domain's knowledge base (``roles``, ``is_item``, ``label``, ``aliases``).
    """

    def __init__(self, kb: Any) -> None:
        self.kb = kb

    def drop_genre_attributes(self, tokens: list[Token], spans: list[Span], text: str = "") -> list[Span]:
        """A genre that describes another named thing is no opinion of the genre: after
        "favourite"/"best"/"greatest" ("Vertigo is my favourite thriller", "Halloween is the best
        horror film"), after "is"/"are" ("Neuromancer and Snow Crash are cyberpunk classics"), after a
        name's possessive ("agatha christie's mysteries": her works) or a word of praise ("Massive Attack and Tricky, perfect trip hop"); alone it is one ("My
        favourite genre is horror", "I love Radiohead and trip hop"). A genre after "for" is an
        audience, never an opinion ("dad rock for teens"), when it is a people noun. A genre word typed in lowercase counts as
        the genre even when a title shares it ("thriller")."""
        out: list[Span] = []
        for span in spans:
            i = span[0]
            possessed = any(s[1] == i - 1 and s is not span for s in spans) and tokens[i].raw.islower()
            genre = any("P136" in self.kb.roles(q) and not self.kb.is_item(q) for q in span[2]) and (
                tokens[i].raw.islower()
                or all("P136" in self.kb.roles(q) and not self.kb.is_item(q) for q in span[2])
                or possessed
            )
            if not genre:
                out.append(span)
                continue
            if i > 0 and tokens[i - 1].key == "for" and tokens[i].key in AUDIENCE_WORDS:
                continue  # "for teens", "for kids": an audience ("care for big band" is the genre)
            if (
                i > 0
                and tokens[i - 1].key in PART_DETERMINERS
                and all(_part_or_kind(t.key) for t in tokens[i : span[1]])
            ):
                continue  # "the soundtrack was great": a part of the work talked about, not the genre (issue 22-E)
            j = span[1]
            if j < len(tokens) and tokens[j].key == "one" and "the" in {t.key for t in tokens[max(0, i - 3) : i]}:
                if any(s[1] < i for s in spans if s is not span):
                    continue  # "smile, the 2022 horror one": which of a title's readings, not the genre
            if i > 1 and tokens[i - 1].key == "s" and possessed:
                continue  # "agatha christie's mysteries": the person's works, no opinion of the genre
            others = [s for s in spans if s is not span and not self._is_genre_span(s)]
            k = i - 1
            while k >= 0 and tokens[k].key in DESCRIPTOR_FILLERS:
                k -= 1
            lead = tokens[k].key if k >= 0 else ""
            before = {t.key for t in tokens[max(0, i - 2) : i]}
            if others and before & SUPERLATIVES:
                continue  # "Vertigo is my favourite thriller", "My favourite poetry collection is Leaves of Grass"
            # (in the same sentence: "... sex pistols. classic punk is my jam" is an opinion of the genre)
            described = [
                s
                for s in others
                if s[1] <= i and not any(c in ".!?" for c in text[tokens[s[1] - 1].end : tokens[i].start])
            ]
            if described and (lead in COPULAS or lead in PRAISE_WORDS):
                continue  # "... are cyberpunk classics", "..., perfect trip hop"
            if described and _apposition(text, tokens, i, j):
                continue  # "Akira, the 1988 anime": what the title named before it is
            out.append(span)
        return out

    def _is_genre_span(self, span: Span) -> bool:
        return all("P136" in self.kb.roles(q) and not self.kb.is_item(q) for q in span[2])

    def drop_empty_genres(self, tokens: list[Token], spans: list[Span]) -> list[Span]:
        """An everyday word whose only readings are genres that no item, person or band of the KB has is a topic
        ("since I was a child", "the animal scenes"), no genre named: nothing could be recommended by it. Names of
        genres that are no everyday word ("chick lit", "non-fiction") stay, and so does a span with another
        reading (the linker's ranking decides)."""
        return [
            s
            for s in spans
            if not s.scored
            or s.end - s.start != 1
            or not is_everyday(tokens[s.start].key)
            or not all(self._empty_genre(q) for q in s.scored)
        ]

    def _empty_genre(self, qid: str) -> bool:
        return not self.kb.is_item(qid) and self.kb.roles(qid) == ("P136",) and not self.kb.value_items(qid)

    def drop_acronym_readings(self, tokens: list[Token], spans: list[Span]) -> list[Span]:
        """A candidate named by an everyday word only through a short acronym ("IT" for Italy, "US") is
        no reading of that word typed without capitals ("I loved It" is Stephen King's novel, never
        Italy; found by a fresh user). Longer names in capitals are stylised titles that people type in
        any case ("WALL-E", "BRAT"), and a rare word stays an acronym in lowercase too ("i love bts")."""
        out: list[Span] = []
        stop = stop_words()
        for span in spans:
            i, j, scored = span[0], span[1], span[2]
            typed = "".join(t.raw for t in tokens[i:j])
            if not isinstance(scored, dict) or typed.isupper() or j - i != 1 or tokens[i].key not in stop:
                out.append(span)
                continue
            key = tuple(t.key for t in tokens[i:j])
            kept: dict[str, float] = {}
            for qid, score in scored.items():
                names = [n for n in (self.kb.label(qid), *self.kb.aliases(qid)) if n and name_key(n) == key]
                if not names or not all(n.isupper() and len(n) <= 3 for n in names):
                    kept[qid] = score
            if kept:
                out.append(span._replace(scored=kept))
        return out
