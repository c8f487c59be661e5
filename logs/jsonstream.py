"""Reading a JSON array one element at a time, from any readable path, with one-line errors.

Dataset files (a JSON array of message records) can be large (a 100 MB export) or hostile (200,000
nested ``[``, a 5,000-digit number, junk after a few records), and can arrive through a pipe
(``corsbot replay <(zcat f.json.gz)``) or a FIFO. :func:`iter_array` reads the text in 1 MiB
chunks and decodes each element with the standard library's C decoder
(:meth:`json.JSONDecoder.raw_decode`), so memory holds one chunk and one element, never the whole
file, and every failure becomes a :class:`JsonStreamError` naming the file, the element and the
reason:

- not UTF-8, not JSON, not an array, junk between or after the elements;
- an element over :data:`MAX_ELEMENT_BYTES` (no dataset record comes near it);
- nesting too deep (Python's recursion limit: 200,000 ``[`` would otherwise be a ``RecursionError``);
- an integer over Python's digit limit (``sys.set_int_max_str_digits``, 4,300 digits by default).

:func:`open_text` opens the path: a directory or a missing file is refused at once; a FIFO or pipe
waits at most :data:`FIFO_WAIT_S` seconds for its writer's first bytes, then gives up (a FIFO with no
writer would otherwise block forever).

Example:
    >>> import io
    >>> list(iter_array(io.StringIO('[{"a": 1}, 2, "x"]'), "f.json"))
    [{'a': 1}, 2, 'x']
"""

from __future__ import annotations

import io
import json
import os
import select
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from corsbot_errors import CorsbotError

__all__ = ["CHUNK_CHARS", "FIFO_WAIT_S", "MAX_ELEMENT_BYTES", "JsonStreamError", "iter_array", "open_text"]

CHUNK_CHARS = 1 << 20
"""Characters read at a time."""
MAX_ELEMENT_BYTES = 4 << 20
"""Largest element accepted (characters of its JSON text): a dataset record is under 10 KB."""
FIFO_WAIT_S = 10.0
"""How long a FIFO or pipe may stay silent before the first byte (no writer?)."""

_DECODER = json.JSONDecoder()
_WS = " \t\n\r"
_NUMBER_TAIL = frozenset("0123456789.eE+-")


class JsonStreamError(CorsbotError):
    """The input cannot be read as a JSON array (the message names the file and says why)."""


def open_text(path: str | os.PathLike[str]) -> TextIO:
    """Open ``path`` for reading UTF-8 text (a BOM is skipped).

    Raises:
        JsonStreamError: missing, a directory, unreadable, or a FIFO/pipe with nothing to read
            within :data:`FIFO_WAIT_S` seconds.
    """
    name = os.fspath(path)
    try:
        mode = os.stat(name).st_mode
        if stat.S_ISDIR(mode):
            raise JsonStreamError(f"{name}: is a directory, not a dataset file")
        if stat.S_ISFIFO(mode):
            return _open_fifo(name)
        return open(name, encoding="utf-8-sig", errors="strict")  # noqa: SIM115 - the caller closes it
    except FileNotFoundError:
        raise JsonStreamError(f"{name}: no such file") from None
    except PermissionError:
        raise JsonStreamError(f"{name}: permission denied") from None
    except OSError as exc:
        raise JsonStreamError(f"{name}: cannot read ({exc.strerror or exc})") from None


def _open_fifo(name: str) -> TextIO:
    fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK)  # a blocking open waits for a writer forever
    try:
        ready, _, _ = select.select([fd], [], [], FIFO_WAIT_S)
        if not ready:
            raise JsonStreamError(
                f"{name}: nothing to read after {FIFO_WAIT_S:.0f} s (a FIFO with no writer?); "
                "start the writer first or give a regular file"
            )
        os.set_blocking(fd, True)
        return io.TextIOWrapper(io.FileIO(fd, "r", closefd=True), encoding="utf-8-sig", errors="strict")
    except BaseException:
        os.close(fd)
        raise


def iter_array(stream: TextIO, name: str) -> Iterator[object]:
    """Yield the elements of the JSON array in ``stream`` one at a time (see the module docstring).

    Args:
        stream: text to read (not closed here).
        name: the file's name for messages.

    Raises:
        JsonStreamError: at the first thing that is not a well-formed JSON array of elements.
    """
    buf, pos, index = "", 0, 0
    eof = False

    def more() -> bool:
        nonlocal buf, pos, eof
        if eof:
            return False
        try:
            chunk = stream.read(CHUNK_CHARS)
        except UnicodeDecodeError:
            raise JsonStreamError(f"{name}: not a UTF-8 text file") from None
        except OSError as exc:
            raise JsonStreamError(f"{name}: cannot read ({exc.strerror or exc})") from None
        if not chunk:
            eof = True
            return False
        buf, pos = buf[pos:] + chunk, 0
        return True

    def skip_ws() -> bool:
        """Move past whitespace; False at the end of the input."""
        nonlocal pos
        while True:
            while pos < len(buf) and buf[pos] in _WS:
                pos += 1
            if pos < len(buf):
                return True
            if not more():
                return False

    if not skip_ws():
        raise JsonStreamError(f"{name}: empty file, expected a JSON array of message records")
    if buf[pos] != "[":
        try:
            found = type(_DECODER.raw_decode(buf, pos)[0]).__name__
        except (ValueError, RecursionError):
            raise JsonStreamError(f"{name}: not valid JSON (expected a JSON array of message records)") from None
        kind = {"dict": "an object", "list": "an array", "str": "a string"}.get(found, "a number or literal")
        raise JsonStreamError(f"{name}: expected a JSON array of message records, found {kind}")
    pos += 1
    first = True
    while True:
        if not skip_ws():
            raise JsonStreamError(f"{name}: the array is not closed (file cut off after element {index})")
        if buf[pos] == "]":
            pos += 1
            if skip_ws():
                raise JsonStreamError(f"{name}: junk after the end of the array")
            return
        if not first:
            if buf[pos] != ",":
                raise JsonStreamError(f"{name}: element {index}: expected ',' or ']' after the previous element")
            pos += 1
            if not skip_ws():
                raise JsonStreamError(f"{name}: the array is not closed (file cut off after element {index})")
        first = False
        while True:
            try:
                value, end = _DECODER.raw_decode(buf, pos)
            except json.JSONDecodeError as exc:
                if len(buf) - pos > MAX_ELEMENT_BYTES:
                    raise JsonStreamError(f"{name}: element {index} is over {MAX_ELEMENT_BYTES} characters") from None
                if more():  # maybe cut by the chunk boundary: decode again with more text
                    continue
                raise JsonStreamError(f"{name}: element {index}: not valid JSON ({exc.msg})") from None
            except RecursionError:
                raise JsonStreamError(f"{name}: element {index}: nested too deeply") from None
            except ValueError:  # int over the digit limit (json raises ValueError, not JSONDecodeError)
                limit = sys.get_int_max_str_digits()
                raise JsonStreamError(f"{name}: element {index}: a number with more than {limit} digits") from None
            if isinstance(value, int | float) and (end == len(buf) or buf[end] in _NUMBER_TAIL) and not eof:
                # maybe a number cut by the chunk boundary ("12" of "12.5e3"): decode again with more text
                if len(buf) - pos <= MAX_ELEMENT_BYTES and more():
                    continue
            break
        yield value
        index += 1
        pos = end


def read_array_file(path: str | os.PathLike[str]) -> Iterator[object]:
    """:func:`open_text` + :func:`iter_array`, closing the file at the end."""
    with open_text(path) as stream:
        yield from iter_array(stream, os.fspath(Path(path)))
