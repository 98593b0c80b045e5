"""``ktsolve count BOARD``: how many tours a board has, exactly; ``ktsolve count 6xN --terms 40``: a sequence.

Standard output gets the count alone (or, for a strip, one ``n count``
line per term, as an OEIS b-file has them; ``--format json`` for both
with what was counted).  Standard error gets one line saying what was
counted, how, and how long it took.  Exit 0 when counted, 3 when a budget
(time, memory) ran out first, with ``unknown: ...`` and no number, 130
after Ctrl-C (nothing written), 2 for bad input.
"""

from __future__ import annotations

import json
import re

import click

from ..checks import check_int
from ..errors import KtsolveError
from ..exit_codes import ExitCode
from ..models.count import ARITHMETIC, COUNT_METHODS, count_tours, strip_counts
from ..output import is_stdout
from ..progress import terminal_progress
from .answers import emit, interruptible, nothing_written, say_interrupted
from .args import BOARD_CONTEXT, TIME_LIMIT, BoardCommand, load_question, output_option

__all__ = ["count_command", "parse_size"]

_STRIP = re.compile(r"^\s*(\d+)\s*[xX\u00d7*]\s*[nN]\s*$")
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)(?:i?[bB])?\s*$")
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_size(text: str) -> int:
    """Bytes from ``12G``, ``512M``, ``2.5GiB`` or a plain number of bytes (binary units).

    Examples
    --------
    >>> parse_size("12G"), parse_size("512 MiB"), parse_size("1000")
    (12884901888, 536870912, 1000)
    """
    m = _SIZE.match(str(text))
    if not m:
        raise click.BadParameter(f"{text!r} is not a size such as 12G or 512M", param_hint="--memory")
    return int(float(m.group(1)) * _UNITS[m.group(2).lower()])


def _memory(ctx, param, value):
    if value is None:
        return None
    size = parse_size(value)
    try:
        return check_int("max_memory", size, 1 << 20, 1 << 50)
    except KtsolveError:
        raise click.BadParameter(f"{value!r} is outside 1M to 1P", param_hint="--memory") from None


@click.command("count", cls=BoardCommand, context_settings=BOARD_CONTEXT)
@click.argument("board", metavar="BOARD")
@click.option("--holes", metavar="SQS", multiple=True,
              help="Holes: names like a1,h8 or row,col pairs like 7,0;0,7 (repeatable: the lists add up).")
@click.option("--closed", is_flag=True, help="Count closed tours (Hamiltonian cycles).")
@click.option("--start", metavar="SQ", help="Count the open tours from this square (directed).")
@click.option("--end", metavar="SQ", help="Count the open tours to this square (directed).")
@click.option("--directed/--undirected", default=None,
              help="Count a tour and its reversal as two or as one [default: undirected for closed tours, as OEIS "
                   "A001230; directed for open ones, as A165134].")
@click.option("--terms", type=click.IntRange(1, 100_000), metavar="N",
              help="For a strip such as 6xN: the counts of 6x1 to 6xN from one pass.")
@click.option("--cells", is_flag=True,
              help="With --terms: the boards of the strip's first 1 to N squares, column by column "
                   "(Knuth's ragged boards) instead of its first N columns.")
@click.option("--method", "-m", type=click.Choice(COUNT_METHODS), default="auto",
              help="frontier: a table of states carried across the board; search: exhaustive search, a step per "
                   "tour; auto: the frontier up to a shorter side of 8.")
@click.option("--time-limit", type=TIME_LIMIT, metavar="S", help="Stop after S seconds with 'unknown'.")
@click.option("--memory", callback=_memory, metavar="SIZE",
              help="Memory the frontier's tables may hold, e.g. 12G [default: half the memory available].")
@click.option("--arithmetic", type=click.Choice(ARITHMETIC), default="auto",
              help="How the frontier keeps counts exact: int64, residues modulo 62-bit primes joined by the "
                   "Chinese remainder theorem, or auto (int64 where it surely fits).")
