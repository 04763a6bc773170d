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

    `started` is None before the first start. `results`: number -> how the target
    ended (a later outcome replaces an earlier one), or the brief refused at start.
    `handed_out` (number -> time of the first hand-out, in the order of the latest
    one) and `recorded_at` (number -> time of the outcome). The three maps are owned
    by the fold: `evolve` fills them in place, so a replay costs O(1) per event; a
    state handed to `evolve` must not be read again (`Appended.before` shows the state after).
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
