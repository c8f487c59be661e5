"""Recommendations from a user profile: PageRank with priors over a domain's item-value graph.

The knowledge base of one domain (:class:`recommender.kb.KnowledgeBase`) gives an undirected graph
whose nodes are items (films, books, songs...) and property values (people, genres, ...), with the
properties (PIDs) of each edge in the ``pids`` attribute. :class:`Recommender` turns it into a
weighted sparse matrix once (:class:`GraphWeighting` decides the edge weights), and each
:meth:`Recommender.recommend` runs one personalized PageRank (:mod:`recommender.pagerank`):

- graph: the KB's item-value graph, plus (optional ``interactions``) one node per known user
  linked to the items and values they liked, the "collaborative knowledge graph" of KGAT (Wang et
  al., KDD 2019): the walk then also follows "people who liked X also liked Y" (weight
  :data:`DEFAULT_USER_WEIGHT` per like vs 1 per KB property; user nodes are never recommended);
- prior: ``prior_mass`` (0.85 in the original ConveRSE system) spread evenly over the liked items
  and property values found in the graph, the rest (0.15) evenly over every other node;
- disliked items and values are removed from the graph for that request (mask, no rebuild);
- seeds ("more like X", issue 23): for one request, :data:`SEED_SHARE` of the scores come from a
  walk whose prior is on the seeds alone (PageRank is linear in its prior, so this is the walk of a
  prior with that share on the seeds), the rest from the profile's; never stored, never
  recommended themselves; ``require``: values every item of the list must have ("a comedy", "songs
  by Adele"), unless no item has them;
- rated items (liked or disliked), ``exclude``, the seeds and the parts of a liked series or album
  are never recommended; items breaking a constraint (a disliked genre, person, band, author, in
  the role it was disliked in, or a constraint of the session: :mod:`recommender.constraints`) are
  left out unless nothing else is left, and ``Recommendations.left_out`` / ``relaxed`` say which;
- some items come after all the others (a soft order, never an exclusion): in music a song or album
  without a known performer, in every domain an item by the creator of a disliked item the person
  likes nothing else of;
- cold start (field cases F32, F33): with no like in the graph (no likes at all, only dislikes,
  liked QIDs unknown to the graph, or liked nodes without any edge), the ranking falls back to the
  knowledge base's popularity, with the same exclusions, and ``Recommendations.fallback_reason``
  tells the dialog why (``FALLBACK_*`` constants).

Elsewhere: the values (``recommender.values``), the edge weights (``recommender.weighting``), the
constraints (``recommender.constraints``), critiquing (``recommender.critique``), item cards
(``recommender.cards``), elicitation suggestions (``recommender.elicitation``) and the networkx
helpers of tools and tests (``recommender.nxgraph``).

Example (``kb`` a loaded movie knowledge base):
    >>> rec = Recommender(kb)                                         # doctest: +SKIP
    >>> rec.recommend(Profile(liked=frozenset({"Q25188"})), k=2)      # doctest: +SKIP
    Recommendations(items=(ScoredItem(qid='Q13417189', score=0.0031), ...), fallback_reason=None)
"""

from __future__ import annotations

import functools
import logging
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from corsbot_errors import ConfigError
from recommender.constraints import (
    CREATOR_PIDS,
    Constraints,
    disliked_creators,
    parts_of_liked,
    profile_constraints,
    without_creator,
)
from recommender.explain import Reason, top_reasons
from recommender.genres import items_of
from recommender.kbgraph import (
    USER_NODE_PREFIX,
    is_user_node,
    item_value_arrays,
    user_node,
    weighted_graph,
    with_users,
)
from recommender.pagerank import DEFAULT_DAMPING, DEFAULT_TOL, personalized_pagerank, prior_vector, top_k
from recommender.positions import ItemPositions
from recommender.push import PushScores, PushSolver
from recommender.support import SUPPORT_HALF, blend, collaborative_share
from recommender.values import PID, QID, Avoid, KnowledgeBaseLike, Profile, Recommendations, ScoredItem
from recommender.weighting import (
    DEFAULT_USER_WEIGHT,
    DEFAULT_WEIGHTING,
    DOMAIN_WEIGHTINGS,
    LIKED_BY,
    PLAIN_WEIGHTING,
    GraphWeighting,
    domain_weighting,
)

