"""The two doors of engine/files.py (issue 23): every file batchlog reads besides its logs comes through one
opener (`read_user_file`: a regular file of bounded size, refused before a byte is read otherwise), every file
it creates or replaces through one writer (`write_file`: a temporary name nobody can plant, the old mode kept,
renamed into place).

`TestEveryCommandGoesThroughTheDoors` runs every command of the CLI (found by walking the apps, as
tests/test_docs.py does) on a realistic folder with Python's file-opening functions watched, and checks that
each file batchlog opens is opened by one of the two doors, and that every call of a door in the code was
walked. Only the log's own reader, writer, marker and lock (another door: one reader of a log), the descriptor a
watch holds on the log it follows (read through that reader), and the hash of batchlog's own source open files
themselves.
"""

from __future__ import annotations

import ast
import builtins
import io
import json
import os
import pathlib
import re
import shutil
import stat
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

from batchlog.engine.errors import UnreadableFile
from batchlog.engine.files import read_user_file, write_file
from tests.clirunner import invoke
from tests.seeds import VALIDATORS, require
from tests.test_docs import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
IN_PROGRESS = ROOT / "fixtures" / "tune-in-progress"
FINISHED = ROOT / "fixtures" / "tune-finished"
DATASET = ROOT / "fixtures" / "datasets" / "support-desk-64.json"
CLOCK = {"BATCHLOG_CLOCK": "2026-12-03T10:00:00Z"}
KINDS = ["fifo", "dev-zero", "dev-null", "folder", "dangling-link", "link-loop"]


