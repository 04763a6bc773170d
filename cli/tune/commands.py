"""`batchlog tune ...`: the tuning loop (zen-finetune) on an event log at DIR/events.jsonl (or in --store).

Each command parses, makes one decision (the tuning's `decide`, under the log's lock: cli/tune/log.py) or asks
one view, and renders. Files are read and written in cli/tune/files.py; the read-only views status, next and the
next-batch preview are in cli/tune/views.py (the fast path of cli/fast_views.py calls them without typer); the
reports (readme, usage-report, audit) in cli/tune/reports.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import attrs
import typer

from batchlog.cli.help import App
from batchlog.cli.options import At, Dir, Json, LogName, Store as StoreOption, folder_callback, whole
from batchlog.cli.store import Store, chosen, shown
from batchlog.cli.tune import reports
from batchlog.cli.tune.files import (
    check_batch_files,
    path_from,
    read_dataset_and_name,
    read_zen_folder,
    run_cases_path,
    write_batch_files,
    write_text,
)
from batchlog.cli.loop_log import decided
from batchlog.cli.tune.log import DEFAULT_DIR, decide_in, read_tuning, tune_log
from batchlog.cli.tune.views import LARGEST, emit, next_batch_view, next_view, show_batch, status_view
from batchlog.projections.errors import BadInput, Refused
from batchlog.projections.tune.batch_mjs import rules
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
from batchlog.projections.tune.batch_mjs.inputs import cases_plan, plan_of
from batchlog.projections.tune.decider import TUNE
from batchlog.projections.tune.views.status import difficult_rows

if TYPE_CHECKING:
    from batchlog.cli.loops import Loop

app = App(no_args_is_help=True, help="The tuning loop: batches, runs, grading, difficult list, memory, the next step.")
run_app = App(no_args_is_help=True)
difficult_app = App(invoke_without_command=True)
memory_app = App(no_args_is_help=True)
app.add_typer(run_app, name="run", help="start a run of a batch (or the final check), grade a run")
app.add_typer(difficult_app, name="difficult", help="the difficult list: list, add, fix.\n\nExample: batchlog tune difficult --json")
app.add_typer(memory_app, name="memory", help="the last good memory")


def add_to(root: typer.Typer, loop: Loop) -> None:
    """Put the `tune` group on the root app (cli/loops.py), with the reports (cli/tune/reports.py) after this
    module's commands."""
    reports.register(app)
    root.add_typer(app, name=loop.name, help=loop.help)


PATH_OPTIONS = ("--dataset", "-o")  # a file that exists under a placeholder's name is what the user meant


def _not_a_placeholder(option: str):
    """A typer callback: a placeholder of a printed template (VERDICT, DATASET, FILE, PATH, SUMMARY, MODEL) pasted
    unchanged is a usage error (exit 2) that names the choices, before anything is read or recorded."""
    from batchlog.projections.tune.views.status import placeholder_refusal

    def check(value: object) -> object:
        refusal = placeholder_refusal(option, str(value)) if value is not None else None
        if refusal is not None and not (option in PATH_OPTIONS and Path(str(value)).exists()):
            raise typer.BadParameter(refusal, param_hint=option)
        return value

    return check


@contextmanager
def _written_after(recorded: str) -> Iterator[None]:
    """A file that cannot be written after its event was appended: say so, and that a repeat writes it."""
    try:
        yield
    except BadInput as error:
        raise BadInput(f"{recorded}, but {error.message}: fix that and run the same command again to write its "
                       "files (nothing more is recorded)", **error.fields) from None


def _a_count(option: str):
    """A typer callback for a count that a printed template holds as a placeholder (NODES, CALLS, INPUT_TOKENS,
    OUTPUT_TOKENS): the placeholder pasted unchanged is a usage error naming what to give, as is anything but a
    whole number."""
    from batchlog.projections.tune.views.status import placeholder_refusal

    def check(value: str) -> str:
        refusal = placeholder_refusal(option, value)
        if refusal is not None:
            raise typer.BadParameter(refusal, param_hint=option)
        digits = value.removeprefix("-")  # a negative count is the decision's to refuse, as for every count
        if not (digits.isascii() and digits.isdigit()) or int(value) > LARGEST:
            raise typer.BadParameter(f"{value!r} is not a whole number (at most {LARGEST})", param_hint=option)
        return value

    return check


