"""Exit codes per halt reason: a table of data, and reading a map the user gives.

Pure: the CLI reads the file; this module turns its JSON value into a map or refuses it.
"""

from __future__ import annotations

from typing import Any

from batchlog.projections.errors import BadInput
from batchlog.projections.quick_batch.events import CREATE_WORKFLOW, WORKFLOW

BUILT_IN: dict[str, dict[str, int]] = {
    WORKFLOW: {
        "input-invalid": 2, "resolution-failure": 3, "write-failure": 4, "overwrite-cancelled": 5,
        "user-cancelled": 6, "finalize-blocked": 7, "ecosystem-redirect": 8, "not-skf-output": 9,
        "flat-layout": 9,
    },
    CREATE_WORKFLOW: {
        "brief-missing": 2, "brief-malformed": 2, "brief-invalid": 2, "forge-tier-missing": 3,
        "source-not-found": 3, "helper-missing": 3, "docs-unreachable": 3, "write-failed": 4,
        "staging-unreadable": 4, "not-skf-output": 5, "flat-layout": 5, "tier1-not-preserved": 5,
        "shard-xref-broken": 5, "description-angle-brackets": 5, "references-missing": 5,
        "active-link-blocked": 5, "halted-for-brief-refinement": 6,
    },
}

# The exit code of a refused brief whose halt_reason the map does not hold (as the seed does).
REJECTED_BRIEF_FALLBACK = 2


def _is_code(value: Any) -> bool:
    return type(value) is int and -(1 << 63) <= value < (1 << 63)


def exit_code_map(document: Any, shown_path: str) -> dict[str, int]:
    """halt_reason -> exit code from an envelope schema (`$defs.skf-envelope.const.exit_codes`)
    or a plain JSON object of codes; BadInput for anything else."""
    codes = document
    if isinstance(document, dict) and "$defs" in document:
        try:
            codes = document["$defs"]["skf-envelope"]["const"]["exit_codes"]
        except (KeyError, TypeError):
            codes = None
    if not isinstance(codes, dict) or not all(_is_code(v) for v in codes.values()):
        raise BadInput(
            f"{shown_path} holds no exit-code map: give an envelope schema with "
            "$defs.skf-envelope.const.exit_codes, or a JSON object of halt_reason -> integer exit code",
            path=shown_path,
        )
    return dict(codes)


def codes_for(workflow: str, given: dict[str, int] | None) -> dict[str, int]:
    """The map in force: the one given (at start or record), else the workflow's built-in one."""
    return given if given is not None else BUILT_IN.get(workflow, BUILT_IN[WORKFLOW])
