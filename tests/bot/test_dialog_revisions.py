"""Issue 22 through the dialog manager: what a turn revises of what was said before. A bare new name
after a stored opinion is a preference of its own, asked about (it used to take the stored one's
opinion: "kid a" -> "👎 Kid A"); "sorry, I meant X" puts X in place of what was just stored; "X too"
takes the last opinion; an opinion of the card rates it ("seen it, hated it honestly"). On the
hand-made KB of the dialog tests with the real sentiment recognizer (other titles than the issue's)."""

from __future__ import annotations

import pytest

from bot.dialog import DialogManager
from bot.services import DomainServices, Services
from bot.store import StateStore
from bot.turns import Turn
from logs.store import LogStore
from nlu.sentiment import SentimentRecognizer
from recommender.recommend import Recommender
from tests.bot.dialog_fakes import FakeIntents, FakeKB, FakeLinker, FakePrediction

INCEPTION, INTERSTELLAR, TOP_GUN, DUNKIRK, MEMENTO = "Q1", "Q2", "Q3", "Q7", "Q8"


class Intents(FakeIntents):
    """The stand-in classifier, hearing a bare lowercase title as a disambiguation answer (as the trained
    one does for "kid a" right after a stored preference)."""

    def predict(self, text, contexts=(), *, events=None, domain=None):
        if text in ("dunkirk", "top gun"):
            name = "preference - disambiguation"
            return FakePrediction(name, 0.9, ((name, 0.9), ("preference", 0.05)))
        return super().predict(text, contexts, events=events, domain=domain)


@pytest.fixture()
def dm(tmp_path):
    return _dm(tmp_path)


def _dm(tmp_path):
    kb = FakeKB()
    domain = DomainServices(kb=kb, linker=FakeLinker(kb), recommender=Recommender(kb))
    services = Services(Intents(), SentimentRecognizer(), lambda name: domain)
    return DialogManager(services, StateStore(tmp_path / "db.sqlite3"), LogStore(tmp_path / "db.sqlite3"))


def _say(dm, text, user="t:1"):
    return dm.handle(Turn(user, text))


def _profile(dm, user="t:1"):
    return {q: v["polarity"] for q, v in dm._states.load_saved(user).profile().items()}


def test_a_bare_new_name_after_an_answer_is_asked_about_not_given_the_last_opinion(dm):
    _say(dm, "Memento")
    _say(dm, "not really")
    assert _profile(dm) == {MEMENTO: "-"}
    reply = _say(dm, "dunkirk")
    assert _profile(dm) == {MEMENTO: "-"} and "Dunkirk" in reply.text and "?" in reply.text
    assert _say(dm, "yes").text.startswith("Got it: 👍 Dunkirk")
    assert _profile(dm) == {MEMENTO: "-", DUNKIRK: "+"}


def test_a_name_said_as_a_correction_replaces_the_last_one(dm):
    _say(dm, "I hate Interstellar")
    reply = _say(dm, "sorry, I meant Dunkirk")
    assert _profile(dm) == {DUNKIRK: "-"}
    assert "Removed Interstellar" in reply.text
    _say(dm, "I love Memento")
    _say(dm, "no wait, top gun")  # a bare name as a correction keeps the opinion it replaces
    assert _profile(dm) == {DUNKIRK: "-", TOP_GUN: "+"}


def test_the_name_meant_takes_the_opinion_the_message_turns_around(dm):
    _say(dm, "I love Memento")
    _say(dm, "I like Inception")
    _say(dm, "actually no, I don't like Memento, I was thinking of Dunkirk")
    assert _profile(dm) == {MEMENTO: "-", INCEPTION: "+", DUNKIRK: "+"}


def test_a_correction_naming_a_stored_item_by_a_short_name_means_it(tmp_path, monkeypatch):
    # issue 22 (dev set): "no wait, ... i actually didn't finish the priory" after "The Priory of the Orange Tree"
    from tests.bot import dialog_fakes

    monkeypatch.setattr(dialog_fakes, "LABELS", {**dialog_fakes.LABELS, "Q9": "Mission", "Q10": "Mission Fallout"})
    dm = _dm(tmp_path)
    _say(dm, "I love Mission Fallout")
    assert _profile(dm) == {"Q10": "+"}
    _say(dm, "oops no, that was my brother. I hated mission, way too long")
    assert _profile(dm) == {"Q10": "-"}
    _say(dm, "I like Mission")  # no correction: the title named
    assert _profile(dm) == {"Q10": "-", "Q9": "+"}


def test_names_added_to_the_last_opinion_take_it(dm):
    _say(dm, "I really dislike Top Gun")
    assert _say(dm, "interstellar too").text.startswith("Got it: 👎 Interstellar")
    assert _profile(dm) == {TOP_GUN: "-", INTERSTELLAR: "-"}
    reply = _say(dm, "how about Memento?")  # a bare mention, asked about
    assert MEMENTO not in _profile(dm) and "Did you like Memento" in reply.text


def test_an_opinion_of_the_card_rates_it_and_the_list_goes_on(dm):
    for text in ("I love Inception", "I like Interstellar", "I hate Top Gun"):
        _say(dm, text)
    first = _say(dm, "recommend me something")
    shown = next(c.payload.split(":")[1] for c in first.choices if c.payload.startswith("like:"))
    reply = _say(dm, "seen it, hated it honestly")
    assert _profile(dm)[shown] == "-" and "2/" in reply.text
    second = next(c.payload.split(":")[1] for c in reply.choices if c.payload.startswith("like:"))
    _say(dm, "already watched it, loved it")
    assert _profile(dm)[second] == "+"


def test_another_reading_of_the_words_just_stored(dm):
    # issue 22 (dev set): "the 1933 one is a classic too" after "peter jackson's king kong was awesome"
    avengers_2012, avengers_1998 = "Q5", "Q6"
    _say(dm, "I love The Avengers")
    _say(dm, "1")
    assert _profile(dm) == {avengers_2012: "+"}
    _say(dm, "the 1998 one is great too")  # an opinion of its own, added
    assert _profile(dm) == {avengers_2012: "+", avengers_1998: "+"}
    _say(dm, "I hate Top Gun")
    _say(dm, "I love The Avengers")
    _say(dm, "1")
    _say(dm, "sorry, I meant the 1998 one")  # put in its place
    assert _profile(dm) == {TOP_GUN: "-", avengers_1998: "+"}
