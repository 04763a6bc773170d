"""`--store URL`, `--log NAME` and BATCHLOG_STORE (cli/store.py): checked before anything is written, turned into
the log's address, the file store's answers unchanged however it is chosen, and both loops the same on a PostgreSQL
server (BATCHLOG_TEST_POSTGRES) as on the file. (`memory:` is no store of the CLI's: tests/test_printed_commands.py
refuses it on every command.)"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from pathlib import Path

import pytest
import typer

from batchlog.cli import store as stores
from batchlog.engine.errors import BadSetting
from tests.clirunner import invoke

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
DATASET = FIXTURES / "datasets" / "support-desk-64.json"
CLOCK = {"BATCHLOG_CLOCK": "2026-12-02T16:00:00Z"}
SERVER = "postgresql://agent:s3cret@db.example:5432/tunings"


def files(root: Path) -> dict[str, object]:
    """Every file (its bytes, `root` in them written `<root>`) and folder under `root`, the log's own aside; an
    archived log as its events without `id` and `prev` (they hash the batch file's path, which holds `root`)."""
    found: dict[str, object] = {}
    for path in sorted(root.rglob("*")):
        if path.name.startswith("events.jsonl"):
            continue
        data = None if path.is_dir() else path.read_bytes().replace(str(root).encode(), b"<root>")
        if path.name.endswith(".events.jsonl"):
            data = [{key: value for key, value in json.loads(line).items() if key not in ("id", "prev")}
                    for line in data.splitlines()]
        found[path.relative_to(root).as_posix()] = data
    return found


class TestCheckStore:
    @pytest.mark.parametrize("value", ["file", "postgresql://h/db", "postgres://h/db", "POSTGRESQL://h/db",
                                       "postgresql://u@h:5432/db", "postgresql://u:p@h/db?sslmode=require",
                                       "postgresql:///db"])
    def test_a_store_is_taken_as_given(self, value):
        assert stores.check_store(value) == value

    @pytest.mark.parametrize("value, says", [
        ("", "is not a store"),
        ("finetune", "a folder goes to --dir or --run-dir"),
        ("mysql://h/db", "is not a store"),
        ("postgresql://h", "names no database"),
        ("postgresql://h/", "names no database"),
        ("postgresql://h/db/x", "names no database"),
        ("postgresql://h:port/db", "cannot be read"),
        ("postgresql://h:99999/db", "cannot be read"),
        ("postgresql://h/db?log=x", "name the log with --log NAME"),
        ("postgresql://h/db#x", "no #fragment"),
        ("memory:", "a memory log is gone when the command exits"),
        ("memory:t1", "a memory log is gone when the command exits"),
        ("postgresql://agent:pa/ss@h/db", "must have it percent-encoded"),
    ])
    def test_anything_else_is_refused_naming_the_fix(self, value, says):
        with pytest.raises(ValueError, match="give file or postgresql://") as refused:
            stores.check_store(value)

        assert says in str(refused.value)

    def test_a_refusal_never_shows_the_password(self):
        with pytest.raises(ValueError) as refused:
            stores.check_store("postgresql://agent:s3cret@db.example/")

        assert "s3cret" not in str(refused.value) and "agent@db.example" in str(refused.value)


class TestCheckLogName:
    @pytest.mark.parametrize("value", ["finetune", "a", "run-2.b_c", "9lives", "_x", "x" * 200])
    def test_a_plain_name_is_a_log_name(self, value):
        assert stores.check_log_name(value) == value

    @pytest.mark.parametrize("value", ["", "a/b", "../x", "/abs", "-x", ".hidden", "a b", "x" * 201, "é", "a\n"])
    def test_a_path_or_anything_else_is_refused(self, value):
        with pytest.raises(ValueError, match="not a log name: a log on a server is named by a plain name"):
            stores.check_log_name(value)


class TestLogAddress:
    @pytest.mark.parametrize("store, name, folder, address", [
        (None, None, "finetune", "finetune/events.jsonl"),
        ("file", None, "a/b", "a/b/events.jsonl"),
        ("memory:", None, "runs/skf-x", "memory:skf-x"),
        ("memory:", "mine", "runs/skf-x", "memory:mine"),
        ("postgresql://h/db", None, "work/finetune", "postgresql://h/db?log=finetune"),
        ("postgresql://h/db?sslmode=require", "t1", "finetune", "postgresql://h/db?sslmode=require&log=t1"),
    ])
    def test_the_address_of_each_store(self, store, name, folder, address):
        assert stores.log_address(store, name, Path(folder)) == address

    def test_the_default_name_is_the_folders_own_even_when_given_as_dot(self, tmp_path, monkeypatch):
        (tmp_path / "my-tuning").mkdir()
        monkeypatch.chdir(tmp_path / "my-tuning")

        assert stores.log_address("memory:", None, Path(".")) == "memory:my-tuning"

    def test_a_folder_whose_name_is_no_log_name_asks_for_log(self):
        with pytest.raises(BadSetting, match="give --log NAME"):
            stores.log_address("postgresql://h/db", None, Path("my tuning"))


class TestChosen:
    def test_no_option_and_no_variable_is_the_file(self, monkeypatch):
        monkeypatch.delenv(stores.STORE_ENV, raising=False)

        assert stores.chosen() == stores.Store() and stores.chosen().is_file

    def test_the_variable_is_the_default(self, monkeypatch):
        monkeypatch.setenv(stores.STORE_ENV, SERVER)

        assert stores.chosen(None, "t1") == stores.Store(SERVER, "t1")

    def test_the_option_wins_over_the_variable(self, monkeypatch):
        monkeypatch.setenv(stores.STORE_ENV, SERVER)

        assert stores.chosen("file") == stores.Store()

    def test_a_variable_that_names_no_store_is_a_usage_error(self, monkeypatch):
        monkeypatch.setenv(stores.STORE_ENV, "finetune")

        with pytest.raises(BadSetting, match="BATCHLOG_STORE: 'finetune' is not a store"):
            stores.chosen()

    def test_a_log_name_with_the_file_store_is_a_usage_error(self, monkeypatch):
        monkeypatch.delenv(stores.STORE_ENV, raising=False)

        with pytest.raises(BadSetting, match="drop --log, or give --store"):
            stores.chosen(None, "t1")


# ─── the tuning's commands ───────────────────────────────────────────────────


def tune_commands() -> list[tuple[str, ...]]:
    """Every `batchlog tune ...` command (the `difficult` group's own list included)."""
    from batchlog.cli.app import build

    found = []

    def walk(command, words):
        if getattr(command, "invoke_without_command", False) or not getattr(command, "commands", None):
            found.append((words, command))
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*words, name))

    walk(typer.main.get_command(build("tune")).commands["tune"], ("tune",))
    return [(words, command) for words, command in found if len(words) > 1 or command.params]


