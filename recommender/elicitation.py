"""Active preference elicitation: which item to ask the user to rate next (issue 13).

The successor study of the ConveRSE system (Iovine, Narducci, de Gemmis, Semeraro, "An Empirical
Evaluation of Active Learning Strategies for Profile Elicitation in a Conversational Recommender
System", JIIS 2021) asks, after each stated preference once the user has given three, about one
suggested item ("Do you like Scarface?"). Which item depends on the strategy. All six share one
interface, :class:`Elicitor` (``Elicitor(recommender, ratings, strategy=S).suggest(request)``):

- ``popularity``: the most popular unrated item. Popularity = number of distinct users who liked the
  item in logged sessions (the released studies' and the bot's own: :class:`RatingCounts`); the
  original counted MovieLens ratings, which we do not have. Ties: the item's degree in the KB
  item-value graph (its number of distinct property values), then the QID.
- ``randpop``: uniform at random among the :data:`RANDPOP_N` most popular unrated items. The
  original drew half of the time from a hand-made list of 36 popular films and half of the time
  from the whole catalogue; a top-N of the same popularity ranking keeps "popular but varied"
  without a hand-made list, and without the catalogue draws that users could almost never rate.
  N = 30 is close to the original list's size; on the released movie logs (ConveRSE and the two
  successor-study conditions) the top 30 are the films liked by at least 9 users.
- ``varxpop``: the item maximising ``sqrt(n) * var``, as the original (``getEntityToRatingByPopxVar``):
  ``n`` = logged ratings of the item by other users (likes + dislikes, distinct users), ``var`` = the
  population variance of those ratings with like = +1, dislike = -1, i.e. ``4 * likes * dislikes / n**2``.
  Items nobody disliked have variance 0; among equal scores popularity decides (then degree, QID),
  so with few logged dislikes the strategy degrades gracefully to popularity.
- ``item2item``: the unrated item most similar to the user's last liked item. Similarity = Jaccard
  index of the two items' sets of KB property values (directors, cast, genres, ...). Jaccard, not the
  PageRank mass from that item, because it is what the original condition used (``JaccardIndex``),
  it is explainable ("same director and two actors"), and it keeps the condition distinct from
  ``highest``, which already is the PageRank ranking. When the last liked item has no similar
  unrated item left, the previous liked items are tried, newest first; with no liked item (only
  people or genres liked) or nothing similar at all, popularity.
- ``highest``: popularity while the user has fewer than :data:`HIGHEST_MIN_RATINGS` ratings, then the
  unrated item with the highest PageRank-with-priors score (the recommender's own prediction;
  ``getEntityToRatingByPopularEntitiesOrHighestPrediction`` used a collaborative filter there).
- ``none``: no suggestion (the first study's behaviour).

Items liked, disliked, skipped or already suggested (``request.exclude``) are never suggested; only
recommendable items of the recommender's graph are. Every strategy is deterministic: ``randpop``
draws from ``numpy.random.default_rng([seed, crc32(user), step])``, so the same user at the same step
gets the same item whatever other users do.

Example (``rec`` a :class:`~recommender.recommend.Recommender`)::

    elicitor = Elicitor(rec, RatingCounts.from_opinions([(("Q1",), ())]), strategy="popularity")
    elicitor.suggest(ElicitationRequest(liked=("Q25188",)))   # -> "Q1" if it is an item of the graph
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from corsbot_errors import ConfigError
from recommender.constraints import Constraints, kin_of_disliked, parts_of_liked, profile_constraints
from recommender.recommend import Recommender, top_k
from recommender.values import Avoid, Profile

if TYPE_CHECKING:
    import scipy.sparse as sp  # imported at the first suggestion: a start need not load it (~0.1 s)

QID = str

STRATEGIES: tuple[str, ...] = ("popularity", "randpop", "varxpop", "item2item", "highest", "none")
"""The strategy names, in the order of reports."""

CONDITIONS: Mapping[str, str] = {
    "popularity": "popularity",
    "randPopularity": "randpop",
    "varxPopularity": "varxpop",
    "item2item": "item2item",
    "highestPredicted": "highest",
    "nosuggestions": "none",
}
"""The study's six condition (folder) names -> our strategy names."""

RANDPOP_N = 30
"""``randpop`` draws among this many most popular unrated items (see the module docstring)."""

HIGHEST_MIN_RATINGS = 3
"""``highest`` uses popularity until the user has this many ratings (the original's threshold)."""


def strategy_name(text: str) -> str:
    """The strategy named by ``text``: one of :data:`STRATEGIES` or a condition name of the study
    (case-insensitive, ``randPopularity`` -> ``randpop``).

    Raises:
        ConfigError: the name is neither (the message lists the valid names).
    """
    key = text.strip()
    for name in STRATEGIES:
        if key.lower() == name:
            return name
    for condition, name in CONDITIONS.items():
        if key.lower() == condition.lower():
            return name
    valid = ", ".join((*STRATEGIES, *(c for c in CONDITIONS if c not in STRATEGIES)))
    raise ConfigError(f"unknown elicitation strategy {text!r} (one of: {valid})")


