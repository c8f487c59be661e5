"""Step 2 of linking: works named by their person ("TITLE by PERSON", "PERSON's TITLE", "ARTIST TITLE").

Reads: the proposed spans (:mod:`nlu.linking.matching`, :mod:`nlu.linking.fuzzy`), the message's
tokens, the KB's credits (``value_items``: a person's works; ``item_values``: a work's creators) and
the name index. Adds: a span of the work in place of the person's, and a ``says-which`` span for the
person (with the persons it may name), who only says which work is meant (no mention: the person is
rated only when named on their own; its words are explained, so they make no part of an unknown
title; the persons say which of a title's namesakes is meant, :mod:`nlu.linking.namesakes`).

- "TITLE by PERSON" ("1984 by Orwell", "Misery by Stephen King", "Hello by Adele"), "TITLE is my
  favourite PERSON film", and "TITLE with/from PERSON" when the title is one of the person's works
  ("Big with Tom Hanks");
- "PERSON's TITLE" ("Spielberg's Hook", "Radiohead's OK Computer");
- "ARTIST TITLE" with TITLE one of the artist's works, however weak its words alone ("radiohead ok
  computer 🔥");
- "TITLE, the PERSON one" ("emma, the jane austen one") and "the PERSON cover of TITLE": the person says
  which (issue 22-E);
- "TITLE by A and B": both say which ("Under Pressure by Queen and David Bowie"); "X and Y are my
  favourite Austen novels": the works listed before are theirs too.

Example:
    "Misery by Stephen King" -> Span(0, 1, {Misery (novel): 1.0}, "exact"), Span(2, 4, {}, "says-which")
"""

from __future__ import annotations

from typing import Any

from rapidfuzz import fuzz

from nlu.linking.namesakes import REFERENCE_CUES
from nlu.linking.syntax import is_verb
from nlu.linking.tokens import Token, boundary, name_key, skeleton_key
from nlu.linking.values import (
    FUZZY_CUTOFF,
    FUZZY_MIN_CHARS,
    FUZZY_SIM_FACTOR,
    MAX_LIST_ITEMS,
    MAX_SKELETON_SPAN,
    PERSON_ROLES,
    SAYS_WHICH,
    SIM_LABEL,
    SOLE_CREATORS,
    Span,
    creators,
    credited,
)
from nlu.linking.words import (
    APOSTROPHES,
    ASPECT_WORDS,
    CLAUSE_STOP,
    COVER_WORDS,
    LIKE_VERBS,
    OWN_WORK_LEADS,
    REQUEST_FILLER,
    SUPERLATIVES,
    TYPE_WORDS,
    WORK_OF_LEADS,
    stop_words,
)
from nlu.name_index import NameIndex


def credits_of(kb: Any, qid: str) -> set[str]:
    """The persons credited with an item in any role (performer, author, director, cast ...)."""
    item_values = getattr(kb, "item_values", None)
    return set() if item_values is None else {v for pid, v in item_values(qid) if pid in PERSON_ROLES}


SELF_TITLED = frozenset({("self", "titled"), ("self", "titled", "album"), ("eponymous", "album")})
"""Words for the work named after its own artist ("their self-titled album"): no title of their own."""

ONE_WORDS = frozenset("one version film movie book novel song album record".split())
"""Words that end "the PERSON one" ("the jane austen one", "the Nolan film")."""

_UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()