class TestTuneOptions:
    @pytest.mark.parametrize("words", [words for words, _ in tune_commands()], ids=" ".join)
    def test_every_tune_command_takes_store_and_log(self, words):
        (command,) = [command for named, command in tune_commands() if named == words]

        assert {"--store", "--log"} <= {opt for param in command.params for opt in param.opts}

    @pytest.mark.parametrize("option, value, says", [
        ("--store", "finetune", "Invalid value for '--store': 'finetune' is not a store"),
        ("--store", "postgresql://h", "names no database"),
        ("--log", "../elsewhere", "Invalid value for '--log': '../elsewhere' is not a log name"),
    ])
    def test_a_bad_value_exits_2_and_writes_nothing(self, tmp_path, option, value, says):
        result = invoke("tune", "init", "--dataset", DATASET, "--dir", "t", option, value, cwd=tmp_path)

        assert result.code == 2 and says in result.err
        assert list(tmp_path.iterdir()) == []

    def test_a_log_name_with_the_file_store_exits_2_and_writes_nothing(self, tmp_path):
        result = invoke("tune", "init", "--dataset", DATASET, "--dir", "t", "--log", "t1", cwd=tmp_path,
                        env={stores.STORE_ENV: "file"})

        assert result.code == 2 and "drop --log" in result.err
        assert list(tmp_path.iterdir()) == []

    def test_a_bad_store_variable_exits_2_and_writes_nothing(self, tmp_path):
        result = invoke("tune", "init", "--dataset", DATASET, "--dir", "t", cwd=tmp_path,
                        env={stores.STORE_ENV: "t"})

        assert result.code == 2 and result.err.startswith("batchlog: BATCHLOG_STORE: 't' is not a store")
        assert list(tmp_path.iterdir()) == []

    def test_store_file_beats_a_server_in_the_variable(self, tmp_path):
        result = invoke("tune", "init", "--dataset", DATASET, "--dir", "t", "--store", "file", cwd=tmp_path,
                        env={**CLOCK, stores.STORE_ENV: SERVER})

        assert result.code == 0, result.err
        assert (tmp_path / "t" / "events.jsonl").is_file()

    def test_the_fast_path_takes_any_store_and_hands_a_bad_value_to_typer(self, monkeypatch):
        from batchlog.cli.tune.lane_table import LANE as fast_view

        folder = str(FIXTURES / "tune-finished")
        monkeypatch.delenv(stores.STORE_ENV, raising=False)
        assert fast_view(["tune", "next", "--dir", folder, "--store", "file"]) == 0
        assert fast_view(["tune", "next", "--dir", folder, "--store", "memory:", "--log", unique_log("fast")]) is None
        assert fast_view(["tune", "next", "--dir", folder, "--store", "finetune"]) is None  # typer says what is wrong
        # --log on the file store, a BATCHLOG_STORE that names no store: the body's usage error, as typer's path says it
        assert fast_view(["tune", "next", "--dir", folder, "--log", "x"]) == 2
        monkeypatch.setenv(stores.STORE_ENV, "nowhere")
        assert fast_view(["tune", "next", "--dir", folder]) == 2
        assert fast_view(["tune", "next", "--dir", folder, "--store", "file"]) == 0


