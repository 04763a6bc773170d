"""The bodies of the `batchlog tune` commands that record: each takes its command's parameters by the names the typer
declaration gives them (cli/tune/commands.py), makes one decision (the tuning's `decide`, under the log's lock:
cli/tune/log.py), writes the files that show it, and renders. No typer here: the fast lane (cli/lane.py) calls these
without building the typer app. Errors are raised for the caller's error boundary (cli/errors.py) to report.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import attrs

from batchlog.cli.loop_log import decided
from batchlog.cli.store import chosen, shown
from batchlog.cli.tune.files import (
    check_batch_files,
    path_from,
    read_dataset_and_name,
    read_zen_folder,
    run_cases_path,
    write_batch_files,
    write_text,
)
from batchlog.cli.tune.log import decide_in, tune_log
from batchlog.cli.tune.output import emit, show_batch
from batchlog.projections.errors import BadInput, Refused
from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.tune.batch_mjs.inputs import cases_plan, plan_of
from batchlog.projections.tune.decide.loop import (
    AddDifficult,
    BuildBatch,
    FixDifficult,
    GradeRun,
    ImportFolder,
    InitTuning,
    KeepMemory,
    RecordChange,
    RecordUsage,
    RegradeRun,
    StartFinal,
    StartRun,
)
from batchlog.projections.tune.decider import TUNE


@contextmanager
def _written_after(recorded: str) -> Iterator[None]:
    """A file that cannot be written after its event was appended: say so, and that a repeat writes it."""
    try:
        yield
    except BadInput as error:
        raise BadInput(f"{recorded}, but {error.message}: fix that and run the same command again to write its "
                       "files (nothing more is recorded)", **error.fields) from None


def init_command(dataset: Path, limit: int | None, min_batch: int, max_batch: int, recheck: int, seed: int,
                 max_retries: int, concurrency: int | None, folder: Path, store_url: str | None,
                 log_name: str | None, as_json: bool) -> int:
    """`tune init`: read the dataset, record the settings and the selection."""
    cases, name = read_dataset_and_name(dataset)
    command = InitTuning(path_from(folder, dataset), cases, limit, min_batch, max_batch, recheck, seed,
                         max_retries, concurrency, name, typed=str(dataset))
    state = decide_in(folder, command, chosen(store_url, log_name))
    settings = state.settings
    assert settings is not None
    line = (f"tuning started in {folder}: {len(state.cases)} cases, {len(state.selection)} selected; batches "
            f"{settings.min_batch} up to {settings.max_batch}, recheck {settings.recheck}, seed {settings.seed}, "
            f"maxRetries {settings.max_retries}, concurrency {settings.concurrency}")
    return emit(as_json, [line], {"settings": attrs.asdict(settings), "cases": len(state.cases),
                                   "selection": list(state.selection)})


def record_batch(size: int | None, recheck: int | None, seed: int | None, out: str, folder: Path,
                 store_url: str | None, log_name: str | None, as_json: bool) -> int:
    """`tune next-batch -o FILE`: the next batch recorded, then its cases.json and plan.json written."""
    store = chosen(store_url, log_name)
    check_batch_files(out, store.file(folder))
    state = decide_in(folder, BuildBatch(size, recheck, seed, out), store)
    assert state.last_batch is not None
    plan = plan_of(state, state.last_batch)
    # Recorded first, then written: the files are a view of the batch, and the same command rewrites them.
    with _written_after(f"batch {plan.number} is recorded"):
        write_batch_files(out, rules.cases_json(plan), rules.plan_json(plan))
    return show_batch(plan, out, as_json, bool(state.difficult))


def run_start_command(batch: int | None, kind: str | None, final: bool, folder: Path, store_url: str | None,
                      log_name: str | None, as_json: bool) -> int:
    """`tune run start`: the next run of a half (or of the final check), its runs/<name>/cases.json written."""
    command = StartFinal() if final else StartRun(batch or 0, kind or "")
    state = decide_in(folder, command, chosen(store_url, log_name))
    run = state.last_run
    assert run is not None
    path = run_cases_path(folder, run.name)
    with _written_after(f"run {run.name} is recorded"):
        write_text(path, rules.cases_json(cases_plan(state, run.batch, run.cases)))
    return emit(as_json, [run.name], {"run": run.name, "cases": str(path), "count": len(run.cases)})


def run_grade_command(run: str, verdict: str, wrong: list[str] | None, llm_calls: int | None, tokens: int | None,
                      saved_twice: int | None, findings: str | None, note: str | None, folder: Path,
                      store_url: str | None, log_name: str | None, as_json: bool) -> int:
    """`tune run grade`: a run's verdict, the cases it got wrong, its figures."""
    if findings is not None and not Path(findings).is_file():
        raise BadInput(f"findings file {findings} is not a file: give the path of the run's findings.md",
                       file=findings)
    command = GradeRun(run, verdict, tuple(wrong or ()), llm_calls, tokens, saved_twice, findings, note)
    state = decide_in(folder, command, chosen(store_url, log_name))
    graded = state.run_named(run)
    assert graded is not None
    wrong_text = f" ({len(graded.wrong)} wrong: {' '.join(graded.wrong)})" if graded.wrong else ""
    return emit(as_json, [f"{graded.name} graded {graded.verdict}{wrong_text}"],
                {"run": graded.name, "verdict": graded.verdict, "wrong": list(graded.wrong)})


