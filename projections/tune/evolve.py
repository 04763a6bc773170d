"""The tuning's fold: `evolve(state, event) -> state`, one `match` on the event class.

Applies facts and checks no rules (decide.py does that). Pure.
"""

from __future__ import annotations

from typing import Any

import attrs
import orjson

import sys

from engine import Event, Projection, code_version
from projections.tune.events import (
    BatchBuilt,
    ChangeRecorded,
    DifficultAdded,
    DifficultFixed,
    MemoryKept,
    RunGraded,
    RunStarted,
    TuningStarted,
    UsageRecorded,
)
from projections.tune.state import (
    Batch,
    Case,
    Change,
    Difficult,
    KeptMemory,
    ModelUsage,
    Note,
    Run,
    TuneSettings,
    TuneState,
)

TUNE_PREFIX = "tune."


def evolve(state: TuneState, event: Event) -> TuneState:
    """The state after `event`."""
    match event.data:
        case UsageRecorded() as fact:  # first: the most frequent event
            return _replace_run(state, fact.run, lambda run: _with_usage(run, fact))
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
                graded_at=event.at,
            ))
        case DifficultAdded() as fact:
            notes = (Note(fact.run, fact.note),) if fact.note else ()
            entry = Difficult(fact.case, fact.reasons, fact.run, event.seq, notes=notes)
            return attrs.evolve(state, difficult=(*state.difficult, entry))
        case DifficultFixed() as fact:
            return _replace_difficult(state, fact.case, lambda entry: attrs.evolve(
                entry, fixed=fact.run, fixed_seq=event.seq,
                notes=entry.notes + ((Note(fact.run, fact.note),) if fact.note else ()),
            ))
        case ChangeRecorded() as fact:
            change = Change(fact.file, fact.summary, fact.lines, event.seq)
            return _replace_run(state, fact.run, lambda run: attrs.evolve(run, changes=(*run.changes, change)))
        case MemoryKept() as fact:
            kept = KeptMemory(fact.batch, fact.nodes, event.seq, event.at)
            return attrs.evolve(state, memories=(*state.memories, kept))
        case _ if not event.type.startswith(TUNE_PREFIX):
            # A log of another loop: remembered, so every command can refuse it (WrongLog).
            return state if state.foreign else attrs.evolve(state, foreign=event.type)
        case _:
            raise TypeError(f"evolve does not know the event {event.type} ({type(event.data).__name__})")


def _started(state: TuneState, fact: TuningStarted) -> TuneState:
    settings = TuneSettings(
        fact.dataset, fact.limit, fact.min_batch, fact.max_batch, fact.recheck, fact.seed, fact.max_retries,
        fact.concurrency, fact.imported_from,
    )
    cases = tuple(_case(body) for body in fact.cases)
    return attrs.evolve(state, settings=settings, cases=cases, selection=fact.selection)


def _case(body: dict[str, Any]) -> Case:
    return Case(
        id=body["id"],
        class_name=_text(body.get("class")),
        complexity=_text(body.get("complexity")),
        rubric=has_rubric(body),
        body=orjson.dumps(body).decode(),
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
    entries = state.difficult
    for index, entry in enumerate(entries):
        if entry.case == case:
            return attrs.evolve(state, difficult=(*entries[:index], change(entry), *entries[index + 1 :]))
    return state


def _with_usage(run: Run, fact: UsageRecorded) -> Run:
    """The run with the model's running totals replaced by the new report."""
    usage = list(run.usage)
    for index, known in enumerate(usage):
        if known.model == fact.model:
            usage[index] = ModelUsage(fact.model, fact.calls, fact.input_tokens, fact.output_tokens,
                                      known.reports + 1)
            break
    else:
        usage.append(ModelUsage(fact.model, fact.calls, fact.input_tokens, fact.output_tokens, 1))
    return attrs.evolve(run, usage=tuple(usage))


# Snapshots are keyed to the code that folds: this module, the state and the event classes.
TUNE = Projection("tune", TuneState(), evolve,
                  version=code_version(sys.modules[__name__], "projections.tune.state", "projections.tune.events"),
                  state_type=TuneState)
