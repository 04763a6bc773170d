"""The tuning's decisions as given events / when command / then events or a refusal (no files)."""

from __future__ import annotations

import pytest

from batchlog.engine import Event
from batchlog.projections.errors import BadInput, Refused, WrongLog
from batchlog.projections.tune.decide.loop import (
    AddDifficult,
    BuildBatch,
    FixDifficult,
    GradeRun,
    InitTuning,
    KeepMemory,
    RecordChange,
    RecordUsage,
    RegradeRun,
    StartFinal,
    StartRun,
    decide,
)
from batchlog.projections.tune.events import (
    BatchBuilt,
    ChangeRecorded,
    DifficultAdded,
    DifficultFixed,
    MemoryKept,
    RunGraded,
    RunRegraded,
    RunStarted,
    TuningStarted,
    UsageRecorded,
)
from batchlog.projections.tune.decider import TUNE
from batchlog.projections.tune.evolve import evolve
from batchlog.projections.tune.batch_mjs.selection import selection_order
from batchlog.projections.tune.views.status import next_step
from tests.tune_helpers import fold as given

CASES = tuple({"id": f"c{i}", "class": "k" if i % 2 else "j", **({"complexity": "complex"} if i == 3 else {})}
              for i in range(1, 7))
STARTED = TuningStarted("d.json", CASES, selection_order(CASES), None, 2, 4, 1, 1, 3, 5)
SMOKE = BatchBuilt(1, 2, "batch 1 is the smoke test: minBatch 2", "new", ("c2", "c1"), (), 4, 0)
N1 = RunStarted("batch01-nomem-run1", 1, "nomem", 1, ("c2", "c1"))


def graded(run: str, verdict: str, *wrong: str) -> RunGraded:
    return RunGraded(run, verdict, wrong)


def mem(k: int) -> RunStarted:
    return RunStarted(f"batch01-mem-run{k}", 1, "mem", k, ("c2", "c1"))


def nomem(k: int) -> RunStarted:
    return RunStarted(f"batch01-nomem-run{k}", 1, "nomem", k, ("c2", "c1"))


PASSED_BATCH_1 = (STARTED, SMOKE, N1, graded("batch01-nomem-run1", "PASSED"), mem(1),
                  graded("batch01-mem-run1", "PASSED"))


class TestInit:
    def test_init_records_the_selection_classes_in_turn(self):
        events = decide(InitTuning("d.json", CASES, None, 2, 4, 1, 1, 3), TUNE.initial)

        assert events == [STARTED]
        assert events[0].selection == ("c3", "c2", "c1", "c4", "c5", "c6")

    def test_init_again_with_the_same_input_is_a_no_op(self):
        assert decide(InitTuning("elsewhere/d.json", CASES, None, 2, 4, 1, 1, 3), given(STARTED)) == []

    def test_init_again_with_other_settings_is_refused(self):
        with pytest.raises(Refused, match="already started"):
            decide(InitTuning("d.json", CASES, None, 3, 4, 1, 1, 3), given(STARTED))

    @pytest.mark.parametrize("cases, message", [
        (({"id": "a"}, {"id": "a"}), "cases 1 and 2 have the same id 'a'"),
        (({"id": "a"}, {"class": "x"}), "case 2 has no id"),
        ((), "holds no cases"),
        (({"id": "a"}, {"id": "b\x1b[2J"}),
         r"case 2 has the id 'b\\x1b\[2J', which holds a control character \(\\x1b\)"),
        (({"id": "a\nb"},), r"case 1 has the id 'a\\nb', which holds a control character \(\\n\)"),
    ])
    def test_a_bad_dataset_is_refused_naming_the_case(self, cases, message):
        with pytest.raises(BadInput, match=message):
            decide(InitTuning("d.json", cases), TUNE.initial)

    def test_a_dataset_is_named_as_it_was_typed(self):
        with pytest.raises(BadInput, match="^/data/d.json holds no cases"):
            decide(InitTuning("../../data/d.json", (), typed="/data/d.json"), TUNE.initial)

    def test_a_max_batch_below_the_min_batch_is_refused_naming_both(self):
        """batch.mjs's cfg() would raise maxBatch to minBatch in silence: asked for both, the tuning refuses."""
        with pytest.raises(BadInput, match="--max-batch 2 is less than --min-batch 5"):
            decide(InitTuning("d.json", CASES, None, 5, 2), TUNE.initial)

    def test_a_max_batch_equal_to_the_min_batch_is_taken(self):
        (started,) = decide(InitTuning("d.json", CASES, None, 5, 5), TUNE.initial)

        assert (started.min_batch, started.max_batch) == (5, 5)


