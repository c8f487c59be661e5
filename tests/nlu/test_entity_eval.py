"""Task extraction, simulated disambiguation and scores of ``corsbot nlu evaluate-entities``."""

from __future__ import annotations

import json

import pytest

try:
    from conftest_entities import FakeKB, fake_kb, linker, sentiment  # noqa: F401 - fixtures
except ModuleNotFoundError:  # tests/nlu became a package
    from tests.nlu.conftest_entities import FakeKB, fake_kb, linker, sentiment  # noqa: F401 - fixtures

from bot import paths
from nlu.entity_eval import (
    EntityScores,
    EvalRecord,
    PreferenceTask,
    evaluate_tasks,
    extract_tasks,
    is_statement,
    simulate_task,
    summary_line,
)
from nlu.sentiment import Polarity

LINE_PATTERN = (
    r"^entities: recall_in_kb=\d\.\d{3} precision_in_kb=\d\.\d{3} recall_all=\d\.\d{3} "
    r"question_rate=\d\.\d{3} polarity_accuracy=\d\.\d{3} negative_f1=\d\.\d{3}$"
)


def rec(t, message, intent, objects=(), events=(), user=1):
    return EvalRecord(user, t, message, intent, tuple(objects), tuple(events))


CONVERSATION = [
    rec(1, "/start", "start"),
    rec(2, "I like Inception", "preference", [("Q25188", "+")], ["preference"]),
    rec(3, "I like Tom Cruise", "preference", [], ["question", "preference", "disambiguation"]),
    rec(4, "actor", "preference - disambiguation", [("Q37079", "+")], ["preference"]),
    rec(5, "I love the Avengers", "preference", [], ["question", "preference", "disambiguation"]),
    rec(6, "I like the actor Tom Cruise", "preference - disambiguation", [("Q37079", "+")], ["preference"]),
    rec(7, "recommend me a film", "request_recommendation", [], ["recommendation"]),
    rec(8, "I like it", "request_recommendation - preference", [("Q44578", "+")], ["preference"]),
    rec(9, "I hate The Shining", "preference", [("Q186341", "-")], ["preference"]),
    rec(10, "none of them", "preference - disambiguation", [], ["preference"]),
    rec(11, "I love the Avengers", "preference", [], ["question", "preference", "disambiguation"]),
    rec(12, "The Avengers (1998 film)", "preference - disambiguation", [("Q1125729", "+")], ["preference"]),
    rec(13, "I like Q404 stuff", "preference", [("Q404404", "+")], ["preference"]),
]


def test_is_statement():
    assert is_statement("I like the actor Clint Eastwood")
    assert not is_statement("actor")
    assert not is_statement("Like Producer")
    assert not is_statement("none of them")
    assert is_statement("I love The Matrix")


def test_extract_tasks_segments_the_conversation():
    tasks = extract_tasks(reversed(CONVERSATION))  # order of the input does not matter
    assert [t.text for t in tasks] == [
        "I like Inception",
        "I like Tom Cruise",
        "I love the Avengers",
        "I like the actor Tom Cruise",
        "I hate The Shining",
        "I love the Avengers",
        "I like Q404 stuff",
    ]
    by_text = {t.text: t for t in tasks}
    assert by_text["I like Tom Cruise"].gold == (("Q37079", "+"),)
    assert by_text["I like Tom Cruise"].asked_original
    assert by_text["I like Tom Cruise"].follow_ups == ("actor",)
    assert tasks[2].gold == ()  # abandoned: the user restated instead of answering
    assert by_text["I hate The Shining"].gold == (("Q186341", "-"),)
    assert not by_text["I like Inception"].asked_original
    assert all("I like it" != t.text for t in tasks)  # recommendation feedback is not a preference task


def test_simulated_user_picks_the_gold_candidate(linker, sentiment, fake_kb):  # noqa: F811
    task = PreferenceTask(1, "I love the Avengers", (("Q1125729", "+"),), True)
    outcome = simulate_task(task, linker, sentiment, fake_kb)
    assert outcome.predicted == (("Q1125729", Polarity.POSITIVE),)
    assert outcome.item_questions == 1 and outcome.asked


def test_simulated_user_says_none_when_gold_is_not_offered(linker, sentiment, fake_kb):  # noqa: F811
    task = PreferenceTask(1, "I love the Avengers", (("Q999", "+"),), True)
    outcome = simulate_task(task, linker, sentiment, fake_kb)
    assert outcome.predicted == ()
    assert outcome.asked


