"""USAGE.md as a view: model calls and tokens by model, by batch and by run, with totals. Pure: no I/O.

The figures are the model usage recorded with `batchlog tune usage` (a later report of the same run and
model replaces an earlier one), never the grades' figures; the file is never written by hand.
"""

from __future__ import annotations


from batchlog.projections.tune.views.readme.facts import code, plain
from batchlog.projections.tune.state import FINAL, Run, TuneState
from batchlog.engine.value import frozen


@frozen
class Totals:
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def plus(self, calls: int, input_tokens: int, output_tokens: int) -> Totals:
        return Totals(self.calls + calls, self.input_tokens + input_tokens, self.output_tokens + output_tokens)


def run_totals(run: Run) -> Totals:
    totals = Totals()
    for usage in run.usage:
        totals = totals.plus(usage.calls, usage.input_tokens, usage.output_tokens)
    return totals


def by_model(state: TuneState) -> dict[str, Totals]:
    models: dict[str, Totals] = {}
    for run in state.runs:
        for usage in run.usage:
            models[usage.model] = models.get(usage.model, Totals()).plus(usage.calls, usage.input_tokens,
                                                                         usage.output_tokens)
    return dict(sorted(models.items()))


def by_batch(state: TuneState) -> dict[str, tuple[int, Totals]]:
    """"batch N" (and "final check") -> (runs with usage, totals), in batch order."""
    groups: dict[str, tuple[int, Totals]] = {}
    for run in sorted(state.runs, key=lambda run: (run.kind == FINAL, run.batch)):
        name = "final check" if run.kind == FINAL else f"batch {run.batch}"
        count, totals = groups.get(name, (0, Totals()))
        extra = run_totals(run)
        groups[name] = (count + (1 if run.usage else 0),
                        totals.plus(extra.calls, extra.input_tokens, extra.output_tokens))
    return groups


def total(state: TuneState) -> Totals:
    result = Totals()
    for totals in by_model(state).values():
        result = result.plus(totals.calls, totals.input_tokens, totals.output_tokens)
    return result


def _figures(totals: Totals) -> str:
    return f"{totals.calls:,} | {totals.input_tokens:,} | {totals.output_tokens:,} | {totals.tokens:,}"


def _bold(totals: Totals) -> str:
    return " | ".join(f"**{value:,}**" for value in (totals.calls, totals.input_tokens, totals.output_tokens,
                                                     totals.tokens))


HEAD = "calls | input tokens | output tokens | tokens |"
ALIGN = "---: | ---: | ---: | ---: |"


def usage_markdown(state: TuneState, title: str = "the tuning") -> str:
    """The whole USAGE.md."""
    lines = [f"# Usage of tuning {plain(title)}", "",
             "Model calls and tokens, from the tuning's log (`batchlog tune usage-report`); never written by "
             "hand. Each run's figures are the last report of each model in that run.", ""]
    if state.settings is None:
        return "\n".join(lines + ["No tuning has been started in this folder yet.", ""])
    everything = total(state)
    lines += ["## By model", "", f"| model | {HEAD}", f"| --- | {ALIGN}"]
    lines += [f"| {code(model)} | {_figures(totals)} |" for model, totals in by_model(state).items()]
    lines += [f"| **total** | {_bold(everything)} |", ""]
    lines += ["## By batch", "", f"| batch | runs | {HEAD}", f"| --- | ---: | {ALIGN}"]
    groups = by_batch(state)
    lines += [f"| {name} | {count} | {_figures(totals)} |" for name, (count, totals) in groups.items()]
    counted = sum(count for count, _ in groups.values())
    lines += [f"| **total** | **{counted}** | {_bold(everything)} |", ""]
    lines += ["## By run", "", f"| run | model | {HEAD}", f"| --- | --- | {ALIGN}"]
    for run in state.runs:
        for usage in run.usage:
            figures = Totals(usage.calls, usage.input_tokens, usage.output_tokens)
            lines.append(f"| {run.name} | {code(usage.model)} | {_figures(figures)} |")
    lines += [f"| **total** | | {_bold(everything)} |", ""]
    missing = [run.name for run in state.runs if not run.usage]
    if missing:
        lines += [f"No usage recorded for: {', '.join(missing)}.", ""]
    return "\n".join(lines)


def _fields(totals: Totals) -> dict[str, int]:
    return {"calls": totals.calls, "input_tokens": totals.input_tokens, "output_tokens": totals.output_tokens,
            "tokens": totals.tokens}


def usage_figures(state: TuneState) -> dict[str, object]:
    """USAGE.md's figures as data (`usage-report --json`): the same totals, by model, by batch and by run."""
    return {
        "total": _fields(total(state)),
        "by_model": {model: _fields(totals) for model, totals in by_model(state).items()},
        "by_batch": [{"batch": name, "runs": count, **_fields(totals)}
                     for name, (count, totals) in by_batch(state).items()],
        "by_run": [{"run": run.name, "model": usage.model,
                    **_fields(Totals(usage.calls, usage.input_tokens, usage.output_tokens))}
                   for run in state.runs for usage in run.usage],
        "runs_without_usage": [run.name for run in state.runs if not run.usage],
    }
