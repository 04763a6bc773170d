"""Many processes appending to one log at once through the public API (snapshots on, as the CLI runs)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

from batchlog.engine import EventLog, open_log
from batchlog.engine.verify import verify
from tests.sample_domain import COUNT, NOTES, REGISTRY

WRITER = """
import sys
from batchlog.engine import open_log
from tests.sample_domain import COUNT, REGISTRY, NoteAdded
log = open_log(sys.argv[1], REGISTRY)
name, count = sys.argv[2], int(sys.argv[3])
for n in range(count):
    event, = log.append(COUNT, lambda state: [NoteAdded(f"{name}-{n}")]).events
    print(event.seq, event.id, event.data.text, flush=True)
"""

PROCESSES = 8
EVENTS_EACH = 500


def test_eight_processes_appending_500_events_each_lose_and_repeat_nothing(tmp_path):
    log_path = tmp_path / "events.jsonl"
    root = Path(__file__).resolve().parent.parent
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(log_path), f"w{n}", str(EVENTS_EACH)],
                         stdout=subprocess.PIPE, text=True, cwd=root)
        for n in range(PROCESSES)
    ]
    acknowledged = []
    for writer in writers:
        out, _ = writer.communicate(timeout=300)
        assert writer.returncode == 0
        acknowledged.extend(tuple(line.split(" ", 2)) for line in out.splitlines())

    events = list(EventLog(log_path, REGISTRY).scan())

    total = PROCESSES * EVENTS_EACH
    assert len(acknowledged) == total
    assert [e.seq for e in events] == list(range(1, total + 1))
    assert verify(log_path, REGISTRY).trusted
    in_log = {(str(e.seq), e.id, e.data.text) for e in events}
    assert set(acknowledged) == in_log
    texts = [e.data.text for e in events]
    assert len(set(texts)) == total
    for n in range(PROCESSES):
        mine = [int(t.split("-")[1]) for t in texts if t.startswith(f"w{n}-")]
        assert mine == list(range(EVENTS_EACH))
    assert len(EventLog(log_path, REGISTRY).replay(NOTES).state) == total
    assert open_log(log_path, REGISTRY).replay(COUNT).state.notes == total
    assert all(orjson.loads(line) for line in log_path.read_bytes().splitlines())
