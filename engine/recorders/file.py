"""The file recorder: a log kept as one JSONL file (the embedded default).

The lock is the file's own (engine/recorders/file_lock.py); every reader gets its lines from one reader
(engine/recorders/file_reader.py); an append cuts away an unfinished command (engine/recorders/file_pending.py),
truncates a torn tail, writes its lines in one `write`, fsyncs, and puts the file back on failure; a salvage
keeps the damaged file beside the log and renames a new one over it. The only module that writes a log file.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from functools import partial
from hashlib import sha256
from pathlib import Path
from stat import S_IMODE, S_ISDIR, S_ISREG
from typing import Any

from batchlog.engine.chain import line_hash
from batchlog.engine.crash_hook import crash_point, written_mid_write
from batchlog.engine.errors import NotALog, WriteFailed
from batchlog.engine.files import BINARY, fsync_folder, remove_quietly, write_file
from batchlog.engine.lines import read_at
from batchlog.engine.recorders import file_pending
from batchlog.engine.recorders.file_lock import Held, NoFolder, exclusive
from batchlog.engine.recorders.file_reader import TrustedLines
from batchlog.engine.recorders.protocols import Marker, ReadAt
from batchlog.engine.recorders.wait import OnWait
from batchlog.engine.scan import Position


def _signature(stat: os.stat_result) -> tuple[int, ...]:
    """What changes when a file's bytes do: any write moves mtime and ctime, any replacement the inode."""
    return stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns


def readable_log(path: Path) -> bool:
    """Whether a log is at `path` yet (False: none); NotALog when the path cannot be one (a folder, a FIFO, a
    device, a socket, unreadable), before a byte of it is read."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as exc:
        raise NotALog(f"{path} cannot be read: {exc.strerror or exc}", path=str(path)) from None
    if S_ISDIR(mode):
        raise NotALog(f"{path} is a folder, not a log file: name the events.jsonl inside it", path=str(path))
    if not S_ISREG(mode):
        raise NotALog(f"{path} is not a regular file (a FIFO, a device or a socket): a log is a regular file; "
                      "name the events.jsonl of a tuning or a batch", path=str(path))
    if not os.access(path, os.R_OK):
        raise NotALog(f"{path} cannot be read: check its permissions", path=str(path))
    return True


def remove_made_folders(log_path: Path, made: list[Path]) -> None:
    """After an append that wrote nothing: the folders it created for the log go again (innermost first), so a
    refused command leaves nothing behind; a folder something else has meanwhile used stays."""
    if not made or log_path.exists():
        return
    for folder in reversed(made):
        try:
            folder.rmdir()
        except OSError:
            return


def make_folder(log_path: Path) -> list[Path]:
    """Create the log's folder (and its parents) when missing; the folders created, outermost first."""
    missing = [folder for folder in (log_path.parent, *log_path.parent.parents) if not folder.exists()]
    try:
        log_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteFailed(f"cannot create the folder {log_path.parent}: {exc.strerror or exc}",
                          path=str(log_path)) from None
    return missing[::-1]


def truncate_torn_tail(fd: int, end: int) -> None:
    """Under the lock, before a write: cut the bytes after the last complete line (`end`). They are a line
    that was never finished, so never acknowledged; readers skipped them, and the next line must follow a
    whole one."""
    os.ftruncate(fd, end)


def _write_all(fd: int, payload: bytes, written: int) -> None:
    """Write `payload` from byte `written` on: a short write goes on, or the next write says why (EFBIG, ENOSPC)."""
    while written < len(payload):
        more = os.write(fd, payload[written:])
        if not more:
            raise OSError(28, "No space left on device (short write)")
        written += more


def put_back(fd: int, end: int) -> None:
    """Cut a failed append back off, so the log is as it was (best effort: the next append repairs it)."""
    try:
        os.ftruncate(fd, end)
        os.fsync(fd)
    except OSError:
        pass


