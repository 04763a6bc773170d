"""Options shared by many commands, so that every flag reads the same everywhere."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from batchlog.cli import store

Json = Annotated[bool, typer.Option("--json", help="one JSON object on stdout (errors: one on stderr)")]
At = Annotated[
    int | None,
    typer.Option("--at", min=1, metavar="SEQ", help="the view as the log stood after event SEQ"),
]
Dir = Annotated[Path, typer.Option("--dir", metavar="DIR",
                                   help="the tuning's folder (its files; its log DIR/events.jsonl unless --store)")]


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


Store = Annotated[
    str | None,
    typer.Option("--store", metavar="URL", callback=_checked(store.check_store), show_default=False,
                 help=store.store_help("the log is DIR/events.jsonl")),
]
LogName = Annotated[
    str | None,
    typer.Option("--log", metavar="NAME", callback=_checked(store.check_log_name), show_default=False,
                 help=store.log_help("the folder's name")),
]
