"""The tuning's fold: `evolve(state, event) -> state`, one `match` on the event class.

Applies facts and checks no rules (decide.py does that). Pure.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs
import orjson

import sys

from engine import Event, Projection, code_version
from projections.tune.events import (
    REGISTRY,
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
            return _usage(state, fact)
        case TuningStarted() as fact:
            return _started(state, fact)
        case BatchBuilt() as fact:
            batch = Batch(
                fact.number, fact.size, fact.why, fact.kind, fact.new, fact.recheck, fact.unused_after,
                fact.open_difficult, fact.size_override, fact.recheck_override, fact.seed_override,
                event.seq, event.at,
            )
            return _replaced(state, batches=(*state.batches, batch))
        case RunStarted() as fact:
            run = Run(fact.run, fact.batch, fact.kind, fact.number, fact.cases, event.seq, event.at)
            return _replaced(state, runs=(*state.runs, run))
        case RunGraded() as fact:
            return _replace_run(state, fact.run, lambda run: _replaced(
                run, verdict=fact.verdict, wrong=fact.wrong, llm_calls=fact.llm_calls, tokens=fact.tokens,
                saved_twice=fact.saved_twice, findings=fact.findings, note=fact.note, graded_seq=event.seq,
                graded_at=event.at,
            ))
        case DifficultAdded() as fact:
            notes = (Note(fact.run, fact.note),) if fact.note else ()
            entry = Difficult(fact.case, fact.reasons, fact.run, event.seq, notes=notes)
            return _replaced(state, difficult=(*state.difficult, entry))
        case DifficultFixed() as fact:
            return _replace_difficult(state, fact.case, lambda entry: attrs.evolve(
                entry, fixed=fact.run, fixed_seq=event.seq,
                notes=entry.notes + ((Note(fact.run, fact.note),) if fact.note else ()),
            ))
        case ChangeRecorded() as fact:
            change = Change(fact.file, fact.summary, fact.lines, event.seq)
            return _replace_run(state, fact.run, lambda run: _replaced(run, changes=(*run.changes, change)))
        case MemoryKept() as fact:
            kept = KeptMemory(fact.batch, fact.nodes, event.seq, event.at)
            return _replaced(state, memories=(*state.memories, kept))
        case _ if not event.type.startswith(TUNE_PREFIX):
            # A log of another loop: remembered, so every command can refuse it (WrongLog).
            return state if state.foreign else _replaced(state, foreign=event.type)
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
            return _replaced(state, runs=(*runs[:index], change(runs[index]), *runs[index + 1 :]))
    return state


def _replace_difficult(state: TuneState, case: str, change) -> TuneState:
    entries = state.difficult
    for index, entry in enumerate(entries):
        if entry.case == case:
            return _replaced(state, difficult=(*entries[:index], change(entry), *entries[index + 1 :]))
    return state


def _usage(state: TuneState, fact: UsageRecorded) -> TuneState:
    """The run's totals for the model replaced by the new report: a few small copies, no constructor.

    The run is searched from the newest (usage is reported for the run in progress); the state
    and the run are copied with one field changed, as `_replaced` does, inlined: this is the
    fold's hot path.
    """
    runs = state.runs
    name = fact.run
    index = len(runs) - 1
    while index >= 0 and runs[index].name != name:
        index -= 1
    if index < 0:
        return state
    run = runs[index]
    usage = run.usage
    model = fact.model
    for position, known in enumerate(usage):
        if known.model == model:
            reports = known.reports + 1
            break
    else:
        position, reports = len(usage), 1
    totals = _new(ModelUsage)
    _set_dict(totals, "__dict__", {"model": model, "calls": fact.calls, "input_tokens": fact.input_tokens,
                                   "output_tokens": fact.output_tokens, "reports": reports})
    fields = run.__dict__.copy()  # copy, then set: far cheaper than a {**fields, ...} display
    fields["usage"] = (*usage[:position], totals, *usage[position + 1 :])
    changed = _new(Run)
    _set_dict(changed, "__dict__", fields)
    fields = state.__dict__.copy()
    fields["runs"] = (*runs[:index], changed, *runs[index + 1 :])
    after = _new(TuneState)
    _set_dict(after, "__dict__", fields)
    return after


_new = object.__new__
_set_dict = object.__setattr__


def _made(cls: type, fields: dict[str, Any]) -> Any:
    """An instance of a `slots=False` state class holding `fields` (every field, in field order).

    What the class's own __init__ would build: these classes have no converters, validators
    or post-init hooks (tests/test_decode_speedups.py checks it), so their __init__ only stores
    the values.
    """
    made = _new(cls)
    _set_dict(made, "__dict__", fields)
    return made


def _replaced(obj: Any, **changes: Any) -> Any:
    """`attrs.evolve(obj, **changes)` for the `slots=False` state classes, without a constructor call."""
    fields = obj.__dict__.copy()
    if not changes.keys() <= fields.keys():
        raise TypeError(f"{type(obj).__name__} has no field {sorted(changes.keys() - fields.keys())}")
    fields.update(changes)
    return _made(type(obj), fields)


# Snapshots are keyed to the code that folds: this module, the state and the event classes.
TUNE = Projection("tune", TuneState(), evolve,
                  version=code_version(sys.modules[__name__], "projections.tune.state", "projections.tune.events"),
                  state_type=TuneState)


def without_usage(known: Iterable[str]) -> Projection:
    """TUNE for the views that read no usage figure (status, next, the next batch, the difficult list):
    it folds every type in `known` (a registry's names, so that another loop's log is still recognised)
    but usage reports, so a replay parses none of them, most of a tuning's lines. Its runs carry no usage."""
    return attrs.evolve(TUNE, name="tune.progress", folds=frozenset(known) - {REGISTRY.by_class[UsageRecorded].name})
