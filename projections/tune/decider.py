"""The tuning as one `Decider` (`TUNE`): its fold, its decisions, its event types, and how it tells a tuning's log
from another loop's. Pure."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from batchlog.engine.fold_version import CodeVersion
from batchlog.engine.log import Projection
from batchlog.projections.decider import Decider
from batchlog.projections.errors import WrongLog
from batchlog.projections.tune.decide.refusals import wrong_log
from batchlog.projections.tune.events import REGISTRY, UsageRecorded
from batchlog.projections.tune.evolve import evolve, evolve_all
from batchlog.projections.tune.state import TuneState


def decide(command: Any, state: TuneState) -> list:
    """decide/loop.py's `decide`, imported on the first decision: the read-only views, which replay with `TUNE`,
    need none of the decisions."""
    from batchlog.projections.tune.decide.loop import decide as decide_on

    return decide_on(command, state)


def another_loops_log(state: TuneState, log: str) -> WrongLog | None:
    """The refusal of a log that holds another loop's events (the fold noted the first one), else None."""
    return wrong_log(state) if state.foreign else None


def without_usage(known: Iterable[str]) -> Projection:
    """TUNE for the views that read no usage figure (status, next, the next batch, the difficult list): it folds
    every type in `known` (a registry's names, so that another loop's log is still recognised) but usage reports,
    so a replay parses none of them, most of a tuning's lines. Its runs carry no usage."""
    usage = REGISTRY.by_class[UsageRecorded].name
    return Projection("tune.progress", TUNE.initial, TUNE.evolve, version=TUNE.version, state_type=TuneState,
                      folds=frozenset(known) - {usage}, evolve_all=TUNE.evolve_all)


def _views(known: Iterable[str]) -> tuple[Projection, ...]:
    return (without_usage(known),)


# Snapshots are keyed to the code that folds: the fold, the state and the event classes (hashed when a snapshot
# is first read or written, not at import).
TUNE = Decider(
    name="tune", initial=TuneState(), evolve=evolve, evolve_all=evolve_all, state_type=TuneState,
    version=CodeVersion(("batchlog.projections.tune.evolve", "batchlog.projections.tune.state",
                         "batchlog.projections.tune.events")),
    decide=decide, registry=REGISTRY, wrong_log=another_loops_log, views=_views,
)
