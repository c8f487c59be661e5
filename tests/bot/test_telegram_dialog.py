"""End to end: fake Bot API -> python-telegram-bot -> TelegramChannel -> the real DialogManager
(on the tiny hand-made knowledge base of ``tests/bot/dialog_fakes.py``) -> SQLite -> back."""

from __future__ import annotations

import pytest

from bot.dialog import DialogManager
from bot.services import DomainServices, Services
from bot.store import StateStore
from logs.store import LogStore
from recommender.recommend import Recommender
from tests.bot.dialog_fakes import FakeIntents, FakeKB, FakeLinker, FakeSentiment
from tests.bot.fake_telegram import wait_until

U = 42


@pytest.fixture
def dialog_manager(tmp_path):
    kb = FakeKB()
    domain = DomainServices(kb=kb, linker=FakeLinker(kb), recommender=Recommender(kb))
    services = Services(FakeIntents(), FakeSentiment(), lambda name: domain)
    db = tmp_path / "dm.sqlite3"
    return DialogManager(services, StateStore(db), LogStore(db), session="telegram-test")


async def test_conversation_with_disambiguation_buttons_through_the_dialog_manager(
    fake_tg, make_channel, dialog_manager
):
    await make_channel(dialog_manager)
    fake_tg.push_text(U, "/start")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    fake_tg.push_text(U, "I love Christopher Nolan")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 2)
    assert "Christopher Nolan" in fake_tg.texts(U)[1]
    fake_tg.push_text(U, "I like Tom Cruise")  # actor or producer? -> buttons
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 3)
    question = fake_tg.sent(U)[2]
    payloads = [data for row in question["buttons"] for _, data in row]
    assert payloads == ["role:P161@1", "role:P162@1", "none@1"]  # the question's number: stale taps are refused
    fake_tg.push_callback(U, question["message_id"], "role:P161")
    assert await wait_until(lambda: len(fake_tg.answered) == 1)
    assert await wait_until(lambda: len(dialog_manager.last_records(f"tg:{U}", 10)) == 4)
    records = dialog_manager.last_records(f"tg:{U}", 10)
    assert [r.intent for r in records][:3] == ["start", "preference", "preference"]
    assert records[-1].intent == "preference - disambiguation" and records[-1].recognized_objects == "Q200+"
    assert {r.interaction_type for r in records} == {"mixed"}
    # the answer to the button arrived (as an edit of the question card or as a new message)
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 4 or fake_tg.calls_of("editMessageText"))
