"""Cross-validated evaluation of the intent recognizer, with a TF-IDF + logistic-regression baseline.

Protocol (``corsbot nlu evaluate``):

- **Folds**: ``sklearn.model_selection.GroupKFold`` (5 folds) over the labelled examples, grouped by
  conversation (``IntentExample.group`` = file + userID), so no user is in both train and test.
  Extra training data (DialogFlow training phrases, our small-talk phrases) is added to every
  training fold and never scored.
- **Fallback threshold**: chosen without looking at the test fold. The classifier's out-of-fold
  scores of all folds are computed first; the threshold applied to fold *k* is the one that
  maximises accuracy on the out-of-fold predictions of the *other* folds
  (:func:`nlu.intents.choose_threshold`). The per-fold thresholds are reported.
- **Metrics** (over the pooled out-of-fold predictions): accuracy overall and on ``toCheck=false``
  (``validated``), macro-F1 over every intent present in the gold labels or the predictions
  (``sklearn.metrics.f1_score(average="macro", zero_division=0)``), per-intent
  precision/recall/F1/support, per-domain accuracy, a confusion matrix and the misclassified
  messages; prediction latency p50/p99 of :meth:`IntentRecognizer.predict` (wall clock, one message
  at a time, measured on every test message).
- **Steadiness** (issue 24): the same answer from every retrain. Each fold's model is a retrain on other
  conversations; on a probe set written apart from the study (``--probes``, default the realistic dev set,
  each sentence in its dialog state, no events, as the dialog asks), ``probe_accuracy`` is the mean share
  answered with the gold intent (the live model's fallback threshold applied) and ``probe_agreement`` the
  share given the same answer by every fold's model.
- **Baseline**: TF-IDF character 2-5-grams (``char_wb``) of the normalised message plus one-hot
  indicators of the active contexts (the same contexts our recognizer gets, but not the previous
  turn's events, the rare-word markers or the extra phrases), multinomial logistic regression
  (C = 10); same folds, no fallback threshold.

Example:
    >>> result = cross_validate(examples, extra=agent_examples(agent_dir))   # doctest: +SKIP
    >>> result.summary()["accuracy"]                                         # doctest: +SKIP
    0.93
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from nlu.errors import NluError
from nlu.intents import (
    IntentExample,
    IntentRecognizer,
    choose_threshold,
    fallback_intent,
)
from nlu.textnorm import normalize

__all__ = ["EvalResult", "baseline_predictions", "cross_validate", "write_report"]

logger = logging.getLogger(__name__)

BASELINE_C = 10.0
"""Inverse regularisation strength of the baseline's logistic regression."""


