"""Write a text output to a path a user gave: atomically for a regular file, through anything else.

A regular file (or a path that does not exist yet) is written to a temporary sibling and renamed
over the target, so a reader never sees half a file and a failure leaves the old one in place.
That rename would *replace* whatever else stands at the path, so:

- ``-`` writes to standard output;
- a symlink (to anything, even to a regular file) is written through: the target gets the data and
  the link stays a link;
- an existing path that is not a regular file (a device such as ``/dev/full`` or ``/dev/stdout``,
  a FIFO) is opened and written in place, never renamed over.

A FIFO or device is never waited for without end (issue 25): it is opened without blocking, and a
FIFO with no reader is tried again until one opens it, at most :data:`WRITE_WAIT_S` seconds; then the
text goes out in parts as the reader takes them, and a reader that takes nothing for
:data:`WRITE_WAIT_S` seconds ends the write too (:class:`TimeoutError`, an ``OSError`` whose
``strerror`` says which wait ran out). Standard output is the caller's own pipe (``| less`` may pause as
long as its user reads) and is written as it is.

A new file gets the mode any tool would give it (``0666`` less the umask, e.g. ``0644``), an
existing one keeps its mode (the temporary file would otherwise be ``0600``).

Write errors (``ENOSPC`` on ``/dev/full``, a full disk, a reader that left a FIFO, no reader) come out
as :class:`OSError`; callers turn them into their own one-line :class:`~corsbot_errors.CorsbotError`.

Example:
    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.json"
    >>> write_text(target, "[]\\n")
    'atomic'
    >>> target.read_text()
    '[]\\n'
"""

from __future__ import annotations

import errno
import os
import select
import stat
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["STDOUT", "WRITE_WAIT_S", "is_stdout", "write_text", "writes_through"]

STDOUT = "-"
"""The path that means standard output."""
WRITE_WAIT_S = 10.0
"""How long a FIFO or device may keep a write waiting: for a reader to open it, or to take the next part
(reading a FIFO waits as long for its writer, ``logs.jsonstream.FIFO_WAIT_S``)."""
_PART = select.PIPE_BUF
"""Bytes written at a time to a FIFO or device (a pipe that polls writable takes that many at once)."""


def is_stdout(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` is ``-`` (standard output)."""
    return os.fspath(path) == STDOUT


def writes_through(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` must be written in place rather than replaced by a rename.

    That is: ``-``, a symlink (dangling or not), or an existing path that is not a regular file
    (character or block device, FIFO, socket).
    """
    if is_stdout(path):
        return True
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(mode):
        return True
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def write_text(path: str | os.PathLike[str], text: str) -> str:
    """Write ``text`` (UTF-8, ``\\n`` newlines) to ``path``; see the module docstring for the rule.

    Args:
        path: the output: ``-``, a regular file (parent folders created), a symlink or a device/FIFO.
        text: the whole content.

    Returns:
        How it was written: ``"stdout"``, ``"through"`` (opened in place) or ``"atomic"``
        (temporary file + rename).

    Raises:
        OSError: the output cannot be opened or written (``IsADirectoryError`` for a folder,
            ``ENOSPC`` when the device or disk is full ...); a temporary file is removed.
    """
    if is_stdout(path):
        sys.stdout.write(text)
        sys.stdout.flush()
        return "stdout"
    if writes_through(path):
        if _is_file(path):
            # "w" truncates a regular file behind a symlink (the user asked to replace its content).
            with open(path, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
                handle.flush()
        else:
            _write_to_device(path, text.encode("utf-8"))
        return "through"
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(21, "Is a directory", str(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, _mode_for(target))
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, target)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    return "atomic"


def _is_file(path: str | os.PathLike[str]) -> bool:
    """True for a regular file (through symlinks); a dangling symlink counts as one (it creates it)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True


def _write_to_device(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to a FIFO, device or socket path without ever blocking for good (no fsync:
    devices and FIFOs reject it).

    Raises:
        TimeoutError: no reader opened the FIFO, or the reader took nothing, for :data:`WRITE_WAIT_S`.
        OSError: a socket (it cannot be opened as a file), or the write failed (``ENOSPC``, ``EPIPE``...).
    """
    if stat.S_ISSOCK(os.stat(path).st_mode):
        raise OSError(errno.ENXIO, "a socket, not a file, FIFO or device", os.fspath(path))
    deadline = time.monotonic() + WRITE_WAIT_S
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            break
        except OSError as exc:
            if exc.errno != errno.ENXIO:  # ENXIO: a FIFO nobody reads yet
                raise
            if time.monotonic() >= deadline:
                raise TimeoutError(
                    errno.ETIMEDOUT, f"no reader opened it within {WRITE_WAIT_S:g} s (a FIFO with no reader?)",
                    os.fspath(path),
                ) from None  # fmt: skip
            time.sleep(0.05)
    try:
        view = memoryview(data)
        while view:
            _, writable, _ = select.select([], [fd], [], WRITE_WAIT_S)
            if not writable:
                raise TimeoutError(errno.ETIMEDOUT, f"its reader took nothing for {WRITE_WAIT_S:g} s",
                                   os.fspath(path))  # fmt: skip
            try:
                view = view[os.write(fd, view[:_PART]) :]
            except BlockingIOError:
                continue  # another writer filled it meanwhile: wait again
    finally:
        os.close(fd)


def _mode_for(target: Path) -> int:
    """Permission bits for the file written at ``target``: an existing regular file's own, else
    ``0o666`` less the process umask (what ``open(path, "w")`` would create)."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        return 0o666 & ~_umask()


def _umask() -> int:
    """The process umask, read without changing it where Linux tells it (``/proc/self/status``)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)  # no /proc: read it the portable way (set, then restore at once)
    os.umask(mask)
    return mask
