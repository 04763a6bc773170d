"""The tuning's decisions: `decide(command, state) -> events`, or `Refused` with what to do instead.

Pure. Every command is idempotent: asked again with the same input once it took
effect, it returns no event; asked with other input, it is refused. The commands
about records (difficult list, changes, memory, usage) live in records.py, the
correction of a grade in regrade.py, `tune import` in import_folder.py.
"""

from __future__ import annotations

from typing import Any

import attrs

from batchlog.projections.fields import as_tuple
from batchlog.projections.errors import BadInput, Refused
from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.tune.decide.records import (
    AddDifficult,
    FixDifficult,
    KeepMemory,
    RecordChange,
    RecordUsage,
    add_difficult,
    fix_difficult,
    keep_memory,
    record_change,
    record_usage,
)
from batchlog.projections.tune.events import BatchBuilt, RunGraded, RunStarted, TuningStarted
from batchlog.projections.tune.stage import Half, batch_finished, batch_passed, half, reported_cases
from batchlog.projections.tune.batch_mjs.run_names import run_name
from batchlog.projections.tune.batch_mjs.inputs import history
from batchlog.projections.tune.decide.import_folder import ImportFolder, import_folder
from batchlog.projections.tune.decide.refusals import (
    check_count,
    require_listed_after_final,
    require_run,
    require_tuning,
    wrong_log,
)
from batchlog.projections.tune.decide.regrade import RegradeRun, check_grade, regrade_run
from batchlog.projections.tune.printed import tune
from batchlog.projections.tune.batch_mjs.selection import check_cases, selection_order
from batchlog.projections.tune.state import FINAL, HALVES, RUNS_PER_HALF, TuneState
from batchlog.engine.value import frozen

__all__ = [
    "AddDifficult", "BuildBatch", "FixDifficult", "GradeRun", "ImportFolder", "InitTuning", "KeepMemory",
    "RecordChange", "RecordUsage", "RegradeRun", "StartFinal", "StartRun", "decide",
]

MAX_CONCURRENCY = 16


@frozen
class InitTuning:
    """Start a tuning. `dataset` is the dataset's path as the log records it (relative to the tuning's folder);
    `typed` the same path as the user gave it, which messages name (None: `dataset`)."""

    dataset: str
    cases: tuple[dict[str, Any], ...] = attrs.field(converter=as_tuple)
    limit: int | None = None
    min_batch: int = 3
    max_batch: int = 10
    recheck: int = 3
    seed: int = 1
    max_retries: int = 3
    concurrency: int | None = None
    name: str | None = None
    typed: str | None = None


@frozen
class BuildBatch:
    """Record the next batch (`-o`), with batch.mjs's overrides: -m size, -r recheck, --seed; `out`, the file -o
    names (None: not checked)."""

    size: int | None = None
    recheck: int | None = None
    seed: int | None = None
    out: str | None = None


@frozen
class StartRun:
    batch: int
    kind: str


@frozen
class StartFinal:
    pass


@frozen
class GradeRun:
    run: str
    verdict: str
    wrong: tuple[str, ...] = attrs.field(converter=as_tuple, default=())
    llm_calls: int | None = None
    tokens: int | None = None
    saved_twice: int | None = None
    findings: str | None = None
    note: str | None = None


def decide(command: object, state: TuneState) -> list:
    """The events `command` adds to `state`: none when it already took effect."""
    if state.foreign:
        raise wrong_log(state)
    match command:
        case InitTuning():
            return init_tuning(state, command)
        case ImportFolder():
            return import_folder(state, command)
    require_tuning(state)
    try:
        events = _decide_on_a_tuning(command, state)
    except Refused:
        _require_not_finished(state, command)  # a closed tuning says so, whatever else it would refuse
        raise
    if events:
        _require_not_finished(state, command)
    return events


def _decide_on_a_tuning(command: object, state: TuneState) -> list:
    match command:
        case BuildBatch():
            return build_batch(state, command)
        case StartRun():
            return start_run(state, command)
        case StartFinal():
            return start_final(state)
        case GradeRun():
            return grade_run(state, command)
        case RegradeRun():
            return regrade_run(state, command)
        case AddDifficult():
            return add_difficult(state, command)
        case FixDifficult():
            return fix_difficult(state, command)
        case RecordChange():
            return record_change(state, command)
        case KeepMemory():
            return keep_memory(state, command)
        case RecordUsage():
            return record_usage(state, command)
        case _:
            raise TypeError(f"decide does not know the command {type(command).__name__}")


