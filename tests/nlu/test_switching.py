"""A domain named in a sentence (``nlu.switching``, issue 22), with other items than the issue's."""

from __future__ import annotations

import pytest

from nlu.switching import Switch, domain_switch


@pytest.mark.parametrize(
    ("text", "current", "expected"),
    [
        ("what about films? i loved the film fight club", "book", Switch("movie", "i loved the film fight club")),
        ("ok back to books please", "music", Switch("book", "")),
        ("back to music please", "movie", Switch("music", "")),
        (
            "switching to music: radiohead is my favourite band",
            "book",
            Switch("music", "radiohead is my favourite band"),
        ),
        ("Let's switch to books, I loved Dune", "movie", Switch("book", "I loved Dune")),
        ("actually, what about music? i love adele", "movie", Switch("music", "i love adele")),
        ("back to films, what should I watch?", "music", Switch("movie", "what should I watch?")),
        ("can we talk about books now?", "movie", Switch("book", "")),
        ("enough about books, let's talk about movies", "book", Switch("movie", "")),
        # issue 22-G: "talk X" without "about", "for a sec", a "wait" first, "do you do X?"
        (
            "could we talk films for a minute? i adored the film heat",
            "music",
            Switch("movie", "i adored the film heat"),
        ),
        ("hold on, let's chat books for a bit, dune is my fave", "movie", Switch("book", "dune is my fave")),
        ("do you do films too? i loved casablanca", "book", Switch("movie", "i loved casablanca")),
        ("btw can u do songs as well? adele is on repeat", "movie", Switch("music", "adele is on repeat")),
    ],
)
def test_a_switch_phrase_switches_and_keeps_the_rest(text, current, expected):
    assert domain_switch(text, current) == expected


@pytest.mark.parametrize(
    ("text", "current", "domain"),
    [
        ("suggest a book", "movie", "book"),
        ("recommend me some music", "book", "music"),
        ("any good films?", "music", "movie"),
        ("what should I read?", "movie", "book"),
        ("what should I listen to?", "book", "music"),
        ("got any novels by ursula le guin?", "music", "book"),  # issue 22-G: the domain's items with a seed
        ("any films like alien?", "book", "movie"),
    ],
)
def test_a_request_for_another_domains_items_switches_with_the_whole_request(text, current, domain):
    assert domain_switch(text, current) == Switch(domain, text, by_request=True)


@pytest.mark.parametrize(
    ("text", "current"),
    [
        ("suggest a book", "book"),  # its own items: no switch
        ("the song from the matrix movie is a banger", "music"),  # a domain noun in a statement
        ("the novel is even better than the film", "movie"),
        ("I love the album", "music"),
        ("what about the album version?", "music"),
        ("i love to talk films with my dad", "movie"),  # "talk X" inside a statement
        ("do you know the song creep?", "music"),  # a question about one song, no switch
    ],
)
def test_domain_nouns_in_statements_do_not_switch(text, current):
    assert domain_switch(text, current) is None


@pytest.mark.parametrize(
    ("text", "current", "expected"),
    [
        ("ok films now? i adored heat", "book", Switch("movie", "i adored heat")),
        ("change of subject: music. i love blur", "movie", Switch("music", "i love blur")),
        ("enough books, movie time!", "book", Switch("movie", "")),
        ("moving on to novels, dune is great", "music", Switch("book", "dune is great")),
        ("can we switch to the music bot", "movie", Switch("music", "")),
        ("wat abt films? i adored heat", "music", Switch("movie", "i adored heat")),
    ],
)
def test_a_domain_word_opening_the_message_switches(text, current, expected):
    # issue 22-G: "music time!", "change of topic: books." were no switch
    assert domain_switch(text, current) == expected


@pytest.mark.parametrize(("text", "current"), [("songs!", "music"), ("movies are my life", "book")])
def test_a_domain_word_of_the_current_domain_or_in_a_statement_is_no_bare_switch(text, current):
    assert domain_switch(text, current) is None


