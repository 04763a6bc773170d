"""The fast lane (cli/lane.py) answers every `batchlog tune` command as the typer app does: the same exit code, stdout
and stderr, the same files and log written, on command lines generated from its own table, good and bad alike. Its
table is what the typer app declares (written again here, it is the committed one), each typer command runs a body
taking its very parameters, and no command the lane answers imports typer."""

from __future__ import annotations

import inspect
import io
import json
import os
import shutil
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
import typer
from hypothesis import example, given, settings
from hypothesis import strategies as st
from typing import Annotated

import batchlog.cli.app
from batchlog.cli.lane import Choice, File, Flag, Param, Text, Whole
from batchlog.cli.lane_writer import TABLES, NotLaned, command_of, table_path, table_source, walked
from batchlog.cli.main import main
from batchlog.cli.options import Checked, runs
from batchlog.cli.tune.lane_table import LANE
from tests.clirunner import Result, invoke

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
DATASET = FIXTURES / "datasets" / "support-desk-64.json"
CLOCK = "2026-12-02T16:00:00Z"


def typer_commands() -> dict[tuple[str, ...], object]:
    """Every command of the `tune` group as typer makes it, by path (a group that runs without a command too)."""
    import typer

    found = {}

    def walk(command, path):
        subcommands = getattr(command, "commands", None)
        if path and (subcommands is None or command.invoke_without_command):
            found[path] = command
        for name, sub in (subcommands or {}).items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(batchlog.cli.app.build("tune")).commands["tune"], ())
    return found


class TestTheTable:
    def test_the_committed_table_is_what_the_typer_app_declares(self):
        """Run `python -m batchlog.cli.lane_writer --write` after changing a command's declaration."""
        assert table_path("tune").read_text(encoding="utf-8") == table_source("tune")

    def test_the_lane_answers_every_command_of_the_tuning_but_the_watch(self):
        """The watch runs for as long as it is watched: its start-up is paid once (issue 26)."""
        lane, left = walked("tune")

        assert set(left) == {("watch",)}
        assert set(lane.commands) == set(typer_commands()) - {("watch",)}

    def test_each_typer_command_runs_a_body_taking_its_very_parameters(self):
        for path, command in typer_commands().items():
            if path == ("watch",):
                continue
            body = command.callback.body
            declared = [param.name for param in command.params]
            signature = inspect.signature(body).parameters

            assert list(signature) == declared, path
            defaults = {param.name: param.default for param in command.params}
            assert all(value.default == defaults[name] for name, value in signature.items()
                       if value.default is not inspect.Parameter.empty), path

    def test_the_tunings_front_is_its_lane(self):
        from batchlog.cli.loops import loop_named

        assert loop_named("tune").front == f"{TABLES['tune']}:LANE"

    def test_a_changed_declaration_makes_the_table_stale(self, monkeypatch):
        import batchlog.cli.tune.commands as commands

        monkeypatch.setattr(commands.app, "registered_commands", [
            info for info in commands.app.registered_commands if info.name != "usage"])

        assert "('usage',)" in table_path("tune").read_text(encoding="utf-8")
        assert "('usage',)" not in table_source("tune")


def _body(value: object = None) -> int:
    return 0


def _declared(kind: type, option: typer.models.OptionInfo) -> object:
    """The click command typer makes of a command whose one parameter, `value`, is declared so."""
    app = typer.Typer(add_completion=False)

    def declared(value=None):
        """A command."""

    declared.__annotations__ = {"value": Annotated[kind | None, option], "return": int}
    app.command()(runs(_body)(declared))
    return typer.main.get_command(app)


class TestWhatTheLaneLeavesToTyper:
    """A parameter the lane cannot read exactly as typer does leaves its command to typer, with the reason."""

    @pytest.mark.parametrize("kind, settings, why", [
        (str, {"envvar": "VALUE"}, "read from elsewhere"),
        (str, {"is_eager": True}, "read from elsewhere"),
        (str, {"callback": lambda value: value}, "not a check"),
        (Path, {"exists": True}, "a path with checks of its own"),
        (float, {}, "a type the lane does not read"),
    ])
    def test_a_parameter_it_cannot_read(self, kind, settings, why):
        command = _declared(kind, typer.Option("--value", **settings))

        with pytest.raises(NotLaned, match=why):
            command_of(command)

    def test_a_parameter_it_reads(self):
        command = _declared(int, typer.Option("--value", min=2, callback=Checked(int).callback))

        assert command_of(command).params == (Param("value", ("--value",), Whole(2), check=int),)

    def test_a_function_that_runs_no_body(self):
        app = typer.Typer(add_completion=False)

        @app.command()
        def plain() -> int:
            return 0

        with pytest.raises(NotLaned, match="runs no body"):
            command_of(typer.main.get_command(app))


