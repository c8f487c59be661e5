"""Knowledge base built from the tiny N-Triples fixture with the embedded pyoxigraph store."""

from __future__ import annotations

import gzip
import json
import os
import shutil

import pytest
from _kb_testkit import BUILT_AT

from recommender.errors import KnowledgeBaseError
from recommender.kb import SNAPSHOT_FILE, ItemDetails, KnowledgeBase, read_snapshot, repack
from recommender.kbpack import PACK_FILE, PACK_VERSION
from recommender.schema import DOMAINS, PID, get_domain, role_name
from recommender.sparql import build_snapshot, open_embedded, store_stamp


def test_items_per_domain_follow_the_schema(tiny_kbs):
    # Q900003 (film) and Q900031 (album) have no label: dropped; Q900004 is an animated film (P279 film);
    # Q900005 a mockumentary (subclass of film *and* literary work): a film, not a book;
    # Q900022 a song (the fixture makes song a literary work): music, not book.
    assert tiny_kbs["movie"].items == {"Q83495", "Q189600", "Q172241", "Q900001", "Q900002", "Q900004", "Q900005"}
    # The Lord of the Rings (typed literary work) is the series of The Fellowship of the Ring: a property
    assert tiny_kbs["book"].items == {"Q11678", "Q8337", "Q190192"}
    # songs and albums; AC/DC is typed album *and* musical group: a band, a property like Nirvana
    assert tiny_kbs["music"].items == {"Q17444", "Q900022", "Q285929"}


def test_kind_rules_decide_conflicting_types(tiny_kbs):
    music, book = tiny_kbs["music"], tiny_kbs["book"]
    kinds = {q: music.kind(q) for q in ("Q17444", "Q900022", "Q11649", "Q27593", "Q900030", "Q900050", "Q11365")}
    assert kinds == {
        "Q17444": "album",
        "Q900022": "song",
        "Q11649": "band",
        "Q27593": "band",  # typed album too: the band rule comes first
        "Q900030": "artist",  # a musician (P106) no song names: kept as a property with its genres
        "Q900050": "label",  # record label with a Spotify artist id and a musician occupation
        "Q11365": "genre",
    }
    # a record label is never an artist: its performer edge is dropped and it has only the label role
    assert ("P175", "Q900050") not in music.item_values("Q900022")
    assert music.roles("Q900050") == ("P264",)
    # a band is not the album of a song; the real album stays
    assert music.item_values("Q900022") == (("P175", "Q11649"), ("P361", "Q17444"))
    # a band is known as a performer (not as the band of its members), a member as an artist
    assert music.roles("Q11649") == ("P175",)
    assert music.item_values("Q900051") == (("P463", "Q11649"),) and music.roles("Q900051") == ("P175",)
    # value claims: the band's genre and label, the solo artist's genre
    assert ("P136", "Q11365") in music.item_values("Q11649") and ("P264", "Q778673") in music.item_values("Q11649")
    assert music.item_values("Q900030") == (("P136", "Q11365"),)
    assert book.kind("Q15228") == "series" and book.roles("Q15228") == ("P179",)
    assert book.item_values("Q892") == (("P136", "Q900062"),)  # the author's genre


def test_near_duplicate_genres_become_one(tiny_kbs):
    music, book = tiny_kbs["music"], tiny_kbs["book"]
    # "grunge music" (used once) is merged into "grunge" (used twice): one node, the name an alias
    assert music.canonical("Q900043") == "Q11365" and music.canonical("Q11365") == "Q11365"
    assert "grunge music" in music.aliases("Q11365") and "Q900043" not in music.entities()
    assert music.has("Q900043") and music.label("Q900043") == "grunge"
    assert book.canonical("Q900063") == "Q900020"  # dystopian fiction -> dystopian novel
    # a film genre among books loses the film word; its name stays an alias
    assert book.label("Q900061") == "romance" and "romance film" in book.aliases("Q900061")
    assert tiny_kbs["movie"].label("Q900061") == "romance film"


