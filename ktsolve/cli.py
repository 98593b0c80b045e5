"""The ``ktsolve`` command line: argument handling and printing, nothing else.

Exit codes: 0 a tour was found (or the answer is yes), 1 proved that no tour
exists (or an invalid tour for ``verify``), 3 unknown (a budget ran out),
2 bad input, 130 interrupted, 141 standard output closed early (a pipe
into ``head``; nothing is said).  Bad input is one line on standard error
naming the problem, never a traceback, and no output file is written.
Standard output carries only the payload (the tour, the JSON, the picture);
every diagnostic goes to standard error.

Output paths (``-o FILE``, ``-`` for standard output) are checked before
any work and written by :mod:`ktsolve.output`: whole or not at all, through
devices, links and pipes.  A file receives only a complete answer: ``solve``
writes a tour, ``prove`` a tour or a proof that none exists, ``longest`` a
path, ``enumerate`` the tours it kept; when there is none of that, nothing
is written (an existing file keeps its content) and standard error says so.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import sys
from importlib.metadata import version as _pkg_version

import click
import numpy as np

from .board import Board
from .checks import COUNT_MAX, check_seed, check_time_limit
from .cli_run import interruptible, say_interrupted, warm
from .errors import InvalidBoardError, KtsolveError
from .files import TourFileError, read_tours, write_tours
from .output import check_output_path, is_stdout, open_output, write_output
from .progress import terminal_progress
from .render import (
    JSON_MAX_SQUARES,
    path_matrix_text,
    result_json,
    tour_matrix_text,
    tour_svg,
    write_tour_matrix,
    write_tour_npy,
)
from .registry import enumerating_methods
from .registry import methods as registered_methods
from .result import Status
from .solve import enumerate_tours
from .solve import longest as longest_path
from .solve import prove as prove_board
from .solve import solve as solve_board
from .request import RESERVED
from .tour import validate, validate_many

__all__ = ["main", "cli"]

CONTEXT = {"help_option_names": ["-h", "--help"], "show_default": True}
# Commands with a BOARD argument read "-3x8" as a (bad) board size, not as an option,
# so a negative size gets the message that names it.
BOARD_CONTEXT = {**CONTEXT, "ignore_unknown_options": True}
EXIT_BAD_INPUT = 2
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a writer whose reader left


class _PipeClosed(Exception):
    """A reader closed its end of a pipe we write to; carries the BrokenPipeError."""


def _silence_stdout() -> None:
    """After standard output's reader left: point it at /dev/null so exiting flushes quietly."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a real descriptor (tests capture it): nothing is flushed at exit
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _closed_pipe_code(exc: BaseException) -> int:
    """The exit code for a closed pipe; quiet, and standard output silenced if it was the pipe."""
    if getattr(exc, "filename", None) is None:
        _silence_stdout()
    return EXIT_CLOSED_PIPE


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


