"""Per-entity polarity: field cases F21, F23, F24 and issue 5's sentences (spans from the linker)."""

from __future__ import annotations

import pytest

try:
    from conftest_entities import fake_kb, linker, sentiment  # noqa: F401 - fixtures
except ModuleNotFoundError:  # tests/nlu became a package
    from tests.nlu.conftest_entities import fake_kb, linker, sentiment  # noqa: F401 - fixtures

from nlu.errors import NluError
from nlu.sentiment import Polarity, SentimentRecognizer

POS, NEG, NEU = Polarity.POSITIVE, Polarity.NEGATIVE, Polarity.NEUTRAL


def span(text: str, name: str) -> tuple[int, int]:
    start = text.index(name)
    return start, start + len(name)


def polarities_via_linker(linker, sentiment, text):  # noqa: F811
    mentions = linker.link(text)
    return [m.candidates[0].label for m in mentions], list(
        sentiment.polarities(text, [(m.start, m.end) for m in mentions])
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I don’t like The Shining", [NEG]),
        ("I don't like The Shining", [NEG]),
        ("I donʼt like The Shining", [NEG]),
        ("I donâ€™t like The Shining", [NEG]),
        ("I like Stephen King, but I don't like The Shining", [POS, NEG]),
        ("I love Stephen King, but I don't like The Shining", [POS, NEG]),
        ("I love Stephen King however I hate The Shining", [POS, NEG]),
        ("I like Stephen King and The Shining", [POS, POS]),
        ("I don't like Stephen King and The Shining", [NEG, NEG]),
        ("I love Stephen King but not The Shining", [POS, NEG]),
        ("I hate Inception but I love Titanic", [NEG, POS]),
        ("I watched Die Hard", [NEU]),
        ("I watched Bad Boys", [NEU]),
        ("I saw Happy Feet", [NEU]),
        ("I watched Good Will Hunting", [NEU]),
        ("I watched Inception", [NEU]),
        ("I love Die Hard", [POS]),
        ("I hate Happy Feet", [NEG]),
        ("I hate Good Will Hunting", [NEG]),
        ("I can't stand Tom Cruise", [NEG]),
        ("I cannot stand Tom Cruise", [NEG]),
        ("I'm not a fan of Tom Cruise", [NEG]),
        ("I enjoy Inception", [POS]),
        ("I dislike Titanic", [NEG]),
        ("I hate documentaries", [NEG]),
        ("I like horror films", [POS]),
        ("I love Schindler’s List", [POS]),
        ("I liked WALL-E.", [POS]),
        ("I liked Amelie", [POS]),
        ("Inception is awesome", [POS]),
        ("Titanic is so boring", [NEG]),
        ("I didn't like Avatar at all", [NEG]),
        ("I really don't like Titanic", [NEG]),
        ("I never liked Titanic", [NEG]),
        ("I like Inception\nI hate Titanic", [POS, NEG]),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_polarity_per_mention(linker, sentiment, text, expected):  # noqa: F811
    _labels, got = polarities_via_linker(linker, sentiment, text)
    assert got == expected


def test_title_words_are_masked(sentiment):  # noqa: F811
    # the same words outside a title do carry an opinion
    assert sentiment.polarities("Die Hard was bad", [span("Die Hard was bad", "Die Hard")]) == (NEG,)
    text = "I watched Happy Feet"
    assert sentiment.polarities(text, [span(text, "Happy Feet")]) == (NEU,)
    assert sentiment.polarities(text, []) == ()


def test_spans_in_any_order(sentiment):  # noqa: F811
    text = "I like Stephen King, but I don't like The Shining"
    got = sentiment.polarities(text, [span(text, "The Shining"), span(text, "Stephen King")])
    assert got == (NEG, POS)


def test_bad_span_raises(sentiment):  # noqa: F811
    with pytest.raises(NluError):
        sentiment.polarities("I like X", [(5, 2)])


def test_empty_text(sentiment):  # noqa: F811
    assert sentiment.polarities("", [(0, 0)]) == (NEU,)


def test_polarity_values_match_the_dataset():
    assert (POS.value, NEG.value, NEU.value) == ("+", "-", "0")


def test_reference_it_with_appended_pronoun():
    # the dialog manager scores "I don't like it" about the item on screen this way
    s = SentimentRecognizer()
    text = "I don't like it"
    assert s.polarities(text + " it", [(len(text) + 1, len(text) + 3)]) == (NEG,)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I like everything except Titanic", [NEG]),
        ("I like Titanic but Avatar", [POS, NEG]),
        ("I like Titanic but I watched Avatar yesterday", [POS, NEU]),
        ("I don't mind Titanic", [NEU]),  # issue 22-F: a hedge leaning to a like, asked about
        ("I'm not into horror", [NEG]),
        ("No horror please", [NEG]),
        ("I like Titanic, not Avatar", [POS, NEG]),
    ],
)
def test_exclusions_and_idioms(linker, sentiment, text, expected):  # noqa: F811
    assert polarities_via_linker(linker, sentiment, text)[1] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I like it", POS),
        ("I don't like it", NEG),
        ("I donâ€™t like this movie", NEG),
        ("I don’t like this book a lot", NEG),
        ("Dislike", NEG),
        ("Like", POS),
        ("I dislike", NEG),
        ("Don't like", NEG),
        ("No i dislike it", NEG),  # an answer's "no" does not negate the verb after the subject
        ("No", NEG),
        ("Yes", POS),
        ("I like it but I don't like the actors", POS),  # about *it*, not the actors
        ("I don't like it, but I like the genre", NEG),
        ("Yes i like this film, but i dont like the producer", POS),
        ("I love this song", POS),
        ("Show me the trailer", NEU),
    ],
)
def test_message_polarity_about_the_item_on_screen(sentiment, text, expected):  # noqa: F811
    assert sentiment.message_polarity(text) is expected


