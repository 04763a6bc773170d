"""`python -m bench`, from a clone (the installed package does not ship the bench): every case side by side with
its baseline, one table, exit 0 when every row passes.

Inputs are generated in a temporary folder that is removed afterwards. `--quick`
runs smaller sizes (for CI), `--json` prints the rows as one JSON object.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import orjson

from bench.agent_cases import process_rows
from bench.domain_cases import quick_batch_rows, tune_rows
from bench.engine_cases import append_rows, replay_rows
from bench.install import Install, install
from bench.measure import PROCESS_ROUNDS, QUICK_PROCESS_ROUNDS, ROUNDS, Row, table
from bench.scale_cases import scale_rows
from bench.store_cases import store_rows
from bench.watch_cases import watch_rows

FULL_EVENTS, QUICK_EVENTS = 1_000_000, 20_000
FULL_APPENDS, QUICK_APPENDS = 100, 20
GROUPS = ["engine", "domain", "process", "scale", "store", "watch"]


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_EVENTS:,} events instead of {FULL_EVENTS:,}")
    parser.add_argument("--json", action="store_true", help="the rows as one JSON object on stdout")
    parser.add_argument("--events", type=int, help="the log length of the replay cases (overrides the mode)")
    parser.add_argument("--appends", type=int, help="commands in the append cases (overrides the mode)")
    parser.add_argument("--repeats", type=int,
                        help=f"rounds of each row (default {ROUNDS} in-process, {PROCESS_ROUNDS} for processes, "
                             f"{QUICK_PROCESS_ROUNDS} with --quick)")
    parser.add_argument("--only", choices=GROUPS, action="append", help="run only these groups of rows")
    return parser


def main(argv: list[str] | None = None, prog: str = "python -m bench") -> int:
    args = _parser(prog).parse_args(argv)
    events = args.events or (QUICK_EVENTS if args.quick else FULL_EVENTS)
    appends = args.appends or (QUICK_APPENDS if args.quick else FULL_APPENDS)
    rounds = args.repeats or ROUNDS
    process_rounds = args.repeats or (QUICK_PROCESS_ROUNDS if args.quick else PROCESS_ROUNDS)
    groups = set(args.only or GROUPS)
    began = time.monotonic()
    rows: list[Row] = []
    built: list[Install] = []
    with tempfile.TemporaryDirectory(prefix="batchlog-bench-") as temp:
        folder = Path(temp)

        def installed() -> Install:
            """The wheel's install the process rows run, built on first use (once a run)."""
            if not built:
                built.append(install(folder / "install"))
            return built[0]

        steps: list[tuple[str, Callable[[], list[Row]]]] = [
            ("engine", lambda: replay_rows(folder, events, rounds)),
            ("engine", lambda: append_rows(folder, appends, rounds)),
            ("domain", lambda: tune_rows(folder, events, rounds)),
            ("domain", lambda: quick_batch_rows(folder, events, rounds)),
            ("process", lambda: process_rows(folder, process_rounds, events, installed())),
            ("scale", lambda: scale_rows(folder, events, rounds, installed())),
            ("store", lambda: store_rows(folder, events, appends, rounds, process_rounds, installed)),
            ("watch", lambda: watch_rows(folder, process_rounds, args.quick, installed())),
        ]
        for group, step in steps:
            if group in groups:
                rows.extend(step())
                if not args.json:
                    print(f"  … {len(rows)} rows, {time.monotonic() - began:.0f}s", file=sys.stderr)
    elapsed = time.monotonic() - began
    if args.json:
        print(orjson.dumps({"rows": [row.as_dict() for row in rows], "passed": all(_ok(r) for r in rows),
                            "machine": machine(), "date": datetime.date.today().isoformat(),
                            "seconds": round(elapsed, 1), "events": events,
                            "install": built[0].as_dict() if built else None}).decode())
    else:
        print(table(rows))
        if built:
            print(f"\nProcess rows: batchlog from {built[0].describe()}; timed by each process's CPU time (user + "
                  "system; a note's `wall` is the wall-clock ratio), the PostgreSQL rows and the watches' latencies "
                  "by the wall clock.")
        print(f"\n{machine()}, {datetime.date.today().isoformat()}, {elapsed:.0f}s")
    return 0 if all(_ok(row) for row in rows) else 1


def _ok(row: Row) -> bool:
    return row.passed or row.skipped


def machine() -> str:
    import os

    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