CG_TOL = 1e-8
"""Relative residual of the recommender's CG solve (on the Schur complement of
``recommender.pagerank.SplitBlocks``): about 17 iterations on the movie graph, scores within 2e-9 of
a 1e-12 solve (music: 2e-8; 1e-7 would save 2 iterations for errors of 3e-7), same top-10 on 100
random 5-like profiles."""

if TYPE_CHECKING:
    import networkx as nx  # only tools and tests build networkx graphs: not imported at start

logger = logging.getLogger(__name__)

DEFAULT_METHOD = "auto"
"""Default PageRank solver: ``"auto"`` = exact CG (:func:`recommender.pagerank.personalized_pagerank`)
below :data:`APPROX_MIN_EDGES` edges, the approximate forward push (:mod:`recommender.push`) from there."""

APPROX_MIN_EDGES = 50_000
"""Graph size (undirected edges, user edges included) from which ``method="auto"`` uses the
approximate solver. Measured on the real graphs (300 random five-like profiles, the two solvers
timed alternately in one process, quiet 2-core machine, 2026-12-01; p50 / p99 ms of ``recommend``):
book (13k edges) exact CG 5.1 / 11.4, push 4.3 / 14.1; music (90k) CG 14.7 / 40.5, push 3.0 / 11.4;
movie (113k) CG 5.5 / 10.2, push 2.7 / 6.5, with a top-10 overlap of 0.98 / 0.99 / 0.96 with the
exact ranking and the same leave-one-out HR@10 (``corsbot rec evaluate``: movie 0.552 exact, 0.555
push; book 0.833 and music 0.550 both). On synthetic graphs (``corsbot rec bench --scale``) the CG
grows with the graph (25 ms at 200k edges, 1.7 s at 10M) while the push stays flat. Below the
threshold the two cost about the same and the exact one is exact."""


DEFAULT_PRIOR_MASS = 0.85
"""Share of the prior on the liked nodes in the original system (the rest goes to all others)."""

FALLBACK_NO_LIKES = "no_likes"
"""The profile has no liked item or value (empty, or only dislikes): popularity ranking (F32)."""
FALLBACK_UNKNOWN_LIKES = "unknown_likes"
"""Every liked QID is absent from the graph: popularity ranking (F33); see ``unknown``."""
FALLBACK_ISOLATED_LIKES = "isolated_likes"
"""The liked nodes have no edge left (isolated, or all neighbours disliked): popularity ranking."""

_SCORE_CACHE_SIZE = 64

SEED_SHARE = 0.75
"""Share of a seeded list's scores from the seeds' walk: "more like X" is mostly about X even when X
is one like among many (with the seeds merely added to the likes, a long profile drowned them); the
profile's walk keeps the rest, so it still orders X's neighbours."""


