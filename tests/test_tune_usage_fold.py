"""The tuning's usage fold (projections/tune/evolve.py `evolve_all`, over a run of events or, through `evolve`,
one) gives what the obvious fold gives.

The obvious fold (`_usage_the_slow_way`: lists, `attrs.evolve`) is the reference. On generated
histories of runs started, graded, changed and reported on (reports for unknown runs too), the
states and every usage view are equal after each event, and no earlier state is changed; folded as runs
of events cut anywhere (`evolve_all`, as a replay folds them), they end in the same state.
"""

from __future__ import annotations

import copy

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from batchlog.engine import Event
from batchlog.projections.tune.decider import TUNE
from batchlog.projections.tune.evolve import evolve, evolve_all
from batchlog.projections.tune.events import ChangeRecorded, RunGraded, RunStarted, UsageRecorded
from batchlog.projections.tune.state import ModelUsage, TuneState
from batchlog.projections.tune.views.usage import by_batch, by_model, total, usage_markdown
from tests.tune_helpers import AT, fold, started

RUNS = ["batch01-nomem-run1", "batch01-mem-run1", "batch02-nomem-run1", "final-run1"]
CASES = [{"id": f"case-{i}", "input": "q"} for i in range(3)]

figures = st.integers(0, 2**53)
facts = st.one_of(
    st.builds(UsageRecorded, st.sampled_from(RUNS + ["never-started"]), st.sampled_from(["m1", "m2", "m3"]),
              figures, figures, figures),
    st.builds(RunStarted, st.sampled_from(RUNS), st.integers(0, 3), st.sampled_from(["nomem", "mem", "final"]),
              st.integers(1, 4), st.just(("case-0",))),
    st.builds(RunGraded, st.sampled_from(RUNS), st.sampled_from(["PASSED", "WRONG", "VOID"])),
    st.builds(ChangeRecorded, st.sampled_from(RUNS), st.just("skill.md"), st.just("why")),
)
# Usage reports are most of a history, as in a real tuning.
histories = st.lists(st.one_of(facts, st.builds(UsageRecorded, st.sampled_from(RUNS), st.sampled_from(["m1", "m2"]),
                                                 figures, figures, figures)), max_size=60)


def _usage_the_slow_way(state: TuneState, fact: UsageRecorded) -> TuneState:
    """The newest run of that name gets the model's figures replaced (reports counted); no such run: no change."""
    runs = list(state.runs)
    for index in range(len(runs) - 1, -1, -1):
        if runs[index].name == fact.run:
            usage = list(runs[index].usage)
            models = [known.model for known in usage]
            if fact.model in models:
                at = models.index(fact.model)
                usage[at] = ModelUsage(fact.model, fact.calls, fact.input_tokens, fact.output_tokens,
                                       usage[at].reports + 1)
            else:
                usage.append(ModelUsage(fact.model, fact.calls, fact.input_tokens, fact.output_tokens, 1))
            runs[index] = attrs.evolve(runs[index], usage=tuple(usage))
            return attrs.evolve(state, runs=tuple(runs))
    return state


def _views(state: TuneState) -> tuple:
    return usage_markdown(state), by_model(state), by_batch(state), total(state)


@settings(max_examples=150)
@given(histories)
def test_every_state_and_usage_view_equals_the_obvious_folds(history):
    state = expected = fold(started(CASES))
    seen: list[tuple[TuneState, TuneState]] = []
    for seq, fact in enumerate(history, start=2):
        event = Event(seq, "tune.x", 1, AT, f"id{seq}", fact)
        seen.append((state, copy.deepcopy(state)))
        state = evolve(state, event)
        expected = _usage_the_slow_way(expected, fact) if isinstance(fact, UsageRecorded) else evolve(expected, event)
        assert state == expected
        assert _views(state) == _views(expected)
    assert all(before == kept for before, kept in seen), "an earlier state was changed"


@settings(max_examples=150)
@given(histories, st.lists(st.integers(0, 60), max_size=6))
def test_a_run_of_events_folded_at_once_ends_as_one_at_a_time(history, cuts):
    start = fold(started(CASES))
    kept = copy.deepcopy(start)
    events = [Event(seq, "tune.x", 1, AT, f"id{seq}", fact) for seq, fact in enumerate(history, start=2)]
    one_at_a_time = start
    for event in events:
        one_at_a_time = evolve(one_at_a_time, event)

    at_once, begin = start, 0
    for end in sorted({*cuts, len(events)}):
        at_once = evolve_all(at_once, events[begin:end])
        begin = max(begin, end)

    assert at_once == one_at_a_time and _views(at_once) == _views(one_at_a_time)
    assert TUNE.fold_events(start, events) == one_at_a_time
    assert start == kept, "the state folded onto was changed"
