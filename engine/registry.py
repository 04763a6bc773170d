"""Event types with their versions, and the upcasters that bring old versions up.

The domain hands the engine an explicit list of `EventType`s; the engine never
names a type of either loop. An upcaster takes the `data` of version n to n + 1.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from batchlog.engine.value import frozen

Upcaster = Callable[[dict], dict]


def _as_dict(event: Any) -> dict:
    return attrs.asdict(event, recurse=True)


@frozen
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
            return self.cls(**data)
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


@frozen
class Raw:
    """An event given by type name and data, for types with no class of their own."""

    type: str
    data: Mapping = attrs.field(factory=dict)
