"""Options shared by many commands, so that every flag reads the same everywhere."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from batchlog.cli import store


class Within:
    """The bounds of a whole number (None: unbounded), kept by `check`, a typer callback: a number outside them is
    a usage error (exit 2) naming them. Used instead of typer's own `min=`/`max=`, which print the range beside
    the option in every help (`[x<=9007199254740991]`). The bounds stay readable from the callback
    (`check.__self__`: the fast path's table is checked against them)."""

    def __init__(self, least: int | None = None, largest: int | None = None) -> None:
        self.least, self.largest = least, largest

    def check(self, value: int | None) -> int | None:
        if value is not None and self.least is not None and value < self.least:
            raise typer.BadParameter(f"{value} is less than {self.least}: give {self.least} or more")
        if value is not None and self.largest is not None and value > self.largest:
            raise typer.BadParameter(f"{value} is more than {self.largest}, the largest whole number batchlog "
                                     "keeps exactly")
        return value


def whole(name: str, help: str, *, metavar: str = "N", least: int | None = None, largest: int | None = None,
          **settings: object) -> typer.models.OptionInfo:
    """An option holding a whole number, its bounds checked by `Within`, its metavar plain (`N`, not `<int>`)."""
    return typer.Option(name, metavar=metavar, help=help, callback=Within(least, largest).check, **settings)


Json = Annotated[bool, typer.Option("--json", help="one JSON object on stdout (errors: one on stderr)")]
At = Annotated[int | None, whole("--at", "the view as the log stood after event SEQ", metavar="SEQ", least=1)]


def _checked(check: Callable[[str], str]) -> Callable[[str | None], str | None]:
    """A typer callback: `check`'s ValueError is a usage error (exit 2) naming the fix, before anything is read."""

    def callback(value: str | None) -> str | None:
        if value is None:
            return None
        try:
            return check(value)
        except ValueError as error:
            raise typer.BadParameter(str(error)) from None

    return callback


def log_address(metavar: str, help_text: str) -> typer.models.ArgumentInfo:
    """A `log ...` command's log address argument (a memory log refused: a usage error, exit 2)."""
    return typer.Argument(metavar=metavar, show_default=False, callback=_checked(store.check_log_address),
                          help=help_text)


def printable(what: str, fix: str) -> Callable[[str], str]:
    """A check for `_checked`: a value that printed commands name (a folder, a store) holds no control character
    (projections/control_chars.py), or a command printing it would not be one line that pastes as it reads."""
    from batchlog.projections.control_chars import named_in_commands

    def check(value: str) -> str:
        refusal = named_in_commands(what, value)
        if refusal is not None:
            raise ValueError(f"{refusal}: {fix}")
        return value

    return check


def folder_callback(what: str) -> Callable[[Path | None], Path | None]:
    """A typer callback for a folder option or argument: its name checked by `printable`."""
    check = _checked(printable(what, "rename the folder"))

    def callback(value: Path | None) -> Path | None:
        if value is not None:
            check(str(value))
        return value

    return callback


Dir = Annotated[Path, typer.Option("--dir", metavar="DIR", callback=folder_callback("the folder's path"),
                                   help="the tuning's folder (its files; its log DIR/events.jsonl unless --store)")]


def _store_url(value: str) -> str:
    return store.check_store(printable("the URL", "give it without")(value))


Store = Annotated[
    str | None,
    typer.Option("--store", metavar="URL", callback=_checked(_store_url), show_default=False,
                 help=store.store_help("the log is DIR/events.jsonl")),
]
LogName = Annotated[
    str | None,
    typer.Option("--log", metavar="NAME", callback=_checked(store.check_log_name), show_default=False,
                 help=store.log_help("the folder's name")),
]
