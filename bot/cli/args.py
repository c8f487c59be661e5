"""Argument types shared by the CLI glue modules: numbers checked by argparse itself.

A bad value is refused by argparse with its usual one-line usage error (exit status 2), e.g.
``corsbot kb show: error: argument --limit: -1 is not a positive integer``, before anything loads.

Example:
    >>> positive_int("3")
    3
    >>> port("8443")
    8443
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

__all__ = [
    "MAX_USER_KEY",
    "at_least",
    "check_user_key",
    "non_negative_int",
    "port",
    "positive_float",
    "positive_int",
    "unit_interval",
    "user_key",
]

MAX_USER_KEY = 128
"""Longest user key the terminal and scripted chats take, in characters (profiles are stored per key;
the channels' own keys, ``tg:<id>`` and ``web:<id>``, are far shorter)."""


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None


def positive_int(text: str) -> int:
    """An integer >= 1 (counts, limits, sizes).

    Raises:
        argparse.ArgumentTypeError: not an integer, or below 1.
    """
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive integer (>= 1)")
    return value


def non_negative_int(text: str) -> int:
    """An integer >= 0 (counts where 0 means "none" or "off").

    Raises:
        argparse.ArgumentTypeError: not an integer, or negative.
    """
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative (must be >= 0)")
    return value


def at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: an integer >= ``minimum`` (e.g. ``at_least(2)`` for cross-validation folds).

    Returns:
        ``str -> int``, raising :class:`argparse.ArgumentTypeError` below ``minimum``.
    """

    def parse(text: str) -> int:
        value = _int(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is below {minimum}")
        return value

    parse.__name__ = f"integer >= {minimum}"
    return parse


def port(text: str) -> int:
    """A TCP port, 1-65535.

    Raises:
        argparse.ArgumentTypeError: not an integer in 1..65535.
    """
    value = _int(text)
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a TCP port (1-65535)")
    return value


def positive_float(text: str) -> float:
    """A finite number > 0 (timeouts, seconds).

    Raises:
        argparse.ArgumentTypeError: not a number, not finite, or <= 0.
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return value


def unit_interval(text: str) -> float:
    """A number strictly between 0 and 1 (PageRank damping, prior mass).

    Raises:
        argparse.ArgumentTypeError: not a number in (0, 1).
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 1 (exclusive)")
    return value


def check_user_key(key: str) -> str:
    """A user key as the chats take it: not blank, at most :data:`MAX_USER_KEY` characters (kept as typed).

    Raises:
        ValueError: blank, or too long (one line saying which).
    """
    if not key.strip():
        raise ValueError("the user key must not be empty")
    if len(key) > MAX_USER_KEY:
        raise ValueError(f"the user key is too long ({len(key)} characters, at most {MAX_USER_KEY})")
    return key


def user_key(text: str) -> str:
    """argparse type of ``--user``: see :func:`check_user_key`.

    Raises:
        argparse.ArgumentTypeError: blank or too long.
    """
    try:
        return check_user_key(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (e.g. --user alice)") from None
