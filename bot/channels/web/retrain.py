"""The console's retraining in the background (issue 26): ``corsbot nlu train --logs`` as a child
process (the console stays responsive and the training's memory goes back when it ends), its
output in ``<home>/reports/web/retrain.log``; the new model is the candidate beside the live one
(:mod:`bot.intent_models`), promoted only when the researcher says so.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from bot.channels.web.study import StudyConfig

__all__ = ["RetrainJob", "RetrainStatus"]


@dataclass(frozen=True, slots=True)
class RetrainStatus:
    """Where the retraining is: ``state`` is ``idle``, ``running``, ``done`` or ``failed``."""

    state: str
    started: float | None = None
    finished: float | None = None
    returncode: int | None = None
    tail: str = ""


class RetrainJob:
    """One retraining at a time (see the module docstring).

    Args:
        study: its ``retrain`` settings and log session.
        log_path: where the command's output goes.
    """

    def __init__(self, study: StudyConfig, log_path: Path) -> None:
        self._study = study
        self._log_path = log_path
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._started: float | None = None
        self._finished: float | None = None

    def command(self) -> list[str]:
        """The ``corsbot nlu train`` command line the job runs."""
        settings = self._study.retrain
        cmd = [sys.executable, "-m", "bot.cli", "nlu", "train", "--logs", "--session", self._study.log_session,
               "--folds", str(settings.folds)]  # fmt: skip
        if settings.data:
            cmd += ["--data", *map(str, settings.data)]
        if not settings.extra:
            cmd.append("--no-extra")
        return cmd

    def start(self) -> bool:
        """Start the retraining; False if one is running already."""
        with self._lock:
            if self._process is not None and self._process.poll() is None:
                return False
            self._log_path.parent.mkdir(parents=True, exist_ok=True)
            with self._log_path.open("wb") as out:
                self._process = subprocess.Popen(  # noqa: S603 - our own CLI, fixed arguments
                    self.command(), stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=dict(os.environ)
                )
            self._started, self._finished = time.time(), None
            return True

    def status(self) -> RetrainStatus:
        """The job's state and the last lines of its output."""
        with self._lock:
            process = self._process
            if process is None:
                return RetrainStatus("idle")
            code = process.poll()
            if code is not None and self._finished is None:
                self._finished = time.time()
            started, finished = self._started, self._finished
        try:
            tail = "\n".join(self._log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-12:])
        except OSError:
            tail = ""
        state = "running" if code is None else ("done" if code == 0 else "failed")
        return RetrainStatus(state, started, finished, code, tail)

    def wait(self, timeout: float | None = None) -> int | None:
        """Wait for the running job (tests); its return code."""
        process = self._process
        return process.wait(timeout) if process is not None else None

    def stop(self) -> None:
        """Stop a running job (server shutdown)."""
        process = self._process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