class FileRecorder:
    """A log kept in the file at `path` (its snapshots read it at offsets: `ReadableAtOffsets`)."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.address = str(self.path)

    def exists(self) -> bool:
        return readable_log(self.path)

    def lines(self, start: Position, limit: int | None) -> TrustedLines:
        return TrustedLines(self.path, start, limit)

    def signature(self) -> tuple[int, ...] | None:
        try:
            return _signature(os.stat(self.path))
        except OSError:
            return None

    @contextmanager
    def reading(self) -> Iterator[ReadAt]:
        fd = os.open(self.path, os.O_RDONLY | BINARY)
        try:
            yield partial(read_at, fd)
        finally:
            os.close(fd)

    @contextmanager
    def locked(self, on_wait: OnWait) -> Iterator[FileSession]:
        made: list[Path] = []
        try:
            with ExitStack() as stack:
                try:
                    held = stack.enter_context(exclusive(self.path, on_wait))
                except NoFolder:
                    made = make_folder(self.path)  # no folder yet: make it (it goes again when nothing is written)
                    held = stack.enter_context(exclusive(self.path, on_wait))
                yield FileSession(self, held)
        finally:
            remove_made_folders(self.path, made)


class FileSession:
    """The file recorder under the lock: the log's descriptor, open read-write, locked."""

    def __init__(self, recorder: FileRecorder, held: Held) -> None:
        self.recorder = recorder
        self.path = recorder.path
        self.held = held
        self.marker: file_pending.Held | None = None  # once an unfinished command is cut: where the marker is

    def cut_unfinished(self) -> Marker:
        """Cut away the lines of a command whose append died mid-write (only when the marker belongs to this
        log); what the marker said."""
        found, self.marker = file_pending.cut_unfinished_command(self.held.fd, self.path)
        return found

    def lines(self, start: Position, limit: int | None) -> TrustedLines:
        """Under the lock, once `cut_unfinished` ran, the log holds no unfinished command: nothing to settle."""
        known = Marker() if self.marker is not None else None
        return TrustedLines(self.path, start, limit, fd=self.held.fd, marker=known)

    def unchanged(self, token: Any, last_line_start: int, end: int, last_hash: str) -> bool:
        """Same inode, size, mtime and ctime as the last append left, and its last line hashes the same."""
        fd = self.held.fd
        try:
            if _signature(os.fstat(fd)) != token:
                return False
            last_line = read_at(fd, last_line_start, end - last_line_start)
        except OSError:
            return False
        return last_line[-1:] == b"\n" and line_hash(last_line[:-1]) == last_hash

    def grown_since(self, token: Any, position: Position) -> bool:
        return False  # a file changed since is replayed (through its snapshot): its bytes may have been rewritten

    def write(self, payload: bytes, position: Position, end: int, torn: int) -> tuple[int, ...]:
        """Write `payload` after byte `end` in one write and fsync; on failure, put the file back. A command of
        several lines is marked before and after (engine/recorders/file_pending.py).

        Returns the file's signature just after the write (see `_signature`)."""
        path, fd, created = self.path, self.held.fd, self.held.created
        marker = self._marker() if payload.count(b"\n") > 1 else None
        if marker is not None:
            file_pending.begin_command(marker, fd, path, end, payload, position.hash)
        try:
            if torn:
                truncate_torn_tail(fd, end)
            crash_point("append.before_write")
            _write_all(fd, payload, written_mid_write(fd, payload))
            crash_point("append.after_write")
            os.fsync(fd)
            crash_point("append.after_fsync")
            if created:
                fsync_folder(path.parent)
            stat = _signature(os.fstat(fd))
        except OSError as exc:
            put_back(fd, end)
            if created:
                remove_quietly(path)
            raise WriteFailed(
                f"cannot append to {path}: {exc.strerror or exc}: nothing was recorded; free space or "
                "fix the disk, then run the command again",
                path=str(path), errno=exc.errno,
            ) from None
        if marker is not None:
            file_pending.end_command(marker)
        return stat

    def write_blocks(self, blocks: Iterable[bytes], length: int, digest: str) -> None:
        """The bytes of `blocks` written one block at a time into this empty log, under one marker covering them
        all (so a crash part way leaves a command never finished, which readers stop at), one fsync at the end."""
        path, fd = self.path, self.held.fd
        marker = self._marker()
        file_pending.begin_marked(marker, fd, path, 0, length, digest)
        written = 0
        try:
            for block in blocks:
                _write_all(fd, block, 0)
                written += len(block)
            if written != length:
                raise OSError(f"{written} bytes came where {length} were announced")
            os.fsync(fd)
            if self.held.created:
                fsync_folder(path.parent)
        except OSError as exc:
            put_back(fd, 0)
            raise WriteFailed(f"cannot write {path}: {exc.strerror or exc}: nothing was kept; free space or fix the "
                              "disk, then run the command again", path=str(path), errno=exc.errno) from None
        file_pending.end_command(marker)

    def _marker(self) -> file_pending.Held:
        """Where this log keeps its marker and what it says (read once per session)."""
        if self.marker is None:
            self.cut_unfinished()
        return self.marker

    # -- salvage: the damaged file kept beside the log, a new log renamed over it ------------------

    def keep_copy(self, suffix: str) -> tuple[str, str]:
        """The file, untouched, under its name + `suffix` beside it (numbered when that name is taken): a hard
        link, else a copy."""
        path = self.path
        target = path.with_name(f"{path.name}{suffix}")
        number = 1
        while os.path.lexists(target):
            number += 1
            target = path.with_name(f"{path.name}{suffix}-{number}")
        try:
            try:
                os.link(path, target)
            except OSError:  # no hard links here: a copy, through the writer (a link planted at `target` is refused)
                write_file(target, _blocks(path), new=True, mode=S_IMODE(os.stat(path).st_mode))
        except OSError as exc:
            raise WriteFailed(f"cannot keep the damaged log as {target}: {exc.strerror or exc}: nothing was changed",
                              path=str(path), errno=exc.errno) from None
        digest = sha256()
        with open(target, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        return target.name, digest.hexdigest()

    def cut_back(self, keep: int, kept_bytes: int, line: bytes) -> None:
        """The first `kept_bytes` bytes and `line`, written aside, fsynced and renamed over the log, so a crash
        at any step leaves one whole log under its name; the unfinished-command marker belonged to the old file (its
        extended attribute stays with it; a `.pending` file beside it goes). The snapshot files beside it stay:
        each is checked against the bytes it covers before it is used."""
        path = self.path
        with open(path, "rb") as fh:
            prefix = fh.read(kept_bytes)
        try:
            write_file(path, prefix + line + b"\n")  # a temporary name nobody can plant; the log's mode kept
            file_pending.SidecarStore(path).remove()
            folder = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)
        except OSError as exc:
            raise WriteFailed(f"cannot write the salvaged log {path}: {exc.strerror or exc}: the log is as it was "
                              f"(the damaged copy is kept)", path=str(path), errno=exc.errno) from None


def _blocks(path: Path) -> Iterator[bytes]:
    """The bytes of the file at `path`, a MiB at a time."""
    with open(path, "rb") as fh:
        yield from iter(lambda: fh.read(1 << 20), b"")
