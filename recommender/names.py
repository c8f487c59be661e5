"""Names that tell entities apart: the options of a "which one do you mean?" question.

Two candidates of one mention often look alike to a user ("Dune" and "The Dune", or two films both
labelled "Dune"), so every option carries what distinguishes it, read from the knowledge base:

1. the year of an item (``ItemDetails.year``, else the first year in its description or
   Wikipedia title: :func:`item_year`) and what the entity is: for an item, the domain's noun and its key
   person (movie: "film by Denis Villeneuve" from P57; book: "book by Frank Herbert" from P50;
   music: "by Nirvana" from P175, "band" or "artist" for an artist), else its first genre
   ("drama film", "book, science fiction", "reggaeton"); for a property
   value, its role names in the domain ("actor, producer"); the KB description instead when no key
   person is known and there is one;
2. for options whose names are still identical: the KB description (when not shown yet);
3. for options still identical after that: the QID, as a last resort.

Example (a KB with two films labelled "Dune", directed by Lynch and Villeneuve, no years)::

    distinct_labels(kb, ["Q190050", "Q101244"])
    # ['Dune (film by David Lynch)', 'Dune (film by Denis Villeneuve)']
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from typing import Any

from recommender.schema import role_name

MAX_LABEL_CHARS = 32
"""A label longer than this is cut (at a word boundary) so that the qualifiers stay visible."""
MAX_DESCRIPTION_CHARS = 40
"""Descriptions are cut to this length in an option."""
MAX_ROLES = 2
"""Role names shown for a property value ("actor, producer")."""

_ARTICLE = re.compile(r"^(the|a|an) ")
_KEY_PERSON = {"movie": ("P57", "film by {x}"), "book": ("P50", "book by {x}"), "music": ("P175", "by {x}")}
_ITEM_NOUN = {"movie": "film", "book": "book", "music": "music"}


def distinct_labels(kb: Any, qids: Sequence[str]) -> list[str]:
    """One display name per QID, each distinguishable from the others (see the module docstring).

    Args:
        kb: a knowledge base (``recommender.kb.KnowledgeBase`` API: ``label``, ``has``, ``is_item``,
            ``details``, ``item_values``, ``value_items``, ``roles``, ``domain``).
        qids: the options, in order (duplicates allowed; they get their QID).

    Returns:
        ``len(qids)`` names, e.g. ``"Dune (film by Denis Villeneuve)"``, ``"Tom Cruise (actor,
        producer)"``, ``"Dune (1984, film by David Lynch)"``; names that would still be identical end
        with the QID (``"Dune (film, Q123)"``). Never raises for unknown QIDs (their name is the QID).
    """
    labels = [_short(kb.label(q) if kb.has(q) else q, MAX_LABEL_CHARS) for q in qids]
    parts = [_qualifiers(kb, q) for q in qids]
    names = [_join(label, p) for label, p in zip(labels, parts, strict=True)]
    for i in _clashing(names):  # still identical: add the description if it is not shown yet
        description = _description(kb, qids[i])
        if description and description not in parts[i]:
            parts[i] = [*parts[i], description]
            names[i] = _join(labels[i], parts[i])
    for i in _clashing(names):  # last resort: the QID
        names[i] = _join(labels[i], [*parts[i], qids[i]])
    return names


_YEAR = re.compile(r"(?<![\d])(1[89]\d\d|20\d\d)(?![\d])")


def item_year(kb: Any, qid: str) -> int | None:
    """Year of an entity: ``kb.details(qid).year``, else the first year (1800-2099) in its
    description ("2012 superhero film ...") or its Wikipedia title ("The_Avengers_(2012_film)").

    The shared Wikidata subset has no publication dates (P577), so the description is what usually
    gives the year. Returns None when unknown, or when the KB has no ``details`` for the QID.
    """
    try:
        details = kb.details(qid)
    except Exception:  # noqa: BLE001 - details are optional for ranking and questions
        return None
    year = getattr(details, "year", None)
    if year:
        try:
            return int(year)
        except (TypeError, ValueError):
            return None
    for text in (getattr(details, "description", None) or kb.description(qid), getattr(details, "wikipedia", None)):
        match = _YEAR.search(text or "")
        if match:
            return int(match.group(1))
    return None


def _qualifiers(kb: Any, qid: str) -> list[str]:
    """Year and what the entity is (or its description), as short strings."""
    if not kb.has(qid):
        return []
    year = item_year(kb, qid) if kb.is_item(qid) else None
    out = [str(year)] if year else []
    what = _what(kb, qid)
    if what is None:
        description = _description(kb, qid)
        what = description or (_ITEM_NOUN.get(getattr(kb, "domain", ""), "") if kb.is_item(qid) else None)
    if what and not (year and what.startswith(str(year))):
        out.append(what)
    elif what:  # a description starting with the year ("2021 film by ..."): show it alone
        out = [what]
    return out


def _what(kb: Any, qid: str) -> str | None:
    """ "film by X" / "book by X" / "by X" / "band" / "artist" for an item, role names for a value."""
    domain = getattr(kb, "domain", "")
    if not kb.is_item(qid):
        roles = [role_name(p, domain) for p in kb.roles(qid)[:MAX_ROLES]]
        return ", ".join(roles) if roles else None
    pid, template = _KEY_PERSON.get(domain, (None, ""))
    people = [v for p, v in kb.item_values(qid) if p == pid and kb.has(v)]
    if people:
        return template.format(x=_short(kb.label(people[0]), MAX_LABEL_CHARS))
    if domain == "music":
        if any(p == "P463" for p, _ in kb.value_items(qid)):  # others are members of it
            return "band"
        if any(p == "P175" for p, _ in kb.value_items(qid)):  # it performs works
            return "artist"
    genres = [v for p, v in kb.item_values(qid) if p == "P136" and kb.has(v)]
    if genres:  # "drama film", "book, science fiction", "reggaeton"
        genre = _short(kb.label(genres[0]), MAX_LABEL_CHARS)
        return f"book, {genre}" if domain == "book" else genre
    return None


def _description(kb: Any, qid: str) -> str | None:
    if not kb.has(qid):
        return None
    description = getattr(kb.details(qid), "description", None) or kb.description(qid)
    return _short(" ".join(str(description).split()), MAX_DESCRIPTION_CHARS) if description else None


def _clashing(names: list[str]) -> list[int]:
    """Indexes of names that look the same as another option's: equal once case, accents,
    punctuation and a leading article are ignored ("Dune (film)" and "The Dune (film)")."""
    keys = [
        _ARTICLE.sub(
            "", "".join(c for c in unicodedata.normalize("NFKD", n.casefold()) if c.isalnum() or c == " ").strip()
        ).replace(" ", "")
        for n in names
    ]
    counts = Counter(keys)
    return [i for i, k in enumerate(keys) if counts[k] > 1]


def _join(label: str, parts: list[str]) -> str:
    return f"{label} ({', '.join(parts)})" if parts else label


def _short(text: str, limit: int) -> str:
    """``text`` cut at a word boundary to at most ``limit`` characters, with an ellipsis if cut."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:-")
    return (cut or text[: limit - 1]) + "…"


__all__ = ["MAX_DESCRIPTION_CHARS", "MAX_LABEL_CHARS", "MAX_ROLES", "distinct_labels"]
