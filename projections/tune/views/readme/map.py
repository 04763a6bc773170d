"""The README's `map`: the template's mermaid flowchart, drawn from the state, and its "Left:" line. Pure.

Nodes: DS (dataset), SEL (selection), DIF (difficult list), MEM (last good memory); per built batch a
subgraph Bn with its halves AnN (no memory) and AnM (with memory); a final check that failed and was
followed by batches as Fk (k: its first run's number), in the line where it ran; the batches the growth rule
predicts as Pn in a subgraph AHEAD; FINAL (the final check since the last batch) and DONE. Every node is in exactly one class (done, now, failed, ahead)
and exactly one is `now`. Labels are quoted and escaped, so any id or figure is safe.
"""

from __future__ import annotations

from batchlog.projections.tune.batch_mjs import rules
from batchlog.projections.tune.stage import Half, batch_given_up, batch_halves, current_half, to_list_after_final
from batchlog.projections.tune.batch_mjs.inputs import history
from batchlog.projections.tune.views.readme.facts import (
    Ahead,
    ahead,
    kept_batches,
    one_line,
    percent,
    plain,
    plural,
    runs_words,
    token_change,
)
from batchlog.projections.tune.state import FINAL, Batch, Run, TuneState

NL = "\n"
CLASS_DEFS = (
    "    classDef done fill:#14532d,stroke:#22c55e,color:#fff",
    "    classDef now fill:#713f12,stroke:#eab308,color:#fff",
    "    classDef failed fill:#7f1d1d,stroke:#ef4444,color:#fff",
    "    classDef ahead fill:#2b2b2b,stroke:#666,color:#bbb",
)


def label(text: str) -> str:
    """A quoted mermaid label: quotes and markup characters as entity codes; `<br/>` kept as line breaks."""
    parts = text.split("\n")
    return '"' + "<br/>".join(_escape(part) for part in parts) + '"'


def _escape(text: str) -> str:
    out = []
    for char in one_line(text):
        if char in '"#<>&;|`{}[]()\\':
            out.append(f"#{ord(char)};")
        else:
            out.append(char)
    return "".join(out)


def mermaid_map(state: TuneState) -> str:
    """The flowchart (in a ```mermaid fence) and the "Left:" line under it."""
    return "```mermaid\n" + "\n".join(flowchart(state)) + "\n```\n\n" + left_line(state)


def flowchart(state: TuneState) -> list[str]:
    """The mermaid source, line by line."""
    classes: dict[str, str] = {}
    lines = ["flowchart TD"]
    if state.settings is None:
        lines.append(f"    DS[{label('no tuning yet')}]")
        classes["DS"] = "now"
        return lines + _class_lines(classes)
    past = history(state)
    now = current_half(state)
    lines += _store_nodes(state, past, classes)
    for batch in state.batches:
        lines += _batch_subgraph(state, batch, classes)
    earlier = _earlier_finals(state, now)
    for runs in earlier.values():
        lines.append(f"    {_final_node(runs)}[{label(_final_words(runs))}]")
        classes[_final_node(runs)] = "failed"
    planned = ahead(state)
    if planned:
        lines += _ahead_subgraph(planned, classes)
    lines += _flow_edges(state, planned, earlier)
    lines += _side_edges(state, now, earlier)
    final_text = f"final check\nall {len(state.selection)} at once"
    finals = tuple(run for run in state.runs_of(0, FINAL) if all(run not in runs for runs in earlier.values()))
    if finals:
        final_text += "\n" + _half_words(finals)
    lines.append(f"    FINAL[{label(final_text)}] --> DONE([{label('done')}])")
    _place_now(state, now, planned, classes)
    return lines + [""] + list(CLASS_DEFS) + [""] + _class_lines(classes)


def _store_nodes(state: TuneState, past: rules.History, classes: dict[str, str]) -> list[str]:
    total, selected = len(state.cases), len(state.selection)
    chosen = f"all {selected}" if selected == total else f"first {selected} of {total}"
    opened, fixed, stuck = (len(rules.open_difficult(past)), len(rules.fixed_difficult(past)),
                            len(rules.stuck_difficult(past)))
    kept = state.last_good_memory
    memory = "none yet" if kept is None else f"{kept_batches(state)} · {plural(kept.nodes, 'node')}"
    classes.update(DS="done", SEL="done", DIF="done", MEM="done" if kept else "ahead")
    return [
        f"    DS[{label('dataset' + NL + plural(total, 'case'))}] --> SEL[{label('selection' + NL + chosen)}]",
        f"    DIF[({label(f'difficult list{NL}{opened} open · {fixed} fixed · {stuck} stuck')})]",
        f"    MEM[({label('last good memory' + NL + memory)})]",
        "",
    ]


