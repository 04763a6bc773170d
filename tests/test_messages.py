"""What batchlog says (issue 24 item 9, issue 23 item 17): refusal hints that run as pasted where the tuning is,
choices in any case, contradictory settings refused, paths as typed, no word of batch.mjs, arguments that are not
UTF-8 named, a four-digit year, and a README free of entities, of "1 lines", with the map counting as the text
does and charts that start at 0 and say which series is which."""

from __future__ import annotations

import ast
import json
import re
import shlex
from pathlib import Path

import pytest
import typer

from batchlog.cli.app import build
from tests.clirunner import invoke

CLOCK = {"BATCHLOG_CLOCK": "2026-12-02T16:00:00Z"}
ROOT = Path(__file__).resolve().parent.parent


def tune(folder: Path, *args: str, env: dict[str, str] | None = None):
    return invoke("tune", *args, "--dir", folder, env={**CLOCK, **(env or {})}, cwd=folder.parent)


def ok(folder: Path, *args: str):
    result = tune(folder, *args)
    assert result.code == 0, (args, result.err)
    return result


def write_dataset(path: Path, ids=("a", "b", "c"), **extra) -> Path:
    path.write_text(json.dumps({"cases": [{"id": case} for case in ids], **extra}))
    return path


@pytest.fixture
def started(tmp_path) -> Path:
    """A tuning in a folder of another name than `finetune` (so its commands need --dir), batch 1 built."""
    folder = tmp_path / "my tuning"
    ok(folder, "init", "--dataset", str(write_dataset(tmp_path / "dataset.json")))
    ok(folder, "next-batch", "-o", str(folder / "runs/batch01-nomem-run1/cases.json"))
    return folder


def hints(text: str) -> list[str]:
    """The commands a message prints between backticks."""
    return re.findall(r"`(batchlog [^`]*)`", text)


def parses(argv: list[str]) -> None:
    """`argv` (batchlog's words), its placeholders filled in, is a command line batchlog's parser takes (a usage
    error raises)."""
    from batchlog.projections.tune.views.status import PLACEHOLDERS

    def filled(word: str) -> str:
        meaning = PLACEHOLDERS.get(word)
        if meaning is None:
            return word
        return str(meaning["one_of"][0]) if "one_of" in meaning else "1" if "whole number" in str(meaning["what"]) else "x"

    command, rest = typer.main.get_command(build(None)), [filled(word) for word in argv[1:]]
    while rest and rest[0] in getattr(command, "commands", {}):
        command = command.commands[rest.pop(0)]
    command.make_context("batchlog", rest)


