"""The characters that are not text to show as they are, wherever batchlog shows text a user or a file supplied:
C0 and C1 controls and DEL (Unicode's Cc: an escape sequence recolours, moves or retitles a terminal, a
carriage return overwrites a line, a newline breaks a README's line), the line and paragraph separators, and the
bidi controls (they make a line read otherwise than it is). Pure.

`shown` writes each as its escape (`\\n`, `\\x1b`, `\\u202e`): the terminal's door (cli/terminal.py) and the README's
(views/readme/facts.py) use it. A command printed for pasting may hold none of them: the folders and stores it
names are refused when they do (`named_in_commands`), and case ids by the dataset's rule (tune/batch_mjs/selection.py).
"""

from __future__ import annotations

import re

_OTHERS = "\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069"  # DEL, C1, separators, bidi
_CONTROL = re.compile(f"[\x00-\x1f{_OTHERS}]")
_CONTROL_BUT_NEWLINE = re.compile(f"[\x00-\x09\x0b-\x1f{_OTHERS}]")
_CONTROL_IN_JSON = re.compile("[\x7f-\x9f]")  # JSON escapes C0 itself


_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match[0]
    if char in _SHORT:
        return _SHORT[char]
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


def shown(text: str, keep_newlines: bool = False) -> str:
    """`text` with every control character written as its escape (`keep_newlines`: but "\\n", for a text whose
    line breaks are batchlog's own)."""
    return (_CONTROL_BUT_NEWLINE if keep_newlines else _CONTROL).sub(_escape, text)


def first_control(text: str) -> str | None:
    """The first control character of `text`, as its escape (None: it holds none)."""
    found = _CONTROL.search(text)
    return None if found is None else _escape(found)


def json_escaped(text: str) -> str:
    """JSON text with each control character JSON leaves as it is (DEL and C1, only ever inside a string) written
    as its \\u escape: the same value, and no byte a terminal obeys. The separators and bidi controls stay as
    JSON.stringify writes them (a machine reads JSON; the preview of a batch is batch.mjs's byte for byte)."""
    return _CONTROL_IN_JSON.sub(lambda match: f"\\u{ord(match[0]):04x}", text)


def named_in_commands(what: str, text: str) -> str | None:
    """Why `text` (a folder, a store: `what` says which) cannot be named in a printed command, None when it can:
    a command must print as one line that pastes as it reads."""
    control = first_control(text)
    if control is None:
        return None
    return (f"{what} holds a control character ({control}): batchlog prints commands that name it, and a command "
            "must print as one line that pastes as it reads")
