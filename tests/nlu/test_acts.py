"""The dialogue-act classifier (nlu.acts, issue 22 fifth round): an act per register, noisy variants, the state's
restrictions, the compounds of two clauses, and where a confident act decides (nlu.act_choice). Wordings of
these tests are neither in the training file nor in the conversation sets."""

from __future__ import annotations

import pytest

from logs.schema import Intent
from nlu.act_choice import act_intent
from nlu.act_noise import compounds, noisy_variants
from nlu.acts import ACTS, CARD_ACTS, HELDOUT_PATH, TRAIN_PATH, ActClassifier, load_examples
from nlu.phrasings import BYE
from nlu.sentiment import Polarity
from nlu.turn_parse import View


@pytest.fixture(scope="module")
def acts() -> ActClassifier:
    return ActClassifier.trained()


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("yo hook me up w some picks", "request"),  # slang
        ("I would be grateful for a suggestion or two.", "request"),  # formal
        ("giv me anothr 1", "more"),  # chat spelling, typos
        ("what r my saved likes", "profile"),
        ("pls wipe everythng u know about me", "reset"),
        ("y did u choose this 1", "why"),
        ("who directed this one?", "details"),
        ("can i watch a trailer of it", "trailer"),
        ("how am i meant to use this", "help"),
        ("ok gtg, thx 4 everything", "bye"),
        ("i want no more recommendations", "stop"),
        ("heyy how r u", "smalltalk"),
        ("omg i loooove this one", "card_like"),
        ("ugh this is so dull", "card_dislike"),
        ("i already watched that one", "card_seen"),
        ("never heard of it tbh", "card_skip"),
    ],
)
def test_an_act_per_register(acts, text, act):
    assert acts.predict(text).act == act


def test_the_training_and_held_back_files_are_apart_and_cover_every_act():
    train, held = load_examples(TRAIN_PATH), load_examples(HELDOUT_PATH)
    assert {a for _, a in train} == set(ACTS) == {a for _, a in held}
    assert not {t.lower() for t, _ in train} & {t.lower() for t, _ in held}


def test_noisy_variants_differ_and_are_deterministic():
    first = noisy_variants("Could you show me another one, please?", 3, seed=7)
    assert first == noisy_variants("Could you show me another one, please?", 3, seed=7)
    assert len(first) == 3 and all(v != "Could you show me another one, please?" for v in first)


def test_compounds_keep_the_act_of_the_later_clause():
    examples = [("never seen it", "card_skip"), ("who stars in it", "details"), ("hey", "smalltalk")]
    made = compounds(examples, 3, seed=1)
    assert made and all(act == "details" for _, act in made if "stars" in _)


def test_a_card_act_needs_a_card(acts):
    guess = acts.predict("whats the story of this one", allowed=frozenset(ACTS) - CARD_ACTS)
    assert guess.act not in CARD_ACTS


def test_acts_ruled_out_are_doubt_not_moved(acts):
    # at an open question only leaving, the profile and a reset are admitted: a request is no profile
    view = View(domain="movie", question="confirm")
    assert act_intent(acts, view, Intent.FALLBACK.value, "what would you propose to me", named=False) is None


def test_a_doubtful_turn_takes_a_confident_act(acts):
    card = View(domain="book", focus="Q1")
    liked = act_intent(acts, card, Intent.PREFERENCE.value, "oh wow i really love this one", named=False)
    assert liked is not None and liked.intent == Intent.REC_PREFERENCE and liked.polarity is Polarity.POSITIVE
    leaving = act_intent(acts, card, "smalltalk.appraisal.good", "nice, catch ya later", named=False)
    assert leaving is not None and leaving.intent == BYE
    asked = act_intent(acts, View(domain="book"), Intent.FALLBACK.value, "find me sth to read", named=False)
    assert asked is not None and asked.intent == Intent.RECOMMENDATION


def test_a_named_item_is_the_preference_paths(acts):
    card = View(domain="movie", focus="Q1")
    assert act_intent(acts, card, Intent.PREFERENCE.value, "so good, like jaws", named=True) is None


def test_no_acts_in_a_replay():
    assert act_intent(None, View(domain="movie"), Intent.FALLBACK.value, "gimme recs", named=False) is None


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("dont know this one, who sings it", Intent.REC_DETAILS.value),
        ("never read that. why this one?", Intent.REC_WHY.value),
        ("not familiar - can i hear a bit of it", Intent.REC_TRAILER.value),
    ],
)
def test_a_last_clause_asking_about_the_card_carries_the_message(acts, text, intent):
    decided = act_intent(acts, View(domain="music", focus="Q1"), Intent.REC_SKIP.value, text, named=False)
    assert decided is not None and decided.intent == intent


def test_a_rating_clause_is_no_lead_in(acts):
    decided = act_intent(
        acts, View(domain="book", focus="Q1"), Intent.REC_SKIP.value, "read it, so boring", named=False
    )
    assert decided is not None and decided.polarity is Polarity.NEGATIVE


def test_more_with_no_list_on_screen_asks_for_one(acts):
    decided = act_intent(acts, View(domain="movie"), Intent.FALLBACK.value, "show me one more please", named=False)
    assert decided is not None and decided.intent == Intent.RECOMMENDATION


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("details?", Intent.REC_DETAILS.value),  # one everyday word the linker could read as a title
        ("next", Intent.REC_SKIP.value),
    ],
)
def test_one_everyday_word_named_as_a_title_is_still_a_sure_act(acts, text, intent):
    decided = act_intent(acts, View(domain="movie", focus="Q1"), Intent.PREFERENCE.value, text, named=True)
    assert decided is not None and decided.intent == intent


def test_a_longer_message_naming_a_title_is_the_preference_paths(acts):
    text = "why did Blade Runner get picked"
    assert act_intent(acts, View(domain="movie", focus="Q1"), Intent.PREFERENCE.value, text, named=True) is None


def test_a_sure_intent_that_fits_the_card_stands(acts):
    view = View(domain="book", focus="Q1")
    assert act_intent(acts, view, Intent.REC_DETAILS.value, "hmm go on", named=False, confidence=0.97) is None


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("ok cheers, off to bed now", BYE),
        ("Thank you ever so much, I'll take my leave.", BYE),
        ("grazie mille, ciao", BYE),
        ("danke, another one pls", Intent.REC_SKIP.value),
        ("wat else u got", Intent.REC_SKIP.value),
    ],
)
def test_wordings_of_other_registers_at_a_card(acts, text, intent):
    decided = act_intent(acts, View(domain="music", focus="Q1"), Intent.FALLBACK.value, text, named=False)
    assert decided is not None and decided.intent == intent


@pytest.mark.parametrize(
    "text",
    ["could you suggest a thing or two for the weekend", "wud u pick sumthing 4 me"],
)
def test_requests_of_other_registers(acts, text):
    decided = act_intent(acts, View(domain="book"), Intent.FALLBACK.value, text, named=False)
    assert decided is not None and decided.intent == Intent.RECOMMENDATION