class TestSelection:
    def test_rubric_and_complex_cases_come_first_inside_a_class(self):
        cases = [{"id": "p1", "class": "p"}, {"id": "p2", "class": "p", "complexity": "complex"},
                 {"id": "p3", "class": "p", "rubric": "r"}, {"id": "b1", "class": "b"},
                 {"id": "p4", "class": "p", "rubric": "r", "complexity": "complex"}]

        assert selection_order(cases) == ("p4", "b1", "p3", "p2", "p1")
        assert selection_order(cases, 2) == ("p4", "b1")


class TestBuildBatch:
    def test_the_first_batch_is_built_with_its_first_run(self):
        assert decide(BuildBatch(), given(STARTED)) == [
            BatchBuilt(1, 2, "batch 1 is the smoke test: minBatch 2", "new", ("c3", "c2"), (), 4, 0),
            RunStarted("batch01-nomem-run1", 1, "nomem", 1, ("c3", "c2")),
        ]

    def test_asking_again_while_its_first_run_waits_is_a_no_op(self):
        assert decide(BuildBatch(), given(STARTED, SMOKE, N1)) == []

    def test_other_overrides_while_a_run_waits_are_refused(self):
        with pytest.raises(Refused, match="batch01-nomem-run1 is waiting to be graded"):
            decide(BuildBatch(size=3), given(STARTED, SMOKE, N1))

    def test_refused_while_the_previous_batch_neither_passed_nor_was_given_up(self):
        with pytest.raises(Refused, match="batch 1 has neither passed"):
            decide(BuildBatch(), given(STARTED, SMOKE, N1, graded("batch01-nomem-run1", "PASSED")))

    def test_allowed_once_a_half_is_given_up(self):
        facts = [STARTED, SMOKE]
        for k in range(1, 5):
            facts += [nomem(k), graded(f"batch01-nomem-run{k}", "WRONG")]

        assert decide(BuildBatch(), given(*facts))[0].number == 2


class TestStartRun:
    def test_with_memory_before_the_no_memory_half_passed_is_refused(self):
        with pytest.raises(Refused, match="has not passed yet"):
            decide(StartRun(1, "mem"), given(STARTED, SMOKE, N1, graded("batch01-nomem-run1", "WRONG")))

    def test_a_new_run_while_the_last_is_ungraded_is_refused(self):
        with pytest.raises(Refused, match="waiting to be graded"):
            decide(StartRun(1, "mem"), given(STARTED, SMOKE, N1))

    def test_a_fifth_run_that_counts_is_refused_but_void_runs_do_not_count(self):
        facts = [STARTED, SMOKE, nomem(1), graded("batch01-nomem-run1", "VOID")]
        for k in range(2, 6):
            facts += [nomem(k), graded(f"batch01-nomem-run{k}", "WRONG")]

        with pytest.raises(Refused, match="given up"):
            decide(StartRun(1, "nomem"), given(*facts))
        assert decide(StartRun(1, "nomem"), given(*facts[:-2]))[0].run == "batch01-nomem-run5"

    def test_a_batch_that_does_not_exist_is_refused(self):
        with pytest.raises(BadInput, match=r"batch 7 does not exist \(batch 1 is the only one built\)"):
            decide(StartRun(7, "nomem"), given(STARTED, SMOKE, N1))

    def test_the_final_check_with_unused_cases_is_refused(self):
        with pytest.raises(Refused, match="not in any batch yet"):
            decide(StartFinal(), given(*PASSED_BATCH_1))

    def test_the_final_check_with_an_open_difficult_case_is_refused(self):
        everything = BatchBuilt(1, 6, "w", "new", ("c1", "c2", "c3", "c4", "c5", "c6"), (), 0, 0)
        run = RunStarted("batch01-nomem-run1", 1, "nomem", 1, everything.new)
        facts = (STARTED, everything, run, DifficultAdded("c1", ("wrong",), run.run),
                 graded(run.run, "PASSED"), RunStarted("batch01-mem-run1", 1, "mem", 1, everything.new),
                 graded("batch01-mem-run1", "PASSED"))

        with pytest.raises(Refused, match=r"1 difficult case\(s\) are open \(c1\)"):
            decide(StartFinal(), given(*facts))
        fixed = given(*facts, DifficultFixed("c1", "batch01-mem-run1"), MemoryKept(1, 9))
        assert decide(StartFinal(), fixed) == [RunStarted("final-run1", 0, "final", 1, STARTED.selection)]


