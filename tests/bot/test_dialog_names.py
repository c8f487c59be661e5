"""What the dialog shows is named (issue 16): look-alike options are offered once, nameless entries never listed."""

from __future__ import annotations

import pytest

from bot.dialog import DialogManager
from bot.dialog.context import DialogConfig, TurnContext
from bot.dialog.profile import on_show_profile
from bot.services import DomainServices, Services
from bot.state import DialogState
from bot.store import StateStore
from bot.turns import Turn
from logs.store import LogStore
from nlu.understand import TurnParse
from recommender.recommend import Recommender
from tests.bot import dialog_fakes
from tests.bot.dialog_fakes import FakeIntents, FakeKB, FakeLinker, FakeSentiment


@pytest.fixture()
def services(monkeypatch):
    # two more films called "Memento" of which the KB knows nothing: they read the same to a user
    monkeypatch.setitem(dialog_fakes.LABELS, "Q9", "Memento")
    monkeypatch.setitem(dialog_fakes.LABELS, "Q10", "Memento")
    kb = FakeKB()
    domain = DomainServices(kb=kb, linker=FakeLinker(kb), recommender=Recommender(kb))
    return Services(FakeIntents(), FakeSentiment(), lambda name: domain)


def test_options_that_read_the_same_are_offered_once(tmp_path, services):
    dm = DialogManager(services, StateStore(tmp_path / "db"), LogStore(tmp_path / "db"), session="t")
    reply = dm.handle(Turn("t:1", "I like Memento"))
    labels = [c.label for c in reply.choices]
    assert labels[:-1] == ["Memento (film by Christopher Nolan)", "Memento (film)"]  # Q10 left out
    assert not any("Q" in label and label.split("Q")[-1][:1].isdigit() for label in labels)


def test_the_profile_never_lists_an_entry_without_a_name(services):
    state = DialogState()
    state.profile()["Q1"] = {"polarity": "+", "role": None}
    state.profile()["Q424242"] = {"polarity": "+", "role": None}  # stored (a replayed study), but nameless
    ctx = TurnContext(
        state, Turn("t:1", "profile"), TurnParse(text="profile", intent="profile"), services, DialogConfig()
    )
    text = on_show_profile(ctx).text
    assert "Inception" in text and "Q424242" not in text