def _batch_subgraph(state: TuneState, batch: Batch, classes: dict[str, str]) -> list[str]:
    n = batch.number
    nomem_runs, mem_runs = state.runs_of(n, "nomem"), state.runs_of(n, "mem")
    nomem, mem = batch_halves(state, n)
    what = f"{len(batch.new)} {'new' if batch.kind == 'new' else 'difficult'}"
    title = f"batch {n} · {what}" + (f" + {len(batch.recheck)}" if batch.recheck else "")
    mem_text = "with memory" + (f"\n{_half_words(mem_runs)}" if mem_runs else "")
    change = token_change(state, n)
    if mem is Half.PASSED and change is not None:
        mem_text += f" · {percent(change)} tokens"
    given_up = batch_given_up(state, n)
    classes[f"A{n}N"] = _class_of(nomem)
    # a given-up batch is failed as a whole: the half it never reached is not "ahead" either
    classes[f"A{n}M"] = "failed" if given_up else _class_of(mem)
    nomem_text = "no memory" + (f"\n{_half_words(nomem_runs)}" if nomem_runs else "")
    if given_up and not mem_runs:
        mem_text = "with memory\nnever ran: batch given up"
    edge = "--x" if given_up and not mem_runs else "-->"
    return [
        f"    subgraph B{n}[{label(title)}]",
        "        direction LR",
        f"        A{n}N[{label(nomem_text)}] {edge} A{n}M[{label(mem_text)}]",
        "    end",
    ]


def _earlier_finals(state: TuneState, now) -> dict[int, tuple[Run, ...]]:
    """The final check's runs that batches followed, or are to follow now (it failed, and the loop goes on),
    grouped by how many batches were built before them: the place in the line where each group ran."""
    last_built = state.last_batch.built_seq if state.last_batch is not None else 0
    groups: dict[int, tuple[Run, ...]] = {}
    for run in state.runs_of(0, FINAL):
        if run.started_seq < last_built or now.kind == "build":
            before = sum(1 for batch in state.batches if batch.built_seq < run.started_seq)
            groups[before] = (*groups.get(before, ()), run)
    return groups


def _final_node(runs: tuple[Run, ...]) -> str:
    return f"F{runs[0].number}"


def _final_words(runs: tuple[Run, ...]) -> str:
    names = ", ".join(run.name for run in runs)
    return f"final check\n{names}\n✘ last {runs[-1].verdict}"


def _half_words(runs: tuple[Run, ...]) -> str:
    """A half's runs as the text counts them: the runs that count, and the VOID ones apart."""
    last = runs[-1]
    if any(run.verdict == "PASSED" for run in runs):
        return f"✔ {runs_words(runs)}"
    if not last.graded:
        return f"▶ run {last.number}"
    return f"✘ {runs_words(runs)} · last {last.verdict}"


def _class_of(standing: Half) -> str:
    return {Half.PASSED: "done", Half.GIVEN_UP: "failed"}.get(standing, "ahead")


def _ahead_subgraph(planned: list[Ahead], classes: dict[str, str]) -> list[str]:
    first, last = planned[0].number, planned[-1].number
    numbers = f"batch {first}" if first == last else f"batches {first}-{last}"
    sizes = ", ".join(str(item.size) for item in planned)
    kind = "new" if planned[-1].kind == "new" else "difficult"
    nodes = " --> ".join(f"P{item.number}[{label(f'batch {item.number}')}]" for item in planned)
    for item in planned:
        classes[f"P{item.number}"] = "ahead"
    return [
        f"    subgraph AHEAD[{label(f'{numbers} · {sizes} {kind}')}]",
        "        direction LR",
        f"        {nodes}",
        "    end",
    ]


