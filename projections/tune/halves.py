"""Where each half of a batch stands: the facts decide and next_step both read. Pure."""

from __future__ import annotations

import enum

from projections.tune.state import RUNS_PER_HALF, Run, TuneState


class Half(enum.Enum):
    """Where one half of a batch (or the final check) stands."""

    NOT_STARTED = "not started"
    RUNNING = "running"  # its last run waits to be graded
    PASSED = "passed"
    AGAIN = "again"  # graded, not passed, room for another run
    GIVEN_UP = "given up"  # RUNS_PER_HALF runs that count, none passed


def half(runs: tuple[Run, ...]) -> Half:
    """The standing of a half from its runs, in order."""
    if not runs:
        return Half.NOT_STARTED
    if any(run.verdict == "PASSED" for run in runs):
        return Half.PASSED
    if not runs[-1].graded:
        return Half.RUNNING
    if counting(runs) >= RUNS_PER_HALF:
        return Half.GIVEN_UP
    return Half.AGAIN


def counting(runs: tuple[Run, ...]) -> int:
    """How many of the runs count toward the half's limit (every run but a VOID one)."""
    return sum(1 for run in runs if run.counts)


def batch_halves(state: TuneState, number: int) -> tuple[Half, Half]:
    return half(state.runs_of(number, "nomem")), half(state.runs_of(number, "mem"))


def batch_passed(state: TuneState, number: int) -> bool:
    """Its with-memory half PASSED."""
    return batch_halves(state, number)[1] is Half.PASSED


def batch_given_up(state: TuneState, number: int) -> bool:
    """One of its halves reached its limit without passing."""
    return Half.GIVEN_UP in batch_halves(state, number)


def batch_finished(state: TuneState, number: int) -> bool:
    return batch_passed(state, number) or batch_given_up(state, number)


def run_name(batch: int, kind: str, number: int) -> str:
    """`batchNN-nomem-runK`, `batchNN-mem-runK`, or `final-runK` (batch 0)."""
    if kind == "final":
        return f"final-run{number}"
    return f"batch{batch:02d}-{kind}-run{number}"
