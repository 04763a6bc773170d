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
    "now": "engine.clock", "now_datetime": "engine.clock",
    "Event": "engine.envelope",
    "BadSetting": "engine.errors", "CannotEncode": "engine.errors", "ClockError": "engine.errors",
    "EngineError": "engine.errors", "LockTimeout": "engine.errors", "LogDamaged": "engine.errors",
    "LogError": "engine.errors", "NewerVersion": "engine.errors", "NotALog": "engine.errors",
    "WriteFailed": "engine.errors",
    "Appended": "engine.log", "EventLog": "engine.log", "Projection": "engine.log", "Replayed": "engine.log",
    "EventType": "engine.registry", "Raw": "engine.registry", "Registry": "engine.registry",
    "Position": "engine.scan", "Problem": "engine.scan", "Scan": "engine.scan",
    "Snapshots": "engine.snapshot", "code_version": "engine.fold_version", "CodeVersion": "engine.fold_version",
    "Address": "engine.address", "log_address": "engine.address", "open_log": "engine.address",
    "parse_address": "engine.address", "check_log_name": "engine.address",
    "BadAddress": "engine.errors", "StoreUnavailable": "engine.errors",
    "migrate": "engine.migrate", "Migrated": "engine.migrate", "MigrateRefused": "engine.migrate",
    "Receipt": "engine.verify", "Report": "engine.verify", "verify": "engine.verify",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    module = importlib.import_module(home)
    short = home.rpartition(".")[2]
    if _HOMES.get(short) == home:  # importing engine.verify bound the submodule to `verify`: the function wins
        globals()[short] = getattr(module, short)
    value = getattr(module, name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from engine.clock import now, now_datetime
    from engine.envelope import Event
    from engine.errors import (BadSetting, CannotEncode, ClockError, EngineError, LockTimeout, LogDamaged, LogError, NewerVersion, NotALog,
                               WriteFailed)
    from engine.log import Appended, EventLog, Projection, Replayed
    from engine.registry import EventType, Raw, Registry
    from engine.scan import Position, Problem, Scan
    from engine.address import Address, check_log_name, log_address, open_log, parse_address
    from engine.errors import BadAddress, StoreUnavailable
    from engine.migrate import Migrated, MigrateRefused, migrate
    from engine.fold_version import CodeVersion, code_version
    from engine.snapshot import Snapshots
    from engine.verify import Receipt, Report, verify
