"""The watch of either loop: its log followed (engine/follow.py), each change drawn on the terminal with rich, or
printed as one JSON line (without a terminal, or with --json), until the loop ends (exit 0) or Ctrl-C (exit 130).

Loop-agnostic: a loop's watch (cli/tune/watch.py, cli/quick_batch/watch.py) hands over its log, its Decider, the
fields of its `status --json`, its screen and whether the loop has ended. rich is imported here only when a
terminal is drawn on, so no other command, and no JSON watch, pays for it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from contextlib import closing
from typing import Any


from batchlog.cli import terminal
from batchlog.cli.errors import EXIT_OK
from batchlog.cli.loop_log import refuse_another_loops, warn_newer
from batchlog.engine.envelope import Event
from batchlog.engine.follow import Followed, follow
from batchlog.engine.log import EventLog
from batchlog.engine.value import frozen
from batchlog.projections.decider import Decider

EXIT_INTERRUPTED = 130  # Ctrl-C: the shell's code for a command ended by SIGINT, apart from 0 (the loop ended)
TICK_S = 1.0  # the screen is drawn again this often while nothing happens (the clocks it shows move on)
RECENT = 8  # the events the screen keeps to show


@frozen
class Watched:
    """A loop's watch: its `log` and the loop's `decider` (its fold, and its refusal of another loop's log);
    `fields(state)`, what its `status --json` prints (refusing, as the view does, a state it cannot answer for);
    `screen(state, recent events, note)`, the rich renderable of a state (called only on a terminal);
    `ended(state)`, whether the loop is over. A drawing costs milliseconds: the screen is drawn again when the
    log changed, the terminal was resized, or (`clock`) the times it shows moved on."""

    log: EventLog
    decider: Decider
    fields: Callable[[Any], dict[str, Any]]
    screen: Callable[[Any, tuple[Event, ...], str | None], Any]
    ended: Callable[[Any], bool]
    clock: bool = False  # the screen shows times that move on without a change: drawn again at every tick


def run_watch(watched: Watched, as_json: bool) -> int:
    """Follow the loop's log until it ends: on the terminal, or as JSON Lines on stdout."""
    try:
        if as_json or not terminal.is_terminal():
            return _json_lines(watched)
        return _on_screen(watched)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


def _json_lines(watched: Watched) -> int:
    """One JSON object per change, flushed at once: the status fields, and the event that caused the change
    (null in the first line, the state as the watch found it)."""
    registry = watched.log.registry
    said = _Notes(watched.log)
    with closing(follow(watched.log, watched.decider, each=True)) as changes:
        for number, step in enumerate(changes):
            newer = said.read(step)
            refuse_another_loops(watched.decider, step.state, watched.log)
            if number and not step.events:
                continue  # only a note: it is said on stderr, as a view says it
            event = step.events[-1] if step.events else None
            line = {**watched.fields(step.state), **({"newer": newer} if newer else {}),
                    "event": None if event is None else event_row(event, registry)}
            terminal.json_line(line)
            terminal.flush()
            if watched.ended(step.state):
                return EXIT_OK
    return EXIT_OK


def _on_screen(watched: Watched) -> int:
    """The state drawn in place, again at every change, at a resize, and (`clock`) at every tick; the last
    drawing stays when it ends."""
    from rich.console import Console
    from rich.live import Live

    recent: deque[Event] = deque(maxlen=RECENT)
    console = Console()
    said = _Notes(watched.log, on_screen=True)
    drawn: tuple[Any, ...] | None = None  # the note and the terminal's size of the last drawing
    changes = follow(watched.log, watched.decider, tick_s=TICK_S, recent=RECENT)
    with closing(changes), Live(console=console, auto_refresh=False, redirect_stdout=False) as live:
        for step in changes:
            said.read(step)
            refuse_another_loops(watched.decider, step.state, watched.log)
            recent.extend(step.events)
            looks = (step.note, console.size)
            if step.events or watched.clock or looks != drawn:
                live.update(watched.screen(step.state, tuple(recent), step.note), refresh=True)
                drawn = looks
            if watched.ended(step.state):
                return EXIT_OK
    return EXIT_OK


def event_row(event: Event, registry: Any) -> dict[str, Any]:
    """An event as `log show --json` prints it: its envelope, and its data as the log holds it."""
    _, _, data = registry.encode(event.data)
    return {"seq": event.seq, "type": event.type, "v": event.v, "at": event.at, "id": event.id, "data": data}


class _Notes:
    """What a view says on stderr of what it read past: the note on a torn tail or an unfinished command (drawn on
    the screen instead, `on_screen`), once while it holds; the warning of events newer than this batchlog, once
    for each count of them."""

    def __init__(self, log: EventLog, on_screen: bool = False) -> None:
        self.log = log
        self.on_screen = on_screen
        self.note: str | None = None
        self.newer: tuple[int, dict[str, object] | None] = (0, None)

    def read(self, step: Followed) -> dict[str, object] | None:
        """Say what `step` brings that was not said yet; the `newer` field of the JSON line (None: none)."""
        if not self.on_screen and step.note is not None and step.note != self.note:
            terminal.say(step.note, err=True)
            terminal.flush()
        self.note = step.note
        if len(step.newer) != self.newer[0]:
            self.newer = (len(step.newer), warn_newer(self.log, step.newer))
        return self.newer[1]
