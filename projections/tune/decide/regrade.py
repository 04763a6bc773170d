"""Correcting a grade given by mistake (`tune run regrade`), and the checks every grade passes. Pure.

A correction is a new event; the original grade stays in the log. It is allowed only while nothing has
been decided on the grade: no later run of the batch (or of the final check), no memory kept for the
batch, no batch built after the run, no difficult fix in the run that the new grade would contradict. It
keeps the figures it does not restate. A difficult entry added in the run for a case the correction says
was not wrong there is withdrawn by the same command (one `tune.difficult_withdrawn` each, with the
correction's reason), so the log never holds an entry its own grades contradict.
"""

from __future__ import annotations

import attrs

from batchlog.projections.fields import as_tuple
from batchlog.projections.errors import BadInput, Refused
from batchlog.projections.tune.events import DifficultWithdrawn, RunRegraded
from batchlog.projections.tune.decide.refusals import check_count, check_text, require_run
from batchlog.projections.tune.printed import tune
from batchlog.projections.tune.stage import reported_cases
from batchlog.projections.tune.state import FINAL, VERDICTS, Run, TuneState
from batchlog.engine.value import frozen


@frozen
class RegradeRun:
    run: str
    verdict: str
    reason: str
    wrong: tuple[str, ...] = attrs.field(converter=as_tuple, default=())
    llm_calls: int | None = None
    tokens: int | None = None
    saved_twice: int | None = None


def check_grade(run: Run, verdict: str, wrong: tuple[str, ...], figures: dict[str, int | None],
                reported: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """Refuse a grade that does not say what is true; the wrong cases without repeats.

    `reported`: the cases the run may get wrong without failing on them (a final check's stuck cases: their
    retries are used up, so they are reported, not retried); WRONG needs a wrong case outside them."""
    if verdict not in VERDICTS:
        raise BadInput(f"verdict {verdict!r} is not one of {', '.join(VERDICTS)}", verdict=verdict)
    for option, value in figures.items():
        check_count(option, value)
    wrong = tuple(dict.fromkeys(wrong))
    strangers = [case for case in wrong if case not in run.cases]
    if strangers:
        raise BadInput(f"case(s) {' '.join(strangers)} are not in run {run.name}: --wrong names cases of the run",
                       run=run.name, cases=strangers)
    failing = [case for case in wrong if case not in reported]
    but_stuck = f" (a final check may name its stuck cases: {' '.join(sorted(reported))})" if reported else ""
    if verdict in ("PASSED", "CORRECT") and failing:
        raise BadInput(f"a {verdict} run got every case right{but_stuck}, but --wrong names {' '.join(failing)}: "
                       "grade it WRONG", run=run.name)
    if verdict == "WRONG" and not wrong:
        raise BadInput(f"a WRONG run got some case wrong: name each with --wrong CASE (a case of {run.name})",
                       run=run.name)
    if verdict == "WRONG" and not failing:
        raise BadInput(f"{run.name} got only stuck cases wrong ({' '.join(wrong)}): a final check reports a stuck "
                       "case rather than failing on it (its retries are used up); grade it PASSED, or CORRECT, "
                       "with the same --wrong", run=run.name, cases=list(wrong))
    return wrong


def regrade_run(state: TuneState, command: RegradeRun) -> list:
    """The correction of a graded run's grade, or a refusal saying what was decided on the grade."""
    run = require_run(state, command.run)
    if not run.graded:
        grade = tune("run", "grade", run.name, "--verdict", "VERDICT")
        raise Refused(f"run {run.name} is not graded yet: grade it with `{grade}`", run=run.name, commands=[grade])
    check_text("--reason", command.reason)
    wrong = check_grade(run, command.verdict, command.wrong, {
        "--llm-calls": command.llm_calls, "--tokens": command.tokens, "--saved-twice": command.saved_twice},
        reported_cases(state, run))
    corrected = RunRegraded(run.name, command.verdict, command.reason, wrong, command.llm_calls, command.tokens,
                            command.saved_twice)
    last = next((c for c in reversed(state.corrections) if c.run == run.name), None)
    now = (run.verdict, run.wrong, run.llm_calls, run.tokens, run.saved_twice)
    restated = (command.verdict, wrong, _or(command.llm_calls, run.llm_calls), _or(command.tokens, run.tokens),
                _or(command.saved_twice, run.saved_twice))
    if now == restated:
        if last is not None and last.reason == command.reason:
            return []  # the same correction again
        raise Refused(f"run {run.name} is already graded {run.verdict} with these figures: nothing to correct",
                      run=run.name)
    _require_nothing_decided(state, run, command.verdict, wrong)
    return [corrected, *_withdrawn(state, run, wrong, command.reason)]


def _or(given: int | None, recorded: int | None) -> int | None:
    """A figure as the correction leaves it: the one given, else the one recorded."""
    return recorded if given is None else given


def _withdrawn(state: TuneState, run: Run, wrong: tuple[str, ...], reason: str) -> list[DifficultWithdrawn]:
    """One withdrawal per entry added in `run` for a case it got wrong before the correction and not after."""
    return [DifficultWithdrawn(entry.case, run.name, reason) for entry in state.difficult_list
            if entry.added == run.name and entry.case in run.wrong and entry.case not in wrong]


def _require_nothing_decided(state: TuneState, run: Run, verdict: str, wrong: tuple[str, ...]) -> None:
    later = [r for r in state.runs if r.batch == run.batch and r.started_seq > run.started_seq
             and (run.kind == FINAL) == (r.kind == FINAL)]
    if later:
        raise Refused(f"run {run.name} cannot be regraded: {later[0].name} was started on its grade (a "
                      "correction comes before the next decision)", run=run.name, later=later[0].name)
    built = [b.number for b in state.batches if b.built_seq > run.started_seq]
    if built:
        raise Refused(f"run {run.name} cannot be regraded: batch {built[0]} was built after it", run=run.name)
    if run.kind != FINAL and any(kept.batch == run.batch for kept in state.memories):
        raise Refused(f"run {run.name} cannot be regraded: batch {run.batch}'s memory was kept on its grade",
                      run=run.name)
    for entry in state.difficult:
        if entry.fixed == run.name and (verdict == "VOID" or entry.case in wrong):
            raise Refused(f"run {run.name} cannot be regraded {verdict}: difficult case {entry.case} was marked "
                          "fixed in it", run=run.name, case=entry.case)
