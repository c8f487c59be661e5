"""Explanations read off the PageRank mass, and their rendering."""

from __future__ import annotations

import pytest
from _rec_fakes import LABELS, FakeKB  # noqa: E402

from recommender.explain import MAX_REASONS, Reason, ReasonKind, explain_text, render_reasons
from recommender.phrases import CAMEO
from recommender.recommend import GraphWeighting, Profile, Recommender
from recommender.schema import role_name

INCEPTION, INTERSTELLAR, DUNKIRK, MAD_MAX = "Q25188", "Q13417189", "Q24053263", "Q1536155"
NOLAN, HARDY, SCIFI, CAINE = "Q25191", "Q208026", "Q471839", "Q299482"


@pytest.fixture(scope="module")
def rec() -> Recommender:
    return Recommender(FakeKB())


def test_liked_director_and_genre_are_the_reasons(rec):
    profile = Profile(liked=frozenset({NOLAN, SCIFI}))
    reasons = rec.explain(profile, INTERSTELLAR)
    assert len(reasons) <= MAX_REASONS
    # science fiction has 3 films, Nolan 4: the genre sends more mass to Interstellar
    assert [(r.kind, r.entity, r.pid) for r in reasons[:2]] == [
        (ReasonKind.LIKED_VALUE, SCIFI, "P136"),
        (ReasonKind.LIKED_VALUE, NOLAN, "P57"),
    ]
    assert reasons[0].weight > reasons[1].weight > 0
    assert sum(r.weight for r in reasons) <= 1.0 + 1e-9
    text = explain_text(rec, reasons[1::-1])
    assert text == "You like Christopher Nolan, who directed it, and science fiction films."


def test_shared_value_with_liked_item(rec):
    reasons = rec.explain(Profile(liked=frozenset({INCEPTION})), MAD_MAX)
    top = reasons[0]
    assert top.kind == ReasonKind.SHARED_VALUE and top.entity == INCEPTION
    assert top.via in {HARDY, SCIFI, "Q188473"}
    text = explain_text(rec, reasons[:1])
    assert text.startswith("Like Inception, which you like, it ")


def test_weights_are_the_actual_transition_mass(rec):
    """LIKED_VALUE weight = damping * x_v * P(v -> item) / x_item, checked by hand."""
    profile = Profile(liked=frozenset({NOLAN}))
    solved = rec.solve(profile)
    x = solved.scores
    idx = rec.graph.index
    (reason, *_rest) = rec.explain(profile, DUNKIRK)
    assert reason.entity == NOLAN
    expected = 0.85 * x[idx[NOLAN]] * (1 / 4) / x[idx[DUNKIRK]]  # Nolan directed 4 films
    assert reason.weight == pytest.approx(expected, rel=1e-9)


def test_no_reasons_on_fallback_or_unknown_item(rec):
    assert rec.explain(Profile(), INCEPTION) == ()
    assert rec.explain(Profile(liked=frozenset({NOLAN})), "Q404") == ()


def test_render_related_and_unknown_roles():
    reasons = (
        Reason(ReasonKind.RELATED_VALUE, CAINE, "P161", None, 0.2),
        Reason(ReasonKind.LIKED_VALUE, "Q1", "P9999", None, 0.1),
    )
    labels = {**LABELS, "Q1": "Something"}
    text = render_reasons(reasons, label=labels.__getitem__, role_name=lambda p: "odd role")
    assert text == "You like Something (odd role). It stars Michael Caine, close to your taste."


def test_likes_sharing_one_value_are_one_sentence():
    # fresh user: "Like Alien, which you like, it belongs to Alien. Like Aliens, which you like, it belongs to Alien."
    labels = {"F1": "The Drowned Road", "F2": "The Drowned Sea", "S1": "Drowned saga", "P1": "Ada Quill"}
    reasons = (
        Reason(ReasonKind.SHARED_VALUE, "F1", "P179", "S1", 0.3),
        Reason(ReasonKind.SHARED_VALUE, "F2", "P179", "S1", 0.2),
        Reason(ReasonKind.SHARED_VALUE, "F2", "P57", "P1", 0.1),
    )
    text = render_reasons(reasons, label=labels.__getitem__)
    assert text.count("Drowned saga") == 1 and "Like The Drowned Road and The Drowned Sea, which you like," in text
    assert "Ada Quill" in text


def test_one_like_sharing_several_values_is_one_sentence():
    # fresh tester (fault 28): "Like The Godfather, which you like, it stars Franco Citti. Like The Godfather, which
    # you like, it stars Al Martino. Like The Godfather, which you like, Carmine Coppola appears in it."
    labels = {"B1": "The Salt Harbour", "A1": "Mira Kell", "A2": "Oren Vasse", "C1": "Teo Brandt", "D1": "Lia Ruhm"}
    reasons = (
        Reason(ReasonKind.SHARED_VALUE, "B1", "P161", "A1", 0.3),
        Reason(ReasonKind.SHARED_VALUE, "B1", "P161", "A2", 0.2),
        Reason(ReasonKind.SHARED_VALUE, "B1", CAMEO, "C1", 0.1),
        Reason(ReasonKind.SHARED_VALUE, "B1", "P57", "D1", 0.1),
    )
    text = render_reasons(reasons[:MAX_REASONS], label=labels.__getitem__)
    assert text.count("Like The Salt Harbour, which you like,") == 1
    assert text.startswith("Like The Salt Harbour, which you like, it stars Mira Kell and Oren Vasse")
    pair = (
        Reason(ReasonKind.SHARED_VALUE, "B1", CAMEO, "C1", 0.1),
        Reason(ReasonKind.SHARED_VALUE, "B1", CAMEO, "D1", 0.1),
    )
    assert render_reasons(pair, label=labels.__getitem__) == (
        "Like The Salt Harbour, which you like, Teo Brandt and Lia Ruhm appear in it."
    )


