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
LogPath = Annotated[
    Path,
    typer.Argument(metavar="PATH", help="the log file (events.jsonl)", show_default=False),
]


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


Store = Annotated[
    str | None,
    typer.Option("--store", metavar="URL", callback=_checked(store.check_store), show_default=False,
                 help=f"where the log is kept: {store.STORE_FORM} (default: ${store.STORE_ENV}, else file: "
                      "the log is DIR/events.jsonl)"),
]
LogName = Annotated[
    str | None,
    typer.Option("--log", metavar="NAME", callback=_checked(store.check_log_name), show_default=False,
                 help="the log's name on the server (default: the folder's name); never a path"),
]
