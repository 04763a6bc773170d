"""Processes measured from outside, as an agent's shell starts them: each child's CPU time (user + system, from
wait4: what the other processes of a shared machine do does not count), its wall time, and on request its peak
memory.

A panel runs several commands and their baselines once each per round, in turns (forward in even rounds,
backward in odd), so every ratio is taken between processes that ran moments apart.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import attrs

from bench.measure import Timing, per_round


@attrs.frozen
class Ran:
    """One process: CPU seconds (user + system) and wall seconds."""

    cpu: float
    wall: float


@attrs.frozen
class Step:
    """A command of a panel: its words, its working folder, what makes its state fresh before each run
    (untimed: a write must find the same state every time), and the exit code it must end with."""

    args: tuple[str, ...]
    cwd: Path
    prepare: Callable[[], object] | None = None
    exit_code: int = 0


def environment(folder: Path) -> dict[str, str]:
    """As a user's shell runs them: bytecode cached (in the bench's folder, so nothing is written elsewhere)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    return env


def run(args: Sequence[str | os.PathLike], cwd: Path, env: dict[str, str], exit_code: int | None = 0) -> Ran:
    """Run one process to its end, its output discarded; RuntimeError when it ends with another exit code than
    `exit_code` (None: any)."""
    began = time.perf_counter()
    child = subprocess.Popen([str(arg) for arg in args], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    with child.stderr:
        err = child.stderr.read()  # to its end, which comes when the child ends
    _, status, usage = os.wait4(child.pid, 0)  # reaped here, for its resource usage (Popen's wait gives none)
    wall = time.perf_counter() - began
    child.returncode = os.waitstatus_to_exitcode(status)
    if exit_code is not None and child.returncode != exit_code:
        raise RuntimeError(f"{' '.join(map(str, args))} exited {child.returncode}, not {exit_code}: "
                           f"{err.decode(errors='replace').strip()[-500:]}")
    return Ran(usage.ru_utime + usage.ru_stime, wall)


# Starts the command and writes its peak resident memory (KiB) to the file named first. A child's ru_maxrss counts
# the memory of the process it was forked from (Linux keeps it across exec), so the bench's own, hundreds of MiB
# after a long run, would be the figure of every child it starts; this small process's is its children's floor.
_PEAK_RSS = ("import os, subprocess, sys\n"
             "child = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL)\n"
             "_, status, usage = os.wait4(child.pid, 0)\n"
             "open(sys.argv[1], 'w').write(str(usage.ru_maxrss))\n"
             "sys.exit(os.waitstatus_to_exitcode(status))\n")


def peak_memory(args: Sequence[str | os.PathLike], cwd: Path, env: dict[str, str], python: str | os.PathLike) -> int:
    """The peak resident memory, in bytes, of one run of the command (started by a small `python` process)."""
    figure = cwd / "peak-rss.txt"
    run((python, "-c", _PEAK_RSS, figure, *args), cwd, env)
    try:
        return int(figure.read_text()) * 1024
    finally:
        figure.unlink()


def panel(steps: dict[str, Step], rounds: int, env: dict[str, str]) -> dict[str, list[Ran]]:
    """Every step run once untimed (caches warm), then `rounds` rounds of every step in turns; the runs by step."""
    for step in steps.values():
        _run_step(step, env)
    runs: dict[str, list[Ran]] = {name: [] for name in steps}
    for round_ in range(rounds):
        order = list(steps) if round_ % 2 == 0 else list(reversed(steps))
        for name in order:
            runs[name].append(_run_step(steps[name], env))
    return runs


def _run_step(step: Step, env: dict[str, str]) -> Ran:
    if step.prepare is not None:
        step.prepare()
    return run(step.args, step.cwd, env, step.exit_code)


def cpu_timing(ours: Sequence[Ran], baseline: Sequence[Ran]) -> Timing:
    """The processes' CPU times side by side, round by round."""
    return _timing([r.cpu for r in ours], [r.cpu for r in baseline])


def wall_timing(ours: Sequence[Ran], baseline: Sequence[Ran]) -> Timing:
    """The processes' wall times side by side, round by round."""
    return _timing([r.wall for r in ours], [r.wall for r in baseline])


def _timing(ours: list[float], theirs: list[float]) -> Timing:
    return Timing(statistics.median(ours), statistics.median(theirs), per_round(ours, theirs))
