"""The ``ktsolve`` command line: parse the arguments, call the public API, print.

One module per command (``solve``, ``prove``, ``verify``, ``longest``,
``enumerate``, ``methods``, ``bench``, ``census``, ``warm``), each a few
lines over the public API; what they share is in :mod:`~ktsolve.cli.args`
(what a command reads: boards, parameters, seeds, output paths) and
:mod:`~ktsolve.cli.answers` (what it writes: the payload, the stderr lines,
Ctrl-C's one line); :mod:`~ktsolve.cli.app` holds the group, its one-line
errors and the program's entry points.  Exit codes come from
:mod:`ktsolve.exit_codes`.

Bad input is one line on standard error naming the problem, never a
traceback, exit code 2, and no output file is written.  Standard output
carries only the payload; every diagnostic goes to standard error.
"""

from .app import cli, console_main, main

__all__ = ["cli", "main", "console_main"]
