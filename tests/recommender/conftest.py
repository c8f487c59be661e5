"""Fixtures of the knowledge-base tests: the tiny N-Triples fixture, the embedded store and snapshots
built from it once per session, a real ``oxigraph serve`` on 127.0.0.1, and a scriptable local HTTP
endpoint (fake responses, or forwarding to the real server) for the SPARQL field cases F14-F19.
Helpers live in ``_kb_testkit.py`` (tests/recommender is on sys.path: it is not a package).
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from _kb_testkit import BUILT_AT, TINY_NT, FakeEndpoint, OxigraphServer, make_handler, start_oxigraph


@pytest.fixture(scope="session")
def tiny_dump() -> Path:
    """The tiny N-Triples fixture (movie/book/music, ~100 triples)."""
    return TINY_NT


@pytest.fixture(scope="session")
def embedded_backend(tmp_path_factory: pytest.TempPathFactory, tiny_dump: Path):
    """An embedded store loaded from the fixture (batches of 3 and pages of 4 to exercise paging)."""
    from recommender.sparql import open_embedded

    store = tmp_path_factory.mktemp("kbstore") / "store"
    backend = open_embedded(store, tiny_dump)
    backend.batch_size, backend.page_size = 3, 4
    return backend


@pytest.fixture(scope="session")
def tiny_snapshots(tmp_path_factory: pytest.TempPathFactory, embedded_backend) -> dict[str, Path]:
    """Snapshot folders of the three domains built from the fixture with the embedded backend."""
    from recommender.sparql import build_snapshot

    root = tmp_path_factory.mktemp("kb")
    out = {}
    for domain in ("movie", "book", "music"):
        build_snapshot(embedded_backend, domain, root / domain, progress=False, built_at=BUILT_AT)
        out[domain] = root / domain
    return out


@pytest.fixture(scope="session")
def tiny_kbs(tiny_snapshots):
    """``{domain: KnowledgeBase}`` loaded from the fixture snapshots."""
    from recommender.kb import KnowledgeBase

    return {d: KnowledgeBase.load(p) for d, p in tiny_snapshots.items()}


@pytest.fixture(scope="session")
def oxigraph_server(tmp_path_factory: pytest.TempPathFactory, tiny_dump: Path) -> Iterator[OxigraphServer]:
    """A real Oxigraph SPARQL server loaded with the fixture, for the whole session."""
    server = start_oxigraph(tmp_path_factory.mktemp("oxiserve") / "db", tiny_dump)
    yield server
    server.stop()


@pytest.fixture
def oxigraph_factory(
    tmp_path_factory: pytest.TempPathFactory, tiny_dump: Path
) -> Iterator[Callable[[], OxigraphServer]]:
    """Start private servers (e.g. to stop one mid-build); all are stopped after the test."""
    started: list[OxigraphServer] = []

    def make() -> OxigraphServer:
        server = start_oxigraph(tmp_path_factory.mktemp("oxiprivate") / "db", tiny_dump)
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


@pytest.fixture
def fake_endpoint() -> Iterator[Callable[..., FakeEndpoint]]:
    """Factory of local scriptable endpoints on 127.0.0.1; all are shut down after the test."""
    servers: list[http.server.ThreadingHTTPServer] = []

    def make(
        script: list[object] | None = None, *, upstream: str | None = None, repeat_last: bool = False
    ) -> FakeEndpoint:
        fake = FakeEndpoint(script=list(script or []), upstream=upstream, repeat_last=repeat_last)
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(fake))
        httpd.daemon_threads = True
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        servers.append(httpd)
        fake.url = f"http://127.0.0.1:{httpd.server_address[1]}/sparql"
        return fake

    yield make
    for httpd in servers:
        httpd.shutdown()
        httpd.server_close()
