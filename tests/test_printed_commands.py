"""Every printed command reaches the same log; the CLI refuses a store that cannot keep a loop (issue 23, items 8,
10 and 17's refusal hints).

A command printed for people and agents (`tune next`, the README's next section, a refusal's hint) carries the
folder, `--store` (without any secret) and `--log` that reach the log it was printed from, even when the store
came from BATCHLOG_STORE: pasted where BATCHLOG_STORE names another store, it still reaches that log. The
hints of refusals get them in one place (cli/printed.py, at the error boundary); the test lists every place in
the code that names a `batchlog` command between backticks, so a new one fails until it is listed here.
"""

from __future__ import annotations

import ast
import json
import shlex
import shutil
from pathlib import Path

import pytest
import typer

from batchlog.cli import store as stores
from tests.clirunner import invoke

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
DATASET = FIXTURES / "datasets" / "support-desk-64.json"
CLOCK = {"BATCHLOG_CLOCK": "2026-12-02T16:00:00Z"}
SERVER_WITH_PASSWORD = "postgresql://agent:s3cret@db.example:5432/tunings"
USAGE = 2


# ─── item 10: memory: is no store of the CLI's ───────────────────────────────


def typer_commands() -> list[tuple[str, ...]]:
    """Every command of the typer app (the quick batch's is its argparse front's: QUICK_BATCH below)."""
    from batchlog.cli.app import build

    found = []

    def walk(command, words):
        subs = getattr(command, "commands", None)
        if not subs or getattr(command, "invoke_without_command", False):
            found.append(words)
        for name, sub in (subs or {}).items():
            walk(sub, (*words, name))

    walk(typer.main.get_command(build(None)), ())
    return [words for words in found if words and words != ("quick-batch",)]


# What each command needs besides its store to get as far as choosing one (run in a copy of the tuning in
# progress, `ip`, beside a quick batch's run folder `qb`). A command missing here fails the listing test.
ARGS = {
    ("log", "verify"): ["LOG"], ("log", "show"): ["LOG"], ("log", "head"): ["LOG"], ("log", "salvage"): ["LOG"],
    ("log", "migrate"): ["ip/events.jsonl", "LOG"],
    ("tune", "init"): ["--dataset", str(DATASET), "--dir", "new"],
    ("tune", "status"): ["--dir", "ip"], ("tune", "next-batch"): ["--dir", "ip"], ("tune", "next"): ["--dir", "ip"],
    ("tune", "change"): ["batch03-nomem-run1", "--file", "f", "--summary", "s", "--dir", "ip"],
    ("tune", "usage"): ["batch03-nomem-run1", "--model", "m", "--calls", "1", "--input-tokens", "1",
                        "--output-tokens", "1", "--dir", "ip"],
    ("tune", "import"): ["ip"], ("tune", "readme"): ["--dir", "ip"], ("tune", "usage-report"): ["--dir", "ip"],
    ("tune", "audit"): ["--dir", "ip"], ("tune", "run", "start"): ["--batch", "3", "--kind", "mem", "--dir", "ip"],
    ("tune", "run", "grade"): ["batch03-nomem-run1", "--verdict", "PASSED", "--dir", "ip"],
    ("tune", "run", "regrade"): ["batch02-nomem-run1", "--verdict", "CORRECT", "--reason", "r", "--dir", "ip"],
    ("tune", "difficult"): ["--dir", "ip"], ("tune", "difficult", "list"): ["--dir", "ip"],
    ("tune", "difficult", "add"): ["c1", "--reason", "r", "--run", "batch03-nomem-run1", "--dir", "ip"],
    ("tune", "difficult", "fix"): ["c1", "--run", "batch03-nomem-run1", "--dir", "ip"],
    ("tune", "memory", "keep"): ["--batch", "3", "--nodes", "4", "--dir", "ip"],
    ("tune", "watch"): ["--dir", "ip"],
}
QUICK_BATCH = {
    "start": ["t.txt", "--run-dir", "qb"], "next": ["--run-dir", "qb"], "record": ["--run-dir", "qb", "--batch", "1"],
    "summarize": ["--run-dir", "qb", "--output-dir", "out"], "status": ["--run-dir", "qb"],
    "import": ["--run-dir", "qb"], "watch": ["--run-dir", "qb"],
}
MEMORY_SAYS = ("a memory log is gone when the command exits", "is a memory log, gone when the command exits")


