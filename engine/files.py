"""Plain files: the two doors every file batchlog reads or writes besides its logs goes through, and the small
steps every writer of the engine shares (a folder's entries made durable, a file removed quietly, the flag that
keeps bytes binary).

`read_user_file(path, what, limit)` is the one opener of a file a user or another process could have placed
(a dataset, a selection, a run's cases.json, plan.json or findings.md, a difficult list, config.json, README.md,
USAGE.md, a brief and the brief validator, a batch file, a staged payload, a seed's batch.jsonl, an exit-code
map, a summary a repeat compares, a removed run folder's note, a snapshot, the snapshot key). It takes only a
regular file: a FIFO, a device, a socket, a folder, a link to nothing or a link loop is refused before the file
is opened (lstat, and stat through a link), and again on the descriptor (opened with O_NONBLOCK, so even a FIFO
swapped in meanwhile never blocks; fstat). At most `limit` bytes are read (one more tells that the file is
longer, whatever size it claims), so /dev/zero, a growing file or a huge one is never taken into memory; a read
asked for more than the size the file claims that stops at that size is the file's end (a regular file gives
less than asked only there), and a file that claims 0 bytes (as /proc's do) is read until a read gives nothing.
Anything else is `UnreadableFile`, which names the file and what to do.

`write_file(path, data)` is the one writer of a file batchlog creates or replaces (cases.json, plan.json,
README.md, USAGE.md, the quick batch's summaries, archived log and note, salvage's new log and kept copy,
snapshot files, the snapshot key). The bytes go to a temporary name of the writer's own in the target's folder
(its pid and 32 random bits, created O_CREAT|O_EXCL|O_NOFOLLOW: a file or link planted under any name is never
written through), then are renamed over the target (`new=True`: linked to a name that must not exist yet). A
replaced file's permissions are kept (a 0600 log stays 0600). A durable file is fsynced before its rename and
its folder after; a cache (a snapshot) is not. A reader sees the old file or the new one, never part of one,
and a kill at any point leaves no empty file under the target's name. A temporary file left by a killed writer
is removed by the next write of the same target once its writer is gone.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from batchlog.engine.crash_hook import crash_point
from batchlog.engine.errors import UnreadableFile

BINARY = getattr(os, "O_BINARY", 0)  # for os.open: Windows would otherwise write "\n" as "\r\n"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_TEMP_SUFFIX = ".tmp"
_WRITE_BYTES = 1 << 20
_SPECIAL = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
            (stat.S_ISSOCK, "a socket"))


# ─── the one opener ─────────────────────────────────────────────────────────


def read_user_file(path: str | os.PathLike, what: str, limit: int, *, private: bool = False) -> bytes:
    """The bytes of the regular file at `path` (a `what`, e.g. "dataset", named in messages), at most `limit` of
    them; UnreadableFile for anything else, before a byte is read. `private`: the file must be this user's own,
    unreadable and unwritable by others, and not a link (a secret: the snapshot key)."""
    _refuse_unless_regular(path, what, _status(path, what, private))
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | BINARY | (_NOFOLLOW if private else 0))
    except OSError as exc:
        raise _os_refusal(path, what, exc) from None
    try:
        info = os.fstat(fd)
        _refuse_unless_regular(path, what, info)  # the name may have been pointed elsewhere since the stat
        if private and hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o077):
            raise UnreadableFile(path, what, "others may read or write it, or it is not this user's own",
                                 f"{os.fspath(path)} is not private to this user: it must be this user's own file "
                                 "with mode 0600")
        if info.st_size > limit:
            raise _too_large(path, what, limit)
        pieces, taken = [], 0
        while taken <= limit:  # one read, as a rule: the size is known; past `limit`, the file is too large
            piece = os.read(fd, min(limit + 1 - taken, max(info.st_size + 1 - taken, 1 << 16)))
            if not piece:
                break
            pieces.append(piece)
            taken += len(piece)
            if taken == info.st_size:
                break  # asked for a byte past the size it claims and given none: a regular file's end, no read more
    except OSError as exc:
        raise _os_refusal(path, what, exc) from None
    finally:
        os.close(fd)
    if taken > limit:
        raise _too_large(path, what, limit)
    return b"".join(pieces)


def _status(path: str | os.PathLike, what: str, private: bool) -> os.stat_result:
    """What is at `path` before it is opened, through a link unless `private`: lstat first, so a regular file and
    nothing at all cost one call each (the usual cases: a file given, a snapshot not written yet), and what a
    failure found (no entry, or a link to nothing) is known without asking again."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        raise _os_refusal(path, what, exc, link=False) from None
    if private or not stat.S_ISLNK(info.st_mode):
        return info
    try:
        return os.stat(path)
    except OSError as exc:
        raise _os_refusal(path, what, exc, link=True) from None


def _refuse_unless_regular(path: str | os.PathLike, what: str, info: os.stat_result) -> None:
    mode = info.st_mode
    if stat.S_ISREG(mode):
        return
    shown = os.fspath(path)
    if stat.S_ISDIR(mode):
        raise UnreadableFile(path, what, os.strerror(21),  # EISDIR, as open() says it
                             f"{shown} is a folder: give the path of the {what} (a regular file)", errno=21)
    if stat.S_ISLNK(mode):
        raise UnreadableFile(path, what, "it is a link", f"{shown} is a link: the {what} must be a regular file")
    kind = next((name for test, name in _SPECIAL if test(mode)), "not a file")
    raise UnreadableFile(path, what, f"it is {kind}, not a regular file",
                         f"{shown} is {kind}, not a regular file: give the path of the {what} (a regular file)")


