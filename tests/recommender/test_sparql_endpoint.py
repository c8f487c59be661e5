"""Remote SPARQL extraction against a real ``oxigraph serve`` on 127.0.0.1 and scripted local
endpoints: identical snapshots, and the SPARQL field cases F14-F19 of shared/field-cases.md."""

from __future__ import annotations

import json
import shutil
import time

import pytest
from _kb_testkit import BUILT_AT, FORWARD, JSON_HEADERS, Reply, sparql_json

from recommender.errors import (
    BadResponseError,
    EndpointError,
    EndpointTimeoutError,
    KnowledgeBaseError,
    TruncatedResultError,
)
from recommender.kb import SNAPSHOT_FILE, KnowledgeBase, read_snapshot
from recommender.sparql import (
    DEFAULT_USER_AGENT,
    RemoteBackend,
    build_snapshot,
    parse_retry_after,
    parse_sparql_json,
    query_sitelinks,
)

ASK_ROWS = "SELECT ?e WHERE { VALUES ?e { <http://www.wikidata.org/entity/Q83495> } }"


def _remote(url: str, **kw) -> RemoteBackend:
    kw.setdefault("batch_size", 3)
    kw.setdefault("page_size", 4)
    kw.setdefault("backoff_s", 0.01)
    kw.setdefault("timeout_s", 10)
    return RemoteBackend(url, **kw)


def _doc_without_source(path):
    doc = read_snapshot(path)
    assert doc.pop("source")
    return doc


@pytest.mark.parametrize("domain", ["movie", "book", "music"])
def test_remote_oxigraph_gives_the_same_snapshot_as_embedded(domain, tmp_path, oxigraph_server, tiny_snapshots):
    backend = _remote(oxigraph_server.url)
    report = build_snapshot(backend, domain, tmp_path / domain, progress=False, built_at=BUILT_AT)
    assert _doc_without_source(tmp_path / domain) == _doc_without_source(tiny_snapshots[domain])
    assert read_snapshot(tmp_path / domain)["source"] == f"remote:{oxigraph_server.url}"
    assert report.items == len(KnowledgeBase.load(tiny_snapshots[domain]).items)
    assert backend.queries == report.queries  # no retries needed


def test_server_stopped_mid_build_is_a_clear_error_and_keeps_the_old_snapshot(
    tmp_path, oxigraph_factory, tiny_snapshots
):
    server = oxigraph_factory()
    out = tmp_path / "movie"
    shutil.copytree(tiny_snapshots["movie"], out)
    before = (out / SNAPSHOT_FILE).read_bytes()

    class StopsAfter(RemoteBackend):
        def select(self, query):
            if self.queries == 8:
                server.stop()  # the endpoint dies in the middle of the build
            return super().select(query)

    sleeps: list[float] = []
    backend = StopsAfter(server.url, batch_size=3, page_size=4, max_retries=2, backoff_s=0.01, sleep=sleeps.append)
    with pytest.raises(EndpointError) as info:
        build_snapshot(backend, "movie", out, progress=False)
    message = str(info.value)
    assert "building the movie knowledge base failed" in message
    assert "cannot reach the endpoint" in message and server.url in message
    assert "the previous snapshot is kept" in message
    assert info.value.status is None
    assert sleeps == [0.01, 0.02]  # retried with backoff before giving up
    assert (out / SNAPSHOT_FILE).read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["movie"]


def test_F14_429_with_retry_after_is_retried_then_succeeds(tmp_path, oxigraph_server, fake_endpoint, tiny_snapshots):
    fake = fake_endpoint(
        [
            Reply(429, b"Too Many Requests", {"Retry-After": "9", "Content-Type": "text/plain"}),
            FORWARD,
            FORWARD,
            Reply(503, b"busy", {"Retry-After": "2"}),
        ],
        upstream=oxigraph_server.url,
    )
    sleeps: list[float] = []
    backend = _remote(fake.url, sleep=sleeps.append)
    build_snapshot(backend, "book", tmp_path / "book", progress=False, built_at=BUILT_AT)
    assert sleeps == [9.0, 2.0]  # Retry-After honoured (seconds), not the default backoff
    assert _doc_without_source(tmp_path / "book") == _doc_without_source(tiny_snapshots["book"])
    assert len(fake.requests) == backend.queries


