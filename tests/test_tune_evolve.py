"""The tuning's fold: each event applied to a state, and the state's shape."""

from __future__ import annotations

import typing

import attrs
import orjson
import pytest

from batchlog.engine import Event
from batchlog.engine.snapshots.state_codec import from_data, to_data
from batchlog.projections.tune.events import (
    BatchBuilt,
    ChangeRecorded,
    DifficultAdded,
    DifficultFixed,
    MemoryKept,
    RunGraded,
    RunRegraded,
    RunStarted,
    UsageRecorded,
)
from batchlog.projections.tune.decider import TUNE
from batchlog.projections.tune.evolve import evolve
from batchlog.projections.tune.state import TuneState
from tests.tune_helpers import AT, fold, started

CASES = (
    {"id": "a", "class": "planning", "complexity": "complex", "rubric": "r"},
    {"id": "b", "class": "planning"},
    {"id": "c", "class": "billing", "complexity": "simple", "rubric": ""},
)
STARTED = started(CASES, selection=("a", "c", "b"))

BATCH_1 = BatchBuilt(1, 3, "batch 1 is the smoke test: minBatch 3", "new", ("a", "c", "b"), (), 0, 0)
RUN_1 = RunStarted("batch01-nomem-run1", 1, "nomem", 1, ("a", "c", "b"))


class TestEvolve:
    def test_tuning_started_records_settings_cases_and_selection(self):
        state = fold(STARTED)

        assert state.settings.min_batch == 3 and state.settings.concurrency == 13
        assert [case.id for case in state.cases] == ["a", "b", "c"]
        assert state.selection == ("a", "c", "b")
        assert state.cases[0].rubric and not state.cases[2].rubric
        assert (state.cases[0].class_name, state.cases[0].complexity) == ("planning", "complex")
        assert (state.cases[1].class_name, state.cases[1].complexity) == ("planning", "")
        assert state.cases[0].body == '{"id":"a","class":"planning","complexity":"complex","rubric":"r"}'

    def test_batch_built_adds_the_batch_with_where_it_was_built(self):
        state = fold(STARTED, BATCH_1)

        assert state.batches[0].cases == ("a", "c", "b")
        assert (state.batches[0].built_seq, state.batches[0].built_at) == (2, AT)

    def test_run_started_then_graded(self):
        graded = RunGraded("batch01-nomem-run1", "WRONG", ("a",), 96, 120000, None, "f.md", "n")
        state = fold(STARTED, BATCH_1, RUN_1, graded)

        run = state.run_named("batch01-nomem-run1")
        assert (run.verdict, run.wrong, run.llm_calls, run.tokens, run.graded_seq) == ("WRONG", ("a",), 96,
                                                                                        120000, 4)
        assert state.runs_of(1, "nomem") == (run,)

    def test_difficult_added_then_fixed_keeps_both_notes(self):
        state = fold(STARTED, BATCH_1, RUN_1, DifficultAdded("a", ("wrong",), "batch01-nomem-run1", "x"),
                     DifficultFixed("a", "batch01-nomem-run1", "y"))

        entry = state.difficult_entry("a")
        assert (entry.fixed, entry.added_seq, entry.fixed_seq) == ("batch01-nomem-run1", 4, 5)
        assert [note.text for note in entry.notes] == ["x", "y"]

    def test_changes_and_memory(self):
        state = fold(STARTED, BATCH_1, RUN_1, ChangeRecorded("batch01-nomem-run1", "p.md", "rule 1", 6),
                     MemoryKept(1, 41))

        assert state.run_named("batch01-nomem-run1").changes[0].lines == 6
        assert state.last_good_memory.nodes == 41

    def test_usage_reports_replace_running_totals_so_the_state_does_not_grow(self):
        reports = [UsageRecorded("batch01-nomem-run1", "m", n, 10 * n, n) for n in range(1, 200)]
        state = fold(STARTED, BATCH_1, RUN_1, *reports, UsageRecorded("batch01-nomem-run1", "k", 1, 2, 3))

        usage = state.run_named("batch01-nomem-run1").usage
        assert [(u.model, u.calls, u.input_tokens, u.reports) for u in usage] == [("m", 199, 1990, 199),
                                                                                  ("k", 1, 2, 1)]

    def test_an_event_of_another_loop_is_remembered_as_foreign(self):
        state = evolve(TUNE.initial, Event(1, "quick_batch.started", 1, AT, "x", {"a": 1}))

        assert state.foreign == "quick_batch.started"

    def test_an_unknown_tune_event_fails_loudly(self):
        with pytest.raises(TypeError):
            evolve(TUNE.initial, Event(1, "tune.unknown", 1, AT, "x", object()))


class TestStateShape:
    def test_state_round_trips_through_the_snapshot_codec(self):
        state = fold(STARTED, BATCH_1, RUN_1, DifficultAdded("a", ("wrong",), "batch01-nomem-run1", "x"),
                     UsageRecorded("batch01-nomem-run1", "m", 1, 2, 3), MemoryKept(1, 4))

        assert from_data(orjson.loads(orjson.dumps(to_data(state))), TuneState) == state

    def test_every_state_class_is_frozen(self):
        state = fold(STARTED, BATCH_1, RUN_1, DifficultAdded("a", ("wrong",), "batch01-nomem-run1", "x"),
                     ChangeRecorded("batch01-nomem-run1", "p.md", "rule 1", 6),
                     UsageRecorded("batch01-nomem-run1", "m", 1, 2, 3), MemoryKept(1, 4),
                     RunGraded("batch01-nomem-run1", "PASSED"),
                     RunRegraded("batch01-nomem-run1", "CORRECT", "too long"))
        met = set()

        for value in attrs_values(state):
            met.add(type(value))
            with pytest.raises(attrs.exceptions.FrozenInstanceError):
                setattr(value, attrs.fields(type(value))[0].name, None)
        assert met == state_classes(TuneState)


def state_classes(hint, found: set[type] | None = None) -> set[type]:
    """The attrs classes a field typed `hint` can hold, however deeply (in tuples, unions, their fields)."""
    found = set() if found is None else found
    if isinstance(hint, type) and attrs.has(hint) and hint not in found:
        found.add(hint)
        for field in typing.get_type_hints(hint).values():
            state_classes(field, found)
    for arg in typing.get_args(hint):
        state_classes(arg, found)
    return found


def attrs_values(value):
    """`value` and every attrs instance inside it."""
    if attrs.has(type(value)):
        yield value
        for field in attrs.fields(type(value)):
            yield from attrs_values(getattr(value, field.name))
    elif isinstance(value, tuple):
        for item in value:
            yield from attrs_values(item)