FIXTURE_VIEWS = [
    ("status",), ("status", "--json"), ("next",), ("next", "--json"), ("next-batch",), ("next-batch", "--json"),
    ("difficult",), ("difficult", "list", "--json"), ("readme", "--stdout"), ("readme", "--json", "--check"),
    ("usage-report", "--check"), ("audit",), ("audit", "--json"), ("status", "--at", "5"),
]


class TestTheFileStoreHoweverChosen:
    """`--store file` and BATCHLOG_STORE=file answer exactly as no option does, on both tuning fixtures."""

    @pytest.mark.parametrize("fixture", ["tune-in-progress", "tune-finished"])
    @pytest.mark.parametrize("view", FIXTURE_VIEWS, ids=" ".join)
    def test_every_view_is_the_same(self, tmp_path, fixture, view):
        shutil.copytree(FIXTURES / fixture, tmp_path / fixture)
        plain = invoke("tune", *view, "--dir", fixture, cwd=tmp_path)

        given = invoke("tune", *view, "--dir", fixture, "--store", "file", cwd=tmp_path)
        from_variable = invoke("tune", *view, "--dir", fixture, cwd=tmp_path, env={stores.STORE_ENV: "file"})

        assert plain.code in (0, 1) and plain.out + plain.err or view == ("usage-report", "--check")
        assert given == plain and from_variable == plain

    @pytest.mark.parametrize("command, golden", [("readme", "README.md"), ("usage-report", "USAGE.md")])
    def test_the_reports_are_still_the_golden_files(self, tmp_path, command, golden):
        for name in ("tune-in-progress", "datasets", "golden"):
            shutil.copytree(FIXTURES / name, tmp_path / "fixtures" / name)

        result = invoke("tune", command, "--dir", "fixtures/tune-in-progress", "--store", "file", "--file",
                        f"fixtures/golden/tune-in-progress/{golden}", "--check", cwd=tmp_path)

        assert result.code == 0, result.out

    def test_the_quick_batch_fixture_answers_the_same(self, tmp_path):
        shutil.copytree(FIXTURES / "quick_batch", tmp_path / "q")
        run = ["--run-dir", "skf-quick-skill-demo"]

        plain = invoke("quick-batch", "status", *run, "--json", cwd=tmp_path / "q")
        given = invoke("quick-batch", "status", *run, "--json", "--store", "file", cwd=tmp_path / "q")

        assert plain.code == 0 and given == plain


# ─── the quick batch ─────────────────────────────────────────────────────────


