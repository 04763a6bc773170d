"""The quick batch's folded state: what `evolve` builds and every decision and view reads.

Pure data. Keys of the per-target maps are the target's number as a string, so
the state is plain JSON (snapshots serialize it generically).
"""

from __future__ import annotations

import attrs

from projections.quick_batch.events import BatchStarted, BatchSummarized, BriefRejected, TargetRecorded


@attrs.frozen
class Batch:
    """One run folder's batch.

    `started` is None before the first start. `results` (number -> outcome, or the brief refused at start; a later
    one replaces an earlier one), `handed_out` and `recorded_at` (number -> the
    event's time) are owned by the fold: `evolve` fills them in place, for a replay
    that costs O(1) per event, so a state handed to `evolve` must not be read again.
    `in_progress` is the target `next` handed out last and not yet recorded.
    """

    started: BatchStarted | None = None
    results: dict[str, TargetRecorded | BriefRejected] = attrs.field(factory=dict)
    handed_out: dict[str, str] = attrs.field(factory=dict)
    recorded_at: dict[str, str] = attrs.field(factory=dict)
    summary: BatchSummarized | None = None
    summarized_at: str | None = None

    @property
    def in_progress(self) -> int | None:
        """The target `next` handed out last, while it is not recorded."""
        if not self.handed_out:
            return None
        last = next(reversed(self.handed_out))
        return None if last in self.results else int(last)
