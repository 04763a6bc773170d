"""A failed final check goes on as the seed's loop does, and corrections that keep the log true: given events /
when command / then events or a refusal (no files).

After a failed final check its wrong cases go on the difficult list (the agent's `difficult add`, which
`tune next` names), batches of the open difficult cases follow (as batch.mjs builds them once the selection
is used up), and the final check runs again (final-run2, ...). A stuck case is reported by a final check,
not failed on. A regrade keeps the figures it does not restate and withdraws the difficult entries it makes
false, in the same command.
"""

from __future__ import annotations

import pytest

from batchlog.projections.errors import BadInput, Refused
from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.tune.batch_mjs.inputs import history
from batchlog.projections.tune.decide.loop import (
    AddDifficult,
    BuildBatch,
    FixDifficult,
    GradeRun,
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
    DifficultAdded,
    DifficultFixed,
    DifficultWithdrawn,
    MemoryKept,
    RunGraded,
    RunRegraded,
    RunStarted,
    UsageRecorded,
)
from batchlog.projections.tune.stage import current_half, reported_cases
from batchlog.projections.tune.printed import Place
from batchlog.projections.tune.views.status import next_step
from tests.tune_helpers import fold as given
from tests.tune_helpers import started

CASES = ({"id": "a"}, {"id": "b"}, {"id": "c"})
ALL = ("a", "b", "c")
STARTED = started(CASES)


def run(name: str, batch: int, kind: str, number: int, cases=ALL) -> RunStarted:
    return RunStarted(name, batch, kind, number, cases)


def graded(name: str, verdict: str, *wrong: str, **figures) -> RunGraded:
    return RunGraded(name, verdict, wrong, **figures)


BATCH_1 = (BatchBuilt(1, 3, "batch 1 is the smoke test: minBatch 3", "new", ALL, (), 0, 0),
           run("batch01-nomem-run1", 1, "nomem", 1), graded("batch01-nomem-run1", "PASSED"),
           run("batch01-mem-run1", 1, "mem", 1), graded("batch01-mem-run1", "PASSED"), MemoryKept(1, 9))
FINAL_1 = run("final-run1", 0, "final", 1)
FAILED = (STARTED, *BATCH_1, FINAL_1, graded("final-run1", "WRONG", "b"))
LISTED = (*FAILED, DifficultAdded("b", ("wrong",), "final-run1"))


def batch_2(*facts_after_build):
    """Batch 2, built by the rules after the failed final check, its runs as `facts_after_build`."""
    built = decide(BuildBatch(), given(*LISTED))
    return (*LISTED, *built, *facts_after_build)


