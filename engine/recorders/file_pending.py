"""The marker of a command being written: what makes a file log's append of several lines all-or-none, and
what readers stop at. Written by the file recorder (engine/recorders/file.py) under the log's lock; read by its
one reader (engine/recorders/file_reader.py), which takes no lock.

A write of several lines killed part way (the kernel may stop a long write at a page boundary on SIGKILL), or
cut by a power cut (some pages kept, some zeroed, the size kept or not), can leave some of a command's lines
whole on disk. So before writing such a command the append leaves a marker, durable: where the command starts,
its length, the hash of the line before it and the SHA-256 of its bytes. Once the command is fsynced the
marker says `done`. A marker still `pending` whose bytes are not all there hashing as recorded (fewer bytes,
zeros, a half page, bytes of another file) names a command that was never acknowledged: readers stop where it
starts and the next append cuts it away. One whose bytes are whole is harmless (the command was written and
fsynced; only the word `done` was lost).

The marker belongs to the file, not to a path: it is the extended attribute `user.batchlog.pending` of the log
file itself, found from its inode however the file was reached (a symlink, a hard link, `a/../b`), as the lock
is, and made durable by the file's own fsync. Where the file system keeps no user extended attributes, it is
the file `<log>.pending` beside the log's resolved path (symlinks and `..` resolved); a log with more than one
hard link there cannot have its marker found through each name, so a command of several events is refused on
it (README: Guarantees).

Every change gives the marker a new value (it counts its changes, `number`), so a reader that reads it before
and after looking at the file knows whether a writer moved in between. A marker is obeyed only when it names
the line the log holds just before the command (`before`): one left from other bytes (the file rewritten in
place, a sidecar copied or restored) is ignored and reported, never obeyed: acknowledged bytes are never cut.
"""

from __future__ import annotations

import errno
import os
import stat
from hashlib import sha256
from pathlib import Path

import attrs

from batchlog.engine.chain import GENESIS, line_hash
from batchlog.engine.errors import NotALog, WriteFailed
from batchlog.engine.files import fsync_folder, remove_quietly
from batchlog.engine.lines import MAX_LINE_BYTES, read_at
from batchlog.engine.recorders.protocols import Marker
from batchlog.engine.value import frozen

ATTRIBUTE = "user.batchlog.pending"
PENDING_SUFFIX = ".pending"
MARKER_BYTES_MAX = 4096  # a marker holds four numbers, a word and two hashes; anything longer is garbled
CHECK_BYTES = 1 << 20  # the command's bytes are hashed and counted in pieces of this size: memory stays flat
_UNSUPPORTED = {errno.ENOTSUP, errno.EOPNOTSUPP, getattr(errno, "ENOSYS", -1)}
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
STATES = ("pending", "done", "cut")


@frozen
class Pending:
    """What a marker says. `number`: how many times the file's marker was set (each change a new value);
    `state`: `pending` (a command of `length` bytes is being written at `end`, after the line hashing to
    `before`, its bytes hashing to `digest`), `done` (that command is whole) or `cut` (an unfinished one was cut
    away at `end`)."""

    number: int
    state: str
    end: int = 0
    length: int = 0
    before: str = ""
    digest: str = ""

    def encoded(self) -> bytes:
        if self.state == "pending":
            return f"{self.number} pending {self.end} {self.length} {self.before} {self.digest}".encode()
        return f"{self.number} {self.state} {self.end} {self.length}".encode()  # short: read in one system call


def parse(value: bytes) -> Pending:
    """The marker `value` holds; ValueError when it is not one batchlog wrote."""
    parts = value.decode("ascii").split()
    if len(parts) < 4 or parts[1] not in STATES or len(parts) != (6 if parts[1] == "pending" else 4):
        raise ValueError("not a marker batchlog wrote")
    number, end, length = int(parts[0]), int(parts[2]), int(parts[3])
    if min(number, end, length) < 0:
        raise ValueError("a negative number")
    return Pending(number, parts[1], end, length, *parts[4:])


class AttributeStore:
    """The marker kept on the log file itself: an extended attribute of its inode, read and set on a descriptor."""

    def __init__(self, fd: int, log_path: Path) -> None:
        self.fd = fd
        self.shown = f"the marker of {log_path} (its extended attribute {ATTRIBUTE})"

    def read(self) -> bytes | None:
        try:
            return os.getxattr(self.fd, ATTRIBUTE)
        except OSError as exc:
            if exc.errno == errno.ENODATA:
                return None
            raise

    def write(self, value: bytes, durable: bool) -> None:
        """Set the marker; with `durable`, fsync the file (its extended attributes are part of its inode)."""
        os.setxattr(self.fd, ATTRIBUTE, value)
        if durable:
            os.fsync(self.fd)

    def remove(self) -> None:
        try:
            os.removexattr(self.fd, ATTRIBUTE)
        except OSError as exc:
            if exc.errno != errno.ENODATA:
                raise


