"""A self-correction inside one message (issue 22, 22-O2): where it stands, and when it is none."""

from __future__ import annotations

import pytest

from nlu.turn_cues import within_correction


def _spans(text: str, *names: str) -> list[tuple[int, int]]:
    return [(text.index(n), text.index(n) + len(n)) for n in names]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("i hated titanic, oops i meant avatar", ("titanic", "avatar")),
        ("blur is awful, my bad i meant oasis", ("blur", "oasis")),
        ("loved emma... hold on, i meant persuasion", ("emma", "persuasion")),
    ],
)
def test_a_correction_between_names_is_found(text, names):
    span = within_correction(text, _spans(text, *names))
    assert span is not None and _spans(text, names[0])[0][1] <= span[0] < span[1] <= _spans(text, names[1])[0][0]


@pytest.mark.parametrize(
    ("text", "names", "start"),
    [
        ("i loved jaws, wait, alien too", ("jaws", "alien"), 0),  # an addition
        ("jaws was great but wait, have you seen alien?", ("jaws", "alien"), 0),  # a question
        ("no wait, i meant alien", ("alien",), 9),  # a lead-in revises the previous turn
        ("i loved heat, sorry", ("heat",), 0),  # nothing after it
    ],
)
def test_no_correction_inside(text, names, start):
    assert within_correction(text, _spans(text, *names), start) is None
