"""Writes engine/compiled_methods.py, the source attrs writes for each of batchlog's classes compiled ahead
(engine/value.py says why): `python -m batchlog.cli.methods_writer --write`.

The sources are what attrs asks the table for while every module of batchlog is imported in a fresh Python
process whose table is empty: the classes defined by `frozen`, in the order they are defined. Each becomes a
function whose body is that source, one indent deeper, returning what it defines; the table maps the source's
exact text to its function. tests/test_value.py writes the table again and fails when it differs, so a class
changed without running this is caught before it merely costs time.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import textwrap
from pathlib import Path

import orjson

from batchlog.cli import terminal

COMMAND = "python -m batchlog.cli.methods_writer --write"
TABLE = "batchlog.engine.compiled_methods"

# Run in a fresh process, so that no class is defined before the empty table is in place.
_ASK = f"""
import importlib, pkgutil, sys, types
import orjson

class Asked(dict):
    def __init__(self):
        self.asked = []
    def get(self, script, default=None):
        if script not in self.asked:
            self.asked.append(script)
        return default

table = types.ModuleType({TABLE!r})
table.METHODS = Asked()
sys.modules[table.__name__] = table
for layer in ("engine", "projections", "cli"):  # the layers, each a package of its own in an editable install
    package = importlib.import_module("batchlog." + layer)
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(module.name)
sys.stdout.buffer.write(orjson.dumps(table.METHODS.asked))
"""

_HEAD = '''"""The source attrs writes for the methods of each of batchlog's classes, compiled with this module rather than in
every process (engine/value.py says how it is used). Written by `{command}`
with attrs {version}: do not edit (tests/test_value.py fails when it differs from what the writer writes).

Each function's body is one class's source as attrs writes it, one indent deeper; it returns what the source
defines. METHODS maps the source's exact text to its function.
"""

from __future__ import annotations  # as in attrs' module, whose compiling the sources inherits it

# ruff: noqa: F821  (the names the sources use are attrs', given as the functions' globals when they are called)

'''


def sources() -> list[str]:
    """The sources attrs writes for batchlog's classes, as a fresh process that imports every module asks for them."""
    asked = subprocess.run([sys.executable, "-c", _ASK], capture_output=True, check=True)
    return orjson.loads(asked.stdout)


def table_source(scripts: list[str]) -> str:
    """The table's module: one function a source, then the map of each source's text to its function."""
    import attrs

    parts = [_HEAD.format(command=COMMAND, version=attrs.__version__)]
    for number, script in enumerate(scripts):
        parts.append(f"def _{number}():\n{textwrap.indent(script.rstrip(), '    ')}\n    return locals()\n\n\n")
    parts.append("METHODS = {\n")
    parts.extend(f"    {script!r}: _{number},\n" for number, script in enumerate(scripts))
    parts.append("}\n")
    return "".join(parts)


def table_path() -> Path:
    """Where the table's module is, in the tree it is imported from."""
    import batchlog.engine

    return Path(batchlog.engine.__file__).parent / "compiled_methods.py"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m batchlog.cli.methods_writer", description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the table (else: print it)")
    parser.add_argument("--check", action="store_true", help="exit 1 when the table differs from what it would write")
    args = parser.parse_args(argv)
    source, path = table_source(sources()), table_path()
    if args.check:
        if not path.is_file() or path.read_text(encoding="utf-8") != source:
            terminal.say(f"stale: {path}: run {COMMAND}", err=True)
            return 1
    elif args.write:
        path.write_text(source, encoding="utf-8")
        terminal.say(f"{path}: written")
    else:
        terminal.show(source)
    return 0


if __name__ == "__main__":
    sys.exit(main())
