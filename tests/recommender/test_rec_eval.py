"""Leave-one-out evaluation: protocol, baselines, tie handling, summary line, study extraction."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from _rec_fakes import FakeKB  # noqa: E402

from recommender.rec_eval import (
    ItemKnn,
    Metrics,
    StudyUser,
    evaluate_domain,
    markdown_report,
    rank_of,
    study_interactions,
    study_popularity,
    summary_line,
)
from recommender.recommend import Profile, Recommender

INCEPTION, INTERSTELLAR, DARK_KNIGHT, DUNKIRK = "Q25188", "Q13417189", "Q163872", "Q24053263"
TITANIC, TOY_STORY, NOLAN = "Q44578", "Q171048", "Q25191"


@pytest.fixture(scope="module")
def rec() -> Recommender:
    return Recommender(FakeKB())


def test_metrics_from_ranks():
    m = Metrics.from_ranks([1, 3, 10, 11])
    assert (m.hr5, m.hr10) == (0.5, 0.75)
    assert m.ndcg10 == pytest.approx((1 + 1 / np.log2(4) + 1 / np.log2(11)) / 4)
    assert m.mrr == pytest.approx((1 + 1 / 3 + 1 / 10 + 1 / 11) / 4)
    assert Metrics.from_ranks([]) == Metrics(0.0, 0.0, 0.0, 0.0)


def test_rank_of_breaks_ties_at_random():
    rng = np.random.default_rng(0)
    scores = np.array([1.0, 1.0, 1.0, 1.0, 2.0])
    ranks = {rank_of(scores, 0, rng) for _ in range(200)}
    assert ranks == {2, 3, 4, 5}  # never rewarded for a flat score
    assert rank_of(np.array([3.0, 1.0, -np.inf]), 2, rng) == 3


def test_leave_one_out_counts_and_hits(rec):
    users = [
        StudyUser("a#1", liked=(INCEPTION, INTERSTELLAR, NOLAN)),  # 2 item cases, 1 value skipped
        StudyUser("a#2", liked=(DARK_KNIGHT, DUNKIRK, "Q404"), disliked=(TITANIC,)),  # Q404 not in graph
        StudyUser("a#3", liked=(NOLAN,)),  # no case
        StudyUser("a#4", liked=(), disliked=(TOY_STORY,)),  # no like
    ]
    r = evaluate_domain(rec, users, seed=1)
    assert (r.users, r.users_total, r.cases, r.liked_not_item) == (2, 3, 4, 3)
    assert r.candidates == 10
    # Nolan films: hiding one, the others + Nolan put it in the top 5 of the 7-9 unrated films
    assert r.metrics["pagerank"].hr5 == 1.0
    assert set(r.metrics) == {"pagerank", "popularity", "knn", "random"}
    assert r.fallback_cases == 0 and r.unreachable_cases == 0
    assert r.metrics_all_items["pagerank"] == r.metrics["pagerank"]
    assert json.loads(json.dumps(r.to_json()))["metrics"]["pagerank"]["hr5"] == 1.0


def test_single_like_case_falls_back_and_is_counted(rec):
    r = evaluate_domain(rec, [StudyUser("u", liked=(TITANIC,))])
    assert r.cases == 1 and r.fallback_cases == 1


def test_item_without_kb_edge_is_not_a_case_but_reported_as_not_reachable(rec):
    # Q999001 is a KB item (a node of kb.graph()) without any property edge: not "in the graph"
    r = evaluate_domain(rec, [StudyUser("u", liked=("Q999001", INCEPTION, NOLAN))])
    assert (r.cases, r.unreachable_cases, r.liked_not_item) == (1, 1, 1)
    assert r.metrics["pagerank"].hr5 == 1.0
    assert r.metrics_unreachable["pagerank"].hr5 == 0.0  # below every connected film
    assert r.metrics_all_items["pagerank"].hr5 == 0.5
    assert "| movie | not reachable | 1 | pagerank |" in markdown_report({"movie": r})


def test_unreachable_stays_unreachable_with_user_edges():
    # another user links the edgeless film to Inception: still not a case (the KB decides)
    rec = Recommender(FakeKB(), interactions={"other": ("Q999001", INCEPTION)})
    r = evaluate_domain(
        rec, [StudyUser("u", liked=("Q999001", INCEPTION, NOLAN)), StudyUser("other", liked=("Q999001", INCEPTION))]
    )
    assert r.unreachable_cases == 2 and r.cases == 2
    # for "u", other users' likes now lead the walk from Inception to the edgeless film
    assert r.metrics_unreachable["pagerank"].hr10 > 0


def test_held_out_user_own_edges_are_hidden():
    """No leak: the held-out user's node (linking their likes) is removed for their cases."""
    users = [
        StudyUser("messages_nl.json#1", liked=(TOY_STORY, TITANIC)),
        StudyUser("messages_mixed.json#2", liked=(INCEPTION, INTERSTELLAR)),
    ]
    rec = Recommender(FakeKB(), interactions=study_interactions(users), support_half=0)  # the collaborative walk
    assert set(rec.user_keys) == {"messages_nl.json#1", "messages_mixed.json#2"}
    titanic = Profile(liked=frozenset({TITANIC}))
    # with the user's own edge, Titanic -> user -> Toy Story puts Toy Story in the top 3
    assert TOY_STORY in [s.qid for s in rec.recommend(titanic, k=3).items]
    hidden, _ = rec.item_scores(titanic, hide_users=("messages_nl.json#1",))
    order = [rec.item_qids[i] for i in np.argsort(-hidden)]
    assert order.index(TOY_STORY) >= 7  # below the films reachable from Titanic (and Titanic itself)
    others = {"messages_mixed.json#2": (INCEPTION, INTERSTELLAR)}
    plain, _ = Recommender(FakeKB(), interactions=others, support_half=0).item_scores(titanic)
    # hiding a user = building the graph without them (same items, same order)
    np.testing.assert_allclose(hidden / hidden.sum(), plain / plain.sum(), atol=1e-6)
    r = evaluate_domain(rec, users)
    assert r.groups["messages_nl.json"][0] == 2 and r.groups["messages_mixed.json"][0] == 2
    assert r.settings["user_nodes"] == 2
    leak_free = evaluate_domain(rec, users[:1])  # the Toy Story case is a miss once hidden
    assert leak_free.metrics["pagerank"].hr5 <= 0.5


