"""Checks shared by the tuning's decisions: each refuses with what was wrong and what to do. Pure."""

from __future__ import annotations

from batchlog.projections.errors import BadInput, Refused, WrongLog
from batchlog.projections.tune.printed import tune, with_case
from batchlog.projections.tune.stage import latest_final, to_list_after_final
from batchlog.projections.tune.state import FINAL, Run, TuneState


def require_tuning(state: TuneState) -> None:
    """Refuse a log of another loop, or one where no tuning was started."""
    if state.foreign:
        raise wrong_log(state)
    if state.settings is None:
        init = tune("init", "--dataset", "DATASET")
        raise Refused(f"no tuning here yet: start one with `{init}` (DATASET: the path of the dataset file)",
                      commands=[init])


def require_unfinished(state: TuneState, what: str) -> None:
    """Refuse, once the final check has passed, what only an unfinished tuning can answer (`what` says it)."""
    passed = next((run for run in state.runs_of(0, FINAL) if run.verdict == "PASSED"), None)
    if passed is not None:
        audit = tune("audit")
        raise Refused(f"the tuning is finished: the final check passed in {passed.name}; {what}; check the "
                      f"record with `{audit}`", run=passed.name, commands=[audit])


def wrong_log(state: TuneState) -> WrongLog:
    return WrongLog(f"this log is not a tuning's: it holds {state.foreign} events (another loop's); give "
                    "--dir the tuning's folder", type=state.foreign)


def require_run(state: TuneState, name: str) -> Run:
    run = state.run_named(name)
    if run is None:
        known = ", ".join(r.name for r in state.runs[-3:]) or "none yet"
        next_ = tune("next")
        raise BadInput(f"no run {name!r} in this tuning (latest: {known}): name a run `{next_}` or `run start` "
                       "gave", run=name, commands=[next_])
    return run


def require_case(state: TuneState, case: str) -> None:
    if case not in state.selection:
        raise BadInput(f"no case {case!r} in this tuning's selection: name a case of the dataset that was "
                       "selected", case=case)


def check_count(option: str, value: int | None) -> None:
    if value is not None and value < 0:
        raise BadInput(f"{option} is {value}: a count cannot be negative", option=option, value=value)


def check_text(option: str, value: str) -> None:
    if not value.strip():
        raise BadInput(f"{option} is empty: give it a value", option=option)


def require_listed_after_final(state: TuneState, to: str) -> None:
    """Refuse to go on after a failed final check before the cases it got wrong are on the difficult list."""
    missing = to_list_after_final(state)
    if not missing:
        return
    final = latest_final(state)
    assert final is not None
    add = with_case(("difficult", "add"), missing[0], ("--reason", "wrong", "--run", final.name))
    raise Refused(f"{final.name} got {len(missing)} case(s) wrong that are not on the difficult list yet "
                  f"({' '.join(missing)}): each goes on it before you {to}, e.g. `{add}`; batches of the open "
                  "difficult cases then retry them", run=final.name, cases=list(missing), commands=[add])