@pytest.fixture
def workdir(tmp_path) -> Path:
    shutil.copytree(FIXTURES / "tune-in-progress", tmp_path / "ip")
    (tmp_path / "t.txt").write_text("alpha\n", encoding="utf-8")
    return tmp_path


def snapshot(root: Path) -> dict[str, bytes | None]:
    return {path.relative_to(root).as_posix(): None if path.is_dir() else path.read_bytes()
            for path in sorted(root.rglob("*"))}


def test_every_command_is_listed():
    assert set(typer_commands()) == set(ARGS)


class TestMemoryIsNoStoreOfTheCli:
    @pytest.mark.parametrize("words", sorted(ARGS), ids=" ".join)
    @pytest.mark.parametrize("given", ["option", "variable"])
    def test_every_command_refuses_it_as_a_usage_error_and_writes_nothing(self, workdir, words, given):
        args = ARGS[words]
        before = snapshot(workdir)
        if words[0] == "log":
            if given == "variable":
                pytest.skip("`log ...` names its log itself: BATCHLOG_STORE is not read")
            result = invoke(*words, *[("memory:x" if arg == "LOG" else arg) for arg in args], cwd=workdir)
        elif given == "option":
            result = invoke(*words, *args, "--store", "memory:", cwd=workdir, env=CLOCK)
        else:
            result = invoke(*words, *args, cwd=workdir, env={**CLOCK, stores.STORE_ENV: "memory:x"})

        assert result.code == USAGE, (result.out, result.err)
        assert any(says in result.err for says in MEMORY_SAYS) and result.out == ""
        assert snapshot(workdir) == before

    @pytest.mark.parametrize("name", sorted(QUICK_BATCH))
    @pytest.mark.parametrize("given", ["option", "variable"])
    def test_every_quick_batch_command_refuses_it(self, workdir, name, given):
        before = snapshot(workdir)
        if given == "option":
            result = invoke("quick-batch", name, *QUICK_BATCH[name], "--store", "memory:", cwd=workdir, env=CLOCK)
        else:
            result = invoke("quick-batch", name, *QUICK_BATCH[name], cwd=workdir,
                            env={**CLOCK, stores.STORE_ENV: "memory:x"})

        assert result.code == USAGE and any(says in result.err for says in MEMORY_SAYS), result.err
        assert snapshot(workdir) == before

    def test_the_quick_batch_commands_are_listed(self):
        from batchlog.cli.quick_batch.main import COMMANDS

        assert set(QUICK_BATCH) == set(COMMANDS) - {"parse"}  # parse reads a file and keeps no log


# ─── every place that names a command ────────────────────────────────────────


BUILDERS = {"tune", "with_case"}  # projections/tune/printed.py's: a `Printed` command of the tuning


def command_sites() -> dict[tuple[str, str], int]:
    """(file, function) -> how many strings there name a `batchlog ...` command between backticks, and how many
    commands it builds with the tuning's builders (`BUILDERS`), which its messages name as `{command}`."""
    sites: dict[tuple[str, str], int] = {}
    for layer in ("engine", "projections", "cli"):
        for path in sorted((ROOT / layer).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                          if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
                          and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
            for function in [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))]:
                name = getattr(function, "name", "")
                for node in ast.walk(function):
                    if (isinstance(node, ast.Constant) and isinstance(node.value, str) and "`batchlog " in node.value
                            and id(node) not in docstrings):
                        key = (path.relative_to(ROOT).as_posix(), name)
                        sites[key] = sites.get(key, 0) + (function is not tree or not _inside_function(tree, node))
                    builds = isinstance(node, ast.Call) and getattr(node.func, "id", None) in BUILDERS
                    if builds and function is not tree:
                        key = (path.relative_to(ROOT).as_posix(), name)
                        sites[key] = sites.get(key, 0) + 1
    return {key: count for key, count in sites.items() if count}


