"""The tuning's log as every `batchlog tune` command opens it: the state replayed from the log, and a decision
appended under the log's lock. Shared by cli/tune/commands.py, cli/tune/reports.py and cli/tune/views.py (no typer
here: the fast path of the read-only views imports this without it)."""

from __future__ import annotations

import sys
from pathlib import Path

import attrs

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


@attrs.frozen
class Read:
    """What a view read: the state, and what the log holds that is newer than this batchlog (None: nothing), as
    `--json` objects say it (`newer`: how many such lines, and the first)."""

    state: TuneState
    newer: dict[str, object] | None = None

    def fields(self) -> dict[str, object]:
        """The `newer` field a view's `--json` object carries when the log holds newer events, else none."""
        return {} if self.newer is None else {"newer": self.newer}


def read_tuning(folder: Path, at: int | None = None, *, usage: bool = True,
                store: stores.Store | None = None) -> Read:
    """The tuning's state (as of event `at`) for a view; refused when the log is another loop's. A folder without
    a log gives the state before `init` (views say what to do about it). `usage=False`, for the views that read
    no usage figure: the replay skips the usage reports (the runs then carry none). A log holding events newer
    than this batchlog is read without them, with one warning on stderr (each view reads once)."""
    log = tune_log(folder, store)
    replayed = log.replay(TUNE if usage else without_usage(log.registry.by_name), at=at)
    require_within_log(at, replayed.position.seq, stores.shown(log))
    state = replayed.state
    if state.foreign:
        require_tuning(state)
    if not replayed.newer:
        return Read(state)
    first = replayed.newer[0].message
    print(f"batchlog: warning: {stores.shown(log)} holds {len(replayed.newer)} event(s) newer than this batchlog "
          f"(first: {first}): what it shows leaves them out, and nothing can be recorded in the log (exit 3) until "
          "batchlog is upgraded", file=sys.stderr)
    return Read(state, {"count": len(replayed.newer), "first": first})


def tuning_state(folder: Path, at: int | None = None, *, usage: bool = True,
                 store: stores.Store | None = None) -> TuneState:
    """`read_tuning`'s state alone."""
    return read_tuning(folder, at, usage=usage, store=store).state


def decide_in(folder: Path, command: object, store: stores.Store | None = None) -> TuneState:
    """Append what `command` decides (nothing when it already took effect); the state after."""
    from batchlog.projections.tune.decide.loop import decide  # here: the read-only views need none of the decisions

    return tune_log(folder, store).append(TUNE, lambda state: decide(command, state)).state
