"""Replay figures of the suggestion protocol (issue 13): events without ``suggestion``, suggestion overlap."""

from __future__ import annotations

import dataclasses

import pytest

from logs.compare import CompareError
from logs.suggestions import is_answer_wording, merge, suggestion_figures
from tests.logs.logs_testkit import make_record

LOGGED = [
    make_record(1, 1, "preference", events="preference, question, suggestion", objects="Q1+", message="I like Alien"),
    make_record(1, 2, "preference", events="preference, question, suggestion", objects="Q2+", message="I like it"),
    make_record(1, 3, "skip", events="question, suggestion", message="Skip"),
    make_record(1, 4, "preference", events="preference, question, suggestion", objects="Q4-", message="I don't like"),
    make_record(1, 5, "preference", events="preference", objects="Q5+", message="I like Toy Story"),
    make_record(2, 1, "preference", events="preference", objects="Q2+", message="I like it"),  # no suggestion before
]


def test_answer_wording():
    for text in ("I like it", "I don’t like", "Dislike it", "Yes, I love it", "I love this film", "i like"):
        assert is_answer_wording(text), text
    for text in (
        "I like Toy Story",
        "I love Tom Cruise",
        "",
        "I like it and I like the protagonist and the music a lot",
    ):
        assert not is_answer_wording(text), text


def test_figures_count_answers_skips_and_events_without_suggestion():
    ours = list(LOGGED)
    ours[1] = dataclasses.replace(ours[1], recognized_objects="Q9+")  # we had suggested another item
    ours[2] = dataclasses.replace(ours[2], events="")  # no next suggestion after the skip
    ours[3] = dataclasses.replace(ours[3], events="preference")
    ours[4] = dataclasses.replace(ours[4], events="preference, recommendation")
    f = suggestion_figures(ours, LOGGED)
    assert (f.messages, f.suggestion_turns, f.suggestion_matches, f.our_suggestion_turns) == (6, 4, 2, 2)
    # only the suggestion (with its question) differs on turns 3 and 4; turn 5 differs
    assert f.events_matches_without == 5
    # answers: "I like it" (Q2, ours Q9: no) and "I don't like" (Q4, same); "I like Toy Story" names a title
    assert (f.answers, f.same_item, f.skip_answers) == (2, 1, 1)
    assert f.suggestion_overlap == 0.5
    both = merge([f, f])
    assert both.answers == 4 and both.suggestion_overlap == 0.5 and both.figures()["suggestion_skip_answers"] == 2
    assert suggestion_figures([], []).events_agreement_without == 0.0


def test_lengths_must_match():
    with pytest.raises(CompareError):
        suggestion_figures(LOGGED[:1], LOGGED)
