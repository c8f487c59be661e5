"""Issue 17.1: a turn with a key is applied at most once (its receipt is stored with its state and log)."""

from __future__ import annotations

from bot.dialog import DialogManager
from bot.services import DomainServices, Services
from bot.store import DuplicateTurn, StateStore
from bot.turns import Turn
from logs.store import LogStore
from recommender.recommend import Recommender
from tests.bot.dialog_fakes import FakeIntents, FakeKB, FakeLinker, FakeSentiment


def _dm(db):
    kb = FakeKB()
    domain = DomainServices(kb=kb, linker=FakeLinker(kb), recommender=Recommender(kb))
    services = Services(FakeIntents(), FakeSentiment(), lambda name: domain)
    return DialogManager(services, StateStore(db), LogStore(db), session="test")


def test_a_turn_handed_over_again_is_not_applied_twice_and_gets_the_same_reply(tmp_path):
    db = tmp_path / "db.sqlite3"
    first = _dm(db)
    turn = Turn("tg:7", "I like Dune", key="tg:1:41")
    reply = first.handle(turn)
    again = _dm(db)  # a restarted process, handed the same update
    assert again.handle(turn) == reply
    assert [r.message for r in LogStore(db).records("test")] == ["I like Dune"]
    assert again.handle(Turn("tg:7", "I like Dune", key="tg:1:42")) is not None  # a new key is a new turn
    assert len(LogStore(db).records("test")) == 2


def test_a_key_applied_by_another_process_meanwhile_rolls_the_turn_back(tmp_path):
    db = tmp_path / "db.sqlite3"
    store, other = StateStore(db), _dm(db)
    dm = _dm(db)
    before = store.load("tg:7")
    reply = other.handle(Turn("tg:7", "I like Dune", key="tg:1:50"))
    record = LogStore(db).records("test")[0]
    try:
        store.commit_turn("tg:7", before, session="test", record=record, receipt=("tg:1:50", reply))
    except DuplicateTurn as exc:
        assert exc.reply == reply
    else:
        raise AssertionError("the second commit of one key must be refused")
    assert len(LogStore(db).records("test")) == 1
    assert dm.handle(Turn("tg:7", "I like Dune", key="tg:1:50")) == reply