def test_role_question_is_asked_and_answered(linker, sentiment, fake_kb):  # noqa: F811
    task = PreferenceTask(1, "I like Tom Cruise", (("Q37079", "+"),), True)
    outcome = simulate_task(task, linker, sentiment, fake_kb)
    assert outcome.role_questions == 1
    assert outcome.predicted == (("Q37079", Polarity.POSITIVE),)
    wrong = PreferenceTask(1, "I like Tom Cruise", (("Q2263", "+"),), True)
    assert simulate_task(wrong, linker, sentiment, fake_kb).predicted == ()


def test_scores_on_the_conversation(linker, sentiment, fake_kb):  # noqa: F811
    scores = evaluate_tasks(extract_tasks(CONVERSATION), linker, sentiment, fake_kb)
    assert scores.tasks == 6 and scores.tasks_without_gold == 1
    assert scores.gold == 6 and scores.gold_in_kb == 5  # Q404404 is not in the KB
    assert scores.matched == 5
    assert scores.recall_in_kb == 1.0
    assert scores.recall_all == pytest.approx(5 / 6)
    assert scores.precision_in_kb == 1.0  # the task with an unknown gold QID is left out
    assert scores.polarity_accuracy == 1.0
    assert scores.negative_f1 == 1.0
    assert scores.question_rate == pytest.approx(2 / 6)  # Tom Cruise (role), Avengers (item)
    assert scores.original_question_rate == pytest.approx(2 / 6)
    line = summary_line(scores)
    assert line == (
        "entities: recall_in_kb=1.000 precision_in_kb=1.000 recall_all=0.833 question_rate=0.333 "
        "polarity_accuracy=1.000 negative_f1=1.000"
    )


def test_a_merged_gold_qid_is_scored_as_the_node_it_became(linker, sentiment, fake_kb):  # noqa: F811
    # The KB merges near-duplicate genres (KnowledgeBase.canonical): a gold naming the merged QID
    # is matched by the linker naming the canonical one, in the score and in the simulated answer.
    class MergingKB(FakeKB):
        def canonical(self, qid: str) -> str:
            return "Q1125729" if qid == "Q7777" else qid

    kb = MergingKB()
    task = PreferenceTask(1, "I love the Avengers", (("Q7777", "+"),), True)
    assert simulate_task(task, linker, sentiment, kb).predicted == (("Q1125729", Polarity.POSITIVE),)
    scores = evaluate_tasks([task], linker, sentiment, kb)
    assert scores.matched == 1 and scores.polarity_accuracy == 1.0
    assert evaluate_tasks([task], linker, sentiment, fake_kb).matched == 0  # without the merge: a miss


def test_wrong_polarity_and_extra_entity_are_counted(linker, sentiment, fake_kb):  # noqa: F811
    records = [
        rec(1, "I don't like Titanic", "preference", [("Q44578", "+")], ["preference"]),
        rec(2, "I like Inception and Avatar", "preference", [("Q25188", "+")], ["preference"]),
    ]
    scores = evaluate_tasks(extract_tasks(records), linker, sentiment, fake_kb)
    assert scores.matched == 2 and scores.predicted == 3
    assert scores.precision_in_kb == pytest.approx(2 / 3)
    assert scores.polarity_accuracy == 0.5
    assert (scores.neg_tp, scores.neg_fp, scores.neg_fn) == (0, 1, 0)
    assert scores.negative_f1 == 0.0


def test_scores_add_up():
    a, b = EntityScores(tasks=2, matched=1, gold=2), EntityScores(tasks=1, matched=1, gold=1, link_ms=[1.0])
    a.add(b)
    assert (a.tasks, a.matched, a.gold, a.link_ms) == (3, 2, 3, [1.0])
    assert EntityScores().recall_all == 0.0


def test_cli_evaluate_entities_prints_the_last_line(tmp_path, monkeypatch, capsys, fake_kb):  # noqa: F811
    from bot.cli import main
    from recommender import kb as kb_module

    data = tmp_path / "converse" / "movie"
    data.mkdir(parents=True)
    rows = [
        {
            "messageID": str(r.timestamp_start),
            "userID": r.user_id,
            "message": r.message,
            "timestampStart": r.timestamp_start * 1000,
            "timestampEnd": r.timestamp_start * 1000,
            "intent": r.intent,
            "contexts": "",
            "toCheck": False,
            "recognizedObjects": ", ".join(q + p for q, p in r.recognized_objects),
            "events": ", ".join(r.events),
            "pagerankCycle": 0,
            "numberRecommendationList": 0,
            "interactionType": "NL",
        }
        for r in CONVERSATION
    ]
    (data / "messages_nl.json").write_text(json.dumps(rows), encoding="utf-8")
    snapshot = tmp_path / "kb"
    snapshot.mkdir()
    monkeypatch.setattr(kb_module.KnowledgeBase, "load", classmethod(lambda cls, path: FakeKB()))
    code = main(
        ["nlu", "evaluate-entities", "--domain", "movie", "--kb", str(snapshot), "--data", str(tmp_path / "converse")]
    )
    out = capsys.readouterr().out.strip().splitlines()
    assert code == 0
    assert out[-1] == (
        "entities: recall_in_kb=1.000 precision_in_kb=1.000 recall_all=0.833 question_rate=0.333 "
        "polarity_accuracy=1.000 negative_f1=1.000"
    )