def _inside_function(tree: ast.AST, target: ast.AST) -> bool:
    return any(target in ast.walk(node) for node in ast.walk(tree) if isinstance(node, ast.FunctionDef))


# How each place's commands reach the same log. "hint": a refusal's hint of a loop's command, completed at the
# error boundary (cli/printed.py), each triggered in TestHintsReachTheSameLog; "next": `tune next`'s commands and
# the README's, which carry the words of a `Place` (TestOnAServer); "address": a `batchlog log ...` command naming
# the log by its address, which the engine renders (engine/server_url.py): its address is the log's; "prose": a
# command named in words (help, README or USAGE text), not a command line to paste.
SITES = {
    ("engine/damage.py", "refuse_damaged"): (2, "address"),
    ("engine/log.py", "_refuse_untrusted"): (2, "address"),
    ("engine/migrate.py", "_verified"): (2, "address"),
    ("engine/recorders/postgresql.py", "write"): (1, "address"),
    ("cli/log/commands.py", "verify_command"): (2, "prose"),
    ("cli/log/commands.py", "show_command"): (2, "address"),
    ("cli/quick_batch/files.py", "require_log"): (1, "hint"),
    ("projections/quick_batch/decide.py", "another_loops_log"): (1, "prose"),
    ("projections/quick_batch/decide.py", "already_taken"): (1, "hint"),
    ("projections/tune/decide/loop.py", "_require_not_finished"): (1, "hint"),
    ("projections/tune/decide/loop.py", "build_batch"): (1, "hint"),
    ("projections/tune/decide/loop.py", "_require_memory_kept"): (1, "hint"),
    ("projections/tune/decide/loop.py", "_require_own_folder"): (1, "hint"),
    ("projections/tune/decide/loop.py", "_require_last_run_graded"): (1, "hint"),
    ("projections/tune/decide/loop.py", "start_run"): (1, "hint"),
    ("projections/tune/decide/loop.py", "_check_half_order"): (3, "hint"),
    ("projections/tune/decide/loop.py", "start_final"): (1, "hint"),
    ("projections/tune/decide/loop.py", "grade_run"): (1, "hint"),
    ("projections/tune/decide/records.py", "fix_difficult"): (1, "hint"),
    ("projections/tune/decide/refusals.py", "require_tuning"): (1, "hint"),
    ("projections/tune/decide/refusals.py", "require_unfinished"): (1, "hint"),
    ("projections/tune/decide/refusals.py", "require_run"): (1, "hint"),
    ("projections/tune/decide/refusals.py", "require_listed_after_final"): (1, "hint"),
    ("projections/tune/decide/regrade.py", "regrade_run"): (1, "hint"),
    ("projections/tune/views/readme/document.py", "layout"): (1, "prose"),
    ("projections/tune/views/readme/results.py", "_tokens_line"): (3, "prose"),
    ("projections/tune/views/usage.py", "usage_markdown"): (1, "prose"),
    ("projections/tune/views/status.py", "_required"): (1, "next"),
    ("projections/tune/views/status.py", "_optional"): (2, "next"),
    ("projections/tune/views/status.py", "_command"): (1, "next"),
}


def test_every_place_that_names_a_command_is_listed():
    assert command_sites() == {site: count for site, (count, _) in SITES.items()}


# The refusal of each hint site, triggered: (commands run first, the refused command, the hint's start). The
# tuning is a copy of the one in progress in a folder of another name, `my-tune`, so that hints need `--dir`.
T = ["--dir", "my-tune"]
GRADED = [["tune", "run", "grade", "batch03-nomem-run1", "--verdict", "PASSED", *T]]
MEM_PASSED = [*GRADED, ["tune", "run", "start", "--batch", "3", "--kind", "mem", *T],
              ["tune", "run", "grade", "batch03-mem-run1", "--verdict", "PASSED", *T]]
