"""`batchlog tune ...` (placeholder until the tuning issue lands)."""

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, rich_markup_mode=None)


@app.command("status")
def status() -> int:
    """The progress of the tuning."""
    return 0
