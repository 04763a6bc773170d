"""The replay's shortcuts build exactly what the slow, obvious code builds.

- `engine.fast.domain_maker(cls)(data)` is `engine.fast.plain_maker(cls)(data)`, `cls(**data)`: the same object, field by field
  (type and value; the very same object where no converter runs), or the same error, for every
  registered event type of both loops, on generated data and on every line of the fixtures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import EventType, Registry
from engine.fast import _slot_setter, domain_maker, plain_maker
from projections.catalog import all_types

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
        assert domain_maker(cls).__code__ is plain_maker(cls).__code__
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
