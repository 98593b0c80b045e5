"""The ``ktsolve`` program: the command group, its one-line errors, and the process's fast exit.

:data:`cli` is the click group that holds every command (one module each
in :mod:`ktsolve.cli`); :func:`main` runs it and raises ``SystemExit`` with
the command's exit code (:mod:`ktsolve.exit_codes`); :func:`console_main`
is the installed ``ktsolve`` program, which ends the process at once.

Whatever goes wrong before the answer is one line on standard error and
an exit code, never a traceback:

* bad input (click's usage errors, a :class:`~ktsolve.errors.KtsolveError`,
  a file operation that failed after the checks): ``ktsolve: error: ...``,
  exit 2;
* Ctrl-C outside a command's own handling: ``ktsolve: interrupted``, 130;
* a reader that closed standard output or an output pipe: nothing is said,
  standard output is pointed at /dev/null so that exiting flushes quietly,
  exit 141.
"""

from __future__ import annotations

import os
import sys
from importlib.metadata import version as _pkg_version

import click

from ..errors import KtsolveError
from ..exit_codes import ExitCode
from .answers import one_line, say_interrupted
from .args import CONTEXT
from .bench import bench_group
from .board import board_group
from .census import census_command
from .count import count_command
from .enumerate import enumerate_command
from .longest import longest_command
from .methods import methods_command
from .prove import prove_command
from .solve import solve_command
from .verify import verify_command
from .warm import warm_command

__all__ = ["KtsolveGroup", "cli", "main", "console_main"]


def _silence_stdout() -> None:
    """After standard output's reader left: point it at /dev/null so exiting flushes quietly."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a real descriptor (tests capture it): nothing is flushed at exit
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _closed_pipe_code(exc: BaseException) -> ExitCode:
    """The exit code for a closed pipe; quiet, and standard output silenced if it was the pipe."""
    if getattr(exc, "filename", None) is None:
        _silence_stdout()
    return ExitCode.CLOSED_PIPE


def _say_internal_error(exc: Exception) -> ExitCode:
    """One line naming a fault inside ktsolve, its traceback after it when ``KTSOLVE_TRACEBACK`` is set."""
    click.echo(f"ktsolve: internal error (a bug in ktsolve, please report it): {type(exc).__name__}: "
               f"{one_line(exc)}", err=True)
    if os.environ.get("KTSOLVE_TRACEBACK"):
        import traceback

        click.echo("".join(traceback.format_exception(exc)).rstrip(), err=True)
    return ExitCode.INTERNAL


class KtsolveGroup(click.Group):
    """A click group whose errors are one line on stderr with exit code 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        code = ExitCode.OK
        try:
            rv = super().main(args, prog_name or "ktsolve", complete_var, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) else ExitCode.OK
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help() if exc.ctx else "", err=False)
            code = ExitCode.OK
        except click.ClickException as exc:
            click.echo(f"ktsolve: error: {one_line(exc.format_message())}", err=True)
            code = ExitCode.BAD_INPUT
        except KtsolveError as exc:
            click.echo(f"ktsolve: error: {one_line(exc)}", err=True)
            code = ExitCode.BAD_INPUT
        except click.exceptions.Abort:
            code = say_interrupted()
        except BrokenPipeError as exc:
            code = _closed_pipe_code(exc)
        except OSError as exc:  # a file operation failed after the checks (disk full, permissions)
            where = f": '{exc.filename}'" if exc.filename else ""
            click.echo(f"ktsolve: error: {one_line(exc.strerror or exc)}{where}", err=True)
            code = ExitCode.BAD_INPUT
        except Exception as exc:  # noqa: BLE001 - a bug: said as one, never as exit 1 ("no tour")
            code = _say_internal_error(exc)
        if code != ExitCode.CLOSED_PIPE and sys.stdout is not None:
            try:
                sys.stdout.flush()  # data still buffered is part of the answer: a closed pipe now is 141
            except BrokenPipeError as exc:
                code = _closed_pipe_code(exc)
            except (OSError, ValueError):
                pass
        sys.exit(int(code))

    def resolve_command(self, ctx, args):
        name, command, rest = super().resolve_command(ctx, args)
        if sys.stdout is None and command is not None and not any(p.name == "output" for p in command.params):
            # started with standard output closed: a command that only prints would lose its answer
            raise click.UsageError("standard output is closed", ctx)
        return name, command, rest

    def invoke(self, ctx):
        # click would turn a closed pipe into exit 1; click's own Exit carries 141 past it to main()
        try:
            return super().invoke(ctx)
        except BrokenPipeError as exc:
            raise click.exceptions.Exit(_closed_pipe_code(exc)) from None


@click.group(cls=KtsolveGroup, context_settings=CONTEXT)
@click.version_option(_pkg_version("ktsolve"), "--version", prog_name="ktsolve")
def cli():
    """Knight's tours on m x n boards with holes: solve, prove, verify."""


for _command in (solve_command, verify_command, methods_command, bench_group, enumerate_command, prove_command,
                 longest_command, warm_command, census_command, board_group, count_command):
    cli.add_command(_command)


def main(argv=None) -> None:
    """Run the program on ``argv`` (default: the process's arguments); raises ``SystemExit`` with the exit code."""
    cli.main(args=argv, prog_name="ktsolve")


def console_main() -> None:
    """The ``ktsolve`` program: run :func:`main`, flush, and end the process at once.

    When :func:`main` returns, the command's work is complete: every output
    file is closed and standard output and error only need flushing.  A
    process that has loaded numba's kernels then spends 0.1 to 0.8 s
    tearing down LLVM at interpreter exit, which a user waits for and which
    changes nothing, so the program ends with :func:`os._exit` after
    flushing.  Tests and other Python callers use :func:`main`, which raises
    ``SystemExit`` as usual.  A ``SystemExit`` carrying a message rather
    than a code (a user's module imported by ``bench methods --import`` may
    raise one) goes to Python, which prints it and exits as it always does.
    """
    from .args import start_process_clock

    start_process_clock()
    try:
        main()
        code = ExitCode.OK
    except SystemExit as exc:
        if exc.code is not None and not isinstance(exc.code, int):
            raise
        code = ExitCode.OK if exc.code is None else exc.code
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass  # a reader that left, or a closed stream: nothing more can be said
    os._exit(int(code))
