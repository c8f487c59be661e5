"""``corsbot kb build | stats | show | pack | index``: CLI glue over ``recommender.sparql`` and ``recommender.kb``.

- ``corsbot kb build [--domain D ...] [--endpoint URL] [--dump FILE] [--store DIR]``: extract each
  domain (default all three) from the embedded store loaded from the shared dump (default), from
  another dump, or from a SPARQL endpoint, and write ``var/kb/<domain>/`` atomically. A domain
  whose build finds no items (``--min-items``, default 1), or under half the items of the snapshot
  it would replace (unless ``--force``), is not written: one ``corsbot: error:`` line on stderr, the
  other domains are still built, exit status 2.
- ``corsbot kb stats [--domain D ...]``: per-domain counts, what cards can show (items with a trailer,
  an image, a year, a creator, a page to listen to or read them: ``recommender.cards.card_coverage``)
  and the coverage of the QIDs the released study's users named (``recognizedObjects``); last line
  ``kb: entities=N edges=M coverage_movie=X coverage_book=Y coverage_music=Z`` then, per domain,
  ``trailer_<d>=A image_<d>=B year_<d>=C creator_<d>=D`` (movie, book, music; ``nan`` when not shown).
- ``corsbot kb show QID [--domain D]``: what the bot knows about an entity.
- ``corsbot kb pack [--domain D ...]``: rewrite each snapshot's load-ready ``kb.pack`` from its
  ``kb.json.gz`` without querying any store (after a pack format change; ``kb build`` writes both).
- ``corsbot kb index [--domain D ...]``: build the entity linker's name index (``names.pack``, see
  :mod:`nlu.name_index`) of built snapshots when it is missing or stale (``kb build`` does it too;
  the bot builds and stores a missing one at its first start).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from bot import paths
from bot.cli.args import non_negative_int, positive_float, positive_int

if TYPE_CHECKING:  # pragma: no cover
    from recommender.kb import KnowledgeBase

_QID = re.compile(r"\bQ\d+\b")


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``kb`` and its subcommands to the top-level parser."""
    parser = sub.add_parser("kb", help="build and inspect the knowledge base")
    kb_sub = parser.add_subparsers(dest="kb_command", metavar="KB_COMMAND")
    parser.set_defaults(handler=lambda args: (parser.print_help(), 2)[1])

    build = kb_sub.add_parser("build", help="extract the domains' snapshots over SPARQL")
    build.add_argument(
        "--domain", action="append", choices=paths.DOMAINS, help="domain to build (repeatable; default all)"
    )
    src = build.add_mutually_exclusive_group()
    src.add_argument(
        "--endpoint", help="SPARQL endpoint URL (e.g. https://query.wikidata.org/sparql) instead of the embedded store"
    )
    src.add_argument(
        "--dump", type=Path, help="RDF dump to load into the embedded store (default: the shared Wikidata subset)"
    )
    build.add_argument("--store", type=Path, help="embedded store folder (default: var/kb/store)")
    build.add_argument("--out", type=Path, help="folder holding the <domain>/ snapshots (default: var/kb)")
    build.add_argument(
        "--timeout", type=positive_float, default=60.0, help="client timeout per request, seconds (remote)"
    )
    build.add_argument("--batch-size", type=positive_int, help="entities per VALUES batch")
    build.add_argument("--no-progress", action="store_true", help="no progress bars")
    build.add_argument(
        "--min-items",
        type=non_negative_int,
        default=None,
        help="fewest items a domain's snapshot may have (default 1); fewer is an error and the "
        "existing snapshot is kept",
    )
    build.add_argument(
        "--force",
        action="store_true",
        help="replace an existing snapshot even if the new one has under half of its items",
    )
    build.set_defaults(handler=cmd_build)

    stats = kb_sub.add_parser("stats", help="counts per domain and coverage of the study's QIDs")
    stats.add_argument("--domain", action="append", choices=paths.DOMAINS, help="domain (repeatable; default all)")
    stats.add_argument("--kb-dir", type=Path, help="folder holding the <domain>/ snapshots (default: var/kb)")
    stats.add_argument("--converse", type=Path, help="released messages folder (default: shared converse/)")
    stats.set_defaults(handler=cmd_stats)

    pack = kb_sub.add_parser("pack", help="rewrite the load-ready kb.pack of built snapshots from their kb.json.gz")
    pack.add_argument("--domain", action="append", choices=paths.DOMAINS, help="domain (repeatable; default all)")
    pack.add_argument("--kb-dir", type=Path, help="folder holding the <domain>/ snapshots (default: var/kb)")
    pack.set_defaults(handler=cmd_pack)

    index = kb_sub.add_parser(
        "index", help="build the entity linker's name index of built snapshots (kb build does it too)"
    )
    index.add_argument("--domain", action="append", choices=paths.DOMAINS, help="domain (repeatable; default all)")
    index.add_argument("--kb-dir", type=Path, help="folder holding the <domain>/ snapshots (default: var/kb)")
    index.set_defaults(handler=cmd_index)

    show = kb_sub.add_parser("show", help="what the bot knows about an entity")
    show.add_argument("qid", help="entity id, e.g. Q83495")
    show.add_argument("--domain", choices=paths.DOMAINS, help="domain (default: every domain that knows it)")
    show.add_argument("--kb-dir", type=Path, help="folder holding the <domain>/ snapshots (default: var/kb)")
    show.add_argument("--limit", type=positive_int, default=15, help="values / items shown per property")
    show.set_defaults(handler=cmd_show)


