"""A tuning's log holding an event newer than this batchlog: every view reads it without that event, warns once on
stderr and says so in its `--json` object; `tune next` prints no command that would be refused (every append is,
exit 3), it says to upgrade batchlog."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from batchlog.engine import EventLog, EventType, Projection, Registry
from batchlog.engine.registry import Raw
from batchlog.cli.tune.log import tuning_types
from tests.clirunner import invoke

REPO = Path(__file__).resolve().parent.parent
CLOCK = {"BATCHLOG_CLOCK": "2026-12-02T16:00:00Z"}
VIEWS = [("status",), ("next",), ("next-batch",), ("difficult",), ("difficult", "list"), ("readme", "--stdout"),
         ("usage-report", "--check")]


def _as_is(data: dict) -> dict:
    return data


@pytest.fixture
def newer(tmp_path) -> Path:
    """The in-progress fixture with a `tune.run_graded` v9 line appended (a valid line a newer batchlog wrote)."""
    folder = tmp_path / "finetune"
    shutil.copytree(REPO / "fixtures" / "tune-in-progress", folder)
    future = Registry([*(t for t in tuning_types().by_name.values() if t.name != "tune.run_graded"),
                       EventType("tune.run_graded", 9, upcasters=(_as_is,) * 8)])
    EventLog(folder / "events.jsonl", future).append(
        Projection("any", None, lambda state, event: state),
        lambda state: [Raw("tune.run_graded", {"run": "batch03-nomem-run1", "verdict": "PASSED", "stars": 5})])
    return folder


def tune(folder: Path, *args: str):
    return invoke("tune", *args, "--dir", folder, env=CLOCK, cwd=folder.parent)


WARNING = ("batchlog: warning: {log} holds 1 event(s) newer than this batchlog (first: line 35: tune.run_graded v9 "
           "is newer than v1 to this batchlog): what it shows leaves them out, and nothing can be recorded in the "
           "log (exit 3) until batchlog is upgraded\n")


class TestEveryViewWarnsOnce:
    @pytest.mark.parametrize("view", VIEWS, ids=" ".join)
    def test_the_view_answers_and_warns_once_on_stderr(self, newer, view):
        result = tune(newer, *view)

        assert result.code in (0, 1) and result.out  # usage-report --check: USAGE.md is not there yet (1)
        assert result.err.startswith(WARNING.format(log=newer / "events.jsonl"))  # next-batch's summary follows
        assert result.err.count("warning") == 1

    @pytest.mark.parametrize("view", VIEWS, ids=" ".join)
    def test_its_json_object_says_so(self, newer, view):
        result = tune(newer, *view, "--json")

        assert json.loads(result.out)["newer"] == {
            "count": 1, "first": "line 35: tune.run_graded v9 is newer than v1 to this batchlog"}
        assert result.err.count("warning") == 1

    def test_a_log_without_newer_events_says_nothing_of_them(self, tmp_path):
        folder = tmp_path / "finetune"
        shutil.copytree(REPO / "fixtures" / "tune-in-progress", folder)

        result = tune(folder, "status", "--json")

        assert result.err == "" and "newer" not in json.loads(result.out)

    def test_what_it_shows_is_the_log_without_the_newer_event(self, newer, tmp_path):
        plain = tmp_path / "plain"
        shutil.copytree(REPO / "fixtures" / "tune-in-progress", plain)

        assert tune(newer, "status").out == tune(plain, "status").out


class TestNextSaysToUpgrade:
    def test_next_prints_no_command_it_says_to_upgrade(self, newer):
        result = tune(newer, "next")

        assert result.code == 0
        assert result.out == (
            "This log holds events newer than this batchlog (line 35: tune.run_graded v9 is newer than v1 to this "
            "batchlog): it reads the log but records nothing in it, so every command that records would be refused "
            "(exit 3). Upgrade batchlog, then ask again.\n")

    def test_next_json_has_no_command_and_no_optional_step(self, newer):
        body = json.loads(tune(newer, "next", "--json").out)

        assert (body["step"], body["command"], body["optional"]) == ("upgrade", None, [])

    def test_the_readmes_next_section_says_the_same(self, newer):
        readme = tune(newer, "readme", "--stdout").out

        assert "Upgrade batchlog, then ask again." in readme and "run grade batch03-nomem-run1" not in readme

    def test_a_command_that_records_is_refused_with_exit_3(self, newer):
        before = (newer / "events.jsonl").read_bytes()

        result = tune(newer, "run", "grade", "batch03-nomem-run1", "--verdict", "PASSED")

        assert result.code == 3 and "upgrade batchlog" in result.err
        assert (newer / "events.jsonl").read_bytes() == before

    def test_the_audit_cannot_trust_it(self, newer):
        result = tune(newer, "audit")

        assert result.code == 3 and "tune.run_graded v9 is newer" in result.out
