"""Names that tell entities apart: the options of a "which one do you mean?" question.

Two candidates of one mention often look alike to a user ("Dune" and "The Dune", or two films both
labelled "Dune"), so every option carries what distinguishes it, read from the knowledge base:

1. the year of an item (``ItemDetails.year``, else the first year in its description or
   Wikipedia title: :func:`item_year`) and what the entity is: for an item, its kind's noun and its key
   person (movie: "film by Denis Villeneuve" from P57; book: "book by Frank Herbert" from P50;
   music: "song by Nirvana" / "album by Nirvana" from P175, "band" or "artist" for an artist), else
   for a song its album ("song from Hybrid Theory", P361), else its first genre ("drama film", "book,
   science fiction", "reggaeton"); for a property value, its role names in the domain ("actor,
   producer"); the KB description instead when no key person is known and there is one;
2. for options still not told apart (the same name, or the same label with one's qualifiers a
   subset of the other's: "Pink (artist)" / "Pink (lyricist, artist)"): the KB description (when not
   shown yet);
3. for options still not told apart after that: "1 of 2", "2 of 2" (the KB knows nothing that tells
   them apart; a question should offer only one of them: :func:`distinguishable`).

Values without a label are never used as qualifiers, and a QID is never part of a name.

Example (a KB with two films labelled "Dune", directed by Lynch and Villeneuve, no years)::

    distinct_labels(kb, ["Q190050", "Q101244"])
    # ['Dune (film by David Lynch)', 'Dune (film by Denis Villeneuve)']
"""

from __future__ import annotations

import re
import unicodedata
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
_KIND_NOUN = {"film": "film", "book": "book", "song": "song", "album": "album"}
"""Item kinds (``KnowledgeBase.kind``) named in an option ("song", "album" rather than "music")."""


def distinct_labels(kb: Any, qids: Sequence[str]) -> list[str]:
    """One display name per QID, each distinguishable from the others (see the module docstring).

    Args:
        kb: a knowledge base (``recommender.kb.KnowledgeBase`` API: ``label``, ``has``, ``is_item``,
            ``details``, ``item_values``, ``value_items``, ``roles``, ``domain``).
        qids: the options, in order (duplicates allowed; they get their QID).

    Returns:
        ``len(qids)`` names, e.g. ``"Dune (film by Denis Villeneuve)"``, ``"Tom Cruise (actor,
        producer)"``, ``"Dune (1984, film by David Lynch)"``; names that would still look the same
        end with "k of n" (``"Dune (film, 2 of 2)"``). Never raises for unknown QIDs (their name is
        the QID, the only name they have: callers show only labelled entities).
    """
    labels, parts, names = _names(kb, qids)
    clash = _clashing(labels, parts)
    groups: dict[str, list[int]] = {}
    for i in clash:  # last resort: which one of the look-alikes
        groups.setdefault(_key(labels[i]), []).append(i)
    for members in groups.values():
        for k, i in enumerate(members, 1):
            names[i] = _join(labels[i], [*parts[i], f"{k} of {len(members)}"])
    return names


def distinguishable(kb: Any, qids: Sequence[str]) -> list[str]:
    """``qids`` (best first) without those a user could not tell from an earlier one: the same
    label and nothing in their option names (:func:`distinct_labels` steps 1-2) that sets them apart.

    The options of a "which one?" question (``bot/dialog/preferences.py``): offering two entries that
    read the same ("The Stand (book)" twice, when the KB knows nothing else of either) only makes
    the user guess.
    """
    labels, parts, _names_ = _names(kb, qids)
    kept: list[int] = []
    for i, q in enumerate(qids):
        if q in (qids[j] for j in kept):
            continue
        if any(_not_told_apart(labels[i], parts[i], labels[j], parts[j]) for j in kept):
            continue
        kept.append(i)
    return [qids[i] for i in kept]


