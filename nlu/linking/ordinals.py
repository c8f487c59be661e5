"""A series named with an ordinal: "the first harry potter movie", "the second shrek film", "the 3rd hunger games
book": the series' part of that rank, by release year, not the series (a value nobody rates as a work) nor the
work that carries the series' name ("Shrek" is the first, not the second).

The series comes from the span's readings: a series value (``P179``) the index read the words as, the series of
an item the words name (the film "Shrek" is part of the "Shrek" series), or the works sharing a main title that the
index reads as a series (:data:`~nlu.linking.values.SIM_MAIN_TITLE`; books carry no series value). Its parts are the items credited
to it with ``P179``, ranked by :func:`~nlu.linking.values.entity_year`; only when each part has a year and the rank
is within them. The ordinal must follow "the" / "that" / "this" or the span be followed by a kind word ("first
shrek movie"), so "my first harry potter" (a person's first one) is left as it is.
"""

from __future__ import annotations

import math
from typing import Any

from nlu.linking.tokens import Token
from nlu.linking.values import SIM_LABEL, SIM_MAIN_TITLE, Span, entity_year

SERIES = "P179"
MIN_SHARED = 3
"""Works sharing a main title that are a series without a series value (the book KB has none)."""
ORDINALS = {
    "first": 1,
    "1st": 1,
    "second": 2,
    "2nd": 2,
    "third": 3,
    "3rd": 3,
    "fourth": 4,
    "4th": 4,
    "fifth": 5,
    "5th": 5,
    "sixth": 6,
    "6th": 6,
    "seventh": 7,
    "7th": 7,
    "eighth": 8,
    "8th": 8,
    "last": -1,
    "latest": -1,
    "final": -1,
}
"""Ranks said before a series' name (-1: its last part by year, only of a series value: works sharing a main title
may end with a spin-off)."""
DETERMINERS = frozenset({"the", "that", "this"})
KIND_WORDS = frozenset(
    "movie movies film films book books novel novels album albums record part installment instalment one entry".split()
)
"""Words after a series' name that say a part of it is meant ("the first harry potter movie")."""


def series_parts(kb: Any, scored: dict[str, float]) -> tuple[list[str], bool]:
    """The dated parts of the longest series among ``scored`` (a series value, or the series of an item read), by
    year, and whether a series value says them (else works sharing a main title, whose last may be a spin-off)."""
    series = {q for q in scored if not kb.is_item(q) and SERIES in kb.roles(q)}
    values = getattr(kb, "item_values", None)
    if values is not None:
        series |= {v for q in scored if kb.is_item(q) for p, v in values(q) if p == SERIES}
    best: list[str] = []
    valued = False
    sims = set(scored.values())
    if (
        len(scored) >= MIN_SHARED
        and all(kb.is_item(q) for q in scored)
        and max(sims) <= SIM_MAIN_TITLE + 1e-9
        and all(math.isclose(v, max(sims)) for v in sims)
    ):  # (a typo of the main title scores each work alike, lower)
        best = list(scored)  # works sharing a main title the index reads as a series ("mistborn")
    for s in sorted(series):
        parts = [q for p, q in kb.value_items(s) if p == SERIES and kb.is_item(q)]
        if len(parts) > len(best):
            best, valued = parts, True
    years = {q: entity_year(kb, q) for q in set(best)}
    dated = [q for q in set(best) if years[q] is not None]
    return sorted(dated, key=lambda q: (years[q], q)), valued


def ranked(tokens: list[Token], k: int) -> bool:
    """Token ``k`` is a rank said after a determiner in lowercase ("the first ..."): no word of a name after it."""
    return tokens[k].key in ORDINALS and tokens[k].raw.islower() and k >= 1 and tokens[k - 1].key in DETERMINERS


def kind_after(tokens: list[Token], k: int, j: int) -> bool:
    """A kind word ("movie", "book") follows the rank at ``k`` before ``j``: a part of a series is meant."""
    return any(t.key in KIND_WORDS for t in tokens[k + 2 : j + 1])


def ranked_parts(kb: Any, tokens: list[Token], spans: list[Span]) -> list[Span]:
    """Each span after an ordinal that reads a series becomes that series' part of that rank (module docstring)."""
    if not hasattr(kb, "value_items"):
        return spans
    out = []
    for span in spans:
        i = span.start
        rank = ORDINALS.get(tokens[i - 1].key) if i >= 1 else None
        said = rank is not None and (
            (i >= 2 and tokens[i - 2].key in DETERMINERS)
            or (span.end < len(tokens) and tokens[span.end].key in KIND_WORDS)
        )
        parts, valued = series_parts(kb, span.scored) if said else ([], False)
        if rank is not None and parts and rank <= len(parts) and (rank > 0 or valued):
            part = parts[rank - 1] if rank > 0 else parts[-1]
            span = Span(span.start, span.end, {part: SIM_LABEL}, "exact")
        out.append(span)
    return out
