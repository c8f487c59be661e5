"""The SPARQL endpoint client: result rows (:class:`Term`, :data:`Row`), the :class:`Backend` protocol,
the SPARQL 1.1 JSON results parser and :class:`RemoteBackend`.

:class:`RemoteBackend` queries any SPARQL 1.1 endpoint (query.wikidata.org, ``oxigraph serve``) via
SPARQLWrapper (the only module of the project that imports it), POST, JSON results, with a descriptive
User-Agent (F15), a client timeout and an overall deadline (F18), retries with exponential backoff
honouring ``Retry-After`` on 429/503 (F14), clear errors for 403, HTML/text bodies and wrong JSON shapes
(F16), truncated bodies or server timeout traces (F17), and rows whose OPTIONAL variables are unbound
(F19, read with .get). The embedded store (``recommender.sparql_store``) answers with the same rows.

Example:
    >>> backend = RemoteBackend("https://query.wikidata.org/sparql")   # doctest: +SKIP
    >>> backend.check()                                                 # doctest: +SKIP
    0.41
"""

from __future__ import annotations

import http.client
import json
import logging
import math
import re
import socket
import time
import urllib.error
from collections.abc import Callable
from email.utils import parsedate_to_datetime
from typing import Any, NamedTuple, Protocol

from recommender.errors import (
    BadResponseError,
    EndpointError,
    EndpointTimeoutError,
    TruncatedResultError,
)
from recommender.sparql_queries import PREFIXES

logger = logging.getLogger(__name__)

DEFAULT_USER_AGENT = (
    "corsbot/0.1 (conversational recommender research prototype; "
    "https://github.com/corsbot/corsbot; corsbot-maintainers@example.org) SPARQLWrapper/2"
)
"""Descriptive User-Agent with contact info, as the Wikimedia User-Agent policy requires (F15)."""
_SERVER_TRACE = re.compile(rb"java\.util\.concurrent\.TimeoutException|java\.lang\.\w+Exception|QueryTimeoutException")


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

XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
_RDF_LANGSTRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"


def _term_from_json(obj: Any) -> Term:
    if not isinstance(obj, dict) or "value" not in obj or "type" not in obj:
        raise ValueError(f"binding without type/value: {str(obj)[:80]}")
    kind = obj["type"]
    if kind == "typed-literal":  # SPARQL XML-era JSON variant
        kind = "literal"
    lang = obj.get("xml:lang")
    datatype = obj.get("datatype")
    if datatype in (XSD_STRING, _RDF_LANGSTRING):
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
