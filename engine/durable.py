"""What makes an append all-or-none and durable: the `.pending` marker of a command of several lines,
folder fsyncs, and putting a failed write back. Files only; called by the append under its lock (the
readers' check aside, which takes no lock).

A write of several lines killed part way (the kernel may stop a long write at a page boundary on
SIGKILL; a power cut may keep some pages and not others) can leave some of a command's lines whole on
disk. So before writing such a command the append leaves `<log>.pending` (`END LENGTH`), durable, and
removes it once the command is fsynced. A log longer than END and shorter than END + LENGTH then holds
part of a command that was never acknowledged: readers stop at END, and the next append cuts it away.
A marker left behind by a finished command is harmless: the log never shrinks back below its end.
"""

from __future__ import annotations

import os
from pathlib import Path

from engine.errors import WriteFailed

PENDING_SUFFIX = ".pending"
MARKER_BYTES_MAX = 4096  # a marker holds two numbers; anything longer is garbled anyway
BINARY = getattr(os, "O_BINARY", 0)  # for os.open: Windows would otherwise write "\n" as "\r\n"


def marker_path(log_path: Path) -> Path:
    return log_path.with_name(log_path.name + PENDING_SUFFIX)


def read_marker(path: Path) -> tuple[int, int]:
    """The marker's (END, LENGTH): FileNotFoundError when there is none (the usual case, so a bare
    `os.open`), ValueError when it is garbled."""
    fd = os.open(path, os.O_RDONLY)
    try:
        content = os.read(fd, MARKER_BYTES_MAX)
    finally:
        os.close(fd)
    end, length = map(int, content.split())
    return end, length


def write_marker(path: Path, end: int, length: int) -> None:
    """Leave the marker of a command of `length` bytes written at `end`, durable (file and folder
    entry) before the command is written: after a power cut in the middle, it is there to cut it away."""
    log = path.with_name(path.name.removesuffix(PENDING_SUFFIX))
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, f"{end} {length}".encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        fsync_folder(path.parent)
    except OSError as exc:
        raise WriteFailed(f"cannot append to {log}: {exc.strerror or exc} (writing {path.name}): "
                          "nothing was recorded; free space or fix the disk, then run the command again",
                          path=str(log), errno=exc.errno) from None


def unfinished_command_start(log_path: Path, marker: Path) -> int | None:
    """Where a command being written (or killed part way) starts, when some of its lines are on disk
    but not all: readers stop there, so they never see part of a command."""
    try:
        end, length = read_marker(marker)
        size = os.stat(log_path).st_size
    except (OSError, ValueError):
        return None
    return end if end < size < end + length else None


def cut_unfinished_command(log_path: Path, marker: Path) -> None:
    """Under the lock: cut away the lines of a command whose append died mid-write, then the marker.

    The marker's removal is made durable too: were it to come back after a power cut, it would hide
    the events appended after the cut."""
    try:
        end, length = read_marker(marker)
    except FileNotFoundError:
        return
    except (OSError, ValueError):
        end, length = 0, 0  # garbled: it cuts nothing, and goes
    try:
        if log_path.exists() and end < log_path.stat().st_size < end + length:
            fd = os.open(log_path, os.O_RDWR | BINARY)
            try:
                os.ftruncate(fd, end)
                os.fsync(fd)
            finally:
                os.close(fd)
        marker.unlink()
        fsync_folder(marker.parent)
    except OSError as exc:
        raise WriteFailed(f"cannot repair {log_path} after an append that died: {exc.strerror or exc}",
                          path=str(log_path)) from None


def put_back(fd: int, end: int) -> None:
    """Cut a failed append back off, so the log is as it was (best effort: the next append repairs it)."""
    try:
        os.ftruncate(fd, end)
        os.fsync(fd)
    except OSError:
        pass


def remove_quietly(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def fsync_folder(folder: Path) -> None:
    """Make the folder's entries durable (a new file, a removed one); best effort where folders
    cannot be opened (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
