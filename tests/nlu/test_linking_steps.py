"""Each step of the linking pipeline on its own (nlu/linking/): its input values and what it adds.

The whole pipeline is tested through ``EntityLinker.link`` in test_linker*.py; here each step gets
the values the one before would hand it.
"""

from __future__ import annotations

import math

import pytest

try:
    from conftest_entities import ENTRIES, VALUES, Entry, FakeKB
except ModuleNotFoundError:  # tests/nlu became a package
    from tests.nlu.conftest_entities import ENTRIES, VALUES, Entry, FakeKB

from nlu.linker import EntityLinker
from nlu.linking.decision import Decision
from nlu.linking.filters import SpanFilter, dangling, fragment
from nlu.linking.fuzzy import FuzzyMatcher
from nlu.linking.guard import SpanGuard
from nlu.linking.index_build import IndexBuilder
from nlu.linking.matching import SpanMatcher, longest_first
from nlu.linking.scoring import CandidateRanker
from nlu.linking.tokens import block_keys, boundary, skeleton_key, tokenize
from nlu.linking.values import (
    FUZZY_SIM_FACTOR,
    SAYS_WHICH,
    SIM_LABEL,
    SIM_TITLE_WORD,
    LinkContext,
    Span,
    entity_year,
)
from nlu.linking.works import WorkResolver


class CreditsKB(FakeKB):
    """The fake KB with the reverse of its credits (a person's works), as ``value_items`` gives them."""

    def value_items(self, value: str) -> tuple[tuple[str, str], ...]:
        return tuple((pid, item) for item, pairs in VALUES.items() for pid, v in pairs if v == value)


@pytest.fixture(scope="module")
def kb():
    return CreditsKB(ENTRIES + (Entry("Q38", "Italy", roles=("P495",), aliases=("IT",)),))


@pytest.fixture(scope="module")
def names(kb):
    return IndexBuilder(kb).build()


def _context(spans=(), *, focus=None, history=(), years=()):
    return LinkContext(
        focus=focus,
        history=frozenset(history),
        years=frozenset(years),
        spans=tuple(spans),
        explained=frozenset(),
        credited=frozenset(),
        covered=frozenset(k for s in spans for k in range(s.start, s.end)),
    )


# ---------------------------------------------------------------- step 0: tokens
def test_tokens_keep_offsets_and_fold():
    text = "I LOVED Amélie & WALL·E."
    tokens = tokenize(text)
    assert [t.key for t in tokens] == ["i", "loved", "amelie", "and", "wall", "e"]
    assert all(text[t.start : t.end] == t.raw for t in tokens)


def test_boundaries_are_clause_punctuation_not_initials():
    text = "J. K. Rowling, then Sgt. Pepper"
    tokens = tokenize(text)
    assert [boundary(text, tokens, j) for j in range(1, len(tokens))] == [False, False, True, False, False]


def test_skeleton_and_blocking_keys():
    assert skeleton_key(("the", "lord", "of", "the", "rings")) == ("lord", "rings")
    assert block_keys("daft punk", frozenset()) == {"<da", "ft>", "<pu", "nk>"}
    assert block_keys("up the", frozenset({"the"})) == set()


# ---------------------------------------------------------------- step 1: matching and the guard
@pytest.mark.parametrize(
    ("text", "i", "j", "strong"),
    [
        ("I watched it", 2, 3, False),  # F29: a pronoun
        ("I watched the movie It", 4, 5, True),  # after a type word
        ("Up made me cry", 0, 1, True),  # an object word opening an opinion is a title
        ("I love 'Up'", 2, 3, True),  # quoted
        ("I like horror", 2, 3, True),  # a genre word
    ],
)
def test_the_guard_lets_a_weak_span_through_only_with_a_signal(kb, names, text, i, j, strong):
    tokens = tokenize(text)
    hit = names.exact(tuple(t.key for t in tokens[i:j]))
    assert hit is not None
    assert SpanGuard(kb).strong_enough(text, tokens, i, j, hit) is strong


