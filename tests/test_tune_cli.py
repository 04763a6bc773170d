"""`batchlog tune ...` in-process: exact output and exit codes, refusals that leave the log's bytes alone,
idempotent repeats, `--at SEQ`, and `tune import` of a zen folder."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.clirunner import invoke
from tests.seeds import BATCH_MJS, require
from tests.zenfolder import NODE, NODE_ENV, in_batchlog_words

REPO = Path(__file__).resolve().parent.parent
DATASET = REPO / "fixtures" / "datasets" / "support-desk-64.json"
IN_PROGRESS = REPO / "fixtures" / "tune-in-progress"
CLOCK = {"BATCHLOG_CLOCK": "2026-12-02T16:00:00Z"}


def tune(folder: Path, *args: str):
    return invoke("tune", *args, "--dir", folder, env=CLOCK, cwd=folder.parent)


@pytest.fixture
def tuning(tmp_path) -> Path:
    """A copy of the in-progress fixture: batch 3's first run waits to be graded."""
    folder = tmp_path / "finetune"
    shutil.copytree(IN_PROGRESS, folder)
    return folder


@pytest.fixture
def fresh(tmp_path) -> Path:
    folder = tmp_path / "finetune"
    assert tune(folder, "init", "--dataset", str(DATASET), "--limit", "12").code == 0
    return folder


class TestViews:
    def test_status_prints_batch_mjs_progress(self, tuning):
        result = tune(tuning, "status")

        assert (result.code, result.err) == (0, "")
        assert result.out == (
            "selection     64 cases\n"
            "used          15, 49 not yet in any batch\n"
            "batches       3 built\n"
            "next size     10 - batch 3 went smoothly (1 no-memory + 0 with-memory runs, no new difficult case): "
            "6 -> 10\n"
            "difficult     1 open · 1 fixed · 0 stuck\n"
            "ahead         at least 5 more batch(es) for new cases, plus what the 1 open difficult case(s) need\n"
        )

    def test_status_json_gives_the_figures_as_fields(self, tuning):
        body = json.loads(tune(tuning, "status", "--json").out)

        assert {key: value for key, value in body.items() if key != "lines"} == {
            "selection": 64, "used": 15, "unused": 49, "batches_built": 3, "next_size": 10,
            "next_size_why": "batch 3 went smoothly (1 no-memory + 0 with-memory runs, no new difficult case): "
                             "6 -> 10",
            "difficult": {"open": 1, "fixed": 1, "stuck": 0}, "batches_ahead": 5}
        assert body["lines"] == tune(tuning, "status").out.splitlines()

    def test_status_with_m_shows_the_size_it_sets(self, tuning):
        result = tune(tuning, "status", "-m", "4")

        assert (result.code, result.err) == (0, "")
        assert result.out.splitlines()[3] == "next size     4 - set by -m 4"

    def test_next_names_the_run_to_grade_then_the_records_around_it(self, tuning):
        result = tune(tuning, "next")

        assert (result.code, result.err) == (0, "")
        assert result.out == (
            "Grade batch 3's run 1 without memory (batch03-nomem-run1): check it was not killed for memory, read "
            "every trajectory, then record the verdict and the figures.\n"
            "\n"
            f"    batchlog tune run grade batch03-nomem-run1 --verdict VERDICT --dir {tuning}\n"
            "\n"
            "Also, when it applies:\n"
            "  - When batch03-nomem-run1's model usage is known, record it (running totals per model: a later report "
            "replaces an earlier one).\n"
            "      batchlog tune usage batch03-nomem-run1 --model MODEL --calls CALLS --input-tokens INPUT_TOKENS "
            f"--output-tokens OUTPUT_TOKENS --dir {tuning}\n"
        )

    def test_next_json(self, tuning):
        result = tune(tuning, "next", "--json")

        assert json.loads(result.out)["step"] == "grade"

    def test_difficult_lists_open_then_fixed(self, tuning):
        result = tune(tuning, "difficult")

        assert [line.split("  ")[:3] for line in result.out.splitlines() if not line.startswith(" ")] == [
            ["billing-invoice-copy", "wrong", "open"], ["extraction-warranty-terms", "costly", "fixed"]]

    def test_at_seq_equals_the_log_cut_after_seq(self, tuning, tmp_path):
        lines = (tuning / "events.jsonl").read_bytes().splitlines(keepends=True)
        for seq in (1, 5, 17, 30):
            cut = tmp_path / f"cut{seq}"
            cut.mkdir()
            (cut / "events.jsonl").write_bytes(b"".join(lines[:seq]))
            for view in (("status",), ("next",), ("difficult",), ("next-batch",)):
                at = tune(tuning, *view, "--at", str(seq))
                whole = tune(cut, *view)
                assert (at.code, at.out, at.err) == (whole.code, whole.out.replace(str(cut), str(tuning)), whole.err)