class TestAFailedFinalCheck:
    def test_its_wrong_cases_go_on_the_difficult_list_before_the_next_batch(self):
        with pytest.raises(Refused, match=r"final-run1 got 1 case\(s\) wrong that are not on the difficult list "
                                          r"yet \(b\): each goes on it before you build the next batch, e\.g\. "
                                          r"`batchlog tune difficult add b --reason wrong --run final-run1`"):
            decide(BuildBatch(), given(*FAILED))

    def test_nor_does_the_final_check_run_again_before_they_are_listed(self):
        with pytest.raises(Refused, match="before you run the final check again"):
            decide(StartFinal(), given(*FAILED))

    def test_a_case_that_starts_with_a_dash_is_named_after_two_dashes(self):
        cases = ({"id": "-x"}, {"id": "b"})
        facts = (started(cases, min_batch=2), BatchBuilt(1, 2, "w", "new", ("-x", "b"), (), 0, 0),
                 run("batch01-nomem-run1", 1, "nomem", 1, ("-x", "b")), graded("batch01-nomem-run1", "PASSED"),
                 run("batch01-mem-run1", 1, "mem", 1, ("-x", "b")), graded("batch01-mem-run1", "PASSED"),
                 MemoryKept(1, 2), run("final-run1", 0, "final", 1, ("-x", "b")), graded("final-run1", "WRONG", "-x"))

        with pytest.raises(Refused, match=r"`batchlog tune difficult add --reason wrong --run final-run1 -- -x`"):
            decide(BuildBatch(), given(*facts))

    def test_then_the_next_batch_holds_the_open_difficult_cases(self):
        built, first = decide(BuildBatch(), given(*LISTED))

        assert (built.number, built.kind, built.new, set(built.recheck)) == (2, "difficult", ("b",), {"a", "c"})
        assert built.why == ("batch 1 went smoothly (1 no-memory + 1 with-memory runs, no new difficult case): "
                             "3 -> 6")
        assert first == RunStarted("batch02-nomem-run1", 2, "nomem", 1, built.new + built.recheck)

    def test_the_batch_is_the_one_batch_mjs_builds_from_the_same_history(self):
        state = given(*LISTED)

        built = decide(BuildBatch(), state)[0]

        plan = rules.next_batch(history(state))
        assert (built.new, built.recheck) == (tuple(c["id"] for c in plan.new), tuple(c["id"] for c in plan.recheck))

    def test_the_final_check_waits_while_a_difficult_case_is_open(self):
        with pytest.raises(Refused, match=r"1 difficult case\(s\) are open \(b\): the next batches retry them"):
            decide(StartFinal(), given(*LISTED))

    def test_the_final_check_runs_again_once_none_is_open(self):
        state = given(*batch_2(graded("batch02-nomem-run1", "PASSED"), DifficultFixed("b", "batch02-nomem-run1"),
                               run("batch02-mem-run1", 2, "mem", 1, ("b", "a", "c")),
                               graded("batch02-mem-run1", "PASSED"), MemoryKept(2, 12)))

        assert decide(StartFinal(), state) == [RunStarted("final-run2", 0, "final", 2, ALL)]

    def test_the_batch_after_it_runs_its_halves_and_keeps_its_memory_first(self):
        state = given(*batch_2(graded("batch02-nomem-run1", "PASSED"), DifficultFixed("b", "batch02-nomem-run1"),
                               run("batch02-mem-run1", 2, "mem", 1, ("b", "a", "c")),
                               graded("batch02-mem-run1", "PASSED")))

        with pytest.raises(Refused, match="batch 2's with-memory half passed but its memory is not kept yet"):
            decide(StartFinal(), state)
        assert decide(StartRun(2, "mem"), given(*batch_2(graded("batch02-nomem-run1", "PASSED"))))[0].run == \
            "batch02-mem-run1"

    def test_a_correct_or_void_final_check_lists_nothing_and_runs_again(self):
        for verdict in ("CORRECT", "VOID"):
            state = given(STARTED, *BATCH_1, FINAL_1, graded("final-run1", verdict))

            with pytest.raises(rules.NothingLeft):
                decide(BuildBatch(), state)
            assert decide(StartFinal(), state) == [RunStarted("final-run2", 0, "final", 2, ALL)]

    def test_a_case_already_open_or_stuck_is_listed_and_one_fixed_before_goes_on_again(self):
        fixed_before = (STARTED, BatchBuilt(1, 3, "w", "new", ALL, (), 0, 0),
                        run("batch01-nomem-run1", 1, "nomem", 1), graded("batch01-nomem-run1", "WRONG", "b"),
                        DifficultAdded("b", ("wrong",), "batch01-nomem-run1"),
                        run("batch01-nomem-run2", 1, "nomem", 2), graded("batch01-nomem-run2", "PASSED"),
                        DifficultFixed("b", "batch01-nomem-run2"), run("batch01-mem-run1", 1, "mem", 1),
                        graded("batch01-mem-run1", "PASSED"), MemoryKept(1, 9), FINAL_1,
                        graded("final-run1", "WRONG", "b"))

        with pytest.raises(Refused, match=r"\(b\)"):
            decide(BuildBatch(), given(*fixed_before))
        again = decide(AddDifficult("b", ("regressed",), "final-run1"), given(*fixed_before))
        assert again == [DifficultAdded("b", ("regressed",), "final-run1")]
        assert decide(BuildBatch(), given(*fixed_before, *again))[0].new == ("b",)

    def test_where_the_loop_stands_through_it(self):
        assert current_half(given(STARTED, *BATCH_1, FINAL_1)).kind == "final"
        assert current_half(given(*FAILED)).kind == "final"  # its wrong case goes on the list first
        assert (current_half(given(*LISTED)).kind, current_half(given(*LISTED)).batch) == ("build", 2)
        assert current_half(given(*batch_2())).kind == "half"


