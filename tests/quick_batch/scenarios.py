"""Generated scenarios for the quick-batch differential test: one seeded `random.Random` each.

A scenario drives an `Actions` object (files written, commands run, the clock set);
the steps it takes are recorded while it runs against the seed, then replayed as
they are against batchlog, so both meet the very same inputs.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Protocol

from tests.seeds import SEEDS

EPOCH = 1796227200  # 2026-12-02T16:00:00Z


def _reasons(name: str) -> list[str]:
    path = SEEDS / "schemas" / name
    if not path.is_file():
        return []  # no seeds here: the differential test is skipped
    schema = json.loads(path.read_text(encoding="utf-8"))
    return list(schema["$defs"]["skf-envelope"]["const"]["exit_codes"])


QUICK_REASONS = _reasons("skf-quick-skill-result-envelope.v1.json")
CREATE_REASONS = _reasons("skf-create-skill-result-envelope.v1.json")


class Actions(Protocol):
    def write(self, path: str, data: bytes) -> None: ...
    def mkdir(self, path: str) -> None: ...
    def clock(self, seconds: int) -> None: ...
    def tear(self, run_dir: str) -> None: ...  # the batch's state file ends with a line a write cut short
    def cmd(self, argv: list[str], cwd: str = ".") -> Any: ...


# ─── batch files ────────────────────────────────────────────────────────────

TARGETS = ["cognee@0.5.0", "requests==2.31.0", "https://github.com/foo/bar@2.1.0-beta", "pkg", "naïve-lib",
           "x/y", "lib#1", "数据", "a=b", "LANGUAGE=py"]
KEYS = ["language", "LANGUAGE", "Language", "scope", "SCOPE", "sCoPe"]
VALUES = ["python", "Rust", "src/core", "a=b", "ü", ""]
OTHERS = ["extra", "lang=x", "=x", "language", "scope:", "#x"]
SPACE = [" ", "  ", "\t", " \t ", "\u00a0", "\u3000"]


def _line(rng: random.Random) -> str:
    kind = rng.random()
    pad = lambda: rng.choice(["", "", *SPACE])  # noqa: E731
    if kind < 0.12:
        return pad()
    if kind < 0.22:
        return pad() + "#" + rng.choice(["", " comment", "cognee language=x"])
    words = [rng.choice(TARGETS)]
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        if rng.random() < 0.8:
            words.append(rng.choice(KEYS) + "=" + rng.choice(VALUES))
        else:
            words.append(rng.choice(OTHERS))
    return pad() + rng.choice(SPACE[:3]).join(words) + pad()


def batch_file(rng: random.Random) -> bytes:
    """A batch file with any case of the grammar: blank, #, modifiers, BOM, CRLF, not UTF-8."""
    lines = [_line(rng) for _ in range(rng.choice([0, 1, 2, 3, 4, 5, 6]))]
    text = ""
    for line in lines:
        text += line + rng.choice(["\n", "\n", "\r\n", "\r", "\u2028"])
    if lines and rng.random() < 0.3:
        text = text.rstrip("\r\n\u2028")
    data = text.encode("utf-8")
    if rng.random() < 0.15:
        data = b"\xef\xbb\xbf" + data
    if rng.random() < 0.05:
        data += b"bad \xff\xfe\n"
    return data


# ─── payloads ───────────────────────────────────────────────────────────────


_TURNS: dict[int, int] = {}


def _next_reason(reasons: list[str]) -> str:
    """Every known reason in turn across the run, so each one is met (the steps are recorded, so
    the order the scenarios run in changes nothing of the comparison)."""
    turn = _TURNS.get(id(reasons), 0)
    _TURNS[id(reasons)] = turn + 1
    return reasons[turn % len(reasons)]


