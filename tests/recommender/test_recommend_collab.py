"""Collaborative graph: user nodes linked to their likes (KGAT's collaborative knowledge graph)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from _rec_fakes import FakeKB  # noqa: E402

from recommender.explain import ReasonKind, explain_text
from recommender.nxgraph import add_user_edges
from recommender.recommend import (
    LIKED_BY,
    GraphWeighting,
    Profile,
    Recommender,
    is_user_node,
    user_node,
)

INCEPTION, INTERSTELLAR, TITANIC, TOY_STORY, LONELY = "Q25188", "Q13417189", "Q44578", "Q171048", "Q999001"
NOLAN, GIBSON = "Q25191", "Q42229"

LIKES = {
    "u1": (TITANIC, TOY_STORY, LONELY),
    "u2": (TITANIC, TOY_STORY, "Q123456789"),  # unknown QID: ignored
    "u3": (INCEPTION, NOLAN),  # a liked value is linked too
    "u4": ("Q404",),  # nothing known: no node
}


@pytest.fixture(scope="module")
def collab() -> Recommender:
    return Recommender(FakeKB(), interactions=LIKES, support_half=0)  # the collaborative walk alone


def test_user_nodes_and_edges(collab):
    assert collab.user_keys == ("u1", "u2", "u3")
    g = collab.nx_graph
    assert set(g[user_node("u1")]) == {TITANIC, TOY_STORY, LONELY}
    assert set(g[user_node("u3")]) == {INCEPTION, NOLAN}
    assert g[user_node("u2")][TITANIC]["pids"] == (LIKED_BY,)
    assert user_node("u4") not in g and "Q123456789" not in g
    assert is_user_node(user_node("u1")) and not is_user_node(INCEPTION)
    # the KB graph itself is untouched, and the edge count grows by the 7 user edges
    kb_graph = FakeKB().graph()
    assert not any(is_user_node(n) for n in kb_graph)
    assert collab.graph.n_edges == kb_graph.number_of_edges() + 7
    # an item without KB edge stays "not in the KB graph" even with user edges
    pos = collab.item_qids.index(LONELY)
    assert not collab.item_in_kb_graph[pos] and collab.item_in_kb_graph[collab.item_qids.index(TITANIC)]


def test_add_user_edges_without_interactions_returns_the_same_graph():
    g = FakeKB().graph()
    assert add_user_edges(g, {}) == (g, ())
    assert add_user_edges(g, {"x": ("Q404",)}) == (g, ())


def test_user_nodes_are_never_recommended(collab):
    recs = collab.recommend(Profile(liked=frozenset({TITANIC})), k=20)
    assert recs.items and not any(is_user_node(s.qid) for s in recs.items)
    assert {s.qid for s in recs.items} <= set(FakeKB().items) - {TITANIC}


def test_other_users_likes_lead_the_walk(collab):
    """Toy Story shares nothing with Titanic in the KB; two users liked both."""
    plain = Recommender(FakeKB())
    titanic = Profile(liked=frozenset({TITANIC}))
    assert TOY_STORY not in [s.qid for s in plain.recommend(titanic, k=5).items]
    assert [s.qid for s in collab.recommend(titanic, k=1).items] == [TOY_STORY]
    # the edgeless film becomes reachable through u1: last without user edges, above 3 films with
    assert [s.qid for s in plain.recommend(titanic, k=9).items][-1] == LONELY
    assert [s.qid for s in collab.recommend(titanic, k=9).items].index(LONELY) <= 5


def test_collaborative_scores_equal_networkx(collab):
    profile = Profile(liked=frozenset({TITANIC, NOLAN}), disliked=frozenset({GIBSON}))
    solved = collab.solve(profile, hide_users=("u2",))
    g = nx.Graph(collab.nx_graph.subgraph(set(collab.nx_graph) - {GIBSON, user_node("u2")}))
    w = collab.weighting.user_weight
    for _u, _v, data in g.edges(data=True):  # the documented weights: 1 per KB property, w per like
        data["weight"] = sum(w if p == LIKED_BY else 1.0 for p in data["pids"])
    n = g.number_of_nodes()
    pers = {v: 0.15 / (n - 2) for v in g}
    pers[TITANIC] = pers[NOLAN] = 0.85 / 2
    ref = nx.pagerank(g, personalization=pers, tol=1e-13, max_iter=1000, weight="weight")
    assert max(abs(solved.scores[collab.graph.index[v]] - s) for v, s in ref.items()) < 1e-6
    assert solved.scores[collab.graph.index[user_node("u2")]] == 0.0


def test_hide_unknown_user_is_harmless(collab):
    p = Profile(liked=frozenset({TITANIC}))
    a, _ = collab.item_scores(p)
    b, _ = collab.item_scores(p, hide_users=("nobody",))
    np.testing.assert_array_equal(a, b)


def test_user_weight_scales_collaborative_edges():
    kb = FakeKB()
    titanic = Profile(liked=frozenset({TITANIC}))
    weak = Recommender(kb, interactions=LIKES, weighting=GraphWeighting(user_weight=0.01))
    strong = Recommender(kb, interactions=LIKES, weighting=GraphWeighting(user_weight=10.0))
    toy = weak.item_qids.index(TOY_STORY)
    assert strong.item_scores(titanic)[0][toy] > 5 * weak.item_scores(titanic)[0][toy]
    # user_exponent: a user with many likes passes on less (u1 has 3 likes, u2 2)
    damped = Recommender(kb, interactions=LIKES, weighting=GraphWeighting(user_exponent=1.0))
    w = damped.graph.weights_t
    i, u1, u2 = damped.graph.index[TITANIC], damped.graph.index[user_node("u1")], damped.graph.index[user_node("u2")]
    assert w[u1, i] == pytest.approx(1 / 3) and w[u2, i] == pytest.approx(1 / 2)


def test_co_liked_reason_names_the_liked_item_not_the_users(collab):
    reasons = collab.explain(Profile(liked=frozenset({TITANIC})), TOY_STORY)
    assert reasons and reasons[0].kind == ReasonKind.CO_LIKED and reasons[0].entity == TITANIC
    assert 0 < reasons[0].weight <= 1
    assert not any(is_user_node(r.entity) or (r.via and is_user_node(r.via)) for r in reasons)
    assert explain_text(collab, reasons[:1]) == "People who liked Titanic also liked it."


def test_co_liked_weight_is_the_two_step_mass(collab):
    """CO_LIKED = sum over users w of a^2 x_u P(u->w) P(w->i) / x_i, checked by hand."""
    profile = Profile(liked=frozenset({TITANIC}))
    x = collab.solve(profile).scores
    idx = collab.graph.index
    w = collab.weighting.user_weight
    deg_titanic = collab.graph.out_weight[idx[TITANIC]]
    assert deg_titanic == pytest.approx(3 + 2 * w)  # 3 KB edges (weight 1) + u1 + u2
    expected = (
        sum(
            0.85**2 * x[idx[TITANIC]] * (w / deg_titanic) * (1 / len(collab.nx_graph[user_node(u)]))
            for u in ("u1", "u2")
        )
        / x[idx[TOY_STORY]]
    )
    (reason, *_rest) = collab.explain(profile, TOY_STORY)
    assert reason.weight == pytest.approx(expected, rel=1e-9)


def test_render_co_liked_after_liked_values():
    from recommender.explain import Reason, render_reasons

    labels = {NOLAN: "Christopher Nolan", INCEPTION: "Inception", TITANIC: "Titanic"}
    text = render_reasons(
        (
            Reason(ReasonKind.LIKED_VALUE, NOLAN, "P57", None, 0.4),
            Reason(ReasonKind.CO_LIKED, INCEPTION, None, None, 0.3),
            Reason(ReasonKind.CO_LIKED, TITANIC, None, None, 0.1),
        ),
        label=labels.__getitem__,
    )
    assert text == (
        "You like Christopher Nolan, who directed it. People who liked Inception and Titanic also liked it."
    )


def test_the_collaborative_share_grows_with_the_people_who_back_it():
    from recommender.support import SUPPORT_HALF, collaborative_share

    likes = {**LIKES, "only": (TITANIC,)}  # a person who liked nothing else backs no "also liked"
    rec = Recommender(FakeKB(), interactions=likes)
    mask = np.zeros(rec.graph.n_nodes, dtype=bool)
    share = collaborative_share(rec.graph, [TITANIC], len(rec.user_keys), mask)
    assert share == pytest.approx(2 / (2 + SUPPORT_HALF))  # u1 and u2
    assert collaborative_share(rec.graph, [INCEPTION, NOLAN], len(rec.user_keys), mask) == pytest.approx(
        1 / (1 + SUPPORT_HALF)
    )
    assert collaborative_share(rec.graph, [TITANIC], len(rec.user_keys), mask, half=0) == 1.0


def test_a_thinly_backed_like_is_ranked_by_content_more_than_by_its_co_likers():
    titanic = Profile(liked=frozenset({TITANIC}))
    walk = Recommender(FakeKB(), interactions=LIKES, support_half=0)
    blended = Recommender(FakeKB(), interactions=LIKES)
    content = Recommender(FakeKB())
    co_liked = walk.item_position(TOY_STORY)
    rank = {
        name: list(np.argsort(-r.item_scores(titanic)[0])).index(co_liked)
        for name, r in (("walk", walk), ("blended", blended), ("content", content))
    }
    assert rank["walk"] <= rank["blended"] <= rank["content"]
    assert rank["walk"] < rank["content"]