class TestAStuckCaseAtTheFinalCheck:
    """An entry added in a final run counts every batch that held its case (batch.mjs reads batch 0 from the name
    final-run1), so with maxRetries 1 the case is stuck at once: reported, not retried."""

    STUCK = (started(CASES, max_retries=1), *BATCH_1, FINAL_1, graded("final-run1", "WRONG", "b"),
             DifficultAdded("b", ("wrong",), "final-run1"))

    def test_it_is_stuck_and_no_batch_is_left_to_build(self):
        state = given(*self.STUCK)

        assert [entry.id for entry in rules.stuck_difficult(history(state))] == ["b"]
        with pytest.raises(rules.NothingLeft, match=r"\(1 stuck\) - run the final check"):
            decide(BuildBatch(), state)

    def test_the_final_check_runs_again_and_reports_it_under_a_passing_verdict(self):
        state = given(*self.STUCK, *decide(StartFinal(), given(*self.STUCK)))

        assert decide(GradeRun("final-run2", "PASSED", ("b",)), state) == [RunGraded("final-run2", "PASSED", ("b",))]
        assert decide(GradeRun("final-run2", "CORRECT", ("b",)), state)[0].verdict == "CORRECT"

    def test_a_final_check_that_got_only_stuck_cases_wrong_is_not_wrong(self):
        state = given(*self.STUCK, run("final-run2", 0, "final", 2))

        with pytest.raises(BadInput, match=r"final-run2 got only stuck cases wrong \(b\): a final check reports a "
                                           r"stuck case rather than failing on it"):
            decide(GradeRun("final-run2", "WRONG", ("b",)), state)
        assert decide(GradeRun("final-run2", "WRONG", ("b", "c")), state)[0].wrong == ("b", "c")
        with pytest.raises(BadInput, match=r"got every case right \(a final check may name its stuck cases: b\), "
                                           r"but --wrong names c"):
            decide(GradeRun("final-run2", "PASSED", ("b", "c")), state)

    def test_a_case_wrong_in_the_next_final_check_is_stuck_at_once_too_and_the_final_check_is_next(self):
        state = given(*self.STUCK, run("final-run2", 0, "final", 2), graded("final-run2", "WRONG", "b", "c"),
                      DifficultAdded("c", ("wrong",), "final-run2"))

        assert current_half(state).kind == "final"
        assert decide(StartFinal(), state) == [RunStarted("final-run3", 0, "final", 3, ALL)]

    def test_only_a_final_run_reports_stuck_cases(self):
        state = given(*self.STUCK, run("final-run2", 0, "final", 2))

        assert reported_cases(state, state.run_named("final-run2")) == {"b"}
        assert reported_cases(state, state.run_named("batch01-nomem-run1")) == frozenset()


