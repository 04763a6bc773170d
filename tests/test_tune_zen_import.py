"""tune import's events (pure): the log it writes replays to the folder's own history and order."""

from __future__ import annotations

import attrs
import orjson
import pytest

from batchlog.projections.errors import BadInput, Refused, WrongLog
from batchlog.projections.tune.decide.loop import ImportFolder, decide
from batchlog.projections.tune.events import REGISTRY, DifficultAdded, DifficultFixed, RunGraded, RunStarted
from batchlog.projections.tune.decider import TUNE
from batchlog.projections.tune.batch_mjs.inputs import history
from batchlog.projections.tune.batch_mjs.rules import next_batch
from batchlog.projections.tune.state import TuneState
from batchlog.projections.tune.zen_import import ZenFolder, ZenRun, import_events
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


class TestTheImportDecision:
    """Given a log, when `tune import` decides on a folder's events, then an empty log takes them, the same import
    again appends nothing, and a log that holds anything else is refused (cli/tune/commands.py decides nothing)."""

    def command(self, events=None, unreadable=None) -> ImportFolder:
        return ImportFolder("zen", "zen/events.jsonl", import_events(zen(())) if events is None else events,
                            unreadable)

    def test_a_log_without_a_tuning_takes_the_folders_events(self):
        command = self.command()

        assert decide(command, TUNE.initial) == list(command.events)

    def test_the_same_import_again_appends_nothing(self):
        command = self.command()

        assert decide(command, fold(*command.events)) == []

    @pytest.mark.parametrize("logged", ["the start only", "one event more", "another tuning"])
    def test_a_log_holding_anything_else_is_refused(self, logged):
        command = self.command()
        state = {"the start only": lambda: fold(command.events[0]),
                 "one event more": lambda: fold(*command.events, RunStarted("batch01-nomem-run3", 1, "nomem", 3, ())),
                 "another tuning": lambda: fold(*import_events(zen(({"id": "c1", "added": "batch01-nomem-run1"},))))}

        with pytest.raises(Refused, match="zen/events.jsonl holds events already: this folder has a log; use --dir zen "
                                          "with the other commands"):
            decide(command, state[logged]())

    def test_another_loops_log_is_refused_as_such(self):
        with pytest.raises(WrongLog, match="not a tuning's"):
            decide(self.command(), attrs.evolve(TUNE.initial, foreign="qb.batch_started"))

    def test_a_folder_that_cannot_be_read_is_refused_for_what_it_is_into_an_empty_log_only(self):
        unreadable = BadInput("zen/selection.json is not JSON: fix the file")
        command = self.command(events=(), unreadable=unreadable)

        with pytest.raises(BadInput, match="selection.json is not JSON"):
            decide(command, TUNE.initial)
        with pytest.raises(Refused, match="holds events already"):
            decide(command, fold(*self.command().events))


DATASET = (
    {"id": "c1", "class": "alpha", "complexity": "simple", "prompt": "p1"},
    {"id": "c2", "class": "beta", "complexity": "complex", "rubric": "must cite"},
    {"id": "c3", "class": "alpha", "complexity": "complex"},
    {"id": "c4", "class": "beta"},  # only in the dataset
)


def imported(selection: tuple) -> TuneState:
    folder = ZenFolder("zen", {}, DATASET, selection, None,
                       (ZenRun("batch01-nomem-run1", ("c1", "c2", "c3"), "PASSED", None),))
    return fold(*import_events(folder))


class TestTheDatasetSaysWhatACaseIs:
    """Given a zen folder, when it is imported, then each case's fields come from dataset.json and the object a
    cases.json gets from selection.json, as batch.mjs reads and writes them."""

    def test_bare_id_selection_objects_keep_the_dataset_s_class_complexity_and_rubric(self):
        state = imported(({"id": "c3"}, {"id": "c1"}, {"id": "c2"}))

        fields = {c.id: (c.class_name, c.complexity, c.rubric) for c in state.cases}
        assert fields == {"c1": ("alpha", "simple", False), "c2": ("beta", "complex", True),
                          "c3": ("alpha", "complex", False), "c4": ("beta", "", False)}
        assert state.selection == ("c3", "c1", "c2")

    def test_cases_json_gets_the_selection_s_objects(self):
        selection = ({"id": "c3"}, {"id": "c1", "note": "from the selection"}, dict(DATASET[1]))

        state = imported(selection)

        bodies = {c.id: orjson.loads(c.body) for c in state.cases}
        assert [bodies[i] for i in ("c3", "c1", "c2")] == list(selection)
        assert bodies["c4"] == DATASET[3]
        assert history(state).selection == selection

    def test_the_recheck_order_puts_the_dataset_s_complex_cases_first(self):
        state = imported(({"id": "c1"}, {"id": "c2"}, {"id": "c3"}, {"id": "c4"}))

        plan = next_batch(history(state), size=1, recheck=3)

        assert [c["id"] for c in plan.recheck][:2] in (["c2", "c3"], ["c3", "c2"])
        assert plan.recheck[2] == {"id": "c1"}

    def test_a_selected_id_the_dataset_lacks_has_no_fields_as_in_batch_mjs(self):
        folder = ZenFolder("zen", {}, DATASET, ({"id": "c1"}, {"id": "x", "complexity": "complex"}), None, ())

        state = fold(*import_events(folder))

        case = next(c for c in state.cases if c.id == "x")
        body = orjson.loads(case.body)
        assert (case.class_name, case.complexity, body) == ("", "", {"id": "x", "complexity": "complex"})

    def test_selection_objects_equal_to_the_dataset_s_write_nothing_more(self):
        started = import_events(ZenFolder("zen", {}, DATASET, DATASET[:2], None, ()))[0]

        assert started.written == ()


class TestAV1TuningStarted:
    def test_reads_as_a_tuning_that_wrote_the_dataset_s_objects(self):
        data = {"dataset": "d.json", "cases": [dict(DATASET[0])], "selection": ["c1"], "limit": None,
                "min_batch": 3, "max_batch": 10, "recheck": 3, "seed": 1, "max_retries": 3, "concurrency": 13}

        spec = REGISTRY.by_name["tune.tuning_started"]
        fact = spec.to_domain(spec.upcast(data, 1))

        assert fact.written == () and fold(fact).cases[0].body == orjson.dumps(DATASET[0]).decode()
