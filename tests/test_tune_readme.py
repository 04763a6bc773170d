"""The README view: sections rendered from the log, marker splicing, the map's mermaid, `tune readme`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from batchlog.engine import EventLog
from batchlog.cli.loops import all_types
from batchlog.projections.errors import BadInput
from batchlog.projections.tune.events import BatchBuilt, RunGraded, RunStarted
from batchlog.projections.tune.decider import TUNE
from batchlog.projections.tune.evolve import evolve
from batchlog.projections.tune.views.readme.document import (
    MARKER,
    SECTION_NAMES,
    begin,
    end,
    layout,
    sections,
    update,
)
from batchlog.projections.tune.views.readme.map import flowchart, label
from batchlog.projections.tune.views.readme.sections import plan, where
from tests.clirunner import invoke
from tests.test_tune_final_again import final_again_states
from tests.tune_helpers import fold, started, table_problems

ROOT = Path(__file__).resolve().parent.parent
FINISHED = ROOT / "fixtures" / "tune-finished"
IN_PROGRESS = ROOT / "fixtures" / "tune-in-progress"
MERMAID = Path(__file__).resolve().parent / "mermaid"


def replayed_states(folder: Path) -> list:
    """The state after every event of a fixture's log: every stage a tuning goes through."""
    state, states = TUNE.initial, []
    for event in EventLog(folder / "events.jsonl", all_types()).scan():
        state = evolve(state, event)
        states.append(state)
    return states


def readme(text: str, state) -> str:
    """The README `text` brought up to date with `state`."""
    return update(text, sections(state)).text


def splice(text: str, rendered: dict[str, str]) -> str:
    return update(text, rendered).text


def has_markers(text: str) -> bool:
    return any(MARKER.match(line) for line in text.splitlines())


STATES = replayed_states(FINISHED) + replayed_states(IN_PROGRESS) + final_again_states()


ODD_CASES = ({"id": 'a|b"c', "class": "x|y"}, {"id": "<!-- batchlog:end map -->", "class": "x|y"},
             {"id": "`tick`", "class": "z", "complexity": "complex"}, {"id": "d#1;[e](f)", "class": "z"})


def odd_state():
    """Ids and classes full of markdown and mermaid syntax, one run graded with a note and a difficult case."""
    ids = tuple(case["id"] for case in ODD_CASES)
    return fold(
        started(ODD_CASES, dataset="data/odd.json"),
        BatchBuilt(1, 3, "batch 1 is the smoke test: minBatch 3", "new", ids[:3], (), 1, 0),
        RunStarted("batch01-nomem-run1", 1, "nomem", 1, ids[:3]),
        RunGraded("batch01-nomem-run1", "WRONG", (ids[0],), 5, 100, None, None, "a | note <!-- batchlog:end log -->"),
    )


