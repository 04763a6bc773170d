"""The quick batch's Decider: every command decided on a folded state, the fold copying on write.

Property: for any run of commands, the state a command was decided on is never changed by the
fold of its events (it equals a deep copy taken before), the state after is a new object, and
folding the events one by one (`evolve`) or as one run (`evolve_all`) gives equal states.
Checked through the real `EventLog.append` too, whose `Appended.before` and `.state` must differ.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from batchlog.engine import Event, EventLog
from batchlog.projections.errors import Refused
from batchlog.projections.quick_batch import decide, views
from batchlog.projections.quick_batch.commands import (
    BriefCheck,
    NextTarget,
    RecordSummaryWritten,
    RecordTarget,
    Staged,
    StartBatch,
    StartBriefBatch,
    Summarize,
)
from batchlog.projections.quick_batch.events import REGISTRY
from batchlog.projections.quick_batch.decider import QUICK_BATCH
from batchlog.projections.quick_batch.evolve import evolve, evolve_all
from batchlog.projections.quick_batch.grammar import TargetLine
from batchlog.projections.quick_batch.state import Batch

STAMP = "2026-12-02T16:00:00Z"
RUN = "runs/skf-quick-skill-1"
PAYLOADS = st.one_of(
    st.builds(lambda score: Staged("result-context.json", "p", {"summary": {"quality_score": score}}),
              st.none() | st.integers(0, 100)),
    st.builds(lambda reason: Staged("halt.json", "p", {"halt_reason": reason, "exit_code": 3}),
              st.sampled_from(["user-cancelled", "write-failure", "other"])),
)
KINDS = ("next", "record", "summarize", "written", "start")


def command_for(state: Batch, kind: str, draw) -> object:
    """A command of `kind` as the CLI would build it on `state` (None: not one it can build now)."""
    if kind == "start":
        return StartBatch(RUN, "/w/t.txt", (), False, STAMP)
    if state.started is None:
        return None
    line = decide.next_target(state)
    if kind == "next":
        return NextTarget(RUN, None if line is None else line.batch, staged=False)
    if kind == "record":
        number = draw(st.integers(1, len(state.started.targets)))
        known = str(number) in state.results
        return RecordTarget(RUN, number, None if known else draw(PAYLOADS))
    if kind == "summarize":
        return Summarize(RUN, "out", False, STAMP)
    return RecordSummaryWritten(RUN, draw(st.none() | st.just("out/s.json")))


def fold(facts, first_seq: int) -> list[Event]:
    return [Event(first_seq + n, "qb.x", 1, f"2026-12-02T16:00:{n % 60:02d}.000Z", str(n), fact)
            for n, fact in enumerate(facts)]


@settings(max_examples=150)
@given(st.data(), st.integers(1, 5), st.booleans())
def test_no_command_changes_the_state_it_was_decided_on(data, targets, fail_fast):
    lines = tuple(TargetLine(n, f"t{n}") for n in range(1, targets + 1))
    state = QUICK_BATCH.initial
    first = StartBatch(RUN, "/w/t.txt", lines, fail_fast, STAMP)
    seq = 1
    for command in [first, *[None] * data.draw(st.integers(0, 25))]:
        if command is None:
            command = command_for(state, data.draw(st.sampled_from(KINDS)), data.draw)
        try:
            decision = decide.decide(command, state)
        except Refused:
            continue
        before = copy.deepcopy(state)
        events = fold(decision.events, seq)
        one_by_one = state
        for event in events:
            one_by_one = evolve(one_by_one, event)
        after = evolve_all(state, events)
        seq += len(events)

        assert state == before, type(command).__name__
        assert after == one_by_one
        if events:
            assert after is not state and after.results is not state.results
        state = after


def test_every_command_class_appends_through_the_log_with_before_and_after_apart(tmp_path):
    """One batch through the real log: start, next, record, summarize, the summary noted; a brief batch."""
    log = EventLog(tmp_path / "r" / "events.jsonl", REGISTRY)
    lines = (TargetLine(1, "a"), TargetLine(2, "b"))
    commands = [
        StartBatch(RUN, "/w/t.txt", lines, False, STAMP),
        NextTarget(RUN, 1, staged=False),
        RecordTarget(RUN, 1, Staged("result-context.json", "p", {})),
        NextTarget(RUN, 2, staged=False),
        RecordTarget(RUN, 2, Staged("halt.json", "p", {"halt_reason": "user-cancelled"})),
        Summarize(RUN, "out", False, STAMP),
        RecordSummaryWritten(RUN, "out/s.json"),
    ]
    briefs = EventLog(tmp_path / "b" / "events.jsonl", REGISTRY)
    brief_commands = [StartBriefBatch("b", ("/x/skill-brief.yaml", "/y/skill-brief.yaml"),
                                      (BriefCheck(name="x"), BriefCheck("brief-invalid", "bad")), False, STAMP,
                                      "batch-1")]
    classes = set()
    for target, run in ((log, commands), (briefs, brief_commands)):
        for command in run:
            befores = []

            def decide_and_keep(state, command=command):
                befores.append(copy.deepcopy(state))
                return list(decide.decide(command, state).events)

            appended = target.append(QUICK_BATCH, decide_and_keep)

            assert appended.events and appended.before is not appended.state, type(command).__name__
            assert appended.before == befores[-1]
            classes.add(type(command).__name__)

    assert classes == {"StartBatch", "NextTarget", "RecordTarget", "Summarize", "RecordSummaryWritten",
                       "StartBriefBatch"}
    state = log.replay(QUICK_BATCH).state
    assert state.summary_written is not None and views.summary_event(state.summary, state.summary_written)[
        "summary_path"] == "out/s.json"


def test_a_state_is_frozen():
    with pytest.raises(AttributeError):
        Batch().summary = None  # type: ignore[misc]
