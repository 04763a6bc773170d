"""`start --briefs`: finding skill-brief.yaml files and checking each with the user's brief validator.

The validator is skill-forge's own skf-validate-brief-schema.py, loaded as a module as the seed
loads it: batchlog has no brief rule of its own, so its refusals are skill-forge's, word for word.
Loaded (with the pyyaml and jsonschema it imports) only by `start --briefs`.

Except for bounds that keep `start` from hanging on a brief, which the seed does not have: a brief (and the
validator) is read through engine/files.py's opener (a regular file, at most `BRIEF_BYTES`), and before the
validator parses it, its YAML events are counted (`_unbounded`): a brief holding more than `BRIEF_VALUES`
values once its aliases are written out (a 466-byte alias bomb stands for billions: the validator would
walk them for ever), an alias inside its own anchor (a value that never ends) or values nested deeper than
`BRIEF_DEPTH` is refused as the seed refuses a brief it cannot read: `brief-malformed`.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from batchlog.engine.errors import UnreadableFile
from batchlog.engine.files import read_user_file
from batchlog.projections.errors import Refused
from batchlog.projections.quick_batch.commands import BriefCheck
from batchlog.projections.quick_batch.events import CREATE_WORKFLOW

BRIEF_FILE = "skill-brief.yaml"
SCHEMA_ENV = "BATCHLOG_BRIEF_SCHEMA"
VALIDATOR_ENV = "BATCHLOG_BRIEF_VALIDATOR"
VALIDATOR_FILE = "skf-validate-brief-schema.py"
# A brief is a page of YAML (a few KiB); PyYAML's parser, which the validator uses, reads about 70 KiB a
# second, so these bounds keep a brief's check to about a second.
BRIEF_BYTES = 64 << 10
BRIEF_VALUES = 10_000  # scalars, lists and mappings, each alias counted as what it stands for
BRIEF_DEPTH = 64  # lists and mappings inside each other (the parser recurses per level; a brief needs a few)
VALIDATOR_BYTES = 4 << 20


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
            # Decoded as the seed's read_text does: UTF-8, with universal newlines.
            raw = read_user_file(file, "brief", BRIEF_BYTES).decode("utf-8")
            text = raw.replace("\r\n", "\n").replace("\r", "\n")
        except UnreadableFile as e:
            if e.errno is not None:
                return BriefCheck("brief-malformed",
                                  f"Brief validation failed: `{path}` cannot be read as UTF-8 text: {e.python_words()}")
            return BriefCheck("brief-malformed", f"Brief validation failed: `{path}` {e.reason.removeprefix('it ')}. "
                                                 "Update your skill-brief.yaml and re-run.")
        except UnicodeDecodeError as e:
            return BriefCheck("brief-malformed", f"Brief validation failed: `{path}` cannot be read as UTF-8 text: {e}")
        unbounded = _unbounded(text)
        if unbounded is not None:
            return BriefCheck("brief-malformed", f"Brief validation failed: `{path}` {unbounded}. Update your "
                                                 "skill-brief.yaml and re-run.")
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


def _unbounded(text: str) -> str | None:
    """Why the validator must not be given the brief `text` (None: it may): more than `BRIEF_VALUES` values with
    its aliases written out, an alias inside its own anchor, or values nested deeper than `BRIEF_DEPTH`. Counted
    on PyYAML's event stream, which stands for an alias by one event and which it parses without recursing, with
    the validator's own (pure Python, safe) parser: text it cannot parse is left to the validator, whose parse
    fails at the same place, in its own words, before it builds a value."""
    import yaml

    sizes: dict[str, int] = {}  # anchor -> values it stands for, once its node has ended
    open_nodes: list[list] = []  # [anchor, values so far] of each list or mapping not ended yet, outermost first
    values = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                open_nodes.append([event.anchor, 1])
                if len(open_nodes) > BRIEF_DEPTH:
                    return f"nests lists and mappings more than {BRIEF_DEPTH} deep: flatten it"
                continue
            if isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                anchor, size = open_nodes.pop()
            elif isinstance(event, yaml.ScalarEvent):
                anchor, size = event.anchor, 1
            elif isinstance(event, yaml.AliasEvent):
                if any(anchor == event.anchor for anchor, _ in open_nodes):
                    return (f"holds the alias *{event.anchor} inside its own anchor &{event.anchor}, a value that never "
                            "ends: write the value out")
                anchor, size = None, sizes.get(event.anchor, 1)  # an undefined alias: the validator's YAML error
            else:
                continue
            if anchor is not None:
                sizes[anchor] = size
            if open_nodes:
                open_nodes[-1][1] += size
            else:
                values += size
            if max(values, open_nodes[-1][1] if open_nodes else 0) > BRIEF_VALUES:
                return (f"stands for more than {BRIEF_VALUES:,} values once its YAML aliases are written out: write "
                        "the values out without anchors and aliases")
    except yaml.YAMLError:
        return None
    return None


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
        # Read through the opener (a FIFO or a device never hangs the load), then run as the import system would.
        source = read_user_file(path, "brief validator", VALIDATOR_BYTES)
        spec = importlib.util.spec_from_file_location("skf_validate_brief_schema", path)
        if spec is None or spec.loader is None:
            raise ImportError(f"{path} is not a Python file")
        module = importlib.util.module_from_spec(spec)
        limit = sys.getrecursionlimit()
        exec(compile(source, path, "exec"), module.__dict__)  # noqa: S102 - the user's own validator, as the seed runs it
        sys.setrecursionlimit(limit)
        for name in ("load_brief_text", "validate_brief"):
            if not callable(getattr(module, name, None)):
                raise ImportError(f"it has no {name}()")
    except UnreadableFile as e:
        raise Refused(f"the brief validator cannot be loaded: {e.message}", halt_reason="helper-missing") from None
    except Exception as e:  # any failure to load the user's file: SyntaxError, a missing import, its schema gone
        raise Refused(f"the brief validator cannot be loaded ({path}): {type(e).__name__}: {e}",
                      halt_reason="helper-missing") from None
    return BriefValidator(module)
