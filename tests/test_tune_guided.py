"""A whole tuning driven only by what `tune next` prints (its step and its optional ones), as an agent lives it: a
failed final check, a regrade that withdraws a difficult entry, usage reported late. It ends with `tune audit` exit
0 and a README whose every figure is the audit's.

The agent fills a template's placeholders, adds the figures the grading step asks for, and takes an optional
step by its own policy; it runs nothing `tune next` did not print, but for the one correction (`run regrade`),
which no step calls for: a grade given by mistake is found, not planned.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from tests.clirunner import invoke
from tests.tune_helpers import shell_problems

CLOCK = {"BATCHLOG_CLOCK": "2026-12-02T16:00:00Z"}
CASES = [{"id": f"case-{n}", "class": "k" if n % 2 else "j", "rubric": "right"} for n in range(1, 6)]
MISREAD = "batch02-nomem-run1"  # graded WRONG by mistake, then regraded PASSED
FAILED_FINAL = "final-run1"


class Agent:
    """Follows `tune next --json`: the step's command (placeholders filled), and the optional steps it chooses."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.ran: list[str] = []
        self.regraded = False

    def cli(self, words: list[str]):
        result = invoke(*words, env=CLOCK, cwd=self.folder.parent)
        assert result.code == 0, (words, result.err)
        return result

    def run(self, printed: dict, **fills: str) -> None:
        """Run a printed command as it stands, or its template with each placeholder replaced."""
        command = printed.get("command") or printed["template"]
        assert shell_problems(command) == [], command
        words = shlex.split(command)
        missing = set(printed.get("choices", {})) - set(fills)
        assert not missing, (command, missing)
        words = [fills.get(word, word) for word in words]
        self.ran.append(" ".join(words))
        self.cli(words[1:])

    def next(self) -> dict:
        return json.loads(self.cli(["tune", "next", "--json", "--dir", str(self.folder)]).out)

    def cases_of(self, run: str) -> list[str]:
        return [case["id"] for case in json.loads((self.folder / "runs" / run / "cases.json").read_text())["batch"]]

    def grade(self, printed: dict) -> None:
        run = shlex.split(printed["template"])[4]
        cases = self.cases_of(run)
        wrong = {"batch01-nomem-run1": cases[:1], MISREAD: cases[:1], FAILED_FINAL: cases[-1:]}.get(run, [])
        figures = ["--llm-calls", str(10 + len(self.ran)), "--tokens", str(1000 * (len(self.ran) + 1))]
        self.run({**printed, "template": printed["template"] + "".join(f" --wrong {c}" for c in wrong)
                  + " " + " ".join(figures)}, VERDICT="WRONG" if wrong else "PASSED")

    def optional(self, step: dict, done: bool) -> None:
        kind = step["step"]
        run = re.search(r"(batch\d\d-\w+-run\d+|final-run\d+)", step.get("command") or step["template"])[0]
        if kind in ("difficult_add", "difficult_fix"):
            self.run(step)
        elif kind == "change" and run in ("batch01-nomem-run1", FAILED_FINAL):
            self.run(step, PATH="agents/prompts/planner.md", SUMMARY="name the schedule")
        elif kind == "usage" and (done or not run.startswith("batch01")):  # batch 1's usage arrives late
            self.run(step, MODEL="gpt-5", CALLS="7", INPUT_TOKENS="900", OUTPUT_TOKENS="100")

    def correct_the_misread_grade(self) -> None:
        self.ran.append(f"run regrade {MISREAD}")
        self.cli(["tune", "run", "regrade", MISREAD, "--verdict", "PASSED", "--reason", "the grader misread the "
                  "schedule", "--dir", str(self.folder)])
        self.regraded = True

    def follow(self, dataset: Path) -> list[str]:
        """Follow `tune next` to the end; the steps taken, in order."""
        steps = []
        for _ in range(200):
            step = self.next()
            steps.append(step["step"])
            done = step["step"] == "done"
            for optional in step["optional"]:
                self.optional(optional, done)
            if not self.regraded and any(line.startswith("batchlog tune difficult add ")
                                         and line.endswith(f"--run {MISREAD} --dir {self.folder}") for line in self.ran):
                self.correct_the_misread_grade()  # found before the next run starts, so it is still allowed
                continue  # the step may be another now
            if step["step"] == "init":
                self.run(step, DATASET=str(dataset))
            elif step["step"] == "grade":
                self.grade(step)
            elif step["step"] == "keep_memory":
                self.run(step, NODES="12")
            else:
                self.run(step)
            if done:
                return steps
        raise AssertionError("the tuning did not end")


@pytest.fixture(scope="module")
def guided(tmp_path_factory) -> tuple[Path, list[str], Agent]:
    root = tmp_path_factory.mktemp("guided")
    dataset = root / "dataset.json"
    dataset.write_text(json.dumps({"name": "Guided", "cases": CASES}))
    folder = root / "finetune"
    agent = Agent(folder)
    steps = agent.follow(dataset)
    return folder, steps, agent


