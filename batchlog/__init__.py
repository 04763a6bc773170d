"""batchlog: an event-sourced state engine over append-only JSONL for agents' batch loops.

The installed distribution claims this one import name. Its layers are the repository's top-level folders,
installed beneath it (setup.py maps them): `batchlog.engine` (engine/), `batchlog.projections` (projections/),
`batchlog.cli` (cli/). docs/ARCHITECTURE.md draws them.
"""

__version__ = "0.1.0"
