"""Step 1c of linking: titles and names typed with a slip wherever they stand (issue 22: "i red cloud atlus last
mnth", "where the crawdad sings was so overhyped", "how to train ur dragon as well", "adrian brody so good in it",
"nickleback no").

Reads: the message's tokens, the spans proposed so far and the name index's fuzzy tables. Adds: ``fuzzy``
:class:`nlu.linking.values.Span` values for windows of words that name something once a few words are read as
typed one letter off.

:mod:`nlu.linking.fuzzy` respells spans where the syntax expects a name (a like-verb's object, a subject); people
in chat put names anywhere, after verbs typed wrong ("i red X") or none at all ("X as well"). So here the
evidence is the words themselves, not their place: a window of up to :data:`MAX_WINDOW_TOKENS` words holding a
*suspect* word (no English word, :data:`SUSPECT_ZIPF`, and no word the index's names open with, a distinctive
word of a title or a person's first or last name; or a chat spelling: "ur") is
compared with the index's names of as many words, word by word. Each word is the name's word, its chat
spelling (``textnorm.CHAT_SPELLINGS``: "ur" / "your") or typed one letter off it (:func:`typo_word`). Guards, so
that everyday words are never turned into titles:

- one word or more of the window is suspect and differs from the name's word: the slip is seen, not guessed
  ("country roads" stays no typo of "Country Road": both English words);
- a window of one word: a suspect word of :data:`MIN_SINGLE_CHARS` letters or more, a name that is no English word
  itself (:data:`MAX_SINGLE_NAME_ZIPF`: "nickleback" -> Nickelback; "yesterdy" is no film "Yesterday"), the
  entity's label or alias (not "The Ragazzi" for a foreign "ragazza");
- a window of several words: a word typed right that is no function word (:data:`FUNCTION_WORDS`), or two
  words typed off of
  :data:`MIN_TYPO_CHARS` letters ("where the crawdad sings": the "s" moved), or a chat spelling in a name of
  three words or more ("how to train ur dragon");
- a person's first name one letter off before a last name typed right that is rare in English (:data:`RARE_ZIPF`)
  and a last name of persons of the index: that person ("adrian brody"; the first name is a word or a name itself);
- a suspect word alone after "by" or before a possessive, one letter off a rare last name of persons: those
  persons ("disgrace by coetze"; :mod:`nlu.linking.works` then reads the work they made);
- no window across a clause's punctuation, nor over part of a span proposed otherwise (a window over whole spans
  replaces them: "cloud atlus" is no "Cloud").

Example:
    >>> TypoWindows(names).spans("i red cloud atlus last mnth", tokens, [])  # doctest: +SKIP
    [Span(start=2, end=4, scored={'Q40205': 0.81...}, kind='fuzzy')]
"""

from __future__ import annotations

import math
from collections.abc import Callable

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from nlu.linking.tokens import Token, block_keys, boundary
from nlu.linking.values import FUZZY_SIM_FACTOR, MAX_CANDIDATES, SIM_ALIAS, SIM_NAMESAKE, Span
from nlu.linking.words import (
    APOSTROPHES,
    AUXILIARIES,
    DETERMINERS,
    LIKE_VERBS,
    PREPOSITIONS,
    PRONOUNS,
    RARE_ZIPF,
    SUBJECT_PRONOUNS,
    stop_words,
    zipf,
)
from nlu.name_index import NameIndex
from nlu.textnorm import CHAT_SPELLINGS

MAX_WINDOW_TOKENS = 6
"""Longest window compared with names (a longer title typed with a slip is rarely typed whole)."""
MAX_LOOKUPS = 60
"""Windows looked up per message (each a search of the index's fuzzy tables)."""
SUSPECT_ZIPF = 3.0
"""A word under this ``wordfreq`` Zipf frequency (about one per million words) may be typed with a slip."""
MIN_TYPO_CHARS = 4
"""Words typed one letter off have this many letters (shorter words are too close to too many others)."""
MIN_SINGLE_CHARS = 7
"""A lone word is respelled only from this many letters ("nickleback"; not "atlus" alone, nor the foreign word
"carree" of an unknown album, one letter off another name)."""
MAX_SINGLE_NAME_ZIPF = RARE_ZIPF
"""A lone word is a name's typo only when the name is no word English uses this often ("Nickelback", "Radiohead";
not "Yesterday", "Mechanic"), and the entity's label or alias itself."""
WINDOW_CUTOFF = 75.0
"""``fuzz.ratio`` pre-filter of the names compared word by word (the word rule decides)."""
MAX_NAME_EXTRA = 24
"""A last name typed alone stands for full names up to this many characters longer ("j m coetzee")."""
MIN_CHAT_WORDS = 3
"""A chat spelling ("ur") is read as the name's word only in names of this many words."""

