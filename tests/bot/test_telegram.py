"""End-to-end tests of the Telegram channel: real python-telegram-bot against the fake Bot API server.

Each field case F01-F12 (F07 does not exist) is replayed by at least one test, named ``test_fXX_*``.
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from bot.channels.telegram import ChannelError, InstanceLock, TelegramChannel, TelegramConfig, lock_path_for
from bot.turns import Choice, Reply, Turn
from corsbot_errors import CorsbotError
from tests.bot.fake_telegram import TOKEN, ScriptedHandler, wait_until

U = 7  # the main test user (private chat id == user id)


async def test_normal_conversation_with_buttons(fake_tg, make_channel):
    handler = ScriptedHandler()
    await make_channel(handler)
    # start-up: webhook deleted (polling), commands published
    assert fake_tg.calls_of("deleteWebhook")
    assert [c["command"] for c in fake_tg.commands][:3] == ["start", "help", "movie"]
    fake_tg.push_text(U, "/start@corsbot_test_bot")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    fake_tg.push_text(U, "I like Dune")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 2)
    first, second = fake_tg.sent(U)
    assert first["text"] == "you said /start" and first["parse_mode"] == "HTML"
    assert second["text"] == "you said I like Dune"
    assert second["buttons"] == [[("Like", "like:Q1"), ("Skip", "skip")]]
    assert handler.turns[1] == Turn(
        user_id="tg:7",
        text="I like Dune",
        payload=None,
        interaction_type="mixed",
        timestamp_ms=handler.turns[1].timestamp_ms,
        key=handler.turns[1].key,
    )
    assert handler.turns[1].key == "tg:123456789:2"  # bot id and update id: applied at most once
    assert abs(handler.turns[1].timestamp_ms / 1000 - time.time()) < 30
    # tap "Like": the query is answered, the turn carries the label and the payload, the card is edited
    query_id = fake_tg.push_callback(U, second["message_id"], "like:Q1")
    assert await wait_until(lambda: fake_tg.calls_of("editMessageText"))
    assert (query_id, None) in fake_tg.answered
    assert handler.turns[-1].payload == "like:Q1" and handler.turns[-1].text == "Like"
    edited = fake_tg.messages[(U, second["message_id"])]
    assert edited["text"] == "pressed like:Q1 (Like)"
    assert len(fake_tg.sent(U)) == 2  # edited in place, nothing new sent
    assert handler.overlaps == 0 and all(t.startswith("corsbot-dialog") for t in handler.threads)


async def test_reply_that_is_not_a_card_is_sent_as_new_message(fake_tg, make_channel):
    handler = ScriptedHandler(lambda turn: Reply(f"details of {turn.payload}", choices=(Choice("Back", "back"),)))
    await make_channel(handler)
    fake_tg.push_text(U, "hi")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    fake_tg.push_callback(U, fake_tg.sent(U)[0]["message_id"], "back")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 2)
    assert fake_tg.sent(U)[1]["text"] == "details of back" and not fake_tg.calls_of("editMessageText")


# ----------------------------------------------------------------------------------------- F01, F02


async def test_f01_edited_message_is_not_read_and_never_counted_twice(fake_tg, make_channel):
    handler = ScriptedHandler()
    await make_channel(handler)
    mid = fake_tg.push_text(U, "I like Dun")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    fake_tg.push_edit(U, mid, "I like Dune")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 2)
    reply = fake_tg.sent(U)[1]
    assert "edited messages" in reply["text"] and reply["reply_to"] == mid
    assert handler.texts("tg:7") == ["I like Dun"]  # the edit never reached the dialog manager


async def test_f01_channel_posts_and_group_noise_are_ignored_quietly(fake_tg, make_channel, caplog):
    handler = ScriptedHandler()
    await make_channel(handler)
    fake_tg.push_channel_post(-100123, "I like Dune")
    group = {"id": -555, "type": "group", "title": "friends"}
    fake_tg.push_text(U, "I like Dune", chat=group)
    fake_tg.push_text(U, "marker")  # processed after the two others (same user / FIFO polling)
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    await asyncio.sleep(0.2)
    assert handler.texts("tg:7") == ["marker"]
    assert fake_tg.sent(-100123) == [] and fake_tg.sent(-555) == []
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


@pytest.mark.parametrize("kind", ["sticker", "voice", "photo"])
async def test_f02_non_text_gets_a_short_reply_and_state_stays(fake_tg, make_channel, kind):
    handler = ScriptedHandler()
    await make_channel(handler)
    getattr(fake_tg, f"push_{kind}")(U)
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    assert fake_tg.texts(U) == ["I can only read text. Tell me a title or a name, or type /help."]
    assert handler.turns == []  # the dialog manager (and its state) was never touched


async def test_f02_photo_caption_is_processed_as_text(fake_tg, make_channel):
    handler = ScriptedHandler()
    await make_channel(handler)
    fake_tg.push_photo(U, caption="I like this poster")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    assert handler.texts("tg:7") == ["I like this poster"]
    assert fake_tg.texts(U) == ["you said I like this poster"]


# ----------------------------------------------------------------------------------------- F03, F04

TRICKY = [
    "Spider-Man: No Way Home (2021).",
    "M*A*S*H",
    "Harry Potter and the Philosopher's Stone",
    "user_name_with_underscores",
    "Tom & Jerry <3 </b> &amp; [link](x) `code` _it_",
]


@pytest.mark.parametrize("title", TRICKY)
async def test_f03_dynamic_strings_are_escaped_for_html(fake_tg, make_channel, title):
    handler = ScriptedHandler(lambda turn: Reply(f"How about {title}?", choices=(Choice(title, "rate:Q1"),)))
    await make_channel(handler)
    fake_tg.push_text(U, "recommend")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    sent = fake_tg.sent(U)[0]
    assert sent["parse_mode"] == "HTML"  # the fake's strict HTML parser accepted it
    assert sent["text"] == f"How about {title}?"
    assert sent["buttons"] == [[(title, "rate:Q1")]]


async def test_f03_parse_error_is_resent_as_plain_text(fake_tg, make_channel):
    text = "Spider-Man: No Way Home (2021). M*A*S*H"
    await make_channel(ScriptedHandler(lambda turn: Reply(text)))
    fake_tg.fail("sendMessage", 400, "Bad Request: can't parse entities: Unsupported start tag at byte offset 3")
    fake_tg.push_text(U, "hi")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    assert len(fake_tg.calls_of("sendMessage")) == 2
    assert fake_tg.sent(U)[0]["text"] == text and fake_tg.sent(U)[0]["parse_mode"] is None


async def test_f04_long_reply_is_split_on_lines_with_keyboard_last(fake_tg, make_channel):
    lines = [f"{i}. Tom & Jerry <{i}> liked because of path {'x' * (i % 40)}" for i in range(300)]
    text = "\n".join(lines)
    assert len(text) > 4096
    choices = (Choice("More", "more"), Choice("Stop", "stop"))
    await make_channel(ScriptedHandler(lambda turn: Reply(text, choices=choices)))
    fake_tg.push_text(U, "list everything I liked")
    assert await wait_until(lambda: fake_tg.sent(U) and fake_tg.sent(U)[-1]["buttons"])
    parts = fake_tg.sent(U)
    assert len(parts) >= 3
    assert all(len(p["text"]) <= 4096 for p in parts)
    assert "\n".join(p["text"] for p in parts) == text  # cut only at line boundaries, nothing lost
    assert [bool(p["buttons"]) for p in parts] == [False] * (len(parts) - 1) + [True]


async def test_f04_message_too_long_answer_is_resplit(fake_tg, make_channel):
    text = "\n".join(f"line {i}" for i in range(50))
    await make_channel(ScriptedHandler(lambda turn: Reply(text, choices=(Choice("OK", "ok"),))))
    fake_tg.fail("sendMessage", 400, "Bad Request: message is too long")
    fake_tg.push_text(U, "why?")
    assert await wait_until(lambda: fake_tg.sent(U) and fake_tg.sent(U)[-1]["buttons"])
    parts = fake_tg.sent(U)
    assert len(parts) >= 2 and "\n".join(p["text"] for p in parts) == text


# ----------------------------------------------------------------------------------------- F05


def _slow_cards(*, edit: bool):
    def dm(turn: Turn) -> Reply:
        if turn.payload:
            time.sleep(0.4)
            return Reply(
                f"answer to {turn.payload}", choices=(Choice("More", "more"), Choice("Why?", "why")), card=edit
            )
        return Reply("card", choices=(Choice("More", "more"), Choice("Why?", "why")))

    return ScriptedHandler(dm)


async def test_f05_25_taps_in_a_row_run_one_computation(fake_tg, make_channel):
    handler = _slow_cards(edit=True)
    await make_channel(handler)
    fake_tg.push_text(U, "recommend")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    card = fake_tg.sent(U)[0]["message_id"]
    query_ids = [fake_tg.push_callback(U, card, "more") for _ in range(25)]
    assert await wait_until(lambda: len(fake_tg.answered) == 25, timeout=10)
    assert await wait_until(lambda: fake_tg.messages[(U, card)]["text"] == "answer to more", timeout=10)
    await asyncio.sleep(0.6)
    assert [t.payload for t in handler.turns if t.payload] == ["more"]  # one computation
    answered = dict(fake_tg.answered)
    assert set(answered) == set(query_ids)
    assert sum(1 for q in query_ids if answered[q] == "Working on it…") >= 20
    assert len(fake_tg.calls_of("editMessageText")) == 1


async def test_f05_last_different_tap_wins_on_an_unchanged_card(fake_tg, make_channel):
    handler = _slow_cards(edit=False)  # answers are new messages: the card stays as the user saw it
    await make_channel(handler)
    fake_tg.push_text(U, "recommend")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    card = fake_tg.sent(U)[0]["message_id"]
    for payload in ["more", "why", "more", "why"]:
        fake_tg.push_callback(U, card, payload)
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 3, timeout=10)
    await asyncio.sleep(0.6)
    assert [t.payload for t in handler.turns if t.payload] == ["more", "why"]
    assert fake_tg.texts(U)[1:] == ["answer to more", "answer to why"]


async def test_f05_taps_made_on_a_card_version_that_was_replaced_are_dropped(fake_tg, make_channel):
    handler = _slow_cards(edit=True)
    await make_channel(handler)
    fake_tg.push_text(U, "recommend")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    card = fake_tg.sent(U)[0]["message_id"]
    fake_tg.push_callback(U, card, "more")
    fake_tg.push_callback(U, card, "why")  # tapped on the old card while "more" was computing
    assert await wait_until(lambda: fake_tg.messages[(U, card)]["text"] == "answer to more", timeout=10)
    await asyncio.sleep(0.6)
    assert [t.payload for t in handler.turns if t.payload] == ["more"]
    assert len(fake_tg.answered) == 2


async def test_f05_a_failed_tap_does_not_leave_the_card_stuck(fake_tg, make_channel):
    handler = _slow_cards(edit=True)
    await make_channel(handler)
    fake_tg.push_text(U, "recommend")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    card = fake_tg.sent(U)[0]["message_id"]
    fake_tg.fail("editMessageText", 502, "Bad Gateway")
    fake_tg.push_callback(U, card, "more")
    fake_tg.push_callback(U, card, "why")  # pending when the edit fails
    # the 502 is retried once after 1 s (issue 17.4); the pending tap is then dropped (card edited)
    assert await wait_until(lambda: len(fake_tg.calls_of("editMessageText")) >= 2 and len(fake_tg.answered) == 2)
    await asyncio.sleep(0.3)
    fake_tg.push_callback(U, card, "why")  # a later tap is served normally
    assert await wait_until(lambda: fake_tg.messages[(U, card)]["text"] == "answer to why", timeout=10)


async def test_f05_retry_after_is_honoured(fake_tg, make_channel):
    await make_channel(ScriptedHandler())
    fake_tg.fail("sendMessage", 429, "Too Many Requests: retry after 1", retry_after=1)
    started = time.monotonic()
    fake_tg.push_text(U, "hello")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1, timeout=10)
    assert time.monotonic() - started >= 1.0
    assert len(fake_tg.calls_of("sendMessage")) == 2 and fake_tg.texts(U) == ["you said hello"]


async def test_f05_typing_action_sent_once_during_long_computation(fake_tg, make_channel):
    handler = ScriptedHandler(lambda turn: (time.sleep(1.2), Reply("done"))[1])
    await make_channel(handler, typing_delay_s=0.1)
    fake_tg.push_text(U, "recommend")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    assert [c["action"] for c in fake_tg.calls_of("sendChatAction")] == ["typing"]


# ----------------------------------------------------------------------------------------- F06


async def test_f06_callback_answered_before_slow_work(fake_tg, make_channel):
    seen_answered: list[bool] = []

    def slow(turn: Turn) -> Reply:
        if turn.payload:
            seen_answered.append(any(q == "1" for q, _ in fake_tg.answered))
            time.sleep(0.3)
        return Reply("card", choices=(Choice("Why?", "why:Q1"),), card=bool(turn.payload))

    await make_channel(ScriptedHandler(slow))
    fake_tg.push_text(U, "recommend")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    fake_tg.push_callback(U, fake_tg.sent(U)[0]["message_id"], "why:Q1")
    assert await wait_until(lambda: seen_answered)
    assert seen_answered == [True]


async def test_f06_too_old_query_is_swallowed_and_stale_button_gets_fresh_list(fake_tg, make_channel, caplog):
    def dm(turn: Turn) -> Reply:  # a dialog manager that lost the list the button refers to
        if turn.payload == "like:old-list":
            return Reply(
                "That list is out of date. Here is a fresh one:", choices=(Choice("Like", "like:new"),), card=True
            )
        return Reply("?")

    await make_channel(ScriptedHandler(dm))
    fake_tg.fail(
        "answerCallbackQuery", 400, "Bad Request: query is too old and response timeout expired or query ID is invalid"
    )
    fake_tg.push_callback(U, 99, "like:old-list")  # yesterday's message, unknown to the server now
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    sent = fake_tg.sent(U)[0]
    assert sent["text"].startswith("That list is out of date") and sent["buttons"] == [[("Like", "like:new")]]
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


# ----------------------------------------------------------------------------------------- F08


def test_f08_payload_over_64_bytes_is_refused_at_the_source():
    with pytest.raises(ValueError):
        Choice("why", "why:Dr. Strangelove or: How I Learned to Stop Worrying and Love the Bomb")
    with pytest.raises(ValueError):
        Choice("why", "why:" + "千と千尋の神隠し" * 3)  # 3 bytes per character


async def test_f08_long_and_cjk_labels_travel_with_short_ids(fake_tg, make_channel):
    choices = (
        Choice("Dr. Strangelove or: How I Learned to Stop Worrying and Love the Bomb", "why:Q105702"),
        Choice("千と千尋の神隠し", "why:Q155653"),
    )
    handler = ScriptedHandler(lambda turn: Reply(f"ok {turn.payload}", choices=choices, card=True))
    await make_channel(handler)
    fake_tg.push_text(U, "recommend")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    buttons = [b for row in fake_tg.sent(U)[0]["buttons"] for b in row]
    assert buttons == [(c.label, c.payload) for c in choices]
    fake_tg.push_callback(U, fake_tg.sent(U)[0]["message_id"], "why:Q155653")
    assert await wait_until(lambda: handler.turns[-1].payload == "why:Q155653")
    assert handler.turns[-1].text == "千と千尋の神隠し"


# ----------------------------------------------------------------------------------------- F09


async def test_f09_blocked_user_marked_inactive_and_others_served(fake_tg, make_channel):
    handler = ScriptedHandler()
    await make_channel(handler)
    users = make_channel.users
    fake_tg.push_text(8, "hello")
    assert await wait_until(lambda: len(fake_tg.sent(8)) == 1)
    assert users.is_active("tg:8")
    fake_tg.block(8)
    fake_tg.push_text(8, "I like Dune")
    fake_tg.push_text(9, "hi from nine")
    assert await wait_until(lambda: not users.is_active("tg:8"))
    assert await wait_until(lambda: fake_tg.texts(9) == ["you said hi from nine"])
    assert users.inactive() == ("tg:8",) and "blocked" in users.get("tg:8").reason
    fake_tg.blocked.discard(8)  # the user unblocks the bot and writes again
    fake_tg.push_text(8, "back")
    assert await wait_until(lambda: fake_tg.texts(8)[-1:] == ["you said back"])
    assert users.is_active("tg:8")


async def test_f09_my_chat_member_block_and_unblock_updates(fake_tg, make_channel):
    handler = ScriptedHandler()
    await make_channel(handler)
    users = make_channel.users
    fake_tg.push_text(8, "hello")
    assert await wait_until(lambda: len(fake_tg.sent(8)) == 1)
    fake_tg.push_block(8)
    assert await wait_until(lambda: not users.is_active("tg:8"))
    assert users.get("tg:8").reason == "bot kicked by the user"
    fake_tg.push_block(8, blocked=False)
    assert await wait_until(lambda: users.is_active("tg:8"))
    assert len(fake_tg.sent(8)) == 1 and len(handler.turns) == 1  # nothing sent, the DM not involved


# ----------------------------------------------------------------------------------------- F10


def test_f10_second_instance_with_same_token_is_refused(tmp_path):
    path = lock_path_for(TOKEN, tmp_path)
    assert path.name == "telegram-123456789.lock"
    with InstanceLock(path):
        with pytest.raises(ChannelError, match="already running with this bot token"):
            InstanceLock(path).acquire()
    with InstanceLock(path):  # released: a restart works
        pass


def test_f10_cli_exits_with_a_clear_message_when_locked(tmp_path, monkeypatch, capsys, fake_tg):
    from bot.cli import main

    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path))
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    with InstanceLock(lock_path_for(TOKEN, tmp_path)):
        code = main(["telegram", "--base-url", fake_tg.base_url, "--echo"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "already running with this bot token" in err[0]
    assert not fake_tg.calls_of("getUpdates")  # refused before touching Telegram


async def test_f10_webhook_left_over_is_deleted_and_updates_never_processed_twice(fake_tg, make_channel):
    fake_tg.webhook = {"url": "https://old.example/hook", "secret_token": None}
    handler = ScriptedHandler()
    await make_channel(handler)
    assert fake_tg.webhook is None
    for i in range(5):
        fake_tg.push_text(U, f"m{i}")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 5)
    await asyncio.sleep(1.5)  # a few more polls
    assert handler.texts("tg:7") == [f"m{i}" for i in range(5)]


async def test_f10_conflict_from_another_poller_stops_with_a_clear_error(fake_tg):
    config = TelegramConfig(token=TOKEN, base_url=fake_tg.base_url, poll_timeout_s=1.0, overall_rate_per_s=0)
    channel = TelegramChannel(ScriptedHandler(), config)
    fake_tg.fail(
        "getUpdates",
        409,
        "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
    )
    with pytest.raises(ChannelError, match="another process is receiving updates"):
        await asyncio.wait_for(channel.serve(), timeout=10)


# ----------------------------------------------------------------------------------------- F11


async def test_f11_same_user_in_order_later_message_wins(fake_tg, make_channel):
    def dm(turn: Turn) -> Reply:
        time.sleep(0.3 if "like" in turn.text and "hate" not in turn.text else 0.01)  # the first is slower
        return Reply(f"noted: {turn.text}")

    handler = ScriptedHandler(dm)
    await make_channel(handler)
    fake_tg.push_text(U, "I like Dune")
    await asyncio.sleep(0.1)
    fake_tg.push_text(U, "actually I hate Dune")
    fake_tg.push_text(8, "I like Alien")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 2 and len(fake_tg.sent(8)) == 1)
    assert handler.texts("tg:7") == ["I like Dune", "actually I hate Dune"]
    assert fake_tg.texts(U) == ["noted: I like Dune", "noted: actually I hate Dune"]
    assert fake_tg.texts(8) == ["noted: I like Alien"]
    assert handler.overlaps == 0


async def test_concurrency_100_users_interleaved_nothing_lost(fake_tg, make_channel):
    def dm(turn: Turn) -> Reply:
        time.sleep(0.002)
        return Reply(f"{turn.user_id} said {turn.text}")

    handler = ScriptedHandler(dm)
    channel = await make_channel(handler)
    users = range(1000, 1100)
    per_user = 5
    fake_tg.push_texts([(u, f"msg {k}") for k in range(per_user) for u in users])  # interleaved
    assert await wait_until(lambda: len(fake_tg.calls_of("sendMessage")) >= 100 * per_user, timeout=30)
    for u in users:
        assert fake_tg.texts(u) == [f"tg:{u} said msg {k}" for k in range(per_user)]
    assert handler.overlaps == 0 and len(handler.turns) == 100 * per_user
    assert await wait_until(lambda: len(channel.processor.locks) == 0)  # per-user locks dropped when idle


# ----------------------------------------------------------------------------------------- F12


async def test_f12_slow_user_does_not_block_others(fake_tg, make_channel):
    release = threading.Event()

    def dm(turn: Turn) -> Reply:
        if turn.user_id == "tg:1":
            release.wait(5)
            return Reply("your recommendations")
        return Reply("welcome")

    await make_channel(ScriptedHandler(dm))
    fake_tg.push_text(1, "recommend something")
    await asyncio.sleep(0.2)
    started = time.monotonic()
    fake_tg.push_text(2, "/start")
    assert await wait_until(lambda: fake_tg.texts(2) == ["welcome"], timeout=3)
    assert time.monotonic() - started < 1.5
    assert fake_tg.texts(1) == []
    release.set()
    assert await wait_until(lambda: fake_tg.texts(1) == ["your recommendations"])


async def test_f12_slow_notice_then_deadline(fake_tg, make_channel):
    release = threading.Event()
    handler = ScriptedHandler(lambda turn: (release.wait(5), Reply("late"))[1])
    await make_channel(handler, typing_delay_s=0.1, slow_notice_s=0.3, deadline_s=0.8)
    fake_tg.push_text(U, "recommend")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 2, timeout=5)
    assert fake_tg.texts(U) == ["Still working on it, one moment…",
                                "Sorry, that took too long. Please try again, maybe with a narrower request."]  # fmt: skip
    release.set()


# ----------------------------------------------------------------------------------------- errors, photos


async def test_handler_errors_get_an_apology_and_the_bot_keeps_serving(fake_tg, make_channel, caplog):
    def dm(turn: Turn) -> Reply:
        if turn.text == "boom":
            raise RuntimeError("bug")
        if turn.text == "kb":
            raise CorsbotError("The knowledge base is busy, try again in a moment.")
        return Reply("fine")

    await make_channel(ScriptedHandler(dm))
    for text in ("boom", "kb", "hello"):
        fake_tg.push_text(U, text)
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 3)
    assert fake_tg.texts(U) == [
        "Sorry, something went wrong on my side. Please try again.",
        "The knowledge base is busy, try again in a moment.",
        "fine",
    ]
    assert any("turn of tg:7 failed" in r.getMessage() and r.exc_info for r in caplog.records)


async def test_global_error_handler_apologises_when_sending_fails(fake_tg, make_channel):
    await make_channel(ScriptedHandler())
    fake_tg.fail("sendMessage", 400, "Bad Request: chat not found")
    fake_tg.push_text(U, "hello")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    assert fake_tg.texts(U) == ["Sorry, something went wrong on my side. Please try again."]


async def test_photo_with_caption_and_card_media_edit(fake_tg, make_channel):
    def dm(turn: Turn) -> Reply:
        n = "2" if turn.payload else "1"
        return Reply(
            f"Dune (2021) & more #{n}",
            choices=(Choice("Next", "next"),),
            image=f"https://img.example/{n}.jpg",
            card=True,
        )

    await make_channel(ScriptedHandler(dm))
    fake_tg.push_text(U, "recommend")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    photo = fake_tg.sent(U)[0]
    assert photo["method"] == "sendPhoto" and photo["caption"] == "Dune (2021) & more #1"
    assert photo["photo"] == "https://img.example/1.jpg" and photo["buttons"] == [[("Next", "next")]]
    fake_tg.push_callback(U, photo["message_id"], "next")
    assert await wait_until(lambda: fake_tg.calls_of("editMessageMedia"))
    assert fake_tg.messages[(U, photo["message_id"])]["caption"] == "Dune (2021) & more #2"


async def test_photo_failure_falls_back_to_text_and_long_caption_goes_below(fake_tg, make_channel):
    long_text = "Why: " + "because of the director. " * 60
    replies = iter(
        [Reply("Alien (1979)", image="https://img.example/a.jpg"), Reply(long_text, image="https://img.example/b.jpg")]
    )
    await make_channel(ScriptedHandler(lambda turn: next(replies)))
    fake_tg.fail("sendPhoto", 400, "Bad Request: wrong file identifier/HTTP URL specified")
    fake_tg.push_text(U, "one")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    assert fake_tg.sent(U)[0]["method"] == "sendMessage" and fake_tg.texts(U) == ["Alien (1979)"]
    fake_tg.push_text(U, "two")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 3)
    photo, text = fake_tg.sent(U)[1:]
    assert photo["method"] == "sendPhoto" and photo["caption"] is None and text["text"] == long_text


async def test_webhook_mode_receives_updates(fake_tg, make_channel):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    handler = ScriptedHandler()
    await make_channel(
        handler, webhook_url=f"http://127.0.0.1:{port}/hook", port=port, url_path="hook", secret_token="s3cret"
    )
    assert fake_tg.webhook == {"url": f"http://127.0.0.1:{port}/hook", "secret_token": "s3cret"}
    await asyncio.to_thread(fake_tg.push_text, U, "via webhook")
    assert await wait_until(lambda: fake_tg.texts(U) == ["you said via webhook"])


def test_f10_two_processes_second_refused_first_serves_and_stops_on_sigterm(fake_tg, tmp_path):
    import os
    import signal
    import subprocess
    import sys

    env = {**os.environ, "CORSBOT_HOME": str(tmp_path), "TELEGRAM_BOT_TOKEN": TOKEN}
    cmd = [sys.executable, "-m", "bot.cli", "telegram", "--echo", "--base-url", fake_tg.base_url]
    first = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert fake_tg.wait_for(lambda: fake_tg.calls_of("getUpdates"), timeout=30)
        fake_tg.push_text(U, "hi")
        assert fake_tg.wait_for(lambda: fake_tg.texts(U) == ["you said hi"], timeout=10)
        second = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
        assert second.returncode == 2
        assert second.stderr.strip().endswith("stop it first") and "Traceback" not in second.stderr
        first.send_signal(signal.SIGTERM)
        out, err = first.communicate(timeout=30)
        assert first.returncode == 0, err
        assert out.strip().splitlines()[-1] == "telegram: stopped"
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()


@pytest.mark.parametrize("case", ["wrong-token", "unreachable"])
def test_start_up_failures_are_one_clear_line(fake_tg, tmp_path, monkeypatch, capsys, case):
    import socket

    from bot.cli import main

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed_port = s.getsockname()[1]
    base_url = fake_tg.base_url if case == "wrong-token" else f"http://127.0.0.1:{closed_port}/bot"
    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path))
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "1:wrong" if case == "wrong-token" else TOKEN)
    assert main(["telegram", "--echo", "--base-url", base_url]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    expected = "Telegram refused the bot token" if case == "wrong-token" else "cannot reach the Telegram Bot API"
    assert len(err) == 1 and expected in err[0], err


def test_bench_telegram_cli_small_run_last_line(capsys):
    import re

    from bot.cli import main

    assert main(["bench", "telegram", "--users", "5", "--messages", "3", "--trivial", "--timeout", "60"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert "trivial echo handler" in lines[1]
    m = re.fullmatch(r"telegram: users=5 messages=15 msgs_per_s=(\d+\.\d) lost=0 backend=sqlite workers=2", lines[-1])
    assert m and float(m.group(1)) > 0


# ----------------------------------------------------------------------------------------- issue 17.3


async def test_a_tap_by_another_user_on_a_card_of_another_chat_is_refused(fake_tg, make_channel):
    handler = ScriptedHandler()
    await make_channel(handler)
    fake_tg.push_text(U, "I like Dune")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1)
    card = fake_tg.sent(U)[0]
    intruder = 99
    query_id = fake_tg.push_callback(intruder, card["message_id"], "like:Q1", chat_id=U)
    assert await wait_until(lambda: any(q == query_id for q, _ in fake_tg.answered))
    await asyncio.sleep(0.3)
    assert (query_id, "This button belongs to another chat.") in fake_tg.answered
    assert fake_tg.messages[(U, card["message_id"])]["text"] == "you said I like Dune"  # A's card untouched
    assert not fake_tg.calls_of("editMessageText") and fake_tg.sent(intruder) == []
    assert handler.texts("tg:99") == []  # the dialog never saw the tap


# ----------------------------------------------------------------------------------------- issue 17.4


async def test_repeated_429_is_retried_past_the_rate_limiter_and_the_reply_arrives(fake_tg, make_channel):
    handler = ScriptedHandler()
    await make_channel(handler, max_retries=1)
    fake_tg.fail("sendMessage", 429, "Too Many Requests: retry after 1", times=3, retry_after=1)
    fake_tg.push_text(U, "I like Dune")
    assert await wait_until(lambda: len(fake_tg.sent(U)) == 1, timeout=15)
    await asyncio.sleep(0.3)
    assert fake_tg.texts(U) == ["you said I like Dune"]  # no apology: the action succeeded
    assert len(fake_tg.calls_of("sendMessage")) == 4


async def test_429_past_the_retry_budget_drops_the_reply_without_an_apology(fake_tg, make_channel, caplog):
    handler = ScriptedHandler()
    await make_channel(handler, max_retries=0, retry_budget_s=1.5)
    fake_tg.fail("sendMessage", 429, "Too Many Requests: retry after 1", times=20, retry_after=1)
    fake_tg.push_text(U, "I like Dune")
    assert await wait_until(lambda: "not delivered" in caplog.text, timeout=15)
    rules = fake_tg.rules[-1]
    rules.times = 0  # Telegram is free again: an apology would now get through
    await asyncio.sleep(0.5)
    assert fake_tg.texts(U) == [] and handler.texts("tg:7") == ["I like Dune"]
