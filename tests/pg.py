"""The throwaway PostgreSQL server of the tests (one per test session, on 127.0.0.1), and a fresh
database per test. Skipped with the reason when the machine has no PostgreSQL server binaries
(``.ci/run`` installs Debian's ``postgresql`` where it is missing)."""

from __future__ import annotations

import itertools

import pytest

from bot.pgstore.cluster import ThrowawayCluster, find_binaries

_counter = itertools.count()


@pytest.fixture(scope="session")
def pg_cluster():
    if find_binaries() is None:
        pytest.skip("no PostgreSQL server binaries (initdb, pg_ctl) on this machine: apt-get install postgresql")
    cluster = ThrowawayCluster().start()
    yield cluster
    cluster.stop()


@pytest.fixture()
def pg_url(pg_cluster):
    """A fresh, empty database on the session's server."""
    import psycopg

    name = f"t{next(_counter)}"
    with psycopg.connect(pg_cluster.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return pg_cluster.url.rsplit("/", 1)[0] + f"/{name}"
