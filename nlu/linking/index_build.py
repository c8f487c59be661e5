"""Building the name index: the keys under which the candidate generation finds KB entities.

Reads: one domain's KB (``names()``: every label and alias; ``label``, ``roles``, ``is_item``,
``popularity``). Adds: a :class:`nlu.name_index.DictNameIndex` (stored as ``names.pack`` beside the
snapshot by :func:`nlu.name_index.stored_index`, so a start maps it instead of rebuilding it).

Every KB label and alias is tokenised as messages are (:func:`nlu.linking.tokens.name_key`); the
tuple of folded tokens maps to the QIDs that carry it, with a similarity (:mod:`nlu.linking.values`):

- a label 1.0; an alias 0.95 (0.7 when the same words are another entity's label);
- derived forms 0.94: labels starting with "the" also without it; labels with a bracketed suffix also
  without it ("Havana (feat. Young Thug)"); genre values also as "horror", "horror films", "comedy
  movies", "romantic movies" (a genre label plus a type noun: 0.96), and their aliases in the plural
  ("romcoms"); a sequel's Roman numeral as a
  digit and back ("Evil Dead II" as "evil dead 2"); a person without the middle initial ("Philip Dick");
- an item's subtitle of two words or more 0.92 ("Fury Road"); the main title before it 0.9 when no
  other item has it and no other name but a work's label ("Batman v Superman");
- item titles keyed by their content words only (the skeleton table, 0.9: "fast and furious" finds
  "The Fast and the Furious");
- a series work by its subtitle after "<HERO> and the" 0.92 ("prisoner of azkaban");
- a person by a surname opening with a particle 0.72 ("le guin", "du maurier");
- persons by their first and last names (the namesake table: "I love Jackson"); distinctive words of
  item titles ("lebowski"); the names sorted by length with blocking keys for the fuzzy look-up.

The rules are fingerprinted (:func:`index_fingerprint`): a stored index built by other rules, or from
another snapshot, is rebuilt. The files of the rules are :data:`INDEX_RULES` (and the Makefile's
dependency line of ``names.pack``).
"""

from __future__ import annotations

import importlib
import math
import re
import sys
from collections import defaultdict
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from nlu.linking.short_forms import short_forms
from nlu.linking.tokens import BRACKETED, SKELETON_DROP, block_keys, name_key, plural, skeleton_key
from nlu.linking.values import (
    FUZZY_MIN_CHARS,
    MIN_STRONG_CHARS,
    PERSON_ROLES,
    SIM_ALIAS,
    SIM_FOREIGN_ALIAS,
    SIM_LABEL,
    SIM_MAIN_TITLE,
    SIM_NAMESAKE,
    SIM_SKELETON,
    SIM_SUBTITLE,
    SIM_TYPED,
    SIM_VARIANT,
    qid_order,
)
from nlu.linking.words import COMMON_ZIPF, ROMAN_NUMERALS, common_words, everyday_words, stop_words
from nlu.name_index import DictNameIndex, builder_fingerprint

INDEX_RULES = (
    "nlu.linking.index_build",
    "nlu.linking.short_forms",
    "nlu.linking.tokens",
    "nlu.linking.values",
    "nlu.linking.words",
    "nlu.name_index",
    "nlu.textnorm",
)
"""The modules whose source decides the name index (this one and every project module it imports);
the word lists read at run time (spaCy's stop words, VADER, the opinion cues, ``wordfreq``) are
fingerprinted by content."""

MAX_NGRAM = 16
"""Names longer than this many tokens are not indexed."""

MIN_TITLE_WORD_CHARS = 6
"""A lone word of a title is looked up (and asked about) only from this many letters ("lebowski")."""

MAX_TITLE_WORD_ITEMS = 3
"""A title word shared by more items than this is not distinctive."""

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

MIN_SERIES_SUBTITLE_CHARS = 8
"""A series subtitle is indexed only with this many letters in its content words ("goblet of fire"; not "end")."""

SURNAME_PARTICLES = frozenset("le la du de del della der den di da van von st ter ten mac dos das".split())
"""Words that open a surname of two words ("Le Guin", "du Maurier", "van Gogh", "del Toro")."""

_GENRE_SUFFIXES = ("film", "movie", "music", "novel", "fiction", "literature", "genre")