def halt_payload(rng: random.Random, reasons: list[str]) -> bytes:
    roll = rng.random()
    payload: dict[str, Any] = {}
    if roll < 0.65:
        payload["halt_reason"] = _next_reason(reasons)
    elif roll < 0.8:
        payload["halt_reason"] = rng.choice(["made-up", "Input-Invalid"])
        payload["exit_code"] = rng.choice([11, 0, 2, 40])
    elif roll < 0.88:
        payload["halt_reason"] = rng.choice(["made-up", None])
        if rng.random() < 0.5:
            payload["exit_code"] = rng.choice([True, "3", 2.0])
    else:
        payload["halt_reason"] = rng.choice([7, ["x"], {"a": 1}])
        payload["exit_code"] = 12
    if rng.random() < 0.4:
        payload["skill_package"] = rng.choice(["skills/x", None, 5])
    return json.dumps(payload, ensure_ascii=rng.random() < 0.5).encode()


def result_payload(rng: random.Random) -> bytes:
    payload: dict[str, Any] = {"status": "success"}
    roll = rng.random()
    if roll < 0.5:
        payload["summary"] = {"quality_score": rng.choice([87, 92.5, 0, 1e16, 0.1 + 0.2, -3])}
    elif roll < 0.7:
        payload["summary"] = {"quality_score": rng.choice([None, "90", True, [1]])}
    elif roll < 0.8:
        payload["summary"] = rng.choice(["90", [1], None])
    if rng.random() < 0.5:
        payload["skill_package"] = rng.choice(["skills/pkg", "ü/pkg", 3])
    text = json.dumps(payload)
    return (b"\xef\xbb\xbf" if rng.random() < 0.1 else b"") + text.encode()


def broken_payload(rng: random.Random) -> bytes:
    return rng.choice([b"{", b"[1, 2]", b"\xff\xfe", b"", b"null", b'"x"', b"{\"a\":\n"])


# ─── the loop ───────────────────────────────────────────────────────────────


def _json(result: Any) -> dict[str, Any] | None:
    if result.code != 0:
        return None
    text = result.out.strip() or result.err.strip().splitlines()[-1]
    try:
        return json.loads(text.splitlines()[-1])
    except ValueError:
        return None


def summarize(rng: random.Random, do: Actions, run_dir: str, outputs: list[str]) -> None:
    target = ["--target", "stderr"] if rng.random() < 0.3 else []
    do.cmd(["summarize", "--run-dir", run_dir, "--output-dir", rng.choice(outputs), *target])


def drive(rng: random.Random, do: Actions, run_dir: str, reasons: list[str], outputs: list[str]) -> None:
    """next / record until done, with restarts, compactions, double records and bad payloads."""
    folders: dict[int, str] = {}
    for _ in range(rng.randint(1, 9)):
        answer = _json(do.cmd(["next", "--run-dir", run_dir]))
        if answer is None:
            return
        if answer.get("status") == "done":
            break
        number = answer["batch"]
        if answer["status"] == "next":
            folder = folders[number] = answer["run_dir"]
            roll = rng.random()
            if roll < 0.15:
                do.cmd(["next", "--run-dir", run_dir])  # a restart before any record
            if roll < 0.25:
                do.cmd(["record", "--run-dir", run_dir, "--batch", str(number)])  # nothing staged yet
            stage = rng.random()
            if stage < 0.45:
                do.write(f"{folder}/halt.json", halt_payload(rng, reasons))
            elif stage < 0.85:
                do.write(f"{folder}/result-context.json", result_payload(rng))
            elif stage < 0.95:
                do.write(f"{folder}/{rng.choice(['halt.json', 'result-context.json'])}", broken_payload(rng))
            else:
                do.write(f"{folder}/result-context.json", result_payload(rng))
                do.write(f"{folder}/halt.json", halt_payload(rng, reasons))
            if rng.random() < 0.3:
                do.cmd(["next", "--run-dir", run_dir])  # a compaction: the staged payload is found
        if rng.random() < 0.15:
            do.tear(run_dir)  # a write cut short before the record (the seed and batchlog both answer past it)
        target = ["--target", "stderr"] if rng.random() < 0.3 else []
        result = do.cmd(["record", "--run-dir", run_dir, "--batch", str(number), *target])
        if result.code != 0 and number in folders:
            do.write(f"{folders[number]}/halt.json",
                     json.dumps({"halt_reason": rng.choice(reasons)}).encode())
            do.cmd(["record", "--run-dir", run_dir, "--batch", str(number)])
        if rng.random() < 0.2:
            do.cmd(["record", "--run-dir", run_dir, "--batch", str(number)])  # twice: the same event
        if rng.random() < 0.04 and number in folders:
            # a file where the next target's run folder goes: next cannot create it
            do.write(folders[number][: -len(str(number))] + str(number + 1), b"in the way")
        if rng.random() < 0.1:
            do.cmd(["record", "--run-dir", run_dir, "--batch", str(rng.choice([0, 99, -1]))])
        if rng.random() < 0.1:
            summarize(rng, do, run_dir, outputs)  # maybe with targets pending
    summarize(rng, do, run_dir, outputs)
    if rng.random() < 0.3:
        summarize(rng, do, run_dir, outputs)


