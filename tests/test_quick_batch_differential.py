"""The differential test of issue 7: skf-quick-batch.py and `batchlog quick-batch` driven through
the same generated scenarios give the same lines, exit codes, summary files and files on disk (a state
file with a torn last line included: issue 24 item 10); and every batch the seed leaves, taken over with
`import` (run twice: the repeat answers the same and appends nothing), goes on as the seed goes on."""

from __future__ import annotations

import random
import time

import pytest

from tests.quick_batch.differential import BRIEF_SCHEMA, SeedProcess, run_scenario, upstream_layout
from tests.quick_batch.scenarios import CREATE_REASONS, QUICK_REASONS, briefs_scenario, scenario
from tests.seeds import QUICK_BATCH_PY, VALIDATORS, require

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
    commands = archived = imports = summaries = tears = 0
    problems: list[str] = []
    seen: list[str] = []
    for number in range(SCENARIOS):
        work = tmp_path / str(number)
        work.mkdir()
        report = run_scenario(number, work, seed, scenario)
        commands, archived = commands + report.commands, archived + report.archived
        imports += report.imports
        summaries += report.summaries
        tears += report.tears
        problems += report.problems
        seen.append(report.seed_text)

    print(f"\n{SCENARIOS} scenarios, {commands} commands, {archived} logs archived, {imports} seed batches imported "
          f"({summaries} summarized), {tears} torn last lines, {time.monotonic() - began:.1f}s")
    assert not problems, "\n".join(problems[:10]) + f"\n({len(problems)} differences)"
    text = "".join(seen)
    assert [marker for marker in MUST_MEET if marker not in text] == []
    assert commands > 8 * SCENARIOS
    assert archived > 0 and imports > SCENARIOS // 2
    assert summaries >= 1
    assert tears > SCENARIOS // 20  # records on a state file whose last line a write cut short


BRIEF_SCENARIOS = 120
# What the brief scenarios must meet with skill-forge's real validator: the messages only it gives.
UPSTREAM_MUST_MEET = [
    "Brief must be a YAML mapping; got ", "`name` field `Bad Name` does not match required pattern",
    "`doc_urls` must have at least one entry when `source_type` is `docs-only`",
    "`version` field `   ` does not match required pattern", '"status":"running"',
]


@pytest.mark.parametrize("validator", list(VALIDATORS))
def test_every_brief_scenario_agrees_with_the_seed_under_each_validator(tmp_path, validator):
    """The seed loads the validator beside it; batchlog the one beside the schema it is given: the
    stand-in in extracted/, then skill-forge's own in upstream/. Same lines, codes and files."""
    require(QUICK_BATCH_PY)
    require(VALIDATORS[validator])
    script, schema = (QUICK_BATCH_PY, BRIEF_SCHEMA) if validator == "stand-in" else upstream_layout(tmp_path / "sf")
    seed = SeedProcess(script)
    problems: list[str] = []
    seen: list[str] = []
    try:
        for number in range(BRIEF_SCENARIOS):
            work = tmp_path / str(number)
            work.mkdir()
            report = run_scenario(number, work, seed, lambda n, do: briefs_scenario(random.Random(n), do), schema)
            problems += report.problems
            seen.append(report.seed_text)
    finally:
        seed.close()

    print(f"\n{BRIEF_SCENARIOS} brief scenarios against the {validator} validator")
    assert not problems, "\n".join(problems[:10]) + f"\n({len(problems)} differences)"
    text = "".join(seen)
    assert [m for m in (UPSTREAM_MUST_MEET if validator == "upstream" else ['"status":"running"']) if m not in text] == []
