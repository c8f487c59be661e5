"""A self-correction inside one message (issue 22, engineer 22-O2): "i loved X, no wait i meant Y" revises the
message's own earlier clause, not the previous turn.

``nlu.turn_cues.within_correction`` finds where the correction stands; :func:`revise_within` keeps the names said
after it, each with the opinion said of it there, else the one said of the names it replaces, and drops the names
before it (they were not the ones meant: no preference, no "which one?" question about them).

Example: "i loved jaws, no wait i meant alien" -> Alien liked; Jaws not read; what the previous turn stored kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from nlu.sentiment import Polarity
from nlu.turn_parse import Reading

__all__ = ["revise_within"]


def revise_within(
    readings: tuple[Reading, ...], within: tuple[int, int], text: str, polarity_of: Callable[[str], Polarity]
) -> tuple[Reading, ...]:
    """The readings of a message revised by the correction at ``within`` (module docstring).

    Args:
        readings: the message's readings; within: ``(start, end)`` of the correction in ``text``;
        polarity_of: the opinion said in a piece of text (the sentiment model's message polarity).
    """
    replaced = {r.polarity for r in readings if r.mention.end <= within[0]} & {Polarity.POSITIVE, Polarity.NEGATIVE}
    inherited = next(iter(replaced)) if len(replaced) == 1 else None
    # The words after the correction carry their own opinion when they say one ("no wait, i hated Y"); a bare
    # "i meant Y" says none, and the reading's clause score would count the "no" of "no wait"
    # (the names masked: a title's own words say no opinion, "i meant paranoid android" is no dislike, fresh7)
    kept = tuple(r for r in readings if r.mention.start >= within[1])
    masked = list(text)
    for r in kept:
        masked[r.mention.start : r.mention.end] = " " * (r.mention.end - r.mention.start)
    own = polarity_of("".join(masked)[within[1] :])
    said = own if own in (Polarity.POSITIVE, Polarity.NEGATIVE) else inherited
    return tuple(replace(r, polarity=said) if said is not None else r for r in kept)