def _snapshot(kb_dir: Path | None, domain: str) -> Path:
    return (kb_dir / domain) if kb_dir is not None else paths.kb_snapshot(domain)


def index_names(folder: Path) -> str:
    """Build (if missing or stale) the entity linker's name index stored in a snapshot folder; one line."""
    from nlu.linker import EntityLinker
    from nlu.name_index import NAMES_FILE
    from recommender.kb import KnowledgeBase

    start = time.perf_counter()
    linker = EntityLinker(KnowledgeBase.load(folder))
    keys, entities, fuzzy = linker._names.stats()
    stored = folder / NAMES_FILE
    where = f"{stored} ({stored.stat().st_size} bytes)" if stored.exists() else "not stored (folder not writable)"
    return (
        f"{linker.domain}: name index keys={keys} entities={entities} fuzzy_names={fuzzy} "
        f"in {time.perf_counter() - start:.1f} s -> {where}"
    )


def cmd_index(args: argparse.Namespace) -> int:
    """Build the requested domains' name indexes (default: every built one); one line per domain."""
    from recommender.errors import KnowledgeBaseError
    from recommender.kb import pack_file

    domains = args.domain or [d for d in paths.DOMAINS if pack_file(_snapshot(args.kb_dir, d)).exists()]
    if not domains:
        raise KnowledgeBaseError("no knowledge-base snapshot to index; build one with `corsbot kb build`")
    for domain in domains:
        print(index_names(_snapshot(args.kb_dir, domain)))
    return 0