@click.option("--primes", "prime_set", type=click.IntRange(0, 1), default=0,
              help="Which of two disjoint sets of primes the residues use (count twice to check a record).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
@output_option("Write the count here instead of stdout; nothing when there is no count.")
def count_command(board, holes, closed, start, end, directed, terms, cells, method, time_limit, memory,
                  arithmetic, prime_set, fmt, output):
    """Count the knight's tours of BOARD exactly, or the terms of a strip such as 6xN.

    BOARD is a size (6x6), a board file, or, with --terms, a strip of a
    fixed number of rows (6xN).  Closed tours are counted undirected
    (each cycle once) and open ones directed unless --directed or
    --undirected says otherwise; --start and --end count directed open
    tours from or to a square.
    """
    strip = _STRIP.match(board)
    if strip or terms is not None or cells:
        return _strip(board, strip, holes, start, end, directed, terms, cells, closed, method, time_limit,
                      memory, arithmetic, prime_set, fmt, output)
    b, start, end = load_question(board, holes, start, end)
    if directed is None:
        directed = not closed
    if not directed and (start is not None or end is not None):
        raise click.UsageError("tours from --start or to --end are counted directed; leave out --undirected")
    extra = {"max_memory": memory, "arithmetic": arithmetic, "prime_set": prime_set}
    if method == "search" and (memory is not None or arithmetic != "auto" or prime_set):
        raise click.UsageError("--memory, --arithmetic and --primes belong to the frontier method, not to search")
    if method == "search":
        extra = {}
    with terminal_progress("ktsolve count") as progress:
        if progress is not None:
            extra["progress"] = progress
        res = interruptible(lambda: count_tours(b, closed=closed, start=start, end=end, directed=directed,
                                                method=method, time_limit=time_limit, **extra))
    if res is None:
        return say_interrupted()
    kind = _kind(closed, directed, start, end, b)
    if res.complete:
        payload = str(res.value) + "\n"
        if fmt == "json":
            payload = json.dumps({"board": b.spec(), "holes": [b.name(*h) for h in b.holes], "count": kind,
                                  "value": res.value, "method": res.method, "states": res.states,
                                  "nodes": res.nodes, "seconds": round(res.elapsed, 6),
                                  "arithmetic": res.stats.get("arithmetic")}) + "\n"
        emit(payload, output)
    elif is_stdout(output):
        emit(f"unknown: {res.reason}\n", output)
    how = f"{res.states:,} states at most" if res.method == "frontier" else f"{res.nodes:,} nodes"
    if res.complete:
        click.echo(f"ktsolve: {res.value:,} {kind} of {b.spec()}{_holes(b)}, by {res.method} ({how}) "
                   f"in {res.elapsed:.3g} s", err=True)
        return ExitCode.OK
    click.echo(f"ktsolve: unknown: the count of {kind} of {b.spec()} did not finish: {res.reason}", err=True)
    nothing_written(output, "there is no count")
    return ExitCode.UNKNOWN


def _holes(b) -> str:
    return f" with {b.n_holes} hole{'s' if b.n_holes != 1 else ''}" if b.n_holes else ""


def _kind(closed, directed, start, end, b) -> str:
    what = "closed tours" if closed else "open tours"
    what += " (directed)" if directed else " (undirected)"
    if start is not None:
        what += f" from {b.name(*b.parse_square(start, what='start'))}"
    if end is not None:
        what += f" to {b.name(*b.parse_square(end, what='end'))}"
    return what


def _strip(board, strip, holes, start, end, directed, terms, cells, closed, method, time_limit, memory,
           arithmetic, prime_set, fmt, output):
    if not strip:
        raise click.UsageError(f"--terms and --cells count a strip such as 6xN, not {board!r}")
    if terms is None:
        raise click.UsageError(f"{board.strip()} is a strip: give --terms N for its first N terms")
    for given, name in ((holes, "--holes"), (start, "--start"), (end, "--end")):
        if given:
            raise click.UsageError(f"{name} does not go with a strip's terms")
    if method == "search":
        raise click.UsageError("a strip's terms come from the frontier method, not from search")
    rows = int(strip.group(1))
    if not 1 <= rows <= 11:
        raise click.BadParameter(f"a strip of {rows} rows: the frontier method takes 1 to 11", param_hint="BOARD")
    if directed is None:
        directed = not closed
    by = "cells" if cells else "columns"
    with terminal_progress("ktsolve count") as progress:
        res = interruptible(lambda: strip_counts(rows, terms, closed=closed, directed=directed, by=by,
                                                 time_limit=time_limit, max_memory=memory, arithmetic=arithmetic,
                                                 prime_set=prime_set, progress=progress))
    if res is None or res.interrupted:
        return say_interrupted()
    kind = ("closed tours" if closed else "open tours") + (" (directed)" if directed else " (undirected)")
    where = f"the first 1 to {terms} squares of a {rows}-row strip" if cells else f"{rows}x1 to {rows}x{terms}"
    if not res.complete:
        if is_stdout(output):
            emit(f"unknown: {res.reason}\n", output)
        click.echo(f"ktsolve: unknown: the {kind} of {where} did not finish: {res.reason}", err=True)
        nothing_written(output, "there are no terms")
        return ExitCode.UNKNOWN
    if fmt == "json":
        payload = json.dumps({"rows": rows, "by": by, "count": kind, "terms": res.terms, "states": res.states,
                              "seconds": round(res.elapsed, 6), "arithmetic": res.arithmetic}) + "\n"
    else:
        payload = "".join(f"{n} {v}\n" for n, v in enumerate(res.terms, 1))
    emit(payload, output)
    click.echo(f"ktsolve: {terms} terms, {kind} of {where}, by the frontier method ({res.states:,} states at "
               f"most, {res.arithmetic}) in {res.elapsed:.3g} s", err=True)
    return ExitCode.OK
