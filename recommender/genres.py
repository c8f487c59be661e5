"""The items of a genre asked for: tagged with it, or without a genre of their own and made by someone who is.

The knowledge bases tag genres unevenly: films carry their own, but most books and songs carry none,
and their author or performer carries it instead (Stephen King is "horror literature", Daft Punk "house
music"). A list asked to be of a genre ("recommend me a horror book", "some rock") that read only the
items' own tags held the one or two tagged items, whatever the person likes (fresh6 F5-9, fault 11). An
item with no genre of its own takes its creators' (``constraints.creators``: the author, the performer,
a song's album's performer); an item with genres of its own keeps them (a comedy director's drama is a
drama).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterator, Mapping
from typing import Any

from recommender.constraints import CREATOR_PIDS
from recommender.values import QID, KnowledgeBaseLike

GENRE_PID = "P136"


def is_genre(kb: KnowledgeBaseLike, qid: QID) -> bool:
    """True if ``qid`` is a genre of the KB (its kind, else the values some item has as P136)."""
    kind = getattr(kb, "kind", None)
    if callable(kind):
        return bool(kind(qid) == "genre")
    return not kb.is_item(qid) and any(pid == GENRE_PID for pid, _ in kb.value_items(qid))


def items_of(kb: KnowledgeBaseLike, value: QID) -> Iterator[QID]:
    """The items linked to ``value`` by any property; for a genre also the items without a genre of
    their own whose creator has it (module docstring). Repeats are possible."""
    pids = CREATOR_PIDS.get(getattr(kb, "domain", ""), ())
    genre = is_genre(kb, value)
    for _, subject in kb.value_items(value):
        if kb.is_item(subject):
            yield subject
        elif genre and pids:  # a person or band of that genre: their works that have no genre of their own
            for pid, work in kb.value_items(subject):
                if pid in pids and kb.is_item(work) and _untagged(kb, work):
                    yield work
            if getattr(kb, "domain", "") == "music":  # songs credited to an album of theirs, not to them
                yield from _album_songs(kb, subject)


def _untagged(kb: KnowledgeBaseLike, item: QID) -> bool:
    return not any(pid == GENRE_PID for pid, _ in kb.item_values(item))


def _album_songs(kb: KnowledgeBaseLike, performer: QID) -> Iterator[QID]:
    for pid, album in kb.value_items(performer):
        if pid in CREATOR_PIDS["music"] and kb.is_item(album):
            for part_pid, song in kb.value_items(album):
                if part_pid == "P361" and kb.is_item(song) and _untagged(kb, song) and _untagged(kb, album):
                    yield song


_KIND_NOUNS = ("film", "films", "movie", "movies", "music", "literature", "fiction", "novel", "novels", "book", "books")
"""Nouns of the domain a genre's name may end with ("horror film", "pop music", "romance novel"): people say the
genre without them ("some horror", "recommend me some pop")."""
_VOCABULARIES: weakref.WeakKeyDictionary[object, dict[str, QID]] = weakref.WeakKeyDictionary()


def genre_names(kb: Any) -> Mapping[str, QID]:
    """The words naming the KB's genres (lowercased labels and aliases, also without a domain noun at their end:
    "horror film" is also "horror"), each to the genre with the most items of the ones it names; built once per
    KB (any object with ``entities``, ``label``, ``aliases`` and ``value_items``: the dialog's view of a KB). A
    request's genre words ("some pop", "any good horror?") are read against it."""
    try:
        return _VOCABULARIES[kb]
    except (KeyError, TypeError):
        pass
    sizes: dict[str, tuple[int, QID]] = {}
    entities = getattr(kb, "entities", None)
    for qid in entities() if callable(entities) else ():
        if not is_genre(kb, qid):
            continue
        size = len(kb.value_items(qid))
        for name in _names_of(kb, qid):
            if size > sizes.get(name, (-1, ""))[0]:
                sizes[name] = (size, qid)
    vocabulary = {name: qid for name, (_, qid) in sizes.items()}
    try:
        _VOCABULARIES[kb] = vocabulary
    except TypeError:  # a KB that takes no weak reference (a test's fake): built on each call
        pass
    return vocabulary


def _names_of(kb: Any, qid: QID) -> Iterator[str]:
    labels = [kb.label(qid), *getattr(kb, "aliases", lambda _: ())(qid)]
    for label in labels:
        name = " ".join(re.findall(r"[\w'&-]+", label.lower()))
        if not name or name.startswith("q") and name[1:].isdigit():
            continue
        yield name
        words = name.split()
        if len(words) > 1 and words[-1] in _KIND_NOUNS:
            yield " ".join(words[:-1])


__all__ = ["GENRE_PID", "genre_names", "is_genre", "items_of"]
