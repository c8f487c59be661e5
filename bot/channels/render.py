"""Platform-neutral rendering helpers: HTML escaping and splitting long texts at a size limit.

Replies are plain text (:class:`bot.turns.Reply`); a channel that sends HTML escapes every dynamic
string with :func:`escape_html` and, when the result is over the platform limit, splits the *plain*
text on line boundaries with :func:`split_text`, so that every part is at most ``limit`` units long
*after* escaping and its plain version can be resent as is if the platform still rejects the markup
(field cases F03, F04).

Lengths are counted in UTF-16 code units, as Telegram counts them (Bot API, "Formatting options":
entity offsets and lengths are UTF-16 units); an emoji outside the BMP counts 2. Counting the escaped
text over-estimates what the user sees (``&amp;`` counts 5), which is the safe side.

Example:
    >>> escape_html("M*A*S*H & <Spider-Man: No Way Home (2021).>")
    'M*A*S*H &amp; &lt;Spider-Man: No Way Home (2021).&gt;'
    >>> split_text("aaaa\\nbbb\\ncccccc", limit=8)
    ('aaaa\\nbbb', 'cccccc')
"""

from __future__ import annotations

import html
from collections.abc import Callable

TELEGRAM_TEXT_LIMIT = 4096
"""Maximum length of a Telegram message text (Bot API sendMessage, ``MessageLimit.MAX_TEXT_LENGTH``)."""
TELEGRAM_CAPTION_LIMIT = 1024
"""Maximum length of a Telegram photo caption (Bot API sendPhoto, ``MessageLimit.CAPTION_LENGTH``)."""


def escape_html(text: str) -> str:
    """Escape ``&``, ``<`` and ``>`` for Telegram's HTML parse mode (quotes need no escaping there).

    Args:
        text: any dynamic string (a knowledge-graph label, a user name, a whole reply).

    Returns:
        The text with the three HTML-significant characters replaced by entities.
    """
    return html.escape(text, quote=False)


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units (Telegram's unit for message and caption limits)."""
    return len(text.encode("utf-16-le")) // 2


def escaped_len(text: str) -> int:
    """UTF-16 length of ``text`` once escaped for HTML."""
    return utf16_len(escape_html(text))


def split_text(
    text: str,
    *,
    limit: int = TELEGRAM_TEXT_LIMIT,
    measure: Callable[[str], int] = escaped_len,
) -> tuple[str, ...]:
    """Split plain text into parts whose measured length is at most ``limit``.

    Parts break on line boundaries; a single line longer than the limit breaks at the last space
    that fits, else between characters. Line breaks at a cut are dropped, others kept; no part is
    empty. Text that fits is returned as one part, unchanged.

    Args:
        text: plain (unescaped) text.
        limit: maximum measured length of a part, >= 8.
        measure: length function applied to a part (default: UTF-16 length after HTML escaping).

    Returns:
        The parts in order; ``()`` for empty or blank text.

    Raises:
        ValueError: if ``limit`` < 8.
    """
    if limit < 8:
        raise ValueError(f"limit too small: {limit}")
    if not text.strip():
        return ()
    if measure(text) <= limit:
        return (text,)
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        candidate = line if not current else current + "\n" + line
        if measure(candidate) <= limit:
            current = candidate
            continue
        if current:
            parts.append(current)
            current = ""
        if measure(line) <= limit:
            current = line
            continue
        pieces = _split_long_line(line, limit, measure)
        parts.extend(pieces[:-1])
        current = pieces[-1]
    if current:
        parts.append(current)
    return tuple(p for p in parts if p.strip())


def _split_long_line(line: str, limit: int, measure: Callable[[str], int]) -> list[str]:
    """Break one line over the limit at spaces (or between characters); the last piece may be short."""
    pieces: list[str] = []
    rest = line
    while measure(rest) > limit:
        cut = _longest_prefix(rest, limit, measure)
        space = rest.rfind(" ", 0, cut)
        if space > cut // 2:
            cut = space
        pieces.append(rest[:cut])
        rest = rest[cut:].lstrip(" ")
    pieces.append(rest)
    return pieces


def _longest_prefix(text: str, limit: int, measure: Callable[[str], int]) -> int:
    """Largest n such that measure(text[:n]) <= limit (binary search; measure is monotonic)."""
    lo, hi = 1, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if measure(text[:mid]) <= limit:
            lo = mid
        else:
            hi = mid - 1
    return lo


def fits_caption(text: str, *, limit: int = TELEGRAM_CAPTION_LIMIT) -> bool:
    """Whether ``text`` fits in a photo caption once escaped for HTML."""
    return escaped_len(text) <= limit
