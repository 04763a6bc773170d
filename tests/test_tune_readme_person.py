"""The README a person reads (issue 11.8): a given-up batch drawn as failed, the memory node's batches, the
results' token figures and charts, the title, paths that read the same on every clone, small words."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from batchlog.projections.tune.events import (
    BatchBuilt,
    ChangeRecorded,
    MemoryKept,
    RunGraded,
    RunStarted,
    UsageRecorded,
)
from batchlog.projections.tune.views.readme.map import flowchart
from batchlog.projections.tune.views.readme.results import charts, results
from batchlog.projections.tune.views.readme.sections import memory_line
from batchlog.projections.tune.views.usage import total, usage_markdown
from tests.clirunner import invoke
from tests.test_tune_readme import MERMAID, STATES, odd_state
from tests.tune_helpers import fold, started

CASES = tuple({"id": f"c{n}"} for n in range(12))
IDS = tuple(case["id"] for case in CASES)


def passed_batch(number: int, new: tuple[str, ...], nodes: int, tokens: tuple[int, int]) -> list:
    """A batch built, both halves PASSED in one run each, its memory kept."""
    name = f"batch{number:02d}"
    return [BatchBuilt(number, len(new), "w", "new", new, ()),
            RunStarted(f"{name}-nomem-run1", number, "nomem", 1, new),
            RunGraded(f"{name}-nomem-run1", "PASSED", (), 10 * number, tokens[0]),
            RunStarted(f"{name}-mem-run1", number, "mem", 1, new),
            RunGraded(f"{name}-mem-run1", "PASSED", (), 4 * number, tokens[1]),
            MemoryKept(number, nodes)]


def given_up_batch(number: int, new: tuple[str, ...]) -> list:
    """A batch whose no-memory half used its four runs, all WRONG: given up, its memory half never ran."""
    name = f"batch{number:02d}-nomem-run"
    facts: list = [BatchBuilt(number, len(new), "w", "new", new, ())]
    for run in range(1, 5):
        facts += [RunStarted(f"{name}{run}", number, "nomem", run, new),
                  RunGraded(f"{name}{run}", "WRONG", (new[0],), 5, 100)]
    return facts


def with_a_given_up_batch():
    return fold(started(CASES), *passed_batch(1, IDS[:3], 10, (1000, 400)), *given_up_batch(2, IDS[3:6]),
                *passed_batch(3, IDS[6:9], 25, (3000, 1000)))


class TestAGivenUpBatchOnTheMap:
    def test_both_halves_are_failed_and_none_is_ahead(self):
        lines = flowchart(with_a_given_up_batch())

        classes = {node: kind for line in lines if line.strip().startswith("class ")
                   for _, nodes, kind in [line.split()] for node in nodes.split(",")}
        assert classes["A2N"] == "failed" and classes["A2M"] == "failed"

    def test_no_edge_leaves_the_half_that_never_ran(self):
        text = "\n".join(flowchart(with_a_given_up_batch()))

        assert "A2M -->" not in text and "A2M -.->" not in text
        assert '"] --x A2M[' in text and "    A2N --> A3N" in text
        assert "never ran: batch given up" in text

    def test_the_memory_node_counts_only_batches_whose_memory_was_kept(self):
        state = with_a_given_up_batch()

        assert "batches 1, 3 · 25 nodes" in "\n".join(flowchart(state))
        assert memory_line(state).startswith("Last good memory: 25 nodes, from batches 1, 3 ")


class TestResultsTokens:
    def test_the_total_is_usage_mds_at_every_step_of_the_fixtures(self):
        for state in STATES[::5] + STATES[-1:]:
            if state.settings is None:
                continue
            figure = f"{total(state).tokens:,}"

            assert f"- **Tokens:** {figure} in " in results(state) or total(state).tokens == 0
            assert f"**{figure}** |" in usage_markdown(state)

    def test_grades_that_differ_from_the_usage_records_are_named_beside_them(self):
        state = fold(started(CASES), *passed_batch(1, IDS[:3], 10, (1000, 400)),
                     UsageRecorded("batch01-nomem-run1", "m", 3, 200, 100))

        text = results(state)

        assert "- **Tokens:** 300 in 3 model calls over 1 run, as recorded with `batchlog tune usage`" in text
        assert "The grades' `--tokens` add up to 1,400 over 2 runs" in text and "does not count" in text

    def test_a_change_of_one_line_is_one_line(self):
        state = fold(started(CASES), *passed_batch(1, IDS[:3], 10, (1000, 400)),
                     ChangeRecorded("batch01-nomem-run1", "p.md", "cut", 1))

        assert "`p.md` (+1 line)" in results(state)


class TestResultsCharts:
    def test_tokens_and_calls_per_batch_without_and_with_memory(self):
        text = "\n".join(charts(with_a_given_up_batch()))

        assert text.count("xychart-beta") == 2
        assert 'x-axis "batch" ["1", "2", "3"]' in text
        assert "bar [1000, 100, 3000]" in text and "line [400, 0, 1000]" in text
        assert "bar [10, 5, 30]" in text and "line [4, 0, 12]" in text

    def test_no_chart_before_a_figure(self):
        assert charts(fold(started(CASES))) == []

    def test_every_chart_parses_with_mermaids_parser(self):
        parser = MERMAID / "node_modules" / "mermaid"
        if not parser.is_dir() or shutil.which("node") is None:
            if os.environ.get("BATCHLOG_REQUIRE_MERMAID") or os.environ.get("BATCHLOG_REQUIRE_SEEDS"):
                pytest.fail("mermaid is not installed: npm ci --prefix tests/mermaid")
            pytest.skip("mermaid is not installed (npm ci --prefix tests/mermaid)")
        states = [*STATES[::4], STATES[-1], with_a_given_up_batch(), odd_state()]
        blocks = [block.split("```")[0] for state in states for block in "\n".join(charts(state)).split("```mermaid\n")[1:]]
        blocks += ["\n".join(flowchart(with_a_given_up_batch()))]
        broken = 'xychart-beta\n    x-axis "batch" ["1"\n    bar [1, 2'

        done = subprocess.run(["node", str(MERMAID / "parse.mjs")], input=json.dumps([*blocks, broken]),
                              capture_output=True, text=True, timeout=120, check=True)

        parsed = json.loads(done.stdout)
        assert len(blocks) > 10
        assert [(text, r) for text, r in zip(blocks, parsed) if not r["ok"]] == []
        assert parsed[-1]["ok"] is False


def init_tuning(project: Path, dataset: dict) -> Path:
    """`tune init` of `dataset` (written in `project`) into project/finetune; the tuning's folder."""
    project.mkdir(parents=True)
    (project / "data.json").write_text(json.dumps(dataset), encoding="utf-8")
    folder = project / "finetune"
    result = invoke("tune", "init", "--dataset", project / "data.json", "--dir", folder,
                    env={"BATCHLOG_CLOCK": "2026-12-03T10:00:00Z"})
    assert result.code == 0, result.err
    return folder


