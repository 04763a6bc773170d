"""What both watches draw with: a bar of parts, durations and times in few characters, the rows of a screen.
Imports rich: only a watch drawing on a terminal imports this module.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

BAR_WIDTH = 40  # the characters of a bar
LABEL_STYLE = "bold"
NOTE_STYLE = "yellow"


def bar(segments: Iterable[tuple[int, str, str]], total: int, rest: str = "░", width: int = BAR_WIDTH) -> Text:
    """A bar of `total` parts split in segments (count, glyph, style) in order, the rest drawn as `rest`: the
    glyphs differ, so a bar reads the same without colours (a copy of the terminal's text)."""
    text, reached, drawn = Text(), 0, 0
    for count, glyph, style in segments:
        reached += count
        # Each segment ends where its share of the whole ends, so rounding never adds up past the width.
        end = width if total <= 0 else min(width, round(reached * width / total))
        text.append(glyph * (end - drawn), style=style)
        drawn = max(drawn, end)
    text.append(rest * (width - drawn), style="dim")
    return text


def columns(lines: Iterable[Iterable[str | Text]], justify_first: bool = False) -> Text:
    """Lines of cells as one Text, each column as wide as its widest cell (laid out here rather than in nested
    tables: a table measures every cell at every drawing, several times the cost of plain text)."""
    cells = [[cell if isinstance(cell, Text) else Text(cell) for cell in line] for line in lines]
    widths = [max(len(cell) for cell in column) for column in zip(*cells)] if cells else []
    text = Text()
    for number, line in enumerate(cells):
        text.append("\n" if number else "")
        for index, cell in enumerate(line):
            pad = " " * (widths[index] - len(cell))
            if index == 0 and justify_first:
                text.append(pad)
            text.append_text(cell)
            if index < len(line) - 1:
                text.append(("" if index == 0 and justify_first else pad) + "  ")
    return text


def rows(lines: Iterable[tuple[str, RenderableType]]) -> Table:
    """Label and content, one pair a row, the labels in a column of their own."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style=LABEL_STYLE, no_wrap=True)
    grid.add_column(overflow="fold")
    for label, content in lines:
        grid.add_row(label, content)
    return grid


def duration(seconds: float | None) -> str:
    """`12s`, `3m 36s`, `2h 05m`; `-` when unknown."""
    if seconds is None:
        return "-"
    whole = int(round(seconds))
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m {whole % 60:02d}s"
    return f"{whole // 3600}h {whole % 3600 // 60:02d}m"


def clock_time(at: str | None) -> str:
    """The time of day of an event's `at` (UTC), `HH:MM:SS`."""
    return "-" if not at else at[11:19]


def note_line(note: str | None) -> Text | None:
    """A view's note (a torn tail, an unfinished command), in the note's colour; None without one."""
    return None if note is None else Text(note, style=NOTE_STYLE)
