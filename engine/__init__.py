"""The engine: bytes, lines, seq, hashes, locks, files and schema versions.

Knows nothing of tuning or quick batches: the domain comes in as a `Projection`
(an initial state and a fold), a decide function, and a `Registry` of event types.

The names below are loaded from their modules on first use: a command that only
reads a small log never imports verify, salvage or the snapshot machinery, which
keeps the start of every CLI call short.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_HOMES = {
    "now": "batchlog.engine.clock", "now_datetime": "batchlog.engine.clock",
    "Event": "batchlog.engine.envelope",
    "BadSetting": "batchlog.engine.errors", "CannotEncode": "batchlog.engine.errors", "ClockError": "batchlog.engine.errors",
    "EngineError": "batchlog.engine.errors", "LockTimeout": "batchlog.engine.errors", "LogDamaged": "batchlog.engine.errors",
    "LogError": "batchlog.engine.errors", "NewerVersion": "batchlog.engine.errors", "NotALog": "batchlog.engine.errors",
    "WriteFailed": "batchlog.engine.errors",
    "Appended": "batchlog.engine.log", "EventLog": "batchlog.engine.log", "Projection": "batchlog.engine.log", "Replayed": "batchlog.engine.log",
    "EventType": "batchlog.engine.registry", "Raw": "batchlog.engine.registry", "Registry": "batchlog.engine.registry",
    "Position": "batchlog.engine.scan", "Problem": "batchlog.engine.scan", "Scan": "batchlog.engine.scan",
    "Snapshots": "batchlog.engine.snapshots.file", "code_version": "batchlog.engine.fold_version", "CodeVersion": "batchlog.engine.fold_version",
    "Address": "batchlog.engine.address", "log_address": "batchlog.engine.address", "open_log": "batchlog.engine.address",
    "parse_address": "batchlog.engine.address", "check_log_name": "batchlog.engine.address",
    "BadAddress": "batchlog.engine.errors", "StoreUnavailable": "batchlog.engine.errors",
    "migrate": "batchlog.engine.migrate", "Migrated": "batchlog.engine.migrate", "MigrateRefused": "batchlog.engine.migrate",
    "Receipt": "batchlog.engine.verify", "Report": "batchlog.engine.verify", "verify": "batchlog.engine.verify",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    module = importlib.import_module(home)
    short = home.rpartition(".")[2]
    if _HOMES.get(short) == home:  # importing batchlog.engine.verify bound the submodule to `verify`: the function wins
        globals()[short] = getattr(module, short)
    value = getattr(module, name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from batchlog.engine.clock import now, now_datetime
    from batchlog.engine.envelope import Event
    from batchlog.engine.errors import (
        BadSetting,
        CannotEncode,
        ClockError,
        EngineError,
        LockTimeout,
        LogDamaged,
        LogError,
        NewerVersion,
        NotALog,
        WriteFailed,
    )
    from batchlog.engine.log import Appended, EventLog, Projection, Replayed
    from batchlog.engine.registry import EventType, Raw, Registry
    from batchlog.engine.scan import Position, Problem, Scan
    from batchlog.engine.address import Address, check_log_name, log_address, open_log, parse_address
    from batchlog.engine.errors import BadAddress, StoreUnavailable
    from batchlog.engine.migrate import Migrated, MigrateRefused, migrate
    from batchlog.engine.fold_version import CodeVersion, code_version
    from batchlog.engine.snapshots.file import Snapshots
    from batchlog.engine.verify import Receipt, Report, verify
