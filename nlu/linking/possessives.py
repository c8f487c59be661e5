"""Step 2b of linking: "PERSON's TITLE" read among the works of that person (issue 22: "kerouac's on the road",
"the who's tommy?", "neruda's twenty love poems").

Reads: the message's tokens, the spans proposed so far (after :mod:`nlu.linking.works`), the name index and the
KB's credits (``value_items``). Adds: where the words before a possessive name persons (their exact name, or a
last name of persons: "kerouac") and the words after it, up to the clause's end or verb, name one of their works,
a span of that work and a ``says-which`` span of the person, in place of the spans over those words. The words
after the possessive name a work when they are:

- its title (label or alias), maybe followed by other words ("radiohead's ok computer album", "... last week");
- the opening words of its title, two words or more, not only stop words ("twenty love poems" of "Twenty Love
  Poems and a Song of Despair"): people shorten long titles, and among one person's works the opening is
  distinctive;
- its title with words typed one letter off (:func:`typo_of`), one word at least typed right;
- failing a work of theirs, the title of an item the KB credits to no one (the dump lacks many credits: "the
  who's tommy"), said whole, neither only everyday words, a genre, the plural of an English noun nor "self titled"
  ("agatha christie's mysteries", "X's compositions": a kind of their works).

Everyday phrases the name index refuses on their own ("on the road") are titles here: the person says which work.
Nothing is changed where the person's works hold no such title ("agatha christie's mysteries": she is rated).

Example:
    "kerouac's on the road 😍" -> Span(3, 6, {On the Road: 0.9...}, "exact"), Span(0, 1, {Jack Kerouac: 1.0},
    "says-which")
"""

from __future__ import annotations

from typing import Any

from rapidfuzz.distance import OSA

from nlu.linking.syntax import is_verb
from nlu.linking.tokens import Token, boundary, name_key
from nlu.linking.values import (
    MAX_SKELETON_SPAN,
    PERSON_ROLES,
    SAYS_WHICH,
    SIM_LABEL,
    SIM_MAIN_TITLE,
    Span,
    credited,
)
from nlu.linking.words import APOSTROPHES, CLAUSE_STOP, is_everyday, stop_words, zipf
from nlu.linking.works import SELF_TITLED
from nlu.name_index import NameIndex

MAX_OWNER_TOKENS = 3
"""Words before the possessive tried as the person's name ("the who", "ursula k le guin" is four: its last name)."""
MAX_OWNER_WORKS = 400
"""Works of one person compared with the words after the possessive (a prolific band's songs are hundreds)."""
MIN_PREFIX_WORDS = 2
"""The opening words of a title name it when they are this many, one of them no stop word ("twenty love poems")."""
MIN_PREFIX_CHARS = 8
"""... and this many letters ("good omens"; not "the man" of "The Man Who ...")."""
MIN_TYPO_CHARS = 4
"""A word typed one letter off a title's word has this many letters ("atlus" / "atlas"; not "of" / "on")."""
KIND_ZIPF = 3.0
"""A plural whose singular English uses this often (``wordfreq`` Zipf) names a kind of works ("compositions")."""
SIM_TYPO = 0.85
"""Similarity of a title typed with words one letter off among the person's works (under a prefix's)."""


def typo_of(typed: str, word: str) -> bool:
    """``typed`` is ``word`` typed one letter off (Optimal String Alignment distance 1), both of
    :data:`MIN_TYPO_CHARS` letters or more, and ``typed`` no more common an English word than ``word``."""
    return (
        typed != word
        and min(len(typed), len(word)) >= MIN_TYPO_CHARS
        and OSA.distance(typed, word) <= 1
        and zipf(typed) <= zipf(word)
    )


def _title_match(run: tuple[str, ...], title: tuple[str, ...]) -> tuple[int, float] | None:
    """How many words of ``run`` (the words after the possessive) name ``title``, with the similarity: the
    title whole, its opening words, or the title with words typed one letter off (module docstring)."""
    if not title:
        return None
    n = len(title)
    if run[:n] == title:  # (maybe followed by a kind noun or more words: "ivy last week")
        return n, SIM_LABEL
    stop = stop_words()
    if (
        MIN_PREFIX_WORDS <= len(run) < n
        and title[: len(run)] == run
        and any(w not in stop for w in run)
        and sum(len(w) for w in run) >= MIN_PREFIX_CHARS
    ):
        return len(run), SIM_MAIN_TITLE
    if len(run) == n and any(a == b and a not in stop for a, b in zip(run, title, strict=True)):
        if all(a == b or typo_of(a, b) for a, b in zip(run, title, strict=True)):
            return n, SIM_TYPO
    return None


def _kind_plural(words: tuple[str, ...]) -> bool:
    """One word, the plural of an English noun ("compositions", "ballads"): a kind of the person's works."""
    if len(words) != 1 or not words[0].endswith("s") or len(words[0]) < MIN_TYPO_CHARS:
        return False
    w = words[0]
    singulars = (w[:-1], w[:-2], w[:-3] + "y") if w.endswith("ies") else (w[:-1], w[:-2])
    return any(zipf(x) >= KIND_ZIPF for x in singulars)


