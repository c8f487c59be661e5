"""The generated training phrases (nlu/augment.py, nlu/intent_templates.json): every slot is filled with the
domain's words, and the small-talk phrases do not teach a request for items as small talk."""

from __future__ import annotations

import json
import re

from nlu.augment import augmented_examples
from nlu.intents import SMALLTALK_PATH

SLOT_NAMES = {"item", "items", "consume", "consumed", "maker"}
"""Slot names, which appear in a phrase only when a template lists them as literal alternatives."""


def test_no_phrase_keeps_a_slot_name_as_a_word():
    words = {w for e in augmented_examples() for w in re.findall(r"[a-z]+", e.text.lower())}
    assert not words & SLOT_NAMES


def test_asking_for_items_is_no_small_talk():
    phrases = json.loads(SMALLTALK_PATH.read_text(encoding="utf-8"))
    asking = re.compile(r"\b(?:suggest|recommend)\b.*\b(?:songs|movies|films|books|music)\b")
    assert [p for ps in phrases.values() for p in ps if asking.search(p)] == []
