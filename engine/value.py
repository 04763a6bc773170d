"""`frozen`: `attrs.frozen` (slotted, immutable, compared and hashed by value), made cheaper to define.

attrs writes and compiles the source of a class's methods when the class is defined. A command defines some fifty
classes (its loop's events and state, the engine's values), and defining them cost more than the rest of its
imports together (measured from an installed wheel: 62 ms of `tune status`'s 103 ms of batchlog imports, 1.2 ms a
class). Three things make it cheaper, none of them changing what a class does:

- One `__repr__` shared by every class, which writes what attrs' would, from the class's fields when asked.
- One `__hash__` shared the same way, hashing the fields attrs' would. attrs' own writes a number drawn from the
  process's string hashing into its source, so the source differed from one process to the next.
- The source attrs writes for the rest (`__init__`, `__eq__`) is then the same in every process, so it is compiled
  once, ahead, like any module: engine/compiled_methods.py holds each batchlog class's source as a function
  (`python -m batchlog.cli.methods_writer --write` writes it), and while `frozen` defines a class, attrs is handed
  that function's definitions in place of compiling the same text again. A text the table does not hold (a class
  added since the table was written, a third loop's class, another attrs version) is compiled by attrs as
  always: the table is looked up by the very text attrs wrote, so it saves time and never decides what a class
  does. It saves time only from its `.pyc` (compiling the table itself costs more than it saves: 53 ms against
  21), which pip writes when it installs the wheel and Python when it first imports a clone's module.

The classes stay attrs classes: `attrs.fields`, `attrs.evolve` and the snapshots' codec
(engine/snapshots/state_codec.py) see no difference.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FunctionType
from typing import Any, TypeVar, dataclass_transform, overload

import attr._make
import attrs

from batchlog.engine.compiled_methods import METHODS

C = TypeVar("C", bound=type)

# The one function of attrs that compiles a class's source: private to attrs, so it is replaced only while
# `frozen` defines a class, and left alone (the table unused) should an attrs version not have it.
_ATTRS_COMPILE: Callable[..., None] | None = getattr(attr._make, "_compile_and_eval", None)


@overload
def frozen(cls: C, /) -> C: ...
@overload
def frozen(*, kw_only: bool = False) -> Any: ...


@dataclass_transform(frozen_default=True, field_specifiers=(attrs.field,))
def frozen(cls: type | None = None, /, *, kw_only: bool = False) -> Any:
    """`@frozen` or `@frozen(kw_only=True)` over a class, as `attrs.frozen` would be."""

    def build(cls: type) -> type:
        with _compiled_ahead():
            built = attrs.frozen(cls, repr=False, unsafe_hash=False, kw_only=kw_only)
        built.__repr__ = _repr
        built.__hash__ = _hash_of(built)
        return built

    return build if cls is None else build(cls)


def _repr(self: Any) -> str:
    """What attrs' generated `__repr__` says: `Name(field=value, ...)`."""
    fields = ", ".join(f"{field.name}={getattr(self, field.name)!r}" for field in attrs.fields(type(self))
                       if field.repr)
    return f"{type(self).__qualname__.rsplit('>.', 1)[-1]}({fields})"


def _hash_of(cls: type) -> Callable[[Any], int]:
    """A `__hash__` of the class's instances over the fields attrs' generated one hashes (those compared, unless
    a field says otherwise), the class standing for attrs' per-class number."""
    names = [field.name for field in attrs.fields(cls) if (field.eq if field.hash is None else field.hash)]
    values: Callable[[Any], Any] = operator.attrgetter(*names) if names else lambda _: ()

    def __hash__(self: Any) -> int:
        return hash((cls, values(self)))

    __hash__.__qualname__ = f"{cls.__qualname__}.__hash__"
    return __hash__


@contextmanager
def _compiled_ahead() -> Iterator[None]:
    """While attrs defines a class: its methods' source, when the table holds it, defined from the table."""
    if _ATTRS_COMPILE is None:
        yield
        return
    attr._make._compile_and_eval = _defined
    try:
        yield
    finally:
        attr._make._compile_and_eval = _ATTRS_COMPILE


def _defined(script: str, globs: dict[str, Any] | None, locs: dict[str, Any] | None = None,
             filename: str = "") -> None:
    """What attrs' `_compile_and_eval` does (run the source, its definitions left in `locs`, or in `globs` when
    there are no `locs`), with the table's compiled copy of the source when it has one."""
    ahead = METHODS.get(script)
    if ahead is None or globs is None:
        attrs_compile: Callable[..., None] = _ATTRS_COMPILE  # type: ignore[assignment]  # set: `_defined` is in use
        attrs_compile(script, globs, locs, filename)
        return
    (globs if locs is None else locs).update(FunctionType(ahead.__code__, globs)())
