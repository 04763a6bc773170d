"""batch.mjs's rules as pure functions: given a history, when the next batch is asked for, then its size,
cases, rechecks and text. (The differential test checks the same against batch.mjs itself.)"""

from __future__ import annotations

import pytest

from batchlog.projections.tune.batch_mjs.rules import (
    BatchPlan,
    DifficultEntry,
    History,
    NothingLeft,
    Settings,
    cases_json,
    draw_start,
    lehmer_keys,
    next_batch,
    next_size,
    open_difficult,
    plan_json,
    progress_lines,
    retries,
    stuck_difficult,
    summary_lines,
)
from batchlog.projections.tune.batch_mjs.config import settings_from_config


def cases(*ids: str) -> tuple[dict, ...]:
    return tuple({"id": i} for i in ids)


def history(ids=("a", "b", "c", "d", "e", "f", "g", "h", "i", "j"), *, batches=None, sizes=None, runs=(),
            difficult=None, complexity=None, **settings) -> History:
    batches = {n: tuple(b) for n, b in (batches or {}).items()}
    return History(
        selection=cases(*ids),
        complexity=complexity or {},
        settings=Settings(**settings),
        batches=batches,
        sizes=sizes if sizes is not None else {n: len(b) for n, b in batches.items()},
        runs=tuple(runs) or tuple((f"batch{n:02d}-nomem-run1", "PASSED") for n in batches),
        difficult=difficult,
    )


def ids(found: tuple[dict, ...]) -> list[str]:
    return [c["id"] for c in found]


class TestSize:
    def test_batch_one_is_the_smoke_test_of_min_batch(self):
        assert next_size(history(min_batch=2)).why == "batch 1 is the smoke test: minBatch 2"

    def test_size_doubles_after_a_smooth_batch(self):
        given = history(batches={1: "abc"}, runs=[("batch01-nomem-run1", "PASSED"), ("batch01-mem-run1", "PASSED")])

        size = next_size(given)

        assert (size.size, size.why) == (
            6, "batch 1 went smoothly (1 no-memory + 1 with-memory runs, no new difficult case): 3 -> 6")

    @pytest.mark.parametrize("half", ["nomem", "mem"])
    def test_two_runs_of_a_half_are_still_smooth(self, half):
        """The limit is inclusive (batch.mjs's `<= SMOOTH_RUNS`): exactly two runs that count in one half (a VOID one
        does not) still grow the batch."""
        other = "mem" if half == "nomem" else "nomem"
        runs = [(f"batch01-{half}-run1", "WRONG"), (f"batch01-{half}-run2", "PASSED"),
                (f"batch01-{other}-run1", "PASSED"), (f"batch01-{half}-run3", "VOID")]
        given = history(batches={1: "abc"}, runs=runs)

        size = next_size(given)

        counts = {"nomem": 2, "mem": 1} if half == "nomem" else {"nomem": 1, "mem": 2}
        assert (size.size, size.why) == (6, f"batch 1 went smoothly ({counts['nomem']} no-memory + {counts['mem']} "
                                             "with-memory runs, no new difficult case): 3 -> 6")

    def test_size_stays_after_a_batch_that_needed_three_runs(self):
        given = history(batches={1: "abc"}, runs=[(f"batch01-nomem-run{k}", "WRONG") for k in (1, 2, 3)])

        size = next_size(given)

        assert (size.size, size.why) == (3, "batch 1 did not go smoothly (3 no-memory + 0 with-memory runs, "
                                            "0 difficult case(s) added and open): stays at 3")

    def test_void_runs_do_not_count_but_ungraded_ones_do(self):
        runs = [("batch01-nomem-run1", "VOID"), ("batch01-nomem-run2", "VOID"), ("batch01-nomem-run3", "WRONG"),
                ("batch01-mem-run1", ""), ("batch01-mem-run2", ""), ("batch01-mem-run3", "")]

        size = next_size(history(batches={1: "abc"}, runs=runs))

        assert size.why.startswith("batch 1 did not go smoothly (1 no-memory + 3 with-memory runs")

    def test_size_stays_after_a_batch_that_added_an_open_difficult_case(self):
        given = history(batches={1: "abc"}, difficult=(DifficultEntry("b", ("flaky",), "batch01-nomem-run1"),))

        assert next_size(given).size == 3

    def test_a_difficult_case_fixed_since_no_longer_holds_the_size_back(self):
        entry = DifficultEntry("b", ("flaky",), "batch01-nomem-run1", fixed="batch01-mem-run1")

        assert next_size(history(batches={1: "abc"}, difficult=(entry,))).size == 6

    def test_growth_stops_at_max_batch(self):
        given = history(batches={1: "abcdef", 2: "ghij"}, sizes={1: 6, 2: 8}, max_batch=10)

        assert (next_size(given).size, next_size(given).why) == (
            10, "batch 2 went smoothly (1 no-memory + 0 with-memory runs, no new difficult case): 8 -> 10")

    def test_at_max_batch_the_why_says_so(self):
        given = history(batches={1: "ab"}, sizes={1: 4}, max_batch=4)

        assert next_size(given).why == "batch 1 went smoothly; already at maxBatch 4"

    def test_a_missing_plan_size_counts_as_min_batch(self):
        assert next_size(history(batches={1: "ab"}, sizes={})).size == 6

    def test_m_overrides_the_growth_rule(self):
        assert next_size(history(), 7) == next_size(history(batches={1: "a"}), 7)
        assert next_size(history(), 7).why == "set by -m 7"