def test_baselines_do_not_depend_on_the_recommender():
    users = [
        StudyUser("a", liked=(INCEPTION, INTERSTELLAR, DARK_KNIGHT)),
        StudyUser("b", liked=(INCEPTION, TITANIC)),
        StudyUser("c", liked=(DUNKIRK, TOY_STORY)),
    ]
    r1 = evaluate_domain(Recommender(FakeKB()), users, seed=3)
    r2 = evaluate_domain(Recommender(FakeKB(), damping=0.3, prior_mass=0.5), users, seed=3)
    assert r1.metrics["popularity"] == r2.metrics["popularity"]
    assert r1.metrics["random"] == r2.metrics["random"]


def test_popularity_baseline_uses_other_users_only(rec):
    # only the held-out user likes Toy Story: its popularity for that case is 0, not 1
    users = [StudyUser("me", liked=(TOY_STORY, INCEPTION)), StudyUser("other", liked=(INCEPTION,))]
    r = evaluate_domain(rec, users, seed=0)
    assert study_popularity(users) == {TOY_STORY: 1, INCEPTION: 2}
    # case "hide Inception" for "me": Inception liked by "other" -> rank 1 for popularity
    # case "hide Toy Story": popularity 0 like 7 other unrated films -> tie, random rank
    # case "hide Inception" for "other": liked by "me" -> rank 1
    assert r.cases == 3
    assert r.metrics["popularity"].hr5 >= 2 / 3


def test_summary_line_format(rec):
    res = {"movie": evaluate_domain(rec, [StudyUser("u", liked=(INCEPTION, INTERSTELLAR))])}
    line = summary_line(res)
    assert re.fullmatch(
        r"rec: users=1 cases=2 hr10_movie=\d\.\d{3} popularity_hr10_movie=\d\.\d{3} random_hr10_movie=\d\.\d{3} "
        r"ndcg10_movie=\d\.\d{3} hr10_book=nan hr10_music=nan popularity_hr10_book=nan popularity_hr10_music=nan "
        r"knn_hr10_movie=\d\.\d{3} knn_hr10_book=nan knn_hr10_music=nan ndcg10_book=nan ndcg10_music=nan",
        line,
    ), line
    assert "| movie | 1 | 2 | 10 | pagerank |" in markdown_report(res)


