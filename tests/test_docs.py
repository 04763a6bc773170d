"""Every command has help, an example, and a place in the README."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

import pytest
import typer

from batchlog.cli.app import build
from tests.clirunner import invoke

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def typer_commands() -> list[tuple[str, ...]]:
    """Every leaf command of the typer app, as its words after `batchlog`."""
    found = []

    def walk(command, words):
        subcommands = getattr(command, "commands", None)
        if not subcommands:
            found.append(words)
            return
        if getattr(command, "invoke_without_command", False) and words:
            found.append(words)
        for name, sub in subcommands.items():
            walk(sub, (*words, name))

    walk(typer.main.get_command(build(None)), ())
    return [words for words in found if words and words[0] != "quick-batch"]


def quick_batch_commands() -> list[tuple[str, ...]]:
    """Every subcommand of `batchlog quick-batch` (the typer app hands it to its own argparse parser)."""
    from batchlog.cli.quick_batch.main import _parser

    (choices,) = [action.choices for action in _parser()._actions if isinstance(action, argparse._SubParsersAction)]
    return [("quick-batch", name) for name in choices]


COMMANDS = typer_commands() + quick_batch_commands()


def test_the_app_has_the_commands_the_issues_name():
    names = {" ".join(words) for words in COMMANDS}

    assert {"log verify", "log show", "log head", "log salvage", "tune init", "tune status", "tune next-batch",
            "tune run start", "tune run grade", "tune next", "tune import", "tune readme", "tune audit",
            "tune usage-report", "quick-batch next"} <= names


@pytest.mark.parametrize("words", COMMANDS, ids=" ".join)
def test_every_command_has_help(words):
    result = invoke(*words, "--help")

    assert result.code == 0, result.err
    assert len(result.out.strip().splitlines()) >= 3


@pytest.mark.parametrize("words", COMMANDS, ids=" ".join)
def test_every_command_is_in_the_readme(words):
    assert f"batchlog {' '.join(words)}" in README


def test_the_typer_app_hands_quick_batch_to_its_parser():
    """The walk above finds quick-batch's subcommands in its parser: the typer app knows it as one command."""
    names = {words[1] for words in quick_batch_commands()}

    assert ("quick-batch",) not in typer_commands() and "quick-batch" in typer.main.get_command(build(None)).commands
    assert names == {"parse", "start", "next", "record", "summarize", "status", "import", "watch"}


@pytest.mark.parametrize("words", COMMANDS, ids=" ".join)
def test_every_command_shows_an_example_of_itself(words):
    """The README promises `batchlog COMMAND --help` shows an example: one naming the command itself."""
    shown = invoke(*words, "--help").out

    examples = [line.split("Example: ", 1)[1] for line in shown.splitlines() if "Example: " in line]
    assert examples and all(example.startswith(f"batchlog {' '.join(words)}") for example in examples), shown


@pytest.mark.parametrize("words", quick_batch_commands(), ids=" ".join)
def test_every_quick_batch_example_is_a_command_its_parser_takes(words):
    """Each example is one shell command (shlex splits it back) that parses as the subcommand it shows."""
    from batchlog.cli.quick_batch.main import _parser

    (example,) = [line.split("Example: ", 1)[1] for line in invoke(*words, "--help").out.splitlines()
                  if "Example: " in line]
    argv = shlex.split(example)

    assert shlex.join(argv) == example and argv[:2] == ["batchlog", "quick-batch"]
    assert _parser().parse_args(argv[2:]).cmd == words[1]


class TestNodeIsRequiredInCI:
    """With BATCHLOG_REQUIRE_SEEDS=1 (CI), a missing `node` fails the JavaScript checks instead of skipping them."""

    def test_a_missing_node_fails_when_required_and_skips_otherwise(self, monkeypatch, tmp_path):
        import pytest as _pytest

        from tests.seeds import require_node

        monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no node on it
        monkeypatch.setenv("BATCHLOG_REQUIRE_SEEDS", "1")
        with _pytest.raises(_pytest.fail.Exception, match="Node.js"):
            require_node()
        monkeypatch.delenv("BATCHLOG_REQUIRE_SEEDS")
        with _pytest.raises(_pytest.skip.Exception):
            require_node()


class TestTheFirstCommand:
    """The newcomer's command in README.md's first lines prints a heading before each of its outputs."""

    def first_command(self) -> str:
        return README.split("```sh\n", 1)[1].split("\n```", 1)[0]

    def test_every_batchlog_call_follows_a_heading(self):
        parts = self.first_command().split(" && ")
        calls = [index for index, part in enumerate(parts) if part.startswith(".venv/bin/batchlog ")]

        assert len(calls) == 4
        assert all(parts[index - 1].startswith("echo '=== ") for index in calls)

    def test_run_as_written_each_output_starts_under_its_heading(self, tmp_path):
        import shutil
        import subprocess
        import sys

        root = Path(__file__).resolve().parent.parent
        for name in ("tune-in-progress", "tune-finished", "datasets"):
            shutil.copytree(root / "fixtures" / name, tmp_path / "fixtures" / name)
        parts = self.first_command().split(" && ")[2:]  # after the venv and the install
        command = " && ".join(parts).replace(".venv/bin/batchlog", f"'{sys.executable}' -m batchlog.cli.main")

        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                              env={**__import__("os").environ, "PYTHONPATH": str(root)})

        assert done.returncode == 0, done.stderr
        lines = done.stdout.split("\n")
        headings = [index for index, line in enumerate(lines) if line.startswith("=== ")]
        assert len(headings) == 4 and headings[0] == 0
        assert all(lines[index + 1].strip() for index in headings)
        assert lines[headings[2] + 1] == "# Tuning support-desk-64"


