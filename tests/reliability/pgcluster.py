"""A PostgreSQL cluster of a test's own: made in a temporary folder, restartable, removed at the end.

The shared server (BATCHLOG_TEST_POSTGRES) is used by every worker of the suite at once; a test that
restarts its server (`pg_ctl -m immediate`) needs one nobody else uses.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _bin_dir() -> Path | None:
    """The newest installed PostgreSQL's bin folder (Debian keeps them in /usr/lib/postgresql/N/bin)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name))
    if found:
        return Path(found[-1])
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _spare_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """`initdb`, `pg_ctl start` on 127.0.0.1 and a spare port; `url` names its database `batchlog`."""

    def __init__(self, folder: Path) -> None:
        bin_dir = _bin_dir()
        if bin_dir is None:
            why = "no PostgreSQL server binaries (initdb, pg_ctl): apt-get install postgresql, or run tests/run"
            if os.environ.get("BATCHLOG_REQUIRE_POSTGRES") == "1":
                pytest.fail(why)
            pytest.skip(why)
        self.bin = bin_dir
        self.folder = folder
        self.data = folder / "data"
        self.port = _spare_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root: the cluster belongs to its own user
            shutil.chown(folder, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/batchlog"

    @classmethod
    @contextmanager
    def made(cls) -> Iterator[Cluster]:
        """A started cluster in a folder of its own (outside pytest's, which the server's user cannot enter),
        stopped and removed at the end."""
        folder = Path(tempfile.mkdtemp(prefix="batchlog-pg-"))
        cluster = cls(folder)
        try:
            yield cluster.start()
        finally:
            cluster.stop()
            shutil.rmtree(folder, ignore_errors=True)

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self.as_user, *args], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{' '.join(args)} failed: {done.stdout}{done.stderr}"

    def start(self) -> Cluster:
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "server.log"), "-w",
                  "-o", f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                        "-c max_connections=100", "start")
        self._run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "batchlog")
        return self

    def restart_immediately(self) -> None:
        """`pg_ctl restart -m immediate`: the server dies without a clean shutdown (as on a crash), then comes back."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "server.log"), "-m", "immediate",
                  "-w", "restart")

    def stop(self) -> None:
        subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
                       capture_output=True, timeout=120)