def test_F14_long_retry_after_fails_at_once_with_the_wait(fake_endpoint):
    fake = fake_endpoint([Reply(429, b"slow down", {"Retry-After": "600"})], repeat_last=True)
    sleeps: list[float] = []
    with pytest.raises(
        EndpointError, match=r"HTTP 429: too many requests: the knowledge base is busy \(retry after 600 s\)"
    ) as info:
        _remote(fake.url, sleep=sleeps.append, max_wait_s=60).select(ASK_ROWS)
    assert info.value.retry_after_s == 600.0 and info.value.status == 429
    assert sleeps == [] and len(fake.requests) == 1


def test_F14_repeated_429_gives_up_after_max_retries(fake_endpoint):
    fake = fake_endpoint([Reply(429, b"", {"Retry-After": "1"})], repeat_last=True)
    sleeps: list[float] = []
    with pytest.raises(EndpointError) as info:
        _remote(fake.url, sleep=sleeps.append, max_retries=3).select(ASK_ROWS)
    assert info.value.status == 429
    assert sleeps == [1.0, 1.0, 1.0] and len(fake.requests) == 4


def test_F14_retry_after_http_date_and_garbage():
    assert parse_retry_after("9") == 9.0
    assert parse_retry_after(" 0 ") == 0.0
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    future = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 30))
    assert 25 <= parse_retry_after(future) <= 31


def test_F15_descriptive_user_agent_and_403_is_clear_and_not_retried(fake_endpoint):
    fake = fake_endpoint(
        [
            Reply(
                403,
                b"<html><body>Please set a user-agent and respect our robot policy</body></html>",
                {"Content-Type": "text/html"},
            )
        ]
    )
    sleeps: list[float] = []
    with pytest.raises(
        EndpointError, match=r"HTTP 403: forbidden: .*User-Agent policy.*Please set a user-agent"
    ) as info:
        _remote(fake.url, sleep=sleeps.append).select(ASK_ROWS)
    assert info.value.status == 403 and sleeps == [] and len(fake.requests) == 1
    headers = fake.requests[0][0]
    agent = headers.get("User-Agent", "")
    assert agent == DEFAULT_USER_AGENT
    assert "corsbot" in agent and "@" in agent and "http" in agent  # name, contact, project URL
    assert "application/sparql-results+json" in headers.get("Accept", "")


def test_F15_user_agent_reaches_the_server_for_real_queries(oxigraph_server, fake_endpoint):
    fake = fake_endpoint([FORWARD], upstream=oxigraph_server.url)
    rows = _remote(fake.url, user_agent="corsbot-test/1 (tests@example.org)").select(ASK_ROWS)
    assert rows[0]["e"].value == "http://www.wikidata.org/entity/Q83495"
    assert fake.requests[0][0]["User-Agent"] == "corsbot-test/1 (tests@example.org)"


def test_F16_200_with_html_body_is_a_clear_error(fake_endpoint, tmp_path):
    fake = fake_endpoint(
        [
            Reply(
                200,
                b"<!DOCTYPE html><html><body><h1>Please set a user-agent</h1></body></html>",
                {"Content-Type": "text/html; charset=utf-8"},
            )
        ],
        repeat_last=True,
    )
    with pytest.raises(
        BadResponseError, match=r"HTTP 200: HTML body instead of SPARQL results \('Please set a user-agent'\)"
    ):
        _remote(fake.url).select(ASK_ROWS)
    with pytest.raises(BadResponseError, match="HTML body"):  # a build stops at once: never an empty KB
        build_snapshot(_remote(fake.url), "movie", tmp_path / "movie", progress=False)
    assert not (tmp_path / "movie").exists()


