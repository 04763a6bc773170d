"""Where a loop keeps its log: one file name, the engine's (engine/address.py), in a tuning's folder and in a quick
batch's run folder alike (`batchlog log ...` reads either)."""

from batchlog.engine.address import LOG_FILE_NAME

LOG_NAME = LOG_FILE_NAME
