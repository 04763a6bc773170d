"""`tune import`'s decision: a zen-finetune folder's events go into a log that holds none; the same import again
appends nothing (the first one may have been killed before it said so); a log that holds anything else is refused.
Pure (zen_import.py turns a folder into its events; cli/tune/files.py reads it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from batchlog.engine.envelope import Event
from batchlog.projections.errors import Refused
from batchlog.projections.fields import as_tuple
from batchlog.projections.tune.events import REGISTRY
from batchlog.projections.tune.evolve import evolve_all
from batchlog.projections.tune.state import TuneState
from batchlog.engine.value import frozen


@frozen
class ImportFolder:
    """Write the log the folder `folder` implies into the log named `log`: its `events`, or, when the folder could
    not be read or makes no history, `unreadable` (the refusal that says why)."""

    folder: str
    log: str
    events: tuple[Any, ...] = attrs.field(converter=as_tuple, default=())
    unreadable: Refused | None = None


def import_folder(state: TuneState, command: ImportFolder) -> list:
    """The folder's events into a log without a tuning; none when the log holds exactly them; refused otherwise."""
    if state.settings is None:
        if command.unreadable is not None:
            raise command.unreadable
        return list(command.events)
    if command.unreadable is None and holds_only(state, command.events):
        return []
    raise Refused(f"{command.log} holds events already: this folder has a log; use --dir {command.folder} with "
                  "the other commands", file=command.log)


def holds_only(state: TuneState, events: Sequence[Any]) -> bool:
    """Whether `state` is that of a log holding exactly `events`. An import appends its events at once to a log
    without a tuning, so at seq 1, 2, ... and at one time, which the state keeps where it keeps times (a batch
    built, a run started or graded): a log holding them and nothing more folds to the state they fold to there."""
    at = next((batch.built_at for batch in state.batches), None) or next((run.started_at for run in state.runs), "")
    lines = (Event(seq, REGISTRY.for_event(fact).name, REGISTRY.for_event(fact).version, at, "", fact)
             for seq, fact in enumerate(events, start=1))
    return bool(events) and evolve_all(TuneState(), lines) == state
