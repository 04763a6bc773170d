"""The tuning's README as a view: every section rendered from the state, written between markers.

`sections(state)` renders each NAME; `update(text, rendered)` writes them between `<!-- batchlog:begin NAME -->` and
`<!-- batchlog:end NAME -->` and leaves the text outside the markers as it is, but for three cases:
- a section without markers whose heading the README holds (the template's words, at the template's level: a README
  the agent wrote from zen-finetune's template) takes over the text under that heading, up to the next heading of
  the same or a higher level (a section heading inside it keeps its own text): the heading stays, the section
  between its markers replaces the text;
- a section whose markers were deleted by hand, heading and all, is put back under its heading, before the next
  section (in SECTION_NAMES order) the README holds, else after the one before it, before the next heading of a
  level as high as either's;
- a text with neither batchlog's markers nor a template heading gets the whole layout once, after what it holds.
Headings are ATX headings (`## Map`), outside code fences and HTML comments. Pure: no I/O (the CLI reads and writes
the file).
"""

from __future__ import annotations

import re
from collections.abc import Mapping


from batchlog.projections.errors import BadInput
from batchlog.projections.tune.views.readme.batches import NO_FILES, batches, log
from batchlog.projections.tune.views.readme.facts import plain
from batchlog.projections.tune.views.readme.map import mermaid_map
from batchlog.projections.tune.views.readme.results import results
from batchlog.projections.tune.views.readme.sections import difficult, next_section, plan, settings, where
from batchlog.projections.tune.state import RUNS_PER_HALF, TuneState
from batchlog.projections.tune.printed import DEFAULT_FOLDER, Place
from batchlog.engine.value import frozen

SECTION_NAMES = ("where", "plan", "settings", "map", "batches", "difficult", "log", "results", "next")
# Each section's heading in zen-finetune's README template (and in the layout): its level and its words.
HEADINGS = {"where": (2, "Where we are"), "plan": (2, "The plan"), "settings": (3, "Settings"), "map": (2, "Map"),
            "batches": (2, "Batches"), "difficult": (2, "Difficult cases"), "log": (2, "Log"),
            "results": (2, "Results so far"), "next": (2, "Next")}
MARKER = re.compile(r"^[ \t]*<!-- batchlog:(begin|end) ([A-Za-z0-9_-]+) -->[ \t\r]*$")
ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
CLOSING = re.compile(r"(?:^|[ \t]+)#+$")  # an ATX heading's closing run of #
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
COMMENT = re.compile(r"^ {0,3}<!--")


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


def heading(name: str) -> str:
    """The section's heading as the template and the layout write it."""
    level, words = HEADINGS[name]
    return f"{'#' * level} {words}"


@frozen
class Update:
    """A README brought up to date: its text, and the sections taken over from the template's headings and those put
    back (each in SECTION_NAMES order)."""

    text: str
    adopted: tuple[str, ...] = ()
    restored: tuple[str, ...] = ()


def update(text: str, rendered: Mapping[str, str], title: str = "the tuning") -> Update:
    """`text` with each rendered section between its markers (see the module's docstring). Markers of names not
    rendered keep what they hold. Raises BadInput on markers that do not pair up (naming the line)."""
    lines = text.split("\n")
    outline = _outline(lines)
    names = tuple(name for name in SECTION_NAMES if name in rendered)
    if not any(name in HEADINGS for name, _, _ in outline.spans) and \
            not any(name in names for _, _, name in outline.headings):
        return Update(_append(text, layout(rendered, title)))
    lines, adopted = _adopt(lines, outline, names)
    lines, restored = _put_back(lines, names)
    return Update("\n".join(_fill(lines, rendered)), adopted, restored)


@frozen
class _Outline:
    """What a README's lines hold: its marker pairs (name, begin line, end line), and its headings (line, level, the
    section whose template heading it is, or None) outside markers, code fences and HTML comments."""

    spans: tuple[tuple[str, int, int], ...]
    headings: tuple[tuple[int, int, str | None], ...]

    def marked(self) -> dict[str, tuple[int, int]]:
        """Each section name's first marker pair: (begin line, end line)."""
        return {name: (first, last) for name, first, last in reversed(self.spans)}


