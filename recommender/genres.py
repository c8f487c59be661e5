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

from collections.abc import Iterator

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


__all__ = ["GENRE_PID", "is_genre", "items_of"]
