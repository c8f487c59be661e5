"""Card answers that judge a part of the work or are misheard as small talk (issue 22-H), with other words than
the conversation sets': a lower-case part of a work ("the lyrics", "production") is no title, a role word that
names a part of the work ("the production", "the writing") is no critique of a role, and an appraisal heard with
the wrong sign ("Glad you like it!" for "nope, that one is mid") is a judgement of the card."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from nlu.card_opinion import TO_THE_BOT, judges_people_only, rates_card
from nlu.intent_choice import _names_a_role
from nlu.readings import _without_aspects
from nlu.sentiment import SentimentRecognizer


@pytest.fixture(scope="module")
def sentiment() -> SentimentRecognizer:
    return SentimentRecognizer()


def _mention(text: str, words: str) -> SimpleNamespace:
    start = text.index(words)
    return SimpleNamespace(text=words, start=start, end=start + len(words))


def test_a_part_of_the_work_in_lower_case_is_no_name():
    text = "heard it, the lyrics are deep but the production is flat"
    lyrics = _mention(text, "lyrics")
    assert _without_aspects(text, [lyrics], card=False) == []  # "the" before it
    text = "Rumours, gorgeous vocals and a tight production"
    found = [_mention(text, "Rumours"), _mention(text, "production")]
    assert [m.text for m in _without_aspects(text, found, card=False)] == ["Rumours"]  # beside a work


def test_a_part_typed_alone_or_capitalised_stays_a_name():
    assert len(_without_aspects("soundtrack", [_mention("soundtrack", "soundtrack")], card=False)) == 1
    text = "i love The Story by brandi carlile"
    assert len(_without_aspects(text, [_mention(text, "The Story")], card=True)) == 1


def test_a_role_word_naming_a_part_of_the_work_is_no_critique():
    assert not _names_a_role("music", "heard it, the production was slick but the songs were forgettable")
    assert _names_a_role("movie", "loved it but not the director")


@pytest.mark.parametrize(
    ("said", "heard", "rates"),
    [
        ("nope, that one is mid", "smalltalk.appraisal.good", True),  # the wrong sign: a judgement misheard
        ("ugh so lame", "smalltalk.appraisal.good", True),
        ("Good film", "smalltalk.appraisal.good", False),  # agrees: the released study's small talk
    ],
)
def test_an_appraisal_heard_with_the_wrong_sign_rates_the_card(sentiment, said, heard, rates):
    folded = said.lower()
    assert rates_card(folded, said, intent=heard, phrased=None, sentiment=sentiment) is rates


@pytest.mark.parametrize(
    ("said", "roles", "people_only"),
    [
        ("nope, can't stand that author", ("P50",), True),
        ("ugh that director is a genius", ("P57",), True),
        ("i like the actors", ("P161",), False),  # the released study's rating of the card
        ("loved it but not the director", ("P57",), False),  # the work named: a critique that rates it
        ("not my style", ("P136",), False),  # a genre, no person
    ],
)
def test_a_judgement_of_the_cards_people_only(said, roles, people_only):
    assert judges_people_only(said, roles) is people_only


@pytest.mark.parametrize("said", ["you have great taste", "ur picks are solid", "you're good at this lol"])
def test_a_compliment_to_the_bot(said):
    assert TO_THE_BOT.search(said)


def test_a_time_phrase_is_no_reference_to_the_suggested_item():
    from nlu.suggestion_answer import read_answer

    text = "but Nicolas Cage irritates me this year"
    start = text.index("Nicolas Cage")
    answer = read_answer(text, named=[(start, start + len("Nicolas Cage"))], polarity=lambda _t: "-")
    assert answer is not None and answer.kind == "new"
    assert read_answer("i liked this one", named=(), polarity=lambda _t: "+").kind == "rate"


def test_words_of_an_opinion_cue_are_no_title(sentiment):
    from nlu.readings import _without_cues

    text = "levitating by dua lipa is a BANGER"
    found = [_mention(text, "levitating"), _mention(text, "dua lipa"), _mention(text, "BANGER")]
    assert [m.text for m in _without_cues(text, found, sentiment, card=False)] == ["levitating", "dua lipa"]
    text = "watched it, nah, not my cup of tea"
    assert _without_cues(text, [_mention(text, "cup of tea")], sentiment, card=True) == []
    text = "my jam"  # typed alone: a title asked about
    assert len(_without_cues(text, [_mention(text, "my jam")], sentiment, card=False)) == 1
