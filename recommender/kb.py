"""The knowledge base of one domain, loaded from its snapshot (written by ``recommender.sparql``).

A snapshot is a folder (``var/kb/<domain>/``, see ``bot.paths.kb_snapshot``) holding two files
written together from one document (:meth:`SnapshotData.to_json`):

- ``kb.json.gz``: the document, gzip-compressed (level 6) JSON with *columnar* arrays indexed by
  entity number (no pickle: a snapshot is data, safe to read from anywhere, and diffable after
  ``zcat``); tools read it with :func:`read_snapshot`;
- ``kb.pack``: the same document, load-ready (:mod:`recommender.kbpack`): arrays and string blobs
  that :meth:`KnowledgeBase.load` memory-maps instead of parsing, so a domain opens in
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

import gzip
import json
import logging
import os
import re
import shutil
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import numpy as np
from numpy.typing import NDArray

from recommender.errors import KnowledgeBaseError
from recommender.kbpack import PACK_FILE, Pack, write_pack
from recommender.schema import DOMAINS, PID, QID, Kind, schema_fingerprint

if TYPE_CHECKING:  # pragma: no cover
    import networkx

logger = logging.getLogger(__name__)

SNAPSHOT_FILE = "kb.json.gz"
"""Name of the snapshot file inside a domain's snapshot folder."""
SNAPSHOT_FORMAT = "corsbot-kb"
SNAPSHOT_VERSION = 2
"""2: items carry their ``classes`` (P31) and the snapshot ``class_kinds`` (issue 23); a version-1
snapshot is refused by ``read_snapshot`` (``corsbot kb build`` rewrites it)."""
SITELINK_BONUS = 2.0
"""Popularity added for an English Wikipedia article (a degree-2 equivalent)."""


