"""Where the seed scripts lie: ../shared/seeds/extracted beside the checkout, or $BATCHLOG_SEEDS.

The differential tests need them, and Node.js to run batch.mjs. On a machine without them the tests skip,
unless BATCHLOG_REQUIRE_SEEDS is set (CI sets it), and then they fail.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

SEEDS = Path(os.environ.get("BATCHLOG_SEEDS") or Path(__file__).resolve().parents[2] / "shared/seeds/extracted")
BATCH_MJS = SEEDS / "batch.mjs"
QUICK_BATCH_PY = SEEDS / "skf-quick-batch.py"
README_TEMPLATE = SEEDS / "readme-template.md"  # zen-finetune's README, which the agent writes first
# skill-forge's real brief validator, in skill-forge's layout (its schema in schemas/ beside it)
UPSTREAM_SCRIPTS = SEEDS.parent / "upstream" / "src" / "shared" / "scripts"
VALIDATORS = {"stand-in": SEEDS / "skf-validate-brief-schema.py",
              "upstream": UPSTREAM_SCRIPTS / "skf-validate-brief-schema.py"}


def require(path: Path) -> None:
    """Skip (or, with BATCHLOG_REQUIRE_SEEDS set, fail) when the seed file `path` is missing."""
    if path.is_file():
        return
    message = f"the seed {path.name} is not at {path}: put ../shared beside the checkout or set BATCHLOG_SEEDS"
    if os.environ.get("BATCHLOG_REQUIRE_SEEDS"):
        pytest.fail(message)
    pytest.skip(message)


def require_node() -> str:
    """The path of `node`; skip (or, with BATCHLOG_REQUIRE_SEEDS set, fail) when Node.js is not installed."""
    node = shutil.which("node")
    if node is not None:
        return node
    message = "Node.js (`node`) is not on PATH: install it (apt-get install nodejs) to compare with JavaScript"
    if os.environ.get("BATCHLOG_REQUIRE_SEEDS"):
        pytest.fail(message)
    pytest.skip(message)
