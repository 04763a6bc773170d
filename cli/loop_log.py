"""A loop's log as every command of any loop opens, reads and writes it, given the loop's `Decider`: opened with the
event types the loop reads with, its state replayed (refused when `--at` is past the end or the log is another
loop's), and a decision appended under the log's lock. No typer or argparse here: every front end uses it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any


from batchlog.cli import store as stores, terminal
from batchlog.cli.at_option import require_within_log
from batchlog.cli.loops import types_for
from batchlog.engine.value import frozen

if TYPE_CHECKING:
    from collections.abc import Sequence

    from batchlog.engine.log import Appended, EventLog, Projection
    from batchlog.engine.scan import Problem
    from batchlog.projections.decider import Decider


def _say(text: str) -> None:
    terminal.say(text, err=True)


def open_loop_log(decider: Decider, folder: Path, store: stores.Store | None = None, *, notes: bool = True) -> EventLog:
    """The log of the loop whose files are in `folder` (FOLDER/events.jsonl, or in `store`; None: as BATCHLOG_STORE
    says), with snapshots, its waits for the lock said on stderr, and its notes (a torn tail answered past, a marker
    or snapshot ignored) unless `notes` is False."""
    store = store if store is not None else stores.chosen()
    return stores.open_log(store, folder, types_for(decider), on_wait=_say, on_note=_say if notes else None)


def refuse_another_loops(decider: Decider, state: Any, log: EventLog) -> None:
    """WrongLog when `state`, folded from `log`, shows the log is another loop's."""
    refusal = decider.wrong_log(state, stores.shown(log))
    if refusal is not None:
        raise refusal


@frozen
class Read:
    """What a view read: the state, and what the log holds that is newer than this batchlog (None: nothing), as
    `--json` objects say it (`newer`: how many such lines, and the first)."""

    state: Any
    newer: dict[str, object] | None = None

    def fields(self) -> dict[str, object]:
        """The `newer` field a view's `--json` object carries when the log holds newer events, else none."""
        return {} if self.newer is None else {"newer": self.newer}


def read_state(log: EventLog, decider: Decider, at: int | None = None, fold: Projection | None = None) -> Read:
    """The loop's state as of event `at` for a view (`fold`: another of its folds, e.g. one that skips what a view
    never reads); refused past the end of the log, or on another loop's log. A log holding events newer than this
    batchlog is read without them, with one warning on stderr (each view reads once)."""
    replayed = log.replay(decider if fold is None else fold, at=at)
    require_within_log(at, replayed.position.seq, stores.shown(log))
    refuse_another_loops(decider, replayed.state, log)
    return Read(replayed.state, warn_newer(log, replayed.newer))


def warn_newer(log: EventLog, newer: Sequence[Problem]) -> dict[str, object] | None:
    """When `log` holds events newer than this batchlog (`newer`, as a read met them): one warning on stderr, and
    the `newer` field of a view's `--json` object (how many, and the first); None when it holds none."""
    if not newer:
        return None
    first = newer[0].message
    _say(f"batchlog: warning: {stores.shown(log)} holds {len(newer)} event(s) newer than this batchlog "
         f"(first: {first}): what it shows leaves them out, and nothing can be recorded in the log (exit 3) until "
         "batchlog is upgraded")
    return {"count": len(newer), "first": first}


def state_of(log: EventLog, decider: Decider, at: int | None = None, fold: Projection | None = None) -> Any:
    """`read_state`'s state alone."""
    return read_state(log, decider, at, fold).state


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