def _names(kb: Any, qids: Sequence[str]) -> tuple[list[str], list[list[str]], list[str]]:
    """Labels, qualifiers and names after steps 1 and 2 of the module docstring."""
    labels = _short_apart([kb.label(q) if kb.has(q) else q for q in qids], MAX_LABEL_CHARS)
    parts = [_qualifiers(kb, q) for q in qids]
    for i in _clashing(labels, parts):  # not told apart: add the description if it is not shown yet
        description = _description(kb, qids[i])
        if description and description not in parts[i]:
            parts[i] = [*parts[i], description]
    names = [_join(label, p) for label, p in zip(labels, parts, strict=True)]
    return labels, parts, names


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


_DANGLING = re.compile(r"\b(?:on|of|by|in|with|from|for|to|about|the|a|an|and|or|based)$", re.IGNORECASE)
_DESCRIBED_ROLES: tuple[tuple[str, str], ...] = (
    ("P162", r"producer"),
    ("P57", r"director|filmmaker"),
    ("P58", r"screenwriter|scriptwriter"),
    ("P86", r"composer"),
    ("P344", r"cinematographer"),
    ("P1040", r"film editor"),
    ("P161", r"actor|actress"),
)
"""Role nouns of person descriptions ("American film producer"), most specific first."""


def unfinished_name(label: str) -> bool:
    """True for a label cut before its end ("film based on"): never shown as a genre or reason."""
    return bool(_DANGLING.search(label.strip()))


def known_role(kb: Any, person: str, pids: Sequence[str]) -> str | None:
    """Among ``pids`` (the properties linking ``person`` to one item), the role the person is known
    for: the first whose noun their KB description names ("American film producer": producer, so a
    producer's cameo is not "it stars him"); None when the description names none of them."""
    description = (kb.description(person) if callable(getattr(kb, "description", None)) else None) or ""
    text = description.lower()
    for pid, pattern in _DESCRIBED_ROLES:
        if pid in pids and re.search(rf"\b(?:{pattern})\b", text):
            return pid
    return None


def _qualifiers(kb: Any, qid: str) -> list[str]:
    """Year and what the entity is (or its description), as short strings."""
    if not kb.has(qid):
        return []
    year = item_year(kb, qid) if kb.is_item(qid) else None
    out = [str(year)] if year else []
    what = _what(kb, qid)
    if what is None or (what == _kind_noun(kb, qid)):  # nothing but its kind: the description says more
        description = _description(kb, qid)
        what = description or what or (_ITEM_NOUN.get(getattr(kb, "domain", ""), "") if kb.is_item(qid) else None)
    if what and not (year and what.startswith(str(year))):
        out.append(what)
    elif what:  # a description starting with the year ("2021 film by ..."): show it alone
        out = [what]
    return out


def _named(kb: Any, qid: str) -> bool:
    """``qid`` is known and has a label (an unlabelled value is never shown, not even as a qualifier)."""
    if not kb.has(qid):
        return False
    has_label = getattr(kb, "has_label", None)
    return bool(has_label(qid)) if has_label is not None else kb.label(qid) != qid


def _kind_noun(kb: Any, qid: str) -> str | None:
    kind = getattr(kb, "kind", None)
    return _KIND_NOUN.get(kind(qid) or "") if callable(kind) else None


