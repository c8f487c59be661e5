"""Reading the answer to a suggested item (issue 13): like / dislike / skip / new title / something else."""

from __future__ import annotations

import pytest

from nlu.sentiment import SentimentRecognizer
from nlu.suggestion_answer import read_answer, role_opinions


@pytest.fixture(scope="module")
def polarity():
    sentiment = SentimentRecognizer()
    return lambda text: sentiment.message_polarity(text).value


@pytest.mark.parametrize(
    ("text", "kind", "said"),
    [
        ("I like it", "rate", "+"),
        ("I don't like it", "rate", "-"),
        ("I don’t like", "rate", "-"),
        ("Dislike it", "rate", "-"),
        ("Yes, I love it", "rate", "+"),
        ("yes", "rate", "+"),
        ("No", "rate", "-"),
        ("i hate this movie", "rate", "-"),
        ("Skip", "skip", "0"),
        ("please skip this", "skip", "0"),
        ("I don't know it", "skip", "0"),
        ("I have never seen it", "skip", "0"),
        ("No I don't see this film", "skip", "0"),
        ("what's the next one?", "skip", "0"),
        ("I haven't seen it but I like the plot", "rate", "+"),
    ],
)
def test_answers_about_the_item(polarity, text, kind, said):
    answer = read_answer(text, named=(), polarity=polarity)
    assert answer is not None and (answer.kind, answer.polarity) == (kind, said)


def test_critique_like_additions(polarity):
    answer = read_answer("I like it and I like the protagonist", named=(), polarity=polarity)
    assert (answer.kind, answer.polarity, answer.roles) == ("rate", "+", (("P161", "+"),))
    answer = read_answer("I like it, but i don't like the director", named=(), polarity=polarity)
    assert answer.roles == (("P57", "-"),) and answer.polarity == "+"
    text = "I don't like it, but I like Jason Statham"
    answer = read_answer(text, named=[(text.index("Jason"), len(text))], polarity=polarity)
    assert (answer.kind, answer.polarity, answer.others) == ("rate", "-", ((28, 41),))
    # a linked role word ("protagonist" is also a title) is no other thing
    text = "I like it and I like the protagonist"
    answer = read_answer(text, named=[(text.index("protagonist"), len(text))], polarity=polarity)
    assert answer.kind == "rate" and answer.others == ()
    answer = read_answer("I don't like the director", named=(), polarity=polarity)
    assert (answer.kind, answer.roles) == ("roles", (("P57", "-"),))


def test_new_title_and_other_requests(polarity):
    text = "I like Toy Story"
    answer = read_answer(text, named=[(7, 16)], polarity=polarity)
    assert answer.kind == "new" and answer.others == ((7, 16),)
    # a title that is a pronoun is masked: "It" named is no reference to the item
    assert read_answer("I love It", named=[(7, 9)], polarity=polarity).kind == "new"
    for text in ("Suggest me a movie", "Why did you reccomend this movie?", "show my profile", "hello"):
        assert read_answer(text, named=(), polarity=polarity) is None, text


@pytest.mark.parametrize(
    ("text", "name", "kind"),
    [
        ("Jaws as well, adored it", "Jaws", "new"),
        ("Heat is a bit long, I admit, but I still love it", "Heat", "new"),
        ("honestly amelie was overhyped imo, didnt enjoy it at all", "amelie", "new"),
        ("Oh and The Hobbit, I quite enjoyed that one", "The Hobbit", "new"),
        ("yes! and Heat too", "Heat", "rate"),
        ("I don't like it, but Heat is great", "Heat", "rate"),
        ("loved the film, and Heat too", "Heat", "rate"),
    ],
)
def test_a_pronoun_after_a_name_is_about_that_name(polarity, text, name, kind):
    """A pronoun refers to the last thing named before it: only a reference before any name is the suggestion's."""
    start = text.index(name)
    answer = read_answer(text, named=[(start, start + len(name))], polarity=polarity)
    assert answer is not None and answer.kind == kind, text


def test_role_opinions_per_clause(polarity):
    assert role_opinions("I like Pulp Fiction for the director", polarity) == {"P57": "+"}
    assert role_opinions("I love this movie but I hate the director and I like its genre", polarity) == {
        "P57": "-",
        "P136": "+",
    }
    assert role_opinions("I like Alien", polarity) == {}


def test_elicitation_setting_per_domain():
    from bot.suggestion import DEFAULT_STRATEGIES, parse_elicitation
    from corsbot_errors import ConfigError

    assert parse_elicitation(None) == DEFAULT_STRATEGIES and DEFAULT_STRATEGIES["book"] == "none"
    assert parse_elicitation("randPopularity") == {"movie": "randpop", "book": "randpop", "music": "randpop"}
    assert parse_elicitation("movie=nosuggestions, music=item2item") == {
        "movie": "none",
        "book": "none",
        "music": "item2item",
    }
    with pytest.raises(ConfigError, match="unknown elicitation strategy"):
        parse_elicitation("movie=often")
    with pytest.raises(ConfigError, match="domain among movie, book, music"):
        parse_elicitation("films=popularity")
