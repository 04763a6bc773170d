"""The fast path of `tune status`, `tune next` and the `tune next-batch` preview (cli/fast_views.py) answers
exactly as the typer app does: same exit code, stdout and stderr, for good and bad arguments alike."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

import batchlog.cli.app
from batchlog.cli.fast_views import parse
from tests.clirunner import Result, invoke

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"

# Options each view reads well (the fast path answers them) ...
COMMON = [[], ["--json"], ["--at", "5"], ["--at=12"], ["--at", "1", "--json"], ["--at", "100000"],
          ["--json", "--at", "30"]]
WELL_FORMED = {
    "status": COMMON + [["-m", "4"], ["-m", "1", "--at", "20"], ["--json", "-m", "7"]],
    "next": COMMON,
    "next-batch": COMMON + [["-m", "4"], ["-r", "0"], ["-r", "2", "--seed", "9"], ["--seed=0"],
                            ["-m", "20", "-r", "5", "--seed", "3", "--json"], ["--at", "16", "-m", "2"],
                            ["-m", "1", "-r", str(2**53 - 1)]],
}
# ... and what it leaves to typer: usage errors, help, numbers out of range, writes, anything unusual.
LEFT_TO_TYPER = [["--at", "0"], ["-m", "0"], ["--at", "-1"], ["--at", "x"], ["--at"], ["--bogus"], ["--help"],
                 ["--json", "--help"], ["-m", "99999999999999999999"], ["--at", "007"], ["--at", " 5"],
                 ["--json=1"], ["--json", "--json"], ["--at", "3", "--at", "4"], ["extra"], ["--", "--json"],
                 ["-m4"], ["-m=4"], ["--seed", "-1"], ["-r", str(2**53)], ["-m", "+4"], ["--at", "1_0"],
                 ["--dir"], ["--dir", ""], ["--AT", "5"], ["-M", "4"]]


def typer_path(args: list[str]) -> Result:
    """`batchlog ARGS` through the typer app, never the fast path."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = batchlog.cli.app.run(args)
    return Result(code, out.getvalue(), err.getvalue())


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    """Tunings in every shape a view meets: in progress, finished, missing, damaged, another loop's, a file."""
    root = tmp_path_factory.mktemp("tunings")
    shutil.copytree(FIXTURES / "tune-in-progress", root / "in-progress")
    shutil.copytree(FIXTURES / "tune-finished", root / "finished")
    damaged = root / "damaged"
    shutil.copytree(FIXTURES / "tune-in-progress", damaged)
    lines = (damaged / "events.jsonl").read_bytes().splitlines(keepends=True)
    lines[10] = lines[10].replace(b'"seq":11', b'"seq":12', 1)
    (damaged / "events.jsonl").write_bytes(b"".join(lines))
    foreign = root / "foreign"
    shutil.copytree(FIXTURES / "quick_batch" / next(p.name for p in (FIXTURES / "quick_batch").iterdir()
                                                     if (p / "events.jsonl").is_file()), foreign)
    (root / "a-file").write_text("not a folder\n")
    return {"in-progress": root / "in-progress", "finished": root / "finished", "missing": root / "nowhere",
            "damaged": damaged, "foreign": foreign, "a-file": root / "a-file"}


@pytest.fixture(scope="module")
def built_once():
    """Build the typer app once for the module (building it is most of an in-process call's time)."""
    build, apps = batchlog.cli.app.build, {}

    def built(first):
        if first not in apps:
            apps[first] = build(first)
        return apps[first]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(batchlog.cli.app, "build", built)
        yield


def both_paths(args: list[str]) -> tuple[Result, Result]:
    return invoke(*args), typer_path(args)


