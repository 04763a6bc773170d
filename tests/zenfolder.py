"""A `History` laid out as a zen-finetune project root, and batch.mjs run on it in Node.

Two ways to run batch.mjs, compared with each other by the differential test:
- `run_batch_mjs`: one `node batch.mjs ...` process per call, exactly as a user runs it (~0.1 s each);
- `BatchMjsDriver`: one Node process that evaluates batch.mjs afresh per call (a new module instance via a
  unique import URL, `process.argv` set, `process.exit` turned into a throw, stdout/stderr captured). The
  script itself is unchanged and runs top to bottom as in its own process; only its exit is caught.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import attrs

from batchlog.projections.tune.batch_mjs.js_json import js_json
from batchlog.projections.tune.batch_mjs.rules import (
    NO_DIFFICULT_LIST,
    NOT_A_RUN_FOLDER,
    SUMMARY_LABEL,
    History,
    node_dirname,
    pad,
)
from batchlog.projections.tune.batch_mjs.run_names import RUN_NAME
from tests.seeds import BATCH_MJS, require

SCRIPT_IN_ROOT = Path(".github/skills/zen-finetune/scripts/batch.mjs")
NODE = shutil.which("node")
NODE_ENV = {**os.environ, "LC_ALL": "C.UTF-8"}  # a root-collation locale: V8 maps C to en-US

# batch.mjs's summary names itself and zen-finetune's files, which batchlog says in its own words (rules.py): each
# mapped where it stands, at its line's start or end, so everything else is still compared byte for byte.
_OWN_WORDS = ((re.compile(r"^batch\.mjs: batch ", re.M), f"{SUMMARY_LABEL}: batch "),
              (re.compile(r" \(no difficult\.json yet\)$", re.M), f" {NO_DIFFICULT_LIST}"),
              (re.compile(r" - next\.mjs will not see it$", re.M), f" - {NOT_A_RUN_FOLDER}"))


def in_batchlog_words(summary: str) -> str:
    """batch.mjs's stderr summary with the words batchlog says its own way mapped to batchlog's."""
    for pattern, words in _OWN_WORDS:
        summary = pattern.sub(words, summary)
    return summary


_DRIVER = r"""
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

