"""Every `--json` output of every batchlog command parses as the README's table says: one JSON object, or JSON
Lines. The commands are found by walking the apps themselves (typer for `log` and `tune`, argparse for
`quick-batch`), so a command that gains `--json` fails here until it is run below and in the table.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
from pathlib import Path

import pytest
import typer

from batchlog.cli.app import build
from tests.clirunner import invoke

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
IN_PROGRESS = ROOT / "fixtures" / "tune-in-progress"
FINISHED = ROOT / "fixtures" / "tune-finished"
DATASET = ROOT / "fixtures" / "datasets" / "support-desk-64.json"
CLOCK = {"BATCHLOG_CLOCK": "2026-12-03T10:00:00Z"}
SHAPES = {"one JSON object": "object", "JSON Lines": "lines"}


def typer_json_commands() -> set[str]:
    """The typer commands (their words after `batchlog`) that take --json."""
    found = set()

    def walk(command, words):
        if "--json" in {opt for param in command.params for opt in getattr(param, "opts", ())} and words:
            found.add(" ".join(words))
        for name, sub in (getattr(command, "commands", None) or {}).items():
            walk(sub, (*words, name))

    walk(typer.main.get_command(build(None)), ())
    return found


def argparse_json_commands(prefix: str, parser: argparse.ArgumentParser) -> set[str]:
    """The argparse (sub)commands under `prefix` that take --json."""
    found = set()
    if any("--json" in action.option_strings for action in parser._actions):
        found.add(prefix)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found |= argparse_json_commands(f"{prefix} {name}", sub)
    return found


def json_commands() -> set[str]:
    from batchlog.cli.quick_batch.main import _parser as quick_batch_parser

    return typer_json_commands() | argparse_json_commands("quick-batch", quick_batch_parser())


def readme_table() -> dict[str, str]:
    """The README's table of what --json prints: command -> "object" | "lines"."""
    section = README.split("#### What `--json` prints", 1)[1].split("\n#", 1)[0]
    table = {}
    for match in re.finditer(r"^\| `batchlog ([a-z -]+)` \| ([^|]+) \|", section, flags=re.M):
        shape = next((value for words, value in SHAPES.items() if match.group(2).strip().startswith(words)), None)
        table[match.group(1).strip()] = shape
    return table


def parses_as(shape: str, text: str) -> bool:
    """`text` is exactly one JSON object on one line, or JSON Lines (at least one line, each an object)."""
    if not text.endswith("\n"):
        return False
    lines = text[:-1].split("\n")
    if shape == "object" and len(lines) != 1:
        return False
    try:
        return bool(lines) and all(isinstance(json.loads(line), dict) for line in lines)
    except ValueError:
        return False


def first_case(folder: Path, run: str) -> str:
    return json.loads((folder / "runs" / run / "cases.json").read_text(encoding="utf-8"))["batch"][0]["id"]


