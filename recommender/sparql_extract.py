"""The extraction steps of a knowledge-base build: :class:`Extractor` and the class/kind rules it reads.

An :class:`Extractor` is one domain's run over a :class:`~recommender.sparql_client.Backend`: it sends
the queries of ``recommender.sparql_queries`` in pages and ``VALUES`` batches (a batch whose answer is
truncated or timed out is retried split in halves, F17), counts them, and gathers the facts into a
:class:`~recommender.kbsnapshot.SnapshotData` (names, sitelinks, claims, details, the types that tell an
entity's kind). :func:`item_classes` and :func:`kind_rules` read the schema's class closures;
``recommender.sparql.build_snapshot`` chains the steps and writes the snapshot.

Example:
    >>> ex = Extractor(backend, get_domain("movie"), progress=False)   # doctest: +SKIP
    >>> len(ex.closure(["Q11424"]))                                      # doctest: +SKIP
    312
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Container, Sequence
from typing import Any

from recommender.errors import EndpointTimeoutError, KnowledgeBaseError, TruncatedResultError
from recommender.kbsnapshot import SnapshotData
from recommender.kinds import KindRules, TypeSets
from recommender.schema import WDT, DomainSchema
from recommender.sparql_client import Backend, Row, Term
from recommender.sparql_queries import (
    RDFS_LABEL,
    SCHEMA_DESC,
    SKOS_ALT,
    query_any_labels,
    query_claims,
    query_class_closure,
    query_reverse_claims,
    query_sitelinks,
    query_texts,
    query_typed,
    query_typed_count,
)

logger = logging.getLogger(__name__)

_QID_IRI = re.compile(r"^http://www\.wikidata\.org/entity/(Q\d+)$")
_YEAR = re.compile(r"^\s*([+-]?\d{1,6})-")
TYPE_PIDS = ("P31", "P106")
"""Properties read to tell an entity's kind (instance of, occupation)."""


def _qid(term: Term | None) -> str | None:
    if term is None or term.kind != "uri":
        return None
    m = _QID_IRI.match(term.value)
    return m.group(1) if m else None


def _pid(term: Term | None) -> str | None:
    if term is None or term.kind != "uri" or not term.value.startswith(WDT):
        return None
    return term.value[len(WDT) :]


def _year(value: str) -> int | None:
    m = _YEAR.match(value)
    return int(m.group(1)) if m else None