class Exit { constructor(code) { this.code = code; } }
const respond = process.stdout.write.bind(process.stdout);
const stdoutWrite = process.stdout.write, stderrWrite = process.stderr.write;
const node = process.argv[0];
let job = 0;
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    const { script, args } = JSON.parse(line);
    const out = [], err = [];
    const listeners = process.stdout.listeners('error');
    process.stdout.write = (chunk) => { out.push(String(chunk)); return true; };
    process.stderr.write = (chunk) => { err.push(String(chunk)); return true; };
    process.exit = (code) => { throw new Exit(code ?? 0); };
    process.argv = [node, script, ...args];
    let code = 0;
    try {
        await import(`${pathToFileURL(script).href}?job=${++job}`);
    } catch (e) {
        if (e instanceof Exit) { code = e.code; } else { err.push(String(e && e.stack || e)); code = 99; }
    } finally {
        process.stdout.write = stdoutWrite;
        process.stderr.write = stderrWrite;
        for (const l of process.stdout.listeners('error')) {
            if (!listeners.includes(l)) process.stdout.removeListener('error', l);
        }
    }
    respond(JSON.stringify({ code, out: out.join(''), err: err.join('') }) + '\n');
}
"""


@attrs.frozen
class NodeResult:
    code: int
    out: str
    err: str
    files: dict[str, str]  # cases.json and plan.json written by -o (path relative to the root -> text)


class ZenFolder:
    """A project root holding batch.mjs and a `finetune/` folder kept equal to the last History laid out."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.script = self.root / SCRIPT_IN_ROOT
        self.script.parent.mkdir(parents=True, exist_ok=True)
        require(BATCH_MJS)
        shutil.copyfile(BATCH_MJS, self.script)
        (self.root / "finetune" / "runs").mkdir(parents=True, exist_ok=True)
        self._written: dict[Path, str] = {}

    def lay_out(self, history: History, *, dataset: object = None, config: object = None,
                plans: dict[int, str] | None = None) -> None:
        """Write what batch.mjs reads for `history` (only the files that changed since the last call).

        `dataset`/`config`: the raw file contents to write instead of ones derived from the history;
        `plans`: plan.json texts by batch number (else a plan.json holding the batch and its size).
        """
        finetune = self.root / "finetune"
        files = {
            finetune / "selection.json": js_json({"batch": list(history.selection)}),
            finetune / "dataset.json": js_json(dataset if dataset is not None else {
                "cases": [{"id": i, "complexity": c} for i, c in history.complexity.items()]}),
            finetune / "config.json": js_json(config if config is not None else {
                "minBatch": history.settings.min_batch, "maxBatch": history.settings.max_batch,
                "recheck": history.settings.recheck, "seed": history.settings.seed,
                "maxRetries": history.settings.max_retries}),
        }
        if history.difficult is not None:
            files[finetune / "difficult.json"] = js_json({"cases": [
                {"id": e.id, "reasons": list(e.reasons), "added": e.added, **({"fixed": e.fixed} if e.fixed else {})}
                for e in history.difficult]})
        by_id = {c.get("id"): c for c in history.selection}
        for number, ids in history.batches.items():
            run = finetune / "runs" / f"batch{pad(number)}-nomem-run1"
            files[run / "cases.json"] = js_json({"batch": [by_id.get(i, {"id": i}) for i in ids]})
            files[run / "plan.json"] = (plans or {}).get(number) or js_json(
                {"batch": number, "size": history.sizes.get(number)})
        for name, verdict in history.runs:
            run = finetune / "runs" / name
            run.mkdir(parents=True, exist_ok=True)
            match = RUN_NAME.fullmatch(name)
            if match and match[1] is not None and int(match[1]) in history.batches and run / "cases.json" not in files:
                files[run / "cases.json"] = files[finetune / "runs" / f"batch{match[1]}-nomem-run1" / "cases.json"]
            if verdict:
                files[run / "findings.md"] = f"# Findings\n\n## {verdict}\n\nwritten by tests/zenfolder.py\n"
        for path, text in files.items():
            if self._written.get(path) != text:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                self._written[path] = text

    def written(self, out: str) -> dict[str, str]:
        """The cases.json and plan.json that `-o out` left, by path relative to the root."""
        found = {}
        for path in (self.root / out, self.root / node_dirname(out) / "plan.json"):
            if path.is_file():
                text = path.read_text(encoding="utf-8")
                found[str(path.relative_to(self.root))] = text
                self._written[path] = text
        return found

    def forget(self, out: str) -> None:
        """Remove what `-o out` wrote (a probe that must not become part of the history)."""
        for path in (self.root / out, self.root / node_dirname(out) / "plan.json"):
            path.unlink(missing_ok=True)
            self._written.pop(path, None)


def batch_mjs_args(mode: str, *, size: int | None = None, recheck: int | None = None, seed: int | None = None,
                   out: str | None = None) -> list[str]:
    args = ["next"] if mode == "next" else []
    for flag, value in (("-m", size), ("-r", recheck), ("--seed", seed), ("-o", out)):
        if value is not None:
            args += [flag, str(value)]
    return args


def run_batch_mjs(folder: ZenFolder, args: list[str]) -> NodeResult:
    """`node batch.mjs ARGS` in its own process, as a user runs it."""
    done = subprocess.run([NODE, str(folder.script), *args], capture_output=True, text=True, env=NODE_ENV,
                          cwd=folder.root)
    return NodeResult(done.returncode, done.stdout, done.stderr, _files(folder, args, done.returncode))


class BatchMjsDriver:
    """One Node process that runs batch.mjs afresh for each call (see the module docstring)."""

    def __init__(self, workdir: Path) -> None:
        driver = Path(workdir) / "batch_mjs_driver.mjs"
        driver.write_text(_DRIVER, encoding="utf-8")
        self._process = subprocess.Popen([NODE, str(driver)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         text=True, encoding="utf-8", env=NODE_ENV, cwd=workdir)

    def run(self, folder: ZenFolder, args: list[str]) -> NodeResult:
        assert self._process.stdin and self._process.stdout
        self._process.stdin.write(json.dumps({"script": str(folder.script), "args": args}) + "\n")
        self._process.stdin.flush()
        answer = json.loads(self._process.stdout.readline())
        return NodeResult(answer["code"], answer["out"], answer["err"], _files(folder, args, answer["code"]))

    def close(self) -> None:
        if self._process.stdin:
            self._process.stdin.close()
        self._process.wait(timeout=10)

    def __enter__(self) -> BatchMjsDriver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _files(folder: ZenFolder, args: list[str], code: int) -> dict[str, str]:
    if "-o" not in args or code != 0:
        return {}
    return folder.written(args[args.index("-o") + 1])