def _os_refusal(path: str | os.PathLike, what: str, exc: OSError, *, link: bool | None = None) -> UnreadableFile:
    """The refusal of an OSError the stat, the open or the read met; its `reason` is the system's words (as a plain
    open would have said them). `link`: whether `path` is a link, when the caller's stat already knows."""
    import errno

    shown, reason = os.fspath(path), exc.strerror or str(exc)
    dangling = exc.errno == errno.ENOENT and (os.path.islink(path) if link is None else link)
    if dangling:
        message = f"{shown} is a link to nothing: give the path of the {what}"
    elif exc.errno == errno.ENOENT:
        message = f"{shown} does not exist: give the path of the {what}"
    elif exc.errno == errno.ELOOP:
        message = f"{shown} is a link in a loop: give the path of the {what}"
    elif exc.errno in (errno.EACCES, errno.EPERM):
        message = f"{shown} cannot be read ({reason}): check its permissions"
    else:
        message = f"{shown} cannot be read ({reason}): check the path of the {what}"
    return UnreadableFile(path, what, reason, message, errno=exc.errno,
                          missing=exc.errno == errno.ENOENT and not dangling)


def _too_large(path: str | os.PathLike, what: str, limit: int) -> UnreadableFile:
    most = (f"{limit >> 20} MiB" if limit >= 1 << 20 and not limit % (1 << 20) else
            f"{limit >> 10} KiB" if limit >= 1 << 10 and not limit % (1 << 10) else f"{limit:,} bytes")
    return UnreadableFile(path, what, f"it holds more than {most}, the most the {what} may hold",
                          f"{os.fspath(path)} holds more than {most}, the most the {what} may hold: shorten it")


# ─── the one writer ─────────────────────────────────────────────────────────


def write_file(path: Path, data: bytes | Iterable[bytes], *, new: bool = False, durable: bool = True,
               mode: int | None = None) -> Path:
    """Put `data` (bytes, or blocks of them) at `path` whole, and return `path`.

    Replaces the file there (keeping its permissions), or with `new` claims the name: FileExistsError when
    anything is there already, a link to nothing included (two writers can never claim one name, and the name
    never stands empty). `mode`: the permissions of a file that replaces none (default: 0666 less the umask, as
    any program's new file). `durable`: fsync the file and its folder (the crash points of engine/crash_hook.py
    are a durable file's). OSError when it cannot be written; no temporary file is left behind.
    """
    if mode is None and not new:
        try:
            kept = os.stat(path)
        except OSError:
            pass
        else:
            mode = stat.S_IMODE(kept.st_mode) if stat.S_ISREG(kept.st_mode) else None
    temp = _write_temp(path, data, mode, durable)
    try:
        if durable:
            crash_point("effect.before_rename")
        if new:
            os.link(temp, path)
        else:
            os.replace(temp, path)
    finally:
        remove_quietly(temp)  # after a replace: nothing left under that name; after a link: the spare name
    if durable:
        fsync_folder(path.parent)
        crash_point("effect.after_rename")
    return path


def _write_temp(path: Path, data: bytes | Iterable[bytes], mode: int | None, durable: bool) -> Path:
    """`data` in a fresh temporary file beside `path` (stale ones of dead writers go first), with `mode` (None:
    0666 less the umask), fsynced when `durable`."""
    _remove_stale_temps(path)
    temp = path.with_name(f".{path.name}.{os.getpid()}-{os.urandom(4).hex()}{_TEMP_SUFFIX}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | BINARY, 0o600 if mode is not None else 0o666)
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        if isinstance(data, (bytes, bytearray, memoryview)):
            _write_all(fd, data)
        else:
            pending = bytearray()
            for block in data:  # written in writes of about a MiB, however small the blocks
                pending += block
                if len(pending) >= _WRITE_BYTES:
                    _write_all(fd, pending)
                    pending.clear()
            _write_all(fd, pending)
        if durable:
            crash_point("effect.temp_written")
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        remove_quietly(temp)
        raise
    os.close(fd)
    return temp


def _write_all(fd: int, data: bytes | bytearray | memoryview) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if not written:
            raise OSError(28, "No space left on device (short write)")
        view = view[written:]


def _remove_stale_temps(path: Path) -> None:
    """Remove the temporary files of `path` whose writer process is gone (killed before its rename)."""
    prefix = f".{path.name}."
    try:
        names = os.listdir(path.parent)
    except OSError:
        return
    for name in names:
        if not (name.startswith(prefix) and name.endswith(_TEMP_SUFFIX)):
            continue
        pid, _, rest = name[len(prefix) : -len(_TEMP_SUFFIX)].partition("-")
        if pid.isascii() and pid.isdigit() and len(rest) == 8 and not _alive(int(pid)):
            remove_quietly(path.parent / name)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, under another user
    return True


# ─── steps every writer shares ──────────────────────────────────────────────


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


def remove_quietly(path: Path) -> None:
    """Remove the file at `path` when it is there (best effort: nothing to do when it cannot be)."""
    try:
        os.unlink(path)
    except OSError:
        pass
