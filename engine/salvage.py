"""Salvage: a damaged log cut back to its trusted part, the damaged file kept beside it.

Engine-level (no domain): the new log holds every line before the first damaged
one (or up to a chosen seq), byte for byte, so ids and receipts of the kept
events stay valid and their chain is whole; then one `log.salvaged` event saying
what was dropped (how many lines, the event types they held) and why. The original file is never changed: it
is hard-linked (or copied) to `<log>.damaged-<time>` (`<log>.cut-<time>` when a sound log was cut with --to)
and the new log is renamed over the old name, so a crash at any step leaves one whole log under the name.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from hashlib import sha256
from pathlib import Path

import attrs
import orjson

from batchlog.engine import clock
from batchlog.engine.chain import line_hash
from batchlog.engine.envelope import encode_line
from batchlog.engine.errors import EngineError, NotALog, WriteFailed
from batchlog.engine.lines import LineReader
from batchlog.engine.recorders.file_lock import exclusive
from batchlog.engine.recorders.pending import marker_path
from batchlog.engine.own_types import REGISTRY as OWN_TYPES, SALVAGED
from batchlog.engine.registry import Registry
from batchlog.engine.scan import Problem, Scan


class SalvageRefused(EngineError):
    """Salvage cannot do what was asked (e.g. keep events past the damage); nothing was changed."""

    code = "salvage_refused"


@attrs.frozen
class Salvaged:
    """What a salvage did: events kept, lines dropped, where the damaged file is (None: nothing to do)."""

    path: str
    kept_through_seq: int
    dropped_lines: int
    dropped_bytes: int
    reason: str
    damaged_copy: str | None
    event_seq: int | None


def salvage(path: str | os.PathLike, registry: Registry, *, to: int | None = None,
            on_wait=None) -> Salvaged:
    """Cut the log at `path` (any log address) back to the events before its first damaged line (or through
    seq `to`)."""
    from batchlog.engine.address import recorder_for

    recorder = recorder_for(path)
    if recorder.path is None:
        from batchlog.engine.salvage_stored import salvage_stored

        return salvage_stored(recorder, registry, to=to, on_wait=on_wait)
    path = recorder.path
    if path.is_dir() or not path.is_file():
        raise NotALog(f"no log file at {path}: name the events.jsonl to salvage", path=str(path))
    with exclusive(path, on_wait):
        first = _first_damage(path, registry)
        damage_line = first.line if first else None
        keep_lines = _lines_to_keep(path, damage_line, to)
        kept, keep_bytes, total_lines, total_bytes, types = _measure(path, keep_lines)
        if first is None and keep_lines >= total_lines:  # a torn tail is not damage: the next append cuts it
            return Salvaged(str(path), kept, 0, 0, "nothing to salvage: the log is trusted", None, None)
        if first is not None and keep_lines == first.line - 1:
            reason = f"damaged: {first.message}"
        else:
            reason = f"cut after seq {kept} on request (--to {to})"
        damaged = _keep_damaged(path, "damaged" if first is not None else "cut")
        data = {
            "kept_through_seq": kept,
            "dropped_lines": total_lines - keep_lines,
            "dropped_bytes": total_bytes - keep_bytes,
            "reason": reason,
            "damaged_copy": damaged.name,
            "damaged_sha256": _file_hash(damaged),
            "dropped_types": types,
        }
        _write_new_log(path, keep_bytes, kept, data)
        return Salvaged(str(path), kept, data["dropped_lines"], data["dropped_bytes"], reason, damaged.name, kept + 1)


def _first_damage(path: Path, registry: Registry) -> Problem | None:
    scan = Scan(path, registry, describe=True, check_ids=True, decode=False)
    for _ in scan:
        pass
    return min(scan.problems, key=lambda p: p.line, default=None)


def _lines_to_keep(path: Path | str, damage_line: int | None, to: int | None) -> int:
    """Lines before the damage are a whole chain from seq 1, so line n holds seq n."""
    trusted = damage_line - 1 if damage_line is not None else None
    if to is None:
        return trusted if trusted is not None else 1 << 62
    if trusted is not None and to > trusted:
        raise SalvageRefused(
            f"cannot keep events through seq {to}: line {damage_line} is damaged, so the last event that can be "
            f"kept is seq {trusted}; give --to {trusted} or less, or leave --to out",
            path=str(path), line=damage_line, seq=to)
    return to


def _measure(path: Path, keep_lines: int) -> tuple[int, int, int, int, dict[str, int]]:
    """(last kept seq, bytes kept, complete lines, file bytes, the types of the dropped lines)."""
    reader = LineReader(path)
    kept = keep_bytes = lines = 0
    dropped: list[bytes] = []
    for line in reader:
        lines += 1
        if lines <= keep_lines:
            kept, keep_bytes = lines, keep_bytes + len(line) + 1
        else:
            dropped.append(bytes(line))
    return kept, keep_bytes, lines, path.stat().st_size, dropped_types(dropped)


UNREADABLE = "(unreadable)"  # a dropped line whose type cannot be read: not JSON, or no type in it


def dropped_types(lines: Iterable[bytes]) -> dict[str, int]:
    """How many of the dropped `lines` each event type held, in the order the types first come."""
    counts: dict[str, int] = {}
    for line in lines:
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError:
            value = None
        name = value.get("type") if isinstance(value, dict) else None
        name = name if isinstance(name, str) else UNREADABLE
        counts[name] = counts.get(name, 0) + 1
    return counts


def _keep_damaged(path: Path, what: str) -> Path:
    """The original file, untouched, under `<log>.<what>-<time>` (a hard link, else a copy); `what` says what
    happened to it: "damaged", or "cut" (a sound log cut back with --to)."""
    stamp = clock.now().replace("-", "").replace(":", "").replace(".", "")
    target = path.with_name(f"{path.name}.{what}-{stamp}")
    number = 1
    while target.exists():
        number += 1
        target = path.with_name(f"{path.name}.{what}-{stamp}-{number}")
    try:
        try:
            os.link(path, target)
        except OSError:
            shutil.copy2(path, target)
    except OSError as exc:
        raise WriteFailed(f"cannot keep the damaged log as {target}: {exc.strerror or exc}: nothing was changed",
                          path=str(path), errno=exc.errno) from None
    return target


def _file_hash(path: Path) -> str:
    digest = sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _write_new_log(path: Path, keep_bytes: int, kept: int, data: dict) -> None:
    """The kept bytes and the `log.salvaged` line, written aside, fsynced, renamed over the log."""
    with open(path, "rb") as fh:
        prefix = fh.read(keep_bytes)
    last = prefix[:-1].rsplit(b"\n", 1)[-1] if prefix else b""
    prev = line_hash(last)
    line = encode_line(kept + 1, SALVAGED, OWN_TYPES.by_name[SALVAGED].version, clock.now(), data, prev)
    temp = path.with_name(f".{path.name}.salvage")
    try:
        with open(temp, "wb") as fh:
            fh.write(prefix + line + b"\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(temp, path)
        pending = marker_path(path)
        if pending.exists():
            pending.unlink()  # it belonged to the old file
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    except OSError as exc:
        try:
            temp.unlink()
        except OSError:
            pass
        raise WriteFailed(f"cannot write the salvaged log {path}: {exc.strerror or exc}: the log is as it was "
                          f"(the damaged copy is kept)", path=str(path), errno=exc.errno) from None
