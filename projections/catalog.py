"""Every event type batchlog knows, from both loops and the engine (`log.salvaged`): what `log verify` and `log show`
read with; and what a tuning's commands read with, which names the quick batch's types without importing them."""

from __future__ import annotations

from batchlog.engine import EventType, Registry

# The quick batch's event types: name -> current version (tests/test_catalog.py checks this against
# projections/quick_batch/events.py). A tuning's command only needs to recognise them, to refuse a batch's log.
QUICK_BATCH_VERSIONS = {
    "qb.batch_started": 1,
    "qb.target_started": 1,
    "qb.target_recorded": 1,
    "qb.brief_rejected": 1,
    "qb.batch_summarized": 2,
    "qb.summary_written": 1,
}


def all_types() -> Registry:
    """One registry of the tuning's and the quick batch's event types."""
    from batchlog.projections.quick_batch.events import REGISTRY as QUICK_BATCH
    from batchlog.projections.tune.events import REGISTRY as TUNE
    from batchlog.engine.own_types import REGISTRY as ENGINE  # the engine's own `log.*` types

    return TUNE.merged(QUICK_BATCH).merged(ENGINE)


def tuning_types() -> Registry:
    """What `batchlog tune` reads with: `all_types()`'s names and versions (so the same snapshots), the quick
    batch's without their classes (their events' data stays as read; the tuning's fold only notes that the log
    is another loop's), so that a tuning's command never imports the other loop's event classes."""
    from batchlog.projections.tune.events import REGISTRY as TUNE
    from batchlog.engine.own_types import REGISTRY as ENGINE

    foreign = Registry(EventType(name, version, upcasters=(_as_read,) * (version - 1))
                       for name, version in QUICK_BATCH_VERSIONS.items())
    return TUNE.merged(foreign).merged(ENGINE)


def _as_read(data: dict) -> dict:
    """A foreign event's data is never read: an older version stays as it was written."""
    return data
