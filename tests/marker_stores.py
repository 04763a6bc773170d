"""Where a file log's unfinished-command marker is kept, for tests: the log file's own extended attribute where
the file system keeps user extended attributes, else a `.pending` file beside the log's resolved path
(engine/recorders/file_pending.py). `refuse_attributes` makes this process's file systems refuse them, as some
tmpfs, network and non-Linux file systems do, so the fallback is tested on any machine."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import pytest

STORES = ["attribute", "sidecar"]


def keeps_attributes(folder: Path) -> bool:
    """Whether the file system of `folder` keeps user extended attributes (and this process uses them)."""
    if not hasattr(os, "setxattr"):
        return False
    fd, name = tempfile.mkstemp(dir=folder)
    try:
        os.setxattr(fd, "user.batchlog.probe", b"1")
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
        os.unlink(name)


def refuse_attributes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every extended-attribute call answers ENOTSUP (forked children inherit it)."""

    def unsupported(*args, **kwargs):
        raise OSError(errno.ENOTSUP, os.strerror(errno.ENOTSUP))

    for name in ("getxattr", "setxattr", "removexattr"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, unsupported)


def use_store(store: str, monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Make `store` the one logs under `folder` use (skipped where this machine cannot keep it)."""
    if store == "sidecar":
        refuse_attributes(monkeypatch)
    elif not keeps_attributes(folder):
        pytest.skip("this file system keeps no user extended attributes")


def set_marker(path: Path, value: bytes) -> None:
    """Leave `value` as the marker of the log at `path`, where the engine would keep it."""
    from batchlog.engine.recorders.file_pending import ATTRIBUTE, PENDING_SUFFIX

    try:
        os.setxattr(path, ATTRIBUTE, value)
        return
    except (AttributeError, OSError):
        pass
    resolved = Path(os.path.realpath(path))
    resolved.with_name(resolved.name + PENDING_SUFFIX).write_bytes(value)


def marker_value(path: Path) -> bytes | None:
    """The marker of the log at `path` as kept (None: none)."""
    from batchlog.engine.recorders.file_pending import ATTRIBUTE, PENDING_SUFFIX

    try:
        return os.getxattr(path, ATTRIBUTE)
    except (AttributeError, OSError) as exc:
        if getattr(exc, "errno", None) == errno.ENODATA:
            return None
    resolved = Path(os.path.realpath(path))
    sidecar = resolved.with_name(resolved.name + PENDING_SUFFIX)
    return sidecar.read_bytes() if sidecar.exists() else None


def leave_unfinished(path: Path, start: int, keep: int | None = None, *, replace: bytes | None = None) -> bytes:
    """Make the log at `path`, whose last command (of several lines) starts at byte `start`, what a writer killed
    part way (the first `keep` bytes of the command on disk), or a power cut (the command's bytes replaced by
    `replace`, the size kept) leaves: the command's marker `pending`. Returns the command's bytes."""
    from hashlib import sha256

    from batchlog.engine.chain import GENESIS, line_hash
    from batchlog.engine.recorders.file_pending import Pending

    data = path.read_bytes()
    command = data[start:]
    before = line_hash(data[:start - 1].rsplit(b"\n", 1)[-1]) if start else GENESIS
    set_marker(path, Pending(7, "pending", start, len(command), before, sha256(command).hexdigest()).encoded())
    if replace is not None:
        assert len(replace) == len(command)
        path.write_bytes(data[:start] + replace)
    elif keep is not None:
        with open(path, "r+b") as fh:
            fh.truncate(start + keep)
    return command
