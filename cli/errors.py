"""Turning the layers' named errors into one message and one exit code."""

from __future__ import annotations

import sys

import orjson

from cli.main import EXIT_REFUSED, EXIT_UNTRUSTED, EXIT_USAGE
from engine import BadSetting, EngineError, LogError
from projections.errors import Refused


def exit_code(error: BaseException) -> int:
    if isinstance(error, LogError):
        return EXIT_UNTRUSTED
    if isinstance(error, BadSetting):
        return EXIT_USAGE
    return EXIT_REFUSED


def report(error: BaseException, as_json: bool) -> int:
    """Print `error` on stderr (one JSON object with --json) and return its exit code."""
    code = exit_code(error)
    if isinstance(error, (EngineError, Refused)):
        kind, message, fields = error.code, error.message, error.fields
    else:
        kind, message, fields = "internal_error", f"unexpected error: {type(error).__name__}: {error}", {}
    if as_json:
        body = {"error": kind, "message": message, "exit_code": code}
        body.update({k: v for k, v in fields.items() if k not in body})
        sys.stderr.write(orjson.dumps(body, default=str).decode() + "\n")
    else:
        sys.stderr.write(f"batchlog: {message}\n")
    return code
