"""The quick batch as one `Decider` (`QUICK_BATCH`): its fold, its decisions (each a `Decision`: events, and the
effects the CLI carries out after), its event types, and how it tells a batch's log from another loop's. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from batchlog.engine.fold_version import CodeVersion
from batchlog.projections.decider import Decider
from batchlog.projections.quick_batch.commands import Decision
from batchlog.projections.quick_batch.decide import another_loops_log, decide
from batchlog.projections.quick_batch.events import REGISTRY
from batchlog.projections.quick_batch.evolve import evolve, evolve_all
from batchlog.projections.quick_batch.state import Batch


def events_of(decision: Decision) -> Sequence[Any]:
    return decision.events


# Snapshots are keyed to a hash of the modules that decide the state (hashed on first use, not at import).
QUICK_BATCH = Decider(
    name="quick-batch", initial=Batch(), evolve=evolve, evolve_all=evolve_all, state_type=Batch,
    version=CodeVersion(("batchlog.projections.quick_batch.events", "batchlog.projections.quick_batch.grammar",
                         "batchlog.projections.quick_batch.state", "batchlog.projections.quick_batch.evolve")),
    decide=decide, registry=REGISTRY, wrong_log=another_loops_log, events=events_of,
)
