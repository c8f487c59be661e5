"""The evaluation of the linking steps (nlu/link_eval.py) on the fake KB."""

from __future__ import annotations

import pytest

try:
    from conftest_entities import fake_kb, linker  # noqa: F401 - fixtures
except ModuleNotFoundError:  # tests/nlu became a package
    from tests.nlu.conftest_entities import fake_kb, linker  # noqa: F401 - fixtures

from nlu.link_eval import GoldMention, StepScores, evaluate, summary_line


def test_recall_at_k_and_the_decisions_are_counted(linker):  # noqa: F811
    golds = [
        GoldMention("I love Inception", "Q25188", "Inception"),  # linked, top: right
        GoldMention("I love the Avengers", "Q182218", "the Avengers"),  # asked, top was right: needless
        GoldMention("I love the Avengers", "Q1125729", "the Avengers"),  # asked, second: right
        GoldMention("I loved The Matrix Resurrections", "Q83495", "The Matrix"),  # dropped: a wrong drop
        GoldMention("I love Tom Cruise", "Q25188", "Tom Cruise"),  # never a candidate
        GoldMention("I love Zzyzx Road", "Q999999999", "Zzyzx Road"),  # not in the KB: not counted
    ]
    scores = evaluate(linker, golds)
    assert scores.golds == 5 and scores.index_golds == 5
    assert (scores.hits[1], scores.hits[3], scores.hits[8]) == (3, 4, 4)
    assert scores.decided == 4
    assert (scores.right, scores.needless_questions, scores.wrong_drops, scores.wrong_links) == (2, 1, 1, 0)
    assert scores.decision_accuracy == pytest.approx(0.5)
    assert scores.recall(8) == pytest.approx(0.8)
    # the wrong decisions are kept for reading (evaluate-linking --errors N)
    assert [(m.kind, m.text, m.gold) for m in scores.mistakes] == [
        ("needless_question", "I love the Avengers", "Q182218"),
        ("wrong_drop", "I loved The Matrix Resurrections", "Q83495"),
    ]


def test_a_gold_of_the_study_is_looked_for_in_the_whole_message(linker):  # noqa: F811
    scores = evaluate(linker, [GoldMention("i like stephen king but not the shining", "Q39829")])
    assert scores.golds == 1 and scores.index_golds == 0 and scores.hits[1] == 1 and scores.right == 1


def test_the_last_line_has_both_gold_sets():
    dev, study = StepScores(), StepScores()
    dev.golds, dev.hits[1], dev.index_golds = 4, 3, 4
    line = summary_line(dev, study)
    assert line.startswith("linking: dev_golds=4 dev_recall_at_1=0.750 ")
    assert "dev_index_recall_at_1=0.000" in line and "study_golds=0" in line and "study_index_recall" not in line
    assert line.endswith("study_wrong_drops=0")