def _run_end(text: str, tokens: list[Token], a: int) -> int:
    """The end of the words after a possessive at ``a``: the clause's punctuation, verb or connective."""
    b = a
    while (
        b < len(tokens)
        and b - a < MAX_SKELETON_SPAN
        and (b == a or not boundary(text, tokens, b))
        and not is_verb(tokens, b)
        and tokens[b].key not in CLAUSE_STOP
    ):
        b += 1
    return b


class PossessiveResolver:
    """Reads "PERSON's TITLE" among the person's works (module docstring).

    Args:
        kb: the domain's knowledge base (``roles``, ``is_item``, ``label``, ``aliases``, ``value_items``).
        names: the domain's name index.
    """

    def __init__(self, kb: Any, names: NameIndex) -> None:
        self.kb = kb
        self._names = names

    def resolve(self, text: str, tokens: list[Token], spans: list[Span]) -> list[Span]:
        """``spans`` with each "PERSON's TITLE" the person's works explain read as that work (module docstring)."""
        if getattr(self.kb, "value_items", None) is None:
            return spans
        out = list(spans)
        for k in range(1, len(tokens) - 1):
            if tokens[k].key != "s" or text[tokens[k - 1].end : tokens[k].start] not in APOSTROPHES:
                continue
            a = k + 1
            b = _run_end(text, tokens, a)
            if b == a or any(s.kind != "fuzzy" and (s.start < k < s.end or (s.start == a and s.end >= b)) for s in out):
                continue  # nothing after it, a name holding the possessive ("Bram Stoker's Dracula"), or read whole
            # the person as a step before read them (a typo'd last name: "tolkein's"), else by their name's words
            typed = [(s.start, [q for q in s.scored if self._person(q)]) for s in out if s.end == k]
            found = self._owned_work(tokens, k, a, b, [(i, p) for i, p in typed if p])
            if found is None or any(s.start == a and s.kind != "fuzzy" and set(s.scored) & set(found[3]) for s in out):
                continue  # (read so by the steps before)
            start, people, end, scored = found
            out = [s for s in out if s.end <= start or s.start >= end]
            out.append(Span(a, end, scored, "exact"))
            out.append(Span(start, k, dict.fromkeys(people, SIM_LABEL), SAYS_WHICH))
        return out

    def _owners(self, keys: tuple[str, ...]) -> list[str]:
        """The persons ``keys`` name: by their name, or by their last name alone."""
        hit = self._names.exact(keys) or {}
        people = [q for q in hit if self._person(q)]
        if not people and len(keys) == 1:
            people = [q for q in (self._names.namesakes(keys[0]) or ()) if self._person(q)]
        return people

    def _person(self, qid: str) -> bool:
        return bool(PERSON_ROLES.intersection(self.kb.roles(qid) or ()))

    def _owned_work(
        self, tokens: list[Token], k: int, a: int, b: int, typed: list[tuple[int, list[str]]]
    ) -> tuple[int, list[str], int, dict[str, float]] | None:
        """(first token of the person, the persons, end of the title, the works) of the possessive at ``k``;
        ``typed``: (first token, persons) of the spans ending at ``k`` that name persons."""
        run = tuple(t.key for t in tokens[a:b])
        owners = typed + [
            (k - n, self._owners(tuple(t.key for t in tokens[k - n : k])))
            for n in range(min(MAX_OWNER_TOKENS, k), 0, -1)
        ]
        for start, people in owners:
            if not people:
                continue
            best: dict[str, float] = {}
            length = 0
            makers: set[str] = set()
            for person in people:
                works = {w for _pid, w in self.kb.value_items(person)[:MAX_OWNER_WORKS] if self.kb.is_item(w)}
                for work in works:
                    for name in {self.kb.label(work), *self.kb.aliases(work)}:
                        match = _title_match(run, name_key(name))
                        if match is None or match[0] < length:
                            continue
                        if match[0] > length:
                            best, makers, length = {}, set(), match[0]
                        best[work] = max(best.get(work, 0.0), match[1])
                        makers.add(person)
            if best:
                return start, sorted(makers), a + length, best
            stop = stop_words()
            # a work the KB credits to no one may be theirs (the dump lacks the credit); one credited to others is not
            for end in range(b, a, -1):
                words = run[: end - a]
                if all(w in stop or is_everyday(w) for w in words) or words in SELF_TITLED or _kind_plural(words):
                    break  # "X's compositions", "paramore's self titled album": their works of a kind, no title
                hit = self._names.exact(run[: end - a]) or {}
                if any("P136" in self.kb.roles(q) and not self.kb.is_item(q) for q in hit):
                    break  # "agatha christie's mysteries": a genre, her works of a kind, no title
                lacking = {q: v for q, v in hit.items() if self.kb.is_item(q) and not credited(self.kb, q)}
                if lacking:
                    return start, people, end, lacking
            return None
        return None
