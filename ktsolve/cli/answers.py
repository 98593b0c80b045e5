"""What the commands write: the payload on standard output or a file, the lines on standard error.

Standard output carries only the payload (the tour, the JSON, the
picture); every diagnostic goes to standard error as ``ktsolve: ...``.
Output paths (``-o FILE``, ``-`` for standard output) are written by
:mod:`ktsolve.output`: whole or not at all, through devices, links and
pipes.  A file receives only a complete answer: ``solve`` writes a tour,
``prove`` a tour or a proof that none exists, ``longest`` a path,
``enumerate`` the tours it kept; when there is none of that, nothing is
written (an existing file keeps its content) and standard error says so.

Ctrl-C: :func:`interruptible` runs the work and hands back its result, or
None when Ctrl-C cut it short (a ``KeyboardInterrupt``, or a result whose
``stats["interrupted"]`` is set); the command then returns
:func:`say_interrupted`, which prints exactly ``ktsolve: interrupted`` on
standard error, writes nothing, and gives the exit code 130.

Examples
--------
>>> from ktsolve import SolveResult, Status
>>> interruptible(lambda: SolveResult(Status.UNKNOWN, stats={"interrupted": True})) is None
True
>>> interruptible(lambda: SolveResult(Status.FOUND)).status.value
'found'
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from ..board import Board
from ..exit_codes import ExitCode
from ..output import is_stdout, open_output, write_output
from ..render import (
    JSON_MAX_SQUARES,
    SVG_MAX_SQUARES,
    result_json,
    result_page,
    result_svg,
    tour_matrix_text,
    write_tour_matrix,
    write_tour_npy,
)
from ..result import Status

__all__ = [
    "check_output",
    "deliver",
    "emit",
    "emit_tour",
    "interruptible",
    "numbers_option",
    "nothing_written",
    "one_line",
    "render_result",
    "report",
    "say_interrupted",
]


#: The longest message :func:`one_line` returns, in characters ("…" included).
ONE_LINE_MAX = 500


def one_line(text: str, limit: int = ONE_LINE_MAX) -> str:
    """``text`` with its line breaks and runs of spaces folded, and clipped: a message fit for one stderr line.

    A backstop for messages that quote their input: whatever an exception
    says (10 MB of a hostile file), the line is at most ``limit``
    characters, ending in "…" when it was cut.  Only a bounded prefix of
    ``text`` is folded, so a huge message costs no more than a short one.

    Examples
    --------
    >>> one_line("bad\\n   board")
    'bad board'
    >>> one_line("x" * 1000, 10)
    'xxxxxxxxx…'
    """
    text = str(text)
    head = " ".join(text[:limit * 8].split())  # 8x: room for folded runs of blanks
    if len(head) <= limit and len(text) <= limit * 8:
        return head
    return head[:limit - 1] + "…"


def numbers_option(fn):
    """``--numbers``: every step's number in its square, on an svg or html picture."""
    return click.option("--numbers", is_flag=True,
                        help="Write every step's number in its square (svg and html pictures).")(fn)


def emit(payload: str | bytes, output: str | None) -> None:
    """Write the payload to ``output`` (None or ``-``: standard output), whole or not at all."""
    if isinstance(payload, str) and is_stdout(output) and not payload.endswith("\n"):
        payload += "\n"
    write_output(output, payload)


def nothing_written(output: str | None, why: str) -> None:
    """Say on stderr that ``output`` was left alone because there is no complete answer to write."""
    if output is not None and not is_stdout(output):
        click.echo(f"ktsolve: {why}, so nothing was written to '{output}'", err=True)


def check_output(board: Board, fmt: str, output: str | None, numbers: bool = False, *, proofs: bool = False) -> None:
    """Refuse, before any work, output that cannot be written: binary npy to a terminal, huge JSON or SVG.

    With ``proofs`` (``prove``, whose "no" is a certificate of any size)
    JSON is not refused for a board above :data:`JSON_MAX_SQUARES`: a
    proof or an ``unknown`` is written, and a tour too large for JSON is
    not (:func:`deliver` says so); one line on stderr says this before the
    work starts."""
    if numbers and fmt not in ("svg", "html"):
        raise click.UsageError(f"--numbers writes step numbers on a picture (svg or html), not on {fmt}")
    if fmt == "svg" and board.size > SVG_MAX_SQUARES:
        raise click.UsageError(f"SVG pictures are limited to {SVG_MAX_SQUARES:,} squares and this board has "
                               f"{board.size:,}; use --format html (a heat map), npy or text")
    if fmt == "npy" and is_stdout(output) and sys.stdout.isatty():
        raise click.UsageError("--format npy writes binary data: give -o FILE or redirect standard output")
    if fmt == "json" and board.n_squares > JSON_MAX_SQUARES:
        if not proofs:
            raise click.UsageError(
                f"JSON output is limited to {JSON_MAX_SQUARES:,} squares and this board has "
                f"{board.n_squares:,}; use --format npy or --format text"
            )
        click.echo(f"ktsolve: JSON holds a proof of this board, but a tour would not be written (JSON holds at "
                   f"most {JSON_MAX_SQUARES:,} squares and this board has {board.n_squares:,}; --format npy holds "
                   "one)", err=True)


