"""The load-ready snapshot (kb.pack) and the recommender graph built from its arrays."""

from __future__ import annotations

import numpy as np
import pytest

from recommender.errors import KnowledgeBaseError
from recommender.kb import KnowledgeBase
from recommender.kbpack import PACK_FILE, Pack, document_digest, write_pack
from recommender.nxgraph import add_user_edges, build_sparse_graph
from recommender.recommend import DEFAULT_WEIGHTING, GraphWeighting, Profile, Recommender

DOC = {
    "format": "corsbot-kb",
    "version": 1,
    "domain": "movie",
    "source": "test",
    "built_at": "2026-12-01T00:00:00Z",
    "entities": ["Q2", "Q10", "Q3", "Q99", "L5"],
    "n_items": 3,
    "labels": ["Two", "Ten", None, "Ninety-nine", "Lexeme"],
    "label_langs": ["en", "mul", None, "en", "en"],
    "aliases": {"0": ["2", "Deux"]},
    "descriptions": {"1": "", "3": "a genre"},
    "pids": ["P136", "P57"],
    "edge_item": [0, 0, 1, 1],
    "edge_pid": [0, 1, 0, 1],
    "edge_value": [3, 4, 3, 0],
    "details": {"0": {"year": 1999, "imdb_id": "tt1"}},
    "sitelinks": {"1": "https://en.wikipedia.org/wiki/Ten"},
    "declared_roles": {"4": [1]},
    # fields a later builder may add: packed by their shape, readable through Pack.column
    "kinds": {"0": "film", "3": "genre"},
    "item_year": [1999, 0, 0],
    "notes": {"free": ["form"]},
}


def test_pack_reads_back_every_field_by_shape():
    pack = Pack.from_document(DOC)
    assert pack.meta["domain"] == "movie" and pack.meta["n_items"] == 3 and pack.meta["notes"] == {"free": ["form"]}
    assert [pack.strings("labels").get(i) for i in range(5)] == DOC["labels"]
    assert pack.entity_column("descriptions").get(1) == "" and pack.entity_column("descriptions").get(0) is None
    assert pack.entity_column("aliases").get(0) == ["2", "Deux"]
    assert pack.column("kinds").get(3) == "genre" and pack.column("kinds").get(1) is None
    assert pack.column("item_year").tolist() == [1999, 0, 0]
    assert list(pack.column("pids")) == ["P136", "P57"]
    assert pack.digest == document_digest(DOC) == document_digest({**DOC, "built_at": "another day"})
    # QID lookup: numeric, no dict of every QID; odd ids and non-canonical spellings
    assert [pack.index_of(q) for q in ("Q2", "Q10", "Q3", "Q99", "L5")] == [0, 1, 2, 3, 4]
    assert [pack.index_of(q) for q in ("Q1", "Q02", "Q", "Q-1", "Q²", "", "P57")] == [None] * 7
    with pytest.raises(KnowledgeBaseError, match="no field 'nothing'"):
        pack.column("nothing")


def test_knowledge_base_on_a_pack_keeps_the_design_api(tmp_path):
    write_pack(DOC, tmp_path)
    kb = KnowledgeBase.load(tmp_path / PACK_FILE)
    assert kb.items == {"Q2", "Q10", "Q3"} and "Q99" not in kb.items and len(kb.items) == 3
    assert sorted(kb.items) == ["Q10", "Q2", "Q3"] and kb.items | {"Q7"} == frozenset({"Q2", "Q10", "Q3", "Q7"})
    assert kb.label("Q3") == "Q3" and not kb.has_label("Q3") and kb.label("Q404") == "Q404"
    assert kb.aliases("Q2") == ("2", "Deux") and kb.label_lang("Q10") == "mul"
    assert kb.item_values("Q2") == (("P136", "Q99"), ("P57", "L5"))
    assert kb.value_items("Q99") == (("P136", "Q2"), ("P136", "Q10"))
    assert kb.roles("L5") == ("P57",) and kb.roles("Q2") == ("P57",)
    assert kb.details("Q2").year == 1999 and kb.details("Q10").wikipedia.endswith("/Ten")
    assert kb.popularity("Q10") == 2 + 2.0 and kb.degree("Q99") == 2
    assert dict(kb.names()) == {
        "Two": "Q2",
        "2": "Q2",
        "Deux": "Q2",
        "Ten": "Q10",
        "Ninety-nine": "Q99",
        "Lexeme": "L5",
    }
    assert kb.entities() == ("Q2", "Q10", "Q3", "Q99", "L5")
    g = kb.graph()
    assert g["Q2"]["Q10"]["pids"] == ("P57",) and g.nodes["Q3"]["item"] and g.degree("Q3") == 0
    assert kb.digest == document_digest(DOC)


WEIGHTINGS = [
    DEFAULT_WEIGHTING,
    GraphWeighting(pid_weights=(("P136", 0.0),), hub_exponent=0.5, item_exponent=0.5, user_exponent=0.5),
    GraphWeighting(pid_weights=(("P57", 2.0),), default_pid_weight=0.5, user_weight=0.0),
]


@pytest.mark.parametrize("weighting", WEIGHTINGS, ids=["default", "degree-factors", "pid-weights"])
def test_graph_from_the_pack_equals_the_networkx_construction(tiny_kbs, weighting):
    """One construction for the bot (arrays) and the reference (networkx): same nodes, same weights."""
    for kb in tiny_kbs.values():
        items = sorted(kb.items)
        likes = {"u1": (items[0], items[-1], "Q404"), "u2": (items[0],), "u3": ("Q404",)}
        rec = Recommender(kb, interactions=likes, weighting=weighting)
        graph, keys = add_user_edges(kb.graph(), likes)
        ref = build_sparse_graph(graph, kb, weighting)
        assert tuple(rec.graph.nodes) == tuple(ref.nodes) and rec.user_keys == keys
        assert (
            abs(rec.graph.weights_t - ref.weights_t).max() < 1e-12
            if ref.weights_t.nnz
            else rec.graph.weights_t.nnz == 0
        )
        assert np.allclose(rec.graph.out_weight, ref.out_weight)
        assert rec.item_qids == tuple(items) and all(rec.item_qid(i) == q for i, q in enumerate(items))
        assert [rec.graph.index[q] for q in rec.graph.nodes] == list(range(rec.graph.n_nodes))


def test_edge_pids_name_the_claims_between_two_nodes(tiny_kbs):
    kb = tiny_kbs["movie"]
    rec = Recommender(kb, interactions={"u1": ("Q83495",)})
    for a, b, data in kb.graph().edges(data=True):
        assert rec.edge_pids(a, b) == rec.edge_pids(b, a) == data["pids"]
    assert rec.edge_pids("user:u1", "Q83495") == ("liked_by",) and rec.edge_pids("Q83495", "user:u2") == ()
    assert rec.edge_pids("Q83495", "Q404") == ()
    assert rec.recommend(Profile(liked=frozenset({"Q83495"})), k=2).items
