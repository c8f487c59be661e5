"""The linker's name index: stored in the snapshot folder, mapped at start, same answers as built."""

from __future__ import annotations

import os

import pytest

from nlu.linker import EntityLinker
from nlu.name_index import NAMES_FILE, DictNameIndex, MappedNameIndex
from recommender.kb import KnowledgeBase
from recommender.kbpack import write_pack

ENTITIES = [
    # items (films) first, then values
    ("Q83495", "The Matrix", ["Matrix"], [("P57", "Q9545711"), ("P136", "Q471839")]),
    ("Q181795", "Star Wars: Episode III – Revenge of the Sith", [], [("P136", "Q471839")]),
    ("Q26698156", "Havana (feat. Young Thug)", [], []),
    ("Q134773", "The Lord of the Rings: The Return of the King", [], [("P136", "Q188473")]),
    ("Q47703", "The Big Lebowski", [], [("P57", "Q13595311")]),
    ("Q9545711", "Lana Wachowski", ["Larry Wachowski"], []),
    ("Q13595311", "Joel Coen", [], []),
    ("Q471839", "science fiction film", ["sci-fi"], []),
    ("Q188473", "action film", [], []),
]
N_ITEMS = 5


def _doc() -> dict:
    index = {q: i for i, (q, *_rest) in enumerate(ENTITIES)}
    pids = ["P57", "P136"]
    edges = sorted((index[q], pids.index(p), index[v]) for q, _l, _a, claims in ENTITIES for p, v in claims)
    return {
        "format": "corsbot-kb",
        "version": 1,
        "domain": "movie",
        "source": "test",
        "entities": [q for q, *_ in ENTITIES],
        "n_items": N_ITEMS,
        "labels": [label for _q, label, *_ in ENTITIES],
        "label_langs": ["en"] * len(ENTITIES),
        "aliases": {str(i): a for i, (_q, _l, a, _c) in enumerate(ENTITIES) if a},
        "descriptions": {"0": "1999 film"},
        "pids": pids,
        "edge_item": [e[0] for e in edges],
        "edge_pid": [e[1] for e in edges],
        "edge_value": [e[2] for e in edges],
        "details": {},
        "sitelinks": {"0": "https://en.wikipedia.org/wiki/The_Matrix"},
        "declared_roles": {},
    }


MESSAGES = [
    "I love The Matrix",
    "i liked matrix and the big lebowski",
    "I like lebowski",
    "revenge of the sith was great",
    "I like Havana",
    "the lord of rings return of king",
    "I like sci-fi and action movies",
    "I love Wachowski",
    "I like Joel Coen, but not the matrx",
]


@pytest.fixture()
def snapshot(tmp_path):
    folder = tmp_path / "movie"
    folder.mkdir()
    write_pack(_doc(), folder)
    return folder


def _mentions(linker, text):
    return [
        (m.text, m.start, m.ambiguous, [(c.qid, c.score, c.roles) for c in m.candidates]) for m in linker.link(text)
    ]


def test_the_index_is_stored_beside_the_snapshot_and_mapped_at_the_next_start(snapshot):
    kb = KnowledgeBase.load(snapshot)
    built = EntityLinker(kb, names=None)
    assert (snapshot / NAMES_FILE).is_file()
    again = EntityLinker(KnowledgeBase.load(snapshot))
    assert isinstance(again._names, MappedNameIndex)
    in_memory = EntityLinker(kb, names=EntityLinker(kb).build_index())
    assert isinstance(in_memory._names, DictNameIndex)
    for text in MESSAGES:
        assert _mentions(again, text) == _mentions(in_memory, text) == _mentions(built, text), text
    assert _mentions(again, "I love The Matrix")[0][3][0][0] == "Q83495"


def test_mapped_tables_answer_as_the_built_ones(snapshot):
    kb = KnowledgeBase.load(snapshot)
    built = EntityLinker(kb, names=DictNameIndex()).build_index()
    built.write(snapshot / "copy.pack", meta={})
    mapped = MappedNameIndex.open(snapshot / "copy.pack")
    assert mapped.stats() == built.stats() and mapped.pop_scale == built.pop_scale
    for key in built._exact:
        assert dict(mapped.exact(key)) == dict(built.exact(key))
        assert mapped.max_len(key[0]) == built.max_len(key[0])
    for key in built._skeleton:
        assert dict(mapped.skeleton(key)) == dict(built.skeleton(key))
    for part in built._partial:
        assert mapped.namesakes(part) == built.namesakes(part)
    for word in built._title:
        assert mapped.title_items(word) == built.title_items(word)
    for block in built._block:
        assert mapped.fuzzy_window(0, 99, [block]) == built.fuzzy_window(0, 99, [block])
        assert mapped.fuzzy_window(6, 12, [block, "<zz"]) == built.fuzzy_window(6, 12, [block, "<zz"])
    assert [mapped.fuzzy_name(i) for i in range(built.stats()[2])] == built._fuzzy_names
    assert mapped.exact(("no", "such", "name")) is None and mapped.max_len("zzz") == 0
    assert mapped.namesakes("zzz") is None and mapped.title_items("zzz") is None


def test_a_stale_index_is_rebuilt(snapshot):
    EntityLinker(KnowledgeBase.load(snapshot))
    first = (snapshot / NAMES_FILE).read_bytes()
    doc = _doc()
    doc["labels"][4] = "The Big Lebowski Returns"  # other facts: another digest
    write_pack(doc, snapshot)
    linker = EntityLinker(KnowledgeBase.load(snapshot))
    assert (snapshot / NAMES_FILE).read_bytes() != first
    assert _mentions(linker, "I like The Big Lebowski Returns")[0][3][0][0] == "Q47703"
    (snapshot / NAMES_FILE).write_bytes(b"garbage")  # unusable: rebuilt, not an error
    assert isinstance(EntityLinker(KnowledgeBase.load(snapshot))._names, MappedNameIndex)


def test_an_unwritable_snapshot_folder_builds_the_index_in_memory(snapshot, monkeypatch):
    real = os.replace

    def refuse(src, dst):
        if str(dst).endswith(NAMES_FILE):
            raise PermissionError(13, "Permission denied", str(dst))
        return real(src, dst)

    monkeypatch.setattr(os, "replace", refuse)
    linker = EntityLinker(KnowledgeBase.load(snapshot))
    assert isinstance(linker._names, DictNameIndex) and not (snapshot / NAMES_FILE).exists()
    assert _mentions(linker, "I love The Matrix")[0][3][0][0] == "Q83495"
    assert not [p for p in snapshot.iterdir() if p.name.startswith(".names")]  # no temp file left
