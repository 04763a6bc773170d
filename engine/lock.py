"""The log's exclusive lock: the only place that takes it.

An OS-level lock on `<log>.lock` (`flock` on POSIX, `msvcrt.locking` on
Windows), which the kernel releases when its holder dies, so a crashed command
never leaves the log locked; the file itself locks nothing and may stay. Waits
are bounded and announced.

Written here rather than taken from filelock: the same two system calls, without
the ~40 ms that importing filelock (and its logging) adds to every command.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from engine.errors import LockTimeout, WriteFailed

LOCK_TIMEOUT_ENV = "BATCHLOG_LOCK_TIMEOUT"
LOCK_TIMEOUT_S = 60.0
LOCK_NOTICE_S = 1.0
LOCK_POLL_S = 0.005

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
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


def lock_timeout_s() -> float:
    raw = os.environ.get(LOCK_TIMEOUT_ENV)
    try:
        return float(raw) if raw else LOCK_TIMEOUT_S
    except ValueError:
        return LOCK_TIMEOUT_S


def _acquire(fd: int, log_path: Path, on_wait: Callable[[str], None] | None) -> None:
    """Take the lock on `fd`, polling; say once that it waits; give up after the timeout."""
    timeout = lock_timeout_s()
    began = time.monotonic()
    announced = False
    while not _try_lock(fd):
        waited = time.monotonic() - began
        if not announced and waited >= min(LOCK_NOTICE_S, timeout) and on_wait is not None:
            on_wait(f"waiting for the lock on {log_path}: another batchlog command is appending to it "
                    f"(giving up after {timeout:g}s)")
            announced = True
        if waited >= timeout:
            raise LockTimeout(
                f"the lock on {log_path} was held for more than {timeout:g}s by another command: "
                f"retry, or raise {LOCK_TIMEOUT_ENV}",
                path=str(log_path),
            )
        time.sleep(LOCK_POLL_S)


@contextmanager
def exclusive(log_path: Path, on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the lock of `log_path` for the body; say so once if it must wait."""
    try:
        fd = os.open(f"{log_path}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise WriteFailed(
            f"cannot take the lock on {log_path}: {exc.strerror or exc}: the folder must be writable",
            path=str(log_path),
        ) from None
    try:
        _acquire(fd, log_path, on_wait)
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)
