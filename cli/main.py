"""The `batchlog` entry point: picks the command group, maps errors to exit codes once.

Exit codes: 0 done; 1 refused (nothing written); 2 usage; 3 the log cannot be
trusted. No traceback reaches the user: an unexpected error is one line, exit 1
(tests set BATCHLOG_DEBUG=1 to let it raise).
"""

from __future__ import annotations

import os
import sys

EXIT_OK, EXIT_REFUSED, EXIT_USAGE, EXIT_UNTRUSTED = 0, 1, 2, 3


def main(argv: list[str] | None = None) -> int:
    """Run batchlog with `argv` (default: the process's arguments); return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "quick-batch":
        # The seed's argparse contract (usage errors, exit 2), and a fast start: no typer.
        from cli.quick_batch import main as quick_batch_main

        return quick_batch_main(args[1:])
    from cli.app import run

    return run(args)


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