@dataclass(frozen=True, slots=True)
class ItemDetails:
    """What the bot can show about an entity beyond its name.

    Attributes:
        qid: the entity.
        label: its display name (en > mul > any; the QID only if it has no label at all).
        description: short description (en > mul) or None.
        year: publication year (P577, else inception P571) or None.
        image: Commons image URL (P18) or None.
        trailer: YouTube video id (P1651) or None.
        imdb_id: IMDb id (P345), e.g. ``"tt0133093"``, or None.
        tmdb_id: TMDB movie id (P4947) or None.
        spotify_id: Spotify track (P2207), album (P2205) or artist (P1902) id, or None.
        spotify_kind: ``"track"``, ``"album"`` or ``"artist"`` (the open.spotify.com page kind of
            ``spotify_id``), or None when unknown (then only a search link is built).
        lastfm_id: Last.fm id (P3192) or None.
        discogs_id: Discogs master id (P1954) or None.
        wikipedia: English Wikipedia article URL or None.
        openlibrary_id: Open Library id (P648, ``OL…W`` work or ``OL…M`` edition) or None.
        goodreads_id: Goodreads work id (P8383, else the version id P2969) or None.
        musicbrainz_id: MusicBrainz recording (P4404) or release-group (P436) id, or None.
        musicbrainz_kind: ``"recording"`` or ``"release-group"`` (the page kind of ``musicbrainz_id``).
    """

    qid: QID
    label: str
    description: str | None = None
    year: int | None = None
    image: str | None = None
    trailer: str | None = None
    imdb_id: str | None = None
    tmdb_id: str | None = None
    spotify_id: str | None = None
    lastfm_id: str | None = None
    discogs_id: str | None = None
    wikipedia: str | None = None
    spotify_kind: str | None = None
    openlibrary_id: str | None = None
    goodreads_id: str | None = None
    musicbrainz_id: str | None = None
    musicbrainz_kind: str | None = None

    def links(self) -> tuple[tuple[str, str], ...]:
        """External pages about the entity as ``((site name, URL), ...)``, most useful first.

        URLs follow the Wikidata formatter URLs of the identifiers (P1651 YouTube video, P345 IMDb
        title ``tt…`` or name ``nm…``, P4947 TMDB movie, P2207/P2205/P1902 Spotify
        track/album/artist, P3192 Last.fm, P1954 Discogs master, P4404/P436 MusicBrainz recording /
        release group, P648 Open Library, P8383 Goodreads work), with each id URL-quoted. A Spotify
        id of unknown kind or malformed gives a Spotify search for the label instead.
        """
        out: list[tuple[str, str]] = []
        if self.trailer:
            out.append(("trailer", "https://www.youtube.com/watch?v=" + quote(self.trailer.strip(), safe="")))
        if self.imdb_id:
            kind = "name" if self.imdb_id.startswith("nm") else "title"
            out.append(("IMDb", f"https://www.imdb.com/{kind}/{quote(self.imdb_id.strip(), safe='')}/"))
        if self.tmdb_id:
            out.append(("TMDB", f"https://www.themoviedb.org/movie/{quote(self.tmdb_id.strip(), safe='')}"))
        if self.spotify_id:
            out.append(("Spotify", spotify_url(self.spotify_id, self.spotify_kind, self.label)))
        if self.lastfm_id:  # Wikidata stores it URL-ready ("Pink+Floyd", "%EB%B0%95"): only spaces are fixed
            out.append(
                (
                    "Last.fm",
                    "https://www.last.fm/music/"
                    + quote(self.lastfm_id.strip().replace(" ", "+"), safe="/+%_-.~!*'(),:@&=;$"),
                )
            )
        if self.discogs_id:
            out.append(("Discogs", f"https://www.discogs.com/master/{quote(self.discogs_id.strip(), safe='')}"))
        if self.musicbrainz_id and self.musicbrainz_kind in ("recording", "release-group"):
            mbid = quote(self.musicbrainz_id.strip(), safe="")
            out.append(("MusicBrainz", f"https://musicbrainz.org/{self.musicbrainz_kind}/{mbid}"))
        if self.openlibrary_id:
            olid = self.openlibrary_id.strip()
            kind = "works" if olid.endswith("W") else "authors" if olid.endswith("A") else "books"
            out.append(("Open Library", f"https://openlibrary.org/{kind}/{quote(olid, safe='')}"))
        if self.goodreads_id:
            out.append(
                ("Goodreads", f"https://www.goodreads.com/work/show/{quote(self.goodreads_id.strip(), safe='')}")
            )
        if self.wikipedia:
            out.append(("Wikipedia", self.wikipedia))
        out.append(("Wikidata", f"https://www.wikidata.org/wiki/{self.qid}"))
        return tuple(out)


SPOTIFY_KINDS = ("track", "album", "artist")
"""open.spotify.com page kinds, by the Wikidata property of the id (P2207, P2205, P1902)."""
_SPOTIFY_ID = re.compile(r"^[0-9A-Za-z]{22}$")


def _detail_group(name: str) -> str:
    """The ``ItemDetails`` field a stored detail fills (``spotify_album_id`` -> ``spotify_id``)."""
    for prefix in ("spotify_", "musicbrainz_"):
        if name.startswith(prefix):
            return prefix + "id"
    return name


def spotify_url(spotify_id: str | None, kind: str | None, label: str) -> str:
    """The open.spotify.com page of an id of a known ``kind``, else a Spotify search for ``label``.

    Args:
        spotify_id: a Spotify base-62 id (22 characters) or None.
        kind: ``"track"``, ``"album"``, ``"artist"`` or None (unknown).
        label: the entity's name, used for the search URL.

    Returns:
        ``https://open.spotify.com/<kind>/<id>`` when both are valid, else
        ``https://open.spotify.com/search/<label, URL-quoted>``.

    Example:
        >>> spotify_url("4Z8W4fKeB5YxbusRsdQVPb", "artist", "Radiohead")
        'https://open.spotify.com/artist/4Z8W4fKeB5YxbusRsdQVPb'
        >>> spotify_url(None, None, "AC/DC & friends")
        'https://open.spotify.com/search/AC%2FDC%20%26%20friends'
    """
    if spotify_id and kind in SPOTIFY_KINDS and _SPOTIFY_ID.match(spotify_id.strip()):
        return f"https://open.spotify.com/{kind}/{spotify_id.strip()}"
    return "https://open.spotify.com/search/" + quote(label, safe="")