class TestNextBatch:
    def test_preview_writes_nothing_and_matches_what_o_records(self, tuning, tmp_path):
        tune(tuning, "run", "grade", "batch03-nomem-run1", "--verdict", "PASSED")
        tune(tuning, "run", "start", "--batch", "3", "--kind", "mem")
        tune(tuning, "run", "grade", "batch03-mem-run1", "--verdict", "PASSED")
        assert "its memory is not kept yet" in tune(tuning, "next-batch", "-o", "x/cases.json").err
        tune(tuning, "memory", "keep", "--batch", "3", "--nodes", "50")
        before = (tuning / "events.jsonl").read_bytes()
        preview = tune(tuning, "next-batch")
        assert (tuning / "events.jsonl").read_bytes() == before

        out = tuning / "runs" / "batch04-nomem-run1" / "cases.json"
        recorded = tune(tuning, "next-batch", "-o", str(out))

        assert recorded.code == 0 and out.read_text() == preview.out
        assert recorded.err == preview.err.replace("batch 4 -> -", f"batch 4 -> {out}")
        assert json.loads((out.parent / "plan.json").read_text())["batch"] == 4

    def test_o_is_refused_while_a_run_waits(self, tuning):
        result = tune(tuning, "next-batch", "-m", "2", "-o", str(tuning / "x" / "cases.json"))

        assert result.code == 1
        assert result.err.startswith("batchlog: run batch03-nomem-run1 is waiting to be graded")

    def test_repeating_o_prints_the_same_and_appends_nothing(self, fresh):
        out = str(fresh / "runs" / "batch01-nomem-run1" / "cases.json")
        first = tune(fresh, "next-batch", "-o", out)
        log = (fresh / "events.jsonl").read_bytes()

        again = tune(fresh, "next-batch", "-o", out)

        assert (again.code, again.out, again.err) == (first.code, first.out, first.err)
        assert (fresh / "events.jsonl").read_bytes() == log

    @pytest.mark.parametrize("overrides", [(), ("-m", "3", "--seed", "7")])
    def test_an_o_repeated_after_its_batch_moved_on_is_refused_and_names_the_batchs_own_folder(self, fresh, overrides):
        """A command read back late (after a context compaction, say) names the folder of the batch it built then:
        the batch it would build now must not overwrite that one's files."""
        first = fresh / "runs" / "batch01-nomem-run1" / "cases.json"
        assert tune(fresh, "next-batch", *overrides, "-o", str(first)).code == 0
        for args in (("run", "grade", "batch01-nomem-run1", "--verdict", "PASSED"),
                     ("run", "start", "--batch", "1", "--kind", "mem"),
                     ("run", "grade", "batch01-mem-run1", "--verdict", "PASSED"),
                     ("memory", "keep", "--batch", "1", "--nodes", "5")):
            assert tune(fresh, *args).code == 0, args
        log, files = (fresh / "events.jsonl").read_bytes(), first.read_bytes()

        late = tune(fresh, "next-batch", *overrides, "-o", str(first))

        own = fresh / "runs" / "batch02-nomem-run1" / "cases.json"
        assert (late.code, late.out) == (1, "")
        assert late.err.startswith(f"batchlog: -o names {first.parent}, the folder of a run of batch 1, which is "
                                   "recorded already: batch 2's files would overwrite that batch's. Nothing is "
                                   "recorded; write batch 2 to its own first run's folder: ")
        assert (fresh / "events.jsonl").read_bytes() == log and first.read_bytes() == files
        printed = late.err.split("`")[1]
        assert printed == shlex.join(["batchlog", "tune", "next-batch", *overrides, "-o", str(own),
                                      "--dir", str(fresh)])
        assert tune(fresh, *shlex.split(printed)[2:-2]).code == 0 and own.is_file()

    def test_repeating_the_last_build_into_another_batchs_folder_is_refused(self, fresh):
        for number in (1, 2):
            if number == 2:
                for args in (("run", "grade", "batch01-nomem-run1", "--verdict", "PASSED"),
                             ("run", "start", "--batch", "1", "--kind", "mem"),
                             ("run", "grade", "batch01-mem-run1", "--verdict", "PASSED"),
                             ("memory", "keep", "--batch", "1", "--nodes", "5")):
                    assert tune(fresh, *args).code == 0, args
            out = fresh / "runs" / f"batch0{number}-nomem-run1" / "cases.json"
            assert tune(fresh, "next-batch", "-o", str(out)).code == 0
        log = (fresh / "events.jsonl").read_bytes()

        result = tune(fresh, "next-batch", "-o", str(fresh / "runs" / "batch01-mem-run1" / "cases.json"))

        assert result.code == 1 and "the folder of a run of batch 1, which is recorded already: batch 2's" in result.err
        assert (fresh / "events.jsonl").read_bytes() == log

    def test_o_naming_a_folder_is_refused_before_anything_is_recorded(self, fresh):
        log = (fresh / "events.jsonl").read_bytes()

        result = tune(fresh, "next-batch", "-o", str(fresh))

        assert (result.code, result.out) == (1, "")
        assert result.err == f"batchlog: {fresh} cannot be written: it is a folder; give the path of a file\n"
        assert (fresh / "events.jsonl").read_bytes() == log

    def test_o_naming_the_log_is_refused(self, fresh):
        log = (fresh / "events.jsonl").read_bytes()

        result = tune(fresh, "next-batch", "-o", str(fresh / "events.jsonl"))

        assert result.code == 1 and "is the tuning's log" in result.err
        assert (fresh / "events.jsonl").read_bytes() == log

    def test_files_that_fail_after_the_batch_is_recorded_are_written_by_the_same_command_again(
            self, fresh, monkeypatch):
        """The batch is the record and the files a view of it: a failed write says so, and a repeat writes them."""
        import errno
        import os

        import batchlog.cli.tune.files

        out = fresh / "runs" / "batch01-nomem-run1" / "cases.json"
        real_replace = os.replace

        def disk_full(source, target):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(batchlog.cli.tune.files.os, "replace", disk_full)
        failed = tune(fresh, "next-batch", "-o", str(out))
        monkeypatch.setattr(batchlog.cli.tune.files.os, "replace", real_replace)
        written_when_it_failed = out.exists()
        log = (fresh / "events.jsonl").read_bytes()
        again = tune(fresh, "next-batch", "-o", str(out))

        assert failed.code == 1 and not written_when_it_failed
        assert failed.err == (f"batchlog: batch 1 is recorded, but {out} cannot be written: No space left on device: "
                              "fix that and run the same command again to write its files (nothing more is "
                              "recorded)\n")
        assert again.code == 0 and out.is_file() and (out.parent / "plan.json").is_file()
        assert (fresh / "events.jsonl").read_bytes() == log
        assert list(out.parent.glob(".*.tmp")) == []

    def test_a_badly_named_o_gets_batch_mjs_warning_in_batchlogs_words(self, fresh):
        result = tune(fresh, "next-batch", "-o", str(fresh / "elsewhere" / "cases.json"))

        assert result.err.splitlines()[-1] == (f"  warning: {fresh}/elsewhere is not named batch<NN>-nomem-run1 - "
                                               "a run's folder is named after its run")

    def test_nothing_left_says_to_run_the_final_check(self, tmp_path):
        folder = tmp_path / "t"
        dataset = tmp_path / "d.json"
        dataset.write_text('{"cases": [{"id": "a"}]}')
        tune(folder, "init", "--dataset", str(dataset))
        for args in (("next-batch", "-o", str(folder / "runs/batch01-nomem-run1/cases.json")),
                     ("run", "grade", "batch01-nomem-run1", "--verdict", "PASSED"),
                     ("run", "start", "--batch", "1", "--kind", "mem"),
                     ("run", "grade", "batch01-mem-run1", "--verdict", "PASSED"),
                     ("memory", "keep", "--batch", "1", "--nodes", "3")):
            assert tune(folder, *args).code == 0

        result = tune(folder, "next-batch")

        assert (result.code, result.out) == (1, "")
        assert result.err == ("batchlog: nothing left: no unused cases and no open difficult ones - run the final "
                              "check\n")
        assert tune(folder, "run", "start", "--final").out == "final-run1\n"
        assert json.loads((folder / "runs/final-run1/cases.json").read_text()) == {"batch": [{"id": "a"}]}