def cmd_pack(args: argparse.Namespace) -> int:
    """Repack the requested domains (default: every built one); one line per domain."""
    from recommender.errors import KnowledgeBaseError
    from recommender.kb import repack, snapshot_file

    domains = args.domain or [d for d in paths.DOMAINS if snapshot_file(_snapshot(args.kb_dir, d)).exists()]
    if not domains:
        raise KnowledgeBaseError("no knowledge-base snapshot to pack; build one with `corsbot kb build`")
    for domain in domains:
        start = time.perf_counter()
        out = repack(_snapshot(args.kb_dir, domain))
        print(f"{domain}: {out} ({out.stat().st_size} bytes) in {time.perf_counter() - start:.1f} s")
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    """Build the requested domains' snapshots; prints one summary line per domain."""
    from recommender.errors import EmptySnapshotError
    from recommender.sparql import (
        DEFAULT_MIN_ITEMS,
        DEFAULT_MIN_SHARE_OF_PREVIOUS,
        Backend,
        RemoteBackend,
        build_snapshot,
        open_embedded,
        store_stamp,
    )

    domains = args.domain or list(paths.DOMAINS)
    backend: Backend
    if args.endpoint:
        remote = RemoteBackend(args.endpoint, timeout_s=args.timeout, batch_size=args.batch_size or 200)
        print(f"endpoint: {args.endpoint} answers (self-check {remote.check():.2f} s)")
        backend = remote
    else:
        store = args.store or paths.kb_store()
        dump = args.dump or paths.wikidata_dump()
        start = time.perf_counter()
        backend = open_embedded(store, dump, batch_size=args.batch_size or 2000)
        stamp = store_stamp(store) or {}
        print(
            f"store: {store} ({stamp.get('triples', '?')} triples from {dump}; "
            f"opened in {time.perf_counter() - start:.1f} s, loaded in {stamp.get('load_seconds', '?')} s)"
        )
    total = time.perf_counter()
    failed: list[str] = []
    min_items = DEFAULT_MIN_ITEMS if args.min_items is None else max(args.min_items, 1)
    share = 0.0 if args.force else DEFAULT_MIN_SHARE_OF_PREVIOUS
    for domain in domains:
        out = _snapshot(args.out, domain)
        try:
            report = build_snapshot(
                backend,
                domain,
                out,
                progress=not args.no_progress and sys.stderr.isatty(),
                min_items=min_items,
                min_share_of_previous=share,
            )
        except EmptySnapshotError as exc:  # the other domains are still built
            print(f"corsbot: error: {exc}", file=sys.stderr)
            failed.append(domain)
            continue
        print(
            f"{domain}: items={report.items} values={report.values} edges={report.edges} "
            f"labels={report.labels} aliases={report.aliases} dropped_unlabeled={report.dropped_unlabeled} "
            f"queries={report.queries} seconds={report.seconds:.1f} size={report.size_bytes} -> {report.path}"
        )
        print(index_names(out))
    print(
        f"built {len(domains) - len(failed)} snapshot(s) in {time.perf_counter() - total:.1f} s"
        + (f"; FAILED (empty or near-empty): {', '.join(failed)}" if failed else "")
    )
    return 2 if failed else 0


def study_qids(converse_dir: Path, domain: str) -> set[str]:
    """Distinct QIDs in ``recognizedObjects`` of the released files of ``domain`` (empty if absent)."""
    qids: set[str] = set()
    for file in sorted((converse_dir / domain).glob("messages_*.json")):
        try:
            records = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for rec in records if isinstance(records, list) else ():
            if isinstance(rec, dict):
                qids.update(_QID.findall(str(rec.get("recognizedObjects") or "")))
    return qids


