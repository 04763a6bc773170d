"""The PostgreSQL store's rows, each against the same work on the file store in the same run: a fresh command's
append, a `tune next` process, a full replay and a replay from a snapshot.

They need a server: BATCHLOG_BENCH_POSTGRES (else BATCHLOG_TEST_POSTGRES) names a database the bench may write
logs into (each run its own log names); without one the rows are printed as skipped. Every figure is wall-clock
time: the server's share of the work is done in another process, which CPU time would not count.
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

from bench.domain_cases import _tune
from bench.install import Install, install
from bench.measure import Row, Timing, side_by_side, table, wall_seconds
from bench.processes import Step, environment, panel, run, wall_timing
from bench.workloads import ENGINE_REGISTRY, TOTALS, measured, tuning_events, write_log
from batchlog.engine import EventLog, open_log

SERVER_ENV = ("BATCHLOG_BENCH_POSTGRES", "BATCHLOG_TEST_POSTGRES")


def server() -> str | None:
    """The database the bench may use, if any."""
    return next((os.environ[name] for name in SERVER_ENV if os.environ.get(name)), None)


def _on_server(url: str, name: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}log={name}"


def store_rows(folder: Path, events: int, appends: int, rounds: int, process_rounds: int,
               installed: Callable[[], Install]) -> list[Row]:
    """Every PostgreSQL row, or the same rows skipped when no server is named (`installed`: the wheel's install,
    built when first asked for)."""
    url = server()
    cases = [("append", "PostgreSQL append, a fresh command per append (vs the file's, fsync on)", 3.0),
             ("next", "`batchlog tune next` as a process, log on PostgreSQL (vs on the file)", 1.5),
             ("replay", f"full replay of {events:,} events from PostgreSQL (vs from the file)", 2.0),
             ("snapshot", f"`tune status` from a snapshot, {events:,} events on PostgreSQL (vs from the file's)", 2.0)]
    if url is None:
        why = f"no PostgreSQL server: set {SERVER_ENV[0]} to a database URL"
        return [Row(case, None, None, "s", high, note=why) for _, case, high in cases]
    tag = uuid.uuid4().hex[:8]  # this run's log names
    makers = {"append": lambda: _append(folder, url, tag, appends, rounds),
              "next": lambda: _tune_next(folder, url, tag, process_rounds, installed()),
              "replay": lambda: _replay(folder, url, tag, events, rounds),
              "snapshot": lambda: _snapshot(folder, url, tag, events, rounds)}
    return [Row.timed(case, makers[key](), high, unit="s") for key, case, high in cases]


def _append(folder: Path, url: str, tag: str, appends: int, rounds: int):
    """`appends` commands, each opening its log anew and appending one event: on the server, and in a file."""
    events = list(measured(appends))
    counter = iter(range(10**9))
    names: dict[str, str] = {}

    def prepare() -> None:
        names["pg"] = _on_server(url, f"bench-append-{tag}-{next(counter)}")

    def prepare_file() -> None:
        names["file"] = str(folder / f"store-append-{next(counter)}.jsonl")

    def commands(address_key: str) -> None:
        for event in events:
            open_log(names[address_key], ENGINE_REGISTRY).append(TOTALS, lambda state, e=event: [e])

    return side_by_side(lambda: commands("pg"), lambda: commands("file"), rounds, prepare=prepare,
                        prepare_baseline=prepare_file, clock=wall_seconds)


def _tune_next(folder: Path, url: str, tag: str, rounds: int, install: Install) -> Timing:
    """`batchlog tune next` on a 64-case tuning two batches in, its log on the server against its log in a file."""
    work = folder / "store-next"
    name = f"bench-next-{tag}"
    work.mkdir()
    env = environment(folder)
    dataset = work / "dataset.json"
    dataset.write_text('{"cases": [' + ",".join(f'{{"id": "case-{i:03d}", "class": "c{i % 4}"}}'
                                                for i in range(64)) + "]}")
    batchlog = str(install.batchlog)
    for store in ((), ("--store", url, "--log", name)):
        for args in (("init", "--dataset", str(dataset)), ("next-batch", "-o", "finetune/runs/b1/cases.json")):
            run((batchlog, "tune", *args, "--dir", "finetune", *store), work, env)
    base = (batchlog, "tune", "next", "--dir", "finetune")
    runs = panel({"server": Step((*base, "--store", url, "--log", name), work), "file": Step(base, work)}, rounds, env)
    return wall_timing(runs["server"], runs["file"])


def _filled(folder: Path, url: str, name: str, events: int) -> tuple[str, Path]:
    """A tuning log of `events` events in a file, and the same lines on the server (migrated)."""
    from batchlog.engine.migrate import migrate

    registry, _, _, _ = _tune()
    path = folder / f"{name}.jsonl"
    write_log(path, registry, tuning_events(events))
    address = _on_server(url, name)
    migrate(str(path), address, registry)
    return address, path


def _replay(folder: Path, url: str, tag: str, events: int, rounds: int):
    registry, tune, _, _ = _tune()
    address, path = _filled(folder, url, f"bench-replay-{tag}", events)
    from batchlog.engine.address import recorder_for

    return side_by_side(lambda: EventLog(recorder_for(address), registry).replay(tune),
                        lambda: EventLog(path, registry).replay(tune), rounds, clock=wall_seconds)


def _snapshot(folder: Path, url: str, tag: str, events: int, rounds: int):
    """A view whose snapshot is up to date (written by a first view), on the server and in a file."""
    registry, tune, _, _ = _tune()
    address, path = _filled(folder, url, f"bench-snapshot-{tag}", events)
    for where in (address, path):
        open_log(where, registry).replay(tune)  # writes the snapshot
    return side_by_side(lambda: open_log(address, registry).replay(tune),
                        lambda: open_log(path, registry).replay(tune), rounds, clock=wall_seconds)


if __name__ == "__main__":  # a quick look: python -m bench.store_cases
    import tempfile

    with tempfile.TemporaryDirectory() as temp:
        print(table(store_rows(Path(temp), 20_000, 20, 5, 9, lambda: install(Path(temp) / "install"))))
    sys.exit(0)
