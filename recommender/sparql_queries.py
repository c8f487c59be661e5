"""The SPARQL the knowledge-base build sends, written for Wikidata's vocabulary.

``wdt:`` direct claims; ``rdfs:label``, ``skos:altLabel`` and ``schema:description`` read directly (no
``SERVICE wikibase:label``, which Oxigraph lacks), so the embedded store and a remote endpoint answer the
same text. Each ``query_*`` function returns one query; entities are passed as ``VALUES`` lists
(``recommender.sparql_extract`` batches them). Imports nothing of the project.

Example:
    >>> "VALUES ?e { wd:Q83495 }" in query_claims(["Q83495"], ["P57"])
    True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

PREFIXES = """PREFIX wd: <http://www.wikidata.org/entity/>
PREFIX wdt: <http://www.wikidata.org/prop/direct/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX schema: <http://schema.org/>
"""
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SKOS_ALT = "http://www.w3.org/2004/02/skos/core#altLabel"
SCHEMA_DESC = "http://schema.org/description"
ENWIKI = "https://en.wikipedia.org/"


def _values(var: str, qids: Iterable[str]) -> str:
    return f"VALUES ?{var} {{ " + " ".join(f"wd:{q}" for q in qids) + " }"


def query_class_closure(roots: Sequence[str]) -> str:
    """Classes in the ``wdt:P279*`` closure of ``roots`` (roots included)."""
    return PREFIXES + f"SELECT DISTINCT ?class WHERE {{ {_values('root', roots)} ?class wdt:P279* ?root . }}"


_HAS_LABEL = "FILTER EXISTS { ?item rdfs:label ?anyLabel }"


def query_typed(classes: Sequence[str], pid: str, *, limit: int, offset: int) -> str:
    """One page of labeled entities (any language) with ``wdt:<pid>`` (P31 or P106) in ``classes``."""
    return PREFIXES + (
        f"SELECT DISTINCT ?item WHERE {{ {_values('class', classes)} ?item wdt:{pid} ?class . {_HAS_LABEL} }} "
        f"LIMIT {limit} OFFSET {offset}"
    )


def query_typed_count(classes: Sequence[str], pid: str, *, labeled: bool = True) -> str:
    """Number of (labeled) entities with ``wdt:<pid>`` in ``classes`` (checks the paging)."""
    having = _HAS_LABEL if labeled else ""
    return (
        PREFIXES
        + f"SELECT (COUNT(DISTINCT ?item) AS ?n) WHERE {{ {_values('class', classes)} ?item wdt:{pid} ?class . {having} }}"
    )


def query_texts(qids: Sequence[str]) -> str:
    """English/``mul`` labels, aliases and descriptions of ``qids``."""
    return PREFIXES + (
        f"SELECT ?e ?p ?text WHERE {{ {_values('e', qids)} ?e ?p ?text . "
        "FILTER(?p IN (rdfs:label, skos:altLabel, schema:description)) "
        'FILTER(LANG(?text) IN ("en", "mul")) }'
    )


def query_any_labels(qids: Sequence[str]) -> str:
    """Labels of ``qids`` in any language (for entities with no en/mul label)."""
    return PREFIXES + f"SELECT ?e ?label WHERE {{ {_values('e', qids)} ?e rdfs:label ?label . }}"


def query_sitelinks(qids: Sequence[str]) -> str:
    """English Wikipedia article of each of ``qids``; ``?article`` is unbound when there is none."""
    return PREFIXES + (
        f"SELECT ?e ?article WHERE {{ {_values('e', qids)} "
        f"OPTIONAL {{ ?article schema:about ?e ; schema:isPartOf <{ENWIKI}> . }} }}"
    )


def query_claims(qids: Sequence[str], pids: Sequence[str]) -> str:
    """Direct claims of ``qids`` for the properties ``pids``."""
    plist = ", ".join(f"wdt:{p}" for p in pids)
    return PREFIXES + f"SELECT ?e ?p ?value WHERE {{ {_values('e', qids)} ?e ?p ?value . FILTER(?p IN ({plist})) }}"


def query_reverse_claims(qids: Sequence[str], pids: Sequence[str]) -> str:
    """Direct claims ``?e pid q`` whose *value* is one of ``qids`` (a band's members: ``?e wdt:P463 band``)."""
    plist = ", ".join(f"wdt:{p}" for p in pids)
    return PREFIXES + f"SELECT ?e ?p ?value WHERE {{ {_values('value', qids)} ?e ?p ?value . FILTER(?p IN ({plist})) }}"