_SUBTITLE = re.compile(r"\s*:\s+|\s+[\u2013\u2014-]\s+")
"""Title/subtitle separators: ": ", " – ", " — ", " - "."""


def index_rule_files() -> tuple[Path, ...]:
    """The source files of :data:`INDEX_RULES`."""
    return tuple(Path(str(importlib.import_module(name).__file__)) for name in INDEX_RULES)


@lru_cache(maxsize=1)
def index_fingerprint() -> str:
    """Fingerprint of the rules that build the name index: the source of :data:`INDEX_RULES` and the
    word lists they use (a stored index built otherwise is rebuilt)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        wordfreq_version = version("wordfreq")  # its data decides everyday_words()
    except PackageNotFoundError:  # pragma: no cover - a declared dependency
        wordfreq_version = "none"
    return builder_fingerprint(
        *index_rule_files(),
        words=(stop_words(), common_words(), {f"wordfreq {wordfreq_version}", f"zipf {COMMON_ZIPF}"}),
    )


MIN_SERIES_READINGS, MAX_SERIES_READINGS = 3, 8
"""Works sharing a main title that the index reads it as (a series: the four "Mistborn: ..." books); two are
companions of a name, no series of it ("Harry Potter: Page to Screen", "... A Magical Year"); more, a sprawl."""


_KIND_OF_NOUNS = ("films", "movies", "music", "books", "novels", "songs", "stories")
"""Kind nouns a genre may follow with "of" ("films of war", "books of fantasy": non-native English)."""


def _abbreviates(short: str, words: tuple[str, ...]) -> bool:
    """``short`` is made of prefixes of ``words`` in their order, some possibly skipped ("scifi", "sf" of "science
    fiction", "dnb" of "drum and bass"): an abbreviation, not another name ("classical rock" of "progressive rock")."""
    if not short:
        return True
    if not words:
        return False
    head, rest = words[0], words[1:]
    return _abbreviates(short, rest) or any(
        short.startswith(head[:n]) and _abbreviates(short[n:], rest) for n in range(1, len(head) + 1)
    )


def _head_aliases(key: tuple[str, ...], heads: Mapping[tuple[str, ...], set[tuple[str, ...]]]) -> set[tuple[str, ...]]:
    """A compound genre's name with its head genre named by a shorter alias: "military science fiction" as "military
    sci-fi" and "military scifi", as "science fiction" is also "sci-fi" (``heads``: genre label -> short aliases)."""
    out: set[tuple[str, ...]] = set()
    for cut in range(1, len(key)):
        for alias in heads.get(key[cut:], ()):
            out.add(key[:cut] + alias)
    return out


class IndexBuilder:
    """Builds one domain's name index by the rules of the module docstring.

    Args:
        kb: a ``recommender.kb.KnowledgeBase`` (or any object with ``names``, ``label``, ``roles``,
            ``popularity``, ``is_item``, ``domain``; ``items`` optional).
    """

    def __init__(self, kb: Any) -> None:
        self.kb = kb
        self.domain: str = getattr(kb, "domain", "")

    def build(self) -> DictNameIndex:
        """Build the name index of ``self.kb`` (seconds for a real domain; :func:`nlu.name_index.stored_index`
        keeps it for the next start)."""
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
                sim = SIM_LABEL
            else:  # an alias; weaker when the same words are another entity's label
                owner = label_keys.get(key)
                sim = SIM_ALIAS if owner in (None, qid) else SIM_FOREIGN_ALIAS
            self._add(index, key, qid, sim)
            if len(key) > 1 and key[0] == "the":
                self._add(index, key[1:], qid, min(sim, SIM_VARIANT))
        self._genre_variants(index, labels)
        self._bare_variants(index, labels)
        self._main_titles(index, labels)
        self._spelling_variants(index, labels)
        self._particle_surnames(index, labels)
        self._series_subtitles(index, labels)
        short_forms(kb, self.domain, self._label_keys, index)  # "lock stock", "tom sawyer"
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
        common = common_words()
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
        return {w: tuple(sorted(q, key=qid_order)) for w, q in found.items() if len(q) <= MAX_TITLE_WORD_ITEMS}

    def _genre_variants(self, index: dict, labels: dict[str, str]) -> None:
        """Index "horror film" also as "horror", "horror films", "horror movies" (genre values).

        The label's own words plus a type noun ("comedy" + "films") score 0.96; forms derived from
        a longer label ("comedy film" -> "comedy", plural "comedy films") score 0.94.
        """
        genres = [q for q in labels if not self.kb.is_item(q) and "P136" in (self.kb.roles(q) or ())]
        heads: dict[tuple[str, ...], set[tuple[str, ...]]] = defaultdict(set)
        for qid in genres:  # a genre's short names, for the compound genres it heads ("sci-fi" in "military sci-fi")
            key = self._label_keys[qid]
            for alias in self.kb.aliases(qid):
                alias_key = name_key(alias)
                if alias_key and len("".join(alias_key)) < len("".join(key)) and _abbreviates("".join(alias_key), key):
                    heads[key].add(alias_key)
        for qid in genres:
            key = self._label_keys[qid]
            if not key:
                continue
            nouns = ("film", "films", "movie", "movies", "music", "songs", "books", "novels", "stories")
            for noun in nouns:
                if key[-1] != noun:
                    self._add(index, key + (sys.intern(noun),), qid, SIM_TYPED)
            base = key[:-1] if len(key) > 1 and key[-1] in _GENRE_SUFFIXES else key
            variants = {base, base[:-1] + (plural(base[-1]),), key[:-1] + (plural(key[-1]),)}
            if base != key:
                variants.update(base + (noun,) for noun in nouns)
            adjective = _GENRE_ADJECTIVES.get(base[0])
            if adjective is not None:  # "romance film" -> "romantic movies", "crime film" -> "criminal film"
                variants.update((adjective, *base[1:], noun) for noun in nouns)
            for alias in self.kb.aliases(qid):  # "romcoms": an alias's plural ("romcom")
                alias_key = name_key(alias)
                if alias_key and alias_key[-1].isalpha():
                    variants.add(alias_key[:-1] + (plural(alias_key[-1]),))
            variants.update((noun, "of", *base) for noun in _KIND_OF_NOUNS)  # "films of war", "music of the baroque"
            variants.update(_head_aliases(key, heads))
            for variant in variants:
                if variant != key:
                    self._add(index, tuple(sys.intern(t) for t in variant), qid, SIM_VARIANT)

    def _skeleton_index(self, labels: dict[str, str]) -> dict[tuple[str, ...], dict[str, float]]:
        """Item labels keyed by their content words only ("The Fast and the Furious" ->
        ("fast", "furious"); "The Lord of the Rings" -> ("lord", "rings")): typed titles often drop
        or add articles and particles ("fast and furious", "the lord of rings"). Similarity
        :data:`SIM_SKELETON`, so an exact label ranks first and a close pair is asked about."""
        out: dict[tuple[str, ...], dict[str, float]] = defaultdict(dict)
        items = getattr(self.kb, "items", None)
        is_item = items.__contains__ if isinstance(items, (set, frozenset, dict)) else self.kb.is_item
        drop = SKELETON_DROP
        for qid, key in self._label_keys.items():
            if len(key) < 2 or drop.isdisjoint(key) or not is_item(qid):
                continue
            skeleton = tuple(t for t in key if t not in drop)
            if len(skeleton) >= 2:
                out[skeleton][qid] = SIM_SKELETON
            label = labels[qid]
            if "(" in label or "[" in label:
                bare = name_key(BRACKETED.sub("", label).strip())
                bare_skeleton = skeleton_key(bare)
                if len(bare_skeleton) >= 2 and bare_skeleton != bare:
                    out[bare_skeleton].setdefault(qid, SIM_SKELETON)
        return dict(out)

    def _bare_variants(self, index: dict, labels: dict[str, str]) -> None:
        """Index labels without a bracketed suffix: "Havana (feat. Young Thug)" -> "Havana"; and
        item titles by their subtitle of two words or more: "Star Wars: Episode III – Revenge of
        the Sith" -> "Revenge of the Sith", "Mad Max: Fury Road" -> "Fury Road" (similarity 0.92),
        unless the main title is a person's name ("J. K. Rowling: Harry Potter")."""
        owners = {key: qid for qid, key in self._label_keys.items() if not self.kb.is_item(qid)}
        for qid, label in labels.items():
            bare = BRACKETED.sub("", label).strip()
            if bare and bare != label:
                key = name_key(bare)
                if key:
                    self._add(index, key, qid, SIM_VARIANT)
            parts = _SUBTITLE.split(bare or label)
            if len(parts) > 1 and self.kb.is_item(qid):  # "Star Wars: Episode III – Revenge of the Sith"
                owner = owners.get(name_key(parts[0]))
                if owner is not None and PERSON_ROLES.intersection(self.kb.roles(owner)):
                    continue  # "J. K. Rowling: Harry Potter" is about Harry Potter, not named so
                key = name_key(parts[-1])
                if len(key) >= 2 and sum(len(t) for t in key if t not in SKELETON_DROP) >= 6:
                    self._add(index, key, qid, SIM_SUBTITLE)

    def _spelling_variants(self, index: dict, labels: dict[str, str]) -> None:
        """Index the ways people type what a label spells otherwise: a sequel's Roman numeral as a digit
        and back ("Evil Dead II" as "evil dead 2", "Toy Story 3" as "toy story iii"), and a person without
        the middle initial of the label ("Octavia E. Butler" as "Octavia Butler", "Philip K. Dick" as
        "Philip Dick"). Similarity :data:`SIM_VARIANT`; a variant that is another entity's own name
        is not added."""
        for qid, label in labels.items():
            key = self._label_keys.get(qid) or name_key(label)
            if len(key) < 2:
                continue
            variant: tuple[str, ...] | None = None
            if self.kb.is_item(qid):
                last = key[-1]
                if last in ROMAN_NUMERALS:
                    variant = (*key[:-1], str(ROMAN_NUMERALS.index(last) + 2))
                elif last.isdigit() and 2 <= int(last) <= len(ROMAN_NUMERALS) + 1 and not key[-2].isdigit():
                    variant = (*key[:-1], ROMAN_NUMERALS[int(last) - 2])
            elif (
                len(key) == 3
                and len(key[1]) == 1
                and key[1].isalpha()
                and PERSON_ROLES.intersection(self.kb.roles(qid))
            ):
                variant = (key[0], key[2])
            if variant is not None and variant not in index:
                self._add(index, tuple(sys.intern(t) for t in variant), qid, SIM_VARIANT)

    def _particle_surnames(self, index: dict, labels: dict[str, str]) -> None:
        """Index a person by a surname that opens with a particle ("Ursula K. Le Guin" as "le guin", "Daphne du
        Maurier" as "du maurier", "Guillermo del Toro" as "del toro"): people name them so, and the namesake
        table holds single words only. Similarity :data:`SIM_NAMESAKE`, as a last name: the ranking takes a
        far better-known bearer (:meth:`nlu.linking.scoring.CandidateRanker.famous_namesake`) or asks."""
        for qid in labels:
            if self.kb.is_item(qid):
                continue
            roles = self.kb.roles(qid)
            if not PERSON_ROLES.intersection(roles or ()) or "P136" in roles:
                continue
            key = self._label_keys.get(qid, ())
            if len(key) >= 3 and key[-2] in SURNAME_PARTICLES and key[-1].isalpha() and len(key[-1]) >= 3:
                self._add(index, tuple(sys.intern(t) for t in key[-2:]), qid, SIM_NAMESAKE)

    def _series_subtitles(self, index: dict, labels: dict[str, str]) -> None:
        """Index the works of a series titled "<HERO> and the <SUBTITLE>" by their subtitle ("Harry Potter and
        the Prisoner of Azkaban" as "prisoner of azkaban" and "the prisoner of azkaban"; "Indiana Jones and the
        Last Crusade" as "last crusade"), when two or more items share the hero: people name them so. Similarity
        :data:`SIM_SUBTITLE`; a subtitle that already names something is left to it. The hero alone, when it
        names nothing else, reads every work of the series (:data:`SIM_MAIN_TITLE`: "harry potter" asks which)."""
        series: dict[tuple[str, ...], list[tuple[str, tuple[str, ...]]]] = defaultdict(list)
        for qid in labels:
            if not self.kb.is_item(qid):
                continue
            key = self._label_keys.get(qid, ())
            for k in range(1, len(key) - 3):
                if key[k] == "and" and key[k + 1] == "the":
                    series[key[:k]].append((qid, key[k + 2 :]))
                    break
        for hero, works in series.items():
            if len({q for q, _rest in works}) < 2:
                continue
            if hero not in index and sum(len(t) for t in hero) >= MIN_STRONG_CHARS:
                for qid, _rest in works:  # "harry potter": the series' works, to ask which (no item has that name)
                    self._add(index, tuple(sys.intern(t) for t in hero), qid, SIM_MAIN_TITLE)
            for qid, rest in works:
                if sum(len(t) for t in rest if t not in SKELETON_DROP) < MIN_SERIES_SUBTITLE_CHARS:
                    continue
                for variant in (rest, ("the", *rest)):
                    if variant not in index:
                        self._add(index, tuple(sys.intern(t) for t in variant), qid, SIM_SUBTITLE)

    def _main_titles(self, index: dict, labels: dict[str, str]) -> None:
        """Index an item also by its main title, the words before its subtitle ("Batman v Superman:
        Dawn of Justice" -> "Batman v Superman", "Mistborn: The Final Empire" -> "Mistborn"), when
        nothing but works carries those words as a name (then "Star Wars" stays the franchise; "Sunflower"
        reads both the song of that label and "Sunflower - Spider-Man: ...") and no other
        item has that main title ("Harry Potter: A Magical Year" and "Harry Potter: Page to Screen" are
        no "Harry Potter"), but for its numbered sequels and same-labelled copies ("Paul Blart" is "Paul
        Blart: Mall Cop", not "... Mall Cop 2"); a main title no other entity carries and a few works share
        is a series, read as each of them to ask which (the four "Mistborn: ..." books,
        :data:`MIN_SERIES_READINGS` to :data:`MAX_SERIES_READINGS`). Similarity :data:`SIM_MAIN_TITLE`: below
        any label, alias or derived variant."""
        mains: dict[tuple[str, ...], list[str]] = defaultdict(list)
        for qid, label in labels.items():
            if not self.kb.is_item(qid):
                continue
            parts = _SUBTITLE.split(BRACKETED.sub("", label).strip(), maxsplit=1)
            if len(parts) < 2 or not parts[1].strip():
                continue
            key = name_key(parts[0])
            if key and len(key) <= MAX_NGRAM and sum(len(t) for t in key if not t.isdigit()) >= MIN_STRONG_CHARS:
                mains[key].append(qid)
        for key, qids in mains.items():
            if key in index and not all(self.kb.is_item(q) for q in index[key]):
                continue  # "Star Wars" stays the franchise
            # (another work's label: both read so, "Sunflower" the song and "Sunflower - Spider-Man: ...")
            if len(qids) > 1:  # "Paul Blart: Mall Cop" (twice in the dump) and "... Mall Cop 2": the first film
                full = {q: self._label_keys.get(q) or name_key(labels[q]) for q in qids}
                firsts = {
                    q
                    for q, k in full.items()
                    if not (len(k) > 1 and (k[-1].isdigit() or k[-1] in ROMAN_NUMERALS) and k[:-1] in full.values())
                }
                qids = sorted(firsts) if len({full[q] for q in firsts}) == 1 else qids
            if len({self._label_keys.get(q) or name_key(labels[q]) for q in qids}) == 1 or (
                key not in index and MIN_SERIES_READINGS <= len(qids) <= MAX_SERIES_READINGS
            ):
                # (several works and nothing else of that name: a series, read as all of them to ask which, as a
                # hero's name is: "mistborn")
                for qid in qids:
                    self._add(index, tuple(sys.intern(t) for t in key), qid, SIM_MAIN_TITLE)

    def _build_fuzzy(self) -> None:
        """Names for the fuzzy fallback, sorted by length, plus a person first/last-name index."""
        partial: dict[str, set[str]] = defaultdict(set)
        pairs = [(joined, key) for key in self._index if len(joined := " ".join(key)) >= FUZZY_MIN_CHARS]
        pairs.sort(key=lambda p: len(p[0]))
        stop = stop_words()
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
                    or not PERSON_ROLES.intersection(self.kb.roles(qid))
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
        stop = stop_words()
        block: dict[str, list[int]] = defaultdict(list)
        for pos, joined in enumerate(names):
            for block_key in block_keys(joined, stop):
                block[block_key].append(pos)
        self._block = dict(block)
        self._partial = {k: tuple(v) for k, v in partial.items()}
