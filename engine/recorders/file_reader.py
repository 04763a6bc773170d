"""The file log's one reader: the complete lines of its trusted prefix, block by block, taking no lock.

Every reader of a file log (views, appends, `log verify`, `head`, `show`, `migrate`, `salvage`) gets its lines
here, through the file recorder's `lines` (engine/recorders/file.py), and so stops where an unfinished command
begins (engine/recorders/file_pending.py).

A writer may start, finish, die or be cut away at any moment, so the reader settles what it will read before
reading a line, on one descriptor, in this order: the marker; the file's size; where its last complete line
ends (one read of its tail); the marker again. The same value twice (every change of the marker gives a new
value) means no command of several lines started, ended or was cut meanwhile, so a command partly written when
the size was taken is the very one the marker names; a different value, and it settles again. It then reads
up to the end of that last complete line, and not past an unfinished command's start. Those bytes never
change afterwards: a writer only adds after the last complete line, cuts a torn tail only after it, and cuts
an unfinished command only at its start (one found whole is never cut); a salvage renames a new file over the
name, and this descriptor keeps reading the old one. So nothing a reader has handed out is taken back, but
by a disk error: an append whose write or fsync fails puts the file back as it was (and says nothing was
recorded), lines a reader may have seen whole included.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path


from batchlog.engine.crash_hook import pause_point
from batchlog.engine.errors import NotALog
from batchlog.engine.files import BINARY
from batchlog.engine.lines import BLOCK_BYTES, LineReader, read_at
from batchlog.engine.recorders.file_lock import refuse_special_file
from batchlog.engine.recorders.file_pending import CHECK_BYTES, marker_of, obeyed
from batchlog.engine.recorders.protocols import Marker
from batchlog.engine.scan import Position
from batchlog.engine.value import frozen

SETTLE_TRIES = 64  # the marker changing between two reads microseconds apart this often: something rewrites it


@frozen
class _Settled:
    """The log as the reader settled it: its size, where its last complete line ends, what the marker says, and
    the tail read to find that line's end (its offset and bytes: the last block need not be read again)."""

    size: int
    complete: int
    marker: Marker
    tail: tuple[int, bytes]


def settle(fd: int, path: Path, start: int) -> _Settled:
    """The trusted extent of the log open on `fd`, from byte `start` (see the module's docstring)."""
    for _ in range(SETTLE_TRIES):
        store, value = marker_of(fd, path)
        pause_point("read.marker_read")
        size = refuse_special_file(fd, path).st_size
        complete, tail = _last_line_end(fd, start, size)
        marker = obeyed(fd, size, store, value)
        pause_point("read.before_recheck")
        if marker_of(fd, path)[1] == value:
            return _Settled(size, complete, marker, tail)
    raise NotALog(f"{path} cannot be read: the marker of its unfinished command changed {SETTLE_TRIES} times while "
                  "it was read; something other than batchlog is rewriting it", path=str(path))


def _last_line_end(fd: int, start: int, size: int) -> tuple[int, tuple[int, bytes]]:
    """Where the last complete line at or after `start` ends (`start` when none does), and the tail read."""
    offset = max(start, size - BLOCK_BYTES)
    tail = read_at(fd, offset, size - offset) if size > offset else b""
    cut = tail.rfind(b"\n")
    if cut >= 0:
        return offset + cut + 1, (offset, tail)
    stop = offset  # a last line longer than a block (or a torn one): further back, in pieces
    while stop > start:
        begin = max(start, stop - CHECK_BYTES)
        cut = read_at(fd, begin, stop - begin).rfind(b"\n")
        if cut >= 0:
            return begin + cut + 1, (offset, tail)
        stop = begin
    return start, (offset, tail)


class TrustedLines:
    """A file log's `LineSource`: its complete lines after `start`, up to byte `limit` and never past where an
    unfinished command starts. After iteration: `end`, `torn` (the bytes of a last line never finished) and
    `unfinished` (the marker as obeyed: where an unfinished command starts and how much of it is there, or why a
    marker was ignored; set before the first block).

    `fd`: a descriptor of the log to read (the caller closes it), else the path is opened. `marker`: what the
    marker is known to say (an append that has just cut an unfinished command away, under the lock): nothing
    is settled then.
    """

    def __init__(self, path: Path, start: Position, limit: int | None, *, fd: int | None = None,
                 marker: Marker | None = None) -> None:
        self.path = path
        self.start = start
        self.limit = limit
        self.fd = fd
        self.known = marker
        self.reader: LineReader | None = None
        self.torn = 0
        self.unfinished = Marker()

    @property
    def end(self) -> int:
        """Just past the last line given so far (a scan reads it after each block)."""
        return self.reader.end if self.reader is not None else self.start.offset

    def blocks(self) -> Iterator[list[bytes]]:
        if self.fd is not None:
            yield from self._blocks(self.fd)
            return
        fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | BINARY)
        try:
            yield from self._blocks(fd)
        finally:
            os.close(fd)

    def _blocks(self, fd: int) -> Iterator[list[bytes]]:
        if self.known is not None:
            self.reader = reader = LineReader(self.path, self.start.offset, limit=self.limit, fd=fd)
            yield from reader.blocks()
            self.torn = reader.torn
            return
        found = settle(fd, self.path, self.start.offset)
        pause_point("read.settled")
        self.unfinished = found.marker
        ends = [found.complete, found.marker.start, self.limit]
        stop = min(end for end in ends if end is not None)
        self.reader = reader = LineReader(self.path, self.start.offset, limit=stop, fd=fd, tail=found.tail)
        yield from reader.blocks()
        if found.marker.start is not None and found.marker.start <= stop:
            self.torn = 0  # what follows is the unfinished command's (counted in `unfinished`)
        elif stop == found.complete:
            self.torn = max(0, found.size - found.complete)
        else:
            self.torn = reader.torn