class TestRefusalHints:
    """Every command a refusal prints carries the --dir (and --store, --log) the refused command was given, so that
    pasted it reaches the same tuning; each word is quoted for the shell."""

    @pytest.mark.parametrize("args", [
        ("run", "start", "--batch", "2", "--kind", "nomem"),  # batch 2 does not exist: build it
        ("next-batch", "-o", "x/cases.json", "-m", "2"),  # the run is waiting to be graded: grade it
        ("run", "start", "--batch", "1", "--kind", "mem"),  # the no-memory half has not passed: run it
        ("run", "start", "--final"),  # unused cases: build the next batch
        ("run", "regrade", "batch01-nomem-run1", "--verdict", "PASSED", "--reason", "r"),  # not graded: grade it
        ("difficult", "fix", "a", "--run", "batch01-nomem-run1"),  # not listed: `tune difficult` lists it
    ])
    def test_a_refusal_names_commands_that_reach_the_same_tuning(self, started, args):
        result = tune(started, *args)
        as_json = tune(started, *args, "--json")

        printed = hints(result.err)
        assert result.code == 1 and printed, result.err
        for command in printed:
            argv = shlex.split(command)
            assert shlex.join(argv) == command and argv[argv.index("--dir") + 1] == str(started)
            parses(argv)
        assert json.loads(as_json.err)["commands"] == printed

    def test_no_tuning_yet_names_init_with_the_folder(self, tmp_path):
        result = tune(tmp_path / "elsewhere", "status")

        assert result.code == 1
        assert hints(result.err) == [f"batchlog tune init --dataset DATASET --dir {tmp_path / 'elsewhere'}"]

    def test_the_fast_path_places_its_hints_too(self, tmp_path):
        """`tune status` is answered without typer (cli/lane.py): its refusal is placed all the same."""
        result = invoke("tune", "status", "--dir", "other place", cwd=tmp_path)

        assert hints(result.err) == ["batchlog tune init --dataset DATASET --dir 'other place'"]

    def test_a_finished_tuning_names_the_audit_with_the_folder(self, started):
        for args in (("run", "grade", "batch01-nomem-run1", "--verdict", "PASSED"),
                     ("run", "start", "--batch", "1", "--kind", "mem"),
                     ("run", "grade", "batch01-mem-run1", "--verdict", "PASSED"),
                     ("memory", "keep", "--batch", "1", "--nodes", "3"), ("run", "start", "--final"),
                     ("run", "grade", "final-run1", "--verdict", "PASSED")):
            ok(started, *args)

        result = tune(started, "next-batch", "-o", "x.json")

        assert hints(result.err) == [f"batchlog tune audit --dir {shlex.quote(str(started))}"]

    def test_a_store_and_a_log_given_are_carried_without_the_password(self, tmp_path, postgres_url, log_name):
        from urllib.parse import urlsplit

        from batchlog.engine.server_url import shown_address

        result = invoke("tune", "status", "--store", postgres_url, "--log", log_name, cwd=tmp_path)

        (command,) = hints(result.err)
        argv = shlex.split(command)
        assert argv[argv.index("--store") + 1] == shown_address(postgres_url)
        assert argv[argv.index("--log") + 1] == log_name
        password = urlsplit(postgres_url).password
        assert not password or password not in result.err

    def test_a_quick_batch_hint_carries_the_store_and_the_log(self, tmp_path, postgres_url, log_name):
        """A run folder holding the seed's batch.jsonl: the import it names reaches the log the refused command
        was given."""
        from batchlog.engine.server_url import shown_address

        run_dir = tmp_path / "runs" / "my run"
        run_dir.mkdir(parents=True)
        (run_dir / "batch.jsonl").write_text("")

        on_file = invoke("quick-batch", "next", "--run-dir", "runs/my run", cwd=tmp_path)
        on_server = invoke("quick-batch", "next", "--run-dir", "runs/my run", "--store", postgres_url, "--log",
                           log_name, cwd=tmp_path)

        assert hints(json.loads(on_file.err)["message"]) == ["batchlog quick-batch import --run-dir 'runs/my run'"]
        assert hints(json.loads(on_server.err)["message"]) == [shlex.join(
            ["batchlog", "quick-batch", "import", "--run-dir", "runs/my run", "--store", shown_address(postgres_url),
             "--log", log_name])]

    def test_the_tunings_commands_are_built_in_one_place(self):
        """No module of the tuning but projections/tune/printed.py writes a command with its arguments: a command
        named in prose is its name alone (`batchlog tune audit`)."""
        found = []
        for path in sorted((ROOT / "projections" / "tune").rglob("*.py")):
            if path.name == "printed.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.JoinedStr):
                    text = "".join(part.value for part in node.values if isinstance(part, ast.Constant))
                    if "`batchlog " in text and not re.search(r"`batchlog [a-z-]+ [a-z-]+`", text):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
                elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                    for command in re.findall(r"`batchlog [^`]*`", node.value):
                        if not re.fullmatch(r"`batchlog [a-z-]+ [a-z-]+`", command):
                            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {command}")

        assert found == []