def _require_not_finished(state: TuneState, command: object) -> None:
    """Once the final check passed the tuning is closed to decisions: usage (a report, not a decision) may
    still be recorded for any run, and changes for the final runs (a repeat that appends nothing is still
    answered)."""
    finals = state.runs_of(0, FINAL)
    if half(finals) is not Half.PASSED:
        return
    if isinstance(command, RecordUsage):
        return
    if isinstance(command, RecordChange) and command.run.startswith(f"{FINAL}-"):
        return
    passed = next(run for run in finals if run.verdict == "PASSED")
    audit = tune("audit")
    raise Refused(f"the tuning is finished: the final check passed in {passed.name}; only usage (of any run) "
                  f"and the final runs' changes may still be recorded; check the record with `{audit}`",
                  run=passed.name, commands=[audit])


def init_tuning(state: TuneState, command: InitTuning) -> list:
    check_cases(command.cases, command.typed or command.dataset)
    for name in ("limit", "min_batch", "max_batch", "seed", "max_retries", "concurrency"):
        value = getattr(command, name)
        if value is not None and value < 1:
            raise BadInput(f"--{name.replace('_', '-')} is {value}: it must be at least 1", option=name)
    check_count("--recheck", command.recheck)
    # batch.mjs's cfg() raises maxBatch to minBatch in silence; asked for both, batchlog refuses what cannot hold
    if command.max_batch < command.min_batch:
        raise BadInput(f"--max-batch {command.max_batch} is less than --min-batch {command.min_batch}: batches grow "
                       f"from --min-batch up to --max-batch; give a --max-batch of at least {command.min_batch}",
                       option="max_batch", min_batch=command.min_batch, max_batch=command.max_batch)
    max_batch = command.max_batch
    started = TuningStarted(
        dataset=command.dataset, cases=command.cases,
        selection=selection_order(command.cases, command.limit), limit=command.limit,
        min_batch=command.min_batch, max_batch=max_batch, recheck=command.recheck, seed=command.seed,
        max_retries=command.max_retries,
        concurrency=command.concurrency or min(max_batch + command.recheck, MAX_CONCURRENCY),
        name=command.name,
    )
    if state.settings is None:
        return [started]
    if _same_start(state, started):
        return []
    raise Refused(f"a tuning was already started here from {state.settings.dataset} with other cases or "
                  "settings: it cannot be started twice; use another --dir for a new tuning",
                  dataset=state.settings.dataset)


def _same_start(state: TuneState, started: TuningStarted) -> bool:
    """The same dataset content and settings (the dataset's path may be spelled differently)."""
    settings = state.settings
    assert settings is not None
    ours = (settings.limit, settings.min_batch, settings.max_batch, settings.recheck, settings.seed,
            settings.max_retries, settings.concurrency)
    theirs = (started.limit, started.min_batch, started.max_batch, started.recheck, started.seed,
              started.max_retries, started.concurrency)
    cases = tuple(case.body for case in state.cases)
    return ours == theirs and started.selection == state.selection and cases == tuple(
        _json(body) for body in started.cases)


def _json(body: dict) -> str:
    import orjson

    return orjson.dumps(body).decode()


def build_batch(state: TuneState, command: BuildBatch) -> list:
    """The next batch and its first no-memory run (batch.mjs next -o)."""
    if _is_repeat_of_last_build(state, command):
        assert state.last_batch is not None
        _require_own_folder(state, command, state.last_batch.number)
        return []
    _require_last_run_graded(state, "build the next batch")
    last = state.last_batch
    if last is not None and not batch_finished(state, last.number):
        next_ = tune("next")
        raise Refused(f"batch {last.number} has neither passed (its with-memory half PASSED) nor been given up "
                      f"(a half at its limit of runs): finish it first; `{next_}` says how",
                      batch=last.number, commands=[next_])
    if last is not None:
        _require_memory_kept(state, last.number)
    # after a failed final check the batches go on, of the open difficult cases (the selection is used up)
    require_listed_after_final(state, "build the next batch")
    plan = rules.next_batch(history(state), size=command.size, recheck=command.recheck, seed=command.seed)
    _require_own_folder(state, command, plan.number)
    ids = lambda cases: tuple(case["id"] for case in cases)  # noqa: E731
    built = BatchBuilt(
        number=plan.number, size=plan.size, why=plan.why, kind=plan.kind, new=ids(plan.new),
        recheck=ids(plan.recheck), unused_after=plan.unused_after, open_difficult=plan.open_difficult,
        size_override=command.size, recheck_override=command.recheck, seed_override=command.seed,
    )
    first = RunStarted(run_name(plan.number, "nomem", 1), plan.number, "nomem", 1, built.new + built.recheck)
    return [built, first]


