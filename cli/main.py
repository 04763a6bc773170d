"""The `batchlog` entry point: picks the command group, maps errors to exit codes once.

Exit codes: 0 done; 1 refused (nothing written); 2 usage; 3 the log cannot be
trusted. No traceback reaches the user: an unexpected error is one line, exit 1
(tests set BATCHLOG_DEBUG=1 to let it raise).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

EXIT_OK, EXIT_REFUSED, EXIT_USAGE, EXIT_UNTRUSTED = 0, 1, 2, 3


def main(argv: list[str] | None = None) -> int:
    """Run batchlog with `argv` (default: the process's arguments); return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "quick-batch":
        # The seed's argparse contract (usage errors, exit 2), and a fast start: no typer.
        from cli.quick_batch import main as quick_batch_main

        return quick_batch_main(args[1:])
    if args[:1] == ["bench"]:
        # The benchmark suite (bench/run.py): its own options, table and exit code (1: a row missed).
        from bench.run import main as bench_main

        return bench_main(args[1:], prog="batchlog bench")
    if args[:1] == ["tune"]:
        # The read-only views agents call most, without building the typer app (~0.3 s); anything the
        # fast path does not fully understand (help, a bad option, -o) goes on to typer below.
        from cli.fast_views import fast_view

        code = fast_view(args)
        if code is not None:
            return code
    from cli.app import run

    return run(args)


def reported(command: Callable[[], int], as_json: bool) -> int:
    """Run `command`; every error it raises becomes a message on stderr and an exit code (the one place)."""
    from cli.errors import report
    from engine import EngineError
    from projections.errors import Refused

    try:
        return command()
    except (EngineError, Refused) as error:
        return report(error, as_json)
    except BrokenPipeError:
        return EXIT_REFUSED
    except Exception as error:  # a bug: one line for users, a traceback for tests
        if os.environ.get("BATCHLOG_DEBUG"):
            raise
        return report(error, as_json)


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
