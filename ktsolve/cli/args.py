"""What the commands read: board arguments, method parameters, seeds, time limits, output paths.

Every value is checked by the same function the Python API uses
(:mod:`ktsolve.checks`, :class:`~ktsolve.board.Board`), so the command line
and Python refuse the same values with the same message; a refusal is a
:class:`click.BadParameter` or :class:`~ktsolve.errors.KtsolveError`, which
the program turns into one line on standard error and exit code 2.
"""

from __future__ import annotations

import inspect
import os
import re
import sys
import time

import click

from ..board import Board, BoardFile
from ..checks import check_seed, check_time_limit
from ..errors import InvalidBoardError, KtsolveError
from ..output import check_output_path
from ..registry import methods as registered_methods
from ..request import RESERVED

__all__ = [
    "CONTEXT",
    "BOARD_CONTEXT",
    "EXTENSIONS",
    "BoardCommand",
    "MethodChoice",
    "SeedType",
    "TimeLimitType",
    "SEED",
    "TIME_LIMIT",
    "board_options",
    "coerce_param",
    "format_of_name",
    "format_option",
    "load_board",
    "load_question",
    "output_option",
    "output_format",
    "parse_params",
    "writable_output",
]

CONTEXT = {"help_option_names": ["-h", "--help"], "show_default": True}
# Commands with a BOARD argument read "-3x8" as a (bad) board size, not as an option,
# so a negative size gets the message that names it.
BOARD_CONTEXT = {**CONTEXT, "ignore_unknown_options": True}


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


_SIZE_LIKE = re.compile(r"^\s*[+-]?\w+\s*[xX\u00d7*]\s*[+-]?\w+\s*$")


def _read(spec: str, holes) -> BoardFile:
    """What BOARD and --holes say: the board, and a board file's start, end and notes."""
    if isinstance(holes, (tuple, list)):
        holes = ";".join(h for h in holes if h.strip()) or None
    if spec == "-" or (os.path.exists(spec) and not _SIZE_LIKE.match(spec)):
        parsed = Board.read_file(spec)
        for note in parsed.notes:
            click.echo("ktsolve: warning: " + " ".join(str(note).split()), err=True)
        board = parsed.board
        if holes:
            board = board.with_holes(board.parse_squares(holes, what="hole", allow_holes=True))
            for what, square in (("start", parsed.start), ("end", parsed.end)):
                if square is not None and board.is_hole(*square):
                    raise InvalidBoardError(f"--holes names the board file's {what} square {board.name(*square)}")
        return parsed._replace(board=board)
    if _SIZE_LIKE.match(spec) or not re.search(r"[./\\]", spec):
        return BoardFile(Board.from_spec(spec, holes), None, None, ())
    raise InvalidBoardError(f"board file {spec!r} does not exist (give a size like 8x8 or a board file)")


def load_board(spec: str, holes) -> Board:
    """Board from the BOARD argument (a size like 8x8, or a board file, or - for stdin) and --holes.

    ``holes`` is a string or the tuple of every ``--holes`` given: they add
    up (``--holes a1 --holes h8`` is ``--holes a1,h8``), and a square named
    twice, or already a hole of the board file, is refused by name.  A
    board file's notes (see :meth:`Board.parse_file`) are one
    ``ktsolve: warning:`` line each on standard error.
    """
    return _read(spec, holes).board


def load_question(spec: str, holes, start=None, end=None) -> tuple[Board, object, object]:
    """Board, start and end from BOARD, --holes, --start and --end.

    A board file's ``S`` and ``E`` squares are the start and end unless
    ``--start`` or ``--end`` names another square (the options win).
    """
    parsed = _read(spec, holes)
    return (parsed.board, parsed.start if start is None else start, parsed.end if end is None else end)


def parse_params(items: tuple[str, ...], entry=None) -> dict:
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
        out[key] = coerce_param(raw.strip())
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


def coerce_param(raw: str):
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

#: ``time.perf_counter()`` at the start of the ``ktsolve`` process, set by the program's entry
#: (:func:`ktsolve.cli.app.console_main`); None when the commands run inside another program.
_PROCESS_T0: float | None = None


