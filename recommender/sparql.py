"""SPARQL extraction of the knowledge base, from an embedded store or a remote endpoint.

Two backends answer the *same* SPARQL, written for Wikidata's vocabulary (``wdt:`` direct claims,
``rdfs:label``/``skos:altLabel``/``schema:description`` read directly: no ``SERVICE wikibase:label``,
which Oxigraph lacks):

- :class:`EmbeddedBackend`: a pyoxigraph ``Store`` persisted at a path (``var/kb/store``), bulk-loaded
  once from an RDF dump (gzip N-Triples, the offline default) and reused while the dump is unchanged
  (size + mtime recorded in ``<store>.json``).
- :class:`RemoteBackend`: any SPARQL 1.1 endpoint (query.wikidata.org, ``oxigraph serve``) via
  SPARQLWrapper, POST, JSON results, with a descriptive User-Agent (F15), a client timeout and an
  overall deadline (F18), retries with exponential backoff honouring ``Retry-After`` on 429/503
  (F14), clear errors for 403, HTML/text bodies and wrong JSON shapes (F16), truncated bodies or
  server timeout traces (F17), and rows whose OPTIONAL variables are unbound (F19, read with .get).

:func:`build_snapshot` extracts one domain (see ``recommender.schema``) in pages and batches:

1. class closures: ``?class wdt:P279* ?root`` for the item, excluded and occupation roots;
2. candidate items (typed and labeled in some language), paged with ``LIMIT``/``OFFSET`` (no
   ``ORDER BY``: it costs ~10 s per page in Oxigraph) and checked against a ``COUNT`` so an unstable
   or partial paging is an error;
3. per batch of entities (``VALUES ?e {...}``): names (labels/aliases/descriptions in en/mul, then a
   label in any language for those lacking one), enwiki sitelinks, and for items the claims of the
   edge and detail properties. Items without any label are left out (a user can neither name nor
   be shown them; the dump has 160k unlabeled Discogs/Spotify albums); property values are kept
   even unlabeled (they still connect items);
4. the same names/sitelinks for the property values.

A batch or page whose answer is truncated or timed out is retried once split in halves (F17);
nothing partial is ever written: the snapshot is written atomically at the end
(``recommender.kbsnapshot.write_snapshot``).

This module holds the build (:func:`build_snapshot`, :class:`BuildReport`: which entities become items,
the rounds of value claims, merging near-duplicate genres); the rest is split by concept and re-exported
here: ``recommender.sparql_client`` (rows, the :class:`Backend` protocol, the JSON results parser,
:class:`RemoteBackend`), ``recommender.sparql_store`` (:class:`EmbeddedBackend`, :func:`open_embedded`,
:func:`store_stamp`), ``recommender.sparql_queries`` (the query texts) and ``recommender.sparql_extract``
(the extraction steps, ``Extractor``).

Example:
    >>> backend = open_embedded(Path("var/kb/store"), Path("wikidata-subset.nt.gz"))  # doctest: +SKIP
    >>> build_snapshot(backend, "movie", Path("var/kb/movie")).items                   # doctest: +SKIP
    17207
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from recommender.errors import EmptySnapshotError, EndpointError, KnowledgeBaseError
from recommender.kbsnapshot import snapshot_items, write_snapshot
from recommender.kinds import KindRules, connected_edges, merge_near_duplicates, plain_genre_name
from recommender.schema import get_domain, schema_fingerprint
from recommender.sparql_client import (
    DEFAULT_USER_AGENT,
    Backend,
    RemoteBackend,
    Row,
    Term,
    parse_retry_after,
    parse_sparql_json,
)
from recommender.sparql_extract import Extractor, item_classes, kind_rules
from recommender.sparql_queries import (
    PREFIXES,
    query_any_labels,
    query_claims,
    query_class_closure,
    query_reverse_claims,
    query_sitelinks,
    query_texts,
    query_typed,
    query_typed_count,
)
from recommender.sparql_store import EmbeddedBackend, open_embedded, store_stamp

logger = logging.getLogger(__name__)

DEFAULT_MIN_ITEMS = 1
"""Fewest items a built snapshot may have (an empty dump gives 0): fewer is an error, nothing is written."""
DEFAULT_MIN_SHARE_OF_PREVIOUS = 0.5
"""A rebuild must keep at least this share of the existing snapshot's items, or it is refused."""
VALUE_ROUNDS = 3
"""Rounds of value claims: an item's values, their values (a song's album's performer), and theirs
(that performer's genres)."""


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What one ``build_snapshot`` call extracted and wrote.

    Attributes:
        domain: the domain.
        path: the written ``kb.json.gz``.
        items: recommendable items (labeled).
        values: other property values.
        edges: (item, property, value) claims.
        labels: entities with a label.
        aliases: alias strings.
        dropped_unlabeled: typed entities left out for lack of any label (counted per typing
            property, so an entity typed both ways may count twice).
        queries: SPARQL queries run (retries of split batches included).
        seconds: wall time of the extraction and write.
        size_bytes: size of the written file.
    """

    domain: str
    path: Path
    items: int
    values: int
    edges: int
    labels: int
    aliases: int
    dropped_unlabeled: int
    queries: int
    seconds: float
    size_bytes: int


def _endpoints(edges: Iterable[tuple[str, str, str]]) -> set[str]:
    out: set[str] = set()
    for s, _p, v in edges:
        out.add(s)
        out.add(v)
    return out


def _choose_items(ex: Extractor, rules: KindRules, labeled: Sequence[str]) -> None:
    """Items = labeled candidates whose kind is an item kind (kind rules of ``recommender.kinds``);
    the claims of the others are dropped (they may come back as property values)."""
    schema = ex.schema
    data = ex.data
    forced: dict[str, str] = {}
    for _s, p, v in data.edges:
        edge = schema.edge(p)
        if edge is not None and edge.forced_kind:
            forced[v] = edge.forced_kind
    item_kinds = set(schema.item_kinds)
    items: set[str] = set()
    for q in labeled:
        kind = rules.by_type(ex.type_sets(q), data.descriptions.get(q))
        name = forced.get(q) if (kind is None or kind.item) and q in forced else (kind.name if kind else None)
        if name is None and not item_kinds:
            continue
        if name is None or name in item_kinds:
            items.add(q)
            data.kinds[q] = name or schema.item_kinds[0]
    dropped = len(labeled) - len(items)
    if dropped:
        logger.info("%s: %d typed candidates are not items by the kind rules", schema.name, dropped)
    data.items = items
    data.edges = {e for e in data.edges if e[0] in items}
    # what each item is typed as, and what those classes stand for: the audit re-checks the kinds
    for q in items:
        types = ex.type_sets(q)
        if types is not None and types.p31:
            data.classes[q] = tuple(sorted(types.p31, key=lambda c: (len(c), c)))
    data.class_kinds = rules.class_kinds({c for cs in data.classes.values() for c in cs})


def _value_rounds(ex: Extractor, rules: KindRules, declared: Mapping[str, Iterable[str]]) -> None:
    """Kinds and value claims of the property values, round by round (:data:`VALUE_ROUNDS`), then the
    edges whose value kind the property does not accept are dropped, and what no item reaches.

    The values of a declared type (``declared``: QID -> roles; a musician no song names) are in the
    first round too, so their own claims (the artist's genres) can connect them to the items."""
    schema, data = ex.schema, ex.data
    claim_pids = sorted({p for k in schema.kinds for p in k.claims})
    reverse_kinds = {k.name: k.reverse_claims for k in schema.kinds if k.reverse_claims}
    claims_of = {k.name: set(k.claims) for k in schema.kinds}
    known = set(data.items)
    frontier = sorted((_endpoints(data.edges) | set(declared)) - known, key=lambda q: int(q[1:]))
    for round_no in range(VALUE_ROUNDS + 1):
        if not frontier:
            break
        last = round_no == VALUE_ROUNDS
        found = ex.value_claims(frontier, [] if last else claim_pids)
        in_pids: dict[str, list[str]] = {}
        out_pids: dict[str, list[str]] = {}
        for s, p, v in data.edges:
            in_pids.setdefault(v, []).append(p)
            out_pids.setdefault(s, []).append(p)
        for q in frontier:
            roles = [*in_pids.get(q, ()), *sorted(declared.get(q, ()))]
            kind = rules.of_value(ex.type_sets(q), roles, out_pids.get(q, ()))
            if kind is not None:
                data.kinds[q] = kind
        known.update(frontier)
        if last:
            break
        new = {e for e in found if e[1] in claims_of.get(data.kinds.get(e[0], ""), ())}
        for kind_name, pids in reverse_kinds.items():
            qs = [q for q in frontier if data.kinds.get(q) == kind_name]
            if qs:
                new |= ex.value_claims(qs, list(pids), reverse=True)
        data.edges |= new
        frontier = sorted(_endpoints(new) - known, key=lambda q: int(q[1:]))
    kinds = data.kinds
    kept = set()
    for e in data.edges:
        prop = schema.edge(e[1])
        if prop is None or prop.accepts(kinds.get(e[2])):
            kept.add(e)
    if len(kept) < len(data.edges):
        logger.info(
            "%s: %d edges dropped (value of a kind the property does not accept)",
            schema.name,
            len(data.edges) - len(kept),
        )
    data.edges = connected_edges(data.items, kept)


def _merge_genres(ex: Extractor) -> None:
    """Near-duplicate genres become one (``recommender.kinds.merge_near_duplicates``); every genre
    name loses another domain's medium word ("romance film" is "romance" among books)."""
    data = ex.data
    domain = ex.schema.name
    genres = [q for q, k in data.kinds.items() if k == "genre"]
    labels = {q: data.labels[q][0] for q in genres if q in data.labels}
    uses: dict[str, int] = {}
    for _s, _p, v in data.edges:
        uses[v] = uses.get(v, 0) + 1
    merged = merge_near_duplicates(domain, genres, labels, uses)
    if merged:
        data.edges = {(s, p, merged.get(v, v)) for s, p, v in data.edges}
        for old, new in merged.items():
            names = data.aliases.setdefault(new, set())
            names.add(labels[old])
            names.update(data.aliases.get(old, ()))
            if old in data.declared_roles:
                data.declared_roles.setdefault(new, set()).update(data.declared_roles.pop(old))
        data.merged.update(merged)
        logger.info("%s: %d near-duplicate genres merged", domain, len(merged))
    for q in genres:
        if q in merged or q not in data.labels:
            continue
        label, lang = data.labels[q]
        plain = plain_genre_name(label, domain)
        if plain != label:
            data.labels[q] = (plain, lang)
            data.aliases.setdefault(q, set()).add(label)
    for q in genres:
        if q in data.aliases and q in data.labels:
            data.aliases[q].discard(data.labels[q][0])


def build_snapshot(
    backend: Backend,
    domain: str,
    out_path: Path,
    *,
    progress: bool = True,
    built_at: str | None = None,
    min_items: int = DEFAULT_MIN_ITEMS,
    min_share_of_previous: float = DEFAULT_MIN_SHARE_OF_PREVIOUS,
) -> BuildReport:
    """Extract one domain from ``backend`` and write its snapshot atomically.

    Args:
        backend: an :class:`EmbeddedBackend` or :class:`RemoteBackend`.
        domain: ``"movie"``, ``"book"`` or ``"music"``.
        out_path: the snapshot folder (``var/kb/<domain>``).
        progress: show tqdm progress bars on stderr.
        built_at: timestamp recorded in the snapshot (default now; fixed in tests).
        min_items: fewest items a usable snapshot has; fewer (e.g. 0 from an empty dump) raises
            :class:`EmptySnapshotError` and writes nothing.
        min_share_of_previous: when a snapshot already exists at ``out_path``, the new one must have
            at least this share of its items (0 disables): a build that shrinks a good snapshot to a
            fraction of it (a truncated dump, the wrong endpoint) raises instead of replacing it.

    Returns:
        The counts, timing and size of what was written.

    Raises:
        EmptySnapshotError: too few items (see ``min_items``, ``min_share_of_previous``); the
            previous snapshot at ``out_path`` is left untouched.
        KnowledgeBaseError (or an ``EndpointError`` subclass): if any query fails; the message says
            what failed and the previous snapshot at ``out_path`` is left untouched.
    """
    schema = get_domain(domain)
    start = time.perf_counter()
    ex = Extractor(backend, schema, progress=progress)
    try:
        excluded = ex.closure(schema.excluded_classes)
        classes = sorted(item_classes(ex, schema.item_classes, excluded))
        occupations = sorted(ex.closure(schema.item_occupations))
        candidates = ex.typed(classes, "P31", count_unlabeled=True) | ex.typed(
            occupations, "P106", count_unlabeled=True
        )
        logger.info(
            "%s: %d classes, %d occupations, %d typed candidates",
            domain,
            len(classes),
            len(occupations),
            len(candidates),
        )
        ordered = sorted(candidates, key=lambda q: int(q[1:]))
        ex.texts(ordered)
        labeled = [q for q in ordered if q in ex.data.labels]
        n_labeled = len(labeled)
        ex.claims(labeled)
        rules = kind_rules(ex, schema, excluded)
        _choose_items(ex, rules, labeled)
        ex.sitelinks(sorted(ex.data.items, key=lambda q: int(q[1:])))
        declared: dict[str, set[str]] = {}
        for vt in schema.value_types:
            vt_classes = sorted(item_classes(ex, vt.roots, excluded))
            for q in ex.typed(vt_classes, vt.via):
                if q not in ex.data.items:
                    declared.setdefault(q, set()).add(vt.role)
        _value_rounds(ex, rules, declared)
        linked = _endpoints(ex.data.edges) - ex.data.items
        values = sorted(linked | set(declared), key=lambda q: int(q[1:]))
        ex.texts([q for q in values if q not in ex.data.labels])
        # values of a declared type are kept without an edge only if they have a name
        ex.data.declared_roles = {q: r for q, r in declared.items() if q in linked or q in ex.data.labels}
        for q, roles in list(ex.data.declared_roles.items()):
            if q not in ex.data.kinds:
                kind = rules.of_value(ex.type_sets(q), sorted(roles))
                if kind is not None:
                    ex.data.kinds[q] = kind
            # a label with a musician occupation is declared a performer too: not by the kind rules
            fitting = {p for p in roles if (e := schema.edge(p)) is None or e.accepts(ex.data.kinds.get(q))}
            if fitting:
                ex.data.declared_roles[q] = fitting
            else:
                del ex.data.declared_roles[q]
        _merge_genres(ex)
        linked = _endpoints(ex.data.edges) - ex.data.items
        values = sorted(linked | set(ex.data.declared_roles), key=lambda q: int(q[1:]))
        ex.sitelinks(values)
    except KnowledgeBaseError as exc:
        raise _with_context(exc, domain, out_path) from exc
    # drop names gathered for unlabeled candidates that are not values either
    keep = ex.data.items | _endpoints(ex.data.edges) | set(ex.data.declared_roles)
    for table in (
        ex.data.labels,
        ex.data.aliases,
        ex.data.descriptions,
        ex.data.sitelinks,
        ex.data.details,
        ex.data.kinds,
    ):
        for q in [q for q in table if q not in keep]:
            del table[q]
    _check_not_empty(
        domain, len(ex.data.items), out_path, min_items=min_items, min_share_of_previous=min_share_of_previous
    )
    file = write_snapshot(ex.data, out_path, built_at=built_at)
    report = BuildReport(
        domain=domain,
        path=file,
        items=len(ex.data.items),
        values=len(keep - ex.data.items),
        edges=len(ex.data.edges),
        labels=len(ex.data.labels),
        aliases=sum(len(a) for a in ex.data.aliases.values()),
        dropped_unlabeled=ex.unlabeled + len(candidates) - n_labeled,
        queries=ex.queries,
        seconds=time.perf_counter() - start,
        size_bytes=file.stat().st_size,
    )
    logger.info("%s", report)
    return report


def _check_not_empty(domain: str, items: int, out_path: Path, *, min_items: int, min_share_of_previous: float) -> None:
    """Raise :class:`EmptySnapshotError` if ``items`` is too few to replace what is at ``out_path``."""
    # a snapshot of another schema (items redefined) is no yardstick: only the minimum applies
    previous = snapshot_items(out_path, schema=schema_fingerprint(domain)) if min_share_of_previous > 0 else None
    needed = max(min_items, math.ceil(previous * min_share_of_previous) if previous else 0)
    if items >= needed:
        return
    kept = f"the previous snapshot ({previous} items) is kept" if previous is not None else "no snapshot was written"
    if previous and items >= min_items:
        why = (
            f"only {items} items, under {min_share_of_previous:.0%} of the {previous} of the existing snapshot "
            "(truncated dump or wrong endpoint?)"
        )
    else:
        why = f"{items} items (at least {min_items} needed): the dump or endpoint has no {domain} data"
    raise EmptySnapshotError(
        f"building the {domain} knowledge base found {why}; {kept}", domain=domain, items=items, needed=needed
    )


def _with_context(exc: KnowledgeBaseError, domain: str, out_path: Path) -> KnowledgeBaseError:
    """The same error kind with the domain and 'previous snapshot kept' added to its message."""
    kept = "the previous snapshot is kept" if Path(out_path).exists() else "no snapshot was written"
    message = f"building the {domain} knowledge base failed: {exc}; {kept}"
    if isinstance(exc, EndpointError):
        new: KnowledgeBaseError = type(exc)(exc.url, exc.status, exc.reason, retry_after_s=exc.retry_after_s)
        new.args = (message,)
        return new
    return type(exc)(message)


__all__ = [
    "DEFAULT_MIN_ITEMS",
    "DEFAULT_MIN_SHARE_OF_PREVIOUS",
    "DEFAULT_USER_AGENT",
    "PREFIXES",
    "VALUE_ROUNDS",
    "Backend",
    "BuildReport",
    "EmbeddedBackend",
    "RemoteBackend",
    "Row",
    "Term",
    "build_snapshot",
    "open_embedded",
    "parse_retry_after",
    "parse_sparql_json",
    "query_any_labels",
    "query_claims",
    "query_class_closure",
    "query_reverse_claims",
    "query_sitelinks",
    "query_texts",
    "query_typed",
    "query_typed_count",
    "store_stamp",
]
