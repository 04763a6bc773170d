"""`batchlog tune ...` through a failed final check and the corrections around it, in-process: the exact output,
exit codes, refusals that name the command to run, and the log's bytes left alone by a refusal (issue 24's
reproduction: a 3-case dataset, batch 1 passed both halves, its memory kept, the final check WRONG)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clirunner import invoke

CLOCK = {"BATCHLOG_CLOCK": "2026-12-02T16:00:00Z"}


def tune(folder: Path, *args: str):
    return invoke("tune", *args, "--dir", folder, env=CLOCK, cwd=folder.parent)


def ok(folder: Path, *args: str):
    result = tune(folder, *args)
    assert result.code == 0, (args, result.err)
    return result


@pytest.fixture
def failed(tmp_path) -> Path:
    """Batch 1 (a, b, c) passed both halves, its memory kept; final-run1 graded WRONG with b wrong."""
    dataset = tmp_path / "dataset.json"
    dataset.write_text(json.dumps({"cases": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}))
    folder = tmp_path / "t"
    ok(folder, "init", "--dataset", str(dataset))
    ok(folder, "next-batch", "-o", str(folder / "runs/batch01-nomem-run1/cases.json"))
    ok(folder, "run", "grade", "batch01-nomem-run1", "--verdict", "PASSED")
    ok(folder, "run", "start", "--batch", "1", "--kind", "mem")
    ok(folder, "run", "grade", "batch01-mem-run1", "--verdict", "PASSED")
    ok(folder, "memory", "keep", "--batch", "1", "--nodes", "9")
    ok(folder, "run", "start", "--final")
    ok(folder, "run", "grade", "final-run1", "--verdict", "WRONG", "--wrong", "b", "--llm-calls", "71", "--tokens",
       "131000")
    return folder


class TestAfterAFailedFinalCheck:
    def test_next_names_the_difficult_add_of_the_wrong_case(self, failed):
        result = tune(failed, "next")

        assert (result.code, result.err) == (0, "")
        assert result.out.splitlines()[:3] == [
            "final-run1 was WRONG: every case it got wrong goes on the difficult list from that run, so that batches "
            "of the open difficult cases retry it. Add b.",
            "",
            f"    batchlog tune difficult add b --reason wrong --run final-run1 --dir {failed}",
        ]

    @pytest.mark.parametrize("args", [("next-batch", "-o", "x/cases.json"), ("run", "start", "--final")])
    def test_the_next_decision_is_refused_naming_the_command_and_nothing_is_written(self, failed, args):
        before = (failed / "events.jsonl").read_bytes()

        result = tune(failed, *args)

        hint = f"`batchlog tune difficult add b --reason wrong --run final-run1 --dir {failed}`"  # cli/printed.py
        assert result.code == 1 and hint in result.err, result.err
        assert (failed / "events.jsonl").read_bytes() == before

    def test_once_listed_the_next_batch_holds_it_and_the_final_check_runs_again_after(self, failed):
        ok(failed, "difficult", "add", "b", "--reason", "wrong", "--run", "final-run1")
        step = json.loads(ok(failed, "next", "--json").out)
        assert (step["step"], step["command"]) == (
            "build_batch", f"batchlog tune next-batch -o {failed}/runs/batch02-nomem-run1/cases.json --dir {failed}")

        built = ok(failed, "next-batch", "-o", str(failed / "runs/batch02-nomem-run1/cases.json"))

        assert built.err.splitlines()[3] == "  difficult b"
        ok(failed, "run", "grade", "batch02-nomem-run1", "--verdict", "PASSED")
        ok(failed, "difficult", "fix", "b", "--run", "batch02-nomem-run1")
        ok(failed, "run", "start", "--batch", "2", "--kind", "mem")
        ok(failed, "run", "grade", "batch02-mem-run1", "--verdict", "PASSED")
        ok(failed, "memory", "keep", "--batch", "2", "--nodes", "11")
        assert ok(failed, "run", "start", "--final").out == "final-run2\n"
        ok(failed, "run", "grade", "final-run2", "--verdict", "PASSED")
        assert tune(failed, "audit").code == 0

    def test_the_readme_says_where_it_stands(self, failed):
        readme = ok(failed, "readme", "--stdout").out

        assert ("**Final check · final-run1 was WRONG - b goes on the difficult list next, then batches of the open "
                "difficult cases.**") in readme
        assert "**Left:** no unused case, no difficult case open; b, wrong in the last final check, goes on the " \
               "difficult list first." in readme


class TestARegradeThatMakesAnEntryFalse:
    def test_it_withdraws_the_entry_keeps_the_figures_and_closes_the_tuning(self, failed):
        ok(failed, "difficult", "add", "b", "--reason", "wrong", "--run", "final-run1")

        result = tune(failed, "run", "regrade", "final-run1", "--verdict", "PASSED", "--reason", "b was right")

        assert (result.code, result.out) == (0, "final-run1 regraded PASSED (was WRONG)\nwithdrew the difficult entry "
                                                "of b added in final-run1: it was not wrong there\n")
        listed = ok(failed, "difficult").out
        assert listed == "b  wrong  withdrawn  retries 0  added final-run1\n    withdrawn at seq 12: b was right\n"
        assert json.loads(ok(failed, "next", "--json").out)["step"] == "done"
        code, body = audit_of(failed)
        checks = {check["name"]: check for check in body["checks"]}
        assert code == 0
        assert "seq 11: final-run1 PASSED on all 3 cases"  # the regrade's seq in checks["final_check"]["evidence"]
        assert "seq 12: the difficult entry of b added in final-run1 withdrawn: b was right" in \
            checks["corrections"]["evidence"]
        assert (body["timeline"]["llm_calls"], body["timeline"]["tokens"]) == (71, 131000)
        readme = ok(failed, "readme", "--stdout").out
        assert "- Withdrew the difficult entry of `b` added in it, at seq 12: b was right" in readme
        assert "- 71 llm calls, 131,000 tokens." in readme

    def test_its_json_names_the_withdrawn_entries_and_the_figures(self, failed):
        ok(failed, "difficult", "add", "b", "--reason", "wrong", "--run", "final-run1")

        body = json.loads(ok(failed, "run", "regrade", "final-run1", "--verdict", "CORRECT", "--reason", "x",
                             "--json").out)

        assert (body["withdrawn"], body["llm_calls"], body["tokens"]) == (["b"], 71, 131000)


class TestUsageReportedLate:
    def test_usage_of_a_batch_run_is_recorded_after_the_final_check_passed(self, failed):
        ok(failed, "run", "regrade", "final-run1", "--verdict", "PASSED", "--reason", "b was right")
        optional = json.loads(ok(failed, "next", "--json").out)["optional"]
        assert [step["template"].split()[3] for step in optional if step["step"] == "usage"] == [
            "batch01-nomem-run1", "batch01-mem-run1", "final-run1"]

        late = tune(failed, "usage", "batch01-nomem-run1", "--model", "m", "--calls", "3", "--input-tokens", "30",
                    "--output-tokens", "3")

        assert (late.code, late.out) == (0, "batch01-nomem-run1: m 3 calls, 30 input + 3 output tokens\n")
        assert audit_of(failed)[0] == 0
        assert audit_of(failed)[1]["timeline"]["without_usage"] == ["batch01-mem-run1", "final-run1"]
        assert "  usage     recorded for 1 of 3 run(s); none for batch01-mem-run1, final-run1\n" in \
            tune(failed, "audit").out

    def test_a_placeholder_pasted_unchanged_is_a_usage_error(self, failed):
        before = (failed / "events.jsonl").read_bytes()

        result = tune(failed, "usage", "final-run1", "--model", "MODEL", "--calls", "CALLS", "--input-tokens", "1",
                      "--output-tokens", "1")

        assert result.code == 2 and "MODEL is a placeholder: replace it with the model's name" in result.err
        assert (failed / "events.jsonl").read_bytes() == before


def audit_of(folder: Path) -> tuple[int, dict]:
    result = tune(folder, "audit", "--json")
    return result.code, json.loads(result.out)
