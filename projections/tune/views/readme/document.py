"""The tuning's README as a view: every section rendered from the state, spliced between markers.

`sections(state)` renders each NAME; `splice(text, rendered)` writes them between
`<!-- batchlog:begin NAME -->` and `<!-- batchlog:end NAME -->` and never touches text outside the markers;
a text without any marker gets the whole layout (headings, the loop in words, every marker) once, after
what it holds. Pure: no I/O (the CLI reads and writes the file).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from batchlog.projections.errors import BadInput
from batchlog.projections.tune.views.readme.batches import NO_FILES, batches, log
from batchlog.projections.tune.views.readme.map import mermaid_map
from batchlog.projections.tune.views.readme.results import results
from batchlog.projections.tune.views.readme.sections import difficult, next_section, plan, settings, where
from batchlog.projections.tune.state import RUNS_PER_HALF, TuneState
from batchlog.projections.tune.views.status import DEFAULT_FOLDER, Place

SECTION_NAMES = ("where", "plan", "settings", "map", "batches", "difficult", "log", "results", "next")
MARKER = re.compile(r"^[ \t]*<!-- batchlog:(begin|end) ([A-Za-z0-9_-]+) -->[ \t\r]*$")


def sections(state: TuneState, *, folder: str | Place = DEFAULT_FOLDER, files: frozenset[str] = NO_FILES,
             base: str = "", newer: str | None = None) -> dict[str, str]:
    """Every section's markdown, by name. `folder` is the tuning's folder as commands name it (for `next`,
    run from the folder that holds it; a `Place` when its log is elsewhere, with the options that reach it);
    `files` the files under it that links may point at (see
    readme_batches); `base` the way from the README's folder to the tuning's ("" beside it, else ending in
    `/`), so that every path in the README is relative to the README and reads the same on every clone; `newer`
    what the log holds that is newer than this batchlog (then `next` says to upgrade it)."""
    return {
        "where": where(state),
        "plan": plan(state, base),
        "settings": settings(state),
        "map": mermaid_map(state),
        "batches": batches(state, files, base),
        "difficult": difficult(state),
        "log": log(state, files, base),
        "results": results(state, base),
        "next": next_section(state, folder, newer),
    }


def begin(name: str) -> str:
    return f"<!-- batchlog:begin {name} -->"


def end(name: str) -> str:
    return f"<!-- batchlog:end {name} -->"


def block(name: str, body: str) -> str:
    """A section between its markers (no trailing newline)."""
    return f"{begin(name)}\n{body.strip(chr(10))}\n{end(name)}"


def has_markers(text: str) -> bool:
    return any(MARKER.match(line) for line in text.splitlines())


def splice(text: str, rendered: Mapping[str, str], title: str = "the tuning") -> str:
    """`text` with each rendered section between its markers; the whole layout appended when it has none.

    Sections whose markers are missing are left out (someone removed them on purpose); markers of names
    not rendered keep what they hold. Raises BadInput on markers that do not pair up (naming the line).
    """
    if not has_markers(text):
        return _append(text, layout(rendered, title))
    lines = text.split("\n")
    out: list[str] = []
    open_name, open_line = None, 0
    for number, line in enumerate(lines, start=1):
        match = MARKER.match(line)
        if match is None:
            if open_name is None or open_name not in rendered:
                out.append(line)
            continue
        kind, name = match.groups()
        if kind == "begin":
            if open_name is not None:
                raise BadInput(f"line {number}: {begin(name)} inside the section {open_name} opened at line "
                               f"{open_line}: close it with {end(open_name)} first", line=number)
            open_name, open_line = name, number
            out.append(line)
            if name in rendered:
                out.append(rendered[name].strip("\n"))
        else:
            if open_name != name:
                raise BadInput(f"line {number}: {end(name)} without its {begin(name)}: pair the markers",
                               line=number)
            open_name = None
            out.append(line)
    if open_name is not None:
        raise BadInput(f"line {open_line}: {begin(open_name)} is never closed: add {end(open_name)}",
                       line=open_line)
    return "\n".join(out)


def _append(text: str, addition: str) -> str:
    if not text.strip():
        return addition
    return text.rstrip("\n") + "\n\n" + addition


def layout(rendered: Mapping[str, str], title: str = "the tuning") -> str:
    """The template's whole README with every section between its markers (for a file that has none)."""
    def part(name: str) -> str:
        return block(name, rendered.get(name, ""))

    return "\n".join([
        f"# Tuning {title}",
        "",
        "<!-- One paragraph for someone new to this project: what is tuned, against which cases, and why. "
        "Everything between batchlog markers is rewritten from the log by `batchlog tune readme`; the rest "
        "is yours. -->",
        "",
        "## Where we are",
        "",
        part("where"),
        "",
        "## The plan",
        "",
        part("plan"),
        "",
        "### One batch, step by step",
        "",
        "Each batch runs twice over: first with an empty memory, so a right answer is owed to the "
        "instructions alone, then with the memory the earlier batches built.",
        "",
        "1. Run the batch without memory and grade every run: right or wrong, what it cost, what it saved.",
        "2. Turn what the cases suggest into fixes of the prompts, skills or rules, and run the same cases "
        "again: the only difference is the fix. Stop when every case is right and nothing is left to cut "
        f"(at most {RUNS_PER_HALF} runs that count).",
        "3. Build the batch's memory from that passing run on top of the last good memory, and run the same "
        "cases with it, each with its own copy: same answers, far fewer tokens, nothing saved twice.",
        f"4. Fix the memory rules until that passes (at most {RUNS_PER_HALF} runs); its memory then becomes the "
        "last good memory, and the next batch is built.",
        "",
        "A case that stays wrong, breaks again as a recheck, gets worse with memory or costs far too much goes "
        "on the difficult list. It comes back first among the rechecks of every later batch, and once the "
        "selection is used up the last batches hold only open difficult cases, until each is fixed or, after "
        "maxRetries batches, stuck. Then a final check runs every case at once with the last good memory.",
        "",
        "The last good memory is only ever replaced by a complete one, so whenever the tuning stops it holds "
        "what every passed batch learned.",
        "",
        "### Settings",
        "",
        part("settings"),
        "",
        "## Map",
        "",
        part("map"),
        "",
        "## Batches",
        "",
        part("batches"),
        "",
        "## Difficult cases",
        "",
        part("difficult"),
        "",
        "## Log",
        "",
        part("log"),
        "",
        "## Results so far",
        "",
        part("results"),
        "",
        "## Next",
        "",
        part("next"),
        "",
    ])


def readme(text: str, state: TuneState, *, folder: str | Place = DEFAULT_FOLDER, files: frozenset[str] = NO_FILES,
           title: str = "the tuning", base: str = "", newer: str | None = None) -> str:
    """The README `text` brought up to date with the log's `state` (the arguments: see `sections`)."""
    return splice(text, sections(state, folder=folder, files=files, base=base, newer=newer), title)
