"""What `quick-batch watch` shows of a batch, as data: the targets by place (done, failed, in progress,
pending), the target being worked on, the time since the start and an estimate of the time left from the
targets' own durations, the last outcomes. Pure: the time now comes in as an argument.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from batchlog.engine.value import frozen
from batchlog.projections.quick_batch.progress import progress
from batchlog.projections.quick_batch.state import Batch

LAST_OUTCOMES = 5


@frozen
class BatchWatch:
    """A batch as `quick-batch watch` shows it.

    `done`, `failed`, `in_progress`, `pending` count the targets (pending: not handed out yet); `current` the
    target being worked on (its `batch`, `target`, `since`) and `current_seconds` how long so far; `elapsed`
    the seconds since the batch started (to its summary, once summarized); `left` the estimate of the seconds
    still needed (None until a target has a duration), `per_target` the mean duration it rests on; `last`
    the latest outcomes, newest first (the rows of `status --json`); `summarized` once the batch ended.
    """

    run_dir: str
    workflow: str
    source: str
    total: int
    done: int
    failed: int
    in_progress: int
    pending: int
    current: dict[str, Any] | None
    current_seconds: float | None
    elapsed: float | None
    left: float | None
    per_target: float | None
    last: tuple[dict[str, Any], ...]
    summarized: bool


def batch_watch(state: Batch, run_dir: str, now: str) -> BatchWatch:
    """The watch's figures of a started batch as it stands at `now` (an ISO-8601 time)."""
    data = progress(state, run_dir)
    rows = data["targets"]
    durations = [row["seconds"] for row in rows if row["seconds"] is not None]
    current = data["in_progress"]
    current_seconds = None if current is None else seconds_between(current["since"], now)
    waiting = sum(1 for row in rows if row["status"] == "pending")
    per_target = sum(durations) / len(durations) if durations else None
    left = None
    if per_target is not None and not data["summarized"]:
        # The targets not handed out yet take the mean each; the one in hand, what the mean leaves of it.
        left = per_target * waiting + (0.0 if current is None else max(0.0, per_target - (current_seconds or 0.0)))
    ended = state.summarized_at if state.summary is not None else None
    source = data["input_file"] if data["input_file"] is not None else f"{len(data['input_briefs'] or [])} brief(s)"
    recorded = sorted((row for row in rows if row["recorded_at"] is not None),
                      key=lambda row: (row["recorded_at"], row["batch"]), reverse=True)
    return BatchWatch(
        run_dir=run_dir, workflow=data["workflow"], source=source, total=data["targets_total"],
        done=data["succeeded"], failed=data["failed"], in_progress=0 if current is None else 1, pending=waiting,
        current=current, current_seconds=current_seconds,
        elapsed=seconds_between(data["started_at"], ended or now), left=left, per_target=per_target,
        last=tuple(recorded[:LAST_OUTCOMES]), summarized=data["summarized"],
    )


def seconds_between(start: str | None, end: str | None) -> float | None:
    """Seconds from one ISO-8601 time to another (None when either is unknown or unreadable)."""
    if start is None or end is None:
        return None
    try:
        begin, finish = (datetime.fromisoformat(moment.replace("Z", "+00:00")) for moment in (start, end))
        return max(0.0, (finish - begin).total_seconds())
    except (ValueError, TypeError):
        return None