class Recommender:
    """PageRank-with-priors recommender over one domain's knowledge base (and, optionally, users' likes).

    Builds the sparse transition matrix once (O(edges)); each request is a power iteration
    (conjugate gradient: ~30 sparse mat-vec products on the movie graph's 113k edges).

    Args:
        kb: the domain's knowledge base.
        damping: probability of following an edge (0.85 as in the original system).
        prior_mass: share of the prior on the liked nodes, in (0, 1]; the rest is spread evenly
            over all other (non-masked) nodes (0.85 in the original system).
        weighting: edge weights (default: the KB domain's, :func:`domain_weighting`).
        method: solver, ``"auto"`` (default: ``"cg"`` below :data:`APPROX_MIN_EDGES` edges, else
            ``"push"``), ``"cg"`` (conjugate gradient, exact) or ``"power"`` (power iteration,
            exact; same scores within 1e-6), or ``"push"`` (approximate forward push,
            :mod:`recommender.push`, cost independent of the graph's size).
        tol: solver tolerance (default: :data:`CG_TOL` for cg, 1e-8 L1 change for power; see
            ``personalized_pagerank``).
        interactions: optional user key -> QIDs that user liked (items or property values), e.g.
            the released study's likes and the bot's own logged likes. Each user becomes a node
            ``user:<key>`` linked to the liked QIDs that are graph nodes (the "collaborative
            knowledge graph" of KGAT, Wang et al., KDD 2019), weighted by ``weighting.user_weight``.
            QIDs unknown to the KB graph are ignored. User nodes are never recommended. Without
            interactions the graph is the KB's item-value graph alone.
        support_half: how many co-likers make the collaborative walk decide half of the scores, the
            KB graph's walk the rest (:mod:`recommender.support`); 0 for the collaborative walk alone.

    Raises:
        ConfigError: if damping or prior_mass is out of range.
    """

    def __init__(
        self,
        kb: KnowledgeBaseLike,
        *,
        damping: float = DEFAULT_DAMPING,
        prior_mass: float = DEFAULT_PRIOR_MASS,
        weighting: GraphWeighting | None = None,
        method: str = DEFAULT_METHOD,
        tol: float | None = None,
        interactions: Mapping[str, Iterable[QID]] | None = None,
        support_half: float = SUPPORT_HALF,
    ) -> None:
        if not 0.0 <= damping < 1.0:
            raise ConfigError(f"damping must be in [0, 1), got {damping}")
        if not 0.0 < prior_mass <= 1.0:
            raise ConfigError(f"prior_mass must be in (0, 1], got {prior_mass}")
        self.kb = kb
        self.damping = damping
        self.prior_mass = prior_mass
        self.weighting = weighting or domain_weighting(getattr(kb, "domain", None))
        self.support_half = support_half
        """Co-likers at which the collaborative walk decides half of a list (``recommender.support``; 0: all)."""
        if method not in ("auto", "cg", "power", "push"):
            raise ConfigError(f"method must be 'auto', 'cg', 'power' or 'push', got {method!r}")
        canonical = getattr(kb, "canonical", None)
        if interactions and canonical is not None:
            interactions = {key: tuple(canonical(q) for q in qids) for key, qids in interactions.items()}
        arrays = item_value_arrays(kb)
        collab = with_users(arrays, interactions or {})
        self._interactions = interactions or {}
        self.user_keys: tuple[str, ...] = collab.user_keys
        """Interaction keys that got a user node."""
        self.graph = weighted_graph(collab, self.weighting)
        """The graph walked: the KB's item-value graph plus user nodes and edges, if any."""
        self.item_index: NDArray[np.int64] = arrays.item_index
        """Node index of each recommendable item in the graph, in QID string order."""
        self.missing_items: tuple[QID, ...] = arrays.missing_items
        self.item_popularity: NDArray[np.float64] = arrays.item_popularity
        self.item_in_kb_graph: NDArray[np.bool_] = arrays.degree[arrays.item_index] > 0
        """(n_items,) True if the item has at least one edge in the KB's item-value graph (its
        property triples); user edges do not count."""
        self._node_at = arrays.node_at
        self._pos_of_item = ItemPositions(arrays, self.graph.n_nodes)
        if method == "auto":
            method = "push" if self.graph.n_edges >= APPROX_MIN_EDGES else "cg"
        self.method = method
        """The solver used: ``"cg"`` or ``"power"`` (exact) or ``"push"`` (approximate)."""
        self.tol = (CG_TOL if method == "cg" else DEFAULT_TOL) if tol is None else tol
        self._push = PushSolver(self.graph, damping=damping) if method == "push" else None
        self._push_order: NDArray[np.int64] | None = None
        self._cache: OrderedDict[tuple[frozenset[str], frozenset[str], frozenset[str]], _Solved] = OrderedDict()
        logger.info(
            "recommender for %s: %d nodes, %d edges, %d items (%d outside the graph), %d user nodes",
            getattr(kb, "domain", "?"),
            self.graph.n_nodes,
            self.graph.n_edges,
            len(self.item_index),
            len(self.missing_items),
            len(self.user_keys),
        )

    @functools.cached_property
    def item_qids(self) -> tuple[QID, ...]:
        """Recommendable items present in the graph, in ``item_index`` order (QID string order);
        built on first use (offline tools), the bot itself never needs all of them."""
        node_at = self._node_at
        return tuple(str(node_at(int(i))) for i in self.item_index)

    @functools.cached_property
    def nx_graph(self) -> nx.Graph:
        """The walked graph as networkx (built on first use, for tools and tests): the KB's
        ``graph()`` plus user nodes with ``pids=(LIKED_BY,)`` edges."""
        from recommender.nxgraph import add_user_edges

        return add_user_edges(self.kb.graph(), self._interactions)[0]

    def item_position(self, qid: QID) -> int | None:
        """The item position of ``qid`` (an index into ``item_index``), None if not a graph item."""
        pos = self._pos_of_item.get(qid)
        return None if pos is None else int(pos)

    def item_qid(self, pos: int) -> QID:
        """The QID of item position ``pos`` (an index into ``item_index``)."""
        return str(self._node_at(int(self.item_index[pos])))

    def edge_pids(self, a: QID, b: QID) -> tuple[PID, ...]:
        """Properties linking ``a`` and ``b`` in the walked graph (schema order), ``(LIKED_BY,)``
        for a user edge, empty if they are not linked."""
        if is_user_node(a) or is_user_node(b):
            user, other = (a, b) if is_user_node(a) else (b, a)
            key = user[len(USER_NODE_PREFIX) :]
            return (LIKED_BY,) if other in self._interactions.get(key, ()) and user in self.graph.index else ()
        order = getattr(self.kb, "pids", None)
        if order is None:
            return tuple(self.nx_graph.get_edge_data(a, b, {}).get("pids", ()))
        found = {p for p, v in self.kb.item_values(a) if v == b} | {p for p, v in self.kb.item_values(b) if v == a}
        return tuple(p for p in order if p in found)

    # -- scoring -------------------------------------------------------------------------------

    def solve(self, profile: Profile, *, hide_users: Iterable[str] = ()) -> _Solved:
        """PageRank scores of every graph node for ``profile`` (cached, bounded LRU).

        Args:
            profile: liked and disliked QIDs.
            hide_users: interaction keys whose user nodes (and edges) are removed for this
                request, e.g. the held-out user in the offline evaluation, so that nothing of
                their own likes reaches the graph. Unknown keys are ignored.

        Returns:
            A :class:`_Solved` with ``scores`` (n,) (None on fallback), the ``mask`` of removed
            nodes, the ``fallback_reason`` and the ``unknown`` liked QIDs.
        """
        index = self.graph.index
        hidden = frozenset(node for node in (user_node(k) for k in hide_users) if node in index)
        profile = self.canonical_profile(profile)
        key = (profile.liked, profile.disliked, hidden)
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        solved = self._blend(profile, hidden, self._solve(profile, hidden))
        self._cache[key] = solved
        if len(self._cache) > _SCORE_CACHE_SIZE:
            self._cache.popitem(last=False)
        return solved

    def canonical_profile(self, profile: Profile) -> Profile:
        """``profile`` with every QID as the graph knows it (``KnowledgeBase.canonical``: a
        near-duplicate genre merged at build time is the genre it became); unchanged when the KB
        has no merged entities."""
        canonical = getattr(self.kb, "canonical", None)
        if canonical is None:
            return profile
        liked = frozenset(canonical(q) for q in profile.liked)
        disliked = frozenset(canonical(q) for q in profile.disliked)
        if liked == profile.liked and disliked == profile.disliked:
            return profile
        roles = frozenset((canonical(q), p) for q, p in profile.disliked_roles)
        return Profile(liked=liked - disliked, disliked=disliked, disliked_roles=roles)

    def _solve(self, profile: Profile, hidden: frozenset[str] = frozenset()) -> _Solved:
        index = self.graph.index
        n = self.graph.n_nodes
        mask = np.zeros(n, dtype=bool)
        for q in (*profile.disliked, *hidden):
            i = index.get(q)
            if i is not None:
                mask[i] = True
        liked = [index[q] for q in profile.liked if q in index and q not in profile.disliked]
        unknown = tuple(sorted(q for q in profile.liked if q not in index))
        if not liked:
            reason = FALLBACK_UNKNOWN_LIKES if unknown else FALLBACK_NO_LIKES
            return _Solved(None, mask, reason, unknown)
        liked_arr = np.asarray(sorted(set(liked)), dtype=np.int64)
        # a liked node keeps an edge if one of its neighbours is not masked
        wt = self.graph.weights_t
        if mask.any():
            out_kept = wt[liked_arr] @ (~mask).astype(np.float64)
        else:
            out_kept = self.graph.out_weight[liked_arr]
        if not np.any(out_kept > 0):
            return _Solved(None, mask, FALLBACK_ISOLATED_LIKES, unknown)
        if self._push is not None:
            n_masked = int(np.count_nonzero(mask))
            res = self._push.solve(
                liked_arr, prior_mass=self.prior_mass, mask=mask if n_masked else None, n_masked=n_masked
            )
            return _Solved(None, mask, None, unknown, push=res)
        prior = prior_vector(n, liked_arr, mask, self.prior_mass)
        scores = personalized_pagerank(
            self.graph, prior, damping=self.damping, mask=mask if mask.any() else None, tol=self.tol, method=self.method
        )
        return _Solved(scores, mask, None, unknown)

    def _blend(self, profile: Profile, hidden: frozenset[str], walked: _Solved) -> _Solved:
        """``walked`` (the collaborative graph's walk) blended with the KB graph's by the support of the
        profile's co-likers (``recommender.support``); unchanged without user nodes or ``support_half``."""
        if walked.fallback_reason or not self.user_keys or self.support_half <= 0:
            return walked
        share = collaborative_share(self.graph, profile.liked, len(self.user_keys), walked.mask, self.support_half)
        content = self._solve(profile, hidden | set(map(user_node, self.user_keys))) if share < 1.0 else walked
        blended = blend(walked.dense(), content.dense(), share, self.item_index)
        return walked if blended is None else _Solved(blended, walked.mask, None, walked.unknown)

    def item_scores(
        self, profile: Profile, *, hide_users: Iterable[str] = ()
    ) -> tuple[NDArray[np.float64] | None, str | None]:
        """Scores of every item of ``item_qids`` (in that order) and the fallback reason.

        On fallback the scores are None (use :attr:`item_popularity`). ``hide_users``: see
        :meth:`solve`.
        """
        solved = self.solve(profile, hide_users=hide_users)
        scores = solved.dense()
        if scores is None:
            return None, solved.fallback_reason
        return scores[self.item_index], None

    # -- public API ----------------------------------------------------------------------------

    def recommend(
        self,
        profile: Profile,
        *,
        k: int = 5,
        exclude: Iterable[QID] = (),
        seeds: Iterable[QID] = (),
        avoid: Iterable[Avoid] = (),
        require: Iterable[QID] = (),
    ) -> Recommendations:
        """The top-k items for ``profile`` that respect what the person said (see the module docstring).

        Args:
            profile: liked and disliked QIDs (items or property values; unknown QIDs are ignored
                and reported in ``unknown``); its dislikes are constraints (in the role said).
            k: number of items (>= 0).
            exclude: more QIDs never to return (e.g. items already shown, skipped, answered).
            seeds: items or values the list should be like ("more like X"): the prior of
                :data:`SEED_SHARE` of the scores, for this request only, never stored and never
                returned. A disliked seed is ignored.
            avoid: constraints of the session (``Avoid(qid, role, session=True)``: "no horror this
                time") on top of the profile's dislikes.
            require: values (genres, people) every listed item must have, any property ("recommend
                me a comedy", "songs by Adele"); ignored when no allowed item has them all.

        Returns:
            :class:`Recommendations`, best first; ties are broken by popularity then QID. Items
            breaking a constraint are left out (``left_out`` names the constraints that removed an
            item the list would have shown), unless nothing else is left (``relaxed``).
        """
        if k <= 0:
            return Recommendations((), None, ())
        seed_set = frozenset(q for q in seeds if q not in profile.disliked)
        solved = self._seeded(profile, seed_set)
        cons = Constraints(self.kb, (*profile_constraints(profile, self.kb), *avoid))
        banned = profile.rated | frozenset(exclude) | seed_set | parts_of_liked(self.kb, profile)
        excluded = cons.excluded()
        later = self._later(profile)
        only = self._having(frozenset(require) - profile.disliked)
        items = self._rank(solved, banned | excluded, later, k, only) if only is not None else ()
        unmet: tuple[QID, ...] = ()
        if not items:  # no allowed item has every required value: the list without the requirement
            unmet = tuple(sorted(frozenset(require) - profile.disliked))
            only, items = None, self._rank(solved, banned | excluded, later, k)
        left_out: tuple[Avoid, ...] = ()
        relaxed: tuple[Avoid, ...] = ()
        if cons:  # the same list without the constraints (within the requirement kept)
            plain = self._rank(solved, banned, later, len(items) or k, only)
            broken = {a for s in plain if s.qid in excluded for a in cons.broken_by(s.qid)}
            left_out = tuple(a for a in cons.avoid if a in broken)
            if not items and plain:  # nothing else is left: keep them, and say the conflict
                items, relaxed, left_out = plain, left_out, ()
        if solved.fallback_reason:
            logger.info("recommend: fallback %s (unknown likes: %s)", solved.fallback_reason, solved.unknown)
        return Recommendations(items, solved.fallback_reason, solved.unknown, left_out, relaxed, unmet)

    def _seeded(self, profile: Profile, seeds: frozenset[QID]) -> _Solved:
        """The scores of a list asked "like" ``seeds``: :data:`SEED_SHARE` from the seeds' walk, the
        rest from the profile's (the profile's alone without seeds, the seeds' alone without likes)."""
        base = self.solve(profile)
        if not seeds:
            return base
        focus = self.solve(Profile(seeds, profile.disliked, profile.disliked_roles))
        mine, theirs = base.dense(), focus.dense()
        if theirs is None:  # no seed in the graph: the profile's list
            return base
        if mine is None:
            return focus
        return _Solved(SEED_SHARE * theirs + (1.0 - SEED_SHARE) * mine, base.mask, None, base.unknown)

    def _having(self, values: frozenset[QID]) -> NDArray[np.bool_] | None:
        """(n_items,) items linked to every value of ``values`` (by any property; a genre's also through
        the creator, ``genres.items_of``), None for none."""
        if not values:
            return None
        having = np.ones(len(self.item_index), dtype=bool)
        canonical = getattr(self.kb, "canonical", None)
        for value in values if canonical is None else {canonical(v) for v in values}:
            linked = np.zeros(len(self.item_index), dtype=bool)
            positions = [pos for item in items_of(self.kb, value) if (pos := self._pos_of_item.get(item)) is not None]
            linked[positions] = True
            having &= linked
        return having

    def _rank(
        self,
        solved: _Solved,
        banned: frozenset[QID],
        later: NDArray[np.bool_] | None,
        k: int,
        only: NDArray[np.bool_] | None = None,
    ) -> tuple[ScoredItem, ...]:
        """The k best items not ``banned`` nor masked, within ``only`` if given; those marked
        ``later`` only after all others."""
        allowed = np.ones(len(self.item_index), dtype=bool) if only is None else only.copy()
        banned_pos = [pos for q in banned if (pos := self._pos_of_item.get(q)) is not None]
        allowed[banned_pos] = False
        allowed &= ~solved.mask[self.item_index]
        tiers = [allowed] if later is None else [allowed & ~later, allowed & later]
        out: list[ScoredItem] = []
        for tier in tiers:
            if len(out) >= k:
                break
            out.extend(self._top(solved, tier, k - len(out)))
        return tuple(out)

    def _top(self, solved: _Solved, allowed: NDArray[np.bool_], k: int) -> list[ScoredItem]:
        """The k best ``allowed`` item positions by score (popularity on fallback)."""
        if not allowed.any():
            return []
        if solved.push is not None:  # the approximate solver ranks without scoring every item
            if self._push_order is None and self._push is not None:
                self._push_order = self._push.item_order(self.item_index)
            assert self._push_order is not None
            top_arr, scores = solved.push.top_items(
                self.item_index,
                self._push_order,
                k=k,
                allowed=lambda positions: allowed[positions],
                secondary=self.item_popularity,
            )
            return [ScoredItem(self.item_qid(int(i)), float(x)) for i, x in zip(top_arr, scores, strict=True)]
        if solved.fallback_reason is not None:
            primary = self.item_popularity
        else:
            assert solved.scores is not None
            primary = solved.scores[self.item_index]
        return [
            ScoredItem(self.item_qid(i), float(primary[i])) for i in top_k(primary, self.item_popularity, allowed, k)
        ]

    def _later(self, profile: Profile) -> NDArray[np.bool_] | None:
        """(n_items,) items shown only after all others (module docstring), None when there are none."""
        later = self._without_creator.copy() if self._without_creator is not None else None
        for creator in disliked_creators(self.kb, profile):
            pids = CREATOR_PIDS.get(getattr(self.kb, "domain", ""), ())
            for pid, item in self.kb.value_items(creator):
                pos = self._pos_of_item.get(item) if pid in pids else None
                if pos is not None:
                    if later is None:
                        later = np.zeros(len(self.item_index), dtype=bool)
                    later[pos] = True
        return later

    @property
    def shown_after(self) -> NDArray[np.bool_] | None:
        """(n_items,) items every list shows only after all the others whatever the profile (music
        items without a known performer), or None in a domain without such an order."""
        return self._without_creator

    @functools.cached_property
    def _without_creator(self) -> NDArray[np.bool_] | None:
        """(n_items,) music items without a named performer (``constraints.without_creator``)."""
        return without_creator(self.kb, self.item_index, self.item_qid)

    def explain(self, profile: Profile, item: QID) -> tuple[Reason, ...]:
        """Up to 3 reasons, taken from the PageRank mass that reaches ``item`` (see explain.py).

        Returns:
            Reasons, strongest first; empty if the item is unknown or the ranking fell back.
        """
        profile = self.canonical_profile(profile)  # a liked merged genre is liked as the genre it became
        solved = self.solve(profile)
        scores = solved.dense()
        if scores is None or item not in self.graph.index:
            return ()
        liked = {q for q in profile.liked if q in self.graph.index and q not in profile.disliked}
        return top_reasons(self, scores, solved.mask, liked, item)


