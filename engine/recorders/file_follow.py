"""Following a log file as it grows: its lines read through one descriptor held open, and a wait for more.

Linux tells a process when a file is written (inotify, reached through ctypes: three calls of the C library);
elsewhere the file's size and times are polled, lightly. The descriptor is opened before anything is read and
watched itself (not the path), so the follower keeps reading the very file it started on, even once no path
names it any more (a quick batch's run folder is removed after its summary). Reads only: never a lock, never a
write.
"""

from __future__ import annotations

import os
import select
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial

from batchlog.engine.lines import read_at
from batchlog.engine.recorders.file import FileRecorder, _signature as file_signature
from batchlog.engine.recorders.file_reader import TrustedLines
from batchlog.engine.recorders.protocols import ReadAt
from batchlog.engine.scan import Position

POLL_S = 0.05  # where there is no inotify: how often the file's size and times are looked at (an fstat each)

# From <sys/inotify.h>: a write (or a truncation) of the file; its links or times changed (an unlink, a rename
# over it); the file itself deleted or moved.
IN_MODIFY, IN_ATTRIB, IN_MOVE_SELF, IN_DELETE_SELF = 0x2, 0x4, 0x800, 0x400
IN_NONBLOCK, IN_CLOEXEC = 0o4000, 0o2000000  # Linux's O_NONBLOCK and O_CLOEXEC, as inotify_init1 takes them
EVENTS_BYTES = 1 << 16  # one read drains this much of the queue of events (a second wake drains the rest)


class HeldFile:
    """The reading side of a file recorder, through one open descriptor of the log: the lines after a position,
    by the file log's one reader (engine/recorders/file_reader.py, which stops where an unfinished command
    starts), and the file's bytes at offsets and its signature (what its snapshots check: `ReadableAtOffsets`).
    It never locks: a follower never appends."""

    def __init__(self, recorder: FileRecorder, fd: int) -> None:
        self.fd = fd
        self.path = recorder.path
        self.address = recorder.address

    def exists(self) -> bool:
        return True  # the descriptor is open: the file is there for this reader

    def lines(self, start: Position, limit: int | None) -> TrustedLines:
        return TrustedLines(self.path, start, limit, fd=self.fd)

    def signature(self) -> tuple[int, ...] | None:
        return file_signature(os.fstat(self.fd))  # the file's own, as the file recorder's (the same snapshots)

    @contextmanager
    def reading(self) -> Iterator[ReadAt]:
        yield partial(read_at, self.fd)


class FileTail:
    """A log file followed: `recorder` reads it, `wait` returns once it may have grown, `gone` says whether it was
    removed (or replaced: its path now names another file). Opened on an existing regular file."""

    def __init__(self, recorder: FileRecorder) -> None:
        recorder.exists()  # NotALog, naming why, for anything but a regular file
        self.fd = os.open(recorder.path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        self.recorder = HeldFile(recorder, self.fd)
        self._inotify = _watch(self.fd)
        self._seen = _signature(self.fd) if self._inotify is None else None

    def wait(self, timeout_s: float | None) -> bool:
        """Block until the file may have changed (True) or `timeout_s` has passed (False; None: no timeout)."""
        if self._inotify is not None:
            if not select.select([self._inotify], [], [], timeout_s)[0]:
                return False
            try:
                os.read(self._inotify, EVENTS_BYTES)
            except BlockingIOError:
                pass
            return True
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while True:
            seen = _signature(self.fd)
            if seen != self._seen:
                self._seen = seen
                return True
            left = POLL_S if deadline is None else min(POLL_S, deadline - time.monotonic())
            if left <= 0:
                return False
            time.sleep(left)

    def gone(self) -> bool:
        """No path names the file any more (it was removed, or another file was renamed over it)."""
        return os.fstat(self.fd).st_nlink == 0

    def close(self) -> None:
        for fd in (self._inotify, self.fd):
            if fd is not None:
                os.close(fd)
        self._inotify = None


def _signature(fd: int) -> tuple[int, int, int]:
    """What a write or a truncation of the file moves: its size, mtime and ctime."""
    info = os.fstat(fd)
    return info.st_size, info.st_mtime_ns, info.st_ctime_ns


def _watch(fd: int) -> int | None:
    """An inotify descriptor that becomes readable when the file open as `fd` is written, truncated, unlinked or
    moved; None where the system has no inotify (the caller polls)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        init, add = libc.inotify_init1, libc.inotify_add_watch
    except (OSError, AttributeError, ImportError, TypeError):  # no C library to open (Windows), or no inotify in it
        return None
    add.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32)
    watcher = init(IN_NONBLOCK | IN_CLOEXEC)
    if watcher < 0:
        return None
    # The descriptor's own entry in /proc names the open file whatever its path became: watched, not the path.
    target = f"/proc/self/fd/{fd}"
    if add(watcher, os.fsencode(target), IN_MODIFY | IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF) < 0:
        os.close(watcher)
        return None
    return watcher

