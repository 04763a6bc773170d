"""Many machines, one log: agents in separate processes on one PostgreSQL log, killed with SIGKILL at random,
while the server itself is restarted once with `pg_ctl -m immediate`.

Every agent keeps its loop's files in a folder of its own (as on its own machine: `agentN/finetune`) and
shares the log by name on a server of this test's own (the suite's shared server is not restarted under the
other tests). Agents call the CLI in-process after a fork (tests/clirunner.py), each command opening its own
connection as a real command does. An agent reports a command only after it exited 0: an acknowledged one.
"""

from __future__ import annotations

import collections
import os
import random
import shlex
import time
from pathlib import Path

import orjson
import pytest

from tests.clirunner import invoke
from tests.reliability.pgcluster import Cluster
from tests.reliability.workers import fork, kill, log_lines, wait

AGENTS = 16
KILLS = 16  # SIGKILLs at random moments, a fresh agent started for each
RESTART_AFTER_KILL = KILLS // 2  # the server dies (immediate mode) and comes back once, half way
BATCHES_WANTED = 3
STEPS_EACH = 2000  # at most, per agent: calls refused while the server restarts count too
PATIENT = {"BATCHLOG_LOCK_TIMEOUT": "60"}
DEADLINE_S = 240  # a bound on the whole race, so that a hang fails the test instead of CI
STOP = "race-over"  # left beside the agents' folders once the test has killed (and restarted) all it would


@pytest.fixture(scope="module")
def cluster():
    with Cluster.made() as server:
        yield server


def command_words(answer: dict, rnd: random.Random) -> list[str] | None:
    """What `tune next --json` says to run, its placeholders filled in as an agent would (a random verdict)."""
    text = answer.get("command") or answer.get("template")
    if not text:
        return None
    choose = {"VERDICT": lambda: rnd.choice(("PASSED", "PASSED", "CORRECT", "VOID")), "NODES": lambda: "7"}
    words = [choose[word]() if word in choose else word for word in shlex.split(text)]
    assert words[:2] == ["batchlog", "tune"], text
    return words[2:]


def follow_the_loop(home: Path, report: Path, agent: int, env: dict[str, str]) -> None:
    """Do what `tune next` says until BATCHES_WANTED batches are built and the race is over (STOP: commands of a
    few milliseconds could build them before the test has killed an agent half of KILLS times), the tuning's files
    in HOME/finetune."""
    rnd = random.Random(agent)
    folder = home / "finetune"
    for _ in range(STEPS_EACH):
        status = invoke("tune", "status", "--json", "--dir", folder, env=env)
        if status.code != 0:  # the server is restarting: come back in a moment
            assert status.code == 1, status.err
            continue  # no pause: a call refused while the server restarts costs a connection attempt
        if orjson.loads(status.out)["batches_built"] >= BATCHES_WANTED and (home.parent / STOP).exists():
            return
        answer = invoke("tune", "next", "--json", "--dir", folder, env=env)
        words = command_words(orjson.loads(answer.out), rnd) if answer.code == 0 else None
        if words is None:
            continue
        result = invoke("tune", *words, env=env)
        assert result.code in (0, 1), (words, result.code, result.err)  # 1: taken by another agent, or no server
        if result.code == 0:  # `run start` prints the run's name
            acknowledge(report, shlex.join(words) + "\t" + result.out.strip().replace("\n", " "))


def small_tuning(root: Path, env: dict[str, str]) -> None:
    dataset = root / "dataset.json"
    dataset.write_bytes(orjson.dumps({"cases": [{"id": f"case-{n:02d}", "class": "abc"[n % 3]} for n in range(14)]}))
    made = invoke("tune", "init", "--dataset", dataset, "--min-batch", "2", "--max-batch", "4", "--recheck", "1",
                  "--dir", root / "agent0" / "finetune", env=env)
    assert made.code == 0, made.err


def acknowledged(root: Path) -> list[tuple[list[str], str]]:
    """Every acknowledged command of every agent: its words, and what it printed."""
    rows = [row.partition("\t") for path in root.glob("report-*") for row in path.read_text().splitlines()]
    return [(shlex.split(words), printed) for words, _, printed in rows]


_PROGRESS: list[int] = []  # in an agent: the pipe that tells the test of each acknowledged command


def acknowledge(report: Path, row: str) -> None:
    """An acknowledged command: its row in the agent's report, then a byte down the pipe the test waits on."""
    with open(report, "a", encoding="utf-8") as out:
        out.write(row + "\n")
    os.write(_PROGRESS[0], b".")