MIN_RIGHT_CHARS = 3
"""A word typed right anchors a window from this many letters, a function word aside ("day", not "of")."""
FUNCTION_WORDS = PREPOSITIONS | DETERMINERS | PRONOUNS | AUXILIARIES | frozenset({"the", "not", "but", "nor", "yet"})
"""Words every other title holds: typed right, they anchor nothing."""

_CHAT_WORDS = {k: v for k, v in CHAT_SPELLINGS.items() if " " not in v and "'" not in v}
"""Chat spellings of one word ("ur" -> "your", "u" -> "you")."""


def _holds_the_speakers_verb(keys: list[str], i: int, j: int) -> bool:
    """Tokens ``i:j`` hold a like-verb said by the speaker: right after "i" / "we", or after one word more between
    them ("i realy love X", "we totally dig X"); the words around it are no title typed with a slip."""
    for k in range(i, j):
        if keys[k] in LIKE_VERBS and any(0 <= m < k and keys[m] in SUBJECT_PRONOUNS for m in (k - 1, k - 2)):
            return True
    return False


def typo_word(typed: str, word: str) -> bool:
    """``typed`` is ``word`` typed one letter off: Optimal String Alignment distance 1 (a letter substituted,
    dropped, added, or two swapped), both of :data:`MIN_TYPO_CHARS` letters or more."""
    return typed != word and min(len(typed), len(word)) >= MIN_TYPO_CHARS and OSA.distance(typed, word) <= 1


def _aligned(typed: list[str], named: list[str], suspect: list[bool]) -> bool:
    """The window's words name the name's words under the module's rules (word by word, same count)."""
    if len(typed) != len(named):
        return False
    right = slipped = chat = 0
    seen = False  # a suspect word that differs: the slip seen
    for a, b, odd in zip(typed, named, suspect, strict=True):
        if a == b:
            right += len(b) >= MIN_RIGHT_CHARS and b not in FUNCTION_WORDS
        elif _CHAT_WORDS.get(a) == b:
            chat += 1
            seen = True
        elif typo_word(a, b):
            slipped += 1
            seen = seen or odd
        else:
            return False
    if not seen or (chat and len(named) < MIN_CHAT_WORDS):
        return False
    if len(named) == 1:
        return len(typed[0]) >= MIN_SINGLE_CHARS and zipf(named[0]) < MAX_SINGLE_NAME_ZIPF
    return right >= 1 or slipped >= 2 or (chat >= 1 and slipped + chat == len(named) - right)


