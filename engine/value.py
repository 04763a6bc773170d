"""`frozen`: `attrs.frozen` (slotted, immutable, compared by value), whose classes share one `__repr__` rather
than each compiling its own.

attrs writes and compiles the source of a class's methods when the class is defined. A command defines some fifty
classes (its loop's events and state, the engine's values), and defining them cost more than the rest of its
imports together (measured from an installed wheel: 62 ms of `tune status`'s 103 ms of batchlog imports, 1.2 ms a
class); a generated `__repr__` is a quarter of a class's cost. The shared one writes what attrs' would, from the
class's fields when asked. The classes stay attrs classes: `attrs.fields`, `attrs.evolve` and the snapshots'
codec (engine/snapshots/state_codec.py) see no difference.
"""

from __future__ import annotations

from typing import Any, TypeVar, dataclass_transform, overload

import attrs

C = TypeVar("C", bound=type)


@overload
def frozen(cls: C, /) -> C: ...
@overload
def frozen(*, kw_only: bool = False) -> Any: ...


@dataclass_transform(frozen_default=True, field_specifiers=(attrs.field,))
def frozen(cls: type | None = None, /, *, kw_only: bool = False) -> Any:
    """`@frozen` or `@frozen(kw_only=True)` over a class, as `attrs.frozen` would be."""

    def build(cls: type) -> type:
        built = attrs.frozen(cls, repr=False, kw_only=kw_only)
        built.__repr__ = _repr
        return built

    return build if cls is None else build(cls)


def _repr(self: Any) -> str:
    """What attrs' generated `__repr__` says: `Name(field=value, ...)`."""
    fields = ", ".join(f"{field.name}={getattr(self, field.name)!r}" for field in attrs.fields(type(self))
                       if field.repr)
    return f"{type(self).__qualname__.rsplit('>.', 1)[-1]}({fields})"
