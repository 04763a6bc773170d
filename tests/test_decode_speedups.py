"""The replay's shortcuts build exactly what the slow, obvious code builds.

- The tuning's fold copies its `slots=False` state classes with a field replaced instead of calling
  their constructors: equal to `attrs.evolve`, and valid only while those classes have nothing
  their __init__ would run (converters, validators, hooks).
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Event
from projections.tune import state as tune_state
from projections.tune.evolve import _replaced, evolve
from projections.tune.events import RunStarted, UsageRecorded
from projections.tune.state import ModelUsage, Run, TuneState

AT = "2026-12-02T16:00:00.000Z"
COPIED_STATE_CLASSES = (TuneState, Run, ModelUsage)


def _plain_init(cls: type) -> bool:
    """Whether the class's __init__ only stores its arguments."""
    return (
        not any(f.converter or f.validator or not f.init or f.alias != f.name for f in attrs.fields(cls))
        and not hasattr(cls, "__attrs_pre_init__")
        and not hasattr(cls, "__attrs_post_init__")
        and "__attrs_init__" not in cls.__dict__
        and not hasattr(cls, "__slots__")
    )


class TestTuneStateCopies:
    @pytest.mark.parametrize("cls", COPIED_STATE_CLASSES, ids=lambda cls: cls.__name__)
    def test_copied_state_classes_have_an_init_that_only_stores(self, cls):
        assert _plain_init(cls)

    def test_every_state_class_is_attrs(self):
        classes = [value for value in vars(tune_state).values() if isinstance(value, type) and attrs.has(value)]
        assert set(COPIED_STATE_CLASSES) <= set(classes)

    def test_replaced_equals_attrs_evolve(self):
        run = Run("batch01-nomem-run1", 1, "nomem", 1, ("a", "b"), 3, AT)
        changed = _replaced(run, verdict="PASSED", wrong=("a",), graded_seq=9)
        assert changed == attrs.evolve(run, verdict="PASSED", wrong=("a",), graded_seq=9)
        assert type(changed) is Run and run.verdict == ""
        assert list(changed.__dict__) == [f.name for f in attrs.fields(Run)]

    def test_replaced_refuses_a_field_the_class_does_not_have(self):
        with pytest.raises(TypeError, match="verdit"):
            _replaced(Run("r", 1, "nomem", 1, (), 1, AT), verdit="PASSED")

    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.tuples(st.sampled_from(["r1", "r2", "r3", "gone"]), st.sampled_from(["m1", "m2", "m3"]),
                              st.integers(0, 2**53), st.integers(0, 2**53), st.integers(0, 2**53)), max_size=30))
    def test_usage_fold_equals_a_fold_through_constructors(self, reports):
        state = TuneState()
        for seq, name in enumerate(("r1", "r2", "r3"), start=1):
            state = evolve(state, Event(seq, "tune.run_started", 1, AT, f"id{seq}", RunStarted(name, 1, "nomem", seq, ())))
        expected = state
        for seq, (run, model, calls, input_tokens, output_tokens) in enumerate(reports, start=10):
            fact = UsageRecorded(run, model, calls, input_tokens, output_tokens)
            before = state
            state = evolve(state, Event(seq, "tune.usage_recorded", 1, AT, f"id{seq}", fact))
            expected = _usage_the_slow_way(expected, fact)
            assert state == expected
            assert before is not state or run == "gone"
        for run in state.runs:
            assert list(run.__dict__) == [f.name for f in attrs.fields(Run)]
            for usage in run.usage:
                assert usage == ModelUsage(usage.model, usage.calls, usage.input_tokens, usage.output_tokens,
                                           usage.reports)


def _usage_the_slow_way(state: TuneState, fact: UsageRecorded) -> TuneState:
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