def test_exact_spans_are_the_longest_index_matches(kb, names):
    text = "i like stephen king and the shining"
    spans = SpanMatcher(names, SpanGuard(kb)).exact_spans(text, tokenize(text))
    assert sorted((s.start, s.end, s.kind) for s in spans) == [(2, 4, "exact"), (5, 7, "exact")]
    assert all(isinstance(s, Span) for s in spans)
    assert next(s for s in spans if s.start == 5).scored == {"Q186341": SIM_LABEL, "Q277260": SIM_LABEL}


def test_longest_first_keeps_the_longest_non_overlapping_spans():
    spans = [Span(0, 1, {}, "exact"), Span(0, 2, {}, "exact"), Span(1, 3, {}, "exact"), Span(3, 4, {}, "exact")]
    assert longest_first(spans) == [Span(0, 2, {}, "exact"), Span(3, 4, {}, "exact")]


def test_references_name_the_focus_only(kb, names):
    tokens = tokenize("I liked this movie")
    assert SpanMatcher.reference_spans(tokens, [], "Q25188") == [Span(2, 4, {"Q25188": SIM_LABEL}, "ref")]
    assert SpanMatcher.reference_spans(tokens, [], None) == []


def test_a_lone_title_word_is_asked_about(kb, names):
    text = "I like schindler"
    spans = SpanMatcher(names, SpanGuard(kb)).title_word_spans(text, tokenize(text), [])
    assert spans == [Span(2, 3, {"Q483941": SIM_TITLE_WORD}, "ask")]


def test_a_typo_is_found_by_the_fuzzy_fallback(names):
    text = "I loved inceptoin"
    (span,) = FuzzyMatcher(names, {}).fuzzy_spans(text, tokenize(text), [])
    assert (span.start, span.end, span.kind) == (2, 3, "fuzzy")
    assert math.isclose(span.scored["Q25188"], FUZZY_SIM_FACTOR * 0.8889, abs_tol=1e-3)


def test_a_lone_capitalised_surname_gives_its_persons(names):
    text = "I love Jackson"
    (span,) = FuzzyMatcher(names, {}).fuzzy_spans(text, tokenize(text), [])
    assert set(span.scored) == {"Q2831", "Q4465", "Q172678"}


# ---------------------------------------------------------------- step 2: works named by their person
def test_title_by_person_links_the_work_and_the_person_only_says_which(kb, names):
    text = "I love Titanic by James Cameron"
    spans = [Span(2, 3, {"Q44578": SIM_LABEL}, "exact"), Span(4, 6, {"Q42574": SIM_LABEL}, "exact")]
    out = WorkResolver(kb, names).resolve(text, tokenize(text), spans)
    assert Span(4, 6, {"Q42574": SIM_LABEL}, SAYS_WHICH) in out  # the person, who says which (issue 22)
    assert [s for s in out if s.kind != SAYS_WHICH] == [Span(2, 3, {"Q44578": SIM_LABEL}, "exact")]


def test_a_possessive_person_says_which_work(kb, names):
    text = "I love Steven Spielberg's Jurassic Park"
    spans = [Span(2, 4, {"Q8877": SIM_LABEL}, "exact"), Span(5, 7, {"Q131390": SIM_LABEL}, "exact")]
    out = WorkResolver(kb, names).resolve(text, tokenize(text), spans)
    assert sorted(out) == sorted([Span(2, 4, {"Q8877": SIM_LABEL}, SAYS_WHICH), spans[1]])


# ---------------------------------------------------------------- step 3: filters
def test_a_genre_that_describes_a_named_film_is_no_mention(kb):
    text = "Inception is my favourite horror film"
    spans = [Span(0, 1, {"Q25188": SIM_LABEL}, "exact"), Span(4, 6, {"Q200092": SIM_LABEL}, "exact")]
    assert SpanFilter(kb).drop_genre_attributes(tokenize(text), spans) == spans[:1]