def test_cli_missing_kb_is_a_clear_error(tmp_path, capsys):
    from bot.cli import main

    code = main(
        ["nlu", "evaluate-entities", "--domain", "movie", "--kb", str(tmp_path / "nope"), "--data", str(tmp_path)]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "no KB snapshot" in err and "Traceback" not in err


def test_released_movie_file_gives_tasks():
    path = paths.converse_dir() / "movie" / "messages_nl.json"
    if not path.exists():
        pytest.skip("shared data absent")
    from logs.record import read_records
    from logs.schema import parse_objects, split_list

    records = [
        EvalRecord(
            r.user_id, r.timestamp_start, r.message, r.intent, parse_objects(r.recognized_objects), split_list(r.events)
        )
        for r in read_records(path).records
    ]
    tasks = extract_tasks(records)
    with_gold = [t for t in tasks if t.gold]
    assert len(with_gold) > 500
    assert any(t.text == "I like James Cameron" and ("Q42574", "+") in t.gold for t in with_gold)
    assert 0.3 < sum(t.asked_original for t in with_gold) / len(with_gold) < 0.7


def test_clean_flag_and_visibility(fake_kb):  # noqa: F811
    from nlu.entity_eval import visible_in_message

    records = [
        EvalRecord(1, 1, "I like Inception", "preference", (("Q25188", "+"),), ("preference",), False),
        EvalRecord(1, 2, "I like Titanik", "preference", (("Q44578", "+"),), ("preference",), True),
    ]
    tasks = extract_tasks(records)
    assert [t.clean for t in tasks] == [True, False]
    assert visible_in_message(fake_kb, "Q25188", "I like Inception")
    assert visible_in_message(fake_kb, "Q44578", "I like Titanik")  # typo, partial_ratio >= 80
    assert not visible_in_message(fake_kb, "Q44578", "I like how I met your mother")


def test_ratings_of_the_item_on_screen_are_scored_for_polarity_only(linker, sentiment, fake_kb):  # noqa: F811
    from nlu.entity_eval import evaluate_ratings, extract_ratings

    records = CONVERSATION + [
        rec(14, "I don't like it", "request_recommendation - preference", [("Q25188", "-")], ["preference"]),
        rec(15, "Dislike", "request_recommendation - preference", [("Q83495", "-")], ["preference"]),
        rec(
            16,
            "I like this movie, but I hate the director",
            "request_recommendation - preference",
            [("Q44578", "+"), ("Q42574", "-")],
            ["preference"],
        ),
        rec(17, "skip", "request_recommendation - skip", [], ["recommendation"]),
    ]
    ratings = extract_ratings(records)
    assert [(r.text, r.item, r.polarity) for r in ratings] == [
        ("I like it", "Q44578", "+"),
        ("I don't like it", "Q25188", "-"),
        ("Dislike", "Q83495", "-"),
        ("I like this movie, but I hate the director", "Q44578", "+"),
    ]
    scores = evaluate_ratings(ratings, linker, sentiment)
    assert (scores.ratings, scores.ratings_correct) == (4, 4)
    assert (scores.neg_tp, scores.neg_fp, scores.neg_fn) == (2, 0, 0)
    assert scores.tasks == 0 and scores.gold == 0  # recall/precision untouched
    tasks = evaluate_tasks(extract_tasks(records), linker, sentiment, fake_kb)
    evaluate_ratings(ratings, linker, sentiment, tasks)
    assert tasks.polarity_total == tasks.task_polarity_total + 4
    assert tasks.rating_accuracy == 1.0


def test_a_neutral_polarity_is_confirmed_by_the_simulated_user(linker, sentiment, fake_kb):  # noqa: F811
    task = PreferenceTask(1, "I watched Inception", (("Q25188", "-"),), False)
    outcome = simulate_task(task, linker, sentiment, fake_kb)
    assert outcome.predicted == (("Q25188", Polarity.NEGATIVE),)  # "Did you like Inception?" "No"
    assert outcome.confirmations == 1 and not outcome.asked  # not a disambiguation question
    stated = PreferenceTask(1, "I hate Inception", (("Q25188", "+"),), False)
    outcome = simulate_task(stated, linker, sentiment, fake_kb)
    assert outcome.predicted == (("Q25188", Polarity.NEGATIVE),) and outcome.confirmations == 0


@pytest.mark.parametrize(
    ("message", "sign"),
    [
        ("Dislike", "-"),
        ("I dont like it", "-"),
        ("I donâ€™t like this book a lot", "-"),
        ("I don t like superman", "-"),
        ("Yes I like it", "+"),
        ("I like Tom Hanks and Ben Stiller", "+"),
        ("I really love it", "+"),
        ("I do dislike say nothing", "-"),
        ("No dislike", None),
        ("I like it but not the actors", None),
        ("i dislike Julia Roberts and i like Jodie Foster", None),
        ("I haven't seen it", None),
        ("I like Never Let Me Go", None),  # a negator after the verb: no single sign
    ],
)
def test_audit_sign_only_for_single_opinion_messages(message, sign):
    from nlu.entity_eval import audit_sign

    assert audit_sign(message) == sign


def test_audit_tasks_drops_unnamed_gold_and_fixes_signs(fake_kb):  # noqa: F811
    from nlu.entity_eval import AuditCounts, audit_tasks

    tasks = [
        PreferenceTask(1, "I like how I met your mother", (("Q44578", "+"),), False),  # A1: not named
        PreferenceTask(1, "I don t like Inception", (("Q25188", "+"),), False),  # R1: sign
        PreferenceTask(
            1,
            "I like Inception but I hate The Shining",  # R2: one sign
            (("Q25188", "-"), ("Q186341", "-")),
            False,
        ),
        PreferenceTask(1, "I like Q404 stuff", (("Q404404", "+"),), False),  # not in KB: kept
        PreferenceTask(1, "I love the Avengers", (), True),  # no gold: kept
    ]
    counts = AuditCounts()
    audited = audit_tasks(tasks, fake_kb, counts)
    assert [t.text for t in audited] == [t.text for t in tasks[1:]]
    assert audited[0].gold == (("Q25188", "-"),) and audited[0].polarity_scored
    assert audited[1].gold == tasks[2].gold and not audited[1].polarity_scored
    assert (counts.tasks_unnamed, counts.signs_flipped, counts.polarity_excluded) == (1, 1, 1)
    assert tasks[1].gold == (("Q25188", "+"),)  # inputs unchanged


def test_audited_polarity_is_scored_on_the_audited_signs(linker, sentiment, fake_kb):  # noqa: F811
    from nlu.entity_eval import AuditCounts, audit_ratings, audit_tasks, extract_ratings

    records = [
        rec(1, "I don t like Inception", "preference", [("Q25188", "+")], ["preference"]),
        rec(
            2,
            "I like Inception but I hate The Shining",
            "preference",
            [("Q25188", "-"), ("Q186341", "-")],
            ["preference"],
        ),
        rec(3, "Dislike", "request_recommendation - preference", [("Q83495", "+")], ["preference"]),
        rec(
            4,
            "I like this film but I dislike his director",
            "request_recommendation - preference",
            [("Q44578", "-"), ("Q42574", "-")],
            ["preference"],
        ),
    ]
    tasks = extract_tasks(records)
    raw = evaluate_tasks(tasks, linker, sentiment, fake_kb)
    assert (raw.task_polarity_total, raw.task_polarity_correct) == (3, 1)  # logged signs disagree with the text
    counts = AuditCounts()
    audited = evaluate_tasks(audit_tasks(tasks, fake_kb, counts), linker, sentiment, fake_kb)
    assert (audited.task_polarity_total, audited.task_polarity_correct) == (1, 1)
    assert audited.matched == raw.matched == 3  # linking is scored on the same tasks
    ratings = audit_ratings(extract_ratings(records), records, counts)
    assert [(r.text, r.polarity) for r in ratings] == [("Dislike", "-")]
    assert (counts.signs_flipped, counts.polarity_excluded) == (2, 2)


def test_vader_baseline_scores_whole_messages():
    from nlu.entity_eval import FocusRating, vader_baseline

    ratings = [
        FocusRating(1, "Dislike", "Q1", "-"),
        FocusRating(1, "I like it", "Q2", "+"),
        FocusRating(1, "I watched Die Hard", "Q3", "+"),
    ]  # "die" makes VADER negative
    tasks = [
        PreferenceTask(1, "I love Inception and Titanic", (("Q25188", "+"), ("Q44578", "+")), False),
        PreferenceTask(1, "I like A but hate B", (("Q1", "-"), ("Q2", "-")), False, polarity_scored=False),
    ]
    scores = vader_baseline(tasks, ratings)
    assert (scores.polarity_total, scores.polarity_correct) == (5, 4)
    assert (scores.neg_tp, scores.neg_fp, scores.neg_fn) == (1, 1, 0)  # Die Hard: a false negative sign
