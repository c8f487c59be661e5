"""The list checks of ``corsbot rec audit`` (issue 23) can fail: each counter on a list that breaks it."""

from __future__ import annotations

from recommender.audit import Session, audit
from recommender.audit_lists import ShownList, constraint_violations, creator_cards, repeats
from recommender.explain import Reason, ReasonKind
from recommender.recommend import Recommender
from recommender.values import Avoid, Profile
from tests.issue23_fakes import book_kb, movie_kb


def test_an_item_of_a_disliked_genre_is_a_violation_unless_nothing_else_was_left_and_the_why_says_so():
    kb = movie_kb()
    disliked = Profile(liked=frozenset({"P5"}), disliked=frozenset({"G1"}))
    shown = ShownList(("F6", "F2"), disliked, why=(("F2", "Why Glass Harbour? You like Eli Fenn."),))
    assert len(constraint_violations(kb, shown)) == 1
    named = "Why Glass Harbour? It is a comedy film, which you don't like, but you like Eli Fenn."
    relaxed = ShownList(("F2",), disliked, why=(("F2", named),), relaxed=True)
    assert constraint_violations(kb, relaxed) == []
    assert len(constraint_violations(kb, ShownList(("F2",), disliked, why=(("F2", named),)))) == 1


def test_a_constraint_of_the_session_and_a_role_are_checked():
    kb = movie_kb()
    session = ShownList(("F6",), Profile(), avoid=(Avoid("P3", session=True),))
    assert len(constraint_violations(kb, session)) == 1
    as_director = Profile(disliked=frozenset({"P1"}), disliked_roles=frozenset({("P1", "P57")}))
    assert constraint_violations(kb, ShownList(("F3",), as_director)) == []  # she only acts in it
    assert len(constraint_violations(kb, ShownList(("F2",), as_director))) == 1  # she directed it


def test_a_why_that_cites_a_rejected_entity_is_a_violation():
    kb = movie_kb()
    reason = Reason(ReasonKind.LIKED_VALUE, "G2", "P136", None, 0.4)
    shown = ShownList(("F5",), Profile(), avoid=(Avoid("G2", session=True),), reasons=(("F5", (reason,)),))
    assert any("cites G2" in v for v in constraint_violations(kb, shown))


def test_repeats_rated_answered_twice_and_parts_of_a_liked_series():
    kb = book_kb()
    profile = Profile(liked=frozenset({"S1"}), disliked=frozenset({"B8"}))
    found = repeats(kb, ShownList(("B8", "B6", "B6", "B4", "B7"), profile, answered=("B7",)))
    assert len(found) == 4 and any("twice" in f for f in found) and any("part of a liked" in f for f in found)
    assert repeats(kb, ShownList(("B6", "B2"), profile)) == []


def test_creator_missing_counts_cards_whose_item_has_a_known_creator():
    kb = book_kb()
    cards = (("B6", "1/5: The Glass Atlas (1999), by Jon Ware"), ("B7", "2/5: Maps of Salt"))
    due, missing = creator_cards(kb, [ShownList(("B6", "B7"), Profile(), cards=cards)])
    assert due == 2 and len(missing) == 1 and "Maps of Salt" in missing[0]


def test_the_summary_line_carries_the_new_counters_and_the_creator_share():
    rec = Recommender(movie_kb())
    shown = ShownList(
        ("F9", "F2"),
        Profile(disliked=frozenset({"G1"})),
        cards=(("F9", "1/2: Harbour Lights"), ("F2", "2/2: Glass Harbour, by Ada Quill")),
    )
    result = audit(rec, [Session(user="u", profile=Profile(), lists=(shown,))])
    assert result.counts["wrong_kind"] == 1  # Harbour Lights is a television series by its classes
    assert result.counts["constraint_violations"] == 1 and result.creator_cards == 2
    assert result.summary_line().endswith("constraint_violations=1 repeats=0 creator_missing=0.5")
