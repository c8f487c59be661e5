"""How well the dialogue-act classifier (:mod:`nlu.acts`) generalises: k-fold cross-validation on its training
wordings (split by written wording, so a wording's noisy variants never score their own source) and the score of
the held-back wordings (``nlu/wording/acts/heldout.toml``), plus the precision of confident predictions at the
thresholds :mod:`nlu.act_choice` uses (how those were chosen: on the cross-validated predictions only).

Example::

    report = evaluate_acts(folds=5)
    report.line()   # 'acts: n=1538 cv_accuracy=0.784 cv_macro_f1=0.785 heldout_accuracy=0.922 heldout_macro_f1=0.922'
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
from sklearn.metrics import f1_score

from nlu.acts import HELDOUT_PATH, TRAIN_PATH, ActClassifier, load_examples

__all__ = ["ActReport", "evaluate_acts"]

THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9)


@dataclass(slots=True)
class ActReport:
    """Figures of :func:`evaluate_acts`; ``confident``: threshold -> (share of predictions at or above it, their
    accuracy), on the cross-validated predictions; ``errors``: held-back misses (gold, predicted, probability, text)."""

    n: int
    cv_accuracy: float
    cv_macro_f1: float
    heldout_accuracy: float
    heldout_macro_f1: float
    confident: dict[float, tuple[float, float]] = field(default_factory=dict)
    errors: list[tuple[str, str, float, str]] = field(default_factory=list)

    def line(self) -> str:
        """The command's last line."""
        return (
            f"acts: n={self.n} cv_accuracy={self.cv_accuracy:.3f} cv_macro_f1={self.cv_macro_f1:.3f} "
            f"heldout_accuracy={self.heldout_accuracy:.3f} heldout_macro_f1={self.heldout_macro_f1:.3f}"
        )


def _scores(model: ActClassifier, examples: list[tuple[str, str]]) -> tuple[list[str], np.ndarray]:
    rows = model.probabilities([t for t, _ in examples])
    return [model.classes[i] for i in rows.argmax(axis=1)], rows.max(axis=1)


def evaluate_acts(folds: int = 5, seed: int = 0) -> ActReport:
    """Cross-validate on ``train.toml`` (``folds`` folds) and score ``heldout.toml`` with the model on all of it."""
    examples = load_examples(TRAIN_PATH)
    order = list(range(len(examples)))
    random.Random(seed).shuffle(order)
    gold: list[str] = []
    predicted: list[str] = []
    probability: list[float] = []
    for k in range(folds):
        test = [examples[i] for i in order[k::folds]]
        train = [examples[i] for j, i in enumerate(order) if j % folds != k]
        labels, top = _scores(ActClassifier.fit(train), test)
        gold += [a for _, a in test]
        predicted += labels
        probability += list(top)
    right = np.array(gold) == np.array(predicted)
    sure = np.array(probability)
    confident = {
        t: (float((sure >= t).mean()), float(right[sure >= t].mean()) if (sure >= t).any() else 0.0) for t in THRESHOLDS
    }
    held = load_examples(HELDOUT_PATH)
    labels, top = _scores(ActClassifier.fit(examples), held)
    held_gold = [a for _, a in held]
    errors = [(g, p, float(s), t) for (t, g), p, s in zip(held, labels, top, strict=True) if g != p]
    return ActReport(
        n=len(examples),
        cv_accuracy=float(right.mean()),
        cv_macro_f1=float(f1_score(gold, predicted, average="macro")),
        heldout_accuracy=float(np.mean(np.array(held_gold) == np.array(labels))),
        heldout_macro_f1=float(f1_score(held_gold, labels, average="macro")),
        confident=confident,
        errors=errors,
    )
