"""The figures the README sections share: a batch's runs and costs, the batches the growth rule predicts,
and safe markdown text (where the loop stands is `halves.current_half`, which next_step reads too). Pure: no I/O.
"""

from __future__ import annotations

import re

from batchlog.projections.control_chars import shown
from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.tune.batch_mjs.inputs import history
from batchlog.projections.tune.state import Batch, Run, TuneState
from batchlog.engine.value import frozen

HALF_WORDS = {"nomem": "without memory", "mem": "with memory"}
MINUS = "−"  # the template's minus sign in percentages


@frozen
class Ahead:
    """A batch the growth rule predicts: its number, how many cases it takes, and of which kind."""

    number: int
    size: int
    kind: str  # "new" | "difficult"


def passing_run(runs: tuple[Run, ...]) -> Run | None:
    """The run that passed the half, else its last graded run that counts."""
    for run in runs:
        if run.verdict == "PASSED":
            return run
    graded = [run for run in runs if run.graded and run.counts]
    return graded[-1] if graded else None


def run_tokens(run: Run) -> int | None:
    """The tokens a run's grade gives, else the sum of its model usage, else None."""
    if run.tokens is not None:
        return run.tokens
    if run.usage:
        return sum(usage.input_tokens + usage.output_tokens for usage in run.usage)
    return None


def run_calls(run: Run) -> int | None:
    """The llm calls a run's grade gives, else the sum of its model usage, else None."""
    if run.llm_calls is not None:
        return run.llm_calls
    if run.usage:
        return sum(usage.calls for usage in run.usage)
    return None


def token_change(state: TuneState, number: int) -> int | None:
    """Tokens with memory against without, as a whole percentage (negative: cheaper); None when unknown."""
    without = passing_run(state.runs_of(number, "nomem"))
    with_ = passing_run(state.runs_of(number, "mem"))
    if without is None or with_ is None:
        return None
    before, after = run_tokens(without), run_tokens(with_)
    if not before or after is None:
        return None
    return round((after - before) * 100 / before)


def percent(change: int | None) -> str:
    """A signed percentage: −58%, +4%, 0%; "-" when unknown."""
    if change is None:
        return "-"
    if change < 0:
        return f"{MINUS}{-change}%"
    return f"+{change}%" if change > 0 else "0%"


def ahead(state: TuneState) -> list[Ahead]:
    """The batches still to build as the growth rule gives them now: the next size, then doubling up to
    maxBatch (as if every batch goes smoothly) until the unused cases are covered; once they are, one batch
    of the open difficult cases."""
    settings = state.settings
    if settings is None:
        return []
    past = history(state)
    unused = len(rules.unused_cases(past))
    opened = len(rules.open_difficult(past))
    number = rules.next_number(past)
    size = rules.next_size(past).size
    planned = []
    while unused > 0:
        take = min(size, unused)
        planned.append(Ahead(number, take, "new"))
        unused -= take
        number += 1
        size = min(settings.max_batch, size * 2)
    if not planned and opened:
        planned.append(Ahead(number, min(size, opened), "difficult"))
    return planned


def kept_batches(state: TuneState) -> str:
    """The batches whose memory was kept, in words: "batch 1", "batches 1-2, 4" (a given-up batch keeps none)."""
    numbers = sorted({memory.batch for memory in state.memories})
    return ("batch " if len(numbers) == 1 else "batches ") + numbers_text(numbers)


def growth_sizes(total: int, min_batch: int, max_batch: int) -> list[int]:
    """The sizes `total` cases take when every batch goes smoothly: min, doubling up to max, the rest last."""
    sizes, size = [], min_batch
    while total > 0:
        sizes.append(min(size, total))
        total -= sizes[-1]
        size = min(max_batch, size * 2)
    return sizes


def numbers_text(numbers: list[int]) -> str:
    """1, 2, 3, 5 -> "1-3, 5"."""
    parts, start = [], None
    ordered = sorted(set(numbers))
    for index, number in enumerate(ordered):
        if start is None:
            start = number
        if index + 1 == len(ordered) or ordered[index + 1] != number + 1:
            parts.append(str(start) if start == number else f"{start}-{number}")
            start = None
    return ", ".join(parts)


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


def runs_words(runs: tuple[Run, ...]) -> str:
    """"2 runs", "1 run + 1 VOID": the runs that count toward the half's limit, as the rules and the text count
    them, and the VOID ones apart."""
    void = sum(1 for run in runs if not run.counts)
    return plural(len(runs) - void, "run") + (f" + {void} VOID" if void else "")


def first_last(values: list[int]) -> str:
    """"96 → 71" for several values, "96" for one, "-" for none."""
    if not values:
        return "-"
    return str(values[0]) if len(values) == 1 else f"{values[0]} → {values[-1]}"


# Safe markdown, the README's one door for text from the log (ids, notes, summaries, names: anything a user or a
# file supplied). Markdown's own escapes (a backslash before punctuation), never HTML entities, so the file reads
# as plain text too: only what would start markup is escaped: HTML and the markers (`<` before a tag's first
# character), an entity (`&` before one), code spans, emphasis, links, table cells, and a backslash that would
# escape what follows it. Control characters are written as their escapes (`\x1b`), line breaks as spaces.
_MARKUP = re.compile(r"\\(?=[!-/:-@\[-`{-~])|[`*\[\]|]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|<(?=[A-Za-z/!?])"
                     r"|&(?=#?[A-Za-z0-9]+;)")


def one_line(text: str) -> str:
    """`text` on one line: its whitespace runs (line breaks too) as one space, other control characters escaped."""
    return shown(" ".join(text.split()))


def plain(text: str) -> str:
    """Free text on one line, unable to open HTML (so never a marker), a code span or a link, or break a table."""
    return one_line(_MARKUP.sub(lambda match: "\\" + match[0], text))


def code(text: str) -> str:
    """`text` as an inline code span, safe in a table cell."""
    inside = one_line(text) or " "
    fence = "`"
    while fence in inside:
        fence += "`"
    padded = f" {inside} " if inside.startswith("`") or inside.endswith("`") or fence != "`" else inside
    return f"{fence}{padded}{fence}".replace("|", "\\|")


def codes(ids: tuple[str, ...] | list[str]) -> str:
    return " ".join(code(case) for case in ids)


def link_target(path: str) -> str:
    """A relative link target: spaces and brackets encoded so the link stays one."""
    return "".join(f"%{ord(c):02X}" if c in " ()<>|[]\"'`" or ord(c) < 32 else c for c in path)


def batch_kind_words(batch: Batch) -> str:
    """"10 new + 3 recheck" / "2 difficult + 3 recheck"."""
    what = f"{len(batch.new)} {'new' if batch.kind == 'new' else 'difficult'}"
    return what + (f" + {len(batch.recheck)} recheck" if batch.recheck else "")