@pytest.mark.parametrize(
    ("body", "ctype", "message"),
    [
        (b"Service notice: please set a user-agent", "text/plain", "body is not JSON"),
        (b'{"error": "rate limited"}', "application/json", "without a 'head' object"),
        (b'{"head": {"vars": []}, "boolean": true}', "application/json", "without 'results.bindings'"),
        (
            b'{"head": {"vars": ["e"]}, "results": {"bindings": [{"e": {"value": "x"}}]}}',
            "application/json",
            "binding without type/value",
        ),
    ],
    ids=["text-notice", "json-error-object", "ask-result", "binding-without-type"],
)
def test_F16_200_bodies_that_are_not_select_results(body, ctype, message):
    with pytest.raises(BadResponseError, match=message):
        parse_sparql_json(body, ctype, "http://example.org/sparql")


def test_F17_truncated_json_is_an_error_and_never_a_partial_result():
    body = sparql_json(
        ["e"], [{"e": {"type": "uri", "value": f"http://www.wikidata.org/entity/Q{i}"}} for i in range(50)]
    )
    with pytest.raises(TruncatedResultError, match="JSON body cut off or corrupt"):
        parse_sparql_json(body[: len(body) // 2], "application/sparql-results+json", "http://x/sparql")


def test_F17_blazegraph_timeout_trace_after_200_is_truncation():
    body = (
        b'{"head":{"vars":["e"]},"results":{"bindings":[{"e":{"type":"uri","value":"http://www.wikidata.org/entity/Q1"}}'
        b"\njava.util.concurrent.ExecutionException: java.util.concurrent.TimeoutException\n\tat java.util..."
    )
    with pytest.raises(TruncatedResultError, match="server exception trace"):
        parse_sparql_json(body, "application/sparql-results+json", "http://x/sparql")


def test_F17_incomplete_read_is_truncation(fake_endpoint):
    fake = fake_endpoint([Reply(200, b'{"head":{"vars":["e"]},"results":{"bind', JSON_HEADERS, close_early=True)])
    with pytest.raises(TruncatedResultError, match="IncompleteRead|cut off"):
        _remote(fake.url).select(ASK_ROWS)


def test_F17_truncated_batch_is_retried_as_two_smaller_queries(
    tmp_path, oxigraph_server, fake_endpoint, tiny_snapshots
):
    # the answer to the first names query is cut off: the batch is split in halves and re-asked
    cut = Reply(200, b'{"head":{"vars":["e","p","text"]},"results":{"bindings":[{"e":', JSON_HEADERS)
    fake = fake_endpoint([], upstream=oxigraph_server.url)
    fake.once_if.append((b"skos:altLabel", cut))
    backend = _remote(fake.url)
    build_snapshot(backend, "music", tmp_path / "music", progress=False, built_at=BUILT_AT)
    assert _doc_without_source(tmp_path / "music") == _doc_without_source(tiny_snapshots["music"])
    sizes = [b.count(b"wd%3AQ") for _, b in fake.requests if b"altLabel" in b]
    assert sizes[:3] == [3, 1, 2]  # the cut batch of 3, then its halves


def test_F17_persistent_truncation_fails_the_build_and_keeps_the_old_snapshot(tmp_path, tiny_snapshots, fake_endpoint):
    fake = fake_endpoint(
        [Reply(200, b'{"head":{"vars":["class"]},"results":{"bindings":[', JSON_HEADERS)], repeat_last=True
    )
    out = tmp_path / "music"
    shutil.copytree(tiny_snapshots["music"], out)
    before = (out / SNAPSHOT_FILE).read_bytes()
    with pytest.raises(
        TruncatedResultError, match="building the music knowledge base failed: .*cut off.*the previous snapshot is kept"
    ):
        build_snapshot(_remote(fake.url), "music", out, progress=False)
    assert (out / SNAPSHOT_FILE).read_bytes() == before


def test_F18_client_timeout_gives_a_quick_clear_error(fake_endpoint):
    fake = fake_endpoint([Reply(200, sparql_json(["e"], []), JSON_HEADERS, delay_s=4.0)])
    start = time.monotonic()
    with pytest.raises(EndpointTimeoutError, match=r"no answer within 1 s"):
        _remote(fake.url, timeout_s=1).select(ASK_ROWS)
    assert time.monotonic() - start < 3.5
    assert len(fake.requests) == 1  # a timeout is not hammered with retries


def test_F18_server_side_timeout_500_is_a_timeout_error(fake_endpoint):
    fake = fake_endpoint(
        [
            Reply(
                500,
                b"java.util.concurrent.TimeoutException: Query deadline is expired.",
                {"Content-Type": "text/plain"},
            )
        ]
    )
    with pytest.raises(EndpointTimeoutError, match="timed out on the server"):
        _remote(fake.url).select(ASK_ROWS)


def test_F18_overall_deadline_bounds_the_retries(fake_endpoint):
    fake = fake_endpoint([Reply(503, b"", {"Retry-After": "5"})], repeat_last=True)
    now = [0.0]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    with pytest.raises(EndpointTimeoutError, match="gave up after 3 attempts within the 12 s deadline"):
        _remote(fake.url, deadline_s=12, sleep=sleep, clock=lambda: now[0]).select(ASK_ROWS)
    assert len(fake.requests) == 3  # 0 s, +5 s, +10 s; a third wait would pass 12 s


def test_F19_unbound_optional_variables_and_zero_rows(oxigraph_server):
    backend = _remote(oxigraph_server.url)
    rows = backend.select(query_sitelinks(["Q83495", "Q189600"]))
    by_entity = {r["e"].value.rsplit("/", 1)[1]: r for r in rows}
    assert by_entity["Q83495"]["article"].value == "https://en.wikipedia.org/wiki/The_Matrix"
    assert "article" not in by_entity["Q189600"]  # unbound OPTIONAL: absent, read with .get
    assert by_entity["Q189600"].get("article") is None
    assert backend.select("SELECT ?x WHERE { ?x <http://example.org/none> ?y }") == []


def test_F19_recorded_response_with_missing_keys():
    # what query.wikidata.org returns when ?trailer / ?date are unbound in some rows
    body = json.dumps(
        {
            "head": {"vars": ["film", "trailer", "date"]},
            "results": {
                "bindings": [
                    {
                        "film": {"type": "uri", "value": "http://www.wikidata.org/entity/Q83495"},
                        "date": {
                            "datatype": "http://www.w3.org/2001/XMLSchema#dateTime",
                            "type": "literal",
                            "value": "1999-03-31T00:00:00Z",
                        },
                    },
                    {"film": {"type": "uri", "value": "http://www.wikidata.org/entity/Q172241"}},
                ]
            },
        }
    ).encode()
    rows = parse_sparql_json(body, "application/sparql-results+json;charset=utf-8", "https://query.wikidata.org/sparql")
    assert [r.get("trailer") for r in rows] == [None, None]
    assert rows[0]["date"].datatype == "http://www.w3.org/2001/XMLSchema#dateTime"
    assert rows[1].get("date") is None


def test_cannot_reach_endpoint_is_a_clear_error():
    from _kb_testkit import free_port

    url = f"http://127.0.0.1:{free_port()}/query"
    with pytest.raises(
        EndpointError, match=r"SPARQL endpoint http://127\.0\.0\.1:\d+/query: no response: cannot reach the endpoint"
    ):
        _remote(url, max_retries=1, sleep=lambda s: None).select(ASK_ROWS)


def test_bad_query_is_an_endpoint_error_with_status(oxigraph_server):
    with pytest.raises(EndpointError) as info:
        _remote(oxigraph_server.url).select("SELECT WHERE nonsense")
    assert info.value.status == 400
    assert isinstance(info.value, KnowledgeBaseError)


def test_F15_self_check_before_a_build(oxigraph_server, fake_endpoint):
    assert _remote(oxigraph_server.url).check() >= 0.0
    fake = fake_endpoint([Reply(403, b"blocked", {"Content-Type": "text/plain"})])
    with pytest.raises(EndpointError, match="HTTP 403"):
        _remote(fake.url).check()


def test_cli_build_against_the_local_server(tmp_path, oxigraph_server, tiny_snapshots, capsys):
    from bot.cli import main

    code = main(
        ["kb", "build", "--endpoint", oxigraph_server.url, "--out", str(tmp_path), "--domain", "movie", "--no-progress"]
    )
    assert code == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"endpoint: {oxigraph_server.url} answers (self-check ")
    assert _doc_without_source(tmp_path / "movie") | {"built_at": BUILT_AT} == _doc_without_source(
        tiny_snapshots["movie"]
    )