class TestGradeRun:
    @pytest.mark.parametrize("command, message", [
        (GradeRun("nope", "PASSED"), "no run 'nope'"),
        (GradeRun("batch01-nomem-run1", "GOOD"), "verdict 'GOOD' is not one of"),
        (GradeRun("batch01-nomem-run1", "WRONG", ("c9",)), r"case\(s\) c9 are not in run"),
        (GradeRun("batch01-nomem-run1", "PASSED", ("c1",)), "a PASSED run got every case right"),
        (GradeRun("batch01-nomem-run1", "CORRECT", ("c1",)), "a CORRECT run got every case right"),
        (GradeRun("batch01-nomem-run1", "WRONG"), "name each with --wrong CASE"),
        (GradeRun("batch01-nomem-run1", "WRONG", ("c1",), llm_calls=-1), "--llm-calls is -1"),
    ])
    def test_bad_grades_are_refused(self, command, message):
        with pytest.raises(Refused, match=message):
            decide(command, given(STARTED, SMOKE, N1))

    def test_grading_again_the_same_is_a_no_op_and_otherwise_refused(self):
        state = given(STARTED, SMOKE, N1, graded("batch01-nomem-run1", "WRONG", "c1"))

        assert decide(GradeRun("batch01-nomem-run1", "WRONG", ("c1",)), state) == []
        with pytest.raises(Refused, match=r"already graded \(WRONG\)"):
            decide(GradeRun("batch01-nomem-run1", "PASSED"), state)


class TestRegradeRun:
    """A grade given by mistake is corrected by a new event while nothing was decided on it."""

    GRADED = (STARTED, SMOKE, N1, graded("batch01-nomem-run1", "PASSED"))

    def test_a_correction_is_appended_and_folded_over_the_original(self):
        events = decide(RegradeRun("batch01-nomem-run1", "WRONG", "missed c1", ("c1",)), given(*self.GRADED))

        assert events == [RunRegraded("batch01-nomem-run1", "WRONG", "missed c1", ("c1",))]
        state = given(*self.GRADED, *events)
        run = state.run_named("batch01-nomem-run1")
        assert (run.verdict, run.wrong) == ("WRONG", ("c1",))
        assert [(c.run, c.was, c.verdict, c.reason, c.seq) for c in state.corrections] == [
            ("batch01-nomem-run1", "PASSED", "WRONG", "missed c1", 5)]
        assert next_step(state).step == "fix_and_run"

    def test_the_same_correction_again_is_a_no_op(self):
        again = (*self.GRADED, RunRegraded("batch01-nomem-run1", "WRONG", "missed c1", ("c1",)))

        assert decide(RegradeRun("batch01-nomem-run1", "WRONG", "missed c1", ("c1",)), given(*again)) == []
        with pytest.raises(Refused, match="nothing to correct"):
            decide(RegradeRun("batch01-nomem-run1", "WRONG", "other words", ("c1",)), given(*again))

    @pytest.mark.parametrize("facts, command, message", [
        ((STARTED, SMOKE, N1), RegradeRun("batch01-nomem-run1", "PASSED", "x"), "is not graded yet"),
        (GRADED, RegradeRun("batch01-nomem-run1", "WRONG", "x"), "name each with --wrong"),
        (GRADED, RegradeRun("batch01-nomem-run1", "CORRECT", " "), "--reason is empty"),
        (GRADED, RegradeRun("batch01-nomem-run1", "PASSED", "x"), "nothing to correct"),
        ((*GRADED, mem(1)), RegradeRun("batch01-nomem-run1", "CORRECT", "x"),
         "batch01-mem-run1 was started on its grade"),
        ((*PASSED_BATCH_1, MemoryKept(1, 9)), RegradeRun("batch01-mem-run1", "CORRECT", "x"),
         "batch 1's memory was kept on its grade"),
        ((*PASSED_BATCH_1, BatchBuilt(2, 2, "w", "new", ("c3", "c4"), ())),
         RegradeRun("batch01-mem-run1", "VOID", "x"), "batch 2 was built after it"),
        ((STARTED, SMOKE, N1, graded("batch01-nomem-run1", "WRONG", "c1"), DifficultAdded("c1", ("wrong",),
          "batch01-nomem-run1"), nomem(2), graded("batch01-nomem-run2", "PASSED"),
          DifficultFixed("c1", "batch01-nomem-run2")),
         RegradeRun("batch01-nomem-run2", "WRONG", "x", ("c1",)), "c1 was marked fixed in it"),
    ])
    def test_refused_when_a_decision_was_taken_on_the_grade(self, facts, command, message):
        with pytest.raises(Refused, match=message):
            decide(command, given(*facts))