class TestRuns:
    def test_run_start_writes_the_batch_cases_and_prints_the_name(self, tuning):
        tune(tuning, "run", "grade", "batch03-nomem-run1", "--verdict", "WRONG", "--wrong", "search-sso-setup")

        result = tune(tuning, "run", "start", "--batch", "3", "--kind", "nomem")

        assert (result.code, result.out) == (0, "batch03-nomem-run2\n")
        assert ((tuning / "runs/batch03-nomem-run2/cases.json").read_bytes()
                == (tuning / "runs/batch03-nomem-run1/cases.json").read_bytes())

    def test_grade_prints_the_verdict(self, tuning):
        result = tune(tuning, "run", "grade", "batch03-nomem-run1", "--verdict", "WRONG", "--wrong",
                      "search-sso-setup")

        assert (result.code, result.out) == (0, "batch03-nomem-run1 graded WRONG (1 wrong: search-sso-setup)\n")


class TestRegrade:
    def test_a_correction_is_folded_by_every_view_listed_by_the_audit_and_shown_in_the_readme(self, tuning):
        tune(tuning, "run", "grade", "batch03-nomem-run1", "--verdict", "PASSED", "--llm-calls", "5")

        result = tune(tuning, "run", "regrade", "batch03-nomem-run1", "--verdict", "WRONG", "--wrong",
                      "search-sso-setup", "--llm-calls", "5", "--reason", "the reply cited no clause")

        assert (result.code, result.out) == (0, "batch03-nomem-run1 regraded WRONG (1 wrong: search-sso-setup) "
                                                "(was PASSED)\n")
        shown = invoke("log", "show", tuning / "events.jsonl", "--json")
        types = [json.loads(line)["type"] for line in shown.out.splitlines()]  # JSON Lines: one event a line
        assert types[-2:] == ["tune.run_graded", "tune.run_regraded"]
        assert json.loads(tune(tuning, "next", "--json").out)["step"] == "fix_and_run"
        readme = tune(tuning, "readme", "--stdout").out
        assert "- Regraded from PASSED to WRONG at seq" in readme and "the reply cited no clause" in readme
        audited = json.loads(tune(tuning, "audit", "--json").out)
        corrections = next(check for check in audited["checks"] if check["name"] == "corrections")
        assert corrections["holds"] and "regraded PASSED -> WRONG: the reply cited no clause" in \
            corrections["evidence"][0]
        again = tune(tuning, "run", "regrade", "batch03-nomem-run1", "--verdict", "WRONG", "--wrong",
                     "search-sso-setup", "--llm-calls", "5", "--reason", "the reply cited no clause")
        assert (again.code, again.out) == (0, result.out)

    def test_a_regrade_after_the_next_run_started_is_refused_and_says_why(self, tuning):
        tune(tuning, "run", "grade", "batch03-nomem-run1", "--verdict", "CORRECT")
        tune(tuning, "run", "start", "--batch", "3", "--kind", "nomem")
        before = (tuning / "events.jsonl").read_bytes()

        result = tune(tuning, "run", "regrade", "batch03-nomem-run1", "--verdict", "PASSED", "--reason", "x")

        assert result.code == 1 and "batch03-nomem-run2 was started on its grade" in result.err
        assert (tuning / "events.jsonl").read_bytes() == before


