"""Where a loop keeps its log: one file name, in a tuning's folder and in a quick batch's run folder alike
(`batchlog log ...` reads either)."""

LOG_NAME = "events.jsonl"
