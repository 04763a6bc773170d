"""`batchlog tune ...`: the tuning loop (zen-finetune) on an event log at DIR/events.jsonl (or in --store).

The one declaration of each command: its name, parameters, options, checks and help. Each command runs a typer-free
body taking the same parameters (`runs`, cli/options.py): the decisions in cli/tune/actions.py, the views in
cli/tune/views.py, the reports (readme, usage-report, audit) in cli/tune/reports.py, which the fast lane
(cli/lane.py) calls too, through a table generated from these declarations (cli/tune/lane_table.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from batchlog.cli.checks import FOLDER
from batchlog.cli.help import App
from batchlog.cli.options import At, Checked, Dir, Json, LogName, Store as StoreOption, runs, whole
from batchlog.cli.store import chosen
from batchlog.cli.tune import actions, reports, views
from batchlog.cli.tune.checks import BatchOrFinal, Count, NotAPlaceholder, RecordsNow, Verdict as VerdictCheck
from batchlog.cli.tune.log import DEFAULT_DIR
from batchlog.cli.tune.views import LARGEST

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
    """Put the `tune` group on the root app (cli/loops.py), with the reports after this module's other commands."""
    _add_reports(app)
    root.add_typer(app, name=loop.name, help=loop.help)


def _not_a_placeholder(option: str):
    """A typer callback refusing a printed template's placeholder pasted unchanged (cli/tune/checks.py)."""
    return Checked(NotAPlaceholder(option), hint=option).callback


def _a_count(option: str):
    """A typer callback for a count a printed template holds as a placeholder (cli/tune/checks.py)."""
    return Checked(Count(option), hint=option).callback


# What grading and regrading a run share: the verdict, the wrong cases and the figures.
Verdict = Annotated[str, typer.Option("--verdict", metavar="VERDICT",
                                      callback=Checked(VerdictCheck(), hint="--verdict").callback,
                                      help="PASSED, CORRECT, WRONG or VOID (any case)")]
Wrong = Annotated[list[str] | None, typer.Option("--wrong", metavar="ID",
                                                 help="a case it got wrong (repeat for each)")]
LlmCalls = Annotated[int | None, whole("--llm-calls", "the model calls the run made", largest=LARGEST)]
Tokens = Annotated[int | None, whole("--tokens", "the tokens the run used", largest=LARGEST)]
SavedTwice = Annotated[int | None, whole("--saved-twice", "memories it saved that it already had",
                                         largest=LARGEST)]
File = Annotated[Path | None, typer.Option("--file", metavar="PATH", help="the file to write (default: in DIR)")]
Check = Annotated[bool, typer.Option("--check", help="write nothing; exit 1 and print a diff when the file is stale")]


@app.command("init")
@runs(actions.init_command)
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


@app.command("status")
@runs(views.status_command)
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


@app.command("next-batch")
@runs(views.next_batch_command, check=RecordsNow(), hint="--at")
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


@run_app.command("start")
@runs(actions.run_start_command, check=BatchOrFinal())
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


@run_app.command("grade")
@runs(actions.run_grade_command)
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


@run_app.command("regrade")
@runs(actions.run_regrade_command)
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


@difficult_app.callback()
@runs(views.difficult_command)
def difficult_command(ctx: typer.Context, folder: Dir = DEFAULT_DIR, store_url: StoreOption = None,
                      log_name: LogName = None, at: At = None, as_json: Json = False) -> int:
    """The difficult list: case, why, status (open / fixed / stuck), retries, notes.

    Example: batchlog tune difficult --json
    """


@difficult_app.command("list")
@runs(views.difficult_command)
def difficult_list_command(folder: Dir = DEFAULT_DIR, store_url: StoreOption = None, log_name: LogName = None,
                           at: At = None, as_json: Json = False) -> int:
    """The difficult list (same as `batchlog tune difficult`).

    Example: batchlog tune difficult list --at 40
    """


@difficult_app.command("add")
@runs(actions.difficult_add_command)
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


@difficult_app.command("fix")
@runs(actions.difficult_fix_command)
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


@app.command("change")
@runs(actions.change_command)
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


@memory_app.command("keep")
@runs(actions.memory_keep_command)
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


