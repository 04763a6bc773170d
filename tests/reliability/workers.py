"""Forked worker processes and the checks made on a log after they die.

A worker is forked from the test process (cheap: the engine is already
imported), so hundreds of SIGKILLs fit in a CI budget. It reports every event it
was told was appended, after `append` returned, one `seq id` line per event in
its own report file.
"""

from __future__ import annotations

import collections
import os
import signal
import sys
import time
import traceback
from pathlib import Path

import orjson

from batchlog.engine import EventLog, Projection, Registry
from batchlog.engine.snapshots.file import Snapshots
from batchlog.engine.verify import verify
from batchlog.engine.lines import LineReader
from batchlog.engine.recorders.file_lock import exclusive


def fork(target, *args, env: dict[str, str] | None = None) -> int:
    """Run `target(*args)` in a child process; it exits 0 on return, 1 on an exception."""
    pid = os.fork()
    if pid:
        return pid
    code = 0
    try:
        os.environ.update(env or {})
        target(*args)
    except BaseException:  # the child must never return into pytest
        traceback.print_exc(file=sys.stderr)
        code = 1
    finally:
        os._exit(code)


def kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def wait(pid: int) -> int:
    """The child's exit code, or -N when signal N ended it."""
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def report(fd: int, events) -> None:
    """What a writer does right after `append` returned: tell the test the events are acknowledged."""
    if events:
        os.write(fd, b"".join(f"{event.seq} {event.id}\n".encode() for event in events))


def reported(folder: Path) -> list[tuple[int, str]]:
    """Every (seq, id) the writers' report files hold (a half-written report line is ignored)."""
    found = []
    for path in sorted(folder.glob("report-*")):
        for line in path.read_bytes().split(b"\n")[:-1]:
            seq, id_ = line.split()
            found.append((int(seq), id_.decode()))
    return found


def log_lines(path: Path) -> list[dict]:
    """The complete lines of the log, decoded (the torn tail left out)."""
    if not path.exists():
        return []
    return [orjson.loads(line) for line in LineReader(path)]


def assert_acknowledged_kept(path: Path, acknowledged: list[tuple[int, str]]) -> None:
    """Every acknowledged event is in the log exactly once, at its seq, unaltered."""
    lines = log_lines(path)
    ids = collections.Counter(line["id"] for line in lines)
    by_seq = {line["seq"]: line["id"] for line in lines}
    lost = [(seq, id_) for seq, id_ in acknowledged if by_seq.get(seq) != id_]
    assert not lost, f"acknowledged events lost or altered: {lost[:5]}"
    twice = [id_ for id_, count in ids.items() if count > 1]
    assert not twice, f"events written twice: {twice[:5]}"


def assert_trusted(path: Path, registry: Registry, *, torn_allowed: bool = False) -> None:
    """The log verifies, its seqs count from 1; with `torn_allowed`, a torn tail or part of a command never
    finished (which verify names apart, never counted) may follow what verifies."""
    report_ = verify(path, registry)
    assert report_.trusted, [p.message for p in report_.problems]
    lines = log_lines(path)
    if not torn_allowed:
        assert report_.torn_bytes == 0 and report_.unfinished.start is None
        assert len(lines) == report_.lines
    assert [line["seq"] for line in lines[: report_.lines]] == list(range(1, report_.last_seq + 1))


def full_replay(path: Path, registry: Registry, projection: Projection):
    """The state from a fold of every line, with no snapshot."""
    return EventLog(path, registry).replay(projection).state


def assert_views_match_full_replay(path: Path, registry: Registry, projection: Projection) -> None:
    """A view through snapshots equals a fresh full replay."""
    expected = full_replay(path, registry, projection)
    snapshotted = EventLog(path, registry, snapshots=Snapshots(every=1)).replay(projection).state
    assert snapshotted == expected


def hold_lock(path, ready_w: int, then_die: bool) -> None:
    with exclusive(path):
        os.write(ready_w, b"x")
        if then_die:
            os.kill(os.getpid(), 9)
        time.sleep(30)


def holder(folder: Path, *, then_die: bool) -> int:
    """A forked process holding the lock of folder/events.jsonl (dying at once if told to); its pid."""
    read_end, write_end = os.pipe()
    pid = fork(hold_lock, folder / "events.jsonl", write_end, then_die)
    os.close(write_end)
    assert os.read(read_end, 1) == b"x"
    os.close(read_end)
    return pid


def wait_stopped(pid: int) -> None:
    """Return once the child has stopped itself at a pause point (engine/crash_hook.py): the handshake."""
    _, status = os.waitpid(pid, os.WUNTRACED)
    assert os.WIFSTOPPED(status), f"the child ended instead of pausing: {os.waitstatus_to_exitcode(status)}"


def resume(pid: int) -> None:
    os.kill(pid, signal.SIGCONT)
