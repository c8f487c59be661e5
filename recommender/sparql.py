"""SPARQL extraction of the knowledge base, from an embedded store or a remote endpoint.

Two backends answer the *same* SPARQL, written for Wikidata's vocabulary (``wdt:`` direct claims,
``rdfs:label``/``skos:altLabel``/``schema:description`` read directly: no ``SERVICE wikibase:label``,
which Oxigraph lacks):

- :class:`EmbeddedBackend`: a pyoxigraph ``Store`` persisted at a path (``var/kb/store``), bulk-loaded
  once from an RDF dump (gzip N-Triples, the offline default) and reused while the dump is unchanged
  (size + mtime recorded in ``<store>.json``).
- :class:`RemoteBackend`: any SPARQL 1.1 endpoint (query.wikidata.org, ``oxigraph serve``) via
  SPARQLWrapper, POST, JSON results, with a descriptive User-Agent (F15), a client timeout and an
  overall deadline (F18), retries with exponential backoff honouring ``Retry-After`` on 429/503
  (F14), clear errors for 403, HTML/text bodies and wrong JSON shapes (F16), truncated bodies or
  server timeout traces (F17), and rows whose OPTIONAL variables are unbound (F19, read with .get).

:func:`build_snapshot` extracts one domain (see ``recommender.schema``) in pages and batches:

1. class closures: ``?class wdt:P279* ?root`` for the item, excluded and occupation roots;
2. candidate items (typed and labeled in some language), paged with ``LIMIT``/``OFFSET`` (no
   ``ORDER BY``: it costs ~10 s per page in Oxigraph) and checked against a ``COUNT`` so an unstable
   or partial paging is an error;
3. per batch of entities (``VALUES ?e {...}``): names (labels/aliases/descriptions in en/mul, then a
   label in any language for those lacking one), enwiki sitelinks, and for items the claims of the
   edge and detail properties. Items without any label are left out (a user can neither name nor
   be shown them; the dump has 160k unlabeled Discogs/Spotify albums); property values are kept
   even unlabeled (they still connect items);
4. the same names/sitelinks for the property values.

A batch or page whose answer is truncated or timed out is retried once split in halves (F17);
nothing partial is ever written: the snapshot is written atomically at the end
(``recommender.kb.write_snapshot``).

Example:
    >>> backend = open_embedded(Path("var/kb/store"), Path("wikidata-subset.nt.gz"))  # doctest: +SKIP
    >>> build_snapshot(backend, "movie", Path("var/kb/movie")).items                   # doctest: +SKIP
    17207
"""

from __future__ import annotations

import gzip
import http.client
import json
import logging
import math
import os
import re
import shutil
import socket
import time
import urllib.error
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from recommender.errors import (
    BadResponseError,
    EmptySnapshotError,
    EndpointError,
    EndpointTimeoutError,
    KnowledgeBaseError,
    TruncatedResultError,
)
from recommender.kbsnapshot import SnapshotData, snapshot_items, write_snapshot
from recommender.kinds import KindRules, TypeSets, connected_edges, merge_near_duplicates, plain_genre_name
from recommender.schema import WDT, DomainSchema, get_domain, schema_fingerprint

logger = logging.getLogger(__name__)

DEFAULT_MIN_ITEMS = 1
"""Fewest items a built snapshot may have (an empty dump gives 0): fewer is an error, nothing is written."""
DEFAULT_MIN_SHARE_OF_PREVIOUS = 0.5
"""A rebuild must keep at least this share of the existing snapshot's items, or it is refused."""

DEFAULT_USER_AGENT = (
    "corsbot/0.1 (conversational recommender research prototype; "
    "https://github.com/corsbot/corsbot; corsbot-maintainers@example.org) SPARQLWrapper/2"
)
"""Descriptive User-Agent with contact info, as the Wikimedia User-Agent policy requires (F15)."""

PREFIXES = """PREFIX wd: <http://www.wikidata.org/entity/>
PREFIX wdt: <http://www.wikidata.org/prop/direct/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX schema: <http://schema.org/>
"""
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SKOS_ALT = "http://www.w3.org/2004/02/skos/core#altLabel"
SCHEMA_DESC = "http://schema.org/description"
ENWIKI = "https://en.wikipedia.org/"
_SERVER_TRACE = re.compile(rb"java\.util\.concurrent\.TimeoutException|java\.lang\.\w+Exception|QueryTimeoutException")
_QID_IRI = re.compile(r"^http://www\.wikidata\.org/entity/(Q\d+)$")
_YEAR = re.compile(r"^\s*([+-]?\d{1,6})-")
TYPE_PIDS = ("P31", "P106")
"""Properties read to tell an entity's kind (instance of, occupation)."""
VALUE_ROUNDS = 3
"""Rounds of value claims: an item's values, their values (a song's album's performer), and theirs
(that performer's genres)."""


# --------------------------------------------------------------------------------------------
# result rows
# --------------------------------------------------------------------------------------------


class Term(NamedTuple):
    """One bound value of a result row.

    A NamedTuple rather than a frozen slotted dataclass (the project's habit) on purpose: a build
    creates ~10^6 of them and a frozen dataclass's ``__init__`` is several times slower; it is as
    immutable and compares by value the same way.

    Attributes:
        kind: ``"uri"``, ``"literal"`` or ``"bnode"``.
        value: the IRI, lexical form or blank-node id.
        lang: language tag of a literal (lower case) or None.
        datatype: datatype IRI of a typed literal (None for plain / language-tagged strings).
    """

    kind: str
    value: str
    lang: str | None = None
    datatype: str | None = None


Row = dict[str, Term]
"""A result row: variable name -> bound value; unbound variables are absent (read with .get)."""

_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
_RDF_LANGSTRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"