def test_a_no_before_the_subject_does_not_negate(sentiment):  # noqa: F811
    text = "No, I love Titanic"
    assert sentiment.polarities(text, [span(text, "Titanic")]) == (POS,)
    text = "No I hate Titanic"
    assert sentiment.polarities(text, [span(text, "Titanic")]) == (NEG,)
    text = "I do not like Titanic"
    assert sentiment.polarities(text, [span(text, "Titanic")]) == (NEG,)


def test_not_having_seen_something_is_no_opinion(sentiment):  # noqa: F811
    assert sentiment.message_polarity("I haven't seen it") is NEU
    text = "I didn't watch Titanic"
    assert sentiment.polarities(text, [span(text, "Titanic")]) == (NEU,)
    text = "I love Inception but not Titanic"
    assert sentiment.polarities(text, [span(text, "Titanic")]) == (NEG,)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I don t like Clint Eastwood", "-"),  # negation typed with a space
        ("I didn t like Superman", "-"),
        ("I dont't like Clint Eastwood", "-"),  # doubled t
        ("I don' like Clint Eastwood", "-"),  # missing t
        ("I don'like Clint Eastwood", "-"),  # missing t, glued to the verb
        ("I donâ€™t like Clint Eastwood", "-"),  # mojibake apostrophe, as in the released messages
        ("I like Don Jon", "+"),  # "Don" the word is no negation
    ],
)
def test_broken_negations_still_negate(sentiment, text, expected):  # noqa: F811
    name = text.split("like ")[-1]
    assert sentiment.polarities(text, [span(text, name)])[0].value == expected
    assert sentiment.message_polarity(text.replace(name, "it")).value == expected


def test_contraction_repairs_shift_nothing_else():
    from nlu.textnorm import contraction_repairs, repair_contractions

    assert repair_contractions("I don t like it, I didn t either") == "I don't like it, I didn't either"
    assert repair_contractions("I don'like this") == "I don't like this"
    assert repair_contractions("London tea, Don Jon, don") == "London tea, Don Jon, don"
    assert contraction_repairs("I donâ€™t") == [(5, 8, "'")]


