"""What the tuning's tests build states from: facts folded in order, a start with usual settings, tables checked."""

from __future__ import annotations

import re

from batchlog.engine import Event
from batchlog.projections.tune.events import TuningStarted
from batchlog.projections.tune.decider import TUNE
from batchlog.projections.tune.evolve import evolve
from batchlog.projections.tune.state import TuneState

AT = "2026-12-02T16:00:00.000Z"


def fold(*facts) -> TuneState:
    """The state after `facts`, each the data of the next event (seq 1, 2, ...), all recorded at AT."""
    state = TUNE.initial
    for seq, fact in enumerate(facts, start=1):
        state = evolve(state, Event(seq, "tune.x", 1, AT, f"id{seq}", fact))
    return state


def started(cases, **overrides) -> TuningStarted:
    """`tune init` of `cases` with the settings these tests share; the selection in dataset order."""
    values = dict(dataset="dataset.json", cases=cases, selection=tuple(c["id"] for c in cases), limit=None,
                  min_batch=3, max_batch=10, recheck=3, seed=1, max_retries=3, concurrency=13)
    values.update(overrides)
    return TuningStarted(**values)


def table_problems(markdown: str) -> list[str]:
    """Rows of the GitHub tables of `markdown` whose number of cells differs from their header's
    (escaped pipes are not cell breaks)."""
    problems, header = [], None
    for line in markdown.splitlines() + [""]:
        if line.startswith("|"):
            cells = len(re.split(r"(?<!\\)\|", line.strip())) - 2
            if header is None:
                header = cells
            elif cells != header:
                problems.append(f"{cells} cells, header has {header}: {line}")
        else:
            header = None
    return problems


SHELL_OPERATORS = ("|", ";", "&", "<", ">", "(", ")")


def shell_problems(command: str) -> list[str]:
    """Why `command`, pasted into a POSIX shell, would not be one simple `batchlog` command ([] when it is)."""
    import shlex

    unquoted = "".join(part for n, part in enumerate(command.split("'")) if n % 2 == 0)  # outside '...'
    problems = [f"holds {bad!r}" for bad in ("`", "$(", "${") if bad in unquoted]
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError as exc:
        return [f"does not parse: {exc}"]
    problems += [f"operator {word!r}" for word in words if word and set(word) <= set("|;&<>()")]
    if words[:1] != ["batchlog"]:
        problems.append(f"does not start with batchlog: {words[:1]}")
    return problems