def _verdict(value: str) -> str:
    """A typer callback for --verdict: the placeholder VERDICT pasted unchanged is a usage error naming the choices;
    a verdict is taken in any case (`passed` is PASSED, the seed's word)."""
    from batchlog.projections.tune.views.status import placeholder_refusal

    refusal = placeholder_refusal("--verdict", value)
    if refusal is not None:
        raise typer.BadParameter(refusal, param_hint="--verdict")
    return value.upper()


# What grading and regrading a run share: the verdict, the wrong cases and the figures.
Verdict = Annotated[str, typer.Option("--verdict", metavar="VERDICT", callback=_verdict,
                                      help="PASSED, CORRECT, WRONG or VOID (any case)")]
Wrong = Annotated[list[str] | None, typer.Option("--wrong", metavar="ID",
                                                 help="a case it got wrong (repeat for each)")]
LlmCalls = Annotated[int | None, whole("--llm-calls", "the model calls the run made", largest=LARGEST)]
Tokens = Annotated[int | None, whole("--tokens", "the tokens the run used", largest=LARGEST)]
SavedTwice = Annotated[int | None, whole("--saved-twice", "memories it saved that it already had",
                                         largest=LARGEST)]


@app.command("init")
def init_command(
    dataset: Annotated[Path, typer.Option("--dataset", metavar="FILE", help="{\"cases\": [...]} (or \"samples\")",
                                          callback=_not_a_placeholder("--dataset"))],
    limit: Annotated[int | None, whole("--limit", "use the first N of the selection", largest=LARGEST)] = None,
    min_batch: Annotated[int, whole("--min-batch", "new cases in batch 1, the smoke test", largest=LARGEST)] = 3,
    max_batch: Annotated[int, whole("--max-batch", "the most new cases a batch grows to (at least --min-batch)",
                                    largest=LARGEST)] = 10,
    recheck: Annotated[int, whole("--recheck", "earlier cases re-run in each batch", largest=LARGEST)] = 3,
    seed: Annotated[int, whole("--seed", "makes the choice of rechecks repeatable", largest=LARGEST)] = 1,
    max_retries: Annotated[int, whole("--max-retries", "batches a difficult case gets before it is stuck",
                                      largest=LARGEST)] = 3,
    concurrency: Annotated[int | None, whole("--concurrency", "cases run at the same time (default: "
                                             "min(max-batch + recheck, 16))", largest=LARGEST)] = None,
    folder: Dir = DEFAULT_DIR,
    store_url: StoreOption = None,
    log_name: LogName = None,
    as_json: Json = False,
) -> int:
    """Start a tuning: read the dataset, record the settings and the selection.

    Example: batchlog tune init --dataset dataset.json --limit 64
    """
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


@app.command("status")
def status_command(
    size: Annotated[int | None, whole("-m", "the next size as next-batch -m SIZE would set it", metavar="SIZE",
                                      least=1, largest=LARGEST)] = None,
    folder: Dir = DEFAULT_DIR,
    store_url: StoreOption = None,
    log_name: LogName = None,
    at: At = None,
    as_json: Json = False,
) -> int:
    """The tuning's progress: selection, used, batches, next size and why, difficult, ahead.

    Example: batchlog tune status --at 12
    """
    return status_view(folder, at, as_json, size, chosen(store_url, log_name))


@app.command("next-batch")
def next_batch_command(
    size: Annotated[int | None, whole("-m", "new cases, over the growth rule", metavar="SIZE", least=1,
                                      largest=LARGEST)] = None,
    recheck: Annotated[int | None, whole("-r", "recheck cases, over the settings", metavar="COUNT", least=0,
                                         largest=LARGEST)] = None,
    seed: Annotated[int | None, whole("--seed", "seed of the rechecks, over the settings", least=0,
                                      largest=LARGEST)] = None,
    out: Annotated[str | None, typer.Option("-o", metavar="FILE", help="record the batch; write FILE and plan.json",
                                            callback=_not_a_placeholder("-o"))] = None,
    folder: Dir = DEFAULT_DIR,
    store_url: StoreOption = None,
    log_name: LogName = None,
    at: At = None,
    as_json: Json = False,
) -> int:
    """The next batch by the tuning's rules: a preview on stdout, or with -o recorded and written.

    Example: batchlog tune next-batch -o finetune/runs/batch01-nomem-run1/cases.json
    """
    if out is not None and at is not None:
        raise typer.BadParameter("--at shows a past state: it cannot record a batch; drop -o or --at",
                                 param_hint="--at")
    store = chosen(store_url, log_name)
    if out is None:
        return next_batch_view(folder, at, as_json, size, recheck, seed, store)
    check_batch_files(out, store.file(folder))
    state = decide_in(folder, BuildBatch(size, recheck, seed), store)
    assert state.last_batch is not None
    plan = plan_of(state, state.last_batch)
    # Recorded first, then written: the files are a view of the batch, and the same command rewrites them.
    with _written_after(f"batch {plan.number} is recorded"):
        write_batch_files(out, rules.cases_json(plan), rules.plan_json(plan))
    return show_batch(plan, out, as_json, bool(state.difficult))


