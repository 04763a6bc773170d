"""The loops batchlog drives, in one explicit list (`LOOPS`), and the event types each command reads a log with,
built from the loops' own tables.

A loop is a `Loop` value: its CLI group's name and help, and where its parts are, named `module:attribute` and
imported only when used, so that a command imports its own loop alone (a tuning's command never imports the
quick batch's event classes, nor its commands). Adding a loop is one line: an entry of `LOOPS`, or, for a loop
that lives outside batchlog (tests/third_loop/ is one), its `module:attribute` in BATCHLOG_LOOPS (several
separated by commas), read here and nowhere else. Its parts: `commands`, a function `add(app, loop)` that puts
the loop's commands on the typer app; `front`, optionally, a callable `run(args) -> int | None` that answers a
command line before the typer app is built (None: build it); `versions`, its `{event type: version}` table in a
module that imports no event class; `decider`, its `Decider` (projections/decider.py).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import typer

    from batchlog.engine.registry import Registry
    from batchlog.projections.decider import Decider

LOOPS_ENV = "BATCHLOG_LOOPS"


class Loop(NamedTuple):
    """One loop: `batchlog NAME ...`, and its parts as `module:attribute` (see the module's docstring). (A tuple:
    every command's start makes this class, and a tuple class is made several times faster than an attrs one.)"""

    name: str
    help: str
    commands: str
    versions: str
    decider: str
    front: str | None = None

    def load_versions(self) -> Mapping[str, int]:
        """Its event types and their current versions (no event class imported)."""
        return _attribute(self.versions)

    def load_decider(self) -> Decider:
        return _attribute(self.decider)

    def load_commands(self) -> Callable[[typer.Typer, Loop], None]:
        return _attribute(self.commands)

    def load_front(self) -> Callable[[list[str]], int | None] | None:
        return None if self.front is None else _attribute(self.front)


LOOPS = (
    Loop("tune", "the tuning loop (zen-finetune): batches, runs, grading, difficult list, memory",
         commands="batchlog.cli.tune.commands:add_to", front="batchlog.cli.tune.lane_table:LANE",
         versions="batchlog.projections.tune.versions:VERSIONS", decider="batchlog.projections.tune.decider:TUNE"),
    Loop("quick-batch",
         "The skf-quick-batch.py contract on an event log: parse, start, next, record, summarize, status, import.",
         commands="batchlog.cli.quick_batch.typer_command:add_to", front="batchlog.cli.quick_batch.main:front",
         versions="batchlog.projections.quick_batch.versions:VERSIONS",
         decider="batchlog.projections.quick_batch.decider:QUICK_BATCH"),
)


def loops() -> tuple[Loop, ...]:
    """`LOOPS`, then those BATCHLOG_LOOPS names (BadSetting, a usage error, for a name that is no loop or a loop
    whose command another loop has)."""
    named = [name.strip() for name in os.environ.get(LOOPS_ENV, "").split(",") if name.strip()]
    found = LOOPS
    for name in named:
        loop = _added(name)
        if any(known.name == loop.name for known in found):
            from batchlog.engine.errors import BadSetting

            raise BadSetting(f"{LOOPS_ENV}: {name!r} is a loop named {loop.name}, and batchlog has one of that name "
                             "already: give it another", setting=LOOPS_ENV)
        found += (loop,)
    return found


def _added(name: str) -> Loop:
    from batchlog.engine.errors import BadSetting

    try:
        loop = _attribute(name)
    except (ImportError, AttributeError, ValueError) as error:
        raise BadSetting(f"{LOOPS_ENV}: {name!r} names no loop ({error}): give module:attribute of a Loop "
                         "(cli/loops.py)", setting=LOOPS_ENV) from None
    if not isinstance(loop, Loop):
        raise BadSetting(f"{LOOPS_ENV}: {name!r} is a {type(loop).__name__}, not a Loop (cli/loops.py)",
                         setting=LOOPS_ENV)
    return loop


def loop_named(name: str) -> Loop | None:
    return next((loop for loop in loops() if loop.name == name), None)


def all_types() -> Registry:
    """Every loop's event types with their classes, and the engine's: what `log verify` and `log show` read with."""
    from batchlog.projections.catalog import every_type

    return every_type(loop.load_decider().registry for loop in loops())


def types_for(decider: Decider) -> Registry:
    """What a loop's commands read its log with: its own types with their classes, every other loop's by name and
    version only (so that another loop's log is recognised without importing that loop), and the engine's. The
    same names and versions as `all_types()`, so the same snapshots."""
    from batchlog.projections.catalog import read_by

    return read_by(decider.registry, (loop.load_versions() for loop in loops()))


def _attribute(name: str) -> Any:
    """The attribute `module:attribute` names, its module imported."""
    module, colon, attribute = name.partition(":")
    if not colon or not module or not attribute:
        raise ValueError("not module:attribute")
    return getattr(importlib.import_module(module), attribute)
