"""Hand-made knowledge bases of the three domains for the issue-23 tests (constraints, kinds, cards).

Each :class:`SpecKB` follows the ``recommender.kb.KnowledgeBase`` API of docs/DESIGN.md over a small
spec: labels, kinds, descriptions, details and (subject, pid, value) claims. The items and people are
made up or taken from other titles than the issue's examples (the issue's own examples are not used
as test data). :func:`dialog_for` builds a real dialog manager over one of them with the keyword
stand-ins of ``tests/bot/dialog_fakes.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import networkx as nx

from nlu.textnorm import fold
from recommender.kb import ItemDetails

# -- movies: a director who also acts, a producer with a cameo, a comedy, a television series -------
MOVIE_LABELS = {
    "F1": "Paper Moons",  # by Ada Quill (director, screenwriter, actor)
    "F2": "Glass Harbour",  # by Ada Quill, a comedy film
    "F3": "Night Shift",  # by Ben Orr; Ada Quill acts in it
    "F4": "Cold Lantern",  # by Ben Orr, a comedy film
    "F5": "Salt Road",  # by Cy Dale
    "F6": "Blue Wire",  # by Cy Dale
    "F7": "Long Field",  # by Cy Dale, a comedy film
    "F8": "Quiet Engine",  # by Ben Orr
    "F9": "Harbour Lights",  # a television series typed film too (not an item in a real build)
    "P1": "Ada Quill",
    "P2": "Ben Orr",
    "P3": "Cy Dale",
    "P4": "Dee Marsh",  # a producer (description) with a cameo
    "P5": "Eli Fenn",  # a star
    "P6": "Fay Gould",  # a lesser-known actor
    "G1": "comedy film",
    "G2": "drama film",
    "G3": "film based on",  # a cut genre label
}
MOVIE_CLAIMS = [
    ("F1", "P57", "P1"),
    ("F1", "P58", "P1"),
    ("F1", "P161", "P1"),
    ("F1", "P161", "P6"),
    ("F1", "P161", "P5"),
    ("F1", "P161", "P4"),
    ("F1", "P162", "P4"),
    ("F1", "P136", "G2"),
    ("F1", "P136", "G3"),
    ("F2", "P57", "P1"),
    ("F2", "P136", "G1"),
    ("F2", "P161", "P5"),
    ("F3", "P57", "P2"),
    ("F3", "P161", "P1"),
    ("F3", "P161", "P4"),
    ("F3", "P136", "G2"),
    ("F4", "P57", "P2"),
    ("F4", "P136", "G1"),
    ("F4", "P161", "P5"),
    ("F5", "P57", "P3"),
    ("F5", "P136", "G2"),
    ("F5", "P161", "P6"),
    ("F6", "P57", "P3"),
    ("F6", "P136", "G2"),
    ("F6", "P161", "P5"),
    ("F7", "P57", "P3"),
    ("F7", "P136", "G1"),
    ("F8", "P57", "P2"),
    ("F8", "P136", "G2"),
    ("F8", "P161", "P6"),
    ("F9", "P57", "P2"),
    ("F9", "P136", "G2"),
]
MOVIE_DESCRIPTIONS = {
    "P4": "American film producer",
    "F9": "British crime television series by Ben Orr",
    "F1": "2004 drama film by Ada Quill",
}
MOVIE_DETAILS = {
    "F1": {"year": 2004, "trailer": "abcdefghijk", "image": "https://example.org/paper-moons.jpg"},
    "F2": {"year": 2007},
    "F3": {"year": 2011, "trailer": "bcdefghijkl"},
}
MOVIE_KINDS = {"P1": "person", "P2": "person", "P3": "person", "P4": "person", "P5": "person", "P6": "person"}
MOVIE_KINDS |= {"G1": "genre", "G2": "genre", "G3": "genre"}
MOVIE_POPULARITY = {"P5": 40.0, "P1": 30.0, "P6": 5.0, "P4": 3.0}

# -- books: an author of a disliked book, a liked series with its volumes -------------------------
BOOK_LABELS = {
    "B1": "The Clockmaker's Daughter",  # by Ida Penn
    "B2": "The Cipher Garden",  # by Ida Penn
    "B3": "Winter of Wolves",  # volume 1 of The Northern Crown
    "B4": "Spring of Ravens",  # volume 2 of The Northern Crown
    "B5": "Summer of Hawks",  # volume 3 of The Northern Crown
    "B6": "The Glass Atlas",  # by Jon Ware
    "B7": "Maps of Salt",  # by Jon Ware
    "B8": "The Orchard",  # by Kim Lowe
    "A1": "Ida Penn",
    "A2": "Jon Ware",
    "A3": "Kim Lowe",
    "A4": "Lea Hart",  # author of The Northern Crown
    "S1": "The Northern Crown",  # a series
    "G1": "mystery fiction",
    "G2": "fantasy",
}
BOOK_CLAIMS = [
    ("B1", "P50", "A1"),
    ("B1", "P136", "G1"),
    ("B2", "P50", "A1"),
    ("B2", "P136", "G1"),
    ("B3", "P50", "A4"),
    ("B3", "P179", "S1"),
    ("B3", "P136", "G2"),
    ("B4", "P50", "A4"),
    ("B4", "P179", "S1"),
    ("B4", "P136", "G2"),
    ("B5", "P50", "A4"),
    ("B5", "P179", "S1"),
    ("B5", "P136", "G2"),
    ("B6", "P50", "A2"),
    ("B6", "P136", "G1"),
    ("B7", "P50", "A2"),
    ("B7", "P136", "G2"),
    ("B8", "P50", "A3"),
    ("B8", "P136", "G1"),
]
BOOK_KINDS = {"A1": "person", "A2": "person", "A3": "person", "A4": "person", "S1": "series"}
BOOK_KINDS |= {"G1": "genre", "G2": "genre"}
BOOK_DETAILS = {"B6": {"year": 1999, "openlibrary_id": "OL123W"}, "B1": {"year": 2012}}

# -- music: a band with songs of its own and songs only on its albums -----------------------------
MUSIC_LABELS = {
    "S1": "Lantern Song",  # by The Tidewaters
    "S2": "Harbour Lights",  # on the album Low Tide (by The Tidewaters), no performer of its own
    "S3": "Undertow",  # on Low Tide
    "S4": "Paper Planes",  # by Mira Stone
    "S5": "Glasshouse",  # by Mira Stone
    "S6": "Northbound",  # no performer anywhere
    "S7": "Static",  # by Orla Finch
    "S8": "Static Hearts",  # by Orla Finch
    "L1": "Low Tide",  # album by The Tidewaters
    "R1": "The Tidewaters",
    "R2": "Mira Stone",
    "R3": "Orla Finch",
    "G1": "indie rock",
    "G2": "synth-pop",
}
MUSIC_CLAIMS = [
    ("S1", "P175", "R1"),
    ("S2", "P361", "L1"),
    ("S3", "P361", "L1"),
    ("L1", "P175", "R1"),
    ("S4", "P175", "R2"),
    ("S5", "P175", "R2"),
    ("S7", "P175", "R3"),
    ("S8", "P175", "R3"),
    ("R1", "P136", "G1"),
    ("R2", "P136", "G2"),
    ("R3", "P136", "G1"),
    ("S6", "P136", "G1"),
]
MUSIC_KINDS = {"S1": "song", "S2": "song", "S3": "song", "S4": "song", "S5": "song", "S6": "song", "S7": "song"}
MUSIC_KINDS |= {"S8": "song", "L1": "album", "R1": "band", "R2": "artist", "R3": "artist", "G1": "genre", "G2": "genre"}
MUSIC_DETAILS = {"S4": {"spotify_id": "4Z8W4fKeB5YxbusRsdQVPb", "spotify_kind": "track"}}


class SpecKB:
    """A knowledge base of one domain from a spec (docs/DESIGN.md ``KnowledgeBase`` API).

    Items are the subjects of claims that the spec types with an item kind (or, without kinds, the
    keys whose letter is in ``item_prefixes``).
    """

    def __init__(
        self,
        domain: str,
        labels: Mapping[str, str],
        claims: Iterable[tuple[str, str, str]],
        *,
        item_prefixes: str,
        kinds: Mapping[str, str] | None = None,
        descriptions: Mapping[str, str] | None = None,
        details: Mapping[str, Mapping[str, Any]] | None = None,
        popularity: Mapping[str, float] | None = None,
        classes: Mapping[str, tuple[str, ...]] | None = None,
        class_kinds: Mapping[str, str] | None = None,
    ) -> None:
        self.domain = domain
        self._labels = dict(labels)
        self._claims = list(claims)
        self._kinds = dict(kinds or {})
        self._descriptions = dict(descriptions or {})
        self._details = {q: dict(d) for q, d in (details or {}).items()}
        self._popularity = dict(popularity or {})
        self._classes = dict(classes or {})
        self._class_kinds = dict(class_kinds or {})
        self.items = frozenset(q for q in labels if q[0] in item_prefixes)

    def has(self, qid: str) -> bool:
        return qid in self._labels

    def is_item(self, qid: str) -> bool:
        return qid in self.items

    def label(self, qid: str) -> str:
        return self._labels.get(qid, qid)

    def has_label(self, qid: str) -> bool:
        return qid in self._labels

    def aliases(self, qid: str) -> tuple[str, ...]:
        return ()

    def names(self):
        return iter((label, qid) for qid, label in self._labels.items())

    def description(self, qid: str) -> str | None:
        return self._descriptions.get(qid)

    def kind(self, qid: str) -> str | None:
        return self._kinds.get(qid, {"movie": "film", "book": "book"}.get(self.domain) if qid in self.items else None)

    def classes(self, qid: str) -> tuple[str, ...]:
        return self._classes.get(qid, ())

    def class_kinds(self, qid: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self._class_kinds[c] for c in self.classes(qid) if c in self._class_kinds))

    def canonical(self, qid: str) -> str:
        return qid

    def item_values(self, item: str) -> tuple[tuple[str, str], ...]:
        return tuple((p, v) for s, p, v in self._claims if s == item)

    def value_items(self, value: str) -> tuple[tuple[str, str], ...]:
        return tuple((p, s) for s, p, v in self._claims if v == value)

    def roles(self, qid: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p for _s, p, v in self._claims if v == qid))

    def popularity(self, qid: str) -> float:
        return self._popularity.get(qid, float(len(self.item_values(qid)) + len(self.value_items(qid))))

    def details(self, qid: str) -> ItemDetails:
        d = self._details.get(qid, {})
        return ItemDetails(
            qid=qid,
            label=self.label(qid),
            description=self.description(qid),
            year=d.get("year"),
            image=d.get("image"),
            trailer=d.get("trailer"),
            spotify_id=d.get("spotify_id"),
            spotify_kind=d.get("spotify_kind"),
            lastfm_id=d.get("lastfm_id"),
            openlibrary_id=d.get("openlibrary_id"),
            goodreads_id=d.get("goodreads_id"),
        )

    def graph(self) -> nx.Graph:
        graph = nx.Graph()
        graph.add_nodes_from(self._labels)
        for s, p, v in self._claims:
            if graph.has_edge(s, v):
                graph[s][v]["pids"] = graph[s][v]["pids"] + (p,)
            else:
                graph.add_edge(s, v, pids=(p,))
        return graph


def movie_kb(**overrides: Any) -> SpecKB:
    """The movie spec (``F9`` a television series; ``overrides`` replace constructor arguments)."""
    options: dict[str, Any] = {
        "item_prefixes": "F",
        "kinds": MOVIE_KINDS,
        "descriptions": MOVIE_DESCRIPTIONS,
        "details": MOVIE_DETAILS,
        "popularity": MOVIE_POPULARITY,
        "classes": {"F9": ("Q11424", "Q5398426"), "F1": ("Q11424",)},
        "class_kinds": {"Q11424": "film", "Q5398426": "broadcast"},
    }
    options.update(overrides)
    return SpecKB("movie", MOVIE_LABELS, MOVIE_CLAIMS, **options)


def book_kb() -> SpecKB:
    return SpecKB("book", BOOK_LABELS, BOOK_CLAIMS, item_prefixes="B", kinds=BOOK_KINDS, details=BOOK_DETAILS)


def music_kb() -> SpecKB:
    return SpecKB("music", MUSIC_LABELS, MUSIC_CLAIMS, item_prefixes="SL", kinds=MUSIC_KINDS, details=MUSIC_DETAILS)


class SpecLinker:
    """Exact, case-insensitive label matching (longest first); "it" refers to the card on screen."""

    def __init__(self, kb: SpecKB) -> None:
        self.kb = kb

    def link(self, text: str, *, focus: str | None = None, history: Any = ()) -> tuple[Any, ...]:
        from tests.bot.dialog_fakes import FakeCandidate, FakeMention

        mentions: list[Any] = []
        folded = fold(text)
        by_label: dict[str, list[str]] = {}
        for qid, label in self.kb._labels.items():
            by_label.setdefault(fold(label), []).append(qid)
        for label, qids in sorted(by_label.items(), key=lambda kv: -len(kv[0])):
            match = re.search(rf"\b{re.escape(label)}\b", folded)
            if match and not any(m.start <= match.start() < m.end for m in mentions):
                cands = tuple(
                    FakeCandidate(q, self.kb.label(q), 1.0, self.kb.is_item(q), self.kb.roles(q), None) for q in qids
                )
                mentions.append(
                    FakeMention(text[match.start() : match.end()], match.start(), match.end(), cands, len(cands) > 1)
                )
        if focus and not mentions:
            match = re.search(r"\b(it|this one)\b", folded)
            if match:
                cand = FakeCandidate(focus, self.kb.label(focus), 1.0, True, (), None)
                mentions.append(FakeMention(match.group(0), match.start(), match.end(), (cand,), False))
        return tuple(sorted(mentions, key=lambda m: m.start))


def dialog_for(kb: SpecKB, db: Path, **config: Any) -> Any:
    """A real dialog manager over ``kb`` (real recommender, keyword NLU stand-ins), logging to ``db``;
    a conversation starts in the movie domain (``/book``, ``/music`` switch to the KB's)."""
    from bot.dialog import DialogManager
    from bot.services import DomainServices, Services
    from bot.store import StateStore
    from logs.store import LogStore
    from recommender.recommend import Recommender
    from tests.bot.dialog_fakes import FakeIntents, FakeSentiment

    domain = DomainServices(kb=kb, linker=SpecLinker(kb), recommender=Recommender(kb))  # type: ignore[arg-type]
    services = Services(FakeIntents(), FakeSentiment(), lambda name: domain)
    clock = iter(range(1_000_000, 10_000_000, 7))
    return DialogManager(
        services, StateStore(db), LogStore(db), session="test", clock=lambda: float(next(clock)), **config
    )
