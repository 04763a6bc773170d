"""Decisions about what the tuning records beside its runs: difficult list, changes, memory, usage. Pure.

Same contract as loop.py's `decide`: no event when the command already took effect,
`Refused` when it contradicts what was recorded.
"""

from __future__ import annotations

import attrs

from batchlog.projections.fields import as_tuple
from batchlog.projections.errors import BadInput, Refused
from batchlog.projections.tune.events import ChangeRecorded, DifficultAdded, DifficultFixed, MemoryKept, UsageRecorded
from batchlog.projections.tune.stage import Half, half
from batchlog.projections.tune.decide.refusals import check_count, check_text, require_case, require_run
from batchlog.projections.tune.printed import tune
from batchlog.projections.tune.batch_mjs.rules import SEVERITY
from batchlog.projections.tune.state import Difficult, TuneState
from batchlog.engine.value import frozen


@frozen
class AddDifficult:
    case: str
    reasons: tuple[str, ...] = attrs.field(converter=as_tuple)
    run: str
    note: str | None = None


@frozen
class FixDifficult:
    case: str
    run: str
    note: str | None = None


@frozen
class RecordChange:
    run: str
    file: str
    summary: str
    lines: int | None = None


@frozen
class KeepMemory:
    batch: int
    nodes: int


@frozen
class RecordUsage:
    run: str
    model: str
    calls: int
    input_tokens: int
    output_tokens: int


def add_difficult(state: TuneState, command: AddDifficult) -> list:
    require_case(state, command.case)
    run = require_run(state, command.run)
    reasons = tuple(dict.fromkeys(command.reasons))
    if not reasons:
        raise BadInput(f"give at least one --reason ({', '.join(SEVERITY)})")
    unknown = [reason for reason in reasons if reason not in SEVERITY]
    if unknown:
        raise BadInput(f"reason {unknown[0]!r} is not one of {', '.join(SEVERITY)}", reason=unknown[0])
    if command.case not in run.cases:
        raise BadInput(f"case {command.case} was not in run {run.name}: name the run it went wrong in",
                       case=command.case, run=run.name)
    added = DifficultAdded(command.case, reasons, run.name, command.note)
    entry = state.difficult_entry(command.case)
    if entry is None:
        return [added]
    first_note = entry.notes[0].text if entry.notes and entry.notes[0].run == entry.added else None
    if (entry.reasons, entry.added, first_note) == (reasons, run.name, command.note):
        return []
    if entry.fixed is None:
        raise Refused(f"case {command.case} is already on the difficult list (added in {entry.added} as "
                      f"{', '.join(entry.reasons)}) and not fixed: a case has one open entry; add what you learned "
                      "with `difficult fix ... --note` when it is fixed", case=command.case)
    return [_added_again(state, entry, added)]


def _added_again(state: TuneState, entry: Difficult, added: DifficultAdded) -> DifficultAdded:
    """A case fixed earlier broke again: a new entry, whose retries count from its own run (batch.mjs's data:
    the list holds entries, the old one stays fixed). It can break again only in a run after the fixing one."""
    order = [run.name for run in state.runs]
    # An imported difficult.json may name a fixing run the folder no longer holds: nothing to compare then.
    if entry.fixed in order and order.index(added.run) <= order.index(entry.fixed):
        raise Refused(f"case {added.case} was fixed in {entry.fixed}: it can go on the difficult list again only "
                      f"for a later run, not {added.run}", case=added.case, run=added.run)
    return added