class TestChoicesAndSettings:
    def test_a_verdict_is_taken_in_any_case(self, started):
        graded = tune(started, "run", "grade", "batch01-nomem-run1", "--verdict", "wrong", "--wrong", "a")
        regraded = tune(started, "run", "regrade", "batch01-nomem-run1", "--verdict", "Passed", "--reason", "misread")

        assert graded.out == "batch01-nomem-run1 graded WRONG (1 wrong: a)\n"
        assert regraded.code == 0 and regraded.out.startswith("batch01-nomem-run1 regraded PASSED")

    def test_the_placeholder_is_still_refused(self, started):
        result = tune(started, "run", "grade", "batch01-nomem-run1", "--verdict", "VERDICT")

        assert result.code == 2 and "VERDICT is a placeholder" in result.err

    def test_a_max_batch_below_the_min_batch_is_refused_naming_both(self, tmp_path):
        folder = tmp_path / "t"

        result = tune(folder, "init", "--dataset", str(write_dataset(tmp_path / "d.json")), "--min-batch", "5",
                      "--max-batch", "2")

        assert result.code == 1 and "--max-batch 2 is less than --min-batch 5" in result.err
        assert not (folder / "events.jsonl").exists()

    def test_a_dataset_is_named_as_it_was_typed(self, tmp_path):
        empty = tmp_path / "empty.json"
        empty.write_text('{"cases": []}')

        result = invoke("tune", "init", "--dataset", str(empty), "--dir", "a/b/t", cwd=tmp_path)

        assert result.code == 1 and f"batchlog: {empty} holds no cases" in result.err and "../" not in result.err

    def test_a_change_of_one_line_says_line(self, started):
        ok(started, "run", "grade", "batch01-nomem-run1", "--verdict", "PASSED")

        result = tune(started, "change", "batch01-nomem-run1", "--file", "p.md", "--summary", "s", "--lines", "1")

        assert result.out == "batch01-nomem-run1: p.md (1 line): s\n"


class TestNoWordOfTheSeed:
    """A batchlog user has no batch.mjs, next.mjs or difficult.json: nothing batchlog prints names them (but `tune
    import`, which reads a zen-finetune folder)."""

    SEED_WORDS = re.compile(r"batch\.mjs|next\.mjs|difficult\.json")

    def test_a_tunings_commands_never_name_the_seed_or_its_files(self, tmp_path):
        folder = tmp_path / "t"
        said = []
        for args in (("init", "--dataset", str(write_dataset(tmp_path / "d.json"))), ("status",), ("next",),
                     ("next-batch",), ("next-batch", "-o", str(tmp_path / "elsewhere/cases.json")),
                     ("run", "grade", "batch01-nomem-run1", "--verdict", "WRONG", "--wrong", "a"),
                     ("difficult", "add", "a", "--reason", "wrong", "--run", "batch01-nomem-run1"),
                     ("difficult",), ("next",), ("readme", "--stdout"), ("audit",)):
            result = tune(folder, *args)
            said.append(result.out + result.err)

        assert not [text for text in said if self.SEED_WORDS.search(text)]

    def test_no_help_but_imports_names_the_seed_or_its_files(self):
        from tests.test_docs import COMMANDS

        named = [words for words in COMMANDS if words != ("tune", "import") and words[0] != "quick-batch"
                 and self.SEED_WORDS.search(invoke(*words, "--help").out)]

        assert named == []


class TestArgumentsThatAreNotUtf8:
    def test_a_value_that_is_not_utf8_is_refused_naming_its_option(self, started):
        before = (started / "events.jsonl").read_bytes()
        note = b"bad \xff".decode("utf-8", "surrogateescape")  # what Python makes of such a byte in argv

        result = tune(started, "run", "grade", "batch01-nomem-run1", "--verdict", "PASSED", "--note", note)

        assert result.code == 2 and result.err == (
            "batchlog: the value of --note is not valid UTF-8 (byte 0xff at position 5): batchlog takes arguments "
            "in UTF-8 only\n")
        assert (started / "events.jsonl").read_bytes() == before

    def test_an_attached_value_and_an_argument_are_named_too(self, tmp_path):
        bad = b"x\xfe".decode("utf-8", "surrogateescape")

        attached = invoke("tune", "status", f"--dir={bad}", cwd=tmp_path)
        argument = invoke("log", "show", bad, cwd=tmp_path)

        assert attached.code == 2 and "the value of --dir is not valid UTF-8 (byte 0xfe" in attached.err
        assert argument.code == 2 and "argument 3 is not valid UTF-8" in argument.err