def _agent_main(agent, home: Path, report: Path, number: int, env: dict[str, str], progress: int) -> None:
    _PROGRESS.append(progress)
    try:
        agent(home, report, number, env)
    finally:
        os.write(progress, b"x")  # an agent that ends says so too: the test never waits on a silent pipe


class Agents:
    """Forked agent processes: which still run, and how each ended."""

    def __init__(self, agent, root: Path, env: dict[str, str]) -> None:
        self.agent, self.root, self.env = agent, root, env
        self.pids: dict[int, int] = {}
        self.progress, self._progress_w = os.pipe()
        self.ended: dict[int, int] = {}

    def start(self) -> None:
        number = len(self.pids)
        self.pids[number] = fork(_agent_main, self.agent, self.root / f"agent{number}",
                                 self.root / f"report-{number}", number, self.env, self._progress_w)

    def running(self) -> list[int]:
        for number, pid in self.pids.items():
            if number not in self.ended:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    self.ended[number] = os.waitstatus_to_exitcode(status)
        return [number for number in self.pids if number not in self.ended]

    def kill(self, number: int) -> None:
        kill(self.pids[number])

    def wait_all(self) -> dict[int, int]:
        for number in self.running():
            self.ended[number] = wait(self.pids[number])
        return self.ended


def wait_for_progress(root: Path, beyond: int, agents: Agents, began: float) -> None:
    """Until the agents together have more than `beyond` acknowledged commands, or every agent has stopped."""
    while len(acknowledged(root)) <= beyond and agents.running():
        assert time.monotonic() - began < DEADLINE_S, "the agents made no progress"
        os.read(agents.progress, 4096)  # an agent writes a byte after each acknowledged command and when it ends


def race(cluster: Cluster, root: Path, agent, env: dict[str, str], log: str) -> dict:
    """AGENTS processes running `agent(home, report, number, env)`, KILLS of them killed at random moments (each
    replaced by a fresh one) and the server restarted once half way; then the log, copied to a file."""
    rnd = random.Random(20261205)
    agents = Agents(agent, root, env)
    for _ in range(AGENTS):
        agents.start()
    began, kills, restarted = time.monotonic(), 0, 0
    while kills < KILLS:
        wait_for_progress(root, len(acknowledged(root)) + rnd.randrange(0, 2), agents, began)
        alive = agents.running()
        if not alive:
            break
        agents.kill(rnd.choice(alive))
        kills += 1
        agents.start()
        if kills == RESTART_AFTER_KILL:
            cluster.restart_immediately()
            restarted += 1
    (root / STOP).touch()
    statuses = agents.wait_all()
    assert all(code in (0, -9) for code in statuses.values()), statuses
    address = f"{cluster.url}?log={log}"
    migrated = root / "log.jsonl"
    moved = invoke("log", "migrate", address, migrated)
    assert moved.code == 0, moved.err
    print(f"\n{log}: {len(acknowledged(root))} acknowledged commands from {len(statuses)} agents, {kills} killed, "
          f"{restarted} server restart, {len(log_lines(migrated))} events")  # the figures, with pytest -s
    return {"root": root, "lines": log_lines(migrated), "kills": kills, "restarts": restarted, "address": address}


def raced(cluster: Cluster, root: Path) -> dict:
    """The tuning's log after AGENTS agents followed `tune next`, KILLS killed, the server restarted once."""
    env = {**PATIENT, "BATCHLOG_STORE": cluster.url}
    small_tuning(root, env)
    return race(cluster, root, follow_the_loop, env, "finetune")


