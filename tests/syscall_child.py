"""Run under strace by tests/test_append_syscalls.py: fresh-command appends between two marker calls.

Each append is what one CLI command's append does: a new log object (snapshots on), one event. The
first appends (before the marker) build the log and load every module an append uses lazily, so the
counted calls are the append's own.
"""

from __future__ import annotations

import os
import sys

from batchlog.engine import open_log
from tests.sample_domain import COUNT, REGISTRY, NoteAdded

BEGIN, END = "/batchlog-syscalls-begin", "/batchlog-syscalls-end"


def append(path: str, text: str) -> None:
    open_log(path, REGISTRY).append(COUNT, lambda state: [NoteAdded(text)])


def marker(name: str) -> None:
    try:
        os.stat(name)
    except FileNotFoundError:
        pass


def main(path: str, before: int, counted: int) -> None:
    for n in range(before):
        append(path, f"before {n}")
    marker(BEGIN)
    for n in range(counted):
        append(path, f"counted {n}")
    marker(END)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
