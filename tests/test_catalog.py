"""The catalog is built from the loops' own tables, each checked against its registry; the registry a tuning's
commands read with names the quick batch's types without their classes: the same names, versions and upcasters as
the full catalog (so the same snapshot keys), and a batch's log still refused."""

from __future__ import annotations

import pytest

from batchlog.engine import EventLog
from batchlog.cli.loops import LOOPS, all_types
from batchlog.cli.tune.log import tuning_types
from batchlog.projections.quick_batch.versions import VERSIONS as QUICK_BATCH_VERSIONS
from batchlog.projections.errors import WrongLog
from batchlog.projections.quick_batch.events import REGISTRY as QUICK_BATCH
from batchlog.projections.quick_batch.events import BatchSummarized, TargetStarted
from batchlog.projections.tune.decider import TUNE, without_usage
from batchlog.projections.tune.decide.refusals import require_tuning


def shape(registry):
    return sorted((t.name, t.version, len(t.upcasters)) for t in registry.by_name.values())


def test_the_quick_batch_versions_are_the_quick_batchs_own():
    assert QUICK_BATCH_VERSIONS == {name: spec.version for name, spec in QUICK_BATCH.by_name.items()}


@pytest.mark.parametrize("loop", LOOPS, ids=lambda loop: loop.name)
def test_each_loops_plain_table_is_its_registrys(loop):
    registry = loop.load_decider().registry

    assert dict(loop.load_versions()) == {name: spec.version for name, spec in registry.by_name.items()}


def test_a_tunings_registry_has_the_full_catalogs_names_versions_and_upcasters():
    assert shape(tuning_types()) == shape(all_types())


@pytest.mark.parametrize("fact", [TargetStarted(1, "https://example.org/x"),
                                  BatchSummarized("completed", "t", 1, 1, 0, False, 0, "s.json", (), "out")])
def test_a_quick_batchs_log_is_still_recognised_and_refused(tmp_path, fact):
    path = tmp_path / "events.jsonl"
    EventLog(path, all_types()).append(TUNE, lambda state: [fact])
    log = EventLog(path, tuning_types())

    for projection in (TUNE, without_usage(log.registry.by_name)):
        state = log.replay(projection).state
        assert state.foreign == QUICK_BATCH.by_class[type(fact)].name
        with pytest.raises(WrongLog):
            require_tuning(state)
