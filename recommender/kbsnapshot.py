"""The snapshot of a domain's knowledge base: its document, writing it atomically, reading it back.

A snapshot is a folder (``var/kb/<domain>/``, see ``bot.paths.kb_snapshot``) holding two files
written together from one document (:meth:`SnapshotData.to_json`):

- ``kb.json.gz``: the document, gzip-compressed (level 6) JSON with *columnar* arrays indexed by
  entity number (no pickle: a snapshot is data, safe to read from anywhere, and diffable after
  ``zcat``); tools read it with :func:`read_snapshot`;
- ``kb.pack``: the same document, load-ready (:mod:`recommender.kbpack`): arrays and string blobs
  that ``recommender.kb.KnowledgeBase.load`` memory-maps instead of parsing, so a domain opens in
  milliseconds, holds almost no Python objects, and processes share its pages. Only this file is
  read at run time; a folder with only ``kb.json.gz`` (an older corsbot) is refused with the
  command that rebuilds it.

Document layout::

    {
      "format": "corsbot-kb", "version": 2, "domain": "movie",
      "source": "embedded:/…/wikidata-subset.nt.gz", "built_at": "2026-…Z",
      "entities": ["Q1", …],              # items first (n_items of them), then the other values;
      "n_items": 17207,                   #   each group sorted by numeric id
      "schema": "3f0c…",                  # recommender.schema.schema_fingerprint of the domain
      "labels": ["The Matrix", null, …],  # per entity; en > mul > any language; null = no label
      "label_langs": ["en", null, …],
      "aliases": {"12": ["Matrix"], …},   # entity index (as string) -> sorted aliases (en/mul)
      "descriptions": {"12": "1999 film", …},
      "pids": ["P57", "P161", …],          # the domain's edge properties (schema order)
      "edge_item": [12, …], "edge_pid": [0, …], "edge_value": [40213, …],   # parallel arrays
      "details": {"12": {"imdb_id": "tt0133093", "year": 1999, …}, …},     # items only
      "sitelinks": {"12": "https://en.wikipedia.org/wiki/The_Matrix", …},
      "declared_roles": {"40999": [1], …}, # entity -> pid indexes from the schema's value types
                                           #   (a writer with no book in the graph is still "author")
      "kind_names": ["person", "genre", "film"],   # the schema's kinds (recommender.kinds)
      "kinds": [2, 2, …, 0, -1, …],        # per entity: index into kind_names, -1 = none
      "merged": {"Q1123": 40213, …},       # near-duplicate genre QID -> the entity it became
      "classes": {"12": ["Q11424"], …},    # item -> its P31 classes (version 2)
      "class_kinds": {"Q5398426": "broadcast", …}  # class -> kind whose closure holds it (version 2)
    }

Edges join an item or a property value (a *value claim*: an artist's genre, a band member's band) to a
value; ``edge_item`` is the claim's subject.

The facts come from the build (``recommender.sparql``), as :class:`SnapshotData`; the knowledge
base reads the pack (``recommender.kb.KnowledgeBase.load``), tools the document (:func:`read_snapshot`).

Example:
    >>> data = SnapshotData(domain="book", source="test", items={"Q1"})   # doctest: +SKIP
    >>> write_snapshot(data, Path("var/kb/book")).name                     # doctest: +SKIP
    'kb.json.gz'
"""

from __future__ import annotations

import gzip
import json
import logging
import os
import shutil
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from recommender.errors import KnowledgeBaseError
from recommender.kbpack import PACK_FILE, Pack, write_pack
from recommender.schema import DOMAINS, schema_fingerprint

logger = logging.getLogger(__name__)

SNAPSHOT_FILE = "kb.json.gz"
"""Name of the snapshot file inside a domain's snapshot folder."""
SNAPSHOT_FORMAT = "corsbot-kb"
SNAPSHOT_VERSION = 2
"""2: items carry their ``classes`` (P31) and the snapshot ``class_kinds`` (issue 23); a version-1
snapshot is refused by ``read_snapshot`` (``corsbot kb build`` rewrites it)."""


