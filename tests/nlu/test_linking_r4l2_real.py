"""Issue 22, round 4, second linking pass (engineer 22-L2): linking mechanisms on the real snapshots, with titles
and wordings of their own (none of the conversation sets'). Skipped when a snapshot has not been built."""

from __future__ import annotations

import pytest

from tests.nlu.real_linkers import real_linker


@pytest.fixture(scope="module")
def music():
    return real_linker("music")


def _qids(linker, text):
    return [c.qid for m in linker.link(text) for c in m.candidates]


@pytest.mark.parametrize(
    ("text", "other"),
    [
        ("awake by godsmack is underrated", "Q258671"),  # Dream Theater's Awake
        ("smile by lily allen is a bop", "Q97069531"),  # Katy Perry's Smile
        ("superstar by the carpenters is so lovely", "Q17109346"),  # Wizkid's Superstar
    ],
)
def test_an_album_another_artist_performs_is_no_reading_of_title_by_person(music, text, other):
    """An album is nobody's cover: named by someone else, it is a namesake (a song may be a cover: kept)."""
    assert other not in _qids(music, text)


@pytest.mark.parametrize(
    ("text", "qid"), [("awake by dream theater is great", "Q258671"), ("i like smile by katy perry", "Q97069531")]
)
def test_an_album_named_by_its_own_artist_is_still_found(music, text, qid):
    assert [m.candidates[0].qid for m in music.link(text)] == [qid]


@pytest.fixture(scope="module")
def movies():
    return real_linker("movie")


@pytest.mark.parametrize(
    ("text", "qid"),
    [
        ("the second shrek movie is the best", "Q485983"),  # Shrek 2
        ("the 2nd pirates of the caribbean movie was fun", "Q161087"),  # Dead Man's Chest
        ("the last indiana jones film was bad", "Q182373"),  # the last the KB has
        ("the first harry poter film made me cry", "Q102438"),  # typo'd: the rank is no word of the name
    ],
)
def test_a_series_after_a_rank_is_its_part_of_that_rank(movies, text, qid):
    assert [m.candidates[0].qid for m in movies.link(text)] == [qid]


@pytest.mark.parametrize(
    ("text", "qid"),
    [
        ("the last jedi was bad", "Q18486021"),
        ("the first purge film was scary", "Q42048180"),
        ("the last airbender is awful", "Q11593"),
    ],
)
def test_a_title_opening_with_a_rank_word_stays_that_title(movies, text, qid):
    assert [m.candidates[0].qid for m in movies.link(text)] == [qid]


@pytest.fixture(scope="module")
def books():
    return real_linker("book")


@pytest.mark.parametrize(
    ("text", "qid"),
    [
        ("eternal sunshine made me cry", "Q208269"),  # a word of the pair is no everyday English
        ("butch cassidy is such a fun watch", "Q232000"),
        ("dead poets is one of my favourites", "Q106316"),
    ],
)
def test_a_well_known_film_by_its_first_or_last_two_words(movies, text, qid):
    assert [m.candidates[0].qid for m in movies.link(text)] == [qid]


@pytest.mark.parametrize(
    ("text", "qid"),
    [("roger ackroyd is a clever mystery", "Q224078"), ("ivan denisovich was bleak but great", "Q27321")],
)
def test_a_book_about_a_character_by_the_characters_name(books, text, qid):
    assert [m.candidates[0].qid for m in books.link(text)] == [qid]


@pytest.mark.parametrize("text", ["family values matter to me", "we had a party, people loved it"])
def test_an_everyday_phrase_of_a_famous_title_is_no_short_form(movies, text):
    """Not "Addams Family Values", not "24 Hour Party People": both words everyday English."""
    assert not {"Q204725", "Q217294"} & {c.qid for m in movies.link(text) for c in m.candidates}


@pytest.mark.parametrize(
    ("domain", "text", "title"), [("music", "Manuals?", "Q6752308"), ("movie", "Lessons?", "Q1217089")]
)
def test_the_plural_of_a_titles_word_spelled_right_is_no_typo_of_it(domain, text, title):
    """A help-like question of one plural English word names no title of its singular ("Manual", "The Lesson")."""
    linker = real_linker(domain)
    assert title not in {c.qid for m in linker.link(text) for c in m.candidates}


@pytest.mark.parametrize(
    ("text", "genre"),
    [
        ("I also love Akira, the 1988 anime", "Q1107"),
        ("loved Suspiria, the 1977 horror film", "Q200092"),
        ("Perfect Blue too, the original anime", "Q1107"),
    ],
)
def test_a_genre_closing_an_apposition_describes_the_title_before_it(movies, text, genre):
    assert genre not in {c.qid for m in movies.link(text) for c in m.candidates}


def test_a_genre_with_its_own_verb_after_a_title_is_still_an_opinion(movies):
    assert "Q1107" in {m.candidates[0].qid for m in movies.link("i love Akira, the anime is great")}


@pytest.mark.parametrize(
    ("text", "qid"),
    [
        ("the seventh seel is a masterpiece", "Q217189"),
        ("the third mann was great", "Q271830"),
        ("i love the fifth elemnt", "Q106506"),
    ],
)
def test_a_typod_title_opening_with_a_rank_word_keeps_it(movies, text, qid):
    """No kind word after it: the rank word is the title's ("The Seventh Seal"), not a part of a series."""
    assert [m.candidates[0].qid for m in movies.link(text)] == [qid]
