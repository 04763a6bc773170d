"""USAGE.md: calls and tokens by model, by batch and by run, with totals, rebuilt from the log."""

from __future__ import annotations

from pathlib import Path

import pytest

from batchlog.engine import EventLog
from batchlog.cli.loops import all_types
from batchlog.projections.tune.events import BatchBuilt, RunStarted, UsageRecorded
from batchlog.projections.tune.decider import TUNE
from batchlog.projections.tune.views.usage import by_batch, by_model, total, usage_markdown
from tests.clirunner import invoke
from tests.tune_helpers import fold, started, table_problems

ROOT = Path(__file__).resolve().parent.parent
FINISHED = ROOT / "fixtures" / "tune-finished"

CASES = ({"id": "a", "class": "x"}, {"id": "b", "class": "x"}, {"id": "c", "class": "y"})
STATE = fold(
    started(CASES, dataset="d.json", selection=("a", "c", "b")),
    BatchBuilt(1, 3, "batch 1 is the smoke test: minBatch 3", "new", ("a", "c", "b"), (), 0, 0),
    RunStarted("batch01-nomem-run1", 1, "nomem", 1, ("a", "c", "b")),
    UsageRecorded("batch01-nomem-run1", "big", 10, 1000, 100),
    UsageRecorded("batch01-nomem-run1", "small|fast", 4, 200, 20),
    UsageRecorded("batch01-nomem-run1", "big", 12, 1500, 150),  # a later report replaces the earlier
    RunStarted("batch01-nomem-run2", 1, "nomem", 2, ("a", "c", "b")),
    UsageRecorded("batch01-nomem-run2", "big", 5, 500, 50),
    RunStarted("final-run1", 0, "final", 1, ("a", "c", "b")),
)


class TestUsageFigures:
    def test_by_model_sums_every_run_with_the_latest_report_of_each(self):
        models = by_model(STATE)

        assert {name: (t.calls, t.input_tokens, t.output_tokens) for name, t in models.items()} == {
            "big": (17, 2000, 200), "small|fast": (4, 200, 20)}

    def test_by_batch_counts_runs_with_usage_and_keeps_the_final_check_apart(self):
        groups = by_batch(STATE)

        assert list(groups) == ["batch 1", "final check"]
        assert groups["batch 1"][0] == 2 and groups["batch 1"][1].tokens == 2420
        assert groups["final check"][0] == 0

    def test_the_totals_agree(self):
        assert total(STATE).tokens == sum(t.tokens for t in by_model(STATE).values()) == 2420

    def test_the_markdown_has_valid_tables_and_names_runs_without_usage(self):
        text = usage_markdown(STATE, "d")

        assert "| `small\\|fast` | 4 | 200 | 20 | 220 |" in text
        assert "| **total** | **21** | **2,200** | **220** | **2,420** |" in text
        assert "| batch01-nomem-run1 | `big` | 12 | 1,500 | 150 | 1,650 |" in text
        assert "No usage recorded for: final-run1." in text
        assert table_problems(text) == []

    def test_a_log_without_a_tuning_says_so(self):
        assert "No tuning has been started" in usage_markdown(TUNE.initial)

    def test_the_finished_fixture_totals_match_the_log(self):
        state = EventLog(FINISHED / "events.jsonl", all_types()).replay(TUNE).state
        reported = sum(u.input_tokens + u.output_tokens for run in state.runs for u in run.usage)

        assert total(state).tokens == reported == 6_849_830
        assert f"**{reported:,}**" in usage_markdown(state)


class TestUsageReportCommand:
    @pytest.mark.parametrize("folder, file", [
        ("fixtures/tune-finished", "fixtures/tune-finished/USAGE.md"),
        ("fixtures/tune-in-progress", "fixtures/golden/tune-in-progress/USAGE.md"),
    ])
    def test_regenerating_usage_gives_the_golden_file(self, folder, file):
        result = invoke("tune", "usage-report", "--dir", folder, "--file", file, "--check", cwd=ROOT)

        assert result.code == 0, result.out

    def test_writes_then_is_up_to_date_then_check_sees_a_stale_file(self, tmp_path):
        folder = tmp_path / "t"
        folder.mkdir()
        (folder / "events.jsonl").write_bytes((FINISHED / "events.jsonl").read_bytes())

        written = invoke("tune", "usage-report", "--dir", folder)
        again = invoke("tune", "usage-report", "--dir", folder)
        (folder / "USAGE.md").write_text("edited by hand\n", encoding="utf-8")
        stale = invoke("tune", "usage-report", "--dir", folder, "--check")

        assert written.code == 0 and written.out == f"{folder / 'USAGE.md'}: written\n"
        assert again.out == f"{folder / 'USAGE.md'}: up to date\n"
        assert stale.code == 1 and "-edited by hand\n" in stale.out
        assert (folder / "USAGE.md").read_text(encoding="utf-8") == "edited by hand\n"
