"""Issue 24: the intent classifier's training phrases drawn per template, so a change of wording moves only the
phrases of what changed (nlu/augment.py)."""

from __future__ import annotations

from nlu import augment


def test_the_phrases_of_a_template_do_not_depend_on_the_others(monkeypatch, tmp_path):
    path = tmp_path / "templates.json"
    one = {"help": {"templates": ["{can|could|would} you {help|assist|guide} me {please|now|today|}"]}}
    path.write_text(__import__("json").dumps(one), encoding="utf-8")
    alone = [e.text for e in augment.augmented_examples(path, wording=False)]
    two = {"bye": {"templates": ["{bye|goodbye|see you} {now|then|later|soon|}"]}, **one}
    path.write_text(__import__("json").dumps(two), encoding="utf-8")
    together = [e.text for e in augment.augmented_examples(path, wording=False) if e.intent == "help"]
    assert alone and alone == together


def test_the_wording_phrases_are_drawn_the_same_way_twice():
    first = [(e.group, e.text) for e in augment.wording_examples()]
    assert first == [(e.group, e.text) for e in augment.wording_examples()]
