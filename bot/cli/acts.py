"""The learned text classifiers (:mod:`nlu.acts`, :mod:`nlu.opinion_hedge`).

- ``corsbot nlu evaluate-acts [--folds K] [--errors N]``: the dialogue-act classifier's cross-validation on its
  training wordings and its held-back score (:mod:`nlu.act_eval`). Last line exactly ``acts: n=N cv_accuracy=A
  cv_macro_f1=F heldout_accuracy=H heldout_macro_f1=G``.
- ``corsbot nlu train-classifiers [--only NAME] [--force]``: fits the dialogue-act classifier and the hedge reader
  and stores them as ``$CORSBOT_HOME/models/{acts,hedge}/classifier.npz`` (:mod:`nlu.text_classifier`), so that a
  start loads them instead of fitting them; one up to date (same fingerprint of data and recipe) is kept. Last line
  exactly ``classifiers: acts=S hedge=S`` (S: ``written``, ``up-to-date`` or ``skipped``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from bot import paths
from bot.cli.args import non_negative_int

if TYPE_CHECKING:
    from nlu.text_classifier import TextClassifier

CLASSIFIERS = ("acts", "hedge")
"""The stored text classifiers, by folder name under ``$CORSBOT_HOME/models``."""


def register(nlu_sub: argparse._SubParsersAction) -> None:
    """Add ``evaluate-acts`` under the ``nlu`` command."""
    parser = nlu_sub.add_parser(
        "evaluate-acts", help="cross-validate the dialogue-act classifier, score its held-back set"
    )
    parser.add_argument("--folds", type=non_negative_int, default=5, help="cross-validation folds (default 5)")
    parser.add_argument("--errors", type=non_negative_int, default=0, metavar="N", help="print N held-back misses")
    parser.set_defaults(handler=run)
    train = nlu_sub.add_parser(
        "train-classifiers", help="fit the dialogue-act and hedge classifiers, store them in the models folder"
    )
    train.add_argument("--only", choices=CLASSIFIERS, action="append", help="only this classifier (repeatable)")
    train.add_argument("--force", action="store_true", help="refit even a classifier that is up to date")
    train.set_defaults(handler=run_train)


def run(args: argparse.Namespace) -> int:
    """Print the precision of confident predictions per threshold, the misses asked for, then the figures."""
    from nlu.act_eval import evaluate_acts

    report = evaluate_acts(folds=max(2, args.folds))
    for threshold, (share, accuracy) in report.confident.items():
        print(f"threshold {threshold:.2f}: {share:.3f} of the cross-validated predictions, accuracy {accuracy:.3f}")
    for gold, predicted, probability, text in report.errors[: args.errors]:
        print(f"  {gold} -> {predicted} ({probability:.2f}): {text}")
    print(report.line())
    return 0


def _recipes() -> dict[str, tuple[Callable[[], str], Callable[[], TextClassifier]]]:
    """``name -> (fingerprint, fit)`` of each stored classifier."""
    from nlu import acts, opinion_hedge

    return {"acts": (acts.fingerprint, acts.fit_scorer), "hedge": (opinion_hedge.fingerprint, opinion_hedge.fit_scorer)}


def run_train(args: argparse.Namespace) -> int:
    """Fit and store each classifier asked for whose stored file is missing or stale (or all, ``--force``)."""
    from importlib.metadata import version

    from nlu.text_classifier import CLASSIFIER_FILE, TextClassifier

    status = dict.fromkeys(CLASSIFIERS, "skipped")
    for name, (fingerprint_of, fit) in _recipes().items():
        if args.only and name not in args.only:
            continue
        path, fingerprint = paths.models_dir() / name / CLASSIFIER_FILE, fingerprint_of()
        try:
            current = TextClassifier.load(path)[1] == fingerprint
        except (OSError, ValueError, KeyError):
            current = False
        if current and not args.force:
            status[name] = "up-to-date"
            print(f"{name}: {path} is up to date (fingerprint {fingerprint})")
            continue
        started = time.perf_counter()
        fit().save(path, fingerprint=fingerprint, about={"scikit-learn": version("scikit-learn")})
        status[name] = "written"
        print(f"{name}: fitted in {time.perf_counter() - started:.1f} s, written to {path} (fingerprint {fingerprint})")
    print("classifiers: " + " ".join(f"{name}={state}" for name, state in status.items()))
    return 0
