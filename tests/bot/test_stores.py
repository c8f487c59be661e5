"""The same storage tests on both backends: SQLite (the default) and PostgreSQL (issue 15)."""

from __future__ import annotations

import threading

import psycopg
import pytest

from bot.channels.inbox import InboxUpdate, SqliteInbox
from bot.channels.users import ChannelUsers
from bot.state import DialogState
from bot.store import DuplicateTurn, StateStore
from bot.turns import Choice, Reply
from logs.record import LogRecord
from logs.store import LogStore, StoreError

REC = dict(message_id="1", user_id=1, message="hi", timestamp_start=1, timestamp_end=2, intent="preference",
           contexts="", to_check=True, recognized_objects="", events="", pagerank_cycle=0,
           number_recommendation_list=0, interaction_type="NL")  # fmt: skip


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request, tmp_path):
    """``open(kind, *args)`` -> a store of ``kind`` ("state", "log", "inbox", "users") on one database."""
    if request.param == "sqlite":
        db = tmp_path / "db.sqlite3"
        kinds = {"state": lambda: StateStore(db), "log": lambda: LogStore(db),
                 "inbox": lambda source="telegram:1": SqliteInbox(db, source), "users": lambda: ChannelUsers(db)}  # fmt: skip
    else:
        from bot.pgstore.store import PgChannelUsers, PgInbox, PgLogStore, PgStateStore

        url = request.getfixturevalue("pg_url")
        kinds = {"state": lambda: PgStateStore(url), "log": lambda: PgLogStore(url),
                 "inbox": lambda source="telegram:1": PgInbox(url, source), "users": lambda: PgChannelUsers(url)}  # fmt: skip
    opened = []

    def open_(kind, *args):
        store = kinds[kind](*args)
        opened.append(store)
        return store

    open_.kind = request.param  # type: ignore[attr-defined]
    yield open_
    for store in opened:
        store.close()


def test_state_round_trip_and_numeric_ids(backend):
    states = backend("state")
    assert states.load_saved("tg:1") is None
    state = DialogState()
    state.profile("movie")["Q1"] = {"polarity": "+", "role": None}
    states.save("tg:1", state)
    assert backend("state").load_saved("tg:1").profile("movie") == {"Q1": {"polarity": "+", "role": None}}
    a, b = states.numeric_id("tg:1"), states.numeric_id("tg:2")
    assert a != b and backend("state").numeric_id("tg:1") == a
    states.set_active("tg:2", False)
    assert set(states.users()) == {"tg:1", "tg:2"} and states.users(active_only=True) == ["tg:1"]


def test_one_transaction_per_turn_with_its_receipt(backend):
    states, log = backend("state"), backend("log")
    reply = Reply("Got it", (Choice("👍", "like:Q1"),), "https://img/x.jpg", True)
    record = LogRecord(**REC)
    row = states.commit_turn("tg:1", DialogState(), session="s", record=record, receipt=("tg:9:1", reply))
    assert log.rows("s") == [(row, record)] and states.receipt("tg:9:1") == reply
    with pytest.raises(DuplicateTurn) as dup:
        states.commit_turn("tg:1", DialogState(), session="s", record=record, receipt=("tg:9:1", Reply("other")))
    assert dup.value.reply == reply and len(log.rows("s")) == 1  # nothing of the second was written
    assert states.receipt("tg:9:2") is None


def test_log_append_rows_and_to_check(backend):
    log = backend("log")
    ids = log.append_many("s", [LogRecord(**REC), LogRecord(**dict(REC, message_id="2", user_id=2))])
    log.append("other", LogRecord(**REC))
    assert [r.message_id for r in log.records("s")] == ["1", "2"] and log.sessions() == ["s", "other"]
    assert log.set_to_check({ids[0]: False}) == 1 and log.rows("s", user_id=1)[0][1].to_check is False
    assert log.count() == 3 and log.count("s") == 2


def test_inbox_dedupes_and_keeps_the_unfinished_in_order(backend):
    inbox = backend("inbox")
    assert [u.update_id for u in inbox.add([InboxUpdate(2, "tg:7", "{}"), InboxUpdate(1, "tg:7", "{}")])] == [2, 1]
    assert inbox.add([InboxUpdate(1, "tg:7", "{}")]) == []
    inbox.finish(1)
    assert [u.update_id for u in backend("inbox").unfinished()] == [2]
    assert backend("inbox", "telegram:2").unfinished() == []


def test_a_reply_recorded_sent_is_not_unfinished_for_the_next_process(backend):
    inbox = backend("inbox")
    inbox.add([InboxUpdate(i, "tg:7", "{}") for i in (1, 2, 3)])
    inbox.record_sent(2)  # on the event loop: no waiting on the database there
    inbox.close()  # PostgreSQL: its writer thread writes what is waiting first
    assert [u.update_id for u in backend("inbox").unfinished()] == [1, 3]


def test_channel_users(backend):
    users = backend("users")
    users.seen("tg:1", 1)
    users.mark_inactive("tg:1", "blocked")
    assert backend("users").is_active("tg:1") is False and users.inactive() == ("tg:1",)
    backend("users").seen("tg:1", 1)
    assert users.is_active("tg:1") and users.get("tg:1").reason is None


