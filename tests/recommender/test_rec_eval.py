"""Leave-one-out evaluation: protocol, baselines, tie handling, summary line, study extraction."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from recommender.rec_eval import (
    Metrics,
    StudyUser,
    evaluate_domain,
    markdown_report,
    rank_of,
    study_popularity,
    summary_line,
)
from recommender.recommend import Recommender

from _rec_fakes import FakeKB  # noqa: E402

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
        StudyUser("a#1", liked=(INCEPTION, INTERSTELLAR, NOLAN)),          # 2 item cases, 1 value skipped
        StudyUser("a#2", liked=(DARK_KNIGHT, DUNKIRK, "Q404"), disliked=(TITANIC,)),  # Q404 not in graph
        StudyUser("a#3", liked=(NOLAN,)),                                   # no case
        StudyUser("a#4", liked=(), disliked=(TOY_STORY,)),                  # no like
    ]
    r = evaluate_domain(rec, users, seed=1)
    assert (r.users, r.users_total, r.cases, r.liked_not_item) == (2, 3, 4, 3)
    assert r.candidates == 10
    # Nolan films: hiding one, the others + Nolan put it in the top 5 of the 7-9 unrated films
    assert r.metrics["pagerank"].hr5 == 1.0
    assert set(r.metrics) == {"pagerank", "popularity", "random"}
    assert r.fallback_cases == 0 and r.isolated_cases == 0
    assert r.metrics_connected["pagerank"] == r.metrics["pagerank"]
    assert json.loads(json.dumps(r.to_json()))["metrics"]["pagerank"]["hr5"] == 1.0


def test_single_like_case_falls_back_and_is_counted(rec):
    r = evaluate_domain(rec, [StudyUser("u", liked=(TITANIC,))])
    assert r.cases == 1 and r.fallback_cases == 1


def test_isolated_held_out_item_is_a_case_and_broken_down(rec):
    r = evaluate_domain(rec, [StudyUser("u", liked=("Q999001", INCEPTION, NOLAN))])
    assert r.cases == 2 and r.isolated_cases == 1
    assert r.metrics["pagerank"].hr5 == 0.5  # the isolated film ranks below every connected one
    assert r.metrics_connected["pagerank"].hr5 == 1.0


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
        r"ndcg10_movie=\d\.\d{3} hr10_book=nan hr10_music=nan", line), line
    assert "| movie | 1 | 2 | 10 | pagerank |" in markdown_report(res)


def test_study_users_from_dataset_file(tmp_path):
    from bot.cli_rec import study_users

    records = [
        {"messageID": "1", "userID": 7, "message": "I like Inception", "timestampStart": 1, "timestampEnd": 2,
         "intent": "preference", "contexts": "", "toCheck": False, "recognizedObjects": "Q25188+, Q42229-",
         "events": "preference", "pagerankCycle": 0, "numberRecommendationList": 0, "interactionType": "NL"},
        {"messageID": "2", "userID": 7, "message": "I hate it", "timestampStart": 3, "timestampEnd": 4,
         "intent": "request_recommendation - preference", "contexts": "", "toCheck": False,
         "recognizedObjects": "Q163872-, Q42229+", "events": "recommendation", "pagerankCycle": 1,
         "numberRecommendationList": 1, "interactionType": "NL"},
        {"messageID": "3", "userID": 7, "message": "show profile", "timestampStart": 5, "timestampEnd": 6,
         "intent": "show_profile", "contexts": "", "toCheck": False, "recognizedObjects": "Q1+",
         "events": "", "pagerankCycle": 0, "numberRecommendationList": 0, "interactionType": "NL"},
        {"messageID": "4", "userID": 8, "message": "hi", "timestampStart": 1, "timestampEnd": 2,
         "intent": "start", "contexts": "", "toCheck": True, "recognizedObjects": "", "events": "",
         "pagerankCycle": 0, "numberRecommendationList": 0, "interactionType": "NL"},
    ]
    path = tmp_path / "movie" / "messages_nl.json"
    path.parent.mkdir()
    path.write_text(json.dumps(records))
    users = study_users("movie", files=[path])
    assert users == [StudyUser("messages_nl.json#7", liked=("Q25188", "Q42229"), disliked=("Q163872",))]
