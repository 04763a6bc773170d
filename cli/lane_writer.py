"""Writes the fast lane's table of a loop (cli/lane.py) off its typer app: `python -m batchlog.cli.lane_writer --write`.

It builds the app, walks the click commands typer makes of it and records, for each command whose typer function
runs a body (`runs`, cli/options.py), its parameters as typer declares them: option names, flag or value, repeated,
required, the body's name for it, its default, its kind (a whole number with its bounds, text, a path, a choice) and
its check (found through cli/options.py's `Checked`). A command the lane cannot read as typer would (a parameter read
from the environment, a callback that is not a check, a type the lane has no kind for, ...) is left out, and the
table says why. The table is committed (the lane must not import typer); tests/test_lane.py writes it again and fails
when it differs, so an option changed in the typer declaration cannot drift from the lane.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import inspect
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import typer
from typer.core import TyperArgument, TyperOption

from batchlog.cli import terminal
from batchlog.cli.lane import Choice, Command, File, Flag, Lane, Param, Text, Value, Whole
from batchlog.cli.options import Checked

COMMAND = "python -m batchlog.cli.lane_writer --write"
TABLES = {"tune": "batchlog.cli.tune.lane_table"}  # each loop's table, the `front` of its Loop (cli/loops.py)


class NotLaned(Exception):
    """A command the lane cannot read as typer does: left to typer, for the reason given."""


def walked(loop: str) -> tuple[Lane, dict[tuple[str, ...], str]]:
    """The lane of the loop's group in the typer app, and the commands left to typer with the reason of each."""
    from batchlog.cli.app import build

    group = typer.main.get_command(build(loop)).commands[loop]
    commands: dict[tuple[str, ...], Command] = {}
    groups: set[tuple[str, ...]] = set()
    left: dict[tuple[str, ...], str] = {}
    for path, click_command in _walk(group, ()):
        subcommands = getattr(click_command, "commands", None)
        if subcommands is not None:
            groups.add(path)
            if getattr(click_command, "chain", False):
                left[path] = "its group chains its commands"
                continue
        if path and (subcommands is None or click_command.invoke_without_command):
            try:
                commands[path] = command_of(click_command)
                _command_source(_Source(), path, commands[path])  # every check and default can be written
            except NotLaned as why:
                commands.pop(path, None)
                left[path] = str(why)
        elif click_command.callback is not None:
            left[path] = "its group runs a callback of its own"  # which the lane would skip
    for path in list(commands):
        if any(path[:depth] in left for depth in range(len(path))):  # under a group the lane cannot pass
            left[path] = "its group is left to typer"
            del commands[path]
    return Lane(loop, frozenset(groups), dict(sorted(commands.items()))), left


