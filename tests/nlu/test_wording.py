"""Wording as data (issue 24): the template notation, the matcher, and every family's own examples."""

from __future__ import annotations

import random

import pytest

from nlu.wording import FAMILIES, Family, TemplateError, family, phrase_regex
from nlu.wording.templates import compile_template, expand, sample

SPECS = [(name, spec) for name in FAMILIES for spec in family(name).specs()]


@pytest.mark.parametrize(("name", "spec"), SPECS, ids=[f"{n}.{s.name}" for n, s in SPECS])
def test_each_pattern_finds_its_examples_and_not_its_counter_examples(name, spec):
    pattern = family(name).pattern(spec.name)
    assert spec.examples, f"{name}.{spec.name}: give at least one example"
    missed = [e for e in spec.examples if not pattern.search(e)]
    wrong = [c for c in spec.counter if pattern.search(c)]
    assert (missed, wrong) == ([], [])


@pytest.mark.parametrize("name", FAMILIES)
def test_each_family_says_what_it_is_and_every_list_reads(name):
    wording = family(name)
    assert wording.about
    for list_name in wording.lists:
        assert wording.phrases(list_name), f"{name}: empty list {list_name}"
        wording.alternation(list_name)  # every entry is a template


@pytest.mark.parametrize(
    ("template", "found", "not_found"),
    [
        ("why !{not}", ["why?", "why this one", "why nothing"], ["why not", "whyever"]),
        ("{please|} delete", ["delete it", "please delete it"], ["undelete"]),
        ("movie{s|}", ["movies", "a movie"], ["moviestar"]),
        ("{like|love}*", ["i liked it", "lovely"], ["alike"]),
        ("what <w0-3> do i like", ["what do i like", "what films do i like"], ["what are the films that do i like"]),
        ("^ more", ["more please"], ["no more"]),
        ("^~ more", ["... more"], ["no more"]),
        ("more ~$", ["one more!!"], ["more please"]),
        ("more $", ["one more"], ["one more!!"]),
        ("?$", ["any films?"], ["? no"]),
        ("the <t1-3> one", ["the peter jackson's one"], ["the one"]),
        ("i love <name>", ["i love the good, the bad and the ugly", "i love heat!"], ["i love"]),
    ],
)
def test_the_notation(template, found, not_found):
    regex = compile_template(template, {})
    assert [t for t in found if not regex.search(t)] == []
    assert [t for t in not_found if regex.search(t)] == []


def test_slots_named_groups_and_an_optional_slot():
    lists = {"items": ["movie{s|}", "book{s|}"], "opener": ["so", "and"]}
    regex = compile_template("^ {{opener}|} any {kind={items}}", lists)
    match = regex.search("so any books")
    assert match is not None and match.group("kind") == "books"
    assert regex.search("any movie") and not regex.search("but any movie")
    assert compile_template("{nolist}", lists).search("a nolist b")  # a name that is no list: the word itself


def test_templates_that_cannot_be_read_say_so():
    with pytest.raises(TemplateError):
        compile_template("{a|b", {})
    with pytest.raises(TemplateError):
        compile_template("{a|}", {})  # nothing that is always there
    with pytest.raises(TemplateError):
        compile_template("{a|} {b|}", {})


def test_expanding_and_sampling_a_template():
    assert expand("{show|give} me {more|} stuff", {}) == {
        "show me stuff",
        "show me more stuff",
        "give me stuff",
        "give me more stuff",
    }
    assert expand("how about <w>", {}) == set()  # a word that must be there is not written
    assert sample("i {love|hate} <name>", {}, random.Random(0), n=2, name="xxrare") == {
        "i love xxrare",
        "i hate xxrare",
    }
    drawn = sample("{a|b|c|d} {e|f|g|h} x", {}, random.Random(0), n=5)
    assert len(drawn) == 5 and all(p.endswith(" x") for p in drawn)


def test_a_list_of_templates_expands_to_phrases():
    hedges = family("hedges")
    phrases = hedges.phrases("hedges")
    assert "wasn't that bad" in phrases and "ain't amazing" in phrases and "meh" in phrases
    assert len(phrases) == len(set(phrases))


def test_the_phrase_matcher_takes_whole_words_longest_first():
    regex = phrase_regex(["sick", "sick of", "10/10"])
    assert [m.group(0) for m in regex.finditer("i'm sick of it, 10/10")] == ["sick of", "10/10"]
    assert not regex.search("homesick")


def test_a_malformed_file_is_one_clear_error(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[patterns.x]\nphrase = ["a"]\n', encoding="utf-8")
    with pytest.raises(TemplateError, match="patterns.x"):
        Family("bad", path)
    path.write_text("not toml = [", encoding="utf-8")
    with pytest.raises(TemplateError, match="bad.toml"):
        Family("bad", path)