def output_dirs(rng: random.Random, do: Actions, run_dir: str) -> list[str]:
    """Where summaries go: a shared folder, sometimes a folder that cannot be made, or one inside the run."""
    outputs = ["out"]
    roll = rng.random()
    if roll < 0.12:
        do.write("blocker", b"a file, not a folder")
        outputs = ["blocker/out"]
    elif roll < 0.2:
        outputs = [f"{run_dir}/summaries"]
    return outputs


# ─── scenarios ──────────────────────────────────────────────────────────────


def quick_scenario(rng: random.Random, do: Actions) -> None:
    """One or two skf-quick-skill batches, in the same second or not."""
    for n in range(rng.choice([1, 1, 2])):
        name = rng.choice(["skf-quick-skill-a1", "skf-quick-skill-20261202", "my-batch"])
        run_dir = f"runs/{name}{n}"
        do.write(f"t{n}.txt", batch_file(rng))
        if rng.random() < 0.3:
            do.cmd(["parse", f"t{n}.txt"])
        fail_fast = ["--fail-fast"] if rng.random() < 0.4 else []
        if rng.random() < 0.05:
            do.cmd(["start", "missing.txt", "--run-dir", run_dir])
        started = do.cmd(["start", f"t{n}.txt", "--run-dir", run_dir, *fail_fast])
        if started.code != 0:
            do.cmd(["next", "--run-dir", run_dir])
            continue
        if rng.random() < 0.25:
            do.mkdir("elsewhere")
            do.cmd(["start", f"../t{n}.txt", "--run-dir", f"../{run_dir}"], cwd="elsewhere")  # a resume
        if rng.random() < 0.1:
            do.write("other.txt", b"one\n")
            do.cmd(["start", "other.txt", "--run-dir", run_dir])  # another file's batch: refused
        if rng.random() < 0.3 and n == 0:
            do.clock(EPOCH + rng.choice([0, 1, 3600]))
        drive(rng, do, run_dir, QUICK_REASONS, output_dirs(rng, do, run_dir))
        if rng.random() < 0.2:
            do.cmd(["start", f"t{n}.txt", "--run-dir", run_dir])


VALID = """name: {name}
version: 1.2.3
source_repo: https://github.com/x/{name}
language: python
description: A skill.
forge_tier: Quick
created: "2026-01-02"
created_by: someone
scope:
  type: full-library
  include: []
  exclude: []
  notes: ""
"""


def brief_text(rng: random.Random, name: str) -> bytes:
    roll = rng.random()
    if roll < 0.6:
        return VALID.format(name=name).encode()
    if roll < 0.66:
        return VALID.format(name=name).replace('"2026-01-02"', "2026-01-02").encode()  # a date, not a string
    if roll < 0.7:
        return VALID.format(name="Bad Name").encode()
    if roll < 0.75:
        return b"name: x\n"
    if roll < 0.82:
        return rng.choice([b"name: [unclosed\n", b"a: b: c\n", b"\t- x\n"])
    if roll < 0.87:
        return rng.choice([b"", b"# only a comment\n", b"~\n"])
    if roll < 0.9:
        return rng.choice([b"- a\n- b\n", b"just text\n", b"42\n"])
    if roll < 0.96:  # the rules skill-forge's validator adds to its schema: docs-only briefs, a blank version
        valid = VALID.format(name=name)
        return rng.choice([
            valid + "source_type: docs-only\n",
            valid + "source_type: docs-only\ndoc_urls: []\n",
            valid + "source_type: docs-only\ndoc_urls:\n  - https://docs.example.org/\n",
            valid + "source_type: docs-only\nsource_authority: official\ndoc_urls: [https://docs.example.org/]\n",
            valid.replace("version: 1.2.3", 'version: "   "'),
        ]).encode()
    return b"name: \xff\n"