class TestTheClock:
    def test_year_one_is_written_with_four_digits(self, monkeypatch):
        from batchlog.engine import clock

        monkeypatch.setenv("BATCHLOG_CLOCK", "0001-01-01T00:00:00Z")

        assert clock.now() == "0001-01-01T00:00:00.000Z"

    @pytest.mark.parametrize("pinned", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:30:00-01:00"])
    def test_a_time_whose_utc_leaves_years_1_to_9999_is_refused(self, monkeypatch, pinned):
        from batchlog.engine import clock
        from batchlog.engine.errors import ClockError

        monkeypatch.setenv("BATCHLOG_CLOCK", pinned)

        with pytest.raises(ClockError, match="from year 1 to 9999"):
            clock.now()

    def test_a_log_pinned_at_year_one_verifies(self, tmp_path):
        folder = tmp_path / "t"
        invoke("tune", "init", "--dataset", str(write_dataset(tmp_path / "d.json")), "--dir", folder,
               env={"BATCHLOG_CLOCK": "0001-01-01T00:00:00Z"})

        verified = invoke("log", "verify", folder / "events.jsonl", "--json")

        assert verified.code == 0 and json.loads(verified.out)["first_at"] == "0001-01-01T00:00:00.000Z"


class TestTheReadmesText:
    @pytest.fixture
    def readme(self, tmp_path) -> str:
        """A tuning whose batch 1 passed (a VOID run, then a pass, without memory), a change of one line, and the
        next batch's size grown: "3 -> 6" is in its text."""
        folder = tmp_path / "t"
        ok(folder, "init", "--dataset", str(write_dataset(tmp_path / "d.json", ids=[f"c{n}" for n in range(12)])))
        for args in (("next-batch", "-o", str(folder / "runs/batch01-nomem-run1/cases.json")),
                     ("run", "grade", "batch01-nomem-run1", "--verdict", "VOID"),
                     ("run", "start", "--batch", "1", "--kind", "nomem"),
                     ("run", "grade", "batch01-nomem-run2", "--verdict", "PASSED", "--llm-calls", "40", "--tokens",
                      "130000"),
                     ("change", "batch01-nomem-run2", "--file", "p.md", "--summary", "s <b> & c", "--lines", "1"),
                     ("run", "start", "--batch", "1", "--kind", "mem"),
                     ("run", "grade", "batch01-mem-run1", "--verdict", "PASSED", "--llm-calls", "20", "--tokens",
                      "450000"),
                     ("memory", "keep", "--batch", "1", "--nodes", "1")):
            ok(folder, *args)
        return ok(folder, "readme", "--stdout").out

    def test_no_html_entity_and_the_arrow_as_written(self, readme):
        assert re.findall(r"&#?\w+;", readme) == [] and "3 -> 6" in readme

    def test_one_of_a_thing_is_singular(self, readme):
        assert re.findall(r"\b1 (?:lines|runs|cases|nodes|batches|changes|calls)\b", readme) == []
        assert "(+1 line)" in readme and "1 node" in readme

    def test_the_map_counts_runs_as_the_text_does(self, readme):
        """The next size's why counts 1 no-memory run (a VOID run does not count); the map and the batches table
        say the same, and name the VOID run apart."""
        assert "(1 no-memory + 1 with-memory runs" in readme
        assert "no memory<br/>✔ 1 run + 1 VOID" in readme and "| 1 / 1 (+1 VOID) |" in readme

    def test_the_charts_start_at_0_and_say_which_series_is_which(self, readme):
        charts = re.findall(r"```mermaid\nxychart-beta\n(.*?)```", readme, re.S)

        assert [re.search(r'y-axis "[^"]*" (.*)', chart)[1] for chart in charts] == ["0 --> 450000", "0 --> 40"]
        assert all('(bars: without memory, line: with memory)"' in chart.splitlines()[0] for chart in charts)


def test_the_readme_says_where_the_snapshot_key_is_kept():
    """engine/snapshots/key.py keeps the key in the user's cache folder; the README says where, and how to set it."""
    from batchlog.engine.snapshots.key import KEY_FILE_NAME, SNAPSHOT_KEY_ENV

    readme = (ROOT / "README.md").read_text(encoding="utf-8")

    assert f"$XDG_CACHE_HOME/batchlog/{KEY_FILE_NAME}" in readme and f"~/.cache/batchlog/{KEY_FILE_NAME}" in readme
    assert SNAPSHOT_KEY_ENV in readme
