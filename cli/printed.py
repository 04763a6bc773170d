"""The one place a refusal's hint gets the words that reach the same log.

A refusal names the command to run next (`batchlog tune run start --batch 2 --kind mem`), decided by the loop,
which knows nothing of the folder or the store. Each loop's log opener (cli/tune/log.py, cli/quick_batch/files.py)
remembers here the words its printed commands carry: the loop's folder option and the store's (`Store.printed`:
`--store` without any secret and `--log`, even when the store came from BATCHLOG_STORE). The error boundary
(cli/errors.py) completes every hint of that loop's commands with the words it lacks before printing it, in the
message and in the refusal's `commands` field (the tuning's `Printed`, projections/tune/printed.py). `tune next`
and the README's next section carry the same words through `Place`.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_WHERE: ContextVar[tuple[str, tuple[str, ...]] | None] = ContextVar("printed_where", default=None)
_HINT = re.compile(r"`(batchlog [^`]*)`")


@contextmanager
def this_command() -> Iterator[None]:
    """While one command runs (in a process that runs several, as the tests do): nothing remembered before it."""
    token = _WHERE.set(None)
    try:
        yield
    finally:
        _WHERE.reset(token)


def remember(group: str, words: tuple[str, ...]) -> None:
    """The command group of the loop whose log this command opened (`tune`, `quick-batch`), and the option words
    (pairs of option and value) its printed commands carry."""
    _WHERE.set((group, words))


def completed(message: str) -> str:
    """`message` with each command of the remembered loop it names between backticks completed
    (`completed_command`)."""
    return _HINT.sub(lambda hint: f"`{completed_command(hint.group(1))}`", message)


def completed_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    """A refusal's fields with each of the commands it lists (`commands`) completed as its message's are."""
    if "commands" not in fields:
        return dict(fields)
    return {**fields, "commands": [completed_command(str(printed)) for printed in fields["commands"]]}


def completed_command(text: str) -> str:
    """`text` (`batchlog ...`, its words quoted for the shell), when it is a command of the remembered loop, given
    the remembered words it lacks (an option it names already is left as it is): before a `--`, after which an
    option parser reads every word as an argument, else at its end."""
    where = _WHERE.get()
    if where is None or not where[1] or not text.startswith(f"batchlog {where[0]} "):
        return text
    words = shlex.split(text)
    end = words.index("--") if "--" in words else len(words)
    options = words[:end]
    pairs = zip(where[1][::2], where[1][1::2])
    extra = [word for option, value in pairs if option not in options for word in (option, value)]
    return shlex.join([*options, *extra, *words[end:]]) if extra else text
