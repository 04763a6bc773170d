"""The fast path of the read-only tuning views: `tune status`, `tune next`, `tune next-batch` (preview).

Agents call these between every step. Through typer each call pays for importing typer (and the pydantic
it brings) and building the command (~0.3 s); here a small parser reads the few options these views have
and calls the very functions the typer commands call (cli/tune/views.py), with errors reported by the same
`batchlog.cli.errors.reported`. It takes only what it fully understands: `--help`, an unknown, repeated or malformed
option, a number out of its range, `-o`, `--`, anything else, and it answers None so that the typer app
runs instead and the user gets typer's own usage message and exit code 2. `--store`/`--log` (and BATCHLOG_STORE)
are read as the typer commands read them; a value they refuse goes to typer for its usage message.
"""

from __future__ import annotations

from pathlib import Path

from batchlog.cli import store as stores
from batchlog.cli.errors import reported
from batchlog.cli.tune import views as tune_views
from batchlog.cli.tune.log import DEFAULT_DIR
from batchlog.projections.control_chars import first_control

# For each view, its options as cli/tune/commands.py declares them: None for a flag, "path" for a folder, "text" for a
# word, else the range of a whole number (None: no largest).
_DIR, _AT, _JSON = ("--dir", "path"), ("--at", (1, None)), ("--json", None)
_STORE, _LOG = ("--store", "text"), ("--log", "text")
_WHOLE = tune_views.LARGEST
VIEWS: dict[str, dict[str, tuple[int, int | None] | str | None]] = {
    "status": dict([_DIR, _STORE, _LOG, _AT, _JSON, ("-m", (1, _WHOLE))]),
    "next": dict([_DIR, _STORE, _LOG, _AT, _JSON]),
    "next-batch": dict([_DIR, _STORE, _LOG, _AT, _JSON, ("-m", (1, _WHOLE)), ("-r", (0, _WHOLE)),
                        ("--seed", (0, _WHOLE))]),
}
_DIGITS = 16  # longer numbers (and leading zeros, signs, spaces, underscores) are left to typer


def fast_view(args: list[str]) -> int | None:
    """Run `batchlog ARGS` when it is one of the views with well-formed options; None: leave it to typer."""
    parsed = parse(args)
    if parsed is None:
        return None
    view, options = parsed
    store = _store(options.get("--store"), options.get("--log"))
    if store is None:
        return None
    folder, at, as_json = options.get("--dir", DEFAULT_DIR), options.get("--at"), bool(options.get("--json"))
    size, recheck, seed = options.get("-m"), options.get("-r"), options.get("--seed")
    calls = {
        "status": lambda: tune_views.status_view(folder, at, as_json, size, store),
        "next": lambda: tune_views.next_view(folder, at, as_json, store),
        "next-batch": lambda: tune_views.next_batch_view(folder, at, as_json, size, recheck, seed, store),
    }
    return reported(calls[view], as_json)


def _store(store: object, log: object) -> stores.Store | None:
    """The store the options and BATCHLOG_STORE choose; None for a value they cannot take (typer then says what is
    wrong)."""
    from batchlog.engine.errors import BadSetting

    try:
        return stores.chosen(None if store is None else str(store), None if log is None else str(log))
    except BadSetting:
        return None


def parse(args: list[str]) -> tuple[str, dict[str, Path | int | str | bool]] | None:
    """`["tune", VIEW, options...]` as (VIEW, {option: value}); None for anything else."""
    if len(args) < 2 or args[0] != "tune" or args[1] not in VIEWS:
        return None
    known = VIEWS[args[1]]
    options: dict[str, Path | int | str | bool] = {}
    rest = args[2:]
    index = 0
    while index < len(rest):
        word = rest[index]
        index += 1
        name, equals, attached = word.partition("=") if word.startswith("--") else (word, "", "")
        if name not in known or name in options:
            return None
        kind = known[name]
        if kind is None:  # a flag takes no value
            if equals:
                return None
            options[name] = True
            continue
        if equals:
            text = attached
        elif index < len(rest):
            text = rest[index]
            index += 1
        else:
            return None
        value = _value(text, kind)
        if value is None:
            return None
        options[name] = value
    return args[1], options


def _value(text: str, kind: tuple[int, int | None] | str) -> Path | int | str | None:
    if not text or text.startswith("-") or first_control(text) is not None:  # typer says what is wrong with it
        return None
    if kind == "path":
        return Path(text)
    if kind == "text":
        return text
    if not (text.isascii() and text.isdigit()) or len(text) > _DIGITS or (text != "0" and text[0] == "0"):
        return None
    number, (smallest, largest) = int(text), kind
    return number if smallest <= number and (largest is None or number <= largest) else None
