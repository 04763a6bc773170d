"""A loop's log as every command of any loop opens, reads and writes it, given the loop's `Decider`: opened with the
event types the loop reads with, its state replayed (refused when `--at` is past the end or the log is another
loop's), and a decision appended under the log's lock. No typer or argparse here: every front end uses it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from batchlog.cli import store as stores
from batchlog.cli.at_option import require_within_log
from batchlog.cli.loops import types_for

if TYPE_CHECKING:
    from batchlog.engine.log import Appended, EventLog, Projection
    from batchlog.projections.decider import Decider


def _say(text: str) -> None:
    print(text, file=sys.stderr)


def open_loop_log(decider: Decider, folder: Path, store: stores.Store | None = None) -> EventLog:
    """The log of the loop whose files are in `folder` (FOLDER/events.jsonl, or in `store`; None: as BATCHLOG_STORE
    says), with snapshots, its waits for the lock and its notes said on stderr."""
    store = store if store is not None else stores.chosen()
    return stores.open_log(store, folder, types_for(decider), on_wait=_say, on_note=_say)


def refuse_another_loops(decider: Decider, state: Any, log: EventLog) -> None:
    """WrongLog when `state`, folded from `log`, shows the log is another loop's."""
    refusal = decider.wrong_log(state, stores.shown(log))
    if refusal is not None:
        raise refusal


def state_of(log: EventLog, decider: Decider, at: int | None = None, fold: Projection | None = None) -> Any:
    """The loop's state as of event `at` (`fold`: another of its folds, e.g. one that skips what a view never
    reads); refused past the end of the log, or on another loop's log."""
    replayed = log.replay(decider if fold is None else fold, at=at)
    require_within_log(at, replayed.position.seq, stores.shown(log))
    refuse_another_loops(decider, replayed.state, log)
    return replayed.state


def decided(log: EventLog, decider: Decider, command: Any) -> tuple[Appended, Any]:
    """Under the log's lock, the loop's decision on `command` and its events appended (none when it already took
    effect): (the append, the decision)."""
    taken: list[Any] = []

    def decide(state: Any) -> Any:
        refuse_another_loops(decider, state, log)
        taken.append(decider.decide(command, state))
        return decider.events(taken[-1])

    appended = log.append(decider, decide)
    return appended, taken[-1]