@run_app.command("start")
def run_start_command(
    batch: Annotated[int | None, whole("--batch", "the batch to run", largest=LARGEST)] = None,
    kind: Annotated[str | None, typer.Option("--kind", metavar="nomem|mem", help="without or with memory")] = None,
    final: Annotated[bool, typer.Option("--final", help="the final check: the whole selection at once")] = False,
    folder: Dir = DEFAULT_DIR,
    store_url: StoreOption = None,
    log_name: LogName = None,
    as_json: Json = False,
) -> int:
    """Create the next run of a half (or of the final check), write its runs/<name>/cases.json, print its name.

    Example: batchlog tune run start --batch 3 --kind mem
    """
    if final == (batch is not None or kind is not None) or (not final and (batch is None or kind is None)):
        raise typer.BadParameter("give --batch N --kind nomem|mem, or --final alone")
    command = StartFinal() if final else StartRun(batch or 0, kind or "")
    state = decide_in(folder, command, chosen(store_url, log_name))
    run = state.last_run
    assert run is not None
    path = run_cases_path(folder, run.name)
    with _written_after(f"run {run.name} is recorded"):
        write_text(path, rules.cases_json(cases_plan(state, run.batch, run.cases)))
    return emit(as_json, [run.name], {"run": run.name, "cases": str(path), "count": len(run.cases)})


@run_app.command("grade")
def run_grade_command(
    run: Annotated[str, typer.Argument(metavar="RUN", help="the run to grade, e.g. batch03-nomem-run1")],
    verdict: Verdict,
    wrong: Wrong = None,
    llm_calls: LlmCalls = None,
    tokens: Tokens = None,
    saved_twice: SavedTwice = None,
    findings: Annotated[str | None, typer.Option("--findings", metavar="FILE", help="the run's findings.md")] = None,
    note: Annotated[str | None, typer.Option("--note", metavar="TEXT", help="a note kept with the grade")] = None,
    folder: Dir = DEFAULT_DIR,
    store_url: StoreOption = None,
    log_name: LogName = None,
    as_json: Json = False,
) -> int:
    """Grade a run once: its verdict, the cases it got wrong, its figures.

    Example: batchlog tune run grade batch03-nomem-run1 --verdict WRONG --wrong planning-organize-day
    """
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


@run_app.command("regrade")
def run_regrade_command(
    run: Annotated[str, typer.Argument(metavar="RUN", help="a graded run, e.g. batch03-nomem-run1")],
    verdict: Verdict,
    reason: Annotated[str, typer.Option("--reason", metavar="TEXT", help="why the first grade was wrong")],
    wrong: Wrong = None,
    llm_calls: LlmCalls = None,
    tokens: Tokens = None,
    saved_twice: SavedTwice = None,
    folder: Dir = DEFAULT_DIR,
    store_url: StoreOption = None,
    log_name: LogName = None,
    as_json: Json = False,
) -> int:
    """Correct a grade given by mistake, while nothing was decided on it (the original stays in the log).

    Example: batchlog tune run regrade batch03-nomem-run1 --verdict WRONG --wrong planning-organize-day --reason "missed the second mail"
    """
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


@difficult_app.callback()
def difficult_command(ctx: typer.Context, folder: Dir = DEFAULT_DIR, store_url: StoreOption = None,
                      log_name: LogName = None, at: At = None, as_json: Json = False) -> int:
    """The difficult list: case, why, status (open / fixed / stuck), retries, notes.

    Example: batchlog tune difficult --json
    """
    if ctx.invoked_subcommand is not None:
        return 0
    return _list_difficult(folder, chosen(store_url, log_name), at, as_json)