def _flow_edges(state: TuneState, planned: list[Ahead], earlier: dict[int, tuple[Run, ...]]) -> list[str]:
    """The main line: selection, each batch's halves in turn (with a failed final check where it ran), the
    batches ahead, the final check."""
    # a batch given up without memory never ran its with-memory half: the line goes on from the half that ran
    chain = []
    for batch in state.batches:
        if batch.number - 1 in earlier:
            chain.append((_final_node(earlier[batch.number - 1]),) * 2)
        chain.append((f"A{batch.number}N", f"A{batch.number}{'N' if _never_ran_mem(state, batch.number) else 'M'}"))
    if len(state.batches) in earlier:  # a failed final check after the last batch, batches of it ahead
        chain.append((_final_node(earlier[len(state.batches)]),) * 2)
    lines = [""]
    previous = "SEL"
    for start, end in chain:
        lines.append(f"    {previous} --> {start}")
        previous = end
    if planned:
        lines.append(f"    {previous} --> P{planned[0].number}")
        previous = f"P{planned[-1].number}"
    lines.append(f"    {previous} --> FINAL")
    return lines


def _never_ran_mem(state: TuneState, number: int) -> bool:
    return batch_given_up(state, number) and not state.runs_of(number, "mem")


def _side_edges(state: TuneState, now, earlier: dict[int, tuple[Run, ...]]) -> list[str]:
    """Dotted edges: memories kept, cases sent to the difficult list, what feeds the current batch."""
    lines = []
    for index, kept in enumerate(state.memories):
        edge = '-.->|"kept"|' if index == 0 else "-.->"
        lines.append(f"    A{kept.batch}M {edge} MEM")
    final_nodes = {run.name: _final_node(runs) for runs in earlier.values() for run in runs}
    for entry in state.difficult_list:
        run = state.run_named(entry.added)
        if run is None:
            continue
        if run.kind == FINAL:
            node = final_nodes.get(run.name, "FINAL")
        else:
            node = f"A{run.batch}{'N' if run.kind == 'nomem' else 'M'}"
        lines.append(f"    {node} -.->|{label(entry.case)}| DIF")
    if now.kind == "half" and now.half == "nomem" and rules.open_difficult(history(state)):
        lines.append(f"    DIF -.->|{label('first recheck of every later batch')}| A{now.batch}N")
    if now.kind == "half" and now.half == "mem" and state.last_good_memory is not None:
        lines.append(f"    MEM -.->|{label('copied into the candidate')}| A{now.batch}M")
    return lines


def _place_now(state: TuneState, now, planned: list[Ahead], classes: dict[str, str]) -> None:
    """Exactly one node is `now`: the half being worked on, the next batch, the final check, or done."""
    classes["FINAL"] = "done" if now.kind == "done" else "ahead"
    classes["DONE"] = "ahead"
    if now.kind in ("half", "keep"):
        node = f"A{now.batch}{'N' if now.half == 'nomem' else 'M'}"
    elif now.kind == "build" and planned:
        node = f"P{planned[0].number}"
    elif now.kind == "done":
        node = "DONE"
    else:
        node = "FINAL"
    classes[node] = "now"


def _class_lines(classes: dict[str, str]) -> list[str]:
    lines = []
    for kind in ("done", "now", "failed", "ahead"):
        nodes = [node for node, value in classes.items() if value == kind]
        if nodes:
            lines.append(f"    class {','.join(nodes)} {kind}")
    return lines


def left_line(state: TuneState) -> str:
    """"**Left:** 55 unused cases (at least 6 more batches), 1 difficult case open."."""
    if state.settings is None:
        return "**Left:** everything: no tuning yet."
    past = history(state)
    unused = len(rules.unused_cases(past))
    opened = len(rules.open_difficult(past))
    now = current_half(state)
    if now.kind == "done":
        return "**Left:** nothing: every case was in a batch and the final check passed."
    new_batches = [item for item in ahead(state) if item.kind == "new"]
    parts = []
    if unused:
        more = plural(len(new_batches), "more batch", "more batches")
        parts.append(f"{plural(unused, 'unused case')} (at least {more})")
    else:
        parts.append("no unused case")
    parts.append(f"{plural(opened, 'difficult case')} open" if opened else "no difficult case open")
    tail = "" if unused or opened else "; the final check is next"
    missing = to_list_after_final(state)
    if missing:
        tail = (f"; {', '.join(missing)}, wrong in the last final check, {'go' if len(missing) > 1 else 'goes'} on "
                "the difficult list first")
    return f"**Left:** {', '.join(parts)}{plain(tail)}."
