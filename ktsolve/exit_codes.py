"""The exit codes of the ``ktsolve`` program, every command and the census, in one table.

A command's exit code says what kind of answer it gave; the payload itself
is on standard output.  Every number below is defined here and nowhere
else: results (:attr:`ktsolve.result.Status.exit_code`), the census report
and the commands all name a member of :class:`ExitCode`.

=====  ===============  =====================================================
code   member           meaning
=====  ===============  =====================================================
0      ``FOUND``        a tour (or path) was found; also ``OK``: ``verify``
                        found the tour valid, a census settled every
                        question, a listing or benchmark ran
1      ``INFEASIBLE``   proved that no tour exists; also ``INVALID``:
                        ``verify`` found a fault in the tour, ``bench
                        methods`` saw a run contradict ``prove`` or a tour
                        the validator refuses
2      ``BAD_INPUT``    bad input: one line on standard error naming the
                        problem, nothing written
3      ``UNKNOWN``      a budget (time, cycles) ran out before an answer;
                        for a census, some question is still unknown
70     ``INTERNAL``     a fault inside ktsolve (a bug): ``ktsolve: internal
                        error ...`` on standard error naming the exception,
                        its traceback after it when the environment sets
                        ``KTSOLVE_TRACEBACK`` (70 is sysexits' EX_SOFTWARE)
130    ``INTERRUPTED``  Ctrl-C (128 + SIGINT): ``ktsolve: interrupted`` on
                        standard error, no output file
141    ``CLOSED_PIPE``  standard output's reader left early (128 + SIGPIPE,
                        ``ktsolve solve 2000x2000 | head``); nothing is said
=====  ===============  =====================================================

Examples
--------
>>> int(ExitCode.UNKNOWN), ExitCode(1).name, ExitCode.INVALID is ExitCode.INFEASIBLE
(3, 'INFEASIBLE', True)
"""

from __future__ import annotations

import enum

__all__ = ["ExitCode"]


class ExitCode(enum.IntEnum):
    """What the ``ktsolve`` program's exit status means (see the module's table)."""

    FOUND = 0
    INFEASIBLE = 1
    BAD_INPUT = 2
    UNKNOWN = 3
    INTERNAL = 70
    INTERRUPTED = 130
    CLOSED_PIPE = 141

    # the same numbers under the names that read right where no tour is asked for
    OK = 0
    INVALID = 1
