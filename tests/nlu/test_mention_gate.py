"""Issue 22, round 5 (engineer 22-L): the learned mention gate (nlu/linking/mention_model.py) drops everyday words
that mean what they say and keeps titles, on wordings and items of its own (none of the conversation sets')."""

from __future__ import annotations

import pytest

from nlu.linking.mention_model import FEATURES, MentionGate, features, gated, inside_phrase
from nlu.linking.tokens import tokenize
from tests.nlu.real_linkers import real_linker


class _Cand:
    def __init__(self, label: str, *, item: bool = True, roles: tuple[str, ...] = ()) -> None:
        self.qid, self.label, self.is_item, self.roles = "Q1", label, item, roles


class _KB:
    @staticmethod
    def popularity(_qid: str) -> float:
        return 1.0


def _vector(text: str, i: int, j: int, label: str) -> list[float]:
    return features(text, tokenize(text), i, j, _Cand(label), 1.0, "exact", _KB())


def test_a_word_followed_by_a_noun_of_its_phrase_is_inside_a_phrase():
    assert inside_phrase(_vector("her quartet recordings are lovely", 1, 2, "Quartet"))
    assert not inside_phrase(_vector("quartet is lovely", 0, 1, "Quartet"))
    # a chat abbreviation, a filler or a negated verb after the name leaves it alone in its clause
    assert not inside_phrase(_vector("not into quartet tbh", 2, 3, "Quartet"))
    assert not inside_phrase(_vector("no more quartet pls", 2, 3, "Quartet"))
    assert not inside_phrase(_vector("quartet didn't work for me", 0, 1, "Quartet"))


def test_only_short_everyday_spans_read_as_works_are_gated():
    assert gated(tokenize("summer"), [_Cand("Summer")])
    assert not gated(tokenize("the catcher in the rye"), [_Cand("The Catcher in the Rye")])  # three words or more
    assert not gated(tokenize("zelgrith"), [_Cand("Zelgrith")])  # no English word
    assert not gated(tokenize("summer"), [_Cand("Summer"), _Cand("summer music", item=False, roles=("P136",))])
    assert not gated(tokenize("jones"), [_Cand("Norah Jones", item=False, roles=("P175",))])  # a surname


def test_an_open_gate_without_weights_passes_everything():
    assert MentionGate().probability([0.0] * len(FEATURES)) == 1.0


@pytest.fixture(scope="module")
def linkers():
    return {}


def _labels(linkers, domain, text):
    if domain not in linkers:
        linkers[domain] = real_linker(domain)
    return [m.candidates[0].label.casefold() for m in linkers[domain].link(text)]


@pytest.mark.parametrize(
    ("domain", "text", "word"),
    [
        ("music", "the trio arrangements bore me", "trio"),  # a modifier of a noun, not the band Trio
        ("music", "ok that is my jam, I'm obsessed", "obsessed"),
    ],
)
def test_everyday_words_that_mean_what_they_say_link_nothing(linkers, domain, text, word):
    assert all(word not in label for label in _labels(linkers, domain, text))


@pytest.mark.parametrize(
    ("domain", "text", "label"),
    [
        ("music", "creep by radiohead is great", "creep"),  # credited: the work
        ("book", "the hobbit and the silmarillion are both great", "the hobbit"),
        ("book", "dune is my favourite", "dune"),
        ("music", "yesterday is the best song ever", "yesterday"),
        ("book", "the road was bleak but brilliant", "the road"),
        ("music", "i love thriller and bad", "thriller"),
        ("music", "annyeong, huge blackpink fan here", "blackpink"),
    ],
)
def test_titles_of_everyday_words_still_link(linkers, domain, text, label):
    assert label in _labels(linkers, domain, text)
