"""The one place a refusal's hint gets the words that reach the same log.

A refusal names the command to run next (`batchlog tune run start --batch 2 --kind mem`), decided by the loop,
which knows nothing of the folder or the store. Each loop's log opener (cli/tune/log.py, cli/quick_batch/files.py)
remembers here the words its printed commands carry: the loop's folder option and the store's (`Store.printed`:
`--store` without any secret and `--log`, even when the store came from BATCHLOG_STORE). The error boundary
(cli/errors.py) completes every hint of that loop's commands with the words it lacks before printing it. `tune
next` and the README's next section carry the same words through `Place`.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

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
    """`message` with each command of the remembered loop it names between backticks given the remembered words it
    lacks (an option it names already is left as it is)."""
    where = _WHERE.get()
    if where is None or not where[1]:
        return message
    group, words = where
    pairs = list(zip(words[::2], words[1::2]))

    def complete(hint: re.Match[str]) -> str:
        command = hint.group(1)
        if not command.startswith(f"batchlog {group} "):
            return hint.group(0)
        named = set(command.split())
        extra = "".join(f" {option} {shlex.quote(value)}" for option, value in pairs if option not in named)
        return f"`{command}{extra}`"

    return _HINT.sub(complete, message)