class TestTuningAgentsOnOnePostgresLog:
    """One race, then every check on its log (xdist would run a module fixture once per worker: the race is
    the slowest part of the suite, so it runs once, in one test)."""

    def test_agents_killed_and_a_server_restart_lose_nothing_and_decide_nothing_twice(self, cluster, tmp_path):
        raced_log = raced(cluster, tmp_path)

        self.check_killed_and_restarted(raced_log)
        self.check_verified_without_gaps(raced_log)
        self.check_no_decision_twice(raced_log)
        self.check_every_acknowledged_command_once(raced_log)

    @staticmethod
    def check_killed_and_restarted(raced):
        assert raced["kills"] >= RESTART_AFTER_KILL and raced["restarts"] == 1

    @staticmethod
    def check_verified_without_gaps(raced):
        verified = invoke("log", "verify", raced["address"], "--json")

        assert verified.code == 0, verified.out + verified.err
        assert [line["seq"] for line in raced["lines"]] == list(range(1, len(raced["lines"]) + 1))

    @staticmethod
    def check_no_decision_twice(raced):
        lines = raced["lines"]

        built = [line["data"]["number"] for line in lines if line["type"] == "tune.batch_built"]
        started = [line["data"]["run"] for line in lines if line["type"] == "tune.run_started"]
        graded = [line["data"]["run"] for line in lines if line["type"] == "tune.run_graded"]
        assert len(built) >= BATCHES_WANTED and built == list(range(1, len(built) + 1))
        assert len(started) == len(set(started)) and len(graded) == len(set(graded))
        assert set(graded) <= set(started)

    @staticmethod
    def check_every_acknowledged_command_once(raced):
        lines = raced["lines"]
        started = collections.Counter(line["data"]["run"] for line in lines if line["type"] == "tune.run_started")
        graded = collections.Counter(line["data"]["run"] for line in lines if line["type"] == "tune.run_graded")
        built = collections.Counter(line["data"]["number"] for line in lines if line["type"] == "tune.batch_built")
        commands = acknowledged(raced["root"])

        assert commands
        for words, printed in commands:
            if words[:2] == ["run", "start"]:
                assert started[printed] == 1, (words, printed)
            elif words[:2] == ["run", "grade"]:
                assert graded[words[2]] == 1, words
            elif words[0] == "next-batch":
                assert built and max(built.values()) == 1, words


TARGETS = 30


def drive_targets(home: Path, report: Path, agent: int, env: dict[str, str]) -> None:
    """`quick-batch next`, stage a result, `record`, until the batch is done (its run folder: HOME/run)."""
    home.mkdir(parents=True, exist_ok=True)
    for _ in range(STEPS_EACH * 2):
        told = invoke("quick-batch", "next", "--run-dir", "run", cwd=home, env=env)
        if told.code != 0:  # the server is restarting: come back in a moment
            assert told.code == 1, told.err
            continue  # no pause: a call refused while the server restarts costs a connection attempt
        answer = orjson.loads(told.out.splitlines()[-1])
        if answer["status"] == "done":
            return
        if answer["status"] == "next":
            (home / answer["run_dir"] / "result-context.json").write_text("{}\n", encoding="utf-8")
        recorded = invoke("quick-batch", "record", "--run-dir", "run", "--batch", str(answer["batch"]), cwd=home,
                          env=env)
        assert recorded.code in (0, 1), recorded.err  # 1: recorded by another agent, or no server
        if recorded.code == 0:
            acknowledge(report, f"record {answer['batch']}")


def batch_raced(cluster: Cluster, root: Path) -> dict:
    """The quick batch's log after AGENTS agents drove its targets, KILLS killed, the server restarted once."""
    env = {**PATIENT, "BATCHLOG_STORE": cluster.url}
    (root / "agent0").mkdir()
    (root / "targets.txt").write_text("".join(f"pkg{n}@1.0\n" for n in range(TARGETS)), encoding="utf-8")
    started = invoke("quick-batch", "start", "../targets.txt", "--run-dir", "run", cwd=root / "agent0", env=env)
    assert started.code == 0, started.err
    return race(cluster, root, drive_targets, env, "run")


class TestQuickBatchAgentsOnOnePostgresLog:
    """One race, then every check on its log (run once, in one test, as the tuning's)."""

    def test_agents_killed_and_a_server_restart_lose_nothing_and_decide_nothing_twice(self, cluster, tmp_path):
        raced_log = batch_raced(cluster, tmp_path)

        assert raced_log["kills"] >= RESTART_AFTER_KILL and raced_log["restarts"] == 1
        verified = invoke("log", "verify", raced_log["address"], "--json")
        assert verified.code == 0, verified.out + verified.err
        lines = raced_log["lines"]
        assert [line["seq"] for line in lines] == list(range(1, len(lines) + 1))
        handed = [line["data"]["batch"] for line in lines if line["type"] == "qb.target_started"]
        recorded = collections.Counter(line["data"]["batch"] for line in lines if line["type"] == "qb.target_recorded")
        assert handed == list(range(1, TARGETS + 1)) and sorted(recorded) == handed
        assert max(recorded.values()) == 1
        commands = acknowledged(raced_log["root"])
        assert commands and [words for words, _ in commands if recorded[int(words[1])] != 1] == []