def _require_memory_kept(state: TuneState, batch: int) -> None:
    """A batch whose with-memory half passed hands its memory on before anything comes after it."""
    if batch_passed(state, batch) and not any(kept.batch == batch for kept in state.memories):
        keep = tune("memory", "keep", "--batch", batch, "--nodes", "NODES")
        raise Refused(f"batch {batch}'s with-memory half passed but its memory is not kept yet: run `{keep}` "
                      "(NODES: the nodes in its memory); when that passes, the batch's memory becomes the last "
                      "good memory, and the next batch is built", batch=batch, commands=[keep])


def _require_own_folder(state: TuneState, command: BuildBatch, number: int) -> None:
    """-o may not name the folder of a run of another batch already recorded: batch `number`'s files would
    overwrite that batch's (batch.mjs warns and writes; here that is how an `-o` command repeated after the loop
    moved on, e.g. read back after a context compaction, would end, so it is refused before anything is
    recorded)."""
    run = None if command.out is None else rules.run_folder_of(command.out)
    if run is None or run.kind == FINAL or run.batch == number or state.batch_numbered(run.batch) is None:
        return
    assert command.out is not None
    folder = rules.node_dirname(command.out)
    own = f"{rules.node_dirname(folder)}/{run_name(number, 'nomem', 1)}/{command.out.rsplit('/', 1)[-1]}"
    overrides = [word for flag, value in (("-m", command.size), ("-r", command.recheck), ("--seed", command.seed))
                 if value is not None for word in (flag, value)]
    again = tune("next-batch", *overrides, "-o", own)
    raise Refused(f"-o names {folder}, the folder of a run of batch {run.batch}, which is recorded already: batch "
                  f"{number}'s files would overwrite that batch's. Nothing is recorded; write batch {number} to its "
                  f"own first run's folder: `{again}`", batch=number, commands=[again])


def _is_repeat_of_last_build(state: TuneState, command: BuildBatch) -> bool:
    """The last batch was built with these overrides, and its first run is the last one, not yet graded."""
    last, run = state.last_batch, state.last_run
    if last is None or run is None or run.graded or run.name != run_name(last.number, "nomem", 1):
        return False
    return (last.size_override, last.recheck_override, last.seed_override) == (
        command.size, command.recheck, command.seed)


def _require_last_run_graded(state: TuneState, to: str) -> None:
    run = state.last_run
    if run is not None and not run.graded:
        grade = tune("run", "grade", run.name, "--verdict", "VERDICT")
        raise Refused(f"run {run.name} is waiting to be graded: grade it before you {to}: `{grade}` (VERDICT: "
                      "PASSED, CORRECT, WRONG or VOID)", run=run.name, commands=[grade])


def start_run(state: TuneState, command: StartRun) -> list:
    """The next run of one half of the current batch."""
    if command.kind not in HALVES:
        raise BadInput(f"--kind {command.kind!r} is not a half: use nomem or mem", kind=command.kind)
    batch = state.batch_numbered(command.batch)
    if batch is None:
        count = len(state.batches)
        built = ("no batch is built yet" if not count else "batch 1 is the only one built" if count == 1
                 else f"batches built: 1-{count}")
        build = tune("next-batch", "-o", "FILE")
        raise BadInput(f"batch {command.batch} does not exist ({built}): build it with `{build}`",
                       batch=command.batch, commands=[build])
    last = state.last_run
    if last is not None and not last.graded and (last.batch, last.kind) == (command.batch, command.kind):
        return []
    _require_last_run_graded(state, "start another")
    current = state.last_batch
    assert current is not None
    if batch.number != current.number:
        raise Refused(f"batch {batch.number} is behind: batch {current.number} is the current one", batch=batch.number)
    nomem, mem = half(state.runs_of(batch.number, "nomem")), half(state.runs_of(batch.number, "mem"))
    _check_half_order(batch.number, command.kind, nomem, mem)
    number = len(state.runs_of(batch.number, command.kind)) + 1
    return [RunStarted(run_name(batch.number, command.kind, number), batch.number, command.kind, number, batch.cases)]


