"""`quick-batch` on the typer app (cli/loops.py): one command that hands its arguments to the seed's argparse
contract (cli/quick_batch/main.py), for `batchlog --help` and a call made through the typer app."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from batchlog.cli.quick_batch.main import main

if TYPE_CHECKING:
    from batchlog.cli.loops import Loop


def add_to(app: typer.Typer, loop: Loop) -> None:
    @app.command(loop.name, help=loop.help, add_help_option=False,
                 context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
    def quick_batch(args: Annotated[list[str] | None, typer.Argument()] = None) -> int:
        return main(args or [])
