"""Export the session log as a dataset-format JSON file (``corsbot export``).

Example:
    >>> # export(LogStore(paths.database()), paths.exports_dir() / "live.json", session="live")
"""

from __future__ import annotations

import logging
import os

from logs.record import write_records
from logs.store import LogStore

__all__ = ["export"]

logger = logging.getLogger(__name__)


def export(store: LogStore, path: str | os.PathLike[str], *, session: str | None = None) -> int:
    """Write the records of ``session`` (all sessions if None) to ``path`` in dataset format.

    The file is a JSON array of the dataset's 13-key objects (plus any extra fields), in insertion
    order, written atomically to a regular file, through a symlink, device or FIFO, or to stdout for
    ``-`` (see :func:`logs.record.write_records`). Records of different
    sessions may share user ids; export one session to get one consistent set of conversations.

    Args:
        store: the session log.
        path: the output file (parent folders created), or ``-`` for standard output.
        session: the session to export, or None for all of them.

    Returns:
        The number of records written (0 writes an empty array).

    Raises:
        StoreError: the log cannot be read.
        RecordError: the file cannot be written.
    """
    records = store.records(session)
    write_records(path, records)
    logger.info("exported %d records of session %s to %s", len(records), session or "<all>", path)
    return len(records)
