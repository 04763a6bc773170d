"""The file recorder's `.pending` marker: what makes an append of several lines all-or-none on disk. Called
by the file recorder (engine/recorders/file.py) under the log's lock, except the readers' check, which takes
no lock.

A write of several lines killed part way (the kernel may stop a long write at a page boundary on
SIGKILL; a power cut may keep some pages and not others) can leave some of a command's lines whole on
disk. So before writing such a command the append leaves `<log>.pending` (`END LENGTH`), durable, and
removes it once the command is fsynced. A log longer than END and shorter than END + LENGTH then holds
part of a command that was never acknowledged: readers stop at END, and the next append cuts it away.
A marker left behind by a finished command is harmless: the log never shrinks back below its end.

A marker must prove it belongs to the log before it is obeyed (`check_marker_belongs`): it names the hash
of the line just before END and the hash of the command's first line, and it is obeyed only when the log
holds exactly that line before END and, after END, that first line (or a piece of it). A marker copied
with a folder, restored from a backup, a symlink or a folder is ignored and reported, never obeyed:
acknowledged bytes are never cut.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from batchlog.engine.chain import GENESIS, line_hash
from batchlog.engine.errors import NotALog, WriteFailed
from batchlog.engine.files import BINARY, fsync_folder
from batchlog.engine.lines import MAX_LINE_BYTES
from batchlog.engine.recorders.protocols import Marker

PENDING_SUFFIX = ".pending"
MARKER_BYTES_MAX = 4096  # a marker holds two numbers and two hashes; anything longer is garbled anyway
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


def marker_path(log_path: Path) -> Path:
    return log_path.with_name(log_path.name + PENDING_SUFFIX)


def read_marker(path: Path) -> tuple[int, int, str, str]:
    """The marker's (END, LENGTH, hash of the line before END, hash of the command's first line):
    FileNotFoundError when there is none (the usual case, so a bare `os.open`), ValueError when it is
    garbled or not a regular file of its own (a symlink, a folder, a FIFO: never followed, never read)."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
    except FileNotFoundError:
        raise
    except OSError as exc:  # ELOOP: a symlink
        raise ValueError(f"{path} is not a marker batchlog wrote ({exc.strerror or exc})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError(f"{path} is not a regular file")
        content = os.read(fd, MARKER_BYTES_MAX)
    finally:
        os.close(fd)
    end, length, before, first = content.decode("ascii").split()
    return int(end), int(length), before, first


def marker_text(end: int, length: int, before: str, first: str) -> bytes:
    """What a marker holds: where the command starts, its length, the hash of the line before it, and the
    hash of its first line."""
    return f"{end} {length} {before} {first}".encode()


def write_marker(path: Path, end: int, length: int, before: str, first: str) -> None:
    """Leave the marker of a command of `length` bytes written at `end` (after the line hashing to `before`;
    its first line hashing to `first`), durable (file and folder entry) before the command is written:
    after a power cut in the middle, it is there to cut it away. Never follows a symlink."""
    log = path.with_name(path.name.removesuffix(PENDING_SUFFIX))
    try:
        if os.path.islink(path):
            os.unlink(path)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o644)
        try:
            os.write(fd, marker_text(end, length, before, first))
            os.fsync(fd)
        finally:
            os.close(fd)
        fsync_folder(path.parent)
    except OSError as exc:
        raise WriteFailed(f"cannot append to {log}: {exc.strerror or exc} (writing {path}): "
                          "nothing was recorded; free space or fix the disk (or move that path away if it is "
                          "a folder), then run the command again",
                          path=str(log), errno=exc.errno) from None


def check_marker_belongs(log_path: Path, marker: Path) -> Marker:
    """Whether the marker names an unfinished command of this very log: some of the command's bytes are on
    disk but not all, the line before them hashes as the marker says, and the first line after them too.
    A marker that does not match is ignored (with why), never obeyed."""
    try:
        end, length, before, first = read_marker(marker)
    except FileNotFoundError:
        return Marker()
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        return Marker(None, f"{marker} is not a marker batchlog wrote ({exc}): ignored", True)
    try:
        size = os.stat(log_path).st_size
        if not end < size < end + length:
            return Marker(None, "", True)  # a finished command's marker: harmless
        if _line_before(log_path, end) != before or not _first_line_matches(log_path, end, size, first):
            return Marker(None, f"{marker} does not belong to {log_path} (its lines are not the ones the marker "
                                "names: copied or restored from elsewhere?): ignored, nothing is cut", True)
    except OSError as exc:
        return Marker(None, f"{marker} cannot be checked ({exc.strerror or exc}): ignored", True)
    return Marker(end, "", True)


def _line_before(log_path: Path, end: int) -> str | None:
    """The hash of the line that ends (with its newline) at byte `end`; GENESIS at 0; None when none does."""
    if end == 0:
        return GENESIS
    window = 4096
    with open(log_path, "rb", buffering=0) as fh:
        while True:
            begin = max(0, end - window)
            fh.seek(begin)
            chunk = fh.read(end - begin)
            if chunk[-1:] != b"\n":
                return None
            cut = chunk.rfind(b"\n", 0, len(chunk) - 1)
            if cut >= 0 or begin == 0:
                return line_hash(chunk[cut + 1 : -1])
            if window > MAX_LINE_BYTES:
                return None
            window *= 4


def _first_line_matches(log_path: Path, end: int, size: int, first: str) -> bool:
    """Whether the bytes after `end` start with the command's first line (or are a piece of it, unfinished)."""
    with open(log_path, "rb", buffering=0) as fh:
        fh.seek(end)
        piece = fh.read(min(size - end, MAX_LINE_BYTES + 1))
    cut = piece.find(b"\n")
    return cut < 0 or line_hash(piece[:cut]) == first


def cut_unfinished_command(log_path: Path, marker: Path) -> Marker:
    """Under the lock: cut away the lines of a command whose append died mid-write, then the marker.

    Only a marker that belongs to the log cuts anything; one that does not is removed (a symlink: the link
    only) and reported; a folder in its place is refused, named. The marker's removal is made durable too:
    were it to come back after a power cut, it would hide the events appended after the cut."""
    found = check_marker_belongs(log_path, marker)
    if not found.present:
        return found
    if os.path.isdir(marker) and not os.path.islink(marker):
        raise NotALog(f"{marker} is a folder: batchlog keeps the marker of an unfinished command under that name; "
                      "move the folder away, then run the command again", path=str(marker))
    try:
        if found.start is not None:
            fd = os.open(log_path, os.O_RDWR | BINARY)
            try:
                os.ftruncate(fd, found.start)
                os.fsync(fd)
            finally:
                os.close(fd)
        marker.unlink()
        fsync_folder(marker.parent)
    except OSError as exc:
        raise WriteFailed(f"cannot repair {log_path} after an append that died: {exc.strerror or exc}",
                          path=str(log_path)) from None
    return found

