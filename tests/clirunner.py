"""Calling the batchlog CLI in-process, as a user would, with its output captured."""

from __future__ import annotations

import io
import os
import sys
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

import attrs

from batchlog.cli.main import main


@attrs.frozen
class Result:
    code: int
    out: str
    err: str


@contextmanager
def _environment(env: dict[str, str] | None, cwd: str | os.PathLike | None):
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    try:
        if env:
            os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved_env)
        os.chdir(saved_cwd)


def invoke(*args: str | Path, env: dict[str, str] | None = None, cwd: str | os.PathLike | None = None,
           stdin: str = "") -> Result:
    """Run `batchlog ARGS...` in this process and capture its exit code, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with _environment(env, cwd), redirect_stdout(out), redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as exit_:  # argparse exits on usage errors
                code = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        sys.stdin = saved_stdin
    return Result(code, out.getvalue(), err.getvalue())
