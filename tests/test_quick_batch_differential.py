"""The differential test of issue 7: skf-quick-batch.py and `batchlog quick-batch` driven through
the same generated scenarios give the same lines, exit codes, summary files and files on disk;
and every batch the seed leaves, taken over with `import`, goes on as the seed goes on."""

from __future__ import annotations

import time

import pytest

from tests.quick_batch.differential import SeedProcess, run_scenario
from tests.quick_batch.scenarios import CREATE_REASONS, QUICK_REASONS, scenario
from tests.seeds import QUICK_BATCH_PY, require

SCENARIOS = 240

# What the scenarios must have met, seen in the seed's own output: each case the issue names.
MUST_MEET = [
    '"status":"record"',  # a staged payload found after a compaction
    '"resumed":true', '"resumed":false', '"fail_fast_triggered":true', '"fail_fast_triggered":false',
    "summary_write_failed", "-2.json", "still pending", "staged neither", "maps to no exit code",
    "holds no JSON object", "cannot be created: File exists", "is not UTF-8 text", "holds the batch of", "has no target",
    '"error_code":"brief-missing"', '"error_code":"brief-malformed"', '"error_code":"brief-invalid"',
    "both would compile into one skill folder", "no skill-brief.yaml under", '"status":"done","exit":0',
    '"quality_score": 87', '"quality_score": null', '"status": "partial"', '"status": "failed"',
    '"status": "success"', "removes its run folder once summarized", "the following arguments are required",
    *(f'"error_code":"{reason}"' for reason in {*QUICK_REASONS, *CREATE_REASONS}),
]


@pytest.fixture(scope="module")
def seed():
    require(QUICK_BATCH_PY)
    process = SeedProcess()
    yield process
    process.close()


def test_seed_and_batchlog_agree_on_every_generated_scenario(seed, tmp_path):
    began = time.monotonic()
    commands = archived = imports = summaries = 0
    problems: list[str] = []
    seen: list[str] = []
    for number in range(SCENARIOS):
        work = tmp_path / str(number)
        work.mkdir()
        report = run_scenario(number, work, seed, scenario)
        commands, archived = commands + report.commands, archived + report.archived
        imports += report.imports
        summaries += report.summaries
        problems += report.problems
        seen.append(report.seed_text)

    print(f"\n{SCENARIOS} scenarios, {commands} commands, {archived} logs archived, {imports} seed batches imported "
          f"({summaries} summarized), {time.monotonic() - began:.1f}s")
    assert not problems, "\n".join(problems[:10]) + f"\n({len(problems)} differences)"
    text = "".join(seen)
    assert [marker for marker in MUST_MEET if marker not in text] == []
    assert commands > 8 * SCENARIOS
    assert archived > 0 and imports > SCENARIOS // 2
    assert summaries >= 1
