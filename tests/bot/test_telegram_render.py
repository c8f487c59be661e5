"""Unit tests of the channel helpers: escaping and splitting (F03, F04), the users table (F09) and the
per-user FIFO locks (F11)."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.channels.render import escape_html, escaped_len, fits_caption, split_text, utf16_len
from bot.channels.telegram import ChannelError, KeyedLocks, TelegramConfig
from bot.channels.telegram import keyboard as _keyboard
from bot.channels.users import ChannelUsers
from bot.turns import Choice
from tests.bot.fake_telegram import ApiError, html_to_text


@pytest.mark.parametrize(
    "text",
    [
        "Spider-Man: No Way Home (2021).",
        "M*A*S*H",
        "Harry Potter and the Philosopher's Stone",
        "a_b_c",
        "Tom & Jerry <3 >_<",
    ],
)
def test_f03_escape_round_trips_through_telegram_html(text):
    assert html_to_text(escape_html(text)) == text


def test_f03_the_fake_rejects_what_telegram_rejects():
    for bad in ("Tom & Jerry", "<3", "a <unknown>tag</unknown>", "<b>open"):
        with pytest.raises(ApiError, match="can't parse entities"):
            html_to_text(bad)
    assert html_to_text("<b>bold</b> &amp; <i>it</i>") == "bold & it"


def test_utf16_lengths_count_astral_characters_twice():
    assert utf16_len("abc") == 3 and utf16_len("🎬") == 2 and utf16_len("千と千尋") == 4
    assert escaped_len("a&b") == 7


def test_f04_split_keeps_lines_and_respects_the_escaped_limit():
    rng = random.Random(7)
    lines = ["".join(rng.choice("ab &<>🎬 ") for _ in range(rng.randint(0, 120))) for _ in range(400)]
    text = "\n".join(lines)
    parts = split_text(text, limit=500)
    assert all(escaped_len(p) <= 500 for p in parts)
    # only line breaks at cuts are dropped (and blank parts skipped): the line sequence survives
    assert [line for p in parts for line in p.split("\n") if line.strip()] == [line for line in lines if line.strip()]


def test_f04_a_single_huge_line_is_cut_at_spaces_or_characters():
    words = "because the director is Christopher Nolan " * 300
    parts = split_text(words, limit=4096)
    assert len(parts) >= 3 and all(escaped_len(p) <= 4096 for p in parts)
    assert all(not p.startswith(" ") for p in parts)
    nospace = "x" * 10000
    assert [len(p) for p in split_text(nospace, limit=4096)] == [4096, 4096, 1808]


def test_split_edge_cases():
    assert split_text("") == () and split_text("  \n ") == ()
    assert split_text("short") == ("short",)
    with pytest.raises(ValueError):
        split_text("x", limit=3)
    assert fits_caption("a" * 1024) and not fits_caption("&" * 300)


def test_f08_keyboard_uses_payloads_and_packs_short_labels():
    markup = _keyboard((Choice("👍", "like:Q1"), Choice("👎", "dislike:Q1"), Choice("Skip", "skip"),
                        Choice("Why did you suggest this film to me?", "why:Q1")))  # fmt: skip
    rows = [[(b.text, b.callback_data) for b in row] for row in markup.inline_keyboard]
    assert rows == [[("👍", "like:Q1"), ("👎", "dislike:Q1"), ("Skip", "skip")],
                    [("Why did you suggest this film to me?", "why:Q1")]]  # fmt: skip
    assert _keyboard(()) is None


def test_f09_users_table_survives_reopening(tmp_path):
    db = tmp_path / "corsbot.sqlite3"
    users = ChannelUsers(db)
    users.seen("tg:1", 1)
    users.seen("tg:2", 2)
    users.mark_inactive("tg:2", "Forbidden: bot was blocked by the user")
    users.close()
    again = ChannelUsers(db)
    assert again.is_active("tg:1") and not again.is_active("tg:2") and again.is_active("tg:unknown")
    assert again.inactive() == ("tg:2",)
    again.seen("tg:2", 2)
    assert again.is_active("tg:2") and again.get("tg:2").reason is None


async def test_f11_keyed_locks_are_fifo_per_key_and_parallel_across_keys():
    locks = KeyedLocks()
    order: list[str] = []

    async def job(key: str, name: str, delay: float) -> None:
        async with locks.hold(key):
            await asyncio.sleep(delay)
            order.append(name)

    await asyncio.gather(job("a", "a1", 0.05), job("a", "a2", 0.0), job("b", "b1", 0.01), job("a", "a3", 0.0))
    assert [n for n in order if n.startswith("a")] == ["a1", "a2", "a3"]
    assert order.index("b1") < order.index("a1")  # b did not wait for a
    assert len(locks) == 0


def test_config_is_validated():
    with pytest.raises(ChannelError, match="token"):
        TelegramConfig(token="")
    with pytest.raises(ChannelError):
        TelegramConfig(token="1:x", typing_delay_s=5, slow_notice_s=1)
