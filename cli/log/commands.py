"""`batchlog log ...`: engine-level commands that work on any batchlog log."""

from __future__ import annotations

import shlex
from typing import Annotated

import attrs
import orjson
import typer

from batchlog.cli import terminal
from batchlog.cli.at_option import require_within_log
from batchlog.cli.loops import all_types, loops
from batchlog.cli.help import App
from batchlog.cli.options import At, Json, log_address, whole
from batchlog.engine.errors import NotALog
from batchlog.engine.log import EventLog
from batchlog.engine.verify import Receipt, verify

app = App(no_args_is_help=True)

SUMMARY_CHARS = 96


LogAddress = Annotated[
    str,
    log_address("LOG", "the log: a file (events.jsonl), or postgresql://[user[:password]@]host[:port]/dbname?log=NAME"),
]


def _say(text: str) -> None:
    terminal.say(text, err=True)


def _note_ignored(marker) -> None:
    """A marker of an unfinished command that was there and ignored (never obeyed) is said, once, on stderr."""
    if marker is not None and marker.ignored:
        terminal.say(f"note: {marker.ignored}", err=True)


def _existing(address: str) -> EventLog:
    """The log at `address` (any store); NotALog when there is none."""
    from batchlog.engine.address import recorder_for

    log = EventLog(recorder_for(address, on_wait=_say), all_types(), on_wait=_say)
    if not log.exists():
        where = "the path" if log.path is not None else "the address and the log's name"
        raise NotALog(f"no log at {log.address}: check {where}", path=log.address)
    return log


@app.command("verify")
def verify_command(
    path: LogAddress,
    as_json: Json = False,
    since: Annotated[str | None, typer.Option("--since", metavar="RECEIPT",
                                              help="a receipt from `batchlog log head`: prove the log only grew")] = None,
    snapshots: Annotated[bool, typer.Option("--snapshots",
                                            help="also compare each snapshot with a replay of the log")] = False,
) -> int:
    """Check every line: envelope, id, seq, hash chain, known versions, torn tail. Exit 0 trusted, 3 not.

    With --snapshots, each snapshot in `<log>.snap/` too: one that is not authentic (forged or edited: never
    used) or disagrees with a replay is named and exits 3; one of another version is named as unused.

    Example: batchlog log verify finetune/events.jsonl --json
    """
    log = _existing(path)
    receipt = None
    if since is not None:
        receipt = Receipt.parse(since)
        if receipt is None:
            raise typer.BadParameter("not a receipt: give the whole line `batchlog log head` printed",
                                     param_hint="--since")
    report = verify(log, all_types(), since=receipt)
    _note_ignored(report.unfinished)
    verdicts = _snapshot_verdicts(log.path if log.path is not None else path) if snapshots else []
    if as_json:
        doc = report.as_dict()
        if snapshots:
            doc["snapshots"] = [attrs.asdict(verdict) for verdict in verdicts]
        terminal.json_line(doc)
    else:
        _print_report(report)
        terminal.say(*(f"  snapshot {verdict.message}" for verdict in verdicts))
    return 0 if report.trusted and all(verdict.agrees is not False for verdict in verdicts) else 3


def _snapshot_verdicts(path) -> list:
    """Each snapshot of the log compared with a replay: every loop's folds, read with the types every loop's
    commands read with (the same names and versions: cli/loops.py)."""
    from batchlog.engine.snapshots.check import check_snapshots

    types = all_types()
    deciders = [loop.load_decider() for loop in loops()]
    return check_snapshots(path, [(types, [fold for decider in deciders
                                           for fold in (decider, *decider.views(types.by_name))])], on_wait=_say)


def _print_report(report) -> None:
    verdict = "trusted" if report.trusted else "NOT trusted"
    lines = [f"{report.path}: {verdict}", f"  lines   {report.lines}",
             f"  events  {report.events} (last seq {report.last_seq})", f"  from    {report.first_at or '-'}",
             f"  to      {report.last_at or '-'}"]
    if report.torn_bytes:
        lines.append(f"  torn    a last line of {report.torn_bytes} byte(s) was never finished: it is skipped, "
                     "and the next append removes it")
    unfinished = report.unfinished_part()
    if unfinished is not None:
        lines.append(f"  unfinished  {_unfinished_words(unfinished)}")
    terminal.say(*lines, *(f"  problem {problem.message}" for problem in report.problems))


def _unfinished_words(part: dict) -> str:
    """How `log verify` and `log show` name the part of a command that was never finished."""
    first, count = part["from_line"], part["lines"]
    where = f"line {first}" if count == 1 else f"lines {first}-{first + count - 1}"
    return (f"{where} ({part['bytes']} bytes) are part of a command that was never finished (never acknowledged): "
            "not events, not counted; the next append removes them")


def summary(data: object) -> str:
    """A short one-line summary of an event's data: key=value, cut to fit."""
    if not isinstance(data, dict):
        return orjson.dumps(data).decode()[:SUMMARY_CHARS]
    parts = []
    for key, value in data.items():
        shown = value if isinstance(value, str) else orjson.dumps(value).decode()
        parts.append(f"{key}={shown}")
    text = " ".join(parts)
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"