class KtsolveGroup(click.Group):
    """A click group whose errors are one line on stderr with exit code 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        code = 0
        try:
            rv = super().main(args, prog_name or "ktsolve", complete_var, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) else 0
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help() if exc.ctx else "", err=False)
            code = 0
        except click.ClickException as exc:
            click.echo(f"ktsolve: error: {_one_line(exc.format_message())}", err=True)
            code = EXIT_BAD_INPUT
        except KtsolveError as exc:
            click.echo(f"ktsolve: error: {_one_line(exc)}", err=True)
            code = EXIT_BAD_INPUT
        except click.exceptions.Abort:
            click.echo("ktsolve: interrupted", err=True)
            code = 130
        except _PipeClosed as exc:
            code = _closed_pipe_code(exc.args[0])
        except BrokenPipeError as exc:
            code = _closed_pipe_code(exc)
        except OSError as exc:  # a file operation failed after the checks (disk full, permissions)
            where = f": '{exc.filename}'" if exc.filename else ""
            click.echo(f"ktsolve: error: {_one_line(exc.strerror or exc)}{where}", err=True)
            code = EXIT_BAD_INPUT
        if code != EXIT_CLOSED_PIPE and sys.stdout is not None:
            try:
                sys.stdout.flush()  # data still buffered is part of the answer: a closed pipe now is 141
            except BrokenPipeError as exc:
                code = _closed_pipe_code(exc)
            except (OSError, ValueError):
                pass
        sys.exit(code)

    def resolve_command(self, ctx, args):
        name, command, rest = super().resolve_command(ctx, args)
        if sys.stdout is None and command is not None and not any(p.name == "output" for p in command.params):
            # started with standard output closed: a command that only prints would lose its answer
            raise click.UsageError("standard output is closed", ctx)
        return name, command, rest

    def invoke(self, ctx):
        # click turns a closed pipe into exit 1 before main() sees it; carry it past click instead
        try:
            return super().invoke(ctx)
        except BrokenPipeError as exc:
            raise _PipeClosed(exc) from None


class BoardCommand(click.Command):
    """A command with a BOARD argument.

    Its parser passes unknown options through as arguments, so that a
    negative size such as ``-3x8`` reaches the board parser and is named as
    a bad size.  Anything else that looks like an option and is not one
    (``--colsed``) is refused the way click refuses it elsewhere: "No such
    option", with the closest option names.
    """

    def parse_args(self, ctx, args):
        _refuse_unknown_options(self, ctx, args)
        return super().parse_args(ctx, args)


_NEGATIVE = re.compile(r"^-\d")


def _refuse_unknown_options(command: click.Command, ctx, args: list[str]) -> None:
    takes_value = {}
    for param in command.get_params(ctx):
        if isinstance(param, click.Option):
            for name in (*param.opts, *param.secondary_opts):
                takes_value[name] = not (param.is_flag or param.count)
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            return
        if not arg.startswith("-") or arg == "-" or _NEGATIVE.match(arg):
            continue  # an argument: a board, a file, standard input, a negative size
        name = arg.split("=", 1)[0] if arg.startswith("--") else arg[:2]
        if name not in takes_value:
            raise click.NoSuchOption(name, possibilities=list(takes_value), ctx=ctx)
        joined = "=" in arg if arg.startswith("--") else len(arg) > 2
        if takes_value[name] and not joined:
            i += 1  # the option's value, whatever it looks like


# ---------------------------------------------------------------------- arguments
_SIZE_LIKE = re.compile(r"^\s*[+-]?\w+\s*[xX\u00d7*]\s*[+-]?\w+\s*$")


def load_board(spec: str, holes) -> Board:
    """Board from the BOARD argument (a size like 8x8, or a board file, or - for stdin) and --holes.

    ``holes`` is a string or the tuple of every ``--holes`` given: they add
    up (``--holes a1 --holes h8`` is ``--holes a1,h8``), and a square named
    twice, or already a hole of the board file, is refused by name.
    """
    if isinstance(holes, (tuple, list)):
        holes = ";".join(h for h in holes if h.strip()) or None
    if spec == "-" or (os.path.exists(spec) and not _SIZE_LIKE.match(spec)):
        board = Board.read(spec)
        if holes:
            board = board.with_holes(board.parse_squares(holes, what="hole", allow_holes=True))
        return board
    if _SIZE_LIKE.match(spec) or not re.search(r"[./\\]", spec):
        return Board.from_spec(spec, holes)
    raise InvalidBoardError(f"board file {spec!r} does not exist (give a size like 8x8 or a board file)")


def _parse_params(items: tuple[str, ...], entry=None) -> dict:
    """``-p KEY=VALUE`` items as keywords for ``entry`` (the API function the command calls).

    Keys that are arguments of the call itself (``seed``, ``closed``,
    ``cycles`` of enumerate ...) are refused with the option that sets
    them: passed as method parameters they would collide with it.  A key
    given twice is refused too.
    """
    ctx = click.get_current_context(silent=True)
    taken = set(RESERVED)
    if entry is not None:
        taken |= {p.name for p in inspect.signature(entry).parameters.values() if p.kind is not p.VAR_KEYWORD}
    out: dict = {}
    for item in items:
        if "=" not in item:
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--param")
        key, raw = item.split("=", 1)
        key = key.strip().replace("-", "_")
        if not key.isidentifier():
            raise click.BadParameter(f"{key!r} is not a parameter name", param_hint="--param")
        if key in taken:
            raise click.BadParameter(f"{key!r} is not a method parameter{_option_for(ctx, key)}", param_hint="--param")
        if key in out:
            raise click.BadParameter(f"{key!r} is given twice", param_hint="--param")
        out[key] = _coerce(raw.strip())
    return out


def _option_for(ctx, key: str) -> str:
    """``"; use --seed"``: the command's own option or argument for ``key``, if it has one."""
    if ctx is None:
        return ""
    for param in ctx.command.params:
        if param.name == key:
            if isinstance(param, click.Argument):
                return f"; it is the {param.human_readable_name} argument"
            longs = [o for o in param.opts if o.startswith("--")] or param.opts
            return f"; use {longs[0]}"
    return ""


def _coerce(raw: str):
    """A ``-p`` value as Python: true/false/none, a whole number, a real number, else the text.

    Numbers keep the form they were written in: ``1e99`` is the float
    1e+99 (a count refuses it by its bound), never a 100-digit integer.
    """
    low = raw.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    for cast in (int, float):
        try:
            return cast(raw)
        except ValueError:
            pass
    return raw


def _method_choices() -> list[str]:
    return ["auto", *registered_methods()]