@app.command("usage")
@runs(actions.usage_command)
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


@app.command("next")
@runs(views.next_command)
def next_command(folder: Dir = DEFAULT_DIR, store_url: StoreOption = None, log_name: LogName = None,
                 at: At = None, as_json: Json = False) -> int:
    """The one next step of the loop, in words, and the exact command to run.

    Example: batchlog tune next --dir finetune
    """


@app.command("watch")
def watch_command(folder: Dir = DEFAULT_DIR, store_url: StoreOption = None, log_name: LogName = None,
                  as_json: Annotated[bool, typer.Option("--json", help="JSON Lines on stdout: status --json's fields "
                                                        "and the event, one line per change")] = False) -> int:
    """Watch the tuning live: progress, difficult list, runs, usage, the next step, redrawn as the log grows.

    Without a terminal (or with --json) one JSON object per change. Ends by itself once the tuning is closed
    (exit 0); Ctrl-C ends it at once (exit 130).

    Example: batchlog tune watch --dir finetune
    """
    # Typer's alone (no body for the fast lane): a watch runs for as long as it is watched, its start-up paid once.
    from batchlog.cli.tune.watch import watch_view  # here: no other command imports the watch (nor rich)

    return watch_view(folder, as_json, chosen(store_url, log_name))


@app.command("import")
@runs(actions.import_command)
def import_command(
    source: Annotated[Path, typer.Argument(metavar="FOLDER", callback=Checked(FOLDER).callback,
                                           help="a zen-finetune folder (holds selection.json)")],
    store_url: StoreOption = None,
    log_name: LogName = None,
    as_json: Json = False,
) -> int:
    """Write the log a zen-finetune folder's history implies into FOLDER/events.jsonl (or into --store).

    Example: batchlog tune import finetune && batchlog tune next-batch --dir finetune
    """
# The reports (cli/tune/reports.py), put on the group by `add_to`.


@runs(reports.readme_command)
def readme_command(
    folder: Dir = DEFAULT_DIR,
    store_url: StoreOption = None,
    log_name: LogName = None,
    file: File = None,
    at: At = None,
    check: Check = False,
    stdout: Annotated[bool, typer.Option("--stdout", help="print the README instead of writing it")] = False,
    as_json: Json = False,
) -> int:
    """Rewrite the README's sections (where, plan, settings, map, batches, difficult, log, results, next)
    between their batchlog markers. A README written from zen-finetune's template (its headings, no markers) is taken
    over: each section replaces the text under its heading; a section deleted by hand is put back (--check names
    it); a file with neither gets the whole layout once. --json: one object (file, up_to_date, written, sections by
    name, adopted, restored; text with --stdout).

    Example: batchlog tune readme --dir fixtures/tune-finished --stdout
    """


@runs(reports.usage_report_command)
def usage_report_command(folder: Dir = DEFAULT_DIR, store_url: StoreOption = None, log_name: LogName = None,
                         file: File = None, at: At = None, check: Check = False, as_json: Json = False) -> int:
    """Write USAGE.md: model calls and tokens by model, by batch and by run, with totals. --json: one object
    (file, up_to_date, written, and the figures: total, by_model, by_batch, by_run, runs_without_usage).

    Example: batchlog tune usage-report --dir fixtures/tune-finished --check
    """


@runs(reports.audit_command)
def audit_command(folder: Dir = DEFAULT_DIR, store_url: StoreOption = None, log_name: LogName = None,
                  as_json: Json = False) -> int:
    """Replay the tuning's log and check what a finished tuning promises, with the evidence (seq numbers).
    Exit 0 every check holds, 1 a check fails, 3 the log cannot be trusted.

    Example: batchlog tune audit --dir fixtures/tune-finished
    """


def _add_reports(group: typer.Typer) -> None:
    """Add the report commands to the `tune` group, those it does not hold yet (each build of the app asks again:
    a command added twice would be listed twice)."""
    held = {info.name for info in group.registered_commands}
    for name, command in (("readme", readme_command), ("usage-report", usage_report_command),
                          ("audit", audit_command)):
        if name not in held:
            group.command(name)(command)
