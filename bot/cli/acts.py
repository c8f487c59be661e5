"""``corsbot nlu evaluate-acts [--folds K] [--errors N]``: the dialogue-act classifier's cross-validation on its
training wordings and its held-back score (:mod:`nlu.act_eval`). Last line exactly ``acts: n=N cv_accuracy=A
cv_macro_f1=F heldout_accuracy=H heldout_macro_f1=G``."""

from __future__ import annotations

import argparse

from bot.cli.args import non_negative_int


def register(nlu_sub: argparse._SubParsersAction) -> None:
    """Add ``evaluate-acts`` under the ``nlu`` command."""
    parser = nlu_sub.add_parser(
        "evaluate-acts", help="cross-validate the dialogue-act classifier, score its held-back set"
    )
    parser.add_argument("--folds", type=non_negative_int, default=5, help="cross-validation folds (default 5)")
    parser.add_argument("--errors", type=non_negative_int, default=0, metavar="N", help="print N held-back misses")
    parser.set_defaults(handler=run)


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