class TestTheTestCommand:
    """The README's test command is the one script that sets up and runs the suite, and CI runs it too."""

    root = Path(__file__).resolve().parent.parent

    def test_the_readme_names_tests_run_as_its_test_command(self):
        blocks = README.split("```sh\n")

        assert blocks[2].split("\n```", 1)[0] == "tests/run"

    def test_ci_ends_by_running_the_readme_test_command(self):
        ci = (self.root / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()

        assert ci[-1] == "exec tests/run -n 2 -q"

    def test_the_script_starts_postgresql_runs_pytest_and_fails_when_no_test_ran(self):
        script = (self.root / "tests" / "run").read_text(encoding="utf-8")
        cluster = (self.root / "tests" / "with-postgres").read_text(encoding="utf-8")

        assert "trap stop EXIT" in cluster and "pg_ctl" in cluster and "initdb" in cluster
        assert "tests/with-postgres .venv/bin/python -m pytest" in script
        assert 'exit "$status"' in script and script.index("set -euo pipefail") < script.index("tests/with-postgres .venv/bin/python -m pytest")


class TestTheArchitecturePage:
    """docs/ARCHITECTURE.md is the repository's own design page: every path it names exists, and its picture of
    the folders shows every package and module of the product (a file added or moved without it fails here)."""

    ROOT = Path(__file__).resolve().parent.parent
    PAGE = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    DESCRIPTION_COLUMN = 20  # a picture line indented this far continues the description above it

    def tree(self) -> list[str]:
        """The folder picture: the fenced block that begins with batchlog/__init__.py."""
        blocks = self.PAGE.split("```")[1::2]
        (tree,) = [block for block in blocks if block.lstrip("\n").startswith("batchlog/__init__.py")]
        return tree.strip("\n").splitlines()

    def pictured(self) -> set[str]:
        """Every path the picture names: each entry's names (the column before two spaces) under the folders above
        it, and the modules its description names (`decide/  the decisions: loop.py (...)`), continuation lines
        (indented to the description's column) included."""
        import re

        found, folders, described = set(), [], ""
        for line in self.tree():
            indent = len(line) - len(line.lstrip(" "))
            if indent >= self.DESCRIPTION_COLUMN:  # the description of the entry above goes on
                description = line
            else:
                names, _, description = line.strip().partition("  ")
                folders = folders[:indent // 2]
                found |= {"/".join([*folders, name]).rstrip("/") for name in names.split()}
                if names.endswith("/"):
                    folders.append(names.rstrip("/"))
                described = "/".join(folders)
            found |= {"/".join(filter(None, [described, module]))
                      for module in re.findall(r"\b([a-z_]+\.py)\b", description)}
        return found

    def test_every_path_it_names_exists(self):
        import re

        quoted = set(re.findall(r"`((?:engine|projections|cli|tests|bench|fixtures|docs|batchlog)/[\w/.-]*)`",
                                self.PAGE))
        missing = sorted(path for path in self.pictured() | quoted if not (self.ROOT / path).exists())

        assert self.pictured() and quoted and missing == []

    def test_the_picture_shows_every_module_of_the_product(self):
        modules = {path.relative_to(self.ROOT).as_posix() for layer in ("engine", "projections", "cli")
                   for path in (self.ROOT / layer).rglob("*.py")}
        shown = {path for path in self.pictured() if path.endswith(".py")}
        unshown = sorted(path for path in modules - shown
                         if not (path.endswith("__init__.py") and path != "engine/__init__.py"))

        assert unshown == []

    def test_the_readme_and_the_code_cite_it_and_no_design_file_the_clone_lacks(self):
        import re

        cited = [path.relative_to(self.ROOT).as_posix()
                 for layer in ("engine", "projections", "cli", "bench", "tests", "fixtures", "batchlog")
                 for path in (self.ROOT / layer).rglob("*.py")
                 if re.search(r"(?<![\w/])(DESIGN|STYLE)\.md|\.\./shared/(DESIGN|STYLE)",
                              path.read_text(encoding="utf-8"))]
        cited += ["README.md"] * bool(re.search(r"(?<![\w/])(DESIGN|STYLE)\.md", README))

        assert "docs/ARCHITECTURE.md" in README and cited == []
