"""A throwaway PostgreSQL server on 127.0.0.1 (tests, benchmarks, trying the PostgreSQL store).

Uses the server binaries of the machine (Debian's ``postgresql`` package: ``/usr/lib/postgresql/<v>/bin``,
or ``initdb`` on the PATH): ``initdb`` into a temporary folder (trust authentication, user
``corsbot``), then ``pg_ctl start`` listening on 127.0.0.1 only, at a free port, with its Unix socket
in the same folder; ``fsync=off`` (a throwaway cluster needs no crash safety, and it makes tests
fast). PostgreSQL refuses to run as root: as root the server runs as the ``postgres`` user (which
the Debian package creates) through ``runuser``.

Example::

    with ThrowawayCluster() as pg:
        url = pg.url            # postgresql://corsbot@127.0.0.1:PORT/corsbot
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from corsbot_errors import ConfigError

__all__ = ["ThrowawayCluster", "find_binaries"]


def find_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl`` (newest Debian version first), or None."""
    found = shutil.which("initdb")
    if found:
        on_path = Path(os.path.realpath(found)).parent
        if (on_path / "pg_ctl").exists():
            return on_path
    for name in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version, reverse=True):
        if Path(name, "initdb").exists() and Path(name, "pg_ctl").exists():
            return Path(name)
    return None


def _version(folder: str) -> float:
    try:
        return float(Path(folder).parent.name)
    except ValueError:
        return 0.0


class ThrowawayCluster:
    """A PostgreSQL server in a temporary folder, removed on :meth:`stop` (see the module docstring).

    Raises:
        ConfigError: no PostgreSQL binaries, or the server did not start (its log's last lines).
    """

    def __init__(self) -> None:
        found = find_binaries()
        if found is None:
            raise ConfigError("no PostgreSQL server binaries (initdb, pg_ctl): apt-get install postgresql")
        self.bin: Path = found
        self.folder = Path(tempfile.mkdtemp(prefix="corsbot-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self.url = f"postgresql://corsbot@127.0.0.1:{self.port}/corsbot"
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def start(self) -> ThrowawayCluster:
        """initdb, start, create the ``corsbot`` database; returns self."""
        if self._as:
            shutil.chown(self.folder, "postgres", "postgres")
        log = self.folder / "server.log"
        self._run("initdb", "-D", str(self.data), "-U", "corsbot", "--auth=trust", "-E", "UTF8", "--no-sync")
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        try:
            self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(log), "-w", "-t", "60", "start")
        except ConfigError:
            tail = log.read_text(errors="replace").splitlines()[-5:] if log.exists() else []
            self.stop()
            raise ConfigError(f"the PostgreSQL test server did not start: {' | '.join(tail)}") from None
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "corsbot", "corsbot")
        return self

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove its folder (idempotent)."""
        if self.data.exists():
            subprocess.run([*self._as, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"],
                           capture_output=True, check=False, timeout=60)  # fmt: skip
        shutil.rmtree(self.folder, ignore_errors=True)

    def _run(self, tool: str, *args: str) -> None:
        assert self.bin is not None
        done = subprocess.run([*self._as, str(self.bin / tool), *args], capture_output=True, text=True, timeout=120,
                              cwd=self.folder)  # fmt: skip
        if done.returncode != 0:
            raise ConfigError(f"{tool} failed: {(done.stderr or done.stdout).strip()[-300:]}")

    def __enter__(self) -> ThrowawayCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
