"""``corsbot rec elicitation-eval`` over the fake KB, a tiny ConveRSE file and a tiny successor-study file."""

from __future__ import annotations

import json
import re

import pytest
from _rec_fakes import FakeKB  # noqa: E402

from bot import cli
from bot.cli import rec_data
from bot.likes import file_key, logged_ratings, study_opinions
from recommender.elicitation import STRATEGIES
from recommender.recommend import Recommender


def _record(mid, user, intent, objects, events="preference"):
    return {
        "messageID": str(mid),
        "userID": user,
        "message": "x",
        "timestampStart": mid,
        "timestampEnd": mid,
        "intent": intent,
        "toCheck": False,
        "recognizedObjects": objects,
        "events": events,
        "pagerankCycle": 0,
        "numberRecommendationList": 0,
        "interactionType": "mixed",
    }


@pytest.fixture
def studies(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    converse = shared / "converse" / "movie"
    converse.mkdir(parents=True)
    (converse / "messages_nl.json").write_text(
        json.dumps(
            [
                dict(_record(1, 1, "preference", "Q25191+, Q25188+, Q42229-"), contexts=""),
                dict(
                    _record(2, 1, "request_recommendation - preference", "Q13417189+, Q163872+, Q24053263+"),
                    contexts="",
                ),
            ]
        )
    )
    jiis = shared / "jiis" / "popularity"
    jiis.mkdir(parents=True)
    (jiis / "messages.json").write_text(  # no "contexts" field, as released
        json.dumps(
            [
                _record(1, 1, "preference", "Q44578+, Q171048+, Q3772+", "preference, question, suggestion"),
                _record(2, 1, "skip", "", "question, suggestion"),
                _record(3, 1, "preference", "Q11010+", "preference, question, suggestion"),
                _record(4, 1, "preference", "Q223596+, Q44578-", "preference"),
                _record(5, 2, "preference", "Q171048+", "preference"),
            ]
        )
    )
    monkeypatch.setenv("CORSBOT_SHARED", str(shared))
    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(rec_data, "load_recommender", lambda domain, **kw: Recommender(FakeKB(), **kw))
    return tmp_path


def test_opinions_in_order_and_keys_per_condition(studies):
    files = [
        studies / "shared" / "converse" / "movie" / "messages_nl.json",
        studies / "shared" / "jiis" / "popularity" / "messages.json",
    ]
    users = dict(study_opinions(files))
    assert file_key(files[1]) == "popularity/messages.json"
    # a later opinion changes the polarity, not the position (Titanic was liked first)
    assert users["popularity/messages.json#1"] == (
        ("Q44578", "-"),
        ("Q171048", "+"),
        ("Q3772", "+"),
        ("Q11010", "+"),
        ("Q223596", "+"),
    )
    assert users["messages_nl.json#1"][:3] == (("Q25191", "+"), ("Q25188", "+"), ("Q42229", "-"))
    counts = logged_ratings("movie")
    assert counts.likes["Q171048"] == 2 and counts.dislikes == {"Q42229": 1, "Q44578": 1}
    assert logged_ratings("movie", exclude_files=[files[1]]).likes.get("Q171048", 0) == 0
    assert logged_ratings("book").likes == {}


def test_elicitation_eval_last_line_report_and_plot(studies, capsys):
    assert cli.main(["rec", "elicitation-eval"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    pairs = " ".join(f"hr10_k5_{s}=\\d\\.\\d{{3}}" for s in STRATEGIES)
    shares = " ".join(f"rated_share_k5_{s}=\\d\\.\\d{{3}}" for s in STRATEGIES)
    assert re.fullmatch(rf"elicitation: users=2 best=\w+ {pairs} {shares}", lines[-1]), lines[-1]
    out = studies / "home" / "reports" / "rec"
    assert (out / "elicitation.png").stat().st_size > 1000
    report = json.loads((out / "elicitation.json").read_text())
    assert set(report["strategies"]) == set(STRATEGIES) and report["users"] == 2
    assert "| popularity | 5 |" in (out / "elicitation.md").read_text()


def test_elicitation_eval_subset_of_strategies_and_bad_name(studies, capsys):
    assert (
        cli.main(["rec", "elicitation-eval", "--strategies", "item2item", "nosuggestions", "--no-collaborative"]) == 0
    )
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert re.fullmatch(
        r"elicitation: users=2 best=(item2item|none) hr10_k5_item2item=\S+ hr10_k5_none=\S+ "
        r"rated_share_k5_item2item=\S+ rated_share_k5_none=0\.000",
        last,
    ), last
    assert cli.main(["rec", "elicitation-eval", "--strategies", "often"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("corsbot: error: unknown elicitation strategy 'often'") and "\n" not in err
