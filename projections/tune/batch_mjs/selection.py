"""The selection: the order in which batches take the dataset's cases, and the dataset's own checks.

Pure. Classes take turns (in the order each class first appears in the dataset),
so every kind of case is worked on from the start; inside a class, cases with a
rubric and complex cases come first (rubric and complex, rubric, complex, the
rest; dataset order within each group). The selection is the first `limit`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from batchlog.projections.control_chars import first_control
from batchlog.projections.errors import BadInput


# The dataset's rule, held by every file that names cases. No control character: batchlog prints commands that
# name a case, and a command must print as one line that pastes as it reads (batch.mjs takes any string: README).
ID_RULE = "a case's id is a non-empty string with no control character"


def id_problem(case_id: Any) -> str | None:
    """Why `case_id` cannot be a case's id (None: it can): the rule `ID_RULE`, the same for a dataset, a
    selection, a run's cases.json and a difficult list, so an id read from any file is one the views can name."""
    if case_id is None or case_id == "":
        return "has no id"
    if not isinstance(case_id, str):
        return f"has the id {case_id!r}, not a string"
    control = first_control(case_id)
    if control is not None:
        return f"has the id {case_id!r}, which holds a control character ({control})"
    return None


def check_cases(cases: Sequence[Any], source: str) -> None:
    """Refuse a dataset whose cases are not objects with a unique string id (naming the case)."""
    if not cases:
        raise BadInput(f"{source} holds no cases: give a dataset with a non-empty \"cases\" list", file=source)
    check_listed_cases(cases, source)


def check_listed_cases(cases: Sequence[Any], source: str) -> None:
    """Refuse a list of cases (a dataset's, a selection's, a run's batch in cases.json) holding anything but
    objects with a unique id that keeps `ID_RULE`, naming the file and the case."""
    seen: dict[str, int] = {}
    for number, case in enumerate(cases, start=1):
        if not isinstance(case, dict):
            raise BadInput(f"{source}: case {number} is not a JSON object: each case is {{\"id\": ...}}",
                           file=source, case=number)
        case_id = case.get("id")
        problem = id_problem(case_id)
        if problem is not None:
            raise BadInput(f"{source}: case {number} {problem}: give every case an \"id\" ({ID_RULE})",
                           file=source, case=number)
        if case_id in seen:
            raise BadInput(f"{source}: cases {seen[case_id]} and {number} have the same id {case_id!r}: "
                           "every id must be unique", file=source, case=case_id)
        seen[case_id] = number


def _group(case: dict[str, Any]) -> int:
    rubric = case.get("rubric") not in (None, "", [], {}, False)
    complex_ = case.get("complexity") == "complex"
    return (0 if rubric else 1) * 2 + (0 if complex_ else 1)


def _class_of(case: dict[str, Any]) -> str:
    value = case.get("class")
    return value if isinstance(value, str) else ("" if value is None else repr(value))


def selection_order(cases: Sequence[dict[str, Any]], limit: int | None = None) -> tuple[str, ...]:
    """The ids in selection order, cut to `limit` (None: all)."""
    by_class: dict[str, list[dict[str, Any]]] = {}
    for case in cases:
        by_class.setdefault(_class_of(case), []).append(case)
    queues = [sorted(members, key=_group) for members in by_class.values()]
    order: list[str] = []
    for turn in range(max((len(queue) for queue in queues), default=0)):
        order.extend(queue[turn]["id"] for queue in queues if turn < len(queue))
    return tuple(order if limit is None else order[:limit])
