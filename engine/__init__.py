"""The engine: bytes, lines, seq, hashes, locks, files and schema versions.

Knows nothing of tuning or quick batches: the domain comes in as a `Projection`
(an initial state and a fold), a decide function, and a `Registry` of event types.
"""

from engine.clock import now, now_datetime
from engine.envelope import Event
from engine.errors import (
    BadEnvelope,
    ChainBroken,
    ClockError,
    EngineError,
    LockTimeout,
    LogDamaged,
    LogError,
    NewerVersion,
    NotALog,
    WriteFailed,
)
from engine.log import Appended, EventLog, Projection, Replayed
from engine.registry import EventType, Raw, Registry
from engine.scan import Position, Problem, Scan
from engine.snapshot import Snapshots, code_version, open_log
from engine.verify import Receipt, Report, verify

__all__ = [
    "Appended", "BadEnvelope", "ChainBroken", "ClockError", "EngineError", "Event", "EventLog", "EventType",
    "LockTimeout", "LogDamaged", "LogError", "NewerVersion", "NotALog", "Position", "Problem", "Projection",
    "Raw", "Receipt", "Registry", "Replayed", "Report", "Scan", "Snapshots", "WriteFailed", "code_version", "now",
    "now_datetime", "open_log", "verify",
]