def process_started() -> float:
    """``time.perf_counter()`` at the moment this process started (Linux's /proc), else now.

    Python's start-up and the imports of numpy, numba and OR-Tools come
    before any of ktsolve's code runs: about 1.5-2 s on a loaded machine,
    which a user's ``--time-limit`` counts, since they wait for it.
    """
    now = time.perf_counter()
    try:
        with open("/proc/self/stat", "rb") as fh:
            fields = fh.read(4096).rsplit(b")", 1)[1].split()
        with open("/proc/uptime", "rb") as fh:
            uptime = float(fh.read(64).split()[0])
        ticks = os.sysconf("SC_CLK_TCK")
        age = uptime - int(fields[19]) / ticks  # field 22 of stat: the start time, in ticks after boot
    except (OSError, ValueError, IndexError):
        return now
    return now - age if 0.0 <= age < 3600.0 else now


def start_process_clock() -> None:
    """Count the commands' time limits from the process's start (called once by the program's entry)."""
    global _PROCESS_T0
    _PROCESS_T0 = process_started()


def user_clock(time_limit: float | None):
    """The time limit a command passes on: from the process's start when the program runs, else seconds.

    A ``--time-limit`` is what a user waits for, start-up included, so the
    ``ktsolve`` program hands :func:`ktsolve.solve` a
    :class:`~ktsolve.driver.Deadline` started when the process did; called
    from Python (tests, notebooks), the seconds count from the call.
    """
    t0 = _PROCESS_T0
    if time_limit is None or t0 is None:
        return time_limit
    from ..driver import Deadline

    return Deadline(time_limit, t0=t0)


def writable_output(ctx, param, value):
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
        "-o", "--output", metavar="FILE", callback=writable_output,
        help=f"{help_text} '-' is standard output; devices, links and pipes are written through.",
    )




#: The format an output's name implies, by its extension (after a final ``.gz``, which compresses any format).
EXTENSIONS = {".txt": "text", ".text": "text", ".json": "json", ".svg": "svg", ".html": "html", ".htm": "html",
              ".npy": "npy"}


def format_of_name(name) -> str | None:
    """The format an output name implies by its extension, or None (no name, ``-``, an unknown extension).

    A final ``.gz`` is looked through: ``tour.npy.gz`` is a gzipped npy.

    Examples
    --------
    >>> format_of_name("tour.npy.gz"), format_of_name("pic.SVG"), format_of_name("tour.out")
    ('npy', 'svg', None)
    """
    if name is None or name == "-":
        return None
    base = os.path.basename(str(name)).lower()
    if base.endswith(".gz"):
        base = base[:-3]
    return EXTENSIONS.get(os.path.splitext(base)[1])


def output_format(fmt: str | None, output: str | None, choices, default: str = "text") -> str:
    """The format to write: ``--format`` when given, else the one ``-o``'s extension names, else ``default``.

    A ``--format`` that contradicts the extension (``--format json -o
    tour.npy``), or an extension naming a format the command does not
    write (``longest -o path.npy``), is refused before any work: a file
    whose name says npy must hold npy, or ``verify`` refuses it later.
    """
    implied = format_of_name(output)
    if fmt is not None:
        if implied is not None and implied != fmt:
            raise click.BadParameter(f"--format {fmt} contradicts the output name {output!r}, which names a "
                                     f"{implied} file; drop --format or change the name",
                                     param_hint="'-o' / '--output'")
        return fmt
    if implied is None:
        return default
    if implied not in choices:
        raise click.BadParameter(f"{output!r} names a {implied} file, and this command writes "
                                 f"{', '.join(choices)}; change the name or give --format",
                                 param_hint="'-o' / '--output'")
    return implied


def format_option(choices, help_text: str, default: str = "text"):
    """``--format``, whose default is the format ``-o``'s extension names, else ``default`` (:func:`output_format`)."""
    return click.option(
        "--format", "fmt", type=click.Choice(list(choices)), default=None, show_default=False,
        help=f"{help_text} Default: the one -o FILE's extension names (.txt, .json, .svg, .html, .npy; "
             f"under a final .gz too), else {default}.",
    )