class TestSplice:
    RENDERED = {"where": "**here**", "next": "do it\n\n```sh\nbatchlog tune next\n```"}

    def test_a_file_without_markers_gets_the_whole_layout_after_its_text(self):
        text = splice("# My tuning\n\nhand-written\n", self.RENDERED)

        assert text.startswith("# My tuning\n\nhand-written\n\n# Tuning")
        for name in SECTION_NAMES:
            assert text.count(begin(name)) == 1 and text.count(end(name)) == 1
        assert f"{begin('where')}\n**here**\n{end('where')}" in text

    def test_the_layout_is_added_once(self):
        once = splice("", self.RENDERED)

        assert splice(once, self.RENDERED) == once
        assert once == layout(self.RENDERED)

    def test_a_section_whose_markers_were_removed_is_put_back_the_others_kept_as_they_are(self):
        text = f"intro\n{begin('where')}\nold\n{end('where')}\nmine\n"

        assert splice(text, self.RENDERED) == (f"intro\n{begin('where')}\n**here**\n{end('where')}\nmine\n\n"
                                               f"## Next\n\n{begin('next')}\n{self.RENDERED['next']}\n{end('next')}\n")

    def test_markers_of_an_unknown_name_keep_what_they_hold(self):
        text = f"{begin('where')}\n{end('where')}\n{begin('mine')}\nkeep me\n{end('mine')}\n"

        assert f"{begin('mine')}\nkeep me\n{end('mine')}\n" in splice(text, self.RENDERED)

    def test_a_file_with_only_markers_of_its_own_gets_the_layout_after_them(self):
        text = f"{begin('mine')}\nkeep me\n{end('mine')}\n"

        assert splice(text, self.RENDERED) == text + "\n" + layout(self.RENDERED)

    @pytest.mark.parametrize("text, line", [
        (f"{begin('where')}\nx\n", 1),
        (f"a\n{end('where')}\n", 2),
        (f"{begin('where')}\n{begin('next')}\n{end('next')}\n{end('where')}\n", 2),
    ])
    def test_markers_that_do_not_pair_are_refused_naming_the_line(self, text, line):
        with pytest.raises(BadInput) as refused:
            splice(text, self.RENDERED)

        assert refused.value.fields["line"] == line and f"line {line}" in refused.value.message

    TEXTS = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40).filter(
        lambda text: not has_markers(text))

    @settings(max_examples=150)
    @given(outside=st.lists(TEXTS, min_size=len(SECTION_NAMES) + 1, max_size=len(SECTION_NAMES) + 1),
           old=st.lists(TEXTS, min_size=len(SECTION_NAMES), max_size=len(SECTION_NAMES)),
           new=st.dictionaries(st.sampled_from(SECTION_NAMES), TEXTS))
    def test_splicing_is_idempotent_and_never_touches_text_outside_the_markers(self, outside, old, new):
        parts = [outside[0]]
        for name, body, after in zip(SECTION_NAMES, old, outside[1:]):
            parts.append(f"\n{begin(name)}\n{body}\n{end(name)}\n{after}")
        text = "".join(parts)

        once = splice(text, new)

        assert splice(once, new) == once
        assert outside_markers(once) == outside_markers(text)

    @settings(max_examples=60)
    @given(st.sampled_from(STATES))
    def test_rendering_a_state_twice_changes_nothing(self, state):
        once = readme("", state)

        assert readme(once, state) == once


def outside_markers(text: str) -> list[str]:
    """A README's lines outside batchlog's sections (the markers' own lines left out too)."""
    kept, inside = [], False
    for line in text.split("\n"):
        if line.startswith("<!-- batchlog:begin "):
            inside = True
        elif line.startswith("<!-- batchlog:end "):
            inside = False
        elif not inside:
            kept.append(line)
    return kept


class TestSections:
    def test_where_names_batch_half_run_and_what_it_waits_for(self):
        state = replayed_states(IN_PROGRESS)[-1]

        assert where(state) == ("**Batch 3 (6 new + 3 recheck) · without memory · run 1 - waiting to be graded.**\n"
                                "Batches 1-2 passed, both halves. 15 of 64 cases used, 49 to go; 1 difficult case "
                                "open.")

    def test_where_says_done_after_the_final_check(self):
        assert where(STATES[len(replayed_states(FINISHED)) - 1]).startswith("**Done: the final check passed")

    def test_plan_gives_the_batch_arithmetic_of_the_template(self):
        text = plan(replayed_states(IN_PROGRESS)[0])

        assert "64 cases growing 3 → 6 → 10 is **at least 8 batches**: 3 + 6 + 10 × 5 + 5." in text
        assert "| **total** | **64** | **64** | **39** | **19** |" in text

    @pytest.mark.parametrize("index", range(0, len(STATES), 7))
    def test_every_table_is_valid_and_no_section_holds_a_marker(self, index):
        rendered = sections(STATES[index])

        for name, text in rendered.items():
            assert table_problems(text) == [], name
            assert not has_markers(text), name

    def test_text_from_the_log_cannot_break_tables_or_markers(self):
        text = readme("", odd_state())

        assert table_problems(text) == []
        lines = text.split("\n")
        assert lines.count("<!-- batchlog:end map -->") == 1 and lines.count("<!-- batchlog:end log -->") == 1
        assert "`a\\|b\"c`" in text
        assert readme(text, odd_state()) == text

    def test_exactly_one_node_is_now_at_every_step(self):
        for state in [*STATES, odd_state(), TUNE.initial]:
            classes = [line.split() for line in flowchart(state) if line.strip().startswith("class ")]
            now = [nodes for _, nodes, kind in classes if kind == "now"]
            assert len(now) == 1 and "," not in now[0], now
            named = [node for _, nodes, _ in classes for node in nodes.split(",")]
            assert len(named) == len(set(named))

    def test_the_map_draws_the_batches_the_growth_rule_predicts(self):
        text = "\n".join(flowchart(replayed_states(IN_PROGRESS)[-1]))

        assert 'subgraph AHEAD["batches 4-8 · 10, 10, 10, 10, 9 new"]' in text
        assert "class A3N now" in text

    def test_labels_escape_quotes_and_markup(self):
        assert label('a"b<c>#d') == '"a#34;b#60;c#62;#35;d"'