# A tuning of three cases in `small` whose final check got the case `-b` wrong (an id that only after `--` is an
# argument: the hint's options go before it).
S = ["--dir", "small"]
THREE_CASES = {"cases": [{"id": "a"}, {"id": "-b"}, {"id": "c"}]}
FAILED_FINAL = [["tune", "init", "--dataset", "three.json", *S],
                ["tune", "next-batch", "-o", "small/runs/batch01-nomem-run1/cases.json", *S],
                ["tune", "run", "grade", "batch01-nomem-run1", "--verdict", "PASSED", *S],
                ["tune", "run", "start", "--batch", "1", "--kind", "mem", *S],
                ["tune", "run", "grade", "batch01-mem-run1", "--verdict", "PASSED", *S],
                ["tune", "memory", "keep", "--batch", "1", "--nodes", "9", *S], ["tune", "run", "start", "--final", *S],
                ["tune", "run", "grade", "final-run1", "--verdict", "WRONG", "--wrong=-b", *S]]
TRIGGERS = {
    "_require_last_run_graded": ([], ["tune", "run", "start", "--batch", "3", "--kind", "mem", *T],
                                 "batchlog tune run grade batch03-nomem-run1"),
    "start_run": ([], ["tune", "run", "start", "--batch", "9", "--kind", "nomem", *T], "batchlog tune next-batch"),
    "require_run": ([], ["tune", "run", "grade", "no-such-run", "--verdict", "PASSED", *T], "batchlog tune next"),
    "fix_difficult": ([], ["tune", "difficult", "fix", "no-such-case", "--run", "batch03-nomem-run1", *T],
                      "batchlog tune difficult"),
    "regrade_run": ([], ["tune", "run", "regrade", "batch03-nomem-run1", "--verdict", "PASSED", "--reason", "r", *T],
                    "batchlog tune run grade batch03-nomem-run1"),
    "grade_run": ([], ["tune", "run", "grade", "batch02-mem-run2", "--verdict", "VOID", *T],
                  "batchlog tune run regrade batch02-mem-run2"),
    "build_batch": (GRADED, ["tune", "next-batch", "-o", "my-tune/b.json", *T], "batchlog tune next"),
    "_check_half_order: no-memory passed": (GRADED, ["tune", "run", "start", "--batch", "3", "--kind", "nomem", *T],
                                            "batchlog tune run start --batch 3 --kind mem"),
    "_check_half_order: no-memory not passed": (
        [["tune", "run", "grade", "batch03-nomem-run1", "--verdict", "VOID", *T]],
        ["tune", "run", "start", "--batch", "3", "--kind", "mem", *T],
        "batchlog tune run start --batch 3 --kind nomem"),
    "_check_half_order: with memory passed": (MEM_PASSED, ["tune", "run", "start", "--batch", "3", "--kind", "mem", *T],
                                              "batchlog tune next"),
    "_require_memory_kept": (MEM_PASSED, ["tune", "next-batch", "-o", "my-tune/b.json", *T],
                             "batchlog tune memory keep --batch 3"),
    "_require_own_folder": ([], ["tune", "next-batch", "-o", "my-tune/runs/batch01-nomem-run1/cases.json", *T],
                            "batchlog tune next-batch"),
    "start_final": (GRADED, ["tune", "run", "start", "--final", *T], "batchlog tune next-batch"),
    "require_listed_after_final": (FAILED_FINAL, ["tune", "run", "start", "--final", *S],
                                   "batchlog tune difficult add"),
    "require_tuning": ([], ["tune", "status", "--dir", "empty"], "batchlog tune init"),
}
FINISHED = {
    "_require_not_finished": (["tune", "run", "start", "--batch", "1", "--kind", "nomem", "--dir", "done"],
                              "batchlog tune audit"),
    "require_unfinished": (["tune", "next-batch", "--dir", "done"], "batchlog tune audit"),
}
QUICK_HINTS = {"require_log": "batchlog quick-batch import", "already_taken": "batchlog quick-batch next"}


