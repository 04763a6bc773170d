"""The log's exclusive lock: the only place that takes it.

An OS-level lock (filelock: `flock` on POSIX, `msvcrt.locking` on Windows) on
`<log>.lock`, which the kernel releases when the holder dies, so a crashed
command never leaves the log locked. Waits are bounded and announced.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from engine.errors import LockTimeout, WriteFailed

LOCK_TIMEOUT_ENV = "BATCHLOG_LOCK_TIMEOUT"
LOCK_TIMEOUT_S = 60.0
LOCK_NOTICE_S = 1.0


def lock_timeout_s() -> float:
    raw = os.environ.get(LOCK_TIMEOUT_ENV)
    try:
        return float(raw) if raw else LOCK_TIMEOUT_S
    except ValueError:
        return LOCK_TIMEOUT_S


@contextmanager
def exclusive(log_path: Path, on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the lock of `log_path` for the body; say so once if it must wait."""
    lock = FileLock(f"{log_path}.lock")
    timeout = lock_timeout_s()
    began = time.monotonic()
    try:
        try:
            lock.acquire(timeout=min(LOCK_NOTICE_S, timeout))
        except Timeout:
            if on_wait is not None:
                on_wait(f"waiting for the lock on {log_path}: another batchlog command is appending to it "
                        f"(giving up after {timeout:g}s)")
            lock.acquire(timeout=max(0.0, timeout - (time.monotonic() - began)))
    except Timeout:
        raise LockTimeout(
            f"the lock on {log_path} was held for more than {timeout:g}s by another command: "
            f"retry, or raise {LOCK_TIMEOUT_ENV}",
            path=str(log_path),
        ) from None
    except OSError as exc:
        raise WriteFailed(
            f"cannot take the lock on {log_path}: {exc.strerror or exc}: the folder must be writable",
            path=str(log_path),
        ) from None
    try:
        yield
    finally:
        lock.release()