class MethodChoice(click.Choice):
    """The registry's method names when the command runs, so methods registered after import count."""

    def __init__(self, extra: tuple[str, ...] = ("auto",)):
        self._extra = tuple(extra)
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        return (*self._extra, *registered_methods())

    @choices.setter
    def choices(self, value) -> None:  # click.Choice.__init__ assigns; the names come from the registry
        pass


def board_options(fn):
    """BOARD argument and --holes/--closed/--start/--end, shared by the commands that ask for a tour."""
    fn = click.option("--end", metavar="SQ", help="Fixed last square, e.g. h8 or 0,7.")(fn)
    fn = click.option("--start", metavar="SQ", help="Fixed first square, e.g. a1 or 7,0.")(fn)
    fn = click.option("--closed", is_flag=True, help="Ask for a closed (re-entrant) tour.")(fn)
    fn = click.option(
        "--holes", metavar="SQS", multiple=True,
        help="Holes: names like a1,h8 or row,col pairs like 7,0;0,7 (repeatable: the lists add up).",
    )(fn)
    fn = click.argument("board", metavar="BOARD")(fn)
    return fn


class SeedType(click.ParamType):
    """A seed: a whole number from 0 to 2**32 - 1, refused with the message of the Python API."""

    name = "seed"

    def convert(self, value, param, ctx):
        number = value
        if not isinstance(value, int):
            try:
                number = int(str(value).strip(), 10)
            except ValueError:
                pass  # check_seed names the text as it was given
        try:
            return check_seed(number)
        except KtsolveError as exc:
            self.fail(str(exc), param, ctx)


class TimeLimitType(click.ParamType):
    """A time limit: a positive finite number of seconds, as the Python API checks it."""

    name = "seconds"

    def convert(self, value, param, ctx):
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = value
        try:
            return check_time_limit(number)
        except KtsolveError as exc:
            self.fail(str(exc), param, ctx)


SEED = SeedType()
TIME_LIMIT = TimeLimitType()


def _writable_output(ctx, param, value):
    """Refuse, before any work, an output path that cannot be written (see :mod:`ktsolve.output`)."""
    if value is None:
        if sys.stdout is None:
            raise click.UsageError("standard output is closed; give -o FILE", ctx)
        return None
    try:
        check_output_path(value)
    except KtsolveError as exc:
        raise click.BadParameter(str(exc), ctx, param) from None
    return value


def output_option(help_text: str):
    """The ``-o FILE`` option of every command that writes, checked before the work starts."""
    return click.option(
        "-o", "--output", metavar="FILE", callback=_writable_output,
        help=f"{help_text} '-' is standard output; devices, links and pipes are written through.",
    )


def emit(payload: str | bytes, output: str | None) -> None:
    """Write the payload to ``output`` (None or ``-``: standard output), whole or not at all."""
    if isinstance(payload, str) and is_stdout(output) and not payload.endswith("\n"):
        payload += "\n"
    write_output(output, payload)


def nothing_written(output: str | None, why: str) -> None:
    """Say on stderr that ``output`` was left alone because there is no complete answer to write."""
    if output is not None and not is_stdout(output):
        click.echo(f"ktsolve: {why}, so nothing was written to '{output}'", err=True)


def check_output(board: Board, fmt: str, output: str | None) -> None:
    """Refuse, before any work, output that cannot be written: binary npy to a terminal, huge JSON."""
    if fmt == "npy" and is_stdout(output) and sys.stdout.isatty():
        raise click.UsageError("--format npy writes binary data: give -o FILE or redirect standard output")
    if fmt == "json" and board.n_squares > JSON_MAX_SQUARES:
        raise click.UsageError(
            f"JSON output is limited to {JSON_MAX_SQUARES:,} squares and this board has "
            f"{board.n_squares:,}; use --format npy or --format text"
        )


def emit_tour(tour, fmt: str, output: str | None) -> None:
    """Stream a found tour as text (Euler's matrix) or npy to ``output`` or stdout, whole or not at all."""
    writer = write_tour_npy if fmt == "npy" else write_tour_matrix
    with open_output(output) as fh:
        writer(tour, fh)


def deliver(res, fmt: str, output: str | None, *, definite: tuple[Status, ...] = (Status.FOUND,)) -> str | None:
    """Write the answer of ``solve`` or ``prove``; returns why nothing was written, if it was not.

    A file gets the answer only when its status is one of ``definite``
    (a tour; for ``prove`` also a proof), otherwise it is left alone (the
    caller says so on stderr with :func:`nothing_written`).  Standard output
    always gets the answer in ``fmt`` (``unknown: ...`` included), except
    npy, which holds only tours.
    """
    if res.status is Status.FOUND and fmt in ("text", "npy"):
        emit_tour(res.tour, fmt, output)
    elif res.status in definite or (is_stdout(output) and fmt != "npy"):
        emit(render_result(res, fmt), output)
    else:
        return "no tour was found" if res.status is Status.UNKNOWN else "no tour exists"
    return None


