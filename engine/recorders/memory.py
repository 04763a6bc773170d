"""The memory recorder: a log kept in this process's memory (`memory:NAME`), for fast domain tests.

Logs of one name are shared within the process (two `EventLog`s of `memory:a` see the same lines), each
behind a lock of its own, so the contract suite's concurrency tests run against it with threads.
Nothing survives the process.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from batchlog.engine.chain import line_hash
from batchlog.engine.recorders.pending import Marker
from batchlog.engine.errors import LockTimeout
from batchlog.engine.recorders.file_lock import LOCK_NOTICE_S, LOCK_TIMEOUT_ENV, lock_timeout_s
from batchlog.engine.recorders.protocols import OnWait, StoredLines, split_payload
from batchlog.engine.scan import Position


class _Kept:
    """One memory log: its lines (without newlines), its lock, its snapshots by projection name."""

    def __init__(self) -> None:
        self.lines: list[bytes] = []
        self.lock = threading.Lock()
        self.snapshots: dict[str, bytes] = {}


_LOGS: dict[str, _Kept] = {}
_LOGS_LOCK = threading.Lock()


def forget(name: str) -> None:
    """Drop the memory log `name` (tests start afresh)."""
    with _LOGS_LOCK:
        _LOGS.pop(name, None)


class MemoryRecorder:
    """The memory log named `name`."""

    path = None

    def __init__(self, name: str) -> None:
        self.name = name
        self.address = f"memory:{name}"
        with _LOGS_LOCK:
            self.kept = _LOGS.setdefault(name, _Kept())

    def exists(self) -> bool:
        return bool(self.kept.lines)

    def lines(self, start: Position, limit: int | None) -> StoredLines:
        # A copy of the list as it stands: a reader sees whole appends only (an append extends it in one step).
        rows = self.kept.lines[start.line :]
        return StoredLines(iter(rows), start, limit)

    def unfinished(self) -> Marker:
        return Marker()

    def all_lines(self) -> list[bytes]:
        return list(self.kept.lines)

    def load_snapshot(self, name: str) -> bytes | None:
        return self.kept.snapshots.get(name)

    def store_snapshot(self, name: str, body: bytes) -> None:
        self.kept.snapshots[name] = body

    def snapshot_names(self) -> list[str]:
        return sorted(self.kept.snapshots)

    def chain_through(self, line: int) -> tuple[int, str] | None:
        """(bytes, hash of line `line`) of the first `line` lines when each line's `prev` is the hash of the
        line before it; None when the log does not hold them so."""
        from batchlog.engine.snapshots.stored_chain import linked_prefix

        return linked_prefix(self.kept.lines[:line], line)

    def rewrites(self) -> int | None:
        return None  # not counted: a memory log's chain is checked whole, in this process, for each snapshot

    def line_hash_at(self, line: int) -> str | None:
        lines = self.kept.lines
        return line_hash(lines[line - 1]) if 0 < line <= len(lines) else None

    @contextmanager
    def locked(self, on_wait: OnWait) -> Iterator[MemorySession]:
        lock = self.kept.lock
        if not lock.acquire(blocking=False):
            timeout = lock_timeout_s()
            notice = min(LOCK_NOTICE_S, timeout)
            if not _acquire(lock, notice):
                if on_wait is not None:
                    on_wait(f"waiting for the lock on {self.address}: another batchlog command is appending to it "
                            f"(giving up after {timeout:g}s)")
                if not _acquire(lock, timeout - notice):
                    raise LockTimeout(f"the lock on {self.address} was held for more than {timeout:g}s by another "
                                      f"command: retry, or raise {LOCK_TIMEOUT_ENV}", path=self.address)
        try:
            yield MemorySession(self)
        finally:
            lock.release()


def _acquire(lock: threading.Lock, seconds: float) -> bool:
    return lock.acquire(timeout=seconds) if seconds > 0 else lock.acquire(blocking=False)


class MemorySession:
    """A memory log under its lock."""

    def __init__(self, recorder: MemoryRecorder) -> None:
        self.recorder = recorder

    def cut_unfinished(self) -> Marker:
        return Marker()  # an append extends the list in one step: there is never part of one

    def lines(self, start: Position, limit: int | None) -> StoredLines:
        return self.recorder.lines(start, limit)

    def unchanged(self, token: Any, last_line_start: int, end: int, last_hash: str) -> bool:
        lines = self.recorder.kept.lines
        return len(lines) == token and bool(lines) and line_hash(lines[-1]) == last_hash

    def grown_since(self, token: Any, position: Position) -> bool:
        lines = self.recorder.kept.lines
        return len(lines) > token and line_hash(lines[token - 1]) == position.hash

    def write(self, payload: bytes, position: Position, end: int, torn: int) -> int:
        kept = self.recorder.kept
        kept.lines = kept.lines[: position.line] + split_payload(payload)
        return len(kept.lines)

    def keep_copy(self, name: str) -> None:
        """Copy every line of the log, as it is, to the memory log `name` (the damaged copy a salvage keeps)."""
        MemoryRecorder(name).kept.lines = list(self.recorder.kept.lines)

    def cut_back(self, keep: int, line: bytes, head: tuple[int, str, int]) -> None:
        kept = self.recorder.kept
        kept.lines = [*kept.lines[:keep], line]
        kept.snapshots.clear()