def test_an_everyday_word_is_no_reading_of_a_short_acronym(kb):
    text = "I loved it"
    spans = [Span(2, 3, {"Q38": 0.95, "Q16963462": SIM_LABEL}, "exact")]
    assert SpanFilter(kb).drop_acronym_readings(tokenize(text), spans) == [Span(2, 3, {"Q16963462": 1.0}, "exact")]


def test_part_of_a_longer_title_and_a_word_glued_to_an_unknown_one():
    text = "I loved The Matrix Resurrections"
    tokens = tokenize(text)
    assert fragment(text, tokens, 2, 4, [Span(2, 4, {}, "exact")])
    text = "I liked Inception Wolfgang"
    assert dangling(text, tokenize(text), 2, 3, {2})
    text = "I watched Inception yesterday"
    assert not dangling(text, tokenize(text), 2, 3, {2})


# ---------------------------------------------------------------- step 4: scoring
def test_candidates_are_scored_by_similarity_popularity_and_kind(kb, names):
    ranker = CandidateRanker(kb, names, {})
    text = "I love the Avengers"
    span = Span(2, 4, dict(names.exact(("the", "avengers"))), "exact")
    ranked = ranker.candidates(text, tokenize(text), span, _context([span]))
    assert [c.qid for c in ranked.candidates] == ["Q182218", "Q1125729"]
    top = ranked.candidates[0]
    expected = 0.55 * 1.0 + 0.35 * math.log1p(95) / names.pop_scale + 0.10
    assert top.score == round(expected, 6) and top.is_item and not ranked.relation


def test_a_year_in_the_message_ranks_the_item_of_that_year_first(kb, names):
    ranker = CandidateRanker(kb, names, {})
    text = "I love the Avengers 1998"
    span = Span(2, 4, dict(names.exact(("the", "avengers"))), "exact")
    ranked = ranker.candidates(text, tokenize(text), span, _context([span], years=[1998]))
    assert ranked.candidates[0].qid == "Q1125729" and entity_year(kb, "Q1125729") == 1998


def test_the_role_of_an_item_links_its_values(kb, names):
    ranker = CandidateRanker(kb, names, {"director": "P57"})
    text = "I like the director of Titanic"
    span = Span(5, 6, {"Q44578": SIM_LABEL}, "exact")
    ranked = ranker.candidates(text, tokenize(text), span, _context([span]))
    assert ranked.relation and ranked.first == 2
    assert [(c.qid, c.roles) for c in ranked.candidates] == [("Q42574", ("P57",))]


# ---------------------------------------------------------------- step 5: decision, and the linker's trace
@pytest.fixture(scope="module")
def linker(kb, names):
    return EntityLinker(kb, names=names)


@pytest.mark.parametrize(
    ("text", "decisions"),
    [
        ("I love the Avengers", [Decision.ASK]),  # two films named so
        ("I love Inception", [Decision.LINK]),
        ("I love the Avengers (2012)", [Decision.LINK]),  # the year says which
        ("I loved The Matrix Resurrections", [Decision.DROP]),  # part of a title the KB lacks
    ],
)
def test_each_span_is_linked_asked_about_or_dropped(linker, text, decisions):
    assert [step.decision for step in linker.trace(text)] == decisions


@pytest.mark.parametrize(
    "text",
    ["I love the Avengers", "i like stephen king but not the shining", "I loved The Matrix Resurrections", "skip"],
)
def test_link_is_the_trace_without_the_dropped_spans(linker, text):
    mentions = linker.link(text)
    kept = [s for s in linker.trace(text) if s.decision is not Decision.DROP]
    assert [(m.candidates, m.ambiguous) for m in mentions] == [
        (s.ranked.candidates, s.decision is Decision.ASK) for s in kept
    ]