def condition_strategy(folder: str) -> str | None:
    """The strategy of a study folder named after one of the six conditions (exact name), else None."""
    return CONDITIONS.get(folder)


@dataclass(frozen=True, slots=True)
class RatingCounts:
    """Logged opinions per QID: how many distinct users liked / disliked it.

    Attributes:
        likes: QID -> number of users who liked it.
        dislikes: QID -> number of users who disliked it.
    """

    likes: Mapping[QID, int] = field(default_factory=dict)
    dislikes: Mapping[QID, int] = field(default_factory=dict)

    @classmethod
    def from_opinions(cls, users: Iterable[tuple[Iterable[QID], Iterable[QID]]]) -> RatingCounts:
        """Counts from ``(liked, disliked)`` per user; a user counts once per QID (a QID in both sets
        counts as liked only)."""
        likes: Counter[QID] = Counter()
        dislikes: Counter[QID] = Counter()
        for liked, disliked in users:
            liked_set = set(liked)
            likes.update(liked_set)
            dislikes.update(set(disliked) - liked_set)
        return cls(dict(likes), dict(dislikes))


@dataclass(frozen=True, slots=True)
class ElicitationRequest:
    """What a strategy knows about the user when choosing the next item.

    Attributes:
        liked: liked QIDs (items and property values) in the order the user gave them (last = newest).
        disliked: disliked QIDs.
        exclude: more QIDs never to suggest (skipped or already suggested items).
        user: the user's key; seeds ``randpop`` (with the elicitor's seed and ``step``).
        step: suggestions already made to this user.
        hide_users: interaction keys of the collaborative graph hidden from the PageRank of
            ``highest`` (the held-out user in the offline evaluation).
    """

    liked: tuple[QID, ...] = ()
    disliked: tuple[QID, ...] = ()
    exclude: frozenset[QID] = frozenset()
    user: str = ""
    step: int = 0
    hide_users: tuple[str, ...] = ()