# ─── every command on the lane, and no typer ─────────────────────────────────

# A command line each command of the lane answers, in an order that records on the tuning in progress of fixtures/
# (copied to ./finetune) what each next one needs; and the exit code it gives there.
EXAMPLES = [
    (["tune", "status", "-m", "4", "--json"], 0),
    (["tune", "next"], 0),
    (["tune", "next-batch", "-r", "1", "--seed", "2"], 0),
    (["tune", "difficult", "--json"], 0),
    (["tune", "difficult", "list", "--at", "30"], 0),
    (["tune", "readme", "--stdout"], 0),
    (["tune", "usage-report", "--file", "USAGE.md"], 0),
    (["tune", "run", "grade", "batch03-nomem-run1", "--verdict", "WRONG", "--wrong", "extraction-invoice-total",
      "--llm-calls", "40", "--tokens", "100000"], 0),
    (["tune", "usage", "batch03-nomem-run1", "--model", "gpt-5", "--calls", "40", "--input-tokens", "90000",
      "--output-tokens", "10000"], 0),
    (["tune", "change", "batch03-nomem-run1", "--file", "skills/a.md", "--summary", "named the file", "--lines", "3"],
     0),
    (["tune", "run", "regrade", "batch03-nomem-run1", "--verdict", "WRONG", "--reason", "missed one",
      "--wrong", "extraction-invoice-total", "--wrong", "billing-invoice-copy"], 0),
    (["tune", "difficult", "add", "extraction-invoice-total", "--reason", "wrong", "--run", "batch03-nomem-run1"], 0),
    (["tune", "run", "start", "--batch", "3", "--kind", "nomem"], 0),
    (["tune", "difficult", "fix", "billing-invoice-copy", "--run", "batch03-nomem-run2"], 0),
    (["tune", "memory", "keep", "--batch", "2", "--nodes", "41"], 0),
    (["tune", "next-batch", "-o", "finetune/runs/batch04-nomem-run1/cases.json"], 1),  # batch 3 is not done
    (["tune", "init", "--dataset", str(DATASET), "--dir", "new", "--limit", "20"], 0),
    (["tune", "import", "finetune"], 1),  # a batchlog tuning, not a zen-finetune folder with history
    (["tune", "audit", "--json"], 1),  # last: it verifies the log with every loop's event types
]


def _path(args: list[str]) -> tuple[str, ...]:
    """The command a command line of the tuning names: the longest run of words after `tune` the lane knows."""
    return max((path for path in LANE.commands if args[1:1 + len(path)] == list(path)), key=len)


def test_the_examples_hold_every_command_of_the_lane():
    assert {_path(args) for args, _ in EXAMPLES} == set(LANE.commands)


def test_no_command_the_lane_answers_imports_typer(tmp_path):
    """Every command of the lane, writes included, run in one process: typer and pydantic never imported, nor the
    other loop but by the audit (it verifies the log with every loop's types, as `log verify` does), each answered
    with its expected exit code."""
    shutil.copytree(FIXTURES / "tune-in-progress", tmp_path / "finetune")
    code = ("import json, sys\nfrom batchlog.cli.main import main\nfrom batchlog.cli.tune.lane_table import LANE\n"
            "for args, expected in json.loads(sys.argv[1]):\n"
            "    other = 'batchlog.projections.quick_batch.events' in sys.modules\n"
            "    assert not other, f'the other loop was imported before {args}'\n"
            "    assert LANE.parsed(args) is not None, args\n"
            "    assert main(args) == expected, args\n"
            "assert 'typer' not in sys.modules and 'pydantic' not in sys.modules, 'typer was imported'\n")
    done = subprocess.run([sys.executable, "-c", code, json.dumps(EXAMPLES)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "BATCHLOG_CLOCK": CLOCK})

    assert done.returncode == 0, done.stderr