def test_labels_prefer_english_then_mul_then_any(tiny_kbs):
    movie = tiny_kbs["movie"]
    assert movie.label("Q83495") == "The Matrix"  # en beats de
    assert movie.label_lang("Q83495") == "en"
    assert movie.label("Q900002") == "Mulfilm"  # mul beats de
    assert movie.label_lang("Q900002") == "mul"
    assert movie.label("Q900001") == "Der Film"  # any language: smallest (lang, text): de < fr
    assert movie.label("Q900009") == "Acteur Seul"  # a value with only a French label
    assert movie.label("Q47284") == "Q47284"  # a value with no label at all: the QID, last resort
    assert not movie.has_label("Q47284") and movie.has_label("Q900009")
    assert movie.label("Q424242") == "Q424242"  # unknown


def test_aliases_descriptions_and_names(tiny_kbs):
    movie, book = tiny_kbs["movie"], tiny_kbs["book"]
    assert movie.aliases("Q83495") == ("Matrix",)
    assert movie.aliases("Q43416") == ("Keanu",)  # mul alias
    assert movie.description("Q83495") == "1999 American-Australian science fiction action film"
    assert movie.description("Q172241") is None
    assert book.aliases("Q34660") == ("J.K. Rowling",)
    names = set(movie.names())
    assert ("Matrix", "Q83495") in names and ("The Matrix", "Q83495") in names
    assert ("Keanu Reeves", "Q43416") in names
    assert not any(q == "Q47284" for _, q in names)  # unlabeled: nothing to match


def test_edges_roles_and_membership(tiny_kbs):
    movie = tiny_kbs["movie"]
    assert movie.item_values("Q83495") == (
        ("P57", "Q9544977"),
        ("P57", "Q9545711"),
        ("P161", "Q43416"),
        ("P58", "Q9545711"),
        ("P136", "Q471839"),
        ("P156", "Q189600"),
    )  # schema order of properties; the blank-node composer and the P495 country are not edges
    assert movie.value_items("Q43416") == (("P161", "Q83495"), ("P161", "Q189600"))
    assert movie.roles("Q9545711") == ("P57", "P58")  # director twice, screenwriter once
    assert movie.roles("Q83495") == ("P155",)  # The Matrix is the prequel of Reloaded
    assert movie.has("Q47284") and not movie.is_item("Q47284")
    assert movie.is_item("Q189600") and movie.has("Q189600")
    assert not movie.has("Q900003")  # unlabeled film dropped
    assert movie.item_values("Q424242") == () and movie.roles("Q424242") == ()


def test_declared_value_types_keep_isolated_genres_and_writers(tiny_kbs):
    # a labeled film genre nobody is tagged with, a novelist with no book in the graph, a music genre
    assert tiny_kbs["movie"].has("Q900010") and tiny_kbs["movie"].roles("Q900010") == ("P136",)
    assert not tiny_kbs["movie"].has("Q900011")  # unlabeled genre without edges: useless, not kept
    assert tiny_kbs["book"].roles("Q900023") == ("P50",)
    assert tiny_kbs["music"].roles("Q900040") == ("P136",)
    assert tiny_kbs["music"].value_items("Q900040") == ()


def test_popularity_is_degree_plus_sitelink_bonus(tiny_kbs):
    movie = tiny_kbs["movie"]
    # The Matrix: 5 distinct neighbours (2 directors, Keanu, genre, Reloaded) + enwiki article (2.0)
    assert movie.popularity("Q83495") == 7.0
    assert movie.popularity("Q189600") == 4.0
    assert movie.popularity("Q900010") == 0.0
    assert movie.popularity("Q424242") == 0.0
    assert all(movie.popularity(q) >= 0 for q in movie.entities())