class Elicitor:
    """Chooses the next item to rate with one of :data:`STRATEGIES` (see the module docstring).

    Args:
        recommender: the domain's :class:`~recommender.recommend.Recommender` (its items are the
            candidates; ``highest`` uses its PageRank).
        ratings: logged likes/dislikes of users (popularity, variance); None = none logged, so the
            popularity strategies fall back to the KB degree.
        strategy: a strategy or condition name (:func:`strategy_name`).
        seed: seed of ``randpop``'s draws.
        randpop_n: size of ``randpop``'s pool.

    Raises:
        ConfigError: unknown strategy, or ``randpop_n`` < 1.
    """

    def __init__(
        self,
        recommender: Any,
        ratings: RatingCounts | None = None,
        *,
        strategy: str = "popularity",
        seed: int = 0,
        randpop_n: int = RANDPOP_N,
    ) -> None:
        if randpop_n < 1:
            raise ConfigError(f"randpop_n must be >= 1, got {randpop_n}")
        self.strategy = strategy_name(strategy)
        self.recommender = recommender
        self.seed = seed
        self.randpop_n = randpop_n
        self.items: tuple[QID, ...] = tuple(recommender.item_qids)
        self._pos = {q: i for i, q in enumerate(self.items)}
        self._values, self.degree = _value_matrix(recommender.kb, self.items)
        ratings = ratings or RatingCounts()
        self.likes = np.fromiter((ratings.likes.get(q, 0) for q in self.items), dtype=np.float64, count=len(self.items))
        self.dislikes = np.fromiter(
            (ratings.dislikes.get(q, 0) for q in self.items), dtype=np.float64, count=len(self.items)
        )

    # -- derived -----------------------------------------------------------------------------------

    def without(self, liked: Iterable[QID], disliked: Iterable[QID]) -> Elicitor:
        """A copy whose counts leave out one user's opinions (leave-one-user-out evaluation)."""
        other = object.__new__(Elicitor)
        for name in ("strategy", "recommender", "seed", "randpop_n", "items", "_pos", "_values", "degree"):
            setattr(other, name, getattr(self, name))
        other.likes, other.dislikes = self.likes.copy(), self.dislikes.copy()
        liked_set = set(liked)
        for q in liked_set:
            if q in self._pos:
                other.likes[self._pos[q]] = max(0.0, other.likes[self._pos[q]] - 1)
        for q in set(disliked) - liked_set:
            if q in self._pos:
                other.dislikes[self._pos[q]] = max(0.0, other.dislikes[self._pos[q]] - 1)
        return other

    def with_strategy(self, strategy: str) -> Elicitor:
        """A copy using another strategy (same counts and matrices)."""
        other = self.without((), ())
        other.strategy = strategy_name(strategy)
        return other

    def popularity_order(self, allowed: NDArray[np.bool_] | None = None) -> list[int]:
        """Item indices by popularity (likes desc, degree desc, QID asc), allowed ones only."""
        idx = np.arange(len(self.items)) if allowed is None else np.flatnonzero(allowed)
        # items are sorted by QID in the recommender, so the index is the last key
        order = np.lexsort((idx, -self.degree[idx], -self.likes[idx]))
        return [int(i) for i in idx[order]]

    # -- the interface ---------------------------------------------------------------------------

    def suggest(self, request: ElicitationRequest) -> QID | None:
        """The next item to ask about, or None (strategy ``none``, or nothing left to suggest)."""
        if self.strategy == "none":
            return None
        allowed = self._allowed(request)
        if not allowed.any():
            return None
        pick = getattr(self, f"_{self.strategy}")(request, allowed)
        return None if pick is None else self.items[pick]

    def _allowed(self, request: ElicitationRequest) -> NDArray[np.bool_]:
        allowed = np.ones(len(self.items), dtype=bool)
        for q in (*request.liked, *request.disliked, *request.exclude):
            pos = self._pos.get(q)
            if pos is not None:
                allowed[pos] = False
        return allowed

    def _best(self, primary: NDArray[np.float64], allowed: NDArray[np.bool_]) -> int | None:
        """The allowed index with the highest ``primary``, then likes, degree, lowest index."""
        idx = np.flatnonzero(allowed)
        if idx.size == 0:
            return None
        order = np.lexsort((idx, -self.degree[idx], -self.likes[idx], -primary[idx]))
        return int(idx[order[0]])

    def _popularity(self, request: ElicitationRequest, allowed: NDArray[np.bool_]) -> int | None:
        return self._best(self.likes, allowed)

    def _randpop(self, request: ElicitationRequest, allowed: NDArray[np.bool_]) -> int | None:
        pool = self.popularity_order(allowed)[: self.randpop_n]
        rng = np.random.default_rng([self.seed, zlib.crc32(request.user.encode("utf-8")), request.step])
        return pool[int(rng.integers(len(pool)))]

    def _varxpop(self, request: ElicitationRequest, allowed: NDArray[np.bool_]) -> int | None:
        n = self.likes + self.dislikes
        var = np.divide(4.0 * self.likes * self.dislikes, n * n, out=np.zeros_like(n), where=n > 0)
        return self._best(np.sqrt(n) * var, allowed)

    def _item2item(self, request: ElicitationRequest, allowed: NDArray[np.bool_]) -> int | None:
        anchors = [self._pos[q] for q in reversed(request.liked) if q in self._pos and q not in request.disliked]
        for anchor in dict.fromkeys(anchors):
            sim = self.similarity(anchor)
            ok = allowed & (sim > 0)
            if ok.any():
                return self._best(sim, ok)
        return self._popularity(request, allowed)

    def _highest(self, request: ElicitationRequest, allowed: NDArray[np.bool_]) -> int | None:
        if len(set(request.liked) | set(request.disliked)) < HIGHEST_MIN_RATINGS:
            return self._popularity(request, allowed)
        profile = Profile(
            liked=frozenset(request.liked) - frozenset(request.disliked), disliked=frozenset(request.disliked)
        )
        scores, _reason = self.recommender.item_scores(profile, hide_users=request.hide_users)
        if scores is None:  # no like in the graph: the recommender itself falls back to popularity
            return self._popularity(request, allowed)
        return self._best(np.asarray(scores, dtype=np.float64), allowed)

    def similarity(self, anchor: int) -> NDArray[np.float64]:
        """(n_items,) Jaccard index of each item's property values with item ``anchor``'s (0 for itself)."""
        inter = np.asarray((self._values @ self._values[anchor].T).todense()).ravel()
        union = self.degree + self.degree[anchor] - inter
        sim = np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)
        sim[anchor] = 0.0
        return sim


def _value_matrix(kb: Any, items: tuple[QID, ...]) -> tuple[sp.csr_matrix, NDArray[np.float64]]:
    """The (n_items, n_values) 0/1 matrix of the items' distinct property values, and its row sums."""
    if callable(getattr(kb, "edge_arrays", None)) and callable(getattr(kb, "index_of", None)):
        return _value_matrix_from_arrays(kb, items)
    columns: dict[QID, int] = {}
    indptr, indices = [0], []
    for item in items:
        values = {columns.setdefault(v, len(columns)) for _p, v in kb.item_values(item)}
        indices.extend(sorted(values))
        indptr.append(len(indices))
    import scipy.sparse as sp

    data = np.ones(len(indices), dtype=np.float64)
    matrix = sp.csr_matrix((data, indices, indptr), shape=(len(items), max(len(columns), 1)))
    return matrix, np.diff(np.asarray(indptr)).astype(np.float64)


