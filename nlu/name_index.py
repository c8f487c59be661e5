"""The entity linker's name index: what :class:`nlu.linker.EntityLinker` looks names up in.

The linker's *rules* (which names, variants and keys are indexed, with which similarity:
:mod:`nlu.linking.index_build`; how a message is matched and ranked: the other steps of
:mod:`nlu.linking`) live elsewhere; this module only *stores* what those rules build, behind one small
interface (:class:`NameIndex`) with two implementations:

- :class:`DictNameIndex`: plain dicts, what the linker's builder returns (tests, fake KBs, and the
  first start after the KB or the linker's code changed);
- :class:`MappedNameIndex`: the same tables in one memory-mapped file, ``names.pack`` in the
  domain's snapshot folder (the :mod:`recommender.kbpack` container: a JSON header and aligned
  arrays), written by ``corsbot kb build`` / ``kb index`` and on first use, so that a start maps it
  in milliseconds instead of rebuilding it (seconds, 30-100 MB of dicts per domain), and several
  processes share its pages.

A stored index is used only if it was built from the same snapshot (``kb.digest``) by the same
rules (:func:`builder_fingerprint`: a hash of the source of the builder's modules,
``nlu.linking.index_build.INDEX_RULES``, and of the word lists they use); otherwise it is rebuilt (and
rewritten when the folder is writable).

Tables (keys are folded token tuples joined by one space; tokens never contain a space):

============  ===============================  ======================================
table         key                              value
============  ===============================  ======================================
``exact``     a name key ("the", "matrix")     {QID: similarity}
``skeleton``  content words of a title         {QID: similarity}
``max_len``   a first token                    longest indexed key starting with it
``partial``   a person's first or last name    (QID, ...) persons carrying it
``title``     a distinctive title word         (QID, ...) items whose title has it
``block``     a fuzzy blocking key ("<ma")     positions in the fuzzy name list
``everyday``  an everyday English word         (set membership; ``nlu.linking.words.everyday_words``)
============  ===============================  ======================================

plus the fuzzy name list (joined keys sorted by length, with their lengths) and ``pop_scale``.

Mapped layout: each table is a strings column of keys, an open-addressing hash table over them
(``crc32`` of the key's UTF-8 bytes, linear probing, size a power of two at least twice the key
count; -1 = empty slot) and CSR value arrays; QIDs are positions in a ``qids`` strings column.

Example:
    >>> idx = DictNameIndex(exact={("matrix",): {"Q83495": 1.0}}, max_len={"matrix": 1})
    >>> dict(idx.exact(("matrix",))), idx.max_len("matrix"), idx.exact(("neo",))
    ({'Q83495': 1.0}, 1, None)
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import zlib
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from recommender.errors import KnowledgeBaseError
from recommender.kbpack import Pack, StringColumn, pack_columns

logger = logging.getLogger(__name__)

NAMES_FILE = "names.pack"
"""The stored name index inside a domain's snapshot folder."""
NAMES_CONTENT = "corsbot-name-index"
NAMES_VERSION = 2
"""Bumped when the stored layout changes (the rules' changes are caught by the fingerprint)."""


class NameIndex(Protocol):
    """What the entity linker looks up (see the module docstring for the tables)."""

    pop_scale: float
    """``log1p`` of the highest popularity among indexed entities (the linker's popularity scale)."""

    def exact(self, key: tuple[str, ...]) -> dict[str, float] | None:
        """QID -> similarity of the entities indexed under a name key, or None."""
        ...

    def max_len(self, token: str) -> int:
        """Length (tokens) of the longest key starting with ``token``; 0 if none."""
        ...

    def skeleton(self, key: tuple[str, ...]) -> dict[str, float] | None:
        """QID -> similarity of the titles whose content words are ``key``, or None."""
        ...

    def has_skeletons(self) -> bool:
        """Whether the skeleton table has any key."""
        ...

    def namesakes(self, part: str) -> tuple[str, ...] | None:
        """Persons whose first or last name is ``part``, or None."""
        ...

    def title_items(self, word: str) -> tuple[str, ...] | None:
        """Items whose (multi-word) title contains the distinctive ``word``, or None."""
        ...

    def fuzzy_window(self, lo: int, hi: int, block_keys: Iterable[str]) -> list[int]:
        """Sorted positions of the fuzzy names of ``lo`` to ``hi`` characters sharing a blocking key."""
        ...

    def fuzzy_name(self, pos: int) -> str:
        """The joined name key at a fuzzy position."""
        ...

    def stats(self) -> tuple[int, int, int]:
        """(exact keys, indexed entities, fuzzy names), for logging."""
        ...

    def everyday(self) -> Container[str] | None:
        """The everyday English words stored with the index (``nlu.linking.words.everyday_words``), or None."""
        ...


