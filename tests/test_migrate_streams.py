"""`log migrate` streams (issue 25): its memory stays flat in the log's length, whatever the destination.

Old main held the whole log (1.38 GB at its peak for a 303 MB log): the source's lines in a list, joined into one
payload, the destination read back into another. Measured here in process with tracemalloc, not timed: the peak
of migrating N events against 10N, with generous headroom (flat is a ratio near 1; holding the log is near 10).
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from batchlog.engine.chain import line_hash
from batchlog.engine.envelope import encode_line
from batchlog.engine.migrate import migrate
from batchlog.engine.verify import verify
from tests.sample_domain import REGISTRY
from tests.stores import store_for

EVENTS = 5_000  # about 1.6 MB of lines, more than one block of the copy (1 MiB)
MOST_RATIO = 2.5


def written_log(path: Path, events: int) -> Path:
    """A log of `events` notes (about 330 bytes a line), written directly: the setup is not measured."""
    path.parent.mkdir(parents=True)
    prev = line_hash(b"")
    with open(path, "wb") as fh:
        for seq in range(1, events + 1):
            line = encode_line(seq, "sample.note_added", 1, "2026-12-02T16:00:00.000Z",
                               {"text": f"note {seq} " + "x" * 200, "tags": [], "weight": seq}, prev)
            fh.write(line + b"\n")
            prev = line_hash(line)
    return path


def peak_bytes(source: Path, destination: str) -> int:
    tracemalloc.start()
    try:
        migrate(str(source), destination, REGISTRY)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("kind", ["file", "postgresql"])
def test_migrating_ten_times_the_events_takes_about_the_same_memory(tmp_path, request, log_name, kind):
    url = request.getfixturevalue("postgres_url") if kind == "postgresql" else None
    small = written_log(tmp_path / "small" / "events.jsonl", EVENTS)
    large = written_log(tmp_path / "large" / "events.jsonl", 10 * EVENTS)
    to_small = store_for(kind, f"{log_name}-small", tmp_path / "to", url)
    to_large = store_for(kind, f"{log_name}-large", tmp_path / "to", url)

    ratio = peak_bytes(large, to_large.address) / peak_bytes(small, to_small.address)

    assert ratio < MOST_RATIO, f"migrating 10x the events took {ratio:.2f}x the memory"
    assert to_large.bytes() == large.read_bytes() and verify(large, REGISTRY).events == 10 * EVENTS
