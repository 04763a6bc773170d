"""A tiny test domain for the reliability suites: notes and claims, a fold, decisions, a registry.

Kept apart from the loops so the engine-level suites do not wait for them.
`Noted` carries who wrote it and the command it belongs to (`command`, `part`
of `parts`), so a test can see that a command's events are all in the log or
none is; `Claimed` is a uniqueness rule: each number is handed out once.
"""

from __future__ import annotations

import attrs

from batchlog.engine import EventLog, EventType, Projection, Registry


@attrs.frozen
class Noted:
    writer: int
    command: int
    part: int
    parts: int
    pad: str = ""


@attrs.frozen
class Claimed:
    number: int
    by: str


@attrs.frozen
class State:
    events: int = 0
    last_claim: int = 0
    claims: int = 0
    notes: int = 0


def evolve(state: State, event) -> State:
    match event.data:
        case Noted():
            return attrs.evolve(state, events=state.events + 1, notes=state.notes + 1)
        case Claimed(number=number):
            if number != state.last_claim + 1:
                raise AssertionError(f"claim {number} after {state.last_claim}: a decision was taken twice")
            return attrs.evolve(state, events=state.events + 1, last_claim=number, claims=state.claims + 1)
        case _:
            raise TypeError(f"no fold for {event.type}")


REGISTRY = Registry([EventType("test.noted", 1, Noted), EventType("test.claimed", 1, Claimed)])
PROJECTION = Projection("reliability", State(), evolve)


def open_log(path) -> EventLog:
    return EventLog(path, REGISTRY)


def note(writer: int, command: int, parts: int = 1, pad: int = 0):
    """A decide that writes one command of `parts` notes."""
    return lambda state: [Noted(writer, command, part, parts, "p" * pad) for part in range(parts)]


def claim_next(by: str):
    """A decide that claims the number after the last one claimed (the read-decide-append race)."""
    return lambda state: [Claimed(state.last_claim + 1, by)]
