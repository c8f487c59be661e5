"""``corsbot rec evaluate`` / ``corsbot rec bench`` glue over the fake KB and a tiny study file."""

from __future__ import annotations

import json
import re

import pytest
from _rec_fakes import FakeKB  # noqa: E402

from bot import cli
from bot.cli import rec as cli_rec
from bot.cli import rec_data
from recommender.recommend import Recommender


def _record(mid, user, intent, objects):
    return {
        "messageID": str(mid),
        "userID": user,
        "message": "x",
        "timestampStart": mid,
        "timestampEnd": mid,
        "intent": intent,
        "contexts": "",
        "toCheck": False,
        "recognizedObjects": objects,
        "events": "preference",
        "pagerankCycle": 0,
        "numberRecommendationList": 0,
        "interactionType": "NL",
    }


@pytest.fixture
def study(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    folder = shared / "converse" / "movie"
    folder.mkdir(parents=True)
    (folder / "messages_nl.json").write_text(
        json.dumps(
            [
                _record(1, 1, "preference", "Q25188+, Q13417189+, Q25191+"),
                _record(2, 2, "preference", "Q163872+, Q24053263+"),
                _record(3, 2, "request_recommendation - preference", "Q44578-"),
            ]
        )
    )
    monkeypatch.setenv("CORSBOT_SHARED", str(shared))
    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(rec_data, "load_recommender", lambda domain, **kw: Recommender(FakeKB(), **kw))
    return tmp_path


def test_evaluate_prints_summary_and_writes_reports(study, capsys):
    assert cli.main(["rec", "evaluate", "--domains", "movie", "--prior-mass", "0.9", "--method", "power"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(
        r"rec: users=2 cases=4 hr10_movie=1\.000 popularity_hr10_movie=1\.000 "
        r"random_hr10_movie=\d\.\d{3} ndcg10_movie=\d\.\d{3} hr10_book=nan hr10_music=nan "
        r"popularity_hr10_book=nan popularity_hr10_music=nan knn_hr10_movie=\d\.\d{3} knn_hr10_book=nan "
        r"knn_hr10_music=nan ndcg10_book=nan ndcg10_music=nan",
        lines[-1],
    ), lines[-1]
    report = json.loads((study / "home" / "reports" / "rec" / "evaluate.json").read_text())
    assert report["movie"]["cases"] == 4 and report["movie"]["settings"]["prior_mass"] == 0.9
    assert report["movie"]["settings"]["method"] == "power"
    assert (study / "home" / "reports" / "rec" / "evaluate.md").exists()


def test_bench_prints_last_line_and_png(study, capsys):
    assert (
        cli.main(
            [
                "rec",
                "bench",
                "--domains",
                "movie",
                "--requests",
                "5",
                "--networkx-requests",
                "1",
                "--max-edges",
                "20000",
            ]
        )
        == 0
    )
    last = capsys.readouterr().out.strip().splitlines()[-1]
    # 20 KB nodes / 27 KB edges + the 2 study users and their 5 likes (the production graph)
    assert re.fullmatch(
        r"bench: domain=movie nodes=22 edges=32 p50_ms=[\d.]+ p99_ms=[\d.]+ "
        r"speedup_vs_networkx=[\d.]+",
        last,
    ), last
    assert (study / "home" / "reports" / "rec" / "scaling.png").stat().st_size > 1000


def test_missing_study_is_one_clear_error(study, monkeypatch, capsys):
    monkeypatch.setenv("CORSBOT_SHARED", str(study / "nowhere"))
    assert cli.main(["rec", "evaluate", "--domains", "movie"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("corsbot: error: no released messages for movie") and "\n" not in err


def test_evaluate_no_collaborative_and_user_weight_flags(study, capsys):
    assert cli.main(["rec", "evaluate", "--domains", "movie", "--no-collaborative"]) == 0
    report = json.loads((study / "home" / "reports" / "rec" / "evaluate.json").read_text())
    assert report["movie"]["settings"]["user_nodes"] == 0
    assert cli.main(["rec", "evaluate", "--domains", "movie", "--user-weight", "2.5", "--user-exponent", "0.5"]) == 0
    out = capsys.readouterr().out
    report = json.loads((study / "home" / "reports" / "rec" / "evaluate.json").read_text())
    settings = report["movie"]["settings"]
    assert (settings["user_nodes"], settings["user_weight"], settings["user_exponent"]) == (2, 2.5, 0.5)
    assert "group messages_nl.json: cases=4" in out and "not_reachable=0" in out


def test_evaluate_pid_weight_flags_change_the_domains_weighting(study, capsys):
    assert cli.main(["rec", "evaluate", "--domains", "movie", "--pid-weight", "P57=2", "--pid-weight", "p136=0"]) == 0
    settings = json.loads((study / "home" / "reports" / "rec" / "evaluate.json").read_text())["movie"]["settings"]
    assert settings["pid_weights"] == {"P57": 2.0, "P136": 0.0} and settings["user_weight"] == 3.0
    for bad in ("P57", "director=2", "P57=-1", "P57=x"):
        assert cli.main(["rec", "evaluate", "--domains", "movie", "--pid-weight", bad]) == 2
        assert "--pid-weight wants PID=WEIGHT" in capsys.readouterr().err


def test_each_domain_has_its_own_default_weighting():
    from recommender.recommend import DEFAULT_WEIGHTING, DOMAIN_WEIGHTINGS, domain_weighting

    assert domain_weighting("movie") is DEFAULT_WEIGHTING and domain_weighting("book") is DEFAULT_WEIGHTING
    assert domain_weighting("music") is DOMAIN_WEIGHTINGS["music"] and domain_weighting("music").user_weight == 20.0

    class MusicKB(FakeKB):
        domain = "music"

    assert Recommender(MusicKB()).weighting.user_weight == 20.0
    assert Recommender(FakeKB()).weighting is DEFAULT_WEIGHTING


def test_interactions_for_merges_study_and_bot_likes(study):
    from logs.record import LogRecord

    bot = [
        LogRecord.from_json(_record(10, 5, "preference", "Q44578+, Q171048+")),
        LogRecord.from_json(_record(11, 5, "request_recommendation - preference", "Q171048-")),
        LogRecord.from_json(_record(12, 6, "show_profile", "Q25188+")),
    ]
    got = cli_rec.interactions_for("movie", records=bot)
    assert got == {
        "messages_nl.json#1": ("Q25188", "Q13417189", "Q25191"),
        "messages_nl.json#2": ("Q163872", "Q24053263"),
        "bot#5": ("Q44578",),
    }
    assert cli_rec.interactions_for("book", records=bot) == {"bot#5": ("Q44578",)}  # no book study: bot likes only
