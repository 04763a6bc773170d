"""The engine's own event types (`log.*`): known to every reader, never folded into a projection.

A loop's registry and fold need not know them; `log show` and `log verify` list them.
"""

from __future__ import annotations

from batchlog.engine.registry import EventType, Registry

SALVAGED = "log.salvaged"


def upcast_salvaged_v1_v2(data: dict) -> dict:
    """v1 did not record the types of the events it dropped: None says they are not known."""
    return {**data, "dropped_types": None}


REGISTRY = Registry([EventType(SALVAGED, 2, upcasters=(upcast_salvaged_v1_v2,))])
NAMES = frozenset(REGISTRY.by_name)
