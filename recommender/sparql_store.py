"""The embedded SPARQL store: :class:`EmbeddedBackend` over a local pyoxigraph ``Store``.

The store is persisted at a path (``var/kb/store``), bulk-loaded once from an RDF dump (gzip
N-Triples, the offline default) and reused while the dump is unchanged (size + mtime recorded in
``<store>.json``, read back with :func:`store_stamp`). It answers with the rows of
``recommender.sparql_client``.

Example:
    >>> backend = open_embedded(Path("var/kb/store"), Path("wikidata-subset.nt.gz"))  # doctest: +SKIP
    >>> backend.select("SELECT ?s WHERE { ?s ?p ?o } LIMIT 1")                         # doctest: +SKIP
    [{'s': Term(kind='uri', value='http://www.wikidata.org/entity/Q42', lang=None, datatype=None)}]
"""

from __future__ import annotations

import gzip
import json
import logging
import os
import shutil
import time
from pathlib import Path
from typing import Any

from recommender.errors import KnowledgeBaseError
from recommender.sparql_client import XSD_STRING, Row, Term

logger = logging.getLogger(__name__)


class EmbeddedBackend:
    """SPARQL over a local pyoxigraph store (read-only once loaded).

    Attributes:
        description: ``"embedded:<dump or store path>"``, recorded in snapshots.
        batch_size: entities per ``VALUES`` batch (2000: ~50 ms per query on the shared dump).
        page_size: rows per item page.
    """

    def __init__(self, store: Any, *, description: str, batch_size: int = 2000, page_size: int = 50000):
        self._store = store
        self.description = description
        self.batch_size = batch_size
        self.page_size = page_size

    def select(self, query: str) -> list[Row]:
        """Run a SELECT query on the store.

        Raises:
            KnowledgeBaseError: if the query is invalid or the store fails.
        """
        import pyoxigraph as ox

        cache: dict[Any, Term] = {}  # the same IRIs recur in every row (predicates, subjects)
        try:
            result = self._store.query(query)
            names = list(enumerate(v.value for v in result.variables))
            rows: list[Row] = []
            for sol in result:
                row: Row = {}
                for k, name in names:
                    term = sol[k]
                    if term is not None:
                        conv = cache.get(term)
                        if conv is None:
                            conv = cache[term] = _term_from_oxigraph(term, ox)
                        row[name] = conv
                rows.append(row)
        except (SyntaxError, OSError, ValueError, TypeError) as exc:
            raise KnowledgeBaseError(f"embedded SPARQL store failed: {exc.__class__.__name__}: {exc}") from exc
        return rows


def _term_from_oxigraph(term: Any, ox: Any) -> Term:
    if isinstance(term, ox.NamedNode):
        return Term("uri", term.value)
    if isinstance(term, ox.Literal):
        lang = term.language
        datatype = None if lang else term.datatype.value
        if datatype == XSD_STRING:
            datatype = None
        return Term("literal", term.value, lang.lower() if lang else None, datatype)
    if isinstance(term, ox.BlankNode):
        return Term("bnode", term.value)
    return Term("literal", str(term))


def _rdf_format(path: Path, ox: Any) -> Any:
    name = path.name.lower().removesuffix(".gz")
    if name.endswith(".nt"):
        return ox.RdfFormat.N_TRIPLES
    if name.endswith(".ttl"):
        return ox.RdfFormat.TURTLE
    if name.endswith(".nq"):
        return ox.RdfFormat.N_QUADS
    if name.endswith((".rdf", ".xml", ".owl")):
        return ox.RdfFormat.RDF_XML
    raise KnowledgeBaseError(f"unknown RDF format for {path} (expected .nt, .ttl, .nq or .rdf, optionally .gz)")


def _dump_stamp(dump: Path) -> dict[str, Any]:
    st = dump.stat()
    return {"dump": str(dump.resolve()), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def open_embedded(
    store_path: Path, dump: Path | None, *, batch_size: int = 2000, page_size: int = 50000
) -> EmbeddedBackend:
    """Open the embedded store, bulk-loading ``dump`` first if the store is absent or stale.

    The store is loaded into a temporary sibling folder and renamed into place (for a symlinked
    ``store_path``, beside and over the folder it points to, keeping the link), and a stamp
    (``<store_path>.json``: dump path, size, mtime, triple count, load seconds) records what it
    holds; a later call with the same dump reuses the store (opened read-only, so several
    processes can share it).

    Args:
        store_path: the store folder (``var/kb/store``).
        dump: the RDF dump (``.nt``/``.ttl``/``.nq``/``.rdf``, optionally gzip), or None to use the
            store as it is.

    Raises:
        KnowledgeBaseError: if the dump is missing or unreadable, or there is no store and no dump.
    """
    import pyoxigraph as ox

    store_path = Path(store_path)
    if store_path.is_symlink():  # load beside the folder the link points to; the link stays a link
        store_path = store_path.resolve()
    stamp_path = store_path.with_name(store_path.name + ".json")
    if dump is not None:
        dump = Path(dump)
        if not dump.is_file():
            raise KnowledgeBaseError(f"RDF dump not found: {dump} (set CORSBOT_SHARED or pass --dump FILE)")
        wanted = _dump_stamp(dump)
        current = _read_stamp(stamp_path)
        fresh = store_path.is_dir() and current is not None and all(current.get(k) == v for k, v in wanted.items())
        if not fresh:
            _load_store(store_path, stamp_path, dump, wanted, ox)
        description = f"embedded:{dump}"
    else:
        if not store_path.is_dir() or _read_stamp(stamp_path) is None:
            raise KnowledgeBaseError(f"no embedded store at {store_path}; pass a dump to load (--dump FILE)")
        description = f"embedded:{_read_stamp(stamp_path).get('dump', store_path)}"  # type: ignore[union-attr]
    try:
        store = ox.Store.read_only(str(store_path))
    except OSError as exc:
        raise KnowledgeBaseError(f"cannot open the embedded store {store_path}: {exc}") from exc
    return EmbeddedBackend(store, description=description, batch_size=batch_size, page_size=page_size)


def _read_stamp(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _load_store(store_path: Path, stamp_path: Path, dump: Path, stamp: dict[str, Any], ox: Any) -> None:
    fmt = _rdf_format(dump, ox)
    store_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = store_path.with_name(f".{store_path.name}.loading-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    logger.info("loading %s into the embedded store %s", dump, store_path)
    start = time.perf_counter()
    try:
        store = ox.Store(str(tmp))
        opener = gzip.open if dump.name.lower().endswith(".gz") else open
        with opener(dump, "rb") as fh:
            store.bulk_load(fh, format=fmt)
        store.flush()
        n = len(store)
        del store
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise KnowledgeBaseError(f"could not load the RDF dump {dump}: {exc.__class__.__name__}: {exc}") from exc
    except BaseException:  # interrupted: leave no half-loaded store behind
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    seconds = time.perf_counter() - start
    old = store_path.with_name(f".{store_path.name}.old-{os.getpid()}")
    if store_path.exists():
        os.replace(store_path, old)
    os.replace(tmp, store_path)
    shutil.rmtree(old, ignore_errors=True)
    stamp = {**stamp, "triples": n, "load_seconds": round(seconds, 2)}
    stamp_path.write_text(json.dumps(stamp, indent=1), encoding="utf-8")
    logger.info("loaded %d triples in %.1f s", n, seconds)


def store_stamp(store_path: Path) -> dict[str, Any] | None:
    """What the embedded store holds (dump, size, triples, load_seconds), or None if not loaded."""
    return _read_stamp(Path(store_path).with_name(Path(store_path).name + ".json"))
