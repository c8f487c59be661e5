"""The live intent model and a candidate beside it (issue 26): retraining never replaces the model
the bot runs on; a researcher promotes the candidate after comparing their cross-validation figures.

Layout (``bot/paths.py``): ``<home>/models/intent/`` the live model, ``<home>/models/intent.candidate/``
the newly trained one (``corsbot nlu train`` when a live model exists), ``<home>/models/intent.previous/``
the live model before the last promotion (kept for going back by hand). Each folder holds the model
and its ``card.json``, whose ``cv`` entry is the CV figure: grouped k-fold cross-validation of the same
recipe on the same examples (``nlu.intent_eval.cross_validate``; ``accuracy``, ``accuracy_validated``,
``macro_f1``, ``folds``, ``examples``), or ``null`` when it was not measured.

:func:`promote` swaps the folders with renames (the live folder is never half written: a process
that loads the model meanwhile gets the old or the new one) and returns both cards, so the caller can
show both figures. Running dialog workers keep the model they loaded until they are restarted
(``corsbot web`` restarts its own after a promotion from the console).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot import paths
from corsbot_errors import ConfigError

__all__ = ["ModelCard", "cv_text", "promote", "read_card"]


@dataclass(frozen=True, slots=True)
class ModelCard:
    """What the console and ``nlu promote`` show of a model folder.

    Attributes:
        path: the folder.
        exists: whether a model is there.
        created: when it was trained (ISO time), or "".
        examples: training examples (without the extra phrases), or None.
        cv: the CV figure (see the module docstring), or None when not measured.
        corrections: corrected turns it was trained with, or None.
    """

    path: Path
    exists: bool
    created: str = ""
    examples: int | None = None
    cv: dict[str, Any] | None = None
    corrections: int | None = None


def read_card(folder: Path) -> ModelCard:
    """The card of a model folder (a missing or unreadable card: only ``exists``)."""
    exists = (folder / "recognizer.json").exists() or (folder / "card.json").exists()
    try:
        data = json.loads((folder / "card.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ModelCard(folder, exists)
    if not isinstance(data, dict):
        return ModelCard(folder, exists)
    cv = data.get("cv") if isinstance(data.get("cv"), dict) else None
    if cv is None and isinstance(data.get("metrics"), dict):  # an `nlu evaluate` run on the same files
        metrics = data["metrics"]
        cv = {k: metrics[k] for k in ("accuracy", "accuracy_validated", "macro_f1") if k in metrics} or None
        if cv is not None:
            cv["folds"] = 5
    counts: dict[str, Any] = data["counts"] if isinstance(data.get("counts"), dict) else {}
    log: dict[str, Any] = data["log"] if isinstance(data.get("log"), dict) else {}
    return ModelCard(folder, exists, str(data.get("created", "")), counts.get("examples"), cv, log.get("corrections"))


def cv_text(card: ModelCard) -> str:
    """One line for a card: ``accuracy=0.912 accuracy_validated=0.950 macro_f1=0.701 (5-fold CV, 9276 examples)``."""
    if not card.exists:
        return "no model"
    if card.cv is None:
        return "CV figure not measured (trained with --folds 0, or by an older corsbot)"
    parts = [f"{k}={card.cv[k]:.3f}" for k in ("accuracy", "accuracy_validated", "macro_f1") if k in card.cv]
    detail = f"{card.cv.get('folds', '?')}-fold CV"
    if card.examples is not None:
        detail += f", {card.examples} examples"
    return " ".join(parts) + f" ({detail})"


def promote(*, live: Path | None = None, candidate: Path | None = None) -> tuple[ModelCard, ModelCard]:
    """Make the candidate the live model (see the module docstring).

    Returns:
        ``(card of the model that was live, card of the new live model)``.

    Raises:
        ConfigError: no candidate to promote, or the folders cannot be renamed (the live model is
            then left as it was).
    """
    live = live or paths.intent_model()
    candidate = candidate or paths.intent_candidate()
    previous = live.with_name(live.name + ".previous")
    if not (candidate / "recognizer.json").exists() and not (candidate / "card.json").exists():
        raise ConfigError(f"no candidate model at {candidate}: train one with `corsbot nlu train`")
    before = read_card(live)
    after = read_card(candidate)
    try:
        if previous.exists():
            shutil.rmtree(previous)
        if live.exists():
            live.rename(previous)
        try:
            candidate.rename(live)
        except OSError:
            if previous.exists() and not live.exists():
                previous.rename(live)  # put the old one back
            raise
    except OSError as exc:
        raise ConfigError(f"cannot promote {candidate} to {live} ({exc.strerror or exc})") from None
    return before, read_card(live) if after.exists else after