def make_special(path: Path, kind: str) -> None:
    """Put a thing that is not a regular file at `path`."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind in ("dev-zero", "dev-null"):
        path.symlink_to(f"/dev/{kind[4:]}")
    elif kind == "folder":
        path.mkdir()
    elif kind == "dangling-link":
        path.symlink_to(path.parent / "nowhere")
    else:
        path.symlink_to(path.name + ".loop")
        path.with_name(path.name + ".loop").symlink_to(path.name)


# ─── the opener ─────────────────────────────────────────────────────────────


class TestOpener:
    @pytest.mark.parametrize("kind", KINDS)
    def test_anything_but_a_regular_file_is_refused_naming_it(self, tmp_path, kind):
        path = tmp_path / "dataset.json"
        make_special(path, kind)

        with pytest.raises(UnreadableFile) as refused:
            read_user_file(path, "dataset", 1 << 20)

        assert refused.value.message.startswith(f"{path} ") and "dataset" in refused.value.message

    def test_a_file_over_its_bound_is_refused_without_reading_it(self, tmp_path):
        path = tmp_path / "big.json"
        with open(path, "wb") as fh:
            fh.truncate(1 << 40)  # a terabyte, sparse: read whole, it would never fit in memory

        with pytest.raises(UnreadableFile, match="holds more than 16 MiB, the most the dataset may hold"):
            read_user_file(path, "dataset", 16 << 20)

    def test_a_file_whose_size_says_nothing_is_cut_at_its_bound(self):
        # /proc files say they are empty and hold more: the bound is kept by the read itself
        with pytest.raises(UnreadableFile, match="more than 4 bytes"):
            read_user_file("/proc/self/status", "status", 4)

    def test_a_file_whose_size_says_nothing_is_read_to_its_end(self):
        assert read_user_file("/proc/version", "version", 1 << 16) == Path("/proc/version").read_bytes()

    def test_a_regular_file_within_its_bound_is_read_whole(self, tmp_path):
        (tmp_path / "a.json").write_bytes(b"0123456789")

        assert read_user_file(tmp_path / "a.json", "dataset", 10) == b"0123456789"

    def test_a_missing_file_says_so_in_the_words_of_a_plain_open(self, tmp_path):
        with pytest.raises(UnreadableFile) as refused:
            read_user_file(tmp_path / "nowhere.json", "dataset", 10)

        assert refused.value.reason == "No such file or directory"
        assert refused.value.python_words() == f"[Errno 2] No such file or directory: '{tmp_path / 'nowhere.json'}'"
        assert refused.value.missing

    def test_a_link_to_nothing_is_not_a_missing_file(self, tmp_path):
        (tmp_path / "link.json").symlink_to(tmp_path / "nowhere.json")

        with pytest.raises(UnreadableFile, match="is a link to nothing") as refused:
            read_user_file(tmp_path / "link.json", "dataset", 10)

        assert refused.value.reason == "No such file or directory" and not refused.value.missing

    def test_a_private_file_must_be_this_users_own_and_no_link(self, tmp_path):
        key = tmp_path / "key"
        key.write_bytes(b"k" * 64)
        key.chmod(0o644)
        (tmp_path / "link").symlink_to(key)

        with pytest.raises(UnreadableFile, match="not private"):
            read_user_file(key, "key", 128, private=True)
        key.chmod(0o600)
        with pytest.raises(UnreadableFile):
            read_user_file(tmp_path / "link", "key", 128, private=True)
        assert read_user_file(key, "key", 128, private=True) == b"k" * 64


# ─── the writer ─────────────────────────────────────────────────────────────


class TestWriter:
    def test_a_replaced_file_keeps_its_mode(self, tmp_path):
        path = tmp_path / "events.jsonl"
        path.write_bytes(b"old\n")
        path.chmod(0o600)

        write_file(path, b"new\n")

        assert path.read_bytes() == b"new\n" and stat.S_IMODE(path.stat().st_mode) == 0o600

    def test_a_new_file_gets_the_umask_of_the_process(self, tmp_path):
        old = os.umask(0o027)
        try:
            write_file(tmp_path / "a.json", b"{}\n")
        finally:
            os.umask(old)

        assert stat.S_IMODE((tmp_path / "a.json").stat().st_mode) == 0o640

    def test_a_link_planted_at_its_temporary_name_is_never_written_through(self, tmp_path, monkeypatch):
        """Even a planter who guesses the random part of the name cannot make the writer follow a link."""
        victim = tmp_path / "victim"
        victim.write_bytes(b"precious\n")
        monkeypatch.setattr(os, "urandom", lambda n: b"\0" * n)
        (tmp_path / f".cases.json.{os.getpid()}-00000000.tmp").symlink_to(victim)

        with pytest.raises(FileExistsError):
            write_file(tmp_path / "cases.json", b"new\n")

        assert victim.read_bytes() == b"precious\n" and not (tmp_path / "cases.json").exists()

    def test_a_new_name_is_not_claimed_over_a_planted_link(self, tmp_path):
        victim = tmp_path / "victim"
        (tmp_path / "summary.json").symlink_to(victim)

        with pytest.raises(FileExistsError):
            write_file(tmp_path / "summary.json", b"{}\n", new=True)

        assert not victim.exists()

    def test_blocks_are_written_whole(self, tmp_path):
        blocks = (bytes([n % 256]) * 1000 for n in range(3000))

        write_file(tmp_path / "archive", blocks)

        assert (tmp_path / "archive").stat().st_size == 3_000_000


# ─── item 1: salvage writes through the writer ──────────────────────────────


def damaged_log(folder: Path, mode: int) -> Path:
    """The fixture tuning's log with a damaged line and one after it, at `mode`."""
    folder.mkdir()
    log = folder / "events.jsonl"
    log.write_bytes(IN_PROGRESS.joinpath("events.jsonl").read_bytes() + b"garbage\n" + b'{"seq": 99}\n')
    log.chmod(mode)
    return log


class TestSalvage:
    @pytest.mark.parametrize("planted", [".events.jsonl.salvage", ".events.jsonl.tmp", "events.jsonl.tmp"])
    def test_a_link_planted_beside_the_log_is_never_written_through_and_the_log_stays_a_file(self, tmp_path,
                                                                                             planted):
        log = damaged_log(tmp_path / "t", 0o600)
        victim = tmp_path / "victim"
        victim.write_bytes(b"precious\n")
        (log.parent / planted).symlink_to(victim)

        result = invoke("log", "salvage", log, env=CLOCK)

        assert result.code == 0, result.err
        assert victim.read_bytes() == b"precious\n"
        assert not log.is_symlink() and log.read_bytes().startswith(IN_PROGRESS.joinpath("events.jsonl").read_bytes())
        assert stat.S_IMODE(log.stat().st_mode) == 0o600
        assert invoke("log", "verify", log).code == 0

    @pytest.mark.parametrize("linkable", [True, False])
    def test_the_kept_copy_has_the_logs_mode_and_a_link_planted_at_its_name_is_passed_by(self, tmp_path,
                                                                                         monkeypatch, linkable):
        log = damaged_log(tmp_path / "t", 0o600)
        damaged = log.read_bytes()
        victim = tmp_path / "victim"
        (log.parent / "events.jsonl.damaged-20261203T100000000Z").symlink_to(victim)
        if not linkable:  # a file system without hard links: the copy is made through the writer
            monkeypatch.setattr(os, "link", _no_hard_links(os.link))

        result = invoke("log", "salvage", log, env=CLOCK)

        assert result.code == 0, result.err
        kept = log.parent / "events.jsonl.damaged-20261203T100000000Z-2"
        assert kept.read_bytes() == damaged and stat.S_IMODE(kept.stat().st_mode) == 0o600
        assert not victim.exists()


