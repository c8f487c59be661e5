"""A complete runtime folder built in seconds for the browser tests (and the README's screenshot):
knowledge-base snapshots of the three domains from the tiny N-Triples fixture (``tests/data/kb/tiny.nt``)
and an intent model trained on a small made-up dataset-format file of the same names, so that
``corsbot web`` runs the real pipeline (NLU, entity linking, PageRank, the dialog) on a fresh machine."""

from __future__ import annotations

import json
from pathlib import Path

TINY_NT = Path(__file__).resolve().parent.parent / "data" / "kb" / "tiny.nt"
NAMES = {
    "movie": ["The Matrix", "Keanu Reeves", "science fiction films", "The Shawshank Redemption", "drama films",
              "Lana Wachowski"],
    "book": ["The Hunger Games", "J. K. Rowling", "Suzanne Collins", "dystopian novels", "J. R. R. Tolkien"],
    "music": ["Nirvana", "Nevermind", "grunge", "AC/DC", "hard rock", "Kurt Cobain"],
}  # fmt: skip
PHRASES = {
    "preference": ["I like {}", "I love {}", "I really like {}", "{} is great", "I enjoyed {}", "I adore {}"],
    "request_recommendation": ["recommend me something", "what should I watch?", "recommend me a book",
                               "suggest some music", "give me recommendations", "what do you recommend?"],
    "smalltalk.greetings.hello": ["hi", "hello", "hey there", "good morning"],
    "request_recommendation - skip": ["skip", "next one", "skip this"],
    "request_recommendation - why": ["why?", "why did you suggest it", "why this one"],
}  # fmt: skip


def training_file(folder: Path) -> Path:
    """The made-up training file (in a ``movie`` folder: the default domain of training)."""
    rows, n = [], 0
    for user in range(6):
        domain = ("movie", "book", "music")[user % 3]
        names = NAMES[domain]
        for intent, phrases in PHRASES.items():
            for k, phrase in enumerate(phrases):
                n += 1
                text = phrase.format(names[(k + user) % len(names)])
                contexts = "request_recommendation-followup" if intent.startswith("request_recommendation - ") else ""
                rows.append({"messageID": str(n), "userID": user, "message": text, "timestampStart": n,
                             "timestampEnd": n, "intent": intent, "contexts": contexts, "toCheck": False,
                             "recognizedObjects": "", "events": "", "pagerankCycle": 0,
                             "numberRecommendationList": 0, "interactionType": "NL"})  # fmt: skip
    path = folder / "movie" / "tiny_training.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rows), encoding="utf-8")
    return path


def build(home: Path) -> Path:
    """Fill ``home`` (``$CORSBOT_HOME``): ``kb/<domain>/`` and ``models/intent/``; returns the training file."""
    from bot.cli import main
    from recommender.sparql import build_snapshot, open_embedded

    backend = open_embedded(home / "kb" / "store", TINY_NT)
    for domain in ("movie", "book", "music"):
        build_snapshot(backend, domain, home / "kb" / domain, progress=False, built_at="2026-01-01T00:00:00Z")
    data = training_file(home / "data")
    code = main(["nlu", "train", "--data", str(data), "--out", str(home / "models" / "intent"), "--no-extra",
                 "--folds", "0"])  # fmt: skip
    assert code == 0, "training the tiny intent model failed"
    return data