@pytest.mark.parametrize(
    ("text", "current", "expected"),
    [
        # issue 22-D: a switch after a few words of talk, a topic frame, a header, any subject before a verb of motion
        ("enough about films for now. books: i adored the secret history", "movie", "book"),
        ("haha nice. ok so how about music? been playing a lot of bjork", "movie", "music"),
        ("as for books, middlemarch changed my life", "movie", "book"),
        ("lol ok. on the music front, radiohead forever", "book", "music"),
        ("I would now like to move on to cinema. Casablanca is a favourite", "music", "movie"),
        ("could we turn to music please? I adore Nina Simone", "movie", "music"),
        ("film question - have you got anything like alien?", "book", "movie"),
    ],
)
def test_a_switch_after_talk_in_a_frame_or_a_header_keeps_the_rest(text, current, expected):
    said = domain_switch(text, current)
    assert said is not None and said.domain == expected and not said.by_request
    assert said.rest and text.endswith(said.rest)


@pytest.mark.parametrize(
    ("text", "current", "expected"),
    [
        ("what novels would you recommend? i liked the hobbit", "music", "book"),
        ("any movie recs", "book", "movie"),
        ("got a song for me?", "movie", "music"),
        ("films you'd suggest?", "book", "movie"),
    ],
)
def test_a_request_for_another_domains_items_in_other_frames_switches(text, current, expected):
    assert domain_switch(text, current) == Switch(expected, text, by_request=True)


@pytest.mark.parametrize(
    ("text", "current"),
    [
        ("i went to the cinema with my sister, we saw up", "movie"),
        ("i used to read a lot of books, now i watch films", "movie"),
        ("I want to go back to the movies I loved as a kid", "book"),
        ("that album is a masterpiece: every song slaps", "music"),
        ("i loved heat and the casino soundtrack. anyway, that novel by pynchon bored me", "movie"),
    ],
)
def test_domain_words_inside_statements_or_after_a_long_head_do_not_switch(text, current):
    assert domain_switch(text, current) is None


@pytest.mark.parametrize(
    ("text", "current", "expected", "rest"),
    [
        # issue 22-D: a domain word typed with a slip, a talk verb after any subject (non-native "want talk"), the
        # subject named as such ("the subject of cinema"), "changing subject to"
        ("kk, muzic now. radiohead is my fav band", "movie", "music", "radiohead is my fav band"),
        ("now i want talk about book. i like very much harry potter", "movie", "book", "i like very much harry potter"),
        (
            "Might we move to the subject of cinema? I am partial to Kurosawa.",
            "book",
            "movie",
            "I am partial to Kurosawa.",
        ),
        ("changing subject to music. I like Beethoven very much", "movie", "music", "I like Beethoven very much"),
    ],
)
def test_a_switch_in_other_registers_keeps_the_rest(text, current, expected, rest):
    assert domain_switch(text, current) == Switch(expected, rest)


@pytest.mark.parametrize(
    ("text", "current", "expected"),
    [
        # r7dlg: a question whether the bot knows a domain, and "nvm" / "never mind" before a switch
        (
            "oh do you know books as well? the hobbit is one i reread",
            "music",
            Switch("book", "the hobbit is one i reread"),
        ),
        ("does the bot also cover music? i adore abba", "movie", Switch("music", "i adore abba")),
        ("never mind, back to films", "book", Switch("movie", "")),
        ("nvm let's go back to music", "book", Switch("music", "")),
    ],
)
def test_a_question_whether_the_bot_knows_a_domain_switches_and_keeps_the_rest(text, current, expected):
    assert domain_switch(text, current) == expected


@pytest.mark.parametrize(
    ("text", "current"), [("do you like the book?", "book"), ("do you know the film too?", "movie")]
)
def test_a_question_about_the_current_domain_is_no_switch(text, current):
    assert domain_switch(text, current) is None
