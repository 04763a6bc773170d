"""The streaming line reader: bytes in blocks, complete lines out, the torn tail apart.

Knows nothing of JSON. Memory is one block (or one line, when a line is longer),
whatever the file's length.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

# Small enough to stay in the CPU cache and keep a replay's memory flat from the smallest log
# up; large enough that the per-block work (one read, one split) is negligible per line.
BLOCK_BYTES = 1 << 16


class LineReader:
    """Complete lines of a file from `start`, block by block.

    After iteration, `end` is the offset just past the last complete line and
    `torn` the number of bytes after it (a last line without its newline: a
    write that was never acknowledged).
    """

    def __init__(self, path: str | os.PathLike, start: int = 0, block_bytes: int = BLOCK_BYTES,
                 limit: int | None = None, fd: int | None = None) -> None:
        self.path = path
        self.fd = fd  # an open descriptor of the file, read with pread (the caller closes it); else `path` is opened
        self.start = start
        self.limit = limit  # read no byte at or after this offset (None: to the end)
        self.block_bytes = block_bytes
        self.end = start
        self.torn = 0

    def blocks(self) -> Iterator[list[bytes]]:
        """Lists of complete lines, without their newlines, in file order."""
        if self.fd is not None:
            yield from self._blocks(_PositionalReads(self.fd, self.start).read)
            return
        with open(self.path, "rb", buffering=0) as fh:
            fh.seek(self.start)
            yield from self._blocks(fh.read)

    def _blocks(self, read: Callable[[int], bytes]) -> Iterator[list[bytes]]:
        carry: list[bytes] = []  # the pieces of a line not finished yet (kept apart: no quadratic copying)
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
                carry.append(block)
                continue
            if carry:
                carry.append(block)
                block = b"".join(carry)
                cut += len(block) - len(carry[-1])
                carry = []
            if cut + 1 < len(block):
                carry.append(block[cut + 1 :])
            offset += cut + 1
            self.end = offset
            yield block[:cut].split(b"\n")
        self.torn = sum(map(len, carry))

    def __iter__(self) -> Iterator[bytes]:
        for block in self.blocks():
            yield from block


class _PositionalReads:
    """`read(n)` over a descriptor with pread from `offset` on: one system call per read, and a read shorter
    than asked ends the file (a regular file's reads are short only at its end), saving the empty last read."""

    def __init__(self, fd: int, offset: int) -> None:
        self.fd = fd
        self.offset = offset
        self.ended = False

    def read(self, size: int) -> bytes:
        if self.ended:
            return b""
        if hasattr(os, "pread"):
            data = os.pread(self.fd, size, self.offset)
        else:  # Windows: no pread
            os.lseek(self.fd, self.offset, os.SEEK_SET)
            data = os.read(self.fd, size)
        self.offset += len(data)
        self.ended = len(data) < size
        return data