class TestTitleAndPaths:
    def test_the_title_is_the_datasets_name(self, tmp_path):
        folder = init_tuning(tmp_path / "proj", {"name": "help desk", "cases": list(CASES)})

        assert invoke("tune", "readme", "--dir", folder, "--stdout").out.startswith("# Tuning help desk\n")

    def test_without_a_name_the_title_is_the_projects_folder_never_dataset(self, tmp_path):
        folder = init_tuning(tmp_path / "shop-agents", {"cases": list(CASES)})

        out = invoke("tune", "readme", "--dir", folder, "--stdout").out
        assert out.startswith("# Tuning shop-agents\n")
        assert "+# Usage of tuning shop-agents\n" in invoke("tune", "usage-report", "--dir", folder, "--check").out

    def test_a_readme_built_in_two_places_is_the_same(self, tmp_path):
        made = []
        for place in (tmp_path / "one" / "proj", tmp_path / "two" / "deeper" / "down" / "proj"):
            folder = init_tuning(place, {"cases": list(CASES)})
            assert invoke("tune", "next-batch", "-o", folder / "runs" / "batch01-nomem-run1" / "cases.json",
                          "--dir", folder, env={"BATCHLOG_CLOCK": "2026-12-03T10:00:00Z"}).code == 0
            (folder / "runs" / "batch01-nomem-run1" / "findings.md").write_text("f", encoding="utf-8")
            made.append(invoke("tune", "readme", "--dir", folder, "--stdout").out)

        assert made[0] == made[1]
        assert str(tmp_path) not in made[0]
        assert "The dataset `../data.json` holds" in made[0]

    def test_links_lead_from_the_readmes_folder_when_it_is_elsewhere(self, tmp_path):
        folder = init_tuning(tmp_path / "proj", {"cases": list(CASES)})
        (tmp_path / "proj" / "docs").mkdir()

        invoke("tune", "readme", "--dir", folder, "--file", tmp_path / "proj" / "docs" / "TUNING.md")

        text = (tmp_path / "proj" / "docs" / "TUNING.md").read_text(encoding="utf-8")
        assert "The dataset `../data.json` holds" in text and "[USAGE.md](../finetune/USAGE.md)" in text


class TestSmallWords:
    def test_after_the_final_check_next_batch_says_the_tuning_is_finished(self):
        root = Path(__file__).resolve().parent.parent

        result = invoke("tune", "next-batch", "--dir", root / "fixtures" / "tune-finished")

        assert result.code == 1 and "the tuning is finished: the final check passed in final-run1" in result.err
        assert "run the final check" not in result.err

    def test_starting_a_run_of_a_batch_not_built_names_the_one_built(self, tmp_path):
        folder = init_tuning(tmp_path / "proj", {"cases": list(CASES)})
        invoke("tune", "next-batch", "-o", folder / "runs" / "batch01-nomem-run1" / "cases.json", "--dir", folder)

        result = invoke("tune", "run", "start", "--batch", "2", "--kind", "nomem", "--dir", folder)

        assert "batch 1 is the only one built" in result.err and "1-1" not in result.err


def test_an_imported_tuning_names_the_dataset_beside_its_log(tmp_path):
    zen = tmp_path / "proj" / "finetune"
    zen.mkdir(parents=True)
    (zen / "dataset.json").write_text('{"cases": [{"id": "a"}, {"id": "b"}]}', encoding="utf-8")
    (zen / "selection.json").write_text('{"batch": [{"id": "a"}, {"id": "b"}]}', encoding="utf-8")
    assert invoke("tune", "import", zen, cwd=tmp_path).code == 0

    out = invoke("tune", "readme", "--dir", zen, "--stdout").out

    assert "The dataset `dataset.json` holds" in out and out.startswith("# Tuning proj\n")
