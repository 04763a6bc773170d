"""The fast lane: a command line answered before the typer app is built, by the very body its typer command runs.

Building the typer app costs a command more than all the rest of its work (typer coerces every parameter through
pydantic). The lane reads a command line with a table of the commands' parameters generated from the typer app
itself (cli/lane_writer.py writes it: cli/tune/lane_table.py), calls the checks typer would call (the same objects:
cli/checks.py, cli/tune/checks.py, cli/store.py) and then the body (cli/tune/actions.py, views.py, reports.py), through
the same error boundary (cli/errors.py). No typer here, nor in the table, the checks or the bodies.

The lane is optimistic: it answers only a command line it reads completely and whose every check passes. Anything
else (help, an unknown, repeated or malformed option, a missing value or parameter, `--`, a value that starts with
'-', is empty or holds a character that does not print, a number not written plainly or out of its range, a value a
check refuses) it answers None, and the typer app runs as if the lane were not there: its own message, its own exit
code. What it answers is therefore what typer answers (tests/test_lane.py checks both on generated command lines).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

_DIGITS = 16  # longer numbers (and leading zeros, signs, spaces, underscores) are typer's to read

Check = Callable[[Any], Any]  # a parameter's: its value in, the value the body gets out; ValueError refuses it


class Value:
    """A small value of the lane's table (a kind, a parameter, a command, a check: cli/checks.py, cli/tune/checks.py):
    its fields are its `__slots__`, set by its `__init__`; compared by value, shown as the call that makes it (which
    the generated table holds). A plain class: every command defines these, and a NamedTuple costs ~0.3 ms to
    define, an attrs class ~0.5 ms, a plain one ~0.02 ms."""

    __slots__: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}({', '.join(repr(getattr(self, name)) for name in self.__slots__)})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(getattr(self, name) == getattr(other, name)
                                                 for name in self.__slots__)

    def __hash__(self) -> int:
        return hash((type(self), *(getattr(self, name) for name in self.__slots__)))


class Text(Value):
    """Any text (typer: str)."""

    __slots__ = ()

    def read(self, text: str) -> str | None:
        return text

    def admits(self, value: Any) -> bool:
        return True


class Whole(Value):
    """A whole number within its bounds (typer: int with min= and max=; None: unbounded)."""

    __slots__ = ("least", "largest")

    def __init__(self, least: int | None = None, largest: int | None = None) -> None:
        self.least, self.largest = least, largest

    def read(self, text: str) -> int | None:
        if not (text.isascii() and text.isdigit()) or len(text) > _DIGITS or (text[0] == "0" and text != "0"):
            return None
        number = int(text)
        return number if self.admits(number) else None

    def admits(self, value: Any) -> bool:
        return (self.least is None or value >= self.least) and (self.largest is None or value <= self.largest)


class File(Value):
    """A path (typer: Path with its default checks: none but that what is there can be read)."""

    __slots__ = ()

    def read(self, text: str) -> Path | None:
        path = Path(text)
        return path if self.admits(path) else None

    def admits(self, value: Any) -> bool:
        return not os.path.exists(value) or os.access(value, os.R_OK)


class Choice(Value):
    """One of `choices` (typer: a Literal). Only a choice written exactly is read: one in another case is typer's to
    match (`case_sensitive` False) or refuse."""

    __slots__ = ("choices", "case_sensitive")

    def __init__(self, choices: tuple[str, ...], case_sensitive: bool = True) -> None:
        self.choices, self.case_sensitive = choices, case_sensitive

    def read(self, text: str) -> str | None:
        return text if text in self.choices else None

    def admits(self, value: Any) -> bool:
        return value in self.choices


class Flag(Value):
    """An option without a value: True when given (typer: bool)."""

    __slots__ = ()

    def read(self, text: str) -> bool | None:
        return None

    def admits(self, value: Any) -> bool:
        return isinstance(value, bool)


Kind = Text | Whole | File | Choice | Flag


class Param(Value):
    """One parameter of a command as typer declares it: the body's name for it, its option names (none: an
    argument), its kind, whether it repeats (the body then gets a list), whether it must be given, its default and its
    check."""

    __slots__ = ("name", "options", "kind", "multiple", "required", "default", "check")

    def __init__(self, name: str, options: tuple[str, ...], kind: Kind, multiple: bool = False,
                 required: bool = False, default: Any = None, check: Check | None = None) -> None:
        self.name, self.options, self.kind = name, options, kind
        self.multiple, self.required, self.default, self.check = multiple, required, default, check


class Command(Value):
    """A command the lane answers: its body (`module:attribute`, imported when called), its parameters, and the
    check of its values together (the combination of options typer refuses)."""

    __slots__ = ("body", "params", "check")

    def __init__(self, body: str, params: tuple[Param, ...],
                 check: Callable[[Mapping[str, Any]], None] | None = None) -> None:
        self.body, self.params, self.check = body, params, check


class Lane(Value):
    """A loop's commands the lane answers, by path under the loop's group (`("run", "grade")`), and the groups
    between (`("run",)`). Called with a command line: its exit code, or None for typer to answer it."""

    __slots__ = ("group", "groups", "commands")

    def __init__(self, group: str, groups: frozenset[tuple[str, ...]],
                 commands: Mapping[tuple[str, ...], Command]) -> None:
        self.group, self.groups, self.commands = group, groups, commands

    def __call__(self, args: list[str]) -> int | None:
        call = self.read(args)
        if call is None:
            return None
        from batchlog.cli.errors import reported

        return reported(call, "--json" in args)

    def read(self, args: list[str]) -> Callable[[], int] | None:
        """The call of the body `args` ask for (its module imported by the call, inside the error boundary); None:
        typer's to answer."""
        parsed = self.parsed(args)
        if parsed is None:
            return None
        command, values = parsed
        return lambda: _attribute(command.body)(**values)

    def parsed(self, args: list[str]) -> tuple[Command, dict[str, Any]] | None:
        """The command `args` ask for and the value of each of its parameters, every value read and checked; None:
        typer's to answer."""
        if not args or args[0] != self.group:
            return None
        path: tuple[str, ...] = ()
        words = args[1:]
        while words and path in self.groups and ((*path, words[0]) in self.commands or
                                                  (*path, words[0]) in self.groups):
            path, words = (*path, words[0]), words[1:]
        command = self.commands.get(path)
        if command is None or not all(self._group_passes(path[:depth]) for depth in range(1, len(path))):
            return None
        values = _values(command.params, words)
        if values is None or not _checked(command.params, values) or not _combined(command, values):
            return None
        return command, values

    def _group_passes(self, group: tuple[str, ...]) -> bool:
        """Whether typer passes a group that runs a body of its own (`tune difficult`) on the way to one of its
        commands: its options' defaults, which typer checks too (its body then does nothing)."""
        command = self.commands.get(group)
        if command is None:
            return True
        values = _values(command.params, [])
        return values is not None and _checked(command.params, values)