def test_study_users_from_dataset_file(tmp_path):
    from bot.cli.rec import study_users

    records = [
        {
            "messageID": "1",
            "userID": 7,
            "message": "I like Inception",
            "timestampStart": 1,
            "timestampEnd": 2,
            "intent": "preference",
            "contexts": "",
            "toCheck": False,
            "recognizedObjects": "Q25188+, Q42229-",
            "events": "preference",
            "pagerankCycle": 0,
            "numberRecommendationList": 0,
            "interactionType": "NL",
        },
        {
            "messageID": "2",
            "userID": 7,
            "message": "I hate it",
            "timestampStart": 3,
            "timestampEnd": 4,
            "intent": "request_recommendation - preference",
            "contexts": "",
            "toCheck": False,
            "recognizedObjects": "Q163872-, Q42229+",
            "events": "recommendation",
            "pagerankCycle": 1,
            "numberRecommendationList": 1,
            "interactionType": "NL",
        },
        {
            "messageID": "3",
            "userID": 7,
            "message": "show profile",
            "timestampStart": 5,
            "timestampEnd": 6,
            "intent": "show_profile",
            "contexts": "",
            "toCheck": False,
            "recognizedObjects": "Q1+",
            "events": "",
            "pagerankCycle": 0,
            "numberRecommendationList": 0,
            "interactionType": "NL",
        },
        {
            "messageID": "4",
            "userID": 8,
            "message": "hi",
            "timestampStart": 1,
            "timestampEnd": 2,
            "intent": "start",
            "contexts": "",
            "toCheck": True,
            "recognizedObjects": "",
            "events": "",
            "pagerankCycle": 0,
            "numberRecommendationList": 0,
            "interactionType": "NL",
        },
    ]
    path = tmp_path / "movie" / "messages_nl.json"
    path.parent.mkdir()
    path.write_text(json.dumps(records))
    users = study_users("movie", files=[path])
    assert users == [StudyUser("messages_nl.json#7", liked=("Q25188", "Q42229"), disliked=("Q163872",))]


def test_item_knn_counts_other_users_only():
    users = [
        StudyUser("a", (INCEPTION, INTERSTELLAR, NOLAN)),
        StudyUser("b", (INCEPTION, INTERSTELLAR)),
        StudyUser("c", (INCEPTION, TITANIC)),
        StudyUser("d", (DARK_KNIGHT, TITANIC)),
    ]
    items = [INCEPTION, INTERSTELLAR, DARK_KNIGHT, TITANIC, TOY_STORY]
    knn = ItemKnn(users, items)
    # for user a, only b and c count: Inception liked by b, c; Interstellar by b; Titanic by c, d
    s = knn.scores("a", [INCEPTION])
    assert s[1] == pytest.approx(1 / np.sqrt(2 * 1))
    assert s[3] == pytest.approx(1 / np.sqrt(2 * 2))
    assert s[0] == 0.0 and s[2] == 0.0 and s[4] == 0.0  # never itself; Dark Knight shares no user
    # Nolan was liked by user a only: without a, it votes for nothing
    assert not knn.scores("a", [NOLAN]).any()
    # an unknown user is nobody's data: every user counts
    assert knn.scores("zz", [NOLAN])[0] == pytest.approx(1 / np.sqrt(1 * 3))
    # the neighbourhood keeps the k most similar items per liked QID
    one = ItemKnn(users, items, neighbours=1).scores("a", [INCEPTION])
    assert np.count_nonzero(one) == 1 and one[1] > 0
    with pytest.raises(ValueError):
        ItemKnn(users, items, neighbours=0)


def test_knn_baseline_never_sees_the_held_out_user():
    # the held-out item is liked by the held-out user alone: the kNN cannot score it above zero
    users = [StudyUser("a", (INCEPTION, TOY_STORY)), StudyUser("b", (INCEPTION, DUNKIRK)), StudyUser("c", (DUNKIRK,))]
    r = evaluate_domain(Recommender(FakeKB()), users, seed=0)
    assert r.metrics["knn"].hr10 <= 1.0
    knn = ItemKnn(users, [INCEPTION, TOY_STORY, DUNKIRK])
    assert knn.scores("a", [INCEPTION])[1] == 0.0  # Toy Story: only user a liked it
    assert knn.scores("a", [INCEPTION])[2] > 0  # Dunkirk: user b liked both
    assert r.settings["knn_neighbours"] == 50
