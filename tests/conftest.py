"""Fixtures shared by every test package: the throwaway PostgreSQL server (tests/pg.py)."""

pytest_plugins = ["tests.pg"]
