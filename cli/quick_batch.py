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
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_REFUSED, EXIT_USAGE, EXIT_UNTRUSTED = 0, 1, 2, 3


def line(value: Any) -> str:
    """One ASCII JSON line, no space after `,` or `:` (the seed's format)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True)


def _emit(value: Any, stream: str = "stdout") -> None:
    print(line(value), file=sys.stderr if stream == "stderr" else sys.stdout)


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand; with `only` (a subcommand's name), only that one's arguments are added
    (the others are listed, for the usage message, without theirs): a command builds what it parses."""
    parser = argparse.ArgumentParser(
        prog="batchlog quick-batch",
        description="A batch of targets driven one by one through a workflow, its state an event log "
                    "(<run dir>/events.jsonl). Same arguments, lines, files and exit codes as skf-quick-batch.py.")
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = _sub(sub, only, "parse", help="print the batch file's numbered targets")
    p.add_argument("file", help="the batch file")
    p = _sub(sub, only, "start", help="start the batch, every target pending (or resume it)")
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
    p = _sub(sub, only, "next", help="hand out the next pending target (its start event on stderr)")
    p.add_argument("--run-dir", required=True, help="the batch run folder")
    p = _sub(sub, only, "record", help="record how a target ended and print its end event")
    p.add_argument("--run-dir", required=True, help="the batch run folder")
    p.add_argument("--batch", type=int, required=True, help="the target's number, as next printed it")
    p.add_argument("--target", choices=["stdout", "stderr"], default="stdout",
                   help="the stream the event line goes to (default: stdout)")
    p.add_argument("--exit-codes", default=None, metavar="FILE",
                   help="halt_reason -> exit code for this record (default: the batch's map)")
    p = _sub(sub, only, "summarize", help="end the batch: write the summary, print the batch_summary event")
    p.add_argument("--run-dir", required=True, help="the batch run folder")
    p.add_argument("--output-dir", required=True, help="the folder the summary files go to")
    p.add_argument("--target", choices=["stdout", "stderr"], default="stdout",
                   help="the stream the event line goes to (default: stdout)")
    p = _sub(sub, only, "status", help="targets done, failed, pending and in progress, with their times")
    p.add_argument("--run-dir", required=True, help="the batch run folder")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("--at", type=int, default=None, metavar="SEQ", help="the batch as the log stood after event SEQ")
    p = _sub(sub, only, "import", help="turn a skf-quick-batch.py batch.jsonl into events.jsonl")
    p.add_argument("--run-dir", required=True, help="the batch run folder holding batch.jsonl")
    return parser


class _Unbuilt:
    """Stands for a subcommand's parser that this run does not use: its arguments are not added."""

    def add_argument(self, *args: Any, **kwargs: Any) -> None:
        pass


def _sub(sub: Any, only: str | None, name: str, **kwargs: Any) -> Any:
    parser = sub.add_parser(name, **kwargs)
    return parser if only is None or name == only else _Unbuilt()


def _refusal(error: Any) -> int:
    """One JSON line on stderr, as the seed prints a refusal; exit 1 (3: a log that cannot be trusted; 2: a
    setting that is a usage error)."""
    from engine import BadSetting, LogError

    body = {"status": "error", "message": error.message}
    halt_reason = error.fields.get("halt_reason")
    if halt_reason:
        body["halt_reason"] = halt_reason
    print(json.dumps(body), file=sys.stderr)
    if isinstance(error, BadSetting):
        return EXIT_USAGE
    return EXIT_UNTRUSTED if isinstance(error, LogError) else EXIT_REFUSED


def main(args: list[str]) -> int:
    """Run `batchlog quick-batch ARGS...`; return the exit code (argparse exits 2 on usage errors)."""
    parsed = _parser(args[0] if args and not args[0].startswith("-") else None).parse_args(args)
    from engine import EngineError
    from projections.errors import Refused

    try:
        return _run(parsed)
    except (Refused, EngineError) as error:
        return _refusal(error)
    except BrokenPipeError:
        return EXIT_REFUSED
    except Exception as error:  # a bug: one line for users, a traceback for tests
        if os.environ.get("BATCHLOG_DEBUG"):
            raise
        print(json.dumps({"status": "error", "message": f"unexpected error: {type(error).__name__}: {error}"}),
              file=sys.stderr)
        return EXIT_REFUSED


def _run(args: argparse.Namespace) -> int:
    from cli import quick_batch_commands as commands

    if args.cmd == "parse":
        _emit(commands.parse(args.file))
    elif args.cmd == "start":
        _emit(commands.start(args))
    elif args.cmd == "next":
        answer, start_event = commands.next_target(Path(args.run_dir))
        if start_event is not None:
            _emit(start_event, "stderr")
        _emit(answer)
    elif args.cmd == "record":
        _emit(commands.record(Path(args.run_dir), args.batch, args.exit_codes), args.target)
    elif args.cmd == "summarize":
        _emit(commands.summarize(Path(args.run_dir), Path(args.output_dir)), args.target)
    elif args.cmd == "status":
        from cli.quick_batch_status import status

        print(status(Path(args.run_dir), args.json, args.at), file=sys.stdout)
    else:
        from cli.quick_batch_status import import_seed_batch

        _emit(import_seed_batch(Path(args.run_dir)))
    return EXIT_OK
