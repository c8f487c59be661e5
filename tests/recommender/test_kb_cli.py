"""``corsbot kb build | stats | show`` on the tiny fixture (CLI glue in bot/cli/kb.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _kb_testkit import TINY_NT

from bot.cli import main


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cli")
    code = main(
        [
            "kb",
            "build",
            "--dump",
            str(TINY_NT),
            "--store",
            str(root / "store"),
            "--out",
            str(root / "kb"),
            "--no-progress",
        ]
    )
    assert code == 0
    return root


def _converse(root: Path) -> Path:
    conv = root / "converse"
    rows = {
        "movie": ["Q83495+, Q9545711-", "Q189600+", "Q123456789+", ""],  # 3 of 4 distinct QIDs known
        "book": ["Q11678+", "Q34660+"],
        "music": ["Q11649+, Q11365+", "Q999999999-"],
    }
    for domain, objects in rows.items():
        (conv / domain).mkdir(parents=True, exist_ok=True)
        records = [
            {"messageID": str(i), "userID": 1, "message": "x", "recognizedObjects": o} for i, o in enumerate(objects)
        ]
        (conv / domain / "messages_nl.json").write_text(json.dumps(records))
    (conv / "music" / "messages_mixed.json").write_text("not json")  # unreadable file: skipped
    return conv


def test_build_writes_three_snapshots(built, capsys):
    for domain in ("movie", "book", "music"):
        assert (built / "kb" / domain / "kb.json.gz").is_file()


def test_build_prints_one_line_per_domain(tmp_path, capsys):
    code = main(
        [
            "kb",
            "build",
            "--domain",
            "book",
            "--dump",
            str(TINY_NT),
            "--store",
            str(tmp_path / "s"),
            "--out",
            str(tmp_path / "kb"),
            "--no-progress",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("store: ") and "triples" in out[0]
    assert out[1].startswith("book: items=3 values=9 edges=9 labels=12 aliases=3 dropped_unlabeled=0 ")
    assert out[-1].startswith("built 1 snapshot(s) in ")


def test_stats_last_line_and_coverage(built, capsys):
    conv = _converse(built)
    assert main(["kb", "stats", "--kb-dir", str(built / "kb"), "--converse", str(conv)]) == 0
    lines = capsys.readouterr().out.splitlines()
    movie_entities, book_entities, music_entities = 16, 12, 12
    assert lines[-1].startswith(
        f"kb: entities={movie_entities + book_entities + music_entities} edges={14 + 9 + 9} "
        "coverage_movie=0.750 coverage_book=1.000 coverage_music=0.667 "
    )
    # issue 23: what cards can show, per domain
    assert lines[-1].endswith(
        " trailer_movie=0 image_movie=1 year_movie=1 creator_movie=2 trailer_book=0 image_book=0 year_book=0"
        " creator_book=3 trailer_music=0 image_music=0 year_music=0 creator_music=3"
    ), lines[-1]
    assert any(line.startswith("  cards: items=7 with a trailer=") for line in lines)
    text = "\n".join(lines)
    assert "[movie]" in text and "items=7" in text and "P57 director=" in text
    assert "imdb_id=1" in text  # detail fields present


def test_stats_missing_snapshot_is_one_clear_line(tmp_path, capsys):
    assert main(["kb", "stats", "--kb-dir", str(tmp_path), "--domain", "movie"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("corsbot: error: no knowledge-base snapshot at ") and "corsbot kb build" in err[0]


def test_show_entity(built, capsys):
    assert main(["kb", "show", "q83495", "--kb-dir", str(built / "kb")]) == 0
    out = capsys.readouterr().out
    assert "[movie] Q83495 'The Matrix' (item, popularity 7" in out
    assert "aliases: Matrix" in out and "imdb_id: tt0133093" in out and "year: 1999" in out
    assert "has director [P57] (2): Lilly Wachowski (Q9544977), Lana Wachowski (Q9545711)" in out
    assert "is the value of prequel [P155] (1): The Matrix Reloaded (Q189600)" in out
    assert main(["kb", "show", "Q11649", "--domain", "music", "--kb-dir", str(built / "kb")]) == 0
    assert "is the value of performer [P175] (2)" in capsys.readouterr().out


def test_show_unknown_and_bad_ids(built, capsys):
    assert main(["kb", "show", "Q1", "--kb-dir", str(built / "kb")]) == 1
    assert "Q1: unknown to the movie / book / music knowledge base(s)" in capsys.readouterr().out
    assert main(["kb", "show", "Matrix", "--kb-dir", str(built / "kb")]) == 2
    assert "not a QID" in capsys.readouterr().err


def test_build_with_missing_dump_is_one_clear_line(tmp_path, capsys):
    assert (
        main(
            [
                "kb",
                "build",
                "--dump",
                str(tmp_path / "missing.nt.gz"),
                "--store",
                str(tmp_path / "s"),
                "--out",
                str(tmp_path / "kb"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"corsbot: error: RDF dump not found: {tmp_path / 'missing.nt.gz'} (set CORSBOT_SHARED or pass --dump FILE)"
    ]


def _copy_kb(built: Path, tmp_path: Path) -> Path:
    import shutil

    kb = tmp_path / "kb"
    shutil.copytree(built / "kb", kb)
    return kb


def test_empty_dump_is_an_error_and_keeps_the_good_snapshots(built, tmp_path, capsys):
    kb = _copy_kb(built, tmp_path)
    before = {d: (kb / d / "kb.json.gz").read_bytes() for d in ("movie", "book", "music")}
    empty = tmp_path / "empty.nt"
    empty.write_text("")
    code = main(
        ["kb", "build", "--dump", str(empty), "--store", str(tmp_path / "s"), "--out", str(kb), "--no-progress"]
    )
    captured = capsys.readouterr()
    assert code == 2
    errors = captured.err.strip().splitlines()
    assert len(errors) == 3 and all(e.startswith("corsbot: error: building the ") for e in errors)
    assert "found 0 items (at least 1 needed)" in errors[0] and "the previous snapshot (7 items) is kept" in errors[0]
    assert captured.out.strip().splitlines()[-1].startswith("built 0 snapshot(s) in ")
    assert "FAILED (empty or near-empty): movie, book, music" in captured.out
    assert {d: (kb / d / "kb.json.gz").read_bytes() for d in before} == before


def test_near_empty_rebuild_is_refused_unless_forced(built, tmp_path, capsys):
    kb = _copy_kb(built, tmp_path)
    before = (kb / "movie" / "kb.json.gz").read_bytes()
    lines = [
        line
        for line in TINY_NT.read_text().splitlines()
        if "P279" in line or line.startswith("<http://www.wikidata.org/entity/Q83495>")
    ]
    small = tmp_path / "small.nt"
    small.write_text("\n".join(lines) + "\n")
    args = [
        "kb",
        "build",
        "--domain",
        "movie",
        "--dump",
        str(small),
        "--store",
        str(tmp_path / "s"),
        "--out",
        str(kb),
        "--no-progress",
    ]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "found only 1 items, under 50% of the 7 of the existing snapshot" in err
    assert (kb / "movie" / "kb.json.gz").read_bytes() == before
    assert main(args + ["--min-items", "2", "--force"]) == 2  # --force does not lower --min-items
    assert "found 1 items (at least 2 needed)" in capsys.readouterr().err
    assert main(args + ["--force"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-3].startswith("movie: items=1 ") and out[-2].startswith("movie: name index keys=")
