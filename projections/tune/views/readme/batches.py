"""The README's `batches` table and `log` (newest first), each state -> markdown. Pure: no I/O.

`files` is the set of files that exist under the tuning's folder (relative paths such as
`runs/batch01-nomem-run1/changes.md`): a run's findings.md / changes.md is linked only when it is there.
"""

from __future__ import annotations

from collections.abc import Iterable

from batchlog.projections.tune.stage import Half, batch_halves, batch_passed
from batchlog.projections.tune.views.readme.facts import (
    HALF_WORDS,
    MINUS,
    code,
    codes,
    first_last,
    link_target,
    passing_run,
    percent,
    plain,
    plural,
    run_calls,
    run_tokens,
    token_change,
)
from batchlog.projections.tune.state import Batch, Correction, Difficult, Run, TuneState

NO_FILES: frozenset[str] = frozenset()


def batches(state: TuneState, files: frozenset[str] = NO_FILES, base: str = "") -> str:
    """One row per built batch: size, cases, runs, status, cases right, calls, tokens, saved twice, changes."""
    if state.settings is None:
        return "No tuning has been started in this folder yet."
    if not state.batches:
        return "No batch has been built yet."
    lines = [
        "| batch | size | new + recheck | runs (no mem / mem) | status | cases right | llm calls without "
        "| llm calls with | tokens with vs without | saved twice | what changed |",
        "| --- | ---: | --- | ---: | --- | --- | --- | --- | --- | ---: | --- |",
    ]
    lines += [_row(state, batch, files, base) for batch in state.batches]
    lines += [
        "",
        "\"runs\" counts the runs that count toward a half's limit (a VOID run does not); \"cases right\" is new + "
        "recheck in the batch's last graded run; \"llm calls without\" the no-memory "
        "runs, first → last; \"tokens with vs without\" the with-memory run that passed against the no-memory "
        "one that passed; \"saved twice\" the memories a with-memory run saved again (the target is 0).",
    ]
    return "\n".join(lines)


def _row(state: TuneState, batch: Batch, files: frozenset[str], base: str) -> str:
    nomem_runs, mem_runs = state.runs_of(batch.number, "nomem"), state.runs_of(batch.number, "mem")
    ids = codes(batch.new) + (f" + {codes(batch.recheck)}" if batch.recheck else "")
    counted = [sum(1 for run in runs if run.counts) or "-" for runs in (nomem_runs, mem_runs)]
    void = sum(1 for run in (*nomem_runs, *mem_runs) if not run.counts)
    runs = f"{counted[0]} / {counted[1]}" + (f" (+{void} VOID)" if void else "")
    without = [calls for run in nomem_runs if run.counts and (calls := run_calls(run)) is not None]
    with_run = passing_run(mem_runs)
    with_calls = run_calls(with_run) if with_run else None
    saved = [run.saved_twice for run in mem_runs if run.counts and run.saved_twice is not None]
    cells = [
        str(batch.number), str(batch.size), ids, runs, _status(state, batch), _right(batch, state),
        first_last(without), "-" if with_calls is None else str(with_calls),
        percent(token_change(state, batch.number)), first_last(saved), _changed(state, batch, files, base),
    ]
    return "| " + " | ".join(cells) + " |"


def _status(state: TuneState, batch: Batch) -> str:
    nomem, mem = batch_halves(state, batch.number)
    if mem is Half.PASSED:
        return "✔ passed"
    if Half.GIVEN_UP in (nomem, mem):
        return f"✘ given up ({'no memory' if nomem is Half.GIVEN_UP else 'with memory'})"
    kind = "nomem" if nomem is not Half.PASSED else "mem"
    standing = nomem if kind == "nomem" else mem
    words = "no memory" if kind == "nomem" else "with memory"
    if standing is Half.RUNNING:
        return f"▶ grading ({words})"
    if standing is Half.NOT_STARTED:
        return f"▶ {words} next"
    return f"▶ fixing ({words})"


def _right(batch: Batch, state: TuneState) -> str:
    graded = [run for run in state.runs_of_batch(batch.number) if run.graded and run.counts]
    if not graded:
        return "-"
    wrong = set(graded[-1].wrong)
    new_right = sum(1 for case in batch.new if case not in wrong)
    recheck_right = sum(1 for case in batch.recheck if case not in wrong)
    return f"{new_right}/{len(batch.new)} + {recheck_right}/{len(batch.recheck)}"


def _changed(state: TuneState, batch: Batch, files: frozenset[str], base: str) -> str:
    changed = [run for run in state.runs_of_batch(batch.number) if run.changes]
    if not changed:
        return "-"
    count = sum(len(run.changes) for run in changed)
    text = plural(count, "change")
    linked = [run for run in changed if _changes_file(run) in files]
    if linked:
        return f"[{text}]({link_target(base + _changes_file(linked[0]))})"
    return text


