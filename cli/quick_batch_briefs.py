"""`start --briefs`: finding skill-brief.yaml files and checking each against the brief schema.

The schema is the user's (--brief-schema FILE or BATCHLOG_BRIEF_SCHEMA: skill-forge's
skill-brief.v1.json); messages have the shape of skill-forge's brief validator.
pyyaml and jsonschema are imported here only, so only `start --briefs` pays for them.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from cli.quick_batch_io import read_json_file
from projections.errors import BadInput, Refused
from projections.quick_batch.decide import BriefCheck
from projections.quick_batch.events import CREATE_WORKFLOW

BRIEF_FILE = "skill-brief.yaml"
SCHEMA_ENV = "BATCHLOG_BRIEF_SCHEMA"


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
    """A brief schema, loaded once; `check(path)` reads and validates one brief."""

    def __init__(self, schema_path: str | None) -> None:
        if not schema_path:
            raise Refused(f"no brief schema to check the briefs with: give --brief-schema FILE or set {SCHEMA_ENV} "
                          "to skill-forge's skill-brief.v1.json", halt_reason="helper-missing")
        try:
            import yaml
            from jsonschema import Draft202012Validator
            from jsonschema.exceptions import SchemaError

            schema = read_json_file(Path(schema_path), "brief schema")
            Draft202012Validator.check_schema(schema)
        except (ImportError, BadInput, SchemaError) as e:
            message = e.message if isinstance(e, BadInput) else f"{schema_path}: {e}"
            raise Refused(f"the brief schema cannot be loaded: {message}", halt_reason="helper-missing") from None
        self._yaml = yaml
        self._validator = Draft202012Validator(schema)

    def check(self, path: str) -> BriefCheck:
        file = Path(path)
        if not file.is_file():
            return BriefCheck("brief-missing", f"Brief not found at `{path}`. Run [BS] Brief Skill to create one, "
                                               "or use [QS] Quick Skill for brief-less generation.")
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            return BriefCheck("brief-malformed", f"Brief validation failed: `{path}` cannot be read as UTF-8 text: {e}")
        brief, error = self._load(text)
        if error is not None:
            return BriefCheck("brief-malformed", error)
        errors = sorted(self._validator.iter_errors(brief), key=lambda e: list(e.path))
        if errors:
            field = ".".join(str(p) for p in errors[0].path) or "(root)"
            return BriefCheck("brief-invalid", f"Brief validation failed: {field}: {errors[0].message}")
        return BriefCheck(name=brief.get("name"))

    def _load(self, text: str) -> tuple[Any, str | None]:
        try:
            brief = self._yaml.safe_load(text)
        except self._yaml.YAMLError as exc:
            return None, f"Brief is not valid YAML: {exc}"
        except RecursionError:
            return None, "Brief is not valid YAML: it is nested too deep to read"
        if brief is None:
            return None, "Brief is empty"
        if not isinstance(brief, dict):
            return None, "Brief is not a mapping"
        return brief, None
