"""Error reporting for the command line and the channels.

Each package roots its own deliberate errors in a ``CorsbotError`` subclass named
``*Error`` (``logs.record.RecordError``, ``recommender.kb.KnowledgeBaseError``, ``nlu.NluError``...).
They all derive from :class:`CorsbotError` defined in :mod:`corsbot_errors`, the one module every
package may import (it has no dependencies), so one handler can tell "our" errors from bugs.
"""

from __future__ import annotations

from corsbot_errors import CorsbotError


def describe_error(exc: BaseException) -> str | None:
    """One clear line for an expected error, or None for a bug (the caller logs a traceback)."""
    if isinstance(exc, CorsbotError):
        return str(exc)
    if isinstance(exc, FileNotFoundError):
        return f"file not found: {exc.filename or exc}"
    if isinstance(exc, PermissionError):
        return f"permission denied: {exc.filename or exc}"
    if isinstance(exc, IsADirectoryError):
        return f"is a directory: {exc.filename or exc}"
    return None