def render_result(res, fmt: str) -> str:
    """The payload of ``solve``/``prove`` in format ``fmt``."""
    if fmt == "json":
        return result_json(res) + "\n"
    if fmt == "svg":
        return tour_svg(res.board, res.tour)
    if res.status is Status.FOUND:
        return tour_matrix_text(res.tour) + "\n"
    if res.status is Status.INFEASIBLE:
        return f"no tour: {res.proof}\n"
    return f"unknown: {res.stats.get('reason', 'the budget ran out')}\n"


def report(res) -> None:
    """The one-line summary on stderr."""
    line = res.summary()
    auto = res.stats.get("auto") if isinstance(res.stats, dict) else None
    if auto:
        line += f" [auto: {auto}]"
    click.echo(f"ktsolve: {line}", err=True)


# ---------------------------------------------------------------------- commands
@click.group(cls=KtsolveGroup, context_settings=CONTEXT)
@click.version_option(_pkg_version("ktsolve"), "--version", prog_name="ktsolve")
def cli():
    """Knight's tours on m x n boards with holes: solve, prove, verify."""


from .cli_board import board as _board_group  # noqa: E402  (ktsolve board random ...)
cli.add_command(_board_group)


@cli.command(cls=BoardCommand, context_settings=BOARD_CONTEXT)
@board_options
@click.option("--method", "-m", type=MethodChoice(), default="auto", help="Method to use.")
@click.option("--seed", type=SEED, help="Seed (a fresh one is drawn and reported if omitted).")
@click.option("--time-limit", type=TIME_LIMIT, metavar="S", help="Seconds before answering unknown.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "svg", "npy"]),
    default="text",
    help="Output format. text: Euler's matrix of step numbers (streamed row by row); json: one object "
    "(tours of at most 1,000,000 squares); svg: a picture; npy: a numpy .npy int32 array of square "
    "numbers in visiting order, the squares that are not holes numbered row by row from the top-left "
    "square (needs -o FILE or a redirected stdout; nothing is written when no tour is found).",
)
@output_option("Write the tour here instead of stdout; only a tour is written (nothing when none is found).")
@click.option("--param", "-p", "params", multiple=True, metavar="KEY=VALUE", help="Method parameter (repeatable).")
def solve(board, holes, closed, start, end, method, seed, time_limit, fmt, output, params):
    """Find a knight's tour of BOARD (a size like 8x8, or a board file)."""
    b = load_board(board, holes)
    kw = _parse_params(params, solve_board)
    check_output(b, fmt, output)
    with terminal_progress(f"ktsolve {method}") as progress:
        res = interruptible(lambda: solve_board(
            b, method, closed=closed, start=start, end=end, seed=seed, time_limit=time_limit, progress=progress, **kw
        ))
    if res is None:
        return say_interrupted()
    why = deliver(res, fmt, output)
    report(res)
    if why:
        nothing_written(output, why)
    return res.exit_code


@cli.command(cls=BoardCommand, context_settings=BOARD_CONTEXT)
@board_options
@click.argument("tour_file", metavar="TOUR_FILE")
@click.option("--path", "is_path", is_flag=True,
              help="Check a path that need not visit every square (what longest writes).")
def verify(board, holes, closed, start, end, tour_file, is_path):
    """Check TOUR_FILE (JSON, .npy, Euler's matrix, a list of squares, - for stdin) on BOARD.

    A file of several tours, one per line (what enumerate writes, gzipped
    or not), has every tour checked.  Exit 0 when valid, 1 when invalid
    (the first fault is printed), 2 when the file cannot be read as tours.
    """
    if board == "-" and tour_file == "-":
        raise click.UsageError("BOARD and TOUR_FILE cannot both be read from standard input")
    b = load_board(board, holes)
    if start is not None:
        b.parse_square(start, what="start")
    if end is not None:
        b.parse_square(end, what="end")
    try:
        tours, stated_closed = read_tours(b, tour_file)
        want_closed = closed or bool(stated_closed)
        if len(tours) > 1:
            validate_many(b, np.stack([t.squares for t in tours]), closed=want_closed, start=start, end=end)
        else:
            tours = [validate(b, tours[0], closed=want_closed, start=start, end=end, complete=not is_path)]
    except TourFileError:
        raise
    except KtsolveError as exc:
        click.echo(f"invalid: {_one_line(exc)}")
        return 1
    kind = "closed" if want_closed else "open"
    if len(tours) > 1:
        click.echo(f"valid: {len(tours):,} {kind} tours of {b.n_squares} squares")
        return 0
    tour = tours[0]
    s, e = b.name(*tour.start), b.name(*tour.end)
    if is_path:
        click.echo(f"valid: {kind} path of {len(tour)} of {b.n_squares} squares from {s} to {e}")
    else:
        click.echo(f"valid: {kind} tour of {len(tour)} squares from {s} to {e}")
    return 0