class DictNameIndex:
    """A :class:`NameIndex` over plain dicts (what the builder returns)."""

    def __init__(
        self,
        *,
        exact: Mapping[tuple[str, ...], dict[str, float]] | None = None,
        skeleton: Mapping[tuple[str, ...], dict[str, float]] | None = None,
        max_len: Mapping[str, int] | None = None,
        partial: Mapping[str, tuple[str, ...]] | None = None,
        title: Mapping[str, tuple[str, ...]] | None = None,
        fuzzy_names: Sequence[str] = (),
        block: Mapping[str, Sequence[int]] | None = None,
        pop_scale: float = 1.0,
        n_entities: int = 0,
        everyday: frozenset[str] | None = None,
    ) -> None:
        self._exact = dict(exact or {})
        self._skeleton = dict(skeleton or {})
        self._max_len = dict(max_len or {})
        self._partial = dict(partial or {})
        self._title = dict(title or {})
        self._fuzzy_names = list(fuzzy_names)
        self._fuzzy_lengths = [len(n) for n in self._fuzzy_names]
        self._block = {k: list(v) for k, v in (block or {}).items()}
        self.pop_scale = float(pop_scale)
        self._n_entities = n_entities
        self._everyday = everyday

    def exact(self, key: tuple[str, ...]) -> dict[str, float] | None:
        return self._exact.get(key)

    def max_len(self, token: str) -> int:
        return self._max_len.get(token, 0)

    def skeleton(self, key: tuple[str, ...]) -> dict[str, float] | None:
        return self._skeleton.get(key)

    def has_skeletons(self) -> bool:
        return bool(self._skeleton)

    def namesakes(self, part: str) -> tuple[str, ...] | None:
        return self._partial.get(part)

    def title_items(self, word: str) -> tuple[str, ...] | None:
        return self._title.get(word)

    def fuzzy_window(self, lo: int, hi: int, block_keys: Iterable[str]) -> list[int]:
        first, last = bisect_left(self._fuzzy_lengths, lo), bisect_right(self._fuzzy_lengths, hi)
        window: set[int] = set()
        for key in block_keys:
            block = self._block.get(key)
            if block:
                window.update(block[bisect_left(block, first) : bisect_left(block, last)])
        return sorted(window)

    def fuzzy_name(self, pos: int) -> str:
        return self._fuzzy_names[pos]

    def stats(self) -> tuple[int, int, int]:
        return len(self._exact), self._n_entities, len(self._fuzzy_names)

    def everyday(self) -> Container[str] | None:
        return self._everyday

    # -- storing -------------------------------------------------------------------------------

    def write(self, path: Path, *, meta: Mapping[str, Any]) -> Path:
        """Write the index as a ``names.pack`` file (atomic: temporary file + rename).

        Args:
            path: the file to write.
            meta: identification kept in the header (``kb_digest``, ``builder``, ``domain``).

        Raises:
            KnowledgeBaseError: if the file cannot be written.
        """
        qids: dict[str, int] = {}

        def qid_id(q: str) -> int:
            return qids.setdefault(q, len(qids))

        doc: dict[str, Any] = {"content": NAMES_CONTENT, "names_version": NAMES_VERSION, **meta}
        doc["pop_scale"] = self.pop_scale
        doc["n_entities"] = self._n_entities
        for name, table in (("exact", self._exact), ("skeleton", self._skeleton)):
            keys = [" ".join(k) for k in table]
            doc.update(_hashed(name, keys))
            ptr, ent, sim = [0], [], []
            for entry in table.values():
                for q, s in entry.items():
                    ent.append(qid_id(q))
                    sim.append(float(s))
                ptr.append(len(ent))
            doc[name + ".ptr"] = np.asarray(ptr, dtype=np.int64)
            doc[name + ".ent"] = np.asarray(ent, dtype=np.int32)
            doc[name + ".sim"] = np.asarray(sim, dtype=np.float64)
        doc.update(_hashed("max_len", list(self._max_len)))
        doc["max_len.value"] = np.asarray(list(self._max_len.values()), dtype=np.int32)
        for name, lists in (("partial", self._partial), ("title", self._title)):
            doc.update(_hashed(name, list(lists)))
            doc[name + ".ptr"], doc[name + ".ent"] = _csr([[qid_id(q) for q in v] for v in lists.values()])
        doc.update(_hashed("everyday", sorted(self._everyday or ())))
        doc["has_everyday"] = self._everyday is not None
        doc.update(_hashed("block", list(self._block)))
        doc["block.ptr"], doc["block.pos"] = _csr(list(self._block.values()))
        doc["fuzzy"] = self._fuzzy_names
        doc["fuzzy.len"] = np.asarray(self._fuzzy_lengths, dtype=np.int32)
        doc["qids"] = list(qids)
        data = pack_columns(doc)
        path = Path(path)
        try:
            fd, tmp = tempfile.mkstemp(prefix=".names.pack.", dir=path.parent)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                os.chmod(tmp, 0o644)
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError as exc:
            raise KnowledgeBaseError(f"could not write the name index {path}: {exc}") from exc
        return path