class TestQuickBatchOptions:
    @pytest.mark.parametrize("name", ["start", "next", "record", "summarize", "status", "import"])
    def test_every_subcommand_but_parse_takes_store_and_log(self, name):
        shown = invoke("quick-batch", name, "--help").out

        assert "--store URL" in shown and "--log NAME" in shown

    def test_parse_reads_a_file_and_takes_neither(self, tmp_path):
        (tmp_path / "t.txt").write_text("a\n", encoding="utf-8")

        result = invoke("quick-batch", "parse", "t.txt", "--store", "file", cwd=tmp_path)

        assert result.code == 2 and "unrecognized arguments: --store file" in result.err

    @pytest.mark.parametrize("option, value, says", [
        ("--store", "runs", "argument --store: 'runs' is not a store"),
        ("--store", "postgresql://h/db?log=x", "name the log with --log NAME"),
        ("--log", "a/b", "argument --log: 'a/b' is not a log name"),
    ])
    def test_a_bad_value_is_argparses_usage_error_and_writes_nothing(self, tmp_path, option, value, says):
        (tmp_path / "t.txt").write_text("a\n", encoding="utf-8")

        result = invoke("quick-batch", "start", "t.txt", "--run-dir", "r", option, value, cwd=tmp_path)

        assert result.code == 2 and says in result.err.splitlines()[-1]
        assert result.err.splitlines()[-1].startswith("batchlog quick-batch start: error: ")
        assert [path.name for path in tmp_path.iterdir()] == ["t.txt"]

    def test_a_bad_store_variable_exits_2_with_the_seeds_error_line(self, tmp_path):
        result = invoke("quick-batch", "next", "--run-dir", "r", cwd=tmp_path, env={stores.STORE_ENV: "r"})

        assert result.code == 2
        assert json.loads(result.err)["message"].startswith("BATCHLOG_STORE: 'r' is not a store")

    def test_store_file_drives_a_batch_exactly_as_no_option(self, tmp_path):
        plain = drive_quick_batch(tmp_path / "a", [])

        given = drive_quick_batch(tmp_path / "b", ["--store", "file"])

        assert given == plain

    def test_the_archive_holds_the_logs_lines_and_verifies(self, tmp_path):
        drive_quick_batch(tmp_path, [], summarize=False)
        before = (tmp_path / "runs" / "skf-quick-skill-x" / "events.jsonl").read_bytes()
        invoke("quick-batch", "summarize", "--run-dir", "runs/skf-quick-skill-x", "--output-dir", "out",
               cwd=tmp_path, env=CLOCK)
        (archive,) = (tmp_path / "out").glob("*.events.jsonl")

        verified = invoke("log", "verify", archive)

        assert archive.read_bytes().startswith(before) and archive.read_bytes().endswith(b"}\n")
        assert verified.code == 0, verified.out
        assert not (tmp_path / "runs" / "skf-quick-skill-x").exists()


