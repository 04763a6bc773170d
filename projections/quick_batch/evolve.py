"""The quick batch's fold: `evolve(state, event) -> state`. Applies facts, checks no rules.

Copy on write: a state is never changed once returned. `evolve_all` folds a run of
events with one copy of the per-target maps for the whole run (a replay of a
million events copies them once, not once per event); `evolve` is `evolve_all` of
one event. A new `BatchStarted` begins a fresh state (an ended brief batch replaced
by a new one of the same briefs).
"""

from __future__ import annotations

from collections.abc import Iterable

from batchlog.engine.envelope import Event
from batchlog.projections.quick_batch.events import (
    BatchStarted,
    BatchSummarized,
    BriefRejected,
    SummaryWritten,
    TargetRecorded,
    TargetStarted,
)
from batchlog.projections.quick_batch.state import Batch
from batchlog.projections.quick_batch.versions import PREFIX


class _Draft:
    """The maps of a state being folded: copies owned by one `evolve_all` call, never seen outside it."""

    __slots__ = ("fields", "results", "handed_out", "recorded_at")

    def __init__(self, state: Batch) -> None:
        self.take(state)

    def take(self, state: Batch) -> None:
        self.fields = {"started": state.started, "summary": state.summary, "summarized_at": state.summarized_at,
                       "summarized_results": state.summarized_results, "summary_written": state.summary_written,
                       "foreign": state.foreign}
        self.results = dict(state.results)
        self.handed_out = dict(state.handed_out)
        self.recorded_at = dict(state.recorded_at)

    def frozen(self) -> Batch:
        return Batch(results=self.results, handed_out=self.handed_out, recorded_at=self.recorded_at, **self.fields)


def evolve_all(state: Batch, events: Iterable[Event]) -> Batch:
    """The state after `events`, in order (a new object when there was any; `state` itself is untouched)."""
    draft: _Draft | None = None
    for event in events:
        if draft is None:
            draft = _Draft(state)
        _apply(draft, event)
    return state if draft is None else draft.frozen()


def evolve(state: Batch, event: Event) -> Batch:
    """The state after `event` (a new object)."""
    return evolve_all(state, (event,))


def _apply(draft: _Draft, event: Event) -> None:
    fact = event.data
    fields = draft.fields
    match fact:  # the two events of every target first: each case is an isinstance check
        case TargetRecorded():
            if fields["started"] is not None:
                key = str(fact.batch)
                draft.results[key] = fact
                draft.recorded_at[key] = event.at
        case TargetStarted():
            if fields["started"] is not None:
                handed_out, key = draft.handed_out, str(fact.batch)
                handed_out[key] = handed_out.pop(key, event.at)  # last key: the latest hand-out
        case BriefRejected():
            if fields["started"] is not None:
                draft.results[str(fact.batch)] = fact
        case BatchStarted():
            draft.take(Batch(started=fact, foreign=fields["foreign"]))
        case BatchSummarized():
            if fields["started"] is not None:
                results = draft.results
                fields.update(summary=fact, summarized_at=event.at,
                              summarized_results=tuple(results[key] for key in sorted(results, key=int)),
                              # a v1 summary was written before its event, which says where
                              summary_written=None if fact.output_dir is not None
                              else SummaryWritten(fact.summary_path, fact.warnings))
        case SummaryWritten():
            if fields["summary"] is not None:
                fields["summary_written"] = fact
        case _ if not event.type.startswith(PREFIX):
            # A log of another loop: remembered, so every command can refuse it (WrongLog).
            if fields["foreign"] is None:
                fields["foreign"] = event.type
        case _:
            raise TypeError(f"the quick batch has no fold for {event.type}")
