"""The bodies of `tune readme`, `tune usage-report`, `tune audit`: the tuning's reports, rebuilt from its log.

Each takes its command's parameters by the names the typer declaration gives them (cli/tune/commands.py), reads the
log, calls one view, and writes or prints; the README's sections and splicing, USAGE.md and the audit live in
projections/, imported by the command that uses them (the other tune commands do not pay for them). No typer here:
the fast lane (cli/lane.py) calls these without building the typer app.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from batchlog.cli import terminal
from batchlog.cli.loop_log import state_of
from batchlog.cli.loops import all_types
from batchlog.cli.store import chosen, shown, verify_log
from batchlog.cli.tune.files import check_writable, present, read_text, write_text
from batchlog.cli.tune.log import DEFAULT_DIR, read_tuning, tune_log
from batchlog.projections.errors import BadInput
from batchlog.projections.tune.decide.refusals import require_tuning
from batchlog.projections.tune.decider import TUNE

if TYPE_CHECKING:
    from batchlog.projections.tune.views.audit import Audit
    from batchlog.projections.tune.state import TuneState

RUN_FILES = ("findings.md", "changes.md")


def _title(state: TuneState, folder: Path) -> str:
    """The dataset's `name`, else the name of the folder that holds the tuning's folder (the project's)."""
    if state.settings is not None and state.settings.name:
        return state.settings.name
    return folder.absolute().resolve().parent.name or "the tuning"


def _places(folder: Path, path: Path) -> tuple[str, str]:
    """How the README at `path` names the tuning's folder: as a link prefix from the README's own folder
    ("" when beside it), and as `--dir` in commands run from the folder that holds it (its own name)."""
    import os

    tuning = folder.absolute().resolve()
    base = Path(os.path.relpath(tuning, path.absolute().resolve().parent)).as_posix()
    return ("" if base == "." else base + "/"), tuning.name


def _run_files(folder: Path) -> frozenset[str]:
    """The run files links may point at: runs/<run>/findings.md and changes.md that exist."""
    runs = folder / "runs"
    if not runs.is_dir():
        return frozenset()
    return frozenset(f"runs/{entry.name}/{name}" for entry in runs.iterdir() if entry.is_dir()
                     for name in RUN_FILES if (entry / name).is_file())


def _read(path: Path, what: str) -> str:
    """The file a report rewrites ("" when there is none yet), through engine/files.py's opener."""
    return read_text(path, what) if present(path) else ""


def _write_or_check(path: Path, old: str, new: str, check: bool, stdout: bool,
                    as_json: dict[str, object] | None = None, changes: tuple[tuple[str, str], ...] = ()) -> int:
    """Print, check against, or write `new`; the exit code. `as_json`: the fields to print as one JSON object
    instead of the words (the text itself is a field, `text`, with --stdout). `changes`: what the file's shape gains,
    each as it is said once written and as --check says it is still to be done (see `_changes`)."""
    if as_json is not None:
        fresh = old == new
        written = not (check or stdout or fresh)
        if written:
            write_text(path, new)
        body = {"file": str(path), "up_to_date": fresh, "written": written, **as_json}
        if stdout:
            body["text"] = new
        terminal.json_line(body)
        return 1 if check and not fresh else 0
    if stdout:
        terminal.show(new)
        return 0
    if check:
        if old == new:
            return 0
        import difflib

        diff = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                    fromfile=f"{path} (on disk)", tofile=f"{path} (from the log)")
        terminal.show("".join(line if line.endswith("\n") else line + "\n" for line in diff))
        todo = "; ".join(said for _, said in changes)
        terminal.say(f"{path} is stale: {todo + ': ' if todo else ''}run the same command without --check to "
                     "rewrite it", err=True)
        return 1
    if old == new:
        terminal.say(f"{path}: up to date")
        return 0
    write_text(path, new)
    terminal.say(f"{path}: written" + "".join(f"; {done}" for done, _ in changes))
    return 0