def _term_from_json(obj: Any) -> Term:
    if not isinstance(obj, dict) or "value" not in obj or "type" not in obj:
        raise ValueError(f"binding without type/value: {str(obj)[:80]}")
    kind = obj["type"]
    if kind == "typed-literal":  # SPARQL XML-era JSON variant
        kind = "literal"
    lang = obj.get("xml:lang")
    datatype = obj.get("datatype")
    if datatype in (_XSD_STRING, _RDF_LANGSTRING):
        datatype = None
    return Term(str(kind), str(obj["value"]), lang.lower() if lang else None, datatype)


def parse_sparql_json(body: bytes, content_type: str | None, url: str) -> list[Row]:
    """Parse a SPARQL 1.1 JSON results body into rows, refusing anything that is not one.

    Args:
        body: the raw HTTP body.
        content_type: the ``Content-Type`` header (may be None).
        url: the endpoint, for error messages.

    Returns:
        The rows; an unbound variable is simply absent from its row.

    Raises:
        TruncatedResultError: the JSON is cut off, or the body carries a server exception trace
            (Blazegraph appends ``java.util.concurrent.TimeoutException`` after a 200).
        BadResponseError: an HTML/text body, JSON that is not ``{"head": .., "results": {"bindings": [..]}}``.
    """
    ctype = (content_type or "").lower()
    head = body[:2048].lstrip()
    if _SERVER_TRACE.search(body[-65536:]) or _SERVER_TRACE.search(body[:4096]):
        raise TruncatedResultError(
            url, 200, "the result carries a server exception trace (query timed out server-side)"
        )
    if "html" in ctype or head[:1] == b"<":
        snippet = _snippet(body)
        raise BadResponseError(url, 200, f"HTML body instead of SPARQL results ({snippet!r})")
    try:
        doc = json.loads(body)
    except UnicodeDecodeError as exc:
        raise BadResponseError(url, 200, f"body is not UTF-8 text ({exc})") from exc
    except json.JSONDecodeError as exc:
        if head[:1] in (b"{", b"["):
            raise TruncatedResultError(
                url, 200, f"JSON body cut off or corrupt at char {exc.pos} of {len(body)}"
            ) from exc
        raise BadResponseError(url, 200, f"body is not JSON ({_snippet(body)!r})") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("head"), dict):
        raise BadResponseError(url, 200, "JSON without a 'head' object: not a SPARQL result")
    results = doc.get("results")
    bindings = results.get("bindings") if isinstance(results, dict) else None
    if not isinstance(bindings, list):
        raise BadResponseError(url, 200, "JSON without 'results.bindings': not a SPARQL SELECT result")
    rows: list[Row] = []
    try:
        for b in bindings:
            if not isinstance(b, dict):
                raise ValueError("a binding row is not an object")
            rows.append({k: _term_from_json(v) for k, v in b.items()})
    except ValueError as exc:
        raise BadResponseError(url, 200, str(exc)) from exc
    return rows


def _snippet(body: bytes, n: int = 80) -> str:
    text = body[:400].decode("utf-8", "replace")
    text = re.sub(r"<[^>]*>", " ", text)
    return " ".join(text.split())[:n]


# --------------------------------------------------------------------------------------------
# backends
# --------------------------------------------------------------------------------------------


class Backend(Protocol):
    """Something that answers SPARQL SELECT queries with rows."""

    description: str
    batch_size: int
    page_size: int

    def select(self, query: str) -> list[Row]:
        """Run a SELECT query; raises ``KnowledgeBaseError`` (or a subclass) on failure."""
        ...


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
        if datatype == _XSD_STRING:
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