def test_turns_of_one_user_never_overlap_across_connections(backend):
    """The per-user lock: two processes (here two connections) run one user's turns one at a time."""
    a, b = backend("state"), backend("state")
    inside, overlaps = [0], [0]
    guard = threading.Lock()

    def turns(store):
        for _ in range(30):
            with store.turn_lock("tg:1"):
                with guard:
                    inside[0] += 1
                    overlaps[0] += inside[0] > 1
                threading.Event().wait(0.001)
                with guard:
                    inside[0] -= 1

    threads = [threading.Thread(target=turns, args=(s,)) for s in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if backend.kind == "postgresql":
        assert overlaps[0] == 0
    # SQLite: one process serves a database (instance lock); its turn_lock is a no-op by design


def test_a_newer_schema_is_refused_clearly(pg_url):
    from bot.pgstore.store import SCHEMA_VERSION, PgStateStore, SchemaError

    PgStateStore(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("INSERT INTO corsbot_schema (version) VALUES (%s)", (SCHEMA_VERSION + 1,))
    with pytest.raises(SchemaError, match="newer than this corsbot"):
        PgStateStore(pg_url)


def test_a_wrong_password_never_shows(pg_cluster):
    from bot.pgstore.store import PgStateStore

    url = f"postgresql://nobody:S3cretPassw0rd@127.0.0.1:{pg_cluster.port}/nowhere"
    with pytest.raises(StoreError) as info:
        PgStateStore(url)
    assert "S3cretPassw0rd" not in str(info.value) and "cannot connect" in str(info.value)


def test_a_turn_writes_its_to_check_flags_in_its_transaction(backend):
    states, log = backend("state"), backend("log")
    first = states.commit_turn("tg:1", DialogState(), session="s", record=LogRecord(**REC))
    second = states.commit_turn(
        "tg:1", DialogState(), session="s", record=LogRecord(**dict(REC, message_id="2")), to_check={first: False}
    )
    assert [(row, rec.to_check) for row, rec in log.rows("s")] == [(first, False), (second, True)]
    with pytest.raises(DuplicateTurn):  # a refused turn writes none of its flags either
        for key in ("tg:9:1", "tg:9:1"):
            states.commit_turn("tg:1", DialogState(), session="s", record=LogRecord(**REC), receipt=(key, Reply("a")),
                               to_check={first: True})  # fmt: skip
    assert [rec.to_check for _, rec in log.rows("s")][:2] == [True, True]  # the first commit of tg:9:1 stands
    assert len(log.rows("s")) == 3


def test_inbox_finishes_from_many_threads(backend):
    inbox = backend("inbox")
    inbox.add([InboxUpdate(i, f"tg:{i % 7}", "{}") for i in range(1, 201)])
    threads = [threading.Thread(target=lambda k=k: [inbox.finish(i) for i in range(k, 201, 8)]) for k in range(1, 9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert backend("inbox").unfinished() == []


def test_pg_turn_reads_with_its_lock_and_releases_it_with_its_commit(pg_url):
    """The turn's two round trips: the lock brings the receipt, state, id and log head; the commit
    hands the lock over to its transaction, so another process's turn may start right after it."""
    from bot.pgstore.store import PgStateStore

    a, b = PgStateStore(pg_url), PgStateStore(pg_url)
    state = DialogState()
    state.profile("movie")["Q1"] = {"polarity": "+", "role": None}
    row = a.commit_turn("tg:1", state, session="s", record=LogRecord(**REC), receipt=("tg:9:1", Reply("one")))
    with b.turn_lock("tg:1", "tg:9:1"):
        assert b.receipt("tg:9:1") == Reply("one") and b.log_head("tg:1") == row
        assert b.load_saved("tg:1").profile("movie") == state.profile("movie")
        assert b.numeric_id("tg:1") == a.numeric_id("tg:1")
        unlocked = []
        other = threading.Thread(target=lambda: unlocked.append(_lock_once(a, "tg:1")))
        other.start()
        other.join(0.3)
        assert unlocked == []  # b holds the user's lock
        b.commit_turn("tg:1", state, session="s", record=LogRecord(**dict(REC, message_id="2")))
        other.join(5)
        assert unlocked == [True]  # released by the commit, before leaving the block
    with b.turn_lock("tg:1", "tg:9:1"):  # a duplicate releases it too
        with pytest.raises(DuplicateTurn):
            b.commit_turn("tg:1", state, session="s", record=LogRecord(**REC), receipt=("tg:9:1", Reply("x")))
        assert _lock_once(a, "tg:1", timeout_s=5)
    with b.turn_lock("tg:2"):  # a new user: nothing stored, log head 0
        assert b.load_saved("tg:2") is None and b.log_head("tg:2") == 0
    assert b.log_head("tg:1") == a.log_head("tg:1") > row  # outside the lock: queried


def _lock_once(store, user, timeout_s=10.0):
    import time

    deadline = time.monotonic() + timeout_s
    with store.turn_lock(user):
        return time.monotonic() < deadline


def test_pg_dialog_turns_of_one_user_in_two_processes_keep_to_check_right(pg_url):
    """Two dialog managers (two worker processes) take turns of one user: each re-reads the user's
    log rows the other wrote before computing toCheck, so the flags are those of the whole log."""
    from bot.dialog.turn_log import TurnLog
    from bot.pgstore.store import PgLogStore, PgStateStore
    from bot.turns import Turn

    seen: list[int] = []

    def count_rows(records):  # flags: all False but the last; records the length it was given
        seen.append(len(records))
        return [False] * (len(records) - 1) + [True]

    logs = [TurnLog(PgStateStore(pg_url), PgLogStore(pg_url), session="s", to_check=count_rows) for _ in range(2)]
    for k in range(6):
        turn_log = logs[k % 2]
        with turn_log._states.turn_lock("tg:1"):
            turn_log.commit(Turn("tg:1", f"m{k}"), DialogState(), intent="preference", events=(), objects=(),
                            contexts=(), started_ms=k, now_ms=k + 1)  # fmt: skip
    assert seen == [1, 2, 3, 4, 5, 6]
    flags = [rec.to_check for _, rec in PgLogStore(pg_url).rows("s")]
    assert flags == [False] * 5 + [True]
