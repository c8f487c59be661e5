"""Property-based tests of the dialog manager (Hypothesis): any text, any payload, any order of turns
and domain switches -> a non-empty reply, no exception, and no stored preference changes unless the
turn expresses an opinion about it (the turn's logged ``recognizedObjects``) or deletes it."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.dialog import DialogManager
from bot.services import DomainServices, Services
from bot.store import StateStore
from bot.turns import Turn
from logs.schema import parse_objects
from logs.store import LogStore
from recommender.recommend import Recommender
from tests.bot.dialog_fakes import LABELS, FakeIntents, FakeKB, FakeLinker, FakeSentiment

PHRASES = [
    "I love Christopher Nolan",
    "I like Tom Cruise",
    "I hate Top Gun",
    "I love The Avengers",
    "I watched Memento",
    "Memento",
    "Dunkirk",
    "actor",
    "producer",
    "2",
    "the first one",
    "none of them",
    "yes",
    "no",
    "sure",
    "recommend me something",
    "more",
    "skip",
    "why",
    "details",
    "trailer",
    "I like it",
    "I don't like it",
    "I like it, but not Tom Cruise",
    "no, but I like the director",
    "show my profile",
    "delete Top Gun",
    "delete Top",
    "reset my profile",
    "details of Inception",
    "what should I rate?",
    "hello",
    "/start",
    "/help",
    "/book",
    "/movie",
    "/music",
    "let's talk about books",
    "🎵 Rate songs",
]
QIDS = [*LABELS, "Q4209421", "Q0", "Q1 ", ""]
PAYLOAD_KINDS = ["pick", "role", "none", "yes", "no", "like", "dislike", "skip", "why", "details", "trailer",
                 "stop", "more", "reset", "dom", "rate", "junk"]  # fmt: skip

phrases = st.sampled_from(PHRASES)
texts = st.one_of(phrases, phrases, phrases, st.text(max_size=80))  # mostly what users say, some junk
payloads = st.one_of(
    st.text(max_size=70),
    st.builds(
        lambda kind, value, stamp: f"{kind}:{value}" + (f"@{stamp}" if stamp is not None else ""),
        st.sampled_from(PAYLOAD_KINDS),
        st.one_of(
            st.sampled_from(QIDS),
            st.sampled_from(
                [
                    "0",
                    "1",
                    "5",
                    "-1",
                    "P161",
                    "P162",
                    "+:Q1",
                    "-:Q3",
                    "+:Q4209421",
                    "+:Q100",
                    "everything",
                    "items",
                    "book",
                    "x",
                ]
            ),  # fmt: skip
            st.text(max_size=10),
        ),
        st.one_of(st.none(), st.integers(min_value=0, max_value=8)),
    ),
)
# a step: typed text, a payload of our own making, or a press of one of the last reply's buttons
typed = st.tuples(st.just("text"), texts)
pressed = st.tuples(st.just("press"), st.integers(min_value=0, max_value=9))
steps = st.lists(
    st.one_of(typed, typed, typed, pressed, pressed, st.tuples(st.just("payload"), payloads)),
    min_size=1,
    max_size=24,
)

_DELETING = ("show_profile - delete_preference", "reset - ", "preference - disambiguation")
"""Intents whose turns may remove stored preferences (deletion, reset, "none of them" / a correction)."""


def _manager(folder: Path) -> DialogManager:
    kb = FakeKB()
    domain = DomainServices(kb=kb, linker=FakeLinker(kb), recommender=Recommender(kb))
    services = Services(FakeIntents(), FakeSentiment(), lambda name: domain)
    db = folder / "db.sqlite3"
    return DialogManager(services, StateStore(db), LogStore(db), session="prop")


def _profiles(dm: DialogManager, user: str) -> dict[tuple[str, str], tuple[str, str | None]]:
    state = dm._states.load(user)
    return {
        (domain, qid): (entry["polarity"], entry.get("role"))
        for domain, profile in state.profiles.items()
        for qid, entry in profile.items()
    }


@settings(
    max_examples=150, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(steps=steps, mixed=st.booleans())
def test_any_turns_get_a_reply_and_change_only_what_they_express(steps, mixed):
    with tempfile.TemporaryDirectory() as folder:
        dm = _manager(Path(folder))
        choices: tuple = ()
        for kind, value in steps:
            if kind == "press":
                if not choices:
                    continue
                choice = choices[value % len(choices)]
                turn = Turn("u", choice.label, payload=choice.payload, interaction_type="mixed")
            elif kind == "payload":
                turn = Turn("u", "a button", payload=value, interaction_type="mixed")
            else:
                turn = Turn("u", value, interaction_type="mixed" if mixed else "NL")
            before = _profiles(dm, "u")
            reply = dm.handle(turn)
            assert reply.text.strip(), turn
            choices = reply.choices
            after = _profiles(dm, "u")
            record = dm.last_records("u", 1)[0]
            expressed = {qid for qid, _ in parse_objects(record.recognized_objects)}
            changed = {qid for key, entry in after.items() if before.get(key) != entry for qid in [key[1]]}
            assert changed <= expressed, (turn, record.intent, changed, expressed)
            removed = {key[1] for key in before if key not in after}
            if removed:
                assert record.intent.startswith(_DELETING), (turn, record.intent, removed)
