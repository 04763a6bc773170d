"""A tiny domain for engine tests: notes appended to a list. No tuning, no quick batch."""

from __future__ import annotations

import attrs

from batchlog.engine import EventType, Projection, Registry
from batchlog.engine.fold_version import code_version


@attrs.frozen
class NoteAdded:
    text: str
    tags: tuple[str, ...] = attrs.field(default=(), converter=tuple)
    weight: int = 0


@attrs.frozen
class NotesCleared:
    reason: str


REGISTRY = Registry([EventType("sample.note_added", 1, NoteAdded), EventType("sample.notes_cleared", 1, NotesCleared)])


def evolve(state: tuple, event) -> tuple:
    match event.data:
        case NoteAdded():
            return (*state, event.data)
        case NotesCleared():
            return ()
        case _:
            raise TypeError(f"unknown event {event.type}")


NOTES = Projection("sample.notes", (), evolve)


@attrs.frozen
class Count:
    """How many notes were added: a state that does not grow with the log."""

    notes: int = 0


def count(state: Count, event) -> Count:
    match event.data:
        case NoteAdded():
            return Count(state.notes + 1)
        case NotesCleared():
            return Count(0)
        case _:
            raise TypeError(f"unknown event {event.type}")


COUNT = Projection("sample.count", Count(), count, version=code_version(__name__), state_type=Count)


class CountingFold:
    """`fold`, counting its calls: how many events a replay folded."""

    def __init__(self, fold) -> None:
        self.fold = fold
        self.calls = 0

    def __call__(self, state, event):
        self.calls += 1
        return self.fold(state, event)