def _walk(command: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from _walk(sub, (*path, name))


def command_of(click_command: Any) -> Command:
    """The lane's entry of a click command typer made; NotLaned when the lane cannot read it as typer does."""
    callback = click_command.callback
    body = getattr(callback, "body", None)
    if body is None:
        raise NotLaned("its typer function runs no body of its own (cli/options.py `runs`)")
    settings = click_command.context_settings
    if settings.get("ignore_unknown_options") or settings.get("allow_extra_args") or click_command.no_args_is_help:
        raise NotLaned("it reads its command line in a way of its own (context settings)")
    return Command(_name_of(body), tuple(_param(param) for param in click_command.params), callback.check)


def _param(param: Any) -> Param:
    """A parameter as the lane reads it; NotLaned for anything it cannot read exactly as typer does."""
    if not isinstance(param, (TyperOption, TyperArgument)):
        raise NotLaned(f"{param.name}: not a typer parameter")
    option = isinstance(param, TyperOption)
    if param.envvar or param.is_eager or not param.expose_value or param.nargs != 1 or (
            option and (param.prompt or param.count or param.secondary_opts)):
        raise NotLaned(f"{param.name}: read from elsewhere than its own words (environment, prompt, ...)")
    descriptor = param.type_descriptor
    annotation, info = descriptor.annotation, descriptor.parameter_info
    multiple = option and param.multiple
    element = get_args(annotation)[0] if multiple else annotation
    if info.parser is not None or descriptor.is_file:
        raise NotLaned(f"{param.name}: a parser or type of its own")
    kind = _kind(param, element, info)
    check = None
    if param.callback is not None:
        adapter = getattr(getattr(param.callback, "__wrapped__", None), "__self__", None)
        if not isinstance(adapter, Checked):
            raise NotLaned(f"{param.name}: its callback is not a check (cli/options.py `Checked`)")
        check = adapter.check
    default = param.default
    if multiple and default is not None:
        raise NotLaned(f"{param.name}: a repeated option with a default")
    return Param(param.name, tuple(param.opts) if option else (), kind, multiple, param.required, default, check)


def _kind(param: Any, element: Any, info: Any) -> Any:
    if param.param_type_name == "option" and param.is_flag:
        if element is not bool or not param.is_bool_flag or param.default is not False or param.multiple:
            raise NotLaned(f"{param.name}: a flag that is not a plain on-switch")
        return Flag()
    if element is int and not info.clamp:
        return Whole(param.min, param.max)
    if element is str:
        return Text()
    if element is Path:
        path_checks = (info.exists, info.file_okay, info.dir_okay, info.writable, info.readable, info.resolve_path,
                       info.allow_dash, info.path_type)
        if path_checks != (False, True, True, False, True, False, False, None):
            raise NotLaned(f"{param.name}: a path with checks of its own")
        return File()
    if get_origin(element) is Literal and all(isinstance(choice, str) for choice in get_args(element)):
        return Choice(get_args(element), info.case_sensitive)
    raise NotLaned(f"{param.name}: a {element!r}, a type the lane does not read")


def _name_of(function: Any) -> str:
    """`module:attribute` of a function its module holds under its own name."""
    name = f"{function.__module__}:{function.__qualname__}"
    if getattr(importlib.import_module(function.__module__), function.__qualname__, None) is not function:
        raise NotLaned(f"{name} is not where its name says")
    return name


# ─── the table as Python source ─────────────────────────────────────────────


class _Source:
    """Values written as the Python that makes them, with the imports they need."""

    def __init__(self) -> None:
        self.imports: dict[str, set[str]] = {}

    def name(self, thing: Any) -> str:
        module, name = thing.__module__, thing.__qualname__
        if getattr(importlib.import_module(module), name, None) is not thing:
            raise NotLaned(f"{module}:{name} is not where its name says")
        self.imports.setdefault(module, set()).add(name)
        return name

    def of(self, value: Any) -> str:
        if value is None or isinstance(value, (bool, int, str)):
            return repr(value)
        if isinstance(value, Path):
            return f"{self.name(Path)}({str(value)!r})"
        if isinstance(value, Value):  # a kind, a check
            module = importlib.import_module(type(value).__module__)
            constant = next((name for name, held in vars(module).items() if held is value and name.isupper()), None)
            if constant is not None:  # a check its module names (cli/checks.py FOLDER): by that name
                self.imports.setdefault(module.__name__, set()).add(constant)
                return constant
            fields = [getattr(value, name) for name in value.__slots__]
            defaults = _defaults(type(value))
            while fields and value.__slots__[len(fields) - 1] in defaults and \
                    fields[-1] == defaults[value.__slots__[len(fields) - 1]]:
                fields.pop()  # the fields at their defaults, from the last, left out
            return f"{self.name(type(value))}({', '.join(self.of(field) for field in fields)})"
        if isinstance(value, tuple):
            return "(" + ", ".join(self.of(item) for item in value) + ("," if len(value) == 1 else "") + ")"
        if callable(value) and hasattr(value, "__qualname__"):
            return self.name(value)
        raise NotLaned(f"{value!r} cannot be written in the table")

    def header(self) -> str:
        """The imports, the standard library's first, then a blank line, then batchlog's."""
        groups: list[list[str]] = [[], []]
        for module, names in sorted(self.imports.items()):
            standard = module.partition(".")[0] in sys.stdlib_module_names
            groups[0 if standard else 1].append(f"from {module} import {', '.join(sorted(names))}\n")
        return "\n".join("".join(group) for group in groups if group)


def _defaults(cls: type) -> dict[str, Any]:
    """The defaults of a value class's fields, as its `__init__` gives them."""
    return {name: parameter.default for name, parameter in inspect.signature(cls).parameters.items()
            if parameter.default is not inspect.Parameter.empty}


def _param_source(source: _Source, param: Param) -> str:
    words = [repr(param.name), source.of(param.options), source.of(param.kind)]
    defaults = _defaults(Param)
    for field in ("multiple", "required", "default", "check"):
        value = getattr(param, field)
        if value != defaults[field]:
            words.append(f"{field}={source.of(value)}")
    return f"{source.name(Param)}({', '.join(words)})"


def _command_source(source: _Source, path: tuple[str, ...], command: Command) -> str:
    params = "".join(f"        {_param_source(source, param)},\n" for param in command.params)
    check = f", {source.of(command.check)}" if command.check is not None else ""
    return f"    {path!r}: {source.name(Command)}({command.body!r}, (\n{params}    ){check}),\n"


def table_source(loop: str) -> str:
    """The module holding the lane of `loop`, as Python source."""
    lane, left = walked(loop)
    source = _Source()
    entries = [_command_source(source, path, command) for path, command in lane.commands.items()]
    groups = ", ".join(repr(group) for group in sorted(lane.groups))
    table = (f"LANE = {source.name(Lane)}({loop!r}, frozenset({{{groups}}}), {{\n" + "".join(entries) + "})\n")
    left_said = "".join(f"\n    {' '.join((loop, *path))}: {why}" for path, why in sorted(left.items()))
    said = textwrap.fill(f"The fast lane's table of the `{loop}` commands (cli/lane.py): each command the lane "
                         "answers, with its parameters as the typer app declares them. Generated from the typer app by "
                         f"`{COMMAND}`: do not edit (tests/test_lane.py fails when it differs from what the app "
                         "declares).", width=116)
    return f'"""{said}\n\nLeft to typer:{left_said or " none"}\n"""\n\n{source.header()}\n{table}'


def table_path(loop: str) -> Path:
    """Where the table of `loop` is kept: the module TABLES names, beside its package's files."""
    package, _, module = TABLES[loop].rpartition(".")
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    return Path(list(spec.submodule_search_locations)[0]) / f"{module}.py"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m batchlog.cli.lane_writer", description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write each table (else: print them)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a table differs from what it would write")
    args = parser.parse_args(argv)
    stale = []
    for loop in TABLES:
        source, path = table_source(loop), table_path(loop)
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != source:
                stale.append(str(path))
        elif args.write:
            path.write_text(source, encoding="utf-8")
            terminal.say(f"{path}: written")
        else:
            terminal.show(source)
    if stale:
        terminal.say(f"stale: {', '.join(stale)}: run {COMMAND}", err=True)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