class RemoteBackend:
    """SPARQL over HTTP with SPARQLWrapper (POST, JSON results), robust to a busy or odd endpoint.

    Attributes:
        url: the endpoint.
        description: ``"remote:<url>"``.
        batch_size: entities per ``VALUES`` batch (200: modest queries for a public endpoint).
        page_size: rows per item page (10000).
        queries: number of HTTP requests sent (retries included).
    """

    def __init__(
        self,
        url: str,
        *,
        timeout_s: float = 60.0,
        deadline_s: float = 300.0,
        user_agent: str = DEFAULT_USER_AGENT,
        max_retries: int = 4,
        backoff_s: float = 2.0,
        max_wait_s: float = 120.0,
        batch_size: int = 200,
        page_size: int = 10000,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ):
        """Configure the client.

        Args:
            url: endpoint URL, e.g. ``https://query.wikidata.org/sparql`` or ``http://127.0.0.1:7878/query``.
            timeout_s: socket timeout of one request (seconds).
            deadline_s: overall time allowed for one query including retries (seconds).
            user_agent: the User-Agent header (F15).
            max_retries: retries after a 429/502/503/504 or a network error.
            backoff_s: first backoff (doubled per retry) when no ``Retry-After`` is given.
            max_wait_s: longest single wait; a longer ``Retry-After`` fails at once with the wait.
            sleep: the sleep function (tests pass a recorder).
            clock: the monotonic clock of the deadline (tests pass a fake one with ``sleep``).
        """
        self.url = url
        self.description = f"remote:{url}"
        self.timeout_s = timeout_s
        self.deadline_s = deadline_s
        self.user_agent = user_agent
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.max_wait_s = max_wait_s
        self.batch_size = batch_size
        self.page_size = page_size
        self.queries = 0
        self._sleep = sleep
        self._clock = clock

    def select(self, query: str) -> list[Row]:
        """Run a SELECT query, retrying rate limits and transient failures.

        Raises:
            EndpointError: 403 (with a hint about the User-Agent policy), other HTTP errors, an
                unreachable endpoint after the retries, or a ``Retry-After`` beyond ``max_wait_s``.
            EndpointTimeoutError: no answer within ``timeout_s`` / ``deadline_s``.
            BadResponseError / TruncatedResultError: see :func:`parse_sparql_json`.
        """
        start = self._clock()
        attempt = 0
        while True:
            try:
                body, ctype = self._fetch(query)
                return parse_sparql_json(body, ctype, self.url)
            except EndpointError as exc:
                retryable = exc.status in (429, 502, 503, 504) or (
                    exc.status is None and not isinstance(exc, EndpointTimeoutError)
                )
                if not retryable or attempt >= self.max_retries:
                    raise
                wait = exc.retry_after_s if exc.retry_after_s is not None else self.backoff_s * (2**attempt)
                if wait > self.max_wait_s:
                    raise
                if self._clock() - start + wait > self.deadline_s:
                    raise EndpointTimeoutError(
                        self.url,
                        exc.status,
                        f"gave up after {attempt + 1} attempts within the {self.deadline_s:g} s deadline ({exc.reason})",
                    ) from exc
                attempt += 1
                logger.warning("%s; retry %d/%d in %.1f s", exc, attempt, self.max_retries, wait)
                self._sleep(wait)

    def check(self) -> float:
        """Start-up self-check (F15): one trivial SELECT; returns its round-trip time in seconds.

        Raises:
            EndpointError: as :meth:`select` (403 policy refusals, HTML notices, unreachable ...).
        """
        start = time.monotonic()
        rows = self.select(PREFIXES + "SELECT ?film WHERE { VALUES ?film { wd:Q83495 } }")
        if len(rows) != 1 or rows[0].get("film") is None:
            raise BadResponseError(self.url, 200, "the self-check query returned an unexpected result")
        return time.monotonic() - start

    def _fetch(self, query: str) -> tuple[bytes, str | None]:
        from SPARQLWrapper import JSON, POST, SPARQLWrapper
        from SPARQLWrapper.SPARQLExceptions import SPARQLWrapperException

        self.queries += 1
        sw = SPARQLWrapper(self.url, agent=self.user_agent)
        sw.setQuery(query)
        sw.setMethod(POST)
        sw.setReturnFormat(JSON)
        sw.setOnlyConneg(True)
        sw.setTimeout(max(1, math.ceil(self.timeout_s)))
        try:
            result = sw.query()
            response = result.response
            try:
                body = response.read()
            except http.client.IncompleteRead as exc:
                raise TruncatedResultError(
                    self.url, 200, f"connection closed mid-body (IncompleteRead after {len(exc.partial)} bytes)"
                ) from exc
            info = response.info()
            return body, info.get("Content-Type") if info is not None else None
        except urllib.error.HTTPError as exc:
            raise self._http_error(exc) from exc
        except SPARQLWrapperException as exc:
            raise self._wrapper_error(exc) from exc
        except TimeoutError as exc:
            raise EndpointTimeoutError(self.url, None, f"no answer within {self.timeout_s:g} s") from exc
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, (TimeoutError, socket.timeout)):
                raise EndpointTimeoutError(self.url, None, f"no answer within {self.timeout_s:g} s") from exc
            raise EndpointError(self.url, None, f"cannot reach the endpoint ({exc.reason})") from exc
        except (ConnectionError, http.client.HTTPException, OSError) as exc:
            raise EndpointError(self.url, None, f"connection failed ({exc.__class__.__name__}: {exc})") from exc

    def _http_error(self, exc: urllib.error.HTTPError) -> EndpointError:
        status = exc.code
        retry_after = parse_retry_after(exc.headers.get("Retry-After") if exc.headers else None)
        try:
            snippet = _snippet(exc.read() or b"")
        except (OSError, http.client.HTTPException):
            snippet = ""
        if status == 403:
            reason = "forbidden: the endpoint refused the request (User-Agent policy or a ban); " + snippet
        elif status == 429:
            reason = "too many requests: the knowledge base is busy"
        elif status in (502, 503, 504):
            reason = "service unavailable: " + snippet
        else:
            reason = snippet or (exc.reason or "")
        if status != 504 and "TimeoutException" in snippet:
            return EndpointTimeoutError(self.url, status, reason.strip(), retry_after_s=retry_after)
        return EndpointError(self.url, status, reason.strip(), retry_after_s=retry_after)

    def _wrapper_error(self, exc: Exception) -> EndpointError:
        from SPARQLWrapper.SPARQLExceptions import (
            EndPointInternalError,
            EndPointNotFound,
            QueryBadFormed,
            Unauthorized,
            URITooLong,
        )

        text = " ".join(str(exc).split())[:200]
        if isinstance(exc, EndPointInternalError):
            if "TimeoutException" in text or "timeout" in text.lower():
                return EndpointTimeoutError(self.url, 500, "query timed out on the server")
            return EndpointError(self.url, 500, f"server error: {text}")
        statuses: dict[type[Exception], int] = {
            QueryBadFormed: 400,
            Unauthorized: 401,
            EndPointNotFound: 404,
            URITooLong: 414,
        }
        status = statuses.get(type(exc))
        return EndpointError(self.url, status, text)


def parse_retry_after(value: str | None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or HTTP date), None if absent/bad."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


# --------------------------------------------------------------------------------------------
# queries
# --------------------------------------------------------------------------------------------


def _values(var: str, qids: Iterable[str]) -> str:
    return f"VALUES ?{var} {{ " + " ".join(f"wd:{q}" for q in qids) + " }"


def query_class_closure(roots: Sequence[str]) -> str:
    """Classes in the ``wdt:P279*`` closure of ``roots`` (roots included)."""
    return PREFIXES + f"SELECT DISTINCT ?class WHERE {{ {_values('root', roots)} ?class wdt:P279* ?root . }}"


