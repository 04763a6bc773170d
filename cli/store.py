"""Where a loop's log is kept: `--store URL` (or BATCHLOG_STORE) and `--log NAME`, checked and turned into the
log's address, and the log opened there. The only place where the CLI turns a folder into a log, and the only one
that reads BATCHLOG_STORE. No typer or argparse here: the fast views and `quick-batch` import it.

A store is `file` (the default: the log is FOLDER/events.jsonl, as always) or `postgresql://…` (the log NAME on
that server: `postgresql://…/dbname?log=NAME`). `memory:` is refused: a loop's log must outlive the command, and
an in-process log is gone at its exit (the Python API and the tests keep it). The loop's other files (cases.json,
plan.json, summaries, payloads) stay in the folder whatever the store. A URL is read and shown by the engine's
one reader and renderer (engine/server_url.py): a message or a printed command never holds a secret.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any


from batchlog.cli.folders import LOG_NAME
from batchlog.engine.value import frozen

if TYPE_CHECKING:
    from batchlog.engine.log import EventLog
    from batchlog.engine.registry import Registry
    from batchlog.engine.verify import Report

STORE_ENV = "BATCHLOG_STORE"
FILE = "file"
MEMORY = "memory:"
STORE_FORM = "file or postgresql://[user[:password]@]host[:port]/dbname"


def store_help(file_store: str) -> str:
    """The help of `--store` (every front end's): `file_store` says where the file store keeps the log."""
    return f"where the log is kept: {STORE_FORM} (default: ${STORE_ENV}, else file: {file_store})"


def log_help(default: str) -> str:
    """The help of `--log` (every front end's): `default` names the log's default name."""
    return f"the log's name on the server (default: {default}); never a path"


# ─── checking what the user gave ────────────────────────────────────────────


def check_store(value: str) -> str:
    """`value` as a store (`file`, or a PostgreSQL URL without `log=`); ValueError naming the fix."""
    from batchlog.engine.server_url import SERVER_SCHEMES, read_url, scheme_of, shown_address

    if value == FILE:
        return value
    shown = shown_address(value)
    if value.lower().startswith(MEMORY):
        raise ValueError(f"{shown!r} is not a store a loop can keep: a memory log is gone when the command exits; "
                         f"give {STORE_FORM} (memory: is for the Python API and tests)")
    if scheme_of(value) not in SERVER_SCHEMES:
        hint = " (a folder goes to --dir or --run-dir)" if "://" not in value and value not in ("", ".") else ""
        raise ValueError(f"{shown!r} is not a store: give {STORE_FORM}{hint}")
    url = read_url(value)
    problem = url if isinstance(url, str) else _server_problem(url)
    if problem:
        raise ValueError(f"{shown!r}: {problem}; give {STORE_FORM}")
    return value


def _server_problem(url: Any) -> str:
    """What keeps the read URL `url` from naming a PostgreSQL database a log can be named in ("" when nothing)."""
    from batchlog.engine.address import database_problem

    if url.values("log"):
        return "name the log with --log NAME, not with log= in --store"
    return database_problem(url)


def check_log_address(value: str) -> str:
    """`value` as the address of a log a `log ...` command reads or writes: any but a memory log, which is gone when
    the command exits (`log migrate` into one would say done and keep nothing); ValueError naming the fix."""
    if value.lower().startswith(MEMORY):
        raise ValueError(f"{value!r} is a memory log, gone when the command exits: give a file (events.jsonl) or "
                         "postgresql://host/dbname?log=NAME (memory: is for the Python API and tests)")
    return value


def check_log_name(value: str) -> str:
    """`value` as a log's name on a server: a plain name, never a path (the engine's rule); ValueError otherwise."""
    from batchlog.engine.address import check_log_name as engine_check
    from batchlog.engine.errors import BadAddress

    try:
        return engine_check(value)
    except BadAddress as error:
        raise ValueError(str(error)) from None


# ─── the choice and the address ─────────────────────────────────────────────


@frozen
class Store:
    """The store a command keeps its log in (`url` None: the file) and the log's name there (None: the name of
    the loop's folder)."""

    url: str | None = None
    log: str | None = None

    @property
    def is_file(self) -> bool:
        return self.url is None

    def file(self, folder: Path) -> Path | None:
        """The file that holds the log of the loop in `folder` (None: the store is not a file)."""
        return folder / LOG_NAME if self.is_file else None

    def address(self, folder: Path) -> str:
        """The address of the log of the loop whose files are in `folder`."""
        return log_address(self.url, self.log, folder)

    def printed(self, folder: Path) -> tuple[str, ...]:
        """The `--store`/`--log` words a command printed for people and agents carries, so that pasted anywhere,
        whatever BATCHLOG_STORE then says, it reaches this log of the loop in `folder`: on a server, its URL
        without any secret (the driver takes a password from PGPASSWORD or ~/.pgpass) and the log's name; on the
        file, `--store file` when BATCHLOG_STORE names a server, else nothing (the file is the default; a command
        printed so and pasted where BATCHLOG_STORE names a server goes there: README, "Many machines")."""
        if self.is_file:
            return ("--store", FILE) if os.environ.get(STORE_ENV, FILE) != FILE else ()
        from batchlog.engine.address import parse_address
        from batchlog.engine.server_url import shown_address

        return ("--store", shown_address(self.url), "--log", parse_address(self.address(folder)).name)


def chosen(store: str | None = None, log: str | None = None) -> Store:
    """The store `--store` and `--log` name, else BATCHLOG_STORE's, else the file: what every front end (the typer
    commands, the fast views, quick-batch's argparse) turns the two options into. BadSetting (a usage error, exit
    2) for a value that names no store or log (the typer and argparse parsers refuse those first, with their own
    usage message), a BATCHLOG_STORE that names no store, or --log with the file store."""
    from batchlog.engine.errors import BadSetting

    for option, value, check in (("--store", store, check_store), ("--log", log, check_log_name)):
        if value is not None:
            try:
                check(value)
            except ValueError as error:
                raise BadSetting(f"{option}: {error}", option=option) from None
    if store is None:
        store = os.environ.get(STORE_ENV) or None
        if store is not None:
            try:
                check_store(store)
            except ValueError as error:
                raise BadSetting(f"{STORE_ENV}: {error}", setting=STORE_ENV) from None
    if store in (None, FILE):
        if log is not None:
            raise BadSetting(f"--log {log} names a log on a server, and the log is in the file {LOG_NAME} of the "
                             f"loop's folder: drop --log, or give --store postgresql://... (or {STORE_ENV})", log=log)
        return Store()
    return Store(store, log)


def log_address(store: str | None, name: str | None, folder: Path) -> str:
    """The log's address: FOLDER/events.jsonl for the file store (None or `file`); else the store's address of
    the log NAME, by default the folder's name (BadSetting, exit 2, when that name is not a plain name)."""
    if store in (None, FILE):
        return str(folder / LOG_NAME)
    from batchlog.engine.errors import BadSetting
    from batchlog.engine.address import log_address as address_of
    from batchlog.engine.errors import BadAddress

    try:
        return address_of(store, name, folder)
    except BadAddress as error:
        if name is not None:
            raise BadSetting(str(error), log=name) from None
        raise BadSetting(f"the folder {folder} has no name a log on a server can take "
                         f"({Path(os.path.abspath(folder)).name!r}): give --log NAME (letters, digits, '.', '_' "
                         "and '-')", folder=str(folder)) from None


# ─── the log ────────────────────────────────────────────────────────────────


def open_log(store: Store, folder: Path, registry: Registry, *, on_wait: Any = None, on_note: Any = None) -> EventLog:
    """The log of the loop whose files are in `folder`, in `store`, with snapshots on."""
    from batchlog.engine.address import open_log as open_address

    return open_address(store.address(folder), registry, on_wait=on_wait, on_note=on_note)


def open_archive(path: Path, registry: Registry, *, on_wait: Any = None) -> EventLog:
    """A log copied to a file of another name (a quick batch's archive beside its summary), to read."""
    from batchlog.engine.log import EventLog

    return EventLog(path, registry, on_wait=on_wait)


def read_with(log: EventLog, registry: Registry) -> EventLog:
    """The same log, to read with the event types of `registry`."""
    from batchlog.engine.log import EventLog

    return EventLog(log.recorder, registry)


def log_file(log: EventLog) -> Path | None:
    """The file that holds the log (None: a server or memory holds it)."""
    return log.path


def shown(log: EventLog) -> str:
    """How messages name the log: its file's path, else its address (never a password)."""
    return log.path.as_posix() if log.path is not None else log.address


def log_lines(log: EventLog) -> Iterator[bytes]:
    """Every complete line of the log in order, as written (without its newline; a torn tail is not one)."""
    from batchlog.engine.scan import Position

    return (line for block in log.lines(Position()).blocks() for line in block)


def verify_log(log: EventLog, registry: Registry) -> Report:
    """`batchlog log verify` of the log: every line checked."""
    from batchlog.engine.verify import verify

    return verify(read_with(log, registry), registry)
