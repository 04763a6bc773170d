"""Every wait bounded and announced, reads included; settings checked for range on every store (issue 23, items
11 and 17).

An append waits for its log's lock through engine/recorders/wait.py: said once, given up after
BATCHLOG_LOCK_TIMEOUT. On PostgreSQL a read waits too, when another session holds a lock on batchlog's tables
(LOCK TABLE, VACUUM FULL, REINDEX): every statement the recorder runs goes through the same wait. The tests
hold a real LOCK TABLE on another connection and hand over by the announcement itself (the `on_wait` callback,
or the line on a process's stderr), never by a timer.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from batchlog.engine import open_log
from batchlog.engine.address import recorder_for
from batchlog.engine.errors import BadSetting, LockTimeout
from batchlog.engine.recorders.postgresql import PostgresRecorder
from batchlog.engine.recorders.wait import LOCK_TIMEOUT_ENV, LOCK_TIMEOUT_MAX_S
from batchlog.engine.scan import Position
from tests.clirunner import invoke
from tests.sample_domain import COUNT, REGISTRY, NoteAdded
from tests.stores import STORES, Store, store_for

ROOT = Path(__file__).resolve().parent.parent
IN_PROGRESS = ROOT / "fixtures" / "tune-in-progress"
CLOCK = "2026-12-02T16:00:00Z"
TABLES = "batchlog.logs, batchlog.events, batchlog.snapshots"


@pytest.fixture(scope="module")
def private_url(postgres_url) -> str:
    """A database of this module's own: its tests lock batchlog's tables whole, which would hold up every other
    test on the shared database."""
    import uuid
    from urllib.parse import urlsplit, urlunsplit

    import psycopg2

    database = f"batchlog_waits_{uuid.uuid4().hex[:10]}"
    admin = psycopg2.connect(postgres_url)
    admin.autocommit = True
    with admin.cursor() as cur:
        cur.execute(f"CREATE DATABASE {database}")
    parts = urlsplit(postgres_url)
    try:
        yield urlunsplit((parts.scheme, parts.netloc, f"/{database}", parts.query, ""))
    finally:
        with admin.cursor() as cur:
            cur.execute(f"DROP DATABASE {database} WITH (FORCE)")
        admin.close()


@pytest.fixture
def server_log(private_url, log_name, monkeypatch) -> str:
    monkeypatch.setenv("BATCHLOG_CLOCK", CLOCK)
    address = f"{private_url}{'&' if '?' in private_url else '?'}log={log_name}"
    open_log(address, REGISTRY).append(COUNT, lambda state: [NoteAdded("a"), NoteAdded("b")])
    return address


class Holder:
    """Another session holding a lock on batchlog's tables until `release`."""

    def __init__(self, url: str, statement: str = f"LOCK TABLE {TABLES} IN ACCESS EXCLUSIVE MODE") -> None:
        import psycopg2

        self.conn = psycopg2.connect(url)
        with self.conn.cursor() as cur:
            cur.execute(statement)

    def release(self, *_: object) -> None:
        if not self.conn.closed:
            self.conn.rollback()
            self.conn.close()


# Every public method of the PostgreSQL recorder that runs a statement outside an append, each called as a
# view calls it. A new method fails `test_every_statement_outside_an_append_is_listed` until it is listed here.
READS = {
    "exists": lambda recorder: recorder.exists(),
    "lines": lambda recorder: [line for block in recorder.lines(Position(), None).blocks() for line in block],
    "head": lambda recorder: recorder.head(),
    "chain_through": lambda recorder: recorder.chain_through(2),
    "load_snapshot": lambda recorder: recorder.load_snapshot("sample.count", "0" * 16),
    "store_snapshot": lambda recorder: recorder.store_snapshot("waits", "0" * 16, b"a cache"),
    "snapshot_names": lambda recorder: recorder.snapshot_names(),
    "query": lambda recorder: recorder.query("SELECT count(*) FROM batchlog.events"),
}
NO_STATEMENT = {"close", "connection", "locked", "unfinished"}  # no statement of their own (`locked`: TestAppends)