class TestMermaid:
    """The map parses with mermaid's own parser (npm `mermaid` under Node with jsdom, see tests/mermaid)."""

    def test_every_map_parses_and_a_broken_one_does_not(self):
        parser = MERMAID / "node_modules" / "mermaid"
        if not parser.is_dir() or shutil.which("node") is None:
            if os.environ.get("BATCHLOG_REQUIRE_MERMAID") or os.environ.get("BATCHLOG_REQUIRE_SEEDS"):
                pytest.fail("mermaid is not installed: npm ci --prefix tests/mermaid")
            pytest.skip("mermaid is not installed (npm ci --prefix tests/mermaid)")
        maps = ["\n".join(flowchart(state)) for state in [*STATES[::3], STATES[-1], odd_state(), TUNE.initial]]
        maps.append((FINISHED / "README.md").read_text(encoding="utf-8").split("```mermaid\n")[1].split("```")[0])
        broken = 'flowchart TD\n  A["x --> B'  # shows the check can fail

        done = subprocess.run(["node", str(MERMAID / "parse.mjs")], input=json.dumps([*maps, broken]),
                              capture_output=True, text=True, timeout=120, check=True)

        results = json.loads(done.stdout)
        assert len(results) == len(maps) + 1
        failures = [(text, result["error"]) for text, result in zip(maps, results) if not result["ok"]]
        assert failures == []
        assert results[-1]["ok"] is False


def copy_fixture(source: Path, target: Path, lines: int | None = None) -> Path:
    target.mkdir(parents=True)
    log = (source / "events.jsonl").read_bytes().splitlines(keepends=True)
    (target / "events.jsonl").write_bytes(b"".join(log if lines is None else log[:lines]))
    return target


