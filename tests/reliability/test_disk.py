"""Disk full and I/O errors: a failed append says so clearly, leaves the log as it was, loses nothing.

Faults come three ways: a fault-injecting `os` inside batchlog.engine.log (partial writes,
ENOSPC, EIO, EFBIG, EROFS at each step of the append), real resource limits
(RLIMIT_FSIZE in a child process), and real small or read-only filesystems
(a 64 KiB tmpfs, remounted read-only; skipped with the reason when mount fails).
"""

from __future__ import annotations

import errno
import os
import resource
import signal
import subprocess
import types

import pytest

import batchlog.engine.recorders.file_lock
import batchlog.engine.log
import batchlog.engine.recorders.file
from batchlog.engine.errors import WriteFailed
from tests.reliability import model
from tests.reliability.workers import assert_acknowledged_kept, assert_trusted, fork, wait


def seeded_log(path, events: int = 5):
    log = model.open_log(path)
    acknowledged = [(e.seq, e.id) for c in range(events) for e in log.append(model.PROJECTION, model.note(1, c)).events]
    return log, acknowledged


class FaultyOs(types.SimpleNamespace):
    """`os` as batchlog.engine.log sees it, with one call failing: `fail` names it, `after` bytes get written first."""

    def __init__(self, log_path, fail: str, code: int, after: int | None = None, short: bool = False,
                 also_fail: str | None = None, then_ok: bool = False):
        super().__init__()
        self.then_ok = then_ok
        self.log_path, self.fail, self.code, self.after, self.short, self.also_fail = (
            str(log_path), fail, code, after, short, also_fail)
        self.armed = True

    def __getattr__(self, name):
        return getattr(os, name)

    def _is_log(self, fd) -> bool:
        return os.readlink(f"/proc/self/fd/{fd}") == self.log_path

    def _error(self):
        return OSError(self.code, os.strerror(self.code))

    def open(self, path, *args, **kwargs):
        if self.fail == "open" and str(path) == self.log_path:
            raise self._error()
        return os.open(path, *args, **kwargs)

    def write(self, fd, data):
        if self.fail == "write" and self.armed and self._is_log(fd):
            cut = self.after(data) if callable(self.after) else self.after
            written = os.write(fd, data[:cut]) if cut else 0
            if self.short:  # as the kernel does: a short count now, the error on the next write
                self.short = False
                self.armed = not self.then_ok
                return written
            self.armed = False
            raise self._error()
        return os.write(fd, data)

    def fsync(self, fd):
        if self.fail == "fsync" and self._is_log(fd):
            raise self._error()
        return os.fsync(fd)

    def ftruncate(self, fd, length):
        if self.also_fail == "ftruncate":
            raise self._error()
        return os.ftruncate(fd, length)


FAULTS = [
    pytest.param("write", errno.ENOSPC, 0, False, id="ENOSPC-nothing-written"),
    pytest.param("write", errno.ENOSPC, 1, False, id="ENOSPC-after-1-byte"),
    pytest.param("write", errno.ENOSPC, 150, False, id="ENOSPC-inside-first-line"),
    pytest.param("write", errno.ENOSPC, -1, False, id="ENOSPC-after-first-line"),
    pytest.param("write", errno.ENOSPC, -2, True, id="short-write-all-but-1-byte"),
    pytest.param("write", errno.EFBIG, -1, False, id="EFBIG-after-first-line"),
    pytest.param("write", errno.EIO, 0, False, id="EIO-write"),
    pytest.param("fsync", errno.EIO, None, False, id="EIO-fsync"),
    pytest.param("fsync", errno.ENOSPC, None, False, id="ENOSPC-fsync"),
    pytest.param("open", errno.EROFS, None, False, id="EROFS-open"),
    pytest.param("open", errno.EACCES, None, False, id="EACCES-open"),
]


def cut_for(after):
    """How many bytes of the payload reach the disk: -1 the first whole line, -2 all but the last byte."""
    return {-1: lambda data: data.index(b"\n") + 1, -2: lambda data: len(data) - 1}.get(after, after)


