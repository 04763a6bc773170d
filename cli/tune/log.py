"""The tuning's log as every `batchlog tune` command opens it: the state replayed from the log, and a decision
appended under the log's lock. Shared by cli/tune/commands.py, cli/tune/reports.py and cli/tune/views.py (no typer
here: the fast path of the read-only views imports this without it)."""

from __future__ import annotations

import sys
from pathlib import Path

from batchlog.cli import store as stores
from batchlog.cli.at_option import require_within_log
from batchlog.engine import EventLog
from batchlog.projections.catalog import tuning_types
from batchlog.projections.tune.decide.refusals import require_tuning
from batchlog.projections.tune.evolve import TUNE, without_usage
from batchlog.projections.tune.state import TuneState

DEFAULT_DIR = Path("finetune")


def tune_log(folder: Path, store: stores.Store | None = None) -> EventLog:
    """The log of the tuning in `folder` (DIR/events.jsonl, or in `store`; None: as BATCHLOG_STORE says), read with
    every known type (so another loop's log is recognised)."""
    say = lambda text: print(text, file=sys.stderr)  # noqa: E731
    store = store if store is not None else stores.chosen()
    return stores.open_log(store, folder, tuning_types(), on_wait=say, on_note=say)


def tuning_state(folder: Path, at: int | None = None, *, usage: bool = True,
                 store: stores.Store | None = None) -> TuneState:
    """The tuning's state (as of event `at`); refused when the log is another loop's. A folder without a log
    gives the state before `init` (views say what to do about it). `usage=False`, for the views that read no
    usage figure: the replay skips the usage reports (the runs then carry none)."""
    log = tune_log(folder, store)
    replayed = log.replay(TUNE if usage else without_usage(log.registry.by_name), at=at)
    require_within_log(at, replayed.position.seq, stores.shown(log))
    state = replayed.state
    if state.foreign:
        require_tuning(state)
    return state


def decide_in(folder: Path, command: object, store: stores.Store | None = None) -> TuneState:
    """Append what `command` decides (nothing when it already took effect); the state after."""
    from batchlog.projections.tune.decide.loop import decide  # here: the read-only views need none of the decisions

    return tune_log(folder, store).append(TUNE, lambda state: decide(command, state)).state
