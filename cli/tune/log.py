"""The tuning's log as every `batchlog tune` command opens it: the state replayed from the log, and a decision
appended under the log's lock (cli/loop_log.py, with the tuning's Decider). Shared by the bodies of the tune
commands, cli/tune/actions.py, views.py and reports.py (no typer here: the fast lane, cli/lane.py, calls them
without it)."""

from __future__ import annotations

from pathlib import Path

from batchlog.cli import store as stores
from batchlog.cli.loop_log import Read, decided, open_loop_log, read_state
from batchlog.cli.loops import types_for
from batchlog.cli.printed import remember
from batchlog.engine.log import EventLog
from batchlog.engine.registry import Registry
from batchlog.projections.tune.decider import TUNE, without_usage
from batchlog.projections.tune.printed import DEFAULT_FOLDER, Place
from batchlog.projections.tune.state import TuneState

DEFAULT_DIR = Path(DEFAULT_FOLDER)


def place(folder: Path, store: stores.Store | None = None) -> Place:
    """Where the commands a tuning command prints find its tuning: the folder as given, and the --store and --log
    that reach its log (`Store.printed`)."""
    return Place(str(folder), (store if store is not None else stores.chosen()).printed(folder))


def tuning_types() -> Registry:
    """What a tuning's log is read with: the tuning's types, and the other loops' without their classes."""
    return types_for(TUNE)


def tune_log(folder: Path, store: stores.Store | None = None) -> EventLog:
    """The log of the tuning in `folder` (DIR/events.jsonl, or in `store`; None: as BATCHLOG_STORE says); the
    words that reach it remembered for the hints of refusals (cli/printed.py)."""
    store = store if store is not None else stores.chosen()
    remember("tune", place(folder, store).words())
    return open_loop_log(TUNE, folder, store)


def read_tuning(folder: Path, at: int | None = None, *, usage: bool = True,
                store: stores.Store | None = None) -> Read:
    """The tuning's state (as of event `at`) for a view; refused when the log is another loop's. A folder without
    a log gives the state before `init` (views say what to do about it). `usage=False`, for the views that read
    no usage figure: the replay skips the usage reports (the runs then carry none). A log holding events newer
    than this batchlog is read without them, with one warning on stderr (each view reads once)."""
    log = tune_log(folder, store)
    return read_state(log, TUNE, at, None if usage else without_usage(log.registry.by_name))


def tuning_state(folder: Path, at: int | None = None, *, usage: bool = True,
                 store: stores.Store | None = None) -> TuneState:
    """`read_tuning`'s state alone."""
    return read_tuning(folder, at, usage=usage, store=store).state


def decide_in(folder: Path, command: object, store: stores.Store | None = None) -> TuneState:
    """Append what `command` decides (nothing when it already took effect); the state after."""
    appended, _ = decided(tune_log(folder, store), TUNE, command)
    return appended.state
