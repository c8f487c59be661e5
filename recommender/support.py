"""How much of a list the collaborative edges decide: in proportion to how many people back them.

With the study's likes in the graph (``Recommender(interactions=...)``), a liked node's "people who liked
X" edges weigh 3 (music 20) against 1 per KB property. A profile backed by many co-likers (the study
users the weights were tuned on: several likes each) is well served by them; a new person's one or two
likes are often backed by one or two study users, and the walk then follows those few people's other
tastes rather than the liked item's creator, genre and era (fresh6 fault 9 and 11: a Daft Punk fan got
Ed Sheeran because one study user liked both; Agatha Christie gave Rick Riordan; Arrival gave Saving
Private Ryan before Villeneuve's other films).

So the scores are a blend, PageRank being linear in its graph's walks only per prior, of two walks with
the profile's prior: the collaborative graph's, with the share ``s / (s + SUPPORT_HALF)`` where ``s`` is
the number of people linked to the liked nodes, and the KB graph's alone (every user node masked) for
the rest. A profile without any co-liker is ranked by content alone; one backed by many, by the
collaborative walk almost alone.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray

from recommender.pagerank import SparseGraph
from recommender.values import QID

SUPPORT_HALF = 3.0
"""Number of co-liking people at which the collaborative walk decides half of the scores; chosen with
``corsbot rec evaluate`` (leave-one-out HR@10 of the study users kept within noise, see the commit) and
the cold-start lists of fresh6."""


def collaborative_share(
    graph: SparseGraph,
    liked: Iterable[QID],
    n_users: int,
    masked: NDArray[np.bool_],
    half: float = SUPPORT_HALF,
) -> float:
    """The share of the scores from the collaborative walk: ``s / (s + half)``, ``s`` the people (the
    last ``n_users`` nodes, not ``masked``) linked to a ``liked`` node who liked something else too."""
    index = graph.index
    nodes = sorted({i for q in liked if (i := index.get(q)) is not None})
    if n_users <= 0 or half <= 0 or not nodes:
        return 1.0
    linked = np.unique(graph.weights_t[nodes].indices)
    linked = linked[(linked >= graph.n_nodes - n_users) & ~masked[linked]]
    # a person who liked nothing else (a chat user who named only that) backs no "also liked"
    support = int(np.count_nonzero(np.diff(graph.weights_t.indptr)[linked] > 1))
    return support / (support + half)


def blend(
    collaborative: NDArray[np.float64] | None,
    content: NDArray[np.float64] | None,
    share: float,
    items: NDArray[np.int64],
) -> NDArray[np.float64] | None:
    """``share`` of the collaborative walk's scores plus the rest of the KB graph's scaled to the same best
    item score, so that a walk concentrated on one co-liker's few items does not outweigh one spread over
    a genre's many by its scale alone; None (keep the collaborative walk) when either is missing or empty."""
    if share >= 1.0 or collaborative is None or content is None:
        return None
    top_collab, top_content = float(collaborative[items].max()), float(content[items].max())
    if top_collab <= 0.0 or top_content <= 0.0:
        return None
    return share * collaborative + (1.0 - share) * content * (top_collab / top_content)


__all__ = ["SUPPORT_HALF", "blend", "collaborative_share"]
