"""Issue 12: intents beyond preference in varied wording, from our own templates (nlu/augment.py)."""

from __future__ import annotations

import pytest

from nlu.augment import DOMAIN_WORDS, augmented_examples, expand
from nlu.errors import NluError
from nlu.intents import REC_CONTEXT, IntentExample, IntentRecognizer


def test_templates_expand_alternatives_and_domain_words():
    words = DOMAIN_WORDS["book"]
    assert expand("{who|what} {created} it", words) == ["what wrote it", "who wrote it"]
    assert "give me another novel" in expand("give me another {{item}|suggestion}", words)
    with pytest.raises(NluError):
        expand("{nope}", words)


def test_every_intent_has_phrases_in_every_domain_and_its_state():
    examples = augmented_examples()
    by_intent = {}
    for e in examples:
        by_intent.setdefault(e.intent, set()).add(e.domain)
        if e.intent.startswith("request_recommendation - "):
            assert e.contexts == (REC_CONTEXT,)
        assert e.group.startswith("augment:") and e.events is None
    for intent in ("request_recommendation - trailer", "request_recommendation - why", "request_recommendation"):
        assert by_intent[intent] == {"movie", "book", "music"}


@pytest.fixture(scope="module")
def recognizer():
    # the generated phrases plus a few opinions: enough to show the wordings are learnt
    extra = [
        IntentExample(text, (), "preference", "p", "movie", True, None)
        for text in ("I like Inception", "I love Tom Hanks", "I hate Titanic", "I don't like horror films")
    ]
    return IntentRecognizer.train(augmented_examples() + extra, epochs=6)


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("Can I watch the trailer?", "request_recommendation - trailer"),
        ("show me a preview", "request_recommendation - trailer"),
        ("Why did you recommend me this movie?", "request_recommendation - why"),
        ("why this one?", "request_recommendation - why"),
        ("what's it about?", "request_recommendation - details"),
        ("next one", "request_recommendation - skip"),
    ],
)
def test_the_issue_phrasings_with_a_card_on_screen(recognizer, text, intent):
    assert recognizer.predict(text, (REC_CONTEXT,), domain="movie").intent == intent


def test_the_wording_families_teach_their_intents_in_their_states():
    """Issue 24: every wording pattern marked ``train`` gives training phrases, in its state, each intent a
    known one, a name as the rare-word marker; the draw is seeded (the same phrases at every training)."""
    from logs.schema import Intent, is_smalltalk
    from nlu.augment import wording_examples
    from nlu.wording import FAMILIES, family

    examples = wording_examples()
    assert examples == wording_examples()
    named = {(name, spec.name) for name in FAMILIES for spec in family(name).specs() if spec.intent and spec.train}
    assert {tuple(e.group.removeprefix("augment:").split(".", 1)) for e in examples} == named
    known = {i.value for i in Intent}
    for e in examples:
        assert e.intent in known or is_smalltalk(e.intent)
        assert e.events is None and e.domain in DOMAIN_WORDS
        if e.intent.startswith("request_recommendation - "):
            assert e.contexts == (REC_CONTEXT,)
        if is_smalltalk(e.intent):
            assert e.contexts == ()  # the trainer shows small talk in sampled states
    # an opinion of a name (state "any") is taught with nothing open and, as the study labels it, with a card
    assert {e.contexts for e in examples if e.intent == "preference"} == {()}
    opinion_at_card = {e.intent for e in examples if e.group == "augment:opinion_cues.opinion_of_a_name" and e.contexts}
    assert opinion_at_card == {"request_recommendation - preference"}
    # the requests for a list are the rules' (found anywhere, they overrule the classifier): not taught
    assert not any(e.group.startswith(("augment:requests.", "augment:phrasings.recommend")) for e in examples)
    texts = {e.text for e in examples if e.intent == "preference"}
    assert any(t.endswith(" xxrare") for t in texts) and any(t.startswith("xxrare ") for t in texts)
    assert all("{" not in t and "<" not in t for t in texts)
    assert len([e for e in augmented_examples() if e.group.startswith("augment:")]) > len(examples)
