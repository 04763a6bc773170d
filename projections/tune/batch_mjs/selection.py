"""The selection: the order in which batches take the dataset's cases, and the dataset's own checks.

Pure. Classes take turns (in the order each class first appears in the dataset),
so every kind of case is worked on from the start; inside a class, cases with a
rubric and complex cases come first (rubric and complex, rubric, complex, the
rest; dataset order within each group). The selection is the first `limit`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from batchlog.projections.errors import BadInput


def check_cases(cases: Sequence[Any], source: str) -> None:
    """Refuse a dataset whose cases are not objects with a unique string id (naming the case)."""
    if not cases:
        raise BadInput(f"{source} holds no cases: give a dataset with a non-empty \"cases\" list", file=source)
    seen: dict[str, int] = {}
    for number, case in enumerate(cases, start=1):
        if not isinstance(case, dict):
            raise BadInput(f"{source}: case {number} is not a JSON object: each case is {{\"id\": ...}}",
                           file=source, case=number)
        case_id = case.get("id")
        if case_id is None or case_id == "":
            raise BadInput(f"{source}: case {number} has no id: give every case an \"id\"", file=source,
                           case=number)
        if not isinstance(case_id, str):
            raise BadInput(f"{source}: case {number} has the id {case_id!r}, not a string: ids are strings",
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