_HAS_LABEL = "FILTER EXISTS { ?item rdfs:label ?anyLabel }"


def query_typed(classes: Sequence[str], pid: str, *, limit: int, offset: int) -> str:
    """One page of labeled entities (any language) with ``wdt:<pid>`` (P31 or P106) in ``classes``."""
    return PREFIXES + (
        f"SELECT DISTINCT ?item WHERE {{ {_values('class', classes)} ?item wdt:{pid} ?class . {_HAS_LABEL} }} "
        f"LIMIT {limit} OFFSET {offset}"
    )


def query_typed_count(classes: Sequence[str], pid: str, *, labeled: bool = True) -> str:
    """Number of (labeled) entities with ``wdt:<pid>`` in ``classes`` (checks the paging)."""
    having = _HAS_LABEL if labeled else ""
    return (
        PREFIXES
        + f"SELECT (COUNT(DISTINCT ?item) AS ?n) WHERE {{ {_values('class', classes)} ?item wdt:{pid} ?class . {having} }}"
    )


def query_texts(qids: Sequence[str]) -> str:
    """English/``mul`` labels, aliases and descriptions of ``qids``."""
    return PREFIXES + (
        f"SELECT ?e ?p ?text WHERE {{ {_values('e', qids)} ?e ?p ?text . "
        "FILTER(?p IN (rdfs:label, skos:altLabel, schema:description)) "
        'FILTER(LANG(?text) IN ("en", "mul")) }'
    )


def query_any_labels(qids: Sequence[str]) -> str:
    """Labels of ``qids`` in any language (for entities with no en/mul label)."""
    return PREFIXES + f"SELECT ?e ?label WHERE {{ {_values('e', qids)} ?e rdfs:label ?label . }}"


def query_sitelinks(qids: Sequence[str]) -> str:
    """English Wikipedia article of each of ``qids``; ``?article`` is unbound when there is none."""
    return PREFIXES + (
        f"SELECT ?e ?article WHERE {{ {_values('e', qids)} "
        f"OPTIONAL {{ ?article schema:about ?e ; schema:isPartOf <{ENWIKI}> . }} }}"
    )


def query_claims(qids: Sequence[str], pids: Sequence[str]) -> str:
    """Direct claims of ``qids`` for the properties ``pids``."""
    plist = ", ".join(f"wdt:{p}" for p in pids)
    return PREFIXES + f"SELECT ?e ?p ?value WHERE {{ {_values('e', qids)} ?e ?p ?value . FILTER(?p IN ({plist})) }}"


def query_reverse_claims(qids: Sequence[str], pids: Sequence[str]) -> str:
    """Direct claims ``?e pid q`` whose *value* is one of ``qids`` (a band's members: ``?e wdt:P463 band``)."""
    plist = ", ".join(f"wdt:{p}" for p in pids)
    return PREFIXES + f"SELECT ?e ?p ?value WHERE {{ {_values('value', qids)} ?e ?p ?value . FILTER(?p IN ({plist})) }}"


