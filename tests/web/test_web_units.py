"""Units of the web channel (issue 26): the study file, the corrections store, dialogue acts, rate limits."""

from __future__ import annotations

import pytest

from bot.channels.web.security import RateLimiter
from bot.channels.web.study import load_study
from bot.corrections import Correction, CorrectionStore, apply_corrections, check_objects
from bot.sgd import items_of, system_acts, user_acts
from bot.turns import Choice, Reply
from corsbot_errors import ConfigError
from logs.record import LogRecord


def _record(mid: str, intent: str = "Default Fallback Intent", objects: str = "") -> LogRecord:
    return LogRecord(mid, 7, "text", 1, 2, intent, "", True, objects, "", 0, 0, "NL")


def test_the_study_file_is_read_and_checked(tmp_path):
    path = tmp_path / "study.toml"
    path.write_text('name = "pilot"\nmin_turns = 4\nconsent = "ok?"\n[conditions]\npop = "movie=popularity"\n'
                    'none = "none"\n[retrain]\ndata = ["x.json"]\nfolds = 2\nextra = false\n')  # fmt: skip
    study = load_study(path)
    assert (study.name, study.min_turns, study.consent, study.log_session) == ("pilot", 4, "ok?", "web:pilot")
    assert list(study.conditions) == ["pop", "none"] and study.assign({"pop": 1}) == "none"
    assert study.retrain.data == (tmp_path / "x.json",) and study.retrain.folds == 2 and not study.retrain.extra
    assert load_study(None, default_elicitation="none").conditions == {"default": "none"}
    for bad in ('nme = "x"', "min_turns = -1", 'start_domain = "films"', '[conditions]\na = "bogus"',
                "[retrain]\nfolds = 1", "min_turns = true", "not toml ["):  # fmt: skip
        path.write_text(bad)
        with pytest.raises(ConfigError):
            load_study(path)
    with pytest.raises(ConfigError, match="cannot read"):
        load_study(tmp_path / "missing.toml")


def test_corrections_are_stored_replaced_undone_and_applied(tmp_path):
    store = CorrectionStore(tmp_path / "db.sqlite3")
    store.save(Correction("1-1", "web", 7, "preference", "Q1+"))
    store.save(Correction("1-1", "web", 7, "preference", "Q1-, q2"))
    assert store.count() == 1 and store.get("1-1").objects == "Q1-, Q2+"
    records = [_record("1-1"), _record("1-2")]
    fixed = apply_corrections(records, store.all())
    assert (fixed[0].intent, fixed[0].recognized_objects, fixed[0].to_check) == ("preference", "Q1-, Q2+", False)
    assert fixed[1] == records[1]
    with pytest.raises(ValueError):
        store.save(Correction("1-3", "web", 7, "no such intent"))
    with pytest.raises(ValueError):
        check_objects("Matrix+")
    assert store.delete("1-1") and not store.delete("1-1")
    store.close()


def test_acts_of_user_and_system_turns():
    assert [(a.act, a.slot, a.values) for a in user_acts("preference", "Q1+, Q2-")] == [
        ("INFORM", "liked", ("Q1",)), ("INFORM", "disliked", ("Q2",))]  # fmt: skip
    assert user_acts("request_recommendation", "")[0].act == "INFORM_INTENT"
    assert user_acts("request_recommendation - why", "")[0].slot == "reason"
    assert user_acts("Default Fallback Intent", "")[0].act == "UNKNOWN"
    card = Reply("1/5: Dunkirk", (Choice("👍", "like:Q7"), Choice("👎", "dislike:Q7"), Choice("Why?", "why:Q7")))
    assert items_of(card.choices) == ("Q7",)
    assert [(a.act, a.slot, a.values) for a in system_acts(["recommendation"], card)] == [("OFFER", "item", ("Q7",))]
    question = Reply("Which one?", (Choice("The Avengers (2012)", "pick:0@1"), Choice("None", "none@1")))
    assert system_acts(["disambiguation"], question)[0].values == ("The Avengers (2012)", "None")
    assert system_acts(["preference"], Reply("Got it"), "Q1+")[0].act == "CONFIRM"
    assert system_acts([], Reply("Hello"))[0].act == "INFORM"
    assert system_acts([], Reply("Rate these", (Choice("👍 Dunkirk", "rate:+:Q7"),)))[0].slot == "rating"


def test_rate_limits_refill_over_time():
    limiter = RateLimiter(1.0, 2.0)
    assert [limiter.allow("a", now=0.0) for _ in range(3)] == [True, True, False]
    assert limiter.allow("a", now=1.1) and not limiter.allow("a", now=1.2)
    assert limiter.allow("b", now=0.0)
    assert RateLimiter(0, 0).allow("x")


async def test_group_commit_stores_writes_together_and_fails_them_together(tmp_path):
    import asyncio

    from bot.channels.web.intake import GroupCommit
    from bot.channels.web.store import WebStore
    from logs.store import StoreError

    store = WebStore(tmp_path / "db.sqlite3")
    commits = GroupCommit(store)
    ids = await asyncio.gather(*(commits.run(lambda s, i=i: s.add_turn("P", f"m{i}", None, interaction="NL"))
                                 for i in range(20)))  # fmt: skip
    assert sorted(ids) == ids and len(set(ids)) == 20 and commits.groups < 20
    assert [t.text for t in store.turns("P")] == [f"m{i}" for i in range(20)]

    def broken(s: WebStore) -> int:
        raise StoreError("disk full")

    results = await asyncio.gather(commits.run(lambda s: s.add_turn("P", "kept?", None, interaction="NL")),
                                   commits.run(broken), return_exceptions=True)  # fmt: skip
    assert all(isinstance(r, StoreError) for r in results)
    assert "kept?" not in [t.text for t in store.turns("P")]  # the whole group was rolled back
