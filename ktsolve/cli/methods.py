"""``ktsolve methods``: the registry's methods and what each supports (imports no method)."""

from __future__ import annotations

import json

import click

from ..exit_codes import ExitCode
from ..registry import methods as registered_methods
from .args import CONTEXT

__all__ = ["methods_command"]


@click.command("methods", context_settings=CONTEXT)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
def methods_command(fmt):
    """List the methods and what each supports."""
    reg = registered_methods()
    cols = ("holes", "open", "closed", "start", "end", "proves")
    if fmt == "json":
        click.echo(json.dumps([m.capabilities() for m in reg.values()], indent=2))
        return ExitCode.OK
    head = ["method", "family", *cols, "summary"]
    table = [[m.name, m.family, *("yes" if getattr(m, c) else "-" for c in cols), m.summary] for m in reg.values()]
    widths = [max(len(r[i]) for r in [head, *table]) for i in range(len(head) - 1)]
    for row in [head, *table]:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1])
    return ExitCode.OK