def _values(params: tuple[Param, ...], words: list[str]) -> dict[str, Any] | None:
    """The value of each parameter (its default when not given) read from `words`; None when one cannot be read."""
    by_option = {option: param for param in params for option in param.options}
    arguments = [param for param in params if not param.options]
    given: dict[str, Any] = {}
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if not word.startswith("-"):
            if not arguments:
                return None
            param, text = arguments.pop(0), word
        else:
            option, equals, attached = word.partition("=") if word.startswith("--") else (word, "", "")
            param = by_option.get(option)
            if param is None or (param.name in given and not param.multiple):
                return None
            if isinstance(param.kind, Flag):
                if equals:
                    return None
                given[param.name] = True
                continue
            if equals:
                text = attached
            elif index < len(words):
                text, index = words[index], index + 1
            else:
                return None
        value = _read(param, text)
        if value is None:
            return None
        if param.multiple:
            given.setdefault(param.name, []).append(value)
        else:
            given[param.name] = value
    values = {}
    for param in params:
        if param.name in given:
            values[param.name] = given[param.name]
        elif param.required or not (param.multiple or param.default is None or param.kind.admits(param.default)):
            return None  # missing, or a default typer would refuse (an unreadable --dir)
        else:
            values[param.name] = param.default
    return values


def _read(param: Param, text: str) -> Any:
    """A value as typer would hand it to the check, or None when the lane leaves it to typer."""
    if not text or text.startswith("-") or not text.isprintable():
        return None
    return param.kind.read(text)


def _checked(params: tuple[Param, ...], values: dict[str, Any]) -> bool:
    """Whether every parameter's check passes, each value replaced by what its check returns (a default's too, as
    typer checks it; None never is: cli/options.py `Checked`)."""
    try:
        for param in params:
            if param.check is not None and values[param.name] is not None:
                values[param.name] = param.check(values[param.name])
    except Exception:  # refused, or failed in any way: typer runs the same check again and reports it
        return False
    return True


def _combined(command: Command, values: dict[str, Any]) -> bool:
    """Whether the command's check of its values together passes."""
    try:
        if command.check is not None:
            command.check(values)
    except Exception:  # as in _checked
        return False
    return True


def _attribute(name: str) -> Any:
    module, _, attribute = name.partition(":")
    return getattr(importlib.import_module(module), attribute)
