"""``ktsolve methods [NAME]``: the registry's methods and what each supports; one method's parameters.

Without a name it imports no method.  With one it imports that method's
module for its parameter table (:class:`~ktsolve.heuristics._params.Params`),
the table that checks the values ``-p KEY=VALUE`` gives, and prints every
parameter with its default, its range and one line.
"""

from __future__ import annotations

import inspect
import json

import click

from ..exit_codes import ExitCode
from ..registry import methods as registered_methods
from ..request import RESERVED
from .args import CONTEXT

__all__ = ["methods_command"]

_COLUMNS = ("holes", "open", "closed", "start", "end", "proves")


def _plain(value):
    """A default as JSON holds it (a tuple as a list, anything else that JSON cannot hold as text)."""
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value)


def parameter_rows(info) -> tuple[list[dict], bool]:
    """Rows (name, default, range, doc) of ``info``'s parameters, and whether they come from a declared table.

    A user's method without a table shows the keywords of its signature
    with their defaults: no ranges, since nothing declares them.
    """
    table = info.load_params()
    if table is not None:
        return table.rows(), True
    sig = inspect.signature(info.load())
    rows = []
    for name, p in sig.parameters.items():
        if name in RESERVED or p.kind is not p.KEYWORD_ONLY:
            continue
        default = "required" if p.default is p.empty else p.default
        rows.append({"name": name, "default": default, "range": "", "doc": ""})
    return rows, False


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head) - 1)]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1] for row in [head, *rows]]


def _one_method(info, fmt: str) -> ExitCode:
    rows, declared = parameter_rows(info)
    if fmt == "json":
        data = {**info.capabilities(), "parameters": [{**r, "default": _plain(r["default"])} for r in rows],
                "declared": declared}
        click.echo(json.dumps(data, indent=2))
        return ExitCode.OK
    can = ", ".join(c for c in _COLUMNS if getattr(info, c)) or "-"
    click.echo(f"{info.name}: {info.summary}")
    click.echo(f"  family {info.family}; handles: {can}"
               + (f"; at most {info.max_squares:,} squares" if info.max_squares else ""))
    if info.reference:
        click.echo(f"  reference: {info.reference}")
    if not rows:
        click.echo(f"{info.name} takes no parameters.")
        return ExitCode.OK
    click.echo("")
    click.echo("Its parameters, -p KEY=VALUE on the command line (keywords in Python):")
    if not declared:
        click.echo("  (no declared table: the keywords of its signature and their defaults, no ranges)")
    body = [[r["name"], str(r["default"]), r["range"] or "-", r["doc"]] for r in rows]
    for line in _table(["name", "default", "range", "what it is"], body):
        click.echo("  " + line.rstrip())
    return ExitCode.OK


@click.command("methods", context_settings=CONTEXT)
@click.argument("name", metavar="[NAME]", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
def methods_command(name, fmt):
    """List the methods and what each supports; with NAME, that method's parameters.

    ``ktsolve methods NAME`` prints every parameter -p KEY=VALUE takes for
    NAME: its default, its range and one line.
    """
    reg = registered_methods()
    if name is not None:
        if name not in reg:
            raise click.BadParameter(f"no method {name!r}; choose from {', '.join(reg)}", param_hint="NAME")
        return _one_method(reg[name], fmt)
    if fmt == "json":
        click.echo(json.dumps([m.capabilities() for m in reg.values()], indent=2))
        return ExitCode.OK
    head = ["method", "family", *_COLUMNS, "summary"]
    table = [[m.name, m.family, *("yes" if getattr(m, c) else "-" for c in _COLUMNS), m.summary] for m in reg.values()]
    for line in _table(head, table):
        click.echo(line)
    click.echo("")
    click.echo("ktsolve methods NAME prints a method's parameters (-p KEY=VALUE): defaults, ranges, what each is.")
    return ExitCode.OK
