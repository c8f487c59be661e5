"""Character spans of names in a test sentence, for the sentiment and correction tests."""

from __future__ import annotations


def spans_of(text: str, names: list[str]) -> list[tuple[int, int]]:
    """(start, end) of each name in ``text``, in order, each found after the previous one; ValueError when one
    is missing."""
    spans: list[tuple[int, int]] = []
    for name in names:
        start = text.index(name, spans[-1][1] if spans else 0)
        spans.append((start, start + len(name)))
    return spans