REFUSALS = [
    (("run", "grade", "batch03-nomem-run1", "--verdict", "WRONG"), "name each with --wrong CASE"),
    (("run", "grade", "batch03-nomem-run1", "--verdict", "CORRECT", "--wrong", "search-sso-setup"),
     "a CORRECT run got every case right"),
    (("run", "regrade", "batch03-nomem-run1", "--verdict", "PASSED", "--reason", "x"), "is not graded yet"),
    (("difficult", "fix", "search-sso-setup", "--run", "batch02-nomem-run1"), "not on the difficult list"),
    (("run", "grade", "batch09-nomem-run1", "--verdict", "PASSED"), "no run 'batch09-nomem-run1'"),
    (("run", "grade", "batch03-nomem-run1", "--verdict", "MAYBE"), "verdict 'MAYBE' is not one of"),
    (("run", "grade", "batch03-nomem-run1", "--verdict", "WRONG", "--wrong", "search-sso-setup", "--tokens", "-3"),
     "--tokens is -3"),
    (("run", "grade", "batch03-nomem-run1", "--verdict", "WRONG", "--wrong", "nope"), "nope are not in run"),
    (("run", "start", "--batch", "3", "--kind", "mem"), "waiting to be graded"),
    (("run", "start", "--batch", "9", "--kind", "nomem"), "batch 9 does not exist"),
    (("run", "start", "--final"), "waiting to be graded"),
    (("difficult", "add", "zz", "--reason", "wrong", "--run", "batch03-nomem-run1"), "no case 'zz'"),
    (("difficult", "add", "search-sso-setup", "--reason", "slow", "--run", "batch03-nomem-run1"), "reason 'slow'"),
    (("difficult", "fix", "search-sso-setup", "--run", "batch03-nomem-run1"), "is not on the difficult list"),
    (("memory", "keep", "--batch", "3", "--nodes", "50"), "has not passed"),
    (("memory", "keep", "--batch", "2", "--nodes", "-1"), "--nodes is -1"),
    (("memory", "keep", "--batch", "8", "--nodes", "1"), "batch 8 does not exist"),
    (("usage", "batch01-nomem-run1", "--model", "gpt-5", "--calls", "1", "--input-tokens", "1", "--output-tokens",
      "1"), "running totals"),
    (("change", "nope", "--file", "a", "--summary", "b"), "no run 'nope'"),
    (("next-batch", "-m", "2", "-o", "x/cases.json"), "waiting to be graded"),
    (("init", "--dataset", str(DATASET), "--limit", "3"), "already started"),
]