@app.command("show")
def show_command(
    path: LogAddress,
    at: At = None,
    type_prefix: Annotated[str | None, typer.Option("--type", metavar="PREFIX",
                                                    help="only events whose type starts with PREFIX")] = None,
    as_json: Json = False,
) -> int:
    """The timeline, one line per event: seq, time, type, a short summary of its data.

    Example: batchlog log show finetune/events.jsonl --type tune.run
    """
    log = _existing(path)
    if at is not None:  # refused before anything is printed
        ended = log.scan(at=at, decode=False)
        for _ in ended:
            pass
        require_within_log(at, ended.position.seq, log.address)
    scan = log.scan(at=at, decode=False, describe=True, check_ids=True)  # names an edited line as verify does
    for event in scan:
        if type_prefix and not event.type.startswith(type_prefix):
            continue
        if as_json:
            terminal.json_line({"seq": event.seq, "type": event.type, "v": event.v, "at": event.at, "id": event.id,
                                "data": event.data})
        else:
            terminal.say(f"{event.seq:>6}  {event.at}  {event.type:<26}  {summary(event.data)}")
    terminal.say(*(f"warning: {problem.message}" for problem in scan.newer), err=True)
    _note_ignored(scan.unfinished)
    if at is None and scan.unfinished.start is not None:  # shown as what it is, never as events
        part = {"from_line": scan.lines + 1, "lines": scan.unfinished.lines, "bytes": scan.unfinished.bytes}
        if as_json:
            terminal.json_line({"unfinished_from_line": part["from_line"], "lines": part["lines"],
                                "bytes": part["bytes"], "message": _unfinished_words(part)})
        else:
            terminal.say(f"{'UNFINISHED':>6}  {_unfinished_words(part)}")
    # `log show` is the tool to inspect a damaged log: it keeps showing, and marks each damaged line.
    for problem in scan.problems:
        if as_json:
            terminal.json_line({"damaged_line": problem.line, "problem": problem.code, "message": problem.message})
        else:
            terminal.say(f"{'DAMAGED':>6}  line {problem.line}: {problem.message}")
    if scan.bad:
        quoted = shlex.quote(log.address)
        terminal.say(f"warning: {scan.bad} damaged line(s), marked DAMAGED: run `batchlog log verify {quoted}`, "
                     f"then `batchlog log salvage {quoted}`", err=True)
    return 0


@app.command("head")
def head_command(path: LogAddress, as_json: Json = False) -> int:
    """A receipt of the log as it stands: seq, hash of the last line, time. Keep it; check later with --since.

    Example: batchlog log head finetune/events.jsonl > finetune/RECEIPT
    """
    log = _existing(path)
    scan = log.scan(decode=False)  # stops where a command that was never finished begins: never in a receipt
    for _ in scan:
        pass
    _note_ignored(scan.unfinished)
    if scan.unfinished.start is not None:
        terminal.say(f"note: {log.address} ends with part of a command that was never finished: the receipt "
                     "names the last acknowledged event (the next append removes that part)", err=True)
    position = scan.position
    receipt = Receipt(position.seq, position.hash, position.at or "")
    if as_json:
        terminal.json_line({"receipt": receipt.render(), "seq": receipt.seq, "hash": receipt.hash, "at": receipt.at})
    else:
        terminal.say(receipt.render())
    return 0


@app.command("salvage")
def salvage_command(
    path: LogAddress,
    to: Annotated[int | None, whole("--to", "keep the events through SEQ only (at most the last one before the damage)",
                                    metavar="SEQ", least=0)] = None,
    as_json: Json = False,
) -> int:
    """Cut a damaged log back to the events before its first damaged line (or through --to SEQ).

    The original file is kept untouched beside it (PATH.damaged-<time>, or PATH.cut-<time> when a sound log is
    cut with --to); the new log ends with a log.salvaged event naming what was dropped (lines, event types) and
    why, which `batchlog tune audit` reports. Check the result with `batchlog log verify`.

    Example: batchlog log salvage finetune/events.jsonl
    """
    from batchlog.engine.salvage import salvage

    log = _existing(path)
    done = salvage(path if log.path is None else log.path, all_types(), to=to, on_wait=_say)
    if as_json:
        terminal.json_line(attrs.asdict(done))
    elif done.damaged_copy is None:
        terminal.say(f"{log.address}: {done.reason}; nothing was changed")
    else:
        copy = log.path.parent / done.damaged_copy if log.path is not None else _renamed(log.address, done.damaged_copy)
        terminal.say(f"{log.address}: kept events 1..{done.kept_through_seq}, dropped {done.dropped_lines} line(s) "
                     f"({done.dropped_bytes} bytes)", f"  why      {done.reason}", f"  original {copy} (untouched)",
                     f"  recorded log.salvaged as seq {done.event_seq}")
    return 0


def _renamed(address: str, name: str) -> str:
    """The address of the log `name` in the same store as `address` (a salvage's damaged copy)."""
    if address.startswith("memory:"):
        return f"memory:{name}"
    base, _, query = address.partition("?")
    rest = [part for part in query.split("&") if part and not part.startswith("log=")]
    return f"{base}?{'&'.join([*rest, f'log={name}'])}"


@app.command("migrate")
def migrate_command(
    source: Annotated[str, log_address("SRC", "the log to copy: a file, or postgresql://…/dbname?log=NAME")],
    destination: Annotated[str, log_address("DST", "where to copy it (must hold no log yet)")],
    as_json: Json = False,
) -> int:
    """Copy a log between any two addresses, byte for byte: ids, the chain and receipts carry over.

    Refuses a source that does not verify (salvage it first) and a destination that holds a log already.

    Example: batchlog log migrate finetune/events.jsonl 'postgresql://db.example/batchlog?log=finetune'
    """
    from batchlog.engine.migrate import migrate

    done = migrate(source, destination, all_types(), on_wait=_say, on_note=_say)
    if as_json:
        terminal.json_line(attrs.asdict(done))
    else:
        terminal.say(f"{done.source} -> {done.destination}: {done.events} event(s), {done.bytes} bytes, identical "
                     f"(last seq {done.last_seq})")
    return 0
