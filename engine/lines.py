"""The streaming line reader: bytes in blocks, complete lines out, the torn tail apart.

Knows nothing of JSON. Memory is one block, whatever the file's length.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

BLOCK_BYTES = 1 << 20


class LineReader:
    """Complete lines of a file from `start`, block by block.

    After iteration, `end` is the offset just past the last complete line and
    `torn` the number of bytes after it (a last line without its newline: a
    write that was never acknowledged).
    """

    def __init__(self, path: str | os.PathLike, start: int = 0, block_bytes: int = BLOCK_BYTES) -> None:
        self.path = path
        self.start = start
        self.block_bytes = block_bytes
        self.end = start
        self.torn = 0

    def blocks(self) -> Iterator[list[bytes]]:
        """Lists of complete lines, without their newlines, in file order."""
        with open(self.path, "rb") as fh:
            fh.seek(self.start)
            carry = b""
            offset = self.start
            while True:
                block = fh.read(self.block_bytes)
                if not block:
                    break
                block = carry + block if carry else block
                cut = block.rfind(b"\n")
                if cut < 0:
                    carry = block
                    continue
                carry = block[cut + 1 :]
                offset += cut + 1
                self.end = offset
                yield block[:cut].split(b"\n")
            self.torn = len(carry)

    def __iter__(self) -> Iterator[bytes]:
        for block in self.blocks():
            yield from block