class TestRefusals:
    @pytest.mark.parametrize("args, message", REFUSALS, ids=[" ".join(a[:2]) + f" {i}" for i, (a, _) in
                                                             enumerate(REFUSALS)])
    def test_a_refusal_exits_1_says_why_and_leaves_the_log_bytes_unchanged(self, tuning, args, message):
        before = (tuning / "events.jsonl").read_bytes()

        result = tune(tuning, *args)

        assert result.code == 1 and result.err.startswith("batchlog: ") and message in result.err
        assert (tuning / "events.jsonl").read_bytes() == before

    def test_json_refusal_is_one_object_on_stderr(self, tuning):
        result = tune(tuning, "run", "grade", "batch03-nomem-run1", "--verdict", "MAYBE", "--json")

        assert json.loads(result.err)["error"] == "bad_input"

    @pytest.mark.parametrize("content, message", [
        (b"{not json", "is not JSON"), (b'{"cases": [{"id": "a"}]}\xff', "is not UTF-8"),
        (b'{"cases": [{"id": "a"}, {"id": "a"}]}', "same id 'a'"), (b'{"cases": [{"x": 1}]}', "case 1 has no id"),
        (b"[]", "holds no \"cases\""),
    ])
    def test_a_bad_dataset_is_refused_and_nothing_is_written(self, tmp_path, content, message):
        dataset = tmp_path / "d.json"
        dataset.write_bytes(content)

        result = tune(tmp_path / "t", "init", "--dataset", str(dataset))

        assert result.code == 1 and message in result.err
        assert not (tmp_path / "t" / "events.jsonl").exists()

    def test_a_quick_batch_log_is_refused_as_the_wrong_log(self, tmp_path):
        from batchlog.engine import EventLog
        from batchlog.cli.loops import all_types
        from batchlog.projections.quick_batch.events import TargetStarted
        from batchlog.projections.tune.decider import TUNE

        folder = tmp_path / "qb"
        EventLog(folder / "events.jsonl", all_types()).append(TUNE, lambda state: [TargetStarted(1, "skill-a")])
        before = (folder / "events.jsonl").read_bytes()

        for args in (("status",), ("next-batch", "-o", str(folder / "c.json"))):
            result = tune(folder, *args, "--json")
            assert (result.code, json.loads(result.err)["error"]) == (1, "wrong_log")
        assert (folder / "events.jsonl").read_bytes() == before


