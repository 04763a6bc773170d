"""The engine's own event types (`log.*`): known to every reader, never folded into a projection.

A loop's registry and fold need not know them; `log show` and `log verify` list them.
"""

from __future__ import annotations

from batchlog.engine.registry import EventType, Registry

SALVAGED = "log.salvaged"
REGISTRY = Registry([EventType(SALVAGED, 1)])
NAMES = frozenset(REGISTRY.by_name)
