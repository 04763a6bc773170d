"""The `batchlog` entry point: picks the front end (the named loop's own, when it has one: quick-batch's argparse,
the tuning's fast lane; else the typer app). Each runs its command through the one error boundary,
cli/errors.py."""

from __future__ import annotations

import sys
from collections.abc import Callable


def main(argv: list[str] | None = None) -> int:
    """Run batchlog with `argv` (default: the process's arguments); return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args:
        from batchlog.cli.errors import reported
        from batchlog.cli.loops import loop_named

        code = reported(lambda: _require_utf8(args), "--json" in args)
        if code:
            return code

        fronts: list[Callable[[list[str]], int | None] | None] = []

        def find_front() -> int:
            loop = loop_named(args[0])
            fronts.append(None if loop is None else loop.load_front())
            return 0

        code = reported(find_front, "--json" in args)  # a BATCHLOG_LOOPS that names no loop is a usage error
        if code:
            return code
        # Quick-batch's front end keeps the seed's argparse contract; the tuning's, the fast lane (cli/lane.py),
        # answers its commands without building the typer app (~0.4 s), and leaves anything it does not fully
        # understand (help, a bad option, a value a check refuses) to typer (None).
        answered = fronts[0](args) if fronts[0] is not None else None
        if answered is not None:
            return answered
    from batchlog.cli.app import run

    return run(args)


def _require_utf8(args: list[str]) -> int:
    """Refuse (a usage error, exit 2) an argument that is not valid UTF-8, naming the option it was given to:
    Python hands such bytes over as lone surrogates, which no log, file or message can hold."""
    for index, arg in enumerate(args):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError as error:
            from batchlog.engine.errors import BadSetting

            byte = arg.encode("utf-8", "surrogateescape")[len(arg[: error.start].encode("utf-8", "surrogateescape"))]
            option, equals, _ = arg.partition("=")
            if arg.startswith("--") and equals and error.start > len(option):
                where = f"the value of {option}"
            elif index and args[index - 1].startswith("-") and args[index - 1] != "--":
                where = f"the value of {args[index - 1]}"
            else:
                where = f"argument {index + 1}"
            raise BadSetting(f"{where} is not valid UTF-8 (byte 0x{byte:02x} at position {error.start + 1}): "
                             "batchlog takes arguments in UTF-8 only", argument=index + 1)
    return 0


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
