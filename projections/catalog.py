"""Every event type batchlog knows, from both loops and the engine (`log.salvaged`): what `log verify` and `log show` read with."""

from __future__ import annotations

from engine import Registry


def all_types() -> Registry:
    """One registry of the tuning's and the quick batch's event types."""
    from projections.quick_batch.events import REGISTRY as QUICK_BATCH
    from projections.tune.events import REGISTRY as TUNE
    from engine.own_types import REGISTRY as ENGINE  # the engine's own `log.*` types

    return TUNE.merged(QUICK_BATCH).merged(ENGINE)
