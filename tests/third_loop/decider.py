"""A third loop, defined outside batchlog to show what a loop is (cli/loops.py): a tally of words. Its state, fold
and decision, and `TALLY`, its Decider. Pure."""

from __future__ import annotations

from typing import Any

import attrs

from batchlog.engine.envelope import Event
from batchlog.engine.fold_version import CodeVersion
from batchlog.projections.decider import Decider
from batchlog.projections.errors import BadInput, WrongLog
from tests.third_loop.events import REGISTRY, Counted
from tests.third_loop.versions import PREFIX


@attrs.frozen
class Tally:
    """How many times each word was counted, in the order words first came; `foreign`: another loop's event met."""

    counts: tuple[tuple[str, int], ...] = ()
    foreign: str | None = None


@attrs.frozen
class Count:
    """Count each of `words` once more."""

    words: tuple[str, ...] = attrs.field(converter=tuple)


def evolve(state: Tally, event: Event) -> Tally:
    match event.data:
        case Counted(word=word):
            counts = dict(state.counts)
            counts[word] = counts.get(word, 0) + 1
            return attrs.evolve(state, counts=tuple(counts.items()))
        case _ if not event.type.startswith(PREFIX):
            return state if state.foreign else attrs.evolve(state, foreign=event.type)
        case _:
            raise TypeError(f"the tally has no fold for {event.type}")


def decide(command: Any, state: Tally) -> list:
    match command:
        case Count(words=words):
            if not words or not all(word.strip() for word in words):
                raise BadInput("give the words to count, none of them empty")
            return [Counted(word) for word in words]
        case _:
            raise TypeError(f"the tally has no command {type(command).__name__}")


def another_loops_log(state: Tally, log: str) -> WrongLog | None:
    if state.foreign is None:
        return None
    return WrongLog(f"{log} is not a tally's log: it holds {state.foreign} events", type=state.foreign)


TALLY = Decider(name="tally", initial=Tally(), evolve=evolve, state_type=Tally,
                version=CodeVersion(("tests.third_loop.events", "tests.third_loop.decider")),
                decide=decide, registry=REGISTRY, wrong_log=another_loops_log)