def _check_half_order(batch: int, kind: str, nomem: Half, mem: Half) -> None:
    next_ = tune("next")
    if nomem is Half.GIVEN_UP or mem is Half.GIVEN_UP:
        raise Refused(f"batch {batch} was given up (a half used its {RUNS_PER_HALF} runs without passing): build "
                      f"the next batch; `{next_}` says what comes next", batch=batch, commands=[next_])
    if kind == "nomem" and nomem is Half.PASSED:
        start = tune("run", "start", "--batch", batch, "--kind", "mem")
        raise Refused(f"the no-memory half of batch {batch} has passed: run it with memory (`{start}`)", batch=batch,
                      commands=[start])
    if kind == "mem" and nomem is not Half.PASSED:
        start = tune("run", "start", "--batch", batch, "--kind", "nomem")
        raise Refused(f"the no-memory half of batch {batch} has not passed yet: a with-memory run comes after a "
                      f"PASSED no-memory run (`{start}`)", batch=batch, commands=[start])
    if kind == "mem" and mem is Half.PASSED:
        raise Refused(f"the with-memory half of batch {batch} has passed: keep its memory and build the next "
                      f"batch; `{next_}` says what comes next", batch=batch, commands=[next_])


def start_final(state: TuneState) -> list:
    """The next run of the final check: the whole selection at once."""
    finals = state.runs_of(0, FINAL)
    last = state.last_run
    if last is not None and not last.graded and last.kind == FINAL:
        return []
    _require_last_run_graded(state, "start the final check")
    if half(finals) is Half.PASSED:
        raise Refused("the final check has passed: the tuning is done", run=finals[-1].name)
    used = state.used
    unused = [case for case in state.selection if case not in used]
    build = tune("next-batch", "-o", "FILE")
    if unused:
        raise Refused(f"{len(unused)} selected case(s) are not in any batch yet (first: {unused[0]}): build the "
                      f"next batch with `{build}` before the final check", unused=len(unused), commands=[build])
    require_listed_after_final(state, "run the final check again")
    opened = rules.open_difficult(history(state))
    if opened:
        names = " ".join(entry.id for entry in opened)
        raise Refused(f"{len(opened)} difficult case(s) are open ({names}): the next batches retry them until "
                      f"they are fixed or stuck (`{build}`), then the final check runs",
                      open=[entry.id for entry in opened], commands=[build])
    current = state.last_batch
    if current is not None and not batch_finished(state, current.number):
        raise Refused(f"batch {current.number} has not finished (its with-memory half has not passed): finish it "
                      "before the final check", batch=current.number)
    if current is not None:
        _require_memory_kept(state, current.number)
    number = len(finals) + 1
    return [RunStarted(run_name(0, FINAL, number), 0, FINAL, number, state.selection)]


def grade_run(state: TuneState, command: GradeRun) -> list:
    run = require_run(state, command.run)
    wrong = check_grade(run, command.verdict, command.wrong, {
        "--llm-calls": command.llm_calls, "--tokens": command.tokens, "--saved-twice": command.saved_twice},
        reported_cases(state, run))
    graded = RunGraded(run.name, command.verdict, wrong, command.llm_calls, command.tokens, command.saved_twice,
                       command.findings, command.note)
    if not run.graded:
        return [graded]
    recorded = RunGraded(run.name, run.verdict, run.wrong, run.llm_calls, run.tokens, run.saved_twice,
                         run.findings, run.note)
    if recorded == graded:
        return []
    regrade = tune("run", "regrade", run.name, "--verdict", "VERDICT", "--reason", "TEXT")
    raise Refused(f"run {run.name} is already graded ({run.verdict}) with other values: a run is graded once; "
                  f"a grade given by mistake is corrected with `{regrade}`", run=run.name, verdict=run.verdict,
                  commands=[regrade])
