"""Command-line pieces about running the work: Ctrl-C's one line, and ``ktsolve warm``.

:mod:`ktsolve.cli` holds the commands that ask questions; this module holds
what they share about the run itself, so that a command stays a few lines:

* :func:`interruptible` runs the work and hands back its result, or None
  when Ctrl-C cut it short (a ``KeyboardInterrupt``, or a result whose
  ``stats["interrupted"]`` is set); the command then calls
  :func:`say_interrupted`, which prints exactly ``ktsolve: interrupted``
  on standard error and returns the exit code 130, and writes nothing.
* :data:`warm`, the ``ktsolve warm [METHOD...]`` command, compiles the
  methods' numba kernels ahead of their first run (:mod:`ktsolve.jit`);
* :func:`console_main`, the ``ktsolve`` program itself: :func:`ktsolve.cli.main`,
  then an immediate exit.

Examples
--------
>>> from ktsolve import SolveResult, Status
>>> interruptible(lambda: SolveResult(Status.UNKNOWN, stats={"interrupted": True})) is None
True
>>> interruptible(lambda: SolveResult(Status.FOUND)).status.value
'found'
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

import click

__all__ = ["EXIT_INTERRUPTED", "interruptible", "say_interrupted", "warm", "console_main"]

EXIT_INTERRUPTED = 130

#: What ``ktsolve warm`` says of a method, by the state :func:`ktsolve.jit.warm_method` reports.
_WARM_LINES = {
    "compiled": "compiled in {compiled:.2f} s",
    "loaded": "ready (loaded from numba's cache in {seconds:.2f} s)",
    "no kernels": "no kernels to compile",
    "no warm": "its kernels compile on its first run (it cannot be warmed ahead)",
}


def interruptible(call: Callable[[], object]):
    """``call()``'s result, or None when Ctrl-C cut the work short."""
    try:
        res = call()
    except KeyboardInterrupt:  # a Ctrl-C outside the methods' guards (imports, a second Ctrl-C)
        return None
    stats = getattr(res, "stats", None)
    return None if isinstance(stats, dict) and stats.get("interrupted") else res


def say_interrupted() -> int:
    """The one line of an interrupted command (nothing is written); returns the exit code 130.

    Examples
    --------
    >>> from click.testing import CliRunner
    >>> CliRunner().invoke(click.command()(lambda: say_interrupted())).stderr
    'ktsolve: interrupted\\n'
    """
    click.echo("ktsolve: interrupted", err=True)
    return EXIT_INTERRUPTED


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("names", nargs=-1, metavar="[METHOD]...")
def warm(names):
    """Compile the numba kernels of METHOD (every method by default) ahead of their first run.

    numba compiles a method's kernels the first time it runs and keeps them
    in its cache; this does it now, so that the first real run starts at
    once.  One line per method says what was done.
    """
    from .jit import warm_method
    from .registry import methods

    reg = methods()
    unknown = [n for n in names if n not in reg]
    if unknown:
        raise click.BadParameter(f"no method {unknown[0]!r}; choose from {', '.join(reg)}", param_hint="METHOD")
    for name in names or list(reg):
        report = interruptible(lambda: warm_method(reg[name].load()))  # noqa: B023 - called at once
        if report is None:
            return say_interrupted()
        state, compiled, seconds = report
        click.echo(f"{name}: " + _WARM_LINES[state].format(compiled=compiled, seconds=seconds))
    return 0


def console_main() -> None:
    """The ``ktsolve`` program: run :func:`ktsolve.cli.main`, flush, and end the process at once.

    When :func:`~ktsolve.cli.main` returns, the command's work is complete:
    every output file is closed and standard output and error only need
    flushing.  A process that has loaded numba's kernels then spends 0.1 to
    0.8 s tearing down LLVM at interpreter exit, which a user waits for and
    which changes nothing, so the program ends with :func:`os._exit` after
    flushing.  Tests and other Python callers use :func:`ktsolve.cli.main`,
    which raises ``SystemExit`` as usual.
    """
    from .cli import main

    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass  # a reader that left, or a closed stream: nothing more can be said
    os._exit(code)