GRADE = ("run", "grade", "batch03-nomem-run1", "--verdict", "WRONG", "--wrong", "search-sso-setup", "--llm-calls",
         "5")
START = ("run", "start", "--batch", "3", "--kind", "nomem")
COMMANDS = [
    GRADE,
    START,
    ("difficult", "add", "search-sso-setup", "--reason", "flaky", "--run", "batch03-nomem-run1"),
    ("change", "batch03-nomem-run1", "--file", "agents/prompts/search.md", "--summary", "cite", "--lines", "2"),
    ("usage", "batch03-nomem-run1", "--model", "m", "--calls", "3", "--input-tokens", "9", "--output-tokens", "1"),
    ("memory", "keep", "--batch", "2", "--nodes", "41"),
    ("next-batch", "-o", "finetune/runs/batch03-nomem-run1/cases.json"),
    ("init", "--dataset", str(DATASET)),
]
# What the in-progress fixture does not hold yet, so the first run of each records it; the fixture
# already holds what memory keep, next-batch and init would record.
RECORDS = {GRADE, *COMMANDS[2:5]}


def must_record(args: tuple[str, ...], ran: list[tuple[str, ...]]) -> bool:
    """Whether `args` records something after the fixture and the commands `ran`: `run start` starts
    a new run only once batch03-nomem-run1 is graded (before, it names the run that waits)."""
    if args == START:
        return GRADE in ran and START not in ran[ran.index(GRADE):]
    return args in RECORDS and args not in ran


class TestIdempotency:
    @settings(max_examples=12)
    @given(st.lists(st.sampled_from(COMMANDS), min_size=1, max_size=4))
    def test_repeating_any_command_appends_nothing_and_answers_the_same(self, tmp_path_factory, commands):
        tuning = tmp_path_factory.mktemp("example") / "finetune"
        shutil.copytree(IN_PROGRESS, tuning)  # each example from the fixture, not from the last one's log
        ran: list[tuple[str, ...]] = []
        for args in commands:
            before = (tuning / "events.jsonl").read_bytes()
            first = tune(tuning, *args)
            log = (tuning / "events.jsonl").read_bytes()
            if must_record(args, ran):
                assert first.code == 0 and log != before, f"{args} after {ran} recorded nothing"
            ran.append(args)

            again = tune(tuning, *args)

            assert (tuning / "events.jsonl").read_bytes() == log
            assert (again.code, again.out) == (first.code, first.out)


def zen_folder(tuning: Path, target: Path) -> Path:
    """The in-progress fixture laid out as zen-finetune keeps it (selection.json, findings.md headings, ...)."""
    from batchlog.projections.tune.decider import TUNE
    from batchlog.cli.tune.log import tune_log

    state = tune_log(tuning).replay(TUNE).state
    shutil.copytree(tuning / "runs", target / "runs")
    bodies = {case.id: json.loads(case.body) for case in state.cases}
    (target / "dataset.json").write_text(json.dumps({"cases": list(bodies.values())}))
    (target / "selection.json").write_text(json.dumps({"batch": [bodies[i] for i in state.selection]}))
    (target / "config.json").write_text(json.dumps({"minBatch": 3, "maxBatch": 10, "recheck": 3, "seed": 1}))
    entries = [{"id": e.case, "reasons": list(e.reasons), "added": e.added, **({"fixed": e.fixed} if e.fixed else {})}
               for e in state.difficult]
    (target / "difficult.json").write_text(json.dumps({"cases": entries}))
    for run in state.runs:
        if run.verdict:
            (target / "runs" / run.name / "findings.md").write_text(f"# {run.name}\n\n## {run.verdict}\n\ntext\n")
    return target