def _outline(lines: list[str]) -> _Outline:
    """The marker pairs and headings of `lines` (0-based); BadInput naming the line (1-based) of a marker that does
    not pair up."""
    spans: list[tuple[str, int, int]] = []
    headings: list[tuple[int, int, str | None]] = []
    open_name, open_line = None, 0
    fence: str | None = None  # the open code fence's opening run of ` or ~
    in_comment = False
    for index, line in enumerate(lines):
        match = MARKER.match(line)
        if match is not None:
            open_name, open_line = _paired(match.groups(), index + 1, open_name, open_line, spans)
            continue
        if open_name is not None:
            continue  # a section's text is batchlog's: no heading in it counts
        if fence is not None:
            closing = FENCE.match(line)
            if closing and closing.group(1)[0] == fence[0] and len(closing.group(1)) >= len(fence) \
                    and not line[closing.end():].strip():
                fence = None
        elif in_comment:
            in_comment = "-->" not in line
        elif opening := FENCE.match(line):
            fence = opening.group(1)
        elif COMMENT.match(line):
            in_comment = "-->" not in line[line.index("<!--") + 4:]
        elif found := ATX_HEADING.match(line):
            level, words = len(found.group(1)), CLOSING.sub("", found.group(2) or "")
            headings.append((index, level, SECTION_OF.get((level, _words(words)))))
    if open_name is not None:
        raise BadInput(f"line {open_line}: {begin(open_name)} is never closed: add {end(open_name)}", line=open_line)
    return _Outline(tuple(spans), tuple(headings))


def _paired(marker: tuple[str, str], number: int, open_name: str | None, open_line: int,
            spans: list[tuple[str, int, int]]) -> tuple[str | None, int]:
    """The section open after the marker at line `number` (1-based), and where it opened; a closed pair is added to
    `spans` (0-based lines)."""
    kind, name = marker
    if kind == "begin":
        if open_name is not None:
            raise BadInput(f"line {number}: {begin(name)} inside the section {open_name} opened at line "
                           f"{open_line}: close it with {end(open_name)} first", line=number)
        return name, number
    if open_name != name:
        raise BadInput(f"line {number}: {end(name)} without its {begin(name)}: pair the markers", line=number)
    spans.append((name, open_line - 1, number - 1))
    return None, 0


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


SECTION_OF = {(level, _words(words)): name for name, (level, words) in HEADINGS.items()}
_KEEP = ""  # the role of a heading whose text stays: a marked section's, or a template heading met again


def _adopt(lines: list[str], outline: _Outline, names: tuple[str, ...]) -> tuple[list[str], tuple[str, ...]]:
    """Each of `names` without markers whose template heading `lines` hold (the first one) takes over the text under
    it: the heading stays, the section between its markers (empty) replaces the text. Gives (the lines, the names)."""
    marked = outline.marked()
    taking: dict[int, str] = {}
    for index, _, name in outline.headings:
        if name in names and name not in marked and name not in taking.values():
            taking[index] = name
    if not taking:
        return lines, ()
    out: list[str] = []
    for index, (line, owner) in enumerate(zip(lines, _owners(len(lines), outline, taking))):
        if index in taking:
            out += [line, "", begin(taking[index]), end(taking[index]), ""]
        elif owner is None:
            out.append(line)
    return out, tuple(name for name in SECTION_NAMES if name in taking.values())


def _owners(count: int, outline: _Outline, taking: dict[int, str]) -> list[str | None]:
    """For each line, the section taken over whose text it is, else None (it stays). A heading's text runs to the
    next heading of the same or a higher level; a section heading inside it has its own text."""
    roles = {index: taking.get(index, _KEEP if name is not None else None) for index, _, name in outline.headings}
    levels = {index: level for index, level, _ in outline.headings}
    inside = {index for _, first, last in outline.spans for index in range(first, last + 1)}
    stack: list[tuple[int, str | None]] = []  # the headings open at a line: (level, role), the innermost last
    owners: list[str | None] = []
    for index in range(count):
        if index in roles:
            while stack and stack[-1][0] >= levels[index]:
                stack.pop()
            stack.append((levels[index], roles[index]))
        role = next((role for _, role in reversed(stack) if role is not None), None)
        owners.append(None if index in inside or not role else role)
    return owners