def _changes_file(run: Run) -> str:
    return f"runs/{run.name}/changes.md"


def _findings_file(run: Run) -> str:
    return f"runs/{run.name}/findings.md"


def log(state: TuneState, files: frozenset[str] = NO_FILES, base: str = "") -> str:
    """Newest first: one entry per graded run (verdict, what changed, figures, links), and a line when a
    batch passes."""
    if state.settings is None:
        return "No tuning has been started in this folder yet."
    graded = sorted((run for run in state.runs if run.graded), key=lambda run: run.graded_seq or 0, reverse=True)
    if not graded:
        return "No run has been graded yet."
    corrections: dict[str, list[Correction]] = {}  # by run: one pass over each list, not one per run
    withdrawn: dict[str, list[Difficult]] = {}
    for correction in state.corrections:
        corrections.setdefault(correction.run, []).append(correction)
    for entry in state.difficult:
        if entry.withdrawn is not None:
            withdrawn.setdefault(entry.added, []).append(entry)
    return "\n\n".join(_entry(state, run, files, base, corrections.get(run.name, ()), withdrawn.get(run.name, ()))
                       for run in graded)


def _entry(state: TuneState, run: Run, files: frozenset[str], base: str, corrections: Iterable[Correction],
           withdrawn: Iterable[Difficult]) -> str:
    """`corrections`: the run's, in log order; `withdrawn`: the difficult entries added in it since withdrawn."""
    lines = [f"### {run.name} - {run.verdict}", ""]
    lines.append(f"- {_what_ran(state, run)}")
    if run.wrong and run.kind == "final" and run.verdict != "WRONG":
        lines.append(f"- Wrong, stuck (reported, not failed on): {codes(run.wrong)}.")
    elif run.wrong:
        lines.append(f"- Wrong: {codes(run.wrong)}.")
    figures = _figures(state, run)
    if figures:
        lines.append(f"- {figures}")
    if run.note:
        lines.append(f"- Note: {plain(run.note)}")
    for change in run.changes:
        size = f" ({'+' if change.lines >= 0 else MINUS}{abs(change.lines)} {'line' if abs(change.lines) == 1 else 'lines'})" if change.lines is not None else ""
        lines.append(f"- Changed {code(change.file)}{size}: {plain(change.summary)}")
    passed = _passed_line(state, run)
    if passed:
        lines.append(f"- {passed}")
    links = []
    if _findings_file(run) in files:
        links.append(f"[findings]({link_target(base + _findings_file(run))})")
    elif run.findings:
        links.append(f"findings: {code(run.findings)}")
    if _changes_file(run) in files:
        links.append(f"[changes]({link_target(base + _changes_file(run))})")
    if links:
        lines.append("- " + " · ".join(links))
    lines.append(f"- Graded at seq {run.graded_seq}, {run.graded_at}.")
    for correction in corrections:
        lines.append(f"- Regraded from {correction.was} to {correction.verdict} at seq {correction.seq}, "
                     f"{correction.at}: {plain(correction.reason)}")
    for entry in withdrawn:
        lines.append(f"- Withdrew the difficult entry of {code(entry.case)} added in it, at seq "
                     f"{entry.withdrawn_seq}: {plain(entry.withdrawn)}")
    return "\n".join(lines)


def _what_ran(state: TuneState, run: Run) -> str:
    if run.kind == "final":
        return f"The final check: all {plural(len(run.cases), 'case')} at once, with the last good memory."
    return (f"Batch {run.batch}, {HALF_WORDS[run.kind]}, run {run.number}: {plural(len(run.cases), 'case')}"
            f"{'' if run.verdict != 'VOID' else ' (VOID: does not count)'}.")


def _figures(state: TuneState, run: Run) -> str:
    parts = []
    calls, tokens = run_calls(run), run_tokens(run)
    if calls is not None:
        parts.append(f"{calls} llm calls")
    if tokens is not None:
        parts.append(f"{tokens:,} tokens")
    if run.saved_twice is not None:
        parts.append(f"{run.saved_twice} saved twice")
    if run.kind == "mem" and run.verdict == "PASSED":
        change = token_change(state, run.batch)
        if change is not None:
            parts.append(f"tokens {percent(change)} against no memory")
    return (", ".join(parts) + ".") if parts else ""


def _passed_line(state: TuneState, run: Run) -> str:
    if run.verdict != "PASSED":
        return ""
    if run.kind == "final":
        return "The tuning is done."
    if run.kind == "nomem":
        return f"Batch {run.batch} passed without memory; the with-memory half comes next."
    if not batch_passed(state, run.batch):
        return ""
    kept = [memory for memory in state.memories if memory.batch == run.batch]
    memory = (f"; its memory ({plural(kept[-1].nodes, 'node')}) became the last good memory at seq {kept[-1].seq}"
              if kept else "")
    return f"**Batch {run.batch} passed**{memory}."
