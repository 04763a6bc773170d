"""`batchlog tally [WORD...]`: the third loop's one command. With words, counts them (one decision, through
cli/loop_log.py as every loop's); without, shows the tally, as of `--at SEQ` if given."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from batchlog.cli.loop_log import decided, open_loop_log, state_of
from batchlog.cli.options import At, LogName, Store
from batchlog.cli.store import chosen
from tests.third_loop.decider import TALLY, Count

if TYPE_CHECKING:
    from batchlog.cli.loops import Loop


def add_to(app: typer.Typer, loop: Loop) -> None:
    app.command(loop.name)(tally_command)


def tally_command(
    words: Annotated[list[str] | None, typer.Argument(metavar="WORD...", show_default=False)] = None,
    folder: Annotated[Path, typer.Option("--dir", metavar="DIR", help="the tally's folder")] = Path("tally"),
    store_url: Store = None,
    log_name: LogName = None,
    at: At = None,
) -> int:
    """Count words, or show the tally.

    Example: batchlog tally alpha beta --dir tally
    """
    if words and at is not None:
        raise typer.BadParameter("--at shows a past tally: it cannot count; drop the words or --at",
                                 param_hint="--at")
    log = open_loop_log(TALLY, folder, chosen(store_url, log_name))
    state = decided(log, TALLY, Count(tuple(words)))[0].state if words else state_of(log, TALLY, at)
    for word, count in state.counts:
        print(f"{word} {count}")
    return 0
