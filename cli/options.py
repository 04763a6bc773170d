"""Options shared by many commands, so that every flag reads the same everywhere."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

Json = Annotated[bool, typer.Option("--json", help="one JSON object on stdout (errors: one on stderr)")]
At = Annotated[
    int | None,
    typer.Option("--at", min=1, metavar="SEQ", help="the view as the log stood after event SEQ"),
]
LogPath = Annotated[
    Path,
    typer.Argument(metavar="PATH", help="the log file (events.jsonl)", show_default=False),
]

