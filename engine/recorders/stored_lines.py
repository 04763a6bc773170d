"""Lines kept apart from a file (a list in memory, rows on a server), seen as a file's: what the memory and
PostgreSQL recorders share. Offsets are counted as the same lines' bytes in a file would be, a newline after
each line; a stored log has no torn tail. Also the chain of a stored log's first lines checked from their
bytes, which a snapshot of such a log rests on (the memory recorder's; PostgreSQL checks it in SQL).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from hashlib import sha256
from typing import TYPE_CHECKING

from batchlog.engine.chain import GENESIS, line_hash
from batchlog.engine.lines import BLOCK_BYTES
from batchlog.engine.recorders.protocols import Marker

if TYPE_CHECKING:
    from batchlog.engine.recorders.protocols import LineSource
    from batchlog.engine.scan import Position


class StoredLines:
    """A `LineSource` over lines kept apart (a list, rows): blocks of whole lines, offsets counted as a file's.
    Such a log never holds part of a command (a transaction, one list assignment): nothing to stop at.

    `rows` yields the lines after `start` in order, without their newlines.
    """

    unfinished = Marker()

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


def bytes_digest(source: LineSource) -> str:
    """The SHA-256 of the bytes a file would hold for the lines of `source`."""
    digest = sha256()
    for block in source.blocks():
        digest.update(joined(block))
    return digest.hexdigest()


def prev_of(line: bytes) -> bytes | None:
    """The `prev` a line batchlog wrote ends with, from its bytes (None when it does not end so): such a line
    ends `,"prev":"<64 hex digits>"}`, so the hash is the 64 bytes before the last 2, after `,"prev":"`."""
    if line[-2:] != b'"}' or line[-75:-66] != b',"prev":"':
        return None
    return line[-66:-2]


def linked_prefix(lines: Iterable[bytes], count: int) -> tuple[int, str] | None:
    """(bytes a file holds for them, hash of the last) of `count` lines each linked to the one before it (the
    first to the genesis hash); None when there are fewer or a link is broken. A line's hash commits to
    every line before it only while each line's `prev` is the hash of the line before it."""
    before = GENESIS
    size = seen = 0
    for line in lines:
        if prev_of(line) != before.encode():
            return None
        before = line_hash(line)
        size += len(line) + 1
        seen += 1
    return (size, before) if seen == count else None