# ---------------------------------------------------------------- issue 12: opinions in any wording
@pytest.mark.parametrize(
    ("text", "names", "expected"),
    [
        ("Jaws is a great movie", ["Jaws"], [POS]),
        ("The Hobbit is a wonderful book", ["The Hobbit"], [POS]),
        ("Ed Sheeran is boring", ["Ed Sheeran"], [NEG]),
        ("pulp fiction was great", ["pulp fiction"], [POS]),
        ("2001: A Space Odyssey bored me", ["2001: A Space Odyssey"], [NEG]),
        ("Queen is my favourite band", ["Queen"], [POS]),
        ("Inception is my favourite movie", ["Inception"], [POS]),
        ("Smells Like Teen Spirit is my favourite song", ["Smells Like Teen Spirit"], [POS]),
        ("1984 by Orwell is brilliant", ["1984"], [POS]),
        ("Misery by Stephen King is great", ["Misery"], [POS]),
        ("My kids and I love The Lion King", ["The Lion King"], [POS]),
        ("I'm a big fan of Radiohead", ["Radiohead"], [POS]),
        ("Interstellar blew my mind", ["Interstellar"], [POS]),
        ("can't stand Nickelback", ["Nickelback"], [NEG]),
        ("I'm not a big fan of Drake", ["Drake"], [NEG]),
    ],
)
def test_issue12_opinions_in_any_wording(sentiment, text, names, expected):  # noqa: F811
    assert list(sentiment.polarities(text, [span(text, n) for n in names])) == expected


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        # a stated opinion after a description or a contrast decides (issue 12)
        ("The Fault in Our Stars made me cry, I loved it", "The Fault in Our Stars", POS),
        ("The Handmaid's Tale was disturbing but I loved it", "The Handmaid's Tale", POS),
        ("Tenet was slow but brilliant", "Tenet", POS),
        ("Joker was dark but amazing", "Joker", POS),
        ("I liked Tenet but the ending was weird", "Tenet", POS),
        ("Inception was great, I hated it though", "Inception", NEG),
        ("Hereditary was so scary", "Hereditary", NEU),  # a description, not an opinion: ask
    ],
)
def test_mixed_feelings_follow_the_stated_opinion(sentiment, text, name, expected):  # noqa: F811
    assert sentiment.polarities(text, [span(text, name)]) == (expected,)


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        # F25: slang and emoji of media talk, where VADER's general lexicon is wrong ("sick" < 0)
        ("Dune was sick!!", "Dune", POS),
        ("Dune was sick af", "Dune", POS),
        ("Inception 🔥🔥", "Inception", POS),
        ("Old Town Road is a banger", "Old Town Road", POS),
        ("this album slaps, Lemonade", "Lemonade", POS),
        ("Tenet was mid", "Tenet", NEG),
        ("Twilight 🤮", "Twilight", NEG),
        ("Ulysses 😴", "Ulysses", NEG),
        ("I'm sick of Coldplay", "Coldplay", NEG),
        ("Coldplay makes me sick", "Coldplay", NEG),
    ],
)
def test_f25_slang_and_emoji(sentiment, text, name, expected):  # noqa: F811
    assert sentiment.polarities(text, [span(text, name)]) == (expected,)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # F22: a hedge or a comparison never becomes a strong opinion (neutral: the dialog asks)
        ("Not the worst film I've seen, Inception", "Inception"),
        ("Inception was okay I guess", "Inception"),
        ("I kind of liked Tenet", "Tenet"),
        ("Tenet wasn't bad", "Tenet"),
        ("Tenet was not bad", "Tenet"),
        ("I hate Tenet less than the first one", "Tenet"),
        ("Inception is better than Tenet", "Tenet"),
    ],
)
def test_f22_hedges_are_neutral(sentiment, text, name):  # noqa: F811
    assert sentiment.polarities(text, [span(text, name)]) == (NEU,)


def test_f22_hedges_about_the_item_on_screen(sentiment):  # noqa: F811
    assert sentiment.message_polarity("I hate it less than the first one") is NEU
    assert sentiment.message_polarity("Not the worst film I've seen") is NEU
    assert sentiment.message_polarity("it's fire") is POS
    assert sentiment.message_polarity("ok I love it") is POS  # an opening "ok" is no hedge


def test_a_no_inside_a_title_negates_nothing(sentiment):  # noqa: F811
    text = "I watched Spider-Man: No Way Home and Inception"
    # even when only part of the title is linked, its "No" is no negation
    assert sentiment.polarities(text, [span(text, "Spider-Man"), span(text, "Inception")]) == (NEU, NEU)
    text = "I loved No Country for Old Men"
    assert sentiment.polarities(text, [span(text, "No Country for Old Men")]) == (POS,)


def test_slang_of_music_talk_is_positive():
    from nlu.sentiment import Polarity, SentimentRecognizer

    s = SentimentRecognizer()
    for text in ("Fake Plastic Trees is my jam", "Kate Bush gives me chills", "Blur songs are my jams"):
        assert s.polarities(text, [(0, 4)]) == (Polarity.POSITIVE,), text


def test_what_the_user_did_mixed_judgements_and_unknown_names_in_a_contrast():
    from nlu.sentiment import Polarity, SentimentRecognizer

    s = SentimentRecognizer()

    def pol(text, name):
        start = text.index(name)
        return s.polarities(text, [(start, start + len(name))])[0]

    # "played", "watched" say what the user did, not how it was (VADER scores "played" as positive)
    assert pol("My dad played the Eagles in the car", "the Eagles") is Polarity.NEUTRAL
    # judgements of both signs before a name: mixed, asked about
    assert pol("Great premise, boring execution, that's Station Eleven for me", "Station Eleven") is Polarity.NEUTRAL
    assert pol("Great acting, great story, that's Inception", "Inception") is Polarity.POSITIVE
    # the clause after "but" is about another name the KB lacks ("Raditude"), not about Weezer
    assert pol("I like Weezer's old stuff but hate Raditude", "Weezer") is Polarity.POSITIVE
    assert pol("Inception was slow but I loved it", "Inception") is Polarity.POSITIVE


def test_blew_me_away_is_praise():
    from nlu.sentiment import Polarity, SentimentRecognizer

    assert SentimentRecognizer().polarities("Parasite blew me away", [(0, 8)]) == (Polarity.POSITIVE,)