class TestRegradeKeepsWhatItDoesNotRestate:
    GRADED = (STARTED, BATCH_1[0], BATCH_1[1],
              graded("batch01-nomem-run1", "WRONG", "b", llm_calls=71, tokens=131000, saved_twice=2))

    def test_figures_not_given_stay_the_grades(self):
        events = decide(RegradeRun("batch01-nomem-run1", "PASSED", "b was right"), given(*self.GRADED))

        regraded = given(*self.GRADED, *events).run_named("batch01-nomem-run1")
        assert (regraded.verdict, regraded.llm_calls, regraded.tokens, regraded.saved_twice) == (
            "PASSED", 71, 131000, 2)

    def test_a_figure_given_replaces_that_one_only(self):
        events = decide(RegradeRun("batch01-nomem-run1", "PASSED", "b was right", tokens=5), given(*self.GRADED))

        regraded = given(*self.GRADED, *events).run_named("batch01-nomem-run1")
        assert (regraded.llm_calls, regraded.tokens) == (71, 5)

    def test_the_same_correction_again_is_a_no_op(self):
        events = decide(RegradeRun("batch01-nomem-run1", "PASSED", "b was right"), given(*self.GRADED))

        assert decide(RegradeRun("batch01-nomem-run1", "PASSED", "b was right"), given(*self.GRADED, *events)) == []
        assert decide(RegradeRun("batch01-nomem-run1", "PASSED", "b was right", llm_calls=71),
                      given(*self.GRADED, *events)) == []

    def test_the_verdict_seq_is_the_corrections_and_the_graded_seq_the_grades(self):
        events = decide(RegradeRun("batch01-nomem-run1", "PASSED", "b was right"), given(*self.GRADED))

        regraded = given(*self.GRADED, *events).run_named("batch01-nomem-run1")
        assert (regraded.graded_seq, regraded.verdict_seq) == (4, 5)


class TestRegradeWithdrawsTheEntriesItMakesFalse:
    ADDED = (*TestRegradeKeepsWhatItDoesNotRestate.GRADED, DifficultAdded("b", ("wrong",), "batch01-nomem-run1"),
             DifficultAdded("c", ("costly",), "batch01-nomem-run1"))

    def test_an_entry_for_a_case_no_longer_wrong_in_the_run_is_withdrawn_with_the_reason(self):
        events = decide(RegradeRun("batch01-nomem-run1", "PASSED", "b was right"), given(*self.ADDED))

        assert events == [RunRegraded("batch01-nomem-run1", "PASSED", "b was right"),
                          DifficultWithdrawn("b", "batch01-nomem-run1", "b was right")]

    def test_an_entry_the_correction_does_not_contradict_stays(self):
        events = decide(RegradeRun("batch01-nomem-run1", "CORRECT", "b was right"), given(*self.ADDED))

        assert [e.case for e in events if isinstance(e, DifficultWithdrawn)] == ["b"]  # c was never wrong
        assert decide(RegradeRun("batch01-nomem-run1", "WRONG", "c too", ("b", "c")), given(*self.ADDED)) == [
            RunRegraded("batch01-nomem-run1", "WRONG", "c too", ("b", "c"))]

    def test_a_withdrawn_entry_is_shown_but_not_counted_and_the_case_can_go_on_again(self):
        events = decide(RegradeRun("batch01-nomem-run1", "VOID", "killed for memory"), given(*self.ADDED))
        state = given(*self.ADDED, *events)

        entry = next(e for e in state.difficult if e.case == "b")
        assert (entry.withdrawn, entry.withdrawn_seq) == ("killed for memory", 8)
        assert [e.case for e in state.difficult_list] == ["c"]
        assert [e.id for e in history(state).difficult] == ["c"]
        assert decide(AddDifficult("b", ("flaky",), "batch01-nomem-run1"), state) == [
            DifficultAdded("b", ("flaky",), "batch01-nomem-run1")]
        with pytest.raises(BadInput, match="not on the difficult list"):
            decide(FixDifficult("b", "batch01-nomem-run1"), state)

    def test_a_final_check_regraded_passed_closes_the_tuning_with_no_entry_left_open(self):
        events = decide(RegradeRun("final-run1", "PASSED", "the grader misread b"), given(*LISTED))
        state = given(*LISTED, *events)

        assert events[1:] == [DifficultWithdrawn("b", "final-run1", "the grader misread b")]
        assert current_half(state).kind == "done" and rules.open_difficult(history(state)) == []

    def test_a_final_check_cannot_be_regraded_once_a_batch_was_built_after_it(self):
        with pytest.raises(Refused, match="final-run1 cannot be regraded: batch 2 was built after it"):
            decide(RegradeRun("final-run1", "PASSED", "x"), given(*batch_2()))