class TestImport:
    def test_import_gives_the_same_views_as_the_log_it_came_from(self, tuning, tmp_path):
        zen = zen_folder(tuning, tmp_path / "zen")

        result = invoke("tune", "import", zen, env=CLOCK)

        assert result.code == 0 and result.out.startswith(f"imported {zen}: ")
        for view in (("status",), ("next-batch",)):
            ours, theirs = tune(tuning, *view), tune(zen, *view)
            assert (theirs.code, theirs.out, theirs.err) == (ours.code, ours.out, ours.err)
        without_notes = lambda folder: [{**row, "notes": []} for row in  # noqa: E731  (zen keeps no notes)
                                        json.loads(tune(folder, "difficult", "--json").out)["difficult"]]
        assert without_notes(zen) == without_notes(tuning)
        assert json.loads(tune(zen, "next", "--json").out)["template"].startswith(
            "batchlog tune run grade batch03-nomem-run1 ")

    def test_import_refuses_a_folder_with_a_log_and_names_an_unreadable_file(self, tuning, tmp_path):
        assert "holds events already" in invoke("tune", "import", tuning).err
        zen = zen_folder(tuning, tmp_path / "zen")
        (zen / "selection.json").write_bytes(b"{oops")

        result = invoke("tune", "import", zen)

        assert result.code == 1 and f"{zen}/selection.json is not JSON" in result.err
        assert not (zen / "events.jsonl").exists()

    @pytest.mark.usefixtures("needs_node")
    def test_import_then_next_batch_gives_what_batch_mjs_next_gives(self, tuning, tmp_path):
        require(BATCH_MJS)
        root = tmp_path / "root"
        scripts = root / ".github" / "skills" / "zen-finetune" / "scripts"
        scripts.mkdir(parents=True)
        shutil.copy(BATCH_MJS, scripts)
        zen = zen_folder(tuning, root / "finetune")
        assert invoke("tune", "import", zen, env=CLOCK).code == 0

        node = subprocess.run([NODE, str(scripts / "batch.mjs"), "next"], capture_output=True, text=True, env=NODE_ENV)
        ours = tune(zen, "next-batch")
        status = subprocess.run([NODE, str(scripts / "batch.mjs")], capture_output=True, text=True, env=NODE_ENV)

        assert (ours.out, ours.err) == (node.stdout, in_batchlog_words(node.stderr))
        assert tune(zen, "status").out == status.stdout


class TestAtPastTheEnd:
    """`--at SEQ` past the end of the log is refused (exit 1) with the log's length, on every view."""

    VIEWS = (["status"], ["next"], ["next-batch"], ["difficult"], ["difficult", "list"], ["readme", "--stdout"])

    @pytest.mark.parametrize("view", VIEWS, ids=" ".join)
    def test_a_view_past_the_end_is_refused_and_the_last_event_is_not(self, tuning, view):
        last = len((tuning / "events.jsonl").read_bytes().splitlines())

        past = tune(tuning, *view, "--at", str(last + 1))
        at_end = tune(tuning, *view, "--at", str(last))

        assert past.code == 1 and past.out == ""
        assert f"--at {last + 1} is past the end of the log" in past.err and f"holds {last} events" in past.err
        assert at_end.code == 0, at_end.err

    @pytest.mark.parametrize("view", VIEWS[:3], ids=" ".join)
    def test_the_json_refusal_names_the_length(self, tuning, view):
        past = tune(tuning, *view, "--at", "999", "--json")

        assert past.code == 1 and json.loads(past.err)["events"] == 34

    def test_log_show_past_the_end_prints_nothing_and_is_refused(self, tuning):
        past = invoke("log", "show", tuning / "events.jsonl", "--at", "35")

        assert past.code == 1 and past.out == "" and "holds 34 events" in past.err
        assert invoke("log", "show", tuning / "events.jsonl", "--at", "34").code == 0

    def test_quick_batch_status_past_the_end_is_refused(self, tmp_path):
        run_dir = tmp_path / "batch"
        shutil.copytree(REPO / "fixtures" / "quick_batch" / "skf-quick-skill-demo", run_dir)

        past = invoke("quick-batch", "status", "--run-dir", run_dir, "--at", "7")

        assert past.code == 1 and past.out == "" and "holds 6 events" in past.err
        assert invoke("quick-batch", "status", "--run-dir", run_dir, "--at", "6").code == 0