DETAIL_NAMES: tuple[str, ...] = (
    "year",
    "image",
    "trailer",
    "imdb_id",
    "tmdb_id",
    "spotify_id",
    "lastfm_id",
    "discogs_id",
    "openlibrary_id",
    "goodreads_id",
    "musicbrainz_id",
)
"""The ``ItemDetails`` fields filled from detail properties (see ``DomainSchema.details``); the snapshot
stores the Spotify id under ``spotify_<kind>_id`` (kinds: :data:`SPOTIFY_KINDS`), older ones under
``spotify_id``, and the MusicBrainz id under ``musicbrainz_<kind>_id`` (recording, release_group)."""


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
        d = self._details.get(i) or {}
        year = d.get("year")
        spotify_id, spotify_kind = self._spotify(qid, d)
        return ItemDetails(
            qid=QID(qid),
            label=self.label(qid),
            description=self._descriptions.get(i),
            year=int(year) if isinstance(year, int) else None,
            image=d.get("image"),
            trailer=d.get("trailer"),
            imdb_id=d.get("imdb_id"),
            tmdb_id=d.get("tmdb_id"),
            spotify_id=spotify_id,
            spotify_kind=spotify_kind,
            lastfm_id=d.get("lastfm_id"),
            discogs_id=d.get("discogs_id"),
            wikipedia=self._sitelinks.get(i),
            openlibrary_id=d.get("openlibrary_id"),
            goodreads_id=d.get("goodreads_id"),
            musicbrainz_id=d.get("musicbrainz_recording_id") or d.get("musicbrainz_release_group_id"),
            musicbrainz_kind="recording"
            if d.get("musicbrainz_recording_id")
            else "release-group"
            if d.get("musicbrainz_release_group_id")
            else None,
        )

    def _spotify(self, qid: str, d: Mapping[str, Any]) -> tuple[str | None, str | None]:
        """(Spotify id, page kind) of an entity's details; snapshots written before the kinds were
        kept (one ``spotify_id`` field, album id preferred over artist id) give ``album`` for a work
        (it has a performer) and ``artist`` otherwise."""
        for kind in SPOTIFY_KINDS:
            if d.get(f"spotify_{kind}_id"):
                return d[f"spotify_{kind}_id"], kind
        legacy = d.get("spotify_id")
        if not legacy:
            return None, None
        is_work = any(pid == "P175" for pid, _ in self.item_values(qid))
        return legacy, "album" if is_work else "artist"

    def detail_counts(self) -> dict[str, int]:
        """How many items have each detail field (incl. ``description`` and ``wikipedia``)."""
        counts: Counter[str] = Counter()
        n_items = self._n_items
        for i, d in self._details.items():
            if i < n_items:  # property values (an artist's Spotify id) are not counted
                counts.update({_detail_group(k) for k, v in d.items() if v is not None})
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


def pack_file(path: Path) -> Path:
    """The ``kb.pack`` of a snapshot folder (``path`` may also be the pack or the ``kb.json.gz``)."""
    path = Path(path)
    if path.name == PACK_FILE:
        return path
    if path.name.endswith(".json.gz"):
        return path.with_name(PACK_FILE)
    return path / PACK_FILE


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
    "ItemDetails",
    "ItemSet",
    "KnowledgeBase",
    "SnapshotData",
    "load_all",
    "pack_file",
    "read_snapshot",
    "repack",
    "write_snapshot",
]