@cli.command(context_settings=CONTEXT)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
def methods(fmt):
    """List the methods and what each supports."""
    reg = registered_methods()
    cols = ("holes", "open", "closed", "start", "end", "proves")
    if fmt == "json":
        click.echo(json.dumps([m.capabilities() for m in reg.values()], indent=2))
        return 0
    head = ["method", "family", *cols, "summary"]
    table = [[m.name, m.family, *("yes" if getattr(m, c) else "-" for c in cols), m.summary] for m in reg.values()]
    widths = [max(len(r[i]) for r in [head, *table]) for i in range(len(head) - 1)]
    for row in [head, *table]:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1])
    return 0


@cli.group(context_settings=CONTEXT)
def bench():
    """Benchmarks: the seed papers' tables beside ktsolve's figures, and any method against prove's answers."""


@bench.command(context_settings=CONTEXT)
@click.option("--section", "names", multiple=True, metavar="NAME", help="Run only this section (repeatable).")
@click.option("--full", is_flag=True, help="Use the papers' budgets instead of the quick ones.")
@click.option("--seed", type=SEED, default=1, help="Seed of every run.")
@click.option("--plots", metavar="DIR", help="Save figures (needs matplotlib) in this folder.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
def papers(names, full, seed, plots, fmt):
    """Reproduce the seed papers' tables beside their published figures."""
    from .bench import format_table, require_plots, sections

    secs = sections()
    unknown = [n for n in names if n not in secs]
    if unknown:
        raise click.BadParameter(
            f"no section {unknown[0]!r}; choose from {', '.join(secs) or 'none'}", param_hint="--section"
        )
    chosen = [secs[n] for n in names] if names else list(secs.values())
    plots = require_plots(plots)  # refused here, before any section runs, when it cannot work
    out = []
    for sec in chosen:
        with terminal_progress(sec.name) as progress:
            tables = sec.run(quick=not full, seed=seed, progress=progress, plots=plots)
        if fmt == "json":
            out.append({"section": sec.name, "title": sec.title, "tables": [t.to_dict() for t in tables]})
        else:
            click.echo(f"== {sec.title}\n")
            for t in tables:
                click.echo(format_table(t) + "\n")
    if fmt == "json":
        click.echo(json.dumps(out, indent=2))
    return 0


def _import_plugins(ctx, param, value):
    """--import: import the user's modules before --method is checked, so their registered methods count."""
    from .bench.methods import import_plugin

    for target in value:
        import_plugin(target)
    return value


def _holes_value(ctx, param, value):
    for cast in (int, float):
        try:
            return cast(value)
        except ValueError:
            pass
    raise click.BadParameter(f"{value!r} is neither a number of holes nor a share of the cells like 0.05", ctx, param)


@bench.command("methods", context_settings=CONTEXT)
@click.option("--import", "imports", multiple=True, metavar="MODULE", is_eager=True, expose_value=False,
              callback=_import_plugins,
              help="Import a module or .py file first, e.g. one that calls ktsolve.register_method (repeatable).")
@click.option("--method", "-m", "names", multiple=True, type=MethodChoice(extra=("all",)), required=True,
              help="Method to run (repeatable; 'all': every registered method, those that cannot answer skipped).")
@click.option("--boards", "sizes", default="8x8", metavar="SIZES", help="Board sizes, comma-separated: 8x8,10x10.")
@click.option("--holes", default="0", callback=_holes_value, metavar="K",
              help="Holes of each board: a number, or a share of the cells like 0.05 (random_holed_board).")
@click.option("--draws", type=click.IntRange(1, 10_000), metavar="N",
              help="Holed boards drawn per size (default 3 with --holes, else 1).")
@click.option("--tour", "tour", type=click.Choice(["open", "closed", "both"]), default="open", help="Tours asked for.")
@click.option("--seeds", type=click.IntRange(1, 1_000_000), default=5, help="Runs per board and question.")
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=1, help="Seed of the boards and of the runs.")
@click.option("--time-limit", type=click.FloatRange(0, min_open=True), default=5.0, metavar="S",
              help="Seconds per run.")
@click.option("--prove-time-limit", type=click.FloatRange(0, min_open=True), default=60.0, metavar="S",
              help="Seconds for prove's answer on each board and question.")
