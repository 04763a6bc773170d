"""The tuning's state as batch.mjs's rules read it (`history`), and the same made from an earlier history handed on,
as the audit's walk makes one at every batch: what the rules read and answer is the same either way."""

from __future__ import annotations

import pytest

from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.tune.batch_mjs.inputs import dataset, history
from batchlog.projections.tune.events import (
    BatchBuilt,
    DifficultAdded,
    DifficultFixed,
    DifficultWithdrawn,
    RunGraded,
    RunStarted,
)
from tests.tune_helpers import fold as given
from tests.tune_helpers import started

CASES = tuple({"id": f"c{i}", **({"complexity": "complex"} if i % 3 == 0 else {})} for i in range(1, 13))
START = started(CASES, min_batch=2, max_batch=4, recheck=2)
B1 = ("c1", "c2")
FIRST_BATCH = (
    START, BatchBuilt(1, 2, "smoke", "new", B1, ()),
    RunStarted("batch01-nomem-run1", 1, "nomem", 1, B1), RunGraded("batch01-nomem-run1", "WRONG", ("c1", "c2")),
    DifficultAdded("c1", ("wrong",), "batch01-nomem-run1"), DifficultAdded("c2", ("flaky",), "batch01-nomem-run1"),
)
LATER = {
    "an entry fixed": (DifficultFixed("c1", "batch01-nomem-run1"),),
    "an entry withdrawn, the next taking its place": (DifficultWithdrawn("c1", "batch01-nomem-run1", "not wrong"),),
    "an entry added": (DifficultAdded("c3", ("costly",), "batch01-nomem-run1"),),
    "a second batch": (RunStarted("batch01-nomem-run2", 1, "nomem", 2, B1),
                       RunGraded("batch01-nomem-run2", "PASSED"), DifficultFixed("c2", "batch01-nomem-run2"),
                       BatchBuilt(2, 4, "grew", "new", ("c3", "c4", "c5", "c6"), ("c2", "c1"))),
    "another tuning started": (started(CASES[::-1], min_batch=2, max_batch=4, recheck=2),),
}


def answers(past: rules.History) -> tuple:
    plan = rules.next_batch(past)
    return (plan, rules.unused_cases(past), rules.used_ids(past), rules.open_difficult(past),
            rules.progress_lines(past))


@pytest.mark.parametrize("later", LATER.values(), ids=LATER.keys())
def test_a_history_made_from_an_earlier_one_is_the_one_made_afresh(later):
    before, after = given(*FIRST_BATCH), given(*FIRST_BATCH, *later)
    earlier = history(before, dataset(before))
    answers(earlier)  # what the rules looked up in it, handed on

    handed = history(after, dataset(after), earlier)

    assert handed == history(after)
    assert answers(handed) == answers(history(after))


def test_a_history_handed_on_from_one_of_another_selection_looks_its_own_up():
    """Another tuning start reads its selection anew: a history of it takes nothing from one of the last."""
    earlier = history(given(*FIRST_BATCH))
    answers(earlier)
    other = given(*FIRST_BATCH, *LATER["another tuning started"])

    assert answers(earlier.hand_on(history(other))) == answers(history(other))