def test_details(tiny_kbs):
    d = tiny_kbs["movie"].details("Q83495")
    assert d == ItemDetails(
        qid="Q83495",
        label="The Matrix",
        description="1999 American-Australian science fiction action film",
        year=1999,
        image="http://commons.wikimedia.org/wiki/Special:FilePath/The%20Matrix%20Poster.jpg",
        imdb_id="tt0133093",
        tmdb_id="603",
        wikipedia="https://en.wikipedia.org/wiki/The_Matrix",
    )
    assert ("IMDb", "https://www.imdb.com/title/tt0133093/") in d.links()
    music = tiny_kbs["music"]
    assert music.details("Q11649").spotify_id == "6olE6TJLqED3rqDCT0FyPh"
    assert music.details("Q11649").lastfm_id == "Nirvana"
    assert music.details("Q17444").spotify_id == "2UJcKiJxNryhL050F5Z1Fk"
    assert music.detail_counts()["spotify_id"] == 1  # items only (Nirvana is a property), whatever the kind
    # the page kind follows the property: P1902 artist (Nirvana), P2205 album (Nevermind)
    assert (music.details("Q11649").spotify_kind, music.details("Q17444").spotify_kind) == ("artist", "album")
    assert dict(music.details("Q11649").links())["Spotify"] == "https://open.spotify.com/artist/6olE6TJLqED3rqDCT0FyPh"
    assert dict(music.details("Q17444").links())["Spotify"] == "https://open.spotify.com/album/2UJcKiJxNryhL050F5Z1Fk"
    missing = tiny_kbs["movie"].details("Q172241")  # F19: no trailer/image/date -> None, no crash
    assert (missing.trailer, missing.image, missing.year) == (None, None, None)
    assert tiny_kbs["movie"].details("Q424242") == ItemDetails(qid="Q424242", label="Q424242")


def test_graph_is_undirected_item_value_graph_with_pids(tiny_kbs):
    g = tiny_kbs["movie"].graph()
    assert g.has_edge("Q9545711", "Q83495")
    assert g.edges["Q83495", "Q9545711"]["pids"] == ("P57", "P58")
    assert g.edges["Q189600", "Q83495"]["pids"] == ("P155", "P156")  # both directions merged
    assert g.nodes["Q83495"]["item"] is True and g.nodes["Q43416"]["item"] is False
    assert g.number_of_nodes() == len(tiny_kbs["movie"].entities())
    assert "Q900010" in g and g.degree("Q900010") == 0
    assert tiny_kbs["movie"].graph() is g  # cached


def test_snapshot_is_deterministic(tmp_path, embedded_backend, tiny_snapshots):
    build_snapshot(embedded_backend, "movie", tmp_path / "movie", progress=False, built_at=BUILT_AT)
    assert (tmp_path / "movie" / SNAPSHOT_FILE).read_bytes() == (tiny_snapshots["movie"] / SNAPSHOT_FILE).read_bytes()


def test_snapshot_document_layout(tiny_snapshots):
    doc = read_snapshot(tiny_snapshots["book"])
    assert doc["format"] == "corsbot-kb" and doc["version"] == 2 and doc["domain"] == "book"
    assert doc["classes"]["0"] == ["Q8261"]  # version 2: each item's P31 classes (issue 23): a novel
    assert doc["entities"][: doc["n_items"]] == ["Q8337", "Q11678", "Q190192"]  # numeric order
    assert len(doc["edge_item"]) == len(doc["edge_pid"]) == len(doc["edge_value"]) == 9
    assert doc["kind_names"][: len(DOMAINS["book"].kinds)] == [k.name for k in DOMAINS["book"].kinds]
    assert [doc["kind_names"][k] for k in doc["kinds"][:3]] == ["book", "book", "book"]
    assert doc["pids"][:2] == ["P50", "P136"]


def test_store_is_reused_while_the_dump_is_unchanged(tmp_path, tiny_dump):
    store = tmp_path / "store"
    open_embedded(store, tiny_dump)
    first = store_stamp(store)
    assert first is not None and first["triples"] == sum(
        1 for line in tiny_dump.read_text().splitlines() if line.strip()
    )
    marker = store / "reuse-marker"
    marker.write_text("x")
    open_embedded(store, tiny_dump)  # same dump: no reload (the folder is not replaced)
    assert marker.exists()
    changed = tmp_path / "changed.nt"
    shutil.copy(tiny_dump, changed)
    with open(changed, "a") as fh:
        fh.write('<http://www.wikidata.org/entity/Q1> <http://www.w3.org/2000/01/rdf-schema#label> "universe"@en .\n')
    backend = open_embedded(store, changed)  # another dump: reloaded
    assert not marker.exists()
    assert store_stamp(store)["triples"] == first["triples"] + 1
    assert backend.select("SELECT ?l WHERE { <http://www.wikidata.org/entity/Q1> ?p ?l }")[0]["l"].value == "universe"


