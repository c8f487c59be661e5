"""Scoring of ``corsbot nlu evaluate-conversations`` (nlu/conversation_eval.py) on hand-made outcomes, and the
loading of the conversation files (nlu/conversation_set.py), as tests/data/conversations/README.md specifies."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from nlu.conversation_eval import (
    Asked,
    Lookup,
    Shown,
    TurnOutcome,
    by_group,
    check_conversation,
    check_turn,
    score,
)
from nlu.conversation_set import Conversation, Entity, Exclusion, Expectation, ScriptedTurn, load_conversations
from nlu.errors import NluError

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "conversations" / "sample.jsonl"
KB = {"Q1", "Q2", "Q3", "Q10", "Q20", "Q30", "Q40", "Q50"}
MERGED = {"Q31": "Q30"}  # a near-duplicate genre the KB merged into Q30
LOOKUP = Lookup(in_kb=lambda d, q: q in KB or q in MERGED, canonical=lambda d, q: MERGED.get(q, q))


def said(text: str = "t", **expect: object) -> ScriptedTurn:
    return ScriptedTurn(text, None, Expectation(**expect))


def ent(qid: str | None, polarity: str | None = "+", **kw: object) -> Entity:
    return Entity(label=kw.pop("label", qid or "Unknown"), qid=qid, polarity=polarity, **kw)


def outcome(after: dict | None = None, before: dict | None = None, **kw: object) -> TurnOutcome:
    return TurnOutcome(
        intent=kw.pop("intent", "preference"),
        domain_before="movie",
        domain=kw.pop("domain", "movie"),
        before=before or {},
        after=after if after is not None else (before or {}),
        **kw,
    )


def movie(**entries: tuple[str, str | None]) -> dict:
    return {"movie": dict(entries)}


# ---------------------------------------------------------------------- loading


def _write(tmp_path: Path, *objects: object) -> Path:
    path = tmp_path / "convs.jsonl"
    path.write_text("".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in objects), encoding="utf-8")
    return path


GOOD = {"id": "movie-d1", "domain": "movie", "turns": [{"text": "hi"}]}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", r"convs\.jsonl:2: not JSON"),
        ({"id": "movie-d2", "domain": "film", "turns": [{"text": "hi"}]}, r":2: movie-d2: 'domain' must be one of"),
        ({"id": "movie-d2", "domain": "movie", "turns": []}, r":2: movie-d2: 'turns' must be a non-empty list"),
        ({"id": "movie-d2", "domain": "movie", "turns": [{"text": "a", "press": "like"}]}, r"turn 1: give exactly one"),
        ({"id": "movie-d2", "domain": "movie", "turns": [{"press": "love"}]}, r"turn 1: 'press' must be one of"),
        (
            {"id": "movie-d2", "domain": "movie", "turns": [{"text": "a"}, {"text": "b", "expect": {"stord": []}}]},
            r":2: movie-d2 turn 2: unknown expectation 'stord'",
        ),
        (
            {"id": "movie-d2", "domain": "movie", "turns": [{"text": "a", "expect": {"stored": [{"qid": "Q1"}]}}]},
            r"needs 'label' and 'qid'",
        ),
        (
            {
                "id": "m",
                "domain": "movie",
                "turns": [{"text": "a", "expect": {"stored": [{"label": "A", "qid": "1"}]}}],
            },
            r"'qid' must be a QID",
        ),
        (
            {
                "id": "m",
                "domain": "movie",
                "turns": [{"text": "a", "expect": {"stored": [{"label": "A", "qid": None, "polarity": "?"}]}}],
            },
            r"'polarity' must be one of \+, -, ask",
        ),
        (
            {
                "id": "m",
                "domain": "movie",
                "turns": [
                    {"text": "a", "expect": {"stored": [{"label": "A", "qid": None, "polarity": "+", "answer": "+"}]}}
                ],
            },
            r"'answer' goes with polarity 'ask' only",
        ),
        (
            {"id": "m", "domain": "movie", "turns": [{"text": "a", "expect": {"intent": "prefrence"}}]},
            r"unknown intent",
        ),
        ({"id": "m", "domain": "movie", "turns": [{"text": "a", "expect": {"asks": "which"}}]}, r"'asks' must be one"),
        ({"id": "m", "domain": "movie", "turns": [{"text": "a", "expect": {"list": "yes"}}]}, r"'list' must be true"),
        (
            {
                "id": "m",
                "domain": "movie",
                "turns": [{"text": "a", "expect": {"list_excludes": [{"qid": "Q1", "role": "actor"}]}}],
            },
            r"'role' goes with 'value' only",
        ),
        (
            {
                "id": "m",
                "domain": "movie",
                "turns": [{"text": "a", "expect": {"list_excludes": [{"value": "Q1", "role": "cook"}]}}],
            },
            r"unknown role 'cook'",
        ),
        (
            {"id": "m", "domain": "movie", "turns": [{"text": "a", "expect": {"empty": ["films"]}}]},
            r"'empty' must be one",
        ),
        (GOOD, r":2: id 'movie-d1' already used on line 1"),
    ],
    ids=lambda v: v if isinstance(v, str) and not v.startswith("{") else None,
)
def test_a_bad_line_is_one_error_naming_file_line_conversation_and_turn(tmp_path, line, message):
    with pytest.raises(NluError, match=message):
        load_conversations(_write(tmp_path, GOOD, line))


def test_a_missing_file_is_one_error(tmp_path):
    with pytest.raises(NluError, match="cannot read the conversation file"):
        load_conversations(tmp_path / "nope.jsonl")


def test_the_sample_loads_with_every_field_read():
    conversations = load_conversations(SAMPLE)
    assert [c.domain for c in conversations] == ["movie", "book", "music"]
    movie_turns = conversations[0].turns
    assert movie_turns[2].expect.stored[0] == Entity("Memento", "Q190525", "item", "ask", "+", None, None, "")
    assert movie_turns[4].expect.list_excludes == (Exclusion(value="Q200092"), Exclusion(qid="Q25188"))
    assert movie_turns[5].press == "like" and movie_turns[5].expect.stored[0].ref == "card"
    assert movie_turns[6].expect.intents == ("request_recommendation - why",)
    assert conversations[2].turns[-1].expect.domain == "movie"


# ---------------------------------------------------------------------- written expectations


def test_stored_holds_with_its_polarity_and_a_lost_or_flipped_entity_fails():
    turn = said(stored=(ent("Q1", "+"), ent("Q2", "-")))
    right = check_turn(turn, outcome(movie(Q1=("+", None), Q2=("-", None))), LOOKUP)
    assert right.ok and (right.expected, right.lost, right.polarity_errors) == (2, 0, 0)
    flipped = check_turn(turn, outcome(movie(Q1=("+", None), Q2=("+", None))), LOOKUP)
    assert flipped.problems == ["not stored: Q2 Q2- (held +)"] and (flipped.lost, flipped.polarity_errors) == (1, 1)
    lost = check_turn(turn, outcome(movie(Q1=("+", None))), LOOKUP)
    assert lost.problems == ["not stored: Q2 Q2-"] and lost.lost == 1 and lost.polarity_errors == 0


def test_an_entity_the_kb_lacks_is_checked_only_as_spurious_stores():
    turn = said(stored=(ent(None, "-", label="Tenet"), ent("Q99", "+")))  # Q99: not in the KB
    nothing = check_turn(turn, outcome(movie()), LOOKUP)
    assert nothing.ok and nothing.expected == 0
    landed = check_turn(turn, outcome(movie(Q3=("-", None))), LOOKUP)
    assert landed.problems == ["stored, not expected: Q3 (Q3)-"]


def test_a_merged_genre_matches_the_genre_stored():
    assert check_turn(said(stored=(ent("Q31", "-"),)), outcome(movie(Q30=("-", None))), LOOKUP).ok


def test_a_hedge_stores_nothing_or_the_answer_to_a_question_about_it():
    hedge = said(stored=(ent("Q1", "ask", answer="+"),))
    assert check_turn(hedge, outcome(movie()), LOOKUP).ok
    asked = (Asked("confirm", "Did you like Q1?", ("Q1",), "oracle", "Yes"),)
    good = check_turn(hedge, outcome(movie(Q1=("+", None)), asked=asked), LOOKUP)
    assert good.ok and good.polarity_errors == 0 and good.questions == 1
    unasked = check_turn(hedge, outcome(movie(Q1=("+", None))), LOOKUP)
    assert unasked.problems == ["stored Q1 (Q1)+ without asking (a hedge)"] and unasked.polarity_errors == 1
    skipped = said(stored=(ent("Q1", "ask"),))  # answer skip: the oracle says no, which the bot stores as -
    assert check_turn(skipped, outcome(movie(Q1=("-", None)), asked=asked), LOOKUP).ok
    wrong = check_turn(skipped, outcome(movie(Q1=("+", None)), asked=asked), LOOKUP)
    assert wrong.problems == ["stored Q1 (Q1)+, answered -"] and wrong.polarity_errors == 1


def test_a_ref_names_the_card_its_people_in_a_role_or_the_suggested_item():
    turn = said(stored=(Entity(ref="card", polarity="-"), Entity(ref="card", role="director", polarity="-")))
    refs = {"card": ("Q1",), "card:director": ("Q10", "Q20"), "suggested": ()}
    right = check_turn(turn, outcome(movie(Q1=("-", None), Q20=("-", "P57")), refs=refs), LOOKUP)
    assert right.ok and right.expected == 2  # one of the directors is enough: the bot may ask which one
    no_card = check_turn(turn, outcome(movie(), refs={"card": (), "suggested": ()}), LOOKUP)
    assert no_card.lost == 2 and "not stored: card- (nothing of that on screen)" in no_card.problems
    nobody = {"card": ("Q1",), "card:director": (), "suggested": ()}  # the card's item has no director in the KB
    result = check_turn(turn, outcome(movie(Q1=("-", None)), refs=nobody), LOOKUP)
    assert result.ok and result.expected == 1
    suggested = said(stored=(Entity(ref="suggested", polarity="+"),))
    assert check_turn(suggested, outcome(movie(Q2=("+", None)), refs={"card": (), "suggested": ("Q2",)}), LOOKUP).ok


def test_not_stored_with_and_without_a_polarity():
    before = movie(Q1=("-", None), Q2=("+", None))
    corrected = said(not_stored=(ent("Q1", "-"), Entity(qid="Q2")))
    assert check_turn(corrected, outcome(movie(Q1=("+", None)), before), LOOKUP).problems == [
        "stored, not expected: Q1 (Q1)+"  # the correction itself is written in `stored` when the set expects it
    ]
    kept = check_turn(corrected, outcome(before, before), LOOKUP)
    assert kept.problems == ["still stored: Q1 (Q1)-", "still stored: Q2 (Q2)+"]
    by_label = said(not_stored=(ent(None, None, label="Q3"),))  # the lookup's label of Q3 is "Q3"
    assert check_turn(by_label, outcome(movie(Q3=("+", None))), LOOKUP).problems[0] == "still stored: Q3 (Q3)+"


def test_list_and_its_exclusions():
    card = Shown("Q1", "movie", (("P136", "Q30"), ("P57", "Q10")))
    assert check_turn(said(shows_list=True), outcome(shown=(card,)), LOOKUP).ok
    assert check_turn(said(shows_list=True), outcome(), LOOKUP).problems == ["no list shown"]
    assert check_turn(said(shows_list=False), outcome(shown=(card,)), LOOKUP).problems == ["a list shown"]
    for rules, broken in [
        ((Exclusion(qid="Q1"),), "excluded item Q1"),
        ((Exclusion(value="Q31"),), "excluded value Q31"),  # merged into the card's genre Q30
        ((Exclusion(value="Q10", role="director"),), "excluded value Q10 as director"),
    ]:
        result = check_turn(said(list_excludes=rules), outcome(shown=(card,)), LOOKUP)
        assert result.problems == [f"list shows Q1 (Q1): {broken}"] and result.violations == 1
    fine = (Exclusion(qid="Q2"), Exclusion(value="Q10", role="actor"), Exclusion(value="Q20"))
    result = check_turn(said(list_excludes=fine), outcome(shown=(card,)), LOOKUP)
    assert result.ok and (result.lists, result.violations) == (1, 0)


def test_asks_intent_domain_and_empty():
    assert check_turn(said(asks=True), outcome(asks="item"), LOOKUP).ok
    assert check_turn(said(asks=True), outcome(), LOOKUP).problems == ["asked no question"]
    assert check_turn(said(asks=False), outcome(asks="role"), LOOKUP).problems == ["asked a question (role)"]
    assert check_turn(said(asks="confirm"), outcome(asks="item"), LOOKUP).problems == ["asked item, not confirm"]
    assert check_turn(said(asks="role"), outcome(), LOOKUP).problems == ["asked nothing, not role"]
    accepted = ("show_profile", "help")
    assert check_turn(said(intents=accepted), outcome(intent="help"), LOOKUP).ok
    assert check_turn(said(intents=accepted), outcome(intent="preference"), LOOKUP).problems == [
        "intent preference (expected show_profile or help)"
    ]
    assert check_turn(said(domain="book"), outcome(domain="movie"), LOOKUP).problems == ["domain movie (expected book)"]
    before = {"movie": {"Q1": ("+", None)}, "book": {"Q2": ("+", None)}}
    after = {"movie": {}, "book": {"Q2": ("+", None)}}
    assert check_turn(said(empty=("movie",)), outcome(after, before), LOOKUP).ok
    assert check_turn(said(empty=("movie", "book")), outcome(after, before), LOOKUP).problems == [
        "book profile not empty (1 entries)"
    ]


def test_a_press_that_could_not_be_played_fails_the_turn():
    press = ScriptedTurn(press="why")
    assert check_turn(press, outcome(problem="no why button on screen"), LOOKUP).problems == ["no why button on screen"]


# ---------------------------------------------------------------------- unwritten checks


def test_anything_stored_that_the_turn_does_not_expect_is_spurious():
    turn = said(stored=(ent("Q1"),))
    result = check_turn(turn, outcome(movie(Q1=("+", None), Q2=("+", None))), LOOKUP)
    assert result.problems == ["stored, not expected: Q2 (Q2)+"]
    changed = check_turn(turn, outcome(movie(Q1=("+", None), Q2=("+", "P57")), movie(Q2=("+", None))), LOOKUP)
    assert changed.problems == ["stored, not expected: Q2 (Q2)+"]  # a changed entry (its role) counts
    kept = check_turn(said(), outcome(movie(Q2=("+", None)), movie(Q2=("+", None))), LOOKUP)
    assert kept.ok and kept.entries == []  # what an earlier turn stored is not this turn's
    liked = ScriptedTurn(press="like")  # a like press expects the card's item even when the script names nothing
    assert check_turn(liked, outcome(movie(Q1=("+", None)), refs={"card": ("Q1",)}), LOOKUP).ok


def test_a_list_never_shows_rated_items_nor_items_with_a_disliked_value():
    profile = {"Q2": ("+", None), "Q3": ("-", None), "Q30": ("-", None), "Q10": ("-", "P161")}
    cases = [
        (Shown("Q2", "movie", (), profile), ["an item the profile likes"]),
        (Shown("Q3", "movie", (), profile), ["an item the profile dislikes"]),
        (Shown("Q1", "movie", (("P136", "Q31"),), profile), ["disliked Q30 (Q30)"]),  # merged genre
        (Shown("Q1", "movie", (("P161", "Q10"),), profile), ["disliked Q10 (Q10)"]),
        (Shown("Q1", "movie", (("P57", "Q10"),), profile), []),  # disliked as an actor, here the director
        (Shown("Q1", "movie", (("P136", "Q30"),), profile, others_left=False), []),  # issue 23: nothing else left
    ]
    for card, broken in cases:
        result = check_turn(said(), outcome(shown=(card,)), LOOKUP)
        assert result.violations == bool(broken)
        assert result.problems == ([f"list shows Q{card.qid[1:]} ({card.qid}): {'; '.join(broken)}"] if broken else [])


# ---------------------------------------------------------------------- scores


def test_the_summary_line_and_each_score():
    first = Conversation(
        "movie-d1",
        "movie",
        ("multi",),
        (
            said("I like Q1 and Q2", stored=(ent("Q1"), ent("Q2"))),
            said("recommend", shows_list=True),
            said("Q3 was bad", stored=(ent("Q3", "-"),)),
        ),
    )
    second = Conversation("book-d1", "book", ("hedge", "multi"), (said("hi", intents=("smalltalk.greetings.hello",)),))
    p1 = movie(Q1=("+", None), Q2=("-", None))
    asked = (Asked("suggestion", "Do you like Q50?", ("Q50",)),)
    outcomes_1 = [
        outcome(p1, asked=asked),  # Q2 flipped: a polarity error and a lost preference
        outcome(p1, p1, shown=(Shown("Q2", "movie", (), p1["movie"]),)),  # shows a disliked item
        outcome({"movie": {**p1["movie"], "Q3": ("-", None), "Q40": ("+", None)}}, p1),  # Q40 spurious
    ]
    results = [
        check_conversation(first, outcomes_1, LOOKUP),
        check_conversation(second, [outcome(intent="smalltalk.greetings.hello")], LOOKUP),
    ]
    scores = score(results)
    assert scores.summary_line() == (
        "conversations: n=2 turn_accuracy=0.250 conversation_success=0.500 polarity_errors=0.250"
        " lost_preferences=0.333 spurious=0.250 recommendation_violations=1 questions_per_turn=0.250"
    )
    assert re.fullmatch(
        r"conversations: n=\d+ turn_accuracy=\d\.\d{3} conversation_success=\d\.\d{3} polarity_errors=\d\.\d{3}"
        r" lost_preferences=\d\.\d{3} spurious=\d\.\d{3} recommendation_violations=\d+ questions_per_turn=\d\.\d{3}",
        scores.summary_line(),
    )
    assert [(e["id"], e["turn"]) for e in scores.errors] == [("movie-d1", 1), ("movie-d1", 2), ("movie-d1", 3)]
    assert scores.errors[0]["asked"] == ["suggestion: Do you like Q50? (open)"]
    groups = by_group(results, lambda c: c.tags)
    assert list(groups) == ["hedge", "multi"] and groups["multi"].conversations == 2
    assert groups["hedge"].brief() == "conversations=1 turns=1 turn_accuracy=1.000 conversation_success=1.000"
    assert score([]).line() == (
        "n=0 turn_accuracy=0.000 conversation_success=0.000 polarity_errors=0.000 lost_preferences=0.000"
        " spurious=0.000 recommendation_violations=0 questions_per_turn=0.000"
    )


def test_an_entry_another_turn_expects_is_not_spurious_in_the_score():
    """The turn check flags a late store (the turn did not expect it), the score's ``spurious`` counts only
    entries that no turn of the conversation expects."""
    conversation = Conversation(
        "movie-d2", "movie", (), (said("a", stored=(ent("Q1"),)), said("b", stored=(ent("Q2"),)))
    )
    late = [outcome(movie()), outcome(movie(Q1=("+", None), Q2=("+", None)))]
    result = check_conversation(conversation, late, LOOKUP)
    assert [t.ok for t in result.turns] == [False, False] and result.spurious == 0
    with pytest.raises(ValueError, match="1 outcomes for 2 turns"):
        check_conversation(conversation, late[:1], LOOKUP)


def test_an_entity_of_the_domain_a_turn_switches_to_is_looked_up_in_that_kb():
    books = {"Q77"}
    lookup = Lookup(in_kb=lambda d, q: q in (books if d == "book" else KB))
    turn = said("the novel is even better", stored=(ent("Q77"),), domain="book")
    stayed = check_turn(turn, outcome(movie()), lookup)  # the bot stayed in movies and stored nothing
    assert (stayed.expected, stayed.lost) == (1, 1)
    assert stayed.problems == ["not stored: Q77 Q77+", "domain movie (expected book)"]
    switched = check_turn(turn, outcome({"book": {"Q77": ("+", None)}}, domain="book"), lookup)
    assert switched.ok