def test_render_is_bounded():
    reasons = [Reason(ReasonKind.LIKED_VALUE, NOLAN, "P57", None, 0.1)] * 10
    text = render_reasons(reasons, label=lambda q: "X" * 500)
    assert text.count("who directed it") == MAX_REASONS
    assert len(text) < 400
    assert render_reasons((), label=str) == ""


def test_related_values_never_pad_personal_reasons(rec):
    reasons = rec.explain(Profile(liked=frozenset({NOLAN})), INTERSTELLAR)
    assert [r.kind for r in reasons] == [ReasonKind.LIKED_VALUE]


def test_far_item_gets_one_related_reason(rec):
    # Lethal Weapon -> action -> Inception -> DiCaprio -> Titanic: no liked entity within two steps
    reasons = rec.explain(Profile(liked=frozenset({"Q223596"})), "Q44578")
    assert len(reasons) == 1 and reasons[0].kind == ReasonKind.RELATED_VALUE
    assert reasons[0].entity in {"Q38111", "Q130232", "Q3772"}


def test_music_explanations_use_readable_roles_and_the_claim_direction(tiny_kbs):
    """An artist recommended for a liked album is phrased from the artist's side; role names are
    the music domain's ("album", not "part of")."""
    music = tiny_kbs["music"]
    rec = Recommender(music)
    nirvana, nevermind = "Q11649", "Q17444"
    reasons = rec.explain(Profile(liked=frozenset({nirvana})), nevermind)
    assert explain_text(rec, reasons, item=nevermind).startswith("You like Nirvana, who performs it.")
    part_of = Reason(ReasonKind.RELATED_VALUE, "Q1", "P361", None, 0.1)
    text = render_reasons(
        [part_of], label=lambda q: "OK Computer", domain="music", role_name=lambda p: role_name(p, "music")
    )
    assert text == "It is on OK Computer, close to your taste."


def test_label_ending_in_a_full_stop_gives_no_double_stop():
    reasons = [Reason(ReasonKind.RELATED_VALUE, "Q1", "P272", None, 0.1)]
    assert (
        render_reasons(reasons, label=lambda q: "Warner Bros.")
        == "It is produced by Warner Bros., close to your taste."
    )
    reasons = [Reason(ReasonKind.LIKED_VALUE, "Q1", None, None, 0.1)]
    assert render_reasons(reasons, label=lambda q: "Warner Bros.") == "You like Warner Bros."
    assert render_reasons(reasons, label=lambda q: "Wait...") == "You like Wait...."  # an ellipsis is kept


class ExtraKB(FakeKB):
    """FakeKB plus a few claims (a production company: a weak property in the movie domain)."""

    def __init__(self, extra, labels):
        super().__init__()
        self.extra, self.more = list(extra), dict(labels)
        for item, pid, value in self.extra:
            self._graph.add_edge(item, value, pids=(pid,))

    def has(self, qid):
        return qid in self.more or super().has(qid)

    def label(self, qid):
        return self.more.get(qid) or super().label(qid)

    def item_values(self, item):
        return super().item_values(item) + tuple((p, v) for i, p, v in self.extra if i == item)

    def value_items(self, value):
        return super().value_items(value) + tuple((p, i) for i, p, v in self.extra if v == value)


def test_a_weak_property_is_never_the_lead_reason_while_a_stronger_one_exists():
    studio = "Q990001"
    kb = ExtraKB([(DUNKIRK, "P272", studio)], {studio: "Syncopy"})
    rec = Recommender(kb)
    reasons = rec.explain(Profile(liked=frozenset({studio, HARDY})), DUNKIRK)
    by_entity = {r.entity: r for r in reasons}
    assert by_entity[studio].weight > by_entity[HARDY].weight  # the studio (1 film) carries more mass...
    assert reasons[0].entity == HARDY  # ...but the actor comes first
    assert explain_text(rec, reasons, item=DUNKIRK).startswith("You like Tom Hardy, who stars in it")
    # with nothing stronger, the weak reason is still given
    assert [r.entity for r in rec.explain(Profile(liked=frozenset({studio})), DUNKIRK)] == [studio]


def test_collaborative_reasons_only_when_they_carry_the_item():
    users = {"u1": (NOLAN, DUNKIRK), "u2": (INCEPTION, "Q171048")}
    rec = Recommender(FakeKB(), interactions=users, weighting=GraphWeighting(user_weight=0.3))
    # Nolan directed Dunkirk: the KB edge carries more than the light co-like, so no "people who liked"
    kinds = {r.kind for r in rec.explain(Profile(liked=frozenset({NOLAN})), DUNKIRK)}
    assert ReasonKind.CO_LIKED not in kinds and ReasonKind.LIKED_VALUE in kinds
    # Toy Story is reached through the other user only: the co-like is the reason, naming the liked film
    (reason,) = rec.explain(Profile(liked=frozenset({INCEPTION})), "Q171048")
    assert (reason.kind, reason.entity) == (ReasonKind.CO_LIKED, INCEPTION)