class TestRecords:
    @pytest.mark.parametrize("verdict, wrong, message", [
        ("VOID", (), "is VOID"), ("WRONG", ("c1",), "got c1 wrong"),
    ])
    def test_a_fix_in_a_run_that_did_not_get_the_case_right_is_refused(self, verdict, wrong, message):
        state = given(STARTED, SMOKE, N1, graded("batch01-nomem-run1", "WRONG", "c1"),
                      DifficultAdded("c1", ("wrong",), "batch01-nomem-run1"), nomem(2),
                      graded("batch01-nomem-run2", verdict, *wrong))

        with pytest.raises(Refused, match=message):
            decide(FixDifficult("c1", "batch01-nomem-run2"), state)

    def test_a_fix_in_a_run_that_did_not_hold_the_case_is_refused(self):
        state = given(STARTED, SMOKE, N1, graded("batch01-nomem-run1", "WRONG", "c1"),
                      DifficultAdded("c3", ("wrong",), "batch01-nomem-run1"), nomem(2),
                      graded("batch01-nomem-run2", "PASSED"))

        with pytest.raises(Refused, match="c3 was not in run batch01-nomem-run2"):
            decide(FixDifficult("c3", "batch01-nomem-run2"), state)


    def test_a_reason_outside_the_five_is_refused(self):
        with pytest.raises(BadInput, match="reason 'slow' is not one of"):
            decide(AddDifficult("c1", ("slow",), "batch01-nomem-run1"), given(STARTED, SMOKE, N1))

    def test_an_unknown_case_is_refused(self):
        with pytest.raises(BadInput, match="no case 'zz'"):
            decide(AddDifficult("zz", ("wrong",), "batch01-nomem-run1"), given(STARTED, SMOKE, N1))

    def test_a_fix_must_come_in_a_later_run(self):
        state = given(STARTED, SMOKE, N1, DifficultAdded("c1", ("wrong",), "batch01-nomem-run1"))

        with pytest.raises(Refused, match="only be fixed in a later run"):
            decide(FixDifficult("c1", "batch01-nomem-run1"), state)

    def test_memory_is_kept_only_after_the_with_memory_half_passed(self):
        with pytest.raises(Refused, match="has not passed"):
            decide(KeepMemory(1, 10), given(STARTED, SMOKE, N1))
        assert decide(KeepMemory(1, 10), given(*PASSED_BATCH_1)) == [MemoryKept(1, 10)]
        assert decide(KeepMemory(1, 10), given(*PASSED_BATCH_1, MemoryKept(1, 10))) == []

    def test_usage_totals_only_grow(self):
        state = given(STARTED, SMOKE, N1, UsageRecorded("batch01-nomem-run1", "m", 5, 50, 5))

        assert decide(RecordUsage("batch01-nomem-run1", "m", 5, 50, 5), state) == []
        assert decide(RecordUsage("batch01-nomem-run1", "m", 6, 60, 6), state)[0].calls == 6
        with pytest.raises(Refused, match="running totals"):
            decide(RecordUsage("batch01-nomem-run1", "m", 4, 60, 6), state)

    def test_one_change_per_file_and_run(self):
        state = given(STARTED, SMOKE, N1)
        first = decide(RecordChange("batch01-nomem-run1", "p.md", "rule 1", 6), state)

        assert len(first) == 1
        with pytest.raises(Refused, match="already records a change to p.md"):
            decide(RecordChange("batch01-nomem-run1", "p.md", "rule 2", 6),
                   given(STARTED, SMOKE, N1, *first))


class TestWrongLog:
    def test_a_log_of_another_loop_is_refused(self):
        foreign = evolve(TUNE.initial, Event(1, "quick_batch.started", 1, "t", "x", {}))

        with pytest.raises(WrongLog, match="not a tuning's"):
            decide(BuildBatch(), foreign)


