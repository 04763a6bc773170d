"""What `tune watch` shows of a tuning, as data: the progress bars' figures, the difficult list, the runs by
verdict, tokens and model calls, the next step, whether the tuning is closed; and one event in words. Pure: the
CLI follows the log and renders these (cli/tune/watch.py).
"""

from __future__ import annotations

from batchlog.engine import Event
from batchlog.engine.value import frozen
from batchlog.projections.tune.events import (
    BatchBuilt,
    ChangeRecorded,
    DifficultAdded,
    DifficultFixed,
    DifficultWithdrawn,
    MemoryKept,
    RunGraded,
    RunRegraded,
    RunStarted,
    TuningStarted,
    UsageRecorded,
)
from batchlog.projections.tune.stage import current_half
from batchlog.projections.tune.state import VERDICTS, TuneState
from batchlog.projections.tune.views.readme.facts import run_calls, run_tokens
from batchlog.projections.tune.views.status import DifficultRow, NextStep, Place, difficult_rows, next_step, progress_figures


@frozen
class TuningWatch:
    """A tuning as `tune watch` shows it.

    `cases_used` of `selection`; `batches_built` of `batches_total` (those built and those still ahead for the
    cases not yet used); `difficult` every entry (open, then fixed, then stuck) and `difficult_counts` per
    status; `verdicts` the runs per verdict ("" for a run not graded yet); `tokens` and `calls` summed over the
    runs that report them (a grade's figures, else the model usage recorded), `reporting` how many runs do;
    `step` the next step as `tune next` gives it; `closed` once a final check passed.
    """

    name: str
    selection: int
    cases_used: int
    batches_built: int
    batches_total: int
    difficult: tuple[DifficultRow, ...]
    difficult_counts: dict[str, int]
    verdicts: dict[str, int]
    runs: int
    tokens: int
    calls: int
    reporting: int
    step: NextStep
    closed: bool


def tuning_watch(state: TuneState, place: Place) -> TuningWatch:
    """The watch's figures of a started tuning (refused, as every view, when none was started here)."""
    figures = progress_figures(state)
    rows = tuple(difficult_rows(state))
    verdicts = {verdict: 0 for verdict in (*VERDICTS, "")}
    for run in state.runs:
        verdicts[run.verdict] += 1
    tokens = [run_tokens(run) for run in state.runs]
    calls = [run_calls(run) for run in state.runs]
    settings = state.settings
    assert settings is not None
    return TuningWatch(
        name=settings.name or place.folder,
        selection=figures["selection"], cases_used=figures["used"],
        batches_built=figures["batches_built"], batches_total=figures["batches_built"] + figures["batches_ahead"],
        difficult=rows, difficult_counts=figures["difficult"],
        verdicts=verdicts, runs=len(state.runs),
        tokens=sum(count for count in tokens if count is not None),
        calls=sum(count for count in calls if count is not None),
        reporting=sum(1 for count in tokens if count is not None),
        step=next_step(state, place),
        closed=is_closed(state),
    )


def is_closed(state: TuneState) -> bool:
    """Whether the tuning is closed: its final check passed (the loop has ended)."""
    return current_half(state).kind == "done"


def event_words(event: Event) -> str:
    """One event of a tuning's log in a few words (its type, for one this view does not know)."""
    match event.data:
        case TuningStarted() as fact:
            return f"tuning started: {len(fact.cases)} cases, {len(fact.selection)} selected"
        case BatchBuilt() as fact:
            what = "new" if fact.kind == "new" else "difficult"
            return f"batch {fact.number} built: {len(fact.new)} {what} + {len(fact.recheck)} recheck"
        case RunStarted() as fact:
            return f"{fact.run} started ({len(fact.cases)} cases)"
        case RunGraded() as fact:
            return f"{fact.run} graded {fact.verdict}" + (f" ({len(fact.wrong)} wrong)" if fact.wrong else "")
        case RunRegraded() as fact:
            return f"{fact.run} regraded {fact.verdict}: {fact.reason}"
        case DifficultAdded() as fact:
            return f"{fact.case} is difficult ({', '.join(fact.reasons)}; in {fact.run})"
        case DifficultFixed() as fact:
            return f"{fact.case} fixed in {fact.run}"
        case DifficultWithdrawn() as fact:
            return f"{fact.case} withdrawn from the difficult list ({fact.reason})"
        case ChangeRecorded() as fact:
            return f"{fact.run} changed {fact.file}" + (f" ({fact.lines} lines)" if fact.lines is not None else "")
        case MemoryKept() as fact:
            return f"batch {fact.batch}'s memory kept ({fact.nodes} nodes)"
        case UsageRecorded() as fact:
            return (f"{fact.run}: {fact.model} {fact.calls:,} calls, "
                    f"{fact.input_tokens + fact.output_tokens:,} tokens")
        case _:
            return event.type
