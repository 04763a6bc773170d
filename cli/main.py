"""The `batchlog` entry point: picks the front end (quick-batch's argparse, the fast views,
the typer app). Each runs its command through the one error boundary, cli/errors.py."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run batchlog with `argv` (default: the process's arguments); return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "quick-batch":
        # The seed's argparse contract (usage errors, exit 2), and a fast start: no typer.
        from batchlog.cli.quick_batch.main import main as quick_batch_main

        return quick_batch_main(args[1:])
    if args[:1] == ["tune"]:
        # The read-only views agents call most, without building the typer app (~0.3 s); anything the
        # fast path does not fully understand (help, a bad option, -o) goes on to typer below.
        from batchlog.cli.fast_views import fast_view

        code = fast_view(args)
        if code is not None:
            return code
    from batchlog.cli.app import run

    return run(args)


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