@click.option("--plots", metavar="DIR", help="Save bench_methods.png (needs matplotlib) in this folder.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
def bench_methods_command(names, sizes, holes, draws, tour, seeds, seed, time_limit, prove_time_limit, plots, fmt):
    """Success rate, time to first tour and tours per attempt of any method, against prove's answers.

    Exit 0, or 1 when a run contradicts prove or returns a tour the
    validator refuses (the table names it).
    """
    from .bench import format_table
    from .bench.methods import bench_methods, check_plotting

    if plots:
        check_plotting()
    chosen = list(registered_methods()) if "all" in names else list(dict.fromkeys(names))
    boards = [load_board(part.strip(), None) for part in sizes.split(",") if part.strip()]
    if not boards:
        raise click.BadParameter("give at least one board size", param_hint="--boards")
    tours = ["open", "closed"] if tour == "both" else [tour]
    boards = [b.spec() if b.is_full and holes else b for b in boards]
    with terminal_progress("ktsolve bench methods") as progress:
        rep = bench_methods(chosen, boards, holes=holes, draws=draws, tours=tours, seeds=seeds, seed=seed,
                            time_limit=time_limit, prove_time_limit=prove_time_limit, progress=progress)
    if fmt == "json":
        click.echo(json.dumps(rep.to_dict(), indent=2))
    else:
        click.echo(format_table(rep.table()))
    if plots:
        for path in rep.plot(plots):
            click.echo(f"ktsolve: wrote {path}", err=True)
    click.echo(f"ktsolve: {len(rep.runs)} runs, {rep.bugs} disagreeing with prove or refused by the validator",
               err=True)
    return 1 if rep.bugs else 0


@cli.command("enumerate", cls=BoardCommand, context_settings=BOARD_CONTEXT)
@board_options
@click.option("--method", "-m", type=click.Choice(enumerating_methods()), default="aco", help="Method to run.")
@click.option("--cycles", type=click.IntRange(0, COUNT_MAX), metavar="N",
              help="Cycles to run (default: the method's budget).")
@click.option("--seed", type=SEED, help="Seed (a fresh one is drawn and reported if omitted).")
@click.option("--time-limit", type=TIME_LIMIT, metavar="S", help="Stop after S seconds.")
@output_option("Write the distinct tours here, one per line (.gz compresses); nothing when none is kept.")
@click.option("--param", "-p", "params", multiple=True, metavar="KEY=VALUE", help="Method parameter (repeatable).")
def enumerate_command(board, holes, closed, start, end, method, cycles, seed, time_limit, output, params):
    """Run an ant colony on BOARD and keep every distinct complete tour it meets.

    Prints JSON whose stats give walks, complete tours, distinct tours,
    closed tours and the production rate (complete tours per walk).  Exit 0
    when at least one tour was kept, 3 when none, 1 when a necessary
    condition proves that none exists, 130 after Ctrl-C (the tours found so
    far are written and counted).
    """
    if output is not None and is_stdout(output):
        raise click.BadParameter("enumerate prints its JSON on standard output; give a file for the tours",
                                 param_hint="'-o' / '--output'")
    if sys.stdout is None:
        raise click.UsageError("standard output is closed: enumerate prints its JSON there")
    b = load_board(board, holes)
    kw = _parse_params(params, enumerate_tours)
    with terminal_progress(f"ktsolve enumerate {method}") as progress:
        try:
            # not interruptible(): after Ctrl-C the tours found so far are kept, written and counted
            res = enumerate_tours(b, method, cycles=cycles, closed=closed, start=start, end=end, seed=seed,
                                  time_limit=time_limit, progress=progress, **kw)
        except KeyboardInterrupt:  # a second Ctrl-C, or one outside the method's guard
            return say_interrupted()
    out = res.to_dict()
    if output and len(res.tours):
        write_tours(output, b, res.tours)
        out["output"] = output
    click.echo(json.dumps(out, indent=2))
    st = res.stats
    line = (f"kept {st['distinct']:,} distinct {'closed ' if closed else ''}tours "
            f"({st['complete']:,} complete in {st['walks']:,} walks) with {res.method} in {res.elapsed:.3g} s "
            f"(seed {res.seed})")
    if "proof" in st:
        line = f"no tour exists: {st['proof']}"
    if st.get("interrupted"):
        line = f"interrupted: {line}"
    click.echo(f"ktsolve: {line}", err=True)
    if output and not len(res.tours):
        nothing_written(output, "no tour was kept")
    if "proof" in st:
        return 1
    if st.get("interrupted"):
        return 130
    return 0 if st["distinct"] else 3


@cli.command(cls=BoardCommand, context_settings=BOARD_CONTEXT)
@board_options
@click.option("--seed", type=SEED, help="Seed of the heuristic attempt and of CP-SAT.")
@click.option("--time-limit", type=TIME_LIMIT, metavar="S", help="Seconds before answering unknown.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "svg"]), default="text", help="Output format.")
@output_option("Write the answer (a tour or a proof) here instead of stdout; nothing when it is unknown.")
def prove(board, holes, closed, start, end, seed, time_limit, fmt, output):
    """Settle whether BOARD has the tour asked for: a tour, or a proof that none exists.

    Runs the quick proofs, the matching proof, a short heuristic attempt and
    then CP-SAT, and says on stderr which step settled it.
    """
    b = load_board(board, holes)
    with terminal_progress("ktsolve prove") as progress:
        res = interruptible(lambda: prove_board(b, closed=closed, start=start, end=end, time_limit=time_limit,
                                                seed=seed, progress=progress))
    if res is None:
        return say_interrupted()
    why = deliver(res, fmt, output, definite=(Status.FOUND, Status.INFEASIBLE))
    report(res)
    click.echo(f"ktsolve: settled by {res.stats.get('settled_by', 'none')}", err=True)
    if why:
        nothing_written(output, why)
    return res.exit_code


@cli.command(cls=BoardCommand, context_settings=BOARD_CONTEXT)
@click.argument("board", metavar="BOARD")
@click.option("--holes", metavar="SQS", multiple=True,
              help="Holes: names like a1,h8 or row,col pairs like 7,0;0,7 (repeatable: the lists add up).")
@click.option("--start", metavar="SQ", help="First square of the path (anywhere if omitted).")
@click.option("--time-limit", type=TIME_LIMIT, metavar="S", help="Seconds before stopping with the best path and its bound.")
@click.option("--seed", type=SEED, default=0, help="CP-SAT's seed.")
@click.option("--method", "-m", type=click.Choice(["cpsat", "csp"]), default="cpsat",
              help="cpsat: CP-SAT's circuit model; csp: the Prolog paper's declarative search "
              "(python-constraint, growing length; boards of at most 64 squares).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
@output_option("Write the path here instead of stdout (``verify --path`` checks it); nothing when none is found.")
def longest(board, holes, start, time_limit, seed, method, fmt, output):
    """The longest knight's path on BOARD from --start, exactly (CP-SAT, or python-constraint).

    Prints the path as a matrix of step numbers (unvisited squares as ..);
    exit 0 when the optimum is proven, 3 when the time limit stopped the
    search first (the best path and the proven bound are reported).
    """
    b = load_board(board, holes)
    res = interruptible(lambda: longest_path(b, start=start, time_limit=time_limit, seed=seed, method=method))
    if res is None:
        return say_interrupted()
    if fmt == "json":
        payload = result_json(res) + "\n"
    else:
        payload = (path_matrix_text(res.path) + "\n") if res.path is not None else "no path found\n"
    if res.path is not None or is_stdout(output):
        emit(payload, output)
    st = res.stats
    where = f" from {b.name(*res.spec.start)}" if res.spec.start is not None else ""
    if st["optimal"]:
        line = f"longest path{where}: {st['length']} of {b.n_squares} squares (optimal)"
    else:
        line = (f"longest path{where}: {st['length']} of {b.n_squares} squares found; no path is longer "
                f"than {st['bound']} (stopped after {res.elapsed:.3g} s)")
    click.echo(f"ktsolve: {line} in {res.elapsed:.3g} s", err=True)
    if res.path is None:
        nothing_written(output, "no path was found")
    return res.exit_code


cli.add_command(warm)


# ---------------------------------------------------------------------- census
def _hole_count(text: str | None):
    """--holes of --random: a whole number of holes, or a share of the cells."""
    if text is None:
        raise click.UsageError("--random N needs --holes K, the number of holes of each board")
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a number of holes", param_hint="--holes") from None


@cli.command("census", context_settings=BOARD_CONTEXT)
@click.argument("board", metavar="[BOARD]", required=False)
@click.option("--holes", metavar="SQS|K", help="Holes of BOARD (a1,h8 or 7,0;0,7); with --random, the number "
              "of holes of each board (or a share of the cells, like 0.05).")
@click.option("--remove", type=click.IntRange(1), metavar="K", help="Every way to remove K squares of BOARD, "
              "up to the board's symmetries.")
@click.option("--starts", is_flag=True, help="Every start square of BOARD, up to its symmetries.")
@click.option("--from", "from_file", metavar="FILE", help="Questions from a JSON-lines file: one object per line "
              "with board (\"8x8\" or rows, cols, holes), and optionally holes, closed, start, end.")
@click.option("--random", "n_random", type=click.IntRange(1), metavar="N", help="N distinct random boards of "
              "BOARD's size with --holes K holes each (drawn from --seed).")
@click.option("--open", "mode", flag_value="open", default=True, help="Ask for open tours.")
@click.option("--closed", "mode", flag_value="closed", help="Ask for closed tours.")
@click.option("--both", "mode", flag_value="both", help="Ask for open and for closed tours.")
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), help="Census seed (a fresh one is drawn and recorded "
              "if omitted; a resumed census keeps its own).")
@click.option("--time-limit", type=click.FloatRange(0, min_open=True), default=60.0, metavar="S",
              help="Seconds per question; unknown after that.")
@click.option("--workers", type=click.IntRange(1), metavar="N", help="Worker processes (default: the CPUs).")
@click.option("--scheduler", metavar="ADDRESS", help="Run on the Dask cluster of this scheduler "
              "(pip install 'ktsolve[cluster]').")
@click.option("--no-symmetry", is_flag=True, help="Ask about every board, not one per symmetry class.")
@click.option("--retry-unknown", is_flag=True, help="Ask again the questions recorded as unknown.")
@click.option("--batch", type=click.IntRange(1), metavar="N", help="Questions per batch (default: from their cost).")
@output_option("Results file, JSON lines; the same command with the same file resumes it.")
@click.option("--summary", "summary_file", metavar="FILE", help="Print the summary of a results file "
              "(and draw it with --plot) instead of running a census.")
@click.option("--plot", metavar="OUT.svg|OUT.png", callback=_writable_output,
              help="Draw the census: a map of the board for one-square families (PNG needs matplotlib).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Summary format.")
def census_command(board, holes, remove, starts, from_file, n_random, mode, seed, time_limit, workers, scheduler,
                   no_symmetry, retry_unknown, batch, output, summary_file, plot, fmt):
    """Settle a whole family of boards with prove: every answer with its tour or proof.

    Families: BOARD --remove K, BOARD --starts, --from FILE, BOARD --random N
    --holes K.  Answers go to -o FILE as JSON lines, flushed one by one;
    running the same command again resumes.  Prints the counts by answer and
    by argument.  Exit 0 when every question is settled, 3 when some are
    unknown, 130 when interrupted (the file stays valid), 2 on bad input.
    """
    from .census import census as run_census
    from .census import format_summary, read_results, summarize
    from .census import plot as draw
    from .census.plot import check_plot_path
    from .census.summary import summary_json

    if plot:
        check_plot_path(plot)
    if summary_file is not None:
        extra = [n for n, v in (("BOARD", board), ("--remove", remove), ("--starts", starts),
                                ("--from", from_file), ("--random", n_random), ("-o", output)) if v]
        if extra:
            raise click.UsageError(f"--summary FILE reads a finished census; drop {', '.join(extra)}")
        if not os.path.isfile(summary_file):
            raise click.BadParameter(f"'{summary_file}' does not exist", param_hint="--summary")
        existing = read_results(summary_file)
        if existing is None:
            raise click.BadParameter(f"'{summary_file}' is empty", param_hint="--summary")
        summary = summarize(existing)
    else:
        chosen = [n for n, v in (("--remove", remove), ("--starts", starts), ("--from", from_file),
                                 ("--random", n_random)) if v]
        if len(chosen) != 1:
            raise click.UsageError("give one family: BOARD --remove K, BOARD --starts, --from FILE or "
                                   f"BOARD --random N --holes K{' (not ' + ' and '.join(chosen) + ')' if chosen else ''}")
        if not output:
            raise click.UsageError("give -o FILE for the results (JSON lines; the same command resumes them)")
        if from_file is not None:
            if board is not None or holes is not None:
                raise click.UsageError("--from FILE names its own boards: give no BOARD or --holes")
            b, count = None, None
        elif board is None:
            raise click.UsageError(f"{chosen[0]} needs a BOARD (a size like 8x8, or a board file)")
        elif n_random is not None:
            b, count = load_board(board, None), _hole_count(holes)
        else:
            b, count = load_board(board, holes), None
        closed = {"open": False, "closed": True, "both": "both"}[mode]
        with terminal_progress("ktsolve census") as progress:
            rep = run_census(b, remove=remove, starts=starts, from_file=from_file, random=n_random, holes=count,
                             closed=closed, output=output, seed=seed, time_limit=time_limit, workers=workers,
                             scheduler=scheduler, symmetry=not no_symmetry, retry_unknown=retry_unknown,
                             batch=batch, progress=progress,
                             log=lambda line: click.echo(f"ktsolve: {line}", err=True))
        summary = rep.summary
        if rep.interrupted:
            click.echo(f"ktsolve: interrupted after {rep.answered_now:,} answers; run the same command again "
                       "to resume", err=True)
        elif rep.answered_now:
            rate = rep.answered_now / rep.wall_s if rep.wall_s > 0 else 0.0
            click.echo(f"ktsolve: {rep.answered_now:,} questions answered in {rep.wall_s:.3g} s "
                       f"({rate:,.1f} per second on {rep.workers} worker{'s' if rep.workers > 1 else ''}, "
                       f"busy {100 * rep.busy:.0f}% of the time); results in {output}", err=True)
        else:
            click.echo(f"ktsolve: every question is already answered in {output}", err=True)
    click.echo(summary_json(summary) if fmt == "json" else format_summary(summary), nl=False)
    if plot:
        draw(summary, plot)
        click.echo(f"ktsolve: picture written to {plot}", err=True)
    if summary_file is not None:
        return 0
    return rep.exit_code


def main(argv=None) -> None:
    """Console-script entry point."""
    cli.main(args=argv, prog_name="ktsolve")


if __name__ == "__main__":  # pragma: no cover
    main()