@dataclass(slots=True)
class EvalResult:
    """Pooled out-of-fold predictions of the recognizer and of the baseline.

    Attributes:
        examples: the scored examples, in input order.
        predicted: our recognizer's final intent per example (after rules and fallback).
        confidence: its confidence per example, in [0, 1].
        baseline: the baseline's intent per example.
        fold: fold index (0..k-1) of each example.
        thresholds: fallback threshold used for each fold.
        train_seconds: wall time of each fold's training.
        latencies_ms: wall time of each ``predict`` call, milliseconds.
        options: recognizer options used.
    """

    examples: list[IntentExample]
    predicted: list[str]
    confidence: list[float]
    baseline: list[str]
    fold: list[int]
    thresholds: list[float]
    train_seconds: list[float]
    latencies_ms: list[float]
    options: dict[str, Any] = field(default_factory=dict)
    probes: list[IntentExample] = field(default_factory=list)
    probe_answers: list[list[str]] = field(default_factory=list)

    def steadiness(self) -> dict[str, float]:
        """``{"probes", "probe_accuracy", "probe_agreement"}`` over the fold models (module docstring)."""
        if not self.probes or not self.probe_answers:
            return {"probes": 0, "probe_accuracy": 0.0, "probe_agreement": 0.0}
        gold = [p.intent for p in self.probes]
        accuracy = float(np.mean([_accuracy(gold, answers) for answers in self.probe_answers]))
        agree = sum(len({answers[i] for answers in self.probe_answers}) == 1 for i in range(len(gold)))
        return {"probes": len(gold), "probe_accuracy": _r(accuracy), "probe_agreement": _r(agree / len(gold))}

    def summary(self) -> dict[str, Any]:
        """Headline metrics (see module docstring), all floats rounded to 4 decimals."""
        gold = [e.intent for e in self.examples]
        val = [e.validated for e in self.examples]
        lat = np.asarray(self.latencies_ms, dtype=float)
        return {
            "examples": len(gold),
            "validated_examples": int(sum(val)),
            "intents": len(set(gold)),
            "accuracy": _r(_accuracy(gold, self.predicted)),
            "accuracy_validated": _r(_accuracy(gold, self.predicted, val)),
            "macro_f1": _r(_macro_f1(gold, self.predicted)),
            "baseline_accuracy": _r(_accuracy(gold, self.baseline)),
            "baseline_accuracy_validated": _r(_accuracy(gold, self.baseline, val)),
            "baseline_macro_f1": _r(_macro_f1(gold, self.baseline)),
            "thresholds": [round(t, 3) for t in self.thresholds],
            "train_seconds_mean": _r(float(np.mean(self.train_seconds))) if self.train_seconds else None,
            "latency_ms_p50": _r(float(np.percentile(lat, 50))) if lat.size else None,
            "latency_ms_p99": _r(float(np.percentile(lat, 99))) if lat.size else None,
        }

    def per_domain(self) -> dict[str, dict[str, float]]:
        """``{domain: {"examples", "accuracy", "accuracy_validated", "baseline_accuracy"}}``."""
        out: dict[str, dict[str, float]] = {}
        for domain in sorted({e.domain for e in self.examples}):
            idx = [i for i, e in enumerate(self.examples) if e.domain == domain]
            gold = [self.examples[i].intent for i in idx]
            val = [self.examples[i].validated for i in idx]
            pred = [self.predicted[i] for i in idx]
            base = [self.baseline[i] for i in idx]
            out[domain] = {
                "examples": len(idx),
                "accuracy": _r(_accuracy(gold, pred)),
                "accuracy_validated": _r(_accuracy(gold, pred, val)),
                "baseline_accuracy": _r(_accuracy(gold, base)),
            }
        return out

    def per_intent(self) -> dict[str, dict[str, float]]:
        """``{intent: {"precision", "recall", "f1", "support", "baseline_f1"}}``, by support."""
        from sklearn.metrics import precision_recall_fscore_support

        gold = [e.intent for e in self.examples]
        labels = sorted(set(gold) | set(self.predicted), key=lambda s: (-gold.count(s), s))
        p, r, f, s = precision_recall_fscore_support(gold, self.predicted, labels=labels, zero_division=0)
        _, _, fb, _ = precision_recall_fscore_support(gold, self.baseline, labels=labels, zero_division=0)
        return {
            lab: {
                "precision": _r(p[i]),
                "recall": _r(r[i]),
                "f1": _r(f[i]),
                "support": int(s[i]),
                "baseline_f1": _r(fb[i]),
            }
            for i, lab in enumerate(labels)
        }

    def errors(self) -> list[dict[str, Any]]:
        """The misclassified examples with their state, gold, prediction and confidence."""
        return [
            {
                "text": e.text,
                "contexts": list(e.contexts),
                "events": None if e.events is None else list(e.events),
                "gold": e.intent,
                "predicted": p,
                "confidence": round(c, 4),
                "baseline": b,
                "domain": e.domain,
                "validated": e.validated,
                "group": e.group,
            }
            for e, p, c, b in zip(self.examples, self.predicted, self.confidence, self.baseline, strict=True)
            if p != e.intent
        ]


def _r(x: float) -> float:
    return round(float(x), 4)


def _accuracy(gold: Sequence[str], pred: Sequence[str], mask: Sequence[bool] | None = None) -> float:
    pairs = [(g, p) for i, (g, p) in enumerate(zip(gold, pred, strict=True)) if mask is None or mask[i]]
    return sum(g == p for g, p in pairs) / len(pairs) if pairs else 0.0


