"""Issue 22, round 5, engineer 22-L2: recall of the linker on wordings of people who never saw the bot (typo'd
verbs, fronted objects, lists of titles rated by emoji or headed by a lowercase title, a fan of a band), on the
real snapshots with titles and wordings of their own (none of the conversation sets'). Skipped when a snapshot has
not been built."""

from __future__ import annotations

import pytest

from nlu.linking.tokens import tokenize
from nlu.linking.verb_typos import typo_verb, verb_typos
from tests.nlu.real_linkers import tops


@pytest.mark.parametrize(
    ("word", "verb"),
    [("luved", "loved"), ("enjoued", "enjoyed"), ("wacthed", "watched"), ("adord", "adore"), ("lisened", "listened")],
)
def test_a_typo_of_a_like_verb_is_read_as_the_verb(word, verb):
    assert typo_verb(word) == verb


@pytest.mark.parametrize("word", ["lived", "rated", "lover", "dove", "late", "read", "fave"])
def test_an_english_word_or_a_listed_verb_is_no_typo(word):
    """A word people write as it is ("lived", "rated") is never respelt; a like-verb stays as typed."""
    assert typo_verb(word) is None


def test_a_capitalised_word_is_never_respelt():
    """ "Jove" is a name, "jove" typed in lowercase a typo of "love"."""
    assert [t.key for t in verb_typos(tokenize("By Jove, i jove it"))] == ["by", "jove", "i", "love", "it"]


@pytest.mark.parametrize(
    ("domain", "text", "qids"),
    [
        ("movie", "we absolutly adord the sound of musik and the wizzard of oz", ["Q60072", "Q193695"]),
        ("book", "i realy enjoued the hobit", ["Q74287"]),
    ],
)
def test_titles_after_a_typod_verb_are_found(request, domain, text, qids):
    assert tops(request.getfixturevalue(domain), text) == qids


@pytest.mark.parametrize(
    ("text", "qid"),
    [("the hunger gams we read in school", "Q11678"), ("the hobit i read twice as a kid", "Q74287")],
)
def test_a_typod_title_fronted_before_i_read_is_the_verbs_object(book, text, qid):
    assert tops(book, text) == [qid]


@pytest.mark.parametrize(
    ("text", "qids"),
    [
        ("the hobbit 🔥, all the light we cannot see 😴", ["Q74287", "Q18109559"]),  # emoji, then a comma
        ("dune 🔥 the hobbit 👎", ["Q190192", "Q74287"]),  # the list's head, rated by an emoji
    ],
)
def test_titles_of_a_list_rated_by_emoji_are_found(book, text, qids):
    assert tops(book, text) == qids


def test_lowercase_titles_listed_with_a_title_are_found(book):
    """Titles listed before and after a title the guard took are read once the list is known: "beloved" (an
    opinion word) heads it, "one day" (everyday words, in a list of three) follows it."""
    assert tops(book, "beloved, one day and atonement all stayed with me") == ["Q971767", "Q232153", "Q306619"]


def test_an_article_and_one_everyday_word_in_a_list_is_no_title(book):
    """ "the lion, the king and the wardrobe": "the king" is no title on the strength of the list alone."""
    assert "the king" not in [m.text for m in book.link("I adore the lion, the king and the wardrobe")]


def test_a_well_known_title_of_one_everyday_word_heading_a_list_is_found(movie):
    assert tops(movie, "sure, heat and inception") == ["Q42198", "Q25188"]


def test_an_everyday_word_heading_a_list_is_no_title(movie):
    """ "honestly, inception and heat": an adverb of the chat, no title "Honestly"."""
    assert [m.text for m in movie.link("honestly, inception and heat")] == ["inception", "heat"]


@pytest.mark.parametrize(
    ("text", "qid"), [("Massive Blur fan, always have been", "Q485820"), ("Huge Oasis fan tbh", "Q382890")]
)
def test_a_fan_of_a_band_is_the_band_and_the_capital_opening_the_sentence_says_no_longer_name(music, text, qid):
    """ "Big"/"Huge" opening the sentence are capitalised as its first word (no "Huge Oasis" the KB lacks), and one
    is a fan of a band, not of its self-titled album."""
    assert tops(music, text)[:1] == [qid]


