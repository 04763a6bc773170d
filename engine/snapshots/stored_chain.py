"""The chain of a stored log's first lines, checked from their bytes: what a snapshot of a log kept apart
(memory, PostgreSQL) rests on. A line's hash commits to every line before it only while each line's `prev`
is the hash of the line before it; a full replay refuses a log where one is not."""

from __future__ import annotations

from collections.abc import Iterable

from batchlog.engine.chain import GENESIS, line_hash

PREV_TAIL = 66  # a line ends with `"prev":"<64 hex>"}`: the hash sits in the 66 bytes before its end, less 2


def prev_of(line: bytes) -> bytes | None:
    """The `prev` a line batchlog wrote ends with, from its bytes (None when it does not end so)."""
    if line[-2:] != b'"}' or line[-75:-66] != b',"prev":"':
        return None
    return line[-66:-2]


def linked_prefix(lines: Iterable[bytes], count: int) -> tuple[int, str] | None:
    """(bytes a file holds for them, hash of the last) of `count` lines each linked to the one before it (the
    first to the genesis hash); None when there are fewer or a link is broken."""
    before = GENESIS
    size = seen = 0
    for line in lines:
        if prev_of(line) != before.encode():
            return None
        before = line_hash(line)
        size += len(line) + 1
        seen += 1
    return (size, before) if seen == count else None