# --------------------------------------------------------------------------------------------
# build
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What one ``build_snapshot`` call extracted and wrote.

    Attributes:
        domain: the domain.
        path: the written ``kb.json.gz``.
        items: recommendable items (labeled).
        values: other property values.
        edges: (item, property, value) claims.
        labels: entities with a label.
        aliases: alias strings.
        dropped_unlabeled: typed entities left out for lack of any label (counted per typing
            property, so an entity typed both ways may count twice).
        queries: SPARQL queries run (retries of split batches included).
        seconds: wall time of the extraction and write.
        size_bytes: size of the written file.
    """

    domain: str
    path: Path
    items: int
    values: int
    edges: int
    labels: int
    aliases: int
    dropped_unlabeled: int
    queries: int
    seconds: float
    size_bytes: int


def _qid(term: Term | None) -> str | None:
    if term is None or term.kind != "uri":
        return None
    m = _QID_IRI.match(term.value)
    return m.group(1) if m else None


def _pid(term: Term | None) -> str | None:
    if term is None or term.kind != "uri" or not term.value.startswith(WDT):
        return None
    return term.value[len(WDT) :]


def _year(value: str) -> int | None:
    m = _YEAR.match(value)
    return int(m.group(1)) if m else None


class _Extractor:
    """One domain's extraction run (state shared by the steps of :func:`build_snapshot`)."""

    def __init__(self, backend: Backend, schema: DomainSchema, *, progress: bool):
        self.backend = backend
        self.schema = schema
        self.progress = progress
        self.queries = 0
        self.unlabeled = 0
        self.data = SnapshotData(domain=schema.name, source=backend.description)
        self._detail_by_pid: dict[str, list[tuple[int, str, str]]] = {}
        for rank, f in enumerate(schema.details):
            self._detail_by_pid.setdefault(f.pid, []).append((rank, f.name, f.kind))
        self._detail_rank: dict[tuple[str, str], int] = {}
        self._labels_any: dict[str, list[tuple[str, str]]] = {}
        self.types: dict[str, tuple[dict[str, None], dict[str, None]]] = {}  # qid -> (P31 set, P106 set)

    def select(self, query: str) -> list[Row]:
        self.queries += 1
        return self.backend.select(query)

    def _bar(self, total: int, desc: str) -> Any:
        from tqdm import tqdm

        return tqdm(
            total=total,
            desc=f"{self.schema.name}: {desc}",
            unit="ent",
            disable=not self.progress,
            leave=False,
            mininterval=0.5,
        )

    def batched(
        self,
        qids: Sequence[str],
        make_query: Callable[[Sequence[str]], str],
        handle: Callable[[list[Row]], None],
        desc: str,
    ) -> None:
        """Run ``make_query`` over batches of ``qids``, splitting a batch that times out / truncates."""
        size = max(1, self.backend.batch_size)
        with self._bar(len(qids), desc) as bar:
            for start in range(0, len(qids), size):
                batch = qids[start : start + size]
                handle(self._select_split(batch, make_query, depth=0))
                bar.update(len(batch))

    def _select_split(self, batch: Sequence[str], make_query: Callable[[Sequence[str]], str], depth: int) -> list[Row]:
        try:
            return self.select(make_query(batch))
        except (TruncatedResultError, EndpointTimeoutError) as exc:
            if len(batch) <= 1 or depth >= 1:
                raise
            logger.warning("%s; retrying as two smaller queries of %d entities", exc, len(batch) // 2)
            half = len(batch) // 2
            return self._select_split(batch[:half], make_query, depth + 1) + self._select_split(
                batch[half:], make_query, depth + 1
            )

    # -- steps --

    def closure(self, roots: Sequence[str]) -> set[str]:
        if not roots:
            return set()
        return {q for r in self.select(query_class_closure(roots)) if (q := _qid(r.get("class")))}

    def count(self, query: str) -> int:
        rows = self.select(query)
        term = rows[0].get("n") if rows else None
        try:
            return int(term.value) if term is not None else -1
        except ValueError:
            return -1

    def typed(self, classes: Sequence[str], pid: str, *, count_unlabeled: bool = False) -> set[str]:
        """Labeled entities typed with ``pid`` in ``classes``, paged, checked against a COUNT."""
        if not classes:
            return set()
        found: set[str] = set()
        seen: set[str] = set()  # every subject IRI paged (the COUNT also counts non-Q subjects)
        page = max(1, self.backend.page_size)
        offset = 0
        with self._bar(0, f"{pid} items") as bar:
            while True:
                try:
                    rows = self.select(query_typed(classes, pid, limit=page, offset=offset))
                except (TruncatedResultError, EndpointTimeoutError) as exc:
                    if page <= 1000:
                        raise
                    page //= 2
                    logger.warning("%s; retrying with pages of %d", exc, page)
                    continue
                for r in rows:
                    term = r.get("item")
                    if term is not None:
                        seen.add(term.value)
                        if (q := _qid(term)) is not None:
                            found.add(q)
                bar.update(len(rows))
                if len(rows) < page:
                    break
                offset += page
        expected = self.count(query_typed_count(classes, pid))
        if expected < 0:
            raise KnowledgeBaseError(f"{self.schema.name}: the endpoint gave no usable COUNT for the {pid} items")
        if expected != len(seen):
            raise KnowledgeBaseError(
                f"{self.schema.name}: paging returned {len(seen)} distinct entities typed with {pid} but the "
                f"endpoint counts {expected}; a page was lost or reordered, refusing to build from a partial result"
            )
        if count_unlabeled:
            self.unlabeled += max(0, self.count(query_typed_count(classes, pid, labeled=False)) - expected)
        return found

    def texts(self, qids: Sequence[str]) -> None:
        data = self.data
        labels: dict[str, tuple[str, str]] = {}
        descs: dict[str, tuple[int, str]] = {}

        def handle(rows: list[Row]) -> None:
            for r in rows:
                e, p, t = _qid(r.get("e")), r.get("p"), r.get("text")
                if e is None or p is None or t is None:
                    continue
                lang = t.lang or ""
                if p.value == RDFS_LABEL:
                    old = labels.get(e)
                    # en > mul; among equals the smallest text (deterministic whatever the row order)
                    if old is None or (lang != old[1] and lang == "en") or (lang == old[1] and t.value < old[0]):
                        labels[e] = (t.value, lang)
                elif p.value == SKOS_ALT:
                    data.aliases.setdefault(e, set()).add(t.value)
                elif p.value == SCHEMA_DESC:
                    cand = (0 if lang == "en" else 1, t.value)
                    if e not in descs or cand < descs[e]:
                        descs[e] = cand

        self.batched(qids, query_texts, handle, "names")
        data.descriptions.update({q: text for q, (_, text) in descs.items()})
        missing = [q for q in qids if q not in labels]
        if missing:

            def handle_any(rows: list[Row]) -> None:
                for r in rows:
                    e, t = _qid(r.get("e")), r.get("label")
                    if e is None or t is None:
                        continue
                    cand = (t.value, t.lang or "")
                    old = labels.get(e)
                    if old is None or (cand[1], cand[0]) < (old[1], old[0]):
                        labels[e] = cand

            self.batched(missing, query_any_labels, handle_any, "labels (any language)")
        data.labels.update(labels)
        for q, aliases in list(data.aliases.items()):
            lab = data.labels.get(q)
            if lab is not None:
                aliases.discard(lab[0])

    def sitelinks(self, qids: Sequence[str]) -> None:
        def handle(rows: list[Row]) -> None:
            for r in rows:
                e, art = _qid(r.get("e")), r.get("article")
                if e is None or art is None or art.kind != "uri":
                    continue
                old = self.data.sitelinks.get(e)
                if old is None or art.value < old:
                    self.data.sitelinks[e] = art.value

        self.batched(qids, query_sitelinks, handle, "sitelinks")

    def claims(self, items: Sequence[str]) -> None:
        """Item claims: edges of the properties read from items, details, and types (P31/P106)."""
        edge_pids = set(self.schema.item_edge_pids)
        pids = list(self.schema.item_edge_pids) + [p for p in self._detail_by_pid if p not in edge_pids]
        pids += [p for p in TYPE_PIDS if p not in pids]

        def handle(rows: list[Row]) -> None:
            for r in rows:
                e, p, v = _qid(r.get("e")), _pid(r.get("p")), r.get("value")
                if e is None or p is None or v is None:
                    continue
                if p in TYPE_PIDS:
                    self._type(e, p, v)
                    continue
                if p in edge_pids:
                    value = _qid(v)
                    if value is not None:
                        self.data.edges.add((e, p, value))
                for rank, name, kind in self._detail_by_pid.get(p, ()):
                    self._detail(e, rank, name, kind, v)

        self.batched(items, lambda b: query_claims(b, pids), handle, "claims")

    def _type(self, qid: str, pid: str, term: Term) -> None:
        value = _qid(term)
        if value is not None:
            self.types.setdefault(qid, ({}, {}))[0 if pid == "P31" else 1][value] = None

    def value_claims(
        self, qids: Sequence[str], pids: Sequence[str], *, reverse: bool = False
    ) -> set[tuple[str, str, str]]:
        """Types, detail fields and claims of ``pids`` of ``qids`` (``reverse``: claims ``?x pid q`` of
        ``pids`` instead, nothing else)."""
        found: set[tuple[str, str, str]] = set()
        wanted = set(pids)
        if reverse:

            def handle_reverse(rows: list[Row]) -> None:
                for r in rows:
                    e, p, v = _qid(r.get("e")), _pid(r.get("p")), _qid(r.get("value"))
                    if e is not None and p in wanted and v is not None:
                        found.add((e, p, v))

            self.batched(qids, lambda b: query_reverse_claims(b, list(pids)), handle_reverse, "value claims (reverse)")
            return found
        all_pids = list(dict.fromkeys([*TYPE_PIDS, *pids, *self._detail_by_pid]))

        def handle(rows: list[Row]) -> None:
            for r in rows:
                e, p, v = _qid(r.get("e")), _pid(r.get("p")), r.get("value")
                if e is None or p is None or v is None:
                    continue
                if p in TYPE_PIDS:
                    self._type(e, p, v)
                    continue
                if p in wanted and (value := _qid(v)) is not None:
                    found.add((e, p, value))
                for rank, name, kind in self._detail_by_pid.get(p, ()):
                    self._detail(e, rank, name, kind, v)

        self.batched(qids, lambda b: query_claims(b, all_pids), handle, "types and value claims")
        return found

    def type_sets(self, qid: str) -> TypeSets | None:
        got = self.types.get(qid)
        return None if got is None else TypeSets(frozenset(got[0]), frozenset(got[1]))

    def _detail(self, qid: str, rank: int, name: str, kind: str, term: Term) -> None:
        if kind == "date":
            value: Any = _year(term.value)
        elif kind == "url":
            value = term.value if term.kind == "uri" else None
        else:
            value = term.value if term.kind == "literal" else None
        if value is None:
            return
        details = self.data.details.setdefault(qid, {})
        key = (qid, name)
        old_rank = self._detail_rank.get(key)
        old = details.get(name)
        if old_rank is None or rank < old_rank or (rank == old_rank and value < old):
            details[name] = value
            self._detail_rank[key] = rank


def item_classes(ex: _Extractor, roots: Sequence[str], excluded: set[str]) -> set[str]:
    """The classes whose instances are items: ``roots``, their subclasses not under another
    domain's roots (``excluded``, a closure), and every subclass of a root that is itself under
    another domain's roots (the dump makes ``song`` a ``literary work``: music keeps song's
    subclasses, book drops them)."""
    own = set(roots)
    inside = own & excluded
    return own | (ex.closure(sorted(own)) - excluded) | ex.closure(sorted(inside))


def kind_rules(ex: _Extractor, schema: DomainSchema, excluded: set[str]) -> KindRules:
    """The domain's :class:`~recommender.kinds.KindRules` with class closures from the backend (item
    kinds use the item-class closure minus another domain's classes, as the candidates do)."""
    classes: dict[str, set[str]] = {}
    occupations: dict[str, set[str]] = {}
    for kind in schema.kinds:
        if kind.classes:
            classes[kind.name] = (
                item_classes(ex, kind.classes, excluded) if kind.item else ex.closure(sorted(kind.classes))
            )
        if kind.occupations:
            occupations[kind.name] = ex.closure(sorted(kind.occupations))
    return KindRules(schema, classes, occupations)


def _endpoints(edges: Iterable[tuple[str, str, str]]) -> set[str]:
    out: set[str] = set()
    for s, _p, v in edges:
        out.add(s)
        out.add(v)
    return out


def _choose_items(ex: _Extractor, rules: KindRules, labeled: Sequence[str]) -> None:
    """Items = labeled candidates whose kind is an item kind (kind rules of ``recommender.kinds``);
    the claims of the others are dropped (they may come back as property values)."""
    schema = ex.schema
    data = ex.data
    forced: dict[str, str] = {}
    for _s, p, v in data.edges:
        edge = schema.edge(p)
        if edge is not None and edge.forced_kind:
            forced[v] = edge.forced_kind
    item_kinds = set(schema.item_kinds)
    items: set[str] = set()
    for q in labeled:
        kind = rules.by_type(ex.type_sets(q), data.descriptions.get(q))
        name = forced.get(q) if (kind is None or kind.item) and q in forced else (kind.name if kind else None)
        if name is None and not item_kinds:
            continue
        if name is None or name in item_kinds:
            items.add(q)
            data.kinds[q] = name or schema.item_kinds[0]
    dropped = len(labeled) - len(items)
    if dropped:
        logger.info("%s: %d typed candidates are not items by the kind rules", schema.name, dropped)
    data.items = items
    data.edges = {e for e in data.edges if e[0] in items}
    # what each item is typed as, and what those classes stand for: the audit re-checks the kinds
    for q in items:
        types = ex.type_sets(q)
        if types is not None and types.p31:
            data.classes[q] = tuple(sorted(types.p31, key=lambda c: (len(c), c)))
    data.class_kinds = rules.class_kinds({c for cs in data.classes.values() for c in cs})


def _value_rounds(ex: _Extractor, rules: KindRules, declared: Mapping[str, Iterable[str]]) -> None:
    """Kinds and value claims of the property values, round by round (:data:`VALUE_ROUNDS`), then the
    edges whose value kind the property does not accept are dropped, and what no item reaches.

    The values of a declared type (``declared``: QID -> roles; a musician no song names) are in the
    first round too, so their own claims (the artist's genres) can connect them to the items."""
    schema, data = ex.schema, ex.data
    claim_pids = sorted({p for k in schema.kinds for p in k.claims})
    reverse_kinds = {k.name: k.reverse_claims for k in schema.kinds if k.reverse_claims}
    claims_of = {k.name: set(k.claims) for k in schema.kinds}
    known = set(data.items)
    frontier = sorted((_endpoints(data.edges) | set(declared)) - known, key=lambda q: int(q[1:]))
    for round_no in range(VALUE_ROUNDS + 1):
        if not frontier:
            break
        last = round_no == VALUE_ROUNDS
        found = ex.value_claims(frontier, [] if last else claim_pids)
        in_pids: dict[str, list[str]] = {}
        out_pids: dict[str, list[str]] = {}
        for s, p, v in data.edges:
            in_pids.setdefault(v, []).append(p)
            out_pids.setdefault(s, []).append(p)
        for q in frontier:
            roles = [*in_pids.get(q, ()), *sorted(declared.get(q, ()))]
            kind = rules.of_value(ex.type_sets(q), roles, out_pids.get(q, ()))
            if kind is not None:
                data.kinds[q] = kind
        known.update(frontier)
        if last:
            break
        new = {e for e in found if e[1] in claims_of.get(data.kinds.get(e[0], ""), ())}
        for kind_name, pids in reverse_kinds.items():
            qs = [q for q in frontier if data.kinds.get(q) == kind_name]
            if qs:
                new |= ex.value_claims(qs, list(pids), reverse=True)
        data.edges |= new
        frontier = sorted(_endpoints(new) - known, key=lambda q: int(q[1:]))
    kinds = data.kinds
    kept = set()
    for e in data.edges:
        prop = schema.edge(e[1])
        if prop is None or prop.accepts(kinds.get(e[2])):
            kept.add(e)
    if len(kept) < len(data.edges):
        logger.info(
            "%s: %d edges dropped (value of a kind the property does not accept)",
            schema.name,
            len(data.edges) - len(kept),
        )
    data.edges = connected_edges(data.items, kept)


def _merge_genres(ex: _Extractor) -> None:
    """Near-duplicate genres become one (``recommender.kinds.merge_near_duplicates``); every genre
    name loses another domain's medium word ("romance film" is "romance" among books)."""
    data = ex.data
    domain = ex.schema.name
    genres = [q for q, k in data.kinds.items() if k == "genre"]
    labels = {q: data.labels[q][0] for q in genres if q in data.labels}
    uses: dict[str, int] = {}
    for _s, _p, v in data.edges:
        uses[v] = uses.get(v, 0) + 1
    merged = merge_near_duplicates(domain, genres, labels, uses)
    if merged:
        data.edges = {(s, p, merged.get(v, v)) for s, p, v in data.edges}
        for old, new in merged.items():
            names = data.aliases.setdefault(new, set())
            names.add(labels[old])
            names.update(data.aliases.get(old, ()))
            if old in data.declared_roles:
                data.declared_roles.setdefault(new, set()).update(data.declared_roles.pop(old))
        data.merged.update(merged)
        logger.info("%s: %d near-duplicate genres merged", domain, len(merged))
    for q in genres:
        if q in merged or q not in data.labels:
            continue
        label, lang = data.labels[q]
        plain = plain_genre_name(label, domain)
        if plain != label:
            data.labels[q] = (plain, lang)
            data.aliases.setdefault(q, set()).add(label)
    for q in genres:
        if q in data.aliases and q in data.labels:
            data.aliases[q].discard(data.labels[q][0])


def build_snapshot(
    backend: Backend,
    domain: str,
    out_path: Path,
    *,
    progress: bool = True,
    built_at: str | None = None,
    min_items: int = DEFAULT_MIN_ITEMS,
    min_share_of_previous: float = DEFAULT_MIN_SHARE_OF_PREVIOUS,
) -> BuildReport:
    """Extract one domain from ``backend`` and write its snapshot atomically.

    Args:
        backend: an :class:`EmbeddedBackend` or :class:`RemoteBackend`.
        domain: ``"movie"``, ``"book"`` or ``"music"``.
        out_path: the snapshot folder (``var/kb/<domain>``).
        progress: show tqdm progress bars on stderr.
        built_at: timestamp recorded in the snapshot (default now; fixed in tests).
        min_items: fewest items a usable snapshot has; fewer (e.g. 0 from an empty dump) raises
            :class:`EmptySnapshotError` and writes nothing.
        min_share_of_previous: when a snapshot already exists at ``out_path``, the new one must have
            at least this share of its items (0 disables): a build that shrinks a good snapshot to a
            fraction of it (a truncated dump, the wrong endpoint) raises instead of replacing it.

    Returns:
        The counts, timing and size of what was written.

    Raises:
        EmptySnapshotError: too few items (see ``min_items``, ``min_share_of_previous``); the
            previous snapshot at ``out_path`` is left untouched.
        KnowledgeBaseError (or an ``EndpointError`` subclass): if any query fails; the message says
            what failed and the previous snapshot at ``out_path`` is left untouched.
    """
    schema = get_domain(domain)
    start = time.perf_counter()
    ex = _Extractor(backend, schema, progress=progress)
    try:
        excluded = ex.closure(schema.excluded_classes)
        classes = sorted(item_classes(ex, schema.item_classes, excluded))
        occupations = sorted(ex.closure(schema.item_occupations))
        candidates = ex.typed(classes, "P31", count_unlabeled=True) | ex.typed(
            occupations, "P106", count_unlabeled=True
        )
        logger.info(
            "%s: %d classes, %d occupations, %d typed candidates",
            domain,
            len(classes),
            len(occupations),
            len(candidates),
        )
        ordered = sorted(candidates, key=lambda q: int(q[1:]))
        ex.texts(ordered)
        labeled = [q for q in ordered if q in ex.data.labels]
        n_labeled = len(labeled)
        ex.claims(labeled)
        rules = kind_rules(ex, schema, excluded)
        _choose_items(ex, rules, labeled)
        ex.sitelinks(sorted(ex.data.items, key=lambda q: int(q[1:])))
        declared: dict[str, set[str]] = {}
        for vt in schema.value_types:
            vt_classes = sorted(item_classes(ex, vt.roots, excluded))
            for q in ex.typed(vt_classes, vt.via):
                if q not in ex.data.items:
                    declared.setdefault(q, set()).add(vt.role)
        _value_rounds(ex, rules, declared)
        linked = _endpoints(ex.data.edges) - ex.data.items
        values = sorted(linked | set(declared), key=lambda q: int(q[1:]))
        ex.texts([q for q in values if q not in ex.data.labels])
        # values of a declared type are kept without an edge only if they have a name
        ex.data.declared_roles = {q: r for q, r in declared.items() if q in linked or q in ex.data.labels}
        for q, roles in list(ex.data.declared_roles.items()):
            if q not in ex.data.kinds:
                kind = rules.of_value(ex.type_sets(q), sorted(roles))
                if kind is not None:
                    ex.data.kinds[q] = kind
            # a label with a musician occupation is declared a performer too: not by the kind rules
            fitting = {p for p in roles if (e := schema.edge(p)) is None or e.accepts(ex.data.kinds.get(q))}
            if fitting:
                ex.data.declared_roles[q] = fitting
            else:
                del ex.data.declared_roles[q]
        _merge_genres(ex)
        linked = _endpoints(ex.data.edges) - ex.data.items
        values = sorted(linked | set(ex.data.declared_roles), key=lambda q: int(q[1:]))
        ex.sitelinks(values)
    except KnowledgeBaseError as exc:
        raise _with_context(exc, domain, out_path) from exc
    # drop names gathered for unlabeled candidates that are not values either
    keep = ex.data.items | _endpoints(ex.data.edges) | set(ex.data.declared_roles)
    for table in (
        ex.data.labels,
        ex.data.aliases,
        ex.data.descriptions,
        ex.data.sitelinks,
        ex.data.details,
        ex.data.kinds,
    ):
        for q in [q for q in table if q not in keep]:
            del table[q]
    _check_not_empty(
        domain, len(ex.data.items), out_path, min_items=min_items, min_share_of_previous=min_share_of_previous
    )
    file = write_snapshot(ex.data, out_path, built_at=built_at)
    report = BuildReport(
        domain=domain,
        path=file,
        items=len(ex.data.items),
        values=len(keep - ex.data.items),
        edges=len(ex.data.edges),
        labels=len(ex.data.labels),
        aliases=sum(len(a) for a in ex.data.aliases.values()),
        dropped_unlabeled=ex.unlabeled + len(candidates) - n_labeled,
        queries=ex.queries,
        seconds=time.perf_counter() - start,
        size_bytes=file.stat().st_size,
    )
    logger.info("%s", report)
    return report


def _check_not_empty(domain: str, items: int, out_path: Path, *, min_items: int, min_share_of_previous: float) -> None:
    """Raise :class:`EmptySnapshotError` if ``items`` is too few to replace what is at ``out_path``."""
    # a snapshot of another schema (items redefined) is no yardstick: only the minimum applies
    previous = snapshot_items(out_path, schema=schema_fingerprint(domain)) if min_share_of_previous > 0 else None
    needed = max(min_items, math.ceil(previous * min_share_of_previous) if previous else 0)
    if items >= needed:
        return
    kept = f"the previous snapshot ({previous} items) is kept" if previous is not None else "no snapshot was written"
    if previous and items >= min_items:
        why = (
            f"only {items} items, under {min_share_of_previous:.0%} of the {previous} of the existing snapshot "
            "(truncated dump or wrong endpoint?)"
        )
    else:
        why = f"{items} items (at least {min_items} needed): the dump or endpoint has no {domain} data"
    raise EmptySnapshotError(
        f"building the {domain} knowledge base found {why}; {kept}", domain=domain, items=items, needed=needed
    )


def _with_context(exc: KnowledgeBaseError, domain: str, out_path: Path) -> KnowledgeBaseError:
    """The same error kind with the domain and 'previous snapshot kept' added to its message."""
    kept = "the previous snapshot is kept" if Path(out_path).exists() else "no snapshot was written"
    message = f"building the {domain} knowledge base failed: {exc}; {kept}"
    if isinstance(exc, EndpointError):
        new: KnowledgeBaseError = type(exc)(exc.url, exc.status, exc.reason, retry_after_s=exc.retry_after_s)
        new.args = (message,)
        return new
    return type(exc)(message)


__all__ = [
    "DEFAULT_USER_AGENT",
    "Backend",
    "BuildReport",
    "EmbeddedBackend",
    "RemoteBackend",
    "Row",
    "Term",
    "build_snapshot",
    "open_embedded",
    "parse_retry_after",
    "parse_sparql_json",
    "store_stamp",
]
