"""Developer tools kept with the tests (e.g. ``same_behaviour``: refactoring checks), and their tests."""
