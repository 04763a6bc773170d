"""`batchlog quick-batch ...`: skf-quick-batch.py's contract (same lines, files and exit codes)
on an event log, `<run dir>/events.jsonl`, plus `status` and `import`.

Parse, call one decision or view, render. Every write is one `EventLog.append`
whose decide function runs under the log's lock. Imports are kept to what
`next` needs: yaml and jsonschema only for `start --briefs`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from batchlog.cli.errors import EXIT_OK, seed_reported


def line(value: Any) -> str:
    """One ASCII JSON line, no space after `,` or `:` (the seed's format)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True)


def _emit(value: Any, stream: str = "stdout") -> None:
    from batchlog.cli import terminal

    terminal.show_json(line(value) + "\n", err=stream == "stderr")


RUN = "_bmad-output/.skf-run/skf-quick-skill-x"
# Each subcommand: its help line and the example its --help ends with (a command that runs as it stands).
COMMANDS = {
    "parse": ("print the batch file's numbered targets", "batchlog quick-batch parse targets.txt"),
    "start": ("start the batch, every target pending (or resume it)",
              f"batchlog quick-batch start targets.txt --run-dir {RUN}"),
    "next": ("hand out the next pending target (its start event on stderr)", f"batchlog quick-batch next --run-dir {RUN}"),
    "record": ("record how a target ended and print its end event",
               f"batchlog quick-batch record --run-dir {RUN} --batch 1"),
    "summarize": ("end the batch: write the summary, print the batch_summary event",
                  f"batchlog quick-batch summarize --run-dir {RUN} --output-dir _bmad-output"),
    "status": ("targets done, failed, pending and in progress, with their times",
               "batchlog quick-batch status --run-dir fixtures/quick_batch/skf-quick-skill-demo --json"),
    "import": ("turn a skf-quick-batch.py batch.jsonl into events.jsonl", f"batchlog quick-batch import --run-dir {RUN}"),
    "watch": ("watch the batch live until it is summarized (JSON Lines without a terminal; Ctrl-C: exit 130)",
              f"batchlog quick-batch watch --run-dir {RUN}"),
}


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's, as wide as `shutil.get_terminal_size()` says, found without importing shutil (which
    imports bz2, lzma and fnmatch): argparse makes one formatter per argument added."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


def _columns() -> int:
    """The terminal's width as `shutil.get_terminal_size().columns` finds it: $COLUMNS, else stdout's, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand; with `only` (a subcommand's name), only that one's parser is built (the
    usage line still lists every subcommand): a command builds what it parses."""
    parser = argparse.ArgumentParser(
        prog="batchlog quick-batch", formatter_class=_Formatter,
        description="A batch of targets driven one by one through a workflow, its state an event log "
                    "(<run dir>/events.jsonl). Same arguments, lines, files and exit codes as skf-quick-batch.py.",
        epilog=f"Example: {COMMANDS['next'][1]}")
    if only in COMMANDS:
        # The subcommand is given: only its parser is built; the usage line still lists every one.
        sub = parser.add_subparsers(dest="cmd", required=True, metavar="{" + ",".join(COMMANDS) + "}")
    else:
        sub = parser.add_subparsers(dest="cmd", required=True)
    p = _command(sub, "parse", only)
    p.add_argument("file", help="the batch file")
    p = _command(sub, "start", only)
    p.add_argument("file", nargs="?", default=None, help="the batch file (skf-quick-skill)")
    p.add_argument("--briefs", nargs="+", default=None, metavar="PATH",
                   help="skf-create-skill: skill-brief.yaml files, or folders holding them")
    p.add_argument("--run-dir", default=None, help="the batch run folder (holds events.jsonl)")
    p.add_argument("--run-root", default=None, help="with --briefs: the folder the briefs' run folder is made in")
    p.add_argument("--fail-fast", action="store_true", help="end the batch at the first failed target")
    p.add_argument("--brief-validator", default=None, metavar="FILE",
                   help="skill-forge's skf-validate-brief-schema.py, loaded to check the briefs (default: "
                        "$BATCHLOG_BRIEF_VALIDATOR, else the one beside the schemas folder of --brief-schema)")
    p.add_argument("--brief-schema", default=None, metavar="FILE",
                   help="skill-forge's schemas/skill-brief.v1.json: its validator is the "
                        "skf-validate-brief-schema.py beside the schemas folder (default: $BATCHLOG_BRIEF_SCHEMA)")
    p.add_argument("--exit-codes", default=None, metavar="FILE",
                   help="halt_reason -> exit code: an envelope schema or a JSON object (kept for the batch)")
    p = _command(sub, "next", only)
    p.add_argument("--run-dir", required=True, help="the batch run folder")
    p = _command(sub, "record", only)
    p.add_argument("--run-dir", required=True, help="the batch run folder")
    p.add_argument("--batch", type=int, required=True, help="the target's number, as next printed it")
    p.add_argument("--target", choices=["stdout", "stderr"], default="stdout",
                   help="the stream the event line goes to (default: stdout)")
    p.add_argument("--exit-codes", default=None, metavar="FILE",
                   help="halt_reason -> exit code for this record (default: the batch's map)")
    p = _command(sub, "summarize", only)
    p.add_argument("--run-dir", required=True, help="the batch run folder")
    p.add_argument("--output-dir", required=True, help="the folder the summary files go to")
    p.add_argument("--target", choices=["stdout", "stderr"], default="stdout",
                   help="the stream the event line goes to (default: stdout)")
    p = _command(sub, "status", only)
    p.add_argument("--run-dir", required=True, help="the batch run folder")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("--at", type=int, default=None, metavar="SEQ", help="the batch as the log stood after event SEQ")
    p = _command(sub, "import", only)
    p.add_argument("--run-dir", required=True, help="the batch run folder holding batch.jsonl")
    p = _command(sub, "watch", only)
    p.add_argument("--run-dir", required=True, help="the batch run folder")
    p.add_argument("--json", action="store_true", help="JSON Lines on stdout: status --json's fields and the event, "
                                                       "one line per change")
    return parser


