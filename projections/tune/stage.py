"""Where each half of a batch stands, and where the loop stands now: the facts decide, next_step and the
README all read. Pure."""

from __future__ import annotations

import enum


from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.tune.batch_mjs.inputs import history
from batchlog.projections.tune.state import FINAL, RUNS_PER_HALF, Run, TuneState
from batchlog.engine.value import frozen


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


@frozen
class Stage:
    """Where the loop stands.

    `kind`: "not_started", "build" (batch `batch` is the next to build), "half" (batch `batch`'s `half` is
    being worked on, standing `standing`), "keep" (batch `batch` passed: keep its memory), "final" (the
    final check, standing `standing`), "done" (the final check passed).
    """

    kind: str
    batch: int = 0
    half: str = ""
    standing: Half | None = None


def current_half(state: TuneState) -> Stage:
    """Where the loop stands now: the half being worked on, else the step between halves (build, keep, final).

    After a failed final check the loop goes on as before it: its wrong cases go on the difficult list (the
    stage stays "final" until they are), batches of the open difficult cases follow, then the final check
    again."""
    if state.settings is None:
        return Stage("not_started")
    if half(state.runs_of(0, FINAL)) is Half.PASSED:
        return Stage("done", standing=Half.PASSED)
    final = latest_final(state)
    current = state.last_batch
    if final is not None:
        standing = Half.RUNNING if not final.graded else Half.AGAIN
        if standing is Half.AGAIN and not to_list_after_final(state) and something_left(state):
            return Stage("build", batch=len(state.batches) + 1)
        return Stage("final", standing=standing)
    if current is None:
        return Stage("build", batch=1)
    nomem, mem = batch_halves(state, current.number)
    if Half.GIVEN_UP not in (nomem, mem):
        if nomem is not Half.PASSED:
            return Stage("half", current.number, "nomem", nomem)
        if mem is not Half.PASSED:
            return Stage("half", current.number, "mem", mem)
        if not any(kept.batch == current.number for kept in state.memories):
            return Stage("keep", current.number)
    if something_left(state):
        return Stage("build", batch=current.number + 1)
    return Stage("final", standing=Half.NOT_STARTED)


def latest_final(state: TuneState) -> Run | None:
    """The last run of the final check when it is the loop's latest step (no batch was built after it started),
    else None."""
    finals = state.runs_of(0, FINAL)
    if not finals:
        return None
    current = state.last_batch
    if current is not None and current.built_seq > finals[-1].started_seq:
        return None
    return finals[-1]


def unlisted_wrong(state: TuneState, run: Run) -> tuple[str, ...]:
    """The cases `run` got wrong that are not on the difficult list: no entry added in it, none open or stuck."""
    def listed(case: str) -> bool:
        entry = state.difficult_entry(case)
        return entry is not None and (entry.fixed is None or entry.added == run.name)

    return tuple(case for case in run.wrong if not listed(case))


def to_list_after_final(state: TuneState) -> tuple[str, ...]:
    """The cases a failed final check got wrong that go on the difficult list before anything else is decided
    (nothing was built after it yet); () otherwise."""
    final = latest_final(state)
    if final is None or not final.graded or final.verdict == "PASSED":
        return ()
    return unlisted_wrong(state, final)


def reported_cases(state: TuneState, run: Run) -> frozenset[str]:
    """What a final run may report wrong without failing on it: the stuck cases, whose retries are used up (a
    batch run reports none)."""
    if run.kind != FINAL:
        return frozenset()
    return frozenset(entry.id for entry in rules.stuck_difficult(history(state)))


def something_left(state: TuneState) -> bool:
    """Whether a batch can still be built: unused cases, or open difficult ones."""
    past = history(state)
    return bool(rules.unused_cases(past) or rules.open_difficult(past))
