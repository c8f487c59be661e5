"""The load-ready knowledge-base file ``kb.pack``: the snapshot document as memory-mapped arrays.

``kb build`` writes, beside the gzip JSON document (``kb.json.gz``, the diffable source of truth,
see :mod:`recommender.kb`), the *same document* packed so that start-up maps it instead of parsing
it: opening a pack reads a small JSON header and maps the rest of the file; every lookup then
reads the pages it needs (a few microseconds), and several processes that open the same file share
its pages in the operating system's page cache (the Telegram worker processes do).

The pack is derived from the document only (:func:`pack_document`), generically by the shape of
each top-level key, so a key added to ``SnapshotData.to_json`` is packed without a change here:

============================================  ==========================================================
document value                                packed as (column kind)
============================================  ==========================================================
list of ints                                  ``ints``: one int32/int64 array
list of strings (or null)                     ``strings``: UTF-8 blob + uint32/int64 offsets (+ null flags)
empty list                                    ``empty`` (reads as an empty array or column)
list of floats (other documents only)         ``floats``: one float64 array
dict keyed by entity index (``"12"``)         ``by_entity``: one value per entity (dense, missing =
                                              absent): strings as they are, anything else as
                                              compact JSON text (parsed when read)
anything else (scalars, short lists, dicts)   kept in the header's ``meta``
============================================  ==========================================================

Derived sections, computed once at pack time (names start with ``~``):

- ``~qid.num`` (int64, sorted) / ``~qid.pos`` (int32): numeric ids of the ``Q<digits>`` entities and
  their positions, for the QID -> entity-index lookup (binary search); other ids are in
  ``meta["~odd_ids"]``;
- ``~out.ptr`` (int64, n + 1): CSR row pointers of the ``edge_*`` arrays by item (the document
  keeps edges sorted by item, property, value);
- ``~in.ptr`` / ``~in.pid`` / ``~in.item``: the same edges by value (sorted by value, property, item);
- ``~degree`` (int32): distinct neighbours of each entity in the undirected item-value graph;
- ``~item_order`` (int32): item positions in QID *string* order (the recommender's tie-break order).

File layout (little-endian)::

    0   16 bytes   magic  b"CORSBOT-KBPACK\\x00\\x00"
    16  u32        pack version (PACK_VERSION)
    20  u32        reserved (0)
    24  u64        header length H
    32  H bytes    header: JSON {"format": "corsbot-kb-pack", "version", "digest", "meta",
                   "columns": {name: kind}, "sections": {name: [offset, dtype, count]}}
    ...            sections, each at an offset that is a multiple of 64

``digest`` is the SHA-256 of the canonical JSON document (what ``kb.json.gz`` holds, without
``built_at``), so caches derived from a snapshot (the entity linker's name index) know when it changed.

Example:
    >>> pack = Pack.from_document({"format": "corsbot-kb", "entities": ["Q1", "Q2"], "n_items": 1,
    ...     "labels": ["a", None], "edge_item": [0], "edge_pid": [0], "edge_value": [1]})
    >>> pack.strings("labels").get(0), pack.strings("labels").get(1), pack.index_of("Q2")
    ('a', None, 1)
"""

from __future__ import annotations

import hashlib
import io
import json
import mmap
import os
import struct
import tempfile
from bisect import bisect_left
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from recommender.errors import KnowledgeBaseError

PACK_FILE = "kb.pack"
"""Name of the load-ready file inside a domain's snapshot folder."""
PACK_FORMAT = "corsbot-kb-pack"
PACK_VERSION = 1
"""Bumped whenever the layout or a derived section changes; an older pack is refused (rebuild)."""
MAGIC = b"CORSBOT-KBPACK\x00\x00"
_PREFIX = struct.Struct("<16sIIQ")
_ALIGN = 64
REBUILD_HINT = "rebuild it with `corsbot kb build` (or `corsbot kb pack` from an existing kb.json.gz)"