@dataclass(slots=True)
class SnapshotData:
    """A domain's extracted facts, before they are written (built by ``recommender.sparql``).

    Attributes are keyed by QID; ``edges`` holds ``(item, pid, value)`` triples. ``write`` sorts
    everything so that the same facts always give byte-identical snapshots (whatever the backend
    or the order in which rows arrived).
    """

    domain: str
    source: str
    items: set[str] = field(default_factory=set)
    labels: dict[str, tuple[str, str]] = field(default_factory=dict)  # qid -> (label, lang)
    aliases: dict[str, set[str]] = field(default_factory=dict)
    descriptions: dict[str, str] = field(default_factory=dict)
    edges: set[tuple[str, str, str]] = field(default_factory=set)
    details: dict[str, dict[str, Any]] = field(default_factory=dict)
    sitelinks: dict[str, str] = field(default_factory=dict)
    declared_roles: dict[str, set[str]] = field(default_factory=dict)  # qid -> pids (ValueType)
    kinds: dict[str, str] = field(default_factory=dict)  # qid -> kind name (recommender.kinds)
    merged: dict[str, str] = field(default_factory=dict)  # near-duplicate qid -> the qid it became
    classes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # item -> its P31 classes
    class_kinds: dict[str, str] = field(default_factory=dict)  # class -> the kind whose closure holds it

    def to_json(self, *, built_at: str | None = None) -> dict[str, Any]:
        """The snapshot document (see the module docstring); deterministic but for ``built_at``."""
        schema = DOMAINS[self.domain]
        items = sorted(self.items, key=_qid_key)
        ends = {v for _, _, v in self.edges} | {s for s, _, _ in self.edges}
        values = sorted((ends | set(self.declared_roles)) - self.items, key=_qid_key)
        entities = items + values
        index = {q: i for i, q in enumerate(entities)}
        pids: list[str] = list(schema.edge_pids)
        used = {p for _, p, _ in self.edges} | {p for ps in self.declared_roles.values() for p in ps}
        extra = sorted(used - set(pids), key=_qid_key)
        pids += extra
        pid_index = {p: i for i, p in enumerate(pids)}
        edges = sorted((index[i], pid_index[p], index[v]) for i, p, v in self.edges)
        labels = [self.labels.get(q, (None, None)) for q in entities]
        kind_names = [k.name for k in schema.kinds]
        kind_names += sorted({k for q, k in self.kinds.items() if q in index} - set(kind_names))
        kind_index = {k: i for i, k in enumerate(kind_names)}
        doc: dict[str, Any] = {
            "format": SNAPSHOT_FORMAT,
            "version": SNAPSHOT_VERSION,
            "domain": self.domain,
            "source": self.source,
            "built_at": built_at or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "entities": entities,
            "n_items": len(items),
            "schema": schema_fingerprint(self.domain),
            "labels": [lab for lab, _ in labels],
            "label_langs": [lang for _, lang in labels],
            "aliases": {
                str(index[q]): sorted(a)
                for q, a in sorted(self.aliases.items(), key=lambda kv: _qid_key(kv[0]))
                if q in index and a
            },
            "descriptions": {
                str(index[q]): d
                for q, d in sorted(self.descriptions.items(), key=lambda kv: _qid_key(kv[0]))
                if q in index
            },
            "pids": pids,
            "edge_item": [e[0] for e in edges],
            "edge_pid": [e[1] for e in edges],
            "edge_value": [e[2] for e in edges],
            "details": {
                str(index[q]): dict(sorted(d.items()))
                for q, d in sorted(self.details.items(), key=lambda kv: _qid_key(kv[0]))
                if q in index and d
            },
            "sitelinks": {
                str(index[q]): s
                for q, s in sorted(self.sitelinks.items(), key=lambda kv: _qid_key(kv[0]))
                if q in index
            },
            "declared_roles": {
                str(index[q]): sorted(pid_index[p] for p in ps)
                for q, ps in sorted(self.declared_roles.items(), key=lambda kv: _qid_key(kv[0]))
                if q in index and ps
            },
            "kind_names": kind_names,
            "kinds": [kind_index.get(self.kinds.get(q, ""), -1) for q in entities],
            "merged": {
                q: index[c] for q, c in sorted(self.merged.items(), key=lambda kv: _qid_key(kv[0])) if c in index
            },
            "classes": {
                str(index[q]): list(cs)
                for q, cs in sorted(self.classes.items(), key=lambda kv: _qid_key(kv[0]))
                if q in index and cs
            },
            "class_kinds": dict(sorted(self.class_kinds.items(), key=lambda kv: _qid_key(kv[0]))),
        }
        return doc


def _qid_key(qid: str) -> tuple[str, int, str]:
    """Sort key: prefix letter, then numeric id (``Q9 < Q10``), then the raw text."""
    head, digits = qid[:1], qid[1:]
    return (head, int(digits), "") if digits.isdigit() else (head, -1, qid)


def write_snapshot(data: SnapshotData, out_dir: Path, *, built_at: str | None = None) -> Path:
    """Write a snapshot folder (``kb.json.gz`` and ``kb.pack``) atomically.

    The document is written into a temporary sibling folder, then swapped in with renames, so a
    failure at any point leaves the previous snapshot intact. When ``out_dir`` is a symlink, the
    folder it points to is replaced (the temporary folder is made beside that one) and the link
    is kept.

    Args:
        data: the extracted facts.
        out_dir: the snapshot folder (e.g. ``var/kb/movie``); its parent is created if needed.
        built_at: ISO timestamp to record (default: now); fixed in tests for identical bytes.

    Returns:
        The path of the written ``kb.json.gz`` (``kb.pack`` is beside it).

    Raises:
        KnowledgeBaseError: if the folder cannot be written.
    """
    out_dir = Path(out_dir)
    if out_dir.is_symlink():  # swap in the folder the link points to; the link stays a link
        out_dir = out_dir.resolve()
    doc = data.to_json(built_at=built_at)
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.tmp-", dir=out_dir.parent))
        raw = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        with open(tmp / SNAPSHOT_FILE, "wb") as fh:
            # mtime=0: identical facts give identical bytes
            with gzip.GzipFile(filename="", mode="wb", fileobj=fh, compresslevel=6, mtime=0) as gz:
                gz.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        write_pack(doc, tmp)  # the load-ready copy of the same document, swapped in with it
        old = None
        if out_dir.exists():
            old = out_dir.with_name(f".{out_dir.name}.old-{os.getpid()}-{time.monotonic_ns()}")
            os.replace(out_dir, old)
        os.replace(tmp, out_dir)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except (OSError, KnowledgeBaseError) as exc:
        _remove_tmp(locals().get("tmp"))
        raise KnowledgeBaseError(f"could not write the knowledge-base snapshot {out_dir}: {exc}") from exc
    except BaseException:  # interrupted (Ctrl-C): the previous snapshot is still in place
        _remove_tmp(locals().get("tmp"))
        raise
    logger.info("wrote snapshot %s (%d bytes uncompressed)", out_dir, len(raw))
    return out_dir / SNAPSHOT_FILE