class TestReadmeCommand:
    def test_writes_the_layout_then_changes_nothing(self, tmp_path):
        folder = copy_fixture(FINISHED, tmp_path / "t")

        first = invoke("tune", "readme", "--dir", folder)
        text = (folder / "README.md").read_text(encoding="utf-8")
        second = invoke("tune", "readme", "--dir", folder)

        assert (first.code, second.code) == (0, 0)
        assert second.out.endswith("up to date\n")
        assert (folder / "README.md").read_text(encoding="utf-8") == text

    def test_keeps_hand_written_text_outside_the_markers(self, tmp_path):
        folder = copy_fixture(IN_PROGRESS, tmp_path / "t")
        invoke("tune", "readme", "--dir", folder)
        path = folder / "README.md"
        path.write_text(path.read_text(encoding="utf-8").replace("## Map", "## Map\n\nMine, keep it."),
                        encoding="utf-8")

        invoke("tune", "readme", "--dir", folder)

        assert "## Map\n\nMine, keep it.\n" in path.read_text(encoding="utf-8")

    def test_check_exits_1_with_a_diff_when_stale_and_0_when_fresh(self, tmp_path):
        folder = copy_fixture(FINISHED, tmp_path / "t", lines=50)
        invoke("tune", "readme", "--dir", folder)
        fresh = invoke("tune", "readme", "--dir", folder, "--check")
        (folder / "events.jsonl").write_bytes((FINISHED / "events.jsonl").read_bytes())

        stale = invoke("tune", "readme", "--dir", folder, "--check")

        assert fresh.code == 0 and fresh.out == ""
        assert stale.code == 1
        assert stale.out.startswith(f"--- {folder / 'README.md'} (on disk)\n+++ ")
        assert "+**Done: the final check passed (final-run1).**" in stale.out
        assert "is stale" in stale.err

    def test_stdout_prints_and_writes_nothing(self, tmp_path):
        folder = copy_fixture(IN_PROGRESS, tmp_path / "t")

        result = invoke("tune", "readme", "--dir", folder, "--stdout")

        assert result.code == 0 and result.out.startswith("# Tuning support-desk-64\n")
        assert not (folder / "README.md").exists()

    @pytest.mark.parametrize("seq", [1, 2, 9, 17, 40, 53, 104, 106])
    def test_at_seq_renders_the_readme_as_it_stood_after_that_event(self, tmp_path, seq):
        cut = copy_fixture(FINISHED, tmp_path / "cut" / "t", lines=seq)
        whole = copy_fixture(FINISHED, tmp_path / "whole" / "t")
        shutil.copytree(FINISHED / "runs", cut / "runs")
        shutil.copytree(FINISHED / "runs", whole / "runs")

        at = invoke("tune", "readme", "--dir", whole, "--at", seq, "--stdout")
        expected = invoke("tune", "readme", "--dir", cut, "--stdout")

        assert at.code == 0
        assert at.out == expected.out

    def test_a_file_that_is_a_folder_is_refused(self, tmp_path):
        folder = copy_fixture(IN_PROGRESS, tmp_path / "t")

        result = invoke("tune", "readme", "--dir", folder, "--file", tmp_path)

        assert result.code == 1 and "is a folder" in result.err


class TestGolden:
    """The fixtures' READMEs are what the log gives (rebuild: fixtures/build_finished_tuning.py)."""

    @pytest.mark.parametrize("folder, file", [
        ("fixtures/tune-finished", "fixtures/tune-finished/README.md"),
        ("fixtures/tune-in-progress", "fixtures/golden/tune-in-progress/README.md"),
    ])
    def test_regenerating_the_readme_gives_the_golden_file(self, folder, file):
        result = invoke("tune", "readme", "--dir", folder, "--file", file, "--check", cwd=ROOT)

        assert result.code == 0, result.out


class TestAnotherLoopsLog:
    @pytest.mark.parametrize("command", [("readme", "--stdout"), ("usage-report",), ("audit",)])
    def test_a_quick_batch_log_is_refused_and_left_alone(self, tmp_path, command):
        (tmp_path / "targets.txt").write_text("alpha\nbeta\n", encoding="utf-8")
        assert invoke("quick-batch", "start", tmp_path / "targets.txt", "--run-dir", tmp_path / "run").code == 0
        before = (tmp_path / "run" / "events.jsonl").read_bytes()

        result = invoke("tune", *command, "--dir", tmp_path / "run")

        assert result.code == 1 and "this log is not a tuning's" in result.err
        assert (tmp_path / "run" / "events.jsonl").read_bytes() == before
        assert sorted(p.name for p in (tmp_path / "run").iterdir() if p.suffix == ".md") == []


def test_the_log_says_1_line_not_1_lines():
    from batchlog.projections.tune.events import BatchBuilt, ChangeRecorded, RunGraded, RunStarted, TuningStarted
    from batchlog.projections.tune.views.readme.batches import log
    from tests.tune_helpers import fold

    started = TuningStarted("d.json", ({"id": "a"},), ("a",), None, 1, 1, 0, 1, 3, 1)
    state = fold(started, BatchBuilt(1, 1, "w", "new", ("a",), ()), RunStarted("batch01-nomem-run1", 1, "nomem", 1, ("a",)),
                 RunGraded("batch01-nomem-run1", "CORRECT"), ChangeRecorded("batch01-nomem-run1", "p.md", "cut", 1),
                 ChangeRecorded("batch01-nomem-run1", "q.md", "cut", 2))

    assert "`p.md` (+1 line): cut" in log(state) and "`q.md` (+2 lines): cut" in log(state)