def test_a_refusal_naming_a_number_past_64_bits_is_still_one_json_object():
    """Found by the differential test below: `--at` past the end of the log is refused naming it, and a seq past 64
    bits, which orjson cannot write, made that refusal a traceback with --json."""
    result = invoke("tune", "next", "--at", str(2**64), "--json", "--dir", FIXTURES / "tune-finished")

    assert result.code == 1 and result.out == ""
    assert json.loads(result.err)["at"] == 2**64


# ─── the same answers as typer, on generated command lines ──────────────────

# Values of each parameter, by its name: what the tuning in progress holds, placeholders, and values a check refuses.
RUNS = ["batch03-nomem-run1", "batch02-nomem-run1", "batch03-nomem-run2", "batch02-mem-run2", "RUN", "x"]
CASES = ["extraction-invoice-total", "billing-invoice-copy", "extraction-warranty-terms", "nope"]
TEXT = {
    "run": RUNS, "case": CASES, "wrong": CASES,
    "verdict": ["WRONG", "PASSED", "CORRECT", "VOID", "VERDICT", "passed", "meh"],
    "reasons": ["wrong", "flaky", "costly", "memory", "bogus"],
    "kind": ["nomem", "mem", "other"],
    "model": ["gpt-5", "MODEL", "m"],
    "calls": ["40", "0", "CALLS", "x", "12345678901234567890", "007"],
    "input_tokens": ["9000", "INPUT_TOKENS", "1.5"],
    "output_tokens": ["100", "OUTPUT_TOKENS", "0"],
    "nodes": ["41", "NODES", "4x"],
    "file": ["skills/a.md", "FILE", "PATH"],
    "summary": ["named the file", "SUMMARY"],
    "findings": ["findings.md", "missing.md"],
    "out": ["out/cases.json", "FILE", "finetune/runs/batch04-nomem-run1/cases.json", "a-file.txt/x.json"],
    "store_url": ["file", "memory:", "finetune", "postgresql://h/db?log=x", "x://y"],
    "log_name": ["x", "../up"],
    "note": ["a note", "é ✓"], "reason": ["missed one"],
}
PATHS = {
    "folder": ["finetune", "finished", "missing", "a-file.txt", "finetune/"],
    "dataset": ["dataset.json", "DATASET", "missing.json", "a-file.txt"],
    "source": ["finetune", "missing", "a-file.txt"],
    "file": ["OUT.md", "finetune/README.md", "missing/x.md"],
}
BAD = ["", "-x", "--json", "a\x1bb", "tab\there", "-1"]
NOISE = ["--bogus", "--help", "-h", "--", "extra", "-"]


def _whole_values(kind: Whole) -> st.SearchStrategy[str]:
    least = kind.least if kind.least is not None else 0
    largest = kind.largest if kind.largest is not None else 2**53
    inside = st.integers(least, min(largest, least + 50)).map(str)
    edges = st.sampled_from([str(least), str(largest), str(largest + 1), str(least - 1), f"0{least}", "+3", "1_0",
                             " 5", "x", str(2**64)])
    return st.one_of(inside, edges)


def _values(param: Param, clean: bool) -> st.SearchStrategy[str]:
    kind = param.kind
    if isinstance(kind, Whole):
        good = _whole_values(kind)
    elif isinstance(kind, File):
        good = st.sampled_from(PATHS[param.name])
    elif isinstance(kind, Choice):
        good = st.sampled_from([*kind.choices, *(choice.swapcase() for choice in kind.choices)])
    else:
        assert isinstance(kind, Text)
        good = st.sampled_from(TEXT[param.name])
    return good if clean else st.one_of(good, st.sampled_from(BAD))


