"""A fixed difficult case can break again (issue 11.2): given events / when command / then events or a refusal,
and batch.mjs's rules on a list that holds several entries for one case."""

from __future__ import annotations

import pytest

from batchlog.projections.errors import BadInput, Refused
from batchlog.projections.tune.decide.loop import AddDifficult, FixDifficult, decide
from batchlog.projections.tune.events import BatchBuilt, DifficultAdded, DifficultFixed, RunGraded, RunStarted
from batchlog.projections.tune.batch_mjs.inputs import history
from batchlog.projections.tune.views.readme.sections import difficult as difficult_section
from batchlog.projections.tune.batch_mjs.rules import (
    DifficultEntry,
    History,
    Settings,
    fixed_difficult,
    next_batch,
    open_difficult,
    progress_lines,
    retries,
    stuck_difficult,
)
from batchlog.projections.tune.views.status import difficult_rows
from batchlog.projections.tune.zen_import import ZenFolder, ZenRun, import_events
from tests.tune_helpers import fold as given
from tests.tune_helpers import started

CASES = tuple({"id": f"c{i}", **({"complexity": "complex"} if i in (4, 5) else {})} for i in range(1, 9))
STARTED = started(CASES, min_batch=2, max_batch=2, recheck=2)
B1 = ("c1", "c2")
B2 = ("c3", "c4", "c1", "c2")


def run(name: str, batch: int, cases: tuple[str, ...]) -> RunStarted:
    kind, number = name.split("-")[1], int(name[-1])
    return RunStarted(name, batch, kind, number, cases)


FIXED_ONCE = (
    STARTED, BatchBuilt(1, 2, "smoke", "new", B1, ()),
    run("batch01-nomem-run1", 1, B1), RunGraded("batch01-nomem-run1", "WRONG", ("c1",)),
    DifficultAdded("c1", ("wrong",), "batch01-nomem-run1", "first time"),
    run("batch01-nomem-run2", 1, B1), RunGraded("batch01-nomem-run2", "PASSED"),
    DifficultFixed("c1", "batch01-nomem-run2", "named the file"),
    BatchBuilt(2, 2, "w", "new", ("c3", "c4"), ("c1", "c2")),
    run("batch02-nomem-run1", 2, B2), RunGraded("batch02-nomem-run1", "WRONG", ("c1",)),
)
AGAIN = DifficultAdded("c1", ("regressed",), "batch02-nomem-run1", "broke again")


