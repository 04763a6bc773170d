"""`batchlog quick-batch ...` (placeholder until the quick-batch issue lands)."""


def main(args: list[str]) -> int:
    return 2
