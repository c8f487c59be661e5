"""Error reporting for the command line and the channels.

Each package roots its own deliberate errors in a ``CorsbotError`` subclass named
``*Error`` (``logs.record.RecordError``, ``recommender.kb.KnowledgeBaseError``, ``nlu.NluError``...).
They all derive from :class:`CorsbotError` defined in :mod:`corsbot_errors`, the one module every
package may import (it has no dependencies), so one handler can tell "our" errors from bugs.
"""

from __future__ import annotations

import errno
from pathlib import Path

from corsbot_errors import ConfigError, CorsbotError
from logs.dbaccess import not_writable


def describe_error(exc: BaseException) -> str | None:
    """One clear line for an expected error, or None for a bug (the caller logs a traceback).

    A refused write names what is read-only, checked on the file system (a read-only file, its
    folder, or the file system: ``cannot write /x/out.json: read-only folder``), never a guess.
    """
    if isinstance(exc, CorsbotError):
        return str(exc)
    if isinstance(exc, FileNotFoundError):
        return f"file not found: {exc.filename or exc}"
    if isinstance(exc, PermissionError | OSError) and exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        if exc.filename:
            why = not_writable(Path(exc.filename))
            if why is not None:
                return f"cannot write {exc.filename}: {why}"
        if exc.errno == errno.EROFS:
            return f"read-only file system: {exc.filename or exc}"
        return f"permission denied: {exc.filename or exc}"
    if isinstance(exc, IsADirectoryError):
        return f"is a directory: {exc.filename or exc}"
    return None


def bind_error(host: str, port: int, exc: OSError, *, option: str = "--port") -> ConfigError:
    """The one-line error of a server that cannot bind ``host:port`` (the port in use, mostly).

    Example:
        >>> str(bind_error("127.0.0.1", 8081, OSError(errno.EADDRINUSE, "Address already in use")))
        'port 8081 is already in use on 127.0.0.1 (another server listens on it): stop it or choose another with --port'
    """
    if exc.errno == errno.EADDRINUSE:
        return ConfigError(
            f"port {port} is already in use on {host} (another server listens on it): stop it or choose another "
            f"with {option}"
        )
    if exc.errno == errno.EACCES:
        return ConfigError(f"no permission to listen on port {port} of {host}: choose another with {option}")
    return ConfigError(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