def test_every_statement_outside_an_append_is_listed():
    public = {name for name in vars(PostgresRecorder)
              if not name.startswith("_") and callable(getattr(PostgresRecorder, name))}

    assert public - NO_STATEMENT == set(READS)


class TestReadsWait:
    @pytest.mark.parametrize("read", sorted(READS))
    def test_a_read_behind_a_lock_says_so_once_then_goes_on_when_it_is_released(self, server_log, private_url, read):
        said: list[str] = []
        unlocked = READS[read](recorder_for(server_log))
        recorder = recorder_for(server_log, on_wait=said.append)
        recorder.connection()
        holder = Holder(private_url)
        try:
            recorder.on_wait = lambda text: (said.append(text), holder.release())

            found = READS[read](recorder)
        finally:
            holder.release()

        assert found == unlocked
        assert len(said) == 1 and said[0].startswith(f"waiting for the lock on {recorder.address}: "), said

    @pytest.mark.parametrize("read", sorted(READS))
    def test_a_read_behind_a_lock_gives_up_after_the_timeout(self, server_log, private_url, read, monkeypatch):
        monkeypatch.setenv(LOCK_TIMEOUT_ENV, "0")
        said: list[str] = []
        recorder = recorder_for(server_log, on_wait=said.append)
        recorder.connection()
        holder = Holder(private_url)
        try:
            with pytest.raises(LockTimeout) as gave_up:
                READS[read](recorder)
        finally:
            holder.release()

        assert len(said) == 1 and LOCK_TIMEOUT_ENV in gave_up.value.message
        assert READS["exists"](recorder)  # the recorder is usable again once the lock is gone

    def test_a_view_through_open_log_is_announced(self, server_log, private_url):
        said: list[str] = []
        holder = Holder(private_url, f"LOCK TABLE batchlog.events IN ACCESS EXCLUSIVE MODE")
        try:
            log = open_log(server_log, REGISTRY, on_wait=lambda text: (said.append(text), holder.release()))

            replayed = log.replay(COUNT)
        finally:
            holder.release()

        assert replayed.state.notes == 2 and len(said) == 1


class TestAppends:
    def test_an_append_behind_a_table_lock_says_so_and_goes_on(self, server_log, private_url):
        said: list[str] = []
        log = open_log(server_log, REGISTRY)
        log.recorder.connection()
        holder = Holder(private_url, "LOCK TABLE batchlog.events IN ACCESS EXCLUSIVE MODE")
        try:
            log.on_wait = lambda text: (said.append(text), holder.release())

            done = log.append(COUNT, lambda state: [NoteAdded("c")])
        finally:
            holder.release()

        assert done.state.notes == 3 and len(said) == 1


