"""Fixtures of the browser tests (marker ``browser``): a real headless Chromium from Debian's packages
(``/usr/bin/chromium``, driven by Playwright's Python package: no browser download), a runtime folder
built from the tiny fixtures (:mod:`tests.browser.tiny_home`) and ``corsbot web`` started as a
process on 127.0.0.1. A missing Chromium fails the tests with what to install: they are never skipped
(``make test`` and ``.ci/run`` install it where it is missing, as root)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.browser import tiny_home

CHROMIUM = Path(os.environ.get("CORSBOT_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
"""The closed network here: without the background-networking flags Chromium keeps trying outside."""
TOKEN = "browser-console-token-42"


@pytest.fixture(scope="session")
def built_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """KB snapshots of the three domains and a trained intent model (built once, about 3 s)."""
    home = tmp_path_factory.mktemp("tiny-home")
    tiny_home.build(home)
    return home


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium under Playwright (fails, never skips, when it is missing). Per module: Playwright's
    synchronous API keeps an event loop running in the main thread, which the asyncio tests collected
    after these must not find."""
    if not CHROMIUM.exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: `make test` installs Debian's chromium as root "
                    "(else: apt-get install chromium chromium-driver)")  # fmt: skip
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@dataclass
class WebServer:
    """A running ``corsbot web`` (``url``), its runtime folder and study file."""

    url: str
    home: Path
    study: Path
    process: subprocess.Popen[str]


@pytest.fixture(scope="module")
def web_server(built_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """``corsbot web`` on a free port with a fresh database (per test module), one dialog worker process,
    a study file."""
    from bot.channels.web.server import free_port

    tmp_path = tmp_path_factory.mktemp("web")
    home = tmp_path / "home"
    shutil.copytree(built_home, home, ignore=shutil.ignore_patterns("corsbot.sqlite3*", "store", "exports", "reports"))
    training = tiny_home.training_file(tmp_path / "retrain")
    study = tmp_path / "study.toml"
    study.write_text(
        'name = "browser"\nmin_turns = 4\ncompletion_code = "BRWS2027"\n'
        'consent = "You take part in a study of a movie, book and music recommender. <b>Your messages are logged.</b>"\n'
        '[conditions]\npopularity = "movie=popularity"\nno_suggestions = "none"\n'
        f'[retrain]\ndata = ["{training}"]\nextra = false\nfolds = 2\n',
        encoding="utf-8",
    )
    port = free_port()
    env = {**os.environ, "CORSBOT_HOME": str(home), "CORSBOT_SHARED": str(tmp_path / "no-shared"),
           "CORSBOT_CONSOLE_TOKEN": TOKEN}  # fmt: skip
    env.pop("CORSBOT_DATABASE_URL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "web", "--study", str(study), "--port", str(port), "--processes", "1"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    assert process.stdout is not None
    deadline, seen = time.monotonic() + 120, []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        seen.append(line)
        if line.startswith("web: serving") or process.poll() is not None:
            break
    if not seen or not seen[-1].startswith("web: serving"):
        process.kill()
        pytest.fail("corsbot web did not start:\n" + "".join(seen[-20:]))
    import threading

    threading.Thread(target=lambda: seen.extend(process.stdout or ()), daemon=True).start()  # never a full pipe
    server = WebServer(f"http://127.0.0.1:{port}", home, study, process)
    yield server
    process.terminate()
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
