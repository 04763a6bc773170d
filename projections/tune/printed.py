"""The commands the tuning prints for someone to paste: `tune next`'s step and its optional ones, the hints of its
refusals, the README's next command. Built here only, every word quoted for the shell by one function
(`shlex.quote`). Pure.

`tune next` and the README carry the options that reach the same log (`--dir`, `--store`, `--log`) through a
`Place`. A decision does not know where its tuning is: its refusal names its commands as `Printed` for the
default place (in its `commands` field, and between backticks in its message), and the CLI's error boundary
completes both with the words that reach the log the command opened (cli/printed.py).
"""

from __future__ import annotations

import shlex

from batchlog.engine.value import frozen

DEFAULT_FOLDER = "finetune"


@frozen
class Place:
    """Where a printed command finds the tuning: its folder, and the options that name its log elsewhere than in
    the folder (`--store URL --log NAME`: cli/store.py's `Store.printed`)."""

    folder: str = DEFAULT_FOLDER
    log_options: tuple[str, ...] = ()

    def words(self) -> tuple[str, ...]:
        """The option words a printed command carries (`--dir` only when the folder is not the default)."""
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