@difficult_app.command("list")
def difficult_list_command(folder: Dir = DEFAULT_DIR, store_url: StoreOption = None, log_name: LogName = None,
                           at: At = None, as_json: Json = False) -> int:
    """The difficult list (same as `batchlog tune difficult`).

    Example: batchlog tune difficult list --at 40
    """
    return _list_difficult(folder, chosen(store_url, log_name), at, as_json)


def _list_difficult(folder: Path, store: Store, at: int | None, as_json: bool) -> int:
    read = read_tuning(folder, at, usage=False, store=store)
    rows = difficult_rows(read.state)
    lines = [line for row in rows for line in (
        f"{row.case}  {','.join(row.reasons)}  {row.status}  retries {row.retries}  added {row.added}"
        + (f"  fixed {row.fixed}" if row.fixed else ""), *(f"    {note}" for note in row.notes))] or ["no difficult case"]
    return emit(as_json, lines, {"difficult": [attrs.asdict(row) for row in rows], **read.fields()})


@difficult_app.command("add")
def difficult_add_command(
    case: Annotated[str, typer.Argument(metavar="CASE", help="the case's id")],
    reasons: Annotated[list[str], typer.Option("--reason", metavar="REASON",
                                               help="wrong, regressed, flaky, memory or costly (repeat for each)")],
    run: Annotated[str, typer.Option("--run", metavar="RUN", help="the run it went wrong in")],
    note: Annotated[str | None, typer.Option("--note", metavar="TEXT", help="what goes wrong, what was tried")] = None,
    folder: Dir = DEFAULT_DIR,
    store_url: StoreOption = None,
    log_name: LogName = None,
    as_json: Json = False,
) -> int:
    """Put a case on the difficult list.

    Example: batchlog tune difficult add planning-organize-day --reason wrong --run batch02-nomem-run1
    """
    state = decide_in(folder, AddDifficult(case, tuple(reasons), run, note), chosen(store_url, log_name))
    entry = state.difficult_entry(case)
    assert entry is not None
    return emit(as_json, [f"{case} is on the difficult list ({', '.join(entry.reasons)}; added in {entry.added})"],
                 {"case": case, "reasons": list(entry.reasons), "added": entry.added})


@difficult_app.command("fix")
def difficult_fix_command(
    case: Annotated[str, typer.Argument(metavar="CASE", help="the case's id")],
    run: Annotated[str, typer.Option("--run", metavar="RUN", help="the run that got it right")],
    note: Annotated[str | None, typer.Option("--note", metavar="TEXT", help="what fixed it")] = None,
    folder: Dir = DEFAULT_DIR,
    store_url: StoreOption = None,
    log_name: LogName = None,
    as_json: Json = False,
) -> int:
    """Mark a difficult case fixed in a later run.

    Example: batchlog tune difficult fix billing-refund-late --run batch03-nomem-run2 --note "named the file"
    """
    state = decide_in(folder, FixDifficult(case, run, note), chosen(store_url, log_name))
    entry = state.difficult_entry(case)
    assert entry is not None
    return emit(as_json, [f"{case} is fixed (in {entry.fixed})"], {"case": case, "fixed": entry.fixed})


@app.command("change")
def change_command(
    run: Annotated[str, typer.Argument(metavar="RUN", help="the run whose fix it was")],
    file: Annotated[str, typer.Option("--file", metavar="PATH", help="the file the fix changed",
                                      callback=_not_a_placeholder("--file"))],
    summary: Annotated[str, typer.Option("--summary", metavar="TEXT", help="what changed, in words",
                                         callback=_not_a_placeholder("--summary"))],
    lines: Annotated[int | None, whole("--lines", "lines changed", largest=LARGEST)] = None,
    folder: Dir = DEFAULT_DIR,
    store_url: StoreOption = None,
    log_name: LogName = None,
    as_json: Json = False,
) -> int:
    """Record what a run's fix changed.

    Example: batchlog tune change batch01-nomem-run1 --file agents/prompts/planner.md --summary "rule 1" --lines 6
    """
    decide_in(folder, RecordChange(run, file, summary, lines), chosen(store_url, log_name))
    counted = f" ({lines} {'line' if abs(lines) == 1 else 'lines'})" if lines is not None else ""
    return emit(as_json, [f"{run}: {file}{counted}: {summary}"],
                 {"run": run, "file": file, "summary": summary, "lines": lines})


