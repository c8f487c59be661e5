"""Session fixtures of the intent-recognizer tests (tests/nlu/test_intents*.py).

Other nlu tests keep their fixtures in their own modules (e.g. ``conftest_entities.py``); add
fixtures here, do not rewrite this file.
"""

from __future__ import annotations

import pytest

REC = ("request_recommendation-followup",)
PREF = ("preference-followup",)
DISAMB = ("property_type_disambiguation", "preference-followup")
RESET = ("show_profile-reset-followup", "reset_profile-followup")

# (intent, contexts before the message, phrases): a tiny inline training set in the dataset's
# vocabulary; each phrase is repeated over several "users" so that the rare-word markers work.
INLINE_TRAINING: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("start", (), ("/start", "let's start", "start")),
    (
        "preference",
        (),
        (
            "i like tom cruise",
            "i love the matrix",
            "i like quentin tarantino movies",
            "i hate horror films",
            "i don't like comedies",
            "i like harry potter",
        ),
    ),
    (
        "preference",
        PREF,
        (
            "i like brad pitt",
            "i love inception",
            "i don't like romantic movies",
            "i like pulp fiction",
            "i dislike musicals",
        ),
    ),
    (
        "request_recommendation",
        (),
        ("recommend me a movie", "what can i watch tonight", "suggest me a film", "give me a recommendation"),
    ),
    ("request_recommendation", PREF, ("recommend me a movie", "what should i watch", "suggest something")),
    ("request_recommendation - skip", REC, ("skip", "skip this", "next one", "show me the next one")),
    ("skip", PREF, ("skip", "skip this", "skip this question")),
    ("skip", DISAMB, ("skip", "skip this")),
    (
        "request_recommendation - preference",
        REC,
        ("i like it", "i don't like it", "i love this movie", "i hate it", "i like this one"),
    ),
    (
        "request_recommendation - trailer",
        REC,
        ("show me the trailer", "can i see the trailer", "trailer please", "can i see the reviews"),
    ),
    ("request_recommendation - why", REC, ("why", "why did you suggest this", "why this movie")),
    ("request_recommendation - details", REC, ("details", "tell me more", "show me the details")),
    ("request_recommendation - fallback", REC, ("qwerty", "zxcvb", "lkjhg", "poiuy")),
    (
        "preference - disambiguation",
        DISAMB,
        ("actor", "director", "the first one", "tom cruise", "producer", "none of them"),
    ),
    ("show_profile", (), ("show my profile", "my profile", "show my preferences")),
    ("reset_profile", (), ("reset my profile", "delete all my preferences", "reset")),
    ("reset - reset_everything - yes", RESET, ("yes", "yes please")),
    ("help", (), ("help", "what can you do", "help me")),
    ("smalltalk.greetings.hello", (), ("hi", "hello", "hey there")),
    ("smalltalk.appraisal.thank_you", (), ("thanks", "thank you")),
    ("Default Fallback Intent", (), ("qwerty", "zxcvb", "lkjhg", "mnbvc", "the weather is nice")),
    ("Default Fallback Intent", PREF, ("qwerty", "poiuy", "lkjhg")),
)


def inline_examples(users: int = 3) -> list:
    """The inline training set as ``IntentExample`` objects over ``users`` fake conversations."""
    from nlu.intents import IntentExample

    out = []
    for u in range(users):
        for intent, contexts, phrases in INLINE_TRAINING:
            for text in phrases:
                out.append(IntentExample(text, contexts, intent, f"user{u}", "movie", u % 2 == 0, None))
    return out


@pytest.fixture(scope="session")
def inline_recognizer():
    """An IntentRecognizer trained once on the inline examples (~1 s)."""
    from nlu.intents import IntentRecognizer

    return IntentRecognizer.train(inline_examples(), epochs=15, fallback_threshold=0.2)


@pytest.fixture(scope="session")
def movie_recognizer():
    """An IntentRecognizer trained once on the released movie NL messages (skips without them)."""
    from bot import paths
    from bot.cli.intents import examples_from_files
    from nlu.intents import IntentRecognizer, agent_examples, smalltalk_examples

    path = paths.converse_dir() / "movie" / "messages_nl.json"
    if not path.is_file():
        pytest.skip(f"shared data not available: {path}")
    examples, _, _ = examples_from_files([path])
    agent = paths.shared_data() / "dialogflow-agent"
    extra = agent_examples(agent) if agent.is_dir() else []
    return IntentRecognizer.train(examples + smalltalk_examples() + extra)


@pytest.fixture(scope="module")
def sentiment():
    """A sentiment recognizer per test module (the sentiment and hedge tests)."""
    from nlu.sentiment import SentimentRecognizer

    return SentimentRecognizer()


# The real linkers of the linking tests on real data (tests/nlu/real_linkers.py), by domain name so that a
# test may pick one with ``request.getfixturevalue(domain)``; a module's own fixture of that name wins.
@pytest.fixture(scope="module")
def movie():
    from tests.nlu.real_linkers import real_linker

    return real_linker("movie")


@pytest.fixture(scope="module")
def book():
    from tests.nlu.real_linkers import real_linker

    return real_linker("book")


@pytest.fixture(scope="module")
def music():
    from tests.nlu.real_linkers import real_linker

    return real_linker("music")