_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def _two_digits(n: int) -> list[str]:
    if n < 20:
        return [_UNITS[n]]
    return [_TENS[n // 10]] + ([_UNITS[n % 10]] if n % 10 else [])


def number_words(token: str) -> tuple[str, ...] | None:
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


def liked_title(text: str, tokens: list[Token], by: int) -> bool:
    """The words between a like-verb and "by" at ``by`` are a title's ("i loved wicked by gregory maguire", the
    novel unknown: the author only says which), not a kind of their works ("i love the songs by adele")."""
    stop = stop_words()
    for a in range(by - 1, max(-1, by - 1 - MAX_SKELETON_SPAN), -1):
        if boundary(text, tokens, a + 1) and a + 1 < by:
            return False
        if tokens[a].key in LIKE_VERBS:
            words = [t.key for t in tokens[a + 1 : by]]
            return (
                bool(words)
                and not all(w in stop for w in words)
                and not any(
                    (w in REQUEST_FILLER or w in TYPE_WORDS or w in ASPECT_WORDS) and w not in stop for w in words
                )
            )
    return False


def possessive_titles(kb: Any, names: NameIndex, text: str, tokens: list[Token], spans: list[Span]) -> list[Span]:
    """ "PERSON's TITLE" where the guard let only part of the title through ("neil gaiman's good omens": "Omens"):
    the longest run of words after the possessive, up to the clause's verb, that names an item replaces the
    shorter matches inside it."""
    out = list(spans)
    for span in spans:
        j = span.end
        if j + 1 >= len(tokens) or tokens[j].key != "s" or text[tokens[j - 1].end : tokens[j].start] not in APOSTROPHES:
            continue
        if not any(PERSON_ROLES.intersection(kb.roles(q)) for q in span.scored):
            continue
        a = j + 1
        b = a
        while (
            b < len(tokens) and b - a < MAX_SKELETON_SPAN and not boundary(text, tokens, b) and not is_verb(tokens, b)
        ):
            b += 1
        for end in range(b, a + 1, -1):  # two words or more: a longer name than any one-word match
            if tuple(t.key for t in tokens[a:end]) in SELF_TITLED:
                break  # "paramore's self titled album": the work named after them, no title "Self-Titled"
            hit = {q: v for q, v in (names.exact(tuple(t.key for t in tokens[a:end])) or {}).items() if kb.is_item(q)}
            inside = [s for s in out if a <= s.start and s.end <= end and s is not span]
            if hit and all(s.end - s.start < end - a or s.kind == "fuzzy" for s in inside):  # (exact over a typo)
                out = [s for s in out if s not in inside and not (s.start < end and a < s.end and s is not span)]
                out.append(Span(a, end, hit, "exact"))
                break
    return out


def weak_possessives(kb: Any, names: NameIndex, text: str, tokens: list[Token], starts: set[int]) -> list[Span]:
    """The person's spans of "PERSON's TITLE" pairs the guard let through neither name of ("sza's sos album"):
    TITLE is the words of one of the person's works in the KB (:meth:`WorkResolver._weak_credits`)."""
    keys = [t.key for t in tokens]
    value_items = getattr(kb, "value_items", None)
    out: list[Span] = []
    if value_items is None:
        return out
    for k in range(1, len(tokens) - 1):
        if keys[k] != "s" or text[tokens[k - 1].end : tokens[k].start] not in APOSTROPHES:
            continue
        for n in range(min(3, k), 0, -1):
            if k - n in starts or any(boundary(text, tokens, m) for m in range(k - n + 1, k)):
                continue
            hit = names.exact(tuple(keys[k - n : k])) or {}
            people = [q for q in hit if PERSON_ROLES.intersection(kb.roles(q))]
            works = {w for p in people[:3] for _pid, w in value_items(p) if kb.is_item(w)}
            titles = {name_key(name) for w in works for name in (kb.label(w), *kb.aliases(w))}
            if any(tuple(keys[k + 1 : k + 1 + len(t)]) == t for t in titles if t):
                out.append(Span(k - n, k, dict.fromkeys(people, SIM_LABEL), "exact"))
                break
    return out


def work_of(kb: Any, title: Span, people: set[str]) -> bool:
    """Some reading of ``title`` is a work that may be by ``people``: an item credited to them, or whose author
    or director the KB does not name (a person or a genre of that name is no "PERSON one")."""
    return any(kb.is_item(q) and (people & credits_of(kb, q) or not credited(kb, q, SOLE_CREATORS)) for q in title[2])


class WorkResolver:
    """Resolves works named by their person over one domain's KB and name index (module docstring).

    Args:
        kb: the domain's knowledge base (``roles``, ``popularity``, ``is_item``, ``label``, ``aliases``;
            ``value_items`` and ``item_values`` when it has them: without them nothing changes).
        names: the domain's name index.
    """

    def __init__(self, kb: Any, names: NameIndex) -> None:
        self.kb = kb
        self._names = names

    def resolve(self, text: str, tokens: list[Token], spans: list[Span]) -> list[Span]:
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
        spans = possessive_titles(self.kb, self._names, text, tokens, self._weak_credits(text, tokens, spans))
        out = self._works_after(text, tokens, self._possessive_person(text, tokens, spans))
        out = self._the_person_one(text, tokens, out)
        out = self._cover_of(tokens, out)
        out = self._by_someone_unknown(text, tokens, out)
        for span in spans:
            i = span[0]
            if span not in out or i < 2:
                continue
            lead = tokens[i - 1].key
            if lead in WORK_OF_LEADS:
                end = i - 1
            else:  # "Help! is my favourite Beatles song", "Fargo has always been my favourite Coen brothers film"
                if not {t.key for t in tokens[max(0, i - 2) : i]} & SUPERLATIVES or span[3] == "fuzzy":
                    continue  # (a person read into other words, "my favourite electronic act", says nothing)
                end = next((k for k in range(1, i) if is_verb(tokens, k)), 0)
                if end == 0 or not any(s[1] <= end for s in out if s is not span) and not tokens[0].raw[:1].isupper():
                    continue
            people = [q for q in span[2] if PERSON_ROLES.intersection(self.kb.roles(q))]
            if span[1] - i == 1:  # "Vertigo by Hitchcock": the persons of that last name too
                people += [q for q in (self._names.namesakes(tokens[i].key) or ()) if q not in people]
            if not people:
                continue  # "blown away by Interstellar"
            people.sort(key=lambda q: -self.kb.popularity(q))  # the best known first: Alfred of the Hitchcocks
            value_items = getattr(self.kb, "value_items", None)
            if value_items is None:
                continue
            works = self._works_of(people, value_items)
            found = self._title_before(text, tokens, end, works, own_only=lead in OWN_WORK_LEADS)
            if found is None:  # a typo'd title just before, one of whose readings is the person's (issue 22)
                typo = next((s for s in out if s[1] == end and s[3] == "fuzzy" and works.intersection(s[2])), None)
                found = (typo[0], typo[2]) if typo is not None else None
            lacked = False
            if found is not None and not works.intersection(found[1]):
                # none of the person's works: not one written or directed by someone else ("Blindness by
                # Saramago" is not Henry Green's "Blindness"; a song's performer may cover it: "Hurt by
                # Johnny Cash"); a namesake with no credit may be theirs, the KB lacking it
                named = set(people)
                # an album is nobody's cover: one another artist performs is a namesake the KB lacks theirs of
                # ("Parachutes by Kurt Vile" is not Coldplay's)
                kept = {
                    q: v
                    for q, v in found[1].items()
                    if (not credited(self.kb, q, SOLE_CREATORS) or named.intersection(creators(self.kb, q)))
                    and not (self._album(q) and credited(self.kb, q) and not named & credits_of(self.kb, q))
                }
                # a namesake credited to no one is likelier theirs than one another artist performs ("Rehab by
                # Amy Winehouse", her song without a credit in the KB, not Rihanna's; issue 22-E)
                uncredited = {q: v for q, v in kept.items() if not credited(self.kb, q)}
                if uncredited and len(uncredited) < len(kept):
                    kept = uncredited
                lacked = not kept  # the words name a work, others': the person's own the KB lacks
                found = (found[0], kept) if kept else None
            if found is None and lead in OWN_WORK_LEADS:
                if span[3] == "fuzzy" and any(s[1] == end for s in out):
                    out = [s for s in out if s is not span]  # "A Ghost Story from David Lowery": not his
                    # namesake "David Lowe", whose works it is not: a person the KB lacks says which
                continue  # "Moon with my friend Sam", "Heat from Michael Mann" unknown: both as they are
            if found is None:
                before = tokens[end - 1].raw
                if (
                    before[:1].isupper()
                    or before.isdigit()
                    or any(s[1] <= end for s in out if s is not span)
                    or liked_title(text, tokens, end)
                    or lacked
                ):
                    out = [s for s in out if s is not span]  # "Tenet by Nolan", Tenet unknown: Nolan is no opinion
                continue
            a, scored = found
            scored = self._with_namesakes(tokens, a, end, scored, set(people))
            out = [s for s in out if s is not span and not (a <= s[0] < end or a < s[1] <= end)]
            out.append(Span(a, end, scored, "exact"))
            out.append(Span(span[0], span[1], dict.fromkeys(people, SIM_LABEL), SAYS_WHICH))
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
                out.append(Span(b, joint, scored, "exact"))
                a = b
        return out

    def _weak_credits(self, text: str, tokens: list[Token], spans: list[Span]) -> list[Span]:
        """ "TITLE by PERSON" (and "PERSON's TITLE") where the guard let neither name through ("take on me by a-ha":
        function words and a short name; "sza's sos album"): the two words say each other, so the pair is a name
        when TITLE is the words of one of the person's works in the KB; the person's span is added, and the
        loop of :meth:`resolve` (:meth:`_works_after`) reads the pair."""
        starts = {s[0] for s in spans}
        value_items = getattr(self.kb, "value_items", None)
        if value_items is None:
            return spans
        keys = [t.key for t in tokens]
        out = list(spans)
        for k in range(1, len(tokens) - 1):
            if keys[k] != "by" or k + 1 in starts or boundary(text, tokens, k) or boundary(text, tokens, k + 1):
                continue
            for n in range(min(self._names.max_len(keys[k + 1]), len(tokens) - k - 1), 0, -1):
                if any(boundary(text, tokens, m) for m in range(k + 2, k + 1 + n)):
                    continue
                hit = self._names.exact(tuple(keys[k + 1 : k + 1 + n])) or {}
                people = [q for q in hit if PERSON_ROLES.intersection(self.kb.roles(q))]
                if not people:
                    continue
                works = self._works_of(people, value_items)
                found = self._title_before(text, tokens, k, works, own_only=True)
                if found is not None and works.intersection(found[1]):
                    out.append(Span(k + 1, k + 1 + n, dict.fromkeys(people, SIM_LABEL), "exact"))
                    break
        return out + weak_possessives(self.kb, self._names, text, tokens, starts)

    def _works_of(self, people: list[str], value_items: Any) -> set[str]:
        """The items of the three best-known ``people`` and the songs of their albums (the shared dump often gives
        a song's performer only on its album)."""
        works = {w for p in people[:3] for _pid, w in value_items(p) if self.kb.is_item(w)}
        return works | {w for album in works for pid, w in value_items(album) if pid == "P361" and self.kb.is_item(w)}

    def _with_namesakes(
        self, tokens: list[Token], a: int, b: int, works: dict[str, float], named: set[str] | None = None
    ) -> dict[str, float]:
        """The person's works named by tokens ``a:b``, and the other items the index gives for the same
        words (their other readings: :mod:`nlu.linking.namesakes` takes the credited one, and "sorry, I
        meant the 1933 one" still finds the others); with ``named`` ("TITLE by PERSON"), not the ones
        written or directed by someone else."""
        others = self._names.exact(tuple(t.key for t in tokens[a:b])) or {}
        readings = {
            q: v
            for q, v in others.items()
            if q not in works
            and self.kb.is_item(q)
            and (named is None or not credited(self.kb, q, SOLE_CREATORS) or named.intersection(creators(self.kb, q)))
        }
        if named is not None and readings:
            # a reading performed or made by someone else gives way to one credited to no one (issue 22-E)
            others_credit = {q for q in readings if credited(self.kb, q) and not named & credits_of(self.kb, q)}
            if len(others_credit) < len(readings) + len(works):
                readings = {q: v for q, v in readings.items() if q not in others_credit}
        return {**works, **readings} if readings else works

    def _co_credited(self, text: str, tokens: list[Token], j: int, spans: list[Span]) -> list[Span]:
        """ "TITLE by A and B" ("Under Pressure by Queen and David Bowie"): a person named right after the
        one who says which work is meant, joined by "and" or "&", says it too (no opinion of them)."""
        if j + 1 >= len(tokens) or tokens[j].key not in ("and", "&") or boundary(text, tokens, j):
            return spans
        follower = next((s for s in spans if s[0] == j + 1 and s[3] != SAYS_WHICH), None)
        if follower is None or not any(PERSON_ROLES.intersection(self.kb.roles(q)) for q in follower[2]):
            return spans
        out = [s for s in spans if s is not follower]
        named = {q: v for q, v in follower[2].items() if PERSON_ROLES.intersection(self.kb.roles(q))}
        out.append(Span(follower[0], follower[1], named, SAYS_WHICH))
        return out

    def _works_after(self, text: str, tokens: list[Token], spans: list[Span]) -> list[Span]:
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
            if span not in out or j >= len(tokens) or boundary(text, tokens, j):
                continue
            people = [q for q in span[2] if PERSON_ROLES.intersection(self.kb.roles(q))][:3]
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
                        titles.setdefault(key, {})[w] = SIM_LABEL
            found: Span | None = None
            for end in range(min(len(tokens), start + MAX_SKELETON_SPAN), start, -1):
                if any(boundary(text, tokens, k) for k in range(start + 1, end)):
                    continue
                hit = titles.get(tuple(keys[start:end]))
                if hit:
                    found = Span(start, end, self._with_namesakes(tokens, start, end, hit), "exact")
                    break
            if found is None:
                continue
            a, b = found[0], found[1]
            out = [s for s in out if s is not span and not (s[0] < b and a < s[1])]
            out.append(found)
            out.append(Span(span[0], span[1], dict.fromkeys(people, SIM_LABEL), SAYS_WHICH))
        return out

    def _possessive_person(self, text: str, tokens: list[Token], spans: list[Span]) -> list[Span]:
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
                or text[tokens[j - 1].end : tokens[j].start] not in APOSTROPHES
            ):
                continue
            follower = starts.get(j + 1)
            if follower is not None and self._kind_word(tokens, follower):
                follower = None  # "agatha christie's mysteries": her works of a genre, no title: she is rated
            if follower is not None and follower[3] == "fuzzy" and not self._theirs(span, follower):
                follower = None  # "Hans Zimmer's scores": a word like a title of someone else's, no work of theirs
            if follower is None or not any(self.kb.is_item(q) for q in follower[2]):
                k = j + 2 if tokens[j + 1].key == "the" and j + 2 < len(tokens) else j + 1  # "Atwood's The Testaments"
                after = tokens[k]
                # a capitalised name follows: a title the KB lacks ("Crazy Frog's Axel F", not the artist "Axel")
                # or a member ("Radiohead's Thom Yorke"), rated for itself
                unknown_title = after.raw[:1].isupper() and after.key not in stop_words()
                ranked = after.key in SUPERLATIVES | {"worst"} and any(
                    s[1] <= span[0] and any(self.kb.is_item(q) for q in s[2]) for s in spans
                )
                if not (unknown_title or ranked):
                    continue
            named = {q: v for q, v in span[2].items() if PERSON_ROLES.intersection(self.kb.roles(q))}
            if named:
                out = [s for s in out if s is not span]
                out.append(Span(span[0], span[1], named, SAYS_WHICH))
        return out

    def _the_person_one(self, text: str, tokens: list[Token], spans: list[Span]) -> list[Span]:
        """ "TITLE, the PERSON one" ("emma, the jane austen one", "Solaris (the Tarkovsky film)", "X, the original
        one with PERSON"): after a title named before it, the person only says which reading is meant (issue
        22-E); no opinion of them."""
        out = list(spans)
        for span in spans:
            i, j = span[0], span[1]
            # "the original one with Michael Caine": a person the one meant is "with" says which too
            with_one = i >= 3 and tokens[i - 1].key == "with" and tokens[i - 2].key in ONE_WORDS | REFERENCE_CUES.keys()
            # (an apposition: "the" opens the clause, "..., the original one with X"; not "but not the last one with X")
            with_one = with_one and any(
                tokens[t].key == "the" and boundary(text, tokens, t) for t in range(max(1, i - 4), i - 2)
            )
            one = i >= 2 and j < len(tokens) and tokens[j].key in ONE_WORDS and tokens[i - 1].key == "the"
            if not (one or with_one):
                continue
            if span[3] == SAYS_WHICH or not any(s[1] <= i - 1 for s in spans if s is not span):
                continue  # (no title before: "not the rihanna one" is for the dialog to read)
            people = {q: v for q, v in span[2].items() if PERSON_ROLES.intersection(self.kb.roles(q))}
            if people:
                out = [s for s in out if s is not span]
                out.append(Span(i, j, people, SAYS_WHICH))
                title = max((s for s in out if s[1] <= i - 1 and s[3] != SAYS_WHICH), key=lambda s: s[1], default=None)
                if title is not None and not work_of(self.kb, title, set(people)):
                    out = [s for s in out if s is not title]  # "Elvis, the Baz Luhrmann one": a film the KB lacks
        return out

    def _by_someone_unknown(self, text: str, tokens: list[Token], spans: list[Span]) -> list[Span]:
        """A title read only as a typo of another ("yellowface" as "Yellow Face") and credited "by" someone the KB
        does not know ("by rf kuang", no first or last name of a person it has): a work the KB lacks, no typo
        of one it has (issue 22-E)."""
        starts = {s[0] for s in spans}
        out = []
        for span in spans:
            j = span[1]
            unknown_maker = (
                j + 1 < len(tokens)
                and tokens[j].key == "by"
                and not boundary(text, tokens, j)
                and j + 1 not in starts
                and tokens[j + 1].key not in stop_words()
                and not self._names.namesakes(tokens[j + 1].key)  # ("the shinning by king": a surname it knows)
            )
            if not (span[3] == "fuzzy" and unknown_maker):
                out.append(span)
        return out

    def _cover_of(self, tokens: list[Token], spans: list[Span]) -> list[Span]:
        """ "the PERSON cover of TITLE" ("the johnny cash cover of hurt", "Jeff Buckley's version of X"): the
        person says which recording of the title is meant (issue 22-E); the title is rated, not the person."""
        out = list(spans)
        for span in spans:
            j = span[1]
            k = j + 1 if j < len(tokens) and tokens[j].key == "s" else j  # "Buckley's version of"
            if k + 1 >= len(tokens) or tokens[k].key not in COVER_WORDS or tokens[k + 1].key != "of":
                continue
            if span[3] == SAYS_WHICH:
                continue  # (the title after "of" may be one the KB lacks: the person still only says which)
            people = {q: v for q, v in span[2].items() if PERSON_ROLES.intersection(self.kb.roles(q))}
            if people:
                out = [s for s in out if s is not span]
                out.append(Span(span[0], span[1], people, SAYS_WHICH))
        return out

    def _theirs(self, person: Span, work: Span) -> bool:
        """Some candidate of ``work`` is credited to a person ``person`` may name."""
        people = {q for q in person[2] if PERSON_ROLES.intersection(self.kb.roles(q))}
        value_items = getattr(self.kb, "value_items", None)
        if not people or value_items is None:
            return False
        works = {w for p in people for _pid, w in value_items(p)}
        return any(q in works or people.intersection(creators(self.kb, q)) for q in work[2])

    def _album(self, qid: str) -> bool:
        kind = getattr(self.kb, "kind", None)
        return kind is not None and kind(qid) == "album"

    def _kind_word(self, tokens: list[Token], span: Span) -> bool:
        """A span of one lowercase word that may name a genre ("mysteries", "thrillers"): after a possessive
        it says which of the person's works, as a type noun does."""
        return (
            span[1] - span[0] == 1
            and tokens[span[0]].raw.islower()
            and any("P136" in self.kb.roles(q) and not self.kb.is_item(q) for q in span[2])
        )

    def _title_before(
        self, text: str, tokens: list[Token], by: int, works: set[str], *, own_only: bool = False
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
        verb_seen = False
        for a in range(by - 1, max(-1, by - 1 - MAX_SKELETON_SPAN), -1):
            if a + 1 < by and boundary(text, tokens, a + 1):
                break
            title_word = tokens[a].raw[:1].isupper() and not boundary(text, tokens, a)  # "Love Me Do by ..."
            if keys[a] in CLAUSE_STOP:
                break
            if not title_word and (keys[a] in LIKE_VERBS or is_verb(tokens, a)):
                # (a possessive "s" is part of the title: "Butcher's Crossing by John Williams")
                verb_seen = True  # only the person's own titles go on past it: "crazy in love by beyonce"
            if keys[a] == "and":
                continue  # a list joint opens no title (its skeleton drops it: "and Persuasion" = "Persuasion")
            typed = tuple(keys[a:by])
            spelled = tuple(w for t in typed for w in (number_words(t) or (t,)))
            hits: dict[str, float] = {}
            for qid, variants in names.items():
                for variant in variants:
                    if variant in (typed, spelled) or skeleton_key(variant) == skeleton_key(spelled):
                        hits[qid] = SIM_LABEL
                    elif len(" ".join(typed)) >= FUZZY_MIN_CHARS:
                        ratio = fuzz.ratio(" ".join(spelled), " ".join(variant))
                        if ratio >= FUZZY_CUTOFF:
                            hits[qid] = max(hits.get(qid, 0.0), FUZZY_SIM_FACTOR * ratio / 100.0)
            if hits:
                best = (a, hits)
            elif best is None and not own_only and not verb_seen:
                indexed = {q: v for q, v in (self._names.exact(typed) or {}).items() if self.kb.is_item(q)}
                capitalised = len(typed) > 1 and all(t.raw[:1].isupper() for t in tokens[a:by])
                if indexed and (capitalised or not all(k in stop_words() for k in typed)):
                    fallback = (a, indexed)  # "Someone Like You by Adele": function words typed as a title
        return best or fallback