def _no_hard_links(link: Callable) -> Callable:
    def refuse(source, target, *args, **kwargs):
        if Path(source).name == "events.jsonl":
            raise PermissionError(1, "Operation not permitted", str(target))
        return link(source, target, *args, **kwargs)

    return refuse


# ─── the walk: every command, every file access ─────────────────────────────

# Modules that open files themselves, and why (by module: the log's reader and writer are another door).
OWN_OPENERS = {
    "batchlog.engine.lines": "the log's streaming line reader",
    "batchlog.engine.recorders.file": "the file recorder: the log's reader and its only writer",
    "batchlog.engine.recorders.file_reader": "the log's trusted-prefix reader",
    "batchlog.engine.recorders.file_lock": "the lock on the log's inode",
    "batchlog.engine.recorders.file_pending": "the marker of an unfinished command",
    "batchlog.engine.recorders.file_follow": "a follower's descriptor of the log, held open while it is watched",
    "batchlog.engine.fold_version": "batchlog's own source files, hashed into the snapshot key",
}
# Calls of a door the walk does not reach, and where they are tested instead.
NOT_WALKED = {
    ("batchlog.engine.recorders.file", "keep_copy"): "only without hard links: TestSalvage makes link() fail",
}
DOORS = {"read_user_file": "opener", "write_file": "writer"}
# A log, its marker, a copy (not a hidden file), or the temporary name the marker's own writer gives a `.pending`
# file where the file system keeps no extended attributes (engine/recorders/file_pending.py).
LOG_FILE = re.compile(r"([^.][^/]*\.)?events\.jsonl(\.[^/]*)?|\.events\.jsonl\.pending\.[0-9]+-[0-9a-f]{8}\.tmp")
# Frames of the functions that open on a caller's behalf: the access is the caller's.
FILE_MACHINERY = {"pathlib", "shutil", "io", "_pyio", "codecs", "os", "tempfile", __name__}


@attrs.frozen
class Access:
    command: str
    function: str  # the watched function: open, os.open, Path.read_text, shutil.copy2, ...
    path: str
    module: str  # the batchlog module that opened, or called the door
    caller: str  # module:function that opened, or called the door
    door: str | None  # "opener", "writer", or None: opened without a door


class Watcher:
    """Python's file-opening functions, each access recorded with the batchlog code that asked for it."""

    def __init__(self) -> None:
        self.accesses: list[Access] = []
        self.command = ""
        self._inside = threading.local()

    def install(self, patch: pytest.MonkeyPatch) -> None:
        first = lambda args, kwargs: (args[0] if args else kwargs.get("file"),)  # noqa: E731
        both = lambda args, kwargs: args[:2]  # noqa: E731
        patch.setattr(builtins, "open", self._watched("open", builtins.open, first))
        patch.setattr(io, "open", builtins.open)
        patch.setattr(os, "open", self._watched("os.open", os.open, first))
        for name in ("open", "read_text", "read_bytes", "write_text", "write_bytes"):
            patch.setattr(pathlib.Path, name, self._watched(f"Path.{name}", getattr(pathlib.Path, name), first))
        for name in ("copyfile", "copy", "copy2", "copytree", "move"):
            patch.setattr(shutil, name, self._watched(f"shutil.{name}", getattr(shutil, name), both))

    def _watched(self, name: str, original: Callable, paths_of: Callable) -> Callable:
        def watched(*args, **kwargs):
            if getattr(self._inside, "busy", False):  # an open inside a watched one (Path.read_text's open)
                return original(*args, **kwargs)
            self._inside.busy = True
            try:
                for path in paths_of(args, kwargs):
                    self._record(name, path, sys._getframe(1))
                return original(*args, **kwargs)
            finally:
                self._inside.busy = False

        return watched

    def _record(self, function: str, path: object, frame) -> None:
        if not isinstance(path, (str, bytes, os.PathLike)) or os.path.isdir(path):
            return  # a descriptor opened already (and watched then), or a folder opened to fsync its entries
        door = None
        while frame is not None:
            module = frame.f_globals.get("__name__", "")
            if module == "batchlog.engine.files":
                if frame.f_code.co_name in DOORS:
                    door, path = DOORS[frame.f_code.co_name], frame.f_locals["path"]  # the file, not a temporary
            elif module not in FILE_MACHINERY:
                break
            frame = frame.f_back
        if frame is None or not module.startswith("batchlog."):
            return  # opened by code that is not batchlog's (a library, the user's brief validator)
        self.accesses.append(Access(self.command, function, os.fsdecode(path), module,
                                    f"{module}:{frame.f_code.co_name}", door))


