"""Dialog handlers in worker processes (:mod:`bot.dialog_pool`): each user pinned to one process,
turns answered in order on both the blocking and the event-loop path, errors mapped, a dead worker
restarted with the keyed turns it held run again once (issue 25), and the Telegram channel end to end
over the pipe."""

from __future__ import annotations

import asyncio
import functools
import os
import signal

import pytest

from bot.dialog_pool import ProcessDialogHandler, WorkerCrash, WorkerError
from bot.turns import Turn
from corsbot_errors import ConfigError
from tests.bot.fake_telegram import wait_until
from tests.bot.pool_fakes import applied, make_broken_handler, make_pid_handler, make_receipt_handler


@pytest.fixture
def pool():
    handler = ProcessDialogHandler(make_pid_handler, processes=2, warmup=(Turn("warm:probe", "hi"),))
    handler.start()
    yield handler
    handler.close()


def _parse(text: str) -> tuple[int, str, str, int]:
    pid, user, rest = text.split(" ", 2)
    body, n = rest.rsplit(" #", 1)
    return int(pid), user, body, int(n)


def test_users_are_pinned_to_one_worker_and_answered_in_order(pool):
    assert len(set(pool.pids())) == 2 and os.getpid() not in pool.pids()
    users = [f"tg:{u}" for u in range(1, 9)]
    assert {pool.worker_of(u) for u in users} == {0, 1}  # both workers serve someone
    pids: dict[str, set[int]] = {}
    for k in range(3):
        for user in users:
            pid, who, body, n = _parse(pool.handle(Turn(user, f"msg {k}")).text)
            assert (who, body, n) == (user, f"msg {k}", k)  # the worker saw every earlier turn of the user
            pids.setdefault(user, set()).add(pid)
    assert all(len(p) == 1 for p in pids.values())
    assert len({next(iter(p)) for p in pids.values()}) == 2


def test_errors_are_mapped_and_a_dead_worker_restarts(pool):
    with pytest.raises(WorkerError, match="knowledge base is busy"):
        pool.handle(Turn("tg:1", "busy"))
    with pytest.raises(WorkerCrash) as bug:
        pool.handle(Turn("tg:1", "boom"))
    assert str(bug.value) == ""  # the channel then shows its generic apology
    before = _parse(pool.handle(Turn("tg:1", "still here")).text)[0]
    with pytest.raises(WorkerCrash):
        pool.handle(Turn("tg:1", "die"))
    pid, _, body, n = _parse(pool.handle(Turn("tg:1", "back")).text)
    assert pid != before and body == "back" and n == 0  # a fresh process (state lives in SQLite in real use)
    assert len(set(pool.pids())) == 2


def test_a_failing_factory_is_one_clear_config_error():
    handler = ProcessDialogHandler(make_broken_handler, processes=1)
    with pytest.raises(ConfigError, match=r"dialog worker 0 could not start: no intent model: run `corsbot nlu train`"):
        handler.start()
    with pytest.raises(ConfigError, match="closed"):
        handler.handle(Turn("tg:1", "hi"))
    with pytest.raises(ConfigError):
        ProcessDialogHandler(make_pid_handler, processes=0)


async def test_async_path_keeps_each_users_order_under_concurrency(pool):
    users = [f"tg:{u}" for u in range(100, 130)]

    async def one_user(user: str) -> list[str]:  # like the channel: a user's turns one after the other
        return [(await pool.ahandle(Turn(user, f"m{k}"))).text for k in range(6)]

    answers = await asyncio.gather(*(one_user(u) for u in users))
    for user, texts in zip(users, answers, strict=True):
        parsed = [_parse(t) for t in texts]
        assert [(who, body, n) for _, who, body, n in parsed] == [(user, f"m{k}", k) for k in range(6)]
        assert len({pid for pid, *_ in parsed}) == 1
    with pytest.raises(ConfigError, match="ahandle"):  # one object is used in one way only
        await asyncio.to_thread(pool.handle, Turn(users[0], "sync now"))


async def test_async_path_maps_errors_and_restarts_a_dead_worker(pool):
    user = "tg:5"
    other = next(f"tg:{u}" for u in range(6, 50) if pool.worker_of(f"tg:{u}") != pool.worker_of(user))
    with pytest.raises(WorkerError, match="busy"):
        await pool.ahandle(Turn(user, "busy"))
    slow = asyncio.ensure_future(pool.ahandle(Turn(user, "slow")))  # queued behind nothing, then the death
    await asyncio.sleep(0.05)
    results = await asyncio.gather(slow, pool.ahandle(Turn(user, "die")), pool.ahandle(Turn(other, "meanwhile")),
                                   return_exceptions=True)  # fmt: skip
    assert _parse(results[0].text)[2] == "slow"
    assert isinstance(results[1], WorkerCrash)
    assert _parse(results[2].text)[1:3] == (other, "meanwhile")  # the other worker kept serving
    assert _parse((await pool.ahandle(Turn(user, "again"))).text)[2:] == ("again", 0)


