"""The tuning's fold: `evolve(state, event) -> state`, one `match` on the event class, and `evolve_all` for a run
of events.

Applies facts and checks no rules (decide/ does that). Pure.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs
import orjson

from batchlog.engine.envelope import Event
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
from batchlog.projections.tune.versions import PREFIX
from batchlog.projections.tune.state import (
    Batch,
    Case,
    Change,
    Correction,
    Difficult,
    KeptMemory,
    ModelUsage,
    Note,
    Run,
    TuneSettings,
    TuneState,
)


def evolve(state: TuneState, event: Event) -> TuneState:
    """The state after `event`."""
    return state.hand_on(_applied(state, event))


def _applied(state: TuneState, event: Event) -> TuneState:
    match event.data:
        case UsageRecorded():  # first: the most frequent event
            return evolve_all(state, (event,))
        case TuningStarted() as fact:
            return _started(state, fact)
        case BatchBuilt() as fact:
            batch = Batch(
                fact.number, fact.size, fact.why, fact.kind, fact.new, fact.recheck, fact.unused_after,
                fact.open_difficult, fact.size_override, fact.recheck_override, fact.seed_override,
                event.seq, event.at,
            )
            return attrs.evolve(state, batches=(*state.batches, batch))
        case RunStarted() as fact:
            run = Run(fact.run, fact.batch, fact.kind, fact.number, fact.cases, event.seq, event.at)
            return attrs.evolve(state, runs=(*state.runs, run))
        case RunGraded() as fact:
            return _replace_run(state, fact.run, lambda run: attrs.evolve(
                run, verdict=fact.verdict, wrong=fact.wrong, llm_calls=fact.llm_calls, tokens=fact.tokens,
                saved_twice=fact.saved_twice, findings=fact.findings, note=fact.note, graded_seq=event.seq,
                graded_at=event.at, verdict_seq=event.seq,
            ))
        case RunRegraded() as fact:
            return _regraded(state, fact, event)
        case DifficultAdded() as fact:
            notes = (Note(fact.run, fact.note),) if fact.note else ()
            entry = Difficult(fact.case, fact.reasons, fact.run, event.seq, notes=notes)
            return attrs.evolve(state, difficult=(*state.difficult, entry))
        case DifficultFixed() as fact:
            return _replace_difficult(state, fact.case, lambda entry: attrs.evolve(
                entry, fixed=fact.run, fixed_seq=event.seq,
                notes=entry.notes + ((Note(fact.run, fact.note),) if fact.note else ()),
            ))
        case DifficultWithdrawn() as fact:
            return _withdrawn(state, fact, event.seq)
        case ChangeRecorded() as fact:
            change = Change(fact.file, fact.summary, fact.lines, event.seq)
            return _replace_run(state, fact.run, lambda run: attrs.evolve(run, changes=(*run.changes, change)))
        case MemoryKept() as fact:
            kept = KeptMemory(fact.batch, fact.nodes, event.seq, event.at)
            return attrs.evolve(state, memories=(*state.memories, kept))
        case _ if not event.type.startswith(PREFIX):
            # A log of another loop: remembered, so every command can refuse it (WrongLog).
            return state if state.foreign else attrs.evolve(state, foreign=event.type)
        case _:
            raise TypeError(f"evolve does not know the event {event.type} ({type(event.data).__name__})")


def _regraded(state: TuneState, fact: RunRegraded, event: Event) -> TuneState:
    """The run's verdict and wrong cases replaced by the correction, the figures it restates too (the others
    stay the grade's); its graded seq stays the original's, its verdict seq is the correction's."""
    run = state.run_named(fact.run)
    if run is None:
        return state
    correction = Correction(fact.run, run.verdict, fact.verdict, fact.reason, event.seq, event.at)
    state = _replace_run(state, fact.run, lambda run: attrs.evolve(
        run, verdict=fact.verdict, wrong=fact.wrong, llm_calls=_restated(fact.llm_calls, run.llm_calls),
        tokens=_restated(fact.tokens, run.tokens), saved_twice=_restated(fact.saved_twice, run.saved_twice),
        verdict_seq=event.seq,
    ))
    return attrs.evolve(state, corrections=(*state.corrections, correction))


def _restated(new: int | None, old: int | None) -> int | None:
    return old if new is None else new


