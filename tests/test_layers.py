"""The layers, read from the syntax tree: projections/ does no I/O (no clock, no environment, no
files, no processes), engine/ imports nothing from projections/ or cli/, and each loop imports nothing of
another (projections/tune and cli/tune nothing of the quick batch's, and the reverse).

Imports and calls are found by walking each module's AST (not by searching its text), so a comment
or a string naming `open` does not count, and an `import os` inside a function does.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Modules whose import means I/O, a clock, the environment or a process: none is allowed in projections/.
IO_MODULES = {
    "os", "io", "sys", "pathlib", "shutil", "subprocess", "socket", "tempfile", "time", "random", "secrets",
    "glob", "fcntl", "signal", "threading", "multiprocessing", "asyncio", "urllib", "http", "importlib", "runpy",
    "sqlite3", "pickle", "shelve", "logging", "uuid", "platform", "ctypes", "mmap", "select", "builtins",
}
# Names of calls that do I/O or read the clock or environment, whatever object they hang off.
IO_CALLS = {
    "open", "print", "input", "exec", "eval", "__import__", "breakpoint", "now", "utcnow", "today",
    "time", "read_text", "read_bytes", "write_text", "write_bytes", "getenv", "environ", "system", "popen",
    "unlink", "mkdir", "rmtree", "listdir", "scandir", "stat", "exists", "is_file", "is_dir", "urandom",
}
# What projections/ may take from engine/: types and the snapshot key of a fold (`CodeVersion`: a hash of the
# fold's own source, computed when a snapshot is first used, never at import; never part of an answer).
ENGINE_NAMES = {"Event", "EventType", "Registry", "Projection", "CodeVersion", "REGISTRY"}
ENGINE_MODULES = {"batchlog.engine", "batchlog.engine.snapshots.file", "batchlog.engine.own_types",
                  "batchlog.engine.envelope", "batchlog.engine.registry", "batchlog.engine.log",
                  "batchlog.engine.fold_version"}
# Each loop's folders, and the module names under them (`batchlog.projections.tune...`).
LOOP_FOLDERS = {"tune": ("projections/tune", "cli/tune"), "quick_batch": ("projections/quick_batch", "cli/quick_batch")}


def layer(module: str) -> str:
    """The layer a module belongs to: `engine`, `projections` or `cli` for batchlog's own (`batchlog.engine.log`
    -> engine), else the module's top-level name."""
    parts = module.split(".")
    return parts[1] if parts[0] == "batchlog" and len(parts) > 1 else parts[0]


def modules(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def imports(tree: ast.AST) -> list[tuple[str, tuple[str, ...], int]]:
    """(module, names taken from it, line) of every import, at any depth."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, (), node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module, tuple(alias.name for alias in node.names), node.lineno))
    return found


def called_names(tree: ast.AST) -> list[tuple[str, int]]:
    """The name of every call (`f(...)` -> f, `a.b.f(...)` -> f) and every `X.environ` read."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                found.append((func.id, node.lineno))
            elif isinstance(func, ast.Attribute):
                found.append((func.attr, node.lineno))
        elif isinstance(node, ast.Attribute) and node.attr == "environ":
            found.append(("environ", node.lineno))
    return found


def problems_of_projection_module(source: str, where: str) -> list[str]:
    tree = ast.parse(source, where)
    problems = []
    for module, names, line in imports(tree):
        top = layer(module)
        if top in IO_MODULES:
            problems.append(f"{where}:{line} imports {module}")
        elif top == "cli":
            problems.append(f"{where}:{line} imports {module} (cli/ is above projections/)")
        elif top == "engine" and (module not in ENGINE_MODULES or not set(names) <= ENGINE_NAMES):
            problems.append(f"{where}:{line} takes {names or module} from the engine")
    problems += [f"{where}:{line} calls {name}()" for name, line in called_names(tree) if name in IO_CALLS]
    return problems


def test_projections_do_no_io():
    found = [problem for path in modules("projections")
             for problem in problems_of_projection_module(path.read_text(encoding="utf-8"),
                                                          path.relative_to(ROOT).as_posix())]

    assert modules("projections") and not found


def test_engine_imports_nothing_above_it():
    found = []
    for path in modules("engine"):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found += [f"{path.name}:{line} imports {module}" for module, _, line in imports(tree)
                  if layer(module) in ("projections", "cli")]

    assert modules("engine") and not found


def loop_of(module: str) -> str | None:
    """The loop a module of batchlog's belongs to (`batchlog.cli.tune.log` -> tune), else None."""
    parts = module.split(".")
    return parts[2] if parts[0] == "batchlog" and len(parts) > 2 and parts[2] in LOOP_FOLDERS else None


@pytest.mark.parametrize("loop", sorted(LOOP_FOLDERS))
def test_each_loop_imports_nothing_of_another(loop):
    found = []
    for folder in LOOP_FOLDERS[loop]:
        for path in modules(folder):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            found += [f"{path.relative_to(ROOT).as_posix()}:{line} imports {module}"
                      for module, _, line in imports(tree) if loop_of(module) not in (None, loop)]

    assert modules(LOOP_FOLDERS[loop][0]) and modules(LOOP_FOLDERS[loop][1]) and not found


def test_the_check_finds_a_loop_importing_another():
    tree = ast.parse("def f():\n    from batchlog.projections.quick_batch.events import REGISTRY\n")

    assert [loop_of(module) for module, _, _ in imports(tree)] == ["quick_batch"]


@pytest.mark.parametrize(("source", "expected"), [
    ("import os\n", "imports os"),
    ("def f():\n    from pathlib import Path\n", "imports pathlib"),
    ("def f(p):\n    return p.read_text()\n", "calls read_text()"),
    ("def f():\n    return open('x')\n", "calls open()"),
    ("from datetime import datetime\ndef f():\n    return datetime.now()\n", "calls now()"),
    ("from batchlog.engine.recorders.file_lock import exclusive\n", "from the engine"),
    ("import batchlog.cli.main\n", "cli/ is above"),
    ("def f(os):\n    return os.environ\n", "calls environ()"),
])
def test_the_check_finds_io_wherever_it_is(source, expected):
    assert any(expected in problem for problem in problems_of_projection_module(source, "probe.py"))


def test_a_comment_or_string_naming_io_is_not_io():
    source = '"""open() and import os are words here."""\n# print(1)\nX = "os.environ"\nfrom batchlog.engine import Event\n'

    assert problems_of_projection_module(source, "probe.py") == []


def test_importing_every_projection_hashes_no_source():
    """A projection's snapshot key (the hash of its code) is computed on first use, not at import: importing the
    projections reads no file of theirs (the start of every command stays short)."""
    import subprocess
    import sys

    code = ("import batchlog.engine.fold_version as versions\n"
            "def refuse(*modules):\n"
            "    raise AssertionError(f'code_version{modules} called at import')\n"
            "versions.code_version = refuse\n"
            "import batchlog.projections.catalog, batchlog.projections.tune.evolve, batchlog.projections.quick_batch.evolve\n"
            "import batchlog.projections.tune.decider, batchlog.projections.quick_batch.decider, batchlog.cli.loops\n"
            "import batchlog.cli.main, batchlog.cli.tune.log\n"
            "assert versions._computed == {}, versions._computed\n")

    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_a_projections_code_version_is_its_sources_hash_once_used():
    from batchlog.engine.fold_version import code_version, version_of
    from batchlog.projections.tune.decider import TUNE

    assert version_of(TUNE) == code_version("batchlog.projections.tune.evolve", "batchlog.projections.tune.state",
                                            "batchlog.projections.tune.events") != ""