def _csr(lists: Sequence[Sequence[int]]) -> tuple[NDArray[np.int64], NDArray[np.int32]]:
    ptr = [0]
    flat: list[int] = []
    for values in lists:
        flat.extend(values)
        ptr.append(len(flat))
    return np.asarray(ptr, dtype=np.int64), np.asarray(flat, dtype=np.int32)


def _crc(key: str) -> int:
    return zlib.crc32(key.encode("utf-8"))


def _hashed(name: str, keys: list[str]) -> dict[str, Any]:
    """The keys column and its open-addressing hash table (module docstring)."""
    size = 8
    while size < 2 * len(keys):
        size *= 2
    mask = size - 1
    slots = [-1] * size
    for i, key in enumerate(keys):
        s = _crc(key) & mask
        while slots[s] >= 0:
            s = (s + 1) & mask
        slots[s] = i
    return {name + ".keys": keys, name + ".slots": np.asarray(slots, dtype=np.int32)}


class _Table:
    """One hashed table of a mapped index: key -> row number."""

    __slots__ = ("keys", "slots", "mask")

    def __init__(self, pack: Pack, name: str) -> None:
        self.keys: StringColumn = pack.strings(name + ".keys")
        self.slots = pack.view(name + ".slots")
        self.mask = len(self.slots) - 1

    def row(self, key: str) -> int | None:
        if not len(self.keys):
            return None
        slots, get = self.slots, self.keys.get
        s = _crc(key) & self.mask
        while True:
            i = slots[s]
            if i < 0:
                return None
            if get(i) == key:
                return int(i)
            s = (s + 1) & self.mask


class MappedNameIndex:
    """A :class:`NameIndex` over a memory-mapped ``names.pack`` (see the module docstring)."""

    def __init__(self, pack: Pack) -> None:
        if pack.meta.get("content") != NAMES_CONTENT or pack.meta.get("names_version") != NAMES_VERSION:
            raise KnowledgeBaseError(f"{pack.path} is not a name index of version {NAMES_VERSION}")
        self.meta = pack.meta
        self.pop_scale = float(pack.meta["pop_scale"])
        self._qids = pack.strings("qids")
        self._tables = {
            name: _Table(pack, name)
            for name in ("exact", "skeleton", "max_len", "partial", "title", "block", "everyday")
        }
        self._ptr = {name: pack.view(name + ".ptr") for name in ("exact", "skeleton", "partial", "title", "block")}
        self._ent = {name: pack.view(name + ".ent") for name in ("exact", "skeleton", "partial", "title")}
        self._sim = {name: pack.array(name + ".sim") for name in ("exact", "skeleton")}
        self._max_len_value = pack.view("max_len.value")
        self._block_pos = pack.array("block.pos")
        self._fuzzy = pack.strings("fuzzy")
        self._fuzzy_len = pack.array("fuzzy.len")
        self._n_entities = int(pack.meta.get("n_entities", 0))

    @classmethod
    def open(cls, path: Path) -> MappedNameIndex:
        """Map a ``names.pack``.

        Raises:
            KnowledgeBaseError: if it is missing, unreadable or not a name index of this version.
        """
        return cls(Pack.open(path, content=NAMES_CONTENT))

    def _scored(self, name: str, key: tuple[str, ...]) -> dict[str, float] | None:
        row = self._tables[name].row(" ".join(key))
        if row is None:
            return None
        ptr, ent, sim, get = self._ptr[name], self._ent[name], self._sim[name], self._qids.get
        return {get(ent[k]) or "": float(sim[k]) for k in range(ptr[row], ptr[row + 1])}

    def _listed(self, name: str, key: str) -> tuple[str, ...] | None:
        row = self._tables[name].row(key)
        if row is None:
            return None
        ptr, ent, get = self._ptr[name], self._ent[name], self._qids.get
        return tuple(get(ent[k]) or "" for k in range(ptr[row], ptr[row + 1]))

    def exact(self, key: tuple[str, ...]) -> dict[str, float] | None:
        return self._scored("exact", key)

    def max_len(self, token: str) -> int:
        row = self._tables["max_len"].row(token)
        return 0 if row is None else int(self._max_len_value[row])

    def skeleton(self, key: tuple[str, ...]) -> dict[str, float] | None:
        return self._scored("skeleton", key)

    def has_skeletons(self) -> bool:
        return len(self._tables["skeleton"].keys) > 0

    def namesakes(self, part: str) -> tuple[str, ...] | None:
        return self._listed("partial", part)

    def title_items(self, word: str) -> tuple[str, ...] | None:
        return self._listed("title", word)

    def fuzzy_window(self, lo: int, hi: int, block_keys: Iterable[str]) -> list[int]:
        lengths = self._fuzzy_len
        first, last = int(np.searchsorted(lengths, lo, "left")), int(np.searchsorted(lengths, hi, "right"))
        parts: list[NDArray[Any]] = []
        table, ptr = self._tables["block"], self._ptr["block"]
        for key in block_keys:
            row = table.row(key)
            if row is None:
                continue
            block = self._block_pos[ptr[row] : ptr[row + 1]]
            parts.append(block[np.searchsorted(block, first) : np.searchsorted(block, last)])
        if not parts:
            return []
        return [int(p) for p in np.unique(np.concatenate(parts))]

    def fuzzy_name(self, pos: int) -> str:
        return self._fuzzy.get(pos) or ""

    def stats(self) -> tuple[int, int, int]:
        return len(self._tables["exact"].keys), self._n_entities, len(self._fuzzy)

    def everyday(self) -> Container[str] | None:
        return _Words(self._tables["everyday"]) if self.meta.get("has_everyday") else None