async def test_channel_awaits_the_workers_end_to_end(fake_tg, make_channel):
    handler = ProcessDialogHandler(make_pid_handler, processes=2)
    await asyncio.to_thread(handler.start)
    try:
        await make_channel(handler)
        users = range(2000, 2020)
        fake_tg.push_texts([(u, f"msg {k}") for k in range(3) for u in users])
        fake_tg.push_text(2000, "boom")
        fake_tg.push_text(2000, "busy")
        assert await wait_until(lambda: len(fake_tg.calls_of("sendMessage")) >= 62, timeout=30)
        for u in users:
            texts = fake_tg.texts(u)
            got = [_parse(t)[1:] for t in texts[:3]]
            assert got == [(f"tg:{u}", f"msg {k}", k) for k in range(3)]
        assert fake_tg.texts(2000)[3:] == ["Sorry, something went wrong on my side. Please try again.",
                                           "The knowledge base is busy, try again in a moment."]  # fmt: skip
    finally:
        handler.close()


async def test_dialog_manager_in_workers_keeps_preferences_when_its_worker_is_killed(fake_tg, make_channel, tmp_path):
    import functools
    import signal

    from bot.store import StateStore
    from tests.bot.pool_fakes import make_fake_dialog_manager

    db = tmp_path / "dm.sqlite3"
    handler = ProcessDialogHandler(functools.partial(make_fake_dialog_manager, str(db)), processes=2)
    await asyncio.to_thread(handler.start)
    try:
        await make_channel(handler)
        user = 7
        for k, text in enumerate(("/start", "I love Christopher Nolan", "I like Tom Cruise"), 1):
            fake_tg.push_text(user, text)
            assert await wait_until(lambda k=k: len(fake_tg.sent(user)) == k, timeout=20)
        question = fake_tg.sent(user)[2]
        assert [data for row in question["buttons"] for _, data in row] == ["role:P161@1", "role:P162@1", "none@1"]
        fake_tg.push_callback(user, question["message_id"], "role:P161")
        assert await wait_until(lambda: "Q200" in StateStore(db).load(f"tg:{user}").profile("movie"), timeout=20)
        index = handler.worker_of(f"tg:{user}")
        pid = handler.pids()[index]
        os.kill(pid, signal.SIGKILL)  # the worker dies between two turns
        assert await wait_until(lambda: pid not in handler.pids(), timeout=10)  # the loop saw its pipe close
        fake_tg.push_text(user, "show my profile")

        def profile() -> str:
            # the reply, or on a busy machine the "Still working on it" placeholder edited into it
            edits = [str(p.get("text") or "") for p in fake_tg.calls_of("editMessageText")]
            return next((t for t in [*fake_tg.texts(user)[-1:], *edits[-1:]] if "Christopher Nolan" in t), "")

        assert await wait_until(lambda: profile() != "", timeout=30)
        assert "Tom Cruise" in profile()  # read back from SQLite by a new worker
        assert len(handler.pids()) == 2 and pid not in handler.pids()
    finally:
        handler.close()


@pytest.fixture
def receipt_pool(tmp_path):
    db = str(tmp_path / "pool.sqlite3")
    handler = ProcessDialogHandler(functools.partial(make_receipt_handler, db), processes=2)
    handler.start()
    yield handler, db
    handler.close()


def _users_of_worker(pool: ProcessDialogHandler, index: int, n: int) -> list[str]:
    return [u for u in (f"tg:{i}" for i in range(1, 200)) if pool.worker_of(u) == index][:n]


async def test_keyed_turns_in_flight_on_a_killed_worker_are_run_again_once_on_its_restart(receipt_pool):
    pool, db = receipt_pool
    users = _users_of_worker(pool, 0, 3)  # three turns in the same worker's pipe: one running, two queued
    other = _users_of_worker(pool, 1, 1)[0]
    victim = pool.pids()[0]
    turns = [Turn(u, "slow", key=f"k-{u}") for u in users]
    pending = [asyncio.ensure_future(pool.ahandle(t)) for t in turns]
    await asyncio.sleep(0.4)  # the first one sleeps in the worker
    os.kill(victim, signal.SIGKILL)
    meanwhile = await pool.ahandle(Turn(other, "meanwhile", key="k-other"))
    replies = await asyncio.wait_for(asyncio.gather(*pending), timeout=60)
    assert all(r.text.endswith(" slow") and int(r.text.split()[0]) not in (victim, os.getpid()) for r in replies)
    assert meanwhile.text.endswith("meanwhile") and int(meanwhile.text.split()[0]) == pool.pids()[1]
    runs = [(key, pid) for key, _, pid in applied(db)]
    assert sorted(key for key, _ in runs) == sorted([t.key for t in turns] + ["k-other"])  # each applied once
    assert victim not in {pid for _, pid in runs}


