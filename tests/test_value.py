"""engine/value.py's `frozen`: attrs.frozen in every way but one, its `__repr__`, which is shared rather than
compiled per class and says what attrs' generated one says."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, strategies as st

from batchlog.engine.value import frozen


@frozen
class Point:
    x: int
    y: str = "a"


@frozen(kw_only=True)
class Named:
    name: str
    points: tuple[Point, ...] = ()


@attrs.frozen
class PointByAttrs:
    x: int
    y: str = "a"


class TestAnAttrsFrozenClass:
    def test_is_an_attrs_class_with_its_fields(self):
        assert attrs.has(Point) and [field.name for field in attrs.fields(Point)] == ["x", "y"]

    def test_is_immutable_and_slotted(self):
        point = Point(1)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            point.x = 2  # type: ignore[misc]
        assert not hasattr(point, "__dict__")

    def test_compares_and_hashes_by_value(self):
        assert Point(1, "b") == Point(1, "b") != Point(2, "b")
        assert hash(Point(1, "b")) == hash(Point(1, "b"))

    def test_keyword_only_when_asked(self):
        with pytest.raises(TypeError):
            Named("x")  # type: ignore[misc]
        assert attrs.evolve(Named(name="x"), name="y") == Named(name="y")


class TestRepr:
    @given(st.integers(), st.text())
    def test_says_what_attrs_generated_repr_says(self, x, y):
        assert repr(Point(x, y)) == repr(PointByAttrs(x, y)).replace("PointByAttrs", "Point")

    def test_nested_values_by_their_own_repr(self):
        assert repr(Named(name="n", points=(Point(1),))) == "Named(name='n', points=(Point(x=1, y='a'),))"

    def test_a_class_defined_in_a_function_is_named_as_attrs_names_it(self):
        @frozen
        class Local:
            value: int

        assert repr(Local(3)) == "Local(value=3)"


def test_a_field_kept_out_of_repr_is_kept_out_of_it():
    @frozen
    class Cached:
        value: int
        _cache: int = attrs.field(default=0, repr=False)

    assert repr(Cached(1)) == "Cached(value=1)"