class TestAFixedCaseAddedAgain:
    def test_gets_a_new_entry_and_the_old_one_stays_fixed(self):
        assert decide(AddDifficult("c1", ("regressed",), "batch02-nomem-run1", "broke again"),
                      given(*FIXED_ONCE)) == [AGAIN]

        state = given(*FIXED_ONCE, AGAIN)

        assert [(e.case, e.added, e.fixed) for e in state.difficult] == [
            ("c1", "batch01-nomem-run1", "batch01-nomem-run2"), ("c1", "batch02-nomem-run1", None)]
        assert state.difficult_entry("c1").added == "batch02-nomem-run1"

    def test_the_same_add_again_is_a_no_op(self):
        assert decide(AddDifficult("c1", ("regressed",), "batch02-nomem-run1", "broke again"),
                      given(*FIXED_ONCE, AGAIN)) == []

    def test_an_open_case_is_not_added_twice(self):
        state = given(*FIXED_ONCE, AGAIN, run("batch02-nomem-run2", 2, B2))

        with pytest.raises(Refused, match="already on the difficult list .* and not fixed"):
            decide(AddDifficult("c1", ("flaky",), "batch02-nomem-run2"), state)

    def test_it_breaks_again_only_in_a_run_after_the_fixing_one(self):
        with pytest.raises(Refused, match="fixed in batch01-nomem-run2: .* only for a later run, not "
                                          "batch01-nomem-run1"):
            decide(AddDifficult("c1", ("flaky",), "batch01-nomem-run1"), given(*FIXED_ONCE))

    def test_a_fix_goes_to_the_new_entry(self):
        state = given(*FIXED_ONCE, AGAIN, run("batch02-nomem-run2", 2, B2), RunGraded("batch02-nomem-run2", "PASSED"))

        assert decide(FixDifficult("c1", "batch02-nomem-run2"), state) == [DifficultFixed("c1", "batch02-nomem-run2")]
        fixed = given(*FIXED_ONCE, AGAIN, run("batch02-nomem-run2", 2, B2), RunGraded("batch02-nomem-run2", "PASSED"),
                      DifficultFixed("c1", "batch02-nomem-run2"))
        assert [e.fixed for e in fixed.difficult] == ["batch01-nomem-run2", "batch02-nomem-run2"]
        with pytest.raises(Refused, match="already marked fixed in batch02-nomem-run2"):
            decide(FixDifficult("c1", "batch01-nomem-run2"), fixed)

    def test_with_two_open_entries_imported_a_fix_goes_to_the_oldest_as_the_fold_applies_it(self):
        facts = (*FIXED_ONCE[:4], DifficultAdded("c1", ("wrong",), "batch01-nomem-run1"),
                 DifficultAdded("c1", ("flaky",), "batch02-nomem-run1"), FIXED_ONCE[5], FIXED_ONCE[6])
        # (an imported difficult.json may list a case open twice; batchlog never adds it so)

        assert decide(FixDifficult("c1", "batch01-nomem-run2"), given(*facts)) == [
            DifficultFixed("c1", "batch01-nomem-run2")]
        state = given(*facts, DifficultFixed("c1", "batch01-nomem-run2"))
        assert [(e.added, e.fixed) for e in state.difficult] == [
            ("batch01-nomem-run1", "batch01-nomem-run2"), ("batch02-nomem-run1", None)]

    def test_retries_count_from_the_new_entry_s_run_and_status_counts_entries(self):
        state = given(*FIXED_ONCE, AGAIN, BatchBuilt(3, 2, "w", "new", ("c5", "c6"), ("c1", "c2")))
        past = history(state)

        assert [retries(past, e) for e in past.difficult] == [2, 1]  # batches 2, 3 after batch 1; batch 3 after 2
        assert (len(open_difficult(past)), len(fixed_difficult(past)), len(stuck_difficult(past))) == (1, 1, 0)
        assert "difficult     1 open · 1 fixed · 0 stuck" in progress_lines(past)

    def test_the_difficult_list_and_the_readme_show_each_entry_with_its_own_status_and_notes(self):
        state = given(*FIXED_ONCE, AGAIN)

        rows = [(r.case, r.status, r.added, r.notes) for r in difficult_rows(state)]
        assert rows == [("c1", "open", "batch02-nomem-run1", ("batch02-nomem-run1: broke again",)),
                        ("c1", "fixed", "batch01-nomem-run1",
                         ("batch01-nomem-run1: first time", "batch01-nomem-run2: named the file"))]
        section = difficult_section(state)
        assert "| `c1` | regressed | open | 0 | added in batch02-nomem-run1: broke again |" in section
        assert "| `c1` | wrong | fixed | 1 | added in batch01-nomem-run1: first time; fixed in " \
               "batch01-nomem-run2: named the file |" in section


def rules_history(difficult: tuple[DifficultEntry, ...], *, recheck: int = 2) -> History:
    """Batches 1 and 2 built, every case of the selection c1..c8 but c7, c8 used."""
    return History(selection=CASES, complexity={c["id"]: c.get("complexity", "") for c in CASES},
                   settings=Settings(min_batch=2, max_batch=2, recheck=recheck, seed=1, max_retries=3),
                   batches={1: B1, 2: B2, 3: ("c5", "c6", "c1", "c3")}, sizes={1: 2, 2: 2, 3: 2},
                   runs=(), difficult=difficult)


FIXED = DifficultEntry("c1", ("wrong",), "batch01-nomem-run1", "batch01-nomem-run2")
REOPENED = DifficultEntry("c1", ("regressed",), "batch02-nomem-run1")