class TestTheCommandLine:
    """A view run as a process, behind a LOCK TABLE another session holds: its announcement is read from its
    stderr as it prints it (the handshake); then the lock is released, or the view left to time out."""

    def _tuning_on_server(self, tmp_path: Path, private_url: str, log_name: str) -> list[str]:
        folder = tmp_path / "finetune"
        shutil.copytree(IN_PROGRESS, folder)
        address = f"{private_url}{'&' if '?' in private_url else '?'}log={log_name}"
        assert invoke("log", "migrate", folder / "events.jsonl", address).code == 0
        (folder / "events.jsonl").unlink()
        return ["--dir", str(folder), "--store", private_url, "--log", log_name]

    def _started(self, args: list[str], timeout: str) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "batchlog.cli.main", *args], cwd=ROOT, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env={**__import__("os").environ, "BATCHLOG_DEBUG": "", "BATCHLOG_CLOCK": CLOCK,
                                     LOCK_TIMEOUT_ENV: timeout})

    @pytest.mark.parametrize("view", [["tune", "status"], ["log", "show"]], ids=["tune status", "log show"])
    def test_a_view_waits_announced_and_answers_once_the_lock_is_released(self, tmp_path, private_url, log_name,
                                                                             view):
        options = self._tuning_on_server(tmp_path, private_url, log_name)
        address = f"{private_url}{'&' if '?' in private_url else '?'}log={log_name}"
        args = [*view, *options] if view[0] == "tune" else [*view, address]
        unlocked = invoke(*args)
        holder = Holder(private_url, "LOCK TABLE batchlog.events IN ACCESS EXCLUSIVE MODE")
        try:
            process = self._started(args, "600")
            notice = process.stderr.readline()  # blocks until the view prints it: the view is at the lock
            holder.release()
            out, err = process.communicate()
        finally:
            holder.release()

        assert notice.startswith("waiting for the lock on postgresql://") and "giving up after 600s" in notice
        assert (process.returncode, out, err) == (0, unlocked.out, "")

    def test_a_view_gives_up_after_the_timeout_with_one_line(self, tmp_path, private_url, log_name):
        options = self._tuning_on_server(tmp_path, private_url, log_name)
        holder = Holder(private_url, "LOCK TABLE batchlog.events IN ACCESS EXCLUSIVE MODE")
        try:
            process = self._started(["tune", "status", *options], "1")
            out, err = process.communicate()
        finally:
            holder.release()

        lines = err.splitlines()
        assert process.returncode == 1 and out == ""
        assert len(lines) == 2 and lines[0].startswith("waiting for the lock on postgresql://")
        assert lines[1].startswith("batchlog: ") and LOCK_TIMEOUT_ENV in lines[1]


# -- item 17: a setting out of range is refused on every store, before anything is done -----------------------


@pytest.fixture(params=STORES)
def store(request, tmp_path, log_name, monkeypatch) -> Store:
    monkeypatch.setenv("BATCHLOG_CLOCK", CLOCK)
    url = request.getfixturevalue("private_url") if request.param == "postgresql" else None
    return store_for(request.param, log_name, tmp_path, url)


class TestTheLockTimeoutSetting:
    @pytest.mark.parametrize("value", ["3000000", str(LOCK_TIMEOUT_MAX_S + 1), "1e300", "-1", "nan", "inf", "soon"])
    def test_a_value_out_of_range_is_refused_by_every_store_and_nothing_is_written(self, store, value, monkeypatch):
        open_log(store.address, REGISTRY).append(COUNT, lambda state: [NoteAdded("a")])
        before = store.bytes()
        monkeypatch.setenv(LOCK_TIMEOUT_ENV, value)

        with pytest.raises(BadSetting) as refused:
            open_log(store.address, REGISTRY).append(COUNT, lambda state: [NoteAdded("b")])

        monkeypatch.delenv(LOCK_TIMEOUT_ENV)
        assert LOCK_TIMEOUT_ENV in refused.value.message and str(LOCK_TIMEOUT_MAX_S) in refused.value.message
        assert store.bytes() == before

    @pytest.mark.parametrize("value", ["0", "0.0001", str(LOCK_TIMEOUT_MAX_S)])
    def test_the_ends_of_the_range_work_on_every_store(self, store, value, monkeypatch):
        monkeypatch.setenv(LOCK_TIMEOUT_ENV, value)

        done = open_log(store.address, REGISTRY).append(COUNT, lambda state: [NoteAdded("a")])

        assert done.state.notes == 1 and open_log(store.address, REGISTRY).replay(COUNT).state.notes == 1

    def test_the_command_line_says_it_is_a_usage_error(self, tmp_path):
        folder = tmp_path / "finetune"
        shutil.copytree(IN_PROGRESS, folder)

        result = invoke("tune", "status", "--dir", folder, env={LOCK_TIMEOUT_ENV: "3000000"})
        appended = invoke("tune", "run", "grade", "batch03-nomem-run1", "--verdict", "PASSED", "--dir", folder,
                          env={LOCK_TIMEOUT_ENV: "3000000"})

        assert result.code == 0  # a file's view never waits: the setting is not used
        assert appended.code == 2 and LOCK_TIMEOUT_ENV in appended.err and appended.out == ""
