"""Issue 22, round 4 (engineer 22-L): the linking mechanisms of this round on the real movie snapshot, with wordings
and titles of their own (none of the conversation sets'). Skipped when the snapshot has not been built."""

from __future__ import annotations

import pytest

from bot import paths


@pytest.fixture(scope="module")
def movies():
    snapshot = paths.kb_snapshot("movie")
    if not snapshot.exists():
        pytest.skip("movie KB snapshot not built (corsbot kb build)")
    from nlu.linker import EntityLinker
    from recommender.kb import KnowledgeBase

    return EntityLinker(KnowledgeBase.load(snapshot))


def _tops(linker, text):
    return [(m.candidates[0].label, m.candidates[0].qid) for m in linker.link(text)]


@pytest.mark.parametrize(
    ("text", "label"),
    [("That was dull. Speed is more my style", "Speed"), ("Not for me. Big was funnier", "Big")],
)
def test_an_everyday_title_opening_a_later_sentence(movies, text, label):
    assert [lab for lab, _q in _tops(movies, text)] == [label]


@pytest.mark.parametrize(
    "text", ["Total Recall is fun, the original one with Sharon Stone", "the origenal total recall rocks"]
)
def test_the_original_reading_said_by_an_apposition_or_a_slipped_cue(movies, text):
    assert _tops(movies, text) == [("Total Recall", "Q222018")]


def test_capitalised_titles_before_a_verb_of_no_number(movies):
    assert [lab for lab, _q in _tops(movies, "Ratatouille and Up made me tear up")] == ["Ratatouille", "Up"]