class _Words(Container[str]):
    """A stored word set (hash table lookups)."""

    __slots__ = ("_table",)

    def __init__(self, table: _Table) -> None:
        self._table = table

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self._table.row(word) is not None


def builder_fingerprint(*sources: str | Path, words: Iterable[Iterable[str]] = ()) -> str:
    """SHA-256 (hex, 16 chars) of the index builder's source files and word lists: a stored index
    built by other rules is not reused."""
    h = hashlib.sha256(f"names-v{NAMES_VERSION}".encode())
    for src in sources:
        h.update(Path(src).read_bytes())
    for group in words:
        h.update("\x00".join(sorted(group)).encode("utf-8"))
        h.update(b"\x01")
    return h.hexdigest()[:16]


def stored_index(kb: Any, fingerprint: str, build: Callable[[], DictNameIndex]) -> NameIndex:
    """The name index of ``kb``: mapped from its snapshot folder when one built from the same
    snapshot by the same rules is there, else built (and stored there for the next start when
    the folder is writable; a read-only folder just means building at each start).

    Args:
        kb: the knowledge base (a mapped ``recommender.kb.KnowledgeBase`` has ``pack.path`` and
            ``digest``; any other object always gets a freshly built index).
        fingerprint: :func:`builder_fingerprint` of the current rules.
        build: builds the index in memory.
    """
    pack = getattr(kb, "pack", None)
    folder = getattr(pack, "path", None)
    digest = getattr(kb, "digest", None)
    if folder is None or not digest:
        return build()
    path = Path(folder).parent / NAMES_FILE
    meta = {"kb_digest": digest, "builder": fingerprint, "domain": getattr(kb, "domain", "")}
    if path.exists():
        try:
            mapped = MappedNameIndex.open(path)
            if all(mapped.meta.get(k) == v for k, v in meta.items()):
                return mapped
            logger.info("name index %s is stale (other snapshot or linker rules): rebuilding it", path)
        except KnowledgeBaseError as exc:
            logger.info("name index %s unusable (%s): rebuilding it", path, exc)
    built = build()
    try:
        built.write(path, meta=meta)
        return MappedNameIndex.open(path)  # the mapped copy: shared pages instead of private dicts
    except KnowledgeBaseError as exc:
        logger.warning("could not store the name index (%s); it is rebuilt at each start", exc)
        return built


__all__ = [
    "NAMES_FILE",
    "DictNameIndex",
    "MappedNameIndex",
    "NameIndex",
    "builder_fingerprint",
    "stored_index",
]