def emit_tour(tour, fmt: str, output: str | None) -> None:
    """Stream a found tour as text (Euler's matrix) or npy to ``output`` or stdout, whole or not at all."""
    writer = write_tour_npy if fmt == "npy" else write_tour_matrix
    with open_output(output) as fh:
        writer(tour, fh)


def deliver(res, fmt: str, output: str | None, *, definite: tuple[Status, ...] = (Status.FOUND,),
            numbers: bool = False) -> str | None:
    """Write the answer of ``solve`` or ``prove``; returns why nothing was written, if it was not.

    A file gets the answer only when its status is one of ``definite``
    (a tour; for ``prove`` also a proof), otherwise it is left alone (the
    caller says so on stderr with :func:`nothing_written`).  Standard output
    always gets the answer in ``fmt`` (``unknown: ...`` included), except
    npy, which holds only tours.
    """
    if res.status is Status.FOUND and fmt in ("text", "npy"):
        emit_tour(res.tour, fmt, output)
    elif res.status is Status.FOUND and fmt == "json" and len(res.tour) > JSON_MAX_SQUARES:
        why = (f"a tour of {len(res.tour):,} squares was found and JSON holds at most {JSON_MAX_SQUARES:,} "
               "squares (--format npy or text writes it)")
        if is_stdout(output):
            click.echo(f"ktsolve: {why}, so nothing was written to standard output", err=True)
        return why
    elif fmt == "npy":
        if res.status is Status.INFEASIBLE and Status.INFEASIBLE in definite:
            return "no tour exists, and an npy file holds only a tour (text, json, svg or html write the proof)"
        return _not_written(res)
    elif res.status in definite or is_stdout(output):
        emit(render_result(res, fmt, numbers=numbers), output)
    else:
        return _not_written(res)
    return None


def _not_written(res) -> str:
    """Why an answer that is not a tour leaves a file alone; an ``unknown`` says why, as its text on stdout
    would (the steps, their seconds, what they left)."""
    if res.status is not Status.UNKNOWN:
        return "no tour exists"
    reason = res.stats.get("reason") if isinstance(res.stats, dict) else None
    return f"no tour was found ({one_line(str(reason))})" if reason else "no tour was found"


def render_result(res, fmt: str, *, numbers: bool = False) -> str:
    """The payload of ``solve``/``prove`` in format ``fmt`` (``numbers``: step numbers on a picture)."""
    if fmt == "json":
        return result_json(res) + "\n"
    if fmt == "svg":
        return result_svg(res, numbers=numbers)
    if fmt == "html":
        return result_page(res, numbers=numbers)
    if res.status is Status.FOUND:
        return tour_matrix_text(res.tour) + "\n"
    if res.status is Status.INFEASIBLE:
        return f"no tour: {res.proof}\n"
    return f"unknown: {res.stats.get('reason', 'the budget ran out')}\n"


def report(res) -> None:
    """The one-line summary on stderr, with the seconds a first run spent compiling numba kernels."""
    line = res.summary()
    stats = res.stats if isinstance(res.stats, dict) else {}
    compiled = stats.get("compile_s")
    if compiled:
        line += f", {compiled:.3g} s of it compiling numba kernels (first run only)"
    auto = stats.get("auto")
    if auto:
        line += f" [auto: {auto}]"
    click.echo(f"ktsolve: {line}", err=True)


def interruptible(call: Callable[[], object]):
    """``call()``'s result, or None when Ctrl-C cut the work short."""
    try:
        res = call()
    except KeyboardInterrupt:  # a Ctrl-C outside the methods' guards (imports, a second Ctrl-C)
        return None
    stats = getattr(res, "stats", None)
    return None if isinstance(stats, dict) and stats.get("interrupted") else res


def say_interrupted() -> ExitCode:
    """The one line of an interrupted command (nothing is written); returns the exit code 130.

    Examples
    --------
    >>> from click.testing import CliRunner
    >>> CliRunner().invoke(click.command()(lambda: say_interrupted())).stderr
    'ktsolve: interrupted\\n'
    """
    click.echo("ktsolve: interrupted", err=True)
    return ExitCode.INTERRUPTED