class TestNextBatch:
    def test_new_cases_come_in_selection_order_and_nothing_is_rechecked_first(self):
        plan = next_batch(history())

        assert (ids(plan.new), plan.recheck, plan.kind, plan.unused_after) == (["a", "b", "c"], (), "new", 7)

    def test_rechecks_put_open_then_fixed_difficult_first_then_complex(self):
        difficult = (DifficultEntry("b", ("costly",), "batch01-nomem-run1", fixed="batch01-nomem-run2"),
                     DifficultEntry("e", ("wrong",), "batch01-nomem-run1"))
        given = history(batches={1: "abcdef"}, sizes={1: 6}, difficult=difficult, complexity={"d": "complex"},
                        recheck=4)

        plan = next_batch(given)

        assert ids(plan.recheck)[:3] == ["e", "b", "d"]
        assert len(plan.recheck) == 4

    def test_open_difficult_cases_sort_by_worst_reason_then_retries_then_locale_id(self):
        difficult = tuple(DifficultEntry(i, r, "batch01-nomem-run1") for i, r in
                          [("B", ("flaky",)), ("a", ("costly", "wrong")), ("b", ("flaky",)), ("c", ("memory",))])

        assert [e.id for e in open_difficult(history(batches={1: "aBbc"}, difficult=difficult))] == \
            ["a", "b", "B", "c"]

    def test_the_seeded_draw_is_the_lehmer_sequence(self):
        start = draw_start(1, 2)

        assert start == (1 * 7919 + 2 * 104729) % 2147483646 + 1
        assert lehmer_keys(start, 2) == [start * 48271 % 2147483647, start * 48271**2 % 2147483647]

    def test_other_seeds_draw_other_rechecks(self):
        given = history(batches={1: "abcdefgh"}, recheck=3)

        drawn = {tuple(ids(next_batch(given, seed=s).recheck)) for s in range(1, 8)}

        assert len(drawn) > 1

    def test_r_overrides_the_recheck_count(self):
        assert len(next_batch(history(batches={1: "abcdef"}), recheck=5).recheck) == 5

    def test_complex_cases_are_rechecked_first_each_group_in_the_seeded_order(self):
        """The candidates after the difficult ones: complex before the rest, each group in the order of its cases'
        Lehmer draws (a case's draw is its place in the used cases, batch 2 of seed 1)."""
        given = history(batches={1: "abcdefgh"}, complexity={"b": "complex", "e": "complex", "g": "complex"},
                        recheck=5)
        draw = dict(zip("abcdefgh", lehmer_keys(draw_start(1, 2), 8)))
        complex_first = sorted("abcdefgh", key=lambda i: (i not in "beg", draw[i]))

        assert ids(next_batch(given).recheck) == complex_first[:5]

    @pytest.mark.parametrize("recheck, kept", [(-2, 6), (-8, 0), (-9, 0), (0, 0), (1, 1)])
    def test_a_recheck_count_below_one_keeps_what_slice_keeps(self, recheck, kept):
        """batch.mjs takes `candidates.slice(0, recheck)`: a negative count (possible from a zen folder's config.json)
        leaves that many off the end, as Python's slice does."""
        given = history(batches={1: "abcdefgh"}, complexity={"c": "complex"},
                        difficult=(DifficultEntry("f", ("wrong",), "batch01-nomem-run1"),))
        everything = ids(next_batch(given, recheck=8).recheck)

        assert ids(next_batch(given, recheck=recheck).recheck) == everything[:recheck] == everything[:kept]

    def test_once_the_selection_is_used_up_a_batch_holds_open_difficult_cases_only(self):
        difficult = (DifficultEntry("c", ("wrong",), "batch01-nomem-run1"),
                     DifficultEntry("a", ("wrong",), "batch01-nomem-run1", fixed="batch01-nomem-run2"))

        plan = next_batch(history(("a", "b", "c"), batches={1: "abc"}, difficult=difficult))

        assert (plan.kind, ids(plan.new), ids(plan.recheck), plan.unused_after) == ("difficult", ["c"], ["a", "b"], 0)

    def test_a_difficult_case_is_stuck_after_max_retries_later_batches(self):
        entry = DifficultEntry("c", ("wrong",), "batch01-nomem-run1")
        given = history(("a", "b", "c"), batches={1: "abc", 2: "c", 3: "c"}, difficult=(entry,), max_retries=2)

        assert (retries(given, entry), stuck_difficult(given), open_difficult(given)) == (2, [entry], [])

    def test_nothing_left_says_to_run_the_final_check(self):
        entry = DifficultEntry("c", ("wrong",), "batch01-nomem-run1")
        given = history(("a", "b", "c"), batches={1: "abc", 2: "c", 3: "c", 4: "c"}, difficult=(entry,))

        with pytest.raises(NothingLeft) as refused:
            next_batch(given)

        assert refused.value.message == "nothing left: no unused cases and no open difficult ones (1 stuck) - " \
                                        "run the final check"