class TestSameAnswerAsTyper:
    @pytest.mark.parametrize("view", sorted(WELL_FORMED))
    @pytest.mark.parametrize("shape", ["in-progress", "finished", "missing", "damaged", "foreign", "a-file"])
    def test_well_formed_options_on_every_shape_of_tuning(self, view, shape, folders, built_once):
        for options in WELL_FORMED[view]:
            args = ["tune", view, *options, "--dir", str(folders[shape])]
            assert parse(args) is not None, args

            fast, slow = both_paths(args)

            assert fast == slow, args

    @pytest.mark.parametrize("view", sorted(WELL_FORMED))
    def test_options_the_fast_path_leaves_to_typer(self, view, folders, built_once):
        for options in LEFT_TO_TYPER:
            args = ["tune", view, "--dir", str(folders["in-progress"]), *options]
            assert parse(args) is None, args

            fast, slow = both_paths(args)

            assert fast == slow, args

    @pytest.mark.parametrize("options", [["--at", "0"], ["-m", "0"], ["--bogus"], ["--at", "x"], ["--at"]])
    def test_usage_errors_keep_typers_message_and_exit_2(self, options, folders, built_once):
        fast, slow = both_paths(["tune", "status", *options, "--dir", str(folders["in-progress"])])

        assert fast == slow and fast.code == 2 and fast.out == "" and "Usage: batchlog tune status" in fast.err

    def test_options_of_another_view_are_left_to_typer(self, folders, built_once):
        for args in (["tune", "next", "-m", "4"], ["tune", "status", "-r", "1"], ["tune", "status", "--seed", "1"],
                     ["tune", "next-batch", "-o", "out.json"], ["tune", "next-batch", "-o", "x", "--at", "3"]):
            args = [*args, "--dir", str(folders["in-progress"])]
            assert parse(args) is None, args

            if "-o" in args and "--at" not in args:
                continue  # would record a batch: what typer then does is tests/test_tune_cli.py's
            fast, slow = both_paths(args)
            assert fast == slow and fast.code == 2, args

    @pytest.mark.parametrize("folder", ["finetune", "finetune/", "./finetune", "finetune//", "elsewhere"])
    def test_a_relative_folder_reads_and_prints_the_same(self, folder, tmp_path, monkeypatch, built_once):
        shutil.copytree(FIXTURES / "tune-in-progress", tmp_path / "finetune")
        monkeypatch.chdir(tmp_path)
        for view in ("next", "status", "next-batch"):
            args = ["tune", view, "--dir", folder]
            assert parse(args) is not None

            fast, slow = both_paths(args)

            assert fast == slow, args

    def test_the_default_folder_is_finetune(self, tmp_path, monkeypatch, built_once):
        shutil.copytree(FIXTURES / "tune-in-progress", tmp_path / "finetune")
        monkeypatch.chdir(tmp_path)

        fast, slow = both_paths(["tune", "next"])

        assert fast == slow and fast.code == 0 and "batch03-nomem-run1" in fast.out  # the fixture, read from ./finetune


class TestErrorsAsTyperReportsThem:
    def test_a_log_that_is_a_folder_is_refused_in_one_line(self, tmp_path):
        (tmp_path / "events.jsonl").mkdir()

        result = invoke("tune", "next", "--dir", tmp_path)

        assert result.code == 1 and result.out == ""
        assert result.err.startswith(f"batchlog: {tmp_path / 'events.jsonl'} is a folder, not a log file")

    def test_json_errors_are_one_object_on_stderr(self, folders):
        result = invoke("tune", "status", "--json", "--dir", folders["foreign"])

        assert result.code == 1 and result.out == "" and result.err.startswith('{"error":"wrong_log",')

    def test_nothing_left_is_refused_with_exit_1(self, folders):
        result = invoke("tune", "next-batch", "--dir", folders["finished"])

        assert result.code == 1 and result.out == ""


class TestParse:
    def test_reads_every_option_of_the_view(self):
        assert parse(["tune", "next-batch", "--dir=d", "-m", "3", "-r", "0", "--seed", "7", "--at", "9",
                      "--json"]) == ("next-batch", {"--dir": Path("d"), "-m": 3, "-r": 0, "--seed": 7, "--at": 9,
                                                    "--json": True})

    def test_takes_only_the_three_views(self):
        for args in (["tune", "init"], ["tune", "difficult"], ["tune"], ["log", "show"], ["tune", "Status"], []):
            assert parse(args) is None


