"""The six elicitation strategies (issue 13) on the hand-made fake KB: each deterministic with a seed."""

from __future__ import annotations

import json
import re

import pytest
from _rec_fakes import FakeKB  # noqa: E402  (tests/recommender is on sys.path)

from corsbot_errors import ConfigError
from recommender.elicitation import (
    CONDITIONS,
    STRATEGIES,
    ElicitationRequest,
    Elicitor,
    RatingCounts,
    condition_strategy,
    strategy_name,
)
from recommender.elicitation_eval import SimUser, evaluate, ndcg_at_k, split_user
from recommender.recommend import Profile, Recommender

INCEPTION, INTERSTELLAR, DARK_KNIGHT, DUNKIRK = "Q25188", "Q13417189", "Q163872", "Q24053263"
MAD_MAX, BRAVEHEART, LETHAL, TITANIC, TOY_STORY, LONELY = (
    "Q1536155",
    "Q11010",
    "Q223596",
    "Q44578",
    "Q171048",
    "Q999001",
)
NOLAN, GIBSON = "Q25191", "Q42229"

# logged opinions of other users: Toy Story the most liked, Braveheart liked and disliked alike
RATINGS = RatingCounts.from_opinions(
    [
        ([TOY_STORY, BRAVEHEART, DUNKIRK], []),
        ([TOY_STORY, LETHAL], [BRAVEHEART]),
        ([TOY_STORY, BRAVEHEART], []),
        ([DUNKIRK], [BRAVEHEART]),
        ([LETHAL], []),
    ]
)


@pytest.fixture(scope="module")
def rec() -> Recommender:
    return Recommender(FakeKB())


def elicitor(rec, strategy, **kw) -> Elicitor:
    return Elicitor(rec, RATINGS, strategy=strategy, **kw)


def test_strategy_names_and_the_study_conditions():
    assert strategy_name("randPopularity") == "randpop" and strategy_name("HIGHEST") == "highest"
    assert {strategy_name(c) for c in CONDITIONS} == set(STRATEGIES)
    assert condition_strategy("nosuggestions") == "none" and condition_strategy("movie") is None
    with pytest.raises(ConfigError, match="unknown elicitation strategy 'often'.*popularity"):
        strategy_name("often")


def test_counts_count_users_once_and_liked_wins():
    counts = RatingCounts.from_opinions([([TITANIC, TITANIC], [TITANIC]), ([TITANIC], []), ([], [LETHAL])])
    assert counts.likes == {TITANIC: 2} and counts.dislikes == {LETHAL: 1}


def test_popularity_most_liked_unrated_then_degree(rec):
    e = elicitor(rec, "popularity")
    assert e.suggest(ElicitationRequest()) == TOY_STORY  # 3 likes
    # Dunkirk, Braveheart and Lethal Weapon have 2 likes: the degree decides (Dunkirk 3 values, Braveheart 2
    # distinct values, Lethal Weapon 2), then the QID
    assert e.suggest(ElicitationRequest(liked=(TOY_STORY,))) == DUNKIRK
    assert e.suggest(ElicitationRequest(liked=(TOY_STORY,), exclude=frozenset({DUNKIRK}))) == BRAVEHEART
    # no logged opinion at all: the degree alone ranks
    assert Elicitor(rec, None, strategy="popularity").suggest(ElicitationRequest()) == INCEPTION


def test_popularity_leaves_a_user_out(rec):
    e = elicitor(rec, "popularity").without([TOY_STORY, BRAVEHEART, DUNKIRK], [])
    # Toy Story and Lethal Weapon now have 2 likes each: Lethal Weapon has more property values
    assert e.suggest(ElicitationRequest()) == LETHAL
    assert e.suggest(ElicitationRequest(liked=(LETHAL,))) == TOY_STORY  # Dunkirk and Braveheart lost a like


def test_randpop_is_seeded_and_stays_in_the_top_n(rec):
    e = elicitor(rec, "randpop", randpop_n=3, seed=7)
    top3 = {TOY_STORY, DUNKIRK, BRAVEHEART}
    picks = [e.suggest(ElicitationRequest(user="u1", step=s)) for s in range(20)]
    assert set(picks) <= top3 and len(set(picks)) > 1
    assert picks == [
        elicitor(rec, "randpop", randpop_n=3, seed=7).suggest(ElicitationRequest(user="u1", step=s)) for s in range(20)
    ]
    other_seed = [
        elicitor(rec, "randpop", randpop_n=3, seed=8).suggest(ElicitationRequest(user="u1", step=s)) for s in range(20)
    ]
    assert other_seed != picks
    with pytest.raises(ConfigError):
        Elicitor(rec, RATINGS, strategy="randpop", randpop_n=0)


def test_varxpop_prefers_controversial_items(rec):
    e = elicitor(rec, "varxpop")
    # Braveheart: 2 likes, 2 dislikes -> sqrt(4) * 1; every other item has variance 0
    assert e.suggest(ElicitationRequest()) == BRAVEHEART
    assert e.suggest(ElicitationRequest(disliked=(BRAVEHEART,))) == TOY_STORY  # then popularity


