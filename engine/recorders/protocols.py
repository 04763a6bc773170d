"""What a recorder is: the keeper of a log's lines. The log logic (engine/log.py) asks it for lines and
hands it lines to keep; it knows nothing of JSON, chains or events.

Three recorders: `file` (engine/recorders/file.py: the JSONL file, its lock, fsync, torn tail and
`.pending` marker), `memory` (engine/recorders/memory.py: tests) and `postgresql`
(engine/recorders/postgresql.py: many machines, one log). Every recorder keeps the exact bytes of each line, so
a log moves between them byte for byte, and a `Position`'s offset is the byte offset the same lines
have in a file whatever keeps them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

from batchlog.engine.recorders.pending import Marker
from batchlog.engine.lines import BLOCK_BYTES
from batchlog.engine.scan import Position

OnWait = Callable[[str], None] | None


class LineSource(Protocol):
    """Complete lines in order, block by block (batchlog.engine.lines.LineReader is the file's). After iteration: `end`,
    the byte offset just past the last complete line, and `torn`, the bytes of an unfinished last line."""

    end: int
    torn: int

    def blocks(self) -> Iterator[list[bytes]]: ...


class Session(Protocol):
    """A recorder while it holds the log's lock (one append): what the append reads and writes through."""

    def cut_unfinished(self) -> Marker:
        """Cut away the lines of a command whose append died part way (files only); what was found."""

    def lines(self, start: Position, limit: int | None) -> LineSource:
        """The lines after `start`, read under the lock."""

    def unchanged(self, token: Any, last_line_start: int, end: int, last_hash: str) -> bool:
        """Whether the log is exactly as the append that returned `token` left it (its last line, ending at
        `end` and starting at `last_line_start`, hashes to `last_hash`): the append need not read it again."""

    def grown_since(self, token: Any, position: Position) -> bool:
        """Whether the log still holds, unchanged, the line the append that returned `token` ended with (at
        `position`), with lines after it: the append then reads only those (False: it replays)."""

    def write(self, payload: bytes, position: Position, end: int, torn: int) -> Any:
        """Keep `payload` (whole lines, each ending in a newline) after the line of `position` (the log's
        last trusted line, ending at byte `end`; `torn` bytes after it were never acknowledged): all or none,
        durable once the session ends. Returns a token for `unchanged`."""


class Recorder(Protocol):
    """Where a log's lines are kept."""

    address: str  # the log's address as shown in messages (a password never shown)
    path: Path | None  # the file, for the file recorder; None for the others

    def exists(self) -> bool:
        """Whether the log holds anything yet (False: no log); NotALog when it cannot be one."""

    def lines(self, start: Position, limit: int | None) -> LineSource:
        """The complete lines after `start` (lock-free), up to byte `limit` when given."""

    def unfinished(self) -> Marker:
        """Where a readable command that was never finished starts (files only), and any note about it."""

    def locked(self, on_wait: OnWait) -> AbstractContextManager[Session]:
        """Hold the log's lock for one append (waits bounded, announced once through `on_wait`)."""


class StoredLines:
    """A `LineSource` over lines kept apart (a list, rows): blocks of whole lines, offsets counted as a file's.

    `rows` yields the lines after `start` in order, without their newlines; a stored log has no torn tail.
    """

    def __init__(self, rows: Iterable[bytes], start: Position, limit: int | None = None) -> None:
        self.rows = rows
        self.start = start
        self.limit = limit
        self.end = start.offset
        self.torn = 0

    def blocks(self) -> Iterator[list[bytes]]:
        block: list[bytes] = []
        size = 0
        end = self.end
        for line in self.rows:
            if self.limit is not None and end + size + len(line) + 1 > self.limit:
                break
            block.append(line)
            size += len(line) + 1
            if size >= BLOCK_BYTES:
                self.end = end = end + size
                yield block
                block, size = [], 0
        if block:
            self.end = end + size
            yield block


def joined(lines: Sequence[bytes]) -> bytes:
    """The bytes a file would hold for `lines`."""
    return b"".join(line + b"\n" for line in lines)


def split_payload(payload: bytes) -> list[bytes]:
    """The lines of an append's payload, without their newlines."""
    return payload[:-1].split(b"\n")
