"""engine/value.py's `frozen`: attrs.frozen in every way but what it costs to define a class. Its `__repr__` and
`__hash__` are shared rather than compiled per class and do what attrs' generated ones do; the rest of the
methods attrs writes come from engine/compiled_methods.py, compiled ahead, when it holds their very source."""

from __future__ import annotations

import __future__
import ast
import inspect
from pathlib import Path
from types import CodeType

import attr._make
import attrs
import pytest
from hypothesis import given, strategies as st

from batchlog.cli.methods_writer import COMMAND, sources, table_path, table_source
from batchlog.engine import compiled_methods, value
from batchlog.engine.compiled_methods import METHODS
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


@frozen
class Hashed:
    x: int
    note: str = attrs.field(default="", eq=False)
    seen: int = attrs.field(default=0, hash=False)


@attrs.frozen
class HashedByAttrs:
    x: int
    note: str = attrs.field(default="", eq=False)
    seen: int = attrs.field(default=0, hash=False)


class TestHash:
    @given(st.integers(), st.text(), st.integers(), st.integers(), st.text(), st.integers())
    def test_equal_values_hash_alike_over_the_fields_attrs_hashes(self, x, note, seen, x2, note2, seen2):
        one, two = Hashed(x, note, seen), Hashed(x2, note2, seen2)
        assert (one == two) == (HashedByAttrs(x, note, seen) == HashedByAttrs(x2, note2, seen2))
        if one == two:
            assert hash(one) == hash(two)
        assert hash(one) == hash(Hashed(x, note2, seen2))  # neither `note` nor `seen` is hashed, as with attrs

    def test_a_class_of_no_field_hashes(self):
        @frozen
        class Empty:
            pass

        assert hash(Empty()) == hash(Empty()) and Empty() == Empty()

    def test_equal_fields_of_two_classes_are_unequal_values_hashed_apart(self):
        @frozen
        class Other:
            x: int
            y: str = "a"

        assert Point(1) != Other(1) and Point(1) != PointByAttrs(1)
        assert hash(Point(1)) != hash(Other(1))  # the class is hashed with the fields, as attrs' number stood for it

    def test_a_field_that_cannot_be_hashed_refuses_as_attrs_does(self):
        with pytest.raises(TypeError, match="unhashable"):
            hash(Point([1]))  # type: ignore[arg-type]


def _function_codes(code: CodeType) -> dict[str, CodeType]:
    return {const.co_name: const for const in code.co_consts if isinstance(const, CodeType)}


def _as_attrs_compiles(script: str) -> CodeType:
    """The code attrs compiles of a source: its module's `from __future__ import annotations` inherited."""
    return compile(script, "<attrs>", "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True)


def _same_code(ahead: CodeType, compiled: CodeType) -> bool:
    """The same function, whether defined at the top of a compiled text or inside one of the table's functions
    (which Python marks nested): same instructions, names, constants and arguments, and no free variable, so every
    name it uses is looked up where the compiled text's would be."""
    def constants(code: CodeType) -> tuple:
        return tuple(const for const in code.co_consts if not isinstance(const, CodeType))

    return (ahead.co_code == compiled.co_code and ahead.co_names == compiled.co_names
            and constants(ahead) == constants(compiled) and ahead.co_varnames == compiled.co_varnames
            and ahead.co_freevars == compiled.co_freevars == () and ahead.co_cellvars == compiled.co_cellvars
            and ahead.co_argcount == compiled.co_argcount and ahead.co_kwonlyargcount == compiled.co_kwonlyargcount
            and (ahead.co_flags & ~inspect.CO_NESTED) == (compiled.co_flags & ~inspect.CO_NESTED))


class TestTheTableOfMethodsCompiledAhead:
    def test_the_committed_table_is_what_the_writer_writes(self):
        """Run `python -m batchlog.cli.methods_writer --write` after adding or changing a class."""
        assert table_path().read_text(encoding="utf-8") == table_source(sources()), f"stale: run {COMMAND}"

    def test_it_holds_the_classes_of_every_layer(self):
        scripts = "\n".join(METHODS)
        for field in ("self.seq ==", "self.halt_reason ==", "self.batches =="):  # engine, quick batch, tuning
            assert field in scripts

    def test_each_function_defines_what_its_text_compiled_defines(self):
        assert table_path().read_text(encoding="utf-8") == table_source(list(METHODS))
        for script, ahead in METHODS.items():
            assert ahead.__code__.co_argcount == 0 and ahead.__defaults__ is None and ahead.__closure__ is None
            nested, top = _function_codes(ahead.__code__), _function_codes(_as_attrs_compiles(script))
            assert nested.keys() == top.keys() and top
            for name, code in top.items():
                assert _same_code(nested[name], code), (name, script)

    def test_a_class_whose_text_it_holds_takes_its_methods_from_it(self):
        @frozen
        class Raw:  # the very fields of the engine's Raw (engine/registry.py), so the very text attrs writes
            type: str
            data: dict = attrs.field(factory=dict)

        init = Raw.__init__
        assert Path(init.__code__.co_filename).name == "compiled_methods.py"
        assert init.__qualname__ == f"{Raw.__qualname__}.__init__" and init.__module__ == __name__
        raw = Raw("t")
        assert raw.data == {} and raw == Raw("t", {}) != Raw("u") and raw.data is not Raw("t").data
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            raw.type = "u"  # type: ignore[misc]

    def test_a_class_whose_text_it_lacks_is_compiled_by_attrs(self):
        assert Path(Point.__init__.__code__.co_filename).name != "compiled_methods.py"
        assert Point(1) == Point(1, "a")

    def test_attrs_is_left_as_it_was_once_a_class_is_defined(self):
        compile_and_eval = attr._make._compile_and_eval

        @frozen
        class Any_:
            value: int

        assert attr._make._compile_and_eval is compile_and_eval is value._ATTRS_COMPILE

    def test_an_attrs_without_the_function_it_replaces_still_defines_classes(self, monkeypatch):
        monkeypatch.setattr(value, "_ATTRS_COMPILE", None)

        @frozen
        class Raw:
            type: str
            data: dict = attrs.field(factory=dict)

        assert Path(Raw.__init__.__code__.co_filename).name != "compiled_methods.py"
        assert Raw("t") == Raw("t", {})

    def test_its_module_imports_nothing(self):
        tree = ast.parse(Path(compiled_methods.__file__).read_text(encoding="utf-8"))
        imports = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
        assert [(node.module, [alias.name for alias in node.names]) for node in imports] == [
            ("__future__", ["annotations"])]