class TestACaseWithSeveralEntriesInABatch:
    """batch.mjs lists open and fixed entries' ids without removing repeats, so it would recheck c1 twice;
    batchlog rechecks it once and the next candidate takes the repeat's place (a deliberate difference)."""

    @pytest.mark.parametrize("recheck", [1, 2, 3, 5])
    def test_a_case_fixed_and_open_again_is_rechecked_once_and_the_place_filled(self, recheck):
        plan = next_batch(rules_history((FIXED, REOPENED), recheck=recheck))
        # the same list as if the case had one entry: repeats take no place
        alone = next_batch(rules_history((REOPENED,), recheck=recheck))

        ids = [c["id"] for c in plan.recheck]
        assert ids == [c["id"] for c in alone.recheck] and len(ids) == len(set(ids)) == min(recheck, 6)
        assert ids[0] == "c1"

    def test_a_case_fixed_twice_is_rechecked_once(self):
        twice = (FIXED, DifficultEntry("c1", ("regressed",), "batch02-nomem-run1", "batch03-nomem-run1"))

        plan = next_batch(rules_history(twice, recheck=3))

        alone = next_batch(rules_history((FIXED,), recheck=3))
        assert [c["id"] for c in plan.recheck] == [c["id"] for c in alone.recheck]
        assert len({c["id"] for c in plan.recheck}) == 3

    def test_a_difficult_batch_holds_a_case_with_two_open_entries_once(self):
        # an imported difficult.json may list a case open twice; the selection is used up
        used = History(selection=CASES[:6], complexity={}, settings=Settings(2, 2, 0, 1, 3),
                       batches={1: B1, 2: B2, 3: ("c5", "c6")}, sizes={1: 2, 2: 2, 3: 2}, runs=(),
                       difficult=(DifficultEntry("c1", ("wrong",), "batch03-nomem-run1"), REOPENED,
                                  DifficultEntry("c2", ("flaky",), "batch03-nomem-run1")))

        plan = next_batch(used)

        assert plan.kind == "difficult" and [c["id"] for c in plan.new] == ["c1", "c2"]


def zen(difficult: tuple[dict, ...]) -> ZenFolder:
    runs = (ZenRun("batch01-nomem-run1", B1, "WRONG", None), ZenRun("batch01-nomem-run2", B1, "PASSED", None),
            ZenRun("batch02-nomem-run1", B2, "WRONG", {"batch": 2, "size": 2, "new": ["c3", "c4"],
                                                        "recheck": ["c1", "c2"]}),
            ZenRun("batch02-nomem-run2", B2, "PASSED", None))
    return ZenFolder("zen", {"minBatch": 2, "maxBatch": 2}, CASES, CASES, difficult, runs)


class TestImportOfSeveralEntriesForOneCase:
    def test_a_difficult_json_with_a_case_fixed_and_added_again_imports_both_entries(self):
        file = ({"id": "c1", "reasons": ["wrong"], "added": "batch01-nomem-run1", "fixed": "batch01-nomem-run2"},
                {"id": "c1", "reasons": ["regressed"], "added": "batch02-nomem-run1", "fixed": "batch02-nomem-run2"},
                {"id": "c2", "reasons": ["flaky"], "added": "batch02-nomem-run1"})

        state = given(*import_events(zen(file)))

        assert [(e.case, e.reasons, e.added, e.fixed) for e in state.difficult] == [
            (e["id"], tuple(e["reasons"]), e["added"], e.get("fixed")) for e in file]

    @pytest.mark.parametrize("file", [
        ({"id": "c1", "reasons": ["wrong"], "added": "batch01-nomem-run1"},
         {"id": "c1", "reasons": ["regressed"], "added": "batch02-nomem-run1", "fixed": "batch02-nomem-run2"}),
        ({"id": "c1", "reasons": ["wrong"], "added": "batch01-nomem-run1", "fixed": "batch02-nomem-run2"},
         {"id": "c1", "reasons": ["regressed"], "added": "batch01-nomem-run2", "fixed": "batch02-nomem-run1"}),
    ])
    def test_entries_the_log_cannot_replay_are_refused_with_what_to_fix(self, file):
        with pytest.raises(BadInput, match="difficult.json lists case c1 in entries batchlog cannot replay"):
            import_events(zen(file))
