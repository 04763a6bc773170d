"""The batch-file grammar of skf-quick-batch.py: one target per line, `language=` / `scope=` modifiers.

Pure: text or bytes in, targets out; the only error raised is `BadInput` (bytes that are not UTF-8).
"""

from __future__ import annotations


from batchlog.projections.errors import BadInput
from batchlog.engine.value import frozen

# Modifier key (any letter case) -> the hint it sets.
MODIFIERS = {"language": "language_hint", "scope": "scope_hint"}


@frozen
class TargetLine:
    """One target of a batch, numbered from 1 in file order; a hint is None when the line sets none."""

    batch: int
    target: str
    language_hint: str | None = None
    scope_hint: str | None = None


def _modifier(word: str) -> tuple[str, str] | None:
    """(hint, value) of a `language=<v>` or `scope=<v>` word with a value, else None."""
    key, sep, value = word.partition("=")
    hint = MODIFIERS.get(key.lower()) if sep else None
    if hint is None or not value:
        return None
    return hint, value


def parse_line(line: str, batch: int) -> TargetLine | None:
    """The target a line names, or None for a blank line or a `#` comment.

    A line whose later words are not all distinct modifiers is kept whole as the
    target, so that target fails on its own while the rest of the batch runs.
    """
    text = line.strip()
    if not text or text[0] == "#":
        return None
    words = text.split()
    hints: dict[str, str] = {}
    for word in words[1:]:
        found = _modifier(word)
        if found is None or found[0] in hints:
            return TargetLine(batch, text)
        hints[found[0]] = found[1]
    return TargetLine(batch, words[0], hints.get("language_hint"), hints.get("scope_hint"))


def parse_text(text: str) -> tuple[TargetLine, ...]:
    """The numbered targets of a batch file's text (any line ending)."""
    targets: list[TargetLine] = []
    for line in text.splitlines():
        found = parse_line(line, len(targets) + 1)
        if found is not None:
            targets.append(found)
    return tuple(targets)


def parse_bytes(data: bytes, shown_path: str) -> tuple[TargetLine, ...]:
    """The targets of a batch file's bytes; a byte-order mark is no part of the first target.

    Raises BadInput (naming `shown_path`) when the bytes are not UTF-8.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadInput(f"the batch file {shown_path} is not UTF-8 text", path=shown_path) from None
    return parse_text(text)