@st.composite
def command_lines(draw, path: tuple[str, ...]) -> list[str]:
    """A command line of `path` built from its parameters in the lane's table: each given or not, in any order, a
    value as `--option value` or `--option=value`. One line in two is clean: every required parameter given, once,
    with a value of its own vocabulary (which may still be refused, as a placeholder is); the others may leave one
    out, give one twice, give a malformed value or a word that does not belong."""
    command = LANE.commands[path]
    clean = draw(st.booleans())
    pieces: list[list[str]] = []
    for param in command.params:
        if not draw(st.booleans()) and not (param.required and (clean or draw(st.integers(0, 9)))):
            continue
        for _ in range(draw(st.integers(1, 3)) if param.multiple else 1):
            if isinstance(param.kind, Flag):
                pieces.append([param.options[0] if clean else draw(st.sampled_from(
                    [param.options[0]] * 5 + [f"{param.options[0]}=1"]))])
                continue
            value = draw(_values(param, clean))
            if not param.options:
                pieces.append([value])
            elif param.options[0].startswith("--") and draw(st.booleans()):
                pieces.append([f"{param.options[0]}={value}"])
            else:
                pieces.append([param.options[0], value])
    if not clean and pieces and draw(st.booleans()):
        pieces.append(list(draw(st.sampled_from(pieces))))  # an option (or argument) given twice
    if not clean and draw(st.booleans()):
        pieces.append([draw(st.sampled_from(NOISE))])
    pieces = draw(st.permutations(pieces))
    return ["tune", *path, *(word for piece in pieces for word in piece)]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """What every command line runs in: the tuning in progress as ./finetune, a finished one, a dataset, a file."""
    root = tmp_path_factory.mktemp("pristine")
    shutil.copytree(FIXTURES / "tune-in-progress", root / "finetune")
    shutil.copytree(FIXTURES / "tune-finished", root / "finished")
    shutil.copy(DATASET, root / "dataset.json")
    (root / "a-file.txt").write_text("not a folder\n")
    (root / "findings.md").write_text("## WRONG\n")
    return root


@pytest.fixture(scope="module")
def built_once():
    """Build the typer app, and the click commands typer makes of it, once for the module (building them is most of
    an in-process call's time)."""
    import typer.main

    build, get_command, apps, commands = batchlog.cli.app.build, typer.main.get_command, {}, {}

    def built(first):
        if first not in apps:
            apps[first] = build(first)
        return apps[first]

    def command_of(app):
        if id(app) not in commands:
            commands[id(app)] = get_command(app)
        return commands[id(app)]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(batchlog.cli.app, "build", built)
        patch.setattr(typer.main, "get_command", command_of)
        yield


def _files(root: Path) -> dict[str, bytes]:
    """Every file under `root` with its bytes, the views' snapshot caches aside (they hold times and inodes)."""
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*"))
            if path.is_file() and not any(part.endswith(".snap") for part in path.relative_to(root).parts)}


def _ran(run, args: list[str], pristine: Path, work: Path) -> tuple[Result, dict[str, bytes]]:
    """`run(args)` in a fresh copy of `pristine` at `work` (the same path each time: outputs name it), with its
    output captured and every file it leaves."""
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(pristine, work, ignore=lambda folder, names: [  # the finished tuning only when it is named
        name for name in names if name == "finished" and not any("finished" in arg for arg in args)])
    out, err = io.StringIO(), io.StringIO()
    saved = os.getcwd()
    os.chdir(work)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = run(args)
    finally:
        os.chdir(saved)
    return Result(code, out.getvalue(), err.getvalue()), _files(work)


@pytest.mark.parametrize("path", sorted(LANE.commands), ids=" ".join)
def test_the_lane_answers_as_typer_does(path, pristine, built_once, tmp_path_factory, monkeypatch):
    monkeypatch.setenv("BATCHLOG_CLOCK", CLOCK)
    monkeypatch.delenv("BATCHLOG_STORE", raising=False)
    work = tmp_path_factory.mktemp("work") / "root"
    answered = []

    def lane_then_typer(args: list[str]) -> int:
        answered.append(LANE.parsed(args) is not None)  # here, in the folder the command runs in
        return main(args)

    @settings(max_examples=25)
    @given(command_lines(path))
    @example(next(args for args, _ in EXAMPLES if _path(args) == path))  # a line the lane answers
    def same_answer(args):
        lane, typer_ = _ran(lane_then_typer, args, pristine, work), _ran(batchlog.cli.app.run, args, pristine, work)

        assert lane == typer_, args

    same_answer()
    assert any(answered), "the lane answered none of the command lines"
