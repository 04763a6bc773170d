"""The key of the code that folds a projection: a hash of its modules' source, so a snapshot taken by other
code is never used. Computed on first use, never at import: importing a projection reads no file."""

from __future__ import annotations

import sys
from hashlib import sha256
from pathlib import Path
from types import ModuleType

from batchlog.engine.value import frozen


SNAPSHOT_FORMAT = 3  # snapshots/document.py's FORMAT: part of every key, so a new format orphans old snapshots

_computed: dict[tuple[str, ...], str] = {}


def code_version(*modules: ModuleType | str) -> str:
    """A hash of the source of `modules` (module objects or dotted names), read now.

    Give every module whose code decides the folded state: the fold, the state
    classes, the event classes and their upcasters. An empty string (a module
    without a source file) turns snapshots off for that projection.
    """
    digest = sha256(f"batchlog-snapshot-{SNAPSHOT_FORMAT}".encode())
    for module in modules:
        if isinstance(module, str):
            module = sys.modules.get(module) or __import__(module, fromlist=["_"])
        source = getattr(module, "__file__", None)
        if not source:
            return ""
        try:
            digest.update(module.__name__.encode() + b"\0" + Path(source).read_bytes() + b"\0")
        except OSError:
            return ""
    return digest.hexdigest()


@frozen
class CodeVersion:
    """A projection's `version` named by its modules and hashed on first use (`value`), once per process."""

    modules: tuple[str, ...]

    def value(self) -> str:
        found = _computed.get(self.modules)
        if found is None:
            found = _computed[self.modules] = code_version(*self.modules)
        return found


def version_of(projection: object) -> str:
    """The key of the code that folds `projection` ("" : never snapshotted)."""
    version = getattr(projection, "version", "")
    return version.value() if isinstance(version, CodeVersion) else version
