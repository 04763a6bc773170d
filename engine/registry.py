"""Event types with their versions, and the upcasters that bring old versions up.

The domain hands the engine an explicit list of `EventType`s; the engine never
names a type of either loop. An upcaster takes the `data` of version n to n + 1.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
import types
from typing import Any

import attrs

Upcaster = Callable[[dict], dict]


def _as_dict(event: Any) -> dict:
    return attrs.asdict(event, recurse=True)


@attrs.frozen
class EventType:
    """One event type: its name, current version, class, and upcasters.

    `upcasters[i]` takes data of version i + 1 to version i + 2, so a type at
    version 3 has two. `decode` builds the domain object from data at the
    current version; `encode` turns it back into data.
    """

    name: str
    version: int
    cls: type | None = None
    upcasters: tuple[Upcaster, ...] = ()
    decode: Callable[[dict], Any] | None = None
    encode: Callable[[Any], dict] = _as_dict

    def __attrs_post_init__(self) -> None:
        if len(self.upcasters) != self.version - 1:
            raise ValueError(f"{self.name} v{self.version} needs {self.version - 1} upcaster(s)")

    def upcast(self, data: dict, v: int) -> dict:
        """`data` written at version `v`, brought up to the current version one step at a time."""
        for step in self.upcasters[v - 1 :]:
            data = step(data)
        return data

    def to_domain(self, data: dict) -> Any:
        if self.decode is not None:
            return self.decode(data)
        if self.cls is not None:
            return domain_maker(self.cls)(data)
        return data


class Registry:
    """The event types a reader knows, by name and by class."""

    def __init__(self, types: Iterable[EventType] = ()) -> None:
        self.by_name: dict[str, EventType] = {}
        self.by_class: dict[type, EventType] = {}
        for event_type in types:
            self.add(event_type)

    def add(self, event_type: EventType) -> None:
        if event_type.name in self.by_name:
            raise ValueError(f"event type {event_type.name} is registered twice")
        self.by_name[event_type.name] = event_type
        if event_type.cls is not None:
            self.by_class[event_type.cls] = event_type

    def merged(self, other: Registry) -> Registry:
        return Registry([*self.by_name.values(), *other.by_name.values()])

    def get(self, name: str) -> EventType | None:
        return self.by_name.get(name)

    def for_event(self, event: Any) -> EventType:
        """The type of a domain event object (or a `Raw` one)."""
        if isinstance(event, Raw):
            found = self.by_name.get(event.type)
        else:
            found = self.by_class.get(type(event))
        if found is None:
            raise KeyError(f"{event!r} is not a registered event type")
        return found

    def encode(self, event: Any) -> tuple[str, int, Mapping]:
        if isinstance(event, Raw):
            spec = self.for_event(event)
            return spec.name, spec.version, event.data
        spec = self.for_event(event)
        return spec.name, spec.version, spec.encode(event)


@attrs.frozen
class Raw:
    """An event given by type name and data, for types with no class of their own."""

    type: str
    data: Mapping = attrs.field(factory=dict)


# -- decoding fast: `cls(**data)` without the call machinery ------------------------------------------

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
        maker = _MAKERS[cls] = _slot_setter(cls) or _calling(cls)
    return maker


def _calling(cls: type) -> Callable[[dict], Any]:
    def make(data: dict) -> Any:
        return cls(**data)

    return make


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