def test_gzip_dump_loads_the_same(tmp_path, tiny_dump, tiny_snapshots):
    gz = tmp_path / "tiny.nt.gz"
    gz.write_bytes(gzip.compress(tiny_dump.read_bytes()))
    backend = open_embedded(tmp_path / "store", gz)
    build_snapshot(backend, "music", tmp_path / "music", progress=False, built_at=BUILT_AT)
    a, b = read_snapshot(tmp_path / "music"), read_snapshot(tiny_snapshots["music"])
    a.pop("source"), b.pop("source")
    assert a == b


def test_missing_dump_is_a_clear_error(tmp_path):
    with pytest.raises(KnowledgeBaseError, match="RDF dump not found: .*nope.nt.gz"):
        open_embedded(tmp_path / "store", tmp_path / "nope.nt.gz")
    with pytest.raises(KnowledgeBaseError, match="no embedded store"):
        open_embedded(tmp_path / "store", None)


def test_corrupt_dump_is_a_clear_error_and_keeps_no_half_store(tmp_path):
    bad = tmp_path / "bad.nt"
    bad.write_text("<http://a> <http://b> this is not n-triples\n")
    with pytest.raises(KnowledgeBaseError, match="could not load the RDF dump"):
        open_embedded(tmp_path / "store", bad)
    assert not (tmp_path / "store").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["bad.nt"]


def test_missing_or_broken_snapshot_is_a_clear_error(tmp_path, tiny_snapshots):
    with pytest.raises(
        KnowledgeBaseError, match=r"no knowledge-base snapshot at .*kb.pack; build it with `corsbot kb build`"
    ):
        KnowledgeBase.load(tmp_path / "movie")
    (tmp_path / "movie").mkdir()
    (tmp_path / "movie" / SNAPSHOT_FILE).write_bytes(b"not gzip")
    with pytest.raises(KnowledgeBaseError, match="unreadable"):
        read_snapshot(tmp_path / "movie")
    (tmp_path / "movie" / SNAPSHOT_FILE).write_bytes(gzip.compress(json.dumps({"format": "x"}).encode()))
    with pytest.raises(KnowledgeBaseError, match="not a corsbot knowledge-base snapshot"):
        read_snapshot(tmp_path / "movie")
    with pytest.raises(KnowledgeBaseError, match="malformed"):
        KnowledgeBase({"format": "corsbot-kb", "version": 1})