def fix_difficult(state: TuneState, command: FixDifficult) -> list:
    # the entry a fix goes to, as the fold applies it: the case's oldest one not fixed, else its latest
    entry = next((e for e in state.difficult_list if e.case == command.case and e.fixed is None), None) \
        or state.difficult_entry(command.case)
    if entry is None:
        listed = tune("difficult")
        raise BadInput(f"case {command.case!r} is not on the difficult list: `{listed}` lists it",
                       case=command.case, commands=[listed])
    run = require_run(state, command.run)
    if entry.fixed is not None:
        if entry.fixed == run.name and _fix_note(entry, run.name) == command.note:
            return []
        raise Refused(f"case {command.case} was already marked fixed in {entry.fixed}", case=command.case,
                      run=entry.fixed)
    order = [r.name for r in state.runs]
    if entry.added in order and order.index(run.name) <= order.index(entry.added):
        raise Refused(f"case {command.case} was added in {entry.added}: it can only be fixed in a later run, "
                      f"not {run.name}", case=command.case, run=run.name)
    if command.case not in run.cases:
        raise BadInput(f"case {command.case} was not in run {run.name}: name the run that got it right",
                       case=command.case, run=run.name)
    if run.verdict == "VOID":
        raise Refused(f"run {run.name} is VOID (it does not count): name a run that counts and got "
                      f"{command.case} right", case=command.case, run=run.name)
    if command.case in run.wrong:
        raise Refused(f"run {run.name} got {command.case} wrong: it cannot be fixed in that run; name a run "
                      "that got it right", case=command.case, run=run.name)
    return [DifficultFixed(command.case, run.name, command.note)]


def _fix_note(entry, run: str) -> str | None:
    return entry.notes[-1].text if entry.notes and entry.notes[-1].run == run and entry.fixed == run else None


def record_change(state: TuneState, command: RecordChange) -> list:
    run = require_run(state, command.run)
    check_text("--file", command.file)
    check_text("--summary", command.summary)
    check_count("--lines", command.lines)
    for change in run.changes:
        if change.file == command.file:
            if (change.summary, change.lines) == (command.summary, command.lines):
                return []
            raise Refused(f"run {run.name} already records a change to {command.file} ({change.summary!r}): one "
                          "entry per file and run; describe the whole change in it", run=run.name,
                          file=command.file)
    return [ChangeRecorded(run.name, command.file, command.summary, command.lines)]


def keep_memory(state: TuneState, command: KeepMemory) -> list:
    batch = state.batch_numbered(command.batch)
    if batch is None:
        raise BadInput(f"batch {command.batch} does not exist ({len(state.batches)} built)", batch=command.batch)
    check_count("--nodes", command.nodes)
    if half(state.runs_of(batch.number, "mem")) is not Half.PASSED:
        raise Refused(f"the with-memory half of batch {batch.number} has not passed: only a complete memory "
                      "replaces the last good one; pass a with-memory run first", batch=batch.number)
    for kept in state.memories:
        if kept.batch == batch.number:
            if kept.nodes == command.nodes:
                return []
            raise Refused(f"batch {batch.number}'s memory was already kept with {kept.nodes} nodes",
                          batch=batch.number, nodes=kept.nodes)
    last = state.last_good_memory
    if last is not None and last.batch > batch.number:
        raise Refused(f"the last good memory is already batch {last.batch}'s, which is later than batch "
                      f"{batch.number}'s", batch=batch.number)
    return [MemoryKept(batch.number, command.nodes)]


def record_usage(state: TuneState, command: RecordUsage) -> list:
    """Usage reports are running totals per run and model: the same totals again add nothing."""
    run = require_run(state, command.run)
    check_text("--model", command.model)
    figures = {"--calls": command.calls, "--input-tokens": command.input_tokens,
               "--output-tokens": command.output_tokens}
    for option, value in figures.items():
        check_count(option, value)
    known = next((usage for usage in run.usage if usage.model == command.model), None)
    if known is None:
        return [UsageRecorded(run.name, command.model, command.calls, command.input_tokens, command.output_tokens)]
    before = {"--calls": known.calls, "--input-tokens": known.input_tokens, "--output-tokens": known.output_tokens}
    if before == figures:
        return []
    lower = [option for option in figures if figures[option] < before[option]]
    if lower:
        option = lower[0]
        raise Refused(f"{option} {figures[option]} is below the {before[option]} already recorded for run "
                      f"{run.name}, model {command.model}: usage reports are running totals, which only grow",
                      run=run.name, model=command.model)
    return [UsageRecorded(run.name, command.model, command.calls, command.input_tokens, command.output_tokens)]