def _macro_f1(gold: Sequence[str], pred: Sequence[str]) -> float:
    from sklearn.metrics import f1_score

    return float(f1_score(gold, pred, average="macro", zero_division=0)) if gold else 0.0


def _folds(examples: Sequence[IntentExample], n_folds: int) -> list[np.ndarray]:
    from sklearn.model_selection import GroupKFold

    groups = [e.group for e in examples]
    if len(set(groups)) < n_folds:
        raise NluError(f"cross-validation needs at least {n_folds} conversations, got {len(set(groups))}")
    fold_of = np.zeros(len(examples), dtype=int)
    for k, (_, test) in enumerate(GroupKFold(n_splits=n_folds).split(examples, groups=groups)):
        fold_of[test] = k
    return [np.flatnonzero(fold_of == k) for k in range(n_folds)]


def cross_validate(
    examples: Sequence[IntentExample],
    *,
    n_folds: int = 5,
    extra: Sequence[IntentExample] = (),
    baseline: bool = True,
    probes: Sequence[IntentExample] = (),
    progress: Callable[[str], None] | None = None,
    **options: Any,
) -> EvalResult:
    """Grouped k-fold cross-validation of :class:`IntentRecognizer` (and the baseline).

    Args:
        examples: labelled messages; ``group`` keeps a conversation in one fold.
        n_folds: number of folds (>= 2).
        extra: examples added to every training fold, never scored (e.g. agent phrases).
        baseline: also score the TF-IDF + logistic-regression baseline on the same folds.
        probes: messages every fold's model answers as the live model would (its fallback threshold),
            for :meth:`EvalResult.steadiness`; never trained on.
        progress: called with a line after each fold ("fold 2/5: trained in 61.0 s, ..."), so that a command
            can show it is not stuck (a fold trains for about a minute on two cores).
        **options: recognizer options (see :meth:`IntentRecognizer.train`).

    Returns:
        :class:`EvalResult` with pooled out-of-fold predictions.

    Raises:
        NluError: with fewer conversations than folds.
    """
    examples = list(examples)
    folds = _folds(examples, n_folds)
    n = len(examples)
    top = [""] * n
    top_p = np.zeros(n)
    rule_or_fallback: list[tuple[str, float] | None] = [None] * n
    alt_latency: list[float] = []
    train_seconds: list[float] = []
    used_options: dict[str, Any] = {}
    probe_answers: list[list[str]] = []
    for k, test in enumerate(folds):
        test_set = set(test.tolist())
        train = [e for i, e in enumerate(examples) if i not in test_set] + list(extra)
        started = time.perf_counter()
        rec = IntentRecognizer.train(train, **options)
        train_seconds.append(time.perf_counter() - started)
        used_options = dict(rec.options)
        probe_answers.append([rec.predict(p.text, p.contexts, events=p.events, domain=p.domain).intent for p in probes])
        rec.options["fallback_threshold"] = 0.0  # raw top intent; thresholds applied below
        for i in test:
            e = examples[i]
            t0 = time.perf_counter()
            pred = rec.predict(e.text, e.contexts, events=e.events, domain=e.domain)
            alt_latency.append((time.perf_counter() - t0) * 1000.0)
            if pred.alternatives:
                top[i], top_p[i] = pred.alternatives[0]
                if pred.intent != top[i]:  # cannot happen with threshold 0; kept for safety
                    rule_or_fallback[i] = (pred.intent, pred.confidence)
            else:
                rule_or_fallback[i] = (pred.intent, pred.confidence)
                top[i], top_p[i] = pred.intent, pred.confidence
        line = f"fold {k + 1}/{n_folds}: trained in {train_seconds[-1]:.1f} s, {len(test)} test messages"
        logger.info(line)
        if progress is not None:
            progress(line)

    gold = [e.intent for e in examples]
    fb = [fallback_intent(e.contexts) for e in examples]
    fold_of = np.zeros(n, dtype=int)
    for k, test in enumerate(folds):
        fold_of[test] = k
    thresholds: list[float] = []
    predicted = [""] * n
    confidence = [0.0] * n
    for k, test in enumerate(folds):
        others = [i for i in range(n) if fold_of[i] != k and rule_or_fallback[i] is None]
        t = choose_threshold(
            [gold[i] for i in others], [top[i] for i in others], [top_p[i] for i in others], [fb[i] for i in others]
        )
        thresholds.append(t)
        for i in test:
            if rule_or_fallback[i] is not None:
                predicted[i], confidence[i] = rule_or_fallback[i]
            elif top_p[i] < t:
                predicted[i], confidence[i] = fb[i], 1.0 - float(top_p[i])
            else:
                predicted[i], confidence[i] = top[i], float(top_p[i])

    base = baseline_predictions(examples, folds) if baseline else list(predicted)
    return EvalResult(
        examples,
        predicted,
        confidence,
        base,
        fold_of.tolist(),
        thresholds,
        train_seconds,
        alt_latency,
        used_options,
        list(probes),
        probe_answers,
    )