def _withdrawn(state: TuneState, fact: DifficultWithdrawn, seq: int) -> TuneState:
    """The case's entry added in `fact.run` marked withdrawn (it stays in the state, for the views)."""
    entries = state.difficult
    for index, entry in enumerate(entries):
        if entry.case == fact.case and entry.added == fact.run and entry.withdrawn is None:
            changed = attrs.evolve(entry, withdrawn=fact.reason, withdrawn_seq=seq)
            return attrs.evolve(state, difficult=(*entries[:index], changed, *entries[index + 1 :]))
    return state


def _started(state: TuneState, fact: TuningStarted) -> TuneState:
    settings = TuneSettings(
        fact.dataset, fact.limit, fact.min_batch, fact.max_batch, fact.recheck, fact.seed, fact.max_retries,
        fact.concurrency, fact.imported_from, fact.name,
    )
    written = {body["id"]: body for body in fact.written}
    cases = tuple(_case(body, written.get(body["id"], body)) for body in fact.cases)
    return attrs.evolve(state, settings=settings, cases=cases, selection=fact.selection)


def _case(fields: dict[str, Any], written: dict[str, Any]) -> Case:
    """A case: its class, complexity and rubric from the dataset's object, its cases.json object `written`."""
    return Case(
        id=fields["id"],
        class_name=_text(fields.get("class")),
        complexity=_text(fields.get("complexity")),
        rubric=has_rubric(fields),
        body=orjson.dumps(written).decode(),
    )


def has_rubric(body: dict[str, Any]) -> bool:
    """Whether a case has a rubric: a `rubric` that is there and not empty."""
    return body.get("rubric") not in (None, "", [], {}, False)


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else orjson.dumps(value).decode()


def _replace_run(state: TuneState, name: str, change) -> TuneState:
    runs = state.runs
    for index in range(len(runs) - 1, -1, -1):
        if runs[index].name == name:
            return attrs.evolve(state, runs=(*runs[:index], change(runs[index]), *runs[index + 1 :]))
    return state


def _replace_difficult(state: TuneState, case: str, change) -> TuneState:
    """A fix applies to the case's oldest entry not yet fixed nor withdrawn (a case has one such entry unless
    imported)."""
    entries = state.difficult
    for index, entry in enumerate(entries):
        if entry.case == case and entry.fixed is None and entry.withdrawn is None:
            return attrs.evolve(state, difficult=(*entries[:index], change(entry), *entries[index + 1 :]))
    return state


def evolve_all(state: TuneState, events: Iterable[Event]) -> TuneState:
    """`evolve` over a run of events, with usage reports folded in O(1) each (`evolve` folds one report as a
    run of one).

    A report replaces its model's figures in the newest run of that name (a report holds running totals:
    nothing is summed; its model keeps its place, a new model comes last); a report for no known run changes
    nothing. Reports are kept in a table of this call's own (run -> model -> totals) and written into the
    runs once: before the next event of another kind, and at the end. So a replay of a tuning, whose lines
    are mostly usage reports, re-makes a run and the runs tuple once per stretch of reports, not once per
    report. tests/test_tune_usage_fold.py checks it equals the obvious fold, one event at a time or cut
    anywhere.
    """
    pending: dict[str, dict[str, ModelUsage]] = {}
    for event in events:
        fact = event.data
        if type(fact) is not UsageRecorded:
            if pending:
                state, pending = _with_reports(state, pending), {}
            state = evolve(state, event)
            continue
        table = pending.get(fact.run)
        if table is None:
            run = state.run_named(fact.run)
            if run is None:
                continue  # a report for no known run changes nothing
            table = pending[fact.run] = {usage.model: usage for usage in run.usage}
        known = table.get(fact.model)
        table[fact.model] = ModelUsage(fact.model, fact.calls, fact.input_tokens, fact.output_tokens,
                                       1 if known is None else known.reports + 1)
    return _with_reports(state, pending) if pending else state


def _with_reports(state: TuneState, pending: dict[str, dict[str, ModelUsage]]) -> TuneState:
    """The state with the newest run of each name in `pending` holding the usage gathered for it."""
    runs = list(state.runs)
    for name, table in pending.items():
        index = len(runs) - 1
        while runs[index].name != name:
            index -= 1
        runs[index] = attrs.evolve(runs[index], usage=tuple(table.values()))
    return state.hand_on(attrs.evolve(state, runs=tuple(runs)))
