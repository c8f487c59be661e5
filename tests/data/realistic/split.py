"""The seeded, stratified split of the realistic NLU test set into ``dev.jsonl`` and ``heldout.jsonl``.

The set was written as one pool of sentences (see README.md) and split once with :func:`split`; the
test ``tests/nlu/test_realistic_dataset.py`` re-runs the split on the union of both files and checks
that it gives the same two halves, so no sentence can move between the halves afterwards.

Method: sentences naming the same item or person (same domain, label and kind; genres excepted) form
one *group* and always land in the same half, so the halves share no rated item or person. Each group
gets a stratum ``(domain, kind, phenomenon, variant)`` from its first sentence (see :func:`stratum`).
Strata are visited in sorted order; inside a stratum the groups are shuffled with
``random.Random(seed)`` and each goes to the half with fewer sentences of that stratum so far, which
keeps every stratum within one group of an even split. Ties go to the half with fewer sentences of
the same (kind, phenomenon, variant) over all domains, then with fewer sentences sharing the group's
secondary features (noisy, emoji, several entities, recommendation context, entity kinds), then with
fewer sentences overall, then dev.

Run ``python tests/data/realistic/split.py`` to print the per-half counts of the current files.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

SEED = 12
NOISY_TAGS = frozenset({"typo", "lower"})
HERE = Path(__file__).resolve().parent


def stratum(record: Mapping[str, Any]) -> tuple[str, str, str, str]:
    """The stratum of one sentence: (domain, kind, phenomenon, variant).

    The phenomenon is the first tag of a preference sentence and the intent of any other turn (all
    ``smalltalk.*`` intents count as one); the variant is ``noisy`` (a ``typo``/``lower`` tag),
    ``recommendation`` (a preference typed while a recommendation card is shown) or ``-``.
    """
    if record["kind"] == "preference":
        phenomenon = record["tags"][0]
    else:
        phenomenon = "smalltalk" if record["intent"].startswith("smalltalk.") else record["intent"]
    if NOISY_TAGS & set(record["tags"]):
        variant = "noisy"
    elif record["kind"] == "preference" and record["context"] == "recommendation":
        variant = "recommendation"
    else:
        variant = "-"
    return (record["domain"], record["kind"], phenomenon, variant)


def features(record: Mapping[str, Any]) -> set[str]:
    """Secondary features balanced between the halves when a stratum alone does not decide."""
    tags = set(record["tags"])
    found = {f"kind:{e['kind']}" for e in record["entities"]}
    if NOISY_TAGS & tags:
        found.add("noisy")
    if "emoji" in tags:
        found.add("emoji")
    if len(record["entities"]) > 1:
        found.add("multi")
    if record["context"] == "recommendation":
        found.add("recommendation")
    return found


def groups(records: Iterable[Mapping[str, Any]]) -> list[list[str]]:
    """Ids of sentences that share a rated item/person (union-find), each group sorted, groups sorted."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    owner: dict[tuple[str, str, str], str] = {}
    for rec in records:
        parent.setdefault(rec["id"], rec["id"])
        for ent in rec["entities"]:
            if ent["kind"] == "genre":
                continue
            key = (rec["domain"], ent["label"].casefold(), ent["kind"])
            if key in owner:
                parent[find(rec["id"])] = find(owner[key])
            else:
                owner[key] = rec["id"]
    members: dict[str, list[str]] = {}
    for rid in parent:
        members.setdefault(find(rid), []).append(rid)
    return sorted(sorted(m) for m in members.values())


def split(records: Iterable[Mapping[str, Any]], seed: int = SEED) -> tuple[set[str], set[str]]:
    """Split sentence records into (dev ids, held-out ids); deterministic for a given pool and seed."""
    by_id = {r["id"]: r for r in records}
    by_stratum: dict[tuple[str, str, str, str], list[list[str]]] = {}
    for group in groups(by_id.values()):
        by_stratum.setdefault(stratum(by_id[group[0]]), []).append(group)
    rng = random.Random(seed)
    halves: tuple[set[str], set[str]] = (set(), set())
    coarse: list[Counter[tuple[str, ...]]] = [Counter(), Counter()]
    feature_load: list[Counter[str]] = [Counter(), Counter()]
    for key in sorted(by_stratum):
        todo = by_stratum[key]
        rng.shuffle(todo)
        in_stratum = [0, 0]
        for group in todo:
            feats = Counter(f for rid in group for f in features(by_id[rid]))
            costs = [
                (
                    in_stratum[s],
                    coarse[s][key[1:]],
                    sum(feature_load[s][f] for f in feats),
                    len(halves[s]),
                    s,
                )
                for s in (0, 1)
            ]
            side = min(costs)[-1]
            halves[side].update(group)
            in_stratum[side] += len(group)
            coarse[side][key[1:]] += len(group)
            feature_load[side].update(feats)
    return halves


def load(path: Path) -> list[dict[str, Any]]:
    """Read one JSONL file of sentence records."""
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main() -> int:
    dev, heldout = load(HERE / "dev.jsonl"), load(HERE / "heldout.jsonl")
    want_dev, want_heldout = split(dev + heldout)
    same = want_dev == {r["id"] for r in dev} and want_heldout == {r["id"] for r in heldout}
    for name, half in (("dev", dev), ("heldout", heldout)):
        counts = Counter((r["domain"], r["kind"]) for r in half)
        print(name, len(half), dict(sorted(counts.items())))
    print("split reproduces the files:", same)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
