"""tune import's events (pure): the log it writes replays to the folder's own history and order."""

from __future__ import annotations

import attrs
import pytest

from projections.errors import Refused
from projections.tune.events import DifficultAdded, DifficultFixed, RunGraded
from projections.tune.evolve import TUNE
from projections.tune.zen_import import ZenFolder, ZenRun, import_events, into_an_empty_log
from tests.tune_helpers import fold

CASES = tuple({"id": f"c{n}"} for n in range(1, 7))


def zen(difficult: tuple) -> ZenFolder:
    runs = (
        ZenRun("batch01-nomem-run1", ("c1", "c2", "c3"), "WRONG", None),
        ZenRun("batch01-nomem-run2", ("c1", "c2", "c3"), "PASSED", None),
    )
    return ZenFolder("zen", {}, CASES, CASES, difficult, runs)


def difficult_events(events: list) -> list:
    return [(type(e).__name__, e.case) for e in events if isinstance(e, (DifficultAdded, DifficultFixed))]


class TestDifficultOrder:
    def test_entries_added_in_one_run_keep_the_order_of_difficult_json(self):
        entries = tuple({"id": case, "reasons": ["wrong"], "added": "batch01-nomem-run1"} for case in ("c3", "c1", "c2"))

        events = import_events(zen(entries))

        assert difficult_events(events) == [("DifficultAdded", "c3"), ("DifficultAdded", "c1"),
                                            ("DifficultAdded", "c2")]

    def test_entries_come_after_the_run_they_name_was_graded(self):
        entries = ({"id": "c2", "reasons": ["wrong"], "added": "batch01-nomem-run1"},)

        events = import_events(zen(entries))

        graded = next(i for i, e in enumerate(events) if isinstance(e, RunGraded) and e.run == "batch01-nomem-run1")
        assert isinstance(events[graded + 1], DifficultAdded)

    def test_fixes_in_one_run_keep_the_order_of_difficult_json_and_follow_their_adds(self):
        entries = tuple({"id": case, "reasons": ["wrong"], "added": "batch01-nomem-run1",
                         "fixed": "batch01-nomem-run2"} for case in ("c2", "c1"))

        events = import_events(zen(entries))

        assert difficult_events(events) == [("DifficultAdded", "c2"), ("DifficultAdded", "c1"),
                                            ("DifficultFixed", "c2"), ("DifficultFixed", "c1")]


class TestOnlyIntoAnEmptyLog:
    def test_an_empty_log_takes_the_events(self):
        events = import_events(zen(()))

        assert into_an_empty_log(events, "zen/events.jsonl")(TUNE.initial) is events

    def test_a_log_written_meanwhile_is_refused(self):
        events = import_events(zen(()))
        tuned = fold(events[0])
        other_loop = attrs.evolve(TUNE.initial, foreign="qb.batch_started")
        assert tuned.settings is not None

        for state in (tuned, other_loop):
            with pytest.raises(Refused, match="zen/events.jsonl was written meanwhile: nothing imported"):
                into_an_empty_log(events, "zen/events.jsonl")(state)