def _baseline_text(e: IntentExample) -> str:
    return normalize(e.text or "", max_chars=300).lower()


def baseline_predictions(examples: Sequence[IntentExample], folds: Sequence[np.ndarray]) -> list[str]:
    """Out-of-fold predictions of the TF-IDF char n-gram + logistic-regression baseline.

    Features: ``TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True)`` of the
    normalised lowercased message, horizontally stacked with binary indicators of the active
    contexts. Model: ``LogisticRegression(C=10, max_iter=1000)`` (multinomial, lbfgs).

    Returns:
        One predicted intent per example, in input order.
    """
    from scipy.sparse import hstack
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import MultiLabelBinarizer

    texts = [_baseline_text(e) for e in examples]
    ctx = [sorted(set(e.contexts)) or ["<none>"] for e in examples]
    gold = np.asarray([e.intent for e in examples], dtype=object)
    out = np.empty(len(examples), dtype=object)
    all_idx = np.arange(len(examples))
    for test in folds:
        train = np.setdiff1d(all_idx, test)
        vec = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True, min_df=1)
        mlb = MultiLabelBinarizer()
        x_train = hstack(
            [vec.fit_transform([texts[i] for i in train]), mlb.fit_transform([ctx[i] for i in train])]
        ).tocsr()
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x_test = hstack([vec.transform([texts[i] for i in test]), mlb.transform([ctx[i] for i in test])]).tocsr()
            clf = LogisticRegression(C=BASELINE_C, max_iter=1000)
            clf.fit(x_train, gold[train])
        out[test] = clf.predict(x_test)
    return [str(x) for x in out]


