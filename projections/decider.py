"""`Decider`: one loop as the engine folds it and the CLI drives it. Each loop exports one (the tuning's `TUNE` in
projections/tune/decider.py, the quick batch's `QUICK_BATCH` in projections/quick_batch/decider.py). Pure.

A Decider is the engine's `Projection` (the fold's name, initial state, `evolve(state, event)`, snapshot version,
`folds`, `evolve_all`), so the engine replays and appends with it as it is, plus what the loop decides with:
`decide(command, state)` returns a decision (the events to append, or a value that carries them: `events` takes
them out) or raises `Refused`; `registry`, the loop's event types. A log is a loop's own when it holds only the
loop's events (and the engine's): each loop's fold notes the first event of another loop it meets in its state,
and `wrong_log` turns that into the loop's refusal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any


from batchlog.engine.log import Projection
from batchlog.engine.registry import Registry
from batchlog.projections.errors import WrongLog
from batchlog.engine.value import frozen


def _as_events(decision: Any) -> Sequence[Any]:
    """A decision that is the list of its events."""
    return decision


def _no_views(known: Iterable[str]) -> tuple[Projection, ...]:
    return ()


@frozen(kw_only=True)
class Decider(Projection):
    """A loop: its fold (the `Projection` fields) and its decisions.

    `decide(command, state)`: the loop's decision on `command`, or `Refused`. `events(decision)`: the events a
    decision appends (none: the command already took effect). `wrong_log(state, log)`: the refusal when the
    state, folded from the log named `log`, is another loop's log; else None. `views(known)`: the loop's other
    folds that views replay and snapshot (given the event types its log is read with), for `log verify
    --snapshots`.
    """

    decide: Callable[[Any, Any], Any]
    registry: Registry
    wrong_log: Callable[[Any, str], WrongLog | None]
    events: Callable[[Any], Sequence[Any]] = _as_events
    views: Callable[[Iterable[str]], tuple[Projection, ...]] = _no_views