def _changes(adopted: tuple[str, ...], restored: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """What `tune readme` does to the README's shape, as (said once written, said by --check): the template's
    sections it takes over, the deleted ones it puts back."""
    said = []
    if adopted:
        names, many = ", ".join(adopted), len(adopted) > 1
        said.append((f"the template's section{'s' * many} {names} {'are' if many else 'is'} now between batchlog's "
                     "markers", f"the template's section{'s' * many} {names} {'have' if many else 'has'} no markers "
                     "yet"))
    if restored:
        names, many = ", ".join(restored), len(restored) > 1
        said.append((f"the section{'s' * many} {names} {'are' if many else 'is'} back",
                     f"the section{'s' * many} {names} {'are' if many else 'is'} missing"))
    return tuple(said)


def readme_command(folder: Path, store_url: str | None, log_name: str | None, file: Path | None, at: int | None,
                   check: bool, stdout: bool, as_json: bool) -> int:
    """`tune readme`: the README's sections rewritten between their markers (a template's taken over), printed
    (`stdout`) or checked (`check`)."""
    from batchlog.projections.tune.views.readme.document import sections, update
    from batchlog.projections.tune.printed import Place

    path = file if file is not None else folder / "README.md"
    store = chosen(store_url, log_name)
    if not (check or stdout):
        check_writable(path, store.file(folder))
    read = read_tuning(folder, at, store=store)
    state, newer = read.state, None if read.newer is None else str(read.newer["first"])
    old = _read(path, "README")
    base, name = _places(folder, path)
    place = Place(name, store.printed(folder))  # where the next section's command finds this tuning's log
    rendered = sections(state, folder=place, files=_run_files(folder), base=base, newer=newer)
    updated = update(old, rendered, _title(state, folder))
    new = updated.text if updated.text.endswith("\n") else updated.text + "\n"
    shown = {"sections": rendered, "adopted": list(updated.adopted), "restored": list(updated.restored),
             **read.fields()} if as_json else None
    return _write_or_check(path, old, new, check, stdout, shown, _changes(updated.adopted, updated.restored))


def usage_report_command(folder: Path, store_url: str | None, log_name: str | None, file: Path | None,
                         at: int | None, check: bool, as_json: bool) -> int:
    """`tune usage-report`: USAGE.md written (or checked) from the log."""
    from batchlog.projections.tune.views.usage import usage_figures, usage_markdown

    path = file if file is not None else folder / "USAGE.md"
    store = chosen(store_url, log_name)
    if not check:
        check_writable(path, store.file(folder))
    read = read_tuning(folder, at, store=store)
    state = read.state
    new = usage_markdown(state, _title(state, folder))
    shown = {**usage_figures(state), **read.fields()} if as_json else None
    return _write_or_check(path, _read(path, "usage report"), new, check, stdout=False, as_json=shown)


def audit_command(folder: Path = DEFAULT_DIR, store_url: str | None = None, log_name: str | None = None,
                  as_json: bool = False) -> int:
    """`tune audit`: the promises of a finished tuning checked on its replayed log, with the evidence; exit 0 every
    check holds, 1 a check fails, 3 the log cannot be trusted. (Defaults as declared: tests call it as a function.)"""
    from batchlog.projections.tune.views.audit import LogReport, audit

    log = tune_log(folder, chosen(store_url, log_name))
    if not log.exists():
        raise BadInput(f"no tuning log at {shown(log)}: give --dir the tuning's folder", path=shown(log))
    report = verify_log(log, all_types())
    summary = f"{report.path}: {report.lines} line(s), {report.events} event(s), last seq {report.last_seq}"
    problems = tuple(problem.message for problem in report.problems)
    if not report.trusted:
        return _print_untrusted(summary, problems, as_json)
    require_tuning(state_of(log, TUNE))
    result = audit(log.scan(), LogReport(True, summary + ": trusted"))
    _print_audit(shown(log), result, as_json)
    return 0 if result.holds else 1


def _print_untrusted(summary: str, problems: tuple[str, ...], as_json: bool) -> int:
    if as_json:
        terminal.json_line({"holds": False, "trusted": False, "summary": summary, "problems": list(problems)})
    else:
        terminal.say(f"{summary}: NOT trusted, nothing else can be checked", *(f"  ✘ {problem}" for problem in problems))
    return 3


def _print_audit(path: str, result: Audit, as_json: bool) -> None:
    if as_json:
        terminal.json_line({"trusted": True, **result.as_dict()})
        return
    failed = sum(1 for check in result.checks if not check.holds)
    lines = [f"audit of {path}: " + ("every check holds" if not failed else f"{failed} check(s) FAIL")]
    for check in result.checks:
        lines.append(f"  {'✔' if check.holds else '✘'} {check.name}: {check.promise}")
        lines += [f"      {line}" for line in check.evidence]
    terminal.say(*lines, "timeline", *(f"  {line}" for line in result.timeline.lines()))
