"""The one door to the terminal: every line batchlog prints, on stdout or stderr, goes through here.

Text a user or a file supplied (names, notes, summaries, case ids, paths, whatever a log holds) may carry
control characters (projections/control_chars.py): each is shown here as its escape (`\\x1b`, `\\u202e`), so
what reaches the terminal is the text, visibly, and never a sequence the terminal obeys. JSON keeps its meaning:
a control character JSON itself leaves raw (DEL, C1), only ever inside a string there, becomes its `\\uXXXX`
escape.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from batchlog.projections.control_chars import json_escaped, shown


def _stream(err: bool) -> TextIO:
    return sys.stderr if err else sys.stdout


def say(*lines: str, err: bool = False) -> None:
    """Print each of `lines` as one line (stdout, or stderr with `err`): a newline inside one is shown as `\\n`."""
    _stream(err).write("".join(shown(line) + "\n" for line in lines))


def show(text: str, err: bool = False) -> None:
    """Print a document whose line breaks are batchlog's own (a README, a diff, a summary): its line breaks kept,
    every other control character shown as its escape."""
    _stream(err).write(shown(text, keep_newlines=True))


def show_json(text: str, err: bool = False) -> None:
    """Print JSON text (one object, a line of the seed's, a whole file as written): the same values, no control
    character raw (projections/control_chars.py `json_escaped`)."""
    _stream(err).write(json_escaped(text))


def is_terminal() -> bool:
    """Whether stdout is a terminal (a watch draws on it; else it writes JSON Lines)."""
    return sys.stdout.isatty()


def flush() -> None:
    """Hand what was printed to the reader now (a watch's line, a note, as it happens)."""
    sys.stdout.flush()
    sys.stderr.flush()


def escaped_values(value: Any) -> Any:
    """`value` with every string in it (in attrs instances, tuples, lists and dicts, keys too) written as `shown`
    writes it: for what draws text itself (the watches' screens, with rich), the same door as `say`."""
    import attrs

    if isinstance(value, str):
        return shown(value)
    if attrs.has(type(value)):
        return attrs.evolve(value, **{field.alias: escaped_values(getattr(value, field.name))
                                      for field in attrs.fields(type(value)) if field.init})
    if isinstance(value, (tuple, list)):
        return type(value)(escaped_values(item) for item in value)
    if isinstance(value, dict):
        return {escaped_values(key): escaped_values(item) for key, item in value.items()}
    return value


def json_line(value: Any, err: bool = False) -> None:
    """Print `value` as one JSON object on one line (batchlog's --json answers)."""
    import orjson

    show_json(orjson.dumps(value).decode() + "\n", err)