@pytest.mark.parametrize(
    ("text", "qid"),
    [("the princess bride did nothing for me", "Q506418"), ("pulp fiction doesn't hold up", "Q104123")],
)
def test_a_lowercase_title_before_did_or_doesnt_is_the_subject(movie, text, qid):
    assert tops(movie, text) == [qid]


@pytest.mark.parametrize("text", ["Plastic Beach is underrated too.", "Born to Run is his best album though"])
def test_a_title_the_kb_lacks_opening_the_message_is_still_no_word_of_it(music, text):
    """The sentence's capital on an everyday word still opens a title the KB lacks (only "Big X fan" says how big a
    fan): no "Beach" or "Run" asked about."""
    assert music.link(text) == ()


@pytest.mark.parametrize(
    ("text", "qid"),
    [
        ("i love simon pegg", "Q238464"),  # not the film "Love, Simon": the verb is the user's
        ("i looove simon pegg in everything", "Q238464"),
        ("i loved love, simon", "Q29169280"),  # the film named after the verb, as typed
    ],
)
def test_a_title_opening_with_the_users_like_verb_gives_way_to_the_name_after_it(movie, text, qid):
    assert tops(movie, text)[:1] == [qid]


def test_an_apposition_naming_an_ensemble_says_the_performer(music):
    """ ", the electronic duo,": the band Justice, not its namesake album (an ensemble noun in the apposition)."""
    assert tops(music, "daft punk and justice, the electronic duo, are my favourites")[:2] == ["Q185828", "Q329178"]


def test_an_artist_named_in_full_beats_a_work_named_by_its_subtitle(music):
    """ "Franz Ferdinand" is the band's label and only the subtitle of the album "Tonight: Franz Ferdinand"."""
    assert tops(music, "i'm really into franz ferdinand lately")[:1] == ["Q173180"]
    assert tops(music, "Tonight: Franz Ferdinand is a great record")[:1] == ["Q1341670"]


def test_a_relative_clause_after_a_title_says_which_and_is_no_word_of_it(movie):
    """ "the Total Recall I watched was ...": "I watched" is no part of a title the KB lacks."""
    assert tops(movie, "the Total Recall I watched was the 1990 one")[:1] == ["Q222018"]


def test_a_cue_of_age_before_a_typod_title_takes_its_oldest_reading(movie):
    """The cue ends the run respelt ("original" is no word of the title) and takes the 1960 film among the
    readings of the very name typed with a slip."""
    assert tops(movie, "i really loved the original magnificient seven")[:1] == ["Q19069"]


def test_a_person_after_a_typod_title_says_which_reading(movie):
    assert tops(movie, "teh godfathr with al pacino is my favourite") == ["Q47703"]


@pytest.mark.parametrize(
    ("text", "qid"),
    [
        ("i love total recall with arnie, not the remake", "Q222018"),
        ("casino royale, not the original, is my fave", None),
    ],
)
def test_not_the_remake_says_which_and_names_no_other_work(movie, text, qid):
    """ "X, not the remake": the original X, and no mention of the remake (no opinion of it)."""
    found = tops(movie, text)
    assert len(found) == 1
    if qid is not None:
        assert found == [qid]


def test_the_plural_of_a_titles_word_spelled_right_is_no_typo_of_it(music):
    """ "Country Roads" (a song the KB may lack) is no typo of the song "Country Road"."""
    assert "Q5177401" not in [c.qid for m in music.link("Country Roads never gets old") for c in m.candidates]


def test_a_name_typed_with_an_s_for_its_symbol_is_still_found(music):
    """ "Travis Scott" for the label "Travi$ Scott": "travi" is no English word whose plural "travis" would be."""
    assert tops(music, "travis scott is overrated imo")[:1] == ["Q13605596"]
