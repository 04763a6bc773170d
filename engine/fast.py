"""The engine's fast paths, each beside the plain code it must equal (tests/test_decode_speedups.py checks it).

Only a trick that earns at least 10% on a bench row is kept here (issue 14); everywhere else the
plain code is the code. Today one: decoding an event's data into its class.

- `domain_maker(cls)` for `plain_maker(cls)` (`cls(**data)`): 12-13% of the full replay of a log
  whose every event is typed (bench row "full replay ... every event typed and folded").

Tried and dropped (under 10%): building `Event`s without attrs' __init__ (5%); copying the tuning's
`slots=False` states through their `__dict__` (no bench row folds usage reports since tune status
replays without them).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import attrs


def plain_maker(cls: type) -> Callable[[dict], Any]:
    """The plain decoder: `data -> cls(**data)`."""

    def make(data: dict) -> Any:
        return cls(**data)

    return make


_MAKERS: dict[type, Callable[[dict], Any]] = {}


def domain_maker(cls: type) -> Callable[[dict], Any]:
    """A function `data -> cls(**data)`, the same object and the same errors, built for speed.

    For a slotted attrs class whose generated __init__ only stores its arguments (converters
    allowed; no validators, no init hooks, no aliases, no hash cache), the function sets the slots
    directly, converters applied in field order as __init__ applies them: about half the cost
    of the call. Any data that does not hold exactly the fields, and every other class, goes
    through `cls(**data)` itself. Made on first use and kept per class.
    """
    maker = _MAKERS.get(cls)
    if maker is None:
        maker = _MAKERS[cls] = _slot_setter(cls) or plain_maker(cls)
    return maker


def _slot_setter(cls: type) -> Callable[[dict], Any] | None:
    """The slot-setting maker of `domain_maker`, or None when `cls` needs its own __init__."""
    if not attrs.has(cls) or cls.__new__ is not object.__new__:
        return None
    if any(hasattr(cls, hook) for hook in ("__attrs_pre_init__", "__attrs_post_init__", "__attrs_init__")):
        return None
    init = getattr(cls.__init__, "__code__", None)
    if init is None or not init.co_filename.startswith("<attrs generated"):
        return None  # an __init__ of its own
    fields = attrs.fields(cls)
    slots = {name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ())} - {"__weakref__"}
    if not fields or slots != {field.name for field in fields} or cls.__dictoffset__ != 0:
        return None  # not slotted, or slots beyond the fields (a cached hash)
    names: dict[str, Any] = {"cls": cls, "new": object.__new__}
    lines = ["def make(data):", f"    if len(data) != {len(fields)}:", "        return cls(**data)",
             "    try:", "        made = new(cls)"]
    for index, field in enumerate(fields):
        if not field.init or field.alias != field.name or field.validator is not None:
            return None
        setter = next((klass.__dict__[field.name] for klass in cls.__mro__ if field.name in klass.__dict__), None)
        if type(setter) is not types.MemberDescriptorType:
            return None
        names[f"set_{index}"] = setter.__set__
        value = f"data[{field.name!r}]"
        if field.converter is not None:
            if not _plain_function(field.converter):
                return None
            names[f"convert_{index}"] = field.converter
            value = f"convert_{index}({value})"
        lines.append(f"        set_{index}(made, {value})")
    lines += ["    except KeyError:", "        return cls(**data)  # not the fields: the call says what is wrong",
              "    return made"]
    exec(compile("\n".join(lines), f"<batchlog decoder {cls.__module__}.{cls.__qualname__}>", "exec"), names)
    return names["make"]


def _plain_function(converter: Any) -> bool:
    """A converter attrs calls with the value alone (not an `attrs.Converter` taking self or the field)."""
    return callable(converter) and type(converter).__name__ != "Converter"