class StringColumn:
    """A read-only column of optional strings (``get(i) -> str | None``), backed by a blob."""

    __slots__ = ("_blob", "_off", "_null", "_n")

    def __init__(self, blob: memoryview, offsets: memoryview, null: memoryview | None) -> None:
        self._blob, self._off, self._null = blob, offsets, null
        self._n = len(offsets) - 1

    def __len__(self) -> int:
        return self._n

    def get(self, i: int) -> str | None:
        """The string at ``i`` (None when null or out of range)."""
        if not 0 <= i < self._n or (self._null is not None and self._null[i]):
            return None
        return str(self._blob[self._off[i] : self._off[i + 1]], "utf-8")

    def __iter__(self) -> Iterator[str | None]:
        for i in range(self._n):
            yield self.get(i)


class EntityColumn:
    """Values keyed by entity index (``get(i) -> value | None``); JSON text is parsed when read."""

    __slots__ = ("_strings", "_json")

    def __init__(self, strings: StringColumn, *, is_json: bool) -> None:
        self._strings, self._json = strings, is_json

    def get(self, i: int) -> Any:
        """The value of entity ``i``, or None if it has none."""
        raw = self._strings.get(i)
        if raw is None or not self._json:
            return raw
        return json.loads(raw)

    def present(self) -> NDArray[np.bool_]:
        """(n,) True where an entity has a value."""
        null = self._strings._null
        n = len(self._strings)
        return np.ones(n, dtype=bool) if null is None else np.frombuffer(null, dtype=np.uint8, count=n) == 0

    def items(self) -> Iterator[tuple[int, Any]]:
        """``(entity index, value)`` of every entity with a value."""
        for i in np.flatnonzero(self.present()):
            yield int(i), self.get(int(i))


