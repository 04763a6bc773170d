"""`log verify --snapshots`: each snapshot of a log compared with a replay of the log up to it.

Readers use a snapshot only when it is authentic (engine/snapshots/key.py) and its checks hold; this looks
at every file in `<log>.snap/` and says, per file, whether readers use it and whether its state is the one a
full replay reaches at its seq. Reads only; writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import attrs
import orjson

from batchlog.engine.registry import Registry
from batchlog.engine.scan import Position
from batchlog.engine.snapshots.file import _ABSENT, FORMAT, Snapshots, _cattrs, _position, _state_type, read_authentic

if TYPE_CHECKING:
    from batchlog.engine.log import EventLog, Projection


@attrs.frozen
class SnapshotVerdict:
    """One snapshot file: `agrees` (False: its state is not what a replay reaches, or it is not authentic;
    None: not one this batchlog can compare, e.g. another version's) and why."""

    path: str
    agrees: bool | None
    message: str


def check_snapshots(path: Path | str, readers: Iterable[tuple[Registry, Iterable[Projection]]]
                    ) -> list[SnapshotVerdict]:
    """A verdict per snapshot of the log at `path` (a file's: each file in its snapshot folder; a stored log's:
    each its recorder keeps), in name order. `readers`: the registries logs are read with and the projections
    each folds (a snapshot is keyed to both)."""
    from batchlog.engine.address import recorder_for
    from batchlog.engine.log import EventLog

    by_name = {projection.name: (registry, projection) for registry, projections in readers
               for projection in projections}
    recorder = recorder_for(path)
    if recorder.path is None:
        return [_stored_verdict(recorder, name, by_name) for name in recorder.snapshot_names()]
    path = recorder.path
    try:
        files = sorted(p for p in Snapshots.folder(path).iterdir()
                       if p.suffix == ".json" and not p.name.startswith("."))
    except OSError:
        return []
    verdicts = []
    for file in files:
        registry, projection = by_name.get(file.stem, (None, None))
        log = EventLog(path, registry) if registry is not None else None
        verdicts.append(_verdict(log, file, projection))
    return verdicts


def _stored_verdict(recorder, name: str, by_name: dict) -> SnapshotVerdict:
    """The verdict on the snapshot `name` a stored log's recorder keeps (authenticated as a file's is)."""
    from batchlog.engine.log import EventLog
    from batchlog.engine.snapshots.key import snapshot_is_authentic, snapshot_key

    registry, projection = by_name.get(name, (None, None))
    log = EventLog(recorder, registry) if registry is not None else None
    stored = recorder.load_snapshot(name)
    if stored is None:
        return _verdict_of(log, f"the snapshot {name} of {recorder.address}", _ABSENT, projection)
    tag, _, body = stored.partition(b"\n")
    secret = snapshot_key()
    authentic = secret is not None and snapshot_is_authentic(secret, body, tag)
    return _verdict_of(log, f"the snapshot {name} of {recorder.address}", body if authentic else None, projection)


def _verdict(log: EventLog | None, path: Path, projection: Projection | None) -> SnapshotVerdict:
    return _verdict_of(log, str(path), read_authentic(path), projection)


def _verdict_of(log: EventLog | None, shown: str, body: bytes | None, projection: Projection | None
                ) -> SnapshotVerdict:
    """The verdict on one snapshot whose authenticated body is `body` (None: not authentic; `_ABSENT`: gone)."""
    if body is None:
        return SnapshotVerdict(shown, False, f"{shown} is not authentic (edited, forged, or written by another "
                                             "user): never used; remove it")
    if body is _ABSENT:
        return SnapshotVerdict(shown, None, f"{shown} went away while it was checked")
    state_type = None if projection is None else _state_type(projection)
    if log is None or projection is None or state_type is None:
        return SnapshotVerdict(shown, None, f"{shown} is not a snapshot of a view this batchlog has: never used")
    try:
        doc = orjson.loads(body)
    except orjson.JSONDecodeError:
        doc = None
    found = _position(doc) if type(doc) is dict else None
    if found is None or doc.get("format") != FORMAT or doc.get("key") != Snapshots._key(log, projection, state_type):
        return SnapshotVerdict(shown, None, f"{shown} was written by another version of batchlog: never used")
    position: Position = found[0]
    try:
        state = _cattrs().structure(doc.get("state"), state_type)
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