def test_old_or_foreign_pack_says_rebuild(tmp_path, tiny_snapshots):
    """A folder from before the pack, another pack version, a foreign or cut file: one clear line
    with the command that rebuilds it."""
    old = tmp_path / "movie"
    shutil.copytree(tiny_snapshots["movie"], old)
    (old / PACK_FILE).unlink()  # what an older corsbot wrote: kb.json.gz only
    with pytest.raises(KnowledgeBaseError, match=r"older corsbot.*rebuild it with `corsbot kb build --domain movie`"):
        KnowledgeBase.load(old)
    repack(old)  # ... or `corsbot kb pack` from the document
    assert KnowledgeBase.load(old).label("Q83495") == "The Matrix"
    good = (old / PACK_FILE).read_bytes()
    (old / PACK_FILE).write_bytes(b"PK\x03\x04 a zip file, not a pack" + bytes(64))
    with pytest.raises(
        KnowledgeBaseError, match=r"not a corsbot knowledge-base pack; rebuild it with `corsbot kb build`"
    ):
        KnowledgeBase.load(old)
    (old / PACK_FILE).write_bytes(good[:16] + (PACK_VERSION + 1).to_bytes(4, "little") + good[20:])
    with pytest.raises(
        KnowledgeBaseError, match=rf"version {PACK_VERSION + 1}, this corsbot reads version {PACK_VERSION}; rebuild"
    ):
        KnowledgeBase.load(old)
    (old / PACK_FILE).write_bytes(good[: len(good) // 2])
    with pytest.raises(KnowledgeBaseError, match="truncated"):
        KnowledgeBase.load(old)


class _FailingBackend:
    """Answers the first ``ok`` queries from a real backend, then fails."""

    def __init__(self, inner, ok: int):
        self.inner, self.ok = inner, ok
        self.description, self.batch_size, self.page_size = inner.description, inner.batch_size, inner.page_size

    def select(self, query):
        if self.ok <= 0:
            raise KnowledgeBaseError("store went away")
        self.ok -= 1
        return self.inner.select(query)


def test_failed_build_keeps_the_previous_snapshot(tmp_path, embedded_backend, tiny_snapshots):
    out = tmp_path / "movie"
    shutil.copytree(tiny_snapshots["movie"], out)
    before = (out / SNAPSHOT_FILE).read_bytes()
    with pytest.raises(
        KnowledgeBaseError,
        match="building the movie knowledge base failed: store went away; the previous snapshot is kept",
    ):
        build_snapshot(_FailingBackend(embedded_backend, 6), "movie", out, progress=False)
    assert (out / SNAPSHOT_FILE).read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["movie"]  # no temp folder left behind


def test_schema_roles_and_domains():
    assert role_name(PID("P57")) == "director" and role_name("P161") == "actor"
    assert role_name("P175") == "performer" and role_name("P50") == "author"
    assert role_name("P9999") == "related (P9999)"
    assert set(DOMAINS) == {"movie", "book", "music"}
    for schema in DOMAINS.values():
        assert len(set(schema.edge_pids)) == len(schema.edge_pids)
        assert all(schema.role(p) for p in schema.edge_pids)
    assert get_domain("music").role("P264") == "record label"
    with pytest.raises(ValueError, match="unknown domain 'film'"):
        get_domain("film")


READABLE_ROLES = {
    "movie": {
        "P57": "director",
        "P161": "actor",
        "P58": "screenwriter",
        "P162": "producer",
        "P1431": "executive producer",
        "P86": "composer",
        "P136": "genre",
        "P179": "series",
        "P8345": "franchise",
        "P144": "source work",
        "P921": "subject",
        "P272": "production company",
        "P1040": "film editor",
        "P344": "cinematographer",
        "P155": "prequel",
        "P156": "sequel",
    },
    "book": {
        "P50": "author",
        "P136": "genre",
        "P179": "series",
        "P921": "subject",
        "P144": "source work",
        "P135": "literary movement",
        "P123": "publisher",
        "P155": "prequel",
        "P156": "sequel",
        "P737": "influence",
    },
    "music": {
        "P175": "artist",
        "P86": "composer",
        "P676": "lyricist",
        "P136": "genre",
        "P264": "record label",
        "P463": "band",
        "P1303": "instrument",
        "P361": "album",
        "P155": "previous release",
        "P156": "next release",
    },
}


@pytest.mark.parametrize("domain", sorted(READABLE_ROLES))
def test_every_property_has_a_readable_role_name_in_its_domain(domain):
    """Role questions and explanations name a value by what it is to the item ("album", "band"),
    never by the raw property label ("part of", "member of") or a PID."""
    schema = DOMAINS[domain]
    assert set(schema.edge_pids) == set(READABLE_ROLES[domain])
    for pid in schema.edge_pids:
        assert role_name(pid, domain) == READABLE_ROLES[domain][pid] == schema.role(pid)
    for pid in {p for s in DOMAINS.values() for p in s.edge_pids}:  # domain-free names are readable too
        name = role_name(pid)
        assert not name.startswith("related (") and name not in {"part of", "member of", "based on", "main subject"}


def test_real_snapshots_load_if_built():
    """If the real snapshots exist (``corsbot kb build``), they load and hold the shared dump's films.

    (Load time is measured in the report, not asserted: the test machine is shared.)
    """
    from bot import paths

    path = paths.kb_snapshot("movie")
    if not (path / SNAPSHOT_FILE).exists():
        pytest.skip("no real movie snapshot under $CORSBOT_HOME/kb")
    kb = KnowledgeBase.load(path)
    if "wikidata-subset" not in kb.source:
        pytest.skip(f"the movie snapshot was built from {kb.source}")
    assert len(kb.items) > 15000
    assert kb.label("Q83495") == "The Matrix"
    assert ("P57", "Q9545711") in kb.item_values("Q83495")


def test_interrupted_write_keeps_the_previous_snapshot_and_no_temp_folder(tmp_path, tiny_snapshots, monkeypatch):
    import recommender.kbsnapshot as kbmod

    out = tmp_path / "book"
    shutil.copytree(tiny_snapshots["book"], out)
    before = (out / SNAPSHOT_FILE).read_bytes()
    data = kbmod.SnapshotData(domain="book", source="test", items={"Q1"})
    data.labels["Q1"] = ("one", "en")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(kbmod.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        kbmod.write_snapshot(data, out)
    assert (out / SNAPSHOT_FILE).read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["book"]
    monkeypatch.undo()
    kbmod.write_snapshot(data, out)  # and a normal write replaces it
    assert KnowledgeBase.load(out).items == {"Q1"}


def test_write_through_a_symlinked_snapshot_folder_keeps_the_link(tmp_path, tiny_snapshots):
    import recommender.kbsnapshot as kbmod

    real = tmp_path / "elsewhere" / "book"
    shutil.copytree(tiny_snapshots["book"], real)
    link = tmp_path / "kb" / "book"
    link.parent.mkdir()
    link.symlink_to(real, target_is_directory=True)
    data = kbmod.SnapshotData(domain="book", source="test", items={"Q1"})
    data.labels["Q1"] = ("one", "en")
    kbmod.write_snapshot(data, link)
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert KnowledgeBase.load(real).items == {"Q1"}
    assert sorted(os.listdir(tmp_path / "kb")) == ["book"]


def test_embedded_store_behind_a_symlink_keeps_the_link(tmp_path, tiny_dump):
    from recommender.sparql import open_embedded

    real = tmp_path / "cache" / "store"
    real.mkdir(parents=True)
    link = tmp_path / "store"
    link.symlink_to(real, target_is_directory=True)
    backend = open_embedded(link, tiny_dump)
    assert backend is not None
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert (tmp_path / "cache" / "store.json").is_file() and any(real.iterdir())


def test_snapshot_of_the_old_format_infers_the_spotify_page_kind(tmp_path, tiny_snapshots):
    """Snapshots built before the kinds were kept have one ``spotify_id`` field: a work (it has a
    performer) gets an album page, an artist an artist page."""
    doc = json.loads(gzip.decompress((tiny_snapshots["music"] / SNAPSHOT_FILE).read_bytes()))
    for details in doc["details"].values():
        for kind in ("track", "album", "artist"):
            if f"spotify_{kind}_id" in details:
                details["spotify_id"] = details.pop(f"spotify_{kind}_id")
    music = KnowledgeBase(doc)
    assert (music.details("Q11649").spotify_kind, music.details("Q17444").spotify_kind) == ("artist", "album")


def test_music_card_without_spotify_id_links_a_search_by_name(tiny_kbs):
    from recommender.cards import item_card

    music = tiny_kbs["music"]
    no_id = sorted(q for q in music.items if not music.details(q).spotify_id)[0]
    links = dict(item_card(music, no_id).links)
    assert links["Spotify"].startswith("https://open.spotify.com/search/") and " " not in links["Spotify"]
    assert dict(item_card(music, "Q17444").links)["Spotify"] == "https://open.spotify.com/album/2UJcKiJxNryhL050F5Z1Fk"
