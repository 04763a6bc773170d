"""The memory recorder: a log kept in this process's memory (`memory:NAME`), for fast domain tests.

Logs of one name are shared within the process (two `EventLog`s of `memory:a` see the same lines), each
behind a lock of its own, so the contract suite's concurrency tests run against it with threads.
Nothing survives the process.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from batchlog.engine.chain import line_hash
from batchlog.engine.recorders.protocols import Marker
from batchlog.engine.recorders.stored_lines import StoredLines, bytes_digest, linked_prefix, split_payload
from batchlog.engine.recorders.wait import LockWait, OnWait
from batchlog.engine.scan import Position


class _Kept:
    """One memory log: its lines (without newlines), its lock, its snapshots by projection name and key."""

    def __init__(self) -> None:
        self.lines: list[bytes] = []
        self.lock = threading.Lock()
        self.snapshots: dict[tuple[str, str], bytes] = {}


_LOGS: dict[str, _Kept] = {}
_LOGS_LOCK = threading.Lock()


class MemoryRecorder:
    """The memory log named `name` (it keeps its snapshots: `KeepsSnapshots`)."""

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

    def load_snapshot(self, name: str, key_id: str) -> bytes | None:
        return self.kept.snapshots.get((name, key_id))

    def store_snapshot(self, name: str, key_id: str, body: bytes) -> None:
        self.kept.snapshots[(name, key_id)] = body

    def snapshot_names(self) -> list[tuple[str, str]]:
        return sorted(self.kept.snapshots)

    def chain_through(self, line: int) -> tuple[int, str] | None:
        return linked_prefix(self.kept.lines[:line], line)

    @contextmanager
    def locked(self, on_wait: OnWait) -> Iterator[MemorySession]:
        lock = self.kept.lock
        LockWait(self.address, on_wait).take(lambda seconds: _acquire(lock, seconds))
        try:
            yield MemorySession(self)
        finally:
            lock.release()


def _acquire(lock: threading.Lock, seconds: float) -> bool:
    """Whether `lock` is taken within `seconds` (0: only when it is free now)."""
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

    def write_blocks(self, blocks: Iterable[bytes], length: int, digest: str) -> None:
        lines = [line for block in blocks for line in split_payload(block)]
        self.recorder.kept.lines = lines  # in one step: a reader sees none of them or all

    def keep_copy(self, suffix: str) -> tuple[str, str]:
        """Copy every line of the log, as it is, to the memory log of its name + `suffix`."""
        name = f"{self.recorder.name}{suffix}"
        MemoryRecorder(name).kept.lines = list(self.recorder.kept.lines)
        return name, bytes_digest(self.lines(Position(), None))

    def cut_back(self, keep: int, kept_bytes: int, line: bytes) -> None:
        kept = self.recorder.kept
        kept.lines = [*kept.lines[:keep], line]
        kept.snapshots.clear()
