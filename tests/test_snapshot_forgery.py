"""Snapshots that an edit `log verify` would catch cannot fool (issue 23, item 6).

A snapshot lets a view fold only the lines after it, so what vouches for the lines before it decides whether
an edit there is seen. The edits forged here are the issue's own: on a file, line 2 changed and the CRC-32 of
the bytes before the snapshot's line kept (CRC-32 is linear: 4 bytes' worth of bits, solved for); on
PostgreSQL, line 2 changed and the log's `rewrites` count set back in the same transaction. Each store's
every path that uses a snapshot (a view, a view `--at` a seq after it, an append) must then refuse the log as
a full replay does, never answer from the snapshot.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import orjson
import pytest

from batchlog.engine import EventLog, open_log
from batchlog.engine.address import parse_address, recorder_for
from batchlog.engine.errors import LogDamaged
from batchlog.engine.verify import verify
from tests.sample_domain import COUNT, REGISTRY, NoteAdded
from tests.stores import STORES, Store, store_for

CLOCK = "2026-12-02T16:00:00Z"
EVENTS = 230  # past SNAPSHOT_EVERY: a view writes a snapshot
LETTERS = "a" * 37  # the free bits of line 2: a letter in 0x60-0x6f stays printable when its low 4 bits change


@pytest.fixture(params=STORES)
def store(request, tmp_path, log_name, monkeypatch) -> Store:
    monkeypatch.setenv("BATCHLOG_CLOCK", CLOCK)
    url = request.getfixturevalue("postgres_url") if request.param == "postgresql" else None
    return store_for(request.param, log_name, tmp_path, url)


def _snapshotted(store: Store) -> None:
    """A log of EVENTS notes (the second one's text 37 letters long) and a snapshot of COUNT at its end."""
    log = open_log(store.address, REGISTRY)
    for number in range(EVENTS):
        text = LETTERS if number == 1 else f"n{number}"
        log.append(COUNT, lambda state, text=text: [NoteAdded(text, weight=1)])
    open_log(store.address, REGISTRY).replay(COUNT)
    assert store.snapshot(COUNT.name) is not None


# -- the forgeries -----------------------------------------------------------------------------


def crc_kept(original: bytes, edited: bytes, free: list[int]) -> bytes:
    """`edited`, with some of the low 4 bits of the bytes at `free` flipped so that its CRC-32 is `original`'s.

    CRC-32 is affine over GF(2): for messages of one length, crc(m ^ d) = crc(m) ^ crc(d) ^ crc(zeros). The
    bits to flip are found by Gaussian elimination over the 32-bit effect of each free bit."""
    zero = zlib.crc32(bytes(len(edited)))
    target = zlib.crc32(original) ^ zlib.crc32(edited)
    basis: dict[int, tuple[int, int]] = {}  # pivot bit -> (effect, the free bits whose flips make it: a mask)
    for number, (index, bit) in enumerate((index, bit) for index in free for bit in range(4)):
        delta = bytearray(len(edited))
        delta[index] = 1 << bit
        effect, chosen = zlib.crc32(bytes(delta)) ^ zero, 1 << number
        for pivot, (known, known_chosen) in basis.items():
            if effect >> pivot & 1:
                effect, chosen = effect ^ known, chosen ^ known_chosen
        if effect:
            pivot = effect.bit_length() - 1
            for other, (known, known_chosen) in list(basis.items()):
                if known >> pivot & 1:
                    basis[other] = (known ^ effect, known_chosen ^ chosen)
            basis[pivot] = (effect, chosen)
    chosen = 0
    for pivot, (effect, mask) in basis.items():
        if target >> pivot & 1:
            chosen ^= mask
    forged = bytearray(edited)
    for number, (index, bit) in enumerate((index, bit) for index in free for bit in range(4)):
        if chosen >> number & 1:
            forged[index] ^= 1 << bit
    assert zlib.crc32(bytes(forged)) == zlib.crc32(original)
    return bytes(forged)


def forge_file(store: Store) -> None:
    """Line 2's weight changed, its text re-solved so the bytes before the snapshot's line keep their CRC-32."""
    path = Path(store.address)
    data = path.read_bytes()
    snapshot = orjson.loads(store.snapshot(COUNT.name).partition(b"\n")[2])
    line_start = data.rfind(b"\n", 0, snapshot["position"]["offset"] - 1) + 1
    prefix = data[:line_start]
    second = prefix.index(b"\n") + 1
    text = prefix.index(LETTERS.encode(), second)
    edited = prefix[:second] + prefix[second:].replace(b'"weight":1', b'"weight":9', 1)
    forged = crc_kept(prefix, edited, list(range(text, text + len(LETTERS))))
    assert forged != prefix and forged[second:].split(b"\n")[0] != prefix[second:].split(b"\n")[0]
    path.write_bytes(forged + data[line_start:])


def forge_postgresql(store: Store) -> None:
    """Line 2 changed with SQL and, in the same transaction, every count the store keeps of rewrites set back."""
    recorder = recorder_for(store.address)
    name = parse_address(store.address).name
    conn = recorder.connection()
    with conn.cursor() as cur:
        cur.execute("SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = 'batchlog' "
                    "AND table_name = 'logs' AND column_name = 'rewrites')")
        counted = cur.fetchone()[0]
        if counted:
            cur.execute("SELECT rewrites FROM batchlog.logs WHERE name = %s", (name,))
            before = cur.fetchone()[0]
        cur.execute("UPDATE batchlog.events SET line = replace(line, '\"weight\":1', '\"weight\":9') "
                    "WHERE log = %s AND seq = 2", (name,))
        if counted:
            cur.execute("UPDATE batchlog.logs SET rewrites = %s WHERE name = %s", (before, name))
    conn.commit()
    recorder.close()


def forge(store: Store) -> None:
    if store.kind == "file":
        forge_file(store)
    elif store.kind == "postgresql":
        forge_postgresql(store)
    else:
        store.replace_line(2, store.lines()[1].replace(b'"weight":1', b'"weight":9'))


# -- every path that uses a snapshot -----------------------------------------------------------

PATHS = {
    "view": lambda log: log.replay(COUNT),
    "view --at after the snapshot": lambda log: log.replay(COUNT, at=EVENTS),
    "append": lambda log: log.append(COUNT, lambda state: [NoteAdded("after the edit")]),
}


@pytest.mark.parametrize("path", sorted(PATHS))
def test_an_edit_before_the_snapshot_that_keeps_what_vouched_for_it_is_refused(store, path):
    _snapshotted(store)
    forge(store)
    assert not verify(EventLog(recorder_for(store.address), REGISTRY), REGISTRY).trusted
    with pytest.raises(LogDamaged) as full:
        EventLog(recorder_for(store.address), REGISTRY).replay(COUNT)

    with pytest.raises(LogDamaged) as from_snapshot:
        PATHS[path](open_log(store.address, REGISTRY))

    assert from_snapshot.value.fields["line"] == full.value.fields["line"]


def test_the_servers_checks_see_only_pg_catalog_whatever_search_path_a_session_is_given(postgres_url, log_name):
    """A function or operator put in another schema of the search path (ALTER ROLE ... SET search_path, or a
    startup option, as here) cannot stand in for sha256, lag or `=` in the chain check: batchlog's sessions
    search pg_catalog only (every table it names is named with its schema)."""
    separator = "&" if "?" in postgres_url else "?"
    address = f"{postgres_url}{separator}options=-csearch_path%3Dpublic%2Cpg_catalog&log={log_name}"

    shown = recorder_for(address).query("SHOW search_path")[0]

    assert shown == "pg_catalog"
