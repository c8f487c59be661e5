"""A small fake knowledge base for the entity-linking, sentiment and disambiguation tests.

It implements the part of ``recommender.kb.KnowledgeBase`` (DESIGN.md) the linker uses: ``domain``,
``items``, ``has``, ``is_item``, ``label``, ``aliases``, ``names``, ``description``, ``roles``,
``popularity``, ``details``. QIDs are real Wikidata ids where known; popularity values are made up.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest


@dataclass(frozen=True, slots=True)
class FakeDetails:
    year: int | None
    description: str | None


@dataclass(frozen=True, slots=True)
class Entry:
    qid: str
    label: str | None  # None: no label in any language
    item: bool = False
    roles: tuple[str, ...] = ()
    pop: float = 10.0
    year: int | None = None
    description: str | None = None
    aliases: tuple[str, ...] = ()


ENTRIES: tuple[Entry, ...] = (
    Entry("Q39829", "Stephen King", roles=("P50", "P58"), pop=90, description="American author"),
    Entry("Q186341", "The Shining", item=True, pop=80, year=1980, description="1980 film by Stanley Kubrick"),
    Entry("Q277260", "The Shining", roles=("P144",), pop=30, year=1977, description="1977 novel by Stephen King"),
    Entry(
        "Q182218",
        "The Avengers",
        item=True,
        pop=95,
        year=2012,
        description="2012 film by Joss Whedon",
        aliases=("Avengers Assemble",),
    ),
    Entry("Q1125729", "The Avengers", item=True, pop=70, year=1998, description="1998 film by Jeremiah S. Chechik"),
    Entry("Q37079", "Tom Cruise", roles=("P161", "P162"), pop=95, description="American actor and producer"),
    Entry("Q16963462", "It", item=True, pop=60, year=2017, description="2017 film by Andy Muschietti"),
    Entry("Q484048", "Amélie", item=True, pop=70, year=2001, description="2001 film by Jean-Pierre Jeunet"),
    Entry("Q104905", "WALL-E", item=True, pop=75, year=2008, description="2008 animated film by Andrew Stanton"),
    Entry("Q483941", "Schindler's List", item=True, pop=85, year=1993, description="1993 film by Steven Spielberg"),
    Entry("Q200299", "Ocean's Eleven", item=True, pop=70, year=2001, description="2001 film by Steven Soderbergh"),
    Entry("Q105598", "Die Hard", item=True, pop=80, year=1988, description="1988 film by John McTiernan"),
    Entry("Q486822", "Bad Boys", item=True, pop=50, year=1995, description="1995 film by Michael Bay"),
    Entry("Q212792", "Happy Feet", item=True, pop=50, year=2006, description="2006 film by George Miller"),
    Entry("Q193835", "Good Will Hunting", item=True, pop=60, year=1997, description="1997 film by Gus Van Sant"),
    Entry("Q25188", "Inception", item=True, pop=90, year=2010, description="2010 film by Christopher Nolan"),
    Entry("Q1195866", "Malcolm X", item=True, pop=40, year=1992, description="1992 film by Spike Lee"),
    Entry("Q19573", "Malcolm X", roles=("P921",), pop=60, description="American activist"),
    Entry("Q17009998", "Mr. Robot", item=True, pop=50, year=2015, description="American television series"),
    Entry("Q83495", "The Matrix", item=True, pop=95, year=1999, description="1999 film by the Wachowskis"),
    Entry("Q7752547", "Rambo", item=True, pop=45, year=2008, description="2008 film by Sylvester Stallone"),
    Entry(
        "Q160071",
        "Sylvester Stallone",
        roles=("P161", "P57", "P58"),
        pop=85,
        description="American actor and filmmaker",
        aliases=("Sly Stallone",),
    ),
    Entry("Q185884", "Daft Punk", roles=("P86",), pop=70, description="French electronic music duo"),
    Entry("Q650036", "Tron: Legacy", item=True, pop=50, year=2010, description="2010 film by Joseph Kosinski"),
    Entry("Q2831", "Michael Jackson", roles=("P86", "P161"), pop=90, description="American singer"),
    Entry("Q4465", "Peter Jackson", roles=("P57", "P162"), pop=80, description="New Zealand film director"),
    Entry("Q172678", "Samuel L. Jackson", roles=("P161",), pop=85, description="American actor"),
    Entry("Q200092", "horror film", roles=("P136",), pop=90, description="film genre"),
    Entry("Q93204", "documentary film", roles=("P136",), pop=80, description="film genre"),
    Entry("Q174811", "Up", item=True, pop=70, year=2009, description="2009 animated film by Pete Docter"),
    Entry("Q1144027", "Her", item=True, pop=60, year=2013, description="2013 film by Spike Jonze"),
    Entry("Q56600963", "Us", item=True, pop=55, year=2019, description="2019 film by Jordan Peele"),
    Entry("Q107007587", "Nope", item=True, pop=50, year=2022, description="2022 film by Jordan Peele"),
    Entry("Q3977597", "The Trailer", item=True, pop=5, year=1999, description="short film"),
    Entry("Q7503096", "Show Me", item=True, pop=5, year=2004, description="film"),
    Entry("Q60010", "Not Sure", item=True, pop=3, year=2010, description="film"),
    Entry("Q131390", "Jurassic Park", item=True, pop=90, year=1993, description="1993 film by Steven Spielberg"),
    Entry("Q8877", "Steven Spielberg", roles=("P57", "P162"), pop=95, description="American filmmaker"),
    Entry("Q44578", "Titanic", item=True, pop=90, year=1997, description="1997 film by James Cameron"),
    Entry("Q24871", "Avatar", item=True, pop=90, year=2009, description="2009 film by James Cameron"),
    Entry("Q42574", "James Cameron", roles=("P57", "P162", "P58"), pop=90, description="Canadian filmmaker"),
    Entry("Q172241", "The Godfather", item=True, pop=90, year=1972, description="1972 film by Francis Ford Coppola"),
    Entry("Q47703", "Pulp Fiction", item=True, pop=90, year=1994, description="1994 film by Quentin Tarantino"),
    Entry("Q3772", "Quentin Tarantino", roles=("P57", "P58", "P161"), pop=90, description="American filmmaker"),
    Entry("Q190050", "Fight Club", item=True, pop=85, year=1999, description="1999 film by David Fincher"),
    Entry("Q156608", "The Dark Knight", item=True, pop=90, year=2008, description="2008 film by Christopher Nolan"),
    Entry(
        "Q25191", "Christopher Nolan", roles=("P57", "P58", "P162"), pop=90, description="British-American filmmaker"
    ),
    Entry("Q134773", "Forrest Gump", item=True, pop=85, year=1994, description="1994 film by Robert Zemeckis"),
    Entry("Q2263", "Tom Hanks", roles=("P161", "P162"), pop=90, description="American actor"),
    Entry("Q126399", "Gladiator", item=True, pop=80, year=2000, description="2000 film by Ridley Scott"),
    Entry("Q165817", "Interstellar", item=True, pop=85, year=2014, description="2014 film by Christopher Nolan"),
    Entry("Q184843", "Blade Runner", item=True, pop=80, year=1982, description="1982 film by Ridley Scott"),
    Entry("Q221113", "Alien", item=True, pop=80, year=1979, description="1979 film by Ridley Scott"),
    Entry("Q1124", "Ridley Scott", roles=("P57", "P162"), pop=85, description="English filmmaker"),
    Entry("Q11621", "The Lion King", item=True, pop=85, year=1994, description="1994 animated film"),
    Entry("Q208028", "Toy Story", item=True, pop=85, year=1995, description="1995 animated film by John Lasseter"),
    Entry("Q157443", "comedy film", roles=("P136",), pop=90, description="film genre"),
    Entry("Q188473", "action film", roles=("P136",), pop=90, description="film genre"),
    Entry("Q155476", "Der Untergang", item=True, pop=40, year=2004, description=None),  # no English label
    Entry("Q999999901", None, item=True, pop=1, year=None, description=None),  # no label at all
    Entry("Q223", "Greenland", item=True, pop=5, year=2020, description="2020 film"),
)


VALUES: dict[str, tuple[tuple[str, str], ...]] = {
    "Q44578": (("P57", "Q42574"), ("P161", "Q2263")),
    "Q24871": (("P57", "Q42574"),),
    "Q134773": (("P161", "Q2263"), ("P57", "Q1124")),
    "Q131390": (("P57", "Q8877"),),
}


class FakeKB:
    """In-memory stand-in for ``recommender.kb.KnowledgeBase`` (movie domain)."""

    domain = "movie"

    def __init__(self, entries: tuple[Entry, ...] = ENTRIES) -> None:
        self._entries = {e.qid: e for e in entries}
        self.items = frozenset(e.qid for e in entries if e.item)

    def has(self, qid: str) -> bool:
        return qid in self._entries

    def is_item(self, qid: str) -> bool:
        return qid in self.items

    def label(self, qid: str) -> str:
        entry = self._entries.get(qid)
        return entry.label if entry and entry.label else qid

    def aliases(self, qid: str) -> tuple[str, ...]:
        entry = self._entries.get(qid)
        return entry.aliases if entry else ()

    def names(self) -> Iterator[tuple[str, str]]:
        for entry in self._entries.values():
            if entry.label:
                yield entry.label, entry.qid
            for alias in entry.aliases:
                yield alias, entry.qid

    def description(self, qid: str) -> str | None:
        entry = self._entries.get(qid)
        return entry.description if entry else None

    def roles(self, qid: str) -> tuple[str, ...]:
        entry = self._entries.get(qid)
        return entry.roles if entry else ()

    def popularity(self, qid: str) -> float:
        entry = self._entries.get(qid)
        return entry.pop if entry else 0.0

    def item_values(self, item: str) -> tuple[tuple[str, str], ...]:
        return VALUES.get(item, ())

    def details(self, qid: str) -> FakeDetails:
        entry = self._entries.get(qid)
        return FakeDetails(entry.year if entry else None, entry.description if entry else None)


@pytest.fixture(scope="session")
def fake_kb() -> FakeKB:
    return FakeKB()


@pytest.fixture(scope="session")
def linker(fake_kb):
    from nlu.linker import EntityLinker

    return EntityLinker(fake_kb)


@pytest.fixture(scope="session")
def sentiment():
    from nlu.sentiment import SentimentRecognizer

    return SentimentRecognizer()


@dataclass(frozen=True)
class Prediction:
    """What ``IntentRecognizer.predict`` returns, for the stand-in below."""

    intent: str
    confidence: float
    alternatives: tuple


class SaysIntent:
    """A classifier that always answers ``intent`` (what the study-trained model does on new wordings)."""

    def __init__(self, intent: str) -> None:
        self.intent = intent

    def predict(self, text, contexts=(), *, events=None, domain=None):
        return Prediction(self.intent, 0.5, ((self.intent, 0.5),))


class WorksKB(FakeKB):
    """FakeKB of one domain with its own credits: ``works`` = item -> ((pid, person), ...); ``item_values``
    gives an item's credits and ``value_items`` their reverse (a person's works)."""

    def __init__(self, entries: tuple[Entry, ...], domain: str = "movie", works: dict | None = None) -> None:
        super().__init__(entries)
        self.domain = domain
        self._works = works or {}

    def item_values(self, item: str) -> tuple[tuple[str, str], ...]:
        return self._works.get(item, ())

    def value_items(self, value: str) -> tuple[tuple[str, str], ...]:
        return tuple((pid, item) for item, claims in self._works.items() for pid, v in claims if v == value)