class TestNextStep:
    @pytest.mark.parametrize("facts, step, command", [
        ((), "init", "batchlog tune init --dataset DATASET"),
        ((STARTED,), "build_batch", "batchlog tune next-batch -o finetune/runs/batch01-nomem-run1/cases.json"),
        ((STARTED, SMOKE, N1), "grade", "batchlog tune run grade batch01-nomem-run1 --verdict VERDICT"),
        ((STARTED, SMOKE, N1, graded("batch01-nomem-run1", "WRONG")), "fix_and_run",
         "batchlog tune run start --batch 1 --kind nomem"),
        ((STARTED, SMOKE, N1, graded("batch01-nomem-run1", "PASSED")), "run",
         "batchlog tune run start --batch 1 --kind mem"),
        (PASSED_BATCH_1, "keep_memory", "batchlog tune memory keep --batch 1 --nodes NODES"),
        ((*PASSED_BATCH_1, MemoryKept(1, 3)), "build_batch",
         "batchlog tune next-batch -o finetune/runs/batch02-nomem-run1/cases.json"),
    ])
    def test_the_next_step_for_each_state(self, facts, step, command):
        found = next_step(given(*facts))

        assert (found.step, found.command) == (step, command)

    def test_done_after_the_final_check_passed(self):
        everything = BatchBuilt(1, 6, "w", "new", STARTED.selection, (), 0, 0)
        facts = (STARTED, everything, RunStarted("batch01-nomem-run1", 1, "nomem", 1, everything.new),
                 graded("batch01-nomem-run1", "PASSED"), RunStarted("batch01-mem-run1", 1, "mem", 1, everything.new),
                 graded("batch01-mem-run1", "PASSED"), MemoryKept(1, 9))

        assert next_step(given(*facts), "t").command == "batchlog tune run start --final --dir t"
        final = (RunStarted("final-run1", 0, "final", 1, STARTED.selection), graded("final-run1", "PASSED"))
        assert next_step(given(*facts, *final)).step == "done"
        assert next_step(given(*facts, *final), "t").command == "batchlog tune audit --dir t"


class TestMemoryBeforeTheNextBatch:
    def test_the_next_batch_waits_for_the_passed_batchs_memory(self):
        with pytest.raises(Refused, match=r"batch 1's with-memory half passed but its memory is not kept yet: run "
                                          r"`batchlog tune memory keep --batch 1 --nodes NODES`"):
            decide(BuildBatch(), given(*PASSED_BATCH_1))
        assert [type(e) for e in decide(BuildBatch(), given(*PASSED_BATCH_1, MemoryKept(1, 9)))] == [
            BatchBuilt, RunStarted]

    def test_a_given_up_batch_keeps_no_memory_and_does_not_block(self):
        runs = [e for k in range(1, 5) for e in (nomem(k), graded(f"batch01-nomem-run{k}", "CORRECT"))]

        assert [type(e) for e in decide(BuildBatch(), given(STARTED, SMOKE, *runs))] == [BatchBuilt, RunStarted]


class TestFinished:
    """Once the final check passed, the tuning is closed to decisions: usage of any run and the final runs' changes
    follow."""

    EVERYTHING = BatchBuilt(1, 6, "w", "new", STARTED.selection, (), 0, 0)
    DONE = (STARTED, EVERYTHING, RunStarted("batch01-nomem-run1", 1, "nomem", 1, EVERYTHING.new),
            graded("batch01-nomem-run1", "PASSED"), RunStarted("batch01-mem-run1", 1, "mem", 1, EVERYTHING.new),
            graded("batch01-mem-run1", "PASSED"), MemoryKept(1, 9),
            RunStarted("final-run1", 0, "final", 1, STARTED.selection), graded("final-run1", "PASSED"))

    @pytest.mark.parametrize("command", [
        StartFinal(), BuildBatch(), StartRun(1, "mem"), KeepMemory(1, 10),
        RegradeRun("final-run1", "CORRECT", "x"), RegradeRun("batch01-mem-run1", "CORRECT", "x"),
        AddDifficult("c1", ("wrong",), "final-run1"), RecordChange("batch01-mem-run1", "a.md", "x"),
    ])
    def test_a_command_that_would_append_is_refused(self, command):
        with pytest.raises(Refused, match="the tuning is finished: the final check passed in final-run1"):
            decide(command, given(*self.DONE))

    def test_usage_of_any_run_and_the_final_runs_changes_are_still_recorded_and_repeats_answered(self):
        state = given(*self.DONE)

        assert decide(RecordUsage("final-run1", "m", 1, 2, 3), state) == [UsageRecorded("final-run1", "m", 1, 2, 3)]
        assert decide(RecordUsage("batch01-mem-run1", "m", 1, 1, 1), state) == [
            UsageRecorded("batch01-mem-run1", "m", 1, 1, 1)]
        assert decide(RecordChange("final-run1", "a.md", "x"), state) == [ChangeRecorded("final-run1", "a.md", "x")]
        assert decide(GradeRun("final-run1", "PASSED"), state) == []
        assert decide(KeepMemory(1, 9), state) == []
