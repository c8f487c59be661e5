"""Write a text output to a path a user gave: atomically for a regular file, through anything else.

A regular file (or a path that does not exist yet) is written to a temporary sibling and renamed
over the target, so a reader never sees half a file and a failure leaves the old one in place.
That rename would *replace* whatever else stands at the path, so:

- ``-`` writes to standard output;
- a symlink (to anything, even to a regular file) is written through: the target gets the data and
  the link stays a link;
- an existing path that is not a regular file (a device such as ``/dev/full`` or ``/dev/stdout``,
  a FIFO) is opened and written in place, never renamed over.

A new file gets the mode any tool would give it (``0666`` less the umask, e.g. ``0644``), an
existing one keeps its mode (the temporary file would otherwise be ``0600``).

Write errors (``ENOSPC`` on ``/dev/full``, a full disk, a reader that left a FIFO) come out as
:class:`OSError`; callers turn them into their own one-line :class:`~corsbot_errors.CorsbotError`.

Example:
    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.json"
    >>> write_text(target, "[]\\n")
    'atomic'
    >>> target.read_text()
    '[]\\n'
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

__all__ = ["STDOUT", "is_stdout", "write_text", "writes_through"]

STDOUT = "-"
"""The path that means standard output."""


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
        # "w" truncates a regular file behind a symlink (the user asked to replace its content) and
        # has no effect on devices and FIFOs. No fsync: devices and FIFOs reject it.
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
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
