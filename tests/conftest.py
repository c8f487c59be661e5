"""Fixtures shared by every test package: the throwaway PostgreSQL server (tests/pg.py) and read-only
files and folders (tests/fsfaults.py)."""

pytest_plugins = ["tests.pg", "tests.fsfaults"]