async def test_a_turn_committed_by_a_worker_that_then_died_gets_its_stored_reply(receipt_pool):
    pool, db = receipt_pool
    reply = await pool.ahandle(Turn("tg:1", "commit-then-die", key="k1"))
    first = applied(db)
    assert [(k, t) for k, t, _ in first] == [("k1", "commit-then-die")]
    assert reply.text == f"{first[0][2]} commit-then-die"  # the dead worker's stored reply, not a new one
    assert int((await pool.ahandle(Turn("tg:1", "next", key="k2"))).text.split()[0]) != first[0][2]


async def test_a_turn_that_kills_its_worker_twice_or_has_no_key_is_not_run_again(receipt_pool, caplog):
    pool, db = receipt_pool
    with pytest.raises(WorkerCrash):
        await pool.ahandle(Turn("tg:1", "die", key="poison"))
    assert caplog.text.count("running it again") == 1  # run twice in all, never a third time
    with pytest.raises(WorkerCrash):
        await pool.ahandle(Turn("tg:1", "die"))  # no key: a second run could apply it twice
    assert caplog.text.count("running it again") == 1
    assert (await pool.ahandle(Turn("tg:1", "fine", key="k3"))).text.endswith("fine")
    assert applied(db) == [("k3", "fine", pool.pids()[pool.worker_of("tg:1")])]


def test_blocking_path_runs_a_keyed_turn_again_when_its_worker_is_killed(receipt_pool):
    import threading

    pool, db = receipt_pool
    victim = pool.pids()[pool.worker_of("tg:1")]
    threading.Timer(0.4, os.kill, (victim, signal.SIGKILL)).start()
    reply = pool.handle(Turn("tg:1", "slow", key="k1"))
    assert int(reply.text.split()[0]) not in (victim, 0)
    assert [(k, t) for k, t, _ in applied(db)] == [("k1", "slow")]


async def test_a_preference_whose_worker_is_killed_mid_turn_gets_one_answer_and_is_stored(
    fake_tg, make_channel, tmp_path
):
    """The issue's case: "I like ..." in flight on a dialog worker killed with SIGKILL: no apology, one
    answer, the like stored once (the real dialog manager, on the small fake KB)."""
    from bot.store import StateStore
    from logs.store import LogStore
    from tests.bot.pool_fakes import make_slow_fake_dialog_manager

    db = tmp_path / "dm.sqlite3"
    handler = ProcessDialogHandler(functools.partial(make_slow_fake_dialog_manager, str(db)), processes=2)
    await asyncio.to_thread(handler.start)
    try:
        await make_channel(handler)
        user = 7
        fake_tg.push_text(user, "/start")
        assert await wait_until(lambda: len(fake_tg.sent(user)) == 1, timeout=20)
        victim = handler.pids()[handler.worker_of(f"tg:{user}")]
        fake_tg.push_text(user, "I love Christopher Nolan (slow)")
        await asyncio.sleep(0.5)  # the turn sleeps in the worker
        os.kill(victim, signal.SIGKILL)
        assert await wait_until(lambda: len(fake_tg.sent(user)) == 2, timeout=60)
        await asyncio.sleep(0.5)
        texts = fake_tg.texts(user)
        assert len(texts) == 2 and "Sorry" not in texts[1] and "Christopher Nolan" in texts[1]
        assert "Q100" in StateStore(db).load(f"tg:{user}").profile("movie")
        logged = [r.message for r in LogStore(db).records("pool-test")]
        assert logged.count("I love Christopher Nolan (slow)") == 1
        assert victim not in handler.pids()
    finally:
        handler.close()


@pytest.mark.parametrize("niceness", [None, 0])
def test_workers_run_nicer_than_the_bot_so_its_event_loop_comes_first(niceness):
    from bot.dialog_pool import WORKER_NICENESS
    from tests.bot.pool_fakes import make_niceness_handler

    options = {} if niceness is None else {"niceness": niceness}
    with ProcessDialogHandler(make_niceness_handler, processes=1, **options) as pool:
        got = int(pool.handle(Turn("tg:1", "hi")).text)
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    assert got == min(ours + (WORKER_NICENESS if niceness is None else 0), 19)
