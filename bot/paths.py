"""Where corsbot keeps its runtime outputs and finds the shared data.

Every runtime output (knowledge-base snapshots, models, the SQLite database, exported logs and
reports) lives under one git-ignored folder, ``$CORSBOT_HOME`` (default ``<cwd>/var``). Data that
is not ours (the released ConveRSE messages, the DialogFlow agent, the Wikidata dump) is read from
``$CORSBOT_SHARED`` (default ``<project root>/../shared/data``).

Example:
    >>> home().name
    'var'
"""

from __future__ import annotations

import os
from pathlib import Path

DOMAINS: tuple[str, ...] = ("movie", "book", "music")
PROJECT_ROOT = Path(__file__).resolve().parent.parent


def home() -> Path:
    """The runtime folder, ``$CORSBOT_HOME`` or ``./var``; not created here."""
    return Path(os.environ.get("CORSBOT_HOME") or Path.cwd() / "var")


def home_hint(what: Path) -> str:
    """Where the runtime folder came from and how to point corsbot at another one, for error messages.

    Args:
        what: the missing path (under :func:`home`), e.g. the intent model folder.

    Returns:
        e.g. ``"CORSBOT_HOME is not set, so corsbot looked in ./var of the current folder /tmp; run it
        from the project folder or set CORSBOT_HOME (a runtime folder with this is at /work/main/var)"``.
    """
    if os.environ.get("CORSBOT_HOME"):
        where = f"CORSBOT_HOME={os.environ['CORSBOT_HOME']}"
    else:
        where = (
            f"CORSBOT_HOME is not set, so corsbot looked in ./var of the current folder {Path.cwd()}; "
            "run it from the project folder or set CORSBOT_HOME to the runtime folder"
        )
    project_home = PROJECT_ROOT / "var"
    try:
        relative = Path(what).relative_to(home())
    except ValueError:
        relative = None
    if relative is not None and project_home.resolve() != home().resolve() and (project_home / relative).exists():
        where += f" (the project's {project_home} has one: CORSBOT_HOME={project_home})"
    return where


def shared_data() -> Path:
    """The shared data folder, ``$CORSBOT_SHARED`` or ``<project>/../shared/data``."""
    env = os.environ.get("CORSBOT_SHARED")
    return Path(env) if env else PROJECT_ROOT.parent / "shared" / "data"


def kb_dir() -> Path:
    """Folder of the per-domain knowledge-base snapshots (``<home>/kb``)."""
    return home() / "kb"


def kb_snapshot(domain: str) -> Path:
    """Snapshot path of one domain (``<home>/kb/<domain>``)."""
    return kb_dir() / domain


def kb_store() -> Path:
    """The embedded pyoxigraph store loaded from the dump (``<home>/kb/store``)."""
    return kb_dir() / "store"


def wikidata_dump() -> Path:
    """The offline Wikidata subset (gzip N-Triples) in the shared data."""
    return shared_data() / "wikidata" / "wikidata-subset.nt.gz"


def converse_dir() -> Path:
    """The released ConveRSE messages (``<shared>/converse``)."""
    return shared_data() / "converse"


def released_files() -> list[Path]:
    """The six released message files, movie/book/music x nl/mixed, in that order."""
    return [converse_dir() / d / f"messages_{k}.json" for d in DOMAINS for k in ("nl", "mixed")]


def jiis_dir() -> Path:
    """The released conditions of the successor study (``<shared>/jiis``: active elicitation, movie domain)."""
    return shared_data() / "jiis"


def jiis_files() -> list[Path]:
    """The successor study's message files present under :func:`jiis_dir` (``<condition>/messages.json``),
    sorted by condition name; none when the folder is absent."""
    folder = jiis_dir()
    return sorted(folder.glob("*/messages.json")) if folder.is_dir() else []


def models_dir() -> Path:
    """Folder of the trained models (``<home>/models``): the intent model's folders, and one folder per stored
    text classifier (``acts/``, ``hedge/``: ``corsbot nlu train-classifiers``)."""
    return home() / "models"


def intent_model() -> Path:
    """Folder of the trained intent recognizer (``<home>/models/intent``)."""
    return models_dir() / "intent"


def intent_candidate() -> Path:
    """Folder of a newly trained intent recognizer waiting to be promoted (``<home>/models/intent.candidate``)."""
    return home() / "models" / "intent.candidate"


def intent_previous() -> Path:
    """Folder of the live intent recognizer before the last promotion (``<home>/models/intent.previous``)."""
    return home() / "models" / "intent.previous"


def database() -> Path:
    """The SQLite database of dialog state, profiles and session logs."""
    return home() / "corsbot.sqlite3"


def exports_dir() -> Path:
    """Folder for exported dataset-format logs."""
    return home() / "exports"


def reports_dir() -> Path:
    """Folder for evaluation, replay and benchmark reports."""
    return home() / "reports"


def domain_from_path(path: Path, default: str = "movie") -> str:
    """The domain named by a ``movie``/``book``/``music`` folder in ``path``, else ``default``."""
    for part in reversed(Path(path).parts[:-1]):
        if part in DOMAINS:
            return part
    return default
