"""The log's exclusive lock: the only place that takes it.

An OS-level lock on the log file itself (`flock` on POSIX), which the kernel releases when its holder
dies, so a crashed command never leaves the log locked. The lock belongs to the file (its inode), not
to the path that reached it: a symlink, a hard link, a bind mount or `a/../b` all lock the same log.
After taking it the holder checks that the path still names the file it locked (a salvage renames a
new file into place; a refused first append removes the empty file it made) and starts again if not.
A log that does not exist yet is created empty to be locked, and removed again when the command
writes nothing. Waits are bounded and announced as every recorder's are (engine/recorders/wait.py); the
lock is polled, since `flock` cannot wait for a bounded time.

Written here rather than taken from filelock: the same two system calls, without the ~40 ms that
importing filelock (and its logging) adds to every command.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import attrs

from batchlog.engine.errors import NotALog, WriteFailed
from batchlog.engine.files import BINARY
from batchlog.engine.recorders.wait import LockWait, OnWait

LOCK_POLL_S = 0.005

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    # Windows locks are mandatory: lock one byte far past any log's end, so that readers still read.
    _LOCK_BYTE = 1 << 62

    def _try_lock(fd: int) -> bool:
        os.lseek(fd, _LOCK_BYTE, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, _LOCK_BYTE, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


@attrs.define
class Held:
    """The lock being held: the log's descriptor (read-write, appending: the append reads and writes through
    it), whether taking the lock created the file, and the file's identity (device, inode)."""

    fd: int
    created: bool
    identity: tuple[int, int] = (0, 0)


class NoFolder(Exception):
    """The log's folder does not exist: the append makes it, then takes the lock again."""


def refuse_special_file(fd: int, path: Path) -> os.stat_result:
    """The file's stat; NotALog when it is not a regular file (a FIFO, a device, a socket, a folder)."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a FIFO, a device or a socket)"
        raise NotALog(f"{path} is {kind}: a log is a regular file; name the events.jsonl of a tuning or a batch",
                      path=str(path))
    return info


def _open_log(log_path: Path) -> Held:
    """The log opened read-write for appending (created empty when missing), a regular file; never blocks on
    a FIFO. Raises NoFolder when its folder is missing, NotALog when the path cannot be a log."""
    flags = os.O_RDWR | os.O_APPEND | getattr(os, "O_NONBLOCK", 0) | BINARY
    try:
        try:
            fd, created = os.open(log_path, flags), False
        except FileNotFoundError:
            try:
                fd, created = os.open(log_path, flags | os.O_CREAT | os.O_EXCL, 0o644), True
            except FileNotFoundError:
                raise NoFolder(str(log_path)) from None
    except FileExistsError:
        if os.path.islink(log_path) and not os.path.exists(log_path):
            # O_EXCL never follows a link: a dangling one would answer "missing", then "exists", for ever.
            raise NotALog(f"{log_path} is a link to {os.readlink(log_path)}, which does not exist: a log is a "
                          "regular file; remove the link or make its target", path=str(log_path)) from None
        return _open_log(log_path)  # another command created it meanwhile
    except IsADirectoryError:
        raise NotALog(f"{log_path} is a folder, not a log file: name the events.jsonl inside it",
                      path=str(log_path)) from None
    except OSError as exc:
        if os.path.exists(log_path) and not os.access(log_path, os.R_OK):
            raise NotALog(f"{log_path} cannot be read: check its permissions", path=str(log_path)) from None
        if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT, errno.ENOTDIR):
            # A symlink loop, a name too long: no log can be there.
            raise NotALog(f"{log_path} cannot be read: {exc.strerror or exc}", path=str(log_path)) from None
        raise WriteFailed(f"cannot append to {log_path}: {exc.strerror or exc}: nothing was recorded; make the "
                          "log and its folder writable, then run the command again",
                          path=str(log_path), errno=exc.errno) from None
    try:
        info = refuse_special_file(fd, log_path)
    except BaseException:
        os.close(fd)
        raise
    return Held(fd, created, (info.st_dev, info.st_ino))


def _still_named(held: Held, log_path: Path) -> bool:
    """Whether the path still names the file locked (not replaced or removed while this command waited)."""
    try:
        now = os.stat(log_path)
    except OSError:
        return False
    return (now.st_dev, now.st_ino) == held.identity


class _Locking:
    """The log's descriptor while its lock is being taken, opened at the first try and again when the path
    comes to name another file meanwhile (a salvage renamed a new one into place, a refused first append
    removed the one it made)."""

    def __init__(self, log_path: Path) -> None:
        self.log_path = log_path
        self.held: Held | None = None

    def within(self, seconds: float) -> bool:
        """Whether the lock is taken, polled for at most `seconds` (0: one try), on the file the path names."""
        deadline = time.monotonic() + seconds
        while True:
            if self.held is None:
                self.held = _open_log(self.log_path)
            if _try_lock(self.held.fd):
                if _still_named(self.held, self.log_path):
                    return True
                _unlock(self.held.fd)
                self.close()
                continue
            if time.monotonic() >= deadline:
                return False
            time.sleep(LOCK_POLL_S)

    def close(self) -> None:
        if self.held is not None:
            os.close(self.held.fd)
            self.held = None


def _acquire(log_path: Path, on_wait: OnWait) -> Held:
    """Open the log and lock it (see engine/recorders/wait.py for how long it waits and what it says)."""
    wait = LockWait(str(log_path), on_wait)
    locking = _Locking(log_path)
    try:
        wait.take(locking.within)
    except BaseException:
        locking.close()
        raise
    return locking.held


def _remove_if_unused(held: Held, log_path: Path) -> None:
    """Under the lock: the empty file taking the lock created goes again when nothing was written to it."""
    if held.created and os.fstat(held.fd).st_size == 0 and _still_named(held, log_path):
        try:
            os.unlink(log_path)
        except OSError:
            pass


@contextmanager
def exclusive(log_path: Path, on_wait: OnWait = None) -> Iterator[Held]:
    """Hold the lock of the log at `log_path` for the body; say so once if it must wait."""
    held = _acquire(log_path, on_wait)
    try:
        try:
            yield held
        finally:
            _remove_if_unused(held, log_path)
            _unlock(held.fd)
    finally:
        os.close(held.fd)