def _value_matrix_from_arrays(kb: Any, items: tuple[QID, ...]) -> tuple[sp.csr_matrix, NDArray[np.float64]]:
    """:func:`_value_matrix` from a mapped knowledge base's claim arrays (vectorised: 10 ms instead of
    0.7 s for the movie items at the bot's first suggestion); columns are entity indexes."""
    import scipy.sparse as sp

    subject, _pid, value = (np.asarray(a, dtype=np.int64) for a in kb.edge_arrays())
    row_of = np.full(max(int(kb.n_entities), 1), -1, dtype=np.int64)
    index_of = kb.index_of
    for row, item in enumerate(items):
        i = index_of(item)
        if i is not None:
            row_of[i] = row
    rows = row_of[subject]
    keep = rows >= 0
    matrix = sp.csr_matrix(
        (np.ones(int(keep.sum())), (rows[keep], value[keep])), shape=(len(items), max(int(kb.n_entities), 1))
    )
    matrix.sum_duplicates()
    matrix.data[:] = 1.0  # distinct values: a value linked by two properties counts once
    return matrix, np.diff(matrix.indptr).astype(np.float64)


# --------------------------------------------------------------------------------------------
# items offered to rate when the profile is too small


@dataclass(frozen=True, slots=True)
class Suggestion:
    """An item proposed for rating during preference acquisition.

    Attributes:
        qid: the item.
        source: "similar" (close to liked items in the graph) or "popular".
        score: similarity mass or popularity.
    """

    qid: QID
    source: str
    score: float


def elicitation_suggestions(
    recommender: Recommender,
    profile: Profile,
    *,
    k: int = 5,
    similar_share: float = 0.6,
    exclude: Iterable[QID] = (),
    avoid: Iterable[Avoid] = (),
) -> tuple[Suggestion, ...]:
    """Items to propose for rating: similar to the liked items, then popular ones (the user may skip).

    Item-to-item similarity is a two-step walk on the weighted graph from the liked nodes
    (liked item -> shared values -> other items), i.e. shared property values weighted like the
    recommender weights them; popularity is the KB's.

    Args:
        recommender: the domain's recommender.
        profile: current profile; rated items and ``exclude`` are never proposed.
        k: number of suggestions.
        similar_share: at most ``round(k * similar_share)`` come from similarity (0 when nothing
            is liked), the rest from popularity.
        exclude: more items not to propose (e.g. skipped ones).
        avoid: the session's constraints; with the profile's dislikes they leave items out
            (``recommender.constraints``), as do the parts of a liked series or album and the sequels,
            prequels and series of a disliked item.

    Returns:
        Suggestions, similar first then popular, no duplicates.
    """
    if k <= 0:
        return ()
    g = recommender.graph
    kb = recommender.kb
    cons = Constraints(kb, (*profile_constraints(profile, kb), *avoid))
    banned = (
        profile.rated
        | frozenset(exclude)
        | cons.excluded()
        | parts_of_liked(kb, profile)
        | kin_of_disliked(kb, profile)
    )
    allowed = np.ones(len(recommender.item_index), dtype=bool)
    for q in banned:
        pos = recommender.item_position(q)
        if pos is not None:
            allowed[pos] = False
    out: list[Suggestion] = []
    liked = [g.index[q] for q in profile.liked if q in g.index and q not in profile.disliked]
    n_similar = round(k * similar_share) if liked else 0
    if n_similar:
        v = np.zeros(g.n_nodes)
        v[liked] = 1.0 / len(liked)
        inv = np.divide(1.0, g.out_weight, out=np.zeros(g.n_nodes), where=g.out_weight > 0)
        for _ in range(2):
            v = g.weights_t @ (v * inv)
        sim = v[recommender.item_index]
        ok = allowed & (sim > 0)
        for i in top_k(sim, recommender.item_popularity, ok, n_similar):
            out.append(Suggestion(recommender.item_qid(i), "similar", float(sim[i])))
            allowed[i] = False
    for i in top_k(recommender.item_popularity, np.zeros_like(recommender.item_popularity), allowed, k - len(out)):
        out.append(Suggestion(recommender.item_qid(i), "popular", float(recommender.item_popularity[i])))
    return tuple(out)


__all__ = [
    "CONDITIONS",
    "Suggestion",
    "elicitation_suggestions",
    "HIGHEST_MIN_RATINGS",
    "RANDPOP_N",
    "STRATEGIES",
    "ElicitationRequest",
    "Elicitor",
    "RatingCounts",
    "condition_strategy",
    "strategy_name",
]