def audit_of(folder: Path) -> tuple[int, dict]:
    result = invoke("tune", "audit", "--dir", folder, "--json")
    return result.code, json.loads(result.out)


class TestAWholeTuningFollowingTuneNext:
    def test_it_goes_through_a_failed_final_check_to_a_passing_one(self, guided):
        folder, steps, agent = guided

        assert steps[0] == "init" and steps[-1] == "done"
        assert "difficult_add" in steps  # the failed final check's wrong case, the required step
        assert any(line.startswith("batchlog tune run start --final") for line in agent.ran)
        finals = [line for line in agent.ran if line.startswith("batchlog tune run grade final-run")]
        assert [line.split()[4] for line in finals] == ["final-run1", "final-run2"]

    def test_the_audit_holds(self, guided):
        folder, _, _ = guided

        code, body = audit_of(folder)

        assert code == 0, [check for check in body["checks"] if not check["holds"]]

    def test_the_audit_shows_the_withdrawn_entry_the_failed_final_check_and_the_late_usage(self, guided):
        folder, _, agent = guided

        checks = {check["name"]: check for check in audit_of(folder)[1]["checks"]}

        corrections = " ".join(checks["corrections"]["evidence"])
        assert f"{MISREAD} regraded WRONG -> PASSED: the grader misread the schedule" in corrections
        misread = agent.cases_of(MISREAD)[0]
        assert f"the difficult entry of {misread} added in {MISREAD} withdrawn" in corrections
        settled = " ".join(checks["difficult_settled"]["evidence"])
        assert f"{misread} added in {MISREAD}; withdrawn at seq" in settled
        final = checks["final_check"]["evidence"]
        assert any(line.endswith(f"{FAILED_FINAL} WRONG, wrong: {agent.cases_of(FAILED_FINAL)[-1]}") for line in final)
        late = [line for line in agent.ran if line.startswith("batchlog tune usage batch01")]
        done = next(i for i, line in enumerate(agent.ran) if line.startswith("batchlog tune run grade final-run2"))
        assert late and all(agent.ran.index(line) > done for line in late)
        assert audit_of(folder)[1]["timeline"]["without_usage"] == []

    def test_every_figure_of_the_readme_is_the_audits(self, guided):
        folder, _, _ = guided
        readme = invoke("tune", "readme", "--dir", folder, "--stdout").out
        timeline = audit_of(folder)[1]["timeline"]
        checks = {check["name"]: check for check in audit_of(folder)[1]["checks"]}

        log = readme.split("<!-- batchlog:begin log -->")[1].split("<!-- batchlog:end log -->")[0]
        headings = re.findall(r"^### (\S+) - (\w+)$", log, re.MULTILINE)
        verdicts = {verdict: sum(1 for _, v in headings if v == verdict) for verdict in timeline["verdicts"]}
        assert (len(headings), verdicts) == (timeline["runs"], timeline["verdicts"])
        calls = sum(int(n) for n in re.findall(r"^- (\d+) llm calls", log, re.MULTILINE))
        tokens = sum(int(n.replace(",", "")) for n in re.findall(r"llm calls, ([\d,]+) tokens", log))
        assert (calls, tokens) == (timeline["llm_calls"], timeline["tokens"])
        assert len(re.findall(r"^\| \d+ \|", readme, re.MULTILINE)) == timeline["batches"]

        entries = checks["difficult_settled"]["evidence"]
        table = readme.split("<!-- batchlog:begin difficult -->")[1].split("<!-- batchlog:end difficult -->")[0]
        rows = re.findall(r"^\| `([^`]+)` \| [^|]+ \| (\w+) \|", table, re.MULTILINE)
        statuses = sorted((case, status) for case, status in rows)
        audited = sorted((line.split(": ", 1)[1].split(" ")[0],
                          "withdrawn" if "; withdrawn at" in line else "fixed" if "; fixed in" in line else "stuck")
                         for line in entries)
        assert statuses == audited
        counted = {status: sum(1 for _, s in rows if s == status) for status in ("fixed", "stuck", "withdrawn")}
        assert (f"- **Difficult cases:** 0 open, {counted['fixed']} fixed, {counted['stuck']} stuck, "
                f"{counted['withdrawn']} withdrawn") in readme
        corrections = [line for line in checks["corrections"]["evidence"] if "regraded" in line]
        assert len(re.findall(r"^- Regraded from", log, re.MULTILINE)) == len(corrections)
        assert len(re.findall(r"^- Withdrew the difficult entry", log, re.MULTILINE)) == counted["withdrawn"]
        passed = next(line for line in checks["final_check"]["evidence"] if " PASSED on all " in line)
        assert f"**Done: the final check passed ({passed.split()[2]}).**" in readme
        assert f"- **Cases passing:** {len(CASES)} of {len(CASES)} (the final check passed)." in readme