class Extractor:
    """One domain's extraction run (state shared by the steps of :func:`build_snapshot`)."""

    def __init__(self, backend: Backend, schema: DomainSchema, *, progress: bool):
        self.backend = backend
        self.schema = schema
        self.progress = progress
        self.queries = 0
        self.unlabeled = 0
        self.data = SnapshotData(domain=schema.name, source=backend.description)
        self._detail_by_pid: dict[str, list[tuple[int, str, str]]] = {}
        for rank, f in enumerate(schema.details):
            self._detail_by_pid.setdefault(f.pid, []).append((rank, f.name, f.kind))
        self._detail_rank: dict[tuple[str, str], int] = {}
        self._labels_any: dict[str, list[tuple[str, str]]] = {}
        self.types: dict[str, tuple[dict[str, None], dict[str, None]]] = {}  # qid -> (P31 set, P106 set)

    def select(self, query: str) -> list[Row]:
        self.queries += 1
        return self.backend.select(query)

    def _bar(self, total: int, desc: str) -> Any:
        from tqdm import tqdm

        return tqdm(
            total=total,
            desc=f"{self.schema.name}: {desc}",
            unit="ent",
            disable=not self.progress,
            leave=False,
            mininterval=0.5,
        )

    def batched(
        self,
        qids: Sequence[str],
        make_query: Callable[[Sequence[str]], str],
        handle: Callable[[list[Row]], None],
        desc: str,
    ) -> None:
        """Run ``make_query`` over batches of ``qids``, splitting a batch that times out / truncates."""
        size = max(1, self.backend.batch_size)
        with self._bar(len(qids), desc) as bar:
            for start in range(0, len(qids), size):
                batch = qids[start : start + size]
                handle(self._select_split(batch, make_query, depth=0))
                bar.update(len(batch))

    def _select_split(self, batch: Sequence[str], make_query: Callable[[Sequence[str]], str], depth: int) -> list[Row]:
        try:
            return self.select(make_query(batch))
        except (TruncatedResultError, EndpointTimeoutError) as exc:
            if len(batch) <= 1 or depth >= 1:
                raise
            logger.warning("%s; retrying as two smaller queries of %d entities", exc, len(batch) // 2)
            half = len(batch) // 2
            return self._select_split(batch[:half], make_query, depth + 1) + self._select_split(
                batch[half:], make_query, depth + 1
            )

    # -- steps --

    def closure(self, roots: Sequence[str]) -> set[str]:
        if not roots:
            return set()
        return {q for r in self.select(query_class_closure(roots)) if (q := _qid(r.get("class")))}

    def count(self, query: str) -> int:
        rows = self.select(query)
        term = rows[0].get("n") if rows else None
        try:
            return int(term.value) if term is not None else -1
        except ValueError:
            return -1

    def typed(self, classes: Sequence[str], pid: str, *, count_unlabeled: bool = False) -> set[str]:
        """Labeled entities typed with ``pid`` in ``classes``, paged, checked against a COUNT."""
        if not classes:
            return set()
        found: set[str] = set()
        seen: set[str] = set()  # every subject IRI paged (the COUNT also counts non-Q subjects)
        page = max(1, self.backend.page_size)
        offset = 0
        with self._bar(0, f"{pid} items") as bar:
            while True:
                try:
                    rows = self.select(query_typed(classes, pid, limit=page, offset=offset))
                except (TruncatedResultError, EndpointTimeoutError) as exc:
                    if page <= 1000:
                        raise
                    page //= 2
                    logger.warning("%s; retrying with pages of %d", exc, page)
                    continue
                for r in rows:
                    term = r.get("item")
                    if term is not None:
                        seen.add(term.value)
                        if (q := _qid(term)) is not None:
                            found.add(q)
                bar.update(len(rows))
                if len(rows) < page:
                    break
                offset += page
        expected = self.count(query_typed_count(classes, pid))
        if expected < 0:
            raise KnowledgeBaseError(f"{self.schema.name}: the endpoint gave no usable COUNT for the {pid} items")
        if expected != len(seen):
            raise KnowledgeBaseError(
                f"{self.schema.name}: paging returned {len(seen)} distinct entities typed with {pid} but the "
                f"endpoint counts {expected}; a page was lost or reordered, refusing to build from a partial result"
            )
        if count_unlabeled:
            self.unlabeled += max(0, self.count(query_typed_count(classes, pid, labeled=False)) - expected)
        return found

    def texts(self, qids: Sequence[str]) -> None:
        data = self.data
        labels: dict[str, tuple[str, str]] = {}
        descs: dict[str, tuple[int, str]] = {}

        def handle(rows: list[Row]) -> None:
            for r in rows:
                e, p, t = _qid(r.get("e")), r.get("p"), r.get("text")
                if e is None or p is None or t is None:
                    continue
                lang = t.lang or ""
                if p.value == RDFS_LABEL:
                    old = labels.get(e)
                    # en > mul; among equals the smallest text (deterministic whatever the row order)
                    if old is None or (lang != old[1] and lang == "en") or (lang == old[1] and t.value < old[0]):
                        labels[e] = (t.value, lang)
                elif p.value == SKOS_ALT:
                    data.aliases.setdefault(e, set()).add(t.value)
                elif p.value == SCHEMA_DESC:
                    cand = (0 if lang == "en" else 1, t.value)
                    if e not in descs or cand < descs[e]:
                        descs[e] = cand

        self.batched(qids, query_texts, handle, "names")
        data.descriptions.update({q: text for q, (_, text) in descs.items()})
        missing = [q for q in qids if q not in labels]
        if missing:

            def handle_any(rows: list[Row]) -> None:
                for r in rows:
                    e, t = _qid(r.get("e")), r.get("label")
                    if e is None or t is None:
                        continue
                    cand = (t.value, t.lang or "")
                    old = labels.get(e)
                    if old is None or (cand[1], cand[0]) < (old[1], old[0]):
                        labels[e] = cand

            self.batched(missing, query_any_labels, handle_any, "labels (any language)")
        data.labels.update(labels)
        for q, aliases in list(data.aliases.items()):
            lab = data.labels.get(q)
            if lab is not None:
                aliases.discard(lab[0])

    def sitelinks(self, qids: Sequence[str]) -> None:
        def handle(rows: list[Row]) -> None:
            for r in rows:
                e, art = _qid(r.get("e")), r.get("article")
                if e is None or art is None or art.kind != "uri":
                    continue
                old = self.data.sitelinks.get(e)
                if old is None or art.value < old:
                    self.data.sitelinks[e] = art.value

        self.batched(qids, query_sitelinks, handle, "sitelinks")

    def claims(self, items: Sequence[str]) -> None:
        """Item claims: edges of the properties read from items, details, and types (P31/P106)."""
        edge_pids = set(self.schema.item_edge_pids)
        pids = list(self.schema.item_edge_pids) + [p for p in self._detail_by_pid if p not in edge_pids]
        pids += [p for p in TYPE_PIDS if p not in pids]

        handle = self._claim_rows(edge_pids, self.data.edges)
        self.batched(items, lambda b: query_claims(b, pids), handle, "claims")

    def _claim_rows(self, edge_pids: Container[str], edges: set[tuple[str, str, str]]) -> Callable[[list[Row]], None]:
        """The handler of claim rows ``(e, p, value)``: a type (P31/P106) is noted, a claim of ``edge_pids``
        with an entity value goes to ``edges``, and a detail property fills the entity's detail field."""

        def handle(rows: list[Row]) -> None:
            for r in rows:
                e, p, v = _qid(r.get("e")), _pid(r.get("p")), r.get("value")
                if e is None or p is None or v is None:
                    continue
                if p in TYPE_PIDS:
                    self._type(e, p, v)
                    continue
                if p in edge_pids and (value := _qid(v)) is not None:
                    edges.add((e, p, value))
                for rank, name, kind in self._detail_by_pid.get(p, ()):
                    self._detail(e, rank, name, kind, v)

        return handle

    def _type(self, qid: str, pid: str, term: Term) -> None:
        value = _qid(term)
        if value is not None:
            self.types.setdefault(qid, ({}, {}))[0 if pid == "P31" else 1][value] = None

    def value_claims(
        self, qids: Sequence[str], pids: Sequence[str], *, reverse: bool = False
    ) -> set[tuple[str, str, str]]:
        """Types, detail fields and claims of ``pids`` of ``qids`` (``reverse``: claims ``?x pid q`` of
        ``pids`` instead, nothing else)."""
        found: set[tuple[str, str, str]] = set()
        wanted = set(pids)
        if reverse:

            def handle_reverse(rows: list[Row]) -> None:
                for r in rows:
                    e, p, v = _qid(r.get("e")), _pid(r.get("p")), _qid(r.get("value"))
                    if e is not None and p in wanted and v is not None:
                        found.add((e, p, v))

            self.batched(qids, lambda b: query_reverse_claims(b, list(pids)), handle_reverse, "value claims (reverse)")
            return found
        all_pids = list(dict.fromkeys([*TYPE_PIDS, *pids, *self._detail_by_pid]))
        handle = self._claim_rows(wanted, found)
        self.batched(qids, lambda b: query_claims(b, all_pids), handle, "types and value claims")
        return found

    def type_sets(self, qid: str) -> TypeSets | None:
        got = self.types.get(qid)
        return None if got is None else TypeSets(frozenset(got[0]), frozenset(got[1]))

    def _detail(self, qid: str, rank: int, name: str, kind: str, term: Term) -> None:
        if kind == "date":
            value: Any = _year(term.value)
        elif kind == "url":
            value = term.value if term.kind == "uri" else None
        else:
            value = term.value if term.kind == "literal" else None
        if value is None:
            return
        details = self.data.details.setdefault(qid, {})
        key = (qid, name)
        old_rank = self._detail_rank.get(key)
        old = details.get(name)
        if old_rank is None or rank < old_rank or (rank == old_rank and value < old):
            details[name] = value
            self._detail_rank[key] = rank


def item_classes(ex: Extractor, roots: Sequence[str], excluded: set[str]) -> set[str]:
    """The classes whose instances are items: ``roots``, their subclasses not under another
    domain's roots (``excluded``, a closure), and every subclass of a root that is itself under
    another domain's roots (the dump makes ``song`` a ``literary work``: music keeps song's
    subclasses, book drops them)."""
    own = set(roots)
    inside = own & excluded
    return own | (ex.closure(sorted(own)) - excluded) | ex.closure(sorted(inside))


def kind_rules(ex: Extractor, schema: DomainSchema, excluded: set[str]) -> KindRules:
    """The domain's :class:`~recommender.kinds.KindRules` with class closures from the backend (item
    kinds use the item-class closure minus another domain's classes, as the candidates do)."""
    classes: dict[str, set[str]] = {}
    occupations: dict[str, set[str]] = {}
    for kind in schema.kinds:
        if kind.classes:
            classes[kind.name] = (
                item_classes(ex, kind.classes, excluded) if kind.item else ex.closure(sorted(kind.classes))
            )
        if kind.occupations:
            occupations[kind.name] = ex.closure(sorted(kind.occupations))
    return KindRules(schema, classes, occupations)
