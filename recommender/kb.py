"""The knowledge base of one domain, loaded from its snapshot (``recommender.kbsnapshot``).

:class:`KnowledgeBase` maps the snapshot's ``kb.pack`` (:mod:`recommender.kbpack`): arrays and string
blobs, so a domain opens in milliseconds, holds almost no Python objects, and processes share its
pages. The document it is written from, and how it is written and read, is in
``recommender.kbsnapshot``; what is shown about an item (:class:`ItemDetails`) in
``recommender.kbdetails``. Their public names are importable from here as well.

The pack holds the per-entity indexes (item -> values, value -> items, degrees) precomputed;
``graph()`` builds a networkx graph lazily (tools and tests; the recommender builds its sparse matrix
from :meth:`KnowledgeBase.edge_arrays`). Popularity is ``degree + SITELINK_BONUS * has_enwiki_article``
(degree = number of distinct neighbours in the item–value graph); it is >= 0 and only meant for
ranking (candidates, the popularity baseline).

Example:
    >>> kb = KnowledgeBase.load(Path("var/kb/movie"))       # doctest: +SKIP
    >>> kb.label("Q83495"), kb.roles("Q9545711")            # doctest: +SKIP
    ('The Matrix', ('P57', 'P58'))
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from recommender.errors import KnowledgeBaseError
from recommender.kbdetails import (
    DETAIL_NAMES,
    SPOTIFY_KINDS,
    ItemDetails,
    count_detail_fields,
    spotify_url,
    stored_details,
)
from recommender.kbpack import PACK_FILE, Pack
from recommender.kbsnapshot import (
    SNAPSHOT_FILE,
    SNAPSHOT_FORMAT,
    SNAPSHOT_VERSION,
    SnapshotData,
    pack_file,
    read_snapshot,
    repack,
    snapshot_file,
    snapshot_items,
    write_snapshot,
)
from recommender.schema import DOMAINS, PID, QID, Kind

if TYPE_CHECKING:  # pragma: no cover
    import networkx

logger = logging.getLogger(__name__)

SITELINK_BONUS = 2.0
"""Popularity added for an English Wikipedia article (a degree-2 equivalent)."""


class ItemSet(AbstractSet[QID]):
    """The recommendable items of a knowledge base: a read-only set view over the pack (no Python
    object per item until iterated). Set operations (``|``, ``&``, ``-``) return frozensets."""

    __slots__ = ("_kb",)

    def __init__(self, kb: KnowledgeBase) -> None:
        self._kb = kb

    def __contains__(self, qid: object) -> bool:
        return isinstance(qid, str) and self._kb.is_item(qid)

    def __len__(self) -> int:
        return self._kb._n_items

    def __iter__(self) -> Iterator[QID]:
        get = self._kb._entities.get
        for i in range(self._kb._n_items):
            yield QID(get(i) or "")

    @classmethod
    def _from_iterable(cls, it: Iterable[Any]) -> frozenset[Any]:
        return frozenset(it)

    def __hash__(self) -> int:
        return self._hash()

    def __repr__(self) -> str:
        return f"<ItemSet of {len(self)} {self._kb.domain} items>"


class KnowledgeBase:
    """The knowledge base of one domain: items, property values, names and the item–value graph.

    Build with :meth:`load` (maps the snapshot's ``kb.pack``: milliseconds, pages shared between
    processes) or from a snapshot document (``KnowledgeBase(doc)``, packed in memory). All lookups
    accept any string; unknown ids give empty results (``label`` returns the id itself,
    ``popularity`` 0.0), never an exception.

    Attributes:
        domain: ``"movie"``, ``"book"`` or ``"music"``.
        items: the recommendable items of the domain (a read-only set; see :class:`ItemSet`).
        source: where the snapshot's facts came from.
        built_at: ISO timestamp of the build.
        digest: SHA-256 of the snapshot document (changes whenever its facts change).
    """

    __slots__ = (
        "domain",
        "items",
        "source",
        "built_at",
        "digest",
        "pids",
        "_pack",
        "_n",
        "_n_items",
        "_entities",
        "_labels",
        "_label_langs",
        "_aliases",
        "_descriptions",
        "_details",
        "_sitelinks",
        "_declared",
        "_kinds",
        "_kind_names",
        "_merged",
        "_classes",
        "_class_kinds",
        "_out_ptr",
        "_out_pid",
        "_out_val",
        "_in_ptr",
        "_in_pid",
        "_in_item",
        "_degree",
        "_has_sitelink",
        "_graph",
    )

    def __init__(self, doc: Mapping[str, Any]):
        """Index a snapshot document (see the module docstring); prefer :meth:`load`.

        Raises:
            KnowledgeBaseError: if the document is malformed.
        """
        if not isinstance(doc, Mapping):
            raise KnowledgeBaseError("malformed knowledge-base snapshot (not a JSON object)")
        try:
            pack = Pack.from_document(doc)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise KnowledgeBaseError(f"malformed knowledge-base snapshot ({exc.__class__.__name__}: {exc})") from exc
        self._open(pack)

    def _open(self, pack: Pack) -> None:
        try:
            meta = pack.meta
            self.domain: str = str(meta["domain"])
            self.source: str = str(meta.get("source", ""))
            self.built_at: str = str(meta.get("built_at", ""))
            self.digest: str = pack.digest
            self.pids: tuple[PID, ...] = tuple(PID(str(p)) for p in pack.column("pids"))
            self._pack = pack
            self._entities = pack.strings("entities")
            self._n = len(self._entities)
            self._n_items = int(meta["n_items"])
            self._labels = pack.strings("labels")
            self._label_langs = pack.strings("label_langs") if pack.kind("label_langs") == "strings" else None
            self._aliases = pack.entity_column("aliases")
            self._descriptions = pack.entity_column("descriptions")
            self._details = pack.entity_column("details")
            self._sitelinks = pack.entity_column("sitelinks")
            self._declared = pack.entity_column("declared_roles")
            self._kind_names: tuple[str, ...] = (
                tuple(str(k) for k in pack.column("kind_names")) if pack.has("kind_names") else ()
            )
            self._kinds = pack.array("kinds") if pack.kind("kinds") == "ints" else None
            merged = meta.get("merged") or {}
            self._merged: dict[str, int] = {str(q): int(i) for q, i in merged.items()}
            self._classes = pack.entity_column("classes")
            self._class_kinds: dict[str, str] = {str(c): str(k) for c, k in (meta.get("class_kinds") or {}).items()}
            self._out_ptr = pack.view("~out.ptr")
            self._out_pid = pack.view("edge_pid")
            self._out_val = pack.view("edge_value")
            self._in_ptr = pack.view("~in.ptr")
            self._in_pid = pack.view("~in.pid")
            self._in_item = pack.view("~in.item")
            self._degree = pack.view("~degree")
            self._has_sitelink = self._sitelinks.present()
            if len(self._labels) != self._n or len(self._degree) != self._n:
                raise ValueError("array lengths differ")
        except (KeyError, TypeError, ValueError) as exc:
            raise KnowledgeBaseError(f"malformed knowledge-base snapshot ({exc.__class__.__name__}: {exc})") from exc
        self.items: AbstractSet[QID] = ItemSet(self)
        self._graph: networkx.Graph | None = None

    @classmethod
    def load(cls, path: Path) -> KnowledgeBase:
        """Map a domain's snapshot (its ``kb.pack``; see :mod:`recommender.kbpack`).

        Args:
            path: the snapshot folder (``var/kb/<domain>``), its ``kb.pack`` or its ``kb.json.gz``.

        Raises:
            KnowledgeBaseError: if the snapshot is missing, of an older format (only ``kb.json.gz``),
                unreadable or malformed (the message says which file and how to rebuild it).
        """
        start = time.perf_counter()
        file = pack_file(path)
        if not file.exists():
            legacy = file.with_name(SNAPSHOT_FILE)
            if legacy.exists():
                raise KnowledgeBaseError(
                    f"the knowledge-base snapshot {file.parent} was written by an older corsbot (it has "
                    f"{SNAPSHOT_FILE} but no {PACK_FILE}); rebuild it with `corsbot kb build --domain "
                    f"{file.parent.name}` (or `corsbot kb pack --domain {file.parent.name}`)"
                )
            raise KnowledgeBaseError(f"no knowledge-base snapshot at {file}; build it with `corsbot kb build`")
        kb = cls.__new__(cls)
        kb._open(Pack.open(file))
        logger.info(
            "mapped %s knowledge base: %d items, %d entities, %d edges in %.3f s",
            kb.domain,
            kb._n_items,
            kb._n,
            kb.edge_count,
            time.perf_counter() - start,
        )
        return kb

    @property
    def pack(self) -> Pack:
        """The underlying pack (array-level access for the recommender and the linker's index)."""
        return self._pack

    # --- membership ---------------------------------------------------------------------------

    def index_of(self, qid: str) -> int | None:
        """Entity index of ``qid`` (items are ``0 .. len(items) - 1``), or None if unknown."""
        if not isinstance(qid, str):
            return None
        i = self._pack.index_of(qid)
        if i is None and self._merged:  # a merged near-duplicate answers as the entity it became
            i = self._merged.get(qid)
        return i

    def qid_at(self, index: int) -> QID:
        """The QID of entity ``index`` (inverse of :meth:`index_of`)."""
        return QID(self._entities.get(index) or "")

    def has(self, qid: str) -> bool:
        """Whether ``qid`` is an item or a property value of this domain."""
        return self.index_of(qid) is not None

    def is_item(self, qid: str) -> bool:
        """Whether ``qid`` is a recommendable item of this domain."""
        i = self.index_of(qid)
        return i is not None and i < self._n_items

    def kind(self, qid: str) -> str | None:
        """The entity's kind (``"film"``, ``"song"``, ``"band"``, ``"genre"`` ...; see
        ``recommender.kinds``), or None when unknown or untyped."""
        i = self.index_of(qid)
        return None if i is None else self._kind_at(i)

    def _kind_at(self, i: int) -> str | None:
        if self._kinds is None or i >= len(self._kinds):
            return None
        k = int(self._kinds[i])
        return self._kind_names[k] if 0 <= k < len(self._kind_names) else None

    def classes(self, qid: str) -> tuple[QID, ...]:
        """The item's ``wdt:P31`` classes as the build read them (empty: a value, unknown, version 1)."""
        i = self.index_of(qid)
        return () if i is None else tuple(QID(str(c)) for c in self._classes.get(i) or ())

    def class_kinds(self, qid: str) -> tuple[str, ...]:
        """The kinds its classes stand for, schema order (``("broadcast", "film")``: a film typed TV series)."""
        found = {self._class_kinds[c] for c in self.classes(qid) if c in self._class_kinds}
        return tuple(k.name for k in DOMAINS[self.domain].kinds if k.name in found) if self.domain in DOMAINS else ()

    def canonical(self, qid: str) -> QID:
        """The QID under which ``qid`` is in the graph: a near-duplicate genre merged at build time
        ("crime novel" into "crime fiction") gives the one it became; any other id is returned as is."""
        i = self._merged.get(qid)
        return QID(qid) if i is None else self.qid_at(i)

    def entities(self) -> tuple[QID, ...]:
        """Every known entity: items first, then the other property values."""
        return tuple(QID(q or "") for q in self._entities)

    @property
    def n_entities(self) -> int:
        """Number of entities (items and values)."""
        return self._n

    @property
    def edge_count(self) -> int:
        """Number of (item, property, value) claims."""
        return len(self._out_val)

    def edge_arrays(self) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
        """``(item, pid, value)`` entity/property indexes of every claim, as read-only int arrays
        sorted by item, property, value (``pid`` indexes :attr:`pids`)."""
        pack = self._pack
        return pack.array("edge_item"), pack.array("edge_pid"), pack.array("edge_value")

    def degrees(self) -> NDArray[np.int32]:
        """(n_entities,) number of distinct graph neighbours of every entity (read-only)."""
        return self._pack.array("~degree")

    def item_string_order(self) -> NDArray[np.int32]:
        """(n_items,) item indexes in QID string order (``sorted(kb.items)``), read-only."""
        return self._pack.array("~item_order")

    # --- names ----------------------------------------------------------------------------------

    def label(self, qid: str) -> str:
        """Display name: English, else ``mul``, else any language; the QID only if none exists."""
        i = self.index_of(qid)
        if i is None:
            return qid
        return self._labels.get(i) or qid

    def has_label(self, qid: str) -> bool:
        """Whether ``qid`` has a label in some language (so the bot never shows a bare QID)."""
        i = self.index_of(qid)
        return i is not None and self._labels.get(i) is not None

    def label_lang(self, qid: str) -> str | None:
        """Language tag of :meth:`label` (``"en"``, ``"mul"``, ...), None if unlabeled/unknown."""
        i = self.index_of(qid)
        return None if i is None or self._label_langs is None else self._label_langs.get(i)

    def aliases(self, qid: str) -> tuple[str, ...]:
        """Other names (English/``mul`` ``skos:altLabel``), sorted; empty if none."""
        i = self.index_of(qid)
        return () if i is None else tuple(self._aliases.get(i) or ())

    def names(self) -> Iterator[tuple[str, QID]]:
        """Every ``(label or alias, qid)`` pair, the entity linker's index (labeled entities only)."""
        labels, aliases, entities = self._labels, self._aliases, self._entities
        for i in range(self._n):
            q = QID(entities.get(i) or "")
            lab = labels.get(i)
            if lab:
                yield lab, q
            for alias in aliases.get(i) or ():
                yield alias, q

    def description(self, qid: str) -> str | None:
        """Short description (en > mul), or None."""
        i = self.index_of(qid)
        return None if i is None else self._descriptions.get(i)

    # --- edges ----------------------------------------------------------------------------------

    def item_values(self, item: str) -> tuple[tuple[PID, QID], ...]:
        """``((pid, value), ...)`` of an item, in (property schema order, value id) order."""
        i = self.index_of(item)
        if i is None:
            return ()
        pids, get, pid, val = self.pids, self._entities.get, self._out_pid, self._out_val
        return tuple((pids[pid[k]], QID(get(val[k]) or "")) for k in range(self._out_ptr[i], self._out_ptr[i + 1]))

    def value_items(self, value: str) -> tuple[tuple[PID, QID], ...]:
        """``((pid, item), ...)`` of the items having ``value`` for some edge property (by property, item)."""
        i = self.index_of(value)
        if i is None:
            return ()
        pids, get, pid, item = self.pids, self._entities.get, self._in_pid, self._in_item
        return tuple((pids[pid[k]], QID(get(item[k]) or "")) for k in range(self._in_ptr[i], self._in_ptr[i + 1]))

    def roles(self, qid: str) -> tuple[PID, ...]:
        """Properties for which ``qid`` is a value, most frequent first (ties: schema order).

        Roles declared by the schema's value types (a genre, a writer ...) follow those seen on edges,
        so an entity no item links to still has its role. When the entity's kind declares the roles
        users know it by (``Kind.roles``: a band is a performer, an artist a performer, composer or
        lyricist), only those are given, or the first of them when none was seen.
        """
        i = self.index_of(qid)
        if i is None:
            return ()
        counts = Counter(self._in_pid[k] for k in range(self._in_ptr[i], self._in_ptr[i + 1]))
        ranked = [p for p, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
        ranked += [p for p in self._declared.get(i) or () if p not in counts]
        roles = tuple(self.pids[p] for p in ranked)
        kind = self._kind_schema(i)
        if kind is None or not kind.roles:
            return roles
        # a band is known as a performer, not as "the band of its members": the kind's own roles
        return tuple(p for p in roles if p in kind.roles) or kind.roles[:1]

    def _kind_schema(self, i: int) -> Kind | None:
        schema = DOMAINS.get(self.domain)
        name = self._kind_at(i)
        return None if schema is None or name is None else schema.kind(name)

    def popularity(self, qid: str) -> float:
        """``degree + SITELINK_BONUS * has_enwiki_article`` (>= 0; 0.0 for unknown ids)."""
        i = self.index_of(qid)
        if i is None:
            return 0.0
        return float(self._degree[i]) + (SITELINK_BONUS if self._has_sitelink[i] else 0.0)

    def popularities(self) -> NDArray[np.float64]:
        """(n_entities,) :meth:`popularity` of every entity, in entity order."""
        return self.degrees().astype(np.float64) + SITELINK_BONUS * self._has_sitelink

    def degree(self, qid: str) -> int:
        """Number of distinct graph neighbours of ``qid`` (0 if unknown)."""
        i = self.index_of(qid)
        return 0 if i is None else int(self._degree[i])

    # --- details --------------------------------------------------------------------------------

    def details(self, qid: str) -> ItemDetails:
        """What can be shown about ``qid``; an unknown id gives details with only ``qid``/``label``."""
        i = self.index_of(qid)
        if i is None:
            return ItemDetails(qid=QID(qid), label=qid)
        return stored_details(
            QID(qid),
            self.label(qid),
            self._details.get(i) or {},
            description=self._descriptions.get(i),
            wikipedia=self._sitelinks.get(i),
            is_work=lambda: any(pid == "P175" for pid, _ in self.item_values(qid)),
        )

    def detail_counts(self) -> dict[str, int]:
        """How many items have each detail field (incl. ``description`` and ``wikipedia``)."""
        n_items = self._n_items
        # property values (an artist's Spotify id) are not counted
        counts = count_detail_fields(d for i, d in self._details.items() if i < n_items)
        counts["description"] = int(self._descriptions.present()[:n_items].sum())
        counts["wikipedia"] = int(self._has_sitelink[:n_items].sum())
        return {k: counts.get(k, 0) for k in ("description", *DETAIL_NAMES, "wikipedia")}

    # --- graph ----------------------------------------------------------------------------------

    def graph(self) -> networkx.Graph:
        """The undirected item–value graph as networkx (built on first call, then cached).

        Nodes are QIDs (every entity, isolated items included) with the boolean node attribute
        ``item``; an edge joins an item and a value, with attribute ``pids``: the tuple of
        properties linking them (schema order). Do not mutate it: it is shared. The recommender
        does not need it (it builds its matrix from :meth:`edge_arrays`); it is for tools and tests.
        """
        if self._graph is None:
            self._graph = _networkx_graph(self)
        return self._graph

    def __repr__(self) -> str:
        return f"<KnowledgeBase {self.domain}: {self._n_items} items, {self._n} entities>"


def _networkx_graph(kb: KnowledgeBase) -> networkx.Graph:
    """The item-value graph of ``kb`` as networkx (see :meth:`KnowledgeBase.graph`)."""
    import networkx as nx

    ei, ep, ev = (np.asarray(a, dtype=np.int64) for a in kb.edge_arrays())
    keep = ei != ev
    lo, hi, p = np.minimum(ei, ev)[keep], np.maximum(ei, ev)[keep], ep[keep]
    order = np.lexsort((p, hi, lo))
    lo, hi, p = lo[order], hi[order], p[order]
    ents, pids = kb.entities(), kb.pids
    g = nx.Graph()
    # Filled through the documented-internal dict-of-dicts (what add_nodes_from/add_edges_from
    # do, without their per-item checks: 3-4x faster for ~100k edges); one data dict per
    # edge, shared by both directions as networkx does.
    node, adj = g._node, g._adj
    n_items = len(kb.items)
    for k, q in enumerate(ents):
        node[q] = {"item": k < n_items}
        adj[q] = {}
    tuples: dict[tuple[int, ...], tuple[PID, ...]] = {}
    start = 0
    m = len(lo)
    while start < m:
        a, b = int(lo[start]), int(hi[start])
        end = start + 1
        while end < m and lo[end] == a and hi[end] == b:
            end += 1
        key = tuple(sorted({int(x) for x in p[start:end]}))
        tup = tuples.get(key)
        if tup is None:
            tup = tuples[key] = tuple(pids[x] for x in key)
        data = {"pids": tup}
        qa, qb = ents[a], ents[b]
        adj[qa][qb] = data
        adj[qb][qa] = data
        start = end
    nx._clear_cache(g)
    return g


def load_all(paths: Mapping[str, Path] | Sequence[tuple[str, Path]]) -> dict[str, KnowledgeBase]:
    """Load several domains' snapshots: ``{domain: KnowledgeBase}``.

    Raises:
        KnowledgeBaseError: on the first snapshot that cannot be loaded.
    """
    pairs = paths.items() if isinstance(paths, Mapping) else paths
    return {domain: KnowledgeBase.load(path) for domain, path in pairs}


__all__ = [
    "DETAIL_NAMES",
    "PACK_FILE",
    "SITELINK_BONUS",
    "SNAPSHOT_FILE",
    "SNAPSHOT_FORMAT",
    "SNAPSHOT_VERSION",
    "SPOTIFY_KINDS",
    "ItemDetails",
    "ItemSet",
    "KnowledgeBase",
    "SnapshotData",
    "load_all",
    "pack_file",
    "read_snapshot",
    "repack",
    "snapshot_file",
    "snapshot_items",
    "spotify_url",
    "write_snapshot",
]
