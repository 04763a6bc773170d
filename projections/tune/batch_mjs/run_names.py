"""The run-name grammar of batch.mjs and zen-finetune's folders, both ways: `batchNN-nomem-runK`,
`batchNN-mem-runK` (the runs of batch NN, two digits) and `final-runK` (the final check). Pure."""

from __future__ import annotations

import re
from typing import NamedTuple

from batchlog.projections.tune.state import FINAL

# Groups: the batch, its half, the run's number; or the final check's run number. Used with fullmatch, as JS /^...$/.
RUN_NAME = re.compile(r"batch([0-9]{2})-(nomem|mem)-run([0-9]+)|final-run([0-9]+)")


class RunName(NamedTuple):
    """What a run's name says: its batch (0 for the final check), its kind ("nomem", "mem" or "final") and number.
    (A tuple: every view's start imports this, and a tuple class is made several times faster than an attrs one.)"""

    batch: int
    kind: str
    number: int


def run_name(batch: int, kind: str, number: int) -> str:
    """`batchNN-nomem-runK`, `batchNN-mem-runK`, or `final-runK` (batch 0)."""
    if kind == FINAL:
        return f"final-run{number}"
    return f"batch{batch:02d}-{kind}-run{number}"


def parse_run_name(name: str) -> RunName | None:
    """What `name` says, or None when it is no run's name."""
    match = RUN_NAME.fullmatch(name)
    if match is None:
        return None
    if match[4] is not None:
        return RunName(0, FINAL, int(match[4]))
    return RunName(int(match[1]), match[2], int(match[3]))