def scenario(tmp: Path) -> list[tuple[str, list[str]]]:
    """Every --json command once, in an order a tuning allows: (command words, arguments after them)."""
    tuning = tmp / "proj" / "t"
    shutil.copytree(IN_PROGRESS, tuning)
    finished = tmp / "done" / "t"
    shutil.copytree(FINISHED, finished)
    zen = tmp / "zen"
    zen.mkdir()
    (zen / "dataset.json").write_text('{"cases": [{"id": "a"}, {"id": "b"}]}', encoding="utf-8")
    (zen / "selection.json").write_text('{"batch": [{"id": "a"}, {"id": "b"}]}', encoding="utf-8")
    (tmp / "targets.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    run1, run2, mem1 = "batch03-nomem-run1", "batch03-nomem-run2", "batch03-mem-run1"
    case = first_case(tuning, run1)
    log, d = str(tuning / "events.jsonl"), ["--dir", str(tuning)]
    return [
        ("log verify", [log]),
        ("log show", [log]),
        ("log head", [log]),
        ("log migrate", [log, str(tmp / "copy" / "events.jsonl")]),
        ("tune init", ["--dataset", str(DATASET), "--dir", str(tmp / "new")]),
        ("tune import", [str(zen)]),
        ("tune status", d),
        ("tune next", d),
        ("tune run grade", [run1, "--verdict", "CORRECT", "--llm-calls", "5", "--tokens", "900", *d]),
        ("tune run regrade", [run1, "--verdict", "WRONG", "--wrong", case, "--reason", "misread", *d]),
        ("tune difficult add", [case, "--reason", "wrong", "--run", run1, "--note", "n", *d]),
        ("tune change", [run1, "--file", "p.md", "--summary", "cut", "--lines", "1", *d]),
        ("tune usage", [run1, "--model", "m", "--calls", "5", "--input-tokens", "800", "--output-tokens", "100", *d]),
        ("tune run start", ["--batch", "3", "--kind", "nomem", *d]),
        ("tune run grade", [run2, "--verdict", "PASSED", *d]),
        ("tune difficult fix", [case, "--run", run2, *d]),
        ("tune difficult", d),
        ("tune difficult list", d),
        ("tune run start", ["--batch", "3", "--kind", "mem", *d]),
        ("tune run grade", [mem1, "--verdict", "PASSED", *d]),
        ("tune memory keep", ["--batch", "3", "--nodes", "50", *d]),
        ("tune next-batch", d),
        ("tune next-batch", ["-o", str(tuning / "runs" / "batch04-nomem-run1" / "cases.json"), *d]),
        ("tune readme", ["--stdout", *d]),
        ("tune readme", d),
        ("tune usage-report", d),
        ("tune usage-report", ["--check", *d]),
        ("tune audit", ["--dir", str(finished)]),
        ("tune watch", ["--dir", str(finished)]),  # a closed tuning: its one line, and the watch ends
        ("log salvage", [log]),
        ("quick-batch status", ["--run-dir", str(tmp / "qb")]),
        ("quick-batch watch", ["--run-dir", str(tmp / "qbw" / "run")]),  # summarized: its one line, and it ends
    ]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> list[tuple[str, list[str], object]]:
    """Every step of the scenario run with --json: (command, arguments, result)."""
    tmp = tmp_path_factory.mktemp("json")
    done = []
    for words, args in scenario(tmp):
        if words == "quick-batch status":
            assert invoke("quick-batch", "start", tmp / "targets.txt", "--run-dir", tmp / "qb").code == 0
        if words == "quick-batch watch":
            _summarized_batch(tmp / "qbw")
        done.append((words, args, invoke(*words.split(), *args, "--json", env=CLOCK)))
    return done


def test_every_command_with_json_is_in_the_readme_table_and_in_the_scenario(tmp_path):
    run = {words for words, _ in scenario(tmp_path)}

    assert set(readme_table()) == json_commands()
    assert run == json_commands()


def test_the_readme_table_names_a_shape_for_every_row():
    assert all(shape in SHAPES.values() for shape in readme_table().values()), readme_table()


def test_every_json_output_parses_as_the_readme_says(outputs):
    table = readme_table()
    wrong = [(words, args, result.code, result.out[:300], result.err[-300:]) for words, args, result in outputs
             if result.code != 0 or not parses_as(table[words], result.out)]

    assert wrong == []


def test_json_lines_are_not_one_object_and_an_object_is_one_line():
    """The check itself can fail: several objects are not "one JSON object", text is neither."""
    assert parses_as("lines", '{"a":1}\n{"b":2}\n') and not parses_as("object", '{"a":1}\n{"b":2}\n')
    assert not parses_as("object", "done\n") and not parses_as("lines", "") and not parses_as("object", "[1]\n")


def test_readme_json_holds_the_sections_and_the_text_with_stdout(outputs):
    readmes = [json.loads(result.out) for words, args, result in outputs if words == "tune readme"]
    from batchlog.projections.tune.views.readme.document import SECTION_NAMES

    printed, written = readmes
    assert set(printed["sections"]) == set(SECTION_NAMES) and printed["written"] is False
    assert printed["text"].startswith("# Tuning support-desk-64\n")
    assert written["written"] is True and "text" not in written
    assert Path(written["file"]).read_text(encoding="utf-8") == printed["text"]


def test_usage_report_json_gives_usage_md_figures(outputs):
    reports = [json.loads(result.out) for words, args, result in outputs if words == "tune usage-report"]
    written, checked = reports

    assert written["written"] is True and checked == {**written, "written": False, "up_to_date": True}
    text = Path(written["file"]).read_text(encoding="utf-8")
    assert f"| **total** | **{written['total']['calls']:,}** | " in text
    assert sum(row["tokens"] for row in written["by_run"]) == written["total"]["tokens"]


ERRORS = [
    ("tune status", ["--dir", "{qb}"]),
    ("tune readme", ["--stdout", "--dir", "{qb}"]),
    ("tune usage-report", ["--dir", "{qb}"]),
    ("tune audit", ["--dir", "{qb}"]),
    ("tune init", ["--dataset", "{nowhere}"]),
    ("log verify", ["{nowhere}"]),
    ("quick-batch status", ["--run-dir", "{nowhere}"]),
]


@pytest.mark.parametrize("words, args", ERRORS, ids=[words for words, _ in ERRORS])
def test_an_error_with_json_is_one_json_object_on_stderr(tmp_path, words, args):
    invoke("quick-batch", "start", _targets(tmp_path), "--run-dir", tmp_path / "qb")
    filled = [arg.format(qb=tmp_path / "qb", nowhere=tmp_path / "nowhere") for arg in args]

    result = invoke(*words.split(), *filled, "--json")

    assert result.code in (1, 3) and result.out == ""
    assert parses_as("object", result.err), result.err


def _targets(folder: Path) -> Path:
    path = folder / "targets.txt"
    path.write_text("alpha\nbeta\n", encoding="utf-8")
    return path


def _summarized_batch(folder: Path) -> None:
    """A batch of one target, recorded and summarized in folder/run (the run folder then removed, its log archived)."""
    folder.mkdir()
    (folder / "targets.txt").write_text("alpha\n", encoding="utf-8")
    for args in (["start", "targets.txt"], ["next"], ["record", "--batch", "1"], ["summarize", "--output-dir", "out"]):
        if args == ["record", "--batch", "1"]:
            (folder / "run" / "run-1" / "result-context.json").write_text("{}", encoding="utf-8")
        assert invoke("quick-batch", *args, "--run-dir", "run", cwd=folder, env=CLOCK).code == 0
