"""Plain files: those a command writes besides its log (cases.json, plan.json, summaries, README, USAGE.md),
whole or absent; reading an input that must be a regular file; and the small steps every writer of the engine
shares (a folder's entries made durable, a file removed quietly, the flag that keeps bytes binary).

Each output file is written to a temporary name of its own in the target's folder (the writer's pid and a
random part, so concurrent writers never share one), fsynced, then renamed into place (`write_atomically`)
or linked to a name that must not exist yet (`claim_new_file`); the folder is fsynced after. A reader
sees the old file or the new one, never part of one, and a kill at any point leaves no empty file under
the target's name. A temporary file left by a killed writer is removed by the next write of the same
target once its writer is gone.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from batchlog.engine.crash_hook import crash_point

BINARY = getattr(os, "O_BINARY", 0)  # for os.open: Windows would otherwise write "\n" as "\r\n"
_TEMP_SUFFIX = ".tmp"


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


def write_atomically(path: Path, data: bytes) -> None:
    """Put `data` at `path` whole (a temporary file renamed over it); OSError when it cannot be written."""
    temp = _write_temp(path, data)
    try:
        crash_point("effect.before_rename")
        os.replace(temp, path)
    except BaseException:
        remove_quietly(temp)
        raise
    fsync_folder(path.parent)
    crash_point("effect.after_rename")


def claim_new_file(candidates: Iterable[Path], data: bytes) -> Path:
    """Write `data` under the first of `candidates` that does not exist yet, whole, and return it.

    The name is claimed by `link()`, which fails when the name exists: two writers can never claim the
    same name, and the name never stands empty. FileExistsError when every candidate is taken.
    """
    temp: Path | None = None
    try:
        for path in candidates:
            if temp is None or temp.parent != path.parent:
                if temp is not None:
                    remove_quietly(temp)
                temp = _write_temp(path, data)
            crash_point("effect.before_rename")
            try:
                os.link(temp, path)
            except FileExistsError:
                continue
            fsync_folder(path.parent)
            crash_point("effect.after_rename")
            return path
    finally:
        if temp is not None:
            remove_quietly(temp)
    raise FileExistsError("every candidate name is taken")


def _write_temp(path: Path, data: bytes) -> Path:
    """`data` in a fresh temporary file beside `path`, fsynced (stale ones of dead writers go first)."""
    _remove_stale_temps(path)
    temp = path.with_name(f".{path.name}.{os.getpid()}-{os.urandom(4).hex()}{_TEMP_SUFFIX}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | BINARY, 0o644)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            if not written:
                raise OSError(28, "No space left on device (short write)")
            view = view[written:]
        crash_point("effect.temp_written")
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        remove_quietly(temp)
        raise
    os.close(fd)
    return temp


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


class NotARegularFile(OSError):
    """An input named as a file that is a FIFO, a device, a socket or a folder (after links are resolved)."""


def read_regular(path: str | os.PathLike) -> bytes:
    """The bytes of the regular file at `path`; NotARegularFile for anything else, before a byte is read (a FIFO
    would block forever, /dev/zero never ends, /dev/null reads as an empty file)."""
    import stat

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | BINARY)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(21, "Is a directory", os.fspath(path))
        if not stat.S_ISREG(mode):
            raise NotARegularFile(f"{os.fspath(path)} is not a regular file (a FIFO, a device, a socket or a folder)")
        with open(fd, "rb", closefd=False) as fh:
            return fh.read()
    finally:
        os.close(fd)