class TestUsageIsAReportNotADecision:
    DONE = (STARTED, *BATCH_1, FINAL_1, graded("final-run1", "PASSED"))

    def test_usage_of_any_run_is_recorded_after_the_final_check_passed(self):
        state = given(*self.DONE)

        assert decide(RecordUsage("batch01-nomem-run1", "m", 1, 2, 3), state) == [
            UsageRecorded("batch01-nomem-run1", "m", 1, 2, 3)]
        assert decide(RecordUsage("batch01-nomem-run1", "m", 1, 2, 3),
                      given(*self.DONE, UsageRecorded("batch01-nomem-run1", "m", 1, 2, 3))) == []

    def test_a_change_to_a_batch_run_is_still_refused_then(self):
        with pytest.raises(Refused, match="only usage \\(of any run\\) and the final runs' changes"):
            decide(RecordChange("batch01-nomem-run1", "a.md", "x"), given(*self.DONE))
        with pytest.raises(Refused, match="the tuning is finished"):
            decide(KeepMemory(1, 10), given(*self.DONE))


def steps(state, folder="finetune") -> list[tuple[str, str]]:
    """The required step and the optional ones, as (step, command)."""
    found = next_step(state, folder)
    return [(found.step, found.command), *((step.step, step.command) for step in found.optional)]


USAGE = ("--model MODEL --calls CALLS --input-tokens INPUT_TOKENS --output-tokens OUTPUT_TOKENS")


class TestNextStepThroughAFailedFinalCheck:
    def test_after_it_the_wrong_case_goes_on_the_list_first(self):
        assert steps(given(*FAILED)) == [
            ("difficult_add", "batchlog tune difficult add b --reason wrong --run final-run1"),
            ("change", "batchlog tune change final-run1 --file PATH --summary SUMMARY"),
            ("usage", f"batchlog tune usage final-run1 {USAGE}"),
        ]

    def test_a_case_fixed_before_is_suggested_as_regressed(self):
        facts = (*FAILED[:-1], graded("final-run1", "WRONG", "a", "b"))
        state = given(*facts[:3], graded("batch01-nomem-run1", "WRONG", "a"),
                      DifficultAdded("a", ("wrong",), "batch01-nomem-run1"), run("batch01-nomem-run2", 1, "nomem", 2),
                      graded("batch01-nomem-run2", "PASSED"), DifficultFixed("a", "batch01-nomem-run2"),
                      *facts[4:])

        found = next_step(state)

        assert found.command == "batchlog tune difficult add a --reason regressed --run final-run1"
        assert found.words.endswith("Add a (1 more after it).")

    def test_then_the_batch_of_the_open_difficult_cases(self):
        found = next_step(given(*LISTED))

        assert (found.step, found.command) == (
            "build_batch", "batchlog tune next-batch -o finetune/runs/batch02-nomem-run1/cases.json")
        assert found.words.startswith("final-run1 was WRONG and the cases it got wrong are on the difficult list: "
                                      "batches of the open difficult cases retry them before the final check runs "
                                      "again. Build batch 2 (1 difficult + 2 recheck; size 6 - ")

    def test_the_passing_run_of_that_batch_offers_the_fix(self):
        state = given(*batch_2(graded("batch02-nomem-run1", "PASSED")))

        assert ("difficult_fix", "batchlog tune difficult fix b --run batch02-nomem-run1") in steps(state)

    def test_then_the_final_check_again(self):
        state = given(*batch_2(graded("batch02-nomem-run1", "PASSED"), DifficultFixed("b", "batch02-nomem-run1"),
                               run("batch02-mem-run1", 2, "mem", 1, ("b", "a", "c")),
                               graded("batch02-mem-run1", "PASSED"), MemoryKept(2, 12)))

        found = next_step(state, "t")

        assert (found.step, found.command) == ("final", "batchlog tune run start --final --dir t")
        assert found.words == ("Every case has been in a batch and no difficult case is open: run the final check "
                               "(final-run2), all 3 cases at once, with the last good memory and nothing changed.")

    def test_a_stuck_case_is_reported_by_the_final_check_and_its_grading(self):
        stuck = TestAStuckCaseAtTheFinalCheck.STUCK

        assert next_step(given(*stuck)).words == (
            "final-run1 was WRONG and the cases it got wrong are on the difficult list, none open: fix what it found, "
            "record the change, then run the final check again as final-run2. Stuck cases are reported, not "
            "retried: b.")
        assert next_step(given(*stuck, run("final-run2", 0, "final", 2))).words.endswith(
            "Stuck cases are reported, not failed on (b): name any it got wrong with --wrong; it is WRONG only when "
            "another case was wrong.")

    def test_a_correct_final_check_runs_again(self):
        found = next_step(given(STARTED, *BATCH_1, FINAL_1, graded("final-run1", "CORRECT")))

        assert (found.step, found.words) == ("final", "final-run1 was CORRECT: fix what it found, record the change, "
                                                      "then run the final check again as final-run2.")