class Pack:
    """An opened pack: header metadata plus zero-copy views of its sections.

    Build with :meth:`open` (a file, memory-mapped) or :meth:`from_document` (in memory). The
    views stay valid while the pack object lives.

    Attributes:
        meta: the document's small values (``domain``, ``n_items``, ``pids``, ...).
        digest: SHA-256 of the canonical document (hex).
        path: the file, or None for an in-memory pack.
    """

    def __init__(self, buffer: Any, header: Mapping[str, Any], *, path: Path | None = None) -> None:
        self._buffer = buffer
        self._view = memoryview(buffer)
        self.meta: dict[str, Any] = dict(header.get("meta") or {})
        self.digest: str = str(header.get("digest", ""))
        self.path = path
        self._columns: dict[str, str] = dict(header.get("columns") or {})
        self._sections: dict[str, tuple[int, str, int]] = {
            k: (int(v[0]), str(v[1]), int(v[2])) for k, v in (header.get("sections") or {}).items()
        }
        size = len(self._view)
        for name, (offset, dtype, count) in self._sections.items():
            if offset < 0 or offset + np.dtype(dtype).itemsize * count > size:
                raise KnowledgeBaseError(
                    f"knowledge-base pack {path or '<memory>'} is truncated (section {name}); {REBUILD_HINT}"
                )
        qnum = self._sections.get("~qid.num")
        self._qnum = self._scalar_view("~qid.num") if qnum else memoryview(b"").cast("q")
        self._qpos = self._scalar_view("~qid.pos") if qnum else memoryview(b"").cast("i")
        self._odd: dict[str, int] = dict(self.meta.get("~odd_ids") or {})

    # -- opening -----------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path, *, content: str | None = None) -> Pack:
        """Map a pack file (by default a knowledge base's ``kb.pack``).

        Args:
            path: the file.
            content: for another document packed in the same container (:func:`pack_columns`), the
                value its ``content`` key must have; None = a knowledge-base snapshot.

        Raises:
            KnowledgeBaseError: missing, not a pack, another pack version, or truncated (the message
                says how to rebuild it).
        """
        path = Path(path)
        try:
            with open(path, "rb") as fh:
                prefix = fh.read(_PREFIX.size)
                magic, version, _reserved, header_len = _unpack_prefix(prefix, path)
                if version != PACK_VERSION:
                    raise KnowledgeBaseError(
                        f"knowledge-base pack {path} has version {version}, this corsbot reads version "
                        f"{PACK_VERSION}; {REBUILD_HINT}"
                    )
                header = json.loads(fh.read(header_len))
                size = os.fstat(fh.fileno()).st_size
                buffer: Any = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
        except FileNotFoundError as exc:
            raise KnowledgeBaseError(f"no knowledge-base pack at {path}; {REBUILD_HINT}") from exc
        except (OSError, ValueError) as exc:
            raise KnowledgeBaseError(
                f"knowledge-base pack {path} is unreadable ({exc.__class__.__name__}: {exc}); {REBUILD_HINT}"
            ) from exc
        meta = header.get("meta") if isinstance(header, dict) else None
        wanted = ("content", content) if content is not None else ("format", "corsbot-kb")
        if (
            not isinstance(header, dict)
            or header.get("format") != PACK_FORMAT
            or not isinstance(meta, dict)
            or meta.get(wanted[0]) != wanted[1]
        ):
            what = content or "knowledge-base pack"
            raise KnowledgeBaseError(f"{path} is not a corsbot {what}; {REBUILD_HINT}")
        return cls(buffer, header, path=path)

    @classmethod
    def from_document(cls, doc: Mapping[str, Any]) -> Pack:
        """Pack a snapshot document in memory (same layout as the file)."""
        data = pack_document(doc)
        _magic, _version, _reserved, header_len = _unpack_prefix(data[: _PREFIX.size], None)
        header = json.loads(data[_PREFIX.size : _PREFIX.size + header_len])
        return cls(data, header)

    # -- sections ----------------------------------------------------------------------------

    def has(self, name: str) -> bool:
        """Whether the document had a top-level key ``name`` packed as a column."""
        return name in self._columns or name in self.meta

    def kind(self, name: str) -> str | None:
        """Column kind of ``name`` (``ints``, ``strings``, ``by_entity``, ``by_entity_json``) or None."""
        return self._columns.get(name)

    def array(self, name: str) -> NDArray[Any]:
        """A section (or an ``ints`` column) as a read-only numpy array (zero-copy).

        Raises:
            KnowledgeBaseError: if the pack has no such section.
        """
        if self._columns.get(name) == "empty":
            return np.zeros(0, dtype=np.int32)
        try:
            offset, dtype, count = self._sections[name]
        except KeyError as exc:
            raise KnowledgeBaseError(
                f"knowledge-base pack {self.path or '<memory>'} has no section {name!r}; {REBUILD_HINT}"
            ) from exc
        return np.frombuffer(self._buffer, dtype=np.dtype(dtype), count=count, offset=offset)

    def view(self, name: str) -> memoryview:
        """A section (or an ``ints`` column) as a typed memoryview: indexing one element from Python
        is several times faster than on a numpy array.

        Raises:
            KnowledgeBaseError: if the pack has no such section.
        """
        if self._columns.get(name) == "empty":
            return memoryview(b"").cast("i")
        if name not in self._sections:
            raise KnowledgeBaseError(
                f"knowledge-base pack {self.path or '<memory>'} has no section {name!r}; {REBUILD_HINT}"
            )
        return self._scalar_view(name)

    def _scalar_view(self, name: str) -> memoryview:
        offset, dtype, count = self._sections[name]
        dt = np.dtype(dtype)
        code = {"<i4": "i", "<i8": "q", "|u1": "B", "<u4": "I", "<u8": "Q"}.get(dt.str)
        if code is None:
            raise KnowledgeBaseError(f"section {name!r} has dtype {dtype}, not a scalar view type")
        return self._view[offset : offset + dt.itemsize * count].cast(code)  # type: ignore[call-overload]

    def strings(self, name: str) -> StringColumn:
        """A ``strings`` column (or the string storage of a ``by_entity`` column).

        Raises:
            KnowledgeBaseError: if the pack has no such column.
        """
        if self._columns.get(name) == "empty":
            return StringColumn(memoryview(b""), memoryview(bytes(8)).cast("q"), None)
        if name + ".blob" not in self._sections:
            raise KnowledgeBaseError(
                f"knowledge-base pack {self.path or '<memory>'} has no column {name!r}; {REBUILD_HINT}"
            )
        null = self._scalar_view(name + ".null") if name + ".null" in self._sections else None
        offset, _dtype, count = self._sections[name + ".blob"]
        return StringColumn(self._view[offset : offset + count], self._scalar_view(name + ".off"), null)

    def column(self, name: str) -> Any:
        """A packed top-level key of the document, by its kind: ``ints`` -> numpy array,
        ``strings`` -> :class:`StringColumn`, ``by_entity*`` -> :class:`EntityColumn`, meta -> the value.

        Raises:
            KnowledgeBaseError: if the document had no such key.
        """
        kind = self._columns.get(name)
        if kind in ("ints", "floats", "empty"):
            return self.array(name)
        if kind == "strings":
            return self.strings(name)
        if kind in ("by_entity", "by_entity_json"):
            return EntityColumn(self.strings(name), is_json=kind == "by_entity_json")
        if name in self.meta:
            return self.meta[name]
        raise KnowledgeBaseError(f"knowledge-base pack {self.path or '<memory>'} has no field {name!r}; {REBUILD_HINT}")

    def entity_column(self, name: str) -> EntityColumn:
        """A ``by_entity`` column; an absent or empty one (``{}`` in the document) reads as all-None."""
        if self._columns.get(name) in ("by_entity", "by_entity_json"):
            return EntityColumn(self.strings(name), is_json=self._columns[name] == "by_entity_json")
        value = self.meta.get(name, {})
        if value not in ({}, None):
            raise KnowledgeBaseError(f"knowledge-base field {name!r} is not keyed by entity; {REBUILD_HINT}")
        n = len(self.strings("entities"))
        empty = StringColumn(memoryview(b""), memoryview(bytes(8 * (n + 1))).cast("q"), memoryview(b"\x01" * n))
        return EntityColumn(empty, is_json=False)

    def index_of(self, qid: str) -> int | None:
        """Entity index of ``qid`` (None if unknown); O(log n), no Python dict of every QID."""
        if qid[:1] == "Q":
            digits = qid[1:]
            if digits.isascii() and digits.isdigit() and (digits[0] != "0" or digits == "0"):
                num = int(digits)
                k = bisect_left(self._qnum, num)
                if k < len(self._qnum) and self._qnum[k] == num:
                    return int(self._qpos[k])
                return None
        return self._odd.get(qid)