@dataclass(frozen=True, slots=True, eq=False)
class _Solved:
    scores: NDArray[np.float64] | None  # exact solvers
    mask: NDArray[np.bool_]
    fallback_reason: str | None
    unknown: tuple[QID, ...]
    push: PushScores | None = None  # the approximate solver (sparse)

    def dense(self) -> NDArray[np.float64] | None:
        """(n,) scores of every node, None on fallback (the push's are built on demand, O(n))."""
        if self.scores is not None:
            return self.scores
        return self.push.dense() if self.push is not None else None


__all__ = [
    "APPROX_MIN_EDGES",
    "CG_TOL",
    "DEFAULT_PRIOR_MASS",
    "DEFAULT_USER_WEIGHT",
    "DEFAULT_WEIGHTING",
    "DOMAIN_WEIGHTINGS",
    "FALLBACK_ISOLATED_LIKES",
    "FALLBACK_NO_LIKES",
    "FALLBACK_UNKNOWN_LIKES",
    "LIKED_BY",
    "PLAIN_WEIGHTING",
    "USER_NODE_PREFIX",
    "Avoid",
    "GraphWeighting",
    "KnowledgeBaseLike",
    "Profile",
    "Recommendations",
    "Recommender",
    "ScoredItem",
    "domain_weighting",
    "is_user_node",
    "prior_vector",
    "top_k",
    "user_node",
]
