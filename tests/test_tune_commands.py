"""Every command the tuning prints for an agent is safe to paste into a shell (issue: a printed
`--verdict PASSED|CORRECT|WRONG|VOID` was a pipe that graded the run PASSED).

A printed command either runs as it stands, or holds placeholders (bare upper-case words: VERDICT, NODES,
DATASET, FILE) that batchlog refuses with a usage error naming the choices; run unchanged, a template exits
2 and appends nothing. Checked for every state the fixtures' logs pass through (every prefix); the
differential test checks the same for every state its generated histories reach.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from batchlog.projections.tune.views.status import PLACEHOLDERS, next_step
from tests.clirunner import invoke
from tests.test_tune_readme import FINISHED, IN_PROGRESS, STATES
from tests.tune_helpers import shell_problems

PREFIXES = [(fixture, lines) for fixture in (FINISHED, IN_PROGRESS)
            for lines in range(0, len((fixture / "events.jsonl").read_bytes().splitlines()) + 1)]


def test_the_checker_catches_what_the_old_template_did():
    assert shell_problems("batchlog tune run grade r1 --verdict PASSED|CORRECT|WRONG|VOID")
    assert shell_problems("batchlog tune init --dataset $(rm -rf x)")
    assert shell_problems("batchlog tune next > out")
    assert not shell_problems("batchlog tune run grade r1 --verdict VERDICT --dir 'a b'")


@pytest.mark.parametrize("folder", ["finetune", "my tuning", "a|b;c", "$(x)`y`"])
def test_every_next_step_of_every_fixture_state_is_one_simple_command(folder):
    for state in STATES:
        step = next_step(state, folder)
        for printed, body in [(step, step.as_json()), *zip(step.optional, step.as_json()["optional"])]:
            assert shell_problems(printed.command) == [], (printed.step, printed.command)
            assert set(printed.placeholders) <= set(PLACEHOLDERS)
            assert ("command" in body) != ("template" in body)
            if "template" in body:
                assert set(body["choices"]) == set(printed.placeholders) and printed.placeholders


def copy_prefix(fixture: Path, lines: int, target: Path) -> Path:
    target.mkdir(parents=True)
    if lines:
        kept = (fixture / "events.jsonl").read_bytes().splitlines(keepends=True)[:lines]
        (target / "events.jsonl").write_bytes(b"".join(kept))
    return target


@pytest.mark.parametrize("fixture, lines", PREFIXES, ids=lambda v: v.name if isinstance(v, Path) else str(v))
def test_a_template_run_unchanged_is_refused_with_exit_2_and_nothing_appended(tmp_path, fixture, lines):
    """The step's template and every optional step's: each pasted unchanged is a usage error."""
    folder = copy_prefix(fixture, lines, tmp_path / "finetune")
    shown = invoke("tune", "next", "--json", "--dir", folder)
    assert shown.code == 0, shown.err
    step = json.loads(shown.out)
    for body in [step, *step["optional"]]:
        if "template" not in body:
            assert shell_problems(body["command"]) == []
            continue
        before = sorted((p.relative_to(folder), p.read_bytes()) for p in folder.rglob("*") if p.is_file())

        ran = invoke(*shlex.split(body["template"])[1:])

        assert ran.code == 2, (body["template"], ran)
        assert any(word in ran.err for word in body["choices"]), ran.err
        after = sorted((p.relative_to(folder), p.read_bytes()) for p in folder.rglob("*") if p.is_file())
        assert after == before  # not even a lock file: the lock is on the log itself
    assert not any((tmp_path / word).exists() for word in PLACEHOLDERS)


def test_the_status_fields_are_the_figures_of_the_status_lines_in_every_fixture_state():
    from batchlog.projections.tune.views.status import progress_figures

    for state in STATES:
        if state.settings is None:
            continue
        body = progress_figures(state)
        lines = body["lines"]
        assert lines[0] == f"selection     {body['selection']} cases"
        assert lines[1] == f"used          {body['used']}, {body['unused']} not yet in any batch"
        assert lines[2] == f"batches       {body['batches_built']} built"
        assert lines[3] == f"next size     {body['next_size']} - {body['next_size_why']}"
        difficult = body["difficult"]
        assert lines[4] == f"difficult     {difficult['open']} open · {difficult['fixed']} fixed · {difficult['stuck']} stuck"
        assert lines[5].startswith(f"ahead         at least {body['batches_ahead']} more batch(es)")
