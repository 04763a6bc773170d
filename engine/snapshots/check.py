"""`log verify --snapshots`: each snapshot of a log compared with a replay of the log up to it.

Readers use a snapshot only when it is authentic (engine/snapshots/key.py) and its checks hold; this looks
at every snapshot of the log (each file in a file log's `<log>.snap/`, each one a stored log's recorder
keeps) and says, per snapshot, whether readers use it and whether its state is the one a full replay
reaches at its seq. A snapshot kept under another key (another machine's or user's) cannot be checked
here and is never used here: it is named as such, never as a forgery. Reads only; writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING


from batchlog.engine.address import recorder_for
from batchlog.engine.log import EventLog
from batchlog.engine.recorders.protocols import KeepsSnapshots
from batchlog.engine.recorders.wait import OnWait
from batchlog.engine.registry import Registry
from batchlog.engine.scan import Position
from batchlog.engine.snapshots.document import current_position, fold_key, state_type
from batchlog.engine.snapshots.state_codec import from_data
from batchlog.engine.snapshots.file import ABSENT, Snapshots, read_authentic
from batchlog.engine.snapshots.key import key_id, opened
from batchlog.engine.value import frozen

if TYPE_CHECKING:
    from batchlog.engine.log import Projection


@frozen
class SnapshotVerdict:
    """One snapshot file: `agrees` (False: its state is not what a replay reaches, or it is not authentic;
    None: not one this batchlog can compare, e.g. another version's) and why."""

    path: str
    agrees: bool | None
    message: str


def check_snapshots(path: Path | str, readers: Iterable[tuple[Registry, Iterable[Projection]]], *,
                    on_wait: OnWait = None) -> list[SnapshotVerdict]:
    """A verdict per snapshot of the log at `path` (a file's: each file in its snapshot folder; a stored log's:
    each its recorder keeps), the user's own first, in name order. `readers`: the registries logs are read
    with and the projections each folds (a snapshot is keyed to both); `on_wait`: where a read says it waits
    for a lock."""
    by_name = {projection.name: (registry, projection) for registry, projections in readers
               for projection in projections}
    mine = key_id()
    recorder = recorder_for(path, on_wait=on_wait)
    if isinstance(recorder, KeepsSnapshots):
        kept = sorted(recorder.snapshot_names(), key=lambda found: (found[1] != mine, found[1], found[0]))
        return [_stored_verdict(recorder, name, mine, by_name) if owner == mine
                else _another_key(f"the snapshot {name} of {recorder.address}") for name, owner in kept]
    path = recorder.path
    folder = Snapshots.folder(path)
    try:
        entries = sorted(folder.iterdir(), key=lambda entry: (entry.name != mine, entry.name))
    except OSError:
        return []
    verdicts = []
    for entry in entries:
        if entry.name.startswith("."):
            continue
        if entry.suffix == ".json":  # beside the key folders: kept by a batchlog before snapshots had keys
            verdicts.append(SnapshotVerdict(str(entry), None, f"{entry} was written by another version of "
                                                              "batchlog: never used"))
            continue
        for file in _snapshot_files(entry):
            if entry.name != mine:
                verdicts.append(_another_key(str(file)))
                continue
            registry, projection = by_name.get(file.stem, (None, None))
            log = EventLog(path, registry) if registry is not None else None
            verdicts.append(_verdict_of(log, str(file), read_authentic(file), projection))
    return verdicts


def _snapshot_files(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if p.suffix == ".json" and not p.name.startswith("."))
    except OSError:
        return []


def _another_key(shown: str) -> SnapshotVerdict:
    return SnapshotVerdict(shown, None, f"{shown} is kept under another key (another machine's or user's): "
                                        "checked there, never used here")


def _stored_verdict(recorder: KeepsSnapshots, name: str, mine: str, by_name: dict) -> SnapshotVerdict:
    """The verdict on the snapshot `name` a stored log's recorder keeps under the user's key (of fingerprint
    `mine`), authenticated as a file's is."""
    registry, projection = by_name.get(name, (None, None))
    log = EventLog(recorder, registry) if registry is not None else None
    stored = recorder.load_snapshot(name, mine)
    shown = f"the snapshot {name} of {recorder.address}"
    return _verdict_of(log, shown, ABSENT if stored is None else opened(stored), projection)


def _verdict_of(log: EventLog | None, shown: str, body: bytes | None, projection: Projection | None
                ) -> SnapshotVerdict:
    """The verdict on one snapshot whose authenticated body is `body` (None: not authentic; `ABSENT`: gone)."""
    if body is None:
        return SnapshotVerdict(shown, False, f"{shown} is not authentic (edited, forged, or written by another "
                                             "user): never used; remove it")
    if body is ABSENT:
        return SnapshotVerdict(shown, None, f"{shown} went away while it was checked")
    decoded = None if projection is None else state_type(projection)
    if log is None or projection is None or decoded is None:
        return SnapshotVerdict(shown, None, f"{shown} is not a snapshot of a view this batchlog has: never used")
    found = current_position(body, fold_key(log, projection, decoded))
    if found is None:
        return SnapshotVerdict(shown, None, f"{shown} was written by another version of batchlog: never used")
    doc, position = found
    try:
        state = from_data(doc.get("state"), decoded)
    except Exception:  # noqa: BLE001 - a state that does not decode is never used either
        return SnapshotVerdict(shown, False, f"{shown} holds a state that does not decode: never used; remove it")
    replayed = log.fold(projection, projection.initial, Position(), at=position.seq)
    if replayed.position.seq != position.seq or replayed.position.hash != position.hash:
        return SnapshotVerdict(shown, None, f"{shown} was taken at seq {position.seq}, which the log no longer "
                                            "holds as it did: never used")
    if replayed.state != state:
        return SnapshotVerdict(shown, False, f"{shown} disagrees with a replay of the log to seq {position.seq}: "
                                             "its state is not the log's; remove it")
    return SnapshotVerdict(shown, True, f"{shown} agrees with a replay of the log to seq {position.seq}")