def door_calls() -> set[tuple[str, str]]:
    """Every call of a door in batchlog's code: (module, the function that calls it)."""
    found = set()
    for layer in ("engine", "projections", "cli"):
        for file in sorted((ROOT / layer).rglob("*.py")):
            module = "batchlog." + ".".join(file.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            if module == "batchlog.engine.files":
                continue
            tree = ast.parse(file.read_text(encoding="utf-8"))
            for function in ast.walk(tree):
                if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for node in ast.walk(function):
                    callee = getattr(node, "func", None) if isinstance(node, ast.Call) else None
                    name = getattr(callee, "id", None) or getattr(callee, "attr", None)
                    if name in DOORS and _innermost(function, node):
                        found.add((module, function.name))
    return found


def _innermost(function: ast.AST, call: ast.AST) -> bool:
    """Whether `call` belongs to `function` itself, not to a function defined inside it."""
    return not any(isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and inner is not function
                   and any(node is call for node in ast.walk(inner)) for inner in ast.walk(function))


VALID_BRIEF = """name: {name}
version: 1.2.3
source_repo: https://github.com/x/y
language: python
description: A skill.
forge_tier: Quick
created: "2026-01-02"
created_by: someone
scope: {{type: full-library, include: [], exclude: [], notes: ""}}
"""


def folder_for_the_walk(root: Path) -> None:
    """What the commands of the walk read: tunings, a zen folder, a dataset, a damaged log, batch files, an
    exit-code map, a seed's batch.jsonl, a brief; a tuning long enough for its views to keep snapshots."""
    from batchlog.cli.tune.log import tune_log
    from batchlog.projections.tune.decider import TUNE
    from batchlog.projections.tune.events import UsageRecorded
    from tests.test_tune_cli import zen_folder

    shutil.copytree(IN_PROGRESS, root / "t")
    tune_log(root / "t").append(TUNE, lambda state: [UsageRecorded("batch01-nomem-run1", "m", k, k, k)
                                                     for k in range(1, 251)])
    (root / "t" / "README.md").write_text("# Our tuning\n\nNotes of our own.\n", encoding="utf-8")
    shutil.copytree(FINISHED, root / "done")
    shutil.copytree(IN_PROGRESS, root / "source")
    zen_folder(root / "source", root / "zen")
    shutil.copyfile(DATASET, root / "dataset.json")
    damaged_log(root / "damaged", 0o644)
    (root / "targets.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    (root / "codes.json").write_text('{"$defs":{"skf-envelope":{"const":{"exit_codes":{"odd":17}}}}}')
    (root / "seed").mkdir()
    (root / "seed" / "batch.jsonl").write_text(
        '{"event":"start","status":"running","input_file":"/x/t.txt","fail_fast":false,'
        '"started_at":"2026-12-02T15:00:00Z"}\n'
        '{"event":"target","batch":1,"target":"a","language_hint":null,"scope_hint":null,"status":"pending"}\n')
    (root / "briefs" / "one").mkdir(parents=True)
    (root / "briefs" / "one" / "skill-brief.yaml").write_text(VALID_BRIEF.format(name="alpha"))


def walk(root: Path) -> list[tuple[str, list, int, Callable[[], None] | None]]:
    """Every command, in an order a tuning and two quick batches allow: (words, arguments, exit code, what to
    do on disk before it, as an agent would)."""
    t, d = root / "t", ["--dir", str(root / "t")]
    run1, run2, mem1 = "batch03-nomem-run1", "batch03-nomem-run2", "batch03-mem-run1"
    case = json.loads((t / "runs" / run1 / "cases.json").read_text(encoding="utf-8"))["batch"][0]["id"]
    qb, qb2 = root / "skf-quick-skill-1", root / "skf-quick-skill-2"

    def stage(folder: Path, name: str, text: str) -> Callable[[], None]:
        return lambda: (folder.mkdir(exist_ok=True), (folder / name).write_text(text, encoding="utf-8"))

    halted, succeeded = '{"halt_reason":"odd"}', '{"summary":{"quality_score":90}}'
    return [
        ("log verify", [t / "events.jsonl"], 0, None),
        ("log show", [t / "events.jsonl"], 0, None),
        ("log head", [t / "events.jsonl"], 0, None),
        ("log migrate", [t / "events.jsonl", root / "copy" / "events.jsonl"], 0, None),
        ("log salvage", [root / "damaged" / "events.jsonl"], 0, None),
        ("tune init", ["--dataset", root / "dataset.json", "--dir", root / "new"], 0, None),
        ("tune import", [root / "zen"], 0, None),
        ("tune status", d, 0, None),  # writes a snapshot of the long tuning
        ("tune next", d, 0, None),  # reads it
        ("tune run grade", [run1, "--verdict", "CORRECT", "--llm-calls", "5", "--tokens", "900", *d], 0, None),
        ("tune run regrade", [run1, "--verdict", "WRONG", "--wrong", case, "--reason", "misread", *d], 0, None),
        ("tune difficult add", [case, "--reason", "wrong", "--run", run1, "--note", "n", *d], 0, None),
        ("tune change", [run1, "--file", "p.md", "--summary", "cut", "--lines", "1", *d], 0, None),
        ("tune usage", [run1, "--model", "m", "--calls", "5", "--input-tokens", "800", "--output-tokens", "100",
                        *d], 0, None),
        ("tune run start", ["--batch", "3", "--kind", "nomem", *d], 0, None),
        ("tune run grade", [run2, "--verdict", "PASSED", *d], 0, None),
        ("tune difficult fix", [case, "--run", run2, *d], 0, None),
        ("tune difficult", d, 0, None),
        ("tune difficult list", d, 0, None),
        ("tune run start", ["--batch", "3", "--kind", "mem", *d], 0, None),
        ("tune run grade", [mem1, "--verdict", "PASSED", *d], 0, None),
        ("tune memory keep", ["--batch", "3", "--nodes", "50", *d], 0, None),
        ("tune next-batch", d, 0, None),
        ("tune next-batch", ["-o", t / "runs" / "batch04-nomem-run1" / "cases.json", *d], 0, None),
        ("tune readme", d, 0, None),
        ("tune readme", ["--check", *d], 0, None),
        ("tune usage-report", d, 0, None),
        ("tune usage-report", ["--check", *d], 0, None),
        ("tune audit", ["--dir", root / "done"], 0, None),
        ("tune watch", ["--dir", root / "done"], 0, None),  # closed: one line, and it ends
        ("quick-batch parse", [root / "targets.txt"], 0, None),
        ("quick-batch start", [root / "targets.txt", "--run-dir", qb, "--exit-codes", root / "codes.json"], 0, None),
        ("quick-batch next", ["--run-dir", qb], 0, None),
        ("quick-batch record", ["--run-dir", qb, "--batch", "1", "--exit-codes", root / "codes.json"], 0,
         stage(qb / "skf-quick-skill-1-1", "halt.json", halted)),
        ("quick-batch next", ["--run-dir", qb], 0, None),
        ("quick-batch record", ["--run-dir", qb, "--batch", "2"], 0,
         stage(qb / "skf-quick-skill-1-2", "result-context.json", succeeded)),
        # another batch's summary took the name of this second: this one is compared with it, then named -2
        ("quick-batch summarize", ["--run-dir", qb, "--output-dir", root / "out"], 0,
         stage(root / "out", "quick-skill-batch-20261203-100000.json", "{}\n")),
        ("quick-batch status", ["--run-dir", qb], 0, None),
        ("quick-batch start", [root / "targets.txt", "--run-dir", qb2], 0, None),
        ("quick-batch next", ["--run-dir", qb2], 0, None),
        ("quick-batch record", ["--run-dir", qb2, "--batch", "1"], 0,
         stage(qb2 / "skf-quick-skill-2-1", "result-context.json", succeeded)),
        ("quick-batch next", ["--run-dir", qb2], 0, None),
        ("quick-batch record", ["--run-dir", qb2, "--batch", "2"], 0,
         stage(qb2 / "skf-quick-skill-2-2", "result-context.json", succeeded)),
        ("quick-batch summarize", ["--run-dir", qb2, "--output-dir", root / "out2"], 0, None),  # archives the log
        ("quick-batch status", ["--run-dir", qb2], 0, None),  # read from the archive's note
        ("quick-batch watch", ["--run-dir", qb2], 0, None),  # likewise; summarized: one line, and it ends
        ("quick-batch import", ["--run-dir", root / "seed"], 0, None),
        ("quick-batch start", ["--briefs", root / "briefs", "--run-root", root / "rr", "--brief-validator",
                               VALIDATORS["stand-in"]], 0, None),
    ]


@pytest.fixture(scope="module")
def walked(tmp_path_factory) -> tuple[list[Access], list[tuple[str, list, int, object]]]:
    """The walk, every file access of it recorded: (accesses, (command, arguments, expected, result) per step)."""
    require(VALIDATORS["stand-in"])
    root = tmp_path_factory.mktemp("walk")
    folder_for_the_walk(root)
    steps = walk(root)
    watcher, results = Watcher(), []
    env = {**CLOCK, "BATCHLOG_SNAPSHOT_KEY": "", "XDG_CACHE_HOME": str(root / "cache")}  # a key file, made and read
    with pytest.MonkeyPatch.context() as patch:
        watcher.install(patch)
        for words, args, expected, before in steps:
            if before is not None:
                before()
            watcher.command = words
            results.append((words, args, expected, invoke(*words.split(), *args, env=env, cwd=root)))
    return watcher.accesses, results


class TestEveryCommandGoesThroughTheDoors:
    def test_the_walk_runs_every_command_of_the_apps(self, walked):
        _, results = walked

        assert {words for words, *_ in results} == {" ".join(words) for words in COMMANDS}

    def test_every_step_of_the_walk_did_its_work(self, walked):
        _, results = walked

        failed = [(words, result.code, result.out[-300:], result.err[-400:])
                  for words, args, expected, result in results
                  if result.code != expected or "unexpected error" in result.err]
        assert failed == []

    def test_every_file_batchlog_opens_is_opened_by_a_door(self, walked):
        accesses, _ = walked

        outside = sorted({(a.command, a.function, a.caller, a.path) for a in accesses
                          if a.door is None and a.module not in OWN_OPENERS})
        assert outside == []

    def test_the_modules_that_open_files_themselves_open_only_their_own(self, walked):
        """A log, its marker, a copy of it (kept by salvage, archived by summarize); batchlog's own source."""
        accesses, _ = walked
        own = [a for a in accesses if a.door is None and a.module in OWN_OPENERS]

        strays = sorted({(a.command, a.function, a.caller, a.path) for a in own
                         if not (a.path.startswith(str(ROOT)) and a.path.endswith(".py")
                                 if a.module == "batchlog.engine.fold_version" else LOG_FILE.fullmatch(Path(a.path).name))})
        assert own
        assert strays == []

    def test_every_call_of_each_door_in_the_code_is_walked(self, walked):
        accesses, _ = walked
        walked_calls = {tuple(a.caller.split(":")) for a in accesses if a.door is not None}

        assert door_calls() - walked_calls == set(NOT_WALKED)
        assert walked_calls <= door_calls()

    def test_each_door_opens_the_files_of_its_kind(self, walked):
        accesses, _ = walked
        read = {Path(a.path).name for a in accesses if a.door == "opener"}
        written = {Path(a.path).name for a in accesses if a.door == "writer"}

        assert {"dataset.json", "selection.json", "config.json", "difficult.json", "cases.json", "plan.json",
                "findings.md", "README.md", "USAGE.md", "targets.txt", "codes.json", "halt.json",
                "result-context.json", "batch.jsonl", "skill-brief.yaml", "skf-validate-brief-schema.py",
                "snapshot.key", "tune.json"} <= read
        assert {"cases.json", "plan.json", "README.md", "USAGE.md", "events.jsonl", "snapshot.key",
                "tune.json"} <= written