def _remove_tmp(tmp: object) -> None:
    if isinstance(tmp, Path) and tmp.exists():
        shutil.rmtree(tmp, ignore_errors=True)


def snapshot_file(path: Path) -> Path:
    """The ``kb.json.gz`` of a snapshot folder (``path`` may also be the file itself)."""
    path = Path(path)
    if path.name == PACK_FILE:
        return path.with_name(SNAPSHOT_FILE)
    return path if path.name.endswith(".json.gz") or path.is_file() else path / SNAPSHOT_FILE


def snapshot_items(path: Path, *, schema: str | None = None) -> int | None:
    """Number of items of the snapshot at ``path``, or None if there is no readable snapshot there.

    Used before overwriting a snapshot (``recommender.sparql.build_snapshot``); reads the pack's
    header (milliseconds), else the whole document of an older snapshot (about a second).

    Args:
        path: the snapshot folder or file.
        schema: a :func:`recommender.schema.schema_fingerprint`; when given, a snapshot built with
            another schema gives None (its item count says nothing about the new build's).
    """
    try:
        meta = Pack.open(pack_file(path)).meta
    except (KnowledgeBaseError, KeyError, TypeError, ValueError):
        try:
            meta = read_snapshot(path)
        except (KnowledgeBaseError, KeyError, TypeError, ValueError):
            return None
    try:
        if schema is not None and meta.get("schema") != schema:
            return None
        return int(meta["n_items"])
    except (KeyError, TypeError, ValueError):
        return None


def repack(path: Path) -> Path:
    """Rewrite a snapshot folder's ``kb.pack`` from its ``kb.json.gz`` (no query to any store).

    For a pack of an older format (``kb.pack`` changed, the facts did not): seconds instead of a
    full ``kb build``.

    Raises:
        KnowledgeBaseError: the document is missing, unreadable or malformed, or the folder is not writable.
    """
    folder = snapshot_file(path).parent
    return write_pack(read_snapshot(path), folder.resolve() if folder.is_symlink() else folder)


def read_snapshot(path: Path) -> dict[str, Any]:
    """Read and check a snapshot document.

    Raises:
        KnowledgeBaseError: if it is missing, unreadable, or not a corsbot snapshot of a known version.
    """
    file = snapshot_file(path)
    if not file.exists():
        raise KnowledgeBaseError(f"no knowledge-base snapshot at {file}; build it with `corsbot kb build`")
    try:
        with open(file, "rb") as fh:
            raw = gzip.decompress(fh.read())
        doc = json.loads(raw)
    except (OSError, EOFError, zlib.error, ValueError) as exc:
        raise KnowledgeBaseError(
            f"knowledge-base snapshot {file} is unreadable ({exc.__class__.__name__}: {exc}); "
            "rebuild it with `corsbot kb build`"
        ) from exc
    if not isinstance(doc, dict) or doc.get("format") != SNAPSHOT_FORMAT:
        raise KnowledgeBaseError(f"{file} is not a corsbot knowledge-base snapshot")
    if doc.get("version") != SNAPSHOT_VERSION:
        raise KnowledgeBaseError(
            f"{file} has snapshot version {doc.get('version')!r}, expected {SNAPSHOT_VERSION}; "
            "rebuild it with `corsbot kb build`"
        )
    return doc


def pack_file(path: Path) -> Path:
    """The ``kb.pack`` of a snapshot folder (``path`` may also be the pack or the ``kb.json.gz``)."""
    path = Path(path)
    if path.name == PACK_FILE:
        return path
    if path.name.endswith(".json.gz"):
        return path.with_name(PACK_FILE)
    return path / PACK_FILE


__all__ = [
    "PACK_FILE",
    "SNAPSHOT_FILE",
    "SNAPSHOT_FORMAT",
    "SNAPSHOT_VERSION",
    "SnapshotData",
    "pack_file",
    "read_snapshot",
    "repack",
    "snapshot_file",
    "snapshot_items",
    "write_snapshot",
]
