"""engine/snapshots/state_codec.py: a state as JSON data and back, by its declared types. Every state a loop
folds reads back equal; data of the wrong shape is Undecodable, never a state; a type the codec does not read is
never snapshotted."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import attrs
import orjson
import pytest
from hypothesis import given, strategies as st

from batchlog.engine.snapshots.state_codec import Undecodable, from_data, to_data
from batchlog.engine.value import frozen


@frozen
class Leaf:
    name: str
    count: int = 0
    ratio: float = 0.5
    flag: bool = False


@frozen
class Tree:
    leaf: Leaf | None = None
    leaves: tuple[Leaf, ...] = ()
    pair: tuple[int, str] = (0, "")
    tags: frozenset[str] = frozenset()
    names: list[str] = attrs.field(factory=list)
    by_name: dict[str, Leaf] = attrs.field(factory=dict)
    view: Mapping[str, int] = attrs.field(factory=dict)
    kind: Literal["a", "b"] = "a"
    anything: Any = None
    either: int | str = 0
    children: tuple[Tree, ...] = ()


@frozen
class Private:
    _hidden: int


def round_trip(value: Any, declared: type) -> Any:
    return from_data(orjson.loads(orjson.dumps(to_data(value))), declared)


leaves = st.builds(Leaf, st.text(), st.integers(-2**63, 2**63 - 1), st.floats(allow_nan=False, allow_infinity=False),
                   st.booleans())
trees = st.recursive(
    st.builds(Tree, st.none() | leaves, st.lists(leaves, max_size=3).map(tuple), st.tuples(st.integers(-9, 9), st.text()),
              st.frozensets(st.text(max_size=3), max_size=3), st.lists(st.text(), max_size=3),
              st.dictionaries(st.text(), leaves, max_size=3), st.dictionaries(st.text(), st.integers(-9, 9), max_size=3),
              st.sampled_from(["a", "b"]), st.none() | st.integers(-9, 9) | st.text(), st.integers(-9, 9) | st.text()),
    lambda children: st.builds(Tree, children=st.lists(children, max_size=2).map(tuple)),
    max_leaves=4)


class TestRoundTrip:
    @given(trees)
    def test_every_value_of_the_declared_types_reads_back_equal(self, tree):
        assert round_trip(tree, Tree) == tree

    def test_a_field_whose_argument_has_another_name(self):
        assert round_trip(Private(3), Private) == Private(3)

    def test_every_loops_initial_state(self):
        from batchlog.projections.quick_batch.decider import QUICK_BATCH
        from batchlog.projections.tune.decider import TUNE

        for decider in (TUNE, QUICK_BATCH):
            assert round_trip(decider.initial, decider.state_type) == decider.initial


class TestWrongShapes:
    @pytest.mark.parametrize("data", [
        {"name": 1, "count": 0, "ratio": 0.5, "flag": False},  # a number for a string
        {"name": "a", "count": True, "ratio": 0.5, "flag": False},  # a boolean for a number
        {"name": "a", "count": 1.0, "ratio": 0.5, "flag": False},  # a float for an int
        {"name": "a", "count": 0, "ratio": "x", "flag": False},
        {"name": "a", "count": 0, "ratio": 0.5},  # a field missing
        {"name": "a", "count": 0, "ratio": 0.5, "flag": False, "more": 1},  # one too many
        {"name": "a", "count": 0, "ratio": 0.5, "fleg": False},  # one renamed
        ["a", 0, 0.5, False], "a", None, 3,
    ])
    def test_are_undecodable(self, data):
        with pytest.raises(Undecodable):
            from_data(data, Leaf)

    @pytest.mark.parametrize("field, data", [
        ("leaves", {"name": "a"}), ("pair", [1]), ("pair", [1, "a", 2]), ("pair", ["a", 1]), ("tags", "abc"),
        ("by_name", [["a", {}]]), ("view", {"a": "b"}), ("kind", "c"), ("either", None), ("children", [1]),
    ])
    def test_in_a_nested_field_too(self, field, data):
        good = to_data(Tree())
        with pytest.raises(Undecodable):
            from_data({**good, field: data}, Tree)


class TestTypesItDoesNotRead:
    def test_are_refused_when_read(self):
        @frozen
        class Odd:
            when: bytes

        with pytest.raises(Undecodable):
            from_data({"when": "x"}, Odd)

    def test_a_state_holding_one_is_never_snapshotted(self, tmp_path):
        from batchlog.engine.log import Projection
        from batchlog.engine.snapshots.document import document
        from batchlog.engine.scan import Position

        @frozen
        class Odd:
            when: complex = 1j

        projection = Projection("odd", Odd(), lambda state, event: state, state_type=Odd)
        assert document("key", projection, Odd, Odd(), Position(1, 1, 1, "0" * 64, "t"), {}) is None


@frozen
class WithDerived:
    items: tuple[int, ...] = ()
    _total: int | None = attrs.field(default=None, init=False, eq=False, repr=False)


class TestDerivedFields:
    def test_a_field_the_init_does_not_take_is_left_out_and_made_again(self):
        value = WithDerived((1, 2))
        object.__setattr__(value, "_total", 3)  # a cache a state fills on first use

        assert to_data(value) == {"items": [1, 2]}
        assert round_trip(value, WithDerived) == value and round_trip(value, WithDerived)._total is None

    def test_the_tunings_state_with_its_run_index_made_is_snapshotted(self):
        from batchlog.engine.scan import Position
        from batchlog.engine.snapshots.document import document
        from batchlog.projections.tune.decider import TUNE, without_usage

        state = TUNE.initial
        state.runs_of(1, "nomem")  # makes the index

        projection = without_usage(())
        assert document("k", projection, type(state), state, Position(1, 1, 1, "0" * 64, "t"), {}) is not None
