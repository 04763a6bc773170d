"""The replay's shortcuts build exactly what the slow, obvious code builds.

- `engine.registry.domain_maker(cls)(data)` is `cls(**data)`: the same object, field by field
  (type and value; the very same object where no converter runs), or the same error, for every
  registered event type of both loops, on generated data and on every line of the fixtures.
- The tuning's fold copies its `slots=False` state classes with a field replaced instead of calling
  their constructors: equal to `attrs.evolve`, and valid only while those classes have nothing
  their __init__ would run (converters, validators, hooks).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Event, EventType, Registry
from engine.registry import _calling, _slot_setter, domain_maker
from projections.catalog import all_types
from projections.tune import state as tune_state
from projections.tune.evolve import _replaced, evolve
from projections.tune.events import RunStarted, UsageRecorded
from projections.tune.state import ModelUsage, Run, TuneState

AT = "2026-12-02T16:00:00.000Z"
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
EVENT_TYPES = [spec for spec in all_types().by_name.values() if spec.cls is not None and spec.decode is None]


def outcome(make: Any, data: dict) -> tuple:
    """What `make(data)` gives: the object's type and each field's name, type and value; or the error."""
    try:
        made = make(dict(data))
    except Exception as error:  # noqa: BLE001 - the error itself is compared
        return ("raised", type(error), str(error))
    return ("made", type(made),
            tuple((field.name, type(getattr(made, field.name)), getattr(made, field.name))
                  for field in attrs.fields(type(made))))


def same_as_the_call(cls: type, data: dict) -> None:
    fast = domain_maker(cls)
    assert outcome(fast, data) == outcome(lambda d: cls(**d), data)
    try:
        made = fast(dict(data))
    except Exception:  # noqa: BLE001 - compared above
        return
    if _slot_setter(cls) is None:
        return
    for field in attrs.fields(cls):
        if field.converter is None and field.name in data:  # stored as given: the very object
            assert getattr(made, field.name) is data[field.name]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**64), 2**64) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
target_lines = st.fixed_dictionaries(
    {"batch": st.integers(1, 99), "target": st.text(max_size=8)},
    optional={"language_hint": st.none() | st.text(max_size=4), "scope_hint": st.none() | st.text(max_size=4)},
)


@st.composite
def event_data(draw: Any, cls: type) -> dict:
    """Data for `cls`: every field (lists where the class converts, target lines for targets), then
    perhaps a field dropped, an unknown one added, or a field holding any JSON value."""
    data: dict[str, Any] = {}
    for field in attrs.fields(cls):
        if field.name == "targets":
            data[field.name] = draw(st.lists(target_lines, max_size=3))
        elif field.converter is not None:
            data[field.name] = draw(st.none() | st.lists(st.text(max_size=6), max_size=3))
        else:
            data[field.name] = draw(json_values)
    change = draw(st.sampled_from(["none", "none", "drop", "add", "replace"]))
    names = list(data)
    if change == "drop":
        del data[draw(st.sampled_from(names))]
    elif change == "add":
        data[draw(st.text(max_size=6))] = draw(json_values)
    elif change == "replace":
        data[draw(st.sampled_from(names))] = draw(json_values)
    return data


class TestDomainMaker:
    @pytest.mark.parametrize("spec", EVENT_TYPES, ids=lambda spec: spec.name)
    def test_every_registered_type_takes_the_fast_path(self, spec):
        assert _slot_setter(spec.cls) is not None

    @pytest.mark.parametrize("spec", EVENT_TYPES, ids=lambda spec: spec.name)
    @settings(max_examples=100, deadline=None)
    @given(data=st.data())
    def test_is_the_call_on_generated_data(self, spec, data):
        same_as_the_call(spec.cls, data.draw(event_data(spec.cls)))

    def test_is_the_call_on_every_fixture_line(self):
        types = {spec.name: spec.cls for spec in EVENT_TYPES}
        seen = set()
        for path in sorted(FIXTURES.rglob("*.jsonl")):
            for line in path.read_bytes().splitlines():
                obj = orjson.loads(line)
                if obj["type"] in types:
                    same_as_the_call(types[obj["type"]], obj["data"])
                    seen.add(obj["type"])
        assert len(seen) >= 12

    def test_a_log_replays_to_the_same_events_as_through_the_call(self, tmp_path):
        from engine import EventLog, Projection

        registry = all_types()
        path = tmp_path / "events.jsonl"
        log = EventLog(path, registry)
        collect = Projection("collect", (), lambda state, event: (*state, event))
        source = FIXTURES / "tune-finished" / "events.jsonl"
        path.write_bytes(source.read_bytes())
        replayed = log.replay(collect).state
        expected = [registry.get(orjson.loads(line)["type"]).cls(**orjson.loads(line)["data"])
                    for line in source.read_bytes().splitlines()]
        assert [event.data for event in replayed] == expected
        assert [type(event.data) for event in replayed] == [type(e) for e in expected]

    @pytest.mark.parametrize("kind", ["validator", "post_init", "alias", "no_init", "dict", "own_init",
                                      "cached_hash"])
    def test_a_class_that_needs_its_init_is_called(self, kind):
        cls = _needs_init(kind)
        assert _slot_setter(cls) is None
        assert domain_maker(cls).__code__ is _calling(cls).__code__
        same_as_the_call(cls, {"a": 1})
        same_as_the_call(cls, {"a": "x"})

    def test_the_converter_runs_once_per_field_in_field_order(self):
        calls = []

        def seen(name):
            def convert(value):
                calls.append(name)
                return tuple(value)
            return convert

        @attrs.frozen
        class Two:
            b: tuple = attrs.field(converter=seen("b"))
            a: tuple = attrs.field(converter=seen("a"))

        assert domain_maker(Two)({"a": [1], "b": [2]}) == Two(b=(2,), a=(1,))
        assert calls == ["b", "a", "b", "a"]

    def test_a_registry_decodes_with_the_maker(self):
        @attrs.frozen
        class Thing:
            names: tuple = attrs.field(converter=tuple)

        spec = Registry([EventType("x.thing", 1, Thing)]).get("x.thing")
        assert spec.to_domain({"names": ["a"]}) == Thing(("a",))
        with pytest.raises(TypeError):
            spec.to_domain({"names": ["a"], "other": 1})


def _needs_init(kind: str) -> type:
    if kind == "validator":
        @attrs.frozen
        class Checked:
            a: int = attrs.field(validator=attrs.validators.instance_of(int))
        return Checked
    if kind == "post_init":
        @attrs.frozen
        class Hooked:
            a: Any

            def __attrs_post_init__(self):
                if self.a == "x":
                    raise ValueError("no x")
        return Hooked
    if kind == "alias":
        @attrs.frozen
        class Aliased:
            _a: Any
        return Aliased
    if kind == "no_init":
        @attrs.frozen
        class Partial:
            a: Any
            b: int = attrs.field(init=False, default=3)
        return Partial
    if kind == "dict":
        @attrs.frozen(slots=False)
        class Plain:
            a: Any
        return Plain
    if kind == "own_init":
        @attrs.frozen(init=False)
        class Own:
            a: Any

            def __init__(self, a):
                self.__attrs_init__(a=(a, a))
        return Own
    @attrs.frozen(cache_hash=True)
    class Hashed:
        a: Any
    return Hashed
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

    def test_every_state_class_without_slots_is_checked_as_copied(self):
        """A new `slots=False` state class can be copied by the fold: it must be in COPIED_STATE_CLASSES too."""
        unslotted = {value for value in vars(tune_state).values()
                     if isinstance(value, type) and attrs.has(value) and value.__module__ == tune_state.__name__
                     and not hasattr(value, "__slots__")}
        assert unslotted == set(COPIED_STATE_CLASSES)

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
