"""The streaming line reader: bytes in blocks, complete lines out, the torn tail apart.

Knows nothing of JSON. Memory is one block (or one line, when a line is longer, up to
MAX_LINE_BYTES), whatever the file's length. A longer line is not kept: it comes out as `OVERLONG`,
which no check takes for an event (damage), so a log linked to an endless source cannot fill memory.
Only a regular file is read: a FIFO, a device or a socket is refused before a byte is read.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator

from batchlog.engine.files import BINARY

# Small enough to stay in the CPU cache and keep a replay's memory flat from the smallest log
# up; large enough that the per-block work (one read, one split) is negligible per line.
BLOCK_BYTES = 1 << 16
MAX_LINE_BYTES = 1 << 24  # 16 MiB: the longest line a log may hold (README: The log)
OVERLONG = b"\0a line longer than 16 MiB"  # stands for such a line; not JSON, so it is damage


def _open_regular(path: str | os.PathLike):
    """The file opened for reading, unbuffered; NotALog when it is not a regular file (never blocks on a FIFO)."""
    from batchlog.engine.errors import NotALog

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | BINARY)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise NotALog(f"{path} is not a regular file (a FIFO, a device, a socket or a folder): a log is a "
                      "regular file; name the events.jsonl of a tuning or a batch", path=str(path))
    return open(fd, "rb", buffering=0)


class LineReader:
    """Complete lines of a file from `start`, block by block.

    After iteration, `end` is the offset just past the last complete line and
    `torn` the number of bytes after it (a last line without its newline: a
    write that was never acknowledged).
    """

    def __init__(self, path: str | os.PathLike, start: int = 0, block_bytes: int = BLOCK_BYTES,
                 limit: int | None = None, fd: int | None = None, tail: tuple[int, bytes] | None = None) -> None:
        self.path = path
        self.fd = fd  # an open descriptor of the file, read with pread (the caller closes it); else `path` is opened
        self.tail = tail  # (offset, bytes) of the file already read from `fd`: not read again
        self.start = start
        self.limit = limit  # read no byte at or after this offset (None: to the end)
        self.block_bytes = block_bytes
        self.end = start
        self.torn = 0

    def blocks(self) -> Iterator[list[bytes]]:
        """Lists of complete lines, without their newlines, in file order."""
        if self.fd is not None:
            yield from self._blocks(_PositionalReads(self.fd, self.start, self.tail).read)
            return
        with _open_regular(self.path) as fh:
            fh.seek(self.start)
            yield from self._blocks(fh.read)

    def _blocks(self, read: Callable[[int], bytes]) -> Iterator[list[bytes]]:
        carry: list[bytes] = []  # the pieces of a line not finished yet (kept apart: no quadratic copying)
        carried = 0  # their length; past MAX_LINE_BYTES the pieces are dropped and only counted
        offset = self.start
        size = self.block_bytes
        left = None if self.limit is None else max(0, self.limit - self.start)
        while True:
            if left is not None:
                if left == 0:
                    break
                block = read(min(size, left))
                left -= len(block)
            else:
                block = read(size)
            if not block:
                break
            cut = block.rfind(b"\n")
            if cut < 0:
                carried += len(block)
                if carried > MAX_LINE_BYTES:
                    carry = []
                else:
                    carry.append(block)
                continue
            consumed = carried + cut + 1
            if carried and carried + block.find(b"\n") > MAX_LINE_BYTES:
                lines = [OVERLONG, *block[:cut].split(b"\n")[1:]]
            elif carry:
                carry.append(block[:cut])
                lines = b"".join(carry).split(b"\n")
            else:
                lines = block[:cut].split(b"\n")
            carry = [block[cut + 1 :]] if cut + 1 < len(block) else []
            carried = len(block) - cut - 1
            offset += consumed
            self.end = offset
            yield lines
        self.torn = carried

    def __iter__(self) -> Iterator[bytes]:
        for block in self.blocks():
            yield from block


def read_at(fd: int, offset: int, size: int) -> bytes:
    """Up to `size` bytes from `offset` of an open file, its position left alone (pread; lseek + read on
    Windows, which has no pread)."""
    if hasattr(os, "pread"):
        return os.pread(fd, size, offset)
    os.lseek(fd, offset, os.SEEK_SET)
    return os.read(fd, size)


class _PositionalReads:
    """`read(n)` over a descriptor with pread from `offset` on: one system call per read, and a read shorter
    than asked ends the file (a regular file's reads are short only at its end), saving the empty last read.
    The bytes of `tail` (offset, bytes), already read, are taken from it, up to its end."""

    def __init__(self, fd: int, offset: int, tail: tuple[int, bytes] | None = None) -> None:
        self.fd = fd
        self.offset = offset
        self.ended = False
        self.tail_at, self.tail = tail if tail is not None else (-1, b"")

    def read(self, size: int) -> bytes:
        if self.ended:
            return b""
        tail_end = self.tail_at + len(self.tail)
        if self.tail and self.tail_at <= self.offset + size and self.offset < tail_end:
            head = read_at(self.fd, self.offset, self.tail_at - self.offset) if self.offset < self.tail_at else b""
            if len(head) < self.tail_at - self.offset:
                data = head  # the file ended before the tail: as a short read says
            else:
                skip = max(0, self.offset - self.tail_at)
                data = head + self.tail[skip : skip + size - len(head)]
        else:
            data = read_at(self.fd, self.offset, size)
        self.offset += len(data)
        self.ended = len(data) < size
        return data