def test_every_function_with_a_hint_is_triggered():
    """Once each: a function's hints all pass the same error boundary (start_final's second, for difficult cases
    still open when every case was used, is not set up here)."""
    hints = {function for (_, function), (_, kind) in SITES.items() if kind == "hint"}
    triggered = {name.partition(":")[0] for name in TRIGGERS} | set(FINISHED) | set(QUICK_HINTS)

    assert triggered == hints


def hinted(message: str, start: str) -> list[str]:
    """The words of the command between backticks in `message` that starts with `start`, up to a `--` (the words
    after it are arguments)."""
    commands = [part for part in message.split("`")[1::2] if part.startswith(start)]
    assert commands, (start, message)
    words = shlex.split(commands[0])
    return words[:words.index("--")] if "--" in words else words


class TestHintsReachTheSameLog:
    """Each hint, with the store from BATCHLOG_STORE (a server, its password never printed) against the file
    chosen with `--store file`, names the folder and the store that reach the log it was refused on."""

    ENV = {**CLOCK, stores.STORE_ENV: SERVER_WITH_PASSWORD}

    @pytest.mark.parametrize("name", sorted(TRIGGERS))
    def test_a_tuning_refusals_hint(self, tmp_path, name):
        shutil.copytree(FIXTURES / "tune-in-progress", tmp_path / "my-tune")
        (tmp_path / "empty").mkdir()
        (tmp_path / "three.json").write_text(json.dumps(THREE_CASES), encoding="utf-8")
        setup, refused, start = TRIGGERS[name]
        for words in setup:
            assert invoke(*words, "--store", "file", cwd=tmp_path, env=self.ENV).code == 0, words

        result = invoke(*refused, "--store", "file", cwd=tmp_path, env=self.ENV)

        words = hinted(result.err, start)
        folder = refused[refused.index("--dir") + 1]
        assert result.code == 1 and "s3cret" not in result.err
        assert words[-4:] == ["--dir", folder, "--store", "file"], result.err

    def test_a_hints_words_go_before_its_double_dash(self, tmp_path):
        """A case id that starts with "-" is named after `--`: the words that reach the log go before it."""
        (tmp_path / "three.json").write_text(json.dumps(THREE_CASES), encoding="utf-8")
        for words in FAILED_FINAL:
            assert invoke(*words, "--store", "file", cwd=tmp_path, env=self.ENV).code == 0, words

        result = invoke("tune", "run", "start", "--final", *S, "--store", "file", "--json", cwd=tmp_path, env=self.ENV)

        (command,) = json.loads(result.err)["commands"]
        assert shlex.split(command) == ["batchlog", "tune", "difficult", "add", "--reason", "wrong", "--run",
                                        "final-run1", "--dir", "small", "--store", "file", "--", "-b"]
        assert f"`{command}`" in json.loads(result.err)["message"]

    @pytest.mark.parametrize("name", sorted(FINISHED))
    def test_a_finished_tunings_hint(self, tmp_path, name):
        shutil.copytree(FIXTURES / "tune-finished", tmp_path / "done")
        refused, start = FINISHED[name]

        result = invoke(*refused, "--store", "file", cwd=tmp_path, env=self.ENV)

        assert result.code == 1
        assert hinted(result.err, start)[-4:] == ["--dir", "done", "--store", "file"], result.err

    def test_the_hint_of_a_folder_without_a_tuning_pasted_starts_that_tuning(self, tmp_path):
        refused = invoke("tune", "status", "--dir", "fresh", "--store", "file", cwd=tmp_path, env=self.ENV)
        words = [str(DATASET) if word == "DATASET" else word for word in hinted(refused.err, "batchlog tune init")]

        pasted = invoke(*words[1:], cwd=tmp_path, env=self.ENV)

        assert pasted.code == 0, pasted.err
        assert (tmp_path / "fresh" / "events.jsonl").is_file()

    @pytest.mark.parametrize("name", sorted(QUICK_HINTS))
    def test_a_quick_batch_refusals_hint(self, tmp_path, name):
        run = tmp_path / "runs" / "qb"
        run.mkdir(parents=True)
        (run / "batch.jsonl").write_text(  # a skf-quick-batch.py batch of one target
            '{"event":"start","status":"running","input_file":"/x/t.txt","fail_fast":false,'
            '"started_at":"2026-12-02T15:00:00Z"}\n'
            '{"event":"target","batch":1,"target":"a","language_hint":null,"scope_hint":null,"status":"pending"}\n',
            encoding="utf-8")
        if name == "already_taken":  # imported, then the seed's batch went on: an import again is refused
            imported = invoke("quick-batch", "import", "--run-dir", "runs/qb", "--store", "file", cwd=tmp_path,
                              env=self.ENV)
            assert imported.code == 0, imported.err
            with (run / "batch.jsonl").open("a", encoding="utf-8") as batch:
                batch.write('{"event":"target","batch":1,"target":"b","language_hint":null,"scope_hint":null,'
                            '"status":"pending"}\n')
        command = "import" if name == "already_taken" else "next"

        result = invoke("quick-batch", command, "--run-dir", "runs/qb", "--store", "file", cwd=tmp_path,
                        env=self.ENV)

        message = json.loads(result.err)["message"]
        assert result.code == 1 and "s3cret" not in result.err
        assert hinted(message, QUICK_HINTS[name])[-4:] == ["--run-dir", "runs/qb", "--store", "file"], message


