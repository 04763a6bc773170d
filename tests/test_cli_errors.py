"""The CLI's one error boundary (cli/errors.py): every front end maps the layers' errors to the same exit codes,
only the message's shape differs; the exit codes and the log's file name are each defined once."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import orjson
import pytest

from batchlog.cli import errors
from batchlog.engine.errors import BadSetting, EngineError, LockTimeout, LogDamaged, NotALog
from batchlog.projections.errors import BadInput, Refused, WrongLog
from tests.clirunner import invoke

ROOT = Path(__file__).resolve().parent.parent
CLI = sorted((ROOT / "cli").glob("*.py"))

# Each named error and the exit code the README documents for it.
NAMED = [
    (Refused("run r1 is already graded", run="r1"), 1),
    (BadInput("the dataset cannot be read", path="d.json"), 1),
    (WrongLog("a quick batch's log"), 1),
    (NotALog("x is a folder, not a log file", path="x"), 1),
    (LockTimeout("the log is locked", path="x"), 1),
    (BadSetting("BATCHLOG_LOCK_TIMEOUT must be a finite number"), 2),
    (LogDamaged("line 3 is damaged", line=3), 3),
]


def assignments(name: str) -> list[str]:
    """The cli/ modules that assign `name` at their top level."""
    found = []
    for path in CLI:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
            names = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            if name in names:
                found.append(path.name)
    return found


def raising(error: BaseException):
    def command() -> int:
        raise error

    return command


class TestDefinedOnce:
    @pytest.mark.parametrize("name", ["EXIT_OK", "EXIT_REFUSED", "EXIT_USAGE", "EXIT_UNTRUSTED"])
    def test_each_exit_code_is_defined_in_the_boundary_only(self, name):
        assert assignments(name) == ["errors.py"]

    def test_the_logs_file_name_is_defined_once(self):
        assert assignments("LOG_NAME") == ["folders.py"]

    def test_only_the_boundary_catches_the_layers_errors_and_bugs(self):
        """No other cli/ module catches an engine error, a broken pipe, or reads BATCHLOG_DEBUG."""
        catching = set()
        for path in CLI:
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                caught = {n.id if isinstance(n, ast.Name) else getattr(n, "attr", "")
                          for n in ast.walk(node.type)} if isinstance(node, ast.ExceptHandler) and node.type else set()
                if caught & {"EngineError", "LogError", "BrokenPipeError"}:
                    catching.add(path.name)
                if isinstance(node, ast.Constant) and node.value in ("BATCHLOG_DEBUG", "unexpected error"):
                    catching.add(path.name)

        assert catching == {"errors.py"}


class TestExitCodes:
    @pytest.mark.parametrize(("error", "code"), NAMED, ids=lambda v: type(v).__name__ if isinstance(v, Exception) else "")
    def test_every_front_end_gives_a_named_error_its_documented_code(self, error, code, capsys):
        seen = [errors.reported(raising(error), False), errors.reported(raising(error), True),
                errors.seed_reported(raising(error))]

        assert seen == [code, code, code]
        assert errors.exit_code(error) == code
        assert isinstance(error, (EngineError, Refused))

    def test_an_unexpected_error_is_one_line_and_exit_1_for_users(self, monkeypatch, capsys):
        monkeypatch.setenv("BATCHLOG_DEBUG", "")

        codes = [errors.reported(raising(KeyError("x")), False), errors.reported(raising(KeyError("x")), True),
                 errors.seed_reported(raising(KeyError("x")))]

        plain, as_json, seed = capsys.readouterr().err.splitlines()
        assert codes == [1, 1, 1]
        assert plain == "batchlog: unexpected error: KeyError: 'x'"
        assert orjson.loads(as_json) == {"error": "internal_error", "message": "unexpected error: KeyError: 'x'",
                                         "exit_code": 1}
        assert json.loads(seed) == {"status": "error", "message": "unexpected error: KeyError: 'x'"}

    def test_an_unexpected_error_raises_in_tests(self, monkeypatch):
        monkeypatch.setenv("BATCHLOG_DEBUG", "1")

        with pytest.raises(KeyError):
            errors.seed_reported(raising(KeyError("x")))

    def test_a_closed_pipe_is_exit_1_and_says_nothing(self, capsys):
        codes = [errors.reported(raising(BrokenPipeError()), True), errors.seed_reported(raising(BrokenPipeError()))]

        assert codes == [1, 1] and capsys.readouterr() == ("", "")


class TestMessages:
    def test_batchlogs_message_names_the_error_and_its_fields_with_json(self, capsys):
        errors.reported(raising(Refused("run r1 is already graded", run="r1", exit_code=9)), True)

        assert orjson.loads(capsys.readouterr().err) == {"error": "refused", "message": "run r1 is already graded",
                                                          "exit_code": 1, "run": "r1"}

    def test_the_seeds_message_carries_the_halt_reason_in_the_seeds_format(self, capsys):
        errors.seed_reported(raising(BadInput("halt.json holds no JSON object", halt_reason="payload-invalid")))

        assert capsys.readouterr().err == \
            '{"status": "error", "message": "halt.json holds no JSON object", "halt_reason": "payload-invalid"}\n'

    def test_the_same_damaged_log_is_exit_3_through_every_front_end(self, tmp_path):
        """The typer app, its fast path and quick-batch all answer a damaged log with 3."""
        (tmp_path / "events.jsonl").write_bytes(b"\xef\xbb\xbf{}\n{}\n")

        codes = {invoke("tune", "next", "--dir", tmp_path).code, invoke("tune", "audit", "--dir", tmp_path).code,
                 invoke("quick-batch", "status", "--run-dir", tmp_path).code,
                 invoke("tune", "status", "--json", "--dir", tmp_path).code,
                 invoke("tune", "readme", "--stdout", "--dir", tmp_path).code}

        assert codes == {3}


class TestTheAppBuiltAgain:
    """A process that runs the CLI more than once (an agent's host, this suite) gets the same app each time:
    the report commands added to the `tune` group by an extension are there once, however often it is built."""

    def test_every_command_is_listed_once_after_many_builds(self):
        from batchlog.cli.app import build

        first = command_names(build("tune"))
        for _ in range(5):
            assert invoke("tune", "status", "--help").code == 0
            build("tune")
            build(None)

        again = command_names(build("tune"))
        assert again == first and len(again) == len(set(again))
        assert {"readme", "usage-report", "audit"} <= set(again)


def command_names(app) -> list[str]:
    """The `tune` group's commands as typer holds them (a command added twice is listed twice)."""
    (group,) = [info.typer_instance for info in app.registered_groups if info.name == "tune"]
    return [info.name for info in group.registered_commands]


def test_a_group_app_made_anew_gets_the_report_commands_too(monkeypatch):
    """Registering is remembered per group app: a `tune` app made anew (a module reloaded) is given them again."""
    import typer

    import batchlog.cli.tune.commands
    from batchlog.cli.app import build

    build("tune")
    monkeypatch.setattr(batchlog.cli.tune.commands, "app", typer.Typer())
    names = command_names(build("tune"))
    assert {"readme", "usage-report", "audit"} <= set(names) and len(names) == len(set(names))
