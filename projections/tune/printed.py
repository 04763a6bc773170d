"""The commands the tuning prints for someone to paste: `tune next`'s step and its optional ones, the hints of its
refusals, the README's next command. Built here only, every word quoted for the shell by one function
(`shlex.quote`), and carrying the options that reach the same log (`--dir`, `--store`, `--log`, as the command
that printed them was given them). Pure.

A decision does not know where its tuning is: its refusal names its commands for the default place (a `Printed`
in its `commands` field, its text between backticks in the message), and the CLI, which knows, says them for
the place it was given (`placed`).
"""

from __future__ import annotations

import shlex

from batchlog.engine.value import frozen
from batchlog.projections.errors import Refused

DEFAULT_FOLDER = "finetune"


@frozen
class Place:
    """Where a printed command finds the tuning: its folder, and the options that name its log elsewhere than in
    the folder (`--store URL --log NAME`, as the command that printed it was given them)."""

    folder: str = DEFAULT_FOLDER
    log_options: tuple[str, ...] = ()

    def words(self) -> tuple[str, ...]:
        return (() if self.folder == DEFAULT_FOLDER else ("--dir", self.folder)) + self.log_options


@frozen
class Printed:
    """`batchlog tune WORDS`, the place's options, then `-- LAST` (an argument that starts with "-", which only
    after `--` an option parser reads as an argument)."""

    words: tuple[str, ...]
    last: str | None = None

    def argv(self, place: Place = Place()) -> list[str]:
        """The words the shell gives batchlog when the command is pasted."""
        return ["batchlog", "tune", *self.words, *place.words(), *(("--", self.last) if self.last is not None else ())]

    def text(self, place: Place = Place()) -> str:
        """The command as printed: each word quoted for the shell."""
        return " ".join(shlex.quote(word) for word in self.argv(place))

    def __str__(self) -> str:
        return self.text()


def tune(*words: str | int) -> Printed:
    """`batchlog tune WORDS...` (a word may be a placeholder such as VERDICT: an upper-case word the shell keeps)."""
    return Printed(tuple(str(word) for word in words))


def with_case(head: tuple[str, ...], case: str, rest: tuple[str, ...] = ()) -> Printed:
    """`batchlog tune HEAD CASE REST`, safe to paste whatever the case's id: one that starts with "-" goes last,
    after `--`."""
    if case.startswith("-"):
        return Printed((*head, *rest), case)
    return Printed((*head, case, *rest))


def placed(error: Refused, place: Place) -> Refused:
    """`error` as said where the tuning is: each command in its `commands` field, in its message and in the field
    itself, carrying the place's options. An error that prints no command is returned as it is."""
    commands = [command for command in error.fields.get("commands", ()) if isinstance(command, Printed)]
    if not commands or place == Place():  # none, or placed already
        return error
    message = error.message
    for command in commands:
        message = message.replace(f"`{command.text()}`", f"`{command.text(place)}`")
    return type(error)(message, **{**error.fields, "commands": [command.text(place) for command in commands]})