class TypoWindows:
    """Finds names typed with a slip anywhere in a message (module docstring).

    Args:
        names: the domain's name index.
        is_genre: whether an entity is a genre (no window names one: genres are everyday words, typed off they
            are the person's own words, "mixed martials arte"; :mod:`nlu.linking.fuzzy` respells them where a
            name is expected).
    """

    def __init__(self, names: NameIndex, is_genre: Callable[[str], bool] | None = None) -> None:
        self._names = names
        self._is_genre = is_genre or (lambda _q: False)

    def _suspect(self, word: str) -> bool:
        """A word that may be typed with a slip: no English word and no name of the index, or a chat spelling."""
        if word in _CHAT_WORDS:
            return True
        if not word.isalpha() or len(word) < MIN_TYPO_CHARS or zipf(word) >= SUSPECT_ZIPF:
            return False
        return not self._known(word)  # a word of a name, spelled as it is there ("kurosawa", "lebowski"), is right

    def _known(self, word: str) -> bool:
        """Some name of the index opens with ``word``, holds it as a distinctive word or a person's name."""
        names = self._names
        return bool(names.max_len(word) or names.title_items(word) or names.namesakes(word))

    def spans(self, text: str, tokens: list[Token], taken: list[Span]) -> list[Span]:
        """Spans of names typed with a slip (module docstring); ``taken`` loses the spans a window replaces."""
        keys = [t.key for t in tokens]
        covered = {k for s in taken for k in range(s.start, s.end)}
        # a word inside a name found otherwise is typed as that name is (a typo'd one is respelled already)
        suspect = [k not in covered and self._suspect(key) for k, key in enumerate(keys)]
        out: list[Span] = []
        budget = MAX_LOOKUPS
        n = len(tokens)
        decoded: dict[int, str] = {}
        for size in range(MAX_WINDOW_TOKENS, 0, -1):  # the longest windows first: "cloud atlus", not "atlus"
            for i in range(0, n - size + 1):
                j = i + size
                if budget <= 0:
                    return out
                if not any(suspect[i:j]) or any(boundary(text, tokens, m) for m in range(i + 1, j)):
                    continue
                if _holds_the_speakers_verb(keys, i, j):
                    continue  # "i realy love queeen": "realy love" is the speaker's verb, no song "Real Love"
                if any(s.start < j and i < s.end and not (i <= s.start and s.end <= j) for s in taken + out):
                    continue  # part of a span proposed otherwise
                if any(s.start == i and s.end == j for s in taken):
                    continue
                budget -= 1
                scored = self._lookup(keys[i:j], suspect[i:j], decoded)
                if scored:
                    taken[:] = [s for s in taken if not (i <= s.start and s.end <= j)]
                    out.append(Span(i, j, scored, "fuzzy"))
        covered |= {k for s in out for k in range(s.start, s.end)}
        return out + self._first_names(text, tokens, covered) + self._last_names(text, tokens, covered, suspect)

    def _last_names(self, text: str, tokens: list[Token], covered: set[int], suspect: list[bool]) -> list[Span]:
        """A suspect word after "by" or before a possessive, one letter off the rare last name of persons of the
        index: those persons ("disgrace by coetze", "tolkein's ..."), the work's maker named by last name."""
        out: list[Span] = []
        for k, tok in enumerate(tokens):
            if k in covered or not suspect[k] or tok.key in _CHAT_WORDS:
                continue
            by = k > 0 and tokens[k - 1].key == "by"
            owner = (
                k + 1 < len(tokens) and tokens[k + 1].key == "s" and text[tok.end : tokens[k + 1].start] in APOSTROPHES
            )
            if not (by or owner):
                continue
            word = tok.key
            scored: dict[str, float] = {}
            ids = self._names.fuzzy_window(len(word) - 1, len(word) + MAX_NAME_EXTRA, block_keys(word, frozenset()))
            for pos in ids:
                name = self._names.fuzzy_name(pos).split(" ")
                last = name[-1]
                if len(name) < 2 or not typo_word(word, last) or zipf(last) >= RARE_ZIPF:
                    continue
                people = set(self._names.namesakes(last) or ())
                for qid in self._names.exact(tuple(name)) or {}:
                    if qid in people:
                        scored[qid] = SIM_NAMESAKE * FUZZY_SIM_FACTOR
            if scored:
                out.append(Span(k, k + 1, scored, "fuzzy"))
        return out

    def _first_names(self, text: str, tokens: list[Token], covered: set[int]) -> list[Span]:
        """Persons named with their first name one letter off, a rare last name typed right ("adrian brody"): a
        first name is an English word or a name itself, so no suspect word says the slip; the rare last name
        of persons of the index does."""
        out: list[Span] = []
        for k in range(1, len(tokens)):
            first, last = tokens[k - 1].key, tokens[k].key
            if {k - 1, k} & covered or boundary(text, tokens, k) or len(first) < MIN_TYPO_CHARS or not first.isalpha():
                continue
            if zipf(last) >= RARE_ZIPF:
                continue
            people = set(self._names.namesakes(last) or ())
            if not people:
                continue
            scored = {
                q: v for q, v in self._lookup([first, last], [True, False], {}, block=last).items() if q in people
            }
            if scored:
                out.append(Span(k - 1, k + 1, scored, "fuzzy"))
        return out

    def _lookup(
        self, typed: list[str], suspect: list[bool], decoded: dict[int, str], *, block: str | None = None
    ) -> dict[str, float]:
        """The entities whose names the window's words name (module docstring), scored as fuzzy matches;
        ``block``: the word whose blocking keys to search (default: the suspect words)."""
        spelled = [_CHAT_WORDS.get(w, w) for w in typed]
        query = " ".join(spelled)
        lo = math.floor(len(query) * WINDOW_CUTOFF / (200 - WINDOW_CUTOFF))
        hi = math.ceil(len(query) * (200 - WINDOW_CUTOFF) / WINDOW_CUTOFF)
        # blocked on the suspect words alone: the slip is there, their first or last two letters (blocking keys)
        # rare ones; names decoded once per message (``decoded``: windows overlap). A chat spelling stands for a
        # function word ("ur"), which blocks no name: then the window's content words do ("train", "dragon")
        odd = block or " ".join(w for w, x in zip(typed, suspect, strict=True) if x and w not in _CHAT_WORDS)
        keys = block_keys(odd, frozenset()) if odd else block_keys(query, stop_words())
        ids = self._names.fuzzy_window(lo, hi, keys)
        choices = [decoded[p] if p in decoded else decoded.setdefault(p, self._names.fuzzy_name(p)) for p in ids]
        if not choices:
            return {}
        hits = process.extract(query, choices, scorer=fuzz.ratio, score_cutoff=WINDOW_CUTOFF, limit=MAX_CANDIDATES * 2)
        scored: dict[str, float] = {}
        for name, ratio, _k in hits:
            if not _aligned(typed, name.split(" "), suspect):
                continue
            for qid, kind_sim in (self._names.exact(tuple(name.split(" "))) or {}).items():
                if (len(typed) == 1 and kind_sim < SIM_ALIAS) or self._is_genre(qid):
                    continue  # a lone word names an entity called so, not one a form derived names ("The Ragazzi")
                sim = FUZZY_SIM_FACTOR * ratio / 100.0 * kind_sim
                scored[qid] = max(scored.get(qid, 0.0), sim)
        return scored
