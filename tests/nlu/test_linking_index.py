"""The name index builder (nlu/linking/index_build.py): its keys and similarities, and its fingerprint's files."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

try:
    from conftest_entities import ENTRIES, Entry, FakeKB
except ModuleNotFoundError:  # tests/nlu became a package
    from tests.nlu.conftest_entities import ENTRIES, Entry, FakeKB

from nlu.linking.index_build import INDEX_RULES, IndexBuilder, index_fingerprint, index_rule_files
from nlu.linking.values import SIM_ALIAS, SIM_LABEL, SIM_MAIN_TITLE, SIM_SKELETON, SIM_TYPED, SIM_VARIANT

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built():
    return IndexBuilder(FakeKB()).build()


@pytest.mark.parametrize(
    ("key", "qid", "sim"),
    [
        (("the", "shining"), "Q186341", SIM_LABEL),
        (("shining",), "Q186341", SIM_VARIANT),  # "the" dropped
        (("avengers", "assemble"), "Q182218", SIM_ALIAS),
        (("sly", "stallone"), "Q160071", SIM_ALIAS),
        (("horror",), "Q200092", SIM_VARIANT),  # a genre without its type noun
        (("horror", "movies"), "Q200092", SIM_VARIANT),
        (("tron",), "Q650036", SIM_MAIN_TITLE),  # the main title before the subtitle
        (("legacy",), None, None),  # a one-word subtitle is no name
    ],
)
def test_names_and_their_variants_are_keys(built, key, qid, sim):
    hit = built.exact(key)
    if qid is None:
        assert hit is None
    elif sim is not None:
        assert hit is not None and hit[qid] == sim


def test_a_person_without_the_middle_initial_is_a_variant(built):
    assert built.exact(("samuel", "jackson")) == {"Q172678": SIM_VARIANT}


def test_a_genre_label_with_a_type_noun_scores_above_derived_forms(built):
    assert built.exact(("comedy", "film", "movies")) == {"Q157443": SIM_TYPED}  # the label's own words + a noun
    assert built.exact(("comedy", "films"))["Q157443"] == SIM_VARIANT  # derived: plural of a shorter form
    horror = IndexBuilder(FakeKB((Entry("Q1", "horror", roles=("P136",)),))).build()
    assert horror.exact(("horror", "films")) == {"Q1": SIM_TYPED}


def test_titles_are_keyed_by_their_content_words(built):
    assert built.skeleton(("schindler", "list")) == {"Q483941": SIM_SKELETON}
    assert built.has_skeletons()


def test_persons_by_first_and_last_name_and_titles_by_distinctive_words(built):
    assert set(built.namesakes("jackson") or ()) == {"Q2831", "Q4465", "Q172678"}
    assert built.namesakes("james") == ("Q42574",)
    assert built.title_items("schindler") == ("Q483941",)
    assert built.title_items("the") is None  # a common word is no distinctive word


def test_fuzzy_names_are_sorted_by_length_and_blocked(built):
    names = [built.fuzzy_name(pos) for pos in range(built.stats()[2])]
    assert [len(n) for n in names] == sorted(len(n) for n in names)
    window = built.fuzzy_window(7, 11, {"<in"})
    assert "inception" in [built.fuzzy_name(pos) for pos in window]


def test_an_empty_kb_gives_an_empty_index():
    empty = IndexBuilder(FakeKB(())).build()
    assert empty.stats() == (0, 0, 0)


def test_the_builder_is_deterministic():
    a, b = IndexBuilder(FakeKB(ENTRIES)).build(), IndexBuilder(FakeKB(ENTRIES)).build()
    assert [a.fuzzy_name(p) for p in range(a.stats()[2])] == [b.fuzzy_name(p) for p in range(b.stats()[2])]


# ---------------------------------------------------------------- the fingerprint covers the rules


def _module_imports(module: str) -> set[str]:
    """The project modules ``module`` imports at module level (the lazily read word lists inside
    functions, spaCy's stop words and the opinion cues, are fingerprinted by their content)."""
    path = Path(str(importlib.import_module(module).__file__))
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {n for n in names if n.split(".")[0] == "nlu"}


def test_every_nlu_module_the_builder_reads_is_a_rule():
    """A rule module that imports another nlu module makes that module's source a rule too."""
    assert {"nlu.linking.index_build", "nlu.name_index", "nlu.textnorm"} <= set(INDEX_RULES)
    missing = {f"{m} imports {n}" for m in INDEX_RULES for n in _module_imports(m) if n not in INDEX_RULES}
    assert missing == set()


def test_the_makefile_rebuilds_names_pack_when_a_rule_file_changes():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.search(r"^INDEX_RULES := ((?:.*\\\n)*.*)$", makefile, re.M)
    assert found is not None
    listed = set(found.group(1).replace("\\\n", " ").split())
    assert listed == {str(p.relative_to(ROOT)) for p in index_rule_files()}
    assert re.search(r"^\$\(CORSBOT_HOME\)/kb/%/names\.pack: .*\$\(INDEX_RULES\)", makefile, re.M)


def test_the_fingerprint_is_stable_and_short():
    assert index_fingerprint() == index_fingerprint()
    assert re.fullmatch(r"[0-9a-f]{16}", index_fingerprint())
