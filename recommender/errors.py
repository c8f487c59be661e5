"""Errors raised on purpose by the recommender package (knowledge base, SPARQL, PageRank).

Tree (callers catch by what they do about it)::

    KnowledgeBaseError              no backend could answer, or a snapshot is missing/unreadable
    +-- EmptySnapshotError          a build found (almost) nothing: nothing was written
    +-- EndpointError               a SPARQL endpoint failed (url, HTTP status, Retry-After)
        +-- EndpointTimeoutError    no answer within the client timeout / deadline (F18)
        +-- BadResponseError        HTTP 200 whose body is not SPARQL JSON results (F16)
            +-- TruncatedResultError  body cut off, IncompleteRead or a server stack trace (F17)
"""

from __future__ import annotations

from corsbot_errors import CorsbotError


class KnowledgeBaseError(CorsbotError):
    """No backend could answer, or a snapshot is missing or unreadable."""


class EmptySnapshotError(KnowledgeBaseError):
    """A build extracted no or too few items (empty or wrong dump, wrong endpoint, broken schema).

    The snapshot is not written, so a good previous snapshot stays in place.

    Attributes:
        domain: the domain being built.
        items: how many items the build found.
        needed: the minimum it needed.
    """

    def __init__(self, message: str, *, domain: str, items: int, needed: int) -> None:
        super().__init__(message)
        self.domain = domain
        self.items = items
        self.needed = needed


class EndpointError(KnowledgeBaseError):
    """A SPARQL endpoint failed.

    Attributes:
        url: the endpoint URL.
        status: the HTTP status (``None`` for network errors: refused, reset, timed out).
        retry_after_s: seconds the server asked us to wait (``Retry-After``), if any.
        reason: a short human-readable reason.
    """

    def __init__(self, url: str, status: int | None, reason: str = "", *, retry_after_s: float | None = None):
        self.url = url
        self.status = status
        self.retry_after_s = retry_after_s
        self.reason = reason
        where = f"SPARQL endpoint {url}"
        code = f"HTTP {status}" if status is not None else "no response"
        wait = f" (retry after {retry_after_s:g} s)" if retry_after_s is not None else ""
        super().__init__(f"{where}: {code}: {reason}{wait}" if reason else f"{where}: {code}{wait}")


class EndpointTimeoutError(EndpointError):
    """The endpoint did not answer within the client timeout or the overall deadline."""


class BadResponseError(EndpointError):
    """HTTP 200 whose body is not a SPARQL JSON result (HTML notice, plain text, wrong shape)."""


class TruncatedResultError(BadResponseError):
    """The body was cut off (IncompleteRead, invalid JSON) or carries a server-side timeout trace."""