def _unpack_prefix(prefix: bytes, path: Path | None) -> tuple[bytes, int, int, int]:
    if len(prefix) < _PREFIX.size or not prefix.startswith(MAGIC):
        raise KnowledgeBaseError(f"{path or '<memory>'} is not a corsbot knowledge-base pack; {REBUILD_HINT}")
    magic, version, reserved, header_len = _PREFIX.unpack(prefix[: _PREFIX.size])
    return magic, version, reserved, header_len


# --------------------------------------------------------------------------------------------
# writing


def document_digest(doc: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of the canonical document without ``built_at`` (same facts = same digest)."""
    canonical = {k: v for k, v in doc.items() if k != "built_at"}
    raw = json.dumps(canonical, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return hashlib.sha256(raw).hexdigest()


def _is_int_list(value: Any) -> bool:
    return isinstance(value, list) and all(type(v) is int for v in value)


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(v is None or isinstance(v, str) for v in value)


def _is_by_entity(value: Any) -> bool:
    return isinstance(value, dict) and bool(value) and all(isinstance(k, str) and k.isdigit() for k in value)


def _int_array(values: Any) -> NDArray[Any]:
    arr = np.asarray(values, dtype=np.int64)
    if arr.size == 0 or (arr.min() >= np.iinfo(np.int32).min and arr.max() <= np.iinfo(np.int32).max):
        return arr.astype(np.int32)
    return arr


class _Writer:
    """Accumulates aligned sections and the header."""

    def __init__(self) -> None:
        self.sections: list[tuple[str, bytes, str, int]] = []
        self.columns: dict[str, str] = {}
        self.meta: dict[str, Any] = {}

    def add(self, name: str, arr: NDArray[Any]) -> None:
        arr = np.ascontiguousarray(arr)
        dt = arr.dtype.newbyteorder("<") if arr.dtype.byteorder == ">" else arr.dtype
        self.sections.append((name, arr.astype(dt, copy=False).tobytes(), dt.str, int(arr.size)))

    def add_strings(self, name: str, values: list[str | None]) -> None:
        encoded = [b"" if v is None else v.encode("utf-8") for v in values]
        offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
        np.cumsum([len(e) for e in encoded], out=offsets[1:])
        if offsets[-1] < 2**32:
            offsets = offsets.astype(np.uint32)
        self.sections.append((name + ".blob", b"".join(encoded), "|u1", int(offsets[-1])))
        self.add(name + ".off", offsets)
        if any(v is None for v in values):
            self.add(name + ".null", np.fromiter((v is None for v in values), dtype=np.uint8, count=len(values)))

    def to_bytes(self, digest: str) -> bytes:
        layout: dict[str, list[Any]] = {}
        header: dict[str, Any] = {
            "format": PACK_FORMAT,
            "version": PACK_VERSION,
            "digest": digest,
            "meta": self.meta,
            "columns": self.columns,
            "sections": layout,
        }
        # the header is measured with 16-digit placeholder offsets, so the real (shorter) ones fit
        for name, _data, dtype, count in self.sections:
            layout[name] = [10**15, dtype, count]
        measured = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        pos = _align(_PREFIX.size + len(measured))
        for name, data, dtype, count in self.sections:
            layout[name] = [pos, dtype, count]
            pos = _align(pos + len(data))
        raw_header = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        out = io.BytesIO()
        out.write(_PREFIX.pack(MAGIC, PACK_VERSION, 0, len(raw_header)))
        out.write(raw_header)
        for name, data, _dtype, _count in self.sections:
            out.write(b"\x00" * (layout[name][0] - out.tell()))
            out.write(data)
        out.write(b"\x00" * (_align(out.tell()) - out.tell()))
        return out.getvalue()


def _align(pos: int) -> int:
    return (pos + _ALIGN - 1) // _ALIGN * _ALIGN


def pack_document(doc: Mapping[str, Any]) -> bytes:
    """The pack of a snapshot document (see the module docstring), as bytes.

    Raises:
        KnowledgeBaseError: if ``entities`` / ``n_items`` / the ``edge_*`` arrays are malformed.
    """
    raw_entities = doc.get("entities")
    if not isinstance(raw_entities, list) or not all(isinstance(e, str) for e in raw_entities):
        raise KnowledgeBaseError("malformed knowledge-base snapshot: 'entities' is not a list of ids")
    entities: list[str] = list(raw_entities)
    w = _columns(doc, n_entities=len(entities))
    _derive(w, doc, entities)
    return w.to_bytes(document_digest(doc))


def pack_columns(doc: Mapping[str, Any], *, digest: str = "") -> bytes:
    """Any JSON-like document packed by the shape of its top-level values, without the knowledge
    base's derived sections (the same container; e.g. the entity linker's stored name index).
    Lists of floats are packed too (``floats``: float64), and numpy int/float arrays as they are."""
    return _columns(doc, n_entities=None).to_bytes(digest)


def _columns(doc: Mapping[str, Any], *, n_entities: int | None) -> _Writer:
    w = _Writer()
    for key, value in doc.items():
        if isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype.kind in "iuf":
            w.add(key, value)
            w.columns[key] = "floats" if value.dtype.kind == "f" else "ints"
        elif isinstance(value, list) and not value:
            w.columns[key] = "empty"
        elif _is_int_list(value):
            w.add(key, _int_array(value))
            w.columns[key] = "ints"
        elif isinstance(value, list) and all(type(v) is float for v in value):
            w.add(key, np.asarray(value, dtype=np.float64))
            w.columns[key] = "floats"
        elif _is_str_list(value):
            w.add_strings(key, value)
            w.columns[key] = "strings"
        elif n_entities is not None and _is_by_entity(value):
            n = n_entities
            is_json = not all(isinstance(v, str) for v in value.values())
            column: list[str | None] = [None] * n
            for k, v in value.items():
                i = int(k)
                if i >= n:
                    raise KnowledgeBaseError(f"malformed knowledge-base snapshot: {key!r} names entity {i} of {n}")
                column[i] = json.dumps(v, ensure_ascii=False, separators=(",", ":")) if is_json else v
            w.add_strings(key, column)
            w.columns[key] = "by_entity_json" if is_json else "by_entity"
        else:
            w.meta[key] = value
    return w


def _derive(w: _Writer, doc: Mapping[str, Any], entities: list[str]) -> None:
    """The derived sections (module docstring): QID lookup, edge CSRs, degree, item order."""
    n = len(entities)
    try:
        n_items = int(doc["n_items"])
        ei = np.asarray(doc["edge_item"], dtype=np.int64)
        ep = np.asarray(doc["edge_pid"], dtype=np.int64)
        ev = np.asarray(doc["edge_value"], dtype=np.int64)
    except (KeyError, TypeError, ValueError) as exc:
        raise KnowledgeBaseError(f"malformed knowledge-base snapshot ({exc.__class__.__name__}: {exc})") from exc
    if not (len(ei) == len(ep) == len(ev)) or not 0 <= n_items <= n:
        raise KnowledgeBaseError("malformed knowledge-base snapshot: edge array lengths differ or n_items out of range")
    if len(ei) and (min(ei.min(), ev.min()) < 0 or max(ei.max(), ev.max()) >= n):
        raise KnowledgeBaseError("malformed knowledge-base snapshot: an edge names an unknown entity")
    nums: list[int] = []
    pos: list[int] = []
    odd: dict[str, int] = {}
    for i, q in enumerate(entities):
        digits = q[1:]
        if q[:1] == "Q" and digits.isascii() and digits.isdigit() and (digits[0] != "0" or digits == "0"):
            nums.append(int(digits))
            pos.append(i)
        else:
            odd[q] = i
    num_arr = np.asarray(nums, dtype=np.int64)
    order = np.argsort(num_arr, kind="stable")
    w.add("~qid.num", num_arr[order])
    w.add("~qid.pos", np.asarray(pos, dtype=np.int32)[order])
    w.meta["~odd_ids"] = odd
    # out-CSR: edges sorted by (item, pid, value), as the document keeps them
    out_order = np.lexsort((ev, ep, ei))
    if not np.array_equal(out_order, np.arange(len(ei))):
        raise KnowledgeBaseError("malformed knowledge-base snapshot: edges are not sorted by item, property, value")
    w.add("~out.ptr", np.concatenate(([0], np.cumsum(np.bincount(ei, minlength=n)))).astype(np.int64))
    in_order = np.lexsort((ei, ep, ev))
    w.add("~in.ptr", np.concatenate(([0], np.cumsum(np.bincount(ev, minlength=n)))).astype(np.int64))
    w.add("~in.pid", ep[in_order].astype(np.int32))
    w.add("~in.item", ei[in_order].astype(np.int32))
    w.add("~degree", distinct_degree(n, ei, ev))
    items = entities[:n_items]
    w.add("~item_order", np.asarray(sorted(range(n_items), key=items.__getitem__), dtype=np.int32))


def distinct_degree(n: int, a: NDArray[np.int64], b: NDArray[np.int64]) -> NDArray[np.int32]:
    """(n,) number of distinct neighbours of each node over undirected pairs ``a[k]--b[k]`` (self-loops ignored)."""
    keep = a != b
    lo, hi = np.minimum(a[keep], b[keep]), np.maximum(a[keep], b[keep])
    pairs = np.unique(lo * n + hi) if lo.size else np.zeros(0, dtype=np.int64)
    return (np.bincount(pairs // n, minlength=n) + np.bincount(pairs % n, minlength=n)).astype(np.int32)


def write_pack(doc: Mapping[str, Any], folder: Path) -> Path:
    """Write ``folder/kb.pack`` atomically (temporary file + rename) and return its path.

    Raises:
        KnowledgeBaseError: if the document is malformed or the file cannot be written.
    """
    data = pack_document(doc)
    folder = Path(folder)
    target = folder / PACK_FILE
    try:
        fd, tmp = tempfile.mkstemp(prefix=".kb.pack.", dir=folder)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, 0o644)  # data, like kb.json.gz (mkstemp makes it private)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise KnowledgeBaseError(f"could not write the knowledge-base pack {target}: {exc}") from exc
    return target


__all__ = [
    "PACK_FILE",
    "PACK_FORMAT",
    "PACK_VERSION",
    "EntityColumn",
    "Pack",
    "StringColumn",
    "distinct_degree",
    "document_digest",
    "pack_columns",
    "pack_document",
    "write_pack",
]