def test_item2item_jaccard_to_the_last_liked_item(rec):
    e = elicitor(rec, "item2item")
    # Titanic shares DiCaprio with Inception, drama with Interstellar, Dunkirk and Braveheart: Inception's
    # Jaccard is 1/7, the drama films' 1/6 (Interstellar), 1/5 (Dunkirk), 1/4 (Braveheart: 2 values)
    assert e.suggest(ElicitationRequest(liked=(INCEPTION, TITANIC))) == BRAVEHEART
    # the last liked item is Inception: The Dark Knight and Mad Max share 3 of 6 values; Dark Knight has no
    # logged like either, same degree, so the lower QID wins (Q1536155 < Q163872)
    assert e.suggest(ElicitationRequest(liked=(TITANIC, INCEPTION))) == MAD_MAX
    # nothing similar left to the last liked item (Toy Story): the previous one (Inception)
    assert e.suggest(ElicitationRequest(liked=(INCEPTION, TOY_STORY), exclude=frozenset({MAD_MAX}))) == DARK_KNIGHT
    # only a person liked: popularity
    assert e.suggest(ElicitationRequest(liked=(NOLAN,))) == TOY_STORY
    assert e.similarity(e.items.index(INCEPTION))[e.items.index(INCEPTION)] == 0.0


def test_highest_popularity_then_the_recommenders_prediction(rec):
    e = elicitor(rec, "highest")
    assert e.suggest(ElicitationRequest(liked=(NOLAN, GIBSON))) == TOY_STORY  # 2 ratings: popularity
    liked = (NOLAN, INCEPTION, INTERSTELLAR)
    expected = rec.recommend(Profile(liked=frozenset(liked)), k=1).items[0].qid
    assert e.suggest(ElicitationRequest(liked=liked)) == expected
    assert expected in (DARK_KNIGHT, DUNKIRK)


def test_none_never_suggests_and_rated_items_are_never_suggested(rec):
    assert elicitor(rec, "none").suggest(ElicitationRequest()) is None
    everything = tuple(rec.item_qids)
    for strategy in STRATEGIES:
        e = elicitor(rec, strategy)
        assert e.suggest(ElicitationRequest(liked=everything[:5], disliked=everything[5:])) is None
        got = e.suggest(ElicitationRequest(liked=(INCEPTION,), disliked=(TOY_STORY,), exclude=frozenset({LETHAL})))
        assert got not in (INCEPTION, TOY_STORY, LETHAL)


# -- offline evaluation -------------------------------------------------------------------------


def test_ndcg_binary_relevance():
    assert ndcg_at_k([1], 1) == 1.0
    assert ndcg_at_k([], 3) == 0.0
    assert ndcg_at_k([2], 1) == pytest.approx(1 / 1.5849625, rel=1e-6)


def test_split_keeps_the_first_three_and_holds_out_half_of_the_liked_items():
    user = SimUser(
        "f#1", ((NOLAN, "+"), (INCEPTION, "+"), (TITANIC, "-"), (DUNKIRK, "+"), (LETHAL, "+"), (GIBSON, "+"))
    )
    start, pool, test = split_user(user, frozenset({INCEPTION, TITANIC, DUNKIRK, LETHAL}), seed=0)
    assert start == ((NOLAN, "+"), (INCEPTION, "+"), (TITANIC, "-"))
    assert len(test) == 1 and test[0] in (DUNKIRK, LETHAL)
    assert set(pool) == {DUNKIRK, LETHAL, GIBSON} - set(test)
    assert split_user(user, frozenset({INCEPTION, TITANIC, DUNKIRK, LETHAL}), seed=0) == (start, pool, test)


def test_evaluate_is_deterministic_and_none_is_flat(rec):
    users = [
        SimUser(
            "a#1",
            ((NOLAN, "+"), (INCEPTION, "+"), (GIBSON, "-"), (TOY_STORY, "+"), (DUNKIRK, "+"), (INTERSTELLAR, "+")),
        ),
        SimUser("a#2", ((TITANIC, "+"), (TOY_STORY, "+"), (LETHAL, "-"), (BRAVEHEART, "+"), (DUNKIRK, "+"))),
        SimUser("a#3", ((NOLAN, "+"),)),  # nothing to hold out: left out
    ]
    e = Elicitor(rec, RATINGS)
    first = evaluate(e, users, seed=3)
    second = evaluate(e, users, seed=3)
    assert first.to_json()["strategies"] == second.to_json()["strategies"]
    assert first.users == 2 and first.users_total == 3
    none = first.strategies["none"]
    assert len(set(none.hr10.values())) == 1 and none.rated_share[5] == 0.0 and none.suggested[10] == 0
    for strategy in STRATEGIES:
        r = first.strategies[strategy]
        assert r.hr10[0] == none.hr10[0]  # K=0 is the starting profile for everyone
        assert all(0.0 <= r.rated_share[k] <= 1.0 for k in r.rated_share)
    line = first.summary_line()
    pairs = " ".join(f"hr10_k5_{s}=\\d\\.\\d{{3}}" for s in STRATEGIES)
    shares = " ".join(f"rated_share_k5_{s}=\\d\\.\\d{{3}}" for s in STRATEGIES)
    assert re.fullmatch(rf"elicitation: users=2 best=({'|'.join(STRATEGIES)}) {pairs} {shares}", line), line
    json.dumps(first.to_json())
