"""A tiny fake knowledge base (DESIGN.md ``KnowledgeBase`` API) for the recommender tests.

Hand-made movie domain: 10 films, a few people and genres. The real snapshot is never needed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import networkx as nx

LABELS = {
    # films
    "Q25188": "Inception",
    "Q13417189": "Interstellar",
    "Q163872": "The Dark Knight",
    "Q24053263": "Dunkirk",
    "Q1536155": "Mad Max: Fury Road",
    "Q11010": "Braveheart",
    "Q223596": "Lethal Weapon",
    "Q44578": "Titanic",
    "Q171048": "Toy Story",
    "Q999001": "Lonely Film",
    # values
    "Q25191": "Christopher Nolan",
    "Q42229": "Mel Gibson",
    "Q208026": "Tom Hardy",
    "Q38111": "Leonardo DiCaprio",
    "Q471839": "science fiction",
    "Q188473": "action film",
    "Q130232": "drama film",
    "Q202866": "animated film",
    "Q3772": "James Cameron",
    "Q299482": "Michael Caine",
    "Q999002": "Nobody Special",
}
EDGES = [
    ("Q25188", "P57", "Q25191"),
    ("Q25188", "P161", "Q38111"),
    ("Q25188", "P161", "Q208026"),
    ("Q25188", "P161", "Q299482"),
    ("Q25188", "P136", "Q471839"),
    ("Q25188", "P136", "Q188473"),
    ("Q13417189", "P57", "Q25191"),
    ("Q13417189", "P161", "Q299482"),
    ("Q13417189", "P136", "Q471839"),
    ("Q13417189", "P136", "Q130232"),
    ("Q163872", "P57", "Q25191"),
    ("Q163872", "P161", "Q299482"),
    ("Q163872", "P136", "Q188473"),
    ("Q24053263", "P57", "Q25191"),
    ("Q24053263", "P161", "Q208026"),
    ("Q24053263", "P136", "Q130232"),
    ("Q1536155", "P161", "Q208026"),
    ("Q1536155", "P136", "Q188473"),
    ("Q1536155", "P136", "Q471839"),
    ("Q11010", "P57", "Q42229"),
    ("Q11010", "P161", "Q42229"),
    ("Q11010", "P136", "Q130232"),
    ("Q223596", "P161", "Q42229"),
    ("Q223596", "P136", "Q188473"),
    ("Q44578", "P57", "Q3772"),
    ("Q44578", "P161", "Q38111"),
    ("Q44578", "P136", "Q130232"),
    ("Q171048", "P136", "Q202866"),
]
ITEMS = frozenset(
    {"Q25188", "Q13417189", "Q163872", "Q24053263", "Q1536155", "Q11010", "Q223596", "Q44578", "Q171048", "Q999001"}
)
POPULARITY = {
    "Q44578": 9.0,
    "Q171048": 8.0,
    "Q163872": 7.0,
    "Q25188": 6.0,
    "Q223596": 5.0,
    "Q11010": 4.0,
    "Q13417189": 3.0,
    "Q1536155": 2.0,
    "Q24053263": 1.0,
    "Q999001": 0.0,
}
ROLE = {"P57": "director", "P161": "cast member", "P136": "genre"}


@dataclass(frozen=True, slots=True)
class FakeDetails:
    """Stand-in for ``ItemDetails``."""

    year: int | None = None
    description: str | None = None
    image: str | None = None
    imdb_id: str | None = None
    spotify_id: str | None = None
    lastfm_id: str | None = None
    trailer: str | None = None


DETAILS = {
    "Q25188": FakeDetails(
        year=2010,
        description="2010 film by Christopher Nolan",
        imdb_id="tt1375666",
        image="https://example.org/inception.jpg",
    ),
    "Q163872": FakeDetails(year=2008, trailer="EXeTwQWrcwY", imdb_id="tt0468569"),
}


class FakeKB:
    """The DESIGN.md KnowledgeBase API over the hand-made graph above."""

    domain = "movie"

    def __init__(self) -> None:
        self.items = ITEMS
        self._graph = nx.Graph()
        self._graph.add_nodes_from(LABELS)
        self._graph.remove_node("Q999002")  # a value known by label but absent from the graph
        for item, pid, value in EDGES:
            if self._graph.has_edge(item, value):
                old = self._graph[item][value]["pids"]
                self._graph[item][value]["pids"] = (*old, pid)
            else:
                self._graph.add_edge(item, value, pids=(pid,))

    def has(self, qid: str) -> bool:
        return qid in LABELS

    def is_item(self, qid: str) -> bool:
        return qid in ITEMS

    def label(self, qid: str) -> str:
        return LABELS.get(qid, qid)

    def aliases(self, qid: str) -> tuple[str, ...]:
        return ()

    def names(self) -> Iterator[tuple[str, str]]:
        return iter((v, k) for k, v in LABELS.items())

    def description(self, qid: str) -> str | None:
        return None

    def item_values(self, item: str) -> tuple[tuple[str, str], ...]:
        return tuple((p, v) for i, p, v in EDGES if i == item)

    def value_items(self, value: str) -> tuple[tuple[str, str], ...]:
        return tuple((p, i) for i, p, v in EDGES if v == value)

    def roles(self, qid: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p for _i, p, v in EDGES if v == qid))

    def popularity(self, qid: str) -> float:
        return POPULARITY.get(qid, 0.0)

    def details(self, qid: str) -> FakeDetails:
        return DETAILS.get(qid, FakeDetails())

    def graph(self) -> nx.Graph:
        return self._graph