def test_the_fast_path_never_imports_typer_nor_the_other_loop(tmp_path):
    shutil.copytree(FIXTURES / "tune-in-progress", tmp_path / "finetune")
    code = ("import sys\nfrom batchlog.cli.main import main\n"
            "for view in ('status', 'next', 'next-batch'):\n"
            "    assert main(['tune', view, '--dir', sys.argv[1]]) == 0\n"
            "assert 'typer' not in sys.modules and 'pydantic' not in sys.modules, 'typer was imported'\n"
            "assert 'batchlog.projections.quick_batch.events' not in sys.modules, 'the other loop was imported'\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "finetune")], cwd=REPO, capture_output=True,
                          text=True, timeout=60)

    assert done.returncode == 0, done.stderr


class TestOptionsAgreeWithTyper:
    """The fast path's table of options (cli/fast_views.py VIEWS) is read off the typer commands' own parameters,
    so an option added, renamed or given another range in cli/tune/commands.py fails here instead of drifting from --help."""

    # Options of a view the fast path leaves to typer on purpose: -o records a batch.
    LEFT_TO_TYPER_BY_NAME = {"next-batch": {"-o"}}

    @staticmethod
    def typer_params(view: str) -> list:
        """`tune VIEW`'s options as the typer app declares them (typer 0.29 keeps the annotation and the declared
        callback: a whole number's bounds are its `Within`, cli/options.py)."""
        import typer

        command = typer.main.get_command(batchlog.cli.app.build("tune")).commands["tune"].commands[view]
        return [param for param in command.params if param.name != "help"]

    @classmethod
    def typer_options(cls, view: str) -> dict[str, object]:
        """`tune VIEW`'s options as the fast path spells them: None a flag, "path" a folder, "text" a word, else
        (min, max)."""
        table: dict[str, object] = {}
        for param in cls.typer_params(view):
            (name,) = param.opts
            kind = param.type_descriptor.annotation
            if param.is_flag:
                table[name] = None
            elif kind is Path:
                table[name] = "path"
            elif kind is int:
                bounds = param.type_descriptor.parameter_info.callback.__self__
                table[name] = (bounds.least, bounds.largest)
            elif kind is str:
                table[name] = "text"
            else:
                table[name] = f"{kind!r} (not a kind the fast path reads)"
        return table

    @pytest.mark.parametrize("view", ["status", "next", "next-batch"])
    def test_every_option_of_the_view_has_typers_name_and_range(self, view):
        from batchlog.cli.fast_views import VIEWS

        expected = {name: kind for name, kind in self.typer_options(view).items()
                    if name not in self.LEFT_TO_TYPER_BY_NAME.get(view, set())}

        assert VIEWS[view] == expected

    def test_the_fast_path_takes_exactly_the_views_whose_options_it_knows(self):
        """A view is on the fast path only when every option it has but -o is in its table."""
        from batchlog.cli.fast_views import VIEWS

        assert set(VIEWS) == {"status", "next", "next-batch"}
        for view in VIEWS:
            assert set(self.typer_options(view)) - set(VIEWS[view]) == self.LEFT_TO_TYPER_BY_NAME.get(view, set())

    @pytest.mark.parametrize("view", ["status", "next", "next-batch"])
    def test_an_absent_option_means_typers_default(self, view):
        """The fast path reads an absent option as None (False for --json, DEFAULT_DIR for --dir), as typer does."""
        from batchlog.cli.tune.log import DEFAULT_DIR

        defaults = {param.opts[0]: param.default for param in self.typer_params(view)}

        assert defaults.pop("--dir") == DEFAULT_DIR and defaults.pop("--json") is False
        assert set(defaults.values()) == {None}