def _store_options(parser: Any) -> None:
    """`--store URL` and `--log NAME`: where the batch's log is kept (cli/store.py); the run folder keeps the rest."""
    from batchlog.cli import store

    parser.add_argument("--store", default=None, metavar="URL", type=_checked(store.check_store),
                        help=store.store_help("<run dir>/events.jsonl"))
    parser.add_argument("--log", default=None, metavar="NAME", type=_checked(store.check_log_name),
                        help=store.log_help("the run folder's name"))


def _checked(check: Callable[[str], str]) -> Callable[[str], str]:
    """An argparse type: `check`'s ValueError is a usage error (exit 2) naming the fix."""

    def value(text: str) -> str:
        try:
            return check(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return value


def _command(sub: Any, name: str, only: str | None = None) -> Any:
    """A subcommand's parser, its help ending with its example; a stand-in that adds nothing when this run
    parses another subcommand (only listed, for the usage line, when `only` is not a subcommand's name)."""
    if only in COMMANDS and name != only:
        return _Unbuilt()
    help_text, example = COMMANDS[name]
    parser = sub.add_parser(name, help=help_text, description=help_text, epilog=f"Example: {example}",
                            formatter_class=_Formatter)
    if only is not None and name != only:
        return _Unbuilt()
    if name != "parse":
        _store_options(parser)
    return parser


class _Unbuilt:
    """Stands for a subcommand's parser that this run does not use: its arguments are not added."""

    def add_argument(self, *args: Any, **kwargs: Any) -> None:
        pass


def front(args: list[str]) -> int:
    """`batchlog quick-batch ...` before the typer app is built (cli/main.py): the seed's argparse contract (usage
    errors, exit 2), and a fast start (no typer)."""
    return main(args[1:])


def main(args: list[str]) -> int:
    """Run `batchlog quick-batch ARGS...`; return the exit code (argparse exits 2 on usage errors)."""
    parsed = _parser(args[0] if args and not args[0].startswith("-") else None).parse_args(args)
    return seed_reported(lambda: _run(parsed))


def _run(args: argparse.Namespace) -> int:
    from batchlog.cli.quick_batch import commands as commands
    from batchlog.cli.store import chosen

    if args.cmd == "parse":
        _emit(commands.parse(args.file))
        return EXIT_OK
    store = chosen(args.store, args.log)
    if args.cmd == "start":
        _emit(commands.start(args, store))
    elif args.cmd == "next":
        answer, start_event = commands.next_target(Path(args.run_dir), store)
        if start_event is not None:
            _emit(start_event, "stderr")
        _emit(answer)
    elif args.cmd == "record":
        _emit(commands.record(Path(args.run_dir), args.batch, args.exit_codes, store), args.target)
    elif args.cmd == "summarize":
        _emit(commands.summarize(Path(args.run_dir), Path(args.output_dir), store), args.target)
    elif args.cmd == "status":
        from batchlog.cli import terminal
        from batchlog.cli.quick_batch.status import status

        terminal.show(status(Path(args.run_dir), args.json, args.at, store) + "\n")
    elif args.cmd == "watch":
        from batchlog.cli.quick_batch.watch import watch  # here: no other subcommand imports the watch (nor rich)

        return watch(Path(args.run_dir), args.json, store)
    else:
        from batchlog.cli.quick_batch.status import import_seed_batch

        _emit(import_seed_batch(Path(args.run_dir), store))
    return EXIT_OK
