"""The tally's one event: a word was counted."""

from __future__ import annotations

import attrs

from batchlog.engine.registry import EventType, Registry


@attrs.frozen
class Counted:
    word: str


REGISTRY = Registry([EventType("tally.counted", 1, Counted)])
