"""Shared by the reliability suites: the soak switch, forked workers, and the log checks.

Soak tests (`@pytest.mark.soak`) run only when asked for (`pytest -m soak`), for
BATCHLOG_SOAK_SECONDS each (default 60).
"""

from __future__ import annotations

import os

import pytest

SOAK_SECONDS_ENV = "BATCHLOG_SOAK_SECONDS"


def soak_seconds() -> float:
    return float(os.environ.get(SOAK_SECONDS_ENV) or 60)


def pytest_collection_modifyitems(config, items):
    if "soak" in (config.option.markexpr or ""):
        return
    skip = pytest.mark.skip(reason="soak run: select it with `pytest -m soak` (BATCHLOG_SOAK_SECONDS sets its length)")
    for item in items:
        if "soak" in item.keywords:
            item.add_marker(skip)