def run_regrade_command(run: str, verdict: str, reason: str, wrong: list[str] | None, llm_calls: int | None,
                        tokens: int | None, saved_twice: int | None, folder: Path, store_url: str | None,
                        log_name: str | None, as_json: bool) -> int:
    """`tune run regrade`: a grade given by mistake corrected, while nothing was decided on it."""
    command = RegradeRun(run, verdict, reason, tuple(wrong or ()), llm_calls, tokens, saved_twice)
    state = decide_in(folder, command, chosen(store_url, log_name))
    graded = state.run_named(run)
    correction = next(c for c in reversed(state.corrections) if c.run == run)
    assert graded is not None
    withdrawn = [entry.case for entry in state.difficult  # by this correction: its events follow it
                 if entry.added == run and entry.withdrawn_seq is not None and entry.withdrawn_seq > correction.seq]
    wrong_text = f" ({len(graded.wrong)} wrong: {' '.join(graded.wrong)})" if graded.wrong else ""
    lines = [f"{graded.name} regraded {graded.verdict}{wrong_text} (was {correction.was})"] + [
        f"withdrew the difficult entry of {case} added in {run}: it was not wrong there" for case in withdrawn]
    return emit(as_json, lines, {"run": graded.name, "verdict": graded.verdict, "wrong": list(graded.wrong),
                                 "was": correction.was, "seq": correction.seq, "withdrawn": withdrawn,
                                 "llm_calls": graded.llm_calls, "tokens": graded.tokens,
                                 "saved_twice": graded.saved_twice})


def difficult_add_command(case: str, reasons: list[str], run: str, note: str | None, folder: Path,
                          store_url: str | None, log_name: str | None, as_json: bool) -> int:
    """`tune difficult add`: a case put on the difficult list."""
    state = decide_in(folder, AddDifficult(case, tuple(reasons), run, note), chosen(store_url, log_name))
    entry = state.difficult_entry(case)
    assert entry is not None
    return emit(as_json, [f"{case} is on the difficult list ({', '.join(entry.reasons)}; added in {entry.added})"],
                {"case": case, "reasons": list(entry.reasons), "added": entry.added})


def difficult_fix_command(case: str, run: str, note: str | None, folder: Path, store_url: str | None,
                          log_name: str | None, as_json: bool) -> int:
    """`tune difficult fix`: a difficult case marked fixed in a later run."""
    state = decide_in(folder, FixDifficult(case, run, note), chosen(store_url, log_name))
    entry = state.difficult_entry(case)
    assert entry is not None
    return emit(as_json, [f"{case} is fixed (in {entry.fixed})"], {"case": case, "fixed": entry.fixed})


def change_command(run: str, file: str, summary: str, lines: int | None, folder: Path, store_url: str | None,
                   log_name: str | None, as_json: bool) -> int:
    """`tune change`: what a run's fix changed."""
    decide_in(folder, RecordChange(run, file, summary, lines), chosen(store_url, log_name))
    counted = f" ({lines} {'line' if abs(lines) == 1 else 'lines'})" if lines is not None else ""
    return emit(as_json, [f"{run}: {file}{counted}: {summary}"],
                {"run": run, "file": file, "summary": summary, "lines": lines})


def memory_keep_command(batch: int, nodes: str, folder: Path, store_url: str | None, log_name: str | None,
                        as_json: bool) -> int:
    """`tune memory keep`: a batch's memory made the last good memory."""
    state = decide_in(folder, KeepMemory(batch, int(nodes)), chosen(store_url, log_name))
    kept = state.last_good_memory
    assert kept is not None
    return emit(as_json, [f"last good memory: batch {kept.batch}, {kept.nodes} nodes"],
                {"batch": kept.batch, "nodes": kept.nodes})


def usage_command(run: str, model: str, calls: str, input_tokens: str, output_tokens: str, folder: Path,
                  store_url: str | None, log_name: str | None, as_json: bool) -> int:
    """`tune usage`: a run's model usage, running totals for one model."""
    figures = (int(calls), int(input_tokens), int(output_tokens))
    decide_in(folder, RecordUsage(run, model, *figures), chosen(store_url, log_name))
    return emit(as_json, [f"{run}: {model} {figures[0]} calls, {figures[1]} input + {figures[2]} output tokens"],
                {"run": run, "model": model, "calls": figures[0], "input_tokens": figures[1],
                 "output_tokens": figures[2]})


def import_command(source: Path, store_url: str | None, log_name: str | None, as_json: bool) -> int:
    """`tune import`: the log a zen-finetune folder's history implies, written into FOLDER/events.jsonl (or the
    store)."""
    from batchlog.projections.tune.zen_import import import_events  # only this command needs it

    log = tune_log(source, chosen(store_url, log_name))
    try:
        command = ImportFolder(str(source), shown(log), import_events(read_zen_folder(source)))
    except Refused as unreadable:  # the decision says whether that matters: not for a log that holds events
        command = ImportFolder(str(source), shown(log), unreadable=unreadable)
    appended, _ = decided(log, TUNE, command)
    state = appended.state
    return emit(as_json, [f"imported {source}: {len(command.events)} events, {len(state.batches)} batches, "
                          f"{len(state.runs)} runs, {len(state.difficult)} difficult -> {shown(log)}"],
                {"events": len(command.events), "batches": len(state.batches), "runs": len(state.runs),
                 "log": shown(log)})