class TestAFixedCaseBreaksAgain:
    """The in-progress fixture fixed extraction-warranty-terms in batch02-nomem-run2; batch 3 rechecks it."""

    CASE = "extraction-warranty-terms"

    def broke_again(self, tuning: Path):
        assert tune(tuning, "run", "grade", "batch03-nomem-run1", "--verdict", "WRONG", "--wrong", self.CASE).code == 0
        return tune(tuning, "difficult", "add", self.CASE, "--reason", "regressed", "--run", "batch03-nomem-run1",
                    "--note", "lost the file again")

    def test_difficult_add_gives_it_a_new_entry_and_every_view_counts_entries(self, tuning):
        added = self.broke_again(tuning)

        assert (added.code, added.out) == (0, f"{self.CASE} is on the difficult list (regressed; added in "
                                               "batch03-nomem-run1)\n")
        assert "difficult     2 open · 1 fixed · 0 stuck\n" in tune(tuning, "status").out
        rows = [(row["case"], row["status"], row["added"], row["fixed"])
                for row in json.loads(tune(tuning, "difficult", "--json").out)["difficult"]]
        assert (self.CASE, "open", "batch03-nomem-run1", None) in rows
        assert (self.CASE, "fixed", "batch02-nomem-run1", "batch02-nomem-run2") in rows
        readme = tune(tuning, "readme", "--stdout").out
        assert f"| `{self.CASE}` | regressed | open | 0 |" in readme and f"| `{self.CASE}` | costly | fixed |" in readme

    def test_the_same_add_again_appends_nothing_and_an_open_case_is_not_added_twice(self, tuning):
        self.broke_again(tuning)
        log = (tuning / "events.jsonl").read_bytes()

        assert self.broke_again(tuning).code == 0  # the grade and the add repeat as no-ops
        assert (tuning / "events.jsonl").read_bytes() == log
        again = tune(tuning, "difficult", "add", self.CASE, "--reason", "flaky", "--run", "batch03-nomem-run1")

        assert again.code == 1 and "and not fixed: a case has one open entry" in again.err
        assert (tuning / "events.jsonl").read_bytes() == log

    def test_the_next_batch_rechecks_it_once(self, tuning):
        self.broke_again(tuning)
        for name in ("batch03-nomem-run2",):
            assert tune(tuning, "run", "start", "--batch", "3", "--kind", "nomem").out == f"{name}\n"
            assert tune(tuning, "run", "grade", name, "--verdict", "PASSED").code == 0
        assert tune(tuning, "run", "start", "--batch", "3", "--kind", "mem").code == 0
        assert tune(tuning, "run", "grade", "batch03-mem-run1", "--verdict", "PASSED").code == 0
        assert tune(tuning, "memory", "keep", "--batch", "3", "--nodes", "20").code == 0

        preview = tune(tuning, "next-batch", "-r", "9")

        # batch.mjs would list it twice (its open and its fixed entry); the place goes to the next candidate
        ids = [case["id"] for case in json.loads(preview.out)["batch"]]
        assert preview.code == 0 and "size      6 - batch 3 did not go smoothly" in preview.err
        assert ids.count(self.CASE) == 1 and len(ids) == len(set(ids)) == 6 + 9

    def test_import_reads_several_entries_for_one_case(self, tuning, tmp_path):
        self.broke_again(tuning)
        zen = zen_folder(tuning, tmp_path / "zen")

        assert invoke("tune", "import", zen, env=CLOCK).code == 0

        for view in (("status",), ("next-batch",)):
            ours, theirs = tune(tuning, *view), tune(zen, *view)
            assert (theirs.code, theirs.out, theirs.err) == (ours.code, ours.out, ours.err)

    def test_import_refuses_entries_it_cannot_replay_and_writes_nothing(self, tuning, tmp_path):
        zen = zen_folder(tuning, tmp_path / "zen")
        entries = json.loads((zen / "difficult.json").read_text())["cases"]
        opened = next(e for e in entries if not e.get("fixed"))
        later = {**opened, "added": "batch02-nomem-run2", "fixed": "batch03-nomem-run1"}
        (zen / "difficult.json").write_text(json.dumps({"cases": [*entries, later]}))

        result = invoke("tune", "import", zen, env=CLOCK)

        assert result.code == 1 and f"lists case {opened['id']} in entries batchlog cannot replay" in result.err
        assert not (zen / "events.jsonl").exists()
