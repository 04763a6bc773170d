"""The layers, read from the syntax tree: projections/ does no I/O (no clock, no environment, no
files, no processes), engine/ imports nothing from projections/ or cli/, each loop imports nothing of
another (projections/tune and cli/tune nothing of the quick batch's, and the reverse), and no module of
batchlog's (engine/, projections/, cli/, bench/) takes part in an import circle.

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
ENGINE_NAMES = {"Event", "EventType", "Registry", "Projection", "CodeVersion", "REGISTRY", "frozen"}
ENGINE_MODULES = {"batchlog.engine", "batchlog.engine.snapshots.file", "batchlog.engine.own_types",
                  "batchlog.engine.envelope", "batchlog.engine.registry", "batchlog.engine.log",
                  "batchlog.engine.fold_version", "batchlog.engine.value"}
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


# -- import circles ------------------------------------------------------------------------------------------

# Each folder of the repository and the name its modules are imported by.
PACKAGES = {"engine": "batchlog.engine", "projections": "batchlog.projections", "cli": "batchlog.cli", "bench": "bench"}


def module_name(package: str, relative: Path) -> str:
    """`batchlog.engine` + recorders/file.py -> batchlog.engine.recorders.file (a package's __init__.py: the
    package)."""
    parts = [package, *relative.with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def own_modules() -> dict[str, str]:
    """The source of every module of batchlog's own, by the name it is imported by."""
    return {module_name(package, path.relative_to(ROOT / folder)): path.read_text(encoding="utf-8")
            for folder, package in PACKAGES.items() for path in modules(folder)}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imported_modules(name: str, source: str, known: set[str]) -> set[str]:
    """The modules of `known` that the module `name` imports, at any depth (in a function too), except under
    `if TYPE_CHECKING:` (never run). `from P import x` imports the module P.x when there is one, else P."""
    found: set[str] = set()
    is_package = any(module.startswith(f"{name}.") for module in known)

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package this module is in
                package = name.split(".") if is_package else name.split(".")[:-1]
                base = ".".join([*package[: len(package) - node.level + 1], *([base] if base else [])])
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(source, name))
    return {module for module in found if module in known and module != name}


def import_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """Each module's imports among `sources` (name -> source)."""
    known = set(sources)
    return {name: imported_modules(name, source, known) for name, source in sources.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle per group of modules that import each other, as the path that goes round it (first module
    again at the end), e.g. [a, b, a]; none: []. Groups are found as strongly connected components (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def connect(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph[module]):
            if other not in index:
                connect(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(group)

    for module in sorted(graph):
        if module not in index:
            connect(module)
    return sorted(_round(graph, group) for group in groups)


def _round(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """The shortest path from the group's first module back to itself, through the group (breadth first)."""
    start = min(group)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for other in sorted(graph[module] & group):
                if other == start:
                    path = [module]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if other not in came_from:
                    came_from[other] = module
                    following.append(other)
        frontier = following
    raise AssertionError(f"no way round {sorted(group)}")


def test_no_module_of_batchlog_takes_part_in_an_import_circle():
    graph = import_graph(own_modules())

    found = circles(graph)

    assert len(graph) > 50 and sum(map(len, graph.values())) > 100
    assert not found, "import circles: " + "; ".join(" -> ".join(circle) for circle in found)


# What the recorders (engine/recorders/) stand below: the log logic, the snapshot stores, and what opens or
# rewrites a log through them. A recorder keeps lines; it may use the engine's building blocks only.
ABOVE_THE_RECORDERS = ("batchlog.engine", "batchlog.engine.log", "batchlog.engine.address", "batchlog.engine.salvage",
                       "batchlog.engine.migrate", "batchlog.engine.verify", "batchlog.engine.snapshots")


def test_the_recorders_import_nothing_above_them():
    graph = import_graph(own_modules())

    found = [f"{module} imports {imported}" for module, imported_set in sorted(graph.items())
             if module.startswith("batchlog.engine.recorders.") for imported in sorted(imported_set)
             if imported in ABOVE_THE_RECORDERS or imported.startswith("batchlog.engine.snapshots.")]

    assert any(module.startswith("batchlog.engine.recorders.") for module in graph) and not found, found


@pytest.mark.parametrize(("sources", "expected"), [
    pytest.param({"p.a": "import p.b\n", "p.b": "def f():\n    from p import a\n"}, [["p.a", "p.b", "p.a"]],
                 id="an import inside a function counts"),
    pytest.param({"p.a": "from p.b import X\n", "p.b": "from p.c import Y\n", "p.c": "import p.a\n"},
                 [["p.a", "p.b", "p.c", "p.a"]], id="a circle of three, named in order"),
    pytest.param({"p": "from p.a import X\n", "p.a": "from p import b\n", "p.b": "X = 1\n"}, [],
                 id="from a package, a submodule is that module"),
    pytest.param({"p": "X = 1\n", "p.a": "from p import X\nimport p.b\n", "p.b": "from p import a\n"},
                 [["p.a", "p.b", "p.a"]], id="from a package, a name is the package"),
    pytest.param({"p.a": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import p.b\n",
                  "p.b": "import p.a\n"}, [], id="an import under TYPE_CHECKING is never run"),
    pytest.param({"p.a": "if TYPE_CHECKING:\n    pass\nelse:\n    import p.b\n", "p.b": "import p.a\n"},
                 [["p.a", "p.b", "p.a"]], id="the else of TYPE_CHECKING is run"),
    pytest.param({"q.p": "from .a import X\n", "q.p.a": "from . import b\n", "q.p.b": "from ..p import X\n"},
                 [["q.p", "q.p.a", "q.p.b", "q.p"]], id="relative imports, from a package and from a module"),
    pytest.param({"p.a": "import os\nimport p.b\n", "p.b": "import p.c\n", "p.c": "import os\n"}, [],
                 id="no circle"),
])
def test_the_circle_check_finds_a_circle_wherever_its_imports_are(sources, expected):
    assert circles(import_graph(sources)) == expected
