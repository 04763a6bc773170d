"""Registries of every loop's event types, built from the loops' own: what `log verify` and `log show` read with,
and what a loop's commands read with, which names the other loops' types from their plain `{type: version}`
tables without importing their classes. Pure: cli/loops.py says which loops there are."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from batchlog.engine.own_types import REGISTRY as ENGINE  # the engine's own `log.*` types
from batchlog.engine.registry import EventType, Registry


def every_type(registries: Iterable[Registry]) -> Registry:
    """Every loop's types with their classes, and the engine's."""
    return Registry([*(spec for registry in registries for spec in registry.by_name.values()),
                     *ENGINE.by_name.values()])


def read_by(own: Registry, tables: Iterable[Mapping[str, int]]) -> Registry:
    """`own` types with their classes, the other types of `tables` (type -> version) without theirs (their events'
    data stays as read; the loop's fold only notes that the log is another loop's), and the engine's: the same
    names and versions as `every_type`, so the same snapshots."""
    foreign = Registry(EventType(name, version, upcasters=(_as_read,) * (version - 1))
                       for table in tables for name, version in table.items() if name not in own.by_name)
    return own.merged(foreign).merged(ENGINE)


def _as_read(data: dict) -> dict:
    """A foreign event's data is never read: an older version stays as it was written."""
    return data