class TestOptionalSteps:
    WRONG = (STARTED, BATCH_1[0], BATCH_1[1], graded("batch01-nomem-run1", "WRONG", "b", "-c"))

    def test_after_a_wrong_grade_each_wrong_case_not_listed_is_offered_to_the_difficult_list(self):
        state = given(*self.WRONG, DifficultAdded("b", ("flaky",), "batch01-nomem-run1"))

        assert steps(state, "t")[1:] == [
            ("difficult_add", "batchlog tune difficult add --reason wrong --run batch01-nomem-run1 --dir t -- -c"),
            ("change", "batchlog tune change batch01-nomem-run1 --file PATH --summary SUMMARY --dir t"),
            ("usage", f"batchlog tune usage batch01-nomem-run1 {USAGE} --dir t"),
        ]

    def test_usage_is_offered_until_the_run_has_some(self):
        state = given(*self.WRONG, UsageRecorded("batch01-nomem-run1", "m", 1, 2, 3))

        assert [step for step, _ in steps(state)] == ["fix_and_run", "difficult_add", "difficult_add", "change"]

    def test_a_waiting_run_offers_its_usage_only(self):
        assert steps(given(STARTED, BATCH_1[0], BATCH_1[1])) == [
            ("grade", "batchlog tune run grade batch01-nomem-run1 --verdict VERDICT"),
            ("usage", f"batchlog tune usage batch01-nomem-run1 {USAGE}")]

    def test_a_void_run_offers_no_fix(self):
        state = given(*self.WRONG, DifficultAdded("b", ("wrong",), "batch01-nomem-run1"),
                      run("batch01-nomem-run2", 1, "nomem", 2), graded("batch01-nomem-run2", "VOID"))

        assert "difficult_fix" not in [step for step, _ in steps(state)]

    def test_once_done_the_usage_of_every_run_without_any_and_the_final_runs_change(self):
        state = given(STARTED, *BATCH_1, UsageRecorded("batch01-mem-run1", "m", 1, 1, 1), FINAL_1,
                      graded("final-run1", "PASSED"))

        assert steps(state) == [
            ("done", "batchlog tune audit"),
            ("change", "batchlog tune change final-run1 --file PATH --summary SUMMARY"),
            ("usage", f"batchlog tune usage batch01-nomem-run1 {USAGE}"),
            ("usage", f"batchlog tune usage final-run1 {USAGE}"),
        ]

    def test_every_optional_command_carries_the_store_and_log_it_was_given(self):
        place = Place("my tuning", ("--store", "postgresql://db.example/t", "--log", "x"))

        found = next_step(given(*self.WRONG), place)

        assert found.optional and all(step.command.endswith(
            " --dir 'my tuning' --store postgresql://db.example/t --log x") or
            " --dir 'my tuning' --store postgresql://db.example/t --log x -- " in step.command
            for step in found.optional)


