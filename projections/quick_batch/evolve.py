"""The quick batch's fold: `evolve(state, event) -> state`. Applies facts, checks no rules.

A new `BatchStarted` begins a fresh state (an ended brief batch replaced by a new
one of the same briefs). The per-target maps are filled in place (see `Batch`).
"""

from __future__ import annotations

import attrs

from engine import Event, Projection
from projections.quick_batch.events import (
    BatchStarted, BatchSummarized, BriefRejected, TargetRecorded, TargetStarted,
)
from projections.quick_batch.state import Batch


def evolve(state: Batch, event: Event) -> Batch:
    """The state after `event`."""
    fact = event.data
    match fact:  # the two events of every target first: each case is an isinstance check
        case TargetRecorded():
            if state.started is None:
                return state
            key = str(fact.batch)
            state.results[key] = fact
            state.recorded_at[key] = event.at
            return state
        case TargetStarted():
            if state.started is None:
                return state
            handed_out, key = state.handed_out, str(fact.batch)
            handed_out[key] = handed_out.pop(key, event.at)  # last key: the latest hand-out
            return state
        case BriefRejected():
            if state.started is None:
                return state
            state.results[str(fact.batch)] = fact
            return state
        case BatchStarted():
            return Batch(started=fact)
        case BatchSummarized():
            if state.started is None:
                return state
            return attrs.evolve(state, summary=fact, summarized_at=event.at)
        case _:
            raise TypeError(f"the quick batch has no fold for {event.type}")


_VERSION: list[str] = []


def projection() -> Projection:
    """The fold with a fresh initial state (the fold fills a state's maps in place).

    Its version, which keys snapshots, is a hash of the modules that decide the state.
    """
    if not _VERSION:
        from engine.snapshot import code_version

        _VERSION.append(code_version("projections.quick_batch.events", "projections.quick_batch.grammar",
                                     "projections.quick_batch.state", "projections.quick_batch.evolve"))
    return Projection("quick-batch", Batch(), evolve, version=_VERSION[0], state_type=Batch)
