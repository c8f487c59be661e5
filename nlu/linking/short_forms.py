"""Short forms of long titles: people name a long work by its distinctive first or last two words ("lock stock" for
"Lock, Stock and Two Smoking Barrels", "eternal sunshine" for "Eternal Sunshine of the Spotless Mind", "tom sawyer"
for "The Adventures of Tom Sawyer").

A title of three words or more (an article aside) gives its first two and its last two words as keys of the name
index, when both are words of three letters or more and no stop words, no name of the index is those words already,
and the pair is distinctive in one of two ways:

- the work is well known (:data:`~nlu.linking.values.DOMINANT_MIN_POPULARITY`) and no other title gives the pair,
  but much less known ones (:data:`~nlu.linking.values.DOMINANT_RATIO`), and the pair is no everyday phrase: a word
  of it is no everyday English ("eternal sunshine", not "american history" of "American History X"), or it is the
  first part of a title of coordinated parts ("lock stock" of "Lock, Stock and ..."); not in music, whose titles are
  everyday phrases ("teen spirit");
- the pair is a character's name the title is about ("... of Tom Sawyer", "... of Ron Burgundy": after "of", a first
  name that opens the names of :data:`MIN_GIVEN_NAME_PERSONS` persons of the KB and a last word that is no everyday
  English), and no other title ends so.

Similarity :data:`~nlu.linking.values.SIM_MAIN_TITLE`, below any label, alias or variant.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from typing import Any

from nlu.linking.values import DOMINANT_MIN_POPULARITY, DOMINANT_RATIO, MIN_STRONG_CHARS, PERSON_ROLES, SIM_MAIN_TITLE
from nlu.linking.words import is_everyday, stop_words

MIN_TITLE_WORDS = 3
"""A title of fewer words (an article aside) is said whole."""
MIN_WORD_CHARS = 3
"""Each word of a short form has this many letters ("lock", not "of")."""
MIN_GIVEN_NAME_PERSONS = 5
"""A word is a given name when this many persons' names open with it ("tom"; not "lost" of one band)."""
CONJUNCTIONS = frozenset({"and", "&"})
"""A title of coordinated parts ("Lock, Stock and Two Smoking Barrels") is named by its first part."""
PHRASE_DOMAINS = frozenset({"music"})
"""Domains whose titles are everyday phrases: no short form by fame alone."""


def short_forms(kb: Any, domain: str, label_keys: dict[str, tuple[str, ...]], index: dict) -> None:
    """Add the short forms of the items' titles (``label_keys``: QID -> its label's key) to ``index`` (module
    docstring)."""
    stop = stop_words()
    firsts: dict[str, int] = defaultdict(int)
    for q, key in label_keys.items():
        if len(key) >= 2 and PERSON_ROLES.intersection(kb.roles(q) or ()):
            firsts[key[0]] += 1
    given = {w for w, n in firsts.items() if n >= MIN_GIVEN_NAME_PERSONS}
    forms: dict[tuple[str, ...], set[str]] = defaultdict(set)
    named: dict[tuple[str, ...], set[str]] = defaultdict(set)
    conjunct: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for qid, key in label_keys.items():
        if not kb.is_item(qid):
            continue
        words = key[1:] if key[:1] in (("the",), ("a",)) else key
        if len(words) < MIN_TITLE_WORDS:
            continue
        for pair in (words[:2], words[-2:]):
            forms[pair].add(qid)
        if words[2] in CONJUNCTIONS:
            conjunct[words[:2]].add(qid)
        if words[-3] == "of" and words[-2] in given and not is_everyday(words[-1]):
            named[words[-2:]].add(qid)
    for pair, qids in forms.items():
        if pair in index or not all(w.isalpha() and len(w) >= MIN_WORD_CHARS and w not in stop for w in pair):
            continue
        if sum(len(w) for w in pair) < MIN_STRONG_CHARS:
            continue
        ranked = sorted(qids, key=lambda q: -kb.popularity(q))
        top = ranked[0]
        famous = (
            domain not in PHRASE_DOMAINS
            and kb.popularity(top) >= DOMINANT_MIN_POPULARITY
            and all(kb.popularity(top) >= DOMINANT_RATIO * kb.popularity(q) for q in ranked[1:])
            and (not all(is_everyday(w) for w in pair) or top in conjunct.get(pair, ()))
        )
        if famous:
            index[tuple(sys.intern(w) for w in pair)] = {top: SIM_MAIN_TITLE}
        elif len(named.get(pair, ())) == 1:  # (another title opening with the name is about them too: less so)
            index[tuple(sys.intern(w) for w in pair)] = {next(iter(named[pair])): SIM_MAIN_TITLE}
