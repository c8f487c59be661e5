"""Small deterministic stand-ins for the NLU and a hand-made knowledge base, for dialog tests.

The knowledge base follows the ``recommender.kb.KnowledgeBase`` API of docs/DESIGN.md over 8 films
and a few people/genres; the recommender used with it is the real one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import SimpleNamespace

import networkx as nx

from nlu.textnorm import fold

LABELS = {
    "Q1": "Inception",
    "Q2": "Interstellar",
    "Q3": "Top Gun",
    "Q4": "Mission: Impossible",
    "Q5": "The Avengers",
    "Q6": "The Avengers",
    "Q7": "Dunkirk",
    "Q8": "Memento",
    "Q100": "Christopher Nolan",
    "Q200": "Tom Cruise",
    "Q300": "science fiction film",
    "Q400": "war film",
}
YEARS = {"Q5": 2012, "Q6": 1998, "Q1": 2010}
EDGES = [
    ("Q1", "P57", "Q100"),
    ("Q2", "P57", "Q100"),
    ("Q7", "P57", "Q100"),
    ("Q8", "P57", "Q100"),
    ("Q1", "P136", "Q300"),
    ("Q2", "P136", "Q300"),
    ("Q7", "P136", "Q400"),
    ("Q3", "P161", "Q200"),
    ("Q4", "P161", "Q200"),
    ("Q4", "P162", "Q200"),
    ("Q5", "P136", "Q300"),
    ("Q6", "P136", "Q300"),
    ("Q3", "P136", "Q400"),
]


class FakeKB:
    """A knowledge base of 8 films (API of docs/DESIGN.md)."""

    domain = "movie"

    def __init__(self) -> None:
        self.items = frozenset(q for q in LABELS if int(q[1:]) < 100)

    def has(self, qid):
        return qid in LABELS

    def is_item(self, qid):
        return qid in self.items

    def label(self, qid):
        return LABELS.get(qid, qid)

    def aliases(self, qid):
        return ()

    def names(self):
        return iter((label, qid) for qid, label in LABELS.items())

    def description(self, qid):
        return f"{YEARS[qid]} film" if qid in YEARS else None

    def item_values(self, item):
        return tuple((p, v) for i, p, v in EDGES if i == item)

    def value_items(self, value):
        return tuple((p, i) for i, p, v in EDGES if v == value)

    def roles(self, qid):
        seen = []
        for _, p, v in EDGES:
            if v == qid and p not in seen:
                seen.append(p)
        return tuple(seen)

    def popularity(self, qid):
        return float(len(self.item_values(qid)) + len(self.value_items(qid)))

    def details(self, qid):
        return SimpleNamespace(
            qid=qid,
            label=self.label(qid),
            year=YEARS.get(qid),
            description=self.description(qid),
            image=None,
            trailer=None,
            imdb=None,
        )

    def graph(self):
        graph = nx.Graph()
        graph.add_nodes_from(LABELS)
        for item, pid, value in EDGES:
            if graph.has_edge(item, value):
                graph[item][value]["pids"] = graph[item][value]["pids"] + (pid,)
            else:
                graph.add_edge(item, value, pids=(pid,))
        return graph


@dataclass(frozen=True)
class FakeCandidate:
    qid: str
    label: str
    score: float
    is_item: bool
    roles: tuple
    description: str | None


@dataclass(frozen=True)
class FakeMention:
    text: str
    start: int
    end: int
    candidates: tuple
    ambiguous: bool
    partial: bool = False


class FakeLinker:
    """Exact, case-insensitive label matching; "it"/"this movie" refer to the focus."""

    def __init__(self, kb: FakeKB) -> None:
        self.kb = kb

    def link(self, text, *, focus=None):
        mentions = []
        folded = fold(text)
        by_label: dict[str, list[str]] = {}
        for qid, label in LABELS.items():
            by_label.setdefault(fold(label), []).append(qid)
        for label, qids in sorted(by_label.items(), key=lambda kv: -len(kv[0])):
            match = re.search(rf"\b{re.escape(label)}\b", folded)
            if match and not any(m.start <= match.start() < m.end for m in mentions):
                cands = tuple(
                    FakeCandidate(q, LABELS[q], 1.0, self.kb.is_item(q), self.kb.roles(q), None) for q in qids
                )
                mentions.append(
                    FakeMention(text[match.start() : match.end()], match.start(), match.end(), cands, len(cands) > 1)
                )
        if focus and not mentions:
            match = re.search(r"\b(it|this movie)\b", folded)
            if match:
                cand = FakeCandidate(focus, LABELS[focus], 1.0, True, (), None)
                mentions.append(FakeMention(match.group(0), match.start(), match.end(), (cand,), False))
        return tuple(sorted(mentions, key=lambda m: m.start))


class Pol:
    def __init__(self, value):
        self.value = value


class FakeSentiment:
    """'+' unless the clause of the mention has a negation (a refusal "no X" too) or a dislike verb; '0' for
    "watched"."""

    def message_polarity(self, text):
        """The clause that mentions "it" (else the whole message) decides."""
        clauses = re.split(r"\bbut\b|,", text)
        clause = next((c for c in clauses if re.search(r"\bit\b", c)), text)
        return self.polarities(clause + " it", [(len(clause) + 1, len(clause) + 3)])[0]

    def polarities(self, text, spans):
        out = []
        for start, _end in spans:
            clause = re.split(r"\bbut\b|,", text[:start])[-1].lower()
            if re.search(r"don't|do not|hate|dislike|not|^\s*no\b", clause):
                out.append(Pol("-"))
            elif re.search(r"watched|saw", clause):
                out.append(Pol("0"))
            else:
                out.append(Pol("+"))
        return tuple(out)


@dataclass(frozen=True)
class FakePrediction:
    intent: str
    confidence: float
    alternatives: tuple


class FakeIntents:
    """Keyword rules standing in for the trained classifier (deterministic dialog tests)."""

    RULES = [
        (r"^(hi|hello)\b", "smalltalk.greetings.hello"),
        (r"\brecommend|suggest|what should i watch", "request_recommendation"),
        (r"\breset\b", "reset_profile"),
        (r"\bprofile\b", "show_profile"),
        (r"^(delete|remove)\b", "show_profile - delete_preference"),
        (r"^skip\b", "request_recommendation - skip"),
        (r"\bwhy\b", "request_recommendation - why"),
        (r"\bdetails?\b", "request_recommendation - details"),
        (r"\btrailer\b", "request_recommendation - trailer"),
        (r"\bbut\b", "request_recommendation - yes_but"),
        (r"^(actor|producer|director|none|\d|the avengers \(|number)", "preference - disambiguation"),
        (r"^(yes|no)\b", "smalltalk.confirmation.yes"),
        (r"\b(like|love|hate|watched)\b", "preference"),
    ]

    def predict(self, text, contexts=(), *, events=None, domain=None):
        low = text.lower()
        for pattern, intent in self.RULES:
            if re.search(pattern, low):
                if intent == "preference" and "request_recommendation-followup" in contexts:
                    intent = "request_recommendation - preference"
                if intent.startswith("smalltalk.confirmation") and low.startswith("no"):
                    intent = "smalltalk.confirmation.no"
                return FakePrediction(intent, 0.9, ((intent, 0.9), ("preference", 0.05), ("skip", 0.01)))
        return FakePrediction("Default Fallback Intent", 0.3, (("preference", 0.2),))
