"""The state's index of its runs (projections/tune/state.py): `runs_of` and `runs_of_batch` answer what a scan of
every run answers, at every state of a fold, whether the index was made there, handed on by the fold from an earlier
state, or never made; and the index is no part of the state's value (equality, snapshots).

Histories start runs in any batch and kind (an imported or hand-written log may hold any), grade them, record
changes and usage (reports for unknown runs too), and remember memories, so that every way the fold makes a state
is met: a run started, a run replaced, the runs tuple left as it was.
"""

from __future__ import annotations

import copy

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from batchlog.engine import Event
from batchlog.engine.snapshots.state_codec import from_data, to_data
from batchlog.projections.tune.decider import TUNE
from batchlog.projections.tune.evolve import evolve, evolve_all
from batchlog.projections.tune.events import ChangeRecorded, MemoryKept, RunGraded, RunStarted, UsageRecorded
from batchlog.projections.tune.state import TuneState
from tests.tune_helpers import AT, fold, started

NAMES = ["batch01-nomem-run1", "batch01-mem-run1", "batch02-nomem-run1", "final-run1", "odd"]
BATCHES = range(0, 4)
KINDS = ("nomem", "mem", "final", "other")
CASES = [{"id": f"case-{i}", "input": "q"} for i in range(3)]

figures = st.integers(0, 1000)
facts = st.one_of(
    st.builds(RunStarted, st.sampled_from(NAMES), st.sampled_from(BATCHES), st.sampled_from(KINDS),
              st.integers(1, 4), st.just(("case-0",))),
    st.builds(RunGraded, st.sampled_from(NAMES), st.sampled_from(["PASSED", "WRONG", "VOID"])),
    st.builds(ChangeRecorded, st.sampled_from(NAMES), st.just("skill.md"), st.just("why")),
    st.builds(UsageRecorded, st.sampled_from([*NAMES, "never-started"]), st.sampled_from(["m1", "m2"]),
              figures, figures, figures),
    st.builds(MemoryKept, st.sampled_from(BATCHES), st.integers(0, 9)),
)
histories = st.lists(facts, max_size=40)


def scanned(state: TuneState) -> tuple:
    """What a scan of every run says of each half and each batch."""
    return ({(batch, kind): tuple(run for run in state.runs if run.batch == batch and run.kind == kind)
             for batch in BATCHES for kind in KINDS},
            {batch: tuple(run for run in state.runs if run.batch == batch) for batch in BATCHES})


def indexed(state: TuneState) -> tuple:
    return ({(batch, kind): state.runs_of(batch, kind) for batch in BATCHES for kind in KINDS},
            {batch: state.runs_of_batch(batch) for batch in BATCHES})


def events_of(history) -> list[Event]:
    return [Event(seq, "tune.x", 1, AT, f"id{seq}", fact) for seq, fact in enumerate(history, start=2)]


@settings(max_examples=200)
@given(histories, st.lists(st.booleans(), min_size=40, max_size=40))
def test_every_state_of_a_fold_finds_the_runs_a_scan_finds(history, asked):
    state = fold(started(CASES))
    for event, ask in zip(events_of(history), asked):
        state = evolve(state, event)
        if ask:  # the index made here, or handed on from the last state that made one
            assert indexed(state) == scanned(state)
    assert indexed(state) == scanned(state)


@settings(max_examples=100)
@given(histories, st.lists(st.integers(0, 40), max_size=5))
def test_a_run_of_events_folded_at_once_finds_the_runs_a_scan_finds(history, cuts):
    state, begin = fold(started(CASES)), 0
    indexed(state)
    events = events_of(history)
    for end in sorted({*cuts, len(events)}):
        state = evolve_all(state, events[begin:end])
        begin = max(begin, end)
        assert indexed(state) == scanned(state)


@settings(max_examples=50)
@given(histories)
def test_the_index_is_no_part_of_the_state_s_value(history):
    events = events_of(history)
    start = fold(started(CASES))
    never = TUNE.fold_events(start, events)
    indexed(start)
    asked = start
    for event in events:
        asked = evolve(asked, event)
        indexed(asked)
    kept = from_data(orjson.loads(orjson.dumps(to_data(asked))), TuneState)

    assert asked == never and repr(asked) == repr(never)
    assert to_data(asked) == to_data(never)
    assert kept == asked and indexed(kept) == scanned(kept)
    assert indexed(copy.deepcopy(asked)) == scanned(asked)
