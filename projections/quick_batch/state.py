"""The quick batch's folded state: what `evolve` builds and every decision and view reads.

Pure data. Keys of the per-target maps are the target's number as a string, so
the state is plain JSON (snapshots serialize it generically).
"""

from __future__ import annotations

import attrs

from batchlog.projections.quick_batch.events import (
    BatchStarted,
    BatchSummarized,
    BriefRejected,
    SummaryWritten,
    TargetRecorded,
)
from batchlog.engine.value import frozen

Outcome = TargetRecorded | BriefRejected


@frozen
class Batch:
    """One run folder's batch. Never changed once built: the fold copies what it changes.

    `started` is None before the first start. `results`: number -> how the target
    ended (a later outcome replaces an earlier one), or the brief refused at start.
    `handed_out` (number -> time of the first hand-out, in the order of the latest
    one) and `recorded_at` (number -> time of the outcome). `summary` is the batch's
    end, `summarized_results` the outcomes it summed up (in batch order), and
    `summary_written` where its summary file went (None while that effect is undone).
    """

    started: BatchStarted | None = None
    results: dict[str, Outcome] = attrs.field(factory=dict)
    handed_out: dict[str, str] = attrs.field(factory=dict)
    recorded_at: dict[str, str] = attrs.field(factory=dict)
    summary: BatchSummarized | None = None
    summarized_at: str | None = None
    summarized_results: tuple[Outcome, ...] = ()
    summary_written: SummaryWritten | None = None
    foreign: str | None = None

    @property
    def in_progress(self) -> int | None:
        """The target `next` handed out last, while it is not recorded."""
        if not self.handed_out:
            return None
        last = next(reversed(self.handed_out))
        return None if last in self.results else int(last)