def _put_back(lines: list[str], names: tuple[str, ...]) -> tuple[list[str], tuple[str, ...]]:
    """Each of `names` the README no longer holds (its markers deleted), put back under its heading: before the next
    section (in SECTION_NAMES order) the README holds, else after the one before it, before the next heading of a
    level as high as either's. Gives (the lines, the names put back)."""
    restored = []
    for name in names:
        outline = _outline(lines)
        marked = outline.marked()
        if name in marked:
            continue
        lines = _insert(lines, _place(lines, outline, marked, name), [heading(name), "", begin(name), end(name)])
        restored.append(name)
    return lines, tuple(restored)


def _place(lines: list[str], outline: _Outline, marked: dict[str, tuple[int, int]], name: str) -> int:
    """The line a missing section goes before (len(lines): at the end). At least one section is marked."""
    order = SECTION_NAMES.index(name)
    following = [other for other in SECTION_NAMES[order + 1:] if other in marked]
    if following:
        first = marked[following[0]][0]
        above = first - 1
        while above >= 0 and not lines[above].strip():
            above -= 1
        return above if any(index == above for index, _, _ in outline.headings) else first
    before = [other for other in SECTION_NAMES[:order] if other in marked][-1]
    level = min(HEADINGS[before][0], HEADINGS[name][0])
    after = marked[before][1]
    return next((index for index, found, _ in outline.headings if index > after and found <= level), len(lines))


def _insert(lines: list[str], at: int, chunk: list[str]) -> list[str]:
    """`chunk` inserted before line `at`, a blank line on either side."""
    if at == len(lines) and lines and lines[-1] == "":
        at -= 1  # before the text's last newline
    before = [""] if at > 0 and lines[at - 1].strip() else []
    after = [""] if at < len(lines) and lines[at].strip() else []
    return lines[:at] + before + chunk + after + lines[at:]


def _fill(lines: list[str], rendered: Mapping[str, str]) -> list[str]:
    """`lines` with each rendered section's text between its markers (the markers pair up: see _outline)."""
    out: list[str] = []
    open_name = None
    for line in lines:
        match = MARKER.match(line)
        if match is None:
            if open_name is None or open_name not in rendered:
                out.append(line)
            continue
        kind, name = match.groups()
        out.append(line)
        if kind == "begin":
            open_name = name
            if name in rendered:
                out.append(rendered[name].strip("\n"))
        else:
            open_name = None
    return out


def _append(text: str, addition: str) -> str:
    if not text.strip():
        return addition
    return text.rstrip("\n") + "\n\n" + addition


def layout(rendered: Mapping[str, str], title: str = "the tuning") -> str:
    """The template's whole README with every section between its markers (for a file that has none)."""
    def part(name: str) -> str:
        return block(name, rendered.get(name, ""))

    return "\n".join([
        f"# Tuning {plain(title)}",
        "",
        "<!-- One paragraph for someone new to this project: what is tuned, against which cases, and why. "
        "Everything between batchlog markers is rewritten from the log by `batchlog tune readme`; the rest "
        "is yours. -->",
        "",
        heading("where"),
        "",
        part("where"),
        "",
        heading("plan"),
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
        heading("settings"),
        "",
        part("settings"),
        "",
        heading("map"),
        "",
        part("map"),
        "",
        heading("batches"),
        "",
        part("batches"),
        "",
        heading("difficult"),
        "",
        part("difficult"),
        "",
        heading("log"),
        "",
        part("log"),
        "",
        heading("results"),
        "",
        part("results"),
        "",
        heading("next"),
        "",
        part("next"),
        "",
    ])

