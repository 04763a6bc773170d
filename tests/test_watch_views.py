"""The watches' views (projections/tune/views/watch.py, projections/quick_batch/watch.py): data of a state, the
same figures as the views `status` and `next` give, and one event in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from batchlog.engine import Event
from batchlog.engine.log import EventLog
from batchlog.cli.tune.log import tuning_types
from batchlog.projections.errors import Refused
from batchlog.projections.quick_batch.events import TargetStarted
from batchlog.projections.quick_batch.watch import batch_watch, seconds_between
from batchlog.projections.tune.events import (
    BatchBuilt,
    ChangeRecorded,
    DifficultAdded,
    DifficultFixed,
    DifficultWithdrawn,
    MemoryKept,
    RunGraded,
    RunRegraded,
    RunStarted,
    UsageRecorded,
)
from batchlog.projections.tune.decider import TUNE
from batchlog.projections.tune.views.status import Place, next_step, progress_figures
from batchlog.projections.tune.views.watch import event_words, is_closed, tuning_watch
from tests.test_quick_batch import given_events, halted, started, succeeded
from tests.tune_helpers import AT

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def tuning(name: str):
    return EventLog(FIXTURES / name / "events.jsonl", tuning_types()).replay(TUNE).state


class TestTuningWatch:
    def test_the_bars_and_counts_are_the_status_views_figures(self):
        state = tuning("tune-in-progress")
        figures = progress_figures(state)

        view = tuning_watch(state, Place("finetune"))

        assert (view.cases_used, view.selection) == (figures["used"], figures["selection"]) == (15, 64)
        assert (view.batches_built, view.batches_total) == (3, 3 + figures["batches_ahead"])
        assert view.difficult_counts == figures["difficult"] == {"open": 1, "fixed": 1, "stuck": 0}
        assert [row.status for row in view.difficult] == ["open", "fixed"]

    def test_the_step_is_tune_nexts_and_the_runs_are_counted_by_verdict(self):
        state = tuning("tune-in-progress")

        view = tuning_watch(state, Place("finetune"))

        assert view.step == next_step(state, Place("finetune"))
        assert view.verdicts == {"PASSED": 4, "CORRECT": 2, "WRONG": 1, "VOID": 0, "": 1}
        assert view.runs == 8 and sum(view.verdicts.values()) == 8

    def test_tokens_and_calls_add_up_the_runs_that_report_them(self):
        state = tuning("tune-in-progress")

        view = tuning_watch(state, Place("finetune"))

        assert (view.tokens, view.calls, view.reporting) == (1_427_000, 849, 7)

    def test_a_tuning_is_closed_once_its_final_check_passed(self):
        assert is_closed(tuning("tune-finished")) and not is_closed(tuning("tune-in-progress"))
        assert tuning_watch(tuning("tune-finished"), Place()).closed

    def test_a_folder_without_a_tuning_is_refused_as_every_view_refuses_it(self):
        with pytest.raises(Refused, match="no tuning here yet"):
            tuning_watch(TUNE.initial, Place())


WORDS = [
    (BatchBuilt(3, 9, "why", "new", ("a", "b"), ("c",)), "batch 3 built: 2 new + 1 recheck"),
    (RunStarted("batch03-nomem-run1", 3, "nomem", 1, ("a", "b", "c")), "batch03-nomem-run1 started (3 cases)"),
    (RunGraded("batch03-nomem-run1", "WRONG", ("a",)), "batch03-nomem-run1 graded WRONG (1 wrong)"),
    (RunGraded("batch03-mem-run1", "PASSED"), "batch03-mem-run1 graded PASSED"),
    (RunRegraded("batch03-nomem-run1", "CORRECT", "misread"), "batch03-nomem-run1 regraded CORRECT: misread"),
    (DifficultAdded("a", ("wrong", "flaky"), "batch03-nomem-run1"), "a is difficult (wrong, flaky; in batch03-nomem-run1)"),
    (DifficultFixed("a", "batch04-nomem-run1"), "a fixed in batch04-nomem-run1"),
    (DifficultWithdrawn("a", "batch03-nomem-run1", "regraded CORRECT"),
     "a withdrawn from the difficult list (regraded CORRECT)"),
    (ChangeRecorded("batch03-nomem-run1", "p.md", "cut", 4), "batch03-nomem-run1 changed p.md (4 lines)"),
    (MemoryKept(3, 41), "batch 3's memory kept (41 nodes)"),
    (UsageRecorded("batch03-nomem-run1", "gpt-5", 1200, 100_000, 5_000),
     "batch03-nomem-run1: gpt-5 1,200 calls, 105,000 tokens"),
    ({"raw": 1}, "tune.something_else"),
]


@pytest.mark.parametrize("fact, words", WORDS, ids=[words for _, words in WORDS])
def test_an_event_in_words(fact, words):
    assert event_words(Event(7, "tune.something_else", 1, AT, "id", fact)) == words


class TestBatchWatch:
    def test_the_targets_are_counted_by_place_and_the_one_in_hand_is_named(self):
        state = given_events(started("a", "b", "c", "d"), TargetStarted(1, "a"), succeeded(1, "a"),
                             TargetStarted(2, "b"), halted(2, "b"), TargetStarted(3, "c"))

        view = batch_watch(state, "run", "2026-12-02T16:00:10.000Z")

        assert (view.done, view.failed, view.in_progress, view.pending, view.total) == (1, 1, 1, 1, 4)
        assert view.current == {"batch": 3, "target": "c", "since": "2026-12-02T16:00:06.000Z"}
        assert view.current_seconds == 4 and view.elapsed == 10

    def test_the_time_left_is_the_mean_of_the_targets_own_durations(self):
        # a took 1 s (handed out at :02, recorded at :03), b 1 s; c, in hand since :06, has used 4 s of its 1.
        state = given_events(started("a", "b", "c", "d"), TargetStarted(1, "a"), succeeded(1, "a"),
                             TargetStarted(2, "b"), halted(2, "b"), TargetStarted(3, "c"))

        view = batch_watch(state, "run", "2026-12-02T16:00:10.000Z")

        assert view.per_target == 1 and view.left == 1  # d: 1 s; c: nothing left of the mean

    def test_no_estimate_before_a_target_has_ended(self):
        state = given_events(started("a", "b"), TargetStarted(1, "a"))

        view = batch_watch(state, "run", "2026-12-02T16:00:10.000Z")

        assert view.left is None and view.per_target is None and view.pending == 1

    def test_the_last_outcomes_come_newest_first(self):
        state = given_events(started("a", "b", "c"), TargetStarted(1, "a"), succeeded(1, "a"),
                             TargetStarted(2, "b"), halted(2, "b"))

        view = batch_watch(state, "run", "2026-12-02T16:00:10.000Z")

        assert [(row["batch"], row["status"]) for row in view.last] == [(2, "fail"), (1, "done")]

    def test_times_that_cannot_be_read_are_unknown(self):
        assert seconds_between("2026-12-02T16:00:00Z", "soon") is None
        assert seconds_between(None, "2026-12-02T16:00:00Z") is None
        assert seconds_between("2026-12-02T16:00:00Z", "2026-12-02T16:01:30.500Z") == 90.5
