"""Correcting a grade given by mistake (`tune run regrade`), and the checks every grade passes. Pure.

A correction is a new event; the original grade stays in the log. It is allowed only while nothing has
been decided on the grade: no later run of the batch (or of the final check), no memory kept for the
batch, no later batch built, no difficult fix in the run that the new grade would contradict.
"""

from __future__ import annotations

import attrs

from batchlog.projections.fields import as_tuple
from batchlog.projections.errors import BadInput, Refused
from batchlog.projections.tune.events import RunRegraded
from batchlog.projections.tune.decide.refusals import check_count, check_text, require_run
from batchlog.projections.tune.state import FINAL, VERDICTS, Run, TuneState


@attrs.frozen
class RegradeRun:
    run: str
    verdict: str
    reason: str
    wrong: tuple[str, ...] = attrs.field(converter=as_tuple, default=())
    llm_calls: int | None = None
    tokens: int | None = None
    saved_twice: int | None = None


def check_grade(run: Run, verdict: str, wrong: tuple[str, ...], figures: dict[str, int | None]) -> tuple[str, ...]:
    """Refuse a grade that does not say what is true; the wrong cases without repeats."""
    if verdict not in VERDICTS:
        raise BadInput(f"verdict {verdict!r} is not one of {', '.join(VERDICTS)}", verdict=verdict)
    for option, value in figures.items():
        check_count(option, value)
    wrong = tuple(dict.fromkeys(wrong))
    strangers = [case for case in wrong if case not in run.cases]
    if strangers:
        raise BadInput(f"case(s) {' '.join(strangers)} are not in run {run.name}: --wrong names cases of the run",
                       run=run.name, cases=strangers)
    if verdict in ("PASSED", "CORRECT") and wrong:
        raise BadInput(f"a {verdict} run got every case right, but --wrong names {' '.join(wrong)}: grade it "
                       "WRONG", run=run.name)
    if verdict == "WRONG" and not wrong:
        raise BadInput(f"a WRONG run got some case wrong: name each with --wrong CASE (a case of {run.name})",
                       run=run.name)
    return wrong


def regrade_run(state: TuneState, command: RegradeRun) -> list:
    """The correction of a graded run's grade, or a refusal saying what was decided on the grade."""
    run = require_run(state, command.run)
    if not run.graded:
        raise Refused(f"run {run.name} is not graded yet: grade it with `batchlog tune run grade {run.name} "
                      "--verdict VERDICT`", run=run.name)
    check_text("--reason", command.reason)
    wrong = check_grade(run, command.verdict, command.wrong, {
        "--llm-calls": command.llm_calls, "--tokens": command.tokens, "--saved-twice": command.saved_twice})
    corrected = RunRegraded(run.name, command.verdict, command.reason, wrong, command.llm_calls, command.tokens,
                            command.saved_twice)
    last = next((c for c in reversed(state.corrections) if c.run == run.name), None)
    now = (run.verdict, run.wrong, run.llm_calls, run.tokens, run.saved_twice)
    if now == (command.verdict, wrong, command.llm_calls, command.tokens, command.saved_twice):
        if last is not None and last.reason == command.reason:
            return []  # the same correction again
        raise Refused(f"run {run.name} is already graded {run.verdict} with these figures: nothing to correct",
                      run=run.name)
    _require_nothing_decided(state, run, command.verdict, wrong)
    return [corrected]


def _require_nothing_decided(state: TuneState, run: Run, verdict: str, wrong: tuple[str, ...]) -> None:
    later = [r for r in state.runs if r.batch == run.batch and r.started_seq > run.started_seq
             and (run.kind == FINAL) == (r.kind == FINAL)]
    if later:
        raise Refused(f"run {run.name} cannot be regraded: {later[0].name} was started on its grade (a "
                      "correction comes before the next decision)", run=run.name, later=later[0].name)
    if run.kind != FINAL:
        built = [b.number for b in state.batches if b.number > run.batch]
        if built:
            raise Refused(f"run {run.name} cannot be regraded: batch {built[0]} was built after it", run=run.name)
        if any(kept.batch == run.batch for kept in state.memories):
            raise Refused(f"run {run.name} cannot be regraded: batch {run.batch}'s memory was kept on its grade",
                          run=run.name)
    for entry in state.difficult:
        if entry.fixed == run.name and (verdict == "VOID" or entry.case in wrong):
            raise Refused(f"run {run.name} cannot be regraded {verdict}: difficult case {entry.case} was marked "
                          "fixed in it", run=run.name, case=entry.case)