def write_report(result: EvalResult, out_dir: Path, *, data_files: Sequence[Mapping[str, Any]] = ()) -> dict[str, Path]:
    """Write ``intent_eval.json``, ``intent_eval.md``, ``intent_confusion.png``, ``intent_errors.jsonl``.

    Args:
        result: the cross-validation result.
        out_dir: folder (created).
        data_files: descriptions of the data files (path, sha256, records) for the report.

    Returns:
        ``{"json"|"markdown"|"confusion"|"errors": path}``.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    summary = result.summary()
    per_intent = result.per_intent()
    per_domain = result.per_domain()
    errors = result.errors()
    paths = {
        "json": out_dir / "intent_eval.json",
        "markdown": out_dir / "intent_eval.md",
        "confusion": out_dir / "intent_confusion.png",
        "errors": out_dir / "intent_errors.jsonl",
    }
    report = {
        "summary": summary,
        "steadiness": result.steadiness(),
        "per_domain": per_domain,
        "per_intent": per_intent,
        "options": result.options,
        "data_files": list(data_files),
        "protocol": "GroupKFold by conversation (file+userID); threshold per fold chosen on the other folds' "
        "out-of-fold predictions; baseline TF-IDF char_wb 2-5 + context one-hot + LogisticRegression",
    }
    paths["json"].write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    with paths["errors"].open("w", encoding="utf-8") as fh:
        for row in errors:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    _plot_confusion(result, paths["confusion"])
    paths["markdown"].write_text(_markdown(summary, per_domain, per_intent, errors), encoding="utf-8")
    return paths


def _plot_confusion(result: EvalResult, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.metrics import confusion_matrix

    gold = [e.intent for e in result.examples]
    counts = Counter(gold)
    labels = sorted(set(gold) | set(result.predicted), key=lambda s: (-counts.get(s, 0), s))
    cm = confusion_matrix(gold, result.predicted, labels=labels).astype(float)
    rows = cm.sum(axis=1, keepdims=True)
    norm = np.divide(cm, rows, out=np.zeros_like(cm), where=rows > 0)
    size = max(8.0, 0.28 * len(labels) + 4)
    fig, ax = plt.subplots(figsize=(size, size))
    ax.imshow(norm, cmap="Blues", vmin=0, vmax=1)
    ax.set_xticks(range(len(labels)), [f"{lab}" for lab in labels], rotation=90, fontsize=6)
    ax.set_yticks(range(len(labels)), [f"{lab} ({counts.get(lab, 0)})" for lab in labels], fontsize=6)
    for i in range(len(labels)):
        for j in range(len(labels)):
            if cm[i, j]:
                ax.text(
                    j,
                    i,
                    str(int(cm[i, j])),
                    ha="center",
                    va="center",
                    fontsize=4,
                    color="white" if norm[i, j] > 0.5 else "black",
                )
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold (support)")
    ax.set_title("Intent confusion matrix (row-normalised, counts in cells), 5-fold grouped CV")
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


def _markdown(
    summary: Mapping[str, Any],
    per_domain: Mapping[str, Any],
    per_intent: Mapping[str, Any],
    errors: Sequence[Mapping[str, Any]],
) -> str:
    s = summary
    lines = [
        "# Intent recognizer: grouped 5-fold cross-validation",
        "",
        f"{s['examples']} messages ({s['validated_examples']} with toCheck=false), {s['intents']} intents.",
        "",
        "| | ours (spaCy textcat) | baseline (TF-IDF char + LR) |",
        "|---|---|---|",
        f"| accuracy | {s['accuracy']:.3f} | {s['baseline_accuracy']:.3f} |",
        f"| accuracy, toCheck=false | {s['accuracy_validated']:.3f} | {s['baseline_accuracy_validated']:.3f} |",
        f"| macro-F1 | {s['macro_f1']:.3f} | {s['baseline_macro_f1']:.3f} |",
        "",
        f"Fallback thresholds per fold: {s['thresholds']}. Mean training time per fold: "
        f"{s['train_seconds_mean']} s. Prediction latency p50 {s['latency_ms_p50']} ms, p99 {s['latency_ms_p99']} ms.",
        "",
        "## Per domain",
        "",
        "| domain | messages | accuracy | accuracy toCheck=false | baseline accuracy |",
        "|---|---|---|---|---|",
    ]
    for d, m in per_domain.items():
        lines.append(
            f"| {d} | {m['examples']} | {m['accuracy']:.3f} | {m['accuracy_validated']:.3f} | "
            f"{m['baseline_accuracy']:.3f} |"
        )
    lines += [
        "",
        "## Per intent",
        "",
        "| intent | support | precision | recall | F1 | baseline F1 |",
        "|---|---|---|---|---|---|",
    ]
    for lab, m in per_intent.items():
        lines.append(
            f"| {lab} | {m['support']} | {m['precision']:.3f} | {m['recall']:.3f} | {m['f1']:.3f} | "
            f"{m['baseline_f1']:.3f} |"
        )
    pairs = Counter((e["gold"], e["predicted"]) for e in errors)
    lines += ["", "## Most frequent confusions", "", "| gold | predicted | count |", "|---|---|---|"]
    for (g, p), c in pairs.most_common(20):
        lines.append(f"| {g} | {p} | {c} |")
    lines += ["", "Confusion matrix: `intent_confusion.png`; all misclassified messages: `intent_errors.jsonl`.", ""]
    return "\n".join(lines)