class TestText:
    def test_progress_lines_are_batch_mjs_status(self):
        given = history(batches={1: "abc"}, difficult=(DifficultEntry("a", ("wrong",), "batch01-nomem-run1"),))

        assert progress_lines(given) == [
            "selection     10 cases",
            "used          3, 7 not yet in any batch",
            "batches       1 built",
            "next size     3 - batch 1 did not go smoothly (1 no-memory + 0 with-memory runs, 1 difficult case(s) "
            "added and open): stays at 3",
            "difficult     1 open · 0 fixed · 0 stuck",
            "ahead         at least 1 more batch(es) for new cases, plus what the 1 open difficult case(s) need",
        ]

    def test_summary_warns_when_the_folder_is_not_the_batch_first_run(self):
        plan = BatchPlan(2, 3, "why", "new", cases("x"), (), 4, 0)

        assert summary_lines(plan, "out/cases.json", False)[1:] == [
            "next-batch: batch 2 -> out/cases.json", "  size      3 - why", "  new       x",
            "  recheck   (none - nothing used yet)", "  after it: 4 unused case(s), 0 difficult open "
            "(no difficult list yet)", "  warning: out is not named batch<NN>-nomem-run1 - a run's folder is named "
            "after its run"]
        assert summary_lines(plan, "runs/batch03-nomem-run1/cases.json", True)[-1] == \
            "  warning: this is batch 2; write it to batch02-nomem-run1/"
        assert summary_lines(plan, None, True)[1] == "next-batch: batch 2 -> -"

    def test_cases_and_plan_json_are_written_as_json_stringify_does(self):
        plan = BatchPlan(1, 2, "w", "new", ({"id": "é", "n": 1.0},), ({"id": "b"},), 0, 0)

        assert cases_json(plan) == '{\n  "batch": [\n    {\n      "id": "é",\n      "n": 1\n    },\n' \
                                   '    {\n      "id": "b"\n    }\n  ]\n}\n'
        assert plan_json(plan).endswith('"kind": "new",\n  "new": [\n    "é"\n  ],\n  "recheck": [\n    "b"\n  ]\n}\n')


class TestSettingsFromConfig:
    def test_values_that_are_not_positive_numbers_fall_back_to_defaults(self):
        settings = settings_from_config({"minBatch": "0", "maxBatch": 2, "seed": "x", "maxRetries": -1,
                                         "recheck": 0})

        assert settings == Settings(min_batch=3, max_batch=3, recheck=0, seed=1, max_retries=3)
