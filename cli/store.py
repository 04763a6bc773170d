"""Where a loop's log is kept: `--store URL` (or BATCHLOG_STORE) and `--log NAME`, checked and turned into the
log's address, and the log opened there. The only place where the CLI turns a folder into a log, and the only one
that reads BATCHLOG_STORE. No typer or argparse here: the fast views and `quick-batch` import it.

A store is `file` (the default: the log is FOLDER/events.jsonl, as always), `postgresql://…` (the log NAME on that
server: `postgresql://…/dbname?log=NAME`) or `memory:` (an in-process log, for tests). The loop's other files
(cases.json, plan.json, summaries, payloads) stay in the folder whatever the store.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import attrs

from batchlog.cli.folders import LOG_NAME

if TYPE_CHECKING:
    from batchlog.engine.log import EventLog
    from batchlog.engine.registry import Registry
    from batchlog.engine.verify import Report

STORE_ENV = "BATCHLOG_STORE"
FILE = "file"
MEMORY = "memory:"
POSTGRESQL_SCHEMES = ("postgresql", "postgres")
STORE_FORM = "file or postgresql://[user[:password]@]host[:port]/dbname"


def store_help(file_store: str) -> str:
    """The help of `--store` (every front end's): `file_store` says where the file store keeps the log."""
    return f"where the log is kept: {STORE_FORM} (default: ${STORE_ENV}, else file: {file_store})"


def log_help(default: str) -> str:
    """The help of `--log` (every front end's): `default` names the log's default name."""
    return f"the log's name on the server (default: {default}); never a path"


# ─── checking what the user gave ────────────────────────────────────────────


def check_store(value: str) -> str:
    """`value` as a store (`file`, `memory:` or a PostgreSQL URL without `log=`); ValueError naming the fix."""
    if value in (FILE, MEMORY):
        return value
    scheme = value.partition("://")[0].lower()
    if scheme not in POSTGRESQL_SCHEMES or "://" not in value:
        hint = " (a folder goes to --dir or --run-dir)" if "://" not in value and value not in ("", ".") else ""
        raise ValueError(f"{_masked(value)!r} is not a store: give {STORE_FORM}{hint}")
    problem = _url_problem(value)
    if problem:
        raise ValueError(f"{_masked(value)!r}: {problem}; give {STORE_FORM}")
    return value


def _url_problem(url: str) -> str:
    """What keeps `url` from naming a PostgreSQL database ("" when nothing does)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number from 0 to 65535
    except ValueError as error:
        return f"the URL cannot be read ({error})"
    database = parts.path.removeprefix("/")
    if not database or "/" in database:
        return "it names no database (.../dbname)"
    if parts.fragment:
        return "a URL of a database has no #fragment"
    if any(key == "log" for key, _, _ in (pair.partition("=") for pair in parts.query.split("&"))):
        return "name the log with --log NAME, not with log= in --store"
    return ""


def check_log_name(value: str) -> str:
    """`value` as a log's name on a server: a plain name, never a path (the engine's rule); ValueError otherwise."""
    from batchlog.engine.address import check_log_name as engine_check
    from batchlog.engine.errors import BadAddress

    try:
        return engine_check(value)
    except BadAddress as error:
        raise ValueError(str(error)) from None


def _masked(url: str) -> str:
    """`url` with its password hidden, for messages."""
    from batchlog.engine.address import hide_password

    return hide_password(url)


# ─── the choice and the address ─────────────────────────────────────────────


@attrs.frozen
class Store:
    """The store a command keeps its log in (`url` None: the file) and the log's name there (None: the name of
    the loop's folder). `options`: the `--store`/`--log` words a command printed for the agent must carry to reach
    the same log (those given as options; a store from BATCHLOG_STORE is found again by the printed command)."""

    url: str | None = None
    log: str | None = None
    options: tuple[str, ...] = ()

    @property
    def is_file(self) -> bool:
        return self.url is None

    def file(self, folder: Path) -> Path | None:
        """The file that holds the log of the loop in `folder` (None: the store is not a file)."""
        return folder / LOG_NAME if self.is_file else None

    def address(self, folder: Path) -> str:
        """The address of the log of the loop whose files are in `folder`."""
        return log_address(self.url, self.log, folder)


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
    given = store
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
        return Store(options=("--store", FILE) if given == FILE and os.environ.get(STORE_ENV) else ())
    options = (("--store", without_password(given)) if given else ()) + (("--log", log) if log is not None else ())
    return Store(store, log, options)


def without_password(url: str) -> str:
    """`url` without its password, for a command printed for the agent (the driver then takes the password
    from PGPASSWORD or ~/.pgpass, where a password belongs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return parts._replace(netloc=f"{user}@{host}" if user else host).geturl()


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