def cmd_stats(args: argparse.Namespace) -> int:
    """Print per-domain counts and study-QID coverage; the last line is machine-readable."""
    from recommender.cards import card_coverage
    from recommender.kb import KnowledgeBase, snapshot_file
    from recommender.schema import role_name

    converse = args.converse or paths.converse_dir()
    domains = args.domain or list(paths.DOMAINS)
    entities = edges = 0
    coverage: dict[str, str] = {d: "nan" for d in paths.DOMAINS}
    cards: dict[str, dict[str, int]] = {}
    for domain in domains:
        start = time.perf_counter()
        kb = KnowledgeBase.load(_snapshot(args.kb_dir, domain))
        load_s = time.perf_counter() - start
        ents = kb.entities()
        n_labels = sum(1 for q in ents if kb.has_label(q))
        n_en = sum(1 for q in ents if kb.label_lang(q) == "en")
        n_aliases = sum(len(kb.aliases(q)) for q in ents)
        per_pid: dict[str, int] = {}
        for item in kb.items:
            for pid, _ in kb.item_values(item):
                per_pid[pid] = per_pid.get(pid, 0) + 1
        n_edges = kb.edge_count
        connected = sum(1 for q in kb.items if kb.item_values(q))
        size = snapshot_file(_snapshot(args.kb_dir, domain)).stat().st_size
        print(f"[{domain}] source={kb.source} built={kb.built_at} size={size} B load={load_s:.2f}s")
        print(
            f"  items={len(kb.items)} (with >=1 edge: {connected}) values={len(ents) - len(kb.items)} "
            f"edges={n_edges} labels={n_labels} (en: {n_en}) aliases={n_aliases}"
        )
        print(
            "  edges by property: "
            + ", ".join(f"{p} {role_name(p)}={n}" for p, n in sorted(per_pid.items(), key=lambda kv: -kv[1]))
        )
        print("  detail fields (items): " + ", ".join(f"{k}={v}" for k, v in kb.detail_counts().items()))
        cards[domain] = card_coverage(kb)  # type: ignore[arg-type]
        shown = cards[domain]
        print(
            f"  cards: items={shown['items']} with a trailer={shown['trailer']} an image={shown['image']} "
            f"a year={shown['year']} a creator={shown['creator']} a listen page={shown['listen']} "
            f"a read page={shown['read']}" + (" (the offline dump has no images)" if not shown["image"] else "")
        )
        wanted = study_qids(converse, domain)
        if wanted:
            present = {q for q in wanted if kb.has(q)}
            as_item = sum(1 for q in present if kb.is_item(q))
            labeled = sum(1 for q in present if kb.has_label(q))
            frac = len(present) / len(wanted)
            coverage[domain] = f"{frac:.3f}"
            print(
                f"  study QIDs: {len(wanted)}; present {len(present)} ({frac:.1%}), as items {as_item}, labeled {labeled}"
            )
        else:
            print(f"  study QIDs: none found under {converse}")
        entities += len(ents)
        edges += n_edges
    card_keys = " ".join(
        f"{field}_{d}={cards[d][field] if d in cards else 'nan'}"
        for d in paths.DOMAINS
        for field in ("trailer", "image", "year", "creator")
    )
    print(
        f"kb: entities={entities} edges={edges} coverage_movie={coverage['movie']} "
        f"coverage_book={coverage['book']} coverage_music={coverage['music']} {card_keys}"
    )
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """Print labels, aliases, details, values and reverse values of an entity."""
    from recommender.errors import KnowledgeBaseError
    from recommender.kb import KnowledgeBase

    qid = args.qid.strip().upper()
    if not re.fullmatch(r"Q\d+", qid):
        print(f"corsbot: error: not a QID: {args.qid!r} (expected e.g. Q83495)", file=sys.stderr)
        return 2
    domains = [args.domain] if args.domain else list(paths.DOMAINS)
    found = False
    errors: list[str] = []
    for domain in domains:
        try:
            kb = KnowledgeBase.load(_snapshot(args.kb_dir, domain))
        except KnowledgeBaseError as exc:
            errors.append(str(exc))
            continue
        if not kb.has(qid):
            continue
        found = True
        for line in describe(kb, qid, limit=args.limit):
            print(line)
    if not found:
        if errors and len(errors) == len(domains):
            print(f"corsbot: error: {errors[0]}", file=sys.stderr)
            return 2
        print(f"{qid}: unknown to the {' / '.join(domains)} knowledge base(s)")
        return 1
    return 0


def describe(kb: KnowledgeBase, qid: str, *, limit: int = 15) -> Iterable[str]:
    """Lines describing ``qid`` in ``kb``: name, details, values by role, reverse values, roles."""
    from recommender.kbdetails import DETAIL_NAMES
    from recommender.schema import PID, QID, role_name

    d = kb.details(qid)
    kind = "item" if kb.is_item(qid) else "value"
    yield f"[{kb.domain}] {qid} {d.label!r} ({kind}, popularity {kb.popularity(qid):g}, label lang {kb.label_lang(qid)})"
    aliases = kb.aliases(qid)
    if aliases:
        yield "  aliases: " + "; ".join(aliases)
    if d.description:
        yield f"  description: {d.description}"
    for name in (*DETAIL_NAMES, "wikipedia"):
        value = getattr(d, name, None)
        if value is not None:
            yield f"  {name}: {value}"
    for title, pairs in (("has", kb.item_values(qid)), ("is the value of", kb.value_items(qid))):
        grouped: dict[PID, list[QID]] = {}
        for pid, other in pairs:
            grouped.setdefault(pid, []).append(other)
        for pid, others in grouped.items():
            shown = ", ".join(f"{kb.label(o)} ({o})" for o in others[:limit])
            more = f" … +{len(others) - limit}" if len(others) > limit else ""
            yield f"  {title} {role_name(pid)} [{pid}] ({len(others)}): {shown}{more}"
    roles = kb.roles(qid)
    if roles:
        yield "  roles: " + ", ".join(f"{role_name(p)} ({p})" for p in roles)