@memory_app.command("keep")
def memory_keep_command(
    batch: Annotated[int, whole("--batch", "the batch whose with-memory half passed", largest=LARGEST)],
    nodes: Annotated[str, typer.Option("--nodes", metavar="K", help="nodes in the batch's memory (a whole number)",
                                       callback=_a_count("--nodes"))],
    folder: Dir = DEFAULT_DIR,
    store_url: StoreOption = None,
    log_name: LogName = None,
    as_json: Json = False,
) -> int:
    """Make a batch's memory the last good memory (after its with-memory half passed).

    Example: batchlog tune memory keep --batch 2 --nodes 41
    """
    state = decide_in(folder, KeepMemory(batch, int(nodes)), chosen(store_url, log_name))
    kept = state.last_good_memory
    assert kept is not None
    return emit(as_json, [f"last good memory: batch {kept.batch}, {kept.nodes} nodes"],
                 {"batch": kept.batch, "nodes": kept.nodes})


@app.command("usage")
def usage_command(
    run: Annotated[str, typer.Argument(metavar="RUN", help="the run the usage is of (any run, at any time)")],
    model: Annotated[str, typer.Option("--model", metavar="MODEL", callback=_not_a_placeholder("--model"),
                                       help="the model's name")],
    calls: Annotated[str, typer.Option("--calls", metavar="N", callback=_a_count("--calls"),
                                       help="the run's calls to that model so far")],
    input_tokens: Annotated[str, typer.Option("--input-tokens", metavar="N", callback=_a_count("--input-tokens"),
                                              help="its input tokens so far")],
    output_tokens: Annotated[str, typer.Option("--output-tokens", metavar="N", callback=_a_count("--output-tokens"),
                                               help="its output tokens so far")],
    folder: Dir = DEFAULT_DIR,
    store_url: StoreOption = None,
    log_name: LogName = None,
    as_json: Json = False,
) -> int:
    """Record a run's model usage: running totals for one model (a later report replaces an earlier one).

    Example: batchlog tune usage batch01-nomem-run1 --model gpt-5 --calls 96 --input-tokens 410000 --output-tokens 21000
    """
    figures = (int(calls), int(input_tokens), int(output_tokens))
    decide_in(folder, RecordUsage(run, model, *figures), chosen(store_url, log_name))
    return emit(as_json, [f"{run}: {model} {figures[0]} calls, {figures[1]} input + {figures[2]} output tokens"],
                 {"run": run, "model": model, "calls": figures[0], "input_tokens": figures[1],
                  "output_tokens": figures[2]})


@app.command("next")
def next_command(folder: Dir = DEFAULT_DIR, store_url: StoreOption = None, log_name: LogName = None,
                 at: At = None, as_json: Json = False) -> int:
    """The one next step of the loop, in words, and the exact command to run.

    Example: batchlog tune next --dir finetune
    """
    return next_view(folder, at, as_json, chosen(store_url, log_name))


@app.command("watch")
def watch_command(folder: Dir = DEFAULT_DIR, store_url: StoreOption = None, log_name: LogName = None,
                  as_json: Annotated[bool, typer.Option("--json", help="JSON Lines on stdout: status --json's fields "
                                                        "and the event, one line per change")] = False) -> int:
    """Watch the tuning live: progress, difficult list, runs, usage, the next step, redrawn as the log grows.

    Without a terminal (or with --json) one JSON object per change. Ends by itself once the tuning is closed
    (exit 0); Ctrl-C ends it at once (exit 130).

    Example: batchlog tune watch --dir finetune
    """
    from batchlog.cli.tune.watch import watch_view  # here: no other command imports the watch (nor rich)

    return watch_view(folder, as_json, chosen(store_url, log_name))


@app.command("import")
def import_command(
    source: Annotated[Path, typer.Argument(metavar="FOLDER", callback=folder_callback("the folder's path"),
                                           help="a zen-finetune folder (holds selection.json)")],
    store_url: StoreOption = None,
    log_name: LogName = None,
    as_json: Json = False,
) -> int:
    """Write the log a zen-finetune folder's history implies into FOLDER/events.jsonl (or into --store).

    Example: batchlog tune import finetune && batchlog tune next-batch --dir finetune
    """
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
