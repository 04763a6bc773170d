"""`start --briefs`: finding skill-brief.yaml files and checking each with the user's brief validator.

The validator is skill-forge's own skf-validate-brief-schema.py, loaded as a module as the seed
loads it: batchlog has no brief rule of its own, so its refusals are skill-forge's, word for word.
Loaded (with the pyyaml and jsonschema it imports) only by `start --briefs`.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from batchlog.projections.errors import Refused
from batchlog.projections.quick_batch.commands import BriefCheck
from batchlog.projections.quick_batch.events import CREATE_WORKFLOW

BRIEF_FILE = "skill-brief.yaml"
SCHEMA_ENV = "BATCHLOG_BRIEF_SCHEMA"
VALIDATOR_ENV = "BATCHLOG_BRIEF_VALIDATOR"
VALIDATOR_FILE = "skf-validate-brief-schema.py"


def expand_briefs(paths: list[str]) -> list[str]:
    """The briefs `paths` name, by absolute path, each once: a folder gives its skill-brief.yaml
    files at any depth (hidden folders left out) in path order; any other path is a brief."""
    found: list[str] = []
    seen: set[str] = set()
    for given in paths:
        root = Path(given)
        if root.is_dir():
            briefs = sorted((p for p in root.rglob(BRIEF_FILE) if p.is_file()
                             and not any(part.startswith(".") for part in p.relative_to(root).parts)),
                            key=lambda p: p.relative_to(root).as_posix())
        else:
            briefs = [root]
        for brief in briefs:
            absolute = Path(os.path.abspath(brief)).as_posix()
            key = os.path.normcase(absolute)
            if key not in seen:
                seen.add(key)
                found.append(absolute)
    return found


def batch_dir(run_root: Path, briefs: list[str]) -> Path:
    """The run folder of a set of briefs: one per set, found again for the same set."""
    digest = hashlib.sha256("\n".join(briefs).encode("utf-8")).hexdigest()[:12]
    return run_root / f"{CREATE_WORKFLOW}-batch-{digest}"


class BriefValidator:
    """The user's brief validator (skill-forge's skf-validate-brief-schema.py), loaded as a module;
    `check(path)` reads one brief and maps the validator's answer to a halt_reason and message."""

    def __init__(self, module: Any) -> None:
        self._module = module

    def check(self, path: str) -> BriefCheck:
        file = Path(path)
        if not file.is_file():
            return BriefCheck("brief-missing", f"Brief not found at `{path}`. Run [BS] Brief Skill to create one, "
                                               "or use [QS] Quick Skill for brief-less generation.")
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            return BriefCheck("brief-malformed", f"Brief validation failed: `{path}` cannot be read as UTF-8 text: {e}")
        try:
            brief, error = self._module.load_brief_text(text)
            if error is not None:
                return BriefCheck("brief-malformed", str(error))
            result = self._module.validate_brief(brief)
            if not result["valid"]:
                return BriefCheck("brief-invalid", str(result["errors"][0]["message"]))
            return BriefCheck(name=brief.get("name"))
        except Exception as e:  # the validator broke on this brief: the user's helper, not the batch, is at fault
            raise Refused(f"the brief validator failed on {path}: {type(e).__name__}: {e}",
                          halt_reason="helper-missing") from None


def validator_file(given: str | None, schema: str | None) -> str | None:
    """Where the validator is: --brief-validator, else $BATCHLOG_BRIEF_VALIDATOR, else the one beside the
    schemas folder that --brief-schema / $BATCHLOG_BRIEF_SCHEMA names (skill-forge keeps them together)."""
    given = given or os.environ.get(VALIDATOR_ENV)
    if given:
        return given
    schema = schema or os.environ.get(SCHEMA_ENV)
    if schema:
        return (Path(schema).parent.parent / VALIDATOR_FILE).as_posix()
    return None


def load_validator(given: str | None, schema: str | None) -> BriefValidator:
    """The user's validator as a module (its `load_brief_text` and `validate_brief`); helper-missing
    when there is none or it cannot be loaded."""
    path = validator_file(given, schema)
    if path is None:
        raise Refused(f"no brief validator to check the briefs with: give --brief-validator FILE (skill-forge's "
                      f"{VALIDATOR_FILE}), set {VALIDATOR_ENV}, or name the schema beside it with --brief-schema "
                      f"or {SCHEMA_ENV}", halt_reason="helper-missing")
    import importlib.util
    import sys

    try:
        spec = importlib.util.spec_from_file_location("skf_validate_brief_schema", path)
        if spec is None or spec.loader is None:
            raise ImportError(f"{path} is not a Python file")
        module = importlib.util.module_from_spec(spec)
        limit = sys.getrecursionlimit()
        spec.loader.exec_module(module)
        sys.setrecursionlimit(limit)
        for name in ("load_brief_text", "validate_brief"):
            if not callable(getattr(module, name, None)):
                raise ImportError(f"it has no {name}()")
    except Exception as e:  # any failure to load the user's file: SyntaxError, a missing import, its schema gone
        raise Refused(f"the brief validator cannot be loaded ({path}): {type(e).__name__}: {e}",
                      halt_reason="helper-missing") from None
    return BriefValidator(module)