class TestInjectedFaults:
    @pytest.mark.parametrize("fail, code, after, short", FAULTS)
    def test_a_failed_append_leaves_the_log_as_it_was_and_the_next_one_works(self, tmp_path, monkeypatch, fail,
                                                                             code, after, short):
        path = tmp_path / "events.jsonl"
        log, acknowledged = seeded_log(path)
        before = path.read_bytes()
        faulty = FaultyOs(path, fail, code, cut_for(after), short)
        monkeypatch.setattr(batchlog.engine.recorders.file, "os", faulty)
        monkeypatch.setattr(batchlog.engine.recorders.file_lock, "os", faulty)  # the log is opened where it is locked

        with pytest.raises(WriteFailed) as raised:
            log.append(model.PROJECTION, model.note(2, 1, 3, 20))

        assert path.read_bytes() == before
        assert str(path) in raised.value.message and "nothing was recorded" in raised.value.message
        assert raised.value.fields["errno"] == code
        monkeypatch.undo()
        log.append(model.PROJECTION, model.note(3, 1))
        assert_trusted(path, model.REGISTRY)
        assert_acknowledged_kept(path, acknowledged)

    def test_a_short_write_that_the_next_write_completes_is_an_append(self, tmp_path, monkeypatch):
        """A signal can cut a write short on a regular file: the rest is written, nothing is lost."""
        path = tmp_path / "events.jsonl"
        log, acknowledged = seeded_log(path)
        faulty = FaultyOs(path, "write", errno.ENOSPC, cut_for(-1), short=True, then_ok=True)
        monkeypatch.setattr(batchlog.engine.recorders.file, "os", faulty)

        appended = log.append(model.PROJECTION, model.note(2, 1, 3, 20))

        assert len(appended.events) == 3
        assert_trusted(path, model.REGISTRY)

    def test_a_failed_first_append_leaves_no_file(self, tmp_path, monkeypatch):
        path = tmp_path / "events.jsonl"
        monkeypatch.setattr(batchlog.engine.recorders.file, "os", FaultyOs(path, "write", errno.ENOSPC, 10))

        with pytest.raises(WriteFailed):
            model.open_log(path).append(model.PROJECTION, model.note(1, 1, 2))

        assert not path.exists()

    def test_when_the_cut_back_fails_too_the_next_append_repairs_the_log(self, tmp_path, monkeypatch):
        path = tmp_path / "events.jsonl"
        log, acknowledged = seeded_log(path)
        monkeypatch.setattr(batchlog.engine.recorders.file, "os", FaultyOs(path, "write", errno.EIO, cut_for(-1), also_fail="ftruncate"))

        with pytest.raises(WriteFailed):
            log.append(model.PROJECTION, model.note(2, 1, 3, 20))
        monkeypatch.undo()
        log.append(model.PROJECTION, model.note(3, 1))

        assert_trusted(path, model.REGISTRY)
        assert_acknowledged_kept(path, acknowledged)
        assert not [line for line in path.read_bytes().splitlines() if b'"writer":2' in line]


def append_under_file_size_limit(path, limit: int) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    try:
        model.open_log(path).append(model.PROJECTION, model.note(2, 1, 3, 2000))
    except WriteFailed as error:
        assert error.fields["errno"] == errno.EFBIG, error.message
        os._exit(17)


class TestRealLimits:
    def test_an_append_past_the_file_size_limit_fails_with_efbig_and_leaves_the_log(self, tmp_path):
        path = tmp_path / "events.jsonl"
        log, acknowledged = seeded_log(path)
        before = path.read_bytes()

        status = wait(fork(append_under_file_size_limit, path, len(before) + 3000))

        assert status == 17
        assert path.read_bytes() == before
        log.append(model.PROJECTION, model.note(3, 1))
        assert_trusted(path, model.REGISTRY)


@pytest.fixture
def small_tmpfs(tmp_path):
    """A 64 KiB tmpfs mounted at tmp_path/disk (root only; skipped when mount is not allowed)."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount_point)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip() or done.returncode}): ENOSPC is covered by "
                    "the injected faults")
    yield mount_point
    subprocess.run(["umount", "-l", str(mount_point)], check=False)


class TestRealFilesystems:
    def test_a_full_disk_refuses_the_append_and_keeps_every_acknowledged_event(self, small_tmpfs):
        path = small_tmpfs / "events.jsonl"
        log = model.open_log(path)
        acknowledged = []
        with pytest.raises(WriteFailed) as raised:
            for command in range(1000):
                before = path.read_bytes() if path.exists() else b""
                acknowledged += [(e.seq, e.id) for e in
                                 log.append(model.PROJECTION, model.note(1, command, 3, 900)).events]

        assert raised.value.fields["errno"] == errno.ENOSPC
        assert "No space left on device" in raised.value.message
        assert path.read_bytes() == before
        assert_trusted(path, model.REGISTRY)
        assert_acknowledged_kept(path, acknowledged)

    def test_a_read_only_disk_refuses_the_append_and_leaves_the_log(self, small_tmpfs):
        """Root ignores permission bits, so the folder is made read-only by remounting the tmpfs."""
        path = small_tmpfs / "events.jsonl"
        log, acknowledged = seeded_log(path)
        before = path.read_bytes()
        subprocess.run(["mount", "-o", "remount,ro", str(small_tmpfs)], check=True)

        with pytest.raises(WriteFailed) as raised:
            log.append(model.PROJECTION, model.note(2, 1))

        assert "Read-only file system" in raised.value.message
        assert path.read_bytes() == before
        assert model.open_log(path).replay(model.PROJECTION).state.events == 5