def final_again_states() -> list:
    """The state after every fact of three tunings through a failed final check: one retried and passed, one
    with its wrong case stuck at once and reported, one whose failed final check is regraded PASSED (the entry
    withdrawn); for the views' tests (tests/test_tune_readme.py adds them to its states)."""
    retried = batch_2(graded("batch02-nomem-run1", "PASSED"), DifficultFixed("b", "batch02-nomem-run1"),
                      run("batch02-mem-run1", 2, "mem", 1, ("b", "a", "c")), graded("batch02-mem-run1", "PASSED"),
                      MemoryKept(2, 12), run("final-run2", 0, "final", 2), graded("final-run2", "PASSED"))
    stuck = (*TestAStuckCaseAtTheFinalCheck.STUCK, run("final-run2", 0, "final", 2),
             graded("final-run2", "PASSED", "b"))
    withdrawn = (*LISTED, RunRegraded("final-run1", "PASSED", "the grader misread b"),
                 DifficultWithdrawn("b", "final-run1", "the grader misread b"))
    return [given(*facts[:end]) for facts in (retried, stuck, withdrawn) for end in range(len(FAILED) - 2,
                                                                                          len(facts) + 1)]


def audited(*facts):
    """The audit of a log holding `facts` (a sound log: the checks are the audit's own)."""
    from batchlog.engine import Event
    from batchlog.projections.tune.events import REGISTRY
    from batchlog.projections.tune.views.audit import LogReport, audit

    events = [Event(seq, REGISTRY.by_class[type(fact)].name, 1, "2026-12-02T16:00:00.000Z", f"id{seq}", fact)
              for seq, fact in enumerate(facts, start=1)]
    return {check.name: check for check in audit(events, LogReport(True, "trusted")).checks}


class TestTheAuditOfAFailedFinalCheck:
    RETRIED = batch_2(graded("batch02-nomem-run1", "PASSED"), DifficultFixed("b", "batch02-nomem-run1"),
                      run("batch02-mem-run1", 2, "mem", 1, ("b", "a", "c")), graded("batch02-mem-run1", "PASSED"),
                      MemoryKept(2, 12), run("final-run2", 0, "final", 2), graded("final-run2", "PASSED"))

    def test_every_check_holds_on_a_tuning_retried_after_it(self):
        checks = audited(*self.RETRIED)

        assert [name for name, check in checks.items() if not check.holds] == []
        assert checks["final_check"].evidence == (
            "seq 8: final-run1 started after every batch, with every case used and none open",
            "seq 9: final-run1 WRONG, wrong: b",
            "seq 18: final-run2 started after every batch, with every case used and none open",
            "seq 19: final-run2 PASSED on all 3 cases")

    def test_a_batch_built_before_the_wrong_case_was_listed_fails(self):
        facts = list(self.RETRIED)
        facts.insert(11, facts.pop(9))  # the DifficultAdded after the BatchBuilt and its first run

        checks = audited(*facts)

        assert not checks["halves_in_order"].holds
        assert "seq 10: batch 2 was built before the case(s) final-run1 got wrong went on the difficult list (b)" \
            in checks["halves_in_order"].evidence

    def test_a_final_check_run_again_before_the_wrong_case_was_listed_fails(self):
        checks = audited(*FAILED, run("final-run2", 0, "final", 2), graded("final-run2", "PASSED"))

        assert not checks["final_check"].holds
        assert any("the case(s) the last final check got wrong not listed (b)" in line
                   for line in checks["final_check"].evidence)

    def test_a_withdrawal_the_grades_do_not_justify_fails(self):
        checks = audited(*LISTED, DifficultWithdrawn("b", "final-run1", "changed my mind"))

        assert not checks["corrections"].holds
        assert checks["corrections"].evidence == (
            "seq 11: the difficult entry of b added in final-run1 withdrawn: changed my mind (but final-run1's grade, "
            "as corrected, does not say it was not wrong there)",)

    def test_a_stuck_case_reported_by_the_passing_final_check_is_in_the_evidence(self):
        stuck = (*TestAStuckCaseAtTheFinalCheck.STUCK, run("final-run2", 0, "final", 2),
                 graded("final-run2", "PASSED", "b"))

        checks = audited(*stuck)

        assert checks["final_check"].holds and checks["difficult_settled"].holds
        assert checks["final_check"].evidence[-1] == ("seq 12: final-run2 PASSED on all 3 cases, reporting the stuck "
                                                      "case(s) it got wrong: b")