def briefs_scenario(rng: random.Random, do: Actions) -> None:
    """A skf-create-skill batch of briefs: valid, invalid, malformed, missing and same-name ones."""
    places = ["briefs/a", "briefs/b/c", "briefs/b", "briefs/.hidden", "briefs/z/.git/x", "briefs/é", "more"]
    names = ["alpha", "beta", "alpha", "gamma-2"]
    made = []
    for place in rng.sample(places, rng.randint(0, len(places))):
        do.write(f"{place}/skill-brief.yaml", brief_text(rng, rng.choice(names)))
        made.append(place)
    if rng.random() < 0.2:
        do.write("briefs/a/other.yaml", b"name: nope\n")
    paths = ["briefs"]
    if rng.random() < 0.3:
        paths.append(rng.choice(["more/skill-brief.yaml", "missing/skill-brief.yaml", "briefs/a/skill-brief.yaml"]))
    if rng.random() < 0.1:
        paths = ["missing"]
    if "briefs" in paths and not any(p.startswith("briefs") for p in made):
        do.mkdir("briefs")
    fail_fast = ["--fail-fast"] if rng.random() < 0.4 else []
    root = rng.choice(["rr", "rr/deep"])
    started = do.cmd(["start", "--briefs", *paths, "--run-root", root, *fail_fast])
    answer = _json(started)
    if answer is None:
        return
    run_dir = f"{root}/{Path(answer['batch_dir']).name}"
    if rng.random() < 0.3:
        do.cmd(["start", "--briefs", *paths, "--run-root", root])  # resume
    outputs = output_dirs(rng, do, run_dir)
    drive(rng, do, run_dir, CREATE_REASONS, outputs)
    if rng.random() < 0.4:
        do.clock(EPOCH + 7)
        again = do.cmd(["start", "--briefs", *paths, "--run-root", root])  # an ended batch gives way
        if again.code == 0 and rng.random() < 0.5:
            drive(rng, do, run_dir, CREATE_REASONS, outputs)


def usage_scenario(rng: random.Random, do: Actions) -> None:
    """Arguments that do not parse, and starts given the wrong options."""
    do.write("t.txt", b"one\n")
    for argv in rng.sample([
        ["next"], ["record", "--run-dir", "r"], ["record", "--run-dir", "r", "--batch", "x"],
        ["summarize", "--run-dir", "r"], ["summarize", "--run-dir", "r", "--output-dir", "o", "--target", "x"],
        ["start", "t.txt"], ["start", "t.txt", "--run-dir", "r", "--run-root", "q"], ["start"],
        ["start", "t.txt", "--briefs", "b", "--run-root", "q"], ["start", "--briefs", "b", "--run-dir", "r"],
        ["start", "--briefs"], ["parse"], ["parse", "nope.txt"], ["parse", "."], ["next", "--run-dir", "t.txt"],
        ["summarize", "--run-dir", "gone/skf-quick-skill-x", "--output-dir", "o"],
        ["summarize", "--run-dir", "skf-create-skill-batch-0", "--output-dir", "o"],
    ], 6):
        do.cmd(argv)


def scenario(number: int, do: Actions) -> None:
    rng = random.Random(number)
    kind = number % 10
    if kind < 5:
        quick_scenario(rng, do)
    elif kind < 9:
        briefs_scenario(rng, do)
    else:
        usage_scenario(rng, do)
