"""A folded state as JSON data and back, by its declared types: what a snapshot holds (no pickle, no code).

`to_data` turns a state into what orjson writes: an attrs instance into an object of the fields its `__init__`
takes (a field it does not take is derived, made again when needed, as cattrs leaves it out too), a tuple, list or
set into an array, a dict into an object, anything else as it is. `from_data` reads it back into the declared
class, field by field, from the class's own annotations, checking every value's JSON type on the way: a value of
the wrong kind is `Undecodable`, and the snapshot holding it is never used. The types it reads: None, bool, int,
float, str, attrs classes, `X | None` and other unions, `tuple[X, ...]` and fixed tuples, `list[X]`, `set[X]`,
`frozenset[X]`, `dict[str, X]` and `Mapping[str, X]`, `Literal[...]`, `Any`. A state with another type anywhere
is never snapshotted (`Undecodable` when its readers are built; the snapshot's writer also reads what it wrote
back and compares, engine/snapshots/document.py).

cattrs did this before; its import and the structuring code it generates for each class cost a view ~80 ms of
CPU a process, more than replaying 1,000 events. Here each class's reader is a few closures built from its
fields on first use.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import attrs

Reader = Callable[[Any], Any]


class Undecodable(ValueError):
    """The data does not have the declared shape, or the declared type is one this codec does not read."""


def to_data(value: Any) -> Any:
    """`value` as plain JSON data (see the module's docstring)."""
    if attrs.has(type(value)):
        return {field.name: to_data(getattr(value, field.name)) for field in attrs.fields(type(value)) if field.init}
    if isinstance(value, (tuple, list)):
        return [to_data(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted(to_data(item) for item in value)
    if isinstance(value, dict):
        return {key: to_data(item) for key, item in value.items()}
    return value


def from_data(data: Any, declared: type) -> Any:
    """`data` read back as a `declared` (Undecodable when it is not one)."""
    return reader(declared)(data)


@cache
def reader(declared: Any) -> Reader:
    """The function that reads data as `declared`, built once per type."""
    if declared is Any:
        return _same
    if declared is None or declared is type(None):
        return _exactly(type(None))
    if declared in (bool, int, str):
        return _exactly(declared)
    if declared is float:
        return _float
    if isinstance(declared, type) and attrs.has(declared):
        return _attrs_reader(declared)
    origin, args = typing.get_origin(declared), typing.get_args(declared)
    if origin in (typing.Union, types.UnionType):
        return _union([reader(arg) for arg in args])
    if origin is typing.Literal:
        return _literal(args)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = reader(args[0])
        return _sequence(lambda data: tuple(item(x) for x in data))
    if origin is tuple and args:
        items = [reader(arg) for arg in args]
        return _sequence(lambda data: _fixed(items, data))
    if origin in (list, set, frozenset) and len(args) == 1:
        item, make = reader(args[0]), origin
        return _sequence(lambda data: make(item(x) for x in data))
    if origin in (dict, Mapping) and len(args) == 2 and args[0] is str:
        value = reader(args[1])
        return _object(lambda data: {key: value(item) for key, item in data.items()})
    raise Undecodable(f"a snapshot cannot hold a {declared!r}")


def _attrs_reader(cls: type) -> Reader:
    fields: list[tuple[str, str, Reader]] = []  # built on first use: a class may hold itself (a tree of them)

    def read(data: Any) -> Any:
        if not fields:
            fields.extend(_fields(cls))
        if type(data) is not dict or len(data) != len(fields):
            raise Undecodable(f"not a {cls.__qualname__}")
        try:
            return cls(**{alias: read_field(data[name]) for name, alias, read_field in fields})
        except KeyError:
            raise Undecodable(f"not a {cls.__qualname__}") from None

    return read


def _fields(cls: type) -> list[tuple[str, str, Reader]]:
    """Each field the class's `__init__` takes: its name in the data, its argument's name, its reader."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception as error:  # noqa: BLE001 - an annotation that names what its module does not hold
        raise Undecodable(f"the annotations of {cls.__qualname__} cannot be resolved: {error}") from None
    taken = [field for field in attrs.fields(cls) if field.init]
    if any(field.name not in hints for field in taken):
        raise Undecodable(f"{cls.__qualname__} has a field without a type")
    return [(field.name, field.alias, reader(hints[field.name])) for field in taken]


def _same(data: Any) -> Any:
    return data


def _exactly(kind: type) -> Reader:
    def read(data: Any) -> Any:
        if type(data) is not kind:
            raise Undecodable(f"not a {kind.__name__}")
        return data

    return read


def _float(data: Any) -> float:
    if type(data) not in (float, int):
        raise Undecodable("not a number")
    return float(data)


def _union(choices: list[Reader]) -> Reader:
    def read(data: Any) -> Any:
        for choice in choices:
            try:
                return choice(data)
            except Undecodable:
                continue
        raise Undecodable("none of the union's types")

    return read


def _literal(values: tuple[Any, ...]) -> Reader:
    def read(data: Any) -> Any:
        if not any(type(data) is type(value) and data == value for value in values):
            raise Undecodable(f"not one of {values!r}")
        return data

    return read


def _sequence(build: Reader) -> Reader:
    def read(data: Any) -> Any:
        if type(data) is not list:
            raise Undecodable("not an array")
        return build(data)

    return read


def _object(build: Reader) -> Reader:
    def read(data: Any) -> Any:
        if type(data) is not dict:
            raise Undecodable("not an object")
        return build(data)

    return read


def _fixed(items: list[Reader], data: list) -> tuple:
    if len(data) != len(items):
        raise Undecodable(f"not {len(items)} items")
    return tuple(read(x) for read, x in zip(items, data))