def drive_quick_batch(root: Path, store: list[str], summarize: bool = True,
                      ) -> tuple[list[tuple[int, str, str]], dict[str, object]]:
    """A batch of two targets from start to its clean summary (and `status` after), with `store` options: every
    command's (exit code, stdout, stderr), the folder `root` written as `<root>`, and the files left in `root`."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "t.txt").write_text("cognee@0.5.0 language=python\nleftpad\n", encoding="utf-8")
    run = ["--run-dir", "runs/skf-quick-skill-x"]
    steps: list[list[str]] = [["start", "t.txt", *run], ["next", *run], ["record", *run, "--batch", "1"],
                              ["next", *run], ["record", *run, "--batch", "2"], ["next", *run],
                              ["status", *run, "--json"]]
    if summarize:
        steps += [["summarize", *run, "--output-dir", "out"], ["status", *run, "--json"]]
    outcomes = []
    for step in steps:
        if step[0] == "record":
            staged = root / "runs" / "skf-quick-skill-x" / f"skf-quick-skill-x-{step[-1]}" / "result-context.json"
            staged.write_text('{"skill_package": "skills/x", "summary": {"quality_score": 90}}', encoding="utf-8")
        result = invoke("quick-batch", *step, *store, cwd=root, env=CLOCK)
        outcomes.append((result.code, result.out.replace(str(root), "<root>"), result.err.replace(str(root), "<root>")))
    return outcomes, files(root)


# ─── other stores ──────────────────────────────


def postgresql_store() -> str:
    url = os.environ.get("BATCHLOG_TEST_POSTGRES")
    if not url:
        if os.environ.get("BATCHLOG_REQUIRE_POSTGRES") == "1":
            pytest.fail("BATCHLOG_REQUIRE_POSTGRES=1 and no BATCHLOG_TEST_POSTGRES names a server")
        pytest.skip("no PostgreSQL server: set BATCHLOG_TEST_POSTGRES to a database URL the tests may use")
    return url


@pytest.fixture
def other_store() -> str:
    """A store other than the file: the PostgreSQL database of BATCHLOG_TEST_POSTGRES."""
    return postgresql_store()


def unique_log(what: str) -> str:
    return f"{what}-{uuid.uuid4().hex[:12]}"


TUNING = [
    ["init", "--dataset", str(DATASET), "--limit", "12"],
    ["next-batch", "-o", "finetune/runs/batch01-nomem-run1/cases.json"],
    ["run", "grade", "batch01-nomem-run1", "--verdict", "PASSED", "--llm-calls", "9", "--tokens", "1200"],
    ["run", "start", "--batch", "1", "--kind", "mem"],
    ["run", "grade", "batch01-mem-run1", "--verdict", "VOID", "--note", "killed for memory"],
    ["run", "start", "--batch", "1", "--kind", "mem"],
    ["run", "grade", "batch01-mem-run2", "--verdict", "PASSED"],
    ["memory", "keep", "--batch", "1", "--nodes", "18"],
    ["usage", "batch01-mem-run2", "--model", "m", "--calls", "3", "--input-tokens", "10", "--output-tokens", "2"],
    ["next-batch", "-o", "finetune/runs/batch02-nomem-run1/cases.json"],
    ["status"], ["status", "--json"], ["next"], ["next", "--json"], ["next-batch"], ["difficult", "--json"],
    ["readme", "--stdout"], ["usage-report", "--json", "--check"], ["audit", "--json"], ["status", "--at", "3"],
]


def drive_tuning(root: Path, store: list[str]) -> tuple[list[tuple[int, str, str]], dict[str, object]]:
    """A tuning from `init` through two batches and its views, with `store` options: every command's (exit code,
    stdout, stderr), and the files left in `root` (the log's own aside)."""
    root.mkdir(parents=True, exist_ok=True)
    outcomes = []
    for step in TUNING:
        result = invoke("tune", *step, "--dir", "finetune", *store, cwd=root, env=CLOCK)
        outcomes.append((result.code, result.out, result.err))
    return outcomes, files(root)


class TestOtherStores:
    """Both loops driven on another store answer as on the file store, but for the log's address."""

    def test_a_tuning_from_init_through_two_batches(self, tmp_path, other_store):
        name = unique_log("tune")
        address = stores.log_address(other_store, name, Path("finetune"))
        on_file, files_on_file = drive_tuning(tmp_path / "file", [])

        elsewhere, files_elsewhere = drive_tuning(tmp_path / "other", ["--store", other_store, "--log", name])

        printed = f" --store {other_store} --log {name}"  # what a command printed for the agent carries
        assert [tuple(part.replace(address, "finetune/events.jsonl").replace(printed, "") if isinstance(part, str)
                      else part for part in outcome) for outcome in elsewhere] == on_file
        assert files_elsewhere == files_on_file and not (tmp_path / "other" / "finetune" / "events.jsonl").exists()

    def test_a_quick_batch_from_start_to_summary(self, tmp_path, other_store):
        name = unique_log("skf-quick-skill-x")
        on_file = drive_quick_batch(tmp_path / "file", [])

        elsewhere = drive_quick_batch(tmp_path / "other", ["--store", other_store, "--log", name])

        assert elsewhere == on_file  # the archive beside the summary is a file on every store

    def test_the_variable_is_every_commands_store(self, tmp_path, other_store):
        env = {**CLOCK, stores.STORE_ENV: other_store}
        folder = unique_log("t")

        started = invoke("tune", "init", "--dataset", DATASET, "--dir", folder, cwd=tmp_path, env=env)
        status = invoke("tune", "status", "--dir", folder, cwd=tmp_path, env=env)
        on_file = invoke("tune", "status", "--dir", folder, "--store", "file", cwd=tmp_path, env=env)

        assert started.code == 0 and status.code == 0 and "selection     64 cases" in status.out
        assert not (tmp_path / folder / "events.jsonl").exists()
        assert on_file.out == invoke("tune", "status", "--dir", "nothing-here", cwd=tmp_path).out

    def test_an_import_and_its_repeat(self, tmp_path, other_store):
        from tests.reliability.test_tune_effects import zen_folder

        name = unique_log("zen")
        answers = {}
        for side, store in (("file", []), ("other", ["--store", other_store, "--log", name])):
            zen = zen_folder(tmp_path / side / "zen")
            answers[side] = [invoke("tune", *words, *store, cwd=tmp_path / side, env=CLOCK)
                             for words in (["import", "zen"], ["import", "zen"], ["status", "--dir", "zen"])]
        address = stores.log_address(other_store, name, Path("zen"))

        assert [(r.code, r.out.replace(address, "zen/events.jsonl"), r.err) for r in answers["other"]] == [
            (r.code, r.out, r.err) for r in answers["file"]]
        assert answers["file"][0].code == 0 and not (tmp_path / "other" / "zen" / "events.jsonl").exists()


class TestPrintedCommandsReachTheSameLog:
    """A command `tune next` prints carries the `--store`/`--log` that reach its log, so that pasted it reaches the
    same log whatever BATCHLOG_STORE then says, and a password is never printed."""

    def init(self, tmp_path, *options: str, env: dict[str, str] | None = None) -> None:
        made = invoke("tune", "init", "--dataset", DATASET, "--dir", "finetune", *options, cwd=tmp_path,
                      env={**CLOCK, **(env or {})})
        assert made.code == 0, made.err

    def test_the_options_given_are_in_the_printed_command(self, tmp_path, other_store):
        name = unique_log("printed")
        self.init(tmp_path, "--store", other_store, "--log", name)

        told = invoke("tune", "next", "--json", "--dir", "finetune", "--store", other_store, "--log", name,
                      cwd=tmp_path)

        command = json.loads(told.out)["command"]
        assert command.endswith(f" --store {other_store} --log {name}")
        pasted = invoke(*__import__("shlex").split(command)[1:], cwd=tmp_path, env=CLOCK)
        assert pasted.code == 0, pasted.err
        status = invoke("tune", "status", "--json", "--dir", "finetune", "--store", other_store, "--log", name,
                        cwd=tmp_path)
        assert json.loads(status.out)["batches_built"] == 1
        then = json.loads(invoke("tune", "next", "--json", "--dir", "finetune", "--store", other_store, "--log", name,
                                 cwd=tmp_path).out)
        assert then["optional"] and all(step["template"].endswith(f" --store {other_store} --log {name}")
                                        for step in then["optional"])

    def test_a_store_from_the_variable_is_printed_with_the_logs_name(self, tmp_path, other_store):
        env = {stores.STORE_ENV: other_store}
        folder = unique_log("var")  # the log's name on the store
        made = invoke("tune", "init", "--dataset", DATASET, "--dir", folder, cwd=tmp_path, env={**CLOCK, **env})
        assert made.code == 0, made.err

        told = invoke("tune", "next", "--json", "--dir", folder, cwd=tmp_path, env=env)

        assert json.loads(told.out)["command"] == (f"batchlog tune next-batch -o "
                                                   f"{folder}/runs/batch01-nomem-run1/cases.json --dir {folder} "
                                                   f"--store {other_store} --log {folder}")

    def test_the_file_chosen_over_the_variable_is_printed(self, tmp_path):
        self.init(tmp_path)

        told = invoke("tune", "next", "--json", "--dir", "finetune", "--store", "file", cwd=tmp_path,
                      env={stores.STORE_ENV: SERVER})

        assert json.loads(told.out)["command"].endswith("cases.json --store file")

    @pytest.mark.parametrize("url, printed", [
        ("postgresql://agent:s3cret@db.example:5432/tunings", "postgresql://agent@db.example:5432/tunings"),
        ("postgresql://:s3cret@db.example/tunings", "postgresql://db.example/tunings"),
        ("postgresql://agent@db.example/tunings?sslmode=require", "postgresql://agent@db.example/tunings?sslmode=require"),
    ])
    def test_a_password_is_never_printed(self, url, printed):
        assert stores.chosen(url, "t").printed(Path("finetune")) == ("--store", printed, "--log", "t")