# ─── on a server: tune next, the README, a hint, all pasted ──────────────────


class TestOnAServer:
    """A tuning whose store comes from BATCHLOG_STORE (a URL with a password, which the test server ignores):
    every printed command carries the store without its password and the log's name, and pasted where
    BATCHLOG_STORE names another store, reaches the same log."""

    @pytest.fixture
    def server(self, postgres_url) -> tuple[str, str]:
        import uuid

        from urllib.parse import urlsplit, urlunsplit

        parts = urlsplit(postgres_url)
        userinfo, _, host = parts.netloc.rpartition("@")
        with_password = urlunsplit((parts.scheme, f"{userinfo.partition(':')[0] or 'postgres'}:s3cret@{host}",
                                    parts.path, parts.query, ""))
        return with_password, f"t-{uuid.uuid4().hex[:10]}"

    def test_next_the_readme_and_a_hint_carry_the_store_and_the_log(self, tmp_path, server):
        url, folder = server
        env = {**CLOCK, stores.STORE_ENV: url}
        refused = invoke("tune", "status", "--dir", folder, cwd=tmp_path, env=env)
        init = [str(DATASET) if w == "DATASET" else w for w in hinted(refused.err, "batchlog tune init")]
        assert invoke(*init[1:], cwd=tmp_path, env=CLOCK).code == 0  # pasted without BATCHLOG_STORE

        told = json.loads(invoke("tune", "next", "--json", "--dir", folder, cwd=tmp_path, env=env).out)["command"]
        text = invoke("tune", "next", "--dir", folder, cwd=tmp_path, env=env).out
        readme = invoke("tune", "readme", "--stdout", "--dir", folder, cwd=tmp_path, env=env).out
        pasted = invoke(*shlex.split(told)[1:], cwd=tmp_path, env={**CLOCK, stores.STORE_ENV: "file"})

        store = stores.chosen(url).printed(Path(folder))
        assert "s3cret" not in refused.err + told + text + readme
        for words in (init, shlex.split(told), shlex.split(text.strip().splitlines()[-1])):
            assert words[-4:] == list(store) and store[-1] == folder, words
        assert f"{shlex.join(store)}\n```" in readme
        assert pasted.code == 0, pasted.err
        status = invoke("tune", "status", "--json", "--dir", folder, cwd=tmp_path, env=env)
        assert json.loads(status.out)["batches_built"] == 1 and not (tmp_path / folder / "events.jsonl").exists()
