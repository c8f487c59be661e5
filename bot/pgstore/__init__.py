"""PostgreSQL storage (issue 15): :mod:`.store` (the stores, selected by ``CORSBOT_DATABASE_URL``;
their modules :mod:`.state`, :mod:`.log`, :mod:`.inbox`, :mod:`.users` over :mod:`.connection` and
:mod:`.schema`) and :mod:`.cluster` (a throwaway server on 127.0.0.1 for tests and benchmarks)."""
