"""The checks of options every command shares, before anything is read: each a small value naming what it checks (or
a module's function), called with the option's value and raising ValueError with the message. No typer here: the
typer commands run them through one adapter (cli/options.py `Checked`: a usage error, exit 2) and the fast lane
(cli/lane.py) calls them as they are, leaving to typer whatever one refuses. The tuning's own: cli/tune/checks.py.
"""

from __future__ import annotations

from typing import Any

from batchlog.cli import store
from batchlog.cli.lane import Value


class Within(Value):
    """The bounds of a whole number (None: unbounded): a number outside them is refused naming them. Used instead of
    typer's own `min=`/`max=`, which print the range beside the option in every help (`[x<=9007199254740991]`)."""

    __slots__ = ("least", "largest")

    def __init__(self, least: int | None = None, largest: int | None = None) -> None:
        self.least, self.largest = least, largest

    def __call__(self, value: int) -> int:
        if self.least is not None and value < self.least:
            raise ValueError(f"{value} is less than {self.least}: give {self.least} or more")
        if self.largest is not None and value > self.largest:
            raise ValueError(f"{value} is more than {self.largest}, the largest whole number batchlog keeps exactly")
        return value


class Printable(Value):
    """A value that printed commands name (a folder, a store) holds no control character
    (projections/control_chars.py), or a command printing it would not be one line that pastes as it reads: refused,
    naming `what` it is and the `fix`. The value is kept as it is (a folder's Path stays one)."""

    __slots__ = ("what", "fix")

    def __init__(self, what: str, fix: str) -> None:
        self.what, self.fix = what, fix

    def __call__(self, value: Any) -> Any:
        from batchlog.projections.control_chars import named_in_commands

        refusal = named_in_commands(self.what, str(value))
        if refusal is not None:
            raise ValueError(f"{refusal}: {self.fix}")
        return value


FOLDER = Printable("the folder's path", "rename the folder")


def check_store_url(value: str) -> str:
    """`--store`: printable, then a store (cli/store.py `check_store`)."""
    return store.check_store(Printable("the URL", "give it without")(value))
