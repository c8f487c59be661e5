"""The durable update inbox (issue 17.1): stored before confirmed, handled once, resumed after a crash;
a reply recorded sent is never sent again after a restart (issue 25)."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import pytest

from bot.channels.inbox import JOURNAL_COMPACT_BYTES, InboxUpdate, SqliteInbox, journal_path
from bot.cli.durability import run_durability
from tests.bot.fake_telegram import FakeTelegram, ScriptedHandler, wait_until

U = 7


def _message(update_id: int, user: int, text: str) -> dict:
    return {"update_id": update_id, "message": {"message_id": update_id, "date": 1_700_000_000, "text": text,
            "chat": FakeTelegram.private_chat(user), "from": FakeTelegram.user(user)}}  # fmt: skip


def test_sqlite_inbox_stores_each_update_once_and_lists_the_unfinished_in_order(tmp_path):
    inbox = SqliteInbox(tmp_path / "db.sqlite3", "telegram:1")
    first = inbox.add([InboxUpdate(3, "tg:7", "{}"), InboxUpdate(1, "tg:7", "{}")])
    again = inbox.add([InboxUpdate(1, "tg:7", "{}"), InboxUpdate(2, None, "{}")])
    assert [u.update_id for u in first] == [3, 1] and [u.update_id for u in again] == [2]
    inbox.finish(1)
    inbox.close()
    reopened = SqliteInbox(tmp_path / "db.sqlite3", "telegram:1")
    assert [u.update_id for u in reopened.unfinished()] == [2, 3]
    assert reopened.add([InboxUpdate(1, "tg:7", "{}")]) == []  # finished and redelivered: not again
    assert SqliteInbox(tmp_path / "db.sqlite3", "telegram:2").unfinished() == []  # another bot's


def test_a_reply_recorded_sent_is_not_handed_out_again_after_a_kill(tmp_path):
    db = tmp_path / "db.sqlite3"
    inbox = SqliteInbox(db, "telegram:1")
    inbox.add([InboxUpdate(i, "tg:7", "{}") for i in (1, 2, 3)])
    inbox.record_sent(2)  # killed right after: the table was never told
    journal = journal_path(db, "telegram:1")
    assert journal.name == "db.sqlite3-sent-telegram_1" and journal.read_text() == "2\n"
    del inbox  # a killed process: nothing closed, nothing flushed by Python
    reopened = SqliteInbox(db, "telegram:1")
    assert [u.update_id for u in reopened.unfinished()] == [1, 3]
    assert not journal.exists()  # folded into the table
    assert [u.update_id for u in SqliteInbox(db, "telegram:1").unfinished()] == [1, 3]


def test_the_sent_journal_is_emptied_once_everything_in_it_is_finished(tmp_path):
    inbox = SqliteInbox(tmp_path / "db.sqlite3", "telegram:1")
    journal = journal_path(tmp_path / "db.sqlite3", "telegram:1")
    n = -(-JOURNAL_COMPACT_BYTES // 7)  # lines of 7 bytes: the last one reaches the size
    inbox.add([InboxUpdate(100_000 + i, "tg:7", "{}") for i in range(n + 1)])
    for i in range(n):
        inbox.record_sent(100_000 + i)
        inbox.finish(100_000 + i)
    assert journal.stat().st_size == 0  # every id in it finished in the table: emptied
    inbox.record_sent(100_000 + n)
    assert journal.read_text() == f"{100_000 + n}\n"  # appended at the start again


async def test_a_restart_resends_only_the_replies_whose_sending_was_not_recorded(fake_tg, make_channel, tmp_path):
    db = tmp_path / "inbox.sqlite3"
    first = SqliteInbox(db, "telegram:123456789")
    first.finish = first.finish_many = lambda ids: None  # killed after each reply went out, before it was finished
    handler = ScriptedHandler()
    channel = await make_channel(handler, inbox=first)
    fake_tg.push_text(U, "sent and recorded")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    first.record_sent = lambda update_id: None  # killed between the send and its record
    fake_tg.push_text(U, "sent, not recorded")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 2)
    await channel.stop()
    await make_channel(handler, inbox=SqliteInbox(db, "telegram:123456789"))  # the restart
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 3)
    await asyncio.sleep(0.5)
    assert fake_tg.texts(U) == [
        f"you said {t}" for t in ("sent and recorded", "sent, not recorded", "sent, not recorded")
    ]
    assert handler.texts("tg:7") == ["sent and recorded", "sent, not recorded", "sent, not recorded"]


async def test_updates_left_unfinished_by_a_killed_run_are_handled_first_in_order(fake_tg, make_channel, tmp_path):
    inbox = SqliteInbox(tmp_path / "inbox.sqlite3", "telegram:123456789")
    inbox.add([InboxUpdate(i, "tg:7", json.dumps(_message(i, U, f"left {i}"))) for i in (11, 12, 13)])
    inbox.finish(11)  # handled before the kill
    handler = ScriptedHandler()
    await make_channel(handler, inbox=inbox)
    fake_tg.push_text(U, "new one")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 3)
    assert handler.texts("tg:7") == ["left 12", "left 13", "new one"]
    assert [t.key for t in handler.turns] == ["tg:123456789:12", "tg:123456789:13", "tg:123456789:1"]
    assert await wait_until(lambda: inbox.unfinished() == [])


async def test_an_update_is_stored_before_its_offset_is_confirmed(fake_tg, make_channel, tmp_path):
    inbox = SqliteInbox(tmp_path / "inbox.sqlite3", "telegram:123456789")
    stored_when_confirmed: list[list[int]] = []
    real_add = inbox.add

    def add(updates):
        new = real_add(updates)
        stored_when_confirmed.append([fake_tg.acked_offset])
        return new

    inbox.add = add  # type: ignore[method-assign]
    handler = ScriptedHandler()
    await make_channel(handler, inbox=inbox)
    fake_tg.push_text(U, "hello")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    assert stored_when_confirmed and stored_when_confirmed[0] == [0]  # stored while still unconfirmed
    assert await wait_until(lambda: fake_tg.acked_offset == 2)


async def test_webhook_checks_the_secret_token_and_stores_before_answering(fake_tg, make_channel, tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    inbox = SqliteInbox(tmp_path / "inbox.sqlite3", "telegram:123456789")
    handler = ScriptedHandler()
    url = f"http://127.0.0.1:{port}/telegram"
    await make_channel(
        handler, inbox=inbox, webhook_url=url, listen="127.0.0.1", port=port, secret_token="s3cret-Token"
    )
    assert fake_tg.webhook == {"url": url, "secret_token": "s3cret-Token"}
    await asyncio.to_thread(fake_tg.push_text, U, "via webhook")  # posted with the secret header
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    forged = urllib.request.Request(url, data=json.dumps(_message(999, 8, "forged")).encode(), method="POST",
                                    headers={"Content-Type": "application/json"})  # fmt: skip
    with pytest.raises(urllib.error.HTTPError) as refused:
        await asyncio.to_thread(urllib.request.urlopen, forged, timeout=5)
    assert refused.value.code == 403
    assert handler.texts("tg:8") == [] and all(u.update_id != 999 for u in inbox.unfinished())


def test_sigkill_during_bursts_loses_nothing_and_applies_nothing_twice():
    """The durability bench with the storing stand-in handler (the real dialog manager: `corsbot bench durability`)."""
    result = run_durability(users=6, per_burst=5, kills=3, worker_kills=0, processes=0, timeout_s=60, trivial=True,
                            seed=3, echo=lambda line: None)  # fmt: skip
    assert (result.kills, result.messages, result.lost, result.applied_twice, result.apologies) == (3, 90, 0, 0, 0)


def test_sigkill_of_dialog_workers_mid_turn_gets_no_apology_and_loses_nothing():
    """Issue 25: the turns a killed worker held are run again on its restarted worker, once."""
    result = run_durability(users=6, per_burst=5, kills=1, worker_kills=3, processes=2, timeout_s=90, trivial=True,
                            seed=5, echo=lambda line: None)  # fmt: skip
    assert (result.kills, result.worker_kills, result.messages) == (1, 3, 90)
    assert (result.lost, result.applied_twice, result.apologies) == (0, 0, 0)


async def test_update_ids_going_backwards_are_handled_and_the_offset_is_the_batch_just_returned(
    fake_tg, make_channel, caplog
):
    fake_tg._next_update = 1000
    fake_tg.push_text(U, "before the renumbering")
    fake_tg._next_update = 5  # Telegram renumbered (a quiet week), or another fake server
    fake_tg.push_text(U, "after it")
    handler = ScriptedHandler()
    await make_channel(handler)
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 2)
    fake_tg.push_text(U, "and the next one")  # id 6: an offset of 1001 (the maximum) would have dropped it
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 3)
    assert handler.texts("tg:7") == ["before the renumbering", "after it", "and the next one"]
    warnings = [r for r in caplog.records if "went backwards" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelname == "WARNING"


def test_fake_telegram_cli_numbers_updates_after_an_earlier_run(monkeypatch):
    import io
    import time

    import bot.channels.fake_bot_api as fake_api
    from bot.cli import fake_telegram

    firsts: list[int] = []

    class Recorded(FakeTelegram):
        def __init__(self, **kwargs):
            firsts.append(kwargs.get("first_update_id", 1))
            super().__init__(**{**kwargs, "port": 0})

    monkeypatch.setattr(fake_api, "FakeTelegram", Recorded)
    for _ in range(2):
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        assert fake_telegram._cli(type("Args", (), {"port": 0})()) == 0
        time.sleep(0.01)
    assert firsts[0] > 1_000_000 and firsts[1] > firsts[0] + 5  # an earlier run's few ids are never reused


async def test_a_webhook_port_in_use_is_a_one_line_channel_error(fake_tg, make_channel):
    import socket

    from bot.channels.telegram import ChannelError
    from bot.errors import describe_error

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ChannelError) as error:
            await make_channel(ScriptedHandler(), webhook_url=f"http://127.0.0.1:{port}/telegram", listen="127.0.0.1",
                               port=port, secret_token="s3cret-Token")  # fmt: skip
    assert describe_error(error.value) == (
        f"port {port} is already in use on 127.0.0.1 (another server listens on it): stop it or choose another "
        "with --port (the webhook server's)"
    )
