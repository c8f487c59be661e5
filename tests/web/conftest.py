"""Fixtures of the web channel's tests: the real application (Starlette, the real dialog manager in the
process) on the hand-made knowledge base and stand-in NLU of ``tests/bot/dialog_fakes.py``, driven with
Starlette's TestClient (httpx, no socket)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bot.channels.web.app import WebConfig, build_app
from bot.channels.web.dialogs import StudyDialogs
from bot.channels.web.study import StudyConfig
from bot.services import DomainServices, Services
from recommender.recommend import Recommender
from tests.bot.dialog_fakes import FakeIntents, FakeKB, FakeLinker, FakeSentiment

TOKEN = "test-console-token-0123"
CSRF = re.compile(r'name="csrf-token" content="([^"]+)"')


def fake_services() -> Services:
    """The stand-in services (one fake film KB for every domain)."""
    kb = FakeKB()
    domain = DomainServices(kb=kb, linker=FakeLinker(kb), recommender=Recommender(kb))
    return Services(FakeIntents(), FakeSentiment(), lambda name: domain)


def csrf_of(html: str) -> str:
    """The page's CSRF token."""
    found = CSRF.search(html)
    assert found, html[:300]
    return found.group(1)


@pytest.fixture
def make_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Any]]:
    """``make_client(study=None, **config) -> TestClient`` (started: lifespan run); ``client.app.state.web`` is the state."""
    monkeypatch.setenv("CORSBOT_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CORSBOT_DATABASE_URL", raising=False)
    clients: list[TestClient] = []

    def make(study: StudyConfig | None = None, *, reloadable: bool = False, **overrides: Any) -> TestClient:
        study = study or StudyConfig(min_turns=2)
        db = tmp_path / "corsbot.sqlite3"

        def factory() -> StudyDialogs:
            return StudyDialogs(db=db, study=study, services=fake_services())

        options: dict[str, Any] = {"console_token": TOKEN, "home": tmp_path / "home"}
        options.update(overrides)
        config = WebConfig(study=study, database=db, signing_key=b"k" * 48, **options)
        app = build_app(config, factory(), handler_factory=factory if reloadable else None)
        client = TestClient(app, follow_redirects=False)
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


def open_chat(client: TestClient, pid: str = "P1") -> str:
    """Open the participant's chat; returns the CSRF token."""
    page = client.get(f"/chat?pid={pid}")
    assert page.status_code == 200, page.text[:300]
    return csrf_of(page.text)


def say(client: TestClient, csrf: str, text: str, pid: str = "P1", **extra: str) -> Any:
    """Send a message as the participant (JSON answer)."""
    data = {"csrf": csrf, "pid": pid, "text": text, **extra}
    return client.post("/chat/send", data=data, headers={"Accept": "application/json"})


def login(client: TestClient) -> str:
    """Log in to the console; returns the CSRF token."""
    csrf = csrf_of(client.get("/console/login").text)
    answer = client.post("/console/login", data={"csrf": csrf, "token": TOKEN})
    assert answer.status_code == 303 and answer.headers["location"] == "/console", answer.text[:300]
    return csrf
