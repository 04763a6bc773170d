"""The engine: bytes, lines, seq, hashes, locks, files and schema versions.

Knows nothing of tuning or quick batches: the domain comes in as a `Projection`
(an initial state and a fold), a decide function, and a `Registry` of event types.

Exported here: the names a loop needs to define its events and fold, open its log and append to it, and
the errors the engine raises at their root. Every other name is imported from the module that defines it
(e.g. `from batchlog.engine.verify import verify`), so a command imports only what it uses.
"""

from batchlog.engine.address import open_log
from batchlog.engine.envelope import Event
from batchlog.engine.errors import EngineError, LogError
from batchlog.engine.fold_version import CodeVersion
from batchlog.engine.log import EventLog, Projection
from batchlog.engine.registry import EventType, Registry


__all__ = [
    "CodeVersion",
    "EngineError",
    "Event",
    "EventLog",
    "EventType",
    "LogError",
    "Projection",
    "Registry",
    "open_log",
]