def _what(kb: Any, qid: str) -> str | None:
    """ "film by X" / "book by X" / "song by X" / "band" / "artist" for an item, role names for a value."""
    domain = getattr(kb, "domain", "")
    if not kb.is_item(qid):
        roles = [role_name(p, domain) for p in kb.roles(qid)[:MAX_ROLES]]
        return ", ".join(roles) if roles else None
    noun = _kind_noun(kb, qid)
    pid, template = _KEY_PERSON.get(domain, (None, ""))
    people = [v for p, v in kb.item_values(qid) if p == pid and _named(kb, v)]
    if people:
        name = template.format(x=_short(kb.label(people[0]), MAX_LABEL_CHARS))
        return f"{noun} {name}" if domain == "music" and noun else name
    if domain == "music":
        if any(p == "P463" for p, _ in kb.value_items(qid)):  # others are members of it
            return "band"
        if any(p == "P175" for p, _ in kb.value_items(qid)):  # it performs works
            return "artist"
        albums = [v for p, v in kb.item_values(qid) if p == "P361" and _named(kb, v)]
        if albums:  # "song from Hybrid Theory"
            return f"{noun or 'song'} from {_short(kb.label(albums[0]), MAX_LABEL_CHARS)}"
    genres = [v for p, v in kb.item_values(qid) if p == "P136" and _named(kb, v)]
    if genres:  # "drama film", "book, science fiction", "reggaeton"
        genre = _short(kb.label(genres[0]), MAX_LABEL_CHARS)
        if domain == "book":
            return f"book, {genre}"
        return f"{noun}, {genre}" if domain == "music" and noun else genre
    return noun


def _description(kb: Any, qid: str) -> str | None:
    if not kb.has(qid):
        return None
    description = getattr(kb.details(qid), "description", None) or kb.description(qid)
    return _short(" ".join(str(description).split()), MAX_DESCRIPTION_CHARS) if description else None


def _key(text: str) -> str:
    """``text`` as it looks to a user: case, accents, punctuation and a leading article ignored."""
    return _ARTICLE.sub(
        "", "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if c.isalnum() or c == " ").strip()
    ).replace(" ", "")


def _not_told_apart(label_a: str, parts_a: list[str], label_b: str, parts_b: list[str]) -> bool:
    """Two options a user cannot tell apart: labels that look the same and the qualifiers of one a
    subset of the other's ("Dune (film)" / "The Dune (film)"; "Pink (artist)" / "Pink (lyricist,
    artist)")."""
    if _key(label_a) != _key(label_b):
        return False
    a = {_key(w) for p in parts_a for w in p.split(", ")}
    b = {_key(w) for p in parts_b for w in p.split(", ")}
    return a <= b or b <= a


def _clashing(labels: list[str], parts: list[list[str]]) -> list[int]:
    """Indexes of options not told apart from another option (:func:`_not_told_apart`)."""
    n = len(labels)
    return [
        i
        for i in range(n)
        if any(j != i and _not_told_apart(labels[i], parts[i], labels[j], parts[j]) for j in range(n))
    ]


def _join(label: str, parts: list[str]) -> str:
    return f"{label} ({', '.join(parts)})" if parts else label


def _short_apart(labels: Sequence[str], limit: int) -> list[str]:
    """The labels cut to ``limit`` characters (:func:`_short`) so that they stay apart: long labels opening with the
    same words lose those words, not their ends ("Harry Potter and the Chamber of Secrets", "Harry Potter and the
    Prisoner of Azkaban" -> "…Chamber of Secrets", "…Prisoner of Azkaban"; fresh tester, fault 17: the options of
    "Which harry potter?" all read "Harry Potter and the…")."""
    long_words = [label.split() for label in labels if len(label) > limit]
    shared = 0
    if len(long_words) >= 2:
        for column in zip(*long_words, strict=False):
            if any(word.casefold() != column[0].casefold() for word in column):
                break
            shared += 1
    out = []
    for label in labels:
        words = label.split()
        if len(label) > limit and shared >= 2 and len(words) > shared:
            label = "…" + " ".join(words[shared:])
        out.append(_short(label, limit))
    return out


def _short(text: str, limit: int) -> str:
    """``text`` cut at a word boundary to at most ``limit`` characters, with an ellipsis if cut."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:-")
    return (cut or text[: limit - 1]) + "…"


__all__ = [
    "MAX_DESCRIPTION_CHARS",
    "MAX_LABEL_CHARS",
    "MAX_ROLES",
    "distinct_labels",
    "distinguishable",
    "item_year",
    "known_role",
    "unfinished_name",
]