class SidecarStore:
    """Where the file system keeps no user extended attributes: the file `<resolved log path>.pending`, read
    without following a link, replaced whole (a temporary name of its own, renamed over it)."""

    def __init__(self, log_path: Path) -> None:
        resolved = Path(os.path.realpath(log_path))
        self.path = resolved.with_name(resolved.name + PENDING_SUFFIX)
        self.shown = str(self.path)

    def read(self) -> bytes | None:
        """The marker's bytes (None: no marker); ValueError when the name holds something batchlog never writes
        there (a symlink, a folder, a FIFO: never followed, never read)."""
        try:
            fd = os.open(self.path, os.O_RDONLY | _NOFOLLOW)
        except FileNotFoundError:
            return None
        except OSError as exc:  # ELOOP: a symlink
            raise ValueError(f"{self.path} is not a marker batchlog wrote ({exc.strerror or exc})") from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise ValueError(f"{self.path} is not a regular file")
            return os.read(fd, MARKER_BYTES_MAX)
        finally:
            os.close(fd)

    def write(self, value: bytes, durable: bool) -> None:
        self._refuse_folder()
        temp = self.path.with_name(f".{self.path.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644)
        try:
            try:
                os.write(fd, value)
                if durable:
                    os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(temp, self.path)  # a symlink planted at the name is replaced, never followed
        except BaseException:
            remove_quietly(temp)
            raise
        if durable:
            fsync_folder(self.path.parent)

    def remove(self) -> None:
        self._refuse_folder()
        remove_quietly(self.path)

    def _refuse_folder(self) -> None:
        if os.path.isdir(self.path) and not os.path.islink(self.path):
            raise NotALog(f"{self.path} is a folder: batchlog keeps the marker of an unfinished command under that "
                          "name; move the folder away, then run the command again", path=str(self.path))


Store = AttributeStore | SidecarStore


def marker_of(fd: int, log_path: Path) -> tuple[Store, bytes | None]:
    """Where the log open on `fd` keeps its marker, and what it holds (None: no marker)."""
    if hasattr(os, "getxattr"):
        store = AttributeStore(fd, log_path)
        try:
            return store, store.read()
        except OSError as exc:
            if exc.errno not in _UNSUPPORTED:
                raise
    sidecar = SidecarStore(log_path)
    try:
        return sidecar, sidecar.read()
    except ValueError:
        return sidecar, b"\0"  # garbled: ignored and reported like any marker batchlog did not write


# -- what a marker means for the bytes the file holds --------------------------------------------------------


def obeyed(fd: int, size: int, store: Store, value: bytes | None) -> Marker:
    """What a reader of the `size` bytes of the log on `fd` makes of the marker `value`: where an unfinished
    command starts (and how much of it is there), or why the marker is ignored."""
    if value is None:
        return Marker()
    try:
        pending = parse(value)
    except (ValueError, UnicodeDecodeError):
        return Marker(None, f"{store.shown} is not a marker batchlog wrote: ignored")
    if pending.state != "pending" or not pending.end < size or _whole(fd, size, pending):
        return Marker()  # nothing of a command there, or a finished command's marker: harmless
    if _line_before(fd, pending.end) != pending.before:
        return Marker(None, f"{store.shown} does not belong to these bytes (the line before the command it names is "
                            "not the one it recorded: the file was rewritten, or the marker copied or restored): "
                            "ignored, nothing is cut")
    left, lines = _extent(fd, pending.end, size)
    return Marker(pending.end, "", left, lines)


def _whole(fd: int, size: int, pending: Pending) -> bool:
    """Whether the command's bytes are all there and hash to what the marker recorded (zeros, a half page or
    another file's bytes never do)."""
    if pending.end + pending.length > size:
        return False
    digest = sha256()
    offset, stop = pending.end, pending.end + pending.length
    while offset < stop:
        piece = read_at(fd, offset, min(CHECK_BYTES, stop - offset))
        if not piece:
            return False
        digest.update(piece)
        offset += len(piece)
    return digest.hexdigest() == pending.digest


def _extent(fd: int, start: int, size: int) -> tuple[int, int]:
    """(bytes, lines) of the part after `start`: its complete lines and a last piece without its newline."""
    lines, offset, last = 0, start, b"\n"
    while offset < size:
        piece = read_at(fd, offset, min(CHECK_BYTES, size - offset))
        if not piece:
            break
        lines += piece.count(b"\n")
        offset += len(piece)
        last = piece[-1:]
    return offset - start, lines + (last != b"\n")


def _line_before(fd: int, end: int) -> str | None:
    """The hash of the line that ends (with its newline) at byte `end`; GENESIS at 0; None when none does."""
    if end == 0:
        return GENESIS
    window = 4096
    while True:
        begin = max(0, end - window)
        chunk = read_at(fd, begin, end - begin)
        if chunk[-1:] != b"\n":
            return None
        cut = chunk.rfind(b"\n", 0, len(chunk) - 1)
        if cut >= 0 or begin == 0:
            return line_hash(chunk[cut + 1 : -1])
        if window > MAX_LINE_BYTES:
            return None
        window *= 4


# -- the writer's side, under the log's lock -----------------------------------------------------------------


@attrs.define
class Held:
    """The marker as an append holding the lock found it (and has left it): where it is kept and what it says."""

    store: Store
    current: Pending | None


def cut_unfinished_command(fd: int, log_path: Path) -> tuple[Marker, Held]:
    """Under the lock: cut away the lines of a command whose append died part way, and leave the marker saying so.

    A marker that does not belong (or is garbled) is removed and reported; one of a finished command is set to
    `done`. The cut and the marker's new value are durable before anything else is written: were the old
    marker to come back after a power cut, it would hide the events appended after the cut."""
    store, value = marker_of(fd, log_path)
    if value is None:
        return Marker(), Held(store, None)
    try:
        current = parse(value)
    except (ValueError, UnicodeDecodeError):
        current = None
    if current is not None and current.state != "pending":
        return Marker(), Held(store, current)
    found = obeyed(fd, os.fstat(fd).st_size, store, value)
    try:
        if current is None or found.ignored:
            store.remove()
            return found, Held(store, None)
        if found.start is None:  # whole (its `done` was lost), or none of it written
            state = "done" if current.end < os.fstat(fd).st_size else "cut"
            settled = Pending(current.number + 1, state, current.end, current.length if state == "done" else 0)
            store.write(settled.encoded(), durable=False)
            return found, Held(store, settled)
        os.ftruncate(fd, found.start)
        cut = Pending(current.number + 1, "cut", found.start, 0)
        if isinstance(store, AttributeStore):
            store.write(cut.encoded(), durable=True)  # one fsync: the cut and the marker
        else:
            os.fsync(fd)
            store.write(cut.encoded(), durable=True)
    except OSError as exc:
        raise WriteFailed(f"cannot repair {log_path} after an append that died: {exc.strerror or exc}",
                          path=str(log_path), errno=exc.errno) from None
    return found, Held(store, cut)


def begin_command(held: Held, fd: int, log_path: Path, end: int, payload: bytes, before: str) -> None:
    """Before a command of several lines (`payload`) is written at `end`, after the line hashing to `before`: its
    marker, durable."""
    begin_marked(held, fd, log_path, end, len(payload), sha256(payload).hexdigest(), before)


def begin_marked(held: Held, fd: int, log_path: Path, end: int, length: int, digest: str,
                 before: str = GENESIS) -> None:
    """The marker of `length` bytes hashing to `digest` about to be written at `end`, durable. Refused (WriteFailed,
    nothing written) where the marker is a file beside one name of a log that has others (hard links): through
    those it would never be found."""
    links = os.fstat(fd).st_nlink if isinstance(held.store, SidecarStore) else 1
    if links > 1:
        raise WriteFailed(
            f"cannot append to {log_path}: it has {links} hard links and its file system keeps no extended "
            "attributes, so the marker of a command of several events, kept beside one name, could be missed "
            "through another: nothing was recorded; keep the log under one name (remove its other hard links), "
            "or keep it on a file system with user extended attributes", path=str(log_path))
    number = held.current.number + 1 if held.current is not None else 1
    pending = Pending(number, "pending", end, length, before, digest)
    try:
        held.store.write(pending.encoded(), durable=True)
    except OSError as exc:
        raise WriteFailed(f"cannot append to {log_path}: {exc.strerror or exc} (writing {held.store.shown}): "
                          "nothing was recorded; free space or fix the disk, then run the command again",
                          path=str(log_path), errno=exc.errno) from None
    held.current = pending


def end_command(held: Held) -> None:
    """After the command is fsynced: its marker says `done`. Not made durable, nor is a failure to say it an
    error: a `pending` marker whose bytes are whole is harmless, and the next append sets it to `done`."""
    pending = held.current
    done = Pending(pending.number + 1, "done", pending.end, pending.length)
    try:
        held.store.write(done.encoded(), durable=False)
    except OSError:
        return
    held.current = done
